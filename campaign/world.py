"""The sea-area graph: the game board.

002 "Sea Areas": *The world map is divided into sea areas of approximately 1200-1600
kilometres across.* Ranges ("Naval units can operate up to 4 areas from a base"), merchant
route lengths and supply are all counted in sea areas, so they are computed here from the
graph and never kept in hand-made tables.

Distances are counted in *moves*: a base's own sea area is 0, an adjacent one 1. See
``docs/rules-notes.md`` for how route length is counted.
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cached_property
from typing import Any

EARTH_RADIUS_KM = 6371.0


class _Search:
    """A breadth-first search over the sea areas from one of them, grown a ring of moves
    at a time when a question needs it: ``found`` holds each area reached and its moves,
    every area of ``moves`` or fewer among them."""

    __slots__ = ("found", "fringe", "moves")

    def __init__(self, area: str) -> None:
        self.found = {area: 0}
        self.fringe = [area]
        self.moves = 0

    def grow(self, adjacency: Mapping[str, Iterable[str]]) -> bool:
        """Reach the next ring of areas; False if there is none (all found)."""
        if not self.fringe:
            return False
        self.moves += 1
        found, reached = self.found, []
        for v in self.fringe:
            for w in adjacency[v]:
                if w not in found:
                    found[w] = self.moves
                    reached.append(w)
        self.fringe = reached
        return True

    def grow_to(self, adjacency: Mapping[str, Iterable[str]], moves: float) -> None:
        """Grow until every area within ``moves`` is found."""
        while self.moves < moves and self.grow(adjacency):
            pass

    def moves_to(
        self, adjacency: Mapping[str, Iterable[str]], area: str, limit: float = math.inf
    ) -> int | None:
        """Moves to ``area``, growing no farther than ``limit`` moves (None: not within
        them, or no path)."""
        while area not in self.found and self.moves < limit and self.grow(adjacency):
            pass
        return self.found.get(area)


def great_circle_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance in kilometres between two (lon, lat) points in degrees."""
    lon1, lat1, lon2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    c = math.sin(lat1) * math.sin(lat2) + math.cos(lat1) * math.cos(lat2) * math.cos(lon2 - lon1)
    return EARTH_RADIUS_KM * math.acos(max(-1.0, min(1.0, c)))


#: kilometres a degree of latitude: no two points are nearer than their latitudes' distance
_KM_A_DEGREE_OF_LATITUDE = EARTH_RADIUS_KM * math.pi / 180
#: more than the rounding of :func:`great_circle_km` can make of a distance
_ROUNDING_KM = 0.01


class NearestPlaces:
    """Named points indexed for the question "which is nearest this point?", answered as
    ``min((great_circle_km(point, p), name) for each point p)`` is: by great-circle
    distance, ties to the name first in order. Step 2 puts the question for every ship
    due, and measuring to every fleet base of the nation made a turn grow with its ships
    times its bases.

    The points are kept sorted by latitude; a search goes outward from the asked point's
    latitude, the nearer in latitude first, and stops where the latitude alone puts every
    point left farther than the nearest found (a great circle between two points is never
    shorter than the meridian arc between their latitudes). Points at one spot tie at
    every distance, so the spot keeps only its name first in order."""

    def __init__(self, points: Iterable[tuple[str, float, float]]) -> None:
        """``points``: (name, lon, lat), in degrees."""
        spots: dict[tuple[float, float], str] = {}
        for name, lon, lat in points:
            kept = spots.get((lon, lat))
            if kept is None or name < kept:
                spots[(lon, lat)] = name
        self._spots = sorted((lat, lon, name) for (lon, lat), name in spots.items())
        self._lats = [lat for lat, _, _ in self._spots]

    def __len__(self) -> int:
        """How many spots (points at one spot count once)."""
        return len(self._spots)

    def nearest(self, lonlat: tuple[float, float]) -> str:
        """The name of the point nearest ``lonlat`` (ties: the name first in order).
        Raises LookupError when there are no points."""
        if not self._spots:
            raise LookupError("there is no point to be nearest")
        spots, lat = self._spots, lonlat[1]
        above = bisect_left(self._lats, lat)
        below = above - 1
        best = (math.inf, "")
        while below >= 0 or above < len(spots):
            nearer_below = below >= 0 and (
                above == len(spots) or lat - spots[below][0] <= spots[above][0] - lat
            )
            if nearer_below:
                spot_lat, spot_lon, name = spots[below]
                below -= 1
            else:
                spot_lat, spot_lon, name = spots[above]
                above += 1
            if _KM_A_DEGREE_OF_LATITUDE * abs(lat - spot_lat) > best[0] + _ROUNDING_KM:
                break  # every spot left is farther than this one in latitude alone
            best = min(best, (great_circle_km(lonlat, (spot_lon, spot_lat)), name))
        return best[1]


@dataclass(frozen=True, slots=True)
class SeaArea:
    """One sea area: id, name, label point and outline (lon/lat pairs, one ring)."""

    id: str
    name: str
    lon: float
    lat: float
    polygon: tuple[tuple[float, float], ...]

    def width_km(self) -> float:
        """How far the area is *across* (002 "Sea Areas"): the greatest great-circle distance
        between two corners of its outline."""
        return max(great_circle_km(p, q) for p, q in itertools.combinations(self.polygon, 2))


class LengthClass(Enum):
    """002 "Supply Effectiveness": how far a route is, and what that does to its lift."""

    SHORT = ("Short", Fraction(2))
    MED = ("Med", Fraction(1))
    LONG = ("Long", Fraction(1, 2))

    def __init__(self, label: str, multiplier: Fraction) -> None:
        self.label = label
        self.multiplier = multiplier

    def effective(self, tonnage: int) -> int:
        """Effective lift of ``tonnage`` points on a route of this class, rounded down."""
        return int(tonnage * self.multiplier)


#: 002 "Supply Effectiveness" — "Start and finish in same sea: Double amount that can be
#: transferred. 1 to 6 sea areas: Standard amounts. 7+ sea areas: Half capacity."
SAME_AREA_MOVES = 0
MAX_STANDARD_MOVES = 6


def length_class(moves: int) -> LengthClass:
    """The route length class for a route of ``moves`` sea-area moves."""
    if moves < 0:
        raise ValueError("a route cannot be shorter than 0 moves")
    if moves == SAME_AREA_MOVES:
        return LengthClass.SHORT
    if moves <= MAX_STANDARD_MOVES:
        return LengthClass.MED
    return LengthClass.LONG


def parse_polygon(text: str) -> tuple[tuple[float, float], ...]:
    """``"lon,lat lon,lat …"`` → points. Raises ValueError with what is wrong."""
    points = []
    for pair in text.split():
        lon_s, sep, lat_s = pair.partition(",")
        if not sep:
            raise ValueError(f"'{pair}' is not a lon,lat pair")
        lon, lat = float(lon_s), float(lat_s)
        if not (-540 <= lon <= 540 and -90 <= lat <= 90):
            raise ValueError(f"'{pair}' is outside lon -540..540, lat -90..90")
        points.append((lon, lat))
    if len(points) < 3:
        raise ValueError("a polygon needs at least 3 points")
    return tuple(points)


def connected_components(
    nodes: Iterable[str], neighbours: Mapping[str, Iterable[str]]
) -> list[set[str]]:
    """The connected groups of ``nodes`` (each node's ``neighbours`` given), in the order
    their first node comes."""
    seen: set[str] = set()
    parts = []
    for start in nodes:
        if start in seen:
            continue
        part = {start}
        fringe = [start]
        while fringe:
            reached = []
            for v in fringe:
                for w in neighbours.get(v, ()):
                    if w not in part:
                        part.add(w)
                        reached.append(w)
            fringe = reached
        seen |= part
        parts.append(part)
    return parts


class NoSeaPath(ValueError):
    """No chain of adjacent sea areas joins two areas."""


class World:
    """The sea areas and their adjacency, with distances and paths over the graph.

    The graph is kept as plain dictionaries, searched here: the program starts and plays
    without loading networkx (a tenth of the start-up), which :attr:`graph` still gives for
    tools and tests. Paths are the ones networkx's ``shortest_path`` finds, tie for tie
    (tests/test_world.py holds them to it), so games replay the same.
    """

    def __init__(
        self,
        areas: Iterable[SeaArea],
        edges: Iterable[tuple[str, str, Mapping[str, Any]]] = (),
    ) -> None:
        self.areas: dict[str, SeaArea] = {a.id: a for a in areas}
        #: area → neighbour → the data of the edge between them, neighbours in the order
        #: the edges were given: the order every search visits them in
        self.adjacency: dict[str, dict[str, dict[str, Any]]] = {a: {} for a in self.areas}
        self._edges: list[tuple[str, str, dict[str, Any]]] = []
        for a, b, given in edges:
            data = self.adjacency.setdefault(a, {}).get(b)
            if data is None:
                data = self.adjacency[a][b] = {}
                self.adjacency.setdefault(b, {})[a] = data
                self._edges.append((a, b, data))
            data.update(given)

    @classmethod
    def from_rows(
        cls, area_rows: Sequence[Mapping[str, Any]], edge_rows: Sequence[Mapping[str, Any]]
    ) -> World:
        """Build from the rows of ``sea_areas.csv`` and ``adjacency.csv`` (already valid)."""
        areas = [
            SeaArea(r["id"], r["name"], r["lon"], r["lat"], parse_polygon(r["polygon"]))
            for r in area_rows
        ]
        edges = [(r["a"], r["b"], {"kind": r["kind"], "name": r["name"] or ""}) for r in edge_rows]
        return cls(areas, edges)

    @cached_property
    def graph(self) -> Any:
        """The graph as a ``networkx.Graph`` (loaded on first use), for tools and tests."""
        import networkx as nx

        graph = nx.Graph()
        graph.add_nodes_from(self.adjacency)
        for a, b, data in self._edges:
            graph.add_edge(a, b, **data)
        return graph

    @cached_property
    def names(self) -> dict[str, str]:
        """Sea area → its name (made once): what a turn asks of an area most, answered
        from one small table instead of each area's record."""
        return {a: area.name for a, area in self.areas.items()}

    @cached_property
    def _paths(self) -> dict[tuple[str, str, tuple[str, ...]], list[str]]:
        return {}

    def __contains__(self, area: object) -> bool:
        return area in self.areas

    def __len__(self) -> int:
        return len(self.areas)

    def edges(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Every adjacency once: (area, area, its data), in the order given."""
        return list(self._edges)

    def is_connected(self) -> bool:
        return len(self.areas) > 0 and len(self.components()) == 1

    def components(self) -> list[set[str]]:
        """Connected groups of sea areas, largest first."""
        parts = connected_components(self.adjacency, self.adjacency)
        return sorted(parts, key=len, reverse=True)

    @cached_property
    def _searches(self) -> dict[str, _Search]:
        """A breadth-first search from each source area asked about, taken only as far as
        the questions so far needed: ranges are a few moves, so a large board costs for
        the areas near those asked about, not all of it once per source."""
        return {}

    def _search(self, area: str, *others: str) -> _Search:
        """The search from ``area`` (KeyError for an unknown area, or other). An area the
        search has found is known: only the others are looked up in the whole table (a
        big world's table is far larger than the few areas near a search)."""
        found = self._searches.get(area)
        if found is None:
            if area not in self.areas:
                raise KeyError(area)
            found = self._searches[area] = _Search(area)
        for known in others:
            if known not in found.found and known not in self.areas:
                raise KeyError(known)
        return found

    def distance(self, a: str, b: str) -> int:
        """Moves from sea area ``a`` to ``b`` (0 for the same area).

        Raises KeyError for an unknown area and ValueError if no path joins them.
        """
        moves = self._search(a, b).moves_to(self.adjacency, b)
        if moves is None:
            raise NoSeaPath(f"no sea path from {a} to {b}")
        return moves

    def reaches(self, a: str, b: str, moves: int) -> bool:
        """Whether ``b`` is at most ``moves`` from ``a``, searching no farther (False when
        no path joins them).

        Raises KeyError for an unknown area.
        """
        found = self._search(a, b).moves_to(self.adjacency, b, moves)
        return found is not None and found <= moves

    def within(self, area: str, moves: int) -> set[str]:
        """All sea areas at most ``moves`` from ``area`` (the area itself included)."""
        search = self._search(area)
        search.grow_to(self.adjacency, moves)
        return {b for b, d in search.found.items() if d <= moves}

    def path(self, a: str, b: str, via: Sequence[str] = ()) -> list[str]:
        """Shortest path of sea areas from ``a`` through each waypoint of ``via`` to ``b``.

        The path lists every area once in order, both ends included; ``[a]`` when a == b and
        there are no waypoints. Ties between equally short paths are broken the same way on
        every run (the graph's insertion order), so paths are reproducible.
        """
        key = (a, b, tuple(via))
        cached = self._paths.get(key)
        if cached is None:
            cached = [a]
            for start, end in itertools.pairwise([a, *via, b]):
                cached.extend(self._shortest(start, end)[1:])
            self._paths[key] = cached
        return list(cached)

    def _shortest(self, source: str, target: str) -> list[str]:
        """One shortest path: breadth-first from both ends, the smaller fringe first, until
        they meet (networkx's ``bidirectional_shortest_path``, step for step, so the same
        path among equals)."""
        for area in (source, target):
            if area not in self.adjacency:
                raise KeyError(area)
        pred: dict[str, str | None] = {source: None}
        succ: dict[str, str | None] = {target: None}
        meet = source if source == target else self._meet(pred, succ)
        path: list[str] = []
        step: str | None = meet
        while step is not None:
            path.append(step)
            step = pred[step]
        path.reverse()
        step = succ[meet]
        while step is not None:
            path.append(step)
            step = succ[step]
        return path

    def _meet(self, pred: dict[str, str | None], succ: dict[str, str | None]) -> str:
        """Grow ``pred`` (from the source) and ``succ`` (from the target) until they share
        an area, and return it."""
        forward, backward = list(pred), list(succ)
        while forward and backward:
            if len(forward) <= len(backward):
                level, forward = forward, []
                for v in level:
                    for w in self.adjacency[v]:
                        if w not in pred:
                            forward.append(w)
                            pred[w] = v
                        if w in succ:
                            return w
            else:
                level, backward = backward, []
                for v in level:
                    for w in self.adjacency[v]:
                        if w not in succ:
                            succ[w] = v
                            backward.append(w)
                        if w in pred:
                            return w
        raise NoSeaPath(f"no sea path from {next(iter(pred))} to {next(iter(succ))}")

    def neighbours(self, area: str) -> list[str]:
        return sorted(self.adjacency[area])

    def edge(self, a: str, b: str) -> dict[str, Any]:
        """The data of the adjacency between ``a`` and ``b`` (KeyError if none)."""
        return self.adjacency[a][b]

    def edge_kind(self, a: str, b: str) -> str:
        return str(self.adjacency[a][b].get("kind", "sea"))
