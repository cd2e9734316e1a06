"""The main window: the sea chart in the middle, orders and details on the right, the
turn's report (with the calculator and the odds) below, the ten steps across the top."""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEventLoop, QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent, QUndoStack
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QScrollArea,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from campaign import paths
from campaign.csvdata import InputError
from campaign.dice import Dice, DiceError, ManualDice, SeededDice
from campaign.gamefile import GameFileError
from campaign.orders import OrdersError, read_orders_file
from campaign.scenario import load_scenario
from campaign.state import Unit

from . import export, solo
from .details import DetailsPanel
from .dialogs import DialogLosses, ask_die
from .helpdocs import DOCUMENTS, DocumentWindow
from .legend import MapLegend
from .mapview import SeaChart
from .orders import ORDERS_FILTER, OrdersEditor
from .report import ReportPanel
from .session import GameSession, discard_recovery
from .turnbar import TurnBar

if TYPE_CHECKING:
    # made when first asked for: the seats bring in the web server; the panels of tabs
    # nobody has opened yet, the battle windows and the printouts are not needed to start
    # (nor the rules of the steps, loaded when a turn is resolved)
    from campaign.operations import BattleChoice, BattlePreview
    from campaign.tactical import BattleSetup, TacticalBattle

    from .calculator import CalculatorPanel
    from .clockwindow import ClockWindow
    from .controlroom import ControlPanel
    from .oddschart import OddsPanel
    from .scenario_editor import EditorLauncher
    from .seats import SeatsDialog
    from .tacticalodds import ComingBattle, TacticalOddsPanel

THEATRES = (
    "Pacific",
    "Atlantic",
    "Mediterranean",
    "Indian Ocean",
    "East Indies",
    "North Sea & Arctic",
)
FILTER = "Sea Control games (*.seacontrol)"
LAYOUT_VERSION = 2  # of the saved dock layout: a new layout ignores older saved ones


class MainWindow(QMainWindow):
    def __init__(self, session: GameSession | None = None, ask_losses: bool = True) -> None:
        super().__init__()
        self.session = session or GameSession(self)
        self.session.losses = DialogLosses(self, ask=ask_losses)
        if ask_losses:
            self.session.fight = self.choose_resolution
            self.session.watch = self.show_battle
        self.undo = QUndoStack(self)
        self.setMinimumSize(1000, 640)
        self.resize(1366, 768)
        self.turnbar = TurnBar(self.session)
        toolbar = QToolBar("The turn")
        toolbar.setObjectName("turn")
        toolbar.setMovable(False)
        toolbar.addWidget(self.turnbar)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)
        self.chart = SeaChart(self.session)
        # whose view the chart shows, in a bar above it (a team's view on a projector must
        # say so at a glance)
        self.banner = QLabel()
        self.banner.setObjectName("viewBanner")
        self.banner.setStyleSheet(
            "background:#23425c; color:white; padding:4px 8px; font-weight:bold;"
        )
        self.banner.hide()
        centre = QWidget()
        column = QVBoxLayout(centre)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        self.seal_bar = self._seal_bar()
        column.addWidget(self.seal_bar)
        column.addWidget(self.banner)
        column.addWidget(self.chart, 1)
        self.setCentralWidget(centre)
        self.legend = MapLegend(self.session, self.chart)
        # The orders column runs the full height; the report sits under the map only.
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.setCorner(Qt.Corner.TopRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self._sized = False
        self.documents: list[DocumentWindow] = []
        self.seats_dialog: SeatsDialog | None = None  # Game → Open team seats
        self.clock_window: ClockWindow | None = None  # Game → Phase clock

        self.orders = OrdersEditor(self.session, self.undo)
        self.details = DetailsPanel(self.session)
        right = QTabWidget()
        right.addTab(self.orders, "Orders")
        right.addTab(self.details, "Details")
        self.right_tabs = right
        self._control: ControlPanel | None = None  # a tab while Control edit mode is on
        self._scenario_editor: EditorLauncher | None = None
        self.session.gameChanged.connect(
            lambda: self.set_control_mode(self.control_action.isChecked())
        )
        self.right = self._dock("Orders and details", right, Qt.DockWidgetArea.RightDockWidgetArea)
        self.report = ReportPanel(self.session)
        self._calculator: CalculatorPanel | None = None
        self._odds: OddsPanel | None = None
        self._tactical_odds: TacticalOddsPanel | None = None
        bottom = QTabWidget()
        bottom.addTab(self.report, "Turn report")
        bottom.addTab(_LazyTab(lambda: _scrolling(self.odds, 380)), "Odds")
        self.tactical_odds_tab = _LazyTab(lambda: self.tactical_odds)
        bottom.addTab(self.tactical_odds_tab, "Fight-it-out odds")
        bottom.addTab(_LazyTab(lambda: _scrolling(self.calculator, 380)), "Umpire's calculator")
        self.bottom_tabs = bottom
        bottom.setMinimumHeight(140)
        self.bottom = self._dock("Report", bottom, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.status = QLabel()
        self.statusBar().addPermanentWidget(self.status)
        self.progress = QProgressBar()
        self.progress.setFormat("Resolving: step %v of 10")
        self.progress.setMaximumWidth(260)
        self.progress.hide()
        self.statusBar().addPermanentWidget(self.progress)

        self._menus()
        self.turnbar.resolveRequested.connect(self.resolve)
        self.turnbar.dice_mode.currentIndexChanged.connect(self._dice_mode)
        self.chart.selected.connect(self._selected)
        self.chart.taskForceDropped.connect(self._task_force_dropped)
        # the report's own view menu switches the chart and the details too
        self.report.viewerChanged.connect(self._show_viewer)
        self.session.gameChanged.connect(self._update_title)
        self.session.stateChanged.connect(self._update_title)
        self.session.dirtyChanged.connect(lambda _d: self._update_title())
        self.orders.problemsChanged.connect(self._problems)
        self.session.ordersChanged.connect(lambda _n: self._battles())
        self.session.stateChanged.connect(self._battles)
        self.session.gameChanged.connect(self._battles)
        self._update_title()
        self.solo = solo.install(self)  # Solo menu: the computer opponent, the score

    # -- panels made when first shown or asked for ----------------------------------------------
    @property
    def scenario_editor(self) -> EditorLauncher:
        """The way into the scenario editor (File → Scenario editor…)."""
        if self._scenario_editor is None:
            from .scenario_editor import EditorLauncher

            self._scenario_editor = EditorLauncher(self)
        return self._scenario_editor

    @property
    def control(self) -> ControlPanel:
        """Game Control's edit panel (a tab of the right column in Control edit mode)."""
        if self._control is None:
            from .controlroom import ControlPanel

            self._control = ControlPanel(self.session)
        return self._control

    @property
    def odds(self) -> OddsPanel:
        """The exact odds of the coming battles and of figures typed in."""
        if self._odds is None:
            from .oddschart import OddsPanel

            self._odds = OddsPanel()
            self._odds.set_battles(self._coming_battles(), self.chart.team is not None)
        return self._odds

    @property
    def tactical_odds(self) -> TacticalOddsPanel:
        """A coming battle fought out many times by a tactical rule set."""
        if self._tactical_odds is None:
            from .tacticalodds import TacticalOddsPanel

            self._tactical_odds = TacticalOddsPanel(self._coming_battle)
        return self._tactical_odds

    @property
    def calculator(self) -> CalculatorPanel:
        """The umpire's calculator for games played on paper."""
        if self._calculator is None:
            from .calculator import CalculatorPanel

            self._calculator = CalculatorPanel()
        return self._calculator

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title)
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(area, dock)
        return dock

    # -- menus --------------------------------------------------------------------------------
    def _action(
        self,
        menu: QMenu,
        text: str,
        slot: Callable[..., object],
        shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
        tip: str = "",
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        if tip:
            action.setStatusTip(tip)
        # a checkable action hands its slot the new state; any other calls it bare (a
        # slot with an optional argument must not receive Qt's "checked" flag as one)
        action.triggered.connect(
            lambda checked=False: slot(checked) if action.isCheckable() else slot()
        )
        menu.addAction(action)
        return action

    def _menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        self._action(
            file,
            "&New game…",
            self.new_game,
            QKeySequence.StandardKey.New,
            "Start a new game from a scenario",
        )
        self._action(file, "&Open…", self.open_game, QKeySequence.StandardKey.Open)
        self.recent_menu = file.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file.addSeparator()
        self._action(file, "&Save", self.save, QKeySequence.StandardKey.Save)
        self._action(file, "Save &as…", self.save_as, QKeySequence.StandardKey.SaveAs)
        file.addSeparator()
        self.control_only = [
            self._action(
                file,
                "&Load orders files…",
                lambda: self.load_orders_files(),
                "Ctrl+L",
                "Load one or more nations' orders files (JSON); each file names its nation",
            ),
            self._action(
                file,
                "Save e&very nation's orders…",
                lambda: self.save_orders_files(),
                tip="Write each nation's orders as <nation>.json into a folder",
            ),
        ]
        file.addSeparator()
        exports = file.addMenu("&Export")
        self._action(exports, "Turn report as PDF…", lambda: self._export("report", "pdf"))
        self._action(exports, "Turn report as CSV…", lambda: self._export("report", "csv"))
        self._action(exports, "Merchant route chart as PDF…", lambda: self._export("routes", "pdf"))
        self._action(exports, "Merchant route chart as CSV…", lambda: self._export("routes", "csv"))
        exports.addSeparator()
        # what shows every team's position is Game Control's: not offered in a team's view
        team_packs = self._action(
            exports,
            "Team packs…",
            self.export_team_packs,
            tip="One PDF per team: report, cards, route chart, order sheet and seat code",
        )
        handoffs = self._action(
            exports,
            "Hand-off sheets…",
            self.export_handoffs,
            tip="What the land and economic games need from this turn, as CSV and PDF",
        )
        file.addSeparator()
        editor = self._action(
            file,
            "Scenario e&ditor…",
            lambda: self.scenario_editor.open_editor(),
            tip="Build or edit a scenario: its order of battle, its bases and routes",
        )
        from_game = self._action(
            file,
            "New scenario from this &game…",
            lambda: self.scenario_editor.from_game(),
            tip="The game's position at the start of this turn, as a new scenario",
        )
        self.control_only += [team_packs, handoffs, editor, from_game]
        file.addSeparator()
        self._action(file, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        edit = bar.addMenu("&Edit")
        undo = self.undo.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.undo.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        edit.addAction(undo)
        edit.addAction(redo)

        turn = bar.addMenu("&Turn")
        self._action(
            turn,
            "&Next step",
            self.turnbar.next_button.click,
            "F5",
            "Resolve the next step of the turn",
        )
        self._action(
            turn,
            "&Resolve the turn",
            self.turnbar.turn_button.click,
            "Ctrl+F5",
            "Resolve every remaining step of the turn",
        )
        turn.addSeparator()
        self.control_only.append(
            self._action(
                turn,
                "Reopen a &turn…",
                self.reopen_turn,
                tip="Go back to the start of an earlier turn (its results are set aside)",
            )
        )

        game = bar.addMenu("&Game")
        self.control_action = self._action(
            game,
            "&Control edit mode",
            self.set_control_mode,
            "Ctrl+Shift+E",
            "Correct the game as it stands (each edit with a reason, seen by the teams "
            "concerned, undoable), see the audit, rule on cards",
        )
        self.control_action.setCheckable(True)
        rulings = self._action(
            game,
            "&Rule on Advantage Cards…",
            self.show_rulings,
            tip="Cards played for 'some other advantage' awaiting Game Control's ruling",
        )
        self.control_only += [self.control_action, rulings]
        game.addSeparator()
        seats = self._action(
            game,
            "Open team &seats…",
            self.open_seats,
            tip="Each team joins from its own browser with its seat code and submits its orders",
        )
        self._action(
            game,
            "Phase cl&ock…",
            self.open_clock,
            tip="The phase clock, full screen for a projector",
        )
        self.control_only.append(seats)

        view = bar.addMenu("&View")
        self._action(view, "&Fit the world", self.chart.fit_world, "Ctrl+0")
        for text, notches, zoom_key in (
            ("Zoom &in", 1.0, QKeySequence.StandardKey.ZoomIn),
            ("Zoom o&ut", -1.0, QKeySequence.StandardKey.ZoomOut),
        ):
            zoom = self._action(view, text, partial(self.chart.zoom_notches, notches))
            keys = QKeySequence.keyBindings(zoom_key)
            if notches > 0:  # Ctrl+= too: the same key as Ctrl++ without Shift
                keys.append(QKeySequence("Ctrl+="))
            zoom.setShortcuts(keys)
        theatres = view.addMenu("&Theatre")
        for name in THEATRES:
            label = name.replace("&", "&&")  # "North Sea & Arctic", not a shortcut
            self._action(theatres, label, lambda _c=False, n=name: self.chart.zoom_to(n))
        self._action(view, "Fin&d…", self.find_on_map, QKeySequence.StandardKey.Find)
        adjacency = self._action(view, "Show sea-area &links", self.chart.set_show_adjacency)
        adjacency.setCheckable(True)
        self.legend_action = self._action(
            view, "L&egend", self.set_legend, "Ctrl+Shift+L", "The key to the chart's marks"
        )
        self.legend_action.setCheckable(True)
        self.legend_action.setChecked(QSettings().value("legend", "true") == "true")
        self.set_legend(self.legend_action.isChecked())
        marks = self._action(
            view, "Last turn's ma&rks", self.chart.marks.set_visible, tip="Battles, landings…"
        )
        marks.setCheckable(True)
        marks.setChecked(True)
        view.addSeparator()
        self.map_only_action = self._action(
            view,
            "&Map only",
            self.set_map_only,
            "F11",
            "Hide the orders and report panels to give the chart the whole window",
        )
        self.map_only_action.setCheckable(True)
        self._action(
            view,
            "Larger re&port",
            self.enlarge_report,
            "F12",
            "Give the report most of the window's height (again: back to the chart)",
        )
        view.addSeparator()
        self._action(view, "View as &Game Control", lambda: self.set_viewer(None))
        self._action(
            view,
            "View as a te&am…",
            self.choose_team,
            tip="Show only what one team may know (fog of war)",
        )

        battles = bar.addMenu("&Battle")
        self._action(
            battles,
            "&Fight a battle…",
            self.fight_battle,
            "Ctrl+B",
            "Fight Midway, a rule set's example or a set-up file of your own, outside the game",
        )
        self._action(
            battles,
            "Fight-it-out &odds…",
            lambda: self.bottom_tabs.setCurrentWidget(self.tactical_odds_tab),
            tip="The odds of a battle fought out many times, beside the damage table's",
        )

        help_ = bar.addMenu("&Help")
        for label, doc in DOCUMENTS.items():
            key = QKeySequence.StandardKey.HelpContents if doc == "user-guide.md" else None
            self._action(
                help_, label, lambda _c=False, t=label, f=doc: self.show_document(t, f), key
            )
        help_.addSeparator()
        self._action(help_, "&About Sea Control", self.about)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.session.recent()
        if not recent:
            self.recent_menu.addAction("(none)").setEnabled(False)
        for path in recent:
            label = path.replace("&", "&&")
            self._action(self.recent_menu, label, lambda _c=False, p=path: self.open_game(p))

    # -- files ---------------------------------------------------------------------------------
    def offer_recovery(self) -> bool:
        """At start: offer back games left by a program that stopped. True if one was."""
        for working in self.session.recoverable():
            answer = QMessageBox.question(
                self,
                "Recover a game?",
                "Sea Control stopped without closing a game. Its last state was kept "
                f"(saved {working.stat().st_mtime and 'automatically after every step'}).\n\n"
                "Recover it?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Discard,
            )
            if answer == QMessageBox.StandardButton.Yes:
                try:
                    self.session.recover(working)
                    return True
                except GameFileError as exc:
                    self.error("The game could not be recovered", str(exc))
            discard_recovery(working)
        return False

    def maybe_save(self) -> bool:
        """Before unsaved changes would be lost: save, discard or cancel."""
        if not self.session.is_open or not self.session.dirty:
            return True
        answer = QMessageBox.question(
            self,
            "Unsaved changes",
            "The game has changes that are not saved. Save them?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_game(self) -> None:
        if not self.maybe_save():
            return
        choices = [*paths.builtin_scenarios(), "Another scenario folder…"]
        choice, ok = QInputDialog.getItem(self, "New game", "Scenario:", choices, 0, False)
        if not ok:
            return
        try:
            if choice == choices[-1]:
                folder = QFileDialog.getExistingDirectory(self, "Scenario folder")
                if not folder:
                    return
                scenario = load_scenario(folder)
            else:
                scenario = load_scenario(paths.scenario_dir(choice))
        except InputError as exc:
            self.error("The scenario cannot be used", str(exc))
            return
        self.session.new_game(scenario)
        self.chart.fit_world()

    def open_game(self, path: str | None = None) -> None:
        if not self.maybe_save():
            return
        if not path:
            path, _ = QFileDialog.getOpenFileName(self, "Open a game", "", FILTER)
            if not path:
                return
        try:
            self.session.open(path)
        except GameFileError as exc:
            self.error("The game cannot be opened", str(exc))
            return
        self.chart.fit_world()

    def save(self) -> bool:
        if not self.session.is_open:
            return False
        if self.session.path is None:
            return self.save_as()
        try:
            self.session.save()
        except OSError as exc:
            self.error(
                "The game could not be saved",
                f"{exc}. It is still safe in its working copy; try Save As to another folder.",
            )
            return False
        self.statusBar().showMessage(f"Saved {self.session.path}", 4000)
        return True

    def save_as(self) -> bool:
        if not self.session.is_open:
            return False
        start = str(self.session.path or Path.home() / "game.seacontrol")
        path, _ = QFileDialog.getSaveFileName(self, "Save the game as", start, FILTER)
        if not path:
            return False
        try:
            self.session.save_as(path)
        except OSError as exc:
            self.error("The game could not be saved", str(exc))
            return False
        return True

    def load_orders_files(self, files: list[str] | None = None) -> None:
        """Load nations' orders from files (each names its nation), as undoable changes;
        then say which were stored and which break a rule."""
        if not self.session.is_open:
            return
        if self.session.state.step != 0:
            self.error(
                "Orders cannot change now",
                "The turn is being resolved. Reopen the turn (Turn → Reopen a turn…) to "
                "change its orders.",
            )
            return
        if files is None:
            files, _ = QFileDialog.getOpenFileNames(self, "Load orders files", "", ORDERS_FILTER)
            if not files:
                return
        teams = self.session.board().teams()
        loaded: list[str] = []
        refused: list[str] = []
        for file in files:
            name = Path(file).name
            try:
                orders = read_orders_file(file)
            except OrdersError as exc:
                first = exc.problems[0]
                more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
                refused.append(f"{name}: {first.order}: {first.message}{more}")
                continue
            if orders.nation not in teams:
                valid = ", ".join(teams)
                refused.append(f"{name}: no team plays '{orders.nation}' (valid: {valid})")
                continue
            self.orders.load(orders, f"Load {name}")
            loaded.append(orders.nation)
        board = self.session.board()
        stored = [n for n in loaded if self.session.orders(n) == self.orders.draft(n)]
        problems = [n for n in loaded if n not in stored]
        lines = []
        if stored:
            lines.append("Stored: " + ", ".join(board.name_of(n) for n in stored) + ".")
        if problems:
            lines.append(
                "Loaded but breaking a rule (not stored until mended; see the orders "
                "panel): " + ", ".join(board.name_of(n) for n in problems) + "."
            )
        if refused:
            lines.append("Not loaded:\n" + "\n".join(f"• {r}" for r in refused))
        box = QMessageBox(
            QMessageBox.Icon.Warning if refused or problems else QMessageBox.Icon.Information,
            "Orders files",
            "\n\n".join(lines) or "No orders were loaded.",
            parent=self,
        )
        box.exec()

    def save_orders_files(self, folder: str | None = None) -> None:
        """Write every nation's orders (as the panel shows them) to ``<nation>.json``."""
        if not self.session.is_open:
            return
        if folder is None:
            folder = QFileDialog.getExistingDirectory(self, "Save every nation's orders into")
            if not folder:
                return
        written = 0
        try:
            for nation in self.session.board().teams():
                text = self.orders.draft(nation).to_json()
                (Path(folder) / f"{nation}.json").write_text(text + "\n", encoding="utf-8")
                written += 1
        except OSError as exc:
            self.error("The orders could not be saved", f"{exc.filename}: {exc.strerror}")
            return
        self.statusBar().showMessage(f"Wrote {written} orders files to {folder}", 5000)

    def reopen_turn(self) -> None:
        """Go back to the start of a turn, after saying what will be set aside."""
        if not self.session.is_open:
            return
        turns = self.session.require().game.turns()
        labels = [f"Turn {t} ({self.session.scenario.meta.period_of(t)})" for t in turns]
        choice, ok = QInputDialog.getItem(
            self, "Reopen a turn", "Go back to the start of:", labels, len(labels) - 1, False
        )
        if not ok:
            return
        turn = turns[labels.index(choice)]
        if self.confirm_reopen(turn):
            self.session.reopen_turn(turn)
            self.statusBar().showMessage(f"Turn {turn} reopened from its start", 6000)

    def confirm_reopen(self, turn: int) -> bool:
        """Ask before a reopening sets results aside: which, and that the log keeps them."""
        state = self.session.state
        lost = [e for e in self.session.events() if e.turn >= turn and e.kind != "turn_reopened"]
        battles = sum(e.kind in ("naval_combat", "tactical_battle") for e in lost)
        if state.turn == turn and state.step == 0 and not lost:
            what = f"Turn {turn} has not been resolved yet: nothing is set aside."
        else:
            upto = f"turn {state.turn}" + (f", step {state.step}" if state.step else "")
            what = (
                f"Everything from the start of turn {turn} up to {upto} is set aside: "
                f"{len(lost)} event(s), {battles} battle(s). The map and the reports go back "
                f"to the start of turn {turn}."
            )
        orders = f"Turn {turn}'s orders are kept, to change or resolve again" + (
            f"; the orders of turns {turn + 1}–{state.turn} are dropped."
            if state.turn > turn
            else "."
        )
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Reopen a turn",
            f"Reopen turn {turn}?\n\n{what}\n\n{orders}\n\nThe game file keeps what was "
            "set aside and every die rolled, for the audit; the reopening is recorded.",
            QMessageBox.StandardButton.Cancel,
            self,
        )
        reopen = box.addButton("Reopen", QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is reopen

    def _export(self, what: str, kind: str) -> None:
        if not self.session.is_open:
            return
        suffix = {"pdf": "PDF (*.pdf)", "csv": "CSV (*.csv)"}[kind]
        path, _ = QFileDialog.getSaveFileName(self, "Export", f"{what}.{kind}", suffix)
        if not path:
            return
        viewer = self.report.viewer or None
        try:
            if what == "report":
                write_report = (
                    export.export_report_pdf if kind == "pdf" else export.export_report_csv
                )
                write_report(self.session, path, viewer=viewer)
            else:
                write_routes = (
                    export.export_routes_pdf if kind == "pdf" else export.export_routes_csv
                )
                write_routes(self.session, path, viewer=viewer)
        except OSError as exc:
            self.error("The export could not be written", str(exc))
            return
        self.statusBar().showMessage(f"Exported {path}", 4000)

    # -- the turn ------------------------------------------------------------------------------
    def resolve(self, to_step: int) -> None:
        if not self.session.is_open:
            return
        unstored = self.orders.unstored()
        if unstored and self.session.state.step == 0:
            answer = QMessageBox.warning(
                self,
                "Orders not stored",
                "These nations' orders break a rule and are not stored, so they will not be "
                f"carried out: {', '.join(unstored)}.\n\nResolve anyway?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        start = self.session.state.step
        # Progress in the status bar, not a modal box: a question asked during a step (a
        # battle's resolution, step losses, a die) must get every click and key.
        self.progress.setRange(start, to_step)
        self.progress.setValue(start)
        self.progress.show()
        self.session.stepResolved.connect(self._step_done)
        try:
            self.session.resolve(to_step)
        except OrdersError as exc:
            board = self.session.board()
            lines = [
                f"• {board.name_of(p.nation)}: {self.session.problem_text(p)}" for p in exc.problems
            ]
            self.error("The orders were refused", "\n".join(lines))
        except DiceError as exc:
            self.error(
                "Resolution stopped",
                f"{exc}. The game is as it was before that step; resolve again to carry on.",
            )
        finally:
            self.session.stepResolved.disconnect(self._step_done)
            self.progress.hide()
        self.bottom_tabs.setCurrentWidget(self.report)

    def _step_done(self, number: int) -> None:
        self.progress.setValue(number)
        self.statusBar().showMessage(f"Step {number} resolved", 3000)
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)

    def choose_resolution(self, battle: BattleChoice) -> str | None:
        """At step 8, for each battle: the campaign's damage table, or fight it out (asked
        with both sides' combat values and the damage table's odds in view)."""
        from campaign.tactical.simulate import available

        from .battlechoice import BattleChoiceDialog

        dialog = BattleChoiceDialog(battle, available(), self.session.manual_dice is not None, self)
        dialog.exec()  # closing it without a choice means the damage table
        return dialog.rule_set if dialog.result() == QDialog.DialogCode.Accepted else None

    def show_battle(self, battle: TacticalBattle, setup: BattleSetup) -> None:
        """The battle window, modal while step 8 waits for it, with the campaign units the
        ships belong to (for the step losses it will explain)."""
        from .battle import BattleWindow

        units = self.session.state.units
        sides: dict[str, list[Unit]] = {}
        for key, side in (("a", setup.a), ("b", setup.b)):
            ids = dict.fromkeys(s.campaign_unit for s in side.ships if s.campaign_unit)
            sides[key] = [units[u] for u in ids if u in units]
        window = BattleWindow(battle, setup, self, units=sides)
        window.exec()
        if window.stopped is not None:
            raise window.stopped  # resolve() reports it and leaves the game as it was

    def fight_battle(self) -> None:
        """A battle fought out of the campaign (Battle → Fight a battle…)."""
        from campaign.tactical import RULE_SETS
        from campaign.tactical.outcome import in_rule_set_terms

        from .battle import BattleWindow
        from .battlesetup import TYPED, FightDialog

        dialog = FightDialog(self)
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.chosen is None:
            return
        rule_set = str(dialog.rule_set.currentData())
        try:
            setup = in_rule_set_terms(rule_set, dialog.chosen)
        except ValueError as exc:
            self.error("This battle cannot be fought", str(exc))
            return
        if dialog.dice.currentData() == TYPED:
            dice: Dice = ManualDice(ask_die(self))
        else:
            dice = SeededDice(dialog.seed.text().strip() or "1942")
        try:
            battle = RULE_SETS[rule_set](setup, dice)
            window = BattleWindow(battle, setup, self)
        except (ValueError, DiceError) as exc:
            self.error("This battle cannot be fought", str(exc))
            return
        window.exec()
        if window.stopped is not None:
            self.error("The battle was stopped", f"{window.stopped}.")

    def _dice_mode(self, index: int) -> None:
        self.session.manual_dice = ask_die(self) if index == 1 else None

    # -- views -------------------------------------------------------------------------------------
    def set_viewer(self, nation: str | None) -> None:
        """Show everything as one team may know it (the report, the chart and the
        details: its team view), or as Game Control (``None``)."""
        self.report.set_viewer(nation or "", confirm=False)
        self._show_viewer(nation or "")

    def _show_viewer(self, nation: str) -> None:
        team = nation or None
        self.chart.set_team(team)
        self.details.set_team(team)
        self.orders.set_team(team)
        self._battles()
        for action in self.control_only:
            action.setEnabled(team is None)
        if team is not None and self.session.is_open:
            name = self.session.board().name_of(team)
            self.banner.setText(f"Team view: {name} — only what the {name} team may know")
            self.banner.setToolTip("View → View as Game Control shows everything again")
            self.banner.show()
            if self.control_action.isChecked():
                self.set_control_mode(False)
        else:
            self.banner.hide()

    def choose_team(self) -> None:
        if not self.session.is_open:
            return
        board = self.session.board()
        teams = board.teams()
        names = [str(board.nations[n]["name"]) for n in teams]
        choice, ok = QInputDialog.getItem(self, "View as a team", "Team:", names, 0, False)
        if ok:
            self.set_viewer(teams[names.index(choice)])

    def set_legend(self, on: bool) -> None:
        self.legend.setVisible(bool(on))
        self.legend_action.setChecked(bool(on))
        QSettings().setValue("legend", "true" if on else "false")

    def set_map_only(self, on: bool) -> None:
        """The chart alone (for a projector), or with its panels again."""
        for dock in (self.right, self.bottom):
            dock.setVisible(not on)
        self.map_only_action.setChecked(bool(on))

    def enlarge_report(self) -> None:
        """Toggle the report between about a third and three quarters of the height."""
        self.set_map_only(False)
        height = self.chart.height() + self.banner.height() + self.bottom.height()
        large = self.bottom.height() < height * 0.6
        share = 0.75 if large else 0.32
        self.resizeDocks([self.bottom], [int(height * share)], Qt.Orientation.Vertical)

    def find_on_map(self) -> None:
        text, ok = QInputDialog.getText(self, "Find", "Base, port, island or sea area:")
        if ok and text.strip() and not self.chart.find_place(text.strip()):
            self.statusBar().showMessage(f"Nothing called '{text}' on the map", 4000)

    # -- Game Control's table -------------------------------------------------------------------
    def set_control_mode(self, on: bool) -> None:
        """Show (or hide) the Control edit panel beside the orders and details; while it is
        shown, a click on the map fills its forms."""
        # Game Control's forms list every nation's units: never in a team's view
        on = bool(on) and self.session.is_open and self.chart.team is None
        self.control_action.setChecked(on)
        if not on and self._control is None:
            return  # never shown
        index = self.right_tabs.indexOf(self.control)
        if on and index < 0:
            self.right_tabs.addTab(self.control, "Control edits")
        if on:
            self.right_tabs.setCurrentWidget(self.control)
        elif index >= 0:
            self.right_tabs.removeTab(index)

    def show_rulings(self) -> None:
        if not self.session.is_open or self.chart.team is not None:
            return
        self.set_control_mode(True)
        self.control.pending_list.setFocus()
        if self.control.pending:
            self.control.pending_list.setCurrentRow(0)
        else:
            self.statusBar().showMessage("No Advantage Card awaits a ruling.", 4000)

    def open_seats(self) -> None:
        """The team seats window (made once: it keeps the server it runs)."""
        from .seats import SeatsDialog, SeatsWatch

        if not self.session.is_open:
            return
        if self.seats_dialog is None:
            watch = SeatsWatch(self.session, self)
            self.seats_dialog = SeatsDialog(self.session, watch, self)
        self.seats_dialog.refresh()
        self.seats_dialog.show()
        self.seats_dialog.raise_()

    def open_clock(self) -> None:
        from .clockwindow import ClockWindow

        if self.clock_window is None:
            self.clock_window = ClockWindow(self.session, parent=self)
        self.clock_window.show()
        self.clock_window.raise_()

    def export_team_packs(self) -> None:
        if not self.session.is_open:
            return
        from .printouts import TeamPacksDialog, write_team_packs

        dialog = TeamPacksDialog(self.session, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        try:
            written = write_team_packs(self.session, dialog.choice(), self)
        except (OSError, ValueError) as exc:
            self.error("The team packs could not be written", str(exc))
            return
        self.statusBar().showMessage(
            f"Wrote {len(written)} team pack(s) to {dialog.choice().folder}", 6000
        )

    def export_handoffs(self) -> None:
        if not self.session.is_open:
            return
        from .printouts import HandoffDialog, write_handoffs

        dialog = HandoffDialog(self.session, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        try:
            written = write_handoffs(self.session, dialog.choice(), self)
        except (OSError, ValueError) as exc:
            self.error("The hand-off sheets could not be written", str(exc))
            return
        self.statusBar().showMessage(
            f"Wrote {len(written)} file(s) to {dialog.choice().folder}", 6000
        )

    def _selected(self, kind: str, ident: str) -> None:
        if self._control is not None and self.right_tabs.indexOf(self._control) >= 0:
            self.right_tabs.setCurrentWidget(self._control)
            self._control.pick(kind, ident)
            return
        self.right_tabs.setCurrentWidget(self.details)
        if kind == "event":
            self._show_mark(ident)
            return
        self.details.show_item(kind, ident)
        if kind == "task_force":
            self.chart.show_range(ident)
        else:
            self.chart.clear_range()

    def _show_mark(self, key: str) -> None:
        """What happened at a mark of the last turn: its events in Details, and the report
        turned to them."""
        mark = self.chart.marks.mark(key)
        if mark is None:
            return
        turn = mark.events[0].turn
        items = "".join(f"<li>{html.escape(e.text)}</li>" for e in mark.events)
        self.details.show_page(
            f"<h2>Turn {turn}: what happened here</h2><ul>{items}</ul>"
            "<p>The whole turn is in the report below.</p>"
        )
        self.report.set_turn(turn)
        self.bottom_tabs.setCurrentWidget(self.report)
        self.report.events_view.find(mark.events[0].text[:60])

    def _coming_battle(self, rule_set: str) -> ComingBattle | None:
        """The battle chosen in the odds panel (else the first coming one): as ships in the
        rule set's terms, as campaign units, and the damage table's exact odds."""
        from campaign.tactical.outcome import expand_forces, in_rule_set_terms

        from .tacticalodds import ComingBattle

        battles = self.odds.battles
        if not battles or not self.session.is_open:
            return None
        index = max(0, self.odds.battle.currentIndex() - 1)
        b = battles[min(index, len(battles) - 1)]
        state = self.session.state
        keys = list(b.task_forces)
        sides = []
        for key, side in zip(keys, (b.a, b.b), strict=True):
            units = [state.units[u] for u in b.units.get(key, [])]
            name = ", ".join(b.task_forces.get(key, [])) or side.name
            sides.append((name, units[0].nation if units else key, units))
        setup = expand_forces(self.session.scenario, f"Battle in {b.area_name}", sides[0], sides[1])
        return ComingBattle(
            in_rule_set_terms(rule_set, setup),
            {"a": list(sides[0][2]), "b": list(sides[1][2])},
            b.odds(),
        )

    def _task_force_dropped(self, key: str, area: str) -> None:
        if self.session.is_open and self.session.state.step == 0:
            nation, tf_id = key.split(":", 1)
            self.right_tabs.setCurrentWidget(self.orders)
            self.orders.send_task_force(nation, tf_id, area)

    def _battles(self) -> None:
        """Keep the odds panel's list of coming battles in step with the orders (once the
        panel is made: it reads them itself when it is)."""
        if self._odds is not None:
            self._odds.set_battles(self._coming_battles(), self.chart.team is not None)

    def _coming_battles(self) -> list[BattlePreview]:
        """The battles step 8 will fight with every nation's orders: Game Control's to see.
        A team (a team view, a solo player) learns of a battle when it is fought: the
        coming ones would show the other side's task forces and operations."""
        if self.chart.team is not None:
            return []
        if self.session.is_open and self.session.state.step < 8:
            return self.session.require().preview_battles()
        return []

    def _problems(self, count: int) -> None:
        self.status.setText(f"{count} order problem(s)" if count else "")

    def _update_title(self) -> None:
        self.setWindowTitle(self.session.title)

    def _seal_bar(self) -> QLabel:
        """A bar above the map, shown while the open game's seal was not verified by this
        machine (docs/game-file.md): red for a file changed outside Sea Control, amber for
        one sealed on another machine. It stays until another game is opened: the log
        records the finding at the first change made."""
        bar = QLabel()
        bar.setObjectName("sealBar")
        bar.setWordWrap(True)
        bar.hide()

        def show() -> None:
            found = self.session.seal_found
            bar.setVisible(found is not None and not found.verified)
            if found is None or found.verified:
                return
            colour = "#f6d5d1; color:#6b1d14" if found.altered else "#fbe9c6; color:#5c3d00"
            bar.setStyleSheet(f"background:{colour}; padding:6px 8px;")
            text = found.summary()
            if found.altered:
                text = (
                    "This game file was changed outside Sea Control: "
                    + "; ".join(found.problems)
                    + ". The first change made here records it in the log every team sees; "
                    "to set it aside instead, open a backup."
                )
            bar.setText(f"⚠ {text}")

        self.session.gameChanged.connect(show)
        return bar

    def show_document(self, title: str, file: str) -> None:
        """A document from docs/ in a window of its own (not modal: read beside the map)."""
        window = DocumentWindow(title, file, self)
        window.setModal(False)
        window.show()
        self.documents = [*self.documents, window][-6:]  # kept alive while open

    def about(self) -> None:
        QMessageBox.about(
            self,
            "About Sea Control",
            "<b>Sea Control</b><br>The naval campaign of <i>The Last War – Naval Warfare "
            "1942–1945</i>.<br><br>Map data: Natural Earth (public domain).",
        )

    def error(self, title: str, text: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, parent=self)
        box.exec()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:  # docks take their sizes once the window has its own
            self._sized = True
            self.chart.setFocus()  # keys start on the chart, not in the dice box
            saved = QSettings().value("windowState")
            if isinstance(saved, QByteArray) and self.restoreState(saved, LAYOUT_VERSION):
                return  # the layout the user left
            width, height = self.width(), self.height()
            self.resizeDocks([self.right], [max(400, int(width * 0.32))], Qt.Orientation.Horizontal)
            self.resizeDocks([self.bottom], [max(190, int(height * 0.34))], Qt.Orientation.Vertical)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.maybe_save():
            QSettings().setValue("geometry", self.saveGeometry())
            QSettings().setValue("windowState", self.saveState(LAYOUT_VERSION))
            self.session.close()
            event.accept()
        else:
            event.ignore()


class _LazyTab(QWidget):
    """A tab's page whose content is made the first time the tab is shown: a panel nobody
    has opened costs nothing at start-up (its window attribute makes it when asked)."""

    def __init__(self, make: Callable[[], QWidget]) -> None:
        super().__init__()
        self._make: Callable[[], QWidget] | None = make
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)

    def showEvent(self, event: QShowEvent) -> None:
        if self._make is not None:
            make, self._make = self._make, None
            self._layout.addWidget(make())
        super().showEvent(event)


def _scrolling(panel: QWidget, min_height: int) -> QScrollArea:
    """A panel that keeps its full size and scrolls when the window is short (1366×768)."""
    panel.setMinimumHeight(min_height)
    area = QScrollArea()
    area.setWidget(panel)
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    return area


def application() -> QApplication:
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        app = QApplication([])
    return app
