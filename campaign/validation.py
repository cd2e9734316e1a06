"""Cross-checks of a scenario's tables: references, geography and the rules' constraints.

Each cell was already checked on its own by :mod:`campaign.csvdata`; here every reference
between files is followed and the scenario is held to the seed's rules (units at bases of
their own side, LSP only at fleet bases, route tonnage within the nation's tonnage, one
connected sea-area graph…). Every problem is collected; none stops the others.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from .csvdata import Problem, Row, Table, suggest
from .guns import parse_guns
from .world import connected_components, parse_polygon

if TYPE_CHECKING:
    from .scenario import ScenarioMeta

#: which table an id column's ``ref`` points at
REF_TABLES = {
    "nation": "nations",
    "base": "bases",
    "sea_area": "sea_areas",
    "shipyard": "shipyards",
    "unit": "units",
    "ship": "ships",
}

CARRIERS = ("fleet_carrier", "escort_carrier")


def _rows(table: Table) -> Iterator[tuple[int, Row]]:
    yield from zip(table.line_of, table.rows, strict=True)


class _Checker:
    def __init__(self, meta: ScenarioMeta | None, tables: Mapping[str, Table]) -> None:
        self.meta = meta
        self.t = tables
        self.problems: list[Problem] = []
        self.ids = {name: {r["id"] for r in tables[name].rows} for name in REF_TABLES.values()}
        self.bad = {name: tables[name].bad_keys for name in REF_TABLES.values()}
        self.nations = {r["id"]: r for r in tables["nations"].rows}
        self.bases = {r["id"]: r for r in tables["bases"].rows}

    def error(self, table: Table, line: int, field: str, message: str) -> None:
        self.problems.append(Problem(table.schema.file, line, field, message))

    def warn(self, table: Table, line: int, field: str, message: str) -> None:
        self.problems.append(Problem(table.schema.file, line, field, message, "warning"))

    def unread(self, *names: str) -> bool:
        """Could one of these tables not be read (to its end)? Then checks that need it
        are left until it is fixed: their complaints would only follow from it."""
        return any(self.t[name].incomplete for name in names)

    def side(self, nation: str) -> str | None:
        row = self.nations.get(nation)
        return row["side"] if row else None

    def friendly(self, a: str, b: str) -> bool:
        """Same nation, or both on the same (non-neutral) side."""
        if a == b:
            return True
        side_a, side_b = self.side(a), self.side(b)
        return side_a is not None and side_a == side_b and side_a != "neutral"

    # -- references --------------------------------------------------------------------
    def references(self) -> None:
        for table in self.t.values():
            for col in table.schema.columns:
                target = REF_TABLES.get(col.ref or "")
                if target is None:
                    continue
                if self.unread(target):
                    self.not_checked(table, col.name, target)
                    continue
                valid = self.ids[target]
                for line, row in _rows(table):
                    values = row[col.name]
                    for value in values if isinstance(values, list) else [values]:
                        if value is None or value in valid or value in self.bad[target]:
                            continue
                        self.error(
                            table,
                            line,
                            col.name,
                            f"'{value}' is not a {str(col.ref).replace('_', ' ')} in "
                            f"{self.t[target].schema.file}{suggest(value, valid)}",
                        )

    def not_checked(self, table: Table, field: str, target: str) -> None:
        """One note in place of a "not a …" problem for every row that refers to a table
        that could not be read (the root cause is listed first)."""
        count = sum(1 for row in table.rows if row[field] not in (None, []))
        if not count:
            return
        other = self.t[target].schema.file
        rows = "row refers" if count == 1 else "rows refer"
        self.problems.append(
            Problem(
                table.schema.file,
                0,
                field,
                f"not checked: {count} {rows} to {other}, which could not be read; "
                f"fix {other} first",
                "note",
            )
        )

    # -- the world ---------------------------------------------------------------------
    def world(self) -> None:
        areas, edges = self.t["sea_areas"], self.t["adjacency"]
        boxes: dict[str, tuple[float, float, float, float]] = {}
        for line, row in _rows(areas):
            try:
                points = parse_polygon(row["polygon"])
            except ValueError as exc:
                self.error(areas, line, "polygon", f"{exc}; expected 'lon,lat lon,lat …'")
                continue
            lons = [p[0] for p in points]
            lats = [p[1] for p in points]
            boxes[row["id"]] = (min(lons), min(lats), max(lons), max(lats))
        seen: dict[frozenset[str], int] = {}
        graph: dict[str, set[str]] = {a: set() for a in self.ids["sea_areas"]}
        for line, row in _rows(edges):
            a, b = row["a"], row["b"]
            if a == b:
                self.error(edges, line, "b", f"joins '{a}' to itself")
                continue
            pair = frozenset((a, b))
            if pair in seen:
                self.error(edges, line, "b", f"'{a}'–'{b}' repeats row {seen[pair]}")
            seen[pair] = line
            if row["kind"] == "strait" and not row["name"]:
                self.error(
                    edges, line, "name", "a strait needs its name (e.g. Strait of Gibraltar)"
                )
            if a in graph and b in graph:
                graph[a].add(b)
                graph[b].add(a)
            if row["kind"] == "sea" and a in boxes and b in boxes and not _near(boxes[a], boxes[b]):
                self.error(
                    edges,
                    line,
                    "kind",
                    f"'{a}' and '{b}' do not touch, so they cannot share open water; "
                    "if a strait or canal joins them make the kind 'strait' and name it",
                )
        parts = sorted(connected_components(graph, graph), key=len, reverse=True)
        if graph and not self.unread("sea_areas", "adjacency") and len(parts) > 1:
            cut = ", ".join(sorted(set().union(*parts[1:])))[:300]
            self.problems.append(
                Problem(
                    edges.schema.file,
                    0,
                    "",
                    f"the sea areas are not one connected graph: cut off from the rest: {cut}",
                )
            )

    # -- bases, units, logistics ---------------------------------------------------------
    def bases_(self) -> None:
        bases = self.t["bases"]
        for line, row in _rows(bases):
            if row["from_turn"] is not None and row["kind"] != "fleet_base":
                self.warn(bases, line, "from_turn", "only matters for a fleet base")

    def at_friendly_base(
        self, table: Table, line: int, nation: str, base_id: str, what: str, kinds: tuple[str, ...]
    ) -> None:
        base = self.bases.get(base_id)
        if base is None or nation not in self.nations:
            return
        if base["kind"] not in kinds:
            self.error(
                table,
                line,
                "base",
                f"{what} must be at a {' or '.join(k.replace('_', ' ') for k in kinds)}; "
                f"'{base_id}' is a {base['kind'].replace('_', ' ')}",
            )
        if not self.friendly(nation, base["holder"]):
            self.error(
                table,
                line,
                "base",
                f"'{base_id}' is held by {base['holder']}, not by {nation} or its allies",
            )

    def units(self) -> None:
        units = self.t["units"]
        for line, row in _rows(units):
            self.at_friendly_base(
                units, line, row["nation"], row["base"], "a unit", ("fleet_base", "port")
            )
            if row["carries_air"] and row["type"] not in CARRIERS:
                self.error(units, line, "carries_air", f"a {row['type']} unit cannot carry air")
            if row["carries_air"] and row["state"] == "damaged":
                self.error(
                    units,
                    line,
                    "carries_air",
                    "a damaged carrier cannot carry its Air Point (002 'Damage'); set it to no",
                )

    def logistics(self) -> None:
        lsp = self.t["lsp"]
        for line, row in _rows(lsp):
            self.at_friendly_base(lsp, line, row["nation"], row["base"], "LSP", ("fleet_base",))
        supply = self.t["lsp_supply"]
        for line, row in _rows(supply):
            self.at_friendly_base(
                supply, line, row["nation"], row["base"], "LSP supply", ("fleet_base", "port")
            )
        air = self.t["air"]
        for line, row in _rows(air):
            self.at_friendly_base(
                air, line, row["nation"], row["base"], "air", ("fleet_base", "port", "island")
            )
        garrisons = self.t["garrisons"]
        for line, row in _rows(garrisons):
            base = self.bases.get(row["base"])
            if base and row["nation"] in self.nations and base["holder"] != row["nation"]:
                self.error(
                    garrisons,
                    line,
                    "nation",
                    f"'{row['base']}' is held by {base['holder']}; garrisons belong to the holder",
                )

    def routes(self) -> None:
        routes = self.t["routes"]
        serials: dict[int, tuple[int, str]] = {}
        for line, row in _rows(routes):
            first = serials.setdefault(row["serial"], (line, row["id"]))
            if first[0] != line:
                self.error(
                    routes,
                    line,
                    "serial",
                    f"{row['serial']} is already the serial of '{first[1]}' (row {first[0]}); "
                    "each route has its own number on the merchant routes chart",
                )
        allocated: dict[str, list[int]] = defaultdict(list)
        for line, row in _rows(routes):
            allocated[row["nation"]].append(line)
        totals: dict[str, int] = defaultdict(int)
        for row in routes.rows:
            totals[row["nation"]] += row["tonnage"]
        for nation, lines in allocated.items():
            have = self.nations.get(nation, {}).get("tonnage")
            if have is not None and totals[nation] > have:
                self.error(
                    routes,
                    lines[-1],
                    "tonnage",
                    f"{nation}'s routes take {totals[nation]} tonnage points but "
                    f"nations.csv gives {nation} only {have}",
                )

    def route_paths(self) -> None:
        """Every route's ends and waypoints must be joined by sea."""
        routes = self.t["routes"]
        if self.unread("sea_areas", "adjacency", "bases"):
            return
        graph: dict[str, set[str]] = {a: set() for a in self.ids["sea_areas"]}
        for r in self.t["adjacency"].rows:
            graph.setdefault(r["a"], set()).add(r["b"])
            graph.setdefault(r["b"], set()).add(r["a"])
        component = {}
        for i, part in enumerate(connected_components(graph, graph)):
            for area in part:
                component[area] = i
        for line, row in _rows(routes):
            stops = []
            for end in ("origin", "destination"):
                base = self.bases.get(row[end])
                if base is not None:
                    stops.append((end, base["sea_area"]))
            stops += [("via", v) for v in row["via"]]
            parts = {component.get(area) for _, area in stops}
            if None not in parts and len(parts) > 1:
                self.error(
                    routes,
                    line,
                    "via",
                    "the route's ends and waypoints are not joined by sea: "
                    + ", ".join(area for _, area in stops),
                )

    def turns(self) -> None:
        if self.meta is None:
            return
        first, last = self.meta.first_turn, self.meta.last_turn
        for name in ("flags", "production", "lsp_supply"):
            table = self.t[name]
            for line, row in _rows(table):
                if not first <= row["turn"] <= last:
                    self.error(
                        table, line, "turn", f"{row['turn']} is outside turns {first}–{last}"
                    )
        flags = self.t["flags"]
        if self.unread("flags"):
            return
        have = {(r["nation"], r["turn"]) for r in flags.rows}
        for nation in self.nations:
            missing = [t for t in range(first, last + 1) if (nation, t) not in have]
            if missing and len(missing) < last - first + 1:
                self.warn(
                    flags,
                    0,
                    "turn",
                    f"{nation} has no flags row for turn(s) {_ranges(missing)}; 0 flags then",
                )

    def production(self) -> None:
        production = self.t["production"]
        yards = {r["id"]: r for r in self.t["shipyards"].rows}
        for line, row in _rows(production):
            yard = yards.get(row["shipyard"])
            if yard and yard["nation"] != row["nation"]:
                self.error(
                    production,
                    line,
                    "shipyard",
                    f"'{row['shipyard']}' is a {yard['nation']} shipyard, not {row['nation']}",
                )

    def ships(self) -> None:
        """A ship belongs to a unit of its own nation, and her guns are written as the
        tactical rules read them."""
        ships = self.t["ships"]
        units = {u["id"]: u for u in self.t["units"].rows}
        for line, row in _rows(ships):
            problem = parse_guns(row["guns"])[1]
            if problem:
                self.error(ships, line, "guns", problem)
            unit = units.get(row["unit"])
            if unit is not None and unit["nation"] != row["nation"]:
                self.error(
                    ships,
                    line,
                    "nation",
                    f"'{row['unit']}' is {unit['nation']}'s unit, not {row['nation']}'s",
                )

    def run(self) -> list[Problem]:
        self.references()
        self.world()
        self.bases_()
        self.units()
        self.logistics()
        self.routes()
        self.route_paths()
        self.turns()
        self.production()
        self.ships()
        return self.problems


#: how far apart (degrees) the outlines of two "sea"-adjacent areas may be
TOUCH_TOLERANCE = 1.0


def _near(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Do two outline bounding boxes touch (allowing for the wrap at 180° longitude)?"""
    if a[1] > b[3] + TOUCH_TOLERANCE or b[1] > a[3] + TOUCH_TOLERANCE:
        return False
    for shift in (-360.0, 0.0, 360.0):
        if a[0] <= b[2] + shift + TOUCH_TOLERANCE and b[0] + shift <= a[2] + TOUCH_TOLERANCE:
            return True
    return False


def _ranges(numbers: list[int]) -> str:
    out: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(str(start) if start == prev else f"{start}–{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(out)


def validate(meta: ScenarioMeta | None, tables: Mapping[str, Table]) -> list[Problem]:
    """Every cross-file problem of a scenario's parsed tables."""
    return _Checker(meta, tables).run()
