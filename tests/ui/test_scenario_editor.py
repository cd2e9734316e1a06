"""The scenario editor, driven through its widgets offscreen: a scenario built from scratch
(tables, bases placed and a route drawn on the map), renames that carry through, problems
shown at their cells, undo and redo, and a byte-for-byte round trip."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QMessageBox

from campaign import paths
from campaign.cli import main as cli
from campaign.scenario import load_scenario
from campaign.scenario_edit import SCHEMAS, builtin_world, locate
from ui.scenario_editor import ERROR_TINT, ScenarioEditor
from ui.scenario_map import MOVE_BASE, NEW_BASE, ROUTE

W, H = 1366, 768


class Answers:
    """What the message boxes are answered (a test that opens one unanswered fails)."""

    def __init__(self) -> None:
        self.questions: list[QMessageBox.StandardButton] = []
        self.asked: list[str] = []
        self.warnings: list[str] = []

    def question(self, _parent: object, title: str, text: str, *_a: object) -> object:
        self.asked.append(f"{title}: {text}")
        assert self.questions, f"an unexpected question: {title}"
        return self.questions.pop(0)

    def warning(self, _parent: object, title: str, text: str, *_a: object) -> object:
        self.warnings.append(f"{title}: {text}")
        return QMessageBox.StandardButton.Ok


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> Answers:
    found = Answers()
    monkeypatch.setattr(QMessageBox, "question", found.question)
    monkeypatch.setattr(QMessageBox, "warning", found.warning)
    return found


@pytest.fixture
def editor(qtbot: object, answers: Answers) -> Iterator[ScenarioEditor]:
    window = ScenarioEditor()
    window.resize(W, H)
    window.show()
    qtbot.waitExposed(window)  # type: ignore[attr-defined]
    yield window
    window.undo.setClean()  # closed without the "save your edits?" question
    window._unsaved_new = False
    window.close()
    window.deleteLater()


def type_cell(editor: ScenarioEditor, table: str, row: int, column: str, text: str) -> None:
    """Edit a cell as a person does: open its editor, type or choose, press Enter."""
    editor.show_kind(table)
    page = editor.pages[table]
    page.select(row, SCHEMAS[table].names.index(column))
    index = page.view.currentIndex()
    page.view.edit(index)
    widget = page.view.indexWidget(index)
    assert widget is not None, f"no editor opened on {table} {column}"
    if isinstance(widget, QComboBox):
        found = widget.findData(text)
        if found >= 0:
            widget.setCurrentIndex(found)
        else:
            assert widget.isEditable(), f"{text!r} is not among the choices of {column}"
            widget.setEditText(text)
    else:
        assert isinstance(widget, QLineEdit)
        widget.selectAll()
        QTest.keyClicks(widget, text)
    QTest.keyClick(widget, Qt.Key.Key_Return)
    QApplication.processEvents()  # the delegate commits the editor's text queued
    assert editor.draft.cell(table, row, column) == text


def fill(editor: ScenarioEditor, table: str, row: int, values: dict[str, str]) -> None:
    for column, text in values.items():
        type_cell(editor, table, row, column, text)


def click_map(editor: ScenarioEditor, point: QPoint) -> None:
    QTest.mouseClick(editor.chart.viewport(), Qt.MouseButton.LeftButton, pos=point)


def click_scene(editor: ScenarioEditor, scene_point: object) -> None:
    click_map(editor, editor.chart.mapFromScene(scene_point))  # type: ignore[call-overload]


def choices(editor: ScenarioEditor, table: str, column: str) -> list[str]:
    col = SCHEMAS[table].column(column)
    return [value for value, _label in editor.choices(col) or []]


PLACES = {  # lon, lat of the three bases of the scenario built from scratch
    "pearl_harbour": (-157.95, 21.35),
    "san_diego": (-117.2, 32.7),
    "truk": (151.85, 7.45),
}


def test_a_scenario_built_from_scratch_validates_and_starts(
    editor: ScenarioEditor, tmp_path: Path
) -> None:
    # two nations
    editor.show_kind("nations")
    page = editor.pages["nations"]
    QTest.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    QTest.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    fill(editor, "nations", 0, {"id": "usa", "name": "United States", "tonnage": "20"})
    fill(editor, "nations", 1, {"id": "japan", "name": "Japan", "side": "axis"})
    type_cell(editor, "nations", 1, "colour", "#b03030")
    # three bases, placed by clicks on the map
    editor.chart.zoom_to("Pacific")
    QTest.mouseClick(
        next(b for b in editor.tool_buttons.buttons() if b.property("tool") == NEW_BASE),
        Qt.MouseButton.LeftButton,
    )
    for lon, lat in PLACES.values():
        click_map(editor, editor.chart.viewport_point(lon, lat))
    assert len(editor.draft.rows["bases"]) == 3
    world = builtin_world()
    for row, (ident, (lon, lat)) in enumerate(PLACES.items()):
        record = editor.draft.record("bases", row)
        assert abs(float(record["lon"]) - lon) < 0.3 and abs(float(record["lat"]) - lat) < 0.3
        assert record["sea_area"] == locate(world, float(record["lon"]), float(record["lat"]))[0]
        type_cell(editor, "bases", row, "id", ident)
        type_cell(editor, "bases", row, "name", ident.replace("_", " ").title())
    assert choices(editor, "bases", "holder") == ["usa", "japan"]
    fill(editor, "bases", 2, {"nation": "japan", "holder": "japan"})
    # a merchant route drawn on the map, area by area
    editor.check_now()
    editor.set_tool(ROUTE)
    chart = editor.chart
    click_scene(editor, chart.base_points["san_diego"])
    start = editor.draft.record("bases", 1)["sea_area"]
    end = editor.draft.record("bases", 0)["sea_area"]
    path = world.path(start, end)
    assert len(path) >= 3
    taken = {editor.draft.record("bases", r)["sea_area"] for r in range(3)}
    far = next(a for a in sorted(world.within(start, 2) - world.within(start, 1)) if a not in taken)
    click_scene(editor, chart.label_points[far])  # not next to the last area: refused
    assert "is not next to" in editor.map_status.text()
    assert chart.drawing == ("san_diego", [start])
    for area in path[1:-1]:
        click_scene(editor, chart.label_points[area])
        assert chart.range_areas == set(world.neighbours(area))  # where it may go next
    moves = len(path) - 2
    assert f"{moves} move{'s' if moves != 1 else ''} — Med (standard lift)" in (
        editor.map_status.text()
    )
    click_scene(editor, chart.base_points["pearl_harbour"])
    route = editor.draft.record("routes", 0)
    assert (route["origin"], route["destination"], route["nation"]) == (
        "san_diego",
        "pearl_harbour",
        "usa",
    )
    assert world.path(start, end, [v for v in route["via"].split(";") if v]) == path
    type_cell(editor, "routes", 0, "tonnage", "10")
    editor.check_now()
    editor.show_kind("nations")
    editor.show_kind("routes")  # the route chosen is shown on the map, with its length
    assert f"{len(path) - 1} moves — Med (standard lift); 10 tonnage points lift 10" in (
        editor.map_status.text()
    )
    # units, at bases chosen from the bases
    editor.show_kind("units")
    QTest.mouseClick(editor.pages["units"].add_button, Qt.MouseButton.LeftButton)
    QTest.mouseClick(editor.pages["units"].add_button, Qt.MouseButton.LeftButton)
    assert choices(editor, "units", "base") == list(PLACES)
    fill(editor, "units", 0, {"id": "usa_cv", "name": "Enterprise", "carries_air": "yes"})
    fill(editor, "units", 1, {"id": "jpn_cv", "nation": "japan", "base": "truk"})
    fill(editor, "units", 1, {"name": "Akagi", "carries_air": "yes"})
    # ships, in units chosen from the units
    editor.show_kind("ships")
    for _ in range(2):
        QTest.mouseClick(editor.pages["ships"].add_button, Qt.MouseButton.LeftButton)
    assert choices(editor, "ships", "unit") == ["usa_cv", "jpn_cv"]
    for row, (ident, nation, unit) in enumerate(
        (("enterprise", "usa", "usa_cv"), ("akagi", "japan", "jpn_cv"))
    ):
        fill(editor, "ships", row, {"id": ident, "name": ident.title(), "nation": nation})
        fill(editor, "ships", row, {"unit": unit, "type": "carrier", "class": ident.title()})
        fill(editor, "ships", row, {"tonnage": "20000", "completed": "1930", "speed": "32"})
    result = editor.check_now()
    assert result.problems == [], [str(p) for p in result.problems]
    assert "can be started" in editor.summary.text()
    folder = tmp_path / "pacific"
    assert editor.save_as(folder)
    assert cli(["validate", str(folder)]) == 0
    assert cli(["new", str(folder), "-o", str(tmp_path / "pacific.seacontrol")]) == 0
    scenario = load_scenario(folder)
    assert scenario.by_id("units")["jpn_cv"]["base"] == "truk"
    assert scenario.by_id("routes")[route["id"]]["tonnage"] == 10
    assert not (folder / "sea_areas.csv").exists()  # the built-in world, as it was


def test_renaming_a_base_carries_through_and_undo_redo_follow(
    editor: ScenarioEditor,
) -> None:
    editor.open_builtin("1942")
    before = {name: [list(r) for r in rows] for name, rows in editor.draft.rows.items()}
    refs = editor.draft.references("bases", "pearl_harbour")
    assert len({r.table for r in refs}) >= 4
    row = editor.draft.find("bases", "pearl_harbour")
    assert row is not None
    type_cell(editor, "bases", row, "id", "pearl_harbor")
    assert editor.draft.references("bases", "pearl_harbour") == []
    for ref in refs:
        assert "pearl_harbor" in editor.draft.cell(ref.table, ref.row, ref.column)
    assert editor.undo_action.text().startswith("&Undo Rename base 'pearl_harbour'")
    assert editor.check_now().problems == []
    QTest.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert {n: [list(r) for r in rows] for n, rows in editor.draft.rows.items()} == before
    QTest.keyClick(editor, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert all("pearl_harbor" in editor.draft.cell(r.table, r.row, r.column) for r in refs)
    assert editor.current_table() == "bases"  # undo and redo show where they acted


def test_a_bad_entry_shows_its_problem_at_its_cell(editor: ScenarioEditor, qtbot: object) -> None:
    editor.open_builtin("1942")
    assert editor.start_action.isEnabled() is True
    row = editor.draft.find("units", "usa_cv_wasp_hornet")
    assert row is not None
    type_cell(editor, "units", row, "base", "norfolkk")
    qtbot.waitUntil(lambda: editor.problems.topLevelItemCount() == 1)  # type: ignore[attr-defined]
    item = editor.problems.topLevelItem(0)
    assert item is not None
    assert item.text(0) == f"units.csv, row {row + 2} · base"
    assert "'norfolkk' is not a base in bases.csv (did you mean 'norfolk'?)" in item.text(1)
    assert not editor.start_action.isEnabled()
    model = editor.pages["units"].model
    column = SCHEMAS["units"].names.index("base")
    cell = model.index(row, column)
    assert model.data(cell, Qt.ItemDataRole.BackgroundRole).color() == ERROR_TINT
    assert "norfolkk" in model.data(cell, Qt.ItemDataRole.ToolTipRole)
    assert "✖" in editor.kinds.item(4).text()  # Naval units — 1 ✖
    editor.show_kind("nations")
    rect = editor.problems.visualItemRect(item)
    QTest.mouseClick(editor.problems.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.mouseDClick(editor.problems.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    page = editor.pages["units"]
    assert editor.current_table() == "units"
    assert (page.current_row(), page.view.currentIndex().column()) == (row, column)


def test_a_draft_with_problems_is_saved_but_not_started(
    editor: ScenarioEditor, answers: Answers, tmp_path: Path
) -> None:
    started = []
    editor.start_game = started.append
    editor.open_builtin("1942")
    type_cell(editor, "nations", 0, "side", "allies")
    type_cell(editor, "nations", 0, "colour", "blue")
    assert editor.save_as(tmp_path / "draft")
    assert "as a draft: 1 error" in editor.statusBar().currentMessage()
    editor.new_game()
    assert started == [] and "cannot be started yet" in answers.warnings[-1]
    assert (editor.current_table(), editor.pages["nations"].current_row()) == ("nations", 0)
    type_cell(editor, "nations", 0, "colour", "#1f4e9c")
    editor.new_game()
    assert len(started) == 1 and started[0].meta.id == "1942"


def test_open_and_save_of_the_built_in_scenario_is_byte_for_byte(
    editor: ScenarioEditor, tmp_path: Path
) -> None:
    source = paths.scenario_dir("1942")
    copy = tmp_path / "copy"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("sample-orders"))
    assert editor.open_folder(copy)
    type_cell(editor, "units", 0, "state", "damaged")
    QTest.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert editor.save()
    assert editor.save_as(tmp_path / "again")
    for folder in (copy, tmp_path / "again"):
        written = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
        original = {p.name: p.read_bytes() for p in source.iterdir() if p.is_file()}
        assert written == original


def test_the_built_in_scenario_is_saved_as_a_copy_only(
    editor: ScenarioEditor, answers: Answers, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor.open_builtin("1942")
    assert editor.draft.folder is None
    assert not editor.save_as(paths.scenario_dir("1942"))
    assert "built-in scenarios are part of the program" in answers.warnings[-1]


def test_deleting_a_base_others_refer_to_asks_first(
    editor: ScenarioEditor, answers: Answers
) -> None:
    editor.open_builtin("1942")
    row = editor.draft.find("bases", "scapa_flow")
    assert row is not None
    home = editor.draft.find("units", "uk_bb_home_fleet") or 0
    editor.edit_cell("units", home, "id", "<img src='x'>")  # not an id: shown, never run
    editor.show_kind("bases")
    editor.pages["bases"].select(row)
    answers.questions.append(QMessageBox.StandardButton.Cancel)
    editor.delete_records()
    assert editor.draft.find("bases", "scapa_flow") == row
    assert "units.csv, row" in answers.asked[-1] and ": base" in answers.asked[-1]
    assert "(‹img src='x'›)" in answers.asked[-1] and "<img" not in answers.asked[-1]
    answers.questions.append(QMessageBox.StandardButton.Yes)
    editor.delete_records()
    assert editor.draft.find("bases", "scapa_flow") is None
    assert any("'scapa_flow' is not a base" in p.message for p in editor.check_now().problems)
    editor.undo.undo()
    editor.undo.undo()
    assert editor.draft.find("bases", "scapa_flow") == row
    assert editor.check_now().problems == []


def test_a_unit_shows_its_base_and_range_and_a_base_moves_by_clicks(
    editor: ScenarioEditor,
) -> None:
    editor.open_builtin("1942")
    row = editor.draft.find("units", "usa_cv_lexington_saratoga")
    assert row is not None
    editor.show_kind("units")
    editor.pages["units"].select(row, 0)
    board = editor.map_session.board()
    assert editor.chart.range_areas == board.areas_within("pearl_harbour", 4)
    assert editor.chart.selection == ("base", "pearl_harbour")
    assert "naval range 4" in editor.map_status.text()
    editor.set_tool(MOVE_BASE)
    chart = editor.chart
    chart.zoom_to("Pacific")
    click_scene(editor, chart.base_points["midway"])
    assert editor.current_table() == "bases"
    click_map(editor, chart.viewport_point(-160.0, 19.0))
    record = editor.draft.record("bases", editor.draft.find("bases", "midway") or 0)
    assert abs(float(record["lon"]) + 160) < 0.3 and abs(float(record["lat"]) - 19) < 0.3
    assert record["sea_area"] == "hawaiian_islands"
    editor.undo.undo()
    record = editor.draft.record("bases", editor.draft.find("bases", "midway") or 0)
    assert (record["lon"], record["sea_area"]) == ("-177.37", "midway_islands")


def test_the_settings_form_edits_scenario_toml_undoably(editor: ScenarioEditor) -> None:
    editor.open_builtin("1942")
    editor.show_kind("settings")
    field = editor.settings.fields["first_turn"]
    assert isinstance(field, QLineEdit)
    field.selectAll()
    QTest.keyClicks(field, "soon")
    QTest.keyClick(field, Qt.Key.Key_Return)
    problems = editor.check_now().problems
    assert [(p.file, p.field) for p in problems] == [("scenario.toml", "first_turn")]
    assert ERROR_TINT.name() in field.styleSheet()
    editor.undo.undo()
    assert field.text() == "1" and editor.check_now().problems == []


def test_the_main_window_opens_the_editor_and_makes_a_scenario_of_its_game(
    window: object, answers: Answers, tmp_path: Path
) -> None:
    from ui.mainwindow import MainWindow

    assert isinstance(window, MainWindow)
    entries = [a.text() for a in window.menuBar().actions()[0].menu().actions()]  # type: ignore[union-attr]
    assert "Scenario e&ditor…" in entries and "New scenario from this &game…" in entries
    window.session.resolve(10)
    window.scenario_editor.from_game()
    editor = window.scenario_editor.editor
    assert editor is not None and editor.isVisible()
    assert editor.draft.meta["first_turn"] == "2" and editor.dirty
    assert "From turn 2" in editor.origin_note.text()
    assert editor.check_now().problems == []
    assert editor.save_as(tmp_path / "turn2")
    assert cli(["validate", str(tmp_path / "turn2")]) == 0
    answers.questions.append(QMessageBox.StandardButton.Discard)  # the game played
    editor.new_game()
    assert window.session.scenario.meta.first_turn == 2
    assert window.session.state.turn == 2 and window.session.state.step == 0
    editor.close()
    answers.questions.append(QMessageBox.StandardButton.Discard)  # the new game, closing


def test_the_map_follows_the_draft_redrawing_only_what_moved(editor: ScenarioEditor) -> None:
    editor.open_builtin("1942")
    chart = editor.chart
    symbol = chart.bases["midway"]
    row = editor.draft.find("bases", "midway")
    assert row is not None
    type_cell(editor, "bases", row, "holder", "japan")
    editor.check_now()
    assert chart.bases["midway"] is symbol  # recoloured, not drawn again
    japan = editor.draft.record("nations", editor.draft.find("nations", "japan") or 0)
    assert symbol.colour.name() == japan["colour"]
    type_cell(editor, "bases", row, "sea_area", "atlantis")
    editor.check_now()
    assert "midway" not in chart.bases  # off the map until its sea area is fixed
    editor.undo.undo()
    editor.check_now()
    assert "midway" in chart.bases and chart.bases["midway"] is not symbol


def test_blocks_of_cells_copy_paste_and_clear_as_in_a_spreadsheet(editor: ScenarioEditor) -> None:
    editor.open_builtin("1942")
    editor.show_kind("air_ranges")
    page = editor.pages["air_ranges"]
    view = page.view
    rows = len(editor.draft.rows["air_ranges"])
    page.select(0, 2)
    view.selectionModel().select(page.proxy.index(1, 3), QItemSelectionModel.SelectionFlag.Select)
    view.selectionModel().select(page.proxy.index(0, 3), QItemSelectionModel.SelectionFlag.Select)
    view.selectionModel().select(page.proxy.index(1, 2), QItemSelectionModel.SelectionFlag.Select)
    QTest.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    first = editor.draft.record("air_ranges", 0)
    second = editor.draft.record("air_ranges", 1)
    assert QApplication.clipboard().text() == (
        f"{first['from_turn']}\t{first['range']}\n{second['from_turn']}\t{second['range']}\n"
    )
    QApplication.clipboard().setText("usa\tland\t3\t2\nuk\tland\t5\t1\n")
    page.select(rows - 1, 0)
    QTest.keyClick(view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert len(editor.draft.rows["air_ranges"]) == rows + 1  # the second row is a new one
    assert editor.draft.rows["air_ranges"][-2:] == [
        ["usa", "land", "3", "2"],
        ["uk", "land", "5", "1"],
    ]
    assert editor.undo_action.text() == "&Undo Paste 2 rows (1 new air range)"
    page.select(rows, 3)
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert editor.draft.cell("air_ranges", rows, "range") == ""
    assert any((p.row, p.field) == (rows + 2, "range") for p in editor.check_now().problems)
    editor.undo.undo()
    editor.undo.undo()
    assert len(editor.draft.rows["air_ranges"]) == rows
    assert editor.check_now().problems == []


def test_text_that_would_reorder_itself_is_shown_written_out(editor: ScenarioEditor) -> None:
    editor.open_builtin("1942")
    editor.edit_cell("bases", 0, "name", "Scapa\u202eFlow")
    model = editor.pages["bases"].model
    shown = model.data(model.index(0, 1), Qt.ItemDataRole.DisplayRole)
    assert shown == "Scapa\\u202eFlow"
    assert model.data(model.index(0, 1), Qt.ItemDataRole.EditRole) == "Scapa\u202eFlow"
    assert any(p.field == "name" and p.row == 2 for p in editor.check_now().problems)


def test_a_setting_the_format_does_not_have_can_be_cleared(
    editor: ScenarioEditor, tmp_path: Path
) -> None:
    folder = tmp_path / "odd"
    shutil.copytree(paths.scenario_dir("1942"), folder)
    with (folder / "scenario.toml").open("a", encoding="utf-8") as toml:
        toml.write('author = "me"\n')
    assert editor.open_folder(folder)
    problems = editor.check_now().problems
    assert [(p.file, p.field) for p in problems] == [("scenario.toml", "author")]
    field = editor.settings.fields["author"]
    assert isinstance(field, QLineEdit) and field.text() == "me"
    field.clear()
    field.editingFinished.emit()
    assert editor.check_now().problems == []
    assert "author" not in editor.settings.fields


def test_closing_the_app_asks_for_the_editors_unsaved_edits(
    window: object, answers: Answers
) -> None:
    from ui.mainwindow import MainWindow

    assert isinstance(window, MainWindow)
    editor = window.scenario_editor.open_editor()
    editor.open_builtin("1942")
    editor.edit_cell("units", 0, "name", "Lady Lex")
    answers.questions.append(QMessageBox.StandardButton.Cancel)
    assert not window.close()
    assert window.isVisible() and editor.isVisible()
    assert answers.asked[-1].startswith("Unsaved scenario")
    editor.undo.setClean()
    answers.questions.append(QMessageBox.StandardButton.Discard)  # the game, at teardown
