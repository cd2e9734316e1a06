"""The battle window: a naval battle fought out with a tactical rule set.

Both forces as ship cards (type, speed, guns, air groups, damage and state), what each
tactical turn plays (the rule set's phases), the battle log in words turn by turn, and
buttons to play the next tactical turn or fight to the end. When the battle is over the
window says what it means for the campaign — each unit's step losses and why, and who wins
— before closing hands it back to step 8, which applies exactly that (closing earlier
fights the rest automatically; the turn report then explains the result).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from html import escape

from PySide6.QtCore import QEventLoop
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from campaign.dice import DiceError
from campaign.state import Unit
from campaign.tactical import BattleSetup, Ship, TacticalBattle, ignored_conditions
from campaign.tactical.outcome import KIND_WORDS, campaign_decision, step_losses, unit_rosters

#: a rule set's turn prefix on each line ("Turn 3: ", "Turn 3, ", "Move 3: ")
_TURN_PREFIX = re.compile(r"^(?:Turn|Move|Strike) \d+(?:: |, )")

STATE_COLOURS = {
    "undamaged": "#2f6f4f",
    "damaged": "#b7791f",
    "crippled": "#c05621",
    "sunk": "#a33b3b",
}


def _guns(ship: Ship) -> str:
    return " ".join(f"{n}×{cal}" for cal, n in ship.guns.items()) or "—"


def _air(ship: Ship) -> str:
    """Aircraft left by kind: "18 fighters, 1 dive bomber"."""
    parts = []
    for g in ship.air_groups:
        n = g.aircraft - g.lost
        words = KIND_WORDS.get(g.kind, g.kind.replace("_", " "))
        parts.append(f"{n} {words[:-1] if n == 1 and words.endswith('s') else words}")
    return ", ".join(parts) or "—"


class BattleWindow(QDialog):
    """``units``: each side's campaign units (``"a"`` / ``"b"``), for the step losses and
    the campaign winner the battle comes to; without them the window shows the battle only.
    """

    def __init__(
        self,
        battle: TacticalBattle,
        setup: BattleSetup,
        parent: QWidget | None = None,
        units: Mapping[str, list[Unit]] | None = None,
    ) -> None:
        super().__init__(parent)
        self.battle = battle
        self.setup = setup
        self.units = dict(units or {})
        self.setWindowTitle(f"{setup.title} — {battle.rule_set} rules")
        self.resize(1100, 680)
        layout = QVBoxLayout(self)
        self.heading = QLabel()
        layout.addWidget(self.heading)
        phases = " · ".join(escape(p, quote=False) for p in getattr(battle, "phases", ()))
        text = f"Each tactical turn plays: {phases}" if phases else ""
        ignored = ignored_conditions(battle.rule_set, setup)
        if ignored:
            text += (
                f"<br>These rules do not read the set-up's {', '.join(map(escape, ignored))} "
                "(Help → Battle set-up files lists what each rule set reads)."
            )
        self.phases = QLabel(text)
        self.phases.setWordWrap(True)
        self.phases.setStyleSheet("color: #44525e")
        layout.addWidget(self.phases)
        cards = QHBoxLayout()
        self.tables: list[QTableWidget] = []
        for side in (setup.a, setup.b):
            box = QVBoxLayout()
            box.addWidget(QLabel(f"<b>{side.name}</b>"))
            table = QTableWidget(len(side.ships), 6)
            table.setHorizontalHeaderLabels(["Ship", "State", "Type", "Speed", "Guns", "Air"])
            table.verticalHeader().setVisible(False)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            table.horizontalHeader().setStretchLastSection(True)  # the air groups take the rest
            box.addWidget(table)
            cards.addLayout(box)
            self.tables.append(table)
        layout.addLayout(cards, 2)
        self.log = QTextBrowser()
        layout.addWidget(self.log, 2)
        self.outcome = QLabel()
        self.outcome.setWordWrap(True)
        layout.addWidget(self.outcome)
        buttons = QHBoxLayout()
        self.next_button = QPushButton("Next tactical turn")
        self.end_button = QPushButton("Fight to the end")
        self.close_button = QPushButton("Close and apply the result")
        for b in (self.next_button, self.end_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        layout.addLayout(buttons)
        self.next_button.clicked.connect(self.next_turn)
        self.end_button.clicked.connect(self.to_the_end)
        self.close_button.clicked.connect(self.accept)
        self.turns = 0
        #: a typed-in roll the umpire did not enter: the battle stops half-way through a
        #: turn and the window closes; the caller decides (step 8 leaves the game untouched)
        self.stopped: DiceError | None = None
        self.refresh()

    def next_turn(self, refresh: bool = True) -> None:
        if not self.battle.finished:
            self.turns += 1
            try:
                lines = self.battle.step()
            except DiceError as exc:
                self.stopped = exc
                self.reject()
                return
            # the heading says which turn: the rule set's own "Turn 3: " goes
            shown = [_TURN_PREFIX.sub("", line, count=1) for line in lines]
            body = "<br>".join(escape(line) for line in shown) or "<i>nothing happens</i>"
            self.log.append(f"<p><b>Tactical turn {self.turns}</b><br>{body}</p>")
        if refresh:
            self.refresh()

    def to_the_end(self) -> None:
        """Fight every remaining turn, saying which turn it is on as it goes (a carrier
        battle can take seconds); the ship cards are redrawn once, at the end."""
        self.next_button.setEnabled(False)
        self.end_button.setEnabled(False)
        while not self.battle.finished and self.turns < 200 and self.stopped is None:
            self.next_turn(refresh=False)
            self.heading.setText(
                f"<b>{escape(self.setup.title)}</b> · fighting on: tactical turn {self.turns}…"
            )
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        if self.stopped is None:
            self.refresh()

    def refresh(self) -> None:
        ships = self.battle.result().ships
        for table, side in zip(self.tables, (self.setup.a, self.setup.b), strict=True):
            for row, start in enumerate(side.ships):
                ship = ships.get(start.id, start)
                cells = [
                    ship.name,
                    ship.state + (f" (damage {ship.damage})" if ship.damage else ""),
                    ship.type.replace("_", " "),
                    f"{ship.speed:g} kn",
                    _guns(ship),
                    _air(ship),
                ]
                for col, text in enumerate(cells):
                    item = QTableWidgetItem(text)
                    if col == 1:
                        item.setForeground(_colour(ship.state))
                    table.setItem(row, col, item)
        done = self.battle.finished
        self.heading.setText(
            f"<b>{self.setup.title}</b> · tactical turn {self.turns}"
            + (" · <b>the battle is over</b>" if done else "")
        )
        self.next_button.setEnabled(not done)
        self.end_button.setEnabled(not done)
        if not self.units:  # a battle of its own: nothing goes back to a campaign
            self.close_button.setText("Close")
        else:
            self.close_button.setText(
                "Close and apply the result" if done else "Close: fight the rest automatically"
            )
        self.outcome.setText(self.campaign_outcome() if done else "")

    def campaign_outcome(self) -> str:
        """What the finished battle means for the campaign, in words (the rule of
        campaign/tactical/outcome.py, as step 8 will apply it)."""
        result = self.battle.result()
        everyone = [*self.units.get("a", []), *self.units.get("b", [])]
        if not everyone:
            return ""
        losses = step_losses(result, everyone, unit_rosters(self.setup))
        names = {u.id: u.name for u in everyone}
        lines = []
        for loss in losses:
            steps = (
                f"{loss.steps} step{'s' if loss.steps != 1 else ''}" if loss.steps else "no step"
            )
            lines.append(f"{escape(names.get(loss.unit, loss.unit))}: {steps} ({escape(loss.why)})")
        winner, why = campaign_decision(self.units.get("a", []), self.units.get("b", []), losses)
        side = self.setup.a if winner == "a" else self.setup.b
        return (
            "<b>Back to the campaign</b> — closing applies: "
            + "; ".join(lines)
            + f". Winner: <b>{escape(side.name)}</b> ({escape(why)})."
        )


def _colour(state: str) -> QBrush:
    return QBrush(QColor(STATE_COLOURS.get(state, "#1d2b36")))
