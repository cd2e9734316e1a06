"""The battle window: a naval battle fought out with a tactical rule set.

Both forces as ship cards (type, speed, guns, air groups, damage and state), the battle
log in words, and buttons to play the next tactical turn or fight to the end. Closing the
window hands the battle back to step 8, which finishes it if need be and turns its result
into campaign step losses — explained in the turn report.
"""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
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

from campaign.tactical import BattleSetup, Ship, TacticalBattle

STATE_COLOURS = {
    "undamaged": "#2f6f4f",
    "damaged": "#b7791f",
    "crippled": "#c05621",
    "sunk": "#a33b3b",
}


def _guns(ship: Ship) -> str:
    return " ".join(f"{n}×{cal}" for cal, n in ship.guns.items()) or "—"


def _air(ship: Ship) -> str:
    return (
        ", ".join(f"{g.aircraft - g.lost} {g.kind.replace('_', ' ')}" for g in ship.air_groups)
        or "—"
    )


class BattleWindow(QDialog):
    def __init__(
        self, battle: TacticalBattle, setup: BattleSetup, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.battle = battle
        self.setup = setup
        self.setWindowTitle(f"{setup.title} — {battle.rule_set} rules")
        self.resize(1100, 680)
        layout = QVBoxLayout(self)
        self.heading = QLabel()
        layout.addWidget(self.heading)
        cards = QHBoxLayout()
        self.tables: list[QTableWidget] = []
        for side in (setup.a, setup.b):
            box = QVBoxLayout()
            box.addWidget(QLabel(f"<b>{side.name}</b>"))
            table = QTableWidget(len(side.ships), 6)
            table.setHorizontalHeaderLabels(["Ship", "Type", "Speed", "Guns", "Air", "State"])
            table.verticalHeader().setVisible(False)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            table.horizontalHeader().setStretchLastSection(True)
            box.addWidget(table)
            cards.addLayout(box)
            self.tables.append(table)
        layout.addLayout(cards, 2)
        self.log = QTextBrowser()
        layout.addWidget(self.log, 2)
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
        self.refresh()

    def next_turn(self) -> None:
        if not self.battle.finished:
            self.turns += 1
            for line in self.battle.step():
                self.log.append(line)
        self.refresh()

    def to_the_end(self) -> None:
        while not self.battle.finished and self.turns < 200:
            self.next_turn()

    def refresh(self) -> None:
        ships = self.battle.result().ships
        for table, side in zip(self.tables, (self.setup.a, self.setup.b), strict=True):
            for row, start in enumerate(side.ships):
                ship = ships.get(start.id, start)
                cells = [
                    ship.name,
                    ship.type.replace("_", " "),
                    f"{ship.speed:g} kn",
                    _guns(ship),
                    _air(ship),
                    ship.state + (f" ({ship.damage})" if ship.damage else ""),
                ]
                for col, text in enumerate(cells):
                    item = QTableWidgetItem(text)
                    if col == 5:
                        item.setForeground(_colour(ship.state))
                    table.setItem(row, col, item)
        done = self.battle.finished
        self.heading.setText(
            f"<b>{self.setup.title}</b> · tactical turn {self.turns}"
            + (" · <b>the battle is over</b>" if done else "")
        )
        self.next_button.setEnabled(not done)
        self.end_button.setEnabled(not done)
        self.close_button.setText(
            "Close and apply the result" if done else "Close: fight the rest automatically"
        )


def _colour(state: str) -> QBrush:
    return QBrush(QColor(STATE_COLOURS.get(state, "#1d2b36")))
