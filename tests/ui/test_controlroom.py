"""Game Control's table in the app: the edit mode panel, its audit and rulings, and the
team pack and hand-off exports, driven as an umpire would."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QInputDialog

from campaign.orders import parse_orders
from campaign.scenario import load_scenario
from ui.controlroom import RulingDialog
from ui.mainwindow import MainWindow
from ui.printouts import HandoffDialog, TeamPacksDialog


@pytest.fixture
def mini(qtbot: object, monkeypatch: pytest.MonkeyPatch, mini_dir: Path) -> MainWindow:
    """The main window on a new game of the mini scenario, Control edit mode on."""
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    w = MainWindow(ask_losses=False)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.session.new_game(load_scenario(mini_dir))
    w.show()
    w.control_action.trigger()
    return w


def click(qtbot: object, button: object) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]


def test_the_mode_shows_and_hides_the_panel(window: MainWindow) -> None:
    tabs = window.right_tabs
    assert tabs.indexOf(window.control) < 0
    window.control_action.trigger()
    assert tabs.currentWidget() is window.control
    window.control_action.trigger()
    assert tabs.indexOf(window.control) < 0


def test_an_edit_from_the_form_is_made_and_audited(mini: MainWindow, qtbot: object) -> None:
    panel = mini.control
    panel.choose("move_unit", unit="blue_bb1", to="blue_isle")
    panel.reason.setText("counter on the wrong card")
    click(qtbot, panel.apply_button)
    assert mini.session.state.units["blue_bb1"].base == "blue_isle"
    assert "Done" in panel.status.text() and panel.reason.text() == ""
    assert panel.audit_table.rowCount() == 1
    assert panel.audit_table.item(0, 2).text() == (
        "Blue Battle Squadron (Blueland) moved Blue Harbour → Blue Isle.\n"
        "Reason: counter on the wrong card"
    )
    assert panel.audit_table.item(0, 3).text() == "Blueland, Game Control"
    assert panel.audit_table.item(0, 4).text() == "standing"
    assert mini.session.dirty
    # the turn report shows it (Game Control's view)
    assert "counter on the wrong card" in mini.report.events_view.toPlainText()


def test_a_refused_edit_says_why_and_changes_nothing(mini: MainWindow, qtbot: object) -> None:
    panel = mini.control
    before = mini.session.state.to_json()
    panel.choose("move_unit", unit="blue_bb1", to="red_port")
    panel.reason.setText("raid")
    click(qtbot, panel.apply_button)
    assert "Refused: Red Harbour is held by Redland, an enemy of Blueland" in panel.status.text()
    panel.choose("move_unit", unit="blue_bb1", to="blue_isle")
    panel.reason.setText("")
    click(qtbot, panel.apply_button)
    assert "needs a reason" in panel.status.text()
    assert mini.session.state.to_json() == before and panel.audit_table.rowCount() == 0


def test_forms_start_from_the_value_the_game_has(mini: MainWindow) -> None:
    panel = mini.control
    panel.choose("route_tonnage", route="blue_north")
    points = panel.forms["route_tonnage"]["points"]
    assert points.value() == 6  # type: ignore[attr-defined]
    panel.choose("flags", nation="red")
    assert panel.forms["flags"]["naval"].value() == 1  # type: ignore[attr-defined]
    panel.choose("flags", turn=2)
    assert panel.forms["flags"]["naval"].value() == 2  # type: ignore[attr-defined]
    panel.choose("holder", base="rock")
    assert panel.forms["holder"]["nation"].currentData() == "red"  # type: ignore[attr-defined]
    panel.choose("flags", nation="red", turn=0, naval=3, military=1)
    panel.reason.setText("winter weather lifted")
    assert panel.apply() is not None
    assert mini.session.board().flags("red") == (3, 1)


def test_a_click_on_the_map_fills_the_forms(mini: MainWindow) -> None:
    panel = mini.control
    mini.chart.selected.emit("base", "red_port")
    assert mini.right_tabs.currentWidget() is panel
    assert panel.forms["holder"]["base"].currentData() == "red_port"  # type: ignore[attr-defined]
    unit = panel.forms["unit_state"]["unit"].currentData()  # type: ignore[attr-defined]
    assert mini.session.state.units[unit].base == "red_port"
    mini.chart.selected.emit("route", "red_inner")
    assert panel.forms["route_tonnage"]["route"].currentData() == "red_inner"  # type: ignore[attr-defined]


def test_undo_from_the_audit(
    mini: MainWindow, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    panel = mini.control
    panel.choose("unit_state", unit="blue_cv1", state="damaged")
    panel.reason.setText("bomb hit")
    panel.apply()
    assert "blue_cv1_air" in mini.session.state.air
    panel.audit_table.selectRow(0)
    assert panel.undo_button.isEnabled()
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("the bomb missed", True))
    click(qtbot, panel.undo_button)
    state = mini.session.state
    assert state.units["blue_cv1"].state == "ready" and "blue_cv1_air" not in state.air
    assert [panel.audit_table.item(r, 4).text() for r in range(2)] == [
        "undone by edit 2",
        "undoes edit 1",
    ]
    panel.audit_table.selectRow(0)
    assert not panel.undo_button.isEnabled()


def test_a_card_ruling_from_the_game_menu(
    mini: MainWindow, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = mini.session
    blue = {
        "nation": "blue",
        "turn": 1,
        "cards": [{"card": "blue_radar", "use": "other", "text": "a coastwatcher network"}],
    }
    session.set_orders("blue", parse_orders(blue, "blue"))
    session.resolve(10)
    mini.show_rulings()
    panel = mini.control
    assert panel.pending_list.count() == 1
    assert "a coastwatcher network" in panel.pending_list.item(0).text()
    assert panel.rule_button.isEnabled()

    def answer(dialog: RulingDialog) -> int:
        ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
        assert not ok.isEnabled()  # no ruling without words
        dialog.text.setPlainText("Granted: Red's next landing is spotted")
        assert ok.isEnabled()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(RulingDialog, "exec", answer)
    click(qtbot, panel.rule_button)
    assert session.require().cards_awaiting_ruling() == []
    assert "No card awaits a ruling." in panel.pending_list.item(0).text()
    assert any(e.kind == "card_ruling" for e in session.events("blue"))
    assert panel.audit_table.item(panel.audit_table.rowCount() - 1, 4).text() == "ruling"


def test_team_packs_from_the_export_menu(
    mini: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def answer(dialog: TeamPacksDialog) -> int:
        assert dialog.chosen_teams() == ["blue", "red"]
        dialog.teams.item(1).setCheckState(Qt.CheckState.Unchecked)
        dialog.paper.setCurrentIndex(dialog.paper.findData("letter"))
        dialog.host.setText("10.1.2.3")
        dialog.folder.setText(str(tmp_path))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(TeamPacksDialog, "exec", answer)
    mini.export_team_packs()
    [written] = list(tmp_path.iterdir())
    assert written.name.endswith("-turn1-blue.pdf")
    reader = pypdf.PdfReader(written)
    assert round(float(reader.pages[0].mediabox.width)) == 612  # Letter
    text = " ".join((p.extract_text() or "") for p in reader.pages)
    assert "http://10.1.2.3:8765/join?code=" in " ".join(text.split())
    assert "Wrote 1 team pack(s)" in mini.statusBar().currentMessage()


def test_no_pack_without_a_team(mini: MainWindow) -> None:
    dialog = TeamPacksDialog(mini.session, mini)
    ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
    for i in range(dialog.teams.count()):
        dialog.teams.item(i).setCheckState(Qt.CheckState.Unchecked)
    assert not ok.isEnabled()


def test_hand_off_sheets_from_the_export_menu(
    mini: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mini.session.resolve(10)

    def answer(dialog: HandoffDialog) -> int:
        assert dialog.turn.value() == 1
        dialog.folder.setText(str(tmp_path))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(HandoffDialog, "exec", answer)
    mini.export_handoffs()
    names = sorted(p.name.split("-turn")[1] for p in tmp_path.iterdir())
    assert names == ["1-economic.csv", "1-economic.pdf", "1-land.csv", "1-land.pdf"]
