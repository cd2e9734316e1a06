"""The whole app driven as an umpire would: build a task force, escort a route and set its
tonnage, place a flag, play a card, resolve the turn, read the report, save and reopen."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QMessageBox

from campaign.losses import SpreadLosses
from campaign.orders import Orders
from tests.gamefiles import die
from tests.ui.newprocess import run_python
from ui.battle import BattleWindow
from ui.mainwindow import MainWindow
from ui.mapview import WHEEL_STEP


def choose_nation(w: MainWindow, nation: str) -> None:
    w.orders.nation.setCurrentIndex(w.orders.nation.findData(nation))


def test_a_turn_from_orders_to_report_to_saved_file(
    window: MainWindow, qtbot: object, tmp_path: Path
) -> None:
    w = window
    assert "turn 1 (Jan/Feb 1942)" in w.windowTitle()
    ed = w.orders
    # Japan: a task force at Truk, a minor invasion of Rabaul under a flag, a card.
    choose_nation(w, "japan")
    ed.new_task_force("Kido Butai", "truk", ["jpn_cv_akagi_kaga", "jpn_cv_shokaku_zuikaku"], lsp=2)
    ed.new_task_force("Invasion Force", "truk", ["jpn_cl_south_seas"], lsp=1)
    assert [t.name for t in ed.draft().task_forces] == ["Kido Butai", "Invasion Force"]
    ed.check_task_forces(["kido_butai", "invasion_force"])
    ed.op_kind.setCurrentIndex(ed.op_kind.findData("minor_invasion"))
    ed.op_area.setCurrentIndex(ed.op_area.findData("bismarck_sea"))
    ed.op_target.setCurrentIndex(ed.op_target.findData("rabaul"))
    ed.op_manpower.setValue(2)
    qtbot.mouseClick(ed.op_create, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    [op] = ed.draft().operations
    assert (op.kind, op.target, op.invasion_force) == ("minor_invasion", "rabaul", "invasion_force")
    ed.select_card(
        next(c["id"] for c in w.session.scenario.rows("cards") if c["nation"] == "japan")
    )
    ed.card_use.setCurrentIndex(ed.card_use.findData("die_bonus"))
    ed.card_tf.setCurrentIndex(ed.card_tf.findData("kido_butai"))
    qtbot.mouseClick(ed.card_play, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    assert ed.problems == [], [str(p) for p in ed.problems]
    assert w.session.orders("japan") == ed.draft()
    # UK: escorts on the North Atlantic and more tonnage there.
    choose_nation(w, "uk")
    ed.select_units(["uk_es_western_approaches_1", "uk_es_western_approaches_2"])
    ed.select_route("us_can_uk")
    ed.tonnage.setValue(55)
    qtbot.mouseClick(ed.set_tonnage, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    ed.select_units(["uk_es_western_approaches_1", "uk_es_western_approaches_2"])
    ed.select_route("us_can_uk")
    qtbot.mouseClick(ed.escort_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    uk = w.session.orders("uk")
    assert uk is not None and uk.tonnage["us_can_uk"] == 55
    assert uk.escorts[0].units == ("uk_es_western_approaches_1", "uk_es_western_approaches_2")
    # Undo and redo the escort.
    w.undo.undo()
    assert ed.draft().escorts == ()
    w.undo.redo()
    assert len(ed.draft().escorts) == 1
    # Resolve the whole turn from the turn bar.
    qtbot.mouseClick(w.turnbar.turn_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    assert w.session.state.turn == 2
    assert "turn 2 (Mar/Apr 1942)" in w.windowTitle()
    text = " ".join(e.text for e in w.session.events(turn=1))
    assert "Landing at Rabaul" in text or "takes Rabaul" in text
    # Save, reopen, and find the same game.
    path = tmp_path / "war.seacontrol"
    w.session.save_as(path)
    assert not w.session.dirty and "war" in w.windowTitle()
    w.open_game(str(path))
    assert w.session.state.turn == 2
    assert w.session.state.holders["rabaul"] in ("japan", "uk")
    assert str(path) in w.session.recent()


def test_the_report_panel_shows_the_turn_after_resolving(window: MainWindow) -> None:
    from campaign import paths
    from campaign.orders import load_orders

    samples = paths.scenario_dir("1942") / "sample-orders"
    for f in sorted(samples.glob("*.json")):
        assert window.session.set_orders(f.stem, load_orders(f.read_text(), f.stem)) == []
    battles = window.odds.battles
    assert [b.area for b in battles] == ["bismarck_sea"]
    window.resolve(10)
    shown = " ".join(e.text for e in window.report.shown_events())
    assert "Battle in Bismarck Sea" in shown and "Landing at Rabaul" in shown


def test_a_game_left_by_a_crash_is_offered_back(
    qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui.session import GameSession

    crashed = GameSession()
    crashed.new_game()
    assert crashed.set_orders("usa", Orders("usa", 1)) == []
    working = die(crashed)  # nothing is closed: the working copy and its lock stay on disk
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    w = MainWindow(ask_losses=False)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    assert w.offer_recovery()
    assert w.session.working == working and w.session.dirty
    assert working not in GameSession().recoverable()  # not while this window plays on


def test_unsaved_changes_are_not_lost_without_asking(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = []

    def answer(*args: object, **kwargs: object) -> QMessageBox.StandardButton:
        asked.append(args[1])
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", answer)
    assert not window.session.dirty  # a new game nobody has touched: nothing to lose
    assert window.maybe_save() is True and asked == []
    window.session.set_orders("usa", Orders("usa", 1))
    assert window.session.dirty
    assert window.maybe_save() is False
    assert asked == ["Unsaved changes"]
    window.close()
    assert window.isVisible() and window.session.is_open  # the close was refused


def test_a_task_force_dragged_on_the_chart_goes_on_an_operation(
    window: MainWindow, qtbot: object
) -> None:
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    w = window
    choose_nation(w, "usa")
    w.orders.new_task_force("TF 8", "pearl_harbour", ["usa_cv_enterprise_yorktown"], lsp=1)
    w.chart.zoom_to("Pacific")
    qtbot.wait(50)  # type: ignore[attr-defined]
    counter = w.chart.counters["usa:tf_8"]
    start = w.chart.mapFromScene(counter.scenePos()) + counter.rect().center().toPoint()
    target_area = "marshall_islands"
    end = w.chart.mapFromScene(w.chart.label_points[target_area])
    view = w.chart.viewport()
    QTest.mousePress(view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(view, start + QPoint(20, 0))
    QTest.mouseRelease(view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
    [op] = w.orders.draft().operations
    assert (op.kind, op.area, op.task_forces) == ("sea_control", target_area, ("tf_8",))


def test_game_control_fights_a_battle_out_at_step_8(
    qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from campaign import paths
    from campaign.orders import load_orders
    from ui.battlechoice import BattleChoiceDialog

    asked = []

    def choose_carrier(self: BattleChoiceDialog) -> int:
        asked.append(self.windowTitle())
        text = " ".join(w.text() for w in self.findChildren(QLabel))
        assert "combat value" in text and "wins" in text  # the stakes are shown
        buttons = [b for b in self.group.buttons() if "Carrier battle" in b.text()]
        buttons[0].click()
        self.accept()
        return 1

    monkeypatch.setattr(BattleChoiceDialog, "exec", choose_carrier)
    watched = []

    def watch_and_finish(self: BattleWindow) -> int:
        watched.append(self.battle.rule_set)
        self.next_button.click()
        self.end_button.click()
        return 1

    monkeypatch.setattr(BattleWindow, "exec", watch_and_finish)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    w = MainWindow(ask_losses=True)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.session.new_game()
    w.session.losses = SpreadLosses()
    samples = paths.scenario_dir("1942") / "sample-orders"
    for f in sorted(samples.glob("*.json")):
        w.session.set_orders(f.stem, load_orders(f.read_text(), f.stem))
    w.resolve(10)
    assert asked and "Bismarck Sea" in asked[0]
    kinds = [e.kind for e in w.session.events(turn=1)]
    assert "tactical_battle" in kinds
    assert watched == ["carrier"]


def test_a_team_is_not_shown_the_coming_battles(window: MainWindow) -> None:
    """The odds of the battles step 8 will fight read every nation's orders: Game Control
    sees them, a team (a solo player, or Control viewing as one) does not."""
    from campaign import paths
    from campaign.orders import load_orders

    samples = paths.scenario_dir("1942") / "sample-orders"
    for f in sorted(samples.glob("*.json")):
        window.session.set_orders(f.stem, load_orders(f.read_text(), f.stem))
    assert window.odds.battles
    window.set_viewer("usa")
    assert window.odds.battles == [] and not window.odds.battle.isEnabled()
    assert "Game Control's to see" in window.odds.battle.toolTip()
    window.set_viewer(None)
    assert window.odds.battles


def test_game_controls_tools_are_not_offered_in_a_teams_view(window: MainWindow) -> None:
    """Control edit mode lists every nation's units; team packs, hand-off sheets, the
    scenario editor and the seats show every team's position: none is offered while the
    window shows what one team may know."""
    window.set_viewer("japan")
    assert not window.control_action.isEnabled()
    window.set_control_mode(True)
    window.show_rulings()
    assert not window.control_action.isChecked()
    assert window.right_tabs.indexOf(window.control) < 0
    assert not any(a.isEnabled() for a in window.control_only)
    window.set_viewer(None)
    assert all(a.isEnabled() for a in window.control_only)
    window.set_control_mode(True)
    assert window.right_tabs.indexOf(window.control) >= 0


def test_fight_it_out_odds_for_the_coming_battle(window: MainWindow, qtbot: object) -> None:
    from campaign import paths
    from campaign.orders import load_orders

    samples = paths.scenario_dir("1942") / "sample-orders"
    for f in sorted(samples.glob("*.json")):
        window.session.set_orders(f.stem, load_orders(f.read_text(), f.stem))
    panel = window.tactical_odds
    panel.rule_set.setCurrentIndex(panel.rule_set.findData("carrier"))
    panel.runs.setValue(100)
    panel.go.click()
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)  # type: ignore[attr-defined]
    assert panel.odds is not None and panel.odds.runs == 100
    text = panel.table.toPlainText()
    assert "100 battles" in text and "Akagi" in text and "±" in text
    # beside the damage table, in campaign steps
    assert panel.coming is not None and panel.coming.table is not None
    assert "damage table" in text and "Campaign steps lost" in text
    assert "fought out, campaign rule" in text
    assert sum(panel.odds.campaign_winners.values()) == 100
    units = {u.id for side in panel.coming.units.values() for u in side}
    assert units == set(panel.odds.unit_steps)


def test_the_app_says_what_a_bare_linux_desktop_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from ui import app

    monkeypatch.setattr(sys, "platform", "linux")
    assert app.display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    no_screen = app.display_problem({})
    assert no_screen is not None and "DISPLAY" in no_screen and "seacontrol-cli" in no_screen
    monkeypatch.setattr("ctypes.util.find_library", lambda name: None)
    missing = app.display_problem({"DISPLAY": ":0"})
    assert missing is not None
    assert "libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1" in missing
    monkeypatch.setattr("ctypes.util.find_library", lambda name: f"lib{name}.so")
    assert app.display_problem({"DISPLAY": ":0"}) is None


#: what the program loads only when first used (issue 14: start-up): the rules of the steps
#: (a turn resolved), Control's edits, the computer opponent, the scenario editor, the
#: naval odds, a team's view, the sea graph's library, the tactical rule sets (a battle
#: fought out or previewed: the check of the scenario's ships reads their guns by
#: campaign.guns)
LOADED_WHEN_USED = (
    "campaign.turn",
    "campaign.operations",
    "campaign.merchant_warfare",
    "campaign.control",
    "campaign.opponent",
    "campaign.odds",
    "ui.scenario_editor",
    "ui.controlroom",
    "ui.oddschart",
    "campaign.teamview",
    "campaign.tactical",
    "networkx",
    "fpdf",
)


def test_start_up_loads_no_more_than_a_painted_chart_needs(tmp_path: Path) -> None:
    """A new process starts the app on the 1942 game as the ``seacontrol`` command does and
    paints the chart; what is loaded only when first used is not loaded yet."""
    code = (
        "import sys\n"
        "from ui.app import start\n"
        "from PySide6.QtCore import QStandardPaths\n"
        "QStandardPaths.setTestModeEnabled(True)\n"
        "app, window = start()\n"
        "app.processEvents()\n"
        "window.chart.viewport().repaint()\n"
        f"print(sorted(m for m in {LOADED_WHEN_USED!r} if m in sys.modules))\n"
        "window.session.close()\n"
    )
    out = run_python(code, tmp_path)
    assert out.strip().splitlines()[-1] == "[]"


def test_the_keyboard_zooms_the_chart(window: MainWindow, qtbot: object) -> None:
    """Ctrl++ (or Ctrl+=) and Ctrl+- (View → Zoom in / out) zoom the chart a wheel's
    notch."""
    chart = window.chart
    qtbot.waitExposed(window)  # type: ignore[attr-defined]
    chart.zoom_to("Pacific")
    start = chart.px_per_degree()
    chart.setFocus()
    QTest.keyClick(chart, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert chart.px_per_degree() == pytest.approx(start * WHEEL_STEP)
    QTest.keyClick(chart, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert chart.px_per_degree() == pytest.approx(start)
    QTest.keyClick(chart, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)  # no Shift
    assert chart.px_per_degree() == pytest.approx(start * WHEEL_STEP)
