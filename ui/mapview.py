"""The chart of the war at sea: sea areas, bases, merchant routes and task forces.

:class:`SeaChart` is a ``QGraphicsView`` over a scene that mirrors the open game. It reads
the game only through :class:`~ui.session.GameSession` and redraws only what a signal says
has changed: a new game rebuilds the scene, a resolved step recolours holders and routes,
stored orders move the task-force counters.

Where things are (the projection, the land, outlines thinned for far zooms) is
:mod:`ui.chartgeometry`; the areas near the seam are repeated in the background beyond
the edges like the land, so the coast under an area always matches.

Speed (see ``bench/map_bench.py``): land and the repeated areas are painted in
:meth:`SeaChart.drawBackground` from cached paths, never as scene items, because a huge
path item costs milliseconds of hit-testing on every mouse move; no item accepts hover
events (tooltips are built when Qt asks for one); labels and symbols are small cached
items whose visibility is decided once per zoom step, not on every frame; routes and the
adjacency lines are drawn with the background as separate lines (``QPainter.drawLines``,
or for the thin links one cosmetic path of them, the same pixels: see :class:`_Lines`),
which Qt's raster engine draws far faster than a wide stroked path. The background is copied
from a picture when a view is drawn again, and while the chart is idle the background of
the next wheel notch in and out is drawn ahead (:meth:`SeaChart.drawBackground`); a notch
that comes before that is done draws only what its view lacks (:meth:`SeaChart._finish`). In a
fast spin of the wheel the names are laid out once it stops, and steps with nothing drawn
ahead show a preview where that costs less than drawing afresh
(:meth:`SeaChart._zoom_changed`).
"""

from __future__ import annotations

import itertools
import math
import time
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from html import escape
from typing import TYPE_CHECKING, Generic, NamedTuple, TypeVar

from PySide6.QtCore import (
    QEvent,
    QLineF,
    QMargins,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QSize,
    QSizeF,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QHelpEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
    QResizeEvent,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPixmapItem,
    QGraphicsPolygonItem,
    QGraphicsScene,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QToolTip,
    QWidget,
)

from campaign.board import CONTESTED, CUT, WORKING, Board, RouteForce, RouteStatus
from campaign.forces import fleet_cv
from campaign.orders import Orders, TaskForce
from campaign.state import GameState
from campaign.world import World

from . import style
from .chartgeometry import (  # the chart's geometry, its public part named here too
    DEG,
    SEAM,
    THEATRES,
    TILE,
    Steps,
    Tile,
    _polygon,
    chart_lon,
    drained,
    land_paths,
    land_rings,
    land_tiles_steps,
    near_lon,
    outline_grid,
    place_ring,
    scene_point,
    thin_coast,
    thin_rings_steps,
    unwrap,
)
from .mapmarks import TurnMarks
from .session import GameSession

if TYPE_CHECKING:  # a team's view loads when the chart is first shown as a team sees it
    from campaign.teamview import TeamView

#: subtle tints for neighbouring sea areas (a graph colouring picks one per area)
AREA_TINTS = ("#d6e5ee", "#dde8ea", "#d9e2ef", "#e1ebef", "#d3e3e6")
#: land-based units and routes never hit-test through their (huge) shapes
PICK_PX = 6.0

#: zoom thresholds, in screen pixels per degree
AREA_LABELS_FROM = 2.2
BASE_LABELS_FROM = 6.5
MINOR_BASES_FROM = 1.6
BADGES_FROM = 7.0
FULL_COUNTERS_FROM = 6.0
#: the first part of the key of another nation's task force counter in a team view
PUBLIC = "public"
MAX_PX_PER_DEG = 120.0
#: the zoom of one notch of the mouse wheel (a turn of several notches zooms by its power)
WHEEL_STEP = 1.2
#: names drawn ahead at a time while the chart is idle (about a millisecond and a half)
NAMES_AHEAD = 16
#: a piece of thinning the outlines ahead for a zoom while the chart is idle stops at its
#: first step past this many ms (a step, a ring or so, may run over; see
#: SeaChart._thin_some)
THIN_AHEAD_MS = 8.0
#: a notch that comes before its background is drawn ahead finishes it where at most this
#: share of its view is still to draw, else draws the view afresh: painting the parts and
#: copying the view costs about what drawing it afresh does where nine tenths are missing,
#: up to a copy more where all are (measured at the whole world of the 1942 and the 10×
#: worlds), and leaves a picture the view's next frames copy; see SeaChart._finish
FINISH_UP_TO = 0.9
#: backgrounds kept for copying (the view's, and the next wheel notch in and out)
BACKDROPS = 3
#: how long a view rests after a pan or a resize before the next notches are drawn ahead
PAN_REST_MS = 150
#: zoom steps less than this apart (ms) are a spin of the wheel: the names wait, and the
#: background may be a preview, until the wheel has stopped this long (see
#: SeaChart._zoom_changed); a hand's brisk notches, 50 ms apart, are not a spin
SPIN_REST_MS = 40
#: a zoom step in a spin of the wheel shows the background of a zoom at most this many
#: times closer or farther, scaled (see SeaChart._preview); with none as close, it draws
#: one to scale (SeaChart._picture_to_scale)
PREVIEW_RANGE = 1.5
#: a spin shows previews only where a view drawn afresh has lately cost this many times a
#: preview (see _Costs): a preview needs a sharp picture to scale, which a spin sometimes
#: has to draw first (a notch wider than the view, zooming out), and its lines are soft
PREVIEW_PAYS = 2.0
#: the label layout's buckets (pixels): about a name's width, so a name's box falls in one
#: to four of them (smaller ones made the layout a third slower at the whole world)
GRID_CELL = 96.0
#: beyond the chart (shown only when the window is taller than the world)
FRAME = QColor("#cfd9e0")

KIND_NAMES = {
    "fleet_base": "Fleet base",
    "port": "Port",
    "island": "Island",
    "fleet_train": "Fleet train",
}
ROLE_KIND, ROLE_KEY = 0, 1


class _SeaPiece(NamedTuple):
    """A sea area's ring (or a repeat of it past the chart's edge) as the chart draws it."""

    area: str
    ring: list[tuple[float, float]]  # degrees, moved by the turns of the repeat
    polygon: QPolygonF  # scene units
    bounds: QRectF


class _Backdrop:
    """The background of a region of the chart at one zoom, drawn once and copied by every
    frame at that zoom inside it. Qt scrolls a view by whole pixels, so two views at one
    zoom are parts of one picture of the scene at that zoom, one whole pixel apart.

    One drawn ahead is drawn a band at a time while the chart is idle (``todo``: the parts
    still to draw): until it is whole, a frame copies only the pixels drawn (see source
    and holding), and a notch that comes sooner paints the rest of its view into it (see
    SeaChart._finish)."""

    def __init__(
        self,
        scale: tuple[float, float],
        ratio: float,
        version: int,
        region: QRect,
        todo: list[QRect] | None = None,
    ) -> None:
        self.scale = scale  # the view transform's m11 and m22
        self.ratio = ratio  # device pixels a pixel
        self.version = version  # what it shows (the chart's _background_version)
        self.region = region  # in pixels of the scene at this zoom (scene units × scale)
        #: the parts of the region not drawn yet, in its pixels, in the order to draw them
        self.todo: list[QRect] = todo or []

    @cached_property
    def pixels(self) -> QRect:
        """The picture's device pixels."""
        ratio = self.ratio
        return QRect(
            0, 0, math.ceil(self.region.width() * ratio), math.ceil(self.region.height() * ratio)
        )

    @cached_property
    def picture(self) -> QPixmap:
        """The region at ``ratio`` device pixels a pixel (made when first painted)."""
        picture = QPixmap(self.pixels.size())
        picture.setDevicePixelRatio(self.ratio)
        return picture

    def source(self, scroll: QPoint, pixels: QRect) -> QRect | None:
        """Where the view scrolled to ``scroll`` finds its device ``pixels`` in the
        picture: None if they are not all in it and drawn, or fall between its device
        pixels."""
        dx = (scroll.x() - self.region.x()) * self.ratio
        dy = (scroll.y() - self.region.y()) * self.ratio
        if abs(dx - round(dx)) > 1e-6 or abs(dy - round(dy)) > 1e-6:
            return None
        source = pixels.translated(round(dx), round(dy))
        return source if self.pixels.contains(source) and self.drawn(QRectF(source)) else None

    def holding(self, seen: QRectF) -> QRectF | None:
        """Where the part ``seen`` of the scene (scene units) lies in the picture, in its
        device pixels and fractions of them: None if not all of it is in it and drawn."""
        (sx, sy), region, ratio = self.scale, self.region, self.ratio
        to_picture = QTransform(
            sx * ratio, 0, 0, sy * ratio, -region.x() * ratio, -region.y() * ratio
        )
        source = to_picture.mapRect(seen)
        return source if QRectF(self.pixels).contains(source) and self.drawn(source) else None

    def drawn(self, source: QRectF) -> bool:
        """Whether the picture's device pixels ``source`` are all drawn (none is in a part
        still to draw)."""
        if not self.todo:
            return True
        ratio, corner = self.ratio, self.region.topLeft()
        part = QRectF(source.topLeft() / ratio + corner.toPointF(), source.size() / ratio)
        return not any(part.intersects(QRectF(band)) for band in self.todo)

    def missing(self, part: QRect) -> int:
        """How many pixels of ``part`` of the region are not drawn yet."""
        return sum(_pixels(band & part) for band in self.todo)

    def covers(self, region: QRect) -> bool:
        return self.region.contains(region)

    @property
    def begun(self) -> bool:
        """Whether its picture is made (it is at its first band drawn)."""
        return "picture" in vars(self)


def _pixels(rect: QRect) -> int:
    return 0 if rect.isEmpty() else rect.width() * rect.height()


def _around(whole: QRect, part: QRect) -> list[QRect]:
    """What is left of ``whole`` without ``part`` (a rectangle inside it): the rows above
    and below it, and beside it left and right, those not empty."""
    left, top, right, bottom = whole.left(), whole.top(), whole.right(), whole.bottom()
    pieces = [
        QRect(QPoint(left, top), QPoint(right, part.top() - 1)),
        QRect(QPoint(left, part.bottom() + 1), QPoint(right, bottom)),
        QRect(QPoint(left, part.top()), QPoint(part.left() - 1, part.bottom())),
        QRect(QPoint(part.right() + 1, part.top()), QPoint(right, part.bottom())),
    ]
    return [piece for piece in pieces if not piece.isEmpty()]


#: the sea as a frame paints it: tints (bounds, colour, path) and borders (bounds, path)
SeaOutlines = tuple[list[tuple[QRectF, QColor, QPainterPath]], list[tuple[QRectF, QPainterPath]]]


# -- what the chart shows, computed from the model ----------------------------------------------
def greedy_colouring(world: World) -> dict[str, int]:
    """A colour number for each sea area, no two neighbours alike: areas by most neighbours
    first, each given the lowest number its coloured neighbours leave free (networkx's
    ``greedy_color`` with ``largest_first``, the tints the chart has always had)."""
    colours: dict[str, int] = {}
    for area in sorted(world.adjacency, key=lambda a: len(world.adjacency[a]), reverse=True):
        taken = {colours[b] for b in world.adjacency[area] if b in colours}
        colours[area] = next(c for c in itertools.count() if c not in taken)
    return colours


def find_task_force(orders: dict[str, Orders], key: str) -> tuple[Orders, TaskForce] | None:
    """The task force ``"nation:tf_id"`` in this turn's orders, with its nation's orders."""
    nation, _, tf_id = key.partition(":")
    mine = orders.get(nation)
    if mine is None:
        return None
    for tf in mine.task_forces:
        if tf.id == tf_id:
            return mine, tf
    return None


def task_force_cv(state: GameState, tf: TaskForce) -> int:
    """Fleet CV of a task force: the sum of its units' (with carried air)."""
    return sum(fleet_cv(state.units[u]) for u in tf.units if u in state.units)


def operation_of(orders: Orders, tf_id: str) -> str:
    """The id of the operation the task force takes part in ('' if none)."""
    for op in orders.operations:
        if tf_id in op.task_forces or op.invasion_force == tf_id:
            return op.id
    return ""


def _force_words(board: Board, force: RouteForce) -> str:
    parts = [board.unit_name(u) for u in force.units]
    parts += [f"{p} Air Point{'' if p == 1 else 's'}, {board.air_name(a)}" for a, p in force.air]
    return ", ".join(parts)


def route_status_words(board: Board, route_id: str) -> str:
    """A route's state in words, as the map and the details show it (the rule is
    :meth:`campaign.board.Board.route_status`)."""
    status = board.route_status(route_id)
    if status.working:
        passing = ", ".join(board.area_name(a) for a in status.passes_contested)
        return "Working" + (f" (passes contested {passing})" if passing else "")
    return f"{status.state.capitalize()}: {status.why}"


def route_escorts(board: Board, orders: dict[str, Orders], route_id: str) -> list[str]:
    """Who escorts the route this turn, in words (one line per nation's escort order)."""
    return [
        f"{board.name_of(f.nation)}: {_force_words(board, f)}"
        for f in board.escorts(route_id, orders)
    ]


def route_attackers(board: Board, orders: dict[str, Orders], route_id: str) -> list[str]:
    """Who attacks the route this turn (raids and surface-raid operations), in words."""
    out = [
        f"{board.name_of(f.nation)} in {board.area_name(f.area)}: {_force_words(board, f)}"
        for f in board.attackers(route_id, orders)
    ]
    for nation, mine in orders.items():
        name = board.name_of(nation)
        for op in mine.operations:
            if op.kind == "surface_raid" and op.route == route_id:
                names = {tf.id: tf.name for tf in mine.task_forces}
                forces = ", ".join(names.get(t, t) for t in op.task_forces)
                out.append(f"{name}: surface raid in {board.area_name(op.area)} ({forces})")
    return out


def units_at(state: GameState, base: str) -> list[str]:
    """Unit ids in port at ``base`` (not sunk)."""
    return [u.id for u in state.units.values() if u.base == base and u.state != "sunk"]


def air_at(state: GameState, base: str) -> int:
    return sum(a.points for a in state.air.values() if a.base == base)


def type_name(unit_type: str) -> str:
    return unit_type.replace("_", " ").capitalize()


# -- items -------------------------------------------------------------------------------------
_HALO_OFFSETS = tuple(
    QPointF(dx, dy)
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))
)


def _halo_text(
    painter: QPainter, pos: QPointF, text: str, font: QFont, colour: QColor, halo: QColor
) -> None:
    """Text with a soft outline so it stays readable over tints, routes and coasts.

    The outline is the text drawn eight times a pixel off in the halo colour: glyphs come
    from the font cache, where stroking the text's outline path cost ~0.6 ms a label."""
    painter.setFont(font)
    painter.setPen(halo)
    for offset in _HALO_OFFSETS:
        painter.drawText(pos + offset, text)
    painter.setPen(colour)
    painter.drawText(pos, text)


def _painted_ratio(painter: QPainter) -> float:
    """Device pixels a pixel of what ``painter`` paints on: the screen's backing store, or
    an image the view is rendered into (``painter.device()`` answers the widget for both)."""
    engine = painter.paintEngine()
    target = engine.paintDevice() if engine is not None else None
    return (target or painter.device()).devicePixelRatioF()


def _drawn(box: QRectF, ratio: float, draw: Callable[[QPainter], None]) -> QPixmap:
    """A transparent pixmap of ``box`` (item pixels, at ``ratio`` device pixels each) with
    ``draw`` painted on it in the item's own coordinates."""
    pixmap = QPixmap(
        max(1, math.ceil(box.width() * ratio)), max(1, math.ceil(box.height() * ratio))
    )
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.translate(-box.topLeft())
    draw(painter)
    painter.end()
    return pixmap


class _Shown(QGraphicsPixmapItem):
    """A pixmap at a constant screen size that remembers, on the Python side, whether it
    is shown and what it shows: a zoom step decides this for hundreds of them, mostly
    changing nothing, and a call into Qt for each cost more than the decisions.

    Names, base symbols and their repeats are not scene items: a :class:`_MarkLayer`
    paints those it holds (``layer``); a counter is a scene item of its own.
    """

    def __init__(self) -> None:
        super().__init__()
        self.shown = True
        self.layer: _MarkLayer | None = None
        #: the anchor in scene units, and where the mark is in its layer's drawing order
        self.at = (0.0, 0.0)
        self.rank = (0.0, 0)
        #: what it shows: its pixmap's (left, top, right, bottom) in pixels from the
        #: anchor, and the pixmap
        self.drawn: tuple[float, float, float, float, QPixmap] | None = None
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def setVisible(self, visible: bool) -> None:
        if visible != self.shown:
            self.shown = visible
            if self.layer is None:
                super().setVisible(visible)
            else:
                self.layer.set_shown(self, visible)

    def isVisible(self) -> bool:
        return self.shown

    def show_drawing(self, box: QRectF, pixmap: QPixmap) -> None:
        self.show_at(box.left(), box.top(), pixmap)

    def show_at(self, left: float, top: float, pixmap: QPixmap) -> None:
        """Show ``pixmap`` with its top-left corner (left, top) pixels from the anchor."""
        old = self.drawn
        if old is None or old[4] is not pixmap or old[0] != left or old[1] != top:
            size = pixmap.deviceIndependentSize()
            self.drawn = (left, top, left + size.width(), top + size.height(), pixmap)
            self.setPixmap(pixmap)
            self.setOffset(left, top)
            if self.layer is not None and self.shown:
                self.layer.changed()


class _Layer(QGraphicsItem):
    """One item that paints many things itself (what it holds is the subclass's): drawn
    only, never hit; ``option.exposedRect`` tells ``paint`` what part is wanted."""

    def __init__(self, z: float) -> None:
        super().__init__()
        self._box = QRectF()
        self.setZValue(z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)

    def set_bounds(self, box: QRectF) -> None:
        """Where the item may paint (scene units)."""
        if box != self._box:
            self.prepareGeometryChange()
            self._box = box

    def boundingRect(self) -> QRectF:
        return self._box

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        self.draw(painter, option.exposedRect)

    @abstractmethod
    def draw(self, painter: QPainter, exposed: QRectF) -> None:
        """Paint what lies in ``exposed`` (scene units)."""


#: a mark as a frame draws it (see _MarkLayer._drawing)
_Drawn = tuple[float, float, float, float, float, float, QPixmap]


class _MarkLayer(_Layer):
    """Marks at a constant screen size (names, base symbols, their repeats past the
    edges) painted by one item, in the order of their z values and then as added.

    As scene items of their own they cost Qt several microseconds each a frame, hidden
    ones included (the scene sorts every item that ignores transformations on every
    frame): milliseconds for the 1942 chart, tens for the 10× world in the bench. Here
    a frame is one loop over the marks shown, each a pixmap blitted at its anchor.
    """

    def __init__(self, z: float) -> None:
        super().__init__(z)
        self._shown: set[_Shown] = set()
        #: what a frame draws: (anchor x, y in scene units; the pixmap's left, top, right
        #: and bottom in pixels from it; the pixmap) of the marks shown, in order; made
        #: again after a change
        self._drawing: list[_Drawn] | None = None
        #: every mark held, in drawing order (sorted again only after one is added): a
        #: frame after a change walks it for those shown, which costs less than sorting
        #: the hundreds shown at a far zoom each time one is shown or hidden
        self._marks: list[_Shown] = []
        self._sorted = True
        self._added = 0

    def add(self, mark: _Shown, at: QPointF, z: float) -> None:
        mark.setPos(at)
        mark.setZValue(z)
        mark.at = (at.x(), at.y())
        mark.rank = (z, self._added)
        mark.layer = self
        self._added += 1
        self._marks.append(mark)
        self._sorted = False
        self.set_shown(mark, mark.shown)

    def remove(self, mark: _Shown) -> None:
        self.set_shown(mark, False)
        mark.layer = None
        self._marks.remove(mark)

    def set_shown(self, mark: _Shown, on: bool) -> None:
        """A mark of this layer shown or hidden."""
        if on:
            self._shown.add(mark)
        else:
            self._shown.discard(mark)
        self.changed()

    def changed(self) -> None:
        """What the marks shown look like changed: paint again (asked once, however many
        change before the next frame: a zoom step changes hundreds)."""
        if self._drawing is not None:
            self._drawing = None
            self.update()

    def draw(self, painter: QPainter, exposed: QRectF) -> None:
        drawing = self._drawing
        if drawing is None:
            if not self._sorted:
                self._marks.sort(key=lambda m: m.rank)
                self._sorted = True
            shown = self._shown
            drawing = self._drawing = [
                (*mark.at, *mark.drawn)
                for mark in self._marks
                if mark.drawn is not None and mark in shown
            ]
        to_device = painter.worldTransform()
        sx, sy, dx, dy = to_device.m11(), to_device.m22(), to_device.dx(), to_device.dy()
        # (a pixel wider: a mark is placed at the nearest whole pixel)
        left, top, right, bottom = _edges(to_device.mapRect(exposed).adjusted(-1, -1, 1, 1))
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        draw = painter.drawPixmap
        # where a pixel is a device pixel, at whole pixels (the raster engine rounds them
        # there) through the overload taking two numbers, half the cost of one taking a
        # point; on a denser screen by point, placed to the device pixel
        whole = _painted_ratio(painter) == 1.0
        for ax, ay, ox, oy, ex, ey, pixmap in drawing:
            x, y = ax * sx + dx, ay * sy + dy
            # only marks reaching into the part painted (a far zoom's repeats of the names
            # past the chart's edges are mostly beyond the window)
            if x + ox < right and left < x + ex and y + oy < bottom and top < y + ey:
                if whole:
                    draw(math.floor(x + ox + 0.5), math.floor(y + oy + 0.5), pixmap)
                else:
                    draw(QPointF(x + ox, y + oy), pixmap)


class _Mark(_Shown):
    """A mark at a constant screen size, drawn once into a pixmap that Qt paints itself: a
    frame calls no Python for it (a Python ``paint`` and ``boundingRect`` on every name,
    symbol and counter were hundreds of calls a frame)."""

    def __init__(self, kind: str, key: str, ratio: float) -> None:
        super().__init__()
        self.ratio = ratio
        self.setShapeMode(QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
        self.setData(ROLE_KIND, kind)
        self.setData(ROLE_KEY, key)


class _Label(_Mark):
    """A name at a constant screen size, placed beside (or centred on) its anchor point."""

    def __init__(
        self, text: str, font: QFont, colour: QColor, kind: str, key: str, ratio: float = 1.0
    ) -> None:
        super().__init__(kind, key, ratio)
        self.text = text
        self.font = font
        self.colour = colour
        metrics = QFontMetricsF(font)
        self.w = metrics.horizontalAdvance(text)
        self.h = metrics.height()
        self.ascent = metrics.ascent()
        #: the top-left corner relative to the anchor (centred until placed beside it), as
        #: plain numbers: what a layout reads every step
        self.cx, self.cy = -self.w / 2, -self.h / 2
        self._box: QRectF | None = None  # the box drawn, made when asked for
        self._pixmaps: dict[float, QPixmap] = {}
        super().setVisible(False)

    def setVisible(self, visible: bool) -> None:
        """Drawn the first time it is shown: most names are never shown at a zoom, and a
        new game draws only those the first frame needs."""
        if visible and not self.shown and self.drawn is None:
            self.show_drawing(self.box(), self.drawing(self.ratio))
        super().setVisible(visible)

    #: the halo's margin round the text (pixels, each side): across, down
    HALO = (2, 1)

    def drawn_at(self) -> tuple[float, float]:
        """The top-left corner of the drawing (halo included), in pixels from the anchor."""
        return self.cx - self.HALO[0], self.cy - self.HALO[1]

    def box(self) -> QRectF:
        """Where the label (halo included) is drawn, in pixels from its anchor."""
        if self._box is None:
            left, top = self.drawn_at()
            across, down = self.HALO
            self._box = QRectF(left, top, self.w + 2 * across, self.h + 2 * down)
        return self._box

    def drawing(self, ratio: float) -> QPixmap:
        """The label drawn once (halo and all), for the item and its repeats past the edges."""
        cached = self._pixmaps.get(ratio)
        if cached is None:
            cached = self._pixmaps[ratio] = _drawn(
                QRectF(QPointF(0, 0), self.box().size()), ratio, self._draw
            )
        return cached

    def _draw(self, painter: QPainter) -> None:
        _halo_text(
            painter,
            QPointF(self.HALO[0], self.HALO[1] + self.ascent),
            self.text,
            self.font,
            self.colour,
            QColor(255, 255, 255, 210),
        )

    def place(self, dx: float, dy: float) -> None:
        """Put the label's top-left corner (dx, dy) pixels from its anchor."""
        if dx != self.cx or dy != self.cy:
            self.cx, self.cy = dx, dy
            self._box = None
            self.show_at(*self.drawn_at(), self.drawing(self.ratio))


def draw_symbol(painter: QPainter, kind: str, colour: QColor) -> None:
    """A base's mark at (0, 0): a ringed disc (fleet base), a dot (port), a diamond."""
    painter.setPen(QPen(QColor("#1d2b36"), 1.0))
    painter.setBrush(colour)
    if kind == "fleet_base":  # a harbour mark
        painter.drawEllipse(QPointF(0, 0), 5.0, 5.0)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 255, 255, 235))
        painter.drawEllipse(QPointF(0, 0), 1.9, 1.9)
    elif kind == "fleet_train":  # a mobile fleet base: a square with a harbour mark
        painter.drawRect(QRectF(-4.6, -4.6, 9.2, 9.2))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 255, 255, 235))
        painter.drawEllipse(QPointF(0, 0), 1.9, 1.9)
    elif kind == "island":
        painter.drawPolygon(
            QPolygonF([QPointF(0, -4.2), QPointF(4.2, 0), QPointF(0, 4.2), QPointF(-4.2, 0)])
        )
    else:
        painter.drawEllipse(QPointF(0, 0), 3.2, 3.2)


#: base symbols drawn so far, by everything that shows: (kind, colour, air and garrisons
#: shown, highlighted, pixel ratio) → (box, pixmap); a few dozen looks in a game
_SYMBOLS: dict[tuple[str, int, int, int, bool, float], tuple[QRectF, QPixmap]] = {}


def _badges(air: int, garrison: int) -> list[tuple[int, QColor, str]]:
    """(count, colour, letter) of the badges shown: Air Points (A), garrisons (G)."""
    marks = [(air, QColor("#3f7cac"), "A"), (garrison, QColor("#7a6a3a"), "G")]
    return [m for m in marks if m[0]]


def _badge_rect(air: int, garrison: int) -> QRectF:
    """Where the badges are drawn (empty when none show), in pixels from the base."""
    n = len(_badges(air, garrison))
    return QRectF(-7.0 * n, 6.0, 14.0 * n, 9.0) if n else QRectF()


def _symbol_drawing(
    kind: str,
    colour: QColor,
    ratio: float,
    highlighted: bool = False,
    air: int = 0,
    garrison: int = 0,
) -> tuple[QRectF, QPixmap]:
    """A base's symbol (ringed when highlighted, with its badges) drawn once per look:
    (where it is drawn from the base, the pixmap)."""
    look = (kind, colour.rgb(), air, garrison, highlighted, ratio)
    drawn = _SYMBOLS.get(look)
    if drawn is None:
        r = _BaseSymbol.R + 3
        box = QRectF(-r, -r, 2 * r, 2 * r)
        badges = _badge_rect(air, garrison)
        if not badges.isEmpty():
            box = box.united(badges.adjusted(-1, -1, 1, 1))

        def draw(painter: QPainter) -> None:
            if highlighted:
                painter.setPen(QPen(style.SELECTION, 3.0))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawEllipse(QPointF(0, 0), 8.5, 8.5)
            draw_symbol(painter, kind, colour)
            shown = _badges(air, garrison)
            x = -7.0 * len(shown)
            painter.setFont(style.ui_font(6.5, bold=True))
            for count, fill, letter in shown:
                rect = QRectF(x + 0.5, 6.0, 13.0, 9.0)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(fill)
                painter.drawRoundedRect(rect, 2, 2)
                painter.setPen(QColor("white"))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"{letter}{count}")
                x += 14.0

        drawn = _SYMBOLS[look] = (box, _drawn(box, ratio, draw))
    return drawn


class _BaseSymbol(_Mark):
    """A base, port or island: a symbol in its holder's colour, with air/garrison badges."""

    R = 7.0  # pick radius in pixels (the symbol itself is smaller)

    def __init__(self, base_id: str, kind: str, ratio: float = 1.0) -> None:
        super().__init__("base", base_id, ratio)
        self.kind = kind
        self.colour = QColor("#777777")
        self.air = 0
        self.garrison = 0
        self.badges = False
        self.highlighted = False
        #: (box, pixmap) by (colour, highlighted, air and garrison shown)
        self._looks: dict[tuple[int, bool, int, int], tuple[QRectF, QPixmap]] = {}
        self.setZValue(20 if kind == "fleet_base" else 18)
        self._redraw()

    def set_look(self, colour: QColor, air: int, garrison: int) -> None:
        if (colour.rgb(), air, garrison) != (self.colour.rgb(), self.air, self.garrison):
            self.colour, self.air, self.garrison = QColor(colour), air, garrison
            self._redraw()

    def set_badges(self, on: bool) -> None:
        if on != self.badges:
            self.badges = on
            self._redraw()

    def set_highlighted(self, on: bool) -> None:
        if on != self.highlighted:
            self.highlighted = on
            self._redraw()

    def badge_edges_for(self, badges: bool) -> tuple[float, float, float, float] | None:
        """The badges' box (left, top, right, bottom pixels from the base) with badges
        shown or not (None: no badge shows)."""
        box = _badge_rect(self.air, self.garrison) if badges else QRectF()
        return None if box.isEmpty() else _edges(box)

    def _redraw(self) -> None:
        shown = (self.air, self.garrison) if self.badges else (0, 0)
        look = (self.colour.rgb(), self.highlighted, *shown)
        drawn = self._looks.get(look)
        if drawn is None:
            # zooming across BADGES_FROM swaps two looks of every base: remembered here
            drawn = self._looks[look] = _symbol_drawing(
                self.kind, self.colour, self.ratio, self.highlighted, *shown
            )
        self.show_drawing(*drawn)


class _Counter(_Mark):
    """A task-force counter beside its base: nation colour, name and fleet CV."""

    H = 15.0

    def __init__(self, key: str, ratio: float = 1.0) -> None:
        super().__init__("task_force", key, ratio)
        self.name = ""
        self.cv: int | None = 0
        self.colour = QColor("#777777")
        self.flagged = False
        self.compact = False
        self.highlighted = False
        self.slot = 0
        self._w = 0.0
        #: the counter's drawings by look (zooming in and out swaps the full and short)
        self._drawings: dict[tuple[str, int, bool, int, bool], tuple[QRectF, QPixmap]] = {}
        self.setZValue(40)

    def text(self, compact: bool | None = None) -> str:
        """What it reads, compact (the CV only) or not (None: as it is now)."""
        if self.cv is None:  # another nation's counter: its card is not the team's
            return "TF"
        if self.compact if compact is None else compact:
            return str(self.cv)
        name = self.name if len(self.name) <= 22 else self.name[:21].rstrip() + "…"
        return f"{name}  {self.cv}"

    def set_look(
        self, name: str, cv: int | None, colour: QColor, flagged: bool, slot: int, compact: bool
    ) -> None:
        look = (name, cv, colour.rgb(), flagged, slot, compact)
        if look == (self.name, self.cv, self.colour.rgb(), self.flagged, self.slot, self.compact):
            return
        self.name, self.cv, self.colour, self.flagged = name, cv, QColor(colour), flagged
        self.slot, self.compact = slot, compact
        self._w = self._width(self.text())
        self._redraw()

    @staticmethod
    def _width(text: str) -> float:
        return QFontMetricsF(style.ui_font(7.0, bold=True)).horizontalAdvance(text) + 8

    def set_highlighted(self, on: bool) -> None:
        if on != self.highlighted:
            self.highlighted = on
            self._redraw()

    def rect(self) -> QRectF:
        """The counter in item (pixel) coordinates: up and right of the base, stacked."""
        return QRectF(7.0, -7.0 - (self.slot + 1) * (self.H + 2), self._w, self.H)

    def rect_for(self, compact: bool) -> QRectF:
        """:meth:`rect` when compact (or not)."""
        if compact == self.compact:
            return self.rect()
        return QRectF(self.rect().topLeft(), QSizeF(self._width(self.text(compact)), self.H))

    def _redraw(self) -> None:
        look = (self.text(), self.colour.rgb(), self.flagged, self.slot, self.highlighted)
        drawn = self._drawings.get(look)
        if drawn is None:
            box = self.rect().adjusted(-3, -6, 3, 3)
            drawn = self._drawings[look] = (box, _drawn(box, self.ratio, self._draw))
        self.show_drawing(*drawn)

    def _draw(self, painter: QPainter) -> None:
        rect = self.rect()
        painter.setPen(
            QPen(
                style.SELECTION if self.highlighted else QColor("#1d2b36"),
                2.2 if self.highlighted else 0.8,
            )
        )
        painter.setBrush(self.colour)
        painter.drawRoundedRect(rect, 2.5, 2.5)
        painter.setPen(QColor("white"))
        painter.setFont(style.ui_font(7.0, bold=True))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.text())
        if self.flagged:
            x, y = rect.right() - 1.0, rect.top()
            painter.setPen(QPen(QColor("#1d2b36"), 1.0))
            painter.drawLine(QPointF(x, y + 3), QPointF(x, y - 6))
            painter.setBrush(style.SELECTION)
            painter.drawPolygon(
                QPolygonF([QPointF(x, y - 6), QPointF(x - 6, y - 4), QPointF(x, y - 2)])
            )


@dataclass
class _LineSet:
    """Straight lines drawn with one pen (a route, a piece of the adjacency lines), with
    their bounds padded for the pen: cosmetic pens are as wide in pixels at every zoom."""

    PAD = 2.0 * DEG

    pen: QPen
    lines: list[QLineF]
    box: QRectF = field(default_factory=QRectF)
    #: whether the lines are stroked as one path: a solid cosmetic pen at most a pixel
    #: wide (see _Lines)
    stroked: bool = field(default=False, init=False)  # (follows the pen: see set_pen)
    _path: QPainterPath | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.set_lines(self.lines)
        self.set_pen(self.pen)

    def set_lines(self, lines: list[QLineF]) -> None:
        self.lines = lines
        ends = QPolygonF([p for line in lines for p in (line.p1(), line.p2())])
        pad = self.PAD
        self.box = ends.boundingRect().adjusted(-pad, -pad, pad, pad) if lines else QRectF()
        self._path = None

    @property
    def path(self) -> QPainterPath:
        """The lines as one path (made when first stroked)."""
        if self._path is None:
            self._path = QPainterPath()
            for line in self.lines:
                self._path.moveTo(line.p1())
                self._path.lineTo(line.p2())
        return self._path

    def set_pen(self, pen: QPen) -> None:
        self.pen = pen
        self.stroked = (
            pen.isCosmetic() and pen.widthF() <= 1.0 and pen.style() == Qt.PenStyle.SolidLine
        )


class _Lines:
    """Sets of lines painted in order, each with its pen, by ``QPainter.drawLines`` (or
    stroked as one path: see below): a part of the chart's background (see
    SeaChart._paint_background), so a frame that copies the background copies them too.

    Qt's raster engine draws separate lines through its line rasterizer, solid or dashed
    and at any width; a path (a ``QGraphicsPathItem``) goes through the general stroker,
    three to four times slower for the routes (measured, bench/map_bench.py). A solid
    cosmetic pen a pixel wide or less (the links between the areas) is drawn by one
    stroker either way, the same pixels: those sets stroke their lines as one path, which
    costs a quarter less than handing Qt the list of lines every frame. Sets outside the
    part being painted are skipped. Drawn only: the chart picks routes itself, by
    distance in pixels.
    """

    def __init__(self, sets: list[_LineSet] | None = None, shown: bool = True) -> None:
        self.sets: list[_LineSet] = sets or []
        self.shown = shown

    def draw(self, painter: QPainter, exposed: QRectF) -> None:
        for lines in self.sets:
            if not lines.box.intersects(exposed):
                continue
            if lines.stroked:
                painter.strokePath(lines.path, lines.pen)
            else:
                painter.setPen(lines.pen)
                painter.drawLines(lines.lines)


class _SelectedRoute(_Layer):
    """The selected route over the background: its halo, then its lines again over that.
    The routes are drawn with the background, which a selection leaves as it is: a click
    on a route repaints the route, not the chart afresh (nor what was drawn ahead)."""

    def __init__(self) -> None:
        super().__init__(10)
        pen = _cosmetic(style.SELECTION, 8.0)
        pen.setCapStyle(Qt.PenCapStyle.SquareCap)
        self.halo = _LineSet(pen, [])
        self.lines = _Lines()

    def show_route(self, route: _LineSet | None) -> None:
        """Show this route selected (None: no route)."""
        self.halo.set_lines(route.lines if route is not None else [])
        self.lines.sets = [self.halo, route] if route is not None else []
        self.set_bounds(self.halo.box)
        self.update()

    def draw(self, painter: QPainter, exposed: QRectF) -> None:
        self.lines.draw(painter, exposed)


def _tiled(lines: list[QLineF], pen: QPen) -> list[_LineSet]:
    """The lines in sets by the piece of the chart (:data:`TILE`) they start in, so a frame
    of a part of the chart skips the rest."""
    pieces: dict[tuple[int, int], list[QLineF]] = {}
    for line in lines:
        key = (math.floor(line.x1() / TILE), math.floor(line.y1() / TILE))
        pieces.setdefault(key, []).append(line)
    return [_LineSet(pen, piece) for piece in pieces.values()]


class _AreaItem(QGraphicsPolygonItem):
    """A sea area: a tinted polygon with a thin border (painted by Qt, not Python)."""


@dataclass
class _RouteGeometry:
    """A route's drawn legs in scene coordinates, kept for picking by distance."""

    segments: list[QLineF]


def _blend(base: QColor, over: QColor) -> QColor:
    """``over`` composited on ``base`` (so a shaded area needs no extra item)."""
    a = over.alphaF()
    return QColor.fromRgbF(
        base.redF() * (1 - a) + over.redF() * a,
        base.greenF() * (1 - a) + over.greenF() * a,
        base.blueF() * (1 - a) + over.blueF() * a,
    )


def _alpha(colour: QColor, alpha: float) -> QColor:
    out = QColor(colour)
    out.setAlphaF(alpha)
    return out


def _cosmetic(colour: QColor, width: float, dash: bool = False) -> QPen:
    """A pen whose width is in pixels at every zoom. Flat caps and bevel joins: with
    antialiasing, round ones cost the raster engine a third of a frame (measured)."""
    pen = QPen(colour, width)
    pen.setCosmetic(True)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    pen.setJoinStyle(Qt.PenJoinStyle.BevelJoin)
    if dash:
        pen.setStyle(Qt.PenStyle.DashLine)
    return pen


# -- the chart ---------------------------------------------------------------------------------
class SeaChart(QGraphicsView):
    """The map of the war at sea, mirroring the session's game.

    ``selected(kind, id)`` is emitted when the user clicks something: kind is ``"area"``,
    ``"base"``, ``"route"`` or ``"task_force"`` (id ``"nation:tf_id"``).
    """

    selected = Signal(str, str)
    #: a task force counter ("nation:tf_id") was dragged onto a sea area
    taskForceDropped = Signal(str, str)

    def __init__(
        self,
        session: GameSession,
        parent: QWidget | None = None,
        land: Sequence[Sequence[tuple[float, float]]] | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self._land_source = land
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        # not Qt's cached background: a zoom redraws it anyway, and drawing it into the
        # cache and copying that cost a zoom step more than it saved (bench/map_bench.py);
        # the chart keeps its own pictures: of a view drawn twice, and of the next wheel
        # notches, drawn ahead when idle (drawBackground)
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheNone)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QGraphicsView.Shape.NoFrame)
        self.setBackgroundBrush(style.SEA)
        # the background paints every pixel asked for (the sea, or the frame beyond the
        # chart): Qt need not fill the window first (a quarter of a millisecond a frame at
        # 1920×1080, measured)
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)
        self.setMouseTracking(True)
        #: device pixels per pixel of the screen the names and symbols are drawn for
        self._ratio = self.devicePixelRatioF()

        self.areas: dict[str, _AreaItem] = {}
        self.area_labels: dict[str, _Label] = {}
        self.bases: dict[str, _BaseSymbol] = {}
        self.base_labels: dict[str, _Label] = {}
        #: each route's lines and pen, drawn with the background (``_route_layer``)
        self.routes: dict[str, _LineSet] = {}
        self.counters: dict[str, _Counter] = {}
        self.label_points: dict[str, QPointF] = {}
        self.base_points: dict[str, QPointF] = {}
        self._area_tint: dict[str, QColor] = {}
        self._area_polys: dict[str, list[tuple[float, float]]] = {}
        self._route_geo: dict[str, _RouteGeometry] = {}
        self._route_states: dict[str, RouteStatus] = {}
        #: every area and its repeats past the edges, as the background paints them and a
        #: click finds them
        self._sea: list[_SeaPiece] = []
        #: backgrounds drawn for copying, the latest last: a view drawn again (a selection,
        #: a highlight, a name shown) and the next wheel notch in or out copy one
        self._backdrops: list[_Backdrop] = []
        #: the last view drawn afresh (its transform and size, the density, what it shows)
        self._background_seen: tuple[object, ...] = ()
        self._background_version = 0
        #: the backgrounds of the next notch in and out, drawn a band at a time when idle
        #: (kept from the first band: see _Backdrop.todo)
        self._ahead: list[_Backdrop] = []
        #: the view drawn ahead from: zoom, pixel ratio, background version, scroll, size
        self._ahead_for: tuple[object, ...] | None = None
        self._ahead_timer = QTimer(self)
        self._ahead_timer.setSingleShot(True)
        self._ahead_timer.setInterval(0)
        self._ahead_timer.timeout.connect(self._draw_ahead)
        self._zoomed_in = True  # the last zoom's way, drawn ahead first
        #: the label layouts of the next notch in and out, made ahead when idle (after the
        #: backgrounds), and the zooms and parts of the scene still to lay out
        self._layouts_ahead: list[_Layout] = []
        self._layouts_to_plan: list[tuple[float, QRectF]] = []
        self._planned = True  # what to draw ahead is planned for the view drawn last
        self._whole_notches = True  # the wheel turned by whole notches (not a touchpad's)
        self._undrawn: list[_Label] = []  # names to draw ahead (the last first)
        #: a spin of the wheel: zoom steps less than SPIN_REST_MS apart (see _zoom_changed);
        #: runs once the wheel has stopped (_rest)
        self._rest_timer = QTimer(self)
        self._rest_timer.setSingleShot(True)
        self._rest_timer.setInterval(SPIN_REST_MS)
        self._rest_timer.timeout.connect(self._rest)
        self._spinning = False
        self._owed_layout = False  # the names not yet laid out for the zoom of the spin
        self._owed_frame = False  # a preview shown: the sharp frame follows at rest
        self._costs = _Costs()  # what a view drawn afresh and a preview lately cost
        #: the sea's tints and borders and the land, by outline grid (see outline_grid)
        self._outlines: dict[float, SeaOutlines] = {}
        self._lands: dict[float, list[Tile]] = {}
        #: those being made ahead, a slice at a time while idle (see _thin_some)
        self._thinning: dict[float, Steps[None]] = {}
        self._land_span: tuple[float, float] | None = None
        self._adjacency: _Lines | None = None
        self._route_layer: _Lines | None = None
        self._show_adjacency = True
        self._team: str | None = None
        self._selection: tuple[str, str] | None = None
        self._range: set[str] = set()
        self._press: QPoint | None = None
        self._carrying: str | None = None  # a task force being dragged
        self._layout_scale = -1.0
        self._laid_out = QRectF()
        self._near_bases: set[str] = set()
        self._named: set[_Label] = set()
        self._ghosts_shown: set[_Shown] = set()
        self._ghost_cells: _Cells[int] = _Cells(CELL)
        #: base and area-name anchors as plain numbers (scene units), for the layout
        self._base_xy: dict[str, tuple[float, float]] = {}
        self._label_xy: dict[str, tuple[float, float]] = {}
        self._area_order: list[str] = []
        self._base_order: list[str] = []
        self._frame_x = (-1e9, 1e9)
        self._scenario_id = 0
        self._world_rect = QRectF()
        #: the last turn's battles, landings and merchant combats (ui/mapmarks.py)
        self.marks = TurnMarks(self, session)
        self._add_mark_layers()

        session.gameChanged.connect(self._on_game_changed)
        session.stateChanged.connect(self.refresh_state)
        session.ordersChanged.connect(self._on_orders_changed)
        if session.is_open:
            self.rebuild()

    # -- public API ------------------------------------------------------------------------
    @property
    def team(self) -> str | None:
        return self._team

    @property
    def range_areas(self) -> set[str]:
        """The sea areas shaded by :meth:`show_range` (empty when cleared)."""
        return set(self._range)

    @property
    def selection(self) -> tuple[str, str] | None:
        return self._selection

    def px_per_degree(self) -> float:
        """The zoom: screen pixels per degree of longitude."""
        return self.transform().m11() * DEG

    def world_rect(self) -> QRectF:
        """The scene rectangle holding every sea area."""
        return QRectF(self._world_rect)

    def fit_world(self) -> None:
        """Show every sea area."""
        if not self._world_rect.isEmpty():
            self.fitInView(self._world_rect, Qt.AspectRatioMode.KeepAspectRatio)
            self._zoom_changed()

    def zoom_to(self, theatre: str) -> bool:
        """Show a named theatre (see :data:`THEATRES`, case-insensitive); False if unknown."""
        for name, (west, north, east, south) in THEATRES.items():
            if name.lower() == theatre.strip().lower():
                rect = QRectF(scene_point(west, north), scene_point(east, south))
                self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
                self._zoom_changed()
                return True
        return False

    def zoom_by(self, factor: float, around: QPointF | None = None) -> None:
        """Zoom by ``factor`` around the view's centre, or keeping the chart's point at
        viewport position ``around`` where it is (the wheel: the point under the mouse, as
        the wheel's event gives it), between a little less than the whole world and
        :data:`MAX_PX_PER_DEG`. The view stays inside the scene (Qt's scroll limits)."""
        factor = self._zoom_factor(factor)
        if factor == 1.0:
            return
        self._zoomed_in = factor > 1.0
        anchor = QGraphicsView.ViewportAnchor

        if around is None:
            self.setTransformationAnchor(anchor.AnchorViewCenter)
            self.scale(factor, factor)
        else:
            under = self.viewportTransform().inverted()[0].map(around)
            self.setTransformationAnchor(anchor.NoAnchor)
            self.scale(factor, factor)
            # the point centred (Qt's centerOn puts it half the window from its corner)
            # so that ``under`` comes back to ``around``
            middle = QPointF(self.viewport().width() / 2, self.viewport().height() / 2)
            # as Qt's own anchors do (inside its change of transform), without scrolling
            # the window's old picture first: the whole view is painted afresh after a
            # zoom, and Qt's accelerated scroll moves every pixel of the window (1.5 ms at
            # 1920×1080, measured)
            update = self.viewportUpdateMode()
            self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)
            self.centerOn(under + (middle - around) / self.transform().m11())
            self.setViewportUpdateMode(update)
        self.setTransformationAnchor(anchor.AnchorUnderMouse)
        spin = self._rest_timer.isActive()  # a step less than SPIN_REST_MS before this one
        self._zoom_changed(spin)
        self._rest_timer.start()

    def zoom_notches(self, notches: float, around: QPointF | None = None) -> None:
        """Zoom as that many turns of the mouse wheel do (negative: out), around the
        view's centre or ``around``: the wheel and *View → Zoom in / out*, whose next
        notch the chart draws ahead while idle (not after a part of a notch: a touchpad's
        zooms, which a whole notch never meets)."""
        self._whole_notches = notches == round(notches)
        self.zoom_by(WHEEL_STEP**notches, around)

    def _zoom_factor(self, factor: float) -> float:
        """``factor`` kept between a little less than the whole world and the closest zoom
        (1.0: no zoom left that way)."""
        ppd = self.px_per_degree()
        factor = max(min(factor, MAX_PX_PER_DEG / ppd), 0.7 * self._fit_ppd() / ppd)
        return 1.0 if abs(factor - 1.0) < 1e-3 else factor

    def find_place(self, text: str) -> bool:
        """Centre on the base or sea area named ``text`` (case-insensitive; a prefix or an
        id will do), select it and announce it. False if nothing matches."""
        hit = self._lookup(text)
        if hit is None:
            return False
        kind, key = hit
        point = self.base_points[key] if kind == "base" else self.label_points[key]
        if self.px_per_degree() < 6.0:
            self.zoom_by(6.0 / self.px_per_degree())
        self.centerOn(point)
        self.set_selection(kind, key)
        self.selected.emit(kind, key)
        return True

    def set_show_adjacency(self, show: bool) -> None:
        self._show_adjacency = show
        if self._adjacency is not None:
            self._adjacency.shown = show
            self._background_changed()

    def set_team(self, nation: str | None) -> None:
        """A team's view or Game Control's (``None``: everything). A team's chart is drawn
        from its :class:`~campaign.teamview.TeamView`: its own task forces, the other
        nations' counters placed on the map this turn (whose and where only), Air Points
        and garrisons it knows of, and no tonnage but its own (docs/team-views.md)."""
        self._team = nation or None
        if self.session.is_open and self.areas:
            self.refresh_state()
        sel = self._selection
        if sel and sel[0] == "task_force" and sel[1] not in self.counters:
            self.set_selection(None, None)

    def team_view(self) -> TeamView | None:
        """The team view the chart shows (None: Game Control's chart)."""
        if self._team is None or not self.session.is_open:
            return None
        return self.session.team_view(self._team)

    def set_selection(self, kind: str | None, key: str | None) -> None:
        """Highlight one object (or none) without announcing it."""
        old = self._selection
        if old is not None:
            self._highlight(old[0], old[1], False)
        self._selection = (kind, key) if kind and key else None
        if self._selection is not None:
            self._highlight(self._selection[0], self._selection[1], True)

    def show_range(self, task_force_key: str) -> set[str]:
        """Shade the sea areas within naval range of a task force's base (4, +1 per range
        card played for it). Returns the shaded areas (empty if the force is unknown)."""
        self.clear_range()
        if not self.session.is_open:
            return set()
        found = find_task_force(self.session.all_orders(), task_force_key)
        if found is None:
            return set()
        orders, tf = found
        board = self.session.board()
        if tf.base not in board.bases:
            return set()
        reach = board.task_force_reach(orders.nation, tf.id, self.session.all_orders().values())
        self._range = board.areas_within(tf.base, reach)
        for area in self._range:
            self._paint_area(area)
        return set(self._range)

    def clear_range(self) -> None:
        shaded, self._range = self._range, set()
        for area in shaded:
            self._paint_area(area)

    def shade_areas(self, areas: set[str]) -> None:
        """Shade these sea areas as :meth:`show_range` does (the scenario editor's unit
        ranges and the next areas a route being drawn may take)."""
        self.clear_range()
        self._range = {a for a in areas if a in self.areas}
        for area in self._range:
            self._paint_area(area)

    def pick(self, pos: QPoint) -> tuple[str, str] | None:
        """What is under viewport position ``pos``: (kind, id), topmost first — a task
        force, a base (its symbol or name), a route, then a sea area.

        Done here rather than by the scene's hit-test: a handful of rectangle and distance
        tests in pixels, with a tolerance for thin lines and small symbols.
        """
        to_view = self.viewportTransform()
        at = QPointF(pos)
        mark = self.marks.hit(at)
        if mark is not None:
            return "event", mark
        for key, counter in self.counters.items():
            if counter.isVisible() and counter.rect().translated(
                to_view.map(counter.pos())
            ).contains(at):
                return "task_force", key
        scale = self.transform().m11()
        scene = self.mapToScene(pos)
        labels = self.px_per_degree() >= BASE_LABELS_FROM * 0.7
        reach = 150.0 if labels else _BaseSymbol.R  # a name is never 150 px from its base
        best, best_d = None, _BaseSymbol.R
        for base_id in self._base_cells.near(scene, reach / max(scale, 1e-9)):
            point = self.base_points[base_id]
            dx, dy = (point.x() - scene.x()) * scale, (point.y() - scene.y()) * scale
            if abs(dx) > reach or abs(dy) > reach or not self.bases[base_id].isVisible():
                continue
            d = math.hypot(dx, dy)
            if d <= best_d:
                best, best_d = base_id, d
            label = self.base_labels[base_id]
            if best is None and label.isVisible():
                box = QRectF(label.cx, label.cy, label.w, label.h)
                if box.translated(-dx, -dy).contains(QPointF(0, 0)):
                    best, best_d = base_id, 0.0
        if best is not None:
            return "base", best
        route = self._route_at(scene)
        if route is not None:
            return "route", route
        area = self._area_at(scene)
        return ("area", area) if area is not None else None

    # -- building ---------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Build the scene for the open game (everything: a different game was opened)."""
        scene = self.scene()
        self.set_selection(None, None)
        self._costs = _Costs()  # another world draws at other costs
        scene.clear()
        self.marks.forget()
        self._add_mark_layers()
        for d in (
            self.areas,
            self.area_labels,
            self.bases,
            self.base_labels,
            self.routes,
            self.counters,
            self.label_points,
            self.base_points,
            self._area_tint,
            self._area_polys,
            self._route_geo,
            self._route_states,
        ):
            d.clear()
        self._sea = []
        #: bases and area names repeated past the chart's edges
        self._ghosts: list[_Ghost] = []
        self._ghost_cells = _Cells(CELL)
        self._outlines = {}
        self._thinning = {}
        self._land_span, self._lands = None, {}  # (set again below for a game)
        self._background_changed()  # another game: its background drawn afresh
        self._range = set()
        self._adjacency = self._route_layer = None
        self._layout_scale = -1.0
        self._laid_out = QRectF()
        self._near_bases, self._named, self._ghosts_shown = set(), set(), set()
        self._base_cells: _Cells[str] = _Cells(CELL)
        self._label_cells: _Cells[str] = _Cells(CELL)
        self._area_order, self._base_order = [], []  # another scenario's places: laid out anew
        self._undrawn = []
        if not self.session.is_open:
            self._world_rect = QRectF()
            self.viewport().update()
            return
        scenario = self.session.scenario
        self._scenario_id = id(scenario)
        board = self.session.board()
        world = scenario.world
        self._build_areas(world)
        margin = 3.0 * DEG
        self._world_rect = QRectF()
        for item in self.areas.values():
            self._world_rect = self._world_rect.united(item.sceneBoundingRect())
        # room beyond the areas for the coasts around them: the seam's repeated copies on
        # the sides, the Arctic shore and Antarctica's edge above and below
        frame = self._world_rect.adjusted(-margin * 20, -margin, margin * 20, margin)
        frame.setTop(min(frame.top(), -84.0 * DEG))
        frame.setBottom(max(frame.bottom(), 68.0 * DEG))
        self.setSceneRect(frame)
        self._frame_x = (frame.left(), frame.right())
        for layer in (self._mark_layer, self._ghost_layer):
            layer.set_bounds(frame.adjusted(-180 * DEG, -90 * DEG, 180 * DEG, 90 * DEG))
        self._build_adjacency(world)
        self._build_bases(board)
        self._route_layer = _Lines()
        self._refresh_routes(board)
        self._sync_counters(self.session.all_orders(), board.state)
        west = frame.left() / DEG - 10
        east = frame.right() / DEG + 10
        self._land_span = (west, east)  # the land made ahead or when first drawn
        self._build_ghosts(west, east)
        self.marks.refresh()
        # drawn ahead when idle, area names (the largest first) before base names
        self._undrawn = [self.base_labels[b] for b in reversed(self._base_order)]
        self._undrawn += [self.area_labels[a] for a in reversed(self._area_order)]
        self._layout_scale = -1.0  # the labels once more, now every place is in the order
        self.viewport().update()
        self.fit_world()

    def _add_mark_layers(self) -> None:
        """The items that paint the names and base symbols (z 12 to 20, as they stack),
        their repeats past the edges (z 1.5: over the background, its links and routes
        included, under everything else) and the selected route (z 10)."""
        self._mark_layer = _MarkLayer(12)
        self._ghost_layer = _MarkLayer(1.5)
        self._selected_route = _SelectedRoute()
        for item in (self._mark_layer, self._ghost_layer, self._selected_route):
            self.scene().addItem(item)

    def _build_areas(self, world: World) -> None:
        colours = greedy_colouring(world)
        label_font = style.ui_font(6.8)
        label_font.setItalic(True)
        label_font.setLetterSpacing(QFont.SpacingType.PercentageSpacing, 104)
        for area in world.areas.values():
            ring = place_ring(area.polygon)
            lons = [p[0] for p in ring]
            mid = (min(lons) + max(lons)) / 2.0
            self._area_polys[area.id] = ring
            tint = QColor(AREA_TINTS[colours.get(area.id, 0) % len(AREA_TINTS)])
            self._area_tint[area.id] = tint
            item = _AreaItem(_polygon(ring))
            # the area is painted in the background, under the land; the item only draws
            # the selection outline, and is hidden (never painted, never hit) otherwise
            item.setPen(QPen(Qt.PenStyle.NoPen))
            item.setBrush(Qt.BrushStyle.NoBrush)
            item.setVisible(False)
            item.setZValue(0)
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            item.setData(ROLE_KIND, "area")
            item.setData(ROLE_KEY, area.id)
            self.scene().addItem(item)
            self.areas[area.id] = item
            point = scene_point(near_lon(area.lon, mid), area.lat)
            self.label_points[area.id] = point
            label = _Label(
                area.name, label_font, style.SEA_AREA_LABEL, "area", area.id, self._ratio
            )
            self._mark_layer.add(label, point, 12)
            self.area_labels[area.id] = label

    def _leg_lines(self, a: QPointF, b: QPointF) -> list[QLineF]:
        """A leg between two chart points; a leg across the seam is drawn twice, leaving
        each side towards the other's repeated position, never across the whole chart."""
        span = 360.0 * DEG
        if abs(b.x() - a.x()) <= span / 2:
            return [QLineF(a, b)]
        turn = span if b.x() < a.x() else -span
        return [
            QLineF(a, QPointF(b.x() + turn, b.y())),
            QLineF(QPointF(a.x() - turn, a.y()), b),
        ]

    def _with_copies(self, lines: list[QLineF]) -> list[QLineF]:
        """The lines and their copies one turn east and west, where a copy reaches into
        the chart's frame, so a line shows over the repeated areas past the edges too."""
        span = 360.0 * DEG
        left, right = self._frame_x
        out = list(lines)
        for turn in (-span, span):
            for line in lines:
                lo = min(line.x1(), line.x2()) + turn
                hi = max(line.x1(), line.x2()) + turn
                if hi > left and lo < right:
                    out.append(line.translated(turn, 0.0))
        return out

    def _build_adjacency(self, world: World) -> None:
        sea: list[QLineF] = []
        straits: list[QLineF] = []
        for a, b, data in world.edges():
            target = straits if data.get("kind") == "strait" else sea
            legs = self._leg_lines(self.label_points[a], self.label_points[b])
            target.extend(self._with_copies(legs))
        # opaque colours: blending translucent strokes costs more than drawing them
        sea_pen = _cosmetic(_blend(style.SEA, _alpha(style.ADJACENCY, 0.45)), 0.8)
        self._adjacency = _Lines(
            _tiled(sea, sea_pen) + _tiled(straits, _cosmetic(style.STRAIT, 1.4, dash=True)),
            self._show_adjacency,
        )

    def _build_bases(self, board: Board) -> None:
        for base_id, row in board.bases.items():
            self._add_base(base_id, row, board.place_name_for(base_id, self._team))
        self._refresh_bases(board)

    def _base_point(self, row: Mapping[str, object]) -> QPointF:
        area = str(row["sea_area"])
        ring = self._area_polys.get(area)
        lon = float(str(row["lon"]))
        if ring:
            lons = [p[0] for p in ring]
            lon = near_lon(lon, (min(lons) + max(lons)) / 2.0)
        else:
            lon = chart_lon(lon)
        return scene_point(lon, float(str(row["lat"])))

    def _add_base(self, base_id: str, row: Mapping[str, object], name: str) -> None:
        """A place's symbol and label (fleet trains come and go during play); ``name``: as
        the chart's viewer knows it."""
        font = style.ui_font(7.0)
        bold = style.ui_font(7.0, bold=True)
        point = self._base_point(row)
        self.base_points[base_id] = point
        kind = str(row["kind"])
        symbol = _BaseSymbol(base_id, kind, self._ratio)
        self._mark_layer.add(symbol, point, symbol.zValue())
        self.bases[base_id] = symbol
        label = _Label(
            name,
            bold if kind in ("fleet_base", "fleet_train") else font,
            style.TEXT,
            "base",
            base_id,
            self._ratio,
        )
        label.setVisible(False)
        self._mark_layer.add(label, point, 14)
        self.base_labels[base_id] = label

    def _sync_fleet_trains(self, board: Board) -> bool:
        """Fleet trains set up, moved or disbanded since the chart was drawn, or named
        otherwise for a new viewer; True if any."""
        changed = False
        for base_id in [b for b, s in self.bases.items() if s.kind == "fleet_train"]:
            row = board.bases.get(base_id)
            if (
                row is None
                or self._base_point(row) != self.base_points[base_id]
                or self.base_labels[base_id].text != board.place_name_for(base_id, self._team)
            ):
                self._mark_layer.remove(self.bases.pop(base_id))
                self._mark_layer.remove(self.base_labels.pop(base_id))
                del self.base_points[base_id]
                changed = True
        for base_id, row in board.bases.items():
            if base_id not in self.bases:
                self._add_base(base_id, row, board.place_name_for(base_id, self._team))
                changed = True
        if changed:
            self._order_bases()
            for route_id, row in board.route_rows.items():  # their routes end elsewhere now
                ends = {row["origin"], row["destination"]}
                if any(board.bases.get(str(e), {}).get("kind") == "fleet_train" for e in ends):
                    self._route_geo.pop(route_id, None)
        return changed

    def _order_bases(self) -> None:
        """The order base names are placed in (fleet bases and trains, ports, islands) and
        the index the pointer finds bases with."""
        rank = {"fleet_base": 0, "fleet_train": 0, "port": 1, "island": 2}
        self._base_order = sorted(self.bases, key=lambda b: (rank.get(self.bases[b].kind, 3), b))
        self._base_cells = _Cells(CELL)
        self._base_xy = {}
        for base_id, point in self.base_points.items():
            self._base_cells.add(base_id, QRectF(point, point))
            self._base_xy[base_id] = (point.x(), point.y())

    def _route_path(self, board: Board, route_id: str) -> list[QLineF]:
        line = board.route(route_id)
        points = [self.base_points[line.origin]]
        points += [self.label_points[a] for a in line.path if a in self.label_points]
        points.append(self.base_points[line.destination])
        # routes sharing legs are set a little apart so each stays visible
        shift = ((line.serial * 7) % 5 - 2) * 0.18 * DEG
        lines: list[QLineF] = []
        for i, (a, b) in enumerate(itertools.pairwise(points)):
            inner_a = i > 0
            inner_b = i + 1 < len(points) - 1
            pa = QPointF(a.x(), a.y() + (shift if inner_a else 0.0))
            pb = QPointF(b.x(), b.y() + (shift if inner_b else 0.0))
            if pa == pb:
                continue
            lines.extend(self._leg_lines(pa, pb))
        return self._with_copies(lines)

    def _build_ghosts(self, west: float, east: float) -> None:
        """The sea as the background paints it: every area, and its copies where they
        reach past the chart's edges."""
        self._sea = self._sea_pieces(self._area_polys, west, east)
        span = 360.0 * DEG
        left, right = west * DEG, east * DEG
        self._ghosts = []
        self._ghost_cells = _Cells(CELL)
        for kind, points in (("area", self.label_points), ("base", self.base_points)):
            for key, point in points.items():
                for turn in (-span, span):
                    if left < point.x() + turn < right:
                        at = QPointF(point.x() + turn, point.y())
                        layer = self._ghost_layer
                        mark = _ghost_item(layer, at, 1.5) if kind == "base" else None
                        name = _ghost_item(layer, at, 1.6)
                        self._ghost_cells.add(len(self._ghosts), QRectF(at, at))
                        self._ghosts.append(_Ghost(kind, key, at.x(), at.y(), mark, name))
        self._paint_ghost_symbols()
        # the order names are placed in: big areas first; fleet bases, ports, islands
        self._area_order = sorted(self.areas, key=lambda a: -_area_size(self._area_polys[a]))
        self._label_cells = _Cells(CELL)
        self._label_xy = {}
        for area_id, point in self.label_points.items():
            self._label_cells.add(area_id, QRectF(point, point))
            self._label_xy[area_id] = (point.x(), point.y())
        self._sea_cells: _Cells[int] = _Cells(CELL)
        for index, piece in enumerate(self._sea):
            self._sea_cells.add(index, piece.bounds)
        self._order_bases()

    @classmethod
    def _sea_pieces(
        cls, rings: Mapping[str, Sequence[tuple[float, float]]], west: float, east: float
    ) -> list[_SeaPiece]:
        """Each area's ring, and its copies a turn east and west, between ``west`` and
        ``east``."""
        pieces = []
        for area_id, ring in rings.items():
            for moved in cls._turns(ring, west, east):
                polygon = _polygon(moved)
                pieces.append(_SeaPiece(area_id, moved, polygon, polygon.boundingRect()))
        return pieces

    @staticmethod
    def _turns(
        ring: Sequence[tuple[float, float]], west: float, east: float
    ) -> list[list[tuple[float, float]]]:
        """The ring and its copies a turn east and west that reach between ``west`` and
        ``east`` (chart longitudes)."""
        lons = [p[0] for p in ring]
        lo, hi = min(lons), max(lons)
        return [
            [(lon + turn, lat) for lon, lat in ring]
            for turn in (0.0, -360.0, 360.0)
            if not turn or (lo + turn < east and hi + turn > west)
        ]

    def _sea_outlines(self, grid: float) -> SeaOutlines:
        """The area tints, one path per colour and piece of the chart (a few fills instead
        of one per area), and the borders, one path per piece, each shared border once:
        from the rings thinned to half ``grid`` degrees (as they are for 0.0). Made ahead
        (see _thin_some) or the first time a zoom needs them."""
        if grid not in self._outlines and self._land_span is not None:
            self._outlines_made(grid)
        return self._outlines.get(grid) or ([], [])

    def _outlines_made(self, grid: float) -> None:
        """The sea's outlines and the land for an outline grid made now: those being made
        ahead finished (see _thin_some)."""
        thinning = self._thinning
        drained(thinning.pop(grid) if grid in thinning else self._outline_steps(grid))

    def _outline_steps(self, grid: float) -> Steps[None]:
        """The sea's outlines and the land for an outline grid (see outline_grid), made a
        ring or so a step (see chartgeometry.Steps), each kept once made."""
        if grid not in self._outlines:
            self._outlines[grid] = yield from self._sea_outline_steps(grid)
        if grid not in self._lands:
            self._lands[grid] = yield from self._land_steps(grid)

    def _sea_outline_steps(self, grid: float) -> Steps[SeaOutlines]:
        assert self._land_span is not None  # (a world is shown)
        west, east = self._land_span
        pieces: dict[tuple[int, int], QPainterPath] = {}
        outlined: set[tuple[tuple[int, int], tuple[int, int]]] = set()
        fills: dict[tuple[tuple[int, int], int], QPainterPath] = {}
        # the areas as they are (the pieces a click finds), or thinned far out
        sea = self._sea
        if grid:
            thinned = yield from thin_rings_steps(self._area_polys, grid / 2)
            sea = []
            for area_id, ring in thinned.items():
                sea.extend(self._sea_pieces({area_id: ring}, west, east))
                yield
        for area_id, moved, poly, bounds in sea:
            centre = bounds.center()
            tile = (math.floor(centre.x() / TILE), math.floor(centre.y() / TILE))
            _add_outline(pieces.setdefault(tile, QPainterPath()), moved, outlined)
            tint = self._area_tint[area_id].rgb()
            fill = fills.get((tile, tint))
            if fill is None:
                fill = fills[(tile, tint)] = QPainterPath()
                fill.setFillRule(Qt.FillRule.WindingFill)
            fill.addPolygon(poly)
            fill.closeSubpath()
            yield
        tints = [
            (path.boundingRect(), QColor.fromRgb(rgb), path) for (_k, rgb), path in fills.items()
        ]
        borders = [(path.boundingRect(), path) for path in pieces.values()]
        return tints, borders

    # -- keeping up with the model -------------------------------------------------------------
    def _on_game_changed(self) -> None:
        if self.session.is_open and id(self.session.scenario) == self._scenario_id and self.areas:
            self.refresh_state()  # the same game saved under a new name: nothing moved
        else:
            self.rebuild()

    def _on_orders_changed(self, nation: str) -> None:
        if self.session.is_open and self.areas:
            self._sync_counters(self.session.all_orders(), self.session.state, self.team_view())

    def refresh_state(self) -> None:
        """The state moved: recolour holders and routes, redo counters (only what changed)."""
        if not self.session.is_open:
            self.rebuild()
            return
        if not self.areas:
            self.rebuild()
            return
        board = self.session.board()
        if self._sync_fleet_trains(board):
            self._layout_scale = -1.0
            self._layout_labels()
        view = self.team_view()
        self._refresh_bases(board, view)
        self._refresh_routes(board, view)
        self._paint_ghost_symbols()
        self._sync_counters(self.session.all_orders(), board.state, view)
        self.marks.refresh()

    def _refresh_bases(self, board: Board, view: TeamView | None = None) -> None:
        """Holders' colours (public), and the Air Points and garrisons there: all of them
        for Game Control, those the team knows of in a team view."""
        nations = board.nations
        state = board.state
        air: dict[str, int] = {}
        garrisons: dict[str, int] = {}
        if view is None:
            for unit in state.air.values():
                air[unit.base] = air.get(unit.base, 0) + unit.points
            for base_id, held in state.garrisons.items():
                garrisons[base_id] = sum(held.values())
        else:
            for a in (*view.air, *view.allied_air):
                air[a.base] = air.get(a.base, 0) + a.points
            for g in (*view.garrisons, *view.allied_garrisons):
                garrisons[g.base] = garrisons.get(g.base, 0) + g.garrisons
        for base_id, symbol in self.bases.items():
            colour = style.nation_colour(nations, board.holder(base_id))
            symbol.set_look(colour, air.get(base_id, 0), garrisons.get(base_id, 0))

    def _refresh_routes(self, board: Board, view: TeamView | None = None) -> None:
        for route_id in list(self.routes):
            if route_id not in board.route_rows:
                del self.routes[route_id]
                self._route_geo.pop(route_id, None)
                continue
        for route_id in board.route_rows:
            item = self.routes.get(route_id)
            if item is None:
                item = self.routes[route_id] = _LineSet(QPen(), [])
            if route_id not in self._route_geo:
                lines = self._route_path(board, route_id)
                self._route_geo[route_id] = _RouteGeometry(lines)
                item.set_lines(lines)
            state = board.route_status(route_id)
            self._route_states[route_id] = state
            seen = view.route(route_id) if view is not None else None
            # a team knows the tonnage of its own routes only: the others are drawn thin
            tonnage = board.state.routes.get(route_id, 0) if view is None else seen and seen.tonnage
            colour = {
                WORKING: style.ROUTE_WORKING,
                CONTESTED: style.ROUTE_CONTESTED,
                CUT: style.ROUTE_CUT,
            }[state.state]
            width = 0.9 + 3.1 * math.sqrt(min(tonnage or 0, 60) / 60.0)
            pen = _cosmetic(
                colour,
                width if tonnage is not None else 1.3,
                dash=tonnage == 0 or state.state == CUT,
            )
            if pen.style() == Qt.PenStyle.SolidLine:
                # drawn as separate lines: square caps fill the bends a path's joins did
                pen.setCapStyle(Qt.PenCapStyle.SquareCap)
            item.set_pen(pen)
        if self._route_layer is not None:
            self._route_layer.sets = list(self.routes.values())
            self._background_changed()
        if self._selection and self._selection[0] == "route":
            self._highlight("route", self._selection[1], True)

    def _sync_counters(
        self, orders: dict[str, Orders], state: GameState, view: TeamView | None = None
    ) -> None:
        """Make the counters match this turn's task forces: add, update, remove. In a team
        view: the team's own task forces (its orders) and the other nations' counters
        placed on the map this turn (keys ``public:NATION:BASE:N``: whose and where)."""
        nations = self.session.scenario.by_id("nations")
        wanted: dict[str, tuple[str, int | None, QColor, bool, str]] = {}
        if view is not None:
            orders = {n: o for n, o in orders.items() if n == view.nation}
            seen: dict[tuple[str, str], int] = {}
            for c in view.counters:
                n = seen[(c.nation, c.base)] = seen.get((c.nation, c.base), 0) + 1
                if c.base in self.base_points:
                    wanted[f"{PUBLIC}:{c.nation}:{c.base}:{n}"] = (
                        "",
                        None,
                        style.nation_colour(nations, c.nation),
                        False,
                        c.base,
                    )
        for nation, mine in orders.items():
            for tf in mine.task_forces:
                if tf.base not in self.base_points:
                    continue
                wanted[f"{nation}:{tf.id}"] = (
                    tf.name,
                    task_force_cv(state, tf),
                    style.nation_colour(nations, nation),
                    bool(operation_of(mine, tf.id)),
                    tf.base,
                )
        for key in [k for k in self.counters if k not in wanted]:
            self.scene().removeItem(self.counters.pop(key))
            if self._selection == ("task_force", key):
                self._selection = None
        slots: dict[str, int] = {}
        compact = self.px_per_degree() < FULL_COUNTERS_FROM
        for key in sorted(wanted):
            name, cv, colour, flagged, base = wanted[key]
            counter = self.counters.get(key)
            if counter is None:
                counter = _Counter(key, self._ratio)
                self.scene().addItem(counter)
                self.counters[key] = counter
            slot = slots.get(base, 0)
            slots[base] = slot + 1
            counter.setPos(self.base_points[base])
            counter.set_look(name, cv, colour, flagged, slot, compact)
        if self._range:
            # the force shown may have changed base or gone
            self._range_stale()
        self._layout_scale = -1.0
        self._layout_labels()

    def _range_stale(self) -> None:
        """Keep the shaded range only while it still describes a force in the orders."""
        # the key is not kept on purpose: a rebuilt set of orders clears the shading
        self.clear_range()

    # -- look --------------------------------------------------------------------------------
    def _paint_area(self, area: str) -> None:
        """The areas are painted in the background (under the land, so coasts stay
        crisp): a change of shading redraws the chart."""
        self._background_changed()

    def _background_changed(self) -> None:
        """What the background shows changed (shading, links, routes): the next frame
        draws it afresh, and nothing kept or drawn ahead for the old one is copied."""
        self._background_version += 1
        self._backdrops = []
        self.viewport().update()

    def area_fill(self, area: str) -> QColor:
        """The colour an area is painted (its tint, or shaded when in range)."""
        tint = self._area_tint[area]
        return _blend(tint, style.RANGE_SHADE) if area in self._range else tint

    def _highlight(self, kind: str, key: str, on: bool) -> None:
        if kind == "area" and key in self.areas:
            item = self.areas[key]
            item.setPen(_cosmetic(style.SELECTION, 2.6) if on else QPen(Qt.PenStyle.NoPen))
            item.setZValue(1 if on else 0)
            item.setVisible(on)
        elif kind == "base" and key in self.bases:
            self.bases[key].set_highlighted(on)
        elif kind == "task_force" and key in self.counters:
            self.counters[key].set_highlighted(on)
        elif kind == "route" and key in self.routes:
            self._selected_route.show_route(self.routes[key] if on else None)

    def _fit_ppd(self) -> float:
        if self._world_rect.isEmpty():
            return 1.0
        vw, vh = max(self.viewport().width(), 1), max(self.viewport().height(), 1)
        return min(vw / self._world_rect.width(), vh / self._world_rect.height()) * DEG

    def _zoom_changed(self, spin: bool = False) -> None:
        """After any zoom: decide what is shown (a new transform redraws the chart).

        In a spin of the wheel (``spin``: a zoom step less than :data:`SPIN_REST_MS` after
        the step before; the fastest come faster than frames can be drawn afresh, and
        queue up) a step shows a preview: the names stay as laid out before (moving with
        the zoom) and, where that costs less than drawing it afresh (see _Costs), the
        background is a scaled copy of one drawn sharp at a zoom close by (see _preview),
        as a map program shows the last picture scaled while it draws the next. Once the
        wheel has stopped that long (_rest) the names are laid out and the frame drawn
        sharp. A layout made ahead for the zoom is shown at once all the same (it costs
        less than a millisecond), and a background drawn ahead is copied."""
        self._spinning = spin
        if not spin and self._rest_timer.isActive():
            self._rest()  # a jump: the end of a spin
        self._layout_labels(defer=spin)

    def _rest(self) -> None:
        """The end of a spin (no step for :data:`SPIN_REST_MS`): the names laid out for
        the zoom it ended at and the window drawn sharp where a preview was shown, in one
        frame; what to draw ahead is planned again for it (laying out lets go of the
        layouts made ahead)."""
        self._rest_timer.stop()
        self._spinning = False
        owed = self._owed_frame
        self._owed_frame = False
        if self._owed_layout:
            self._owed_layout = False
            self._layout_labels()
            self._ahead_for = None
            owed = True
        if owed:
            self.viewport().update()

    def _layout_labels(self, defer: bool = False) -> None:
        """Level of detail: show the labels, symbols and badges this zoom has room for.

        Greedy placement in screen space — symbols and counters first as obstacles, then
        area names by size, then fleet bases, ports and islands (each tried right, left,
        above and below its symbol) — so labels never overlap. Run once per zoom step, for
        the part of the chart in view and around it (a pan beyond that lays it out again),
        or taken from a layout made ahead for this zoom while the chart was idle (see
        _plan_ahead). Plain numbers throughout, and Qt is told only what changes: this
        runs on every wheel step, in Python. A step in the fastest spin of a wheel
        (``defer``) leaves it to the end of the spin (see _zoom_changed).
        """
        scale = self.transform().m11()
        seen = self.mapToScene(self.viewport().rect()).boundingRect()
        if abs(scale - self._layout_scale) < 1e-9 and self._laid_out.contains(seen):
            self._owed_layout = False
            return
        forced = self._layout_scale == -1.0  # what the chart shows changed: lay out anew
        ahead = [
            plan
            for plan in self._layouts_ahead
            if not forced and plan.scale == scale and plan.region.contains(seen)
        ]
        self._owed_layout = defer and not forced and not ahead
        if ahead:
            self._apply_layout(ahead[0])
            return
        if self._owed_layout:
            return  # a step in a spin: laid out at rest (_rest)
        # the view and a quarter of it again on every side: a pan within that needs no new
        # layout (a farther one lays out again, a millisecond or two); names beyond it
        # would only be laid out to be hidden
        w, h = seen.width() / 4, seen.height() / 4
        self._apply_layout(self._plan_layout(scale, seen.adjusted(-w, -h, w, h)))

    def _plan_layout(self, scale: float, laid_out: QRectF) -> _Layout:
        """What the zoom ``scale`` shows in the part ``laid_out`` of the scene, decided
        without showing it (the chart shows what it showed until it is applied)."""
        region = laid_out.intersected(self.sceneRect())
        bases, base_labels, area_labels = self.bases, self.base_labels, self.area_labels
        near_bases = set(self._base_cells.within(region))
        near_areas = set(self._label_cells.within(region))
        ppd = scale * DEG
        grid = _Grid(GRID_CELL)
        claim, add = grid.claim, grid.add
        minor, badges = ppd >= MINOR_BASES_FROM, ppd >= BADGES_FROM
        # symbols and counters are obstacles only to names: none show this far out
        names = ppd >= min(AREA_LABELS_FROM, BASE_LABELS_FROM * 0.7)
        xy = self._base_xy
        if names:
            for base_id in self._base_order:
                if base_id not in near_bases:
                    continue
                symbol = bases[base_id]
                if _shows_symbol(minor, symbol):
                    px, py = xy[base_id]
                    x, y = px * scale, py * scale
                    add(x - 5, y - 5, x + 5, y + 5)
                    marks = symbol.badge_edges_for(badges)
                    if marks is not None:
                        add(x + marks[0], y + marks[1], x + marks[2], y + marks[3])
            compact = ppd < FULL_COUNTERS_FROM
            for counter in self.counters.values():
                if counter.shown:
                    p = counter.pos()
                    add(*_edges(counter.rect_for(compact), p.x() * scale, p.y() * scale))
        #: the names shown, a base's with where it goes beside its symbol
        named: dict[_Label, tuple[float, float] | None] = {}
        if ppd >= AREA_LABELS_FROM:
            label_xy = self._label_xy
            for area_id in self._area_order:
                if area_id not in near_areas:
                    continue
                label = area_labels[area_id]
                px, py = label_xy[area_id]
                left, top = px * scale - label.w / 2, py * scale - label.h / 2
                if claim(left, top, left + label.w, top + label.h):
                    named[label] = None
        for base_id in self._base_order if names else ():
            if base_id not in near_bases:
                continue
            symbol = bases[base_id]
            need = BASE_LABELS_FROM if symbol.kind != "fleet_base" else BASE_LABELS_FROM * 0.7
            if ppd < need or not _shows_symbol(minor, symbol):
                continue
            label = base_labels[base_id]
            px, py = xy[base_id]
            x, y = px * scale, py * scale
            w, h = label.w, label.h
            for dx, dy in ((7, -h / 2), (-7 - w, -h / 2), (-w / 2, -7 - h), (-w / 2, 6)):
                left, top = x + dx, y + dy
                if claim(left, top, left + w, top + h):
                    named[label] = (dx, dy)
                    break
        layout = _Layout(scale, laid_out, near_bases, minor, badges, named, [])
        self._plan_ghosts(layout, grid, ppd >= AREA_LABELS_FROM, region)
        return layout

    def _plan_ghosts(self, layout: _Layout, grid: _Grid, shown: bool, region: QRectF) -> None:
        """The bases and names of the areas repeated past the edges, at screen size, so the
        far side of the seam reads like the chart itself (clicks there pick the original).
        Farther out than area names they are specks; a repeated name never covers a real
        one or another repeat."""
        scale = layout.scale
        drawn = _Grid(GRID_CELL)
        west, north, east, south = _edges(region)
        for index in sorted(self._ghost_cells.within(region)) if shown else ():
            ghost = self._ghosts[index]
            symbol = self.bases.get(ghost.key) if ghost.kind == "base" else None
            label = (self.area_labels if ghost.kind == "area" else self.base_labels).get(ghost.key)
            if label is None or not (west <= ghost.x <= east and north <= ghost.y <= south):
                continue  # out of the region laid out (or a fleet train gone since)
            symbol_shown = symbol is None or (
                _shows_symbol(layout.minor, symbol)
                if ghost.key in layout.near_bases
                else symbol.shown and ghost.key not in self._near_bases  # hidden when applied
            )
            if ghost.mark is not None and symbol is not None and symbol_shown:
                layout.ghosts.append((ghost.mark, None))
            if label in layout.named and symbol_shown:
                place = layout.named[label]
                cx, cy = place if place is not None else (label.cx, label.cy)
                left, top = ghost.x * scale + cx, ghost.y * scale + cy
                edges = (left, top, left + label.w, top + label.h)
                if grid.free(*edges) and drawn.claim(*edges):
                    across, down = _Label.HALO
                    drawing = (cx - across, cy - down, label.drawing(self._ratio))
                    layout.ghosts.append((ghost.name, drawing))

    def _apply_layout(self, layout: _Layout) -> None:
        """Show what a layout decided (Qt told of what changes only); the layouts made
        ahead, and those still to make, are let go (made from what the chart showed
        before)."""
        self._layouts_ahead, self._layouts_to_plan = [], []
        self._layout_scale = layout.scale
        self._laid_out = layout.region
        bases = self.bases
        for base_id in self._near_bases - layout.near_bases:
            if base_id in bases:
                bases[base_id].setVisible(False)
        self._near_bases = layout.near_bases
        minor, badges = layout.minor, layout.badges
        for base_id in layout.near_bases:
            symbol = bases[base_id]
            shown = _shows_symbol(minor, symbol)
            if symbol.shown != shown:
                symbol.setVisible(shown)
            if symbol.badges != badges:
                symbol.set_badges(badges)
        compact = layout.scale * DEG < FULL_COUNTERS_FROM
        for counter in self.counters.values():
            if counter.compact != compact:
                counter.set_look(
                    counter.name, counter.cv, counter.colour, counter.flagged, counter.slot, compact
                )
        named = layout.named
        for label, place in named.items():
            if place is not None:
                label.place(*place)
        for label in self._named - named.keys():
            label.setVisible(False)
        for label in named:
            label.setVisible(True)
        self._named = set(named)
        seen: set[_Shown] = set()
        for mark, drawing in layout.ghosts:
            if drawing is not None:
                mark.show_at(*drawing)
            seen.add(mark)
        for item in self._ghosts_shown - seen:
            item.setVisible(False)
        for item in seen:
            item.setVisible(True)
        self._ghosts_shown = seen

    def _paint_ghost_symbols(self) -> None:
        """The repeated bases in their holders' colours (the same drawings as the bases)."""
        for ghost in self._ghosts:
            symbol = self.bases.get(ghost.key)
            mark = ghost.mark
            if mark is not None and symbol is not None:
                mark.show_drawing(*_symbol_drawing(symbol.kind, symbol.colour, self._ratio))

    # -- picking ------------------------------------------------------------------------------
    def _route_at(self, scene: QPointF) -> str | None:
        scale = self.transform().m11()
        limit = PICK_PX / max(scale, 1e-9)
        best, best_d = None, limit
        for route_id, geo in self._route_geo.items():
            route = self.routes[route_id]
            if not route.box.contains(scene):
                continue
            for line in geo.segments:
                d = _distance_to_segment(scene, line)
                if d <= best_d:
                    best, best_d = route_id, d
        return best

    def _area_at(self, scene: QPointF) -> str | None:
        """The sea area at a scene point, the repeats past the edges included."""
        for index in self._sea_cells.near(scene, 0.0):
            area_id, _ring, poly, bounds = self._sea[index]
            if bounds.contains(scene) and poly.containsPoint(scene, Qt.FillRule.OddEvenFill):
                return area_id
        return None

    def _lookup(self, text: str) -> tuple[str, str] | None:
        want = text.strip().lower()
        if not want or not self.session.is_open:
            return None
        board = self.session.board()
        bases = [(board.place_name_for(b, self._team).lower(), b) for b in board.bases]
        areas = [(a.name.lower(), a.id) for a in self.session.scenario.world.areas.values()]
        for test in (
            lambda name, key: name == want or key == want,
            lambda name, key: name.startswith(want) or key.startswith(want),
            lambda name, key: want in name,
        ):
            for kind, pool in (("base", bases), ("area", areas)):
                for name, key in sorted(pool):
                    if test(name, key) and (kind != "base" or key in self.base_points):
                        return kind, key
        return None

    # -- tooltips ------------------------------------------------------------------------------
    def tooltip(self, kind: str, key: str) -> str:
        """The hover text for an object, built from the model when asked."""
        if not self.session.is_open:
            return ""
        board = self.session.board()
        orders = self.session.all_orders()
        view = self.team_view()
        if view is not None and kind != "area":
            own = {view.nation: orders[view.nation]} if view.nation in orders else {}
            return _team_tooltip(board, view, own, kind, key)
        if kind == "base":
            return _base_tooltip(board, key)
        if kind == "route":
            return _route_tooltip(board, orders, key)
        if kind == "task_force":
            return _task_force_tooltip(board, orders, key)
        if kind == "area":
            area = board.world.areas[key]
            team = self._team
            here = [board.place_name_for(b, team) for b in board.places_in(key)]
            text = f"<b>{escape(area.name)}</b>"
            if here:
                text += "<br>" + escape(", ".join(sorted(here)))
            return text
        return ""

    # -- Qt events -----------------------------------------------------------------------------
    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            hit = self.pick(event.pos())
            text = self.tooltip(*hit) if hit else ""
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom_notches(steps, around=event.position())
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position().toPoint()
        hit = self.pick(self._press) if event.button() == Qt.MouseButton.LeftButton else None
        if hit is not None and hit[0] == "task_force" and not hit[1].startswith(f"{PUBLIC}:"):
            # a task force counter is picked up: dragging it sends it to a sea area
            self._carrying = hit[1]
            self.setDragMode(QGraphicsView.DragMode.NoDrag)
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        carrying, self._carrying = self._carrying, None
        if carrying is not None:
            self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
            self.viewport().unsetCursor()
        press = self._press
        pos = event.position().toPoint()
        if carrying is not None and press is not None and (pos - press).manhattanLength() > 4:
            self._press = None
            area = self._area_at(self.mapToScene(pos))
            if area is not None:
                self.taskForceDropped.emit(carrying, area)
            return
        self._press = None
        if (
            press is None
            or event.button() != Qt.MouseButton.LeftButton
            or (pos - press).manhattanLength() > 4
        ):
            return
        hit = self.pick(pos)
        if hit is None:
            self.set_selection(None, None)
            return
        self.set_selection(*hit)
        self.selected.emit(*hit)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.px_per_degree() < 0.7 * self._fit_ppd():
            self.fit_world()
        self._layout_labels()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        if abs(self.transform().m11() - self._layout_scale) < 1e-9:
            # a pan (a zoom lays out once it is done): nothing to do while the view stays
            # in the laid-out part
            self._layout_labels()

    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        """The sea, its areas, the land, the links between the areas and the routes. The
        first frame of a view draws them; a second frame of the same view draws them once
        into a picture of the whole view, which that and later frames copy until what they
        show changes (a redraw for a selection or a highlight then costs a copy). While
        the chart is idle after a frame, the background of the next wheel notch in and out
        is drawn ahead, a band at a time, for every view a notch from here can show (see
        _plan_ahead): the notch then copies it too, having drawn first what it shows of
        the bands not drawn yet if it came sooner (see _finish). A step of a spin of the
        wheel with nothing to copy shows a preview where that pays (see _zoom_changed and
        _Costs)."""
        # Qt passes a QRectF; the stubs also allow a QRect
        rect = rect if isinstance(rect, QRectF) else QRectF(rect)
        transform = self.viewportTransform()
        if painter.worldTransform() != transform:  # not a frame of the view: draw it
            self._paint_background(painter, rect)
            return
        ratio = _painted_ratio(painter)
        size = self.viewport().size()
        scale = (transform.m11(), transform.m22())
        # the view's scroll: whole pixels of the scene at this zoom
        scroll = QPoint(round(-transform.dx()), round(-transform.dy()))
        self._plan_ahead_after(scale, ratio, scroll, size)
        # the part asked for, widened to whole device pixels (at a fractional pixel ratio
        # whole view pixels would leave a device column at its edge unpainted)
        to_device = QTransform.fromScale(ratio, ratio)
        window = QRect(0, 0, math.ceil(size.width() * ratio), math.ceil(size.height() * ratio))
        pixels = to_device.mapRect(transform.mapRect(rect)).toAlignedRect() & window
        if pixels.isEmpty():
            return
        target = to_device.inverted()[0].mapRect(QRectF(pixels))  # in the view's pixels
        backdrop = self._held(scale, ratio, lambda b: b.source(scroll, pixels) is not None)
        # what a frame of the whole view costs is measured, at the screen's density (see
        # _Costs): not a frame that thins the outlines first (a cost paid once)
        whole = pixels == window
        costs = self._costs
        measured = whole and costs.for_view(size, ratio, self.devicePixelRatioF())
        thinned = self._thinned_for(scale[0])
        started = time.perf_counter()
        preview = backdrop is None and self._spinning and costs.previews_pay(scale[0], ratio)
        if preview and self._preview(painter, transform, ratio, target):
            if measured:
                costs.add_preview(_ms_since(started))
            self._owed_frame = True
            return
        if backdrop is None:  # a background being drawn ahead that holds most of the view
            backdrop = self._finish(scale, ratio, QRect(scroll, size))
        if backdrop is None and preview:
            backdrop = self._picture_to_scale(scroll, size, scale, ratio)
            if measured and thinned:  # the view's share of it, near enough
                region = backdrop.region
                share = size.width() * size.height() / (region.width() * region.height())
                costs.add_fresh(scale[0], _ms_since(started) * share)
        elif backdrop is None:
            view = (transform, size.width(), size.height(), ratio, self._background_version)
            if view != self._background_seen:  # a new view: draw it (no copy made)
                self._background_seen = view
                self._paint_background(painter, rect)
                if measured and thinned:
                    costs.add_fresh(scale[0], _ms_since(started))
                return
            backdrop = _Backdrop(scale, ratio, self._background_version, QRect(scroll, size))
            self._keep(backdrop)
            self._paint_region(backdrop, backdrop.region)
        source = backdrop.source(scroll, pixels)
        assert source is not None  # the view lies in its own picture
        _draw_picture(painter, target, backdrop.picture, QRectF(source), smooth=False)

    def _finish(self, scale: tuple[float, float], ratio: float, view: QRect) -> _Backdrop | None:
        """For a view (its pixels of the scene at this zoom) with nothing whole to copy: a
        background of this zoom being drawn ahead that holds the view with at most
        :data:`FINISH_UP_TO` of it still to draw (a notch that came before the drawing
        ahead was done), that part painted now and the rest left to draw ahead (kept the
        longest from now); None if none does."""

        def holds(backdrop: _Backdrop) -> bool:
            missing = backdrop.missing(view)
            return backdrop.covers(view) and 0 < missing <= FINISH_UP_TO * _pixels(view)

        backdrop = self._held(scale, ratio, holds)
        if backdrop is None:
            return None
        todo: list[QRect] = []
        for band in backdrop.todo:
            part = band & view
            if part.isEmpty():
                todo.append(band)
            else:
                self._paint_region(backdrop, part)
                todo.extend(_around(band, part))
        backdrop.todo = todo
        return backdrop

    def _picture_to_scale(
        self, scroll: QPoint, size: QSize, scale: tuple[float, float], ratio: float
    ) -> _Backdrop:
        """For a step of a spin with nothing close enough to scale: a picture the next
        steps scale, drawn now and kept — the view, or zooming out, as wide as the view a
        notch farther out from anywhere in it (a view kept inside the scene by its edge
        grows a whole notch the other way: a pixel more on every side for the rounding)."""
        w, h = size.width(), size.height()
        grow = 0.0 if self._zoomed_in else WHEEL_STEP - 1.0
        region = QRect(scroll, size).marginsAdded(
            QMargins(*(math.ceil(d * grow) + (grow > 0) for d in (w, h, w, h)))
        )
        backdrop = _Backdrop(scale, ratio, self._background_version, region)
        self._keep(backdrop)
        self._paint_region(backdrop, region)
        return backdrop

    def _preview(
        self, painter: QPainter, transform: QTransform, ratio: float, target: QRectF
    ) -> bool:
        """The part ``target`` of the view (its pixels) painted from the kept background
        of the zoom closest to the view's, within :data:`PREVIEW_RANGE`, that holds it
        all, scaled smoothly (and kept the longest from now); False if none does. Lines
        and coasts come out a little soft, for the moment a spin of the wheel lasts."""
        seen = transform.inverted()[0].mapRect(target)  # in scene units
        best: tuple[float, _Backdrop, QRectF] | None = None
        for backdrop in self._backdrops:
            if backdrop.version != self._background_version or backdrop.ratio != ratio:
                continue
            apart = abs(math.log(transform.m11() / backdrop.scale[0]))
            if apart > math.log(PREVIEW_RANGE) or (best is not None and apart >= best[0]):
                continue
            source = backdrop.holding(seen)
            if source is not None:
                best = (apart, backdrop, source)
        if best is None:
            return False
        _apart, backdrop, source = best
        self._backdrops.remove(backdrop)
        self._backdrops.append(backdrop)
        _draw_picture(painter, target, backdrop.picture, source, smooth=True)
        return True

    def _held(
        self, scale: tuple[float, float], ratio: float, holds: Callable[[_Backdrop], bool]
    ) -> _Backdrop | None:
        """A kept background of this zoom, density and version for which ``holds`` is
        true, kept the longest from now (the least recently used is let go first)."""
        for backdrop in reversed(self._backdrops):
            if (backdrop.scale, backdrop.ratio, backdrop.version) == (
                scale,
                ratio,
                self._background_version,
            ) and holds(backdrop):
                self._backdrops.remove(backdrop)
                self._backdrops.append(backdrop)
                return backdrop
        return None

    def _make_room(self, ratio: float) -> None:
        """Let go of the backgrounds out of date or of another density, and of the least
        recently used, so that one more makes at most :data:`BACKDROPS` pictures held."""
        kept = [
            b for b in self._backdrops if b.version == self._background_version and b.ratio == ratio
        ]
        self._backdrops = kept[-(BACKDROPS - 1) :]

    def _keep(self, backdrop: _Backdrop) -> None:
        """Keep a background for copying (see :meth:`_make_room`)."""
        self._make_room(backdrop.ratio)
        self._backdrops.append(backdrop)

    def _paint_region(self, backdrop: _Backdrop, part: QRect) -> None:
        """Paint ``part`` of a background's region into its picture: what the view draws
        there, the scene taken a pixel past it on every side so its edge pixels are wholly
        painted (not the antialiased edge of a fill ending there)."""
        region = backdrop.region
        drawer = QPainter(backdrop.picture)
        drawer.setRenderHints(self.renderHints())
        if part != region:
            drawer.setClipRect(part.translated(-region.topLeft()))
        sx, sy = backdrop.scale
        drawer.setTransform(QTransform(sx, 0, 0, sy, -region.x(), -region.y()))
        self._paint_background(drawer, _in_scene(QRectF(part.adjusted(-1, -1, 1, 1)), sx, sy))
        drawer.end()

    # -- drawing ahead -------------------------------------------------------------------------
    def _plan_ahead_after(
        self, scale: tuple[float, float], ratio: float, scroll: QPoint, size: QSize
    ) -> None:
        """After a frame of the screen: draw ahead for it once the chart is idle — at once
        after a zoom (a timer runs after the frame), after a pan or a resize only when the
        view has rested a moment (a drag paints many frames)."""
        if ratio != self.devicePixelRatioF():
            return  # a render into another image
        at_zoom = (scale, ratio, self._background_version)
        view = (*at_zoom, scroll.x(), scroll.y(), size.width(), size.height())
        if view == self._ahead_for:
            return
        rested = self._ahead_for is not None and self._ahead_for[:3] == at_zoom
        self._ahead_for = view
        self._ahead, self._layouts_to_plan, self._layouts_ahead = [], [], []
        self._planned = False
        self._ahead_timer.start(PAN_REST_MS if rested else 0)

    def _plan_ahead(self) -> None:
        """The backgrounds the next wheel notch in and out may need, the way the last zoom
        went first: at that zoom, every view the notch can show from here, whatever the
        point under the mouse. Zoomed in, a notch's view lies inside this one; out, inside
        this one grown by the notch on every side; either way moved inside the scene, or
        centred on it when the scene is smaller than the window (Qt's own rules for a
        view). Each picture is at most half as large again as the window. Only at a whole
        pixel ratio (a fractional one puts the views of one zoom between each other's
        device pixels), and not after a wheel's part-notch (a touchpad's, whose zooms a
        whole notch never meets). The names' layouts of those zooms are made ahead too, for
        the same views and a quarter of the window more on every side (as a zoom lays
        out)."""
        ratio = self.devicePixelRatioF()
        if (
            ratio != round(ratio)
            or not self.isVisible()
            or not self._whole_notches
            or self._land_span is None  # no world shown
        ):
            return
        seen = self.mapToScene(self.viewport().rect()).boundingRect()
        scene = self.sceneRect()
        size = self.viewport().size()
        for notch in (1.0, -1.0) if self._zoomed_in else (-1.0, 1.0):
            factor = self._zoom_factor(WHEEL_STEP**notch)
            if factor == 1.0:
                continue
            zoom = QTransform(self.transform()).scale(factor, factor)
            scale = (zoom.m11(), zoom.m22())
            grow = max(1.0 / factor - 1.0, 0.0)
            across = (seen.left(), seen.right()), (scene.left(), scene.right())
            left, right = _reach(*across, grow, scale[0], size.width())
            down = (seen.top(), seen.bottom()), (scene.top(), scene.bottom())
            top, bottom = _reach(*down, grow, scale[1], size.height())
            region = QRect(left, top, right - left, bottom - top)
            w, h = size.width() / 4, size.height() / 4
            laid_out = QRectF(region).adjusted(-w, -h, w, h)
            self._layouts_to_plan.append((scale[0], _in_scene(laid_out, *scale)))
            held = self._held(scale, ratio, partial(_Backdrop.covers, region=region))
            if held is not None:  # drawn already, or in part (and now kept the longest)
                if held.todo:
                    self._ahead.append(held)  # the rest drawn now
                continue
            # bands of about half a window's device pixels at one device pixel a pixel
            # (an eighth of the window at two), so a notch waits for little
            area = region.width() * region.height() * ratio * ratio
            rows = math.ceil(2 * area / (size.width() * size.height()))
            step = math.ceil(region.height() / rows)
            bands = [
                QRect(region.x(), top, region.width(), min(step, region.bottom() + 1 - top))
                for top in range(region.y(), region.bottom() + 1, step)
            ]
            self._ahead.append(_Backdrop(scale, ratio, self._background_version, region, bands))
        # outlines begun for zooms no notch from here shows are let go (in a big world,
        # large half-made tables)
        grids = {outline_grid(b.scale[0] * DEG) for b in self._ahead}
        self._thinning = {g: steps for g, steps in self._thinning.items() if g in grids}

    def _draw_ahead(self) -> None:
        """One piece of drawing ahead: a band of a notch's background, else the layout of
        a notch's names, else a part of a background kept that a notch drew only in part
        (it came sooner: see _finish), else a few names not yet drawn (the timer runs
        again while there is more). A background is kept from its first band (its picture
        made then, the least recently used one let go first); one let go or out of date
        before it is whole is drawn no further."""
        if not self._planned:
            self._planned = True
            self._plan_ahead()
        self._ahead = [backdrop for backdrop in self._ahead if self._drawing_ahead(backdrop)]
        if self._ahead:
            # the first whose outlines are made, else those of the first made, a slice at
            # a time (a notch coming sooner finds the other drawn)
            ready = [b for b in self._ahead if self._thinned_for(b.scale[0])]
            if not ready:
                self._thin_some(self._ahead[0].scale[0])
            else:
                backdrop = ready[0]
                if not backdrop.begun:
                    self._keep(backdrop)
                self._paint_region(backdrop, backdrop.todo.pop(0))
                if not backdrop.todo:
                    self._ahead.remove(backdrop)
            self._ahead_timer.start(0)
        elif self._layouts_to_plan:
            scale, laid_out = self._layouts_to_plan.pop(0)
            self._layouts_ahead.append(self._plan_layout(scale, laid_out))
            self._ahead_timer.start(0)
        elif unfinished := [
            b for b in self._backdrops if b.todo and b.ratio == self.devicePixelRatioF()
        ]:
            self._paint_region(unfinished[-1], unfinished[-1].todo.pop(0))
            self._ahead_timer.start(0)
        elif self._undrawn:
            # a name is drawn the first time it is shown: done here, a zoom that shows
            # new names (the first turns of the wheel in) has none to draw
            for label in self._undrawn[-NAMES_AHEAD:]:
                label.drawing(self._ratio)
            del self._undrawn[-NAMES_AHEAD:]
            self._ahead_timer.start(0)

    def _drawing_ahead(self, backdrop: _Backdrop) -> bool:
        """Whether a background queued to draw ahead is still to be drawn: not whole (a
        notch may have drawn its rest), of what the chart shows, and not let go."""
        return (
            bool(backdrop.todo)
            and backdrop.version == self._background_version
            and (not backdrop.begun or backdrop in self._backdrops)
        )

    def _paint_background(self, painter: QPainter, rect: QRectF) -> None:
        # the part asked for two pixels wider on every side, and its fills not antialiased:
        # every pixel at its edge wholly covered (Qt does not fill the window first: see
        # __init__; an antialiased fill leaves a trace of what was there in the last
        # column of the window at a high density)
        pad = 2.0 / max(painter.worldTransform().m11(), 1e-9)
        rect = rect.adjusted(-pad, -pad, pad, pad)
        antialiased = painter.testRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        chart = self.sceneRect()
        sea = rect.intersected(chart)
        if sea != rect:  # beyond the chart's frame (the strips overlap the sea under it)
            if sea.isEmpty():
                painter.fillRect(rect, FRAME)
            else:
                left, top, right, bottom = _edges(rect)
                if top < sea.top():
                    painter.fillRect(QRectF(left, top, rect.width(), sea.top() - top + pad), FRAME)
                if sea.bottom() < bottom:
                    y = sea.bottom() - pad
                    painter.fillRect(QRectF(left, y, rect.width(), bottom - y), FRAME)
                if left < sea.left():
                    painter.fillRect(
                        QRectF(left, top, sea.left() - left + pad, rect.height()), FRAME
                    )
                if sea.right() < right:
                    x = sea.right() - pad
                    painter.fillRect(QRectF(x, top, right - x, rect.height()), FRAME)
        painter.fillRect(sea, style.SEA)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, antialiased)
        if self._land_span is None and not self._sea:
            return
        painter.save()
        painter.setClipRect(chart, Qt.ClipOperation.IntersectClip)
        # fills need no antialiasing: the antialiased borders and coast cover their edges
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(Qt.PenStyle.NoPen)
        # thinned for the zoom painted (a picture drawn ahead is at another than the view's)
        grid = outline_grid(painter.worldTransform().m11() * DEG)
        tints, borders = self._sea_outlines(grid)
        for bounds, tint, path in tints:
            if bounds.intersects(rect):
                painter.fillPath(path, tint)
        if self._range:
            for area_id, _ring, poly, bounds in self._sea:
                if area_id in self._range and bounds.intersects(rect):
                    painter.setBrush(self.area_fill(area_id))
                    painter.drawPolygon(poly)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        # a shared border is stroked once (see _add_outline), a pixel wide: the look of
        # the 0.8 px line drawn twice it used to be
        border = _cosmetic(style.SEA_AREA_BORDER, 1.0)
        for bounds, lines in borders:
            if bounds.intersects(rect):
                painter.strokePath(lines, border)
        # the fill needs no antialiasing: the antialiased coastline covers its edge
        shown = [tile for tile in self._land_at_zoom(grid) if tile[0].intersects(rect)]
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        for _bounds, fill, _coast in shown:
            painter.fillPath(fill, style.LAND)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        coast_pen = _cosmetic(style.COAST, 0.7)
        for _bounds, _fill, coast in shown:
            painter.strokePath(coast, coast_pen)
        # the links between the areas, then the routes (the selected one is an item over)
        for layer in (self._adjacency, self._route_layer):
            if layer is not None and layer.shown:
                layer.draw(painter, rect)
        painter.restore()

    def _thinned_for(self, scale: float) -> bool:
        """Whether the outlines a zoom draws (``scale``: pixels a scene unit) are made:
        drawn ahead (see _thin_some), or the first frame at a zoom of a new outline grid
        makes them first."""
        grid = outline_grid(scale * DEG)
        return grid in self._outlines and grid in self._lands

    def _thin_some(self, scale: float) -> None:
        """Go on making the outlines a zoom draws, for :data:`THIN_AHEAD_MS` (what a notch
        coming sooner waits for): thinning them for a new outline grid takes tens of
        milliseconds in the 1942 world, most of a second in a big one."""
        grid = outline_grid(scale * DEG)
        steps = self._thinning.get(grid)
        if steps is None:
            steps = self._thinning[grid] = self._outline_steps(grid)
        end = time.perf_counter() + THIN_AHEAD_MS / 1000.0
        for _ in steps:
            if time.perf_counter() > end:
                return
        del self._thinning[grid]  # made

    def _land_at_zoom(self, grid: float) -> list[Tile]:
        """The land for this zoom: rings thinned to ``grid`` degrees (at most a pixel)
        when far out. Made ahead (see _thin_some) or the first time it is drawn."""
        if grid not in self._lands and self._land_span is not None:
            self._outlines_made(grid)
        return self._lands.get(grid) or []

    def _land_steps(self, grid: float) -> Steps[list[Tile]]:
        assert self._land_span is not None  # (a world is shown)
        west, east = self._land_span
        rings = self._land_source if self._land_source is not None else land_rings()
        if grid:
            thinned = []
            for ring in rings:
                thinned.append(thin_coast(ring, grid / 2))
                yield
            rings = thinned
        # far out, where the whole of the land shows, a few big paths fill faster
        return (yield from land_tiles_steps(rings, west, east, cut=not grid))


T = TypeVar("T")
#: bucket size (scene units) for finding bases and areas near a point
CELL = 10.0 * DEG


class _Cells(Generic[T]):
    """Things by the scene cells their bounds touch, so a click looks at a few, not all."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[T]] = {}
        #: the cells filled, (first column, last, first row, last), and all they hold
        self._span = (0, -1, 0, -1)
        self._all: list[T] | None = None

    def add(self, thing: T, bounds: QRectF) -> None:
        c = self.cell
        i0, i1 = math.floor(bounds.left() / c), math.floor(bounds.right() / c)
        j0, j1 = math.floor(bounds.top() / c), math.floor(bounds.bottom() / c)
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                self.cells.setdefault((i, j), []).append(thing)
        span = self._span if self._span[0] <= self._span[1] else (i0, i1, j0, j1)
        self._span = (min(span[0], i0), max(span[1], i1), min(span[2], j0), max(span[3], j1))
        self._all = None

    def within(self, rect: QRectF) -> list[T]:
        """Everything in the cells ``rect`` touches (a few beyond it too)."""
        c = self.cell
        i0, i1 = math.floor(rect.left() / c), math.floor(rect.right() / c)
        j0, j1 = math.floor(rect.top() / c), math.floor(rect.bottom() / c)
        first, last, top, bottom = self._span
        if i0 <= first and last <= i1 and j0 <= top and bottom <= j1:  # all of them
            if self._all is None:
                self._all = [thing for things in self.cells.values() for thing in things]
            return list(self._all)
        out: list[T] = []
        if (i1 - i0 + 1) * (j1 - j0 + 1) > len(self.cells):  # a far zoom: walk the filled cells
            for (i, j), things in self.cells.items():
                if i0 <= i <= i1 and j0 <= j <= j1:
                    out.extend(things)
            return out
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                out.extend(self.cells.get((i, j), ()))
        return out

    def near(self, point: QPointF, reach: float) -> list[T]:
        c = self.cell
        out: list[T] = []
        seen: set[T] = set()
        for i in range(
            math.floor((point.x() - reach) / c), math.floor((point.x() + reach) / c) + 1
        ):
            for j in range(
                math.floor((point.y() - reach) / c), math.floor((point.y() + reach) / c) + 1
            ):
                for thing in self.cells.get((i, j), ()):
                    if thing not in seen:
                        seen.add(thing)
                        out.append(thing)
        return out


def _shows_symbol(minor: bool, symbol: _BaseSymbol) -> bool:
    """Whether a zoom shows a base's symbol: a fleet base's always, a port's or an
    island's only from :data:`MINOR_BASES_FROM` (``minor``)."""
    return minor or symbol.kind == "fleet_base"


@dataclass
class _Layout:
    """What a zoom shows, decided for a part of the scene (SeaChart._plan_layout) and
    applied at once (SeaChart._apply_layout)."""

    scale: float
    region: QRectF  # laid out (scene units): a pan within it keeps the layout
    near_bases: set[str]  # the bases in it (their symbols shown or not by the zoom)
    minor: bool  # ports and islands shown
    badges: bool  # Air Point and garrison badges shown
    #: the names shown, a base's with where it goes beside its symbol (pixels)
    named: dict[_Label, tuple[float, float] | None]
    #: the repeats past the edges shown: a symbol, or a name with its drawing and place
    ghosts: list[tuple[_Shown, tuple[float, float, QPixmap] | None]]


@dataclass
class _Ghost:
    """A base or area name repeated past the chart's edge, at scene point (x, y)."""

    kind: str  # "base" or "area"
    key: str
    x: float
    y: float
    mark: _Shown | None  # the base's symbol repeated (None for an area)
    name: _Shown


def _ghost_item(layer: _MarkLayer, at: QPointF, z: float) -> _Shown:
    """A repeat of a mark past the chart's edge: drawn only, never picked."""
    item = _Shown()
    item.setVisible(False)
    layer.add(item, at, z)
    return item


def _edges(rect: QRectF, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of ``rect`` moved by (dx, dy)."""
    left, top = rect.left() + dx, rect.top() + dy
    return left, top, left + rect.width(), top + rect.height()


#: a grid cell's key: its column times this plus its row (rows stay far below it)
_ROW = 1 << 24


class _Grid:
    """Rectangles in screen space, (left, top, right, bottom), bucketed so overlap tests
    stay cheap (plain numbers: the layout makes hundreds of tests a zoom step, most of
    them for a box within one cell, which has a path of its own)."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.cells: dict[int, list[tuple[float, float, float, float]]] = {}

    def _keys(self, left: float, top: float, right: float, bottom: float) -> list[int]:
        c = self.cell
        j0, j1 = int(top // c), int(bottom // c) + 1
        return [
            i * _ROW + j for i in range(int(left // c), int(right // c) + 1) for j in range(j0, j1)
        ]

    def free(self, left: float, top: float, right: float, bottom: float) -> bool:
        cells = self.cells
        for key in self._keys(left, top, right, bottom):
            for ol, ot, orr, ob in cells.get(key, ()):
                if left < orr and ol < right and top < ob and ot < bottom:
                    return False
        return True

    def add(self, left: float, top: float, right: float, bottom: float) -> None:
        c = self.cell
        cells = self.cells
        box = (left, top, right, bottom)
        i, j = int(left // c), int(top // c)
        if i == int(right // c) and j == int(bottom // c):
            key = i * _ROW + j
            found = cells.get(key)
            if found is None:
                cells[key] = [box]
            else:
                found.append(box)
            return
        self._put(self._keys(left, top, right, bottom), box)

    def _put(self, keys: list[int], box: tuple[float, float, float, float]) -> None:
        cells = self.cells
        for key in keys:
            found = cells.get(key)
            if found is None:
                cells[key] = [box]
            else:
                found.append(box)

    def claim(self, left: float, top: float, right: float, bottom: float) -> bool:
        """Add the rectangle if it overlaps none already there; True if it was added."""
        c = self.cell
        cells = self.cells
        i, j = int(left // c), int(top // c)
        if i == int(right // c) and j == int(bottom // c):
            key = i * _ROW + j
            found = cells.get(key)
            if found is None:
                cells[key] = [(left, top, right, bottom)]
                return True
            for ol, ot, orr, ob in found:
                if left < orr and ol < right and top < ob and ot < bottom:
                    return False
            found.append((left, top, right, bottom))
            return True
        keys = self._keys(left, top, right, bottom)
        for key in keys:
            for ol, ot, orr, ob in cells.get(key, ()):
                if left < orr and ol < right and top < ob and ot < bottom:
                    return False
        self._put(keys, (left, top, right, bottom))
        return True


def _add_outline(
    path: QPainterPath,
    ring: Sequence[tuple[float, float]],
    drawn: set[tuple[tuple[int, int], tuple[int, int]]],
) -> None:
    """The ring's edges (lon, lat) not in ``drawn`` yet added to ``path`` (and to
    ``drawn``): a border two areas share is stroked once, not twice. Points are matched
    (and drawn) to a thousandth of a scene unit."""
    points = [(round(lon * DEG * 1000.0), round(-lat * DEG * 1000.0)) for lon, lat in ring]
    drawing = False
    for a, b in itertools.pairwise([*points, points[0]]):
        edge = (a, b) if a <= b else (b, a)
        if edge in drawn or a == b:
            drawing = False
            continue
        drawn.add(edge)
        if not drawing:
            path.moveTo(a[0] / 1000.0, a[1] / 1000.0)
            drawing = True
        path.lineTo(b[0] / 1000.0, b[1] / 1000.0)


def _notch(scale: float) -> int:
    """The wheel notch nearest a zoom (``scale``: pixels a scene unit)."""
    return round(math.log(scale) / math.log(WHEEL_STEP))


class _Costs:
    """What a whole view of the chart has lately cost (ms) drawn afresh, by the zoom's
    nearest wheel notch, and shown as a preview: measured as the chart draws them, for one
    window size at the screen's density (forgotten when either changes, and with the
    world). A step of a spin shows a preview where a view drawn afresh has cost more than
    :data:`PREVIEW_PAYS` times a preview (see SeaChart._zoom_changed)."""

    def __init__(self) -> None:
        self.fresh: dict[int, float] = {}
        self.preview = 0.0
        self._view: tuple[int, int, float] | None = None  # width, height, density

    def for_view(self, size: QSize, ratio: float, screen: float) -> bool:
        """Whether a frame of a view of ``size`` painted at ``ratio`` device pixels a
        pixel is measured: only at the screen's density ``screen`` (not a render into an
        image of another). Costs of another size or density are forgotten."""
        if ratio != screen:
            return False
        view = (size.width(), size.height(), ratio)
        if view != self._view:
            self._view, self.fresh, self.preview = view, {}, 0.0
        return True

    def add_fresh(self, scale: float, ms: float) -> None:
        key = _notch(scale)
        self.fresh[key] = _averaged(self.fresh.get(key, 0.0), ms)

    def add_preview(self, ms: float) -> None:
        self.preview = _averaged(self.preview, ms)

    def previews_pay(self, scale: float, ratio: float) -> bool:
        """Whether a step of a spin at this zoom, painted at ``ratio``, shows a preview:
        where a view drawn afresh at about this zoom has lately cost more than
        :data:`PREVIEW_PAYS` times a preview (the whole of a big world: tens of thousands of
        outlines), not where it costs less (the 1942 world at 1920×1080: a frame drawn
        afresh costs about what scaling the window's pixels does) nor where it was not
        measured yet (nor a notch or two away: see fresh_at). A preview costs about the
        same at every zoom (the window's pixels scaled): before one is measured, a spin
        tries one. Only at the measured density, and a whole one (a fractional one puts
        the views of one zoom between each other's device pixels, as nothing is drawn
        ahead there)."""
        if self._view is None or ratio != self._view[2] or ratio != round(ratio):
            return False
        return self.fresh_at(scale) > PREVIEW_PAYS * self.preview

    def fresh_at(self, scale: float) -> float:
        """What a view drawn afresh has lately cost at the notch nearest this zoom, or at
        the nearest notch measured, one or two away (the cost changes little from one
        notch to the next, and a spin in or out meets a new notch at every step); 0.0 if
        none is measured that close."""
        key = _notch(scale)
        for near in (key, key - 1, key + 1, key - 2, key + 2):
            if near in self.fresh:
                return self.fresh[near]
        return 0.0


def _draw_picture(
    painter: QPainter, target: QRectF, picture: QPixmap, source: QRectF, smooth: bool
) -> None:
    """Part ``source`` of a picture (its device pixels) painted over ``target`` of the
    view (its pixels): copied as it is (no smoothing, no antialiased edge), or scaled
    smoothly (a preview: over the sea's colour, as Qt leaves a trace of what was there
    at the edges of a picture scaled smoothly, and the window is not filled first)."""
    painter.save()
    painter.resetTransform()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, smooth)
    if smooth:
        painter.fillRect(target, style.SEA)
    painter.drawPixmap(target, picture, source)
    painter.restore()


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0


def _averaged(mean: float, sample: float) -> float:
    """A running mean of costs, the latest weighing half (the first: itself)."""
    return sample if mean == 0.0 else (mean + sample) / 2.0


def _in_scene(pixels: QRectF, sx: float, sy: float) -> QRectF:
    """A rectangle of pixels of the scene at zoom (``sx``, ``sy``) in scene units."""
    return QTransform.fromScale(1 / sx, 1 / sy).mapRect(pixels)


def _reach(
    seen: tuple[float, float],
    scene: tuple[float, float],
    grow: float,
    scale: float,
    window: int,
) -> tuple[int, int]:
    """Along one axis, the pixels of the scene at zoom ``scale`` that a view ``window``
    pixels long can show after a notch from the view that ``seen`` (from, to: scene units)
    in a ``scene`` (from, to): that view grown by ``grow`` of its length on each side, kept
    inside the scene; or, when the scene is shorter than the window, the window centred
    on the scene. Two pixels more each side for Qt's rounding to a pixel."""
    low, high = seen
    first, last = scene
    if (last - first) * scale <= window:
        middle = (first + last) / 2 * scale
        return math.floor(middle - window / 2) - 2, math.ceil(middle + window / 2) + 2
    extra = (high - low) * grow
    low, high = max(low - extra, first), min(high + extra, last)
    return math.floor(low * scale) - 2, math.ceil(high * scale) + 2


def _area_size(ring: Sequence[tuple[float, float]]) -> float:
    """Rough size of a ring (shoelace, in square degrees) to rank area labels."""
    total = 0.0
    for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=False):
        total += x1 * y2 - x2 * y1
    return abs(total) / 2.0


def _distance_to_segment(p: QPointF, line: QLineF) -> float:
    ax, ay, bx, by = line.x1(), line.y1(), line.x2(), line.y2()
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p.x() - ax) * dx + (p.y() - ay) * dy) / length2))
    )
    return math.hypot(p.x() - (ax + t * dx), p.y() - (ay + t * dy))


def _base_tooltip(board: Board, base: str) -> str:
    row = board.bases[base]
    state = board.state
    lines = [
        f"<b>{escape(str(row['name']))}</b> — {KIND_NAMES.get(str(row['kind']), row['kind'])}",
        f"Held by {escape(board.name_of(board.holder(base)))}",
        f"Sea area: {escape(board.area_name(board.area_of(base)))}",
    ]
    lsp = state.lsp.get(base, {})
    if lsp:
        lines.append("LSP: " + ", ".join(f"{board.name_of(n)} {p}" for n, p in lsp.items()))
    garrisons = state.garrisons.get(base, {})
    if garrisons:
        lines.append(
            "Garrisons: " + ", ".join(f"{board.name_of(n)} {g}" for n, g in garrisons.items())
        )
    air = [a for a in state.air.values() if a.base == base]
    if air:
        lines.append("Air: " + ", ".join(f"{a.points} {a.kind} ({a.nation})" for a in air))
    units = units_at(state, base)
    if units:
        lines.append("In port:")
        for u in units[:12]:
            unit = state.units[u]
            damaged = " (damaged)" if unit.state == "damaged" else ""
            lines.append(f"&nbsp;• {escape(unit.name)} — {type_name(unit.type)}{damaged}")
        if len(units) > 12:
            lines.append(f"&nbsp;… and {len(units) - 12} more")
    return "<br>".join(lines)


def _route_tooltip(board: Board, orders: dict[str, Orders], route_id: str) -> str:
    line = board.route(route_id)
    lines = [
        f"<b>{line.serial}. {escape(line.name)}</b>",
        f"{escape(board.place_name(line.origin))} → {escape(board.place_name(line.destination))}",
        f"Tonnage {line.tonnage} · {line.length.label} ({line.moves} moves) · "
        f"effective lift {line.effective_lift}",
        escape(route_status_words(board, route_id)),
    ]
    escorts = route_escorts(board, orders, route_id)
    attackers = route_attackers(board, orders, route_id)
    if escorts:
        lines.append("Escorts: " + escape("; ".join(escorts)))
    if attackers:
        lines.append("Attackers: " + escape("; ".join(attackers)))
    return "<br>".join(lines)


def _task_force_tooltip(board: Board, orders: dict[str, Orders], key: str) -> str:
    found = find_task_force(orders, key)
    if found is None:
        return ""
    mine, tf = found
    state = board.state
    lines = [
        f"<b>{escape(tf.name)}</b> ({escape(board.name_of(mine.nation))})",
        f"At {escape(board.place_name(tf.base))} · fleet CV {task_force_cv(state, tf)}"
        + (f" · {tf.lsp} LSP" if tf.lsp else ""),
    ]
    op = operation_of(mine, tf.id)
    if op:
        lines.append(f"Operation: {escape(op)} (flag)")
    else:
        lines.append(f"No operation · stance {tf.stance}")
    for u in tf.units:
        unit = state.units.get(u)
        if unit is not None:
            lines.append(
                f"&nbsp;• {escape(unit.name)} — {type_name(unit.type)}, CV {fleet_cv(unit)}"
            )
    return "<br>".join(lines)


def _team_tooltip(board: Board, view: TeamView, own: dict[str, Orders], kind: str, key: str) -> str:
    """The hover text in a team view: what the team's view holds, nothing more."""
    if kind == "task_force":
        if key.startswith(f"{PUBLIC}:"):
            nation, base = key.split(":")[1:3]
            return (
                f"<b>Task force counter</b> ({escape(view.name_of(nation))})<br>"
                f"At {escape(board.place_name_for(base, view.nation))}; its card is not known "
                "to your team"
            )
        return _task_force_tooltip(board, own, key)
    if kind == "route":
        route = view.route(key)
        if route is None:
            return ""
        known = route.tonnage is not None
        lines = [
            f"<b>{route.serial}. {escape(route.name)}</b> ({escape(view.name_of(route.nation))})",
            f"{escape(board.place_name_for(route.origin, view.nation))} → "
            f"{escape(board.place_name_for(route.destination, view.nation))}",
            (f"Tonnage {route.tonnage} · " if known else "Tonnage not known · ")
            + f"{route.length} ({len(route.path) - 1} moves)"
            + (f" · effective lift {route.effective_lift}" if known else ""),
            escape(route_status_words(board, key)),
        ]
        escorts, attackers = route_escorts(board, own, key), route_attackers(board, own, key)
        if escorts:
            lines.append("Your escorts: " + escape("; ".join(escorts)))
        if attackers:
            lines.append("Your attackers: " + escape("; ".join(attackers)))
        return "<br>".join(lines)
    if kind == "base":
        row = board.bases[key]
        name = board.place_name_for(key, view.nation)
        lines = [
            f"<b>{escape(name)}</b> — {KIND_NAMES.get(str(row['kind']), row['kind'])}",
            f"Held by {escape(board.name_of(board.holder(key)))}",
            f"Sea area: {escape(board.area_name(board.area_of(key)))}",
        ]
        if view.lsp_at(key):
            lines.append(f"Your LSP: {view.lsp_at(key)}")
        garrisons = view.known_garrisons_at(key)
        if garrisons:
            lines.append(
                "Garrisons: "
                + ", ".join(f"{escape(view.name_of(g.nation))} {g.garrisons}" for g in garrisons)
            )
        air = view.known_air_at(key)
        if air:
            lines.append(
                "Air: "
                + ", ".join(f"{a.points} {a.kind} ({escape(view.name_of(a.nation))})" for a in air)
            )
        units = view.known_units_at(key)
        if units:
            lines.append("In port (known to your team):")
            for u in units[:12]:
                damaged = " (damaged)" if u.state == "damaged" else ""
                lines.append(f"&nbsp;• {escape(u.name)} — {type_name(u.type)}{damaged}")
            if len(units) > 12:
                lines.append(f"&nbsp;… and {len(units) - 12} more")
        return "<br>".join(lines)
    return ""


__all__ = [
    "DEG",
    "PUBLIC",
    "SEAM",
    "THEATRES",
    "SeaChart",
    "chart_lon",
    "find_task_force",
    "land_paths",
    "land_rings",
    "operation_of",
    "place_ring",
    "route_attackers",
    "route_escorts",
    "route_status_words",
    "task_force_cv",
    "unwrap",
]
