"""The sea chart and the details panel, driven like a user would, offscreen.

Every test gets its own settings and data folders (QStandardPaths test mode, QSettings
and XDG paths under ``tmp_path``), so nothing touches the user's files.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import (
    QCoreApplication,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QSettings,
    QSize,
    QStandardPaths,
    Qt,
)
from PySide6.QtGui import QColor, QImage, QPainter, QRegion, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from campaign import paths
from campaign.orders import CardPlay, load_orders
from tests.ui.newprocess import run_python
from ui import chartgeometry, mapview, style
from ui.chartgeometry import (
    DEG,
    _artificial,
    _polygon,
    chart_lon,
    land_rings,
    outline_grid,
    place_ring,
    thin_coast,
    thin_rings,
    unwrap,
)
from ui.details import DetailsPanel
from ui.mapview import WHEEL_STEP, SeaChart, greedy_colouring
from ui.session import GameSession

W, H = 1366, 768


@pytest.fixture
def session(qapp: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GameSession]:
    """A new 1942 game in an isolated settings and data folder."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    QCoreApplication.setOrganizationName("SeaControl")
    QCoreApplication.setApplicationName("SeaControl-test")
    QStandardPaths.setTestModeEnabled(True)
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    game = GameSession()
    game.new_game()
    assert str(tmp_path) in str(game.working)
    yield game
    game.close()


@pytest.fixture
def chart(qtbot: object, session: GameSession) -> SeaChart:
    view = SeaChart(session)
    qtbot.addWidget(view)  # type: ignore[attr-defined]
    view.resize(W, H)
    view.show()
    qtbot.waitExposed(view)  # type: ignore[attr-defined]
    view.fit_world()
    return view


def store_sample_orders(session: GameSession, *nations: str) -> None:
    folder = paths.scenario_dir("1942") / "sample-orders"
    for file in sorted(folder.glob("*.json")):
        if nations and file.stem not in nations:
            continue
        problems = session.set_orders(file.stem, load_orders(file.read_text("utf-8"), file.stem))
        assert problems == []


def view_pos(view: SeaChart, key: str) -> QPoint:
    return view.mapFromScene(view.base_points[key])


# -- projection ------------------------------------------------------------------------------
def test_longitudes_go_into_the_chart_window() -> None:
    assert chart_lon(-31.0) == pytest.approx(329.0)
    assert chart_lon(-30.0) == pytest.approx(-30.0)
    assert chart_lon(179.0) == pytest.approx(179.0)
    assert chart_lon(-170.0) == pytest.approx(190.0)


def test_a_ring_across_the_antimeridian_is_kept_whole() -> None:
    ring = [(175.0, 0.0), (-175.0, 0.0), (-175.0, 5.0), (175.0, 5.0)]
    assert [p[0] for p in unwrap(ring)] == [175.0, 185.0, 185.0, 175.0]
    placed = place_ring([(-190.0, 0.0), (-170.0, 0.0), (-170.0, 5.0)])
    assert all(-30.0 <= lon < 330.0 for lon, _ in placed)
    assert max(p[0] for p in placed) - min(p[0] for p in placed) == pytest.approx(20.0)


# -- building --------------------------------------------------------------------------------
def test_the_chart_has_an_item_per_area_base_and_route(
    chart: SeaChart, session: GameSession
) -> None:
    scenario = session.scenario
    assert set(chart.areas) == set(scenario.world.areas)
    assert len(chart.bases) == len(scenario.rows("bases"))
    assert len(chart.routes) == len(scenario.rows("routes"))
    assert set(chart.routes) == {r["id"] for r in scenario.rows("routes")}
    assert chart.counters == {}  # no orders yet


def test_no_area_or_route_streaks_across_the_chart(chart: SeaChart) -> None:
    for item in chart.areas.values():
        assert item.polygon().boundingRect().width() < 90 * 10
    for route_id, geo in chart._route_geo.items():
        assert all(abs(line.dx()) < 180 * 10 for line in geo.segments), route_id


def test_fit_world_shows_every_area(chart: SeaChart) -> None:
    chart.zoom_to("Mediterranean")
    chart.fit_world()
    visible = chart.mapToScene(chart.viewport().rect()).boundingRect()
    for area_id, item in chart.areas.items():
        box = item.polygon().boundingRect()
        assert visible.adjusted(-1, -1, 1, 1).contains(box), area_id


@pytest.mark.parametrize(
    "theatre",
    ["Pacific", "Atlantic", "Mediterranean", "Indian Ocean", "East Indies", "North Sea & Arctic"],
)
def test_theatres_zoom_in(chart: SeaChart, theatre: str) -> None:
    world_ppd = chart.px_per_degree()
    assert chart.zoom_to(theatre)
    assert chart.px_per_degree() > world_ppd
    assert not chart.zoom_to("Nowhere")


# -- interaction ------------------------------------------------------------------------------
def test_clicking_a_base_selects_it(qtbot: object, chart: SeaChart) -> None:
    chart.zoom_to("Pacific")
    pos = view_pos(chart, "truk")
    with qtbot.waitSignal(chart.selected, timeout=1000) as blocker:  # type: ignore[attr-defined]
        QTest.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier(0), pos)
    assert blocker.args == ["base", "truk"]
    assert chart.selection == ("base", "truk")
    assert chart.bases["truk"].highlighted


def test_clicking_open_sea_selects_the_area(qtbot: object, chart: SeaChart) -> None:
    chart.zoom_to("Pacific")
    pos = chart.mapFromScene(chart.label_points["north_pacific"])
    with qtbot.waitSignal(chart.selected, timeout=1000) as blocker:  # type: ignore[attr-defined]
        QTest.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier(0), pos)
    assert blocker.args[0] in ("area", "route")
    if blocker.args[0] == "area":
        assert blocker.args[1] == "north_pacific"
        assert chart.areas["north_pacific"].isVisible()  # the selection outline


def test_find_centres_on_a_base(chart: SeaChart) -> None:
    assert chart.find_place("truk")
    centre = chart.mapToScene(chart.viewport().rect().center())
    truk = chart.base_points["truk"]
    tolerance = 3.0 / chart.transform().m11()  # a few pixels
    assert abs(centre.x() - truk.x()) <= tolerance
    assert abs(centre.y() - truk.y()) <= tolerance
    assert chart.selection == ("base", "truk")
    assert chart.find_place("Coral")  # a prefix of an area's name
    assert chart.selection == ("area", "coral_sea")
    assert not chart.find_place("Atlantis")


def test_show_range_shades_the_areas_within_reach(chart: SeaChart, session: GameSession) -> None:
    store_sample_orders(session, "japan")
    shaded = chart.show_range("japan:r_cover")
    board = session.board()
    expected = session.scenario.world.within(board.area_of("truk"), 4)
    assert shaded == expected == chart.range_areas
    outside = next(a for a in chart.areas if a not in expected)
    assert chart.area_fill(next(iter(expected))) != chart._area_tint[next(iter(expected))]
    assert chart.area_fill(outside) == chart._area_tint[outside]
    chart.clear_range()
    assert chart.range_areas == set()


def test_a_range_card_adds_an_area(chart: SeaChart, session: GameSession) -> None:
    store_sample_orders(session, "japan")
    base = chart.show_range("japan:r_cover")
    orders = session.orders("japan")
    assert orders is not None
    card = next(r["id"] for r in session.scenario.rows("cards") if r["nation"] == "japan")
    plays = (*(c for c in orders.cards if c.card != card), CardPlay(card, "range", "r_cover"))
    session.set_orders("japan", replace(orders, cards=plays))
    wider = chart.show_range("japan:r_cover")
    world = session.scenario.world
    assert wider == world.within(session.board().area_of("truk"), 5)
    assert wider > base


def test_an_allys_range_card_widens_the_shaded_range_as_the_order_check_does(
    chart: SeaChart, session: GameSession
) -> None:
    """The map, the details panel and the order check ask Board.task_force_reach."""
    from campaign.orders import Orders
    from ui.details import _task_force_card

    store_sample_orders(session, "japan")
    card = next(r["id"] for r in session.scenario.rows("cards") if r["nation"] == "germany")
    session.set_orders(
        "germany", Orders("germany", 1, cards=(CardPlay(card, "range", "r_cover", "", "japan"),))
    )
    wider = chart.show_range("japan:r_cover")
    assert wider == session.scenario.world.within(session.board().area_of("truk"), 5)
    html = _task_force_card(session.board(), session.all_orders(), "japan:r_cover")
    assert "range 5 areas" in html


def test_orders_add_and_update_task_force_counters(chart: SeaChart, session: GameSession) -> None:
    store_sample_orders(session, "japan")
    assert set(chart.counters) == {"japan:r_cover", "japan:r_invasion", "japan:malaya_force"}
    cover = chart.counters["japan:r_cover"]
    assert cover.flagged  # in Operation R
    assert cover.cv > 0
    orders = session.orders("japan")
    assert orders is not None
    fewer = tuple(tf for tf in orders.task_forces if tf.id != "malaya_force")
    ops = tuple(op for op in orders.operations if "malaya_force" not in op.task_forces)
    session.set_orders("japan", replace(orders, task_forces=fewer, operations=ops))
    assert "japan:malaya_force" not in chart.counters
    assert chart.counters["japan:r_cover"] is cover  # kept, not rebuilt


def test_clicking_a_counter_selects_the_task_force(
    qtbot: object, chart: SeaChart, session: GameSession
) -> None:
    store_sample_orders(session, "usa")
    chart.zoom_to("Pacific")
    key = next(iter(chart.counters))
    counter = chart.counters[key]
    pos = chart.mapFromScene(counter.pos()) + counter.rect().center().toPoint()
    with qtbot.waitSignal(chart.selected, timeout=1000) as blocker:  # type: ignore[attr-defined]
        QTest.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier(0), pos)
    assert blocker.args == ["task_force", key]
    assert counter.highlighted


def test_team_view_hides_other_nations_task_forces(chart: SeaChart, session: GameSession) -> None:
    store_sample_orders(session, "japan", "usa")
    chart.set_team("usa")
    for key, counter in chart.counters.items():
        assert counter.isVisible() == key.startswith("usa:"), key
    chart.set_team(None)
    assert all(c.isVisible() for c in chart.counters.values())


def test_adjacency_can_be_hidden(chart: SeaChart) -> None:
    """The links between the areas are part of the background: hiding them draws it again
    without them, showing them again brings back the very same frame."""
    chart.zoom_to("Pacific")
    shown = _frame(chart)
    assert _frame(chart) == shown  # copied
    chart.set_show_adjacency(False)
    hidden = _frame(chart)
    assert hidden != shown and _frame(chart) == hidden
    chart.set_show_adjacency(True)
    assert _frame(chart) == shown


def test_labels_never_overlap(chart: SeaChart) -> None:
    for theatre in ("Pacific", "Mediterranean"):
        chart.zoom_to(theatre)
        labels = [
            label
            for label in [*chart.area_labels.values(), *chart.base_labels.values()]
            if label.isVisible()
        ]
        assert labels
        # labels keep their size on screen: their boxes are in pixels from their anchor
        boxes = [
            QRectF(label.cx, label.cy, label.w, label.h).translated(chart.mapFromScene(label.pos()))
            for label in labels
        ]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not a.adjusted(1, 1, -1, -1).intersects(b.adjusted(1, 1, -1, -1))


def test_tooltips_describe_what_is_under_the_mouse(chart: SeaChart, session: GameSession) -> None:
    store_sample_orders(session)
    text = chart.tooltip("base", "truk")
    assert "Truk" in text and "Japan" in text
    route = chart.tooltip("route", "us_can_uk")
    assert "Tonnage" in route and "Escorts" in route


def test_a_resolved_step_recolours_and_keeps_items(chart: SeaChart, session: GameSession) -> None:
    store_sample_orders(session)
    areas = dict(chart.areas)
    session.resolve()
    assert chart.areas == areas  # the same items: only what changed was updated
    assert len(chart.routes) >= 28


# -- details ---------------------------------------------------------------------------------
def test_details_panel_follows_the_selection(
    qtbot: object, chart: SeaChart, session: GameSession
) -> None:
    store_sample_orders(session)
    panel = DetailsPanel(session)
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    chart.selected.connect(panel.show_item)
    assert chart.find_place("Truk")
    assert panel.item == ("base", "truk")
    text = panel.text()
    assert "Truk" in text and "In port" in text and "LSP" in text
    panel.show_item("task_force", "japan:r_cover")
    assert "Kido Butai" in panel.text() and "operation_r" in panel.text()
    panel.show_item("route", "us_can_uk")
    assert "Effective lift" in panel.text() and "Escorts" in panel.text()
    panel.show_item("area", "coral_sea")
    assert "Neighbours" in panel.text()


def test_a_fleet_train_appears_moves_and_goes_on_the_chart(
    chart: SeaChart, session: GameSession
) -> None:
    """002 "Bases": a fleet train is a mobile fleet base: the chart draws it where it is."""
    from campaign.orders import FleetTrainOrder, Orders

    board = session.board()
    origin = "san_diego"
    area = board.area_of("pearl_harbour")
    train = FleetTrainOrder("ft_pacific", "Service Squadron 4", area, origin, 10, 2)
    setup = Orders("usa", 1, tonnage={"usa_west_australia": 0}, fleet_trains=(train,))
    assert session.set_orders("usa", setup) == []
    session.resolve(to_step=10)
    assert chart.bases["ft_pacific"].kind == "fleet_train"
    assert chart.base_points["ft_pacific"] == chart._base_point(session.board().bases["ft_pacific"])
    assert "ft_pacific_supply" in chart.routes
    other = next(a for a in sorted(session.board().world.areas) if a != area)
    move = Orders("usa", 2, fleet_trains=(FleetTrainOrder("ft_pacific", area=other),))
    assert session.set_orders("usa", move) == []
    before = chart.base_points["ft_pacific"]
    session.resolve(to_step=10)
    assert chart.base_points["ft_pacific"] != before
    gone = Orders("usa", 3, fleet_trains=(FleetTrainOrder("ft_pacific", disband=True),))
    assert session.set_orders("usa", gone) == []
    session.resolve(to_step=10)
    assert "ft_pacific" not in chart.bases and "ft_pacific_supply" not in chart.routes


def test_area_tints_are_networkxs_greedy_colouring(chart: SeaChart, session: GameSession) -> None:
    """The chart colours areas itself (networkx loads only when asked): the same colour
    numbers as networkx's largest-first greedy colouring, neighbours never alike."""
    import networkx as nx

    world = session.scenario.world
    assert greedy_colouring(world) == nx.coloring.greedy_color(
        world.graph, strategy="largest_first"
    )
    for a, b, _data in world.edges():
        assert chart.area_fill(a) != chart.area_fill(b)


def _pixel_at_base(chart: SeaChart, base: str) -> QColor:
    """The colour the chart paints at a base's point (the middle of its symbol)."""
    image = QImage(chart.viewport().size(), QImage.Format.Format_ARGB32)
    chart.viewport().render(image)
    at = chart.mapFromScene(chart.base_points[base])
    return image.pixelColor(at)


def _frame(chart: SeaChart) -> bytes:
    """A frame as the window paints it (into premultiplied pixels, as a backing store is;
    a plain ARGB32 image rounds a blend a shade apart from one copied into it)."""
    image = QImage(chart.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
    chart.viewport().render(image)
    return bytes(image.constBits())


def test_a_view_drawn_again_is_the_same_and_shows_a_change_of_shading(
    chart: SeaChart, session: GameSession, qtbot: object
) -> None:
    """A second frame of the same view copies the background drawn the first time it was
    asked again: the frames are alike, and a change of shading, a zoom or a pan draws the
    chart afresh (none is a stale copy: each is what a chart drawing the view for the
    first time paints)."""
    fresh = SeaChart(session)
    qtbot.addWidget(fresh)  # type: ignore[attr-defined]
    fresh.resize(W, H)
    fresh.show()
    fresh.fit_world()
    for view in (chart, fresh):
        view.zoom_to("Pacific")
    first = _frame(chart)
    assert _frame(chart) == first and _frame(chart) == first  # drawn, copied, copied
    area = "coral_sea" if "coral_sea" in chart.areas else next(iter(chart.areas))
    chart.shade_areas({area})
    shaded = _frame(chart)
    assert shaded != first
    assert _frame(chart) == shaded and _frame(chart) == shaded
    chart.clear_range()
    assert _frame(chart) == first
    for view in (chart, fresh):
        view.zoom_by(1.25)
    closer = _frame(chart)
    assert closer != first and _frame(chart) == closer and _frame(chart) == closer
    assert _frame(fresh) == closer
    for view in (chart, fresh):
        view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + 40)
    moved = _frame(chart)
    assert moved != closer and _frame(chart) == moved and _frame(chart) == moved
    assert _frame(fresh) == moved


def _show(chart: SeaChart, view: str) -> None:
    """The whole world ("fit"), a theatre, the East Indies four times closer ("close"), or
    the Pacific's zoom at the scene's top left corner ("corner")."""
    if view == "fit":
        chart.fit_world()
        return
    assert chart.zoom_to({"close": "East Indies", "corner": "Pacific"}.get(view, view))
    if view == "close":
        chart.zoom_by(4.0)
    if view == "corner":
        for bar in (chart.horizontalScrollBar(), chart.verticalScrollBar()):
            bar.setValue(bar.minimum())


def _idle(chart: SeaChart, qtbot: object) -> None:
    """Give the chart the idle time it draws ahead in (a band each turn of the loop)."""
    qtbot.waitUntil(  # type: ignore[attr-defined]
        lambda: not chart._ahead and not chart._ahead_timer.isActive(), timeout=10_000
    )


def _wheel_event(chart: SeaChart, notches: int) -> QWheelEvent:
    """A turn of the wheel over the middle of the chart (notches > 0: in)."""
    at = QPointF(chart.viewport().rect().center())
    return QWheelEvent(
        at,
        QPointF(chart.viewport().mapToGlobal(at.toPoint())),
        QPoint(),
        QPoint(0, 120 * notches),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )


def _wheel(chart: SeaChart, notches: int) -> None:
    """Move the mouse to the middle of the chart and turn the wheel (notches > 0: in)."""
    QTest.mouseMove(chart.viewport(), chart.viewport().rect().center())
    QApplication.sendEvent(chart.viewport(), _wheel_event(chart, notches))


def _backgrounds_drawn(chart: SeaChart, monkeypatch: pytest.MonkeyPatch) -> list[QRectF]:
    """From now on, the parts of the scene the chart draws its background for afresh (a
    frame that copies one draws none)."""
    drawn: list[QRectF] = []
    draw = chart._paint_background
    monkeypatch.setattr(chart, "_paint_background", lambda p, r: (drawn.append(r), draw(p, r)))
    return drawn


def _twin(chart: SeaChart, session: GameSession, qtbot: object) -> SeaChart:
    """A second chart of the game showing the chart's view, drawn and laid out afresh."""
    fresh = SeaChart(session)
    qtbot.addWidget(fresh)  # type: ignore[attr-defined]
    fresh.resize(chart.size())
    fresh.show()
    fresh.setTransform(chart.transform())
    fresh.horizontalScrollBar().setValue(chart.horizontalScrollBar().value())
    fresh.verticalScrollBar().setValue(chart.verticalScrollBar().value())
    assert fresh.viewportTransform() == chart.viewportTransform()
    fresh._layout_labels()  # as a zoom does
    return fresh


def _apart(one: bytes, other: bytes, width: int) -> tuple[int, float]:
    """How far two frames of ``width`` premultiplied pixels are apart: the largest
    difference of a colour level more than 8 pixels inside the edges, and the share of
    levels that differ anywhere."""
    height = len(one) // 4 // width
    inner, differ = 0, 0
    for i, (a, b) in enumerate(zip(one, other, strict=True)):
        if a != b:
            differ += 1
            x, y = i // 4 % width, i // 4 // width
            if 8 <= x < width - 8 and 8 <= y < height - 8:
                inner = max(inner, abs(a - b))
    return inner, differ / len(one)


def _as_a_fresh_chart(chart: SeaChart, frame: bytes, session: GameSession, qtbot: object) -> None:
    """The window shows the names (each where it stands) a chart laying out the chart's
    view itself shows, and ``frame`` is the one it paints: but for the antialiasing of
    lines that cross the window's edge, where the frame copies a picture (Qt cuts a line
    at the edge of what it paints before drawing it, and the picture's edge is elsewhere:
    a few levels along such a line, rarely ten, and the first dash of a dashed route
    there). Beyond the window, names laid out ahead for every view a notch could show
    may differ."""
    fresh = _twin(chart, session, qtbot)
    window = QRectF(chart.viewport().rect())
    shown, own = (
        {key: box for key, box in _names(view).items() if window.intersects(box)}
        for view in (chart, fresh)
    )
    assert own and shown == own
    inner, share = _apart(frame, _frame(fresh), chart.viewport().width())
    assert inner <= 12 and share < 0.005  # a picture a pixel off is 100 levels off


@pytest.mark.parametrize(
    ("view", "notches"),
    [("fit", 1), ("fit", -1), ("Pacific", 1), ("Pacific", -1), ("Atlantic", -1), ("close", 1)],
)
def test_a_wheel_notch_after_idle_time_copies_what_was_drawn_ahead(
    chart: SeaChart,
    session: GameSession,
    qtbot: object,
    monkeypatch: pytest.MonkeyPatch,
    view: str,
    notches: int,
) -> None:
    """While the chart is idle after a frame, the next notch's background in and out is
    drawn ahead and its names laid out: the notch draws no background and lays out no name.
    The window shows the names (each where it stands) a chart laying out that view itself
    shows (laid out for every view the notch could show, beyond the window the two may
    differ), and the frame is the one a chart drawing the view for the first time paints —
    but for the antialiasing of lines that cross the window's edge (Qt cuts a line at the
    edge of what it paints before drawing it, and the picture's edge is elsewhere: a few
    levels along such a line, rarely ten, and the first dash of a dashed route there)."""
    _show(chart, view)
    _frame(chart)
    _idle(chart, qtbot)
    assert len(chart._layouts_ahead) == 2
    drawn = _backgrounds_drawn(chart, monkeypatch)
    planned = _plans(chart, monkeypatch)
    _wheel(chart, notches)
    ahead = _frame(chart)
    assert drawn == [] and planned == []  # copied, and laid out ahead
    assert chart._layouts_ahead == []  # the other notch's let go
    _as_a_fresh_chart(chart, ahead, session, qtbot)


@pytest.mark.parametrize(("view", "notches"), [("fit", 1), ("Pacific", -1), ("Atlantic", 1)])
def test_a_notch_sooner_than_the_drawing_ahead_draws_only_what_its_view_lacks(
    chart: SeaChart,
    qtbot: object,
    monkeypatch: pytest.MonkeyPatch,
    view: str,
    notches: int,
) -> None:
    """A notch that comes while its background is still being drawn ahead paints only
    the part of its view not drawn yet into it, and copies the view: the frame is the one
    a chart drawing the view for the first time paints (but for the antialiasing of lines
    that cross the window's edge, as any copy). The rest of that background is drawn in
    the idle time after, once the next notches' are."""
    _show(chart, view)
    _frame(chart)
    chart._ahead_timer.stop()
    zoom = chart.transform().m11() * WHEEL_STEP**notches

    def begun() -> list[mapview._Backdrop]:
        return [b for b in chart._ahead if b.begun and math.isclose(b.scale[0], zoom)]

    for _ in range(100):  # the idle time's first bands: the notch's background begun
        if begun():
            break
        chart._draw_ahead()
    chart._ahead_timer.stop()  # (and no more)
    (backdrop,) = begun()
    assert backdrop.todo and backdrop in chart._backdrops
    drawn: list[QRectF] = []  # the parts painted at the notch's zoom
    draw = chart._paint_background

    def painted(painter: QPainter, rect: QRectF) -> None:
        if math.isclose(painter.worldTransform().m11(), zoom):
            drawn.append(rect)
        draw(painter, rect)

    monkeypatch.setattr(chart, "_paint_background", painted)
    _wheel(chart, notches)
    frame = _frame(chart)
    assert math.isclose(chart.transform().m11(), zoom)
    seen = chart.mapToScene(chart.viewport().rect()).boundingRect()
    # some of the view was drawn ahead: less than the view is painted, all of it inside
    assert (
        drawn and sum(r.width() * r.height() for r in drawn) < 0.95 * seen.width() * seen.height()
    )
    pixel = 1.0 / zoom
    assert all(
        seen.adjusted(-2 * pixel, -2 * pixel, 2 * pixel, 2 * pixel).contains(r) for r in drawn
    )
    _as_a_fresh_chart(chart, frame, chart.session, qtbot)
    assert backdrop.todo  # the rest of it (beyond the view) ...
    _idle(chart, qtbot)
    assert not backdrop.todo and backdrop in chart._backdrops  # ... drawn when idle


def test_the_outlines_of_the_next_notch_are_thinned_ahead_a_step_at_a_time(
    chart: SeaChart, session: GameSession, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a small window the whole world is far out, and the next notch out meets an
    outline grid not thinned yet. While idle the chart thins it a step at a time (a ring
    or so: a turn of the loop stops once THIN_AHEAD_MS have passed, here none), then draws
    that notch's background ahead: the notch thins nothing and draws nothing, and shows
    what a chart drawing that view afresh shows."""
    chart.resize(540, 300)
    chart.fit_world()
    _frame(chart)
    zoom = chart.transform().m11() / WHEEL_STEP
    assert chartgeometry.outline_grid(zoom * DEG) != chartgeometry.outline_grid(
        zoom * WHEEL_STEP * DEG
    )
    assert not chart._thinned_for(zoom)
    monkeypatch.setattr(mapview, "THIN_AHEAD_MS", 0.0)
    turns: list[float] = []
    thin = chart._thin_some
    monkeypatch.setattr(chart, "_thin_some", lambda scale: (turns.append(scale), thin(scale)))
    _idle(chart, qtbot)
    assert chart._thinned_for(zoom) and chart._thinning == {}
    assert len(turns) > len(session.scenario.world.areas)  # a ring or so a turn
    made: list[float] = []
    monkeypatch.setattr(chart, "_outlines_made", made.append)
    drawn = _backgrounds_drawn(chart, monkeypatch)
    _wheel(chart, -1)
    frame = _frame(chart)
    assert math.isclose(chart.transform().m11(), zoom)
    assert made == [] and drawn == []
    # (no name has room this far out) the frame of a chart drawing that view afresh
    inner, share = _apart(frame, _frame(_twin(chart, session, qtbot)), 540)
    assert inner <= 12 and share < 0.005


def test_what_is_left_to_draw_around_a_part_drawn_is_the_rest_of_the_band() -> None:
    """A notch draws the part of a band its view shows; what is left of the band is
    pieces that cover the rest of it once, none of the part drawn (as Qt's own regions
    subtract), for every way a view can overlap a band."""
    for x, y, w, h in itertools.product((-30, 0, 10, 60), (-20, 0, 5, 30), (5, 40, 100), (5, 60)):
        band = QRect(0, 0, 80, 40)
        part = band & QRect(x, y, w, h)
        if part.isEmpty():
            continue
        pieces = mapview._around(band, part)
        rest = QRegion()
        for piece in pieces:
            assert band.contains(piece) and not piece.intersects(part)
            rest = rest.united(QRegion(piece))
        assert rest == QRegion(band).subtracted(QRegion(part))
        assert sum(p.width() * p.height() for p in pieces) == 80 * 40 - part.width() * part.height()


def test_a_notch_finishes_a_background_drawn_ahead_only_where_most_of_its_view_is_drawn(
    chart: SeaChart, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Painting the parts of a view not drawn yet and then copying it costs more than
    drawing the view afresh where almost all of it is still to draw: a notch finishes a
    background being drawn ahead only where at most FINISH_UP_TO of its view is missing."""
    _show(chart, "Pacific")
    _frame(chart)
    now = chart.viewportTransform()
    scale = (now.m11(), now.m22())
    view = QRect(QPoint(round(-now.dx()), round(-now.dy())), chart.viewport().size())
    painted: list[QRect] = []
    monkeypatch.setattr(chart, "_paint_region", lambda backdrop, part: painted.append(part))
    for share, finished in ((0.95, False), (mapview.FINISH_UP_TO, True), (0.3, True)):
        missing = QRect(view.left(), view.top(), view.width(), round(view.height() * share))
        backdrop = mapview._Backdrop(scale, 1.0, chart._background_version, view, [missing])
        assert not backdrop.picture.isNull()  # (begun)
        chart._backdrops = [backdrop]
        painted.clear()
        assert (chart._finish(scale, 1.0, view) is backdrop) == finished
        assert painted == ([missing] if finished else [])
        assert backdrop.todo == ([] if finished else [missing])


def test_a_chart_with_no_game_open_plans_nothing_ahead(
    chart: SeaChart, session: GameSession, qtbot: object
) -> None:
    """A closed game leaves an empty sea: no land kept from it, and nothing to draw or
    thin ahead while idle."""
    _show(chart, "fit")
    _frame(chart)
    _idle(chart, qtbot)
    session.close()
    _frame(chart)
    _idle(chart, qtbot)
    assert chart._lands == {} and chart._thinning == {} and chart._ahead == []
    assert all(not backdrop.todo for backdrop in chart._backdrops)  # (the empty sea's)


def test_a_background_being_drawn_gives_only_the_pixels_drawn() -> None:
    """Until a background drawn ahead is whole, a copy or a preview takes from it only
    pixels drawn: the parts still to draw are refused, at any density."""
    for ratio in (1.0, 2.0):
        region = QRect(100, 50, 400, 300)
        todo = [QRect(100, 200, 400, 150)]
        backdrop = mapview._Backdrop((2.0, 2.0), ratio, 0, region, todo)
        top = QRect(0, 0, round(400 * ratio), round(150 * ratio))  # the view's device pixels
        assert backdrop.source(QPoint(100, 50), top) == top
        assert backdrop.source(QPoint(100, 51), top) is None  # a row into the part to draw
        assert backdrop.missing(QRect(100, 190, 50, 20)) == 50 * 10
        # a preview's part of the scene (scene units: pixels at this zoom over 2)
        assert backdrop.holding(QRectF(50, 25, 200, 75)) is not None
        assert backdrop.holding(QRectF(50, 25, 200, 76)) is None
        backdrop.todo = []
        assert backdrop.source(QPoint(100, 100), top) is not None


def test_the_keys_zoom_as_the_wheel_and_copy_what_was_drawn_ahead(
    chart: SeaChart, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """*View → Zoom in / out* turn the wheel by a notch about the view's centre: a notch's
    zoom, whose background was drawn ahead while the chart was idle."""
    _show(chart, "Atlantic")
    _frame(chart)
    _idle(chart, qtbot)
    start = chart.px_per_degree()
    drawn = _backgrounds_drawn(chart, monkeypatch)
    chart.zoom_notches(1)
    _frame(chart)
    assert chart.px_per_degree() == pytest.approx(start * WHEEL_STEP) and drawn == []
    chart.zoom_notches(-1)
    assert chart.px_per_degree() == pytest.approx(start)
    chart.zoom_notches(0.25)  # a touchpad's part of a notch: nothing made ahead for it
    _frame(chart)
    _idle(chart, qtbot)
    assert chart._layouts_ahead == [] and chart._ahead == []
    chart.zoom_notches(1)
    _frame(chart)
    _idle(chart, qtbot)
    assert len(chart._layouts_ahead) == 2


def _names(chart: SeaChart) -> dict[str, QRectF]:
    """The names shown and where each stands in the window (pixels)."""
    out = {}
    for kind, labels, points in (
        ("area", chart.area_labels, chart.label_points),
        ("base", chart.base_labels, chart.base_points),
    ):
        for key, label in labels.items():
            if label.isVisible():
                at = chart.viewportTransform().map(points[key])
                out[f"{kind}:{key}"] = QRectF(
                    at.x() + label.cx, at.y() + label.cy, label.w, label.h
                )
    return out


def test_a_layout_made_ahead_is_never_shown_once_the_chart_changed(
    chart: SeaChart, session: GameSession, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A layout made ahead describes the chart as it was: a notch that lays out afresh
    lets go of those still to make, and a change of what the chart shows (orders, holders,
    a team's view) lays out anew even when one was made for the zoom on screen."""
    _show(chart, "Pacific")
    _frame(chart)
    _idle(chart, qtbot)
    chart._plan_ahead()  # the next notches' regions queued, not yet laid out ...
    chart._ahead = []
    chart.zoom_notches(0.5)  # ... when a zoom comes (laid out afresh)
    chart._draw_ahead()  # and the timer's turn before the zoom's frame
    assert chart._layouts_ahead == []
    scale = chart.transform().m11()
    seen = chart.mapToScene(chart.viewport().rect()).boundingRect()
    chart._layouts_ahead = [chart._plan_layout(scale, seen.adjusted(-500, -500, 500, 500))]
    planned = _plans(chart, monkeypatch)
    store_sample_orders(session, "japan")  # counters appear: laid out anew
    assert planned == [scale]


def test_a_pan_draws_ahead_again_once_the_view_rests(
    chart: SeaChart, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a pan (or a resize) the next notches are drawn ahead again for the view the
    chart rests at: the notch after it copies its background."""
    _show(chart, "Pacific")
    _frame(chart)
    _idle(chart, qtbot)
    bar = chart.horizontalScrollBar()
    bar.setValue(bar.value() + 400)
    _frame(chart)
    _idle(chart, qtbot)
    drawn = _backgrounds_drawn(chart, monkeypatch)
    _wheel(chart, 1)
    _frame(chart)
    assert drawn == []


def test_selecting_a_route_keeps_the_background_and_what_was_drawn_ahead(
    chart: SeaChart, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The selected route is drawn over the background (its halo, then the route again):
    selecting one changes the frame but draws no background, and keeps the notches drawn
    ahead."""
    _show(chart, "Pacific")
    plain = _frame(chart)
    _idle(chart, qtbot)
    kept = list(chart._backdrops)
    drawn = _backgrounds_drawn(chart, monkeypatch)
    route = next(iter(chart.routes))
    chart.set_selection("route", route)
    assert _frame(chart) != plain
    chart.set_selection(None, None)
    assert _frame(chart) == plain
    assert drawn == [] and set(chart._backdrops) == set(kept) and len(kept) == 3


def test_names_are_drawn_ahead_so_the_wheel_draws_none(
    chart: SeaChart, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name is drawn the first time it is shown, unless the chart was idle first: then
    it is drawn ahead, and turning the wheel in from the whole world to a close look
    draws no name (it shows many for the first time)."""
    drawn: list[str] = []
    real = mapview._halo_text
    monkeypatch.setattr(
        mapview,
        "_halo_text",
        lambda p, at, text, *rest: (drawn.append(text), real(p, at, text, *rest)),
    )
    _frame(chart)
    _idle(chart, qtbot)
    assert drawn  # the names were drawn, ahead
    drawn.clear()
    shown = {label for label in chart.area_labels.values() if label.isVisible()}
    for _ in range(10):
        _wheel(chart, 1)
        _frame(chart)
    now = {label for label in chart.area_labels.values() if label.isVisible()}
    now |= {label for label in chart.base_labels.values() if label.isVisible()}
    assert len(now - shown) > 10 and drawn == []


def _rested(chart: SeaChart, qtbot: object) -> None:
    """Let the wheel stop: the chart's end of a spin, and the frame it asks for painted."""
    qtbot.waitUntil(lambda: not chart._rest_timer.isActive(), timeout=10_000)  # type: ignore[attr-defined]
    QCoreApplication.sendPostedEvents()
    QApplication.processEvents()


def _screen(chart: SeaChart) -> bytes:
    """What the window shows of the chart (its backing store), as _frame gives a frame."""
    store = QImage(chart.backingStore().paintDevice())
    top = chart.viewport().mapTo(chart.window(), QPoint(0, 0))
    shown = store.copy(QRect(top, chart.viewport().size()))
    # held while its bits are read (a temporary image may be freed before bytes() reads)
    pixels = shown.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    return bytes(pixels.constBits())


def _plans(chart: SeaChart, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """From now on, the zooms the chart lays its names out for afresh."""
    planned: list[float] = []
    plan = chart._plan_layout
    monkeypatch.setattr(chart, "_plan_layout", lambda s, r: (planned.append(s), plan(s, r))[1])
    return planned


def _levels_apart(one: bytes, other: bytes) -> tuple[float, float]:
    """The mean difference of a colour level between two frames, and the share of levels
    more than a quarter of the range apart."""
    far = sum(1 for a, b in zip(one, other, strict=True) if abs(a - b) > 64)
    return sum(abs(a - b) for a, b in zip(one, other, strict=True)) / len(one), far / len(one)


def _previews_shown(chart: SeaChart, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """From now on, whether each frame that looked for a picture to scale showed one."""
    shown: list[bool] = []
    preview = chart._preview
    monkeypatch.setattr(
        chart, "_preview", lambda *args: (lambda r: (shown.append(r), r)[1])(preview(*args))
    )
    return shown


@pytest.mark.parametrize(
    ("view", "factor"),
    [("fit", 1.2), ("Pacific", 1.2), ("Pacific", 1 / 1.2), ("Atlantic", 1 / 1.2)],
)
def test_a_spin_of_the_wheel_shows_previews_and_the_sharp_chart_at_rest(
    chart: SeaChart,
    session: GameSession,
    qtbot: object,
    monkeypatch: pytest.MonkeyPatch,
    view: str,
    factor: float,
) -> None:
    """Zoom steps with no idle moment between them (the fastest spin of a wheel): after
    the first, a step lays out no name (those shown move with the zoom) and, where
    previews pay, draws no background but scales one drawn sharp at a zoom close by —
    with none, the step draws one to scale: the view, or zooming out, a notch wider on
    every side. At the chart's first idle moment the names are laid out and the window
    drawn sharp: then both are what a chart showing that view afresh shows."""
    _show(chart, view)
    _frame(chart)
    _idle(chart, qtbot)
    chart._backdrops.clear()  # nothing kept to scale: the spin draws its own
    monkeypatch.setattr(chart._costs, "previews_pay", lambda scale, ratio: True)
    chart.zoom_by(factor)  # the first step: laid out at once (after an idle moment)
    _frame(chart)
    planned = _plans(chart, monkeypatch)
    named = set(_names(chart))
    shown = _previews_shown(chart, monkeypatch)
    drawn = _backgrounds_drawn(chart, monkeypatch)
    chart.zoom_by(factor)  # nothing close enough to scale: a picture drawn to scale
    _frame(chart)
    assert shown == [False] and len(drawn) == 1 and chart._backdrops
    size = chart.viewport().size()
    region = chart._backdrops[-1].region
    if factor > 1:
        assert region.size() == size
    else:  # a notch on every side, and a pixel
        assert (region.width(), region.height()) == (
            size.width() + 2 * (math.ceil(size.width() * (WHEEL_STEP - 1.0)) + 1),
            size.height() + 2 * (math.ceil(size.height() * (WHEEL_STEP - 1.0)) + 1),
        )
    chart.zoom_by(factor)  # scaled from it
    preview = _frame(chart)
    assert shown == [False, True] and len(drawn) == 1
    assert planned == [] and set(_names(chart)) == named
    _rested(chart, qtbot)
    assert chart.transform().m11() in planned  # (the next notches too, ahead)
    sharp = _frame(chart)
    # the window shows it (a preview was on the screen until then)
    inner, share = _apart(sharp, _screen(chart), W)
    assert inner <= 12 and share < 0.005
    _as_a_fresh_chart(chart, sharp, session, qtbot)
    # the preview is the frame drawn sharp but for softer lines (and the names of the
    # zoom before): a picture a few pixels off is several levels apart on average
    mean, far = _levels_apart(preview, sharp)
    assert mean < 3 and far < 0.015  # (seen: 1.0–1.6 and 0.004–0.006; three rows off: 6–7, 0.03)


def test_wheel_notches_queued_up_are_a_spin_until_the_wheel_stops(
    chart: SeaChart, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the event loop: wheel notches that queue up while a frame is drawn are
    taken together and painted once, as a spin — a preview on the screen, the names not
    laid out — and drawing ahead between them does not end it: only the wheel stopping for
    SPIN_REST_MS does (here, when the test says), and then the names are laid out and the
    window drawn sharp."""
    _show(chart, "Pacific")
    _frame(chart)
    _idle(chart, qtbot)
    monkeypatch.setattr(chart._costs, "previews_pay", lambda scale, ratio: True)
    chart._rest_timer.setInterval(600_000)  # a wheel that does not stop until told
    planned = _plans(chart, monkeypatch)
    shown = _previews_shown(chart, monkeypatch)
    start = chart.transform().m11()
    for _ in range(3):
        QApplication.postEvent(chart.viewport(), _wheel_event(chart, 1))
    qtbot.wait(50)  # type: ignore[attr-defined]  # the notches, taken together, and a frame
    _idle(chart, qtbot)  # drawing ahead for the next notches
    assert chart.transform().m11() == pytest.approx(start * WHEEL_STEP**3)
    assert any(shown) and chart._spinning and chart._owed_frame  # a preview shown
    assert chart.transform().m11() not in planned  # (only the next notches, ahead)
    preview = _screen(chart)
    chart._rest_timer.start(1)  # the wheel stops
    _rested(chart, qtbot)
    assert chart.transform().m11() in planned and not chart._spinning
    sharp = _frame(chart)
    assert _screen(chart) != preview
    inner, share = _apart(sharp, _screen(chart), W)
    assert inner <= 12 and share < 0.005
    _idle(chart, qtbot)  # and the next notches are drawn ahead from there
    assert len(chart._layouts_ahead) == 2


def test_a_spin_draws_afresh_where_previews_do_not_pay(
    chart: SeaChart, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a view drawn afresh has cost less than a preview, a spin's steps draw their
    backgrounds afresh; the names are still laid out once, at rest."""
    _show(chart, "close")
    _frame(chart)
    _idle(chart, qtbot)
    monkeypatch.setattr(chart._costs, "previews_pay", lambda scale, ratio: False)
    chart.zoom_by(1.2)
    _frame(chart)
    planned = _plans(chart, monkeypatch)
    drawn = _backgrounds_drawn(chart, monkeypatch)
    for factor in (1 / 1.19, 1.2):
        chart.zoom_by(factor)
        _frame(chart)
    assert len(drawn) == 2 and planned == []
    _rested(chart, qtbot)
    assert chart.transform().m11() in planned  # (the next notches too, ahead)


def test_previews_pay_where_a_view_drawn_afresh_cost_more(chart: SeaChart, qtbot: object) -> None:
    """A spin shows previews at a zoom where a view drawn afresh has lately cost at least
    PREVIEW_PAYS times a preview, each measured as the chart draws it at the screen's
    density (not a frame that thins the outlines first, nor a render into a denser
    image); not where it cost less, nor at a zoom not drawn yet, nor at a fractional
    density. A new window size forgets what was measured."""
    costs = mapview._Costs()
    size = chart.viewport().size()
    assert costs.for_view(size, 1.0, 1.0) and not costs.for_view(size, 2.0, 1.0)
    costs.add_fresh(3.0, 5.0)
    costs.preview = 5.0 / mapview.PREVIEW_PAYS - 0.1
    assert costs.previews_pay(3.0, 1.0) and costs.previews_pay(3.0 * 1.05, 1.0)
    # a notch or two away: the nearest notch measured (a spin meets a new one each step)
    assert costs.previews_pay(3.0 * WHEEL_STEP**2, 1.0)
    assert not costs.previews_pay(3.0 * WHEEL_STEP**3, 1.0)  # none measured that close
    costs.add_fresh(3.0 * WHEEL_STEP**2, 1.0)
    assert not costs.previews_pay(3.0 * WHEEL_STEP**3, 1.0)  # the nearest measured: cheap
    assert costs.previews_pay(3.0 * WHEEL_STEP, 1.0)  # two as near: the one below
    assert not costs.previews_pay(3.0, 2.0)  # another density than measured
    costs.preview = 5.0 / mapview.PREVIEW_PAYS + 0.1
    assert not costs.previews_pay(3.0, 1.0)
    assert costs.for_view(QSize(size.width() + 10, size.height()), 1.0, 1.0)
    assert costs.fresh == {} and costs.preview == 0.0
    assert costs.for_view(size, 1.25, 1.25) and not costs.previews_pay(3.0, 1.25)
    # as the chart draws: a whole view drawn afresh, after its outlines were thinned
    _show(chart, "Atlantic")
    chart._outlines.clear()
    chart._lands.clear()
    chart._costs = mapview._Costs()
    _frame(chart)  # thins first: not measured
    assert chart._costs.fresh == {}
    chart.zoom_by(1.2)
    _frame(chart)
    chart.zoom_by(1 / 1.2)
    _frame(chart)
    assert chart._costs.fresh[mapview._notch(chart.transform().m11())] > 0.0
    dense = QImage(chart.viewport().size() * 2, QImage.Format.Format_ARGB32_Premultiplied)
    dense.setDevicePixelRatio(2.0)
    before = dict(chart._costs.fresh)
    chart.zoom_by(1.2)
    chart.viewport().render(dense)  # not measured (nor forgotten)
    assert chart._costs.fresh == before
    # and a preview, where one pays: the first tries one
    _idle(chart, qtbot)
    chart._backdrops.clear()
    for notch in (0, 1):  # (the zooms of the steps below are nearest these notches)
        chart._costs.add_fresh(chart.transform().m11() * WHEEL_STEP**notch, 1e9)
    for _ in range(3):  # the first after an idle moment, a picture to scale, a preview
        chart.zoom_by(1.05)
        _frame(chart)
    assert chart._costs.preview > 0.0


def test_a_jump_or_a_change_in_a_spin_lays_out_at_once(
    chart: SeaChart, session: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only steps of the wheel wait for the chart's rest: a jump to a theatre ends a spin
    (its names laid out then, and the next step's too), and a change of what the chart
    shows lays out anew at once."""
    _show(chart, "Pacific")
    chart.zoom_by(1.2)
    planned = _plans(chart, monkeypatch)
    chart.zoom_by(1.2)
    assert planned == []  # a spin
    chart.zoom_to("Atlantic")
    chart.zoom_by(1.2)  # after a jump: no spin
    assert len(planned) == 2 and chart._rest_timer.isActive()
    chart.zoom_by(1.2)
    assert len(planned) == 2  # a spin again
    store_sample_orders(session, "japan")  # counters appear: laid out anew, at once
    assert planned[-1] == chart.transform().m11() and len(planned) == 3


@pytest.mark.parametrize("view", ["fit", "Pacific", "close", "corner"])
@pytest.mark.parametrize("notches", [1, -1])
def test_the_backgrounds_drawn_ahead_hold_every_view_a_notch_can_show(
    chart: SeaChart, qtbot: object, view: str, notches: int
) -> None:
    """Wherever the mouse is over the chart (its corners, its middle), the notch's view
    (the point under the mouse kept there, the view kept inside the scene or centred on
    it) has all its pixels in one of the backgrounds drawn ahead."""
    _show(chart, view)
    _frame(chart)
    _idle(chart, qtbot)
    start = (
        chart.transform(),
        chart.horizontalScrollBar().value(),
        chart.verticalScrollBar().value(),
    )
    box = chart.viewport().rect()
    every = QRect(0, 0, box.width(), box.height())
    corners = (box.topLeft(), box.topRight(), box.bottomLeft(), box.bottomRight())
    for anchor in (*corners, box.center()):
        transform, x, y = start
        chart.setTransform(transform)
        chart.horizontalScrollBar().setValue(x)
        chart.verticalScrollBar().setValue(y)
        chart.zoom_by(WHEEL_STEP**notches, around=QPointF(anchor))
        now = chart.viewportTransform()
        assert now.m11() != transform.m11()
        scroll = QPoint(round(-now.dx()), round(-now.dy()))
        assert any(
            b.scale == (now.m11(), now.m22()) and b.source(scroll, every) is not None
            for b in chart._backdrops
        ), (anchor, scroll)


#: a new process's start (the screen's pixel ratio set before Qt starts): a new game, and
#: a frame of an 800×500 chart as the window paints it, at the screen's density
_DENSE = (
    "import time\n"
    "from PySide6.QtCore import QPoint, QPointF, QRect, Qt\n"
    "from PySide6.QtGui import QImage, QWheelEvent\n"
    "from PySide6.QtWidgets import QApplication\n"
    "from ui.mapview import SeaChart\n"
    "from ui.session import GameSession\n"
    "app = QApplication([])\n"
    "session = GameSession()\n"
    "session.new_game()\n"
    "def frame(view):\n"
    "    ratio = view.devicePixelRatioF()\n"
    "    size = (int(800 * ratio), int(500 * ratio))\n"
    "    image = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)\n"
    "    image.setDevicePixelRatio(ratio)\n"
    "    view.viewport().render(image)\n"
    "    return bytes(image.constBits())\n"
)


def _over(chart: SeaChart, fill: int, part: QRect | None = None) -> bytes:
    """A frame painted over an image of one colour (the window or ``part`` of it): Qt does
    not fill the window before the chart paints it."""
    image = QImage(chart.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(fill)
    if part is None:
        chart.viewport().render(image)
        return bytes(image.constBits())
    chart.viewport().render(image, part.topLeft(), QRegion(part))
    piece = image.copy(part)  # (held: its bits are read after the call)
    return bytes(piece.constBits())


@pytest.mark.parametrize("view", ["fit", "Pacific", "close", "corner"])
def test_the_chart_paints_every_pixel_of_its_window(
    chart: SeaChart, monkeypatch: pytest.MonkeyPatch, view: str
) -> None:
    """Qt leaves the window as it was before the chart paints it (the chart paints it
    all: the sea, or the frame beyond the chart), so whatever it held must not show: a
    frame drawn afresh, a copy, a part of the window painted again and a preview are the
    same painted over black and over white."""
    assert chart.viewport().testAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
    black, white = 0xFF000000, 0xFFFFFFFF
    pays = [False]
    monkeypatch.setattr(chart._costs, "previews_pay", lambda scale, ratio: pays[0])
    _show(chart, view)
    chart.zoom_by(1.1)  # a view never drawn (no whole notch: nothing drawn ahead)
    frames = []
    for fill in (black, white):
        chart._background_seen = ()  # drawn afresh each time
        frames.append(_over(chart, fill))
    assert frames[0] == frames[1]
    assert _over(chart, black) == _over(chart, white) == frames[0]  # copies
    part = QRect(513, 301, 77, 45)
    assert _over(chart, black, part) == _over(chart, white, part)
    pays[0] = True
    shown = _previews_shown(chart, monkeypatch)
    chart.zoom_by(1.05)
    chart._spinning = True  # a step of a spin: scaled from the picture of the view
    assert _over(chart, black) == _over(chart, white)
    assert _over(chart, black, part) == _over(chart, white, part)
    assert shown == [True] * 4


@pytest.mark.parametrize("scale", ["2", "1.25"])
def test_a_view_drawn_again_on_a_high_density_screen_is_the_same(
    tmp_path: Path, scale: str
) -> None:
    """At two (and one and a quarter) device pixels a pixel — a new process: the ratio is
    set before Qt starts — a copied background is the frame drawn afresh, to its last
    column and row (at 1.25 the raster engine leaves the last device column of a picture
    a shade apart: at most one level of one colour); a repaint of part of the window copies
    whole device pixels (no column of the window's own white left at its edge)."""
    code = _DENSE + (
        "chart = SeaChart(session)\n"
        "chart.resize(800, 500)\n"
        "chart.show()\n"
        "app.processEvents()\n"
        "ratio = chart.devicePixelRatioF()\n"
        "def settle():\n"
        "    for _ in range(4):\n"
        "        app.processEvents()\n"
        "        time.sleep(0.01)\n"
        "for view in ('fit', 'Pacific'):\n"
        "    chart.fit_world() if view == 'fit' else chart.zoom_to(view)\n"
        "    chart.zoom_by(1.1)\n"
        "    first, copied, again = frame(chart), frame(chart), frame(chart)\n"
        "    apart = max((abs(a - b) for a, b in zip(first, copied) if a != b), default=0)\n"
        "    print(view, apart, copied == again)\n"
        "chart.resize(1366, 768)\n"
        "settle()\n"
        "chart.fit_world()\n"
        "chart.zoom_to('Pacific')\n"
        "settle()\n"
        "chart.viewport().update()\n"
        "settle()\n"
        "chart.viewport().update(QRect(513, 301, 77, 45))\n"
        "settle()\n"
        "shown = QImage(chart.backingStore().paintDevice())\n"
        "top = chart.viewport().mapTo(chart.window(), chart.viewport().rect().topLeft())\n"
        "x = int((top.x() + 590) * ratio - 0.5)\n"
        "ys = range(int((top.y() + 301) * ratio), int((top.y() + 346) * ratio))\n"
        "white = sum(1 for y in ys if shown.pixel(x, y) & 0xFFFFFF == 0xFFFFFF)\n"
        "print('white', white)\n"
        "session.close()\n"
    )
    out = run_python(code, tmp_path, QT_SCALE_FACTOR=scale)
    shade = "0" if scale == "2" else "1"
    fit, fit_apart, fit_again, pacific, pacific_apart, pacific_again, *white = out.split()
    assert (fit, fit_again, pacific, pacific_again) == ("fit", "True", "Pacific", "True")
    assert fit_apart in ("0", shade) and pacific_apart in ("0", shade)
    assert white == ["white", "0"]


@pytest.mark.parametrize("scale", ["2", "1.25"])
def test_the_chart_paints_every_pixel_of_its_window_on_a_high_density_screen(
    tmp_path: Path, scale: str
) -> None:
    """At two (and one and a quarter) device pixels a pixel — a new process — a frame drawn
    afresh, a copy and a part of the window painted again are the same over black and
    over white, to the last device column and row (an antialiased fill at the window's
    edge would leave a trace of what was there)."""
    code = _DENSE + (
        "from PySide6.QtGui import QRegion\n"
        "chart = SeaChart(session)\n"
        "chart.resize(800, 500)\n"
        "chart.show()\n"
        "app.processEvents()\n"
        "ratio = chart.devicePixelRatioF()\n"
        "assert chart.viewport().testAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)\n"
        "def over(fill, part=None):\n"
        "    size = (int(800 * ratio), int(500 * ratio))\n"
        "    image = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)\n"
        "    image.setDevicePixelRatio(ratio)\n"
        "    image.fill(fill)\n"
        "    if part is None:\n"
        "        chart.viewport().render(image)\n"
        "        return bytes(image.constBits())\n"
        "    chart.viewport().render(image, part.topLeft(), QRegion(part))\n"
        "    device = QRect(*(round(v * ratio) for v in part.getRect()))\n"
        "    piece = image.copy(device)\n"
        "    return bytes(piece.constBits())\n"
        "black, white, part = 0xFF000000, 0xFFFFFFFF, QRect(512, 300, 76, 44)\n"
        "for view in ('fit', 'Pacific'):\n"
        "    chart.fit_world() if view == 'fit' else chart.zoom_to(view)\n"
        "    chart.zoom_by(1.1)\n"
        "    fresh = []\n"
        "    for fill in (black, white):\n"
        "        chart._background_seen = ()\n"
        "        fresh.append(over(fill))\n"
        "    copied = over(black) == over(white)\n"
        "    print(view, fresh[0] == fresh[1], copied, over(black, part) == over(white, part))\n"
        "session.close()\n"
    )
    out = run_python(code, tmp_path, QT_SCALE_FACTOR=scale)
    assert out.split() == ["fit", "True", "True", "True", "Pacific", "True", "True", "True"]


@pytest.mark.parametrize("scale", ["2", "1.25"])
def test_a_wheel_notch_on_a_high_density_screen_after_idle_time(tmp_path: Path, scale: str) -> None:
    """At two device pixels a pixel the next notch's background is drawn ahead (for the
    screen's density) and copied, and the frame is what a chart drawing it afresh paints
    (within the antialiasing of lines cut at the window's edge); at one and a quarter
    nothing is drawn ahead (the views of one zoom fall between each other's device
    pixels) and the notch draws its frame."""
    code = _DENSE + (
        "charts = [SeaChart(session), SeaChart(session)]\n"
        "for chart in charts:\n"
        "    chart.resize(800, 500)\n"
        "    chart.show()\n"
        "    chart.zoom_to('Pacific')\n"
        "app.processEvents()\n"
        "chart, fresh = charts\n"
        "frame(chart)\n"
        "end = time.time() + 5\n"
        "while time.time() < end and (chart._ahead or chart._ahead_timer.isActive()):\n"
        "    app.processEvents()\n"
        "kept = len(chart._backdrops)\n"
        "drawn = []\n"
        "paint = chart._paint_background\n"
        "chart._paint_background = lambda p, r: (drawn.append(r), paint(p, r))\n"
        "at = QPointF(300, 200)\n"
        "wheel = QWheelEvent(at, at, QPoint(), QPoint(0, 120), Qt.MouseButton.NoButton,\n"
        "    Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)\n"
        "QApplication.sendEvent(chart.viewport(), wheel)\n"
        "ahead = frame(chart)\n"
        "fresh.setTransform(chart.transform())\n"
        "fresh.horizontalScrollBar().setValue(chart.horizontalScrollBar().value())\n"
        "fresh.verticalScrollBar().setValue(chart.verticalScrollBar().value())\n"
        "fresh._layout_labels()\n"
        "other = frame(fresh)\n"
        "apart = [abs(a - b) for a, b in zip(ahead, other) if a != b]\n"
        "print(kept, len(drawn), max(apart, default=0), len(apart) / len(ahead))\n"
        "session.close()\n"
    )
    kept, drawn, apart, share = run_python(code, tmp_path, QT_SCALE_FACTOR=scale).split()
    if scale == "2":
        assert int(kept) == 3 and drawn == "0"  # the view's, and the notch in and out
        assert int(apart) <= 12 and float(share) < 0.005
    else:
        assert int(kept) == 1 and drawn == "1"  # the view's own (drawn twice): no more
        assert apart == "0"


def _dense(chart: SeaChart) -> bytes:
    """A frame rendered into an image of two device pixels a pixel."""
    image = QImage(chart.viewport().size() * 2, QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(2.0)
    chart.viewport().render(image)
    return bytes(image.constBits())


def test_a_view_rendered_into_a_denser_image_is_drawn_for_it(
    chart: SeaChart, qtbot: object
) -> None:
    """Rendered into an image of two device pixels a pixel (a print, an export) from a
    screen of one, the background is drawn (or copied) for that image, never a copy of the
    screen's picture scaled up: each frame is what a chart drawing the view afresh paints."""
    chart.zoom_to("Pacific")
    fresh = SeaChart(chart.session)
    qtbot.addWidget(fresh)  # type: ignore[attr-defined]
    fresh.resize(chart.size())
    fresh.show()
    fresh.fit_world()
    fresh.zoom_to("Pacific")
    drawn = _dense(fresh)  # a view's first frame is drawn, not copied
    _frame(chart), _frame(chart)  # the screen's picture made
    assert _dense(chart) == drawn and _dense(chart) == drawn and _dense(chart) == drawn


def test_a_base_changing_hands_is_drawn_in_its_new_holders_colour(
    chart: SeaChart, session: GameSession
) -> None:
    """Symbols are drawn once per look and kept: a new holder gets a new drawing, on the
    chart as the frame paints it, and bases that look alike share one."""
    chart.zoom_to("Pacific")
    base = "pearl_harbour"  # a fleet base: a disc in the holder's colour
    nations = session.scenario.by_id("nations")
    before = _pixel_at_base(chart, base)
    assert before.rgb() != style.nation_colour(nations, "japan").rgb()
    session.state.holders[base] = "japan"
    chart.refresh_state()
    symbol = chart.bases[base]
    assert symbol.colour.rgb() == style.nation_colour(nations, "japan").rgb()
    japanese = next(
        b
        for b, s in chart.bases.items()
        if b != base
        and s.kind == "fleet_base"
        and s.colour.rgb() == symbol.colour.rgb()
        and not s.badges
    )
    chart.set_selection("base", japanese)
    chart.set_selection(None, None)
    assert chart.bases[japanese].pixmap().cacheKey() == symbol.pixmap().cacheKey()
    ring = _pixel_at_base(chart, base)
    assert ring.rgb() != before.rgb()


def test_names_and_counters_are_painted_where_they_stand(
    chart: SeaChart, session: GameSession
) -> None:
    """Each shown name and counter paints its box: dark text pixels inside it."""
    store_sample_orders(session)
    chart.zoom_to("Pacific")
    image = QImage(chart.viewport().size(), QImage.Format.Format_ARGB32)
    chart.viewport().render(image)
    shown = [lb for lb in chart.base_labels.values() if lb.isVisible()]
    shown += [c for c in chart.counters.values() if c.isVisible()]
    assert len(shown) > 10
    for item in shown:
        box = chart.mapFromScene(item.mapToScene(item.boundingRect())).boundingRect()
        box = box.intersected(image.rect())
        if box.width() < 4 or box.height() < 4:
            continue
        dark = [
            image.pixelColor(x, y).lightness() < 110
            for x in range(box.left(), box.right())
            for y in range(box.top(), box.bottom())
        ]
        assert any(dark), item.data(1)


def test_names_are_laid_out_where_the_view_pans_to(chart: SeaChart) -> None:
    """Close in, names are placed for the part of the chart in view and around it; a pan
    far away places them there (and hides the ones left behind)."""
    chart.zoom_to("East Indies")
    chart.zoom_by(40.0 / chart.px_per_degree())
    chart.centerOn(chart.base_points["truk"])
    assert chart.base_labels["truk"].isVisible() and chart.bases["truk"].isVisible()
    far = "gibraltar" if "gibraltar" in chart.bases else next(iter(chart.bases))
    chart.centerOn(chart.base_points[far])
    assert chart.bases[far].isVisible() and chart.base_labels[far].isVisible()
    assert not chart.base_labels["truk"].isVisible()


def _to_segment(
    point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    """How far ``point`` lies from the segment a–b (from its nearer end beyond it)."""
    (x, y), (x0, y0), (x1, y1) = point, a, b
    dx, dy = x1 - x0, y1 - y0
    squared = dx * dx + dy * dy
    t = 0.0 if not squared else max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / squared))
    return math.hypot(x - (x0 + t * dx), y - (y0 + t * dy))


def _edges_of(ring: list[tuple[float, float]]) -> set[tuple[tuple[float, float], ...]]:
    return set(zip(ring, [*ring[1:], ring[0]], strict=True))


def test_thinned_coasts_keep_their_cuts_and_stay_within_the_tolerance() -> None:
    """Far out the land is thinned (Douglas–Peucker) to half a pixel or less: every point
    dropped lies within the tolerance of the kept edge across it (of the edge, not of the
    line through it); the cuts along the antimeridian and the pole stay cuts, and no coast
    becomes one (it would not be drawn); a speck stays as it is."""
    tolerance = 0.6
    rings = [list(ring) for ring in land_rings()]
    # coast hugging the antimeridian between two of its points, and a spike back past an end
    rings.append([(180.0, 0.0), (179.9, 0.5), (180.0, 1.0), (175.0, 1.0), (175.0, 0.0)])
    rings.append(
        [(10.0, 10.0), (12.0, 10.0), (14.0, 10.0), (10.5, 10.1), (16.0, 10.0), (16.0, 14.0)]
    )
    kept_points = 0
    for ring in rings:
        thin = thin_coast(ring, tolerance)
        kept_points += len(thin)
        assert set(thin) <= set(ring)
        cuts = {edge for edge in _edges_of(ring) if _artificial(*edge)}
        assert {edge for edge in _edges_of(thin) if _artificial(*edge)} == cuts
        # each dropped point is near the kept edge that spans it (the thinned ring is the
        # ring's points in order, from a point on or after its first)
        start = ring.index(thin[0])
        order = [*ring[start:], *ring[:start]]
        at, kept = 0, []
        for point in thin:
            at = order.index(point, at)
            kept.append(at)
        for i, j in zip(kept, [*kept[1:], len(order)], strict=True):
            for point in order[i + 1 : j]:
                assert _to_segment(point, order[i], order[j % len(order)]) <= tolerance + 1e-9
    assert kept_points < 0.6 * sum(len(ring) for ring in rings)  # it does thin
    speck = [(5.0, 5.0), (5.01, 5.0), (5.0, 5.01), (4.99, 5.0)]
    assert thin_coast(speck, tolerance) == speck


def test_polygons_are_the_scene_points_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """A polygon read by Qt from packed numbers (rings of 16 points or more) or made point
    by point (shorter ones) holds each point's scene position to the last bit, signed
    zeros, infinities and NaN included, from a list or a generator: every ring of the land,
    and rings of every length around where the two ways meet. The long ones are read from
    the packed numbers, never made point by point."""
    odd = [(-0.0, 0.0), (179.99999999999997, -89.1), (1e-300, 5e300), (math.inf, -math.inf)]
    odd.append((math.nan, 1.0))
    rings = [list(ring) for ring in land_rings()]
    rings += [[(lon * 7.3 - 180.0, 0.5 - lon * 1.1) for lon in range(n)] for n in range(40)]
    rings += [odd, odd * 4]

    def bits(points: list[tuple[float, float]]) -> list[bytes]:
        return [struct.pack("<2d", x, y) for x, y in points]

    streamed = 0
    point = chartgeometry.QPointF

    def short_only(*args: float) -> object:
        assert len(current) < chartgeometry._STREAMED_FROM, "a long ring made point by point"
        return point(*args)

    monkeypatch.setattr(chartgeometry, "QPointF", short_only)
    for current in rings:
        expected = bits([(lon * DEG, -lat * DEG) for lon, lat in current])
        for given in (current, iter(current)):
            got = _polygon(given)
            assert bits([(p.x(), p.y()) for p in got]) == expected
        streamed += len(current) >= chartgeometry._STREAMED_FROM
    assert 0 < streamed < len(rings)  # both ways met


def test_thinned_rings_keep_their_shared_border_shared() -> None:
    # two squares sharing a wiggly side x=0 (wiggles of 0.05 degrees), one across the seam
    wiggle = [(0.05 * (k % 2) if 0 < k < 10 else 0.0, k / 10) for k in range(11)]
    west = [(-1.0, 1.0), (-1.0, 0.0), *wiggle]
    east = [*reversed(wiggle), (1.0, 0.0), (1.0, 1.0)]
    seam = [(lon + 360.0, lat) for lon, lat in [(1.0, 1.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0)]]
    tiny = [(5.0, 5.0), (5.01, 5.0), (5.0, 5.01)]
    thin = thin_rings({"west": west, "east": east, "seam": seam, "tiny": tiny}, 0.1)
    assert set(thin["west"]) & set(thin["east"]) == {(0.0, 0.0), (0.0, 1.0)}
    assert len(thin["west"]) == len(thin["east"]) == 4
    assert thin["seam"] == seam  # nothing to drop; its border with "east" is a turn apart
    assert "tiny" not in thin  # smaller than the tolerance
    # close in, the rings are drawn as they are; far out, thinned to under a pixel
    assert outline_grid(10.0) == 0.0 and 0.0 < outline_grid(0.6) * 0.6 <= 1.0
