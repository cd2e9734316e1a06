"""The orders editor: dragging units onto a task force or a route, live rule checks."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent, QUndoStack
from PySide6.QtWidgets import QApplication

from ui.orders import OrdersEditor
from ui.session import GameSession


@pytest.fixture
def editor(qtbot: object) -> OrdersEditor:
    session = GameSession()
    session.new_game()
    ed = OrdersEditor(session, QUndoStack())
    qtbot.addWidget(ed)  # type: ignore[attr-defined]
    ed.resize(700, 700)
    ed.show()
    ed.nation.setCurrentIndex(ed.nation.findData("usa"))
    return ed


def drop(ed: OrdersEditor, table: object, row: int, units: list[str]) -> None:
    ed.select_units(units)
    items = [
        ed.units.item(r, 0)
        for r in range(ed.units.rowCount())
        if ed.units.item(r, 0).data(Qt.ItemDataRole.UserRole) in units
    ]
    mime = ed.units.mimeData(items)
    QApplication.processEvents()  # lay out the tab just shown
    table.scrollToItem(table.item(row, 0))  # type: ignore[attr-defined]
    QApplication.processEvents()
    rect = table.visualItemRect(table.item(row, 0))  # type: ignore[attr-defined]
    pos = QPointF(rect.center() + QPoint(0, 0))
    event = QDropEvent(
        pos,
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    table.dropEvent(event)  # type: ignore[attr-defined]


def test_units_dropped_on_a_task_force_join_it(editor: OrdersEditor) -> None:
    editor.new_task_force("TF 16", "pearl_harbour", [], lsp=1)
    drop(editor, editor.tf_list, 0, ["usa_cv_enterprise_yorktown"])
    [tf] = editor.draft().task_forces
    assert tf.units == ("usa_cv_enterprise_yorktown",)
    editor.undo.undo()
    assert editor.draft().task_forces[0].units == ()


def test_units_dropped_on_a_route_escort_it(editor: OrdersEditor) -> None:
    editor.tabs.setCurrentIndex(1)
    row = next(
        r
        for r in range(editor.routes.rowCount())
        if editor.routes.item(r, 0).data(Qt.ItemDataRole.UserRole) == "usa_east_panama"
    )
    drop(editor, editor.routes, row, ["usa_dd_atlantic_support_force"])
    assert editor.draft().escorts[0].route == "usa_east_panama"


def test_a_broken_rule_is_shown_in_words_and_not_stored(editor: OrdersEditor) -> None:
    editor.new_task_force("TF 17", "norfolk", ["usa_cv_wasp_hornet"], lsp=40)
    assert editor.problems and "LSP" in editor.problem_list.item(0).text()
    assert editor.session.orders("usa") is None
    assert "not stored" in editor.status.text()
    editor.undo.undo()
    assert editor.problems == []


def test_a_task_force_is_told_where_to_stand_ready_to_intervene(editor: OrdersEditor) -> None:
    editor.new_task_force("TF 16", "pearl_harbour", ["usa_cv_enterprise_yorktown"], lsp=1)
    editor.tf_list.selectRow(0)
    assert editor.tf_where.itemText(0) == "the nearest enemy operation"
    board = editor.session.board()
    reach = board.task_force_reach("usa", editor.draft().task_forces[0].id, [editor.draft()])
    offered = {editor.tf_where.itemData(i) for i in range(1, editor.tf_where.count())}
    assert offered == board.areas_within("pearl_harbour", reach)
    far = editor.tf_where.itemData(editor.tf_where.count() - 1)
    editor.tf_where.setCurrentIndex(editor.tf_where.count() - 1)
    [tf] = editor.draft().task_forces
    assert tf.intervene_in == (far,)
    assert editor.tf_list.item(0, 5).text() == f"intervene: {board.area_name(far)}"
    editor.undo.undo()
    assert editor.draft().task_forces[0].intervene_in == ()


def test_air_points_fly_a_fleet_train_is_set_up_and_choices_are_given(
    editor: OrdersEditor,
) -> None:
    """The last tab gives the order kinds of 002 the other tabs do not: Air Points moved
    (step 3), a fleet train set up, and the owner's choices of losses and repairs."""
    more = editor.more
    editor.tabs.setCurrentWidget(more)
    # Air Points fly from Hawaii to Midway
    more.air_from.setCurrentIndex(more.air_from.findData("usa_air_hawaii"))
    more.air_to.setCurrentIndex(more.air_to.findData("midway"))
    more.air_points.setValue(1)
    more.air_add.click()
    assert editor.draft().air_transfers[0].to == "midway"
    assert more.air_moves.rowCount() == 1
    # a fleet train from San Diego
    more.train_name.setText("Service Squadron 4")
    more.train_area.setCurrentIndex(
        more.train_area.findData(editor.session.board().area_of("pearl_harbour"))
    )
    more.train_origin.setCurrentIndex(more.train_origin.findData("san_diego"))
    more.train_add.click()
    [train] = editor.draft().fleet_trains
    assert (train.name, train.origin, train.tonnage, train.lsp) == (
        "Service Squadron 4",
        "san_diego",
        10,
        2,
    )
    assert "set up" in more.trains.item(0, 3).text()
    # the owner's choices: the cruisers take losses first
    editor.select_units(["usa_ca_crudiv_6"])
    more._choice("losses", "add", more.loss_list)
    assert editor.draft().choices.losses == ("usa_ca_crudiv_6",)
    assert more.loss_list.count() == 1
    editor.undo.undo()
    assert editor.draft().choices.losses == ()
    # the offered origins are the nation's mainland fleet bases only
    origins = {more.train_origin.itemData(i) for i in range(more.train_origin.count())}
    assert "san_diego" in origins and "pearl_harbour" not in origins


def test_task_force_bases_offered_are_the_sides_usable_fleet_bases(
    editor: OrdersEditor,
) -> None:
    """The base list of a new task force: every place usable as a fleet base this turn held
    by the nation or an ally (the nation's own first, each part by name), read plainly from
    the places' rows; no port, island or enemy base."""
    board = editor.session.board()
    for nation in ("usa", "japan"):
        editor.nation.setCurrentIndex(editor.nation.findData(nation))
        offered = [editor.tf_base.itemData(i) for i in range(editor.tf_base.count())]
        usable = [
            b
            for b, row in board.bases.items()
            if row["kind"] == "fleet_base"
            and (row["from_turn"] is None or row["from_turn"] <= board.state.turn)
            and board.friendly(nation, board.holder(b))
        ]
        expected = sorted(usable, key=lambda b: (board.holder(b) != nation, board.place_name(b)))
        assert offered == expected
        if nation == "usa":  # an ally's fleet bases are offered after the nation's own
            assert board.holder(offered[-1]) != "usa"
