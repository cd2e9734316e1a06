"""Where things are on the sea chart: the projection, the land, and outlines thinned
for the far zooms — plain geometry the chart (:mod:`ui.mapview`) draws from.

Projection: plate carrée, 1 degree = :data:`DEG` scene units, ``y = -lat``. Longitudes are
taken into ``[SEAM, SEAM + 360)`` so the Pacific sits in the middle and only the open
Atlantic meets the edges. Each sea area's ring is unwrapped and moved whole (±360) so no
area is ever cut; land is repeated beyond the edges, so the coast under an area always
matches.
"""

from __future__ import annotations

import itertools
import json
import math
import struct
from collections.abc import Generator, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TypeVar

from PySide6.QtCore import QByteArray, QDataStream, QPointF, QRectF, Qt
from PySide6.QtGui import QPainterPath, QPolygonF

from campaign import paths

#: scene units per degree
DEG = 10.0
#: the western edge of the chart (degrees east); the chart spans [SEAM, SEAM + 360)
SEAM = -30.0

#: named theatres: (west lon, north lat, east lon, south lat) in chart longitudes
#: (longitudes west of the seam are written + 360)
THEATRES: dict[str, tuple[float, float, float, float]] = {
    "Pacific": (100.0, 62.0, 290.0, -52.0),
    "Atlantic": (262.0, 68.0, 372.0, -58.0),
    "Mediterranean": (-8.0, 47.0, 38.0, 29.0),
    "Indian Ocean": (28.0, 30.0, 122.0, -50.0),
    "East Indies": (92.0, 24.0, 160.0, -16.0),
    "North Sea & Arctic": (-28.0, 82.0, 62.0, 48.0),
}

#: level of detail: the grids (degrees) outlines are thinned to when far out, coarsest
#: first; a frame draws the coarsest one whose cell is at most a pixel (see outline_grid)
OUTLINE_GRIDS = (1.6, 1.2, 0.8, 0.4)
#: size of the pieces the area borders are drawn in (scene units)
TILE = 60.0 * DEG

#: a piece of the background: its bounds, fill path and line path
Tile = tuple[QRectF, QPainterPath, QPainterPath]

T = TypeVar("T")
#: work done a step at a time (a step: a ring or two), its result returned at the end: the
#: chart thins the outlines of a zoom ahead this way, a few milliseconds at a time while
#: it is idle (see ui.mapview.SeaChart._draw_ahead)
Steps = Generator[None, None, T]


def drained(steps: Steps[T]) -> T:
    """The result of work done a step at a time, all its steps taken now."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


# -- projection --------------------------------------------------------------------------------
def chart_lon(lon: float) -> float:
    """``lon`` taken into the chart's window [SEAM, SEAM + 360)."""
    return (lon - SEAM) % 360.0 + SEAM


def near_lon(lon: float, target: float) -> float:
    """``lon`` moved by whole turns to lie within 180° of ``target``."""
    return lon + 360.0 * round((target - lon) / 360.0)


def unwrap(ring: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The ring made continuous: no step jumps more than 180° of longitude."""
    out = [(float(ring[0][0]), float(ring[0][1]))]
    prev = out[0][0]
    for lon, lat in ring[1:]:
        lon = near_lon(float(lon), prev)
        out.append((lon, float(lat)))
        prev = lon
    return out


def place_ring(ring: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The ring unwrapped, then moved whole so its middle lies inside the chart window."""
    pts = unwrap(ring)
    lons = [p[0] for p in pts]
    mid = (min(lons) + max(lons)) / 2.0
    shift = chart_lon(mid) - mid
    return [(lon + shift, lat) for lon, lat in pts]


def scene_point(lon: float, lat: float) -> QPointF:
    return QPointF(lon * DEG, -lat * DEG)


#: a stream of little-endian numbers read without error (for :func:`_polygon`)
_LITTLE_ENDIAN, _READ_OK = QDataStream.ByteOrder.LittleEndian, QDataStream.Status.Ok
#: fewer points than this are made one by one (the stream's own cost is that of about ten)
_STREAMED_FROM = 16


def _polygon(points: Iterable[tuple[float, float]]) -> QPolygonF:
    """The scene polygon of (lon, lat) points (:func:`scene_point`'s arithmetic written in:
    tens of thousands of points at start and at a far zoom's first frame).

    Qt reads a long one from the points packed as doubles, the form ``QDataStream``
    writes a polygon in (a count, then x and y of each point, here little-endian): a third
    of the time of a ``QPointF`` made a point. Should the stream not read them all, the
    polygon is made point by point."""
    flat: list[float] = []
    add = flat.append
    for lon, lat in points:
        add(lon * DEG)
        add(-lat * DEG)
    count = len(flat) // 2
    if count >= _STREAMED_FROM:
        polygon = QPolygonF()
        stream = QDataStream(QByteArray(struct.pack(f"<I{len(flat)}d", count, *flat)))
        stream.setByteOrder(_LITTLE_ENDIAN)
        stream >> polygon
        if stream.status() == _READ_OK and polygon.size() == count:
            return polygon
    return QPolygonF([QPointF(x, y) for x, y in zip(flat[::2], flat[1::2], strict=True)])


@lru_cache(maxsize=4)
def land_rings(path: str = "") -> tuple[tuple[tuple[float, float], ...], ...]:
    """The coastline rings (lon, lat) of ``resources/map/land.json`` (read once)."""
    file = path or str(paths.resources_dir() / "map" / "land.json")
    with open(file, encoding="utf-8") as fh:
        data = json.load(fh)
    return tuple(tuple((float(p[0]), float(p[1])) for p in ring) for ring in data["rings"])


def _on_antimeridian(lon: float) -> bool:
    return abs(abs(lon) - 180.0) < 1e-6


def _at_pole(lat: float) -> bool:
    """Within a tenth of a degree of the south pole (the benches' synthetic worlds lie
    beyond it, and their land is coast)."""
    return abs(lat + 90.0) <= 0.1


def _artificial(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """A ring edge that is a cut, not a coast: along the antimeridian or the south pole."""
    return (_on_antimeridian(a[0]) and _on_antimeridian(b[0])) or (
        _at_pole(a[1]) and _at_pole(b[1])
    )


def _spans(n: int, cuts: list[int]) -> list[tuple[int, int]]:
    """The pieces of a ring of ``n`` points between its cut points, as (first, last)
    indices into the ring written twice over (so a piece running past the ring's end is
    one slice); a ring with fewer than two cuts is cut in two halves."""
    if len(cuts) < 2:
        first = cuts[0] if cuts else 0
        cuts = [first, first + n // 2]
    return list(zip(cuts, [*cuts[1:], cuts[0] + n], strict=True))


def thin_coast(ring: Sequence[tuple[float, float]], tolerance: float) -> list[tuple[float, float]]:
    """The land ring without the points less than ``tolerance`` degrees from the edge kept
    across them (Douglas–Peucker, for the far zooms: half a pixel or less), the points on a
    cut (the antimeridian, the pole) kept, so a cut stays a cut and a coast stays a coast
    (a piece of coast between two points of one cut keeps a point, or it would be drawn as
    the cut). A ring smaller than the tolerance is kept as it is."""
    fixed = [k for k, (lon, lat) in enumerate(ring) if _on_antimeridian(lon) or _at_pole(lat)]
    twice = [*ring, *ring]
    out: list[tuple[float, float]] = []
    for a, b in _spans(len(ring), fixed):
        piece = twice[a : b + 1]
        kept = _douglas_peucker(piece, tolerance)
        if len(kept) == 2 and len(piece) > 2 and _artificial(piece[0], piece[-1]):
            kept = [0, _farthest(piece, 0, len(piece) - 1)[0], len(piece) - 1]
        out.extend([piece[k] for k in kept[:-1]])
    return out if len(out) >= 3 else list(ring)


def outline_grid(px_per_degree: float) -> float:
    """The coarsest of :data:`OUTLINE_GRIDS` at most a pixel wide at this zoom (0.0: none
    is, draw the outlines as they are)."""
    for grid in OUTLINE_GRIDS:
        if grid * px_per_degree <= 1.0:
            return grid
    return 0.0


def thin_rings(
    rings: Mapping[str, Sequence[tuple[float, float]]], tolerance: float
) -> dict[str, list[tuple[float, float]]]:
    """:func:`thin_rings_steps` all at once."""
    return drained(thin_rings_steps(rings, tolerance))


def thin_rings_steps(
    rings: Mapping[str, Sequence[tuple[float, float]]], tolerance: float
) -> Steps[dict[str, list[tuple[float, float]]]]:
    """Every ring without the points less than ``tolerance`` degrees off the line through
    the points kept around them (Douglas–Peucker), a border two rings share thinned once,
    so it stays shared: each ring is cut at its junctions (points where more than two
    edges meet, a turn of longitude apart or not) and each piece between two of them is
    thinned on its own, the same for both its rings. Rings left with fewer than three
    points (smaller than the tolerance) are left out.

    Points are matched by their position to a millionth of a degree (longitude taken
    round the world), each point's key made once: this runs for a far zoom drawn ahead or
    first drawn. A step is a ring, read or thinned (see :data:`Steps`)."""
    clean: dict[str, tuple[list[tuple[float, float]], list[tuple[int, int]]]] = {}
    neighbours: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for name, ring in rings.items():
        keys = [(round(lon % 360.0 * 1e6), round(lat * 1e6)) for lon, lat in ring]
        kept = [k for k in range(len(keys)) if keys[k] != keys[k - 1]]
        if len(kept) < 3:
            continue
        if len(kept) == len(keys):
            points = list(ring)
        else:
            points = [ring[k] for k in kept]
            keys = [keys[k] for k in kept]
        clean[name] = (points, keys)
        last = len(keys) - 1
        for k, here in enumerate(keys):
            near = neighbours.get(here)
            if near is None:
                near = neighbours[here] = set()
            near.add(keys[k - 1])
            near.add(keys[k + 1] if k < last else keys[0])
        yield
    kept_by_piece: dict[tuple[tuple[int, int], ...], list[int]] = {}
    out = {}
    for name, (points, keys) in clean.items():
        n = len(points)
        cuts = [k for k, here in enumerate(keys) if len(neighbours[here]) != 2]
        points2, keys2 = points + points, keys + keys
        thinned: list[tuple[float, float]] = []
        for a, b in _spans(n, cuts):
            piece = points2[a : b + 1]
            along = tuple(keys2[a : b + 1])
            kept_here = kept_by_piece.get(along)
            if kept_here is None:
                back = kept_by_piece.get(along[::-1])
                if back is not None:
                    kept_here = [len(piece) - 1 - k for k in reversed(back)]
                else:
                    kept_here = kept_by_piece[along] = _douglas_peucker(piece, tolerance)
            thinned.extend([piece[k] for k in kept_here[:-1]])
        if len(thinned) >= 3:
            out[name] = thinned
        yield
    return out


def _douglas_peucker(line: Sequence[tuple[float, float]], tolerance: float) -> list[int]:
    """The indices of the points of ``line`` Douglas–Peucker keeps (both ends always): no
    point dropped lies more than ``tolerance`` from the kept edge across it."""
    keep = {0, len(line) - 1}
    stack = [(0, len(line) - 1)]
    while stack:
        first, last = stack.pop()
        far, off = _farthest(line, first, last)
        if far >= 0 and off > tolerance:
            keep.add(far)
            stack.extend(((first, far), (far, last)))
    return sorted(keep)


def _farthest(line: Sequence[tuple[float, float]], first: int, last: int) -> tuple[int, float]:
    """The point strictly between ``first`` and ``last`` farthest from the segment joining
    them (not the line through them: a point beyond an end is measured to that end), and
    its distance; (-1, 0.0) when there is none."""
    (x0, y0), (x1, y1) = line[first], line[last]
    dx, dy = x1 - x0, y1 - y0
    squared = dx * dx + dy * dy
    far, worst = -1, -1.0
    for k in range(first + 1, last):
        x, y = line[k]
        ex, ey = x - x0, y - y0
        t = (ex * dx + ey * dy) / squared if squared > 0 else 0.0
        if t >= 1.0:
            ex, ey = x - x1, y - y1
        elif t > 0.0:
            ex, ey = ex - t * dx, ey - t * dy
        off = ex * ex + ey * ey
        if off > worst:
            worst, far = off, k
    return far, (math.sqrt(worst) if far >= 0 else 0.0)


def land_tiles_steps(
    rings: Sequence[Sequence[tuple[float, float]]], west: float, east: float, cut: bool = True
) -> Steps[list[Tile]]:
    """:func:`land_paths` in pieces, so a frame walks only the land it shows (``cut``:
    in pieces of the :data:`TILE` grid too, see :func:`_cut`).

    A ring goes with the biggest ring whose box holds its box (a lake with its continent,
    so the odd-even fill still cuts it out); each group is one tile. A step is a ring
    placed in its group, or a group made into paths (see :data:`Steps`).
    """
    boxes = []
    for ring in rings:
        lons = [p[0] for p in ring]
        lats = [p[1] for p in ring]
        boxes.append((min(lons), min(lats), max(lons), max(lats)))
    order = sorted(range(len(rings)), key=lambda i: -(boxes[i][2] - boxes[i][0]))
    group: dict[int, int] = {}
    for i in order:
        x0, y0, x1, y1 = boxes[i]
        owner = i
        for j in order:
            if j == i:
                break
            a0, b0, a1, b1 = boxes[j]
            if a0 <= x0 and b0 <= y0 and x1 <= a1 and y1 <= b1 and group[j] == j:
                owner = j
                break
        group[i] = owner
        yield
    members: dict[int, list[Sequence[tuple[float, float]]]] = {}
    for i, owner in group.items():
        members.setdefault(owner, []).append(rings[i])
    tiles = []
    for grouped in members.values():
        fill, coast = land_paths(grouped, west, east)
        if cut:
            tiles.extend(_cut(fill, coast))
        elif not fill.isEmpty():
            tiles.append((fill.boundingRect().united(coast.boundingRect()), fill, coast))
        yield
    return tiles


def _cut(fill: QPainterPath, coast: QPainterPath) -> list[Tile]:
    """A piece of land cut along the :data:`TILE` grid: the rasterizer walks the whole of
    a path it fills, off screen too, so a frame of part of a continent fills only the
    cells it shows (measured: half the land's cost at a theatre's view, less at the whole
    world). Pieces of fill meet exactly on the grid lines; a coast segment goes with the
    cell it starts in."""
    lines: dict[tuple[int, int], QPainterPath] = {}
    start = None
    for i in range(coast.elementCount()):
        element = coast.elementAt(i)
        if element.isMoveTo():
            start = (element.x, element.y)
            continue
        if start is None:
            continue
        key = (math.floor(start[0] / TILE), math.floor(start[1] / TILE))
        path = lines.get(key)
        if path is None:
            path = lines[key] = QPainterPath()
        if path.isEmpty() or path.currentPosition() != QPointF(*start):
            path.moveTo(*start)
        path.lineTo(element.x, element.y)
        start = (element.x, element.y)
    box = fill.boundingRect()
    cells = {
        (i, j)
        for i in range(math.floor(box.left() / TILE), math.floor(box.right() / TILE) + 1)
        for j in range(math.floor(box.top() / TILE), math.floor(box.bottom() / TILE) + 1)
    }
    tiles = []
    for i, j in sorted(cells | set(lines)):
        clip = QPainterPath()
        clip.addRect(QRectF(i * TILE, j * TILE, TILE, TILE))
        part = fill.intersected(clip) if (i, j) in cells else QPainterPath()
        line = lines.get((i, j), QPainterPath())
        if not part.isEmpty() or not line.isEmpty():
            tiles.append((part.boundingRect().united(line.boundingRect()), part, line))
    return tiles


def land_paths(
    rings: Iterable[Sequence[tuple[float, float]]], west: float, east: float
) -> tuple[QPainterPath, QPainterPath]:
    """(fill, coast) paths of land between chart longitudes ``west`` and ``east``.

    Rings are repeated at ±360° wherever a copy reaches into that span, so Greenland shows
    on both sides of the seam and Africa–Europe beyond the eastern edge. The fill uses the
    odd-even rule so lakes stay holes; the coast leaves out the artificial cuts along the
    antimeridian and the pole, which would otherwise draw lines across Siberia and
    Antarctica.
    """
    fill = QPainterPath()
    fill.setFillRule(Qt.FillRule.OddEvenFill)
    coast = QPainterPath()
    for ring in rings:
        touches_cut = any(_on_antimeridian(p[0]) for p in ring)
        pts = [(float(p[0]), float(p[1])) for p in ring] if touches_cut else unwrap(ring)
        near_pole = any(_at_pole(lat) for _lon, lat in pts)
        lo = min(p[0] for p in pts)
        hi = max(p[0] for p in pts)
        for turn in (-360.0, 0.0, 360.0, 720.0):
            if hi + turn < west or lo + turn > east:
                continue
            moved = [(lon + turn, lat) for lon, lat in pts]
            polygon = _polygon(moved)
            fill.addPolygon(polygon)
            fill.closeSubpath()
            if not touches_cut and not near_pole:  # all of it coast (most rings)
                coast.addPolygon(polygon)
                coast.lineTo(polygon.at(0))
                continue
            closed = [*moved, moved[0]]
            drawing = False
            for a, b in itertools.pairwise(closed):
                if _artificial(a, b):
                    drawing = False
                    continue
                if not drawing:
                    coast.moveTo(scene_point(*a))
                    drawing = True
                coast.lineTo(scene_point(*b))
    return fill, coast
