"""How fast the sea chart builds, paints and answers the mouse.

    QT_QPA_PLATFORM=offscreen python bench/map_bench.py

Frames are rendered into a 1920×1080 image through the viewport's own paint path (what the
screen gets); every figure is a median of repeated runs after a warm-up. A *zoom step* is
what a turn of the mouse wheel costs: the zoom (labels laid out again, or not in a spin)
and the frame painted after it, with the median CPU time of this process beside it (on a
machine shared with other jobs the wall clock counts their time too; Qt's raster engine
scales a preview on both cores). The steps alternate in and out by slightly different
factors, so no step returns to a zoom already drawn, starting from each view in turn
("fit" is the whole world in the window). The synthetic world stacks 10 copies of the 1942
scenario (sea areas, bases, routes, units and land) one above the other. "Hover" is 200
mouse moves over the chart plus the hit-test a tooltip makes.

A *zoom step* gives the chart no idle time, as in the fastest spin of a wheel (steps less
than SPIN_REST_MS apart are a spin): after the first, a step lays out no name and, where
that costs less than drawing its background afresh (measured as it goes: the far zooms),
shows a preview, the background scaled from one drawn sharp at a zoom close by. Beside it,
how many of the 12 steps showed a preview, and what the end of the spin costs once the
wheel stops (the names laid out and the frame drawn sharp on the screen). A *wheel notch
by hand* is a real wheel event over the chart and the frame painted on the screen after
it, with 50 ms between notches (a brisk turn of the wheel): in that time the chart draws
the background of the next notch in and out ahead, and the notch copies it. Beside it, the
slowest notch, how many of the 12 drew no background, copying one drawn ahead (the
others drew theirs, or the part of it not drawn yet), and the longest piece of that
drawing ahead, a band or a slice of thinning (the longest a notch arriving sooner can
wait for the loop). A *wheel spun fast* is the same with 10 ms of the loop between
notches: a spin, whose notches lay out no names unless laid out ahead. The notches run
after the zoom steps, which have thinned the outlines for every zoom they visit; the
outlines of a notch's zoom not thinned yet are thinned in the time between notches, a few
milliseconds at a time, before its background is drawn ahead, and a notch that comes
before that is done finishes it (in the 10x world, most of a second: the slowest notch).
A notch that comes before its background is drawn ahead in full draws only the part of
its view not drawn yet.

Targets (issue 14): a frame of the whole world and a zoom step at most 6 ms at every
zoom of the 1942 world, 12 ms for the 10× world; 1 ms a mouse move.
"""

from __future__ import annotations

import copy
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import (
    QCoreApplication,
    QPoint,
    QPointF,
    QRectF,
    QSettings,
    QStandardPaths,
    Qt,
)
from PySide6.QtGui import QImage, QMouseEvent, QPainter, QTransform, QWheelEvent
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from campaign import paths  # noqa: E402
from campaign.orders import Orders, load_orders  # noqa: E402
from campaign.scenario import Scenario  # noqa: E402
from campaign.state import GameState, initial_state  # noqa: E402
from campaign.world import SeaArea, World  # noqa: E402
from ui.chartgeometry import land_rings  # noqa: E402
from ui.mapview import SeaChart  # noqa: E402
from ui.session import GameSession  # noqa: E402

W, H = 1920, 1080
FRAME_MS, BIG_FRAME_MS, MOVE_MS = 6.0, 12.0, 1.0
#: idle time between wheel notches turned by hand (a brisk turn of the wheel)
PACE_MS = 50.0
#: ... and spun fast (a hundred notches a second: less than SPIN_REST_MS apart, a spin)
FAST_PACE_MS = 10.0
#: the views zoom steps start from: the whole world, the named theatres, a close look
VIEWS = ("fit", "Pacific", "Atlantic", "Mediterranean", "East Indies", "close")
#: alternate wheel steps in and out; their product is not 1, so no zoom comes back
STEP_IN, STEP_OUT = 1.2, 1 / 1.19
COPIES = 10
LAT_STEP = 180.0  # each copy of the world sits this many degrees below the last


class SyntheticSession(GameSession):
    """A session over a scenario built in memory (no game file): what the chart reads."""

    def __init__(self, scenario: Scenario, state: GameState, orders: dict[str, Orders]) -> None:
        super().__init__()
        self._scenario = scenario
        self._fixed_state = state
        self._orders = orders

    @property
    def is_open(self) -> bool:
        return True

    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def state(self) -> GameState:
        return self._fixed_state

    def all_orders(self) -> dict[str, Orders]:
        return self._orders


def big_scenario(base: Scenario, copies: int) -> Scenario:
    """``copies`` copies of a scenario's world and pieces, stacked north to south."""
    world = base.world
    areas, edges = [], []
    for k in range(copies):
        dy = -LAT_STEP * k
        for area in world.areas.values():
            ring = tuple((lon, lat + dy) for lon, lat in area.polygon)
            areas.append(SeaArea(f"{area.id}~{k}", area.name, area.lon, area.lat + dy, ring))
        for a, b, data in world.edges():
            edges.append((f"{a}~{k}", f"{b}~{k}", data))
    tables = copy.deepcopy(base.tables)
    for name, keys in (
        ("bases", ("id", "sea_area")),
        ("routes", ("id", "origin", "destination")),
        ("units", ("id", "base")),
        ("air", ("id", "base")),
        ("garrisons", ("base",)),
        ("lsp", ("base",)),
    ):
        rows = []
        for k in range(copies):
            for row in base.tables[name]:
                row = dict(row)
                for key in keys:
                    row[key] = f"{row[key]}~{k}"
                if name == "routes":
                    row["via"] = tuple(f"{v}~{k}" for v in row["via"])
                    row["serial"] = row["serial"] + 100 * k
                if name == "bases":
                    row["lat"] = row["lat"] - LAT_STEP * k
                rows.append(row)
        tables[name] = rows
    scenario = Scenario(base.meta, tables)
    scenario._world = World(areas, edges)
    return scenario


def big_orders(orders: dict[str, Orders], copies: int) -> dict[str, Orders]:
    from dataclasses import replace

    out = {}
    for nation, mine in orders.items():
        forces = tuple(
            replace(
                tf,
                id=f"{tf.id}~{k}",
                base=f"{tf.base}~{k}",
                units=tuple(f"{u}~{k}" for u in tf.units),
            )
            for k in range(copies)
            for tf in mine.task_forces
        )
        out[nation] = replace(mine, task_forces=forces, operations=(), cards=())
    return out


def sample_orders() -> dict[str, Orders]:
    folder = paths.scenario_dir("1942") / "sample-orders"
    return {
        f.stem: load_orders(f.read_text("utf-8"), f.stem) for f in sorted(folder.glob("*.json"))
    }


def median_ms(fn: Callable[[], object], runs: int = 20) -> float:
    fn()  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(times)


def frame(chart: SeaChart, image: QImage) -> Callable[[], None]:
    """A frame with nothing changed."""

    def run() -> None:
        chart.viewport().render(image)

    return run


def show(chart: SeaChart, view: str) -> None:
    if view == "fit":
        chart.fit_world()
    elif view == "close":
        chart.zoom_to("East Indies")
        chart.zoom_by(40.0 / chart.px_per_degree())
    else:
        chart.zoom_to(view)


def zoom_steps(
    chart: SeaChart, image: QImage, view: str, steps: int = 12
) -> tuple[float, float, int, float]:
    """A spin of the wheel around ``view`` with no idle moment: median ms of a step
    (zoom, layout, frame), wall clock and this process's CPU time (Qt's raster engine
    scales a preview on both cores); how many steps showed a preview; and the ms of the
    spin's end once the wheel stops (the names laid out and the frame drawn sharp on the
    screen)."""
    show(chart, view)
    chart.viewport().render(image)
    times, cpu = [], []
    previews: list[bool] = []
    preview = chart._preview

    def counted(painter: QPainter, transform: QTransform, ratio: float, target: QRectF) -> bool:
        shown = preview(painter, transform, ratio, target)
        previews.append(shown)
        return shown

    chart._preview = counted  # type: ignore[method-assign]
    try:
        for i in range(steps + 1):
            t0, c0 = time.perf_counter(), time.process_time()
            chart.zoom_by(STEP_IN if i % 2 == 0 else STEP_OUT)
            chart.viewport().render(image)
            if i:  # the first is a warm-up
                times.append((time.perf_counter() - t0) * 1000.0)
                cpu.append((time.process_time() - c0) * 1000.0)
    finally:
        chart._preview = preview  # type: ignore[method-assign]
    t0 = time.perf_counter()
    chart._rest()  # (as the wheel stopping for SPIN_REST_MS would)
    chart.viewport().repaint()  # the frame it asks for
    rest = (time.perf_counter() - t0) * 1000.0
    return statistics.median(times), statistics.median(cpu), sum(previews), rest


def spin(chart: SeaChart, image: QImage, view: str, name: str, target: float) -> None:
    wall, cpu, previews, rest = zoom_steps(chart, image, view)
    line(name, wall, target, cpu)
    print(f"  previews {previews} of 12; at rest, laid out and drawn sharp {rest:.2f} ms")


def settle(app: QCoreApplication, ms: float) -> None:
    """Let the event loop run for ``ms`` (what a hand leaves between wheel notches)."""
    end = time.perf_counter() + ms / 1000.0
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.001)


def wheel_notches(
    app: QCoreApplication, chart: SeaChart, view: str, notches: int = 12, pace: float = PACE_MS
) -> tuple[float, float, float, int, float]:
    """A wheel turned by hand around ``view``: each notch the wheel's event over the chart
    (zoom and layout) and the frame painted on the screen after it, with ``pace`` ms of
    the event loop between notches (in which the chart draws the next notch's background
    ahead, as far as it gets; :data:`FAST_PACE_MS`: a spin). Median ms (wall clock,
    CPU), the slowest notch, how many notches copied a background drawn ahead, and the
    longest the chart kept the loop busy drawing ahead (what a notch coming sooner may
    wait)."""
    vp = chart.viewport()
    at = QPointF(vp.width() * 0.4, vp.height() * 0.6)
    show(chart, view)
    vp.repaint()
    busy: list[float] = []
    fresh: list[bool] = []
    draw_ahead, paint = chart._draw_ahead, chart._paint_background

    def timed_ahead() -> None:
        t0 = time.perf_counter()
        draw_ahead()
        busy.append((time.perf_counter() - t0) * 1000.0)

    def painted(painter: QPainter, rect: QRectF) -> None:
        fresh.append(True)
        paint(painter, rect)

    chart._ahead_timer.timeout.disconnect()
    chart._ahead_timer.timeout.connect(timed_ahead)
    times, cpu, copied = [], [], 0
    try:
        settle(app, PACE_MS)
        for i in range(notches + 1):
            event = QWheelEvent(
                at,
                QPointF(vp.mapToGlobal(at.toPoint())),
                QPoint(),
                QPoint(0, 120 if i % 3 != 2 else -120),  # in, in, out: a walk inwards
                Qt.MouseButton.NoButton,
                Qt.KeyboardModifier.NoModifier,
                Qt.ScrollPhase.NoScrollPhase,
                False,
            )
            fresh.clear()
            chart._paint_background = painted  # type: ignore[method-assign]
            t0, c0 = time.perf_counter(), time.process_time()
            QCoreApplication.sendEvent(vp, event)
            vp.repaint()
            if i:  # the first is a warm-up
                times.append((time.perf_counter() - t0) * 1000.0)
                cpu.append((time.process_time() - c0) * 1000.0)
                copied += not fresh
            chart._paint_background = paint  # type: ignore[method-assign]
            settle(app, pace)
    finally:
        chart._paint_background = paint  # type: ignore[method-assign]
        chart._ahead_timer.timeout.disconnect()
        chart._ahead_timer.timeout.connect(draw_ahead)
    return (
        statistics.median(times),
        statistics.median(cpu),
        max(times),
        copied,
        max(busy, default=0.0),
    )


def notch(
    app: QCoreApplication,
    chart: SeaChart,
    view: str,
    name: str,
    target: float,
    pace: float = PACE_MS,
) -> None:
    wall, cpu, slowest, copied, busy = wheel_notches(app, chart, view, pace=pace)
    line(name, wall, target, cpu)
    print(f"  slowest {slowest:.2f} ms; copied ahead {copied} of 12; longest piece {busy:.2f} ms")


def hover(chart: SeaChart, moves: int = 200) -> float:
    """ms per mouse move (the event through the view) with a tooltip's hit-test each."""
    vp = chart.viewport()
    points = [QPoint(20 + (i * 37) % (W - 40), 20 + (i * 53) % (H - 40)) for i in range(moves)]
    t0 = time.perf_counter()
    for p in points:
        event = QMouseEvent(
            QMouseEvent.Type.MouseMove,
            QPointF(p),
            QPointF(vp.mapToGlobal(p)),
            Qt.MouseButton.NoButton,
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
        )
        QCoreApplication.sendEvent(vp, event)
        chart.pick(p)
    return (time.perf_counter() - t0) * 1000.0 / moves


def verdict(measured: float, target: float) -> str:
    return "ok" if measured <= target else "OVER TARGET"


def line(what: str, measured: float, target: float | None, cpu: float | None = None) -> None:
    text = f"{what:<48} {measured:8.2f} ms"
    if target is not None:
        text += f"   target {target:5.1f} ms   {verdict(measured, target)}"
    if cpu is not None:
        text = f"{text:<92}  (CPU {cpu:6.2f} ms)"
    print(text)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = tmp
        os.environ["XDG_CONFIG_HOME"] = tmp
        app = QApplication.instance() or QApplication([])
        QCoreApplication.setOrganizationName("SeaControl")
        QCoreApplication.setApplicationName("SeaControl-bench")
        QStandardPaths.setTestModeEnabled(True)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tmp)
        session = GameSession()
        session.new_game()
        for nation, orders in sample_orders().items():
            session.set_orders(nation, orders)
        image = QImage(W, H, QImage.Format.Format_ARGB32_Premultiplied)

        t0 = time.perf_counter()
        chart = SeaChart(session)
        chart.resize(W, H)
        chart.show()
        app.processEvents()
        line("build the 1942 scene", (time.perf_counter() - t0) * 1000.0, None)
        print(
            f"  items: {len(chart.areas)} areas, {len(chart.bases)} bases, "
            f"{len(chart.routes)} routes, {len(chart.counters)} task forces, "
            f"{len(chart.scene().items())} in all"
        )
        chart.fit_world()
        line("frame, nothing changed, fit", median_ms(frame(chart, image)), FRAME_MS)
        for view in VIEWS:
            spin(chart, image, view, f"zoom step, {view}", FRAME_MS)
        for view in VIEWS:
            notch(app, chart, view, f"wheel notch by hand, {view}", FRAME_MS)
        for view in ("fit", "Pacific"):
            name = f"wheel spun fast, {view}"
            notch(app, chart, view, name, FRAME_MS, FAST_PACE_MS)
        chart.fit_world()
        line("mouse move + hit-test (200), fit", hover(chart), MOVE_MS)
        chart.zoom_to("East Indies")
        line("mouse move + hit-test (200), East Indies", hover(chart), MOVE_MS)

        big = big_scenario(session.scenario, COPIES)
        state = initial_state(big)
        big_orders_given = big_orders(session.all_orders(), COPIES)
        land = [
            tuple((lon, lat - LAT_STEP * k) for lon, lat in ring)
            for k in range(COPIES)
            for ring in land_rings()
        ]
        big_session = SyntheticSession(big, state, big_orders_given)
        t0 = time.perf_counter()
        big_chart = SeaChart(big_session, land=land)
        big_chart.resize(W, H)
        big_chart.show()
        app.processEvents()
        line(f"build the {COPIES}x scene", (time.perf_counter() - t0) * 1000.0, None)
        print(f"  items: {len(big_chart.scene().items())}")
        for view in VIEWS:
            spin(big_chart, image, view, f"zoom step, {COPIES}x world, {view}", BIG_FRAME_MS)
        for view in VIEWS:
            name = f"wheel notch by hand, {COPIES}x world, {view}"
            notch(app, big_chart, view, name, BIG_FRAME_MS)
        for view in ("fit", "Pacific"):
            name = f"wheel spun fast, {COPIES}x world, {view}"
            notch(app, big_chart, view, name, BIG_FRAME_MS, FAST_PACE_MS)
        big_chart.fit_world()
        line(f"mouse move + hit-test (200), {COPIES}x", hover(big_chart), MOVE_MS)
        session.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
