"""Issue 15's walk: a whole turn of the 1942 game through the main window as a person
plays it. Orders are opened from files with the orders panel's own button and file
dialog; *Next step* is clicked ten times; every question the turn asks (each battle's
resolution, each side's step losses) is answered in its own dialog as it appears; a click
on Pearl Harbour shows its In Port card; *View as a team* filters the orders panel and the
map. No dialog is bypassed: the conftest's guard against unanswered dialogs is lifted and
a timer answers them through their widgets (tests/ui/walk.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest

from campaign import paths
from tests.ui.walk import Person
from ui.mainwindow import MainWindow

SAMPLES = paths.scenario_dir("1942") / "sample-orders"


@pytest.fixture
def person(monkeypatch: pytest.MonkeyPatch) -> Iterator[Person]:
    monkeypatch.undo()  # real dialogs: every one is answered through its widgets
    someone = Person()
    someone.start()
    yield someone
    someone.stop()


def _click_map(w: MainWindow, base: str) -> None:
    point = w.chart.mapFromScene(w.chart.base_points[base])
    QTest.mouseClick(w.chart.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(point))


def test_a_whole_turn_through_the_window(qtbot: object, person: Person) -> None:
    w = MainWindow()  # asks for every battle's resolution and every side's losses
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.session.new_game()
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)  # type: ignore[attr-defined]

    # 1. File → Load orders files… (the menu's own action and file dialog) for Germany,
    # then every nation's orders opened from its file with the panel's Open… button
    person.files.append(str(SAMPLES / "germany.json"))
    load = next(a for a in w.findChildren(QAction) if a.text() == "&Load orders files…")
    load.trigger()
    assert w.session.orders("germany") is not None
    assert any(m.startswith("QMessageBox: Orders files") for m in person.met)
    for nation in [w.orders.nation.itemData(i) for i in range(w.orders.nation.count())]:
        w.orders.nation.setCurrentIndex(w.orders.nation.findData(nation))
        person.files.append(str(SAMPLES / f"{nation}.json"))
        QTest.mouseClick(w.orders.open_button, Qt.MouseButton.LeftButton)
        assert w.session.orders(nation) is not None, f"{nation}'s orders were not stored"
    assert not w.orders.problems
    opened = [m for m in person.met if m.startswith("QFileDialog")]
    assert len(opened) == 10

    # 2. View as a team (through the menu and its dialog): Japan's view everywhere
    person.team = "Japan"
    action = next(
        a for a in w.findChildren(type(w.control_action)) if "View as a te&am" in a.text()
    )
    action.trigger()
    assert w.orders.team == "japan" and w.orders.nation.count() == 1
    assert w.banner.isVisible() and "Japan" in w.banner.text()
    own = {k for k in w.chart.counters if k.startswith("japan:")}
    others = {k for k in w.chart.counters if not k.startswith(("japan:", "public:"))}
    assert others == set(), others  # no other nation's task force as its own counter
    assert own, "Japan's own task forces are on its chart"
    everyone = next(
        a for a in w.findChildren(type(w.control_action)) if a.text() == "View as &Game Control"
    )
    everyone.trigger()
    assert w.orders.nation.count() == 9 and not w.banner.isVisible()
    assert any(k.startswith("usa:") for k in w.chart.counters)
    # 3. the ten steps, each with the Next step button; the questions come as they come
    for step in range(1, 11):
        QTest.mouseClick(w.turnbar.next_button, Qt.MouseButton.LeftButton)
        assert w.session.state.step == step or (step == 10 and w.session.state.turn == 2)
    battles = [m for m in person.met if m.startswith("battleChoice")]
    losses = [m for m in person.met if m.startswith("stepLosses")]
    assert battles, "step 8 asked about no battle"
    assert losses, "no side was asked for its step losses"
    assert w.session.state.turn == 2 and w.session.state.step == 0
    kinds = {e.kind for e in w.session.events(turn=1)}
    assert {"naval_combat", "merchant_combat", "unit_sunk"} <= kinds

    # 4. the chart shows what happened, and a mark opens its events
    battle = next(k for k in w.chart.marks.marks if k.startswith("area:"))
    w.chart.centerOn(w.chart.marks.marks[battle].point)
    spot = w.chart.mapFromScene(w.chart.marks.marks[battle].point)
    QTest.mouseClick(w.chart.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(spot))
    assert "what happened here" in w.details.text() and "Battle in" in w.details.text()
    assert w.legend.isVisible() and "Route cut" in " ".join(t for _, t in w.legend.rows)

    # 5. a click on Pearl Harbour: its In Port card in Details
    w.chart.zoom_to("Pacific")
    _click_map(w, "pearl_harbour")
    assert w.right_tabs.currentWidget() is w.details
    text = w.details.text()
    assert "Pearl Harbour" in text and "In port" in text

    person.buttons["Unsaved changes"] = "Discard"  # the window closes after the test
