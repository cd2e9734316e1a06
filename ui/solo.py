"""Solo play in the app: the computer opponent (campaign/opponent, docs/computer-opponent.md).

A *Solo* menu offers **New solo game…** (the player's side and the computer's strength),
**Computer plays…** (which nations the computer commands in this game), **Suggest orders**
(the computer's orders for the nation in the orders panel, put there to be edited, one
undo away) and **Computer gives its orders now**. The nations the computer commands are
kept in the game file; at the start of each turn it gives their orders itself. A *Score*
tab beside the turn report shows the solo score and why the viewed team's orders were
given. Anything that takes more than a second shows a progress bar.

Wired into the main window by :func:`install` (a few lines in ui/mainwindow.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QProgressDialog,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from campaign import paths
from campaign.engine import Campaign
from campaign.orders import Orders, OrdersError, live_reasons
from campaign.scenario import load_scenario
from campaign.score import format_score, game_score
from campaign.world import World

from .mapview import THEATRES

if TYPE_CHECKING:
    from campaign.opponent import Scope

    from .mainwindow import MainWindow

#: the game-file meta key holding the computer's nations: {nation: level}
SEATS_KEY = "computer_seats"
#: the game-file meta key holding forces handed over every turn: {nation: {theatre, parts,
#: level}}
COMMANDS_KEY = "computer_commands"
LEVEL_NAMES = {"novice": "Novice", "captain": "Captain", "admiral": "Admiral"}
SIDE_NAMES = {"allies": "Allies", "axis": "Axis"}
#: the kinds of orders a person may hand to the computer (campaign.opponent.scope.PARTS)
PART_NAMES = {
    "escorts": "Escorts of merchant routes",
    "raids": "Submarine raids",
    "fleet": "Task forces, operations and cards",
    "logistics": "Supplies, transfers and tonnage (whole nation only)",
}


class SoloDialog(QDialog):
    """New solo game: the player's side and the computer's strength."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = _dialog(
            self,
            "New solo game",
            "The 1942 campaign against the computer. You give the orders of every nation "
            "of your side; the computer plays the others (neutrals too).",
        )
        form = QFormLayout()
        self.side = QComboBox()
        for key, name in SIDE_NAMES.items():
            self.side.addItem(name, key)
        self.level = _level_box()
        form.addRow("Your side", self.side)
        form.addRow("Computer's strength", self.level)
        layout.addLayout(form)
        layout.addWidget(_ok_cancel(self))


class SeatsDialog(QDialog):
    """Computer plays…: a check box per nation, and the strength."""

    def __init__(
        self, nations: list[tuple[str, str]], seats: dict[str, str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        layout = _dialog(
            self, "Computer plays…", "The computer gives these nations' orders each turn:"
        )
        self.boxes: dict[str, QCheckBox] = {}
        for nation, name in nations:
            box = QCheckBox(name)
            box.setChecked(nation in seats)
            self.boxes[nation] = box
            layout.addWidget(box)
        form = QFormLayout()
        self.level = _level_box(next(iter(seats.values()), "admiral"))
        form.addRow("Strength", self.level)
        layout.addLayout(form)
        layout.addWidget(_ok_cancel(self))

    def seats(self) -> dict[str, str]:
        level = str(self.level.currentData())
        return {n: level for n, box in self.boxes.items() if box.isChecked()}


class HandDialog(QDialog):
    """Hand forces to the computer: a theatre, the kinds of orders, or one task force."""

    def __init__(self, task_forces: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = _dialog(
            self,
            "Hand forces to the computer",
            "The computer gives these orders; the rest of the draft stays yours. Its "
            "orders join the draft, to be checked and changed before resolving.",
        )
        form = QFormLayout()
        self.theatre = QComboBox()
        self.theatre.addItem("Everywhere", "")
        for name in THEATRES:
            self.theatre.addItem(name, name)
        self.task_force = QComboBox()
        self.task_force.addItem("(any)", "")
        for tf_id, name in task_forces:
            self.task_force.addItem(name, tf_id)
        form.addRow("Forces based in", self.theatre)
        form.addRow("Only the task force", self.task_force)
        self.level = _level_box()
        form.addRow("Strength", self.level)
        layout.addLayout(form)
        self.parts: dict[str, QCheckBox] = {}
        for key, label in PART_NAMES.items():
            box = QCheckBox(label)
            box.setChecked(key == "escorts")
            self.parts[key] = box
            layout.addWidget(box)
        self.every_turn = QCheckBox("Every turn (a theatre and kinds of orders, not a task force)")
        layout.addWidget(self.every_turn)
        layout.addWidget(_ok_cancel(self))

    def level_key(self) -> str:
        return str(self.level.currentData())

    def theatre_name(self) -> str:
        return str(self.theatre.currentData() or "")

    def part_keys(self) -> list[str]:
        return sorted(k for k, box in self.parts.items() if box.isChecked())

    def scope(self, world: World, draft: Orders) -> Scope:
        tf_id = str(self.task_force.currentData() or "")
        units = next((frozenset(t.units) for t in draft.task_forces if t.id == tf_id), frozenset())
        which = f" of '{self.task_force.currentText()}'" if tf_id else ""
        return scope_of(world, self.theatre_name(), self.part_keys(), units, which)


def scope_of(
    world: World,
    theatre: str,
    parts: Iterable[str],
    units: frozenset[str] = frozenset(),
    which: str = "",
) -> Scope:
    """The forces a person hands over: those based in a theatre of the map ("" :
    everywhere), these kinds of orders (none: all), these units (a task force's)."""
    chosen = frozenset(p for p in parts if p in PART_NAMES)
    words = [PART_NAMES[p].split(" (")[0].lower() for p in sorted(chosen)] or ["all"]
    where = f" in the {theatre}" if theatre else ""
    from campaign.opponent import Scope

    return Scope(
        areas=theatre_areas(world, theatre),
        units=units,
        parts=chosen,
        name=f"{' and '.join(words)}{which}{where}",
    )


def theatre_areas(world: World, theatre: str) -> frozenset[str]:
    """The sea areas whose label point lies in a theatre of the map (ui.mapview.THEATRES;
    a box east of 180° wraps round); "" : none (everywhere)."""
    if not theatre:
        return frozenset()
    west, north, east, south = THEATRES[theatre]
    out = set()
    for area in world.areas.values():
        lon = area.lon + 360 if east > 180 and area.lon < west else area.lon
        if west <= lon <= east and south <= area.lat <= north:
            out.add(area.id)
    return frozenset(out)


def _dialog(dialog: QDialog, title: str, note: str) -> QVBoxLayout:
    """A dialog's title and its opening words (wrapped); returns its layout."""
    dialog.setWindowTitle(title)
    layout = QVBoxLayout(dialog)
    label = QLabel(note)
    label.setWordWrap(True)
    layout.addWidget(label)
    return layout


def _ok_cancel(dialog: QDialog) -> QDialogButtonBox:
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
    )
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


def _levels() -> tuple[str, ...]:
    """The computer's strengths (campaign.opponent, loaded when first asked: a game with no
    computer seat never needs it, and it is a tenth of the program's code to compile)."""
    from campaign.opponent import LEVELS

    return tuple(LEVELS)


def _advise(
    campaign: Campaign,
    nation: str,
    level: str,
    tell: Callable[[str], None],
    scope: Scope | None = None,
    draft: Orders | None = None,
) -> Orders:
    """The computer's orders (campaign.opponent.play.advise, loaded when first asked)."""
    from campaign.opponent.play import advise

    return advise(campaign, nation, level, None, tell, scope, draft)


def _level_box(chosen: str = "admiral") -> QComboBox:
    box = QComboBox()
    for key in _levels():
        box.addItem(LEVEL_NAMES.get(key, key), key)
    box.setCurrentIndex(max(box.findData(chosen), 0))
    return box


class Solo(QObject):
    """The Solo menu, the computer's seats and the Score tab of one main window."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.session = window.session
        menu = window.menuBar().addMenu("&Solo")
        self.menu = menu
        menu.addAction("&New solo game…", self.new_solo_game)
        menu.addAction("&Computer plays…", self.choose_seats)
        self.suggest_action = menu.addAction("&Suggest orders", self.suggest)
        self.suggest_action.setStatusTip(
            "The computer's orders for the nation in the orders panel, to edit"
        )
        self.hand_action = menu.addAction("&Hand forces to the computer…", self.hand_over)
        self.hand_action.setStatusTip(
            "The computer commands part of the nation in the orders panel: a theatre's "
            "forces, some kinds of orders, or one task force"
        )
        menu.addAction("&Take back command of this nation", self.take_back)
        menu.addAction("Computer gives its orders no&w", lambda: self.give_orders(force=True))
        self.score = QTextBrowser()
        window.report.tabs.addTab(self.score, "Score")
        self.session.gameChanged.connect(self._turn_started)
        self.session.stateChanged.connect(self._turn_started)
        self.session.stateChanged.connect(self.refresh_score)
        self.session.gameChanged.connect(self.refresh_score)
        self.session.ordersChanged.connect(lambda _n: self.refresh_score())
        window.report.viewerChanged.connect(lambda _n: self.refresh_score())
        self.refresh_score()

    # -- the computer's seats (kept in the game file) -------------------------------------------
    def _meta(self, key: str) -> dict[str, object]:
        """A JSON object kept in the game file, by nation, for nations that play ({} if
        none, or not an object: a file edited by hand is read, never trusted)."""
        if not self.session.is_open:
            return {}
        text = self.session.require().game.meta(key)
        try:
            data = json.loads(text) if text else {}
        except json.JSONDecodeError:
            return {}
        if not isinstance(data, dict):
            return {}
        teams = set(self.session.board().teams())
        return {str(n): v for n, v in data.items() if n in teams}

    def seats(self) -> dict[str, str]:
        seats = self._meta(SEATS_KEY)
        return {n: str(lv) for n, lv in seats.items() if str(lv) in _levels()} if seats else {}

    def set_seats(self, seats: dict[str, str]) -> None:
        self.session.require().game.set_meta(SEATS_KEY, json.dumps(seats, sort_keys=True))

    # -- actions -----------------------------------------------------------------------------------
    def new_solo_game(self) -> None:
        if not self.window.maybe_save():
            return
        dialog = SoloDialog(self.window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.start_solo_game(str(dialog.side.currentData()), str(dialog.level.currentData()))

    def start_solo_game(self, side: str, level: str) -> None:
        """A new 1942 game with the computer playing every nation not of ``side``."""
        self.session.new_game(load_scenario(paths.scenario_dir("1942")))
        board = self.session.board()
        mine = [n for n in board.teams() if board.side(n) == side]
        self.set_seats({n: level for n in board.teams() if n not in mine})
        self.give_orders()
        if mine:
            index = self.window.orders.nation.findData(mine[0])
            if index >= 0:
                self.window.orders.nation.setCurrentIndex(index)
            self.window.set_viewer(mine[0])
        self.window.chart.fit_world()
        self.refresh_score()

    def choose_seats(self) -> None:
        if not self.session.is_open:
            return
        board = self.session.board()
        nations = [(n, str(board.nations[n]["name"])) for n in board.teams()]
        dialog = SeatsDialog(nations, self.seats(), self.window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.set_seats(dialog.seats())
        self.give_orders()

    def suggest(self) -> None:
        """The computer's orders for the orders panel's nation, as an undoable edit of its
        draft (nothing is stored until the rules accept the draft, as for any edit)."""
        editor = self.window.orders
        nation = editor.current_nation
        if not self.session.is_open or not nation or self.session.state.step != 0:
            return
        orders = self._compute(
            [nation], lambda n, tell: _advise(self._campaign, n, "admiral", tell)
        )
        if orders:
            editor.edit(orders[nation], "Suggested orders")

    def hand_over(self) -> None:
        editor = self.window.orders
        nation = editor.current_nation
        if not self.session.is_open or not nation or self.session.state.step != 0:
            return
        draft = editor.draft(nation)
        dialog = HandDialog([(tf.id, tf.name) for tf in draft.task_forces], self.window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        if dialog.every_turn.isChecked():
            standing = self.standing()
            standing[nation] = {
                "theatre": dialog.theatre_name(),
                "parts": dialog.part_keys(),
                "level": dialog.level_key(),
            }
            self.set_standing(standing)
        self.hand(nation, dialog.scope(self.session.scenario.world, draft), dialog.level_key())

    def take_back(self) -> None:
        """The orders panel's nation is the person's again, whole, from the next turn."""
        nation = self.window.orders.current_nation
        standing = self.standing()
        if standing.pop(nation, None) is not None:
            self.set_standing(standing)
            self.refresh_score()

    def standing(self) -> dict[str, dict[str, object]]:
        """Forces handed to the computer every turn, by nation: {theatre, parts, level}."""
        return {
            n: v
            for n, v in self._meta(COMMANDS_KEY).items()
            if isinstance(v, dict)
            and str(v.get("level", "")) in _levels()
            and str(v.get("theatre", "")) in ("", *THEATRES)
            and isinstance(v.get("parts", []), list)
        }

    def set_standing(self, standing: dict[str, dict[str, object]]) -> None:
        self.session.require().game.set_meta(COMMANDS_KEY, json.dumps(standing, sort_keys=True))

    def standing_scope(self, nation: str) -> tuple[Scope, str]:
        entry = self.standing()[nation]
        parts = [str(p) for p in entry.get("parts", []) or []]  # type: ignore[attr-defined]
        scope = scope_of(self.session.scenario.world, str(entry.get("theatre", "")), parts)
        return scope, str(entry.get("level", "admiral"))

    def hand(self, nation: str, scope: Scope, level: str = "admiral") -> None:
        """The computer's orders for the forces ``scope`` hands it, merged into the
        nation's draft as one undoable edit, to be seen and changed before resolving."""
        editor = self.window.orders
        draft = editor.draft(nation)
        orders = self._compute(
            [nation],
            lambda n, tell: _advise(self._campaign, n, level, tell, scope, draft),
        )
        if orders:
            if editor.current_nation != nation:
                editor.nation.setCurrentIndex(editor.nation.findData(nation))
            editor.edit(orders[nation], f"Computer commands {scope.name or 'some forces'}")

    def give_orders(self, force: bool = False) -> None:
        """The computer gives the orders of its nations that have none this turn (all of
        them with ``force``)."""
        if not self.session.is_open or self.session.state.step != 0:
            return
        seats = self.seats()
        if self.session.state.turn > self.session.scenario.meta.last_turn:
            return
        stored = self.session.all_orders()
        due = [n for n in seats if force or n not in stored]
        if not due:
            return
        computed = self._compute(due, lambda n, tell: _advise(self._campaign, n, seats[n], tell))
        for nation, orders in computed.items():
            problems = self.session.set_orders(nation, orders)
            if problems:  # never expected: the computer's orders pass the same check
                self.window.error(
                    "The computer's orders were refused",
                    "\n".join(str(p) for p in problems),
                )
                return
            self.window.orders.drafts.pop(nation, None)
        self.window.orders.refresh()

    @property
    def _campaign(self) -> Campaign:
        return self.session.require()

    def _compute(
        self, nations: Iterable[str], make: Callable[[str, Callable[[str], None]], Orders]
    ) -> dict[str, Orders]:
        """Run ``make`` for each nation with a progress bar (shown after a second)."""
        nations = list(nations)
        progress = QProgressDialog("The computer is thinking…", "", 0, len(nations), self.window)
        progress.setWindowTitle("Computer")
        progress.setCancelButton(None)
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(1000)
        out: dict[str, Orders] = {}

        def tell(text: str) -> None:
            progress.setLabelText(text)
            QApplication.processEvents()

        try:
            for i, nation in enumerate(nations):
                progress.setValue(i)
                try:
                    out[nation] = make(nation, tell)
                except OrdersError as exc:  # pragma: no cover - defensive
                    self.window.error("The computer could not give orders", str(exc))
                    return {}
        finally:
            progress.setValue(len(nations))
            progress.close()
        return out

    def _turn_started(self) -> None:
        if not self.session.is_open or self.session.state.step != 0:
            return
        if self.seats():
            self.give_orders()
        seats, stored = self.seats(), self.session.all_orders()
        for nation in self.standing():
            if nation not in seats and nation not in stored:
                scope, level = self.standing_scope(nation)
                self.hand(nation, scope, level)

    # -- the Score tab -----------------------------------------------------------------------------
    def refresh_score(self) -> None:
        if not self.session.is_open:
            self.score.setPlainText("No game is open.")
            return
        campaign = self.session.require()
        viewer = self.window.report.viewer
        board = self.session.board()
        side = board.side(viewer) if viewer else None
        lines = ["Solo score (docs/computer-opponent.md)", ""]
        if side == "neutral":
            lines.append("A neutral is not scored.")
        else:
            over = self.session.state.turn > self.session.scenario.meta.last_turn
            lines += format_score(game_score(campaign), None, side, over)
        seats = self.seats()
        if seats:
            names = ", ".join(str(board.nations[n]["name"]) for n in seats)
            lines += ["", f"The computer plays: {names}."]
        for nation in self.standing():
            scope, _ = self.standing_scope(nation)
            lines.append(f"The computer commands {scope.name} of {board.name_of(nation)}.")
        if viewer:
            orders = campaign.orders().get(viewer)
            reasons = live_reasons(orders) if orders is not None else []
            if reasons:
                lines += ["", f"Why {board.name_of(viewer)}'s orders this turn:"]
                lines += [f"  • {r.text}" for r in reasons]
        self.score.setPlainText("\n".join(lines))


def install(window: MainWindow) -> Solo:
    """Add the Solo menu and the Score tab to ``window``."""
    return Solo(window)
