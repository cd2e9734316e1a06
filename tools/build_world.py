#!/usr/bin/env python3
"""Build the Sea Control world map: sea areas, their adjacency graph and the coastline.

What it does
    1. Reads the Natural Earth 1:110m admin-0 countries shapefile (``naturalearth_lowres``) and
       dissolves all country polygons into one land geometry (shapely).
    2. Rasterises land on a regular 0.25° lon/lat grid (a cell is land if its centre is on land).
       Only latitudes between ``LAT_MIN`` and ``LAT_MAX`` belong to the board, less the
       icebound Arctic coasts of Siberia and North America, Hudson Bay and the Southern Ocean
       south of 50°S except the Drake Passage round Cape Horn (``OFF_BOARD``); polar waters
       are not part of any sea area.
    3. Runs a multi-source flood fill (Dijkstra, distance through water in kilometres, east-west
       steps scaled by cos(latitude), wrapping at 180°) over the sea cells from the seed points
       in ``data/world/sea_area_seeds.csv``. Each seed's region is therefore connected through
       water and never crosses land. Water no seed reaches (Caspian Sea, Great Lakes…) is not a
       sea area.
    4. Traces each region's outline (union of its cells, exterior of the largest part,
       simplified), with continuous longitudes (an area straddling 180° runs past ±180), and
       picks a label point in open water inside it (pole of inaccessibility).
    5. Adjacency: two regions whose sea cells touch along at least ``MIN_SEA_BORDER`` cell
       edges (4-neighbourhood, east-west wrap) are joined by a ``sea`` edge, so that areas
       meeting only at a corner of the grid are not neighbours; every row of
       ``data/world/straits.csv`` adds a named ``strait`` edge (a strait row also names a pair
       the raster already joins).
    6. Checks and prints: area count, graph connectivity, each area's size, the areas wider
       than ``WIDTH_KM`` and the farthest bases at most 4 areas apart, each base's sea area
       against the region of its nearest sea cell, and the length class of every merchant
       route in ``data/scenarios/1942/routes.csv`` against the Annex B chart.

Inputs
    ``data/world/sea_area_seeds.csv`` (id,name,lon,lat), ``data/world/straits.csv`` (a,b,name),
    ``data/scenarios/1942/bases.csv`` and ``routes.csv`` (for the checks only), and the Natural
    Earth shapefile. By default the shapefile is read from the ``geopandas==0.14.4`` wheel
    (``geopandas/datasets/naturalearth_lowres/``), fetched with
    ``pip download --no-deps geopandas==0.14.4`` into a temporary directory. ``--wheel PATH``
    uses an already downloaded wheel, ``--shapefile PATH`` a ``.shp`` file on disk (with its
    ``.shx``/``.dbf`` beside it).

Outputs (byte-identical on every run)
    ``data/world/sea_areas.csv`` (id,name,lon,lat,polygon), ``data/world/adjacency.csv``
    (a,b,kind,name), ``resources/map/land.json`` (simplified coastline rings) and
    ``resources/map/NATURAL_EARTH_LICENSE.txt``.

Licence of the source
    Natural Earth (https://www.naturalearthdata.com) vector data is in the public domain; no
    permission is needed to use, modify or distribute it.

Exit status is non-zero if a seed lies on land, the sea-area graph is disconnected or any
merchant route's length class differs from the Annex B chart.

Usage: ``python tools/build_world.py [--shapefile PATH | --wheel PATH]``
"""

from __future__ import annotations

import argparse
import csv
import heapq
import io
import itertools
import json
import math
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import numpy as np
import shapefile  # pyshp
import shapely
from shapely.geometry import MultiPolygon, Polygon, box, shape
from shapely.ops import polylabel

ROOT = Path(__file__).resolve().parent.parent
SEEDS_CSV = ROOT / "data" / "world" / "sea_area_seeds.csv"
STRAITS_CSV = ROOT / "data" / "world" / "straits.csv"
SEA_AREAS_CSV = ROOT / "data" / "world" / "sea_areas.csv"
ADJACENCY_CSV = ROOT / "data" / "world" / "adjacency.csv"
BASES_CSV = ROOT / "data" / "scenarios" / "1942" / "bases.csv"
ROUTES_CSV = ROOT / "data" / "scenarios" / "1942" / "routes.csv"
LAND_JSON = ROOT / "resources" / "map" / "land.json"
LICENSE_TXT = ROOT / "resources" / "map" / "NATURAL_EARTH_LICENSE.txt"

GEOPANDAS_REQ = "geopandas==0.14.4"
WHEEL_DATASETS = "geopandas/datasets/"
WHEEL_SHAPEFILE = WHEEL_DATASETS + "naturalearth_lowres/naturalearth_lowres"

RES = 0.25  # grid cell size in degrees
LAT_MIN = -58.0  # southern edge of the board (in the Drake Passage; see OFF_BOARD)
LAT_MAX = 80.0  # northern edge of the board
# Icebound waters without naval operations are off the board too: boxes of
# (lon_min, lon_max, lat_min, lat_max).
OFF_BOARD: tuple[tuple[float, float, float, float], ...] = (
    (60.0, 180.0, 66.0, 90.0),  # Arctic Ocean coast of Siberia (east of Novaya Zemlya)
    (-180.0, -45.0, 66.0, 90.0),  # Arctic Ocean coast of North America, Baffin Bay
    (-96.0, -76.0, 50.0, 70.0),  # Hudson Bay and Foxe Basin
    # The Southern Ocean south of 50°S, but for the Drake Passage round Cape Horn
    (-180.0, -80.0, -90.0, -50.0),
    (-54.0, 180.0, -90.0, -50.0),
)
KM_PER_DEG = 111.32  # length of one degree of latitude (and of longitude at the equator)
AREA_SIMPLIFY = 0.5  # degrees (coverage simplification tolerance), sea-area outlines
WRAP_PAD = 60.0  # degrees of longitude repeated beyond ±180 when tracing outlines
LAND_SIMPLIFY = 0.1  # degrees, coastline for drawing
LAND_MIN_AREA = 0.02  # square degrees; smaller land rings are dropped from land.json
# Regions whose water meets along fewer cell edges than this (a corner where three or four
# regions meet on the grid) are not neighbours, unless a row of straits.csv joins them.
MIN_SEA_BORDER = 3
# 002 "Sea Areas": *approximately 1200-1600 kilometres across*; "Naval units can operate up to
# 4 areas from a base". Printed for review (tests/test_world.py holds the board to them).
WIDTH_KM = 2400.0  # an area much wider than the seed's size
REACH_AREAS = 4
REACH_KM = 7000.0  # two bases 4 areas apart should be no farther apart than this

# Annex B "Length of Route" column, by serial.
CHART_CLASS: dict[int, str] = {
    **{s: "Med" for s in (1, 8, 9, 12, 14, 15, 16, 17, 21, 26, 27, 28)},
    **{s: "Long" for s in (2, 3, 4, 5, 6, 7, 10, 24, 25)},
    **{s: "Short" for s in (11, 13, 18, 19, 20, 22, 23)},
}


@dataclass(frozen=True)
class Seed:
    id: str
    name: str
    lon: float
    lat: float


@dataclass(frozen=True)
class Grid:
    """A regular lon/lat grid; row 0 is the northernmost row, column 0 starts at -180°."""

    nrows: int
    ncols: int

    def lon(self, col: int) -> float:
        return -180.0 + (col + 0.5) * RES

    def lat(self, row: int) -> float:
        return LAT_MAX - (row + 0.5) * RES

    def cell(self, lon: float, lat: float) -> tuple[int, int]:
        col = math.floor((lon + 180.0) / RES) % self.ncols
        row = math.floor((LAT_MAX - lat) / RES)
        return min(max(row, 0), self.nrows - 1), col


# --------------------------------------------------------------------------- source data


def fetch_wheel(tmp: Path) -> Path:
    """Download the geopandas wheel (which carries the Natural Earth data) with pip."""
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--dest",
        str(tmp),
        GEOPANDAS_REQ,
    ]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wheels = sorted(tmp.glob("geopandas-*.whl"))
    if not wheels:
        raise SystemExit("pip download did not produce a geopandas wheel")
    return wheels[0]


def read_wheel(wheel: Path) -> tuple[shapefile.Reader, str]:
    """Open the shapefile inside the wheel; also return its Natural Earth version text."""
    with zipfile.ZipFile(wheel) as zf:
        parts = {
            ext: io.BytesIO(zf.read(f"{WHEEL_SHAPEFILE}.{ext}")) for ext in ("shp", "shx", "dbf")
        }
        versions = sorted(
            n for n in zf.namelist() if n.startswith(WHEEL_DATASETS) and n.endswith("VERSION.txt")
        )
        version = "\n".join(f"{n}: {zf.read(n).decode('utf-8').strip()}" for n in versions)
    reader = shapefile.Reader(shp=parts["shp"], shx=parts["shx"], dbf=parts["dbf"])
    return reader, version or "(no VERSION file in the wheel)"


def read_shapefile(path: Path) -> tuple[shapefile.Reader, str]:
    """Open a shapefile on disk; look for a Natural Earth VERSION file next to it."""
    versions = sorted(path.parent.glob("*VERSION.txt"))
    version = "\n".join(f"{v.name}: {v.read_text('utf-8').strip()}" for v in versions)
    return shapefile.Reader(str(path)), version or "(no VERSION file beside the shapefile)"


def dissolve_land(reader: shapefile.Reader) -> MultiPolygon:
    """Union of every country polygon."""
    polys = [shape(s.__geo_interface__).buffer(0) for s in reader.shapes()]
    land = shapely.union_all(polys)
    if isinstance(land, Polygon):
        land = MultiPolygon([land])
    return land


# --------------------------------------------------------------------------- input tables


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def read_seeds() -> list[Seed]:
    seeds = [
        Seed(r["id"], r["name"], float(r["lon"]), float(r["lat"])) for r in read_csv(SEEDS_CSV)
    ]
    ids = [s.id for s in seeds]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise SystemExit(f"duplicate sea area ids: {dupes}")
    return seeds


def read_straits(ids: set[str]) -> list[tuple[str, str, str]]:
    rows = []
    for r in read_csv(STRAITS_CSV):
        a, b = sorted((r["a"], r["b"]))
        for x in (a, b):
            if x not in ids:
                raise SystemExit(f"straits.csv: unknown sea area {x!r}")
        rows.append((a, b, r["name"]))
    return rows


# --------------------------------------------------------------------------- raster work


def rasterise(land: MultiPolygon) -> tuple[Grid, np.ndarray]:
    """Boolean sea mask over the board (True = sea)."""
    grid = Grid(nrows=round((LAT_MAX - LAT_MIN) / RES), ncols=round(360 / RES))
    lons = -180.0 + (np.arange(grid.ncols) + 0.5) * RES
    lats = LAT_MAX - (np.arange(grid.nrows) + 0.5) * RES
    xx, yy = np.meshgrid(lons, lats)
    shapely.prepare(land)
    off = np.zeros(xx.shape, dtype=bool)
    for lon_min, lon_max, lat_min, lat_max in OFF_BOARD:
        off |= (xx > lon_min) & (xx < lon_max) & (yy > lat_min) & (yy < lat_max)
    return grid, ~shapely.contains_xy(land, xx, yy) & ~off


def flood_fill(grid: Grid, sea: np.ndarray, seeds: list[Seed]) -> np.ndarray:
    """Multi-source Dijkstra over sea cells; returns the region index per cell (-1: none)."""
    ns_cost = RES * KM_PER_DEG
    ew_cost = [RES * KM_PER_DEG * math.cos(math.radians(grid.lat(r))) for r in range(grid.nrows)]
    nrows, ncols = grid.nrows, grid.ncols
    flat_sea = sea.ravel().tolist()
    dist = [math.inf] * (nrows * ncols)
    region = [-1] * (nrows * ncols)
    heap: list[tuple[float, int, int]] = []
    for k, s in enumerate(seeds):
        row, col = grid.cell(s.lon, s.lat)
        idx = row * ncols + col
        if not flat_sea[idx]:
            raise SystemExit(f"seed {s.id} ({s.lon}, {s.lat}) is not on a sea cell")
        if region[idx] != -1:
            raise SystemExit(f"seed {s.id} shares a cell with {seeds[region[idx]].id}")
        dist[idx] = 0.0
        region[idx] = k
        heapq.heappush(heap, (0.0, k, idx))
    done = [False] * (nrows * ncols)
    while heap:
        d, k, idx = heapq.heappop(heap)
        if done[idx] or region[idx] != k or d > dist[idx]:
            continue
        done[idx] = True
        row, col = divmod(idx, ncols)
        ew = ew_cost[row]
        nbrs = [(row * ncols + (col - 1) % ncols, ew), (row * ncols + (col + 1) % ncols, ew)]
        if row > 0:
            nbrs.append((idx - ncols, ns_cost))
        if row < nrows - 1:
            nbrs.append((idx + ncols, ns_cost))
        for j, step in nbrs:
            if not flat_sea[j] or done[j]:
                continue
            nd = d + step
            if nd < dist[j] or (nd == dist[j] and k < region[j]):
                dist[j] = nd
                region[j] = k
                heapq.heappush(heap, (nd, k, j))
    return np.array(region, dtype=np.int32).reshape(nrows, ncols)


def region_parts(grid: Grid, regions: np.ndarray) -> list[tuple[int, Polygon]]:
    """Every region's cells as polygons on the grid padded east and west by ``WRAP_PAD``.

    The padding repeats the other side of the 180° seam, so each area straddling the date line
    appears whole, with continuous longitudes, around its seed (plus partial copies near the
    padded edges, which only serve to keep the coverage complete). Returns (region, polygon)
    for every connected part, in a deterministic order.
    """
    pad = round(WRAP_PAD / RES)
    ext = np.concatenate([regions[:, -pad:], regions, regions[:, :pad]], axis=1)
    runs: dict[int, list[Polygon]] = {}
    for row in range(grid.nrows):
        labels = ext[row]
        north = LAT_MAX - row * RES
        edges = np.flatnonzero(np.diff(labels)) + 1
        starts = np.concatenate([[0], edges])
        stops = np.concatenate([edges, [labels.size]])
        for a, b in zip(starts.tolist(), stops.tolist(), strict=True):
            k = int(labels[a])
            if k >= 0:
                west = -180.0 + (a - pad) * RES
                east = -180.0 + (b - pad) * RES
                runs.setdefault(k, []).append(box(west, north - RES, east, north))
    parts: list[tuple[int, Polygon]] = []
    for k in sorted(runs):
        geom = shapely.union_all(runs[k])
        polys = list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom]
        parts += [(k, g) for g in sorted(polys, key=lambda g: g.bounds)]
    return parts


def simplified_outlines(
    grid: Grid, regions: np.ndarray, seeds: list[Seed]
) -> list[tuple[Polygon, list[tuple[float, float]]]]:
    """Per area: its unsimplified polygon and its simplified outline ring.

    The region polygons form a coverage (they tile the sea without overlaps), simplified as a
    whole (``shapely.coverage_simplify``) so that neighbouring areas keep one common border.
    Vertices are first placed at every grid corner along each edge so that shared edges have
    identical vertices, as the coverage algorithm requires.
    """
    parts = region_parts(grid, regions)
    dense = shapely.segmentize(np.array([g for _, g in parts], dtype=object), RES)
    dense = shapely.set_precision(dense, RES)  # exact lattice coordinates, no float noise
    if not shapely.coverage_is_valid(dense):
        raise SystemExit("internal error: the region polygons do not form a valid coverage")
    simple = shapely.coverage_simplify(dense, AREA_SIMPLIFY)
    result = []
    for k, s in enumerate(seeds):
        row, col = grid.cell(s.lon, s.lat)
        here = shapely.points(grid.lon(col), grid.lat(row))
        found = [i for i, (kk, g) in enumerate(parts) if kk == k and g.contains(here)]
        if len(found) != 1:
            raise SystemExit(f"{s.id}: seed not inside exactly one part of its region")
        i = found[0]
        poly = parts[i][1]
        if abs(poly.area - float((regions == k).sum()) * RES * RES) > 1e-6:
            raise SystemExit(f"{s.id}: region is not connected or wraps beyond WRAP_PAD")
        geom = simple[i]
        if isinstance(geom, MultiPolygon):
            geom = max(geom.geoms, key=lambda g: (g.area, g.bounds))
        ring = shapely.geometry.polygon.orient(Polygon(geom.exterior), 1.0)
        result.append((poly, list(ring.exterior.coords)[:-1]))
    return result


def cell_area_km2(grid: Grid) -> np.ndarray:
    lats = LAT_MAX - (np.arange(grid.nrows) + 0.5) * RES
    return (RES * KM_PER_DEG) ** 2 * np.cos(np.radians(lats))


def adjacency_counts(regions: np.ndarray) -> dict[tuple[int, int], int]:
    """Number of shared cell edges for every pair of touching regions."""
    pairs = [
        (regions[:, :-1], regions[:, 1:]),
        (regions[:, -1:], regions[:, :1]),  # east-west wrap
        (regions[:-1, :], regions[1:, :]),
    ]
    counts: dict[tuple[int, int], int] = {}
    for a, b in pairs:
        mask = (a >= 0) & (b >= 0) & (a != b)
        lo = np.minimum(a[mask], b[mask])
        hi = np.maximum(a[mask], b[mask])
        keys, n = np.unique(lo.astype(np.int64) * 100000 + hi, return_counts=True)
        for key, c in zip(keys.tolist(), n.tolist(), strict=True):
            pair = (key // 100000, key % 100000)
            counts[pair] = counts.get(pair, 0) + c
    return counts


def nearest_region(grid: Grid, regions: np.ndarray, lon: float, lat: float) -> tuple[int, float]:
    """Region of the sea cell nearest to a point (great-circle distance), and that distance."""
    row0, col0 = grid.cell(lon, lat)
    span = round(4.0 / RES)
    best = (math.inf, -1)
    for row in range(max(row0 - span, 0), min(row0 + span + 1, grid.nrows)):
        for dc in range(-span, span + 1):
            col = (col0 + dc) % grid.ncols
            k = int(regions[row, col])
            if k < 0:
                continue
            d = great_circle_km(lon, lat, grid.lon(col), grid.lat(row))
            best = min(best, (d, k))
    return best[1], best[0]


def great_circle_km(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    c = math.sin(p1) * math.sin(p2) + math.cos(p1) * math.cos(p2) * math.cos(dl)
    return 6371.0 * math.acos(max(-1.0, min(1.0, c)))


# --------------------------------------------------------------------------- writing


def fmt(v: float) -> str:
    """Coordinate with at most 2 decimals, trailing zeros dropped ("12.5", "-7", "0")."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(header)
    writer.writerows(rows)
    path.write_bytes(buf.getvalue().encode("utf-8"))


def land_rings(land: MultiPolygon) -> list[list[list[float]]]:
    """Simplified coastline rings (exteriors and lake holes), rounded to 2 decimals."""
    rings: list[list[list[float]]] = []
    for poly in land.geoms:
        simple = poly.simplify(LAND_SIMPLIFY, preserve_topology=True)
        for ring in [simple.exterior, *simple.interiors]:
            if Polygon(ring).area < LAND_MIN_AREA:
                continue
            pts: list[list[float]] = []
            for x, y in ring.coords:
                p = [round(x, 2) + 0.0, round(y, 2) + 0.0]
                if not pts or p != pts[-1]:
                    pts.append(p)
            if len(pts) >= 4:
                rings.append(pts)
    return rings


def write_land(land: MultiPolygon, version: str) -> None:
    LAND_JSON.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "source": "Natural Earth 1:110m Admin 0 - Countries (naturalearth_lowres, as shipped in "
        "geopandas 0.14.4), all countries dissolved into land; simplified to "
        f"{LAND_SIMPLIFY} degrees. Rings are outer coastlines and inner lake holes: "
        "draw with the odd-even fill rule.",
        "licence": "Public domain (Natural Earth, https://www.naturalearthdata.com). "
        "See NATURAL_EARTH_LICENSE.txt.",
        "rings": land_rings(land),
    }
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
    LAND_JSON.write_bytes(text.encode("utf-8"))
    LICENSE_TXT.write_bytes(
        (
            "Map data: Natural Earth (https://www.naturalearthdata.com)\n"
            "\n"
            "resources/map/land.json and the sea-area outlines in data/world/sea_areas.csv are\n"
            "derived from the Natural Earth 1:110m Admin 0 - Countries dataset, as carried in the\n"
            "geopandas 0.14.4 wheel (geopandas/datasets/naturalearth_lowres).\n"
            "\n"
            "Natural Earth vector and raster map data is in the public domain. No permission is\n"
            'needed to use it; crediting the authors is optional ("Made with Natural Earth.").\n'
            "Terms of use: https://www.naturalearthdata.com/about/terms-of-use/\n"
            "\n"
            "Natural Earth version (VERSION file(s) of the geopandas datasets folder; the\n"
            "naturalearth_lowres folder carries none of its own, and both datasets are produced\n"
            "by the same geopandas script from the same Natural Earth release):\n"
            f"{version}\n"
        ).encode()
    )


# --------------------------------------------------------------------------- checks


def route_class(moves: int) -> str:
    return "Short" if moves == 0 else ("Med" if moves <= 6 else "Long")


def check_bases(grid: Grid, regions: np.ndarray, seeds: list[Seed]) -> dict[str, str]:
    """Print bases whose sea area differs from their nearest sea cell's; return id -> area."""
    ids = {s.id for s in seeds}
    if not BASES_CSV.exists():
        print("bases: bases.csv not found, check skipped")
        return {}
    bases = read_csv(BASES_CSV)
    mismatches = 0
    for b in bases:
        if b["sea_area"] not in ids:
            raise SystemExit(f"bases.csv: {b['id']} has unknown sea area {b['sea_area']!r}")
        k, d = nearest_region(grid, regions, float(b["lon"]), float(b["lat"]))
        near = seeds[k].id if k >= 0 else "(none)"
        if near != b["sea_area"]:
            mismatches += 1
            print(
                f"  base {b['id']:<18} assigned {b['sea_area']:<24} nearest sea cell "
                f"({d:.0f} km) in {near}"
            )
    print(f"bases: {len(bases)} places, {mismatches} differ from their nearest sea cell")
    return {b["id"]: b["sea_area"] for b in bases}


def fill_sea_areas(grid: Grid, regions: np.ndarray, ids: list[str]) -> None:
    """Give every shipyard of the built-in scenarios with an empty ``sea_area`` the area of its
    nearest sea cell (shipyards lie up rivers and in docks, so the nearest water decides)."""
    for path in sorted(ROOT.glob("data/scenarios/*/shipyards.csv")):
        with path.open(encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f)
            header = list(reader.fieldnames or [])
            rows = list(reader)
        filled = 0
        for row in rows:
            if not row["sea_area"].strip():
                k, _ = nearest_region(grid, regions, float(row["lon"]), float(row["lat"]))
                row["sea_area"] = ids[k]
                filled += 1
        if filled:
            write_csv(path, header, [[r[h] for h in header] for r in rows])
        print(f"{path.relative_to(ROOT)}: {filled} shipyard sea areas filled in")


def report_sizes(graph: nx.Graph, rings: dict[str, list[tuple[float, float]]]) -> None:
    """Print the areas wider than ``WIDTH_KM`` and the farthest pairs of bases (ports and fleet
    bases) at most ``REACH_AREAS`` apart on the graph."""
    widths = {
        k: max(great_circle_km(*p, *q) for p, q in itertools.combinations(ring, 2))
        for k, ring in rings.items()
    }
    wide = sorted(widths, key=lambda k: -widths[k])
    print(f"width (farthest corners): median {float(np.median(list(widths.values()))):.0f} km")
    for k in [k for k in wide if widths[k] > WIDTH_KM]:
        print(f"  wider than {WIDTH_KM:.0f} km: {k:<28} {widths[k]:6.0f} km")
    if not BASES_CSV.exists():
        return
    bases = [b for b in read_csv(BASES_CSV) if b["kind"] in ("fleet_base", "port")]
    moves = dict(nx.all_pairs_shortest_path_length(graph, cutoff=REACH_AREAS))
    pairs = sorted(
        (
            great_circle_km(float(a["lon"]), float(a["lat"]), float(b["lon"]), float(b["lat"])),
            a["id"],
            b["id"],
            moves[a["sea_area"]][b["sea_area"]],
        )
        for a, b in itertools.combinations(bases, 2)
        if b["sea_area"] in moves.get(a["sea_area"], {})
    )
    print(f"bases at most {REACH_AREAS} areas apart, farthest by great circle:")
    for km, a, b, n in reversed(pairs[-5:]):
        flag = "  TOO FAR" if km > REACH_KM else ""
        print(f"  {a:<18} {b:<18} {n} areas {km:6.0f} km{flag}")


def check_routes(graph: nx.Graph, base_area: dict[str, str]) -> bool:
    """Print the route table; return True if every route's class matches the chart."""
    if not ROUTES_CSV.exists() or not base_area:
        print("routes: routes.csv or bases.csv not found, check skipped")
        return True
    ok_all = True
    print(f"{'#':>2}  {'route':<32} {'moves':>5}  {'class':<5} {'chart':<5}  result  path")
    for r in read_csv(ROUTES_CSV):
        serial = int(r["serial"])
        stops = [
            base_area[r["origin"]],
            *[v for v in r["via"].split(";") if v],
            base_area[r["destination"]],
        ]
        path = [stops[0]]
        for nxt in stops[1:]:
            path += nx.shortest_path(graph, path[-1], nxt)[1:]
        moves = len(path) - 1
        cls, chart = route_class(moves), CHART_CLASS[serial]
        ok = cls == chart
        ok_all &= ok
        print(
            f"{serial:>2}  {r['name']:<32} {moves:>5}  {cls:<5} {chart:<5}  "
            f"{'OK' if ok else 'WRONG':<6}  {' > '.join(path)}"
        )
    return ok_all


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--shapefile", type=Path, help="naturalearth_lowres .shp on disk")
    src.add_argument("--wheel", type=Path, help="an already downloaded geopandas 0.14.4 wheel")
    args = parser.parse_args(argv)

    if args.shapefile:
        reader, version = read_shapefile(args.shapefile)
    elif args.wheel:
        reader, version = read_wheel(args.wheel)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            reader, version = read_wheel(fetch_wheel(Path(tmp)))
    land = dissolve_land(reader)
    seeds = read_seeds()
    ids = [s.id for s in seeds]
    straits = read_straits(set(ids))

    grid, sea = rasterise(land)
    regions = flood_fill(grid, sea, seeds)
    unreached = int((sea & (regions < 0)).sum())
    print(
        f"grid {grid.ncols}x{grid.nrows} at {RES} deg; {int(sea.sum())} sea cells, "
        f"{unreached} not reached by any seed (lakes, inland seas)"
    )

    # Outlines, label points and sizes.
    areas_km2 = np.zeros(len(seeds))
    np.add.at(
        areas_km2,
        regions[regions >= 0],
        np.broadcast_to(cell_area_km2(grid)[:, None], regions.shape)[regions >= 0],
    )
    area_rows: list[list[str]] = []
    outlines = simplified_outlines(grid, regions, seeds)
    rings = {s.id: outlines[k][1] for k, s in enumerate(seeds)}
    for k, s in enumerate(seeds):
        poly, ring_pts = outlines[k]
        label = polylabel(poly, tolerance=0.05)
        lon = (label.x + 180.0) % 360.0 - 180.0
        if nearest_region(grid, regions, lon, label.y)[0] != k:
            lon, lat = s.lon, s.lat
        else:
            lat = label.y
        ring = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in ring_pts)
        area_rows.append([s.id, s.name, fmt(lon), fmt(lat), ring])
    write_csv(SEA_AREAS_CSV, ["id", "name", "lon", "lat", "polygon"], area_rows)

    # Adjacency.
    counts = adjacency_counts(regions)
    edges: dict[tuple[str, str], tuple[str, str]] = {}
    for (i, j), n in sorted(counts.items()):
        a, b = sorted((ids[i], ids[j]))
        if n >= MIN_SEA_BORDER:
            edges[(a, b)] = ("sea", "")
        else:
            print(f"  note: {a} / {b} touch along only {n} cell edge(s): not neighbours")
    for a, b, name in straits:
        if (a, b) in edges:
            print(f"  note: strait {name!r} ({a} / {b}) is also open water in the raster")
        edges[(a, b)] = ("strait", name)
    write_csv(
        ADJACENCY_CSV,
        ["a", "b", "kind", "name"],
        [[a, b, kind, name] for (a, b), (kind, name) in sorted(edges.items())],
    )
    write_land(land, version)

    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(edges)
    connected = nx.is_connected(graph)
    print(
        f"sea areas: {len(seeds)}; edges: {len(edges)} "
        f"({sum(1 for v in edges.values() if v[0] == 'strait')} straits); "
        f"graph {'connected' if connected else 'NOT CONNECTED'}"
    )
    if not connected:
        for comp in nx.connected_components(graph):
            print("  component:", sorted(comp))
    sizes = np.sqrt(areas_km2)
    print(
        f"area sizes (sqrt of area, km): min {sizes.min():.0f}, median "
        f"{float(np.median(sizes)):.0f}, max {sizes.max():.0f}"
    )
    for k in np.argsort(sizes, kind="stable"):
        print(f"  {ids[k]:<28} {sizes[k]:6.0f} km  ({len(list(graph[ids[k]]))} neighbours)")

    report_sizes(graph, rings)
    base_area = check_bases(grid, regions, seeds)
    fill_sea_areas(grid, regions, ids)
    routes_ok = check_routes(graph, base_area)
    print("routes:", "all 28 classes match the chart" if routes_ok else "SOME CLASSES ARE WRONG")
    return 0 if connected and routes_ok else 1


if __name__ == "__main__":
    sys.exit(main())
