"""The board as the rules see it at a moment: a scenario and a game state together.

Sides, who holds what, ranges, merchant routes with their paths and length classes — the
questions every step asks, answered in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .csvdata import Row
from .options import option
from .orders import Orders, range_cards_by_task_force
from .record import SurfaceRaid
from .routes import RouteLine, route_line, route_path
from .scenario import Scenario
from .state import FleetTrain, GameState
from .units import NAVAL_RANGE
from .world import NearestPlaces, World

#: a merchant route's state on the chart and the map
WORKING, CONTESTED, CUT = "working", "contested", "cut"


@dataclass(frozen=True, slots=True)
class RouteStatus:
    """Whether a merchant route works this turn, and why not (002 "Economic Route Chart":
    *both ends of it must be in your hands or the hands of your allies, and uncontested, at
    the start*). ``passes_contested``: sea areas of its path (not its ends) contested for
    its side — shown to people, with no effect on the route's working."""

    state: str  # working | contested | cut
    why: str
    passes_contested: tuple[str, ...] = ()

    @property
    def working(self) -> bool:
        return self.state == WORKING


@dataclass(frozen=True, slots=True)
class RouteForce:
    """One nation's units and land-based Air Points escorting or attacking a route (002
    "Deployments": *Each side places units counters on a card indicating the routes to be
    protected or attacked*). Attackers name the sea area of the route they attack;
    ``surface``: a surface raid operation that won through in step 8."""

    nation: str
    units: tuple[str, ...]
    air: tuple[tuple[str, int], ...] = ()
    area: str = ""
    surface: bool = False


#: the kinds of place that may serve as a fleet base (:meth:`Board.is_fleet_base`)
_FLEET_BASE_KINDS = frozenset({"fleet_base", "fleet_train"})


class Board:
    """The rules' questions about a scenario and a game state (places, routes, ranges,
    sides). What it indexes (the fleet trains among the places, the places' sea areas,
    names, kinds and holders in the scenario, the routes' rows, names, nations and
    serials) is taken when it is made or first asked for: after the state gains or moves
    a fleet train or a created route, ask a new board (``Turn.board`` makes one each
    time)."""

    def __init__(self, scenario: Scenario, state: GameState) -> None:
        self.scenario = scenario
        self.state = state
        self.world: World = scenario.world
        self.nations = scenario.by_id("nations")
        #: the routes created in play, laid over the scenario's routes (:meth:`_over`)
        self._extra_routes = state.extra_routes
        #: the fleet trains as they are now, each with its sea area (:meth:`_over`)
        self._trains = [(t, t.area) for t in state.fleet_trains.values()]
        self._columns: dict[str, dict[str, Mapping[str, Any]]] = {"bases": {}, "routes": {}}
        #: side → (the state's list of its contested sea areas, its length, as a set)
        self._contested: dict[str, tuple[list[str], int, frozenset[str]]] = {}
        self.shipyards = scenario.by_id("shipyards")
        self.air_rows = scenario.by_id("air")
        self.cards = scenario.by_id("cards")

    # A board is often made for a question or two (a unit's nation named in an event, a
    # sea area's name), and laying the fleet trains over the places copies every place:
    # it is done when a place is first asked about, not when the board is made. So is
    # making the fleet trains' rows: a turn makes a board for each unit hit, and a big
    # world's turn makes hundreds of boards and has as many trains as copies.

    def _over(self, table: str) -> Mapping[str, Row]:
        """The rows laid over the scenario's ``table`` for the turn: the fleet trains among
        the places (mobile fleet bases, where they were when the board was made), the
        routes created in play among the routes."""
        return self._train_rows if table == "bases" else self._extra_routes

    @cached_property
    def _train_rows(self) -> dict[str, Row]:
        return {train.id: self._train_row(train, area) for train, area in self._trains}

    @cached_property
    def bases(self) -> Mapping[str, Row]:
        """Every place's row by id: the scenario's, and the fleet trains."""
        return self._rows("bases")

    @cached_property
    def place_areas(self) -> Mapping[str, str]:
        """Place → its sea area (the question asked most of a place, answered without
        reaching into its row)."""
        return self._column("bases", "sea_area")

    def _rows(self, table: str) -> Mapping[str, Row]:
        """Every row of ``table`` by id, the board's own laid over the scenario's (read
        only: the scenario's own index where the board has none)."""
        rows = self.scenario.by_id(table)
        over = self._over(table)
        return {**rows, **over} if over else rows

    def _column(self, table: str, column: str) -> Mapping[str, Any]:
        """One column of :meth:`_rows` by id (made once a board): the scenario's
        one-column index with the board's rows laid over it. A name or a kind read from it
        is one look-up in a small table, not a reach into the row (a big world's rows are
        spread over far more memory)."""
        made = self._columns[table]
        found = made.get(column)
        if found is None:
            found = self.scenario.field_by_id(table, column)
            over = self._over(table)
            if over:
                found = {**found, **{key: row[column] for key, row in over.items()}}
            made[column] = found
        return found

    # -- sides ---------------------------------------------------------------------------
    def side(self, nation: str) -> str:
        row = self.nations.get(nation)
        return str(row["side"]) if row is not None else ""

    def friendly(self, a: str, b: str) -> bool:
        """Same nation, or both on the same (non-neutral) side."""
        if a == b:
            return True
        side = self.side(a)
        return side != "neutral" and side == self.side(b)

    def enemies(self, a: str, b: str) -> bool:
        return not self.friendly(a, b)

    def side_key(self, nation: str) -> str:
        """The side a nation fights on; each neutral fights alone."""
        side = self.side(nation)
        return nation if side == "neutral" else side

    def name_of(self, key: str) -> str:
        """A nation's name, or a side's ("Allies", "Axis") for a side key."""
        if key in self.nations:
            return str(self.nations[key]["name"])
        return {"allies": "Allies", "axis": "Axis"}.get(key, key)

    def teams(self) -> list[str]:
        """Nations that play: those with units, cards, flags or tonnage."""
        active = {u.nation for u in self.state.units.values()}
        active |= {c["nation"] for c in self.scenario.rows("cards")}
        active |= {f["nation"] for f in self.scenario.rows("flags") if f["naval"]}
        active |= {n for n, t in self.state.tonnage.items() if t}
        return [n for n in self.nations if n in active]

    # -- places --------------------------------------------------------------------------
    def holder(self, place: str) -> str:
        return str(self.state.holders.get(place) or self._column("bases", "holder")[place])

    def area_of(self, place: str) -> str:
        return str(self.place_areas[place])

    def places_in(self, area: str) -> tuple[str, ...]:
        """The places in sea area ``area`` (fleet trains among them), in the places'
        order: indexed once a board, as a battle asks for the fleet base in its area and a
        big world has thousands of places."""
        return self._places_by_area.get(area, ())

    @cached_property
    def _places_by_area(self) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        for place, area in self.place_areas.items():
            found.setdefault(area, []).append(place)
        return {area: tuple(places) for area, places in found.items()}

    def _train_row(self, train: FleetTrain, area_id: str) -> Row:
        """A fleet train as a place (bases.csv's columns): in sea area ``area_id``, held by
        its nation, on no Land Combat map."""
        area = self.world.areas.get(area_id)
        return {
            "id": train.id,
            "name": train.name,
            "nation": train.nation,
            "kind": "fleet_train",
            "island": False,
            "lon": area.lon if area else 0.0,
            "lat": area.lat if area else 0.0,
            "sea_area": area_id,
            "holder": train.nation,
            "from_turn": None,
            "notes": "",
            "land_map": False,
        }

    def fleet_train_support(self, train_id: str) -> tuple[bool, str]:
        """Can a fleet train support the fleet this turn? 002: *It requires a merchant route
        from an existing fleet base to it, and that merchant route must be sufficient to
        support the fleet*: its route must work and lift at least the rule option
        ``fleet_train_support`` tonnage points for each unit based there."""
        train = self.state.fleet_trains[train_id]
        if train.route not in self.route_rows:
            return False, "it has no supply route"
        status = self.route_status(train.route)
        if not status.working:
            return False, f"its supply route does not work: {status.why}"
        units = sum(
            1 for u in self.state.units.values() if u.base == train_id and u.state != "sunk"
        )
        need = units * int(option(self.scenario.meta.options, "fleet_train_support"))
        lift = self.route(train.route).effective_lift
        if lift < need:
            return False, (
                f"its supply route lifts {lift} tonnage points; {units} units based there "
                f"need {need}"
            )
        return True, "supported"

    def is_fleet_base(self, place: str, turn: int | None = None) -> bool:
        """Is ``place`` a fleet base usable on ``turn`` (default: this turn): a fleet base
        from its ``from_turn`` on, or a fleet train that can support the fleet. Read from
        the places' kind and from-turn columns, not their rows (step 2 asks it of every
        place; a big world's rows are spread over far more memory)."""
        kind = self._column("bases", "kind").get(place)
        if kind == "fleet_train":
            return self.fleet_train_support(place)[0]
        if kind != "fleet_base":
            return False
        start = self._column("bases", "from_turn")[place]
        return start is None or (turn if turn is not None else self.state.turn) >= start

    def fleet_bases_of(self, nation: str) -> list[str]:
        """Fleet bases held by ``nation`` and usable this turn."""
        return [b for b in self.fleet_bases() if self.holder(b) == nation]

    def fleet_bases_by_holder(self) -> dict[str, list[str]]:
        """Every fleet base usable this turn, by the nation holding it, each nation's in the
        places' order (:meth:`fleet_bases_of` for every nation, in one pass over the
        places: for a question put nation by nation, as step 2's is)."""
        held: dict[str, list[str]] = {}
        for place in self.fleet_bases():
            held.setdefault(self.holder(place), []).append(place)
        return held

    def fleet_bases(self) -> list[str]:
        """Every place usable as a fleet base this turn, whoever holds it, in the places'
        order: the places' kind column read in one pass, and only fleet bases and fleet
        trains asked :meth:`is_fleet_base` (most places are ports and islands)."""
        kinds = self._column("bases", "kind")
        return [
            place
            for place, kind in kinds.items()
            if kind in _FLEET_BASE_KINDS and self.is_fleet_base(place)
        ]

    def on_land_map(self, place: str) -> bool:
        """Is ``place`` covered by a Land Combat map? 002 "Amphibious Operations": *Minor
        Invasion – involving an island or somewhere not covered by a Land Combat map; Major
        Invasion – delivering troops into the Land Combat Map.* The scenario says so per
        place (bases.csv ``land_map``); left empty, islands are not and other places are."""
        marked = self.bases[place].get("land_map")
        return bool(marked) if marked is not None else not self.bases[place]["island"]

    def open_to(self, nation: str, place: str) -> bool:
        """Can ``nation``'s merchant route end at ``place``? (own, allied or neutral-held)"""
        holder = self.holder(place)
        return self.friendly(nation, holder) or self.side(holder) == "neutral"

    def nearest_fleet_base(self, nation: str, lonlat: tuple[float, float]) -> str:
        """002 step 2: *Add new ship production to nearest fleet base to the shipyard* — the
        usable fleet base of ``nation`` nearest the point, by great-circle distance (a ship
        from Harima joins at Nagasaki, about 480 km, not Ominato, about 925 km, though
        Ominato is fewer sea areas away). Ties go to the base id first in order."""
        return self.fleet_bases_near(nation).nearest(lonlat)

    def fleet_bases_near(self, nation: str, bases: Sequence[str] | None = None) -> NearestPlaces:
        """``nation``'s usable fleet bases (:meth:`fleet_bases_of`, or ``bases`` if the
        caller has them from :meth:`fleet_bases_by_holder`) indexed for
        :meth:`nearest_fleet_base`'s question, to be kept by a caller that asks it for many
        points of one board (step 2, for every ship due). Raises LookupError when the
        nation holds none."""
        bases = self.fleet_bases_of(nation) if bases is None else bases
        if not bases:
            raise LookupError(f"{nation} holds no fleet base")
        rows = self.bases
        return NearestPlaces((b, rows[b]["lon"], rows[b]["lat"]) for b in bases)

    # -- ranges --------------------------------------------------------------------------
    def sea_area(self, place_or_area: str) -> str:
        """The sea area a range is counted from: a place's, or the area itself."""
        return str(self.place_areas.get(place_or_area, place_or_area))

    def distance(self, place_or_area: str, area: str) -> int:
        return self.world.distance(self.sea_area(place_or_area), area)

    def naval_range(self, bonus: int = 0) -> int:
        return NAVAL_RANGE + bonus

    def task_force_reach(self, nation: str, tf_id: str, orders: Iterable[Orders]) -> int:
        """How many sea areas a task force reaches from its base: 002 *Naval units can
        operate up to 4 areas from a base*, +1 for each card played to *Extend the range of
        one Task Force by one sea area* — by its own nation or by an ally on its behalf
        (*Advantage Cards may also be played on behalf of Allies*). The order check, the
        interventions of step 8, the map and the orders editor all ask this."""
        return self.reach_with(range_cards_by_task_force(orders), nation, tf_id)

    def reach_with(self, cards: Mapping[tuple[str, str], int], nation: str, tf_id: str) -> int:
        """:meth:`task_force_reach` with the range cards already counted
        (:func:`~campaign.orders.range_cards_by_task_force`), for a caller that asks it of
        every task force (step 8, an order check)."""
        return self.naval_range(cards.get((nation, tf_id), 0))

    def in_reach(self, place_or_area: str, area: str, reach: int) -> bool:
        """Whether ``area`` is no more than ``reach`` moves from a place's sea area (or an
        area): the range question the order check, the steps, the map and the computer
        opponent ask (searching no farther than ``reach``)."""
        return self.world.reaches(self.sea_area(place_or_area), area, reach)

    def areas_within(self, place_or_area: str, reach: int) -> set[str]:
        """Sea areas no more than ``reach`` moves from a place's sea area (or an area)."""
        return self.world.within(self.sea_area(place_or_area), reach)

    def air_range(self, nation: str, kind: str, turn: int | None = None) -> int:
        """002 "Operational Range": the nation's air range now (air_ranges.csv)."""
        turn = turn if turn is not None else self.state.turn
        best: tuple[int, int] | None = None
        for row in self.scenario.rows("air_ranges"):
            applies = row["nation"] == nation and row["kind"] == kind
            if (
                applies
                and row["from_turn"] <= turn
                and (best is None or row["from_turn"] > best[0])
            ):
                best = (row["from_turn"], row["range"])
        return best[1] if best else 0

    def air_in_range(self, air_id: str, area: str) -> bool:
        """Whether the air unit ``air_id`` reaches ``area`` from its base (002
        "Operational Range"; False for an unknown air unit)."""
        reach = self._air_reach(air_id)
        if reach is None:
            return False
        base, moves = reach
        return self.in_reach(base, area, moves)

    def air_areas(self, air_id: str) -> set[str]:
        """Every sea area :meth:`air_in_range` says the air unit reaches, at once (for a
        caller asking about many areas; empty for an unknown air unit)."""
        reach = self._air_reach(air_id)
        return self.areas_within(*reach) if reach is not None else set()

    def _air_reach(self, air_id: str) -> tuple[str, int] | None:
        """(its base, its range now) of an air unit; None for an unknown one."""
        air = self.state.air.get(air_id)
        return None if air is None else (air.base, self.air_range(air.nation, air.kind))

    # -- flags ---------------------------------------------------------------------------
    def flags(self, nation: str, turn: int | None = None) -> tuple[int, int]:
        """(naval, military) Operations Flags of ``nation`` this turn (flags.csv, or Game
        Control's correction of it: campaign/control.py)."""
        turn = turn if turn is not None else self.state.turn
        override = self.state.flag_overrides.get(str(turn), {}).get(nation)
        if override is not None:
            return override[0], override[1]
        for row in self.scenario.rows("flags"):
            if row["nation"] == nation and row["turn"] == turn:
                return row["naval"], row["military"]
        return 0, 0

    # -- routes --------------------------------------------------------------------------
    @cached_property
    def route_rows(self) -> Mapping[str, Row]:
        """Every merchant route's row by id: the scenario's, and those created in play."""
        return self._rows("routes")

    def route(self, route_id: str) -> RouteLine:
        """The route's chart line with its tonnage now."""
        return route_line(
            self.scenario,
            self.route_rows[route_id],
            self.state.routes.get(route_id, 0),
            self.place_areas,
        )

    def route_path(self, route_id: str) -> list[str]:
        """The sea areas the route passes through, its ends' first and last (its chart
        line's path, without the rest of the line)."""
        return route_path(self.scenario, self.route_rows[route_id], self.place_areas)

    def route_nation(self, route_id: str) -> str:
        return str(self._column("routes", "nation")[route_id])

    def routes_of(self, nation: str) -> Sequence[str]:
        """``nation``'s merchant routes: the scenario's, in the chart's file order (an
        index made once a scenario), then those created in play. A created route's row
        wins over a scenario route of its id (a game file edited by hand), as in
        :attr:`route_rows`: it is counted once, for the created row's nation."""
        routes = self.scenario.ids_by("routes", "nation").get(nation, ())
        extra = self.state.extra_routes
        if not extra:
            return routes
        return [
            *(r for r in routes if r not in extra),
            *(r for r, row in extra.items() if row["nation"] == nation),
        ]

    def public_route_name(self, route_id: str) -> str:
        """A merchant route as every team knows it. 002: *Merchant routes are marked on the
        map*: a scenario's route by the chart's name (Annex B's names are the public
        chart's); a route created during play by its serial and its ends — the name its
        team gave it is the team's own (docs/team-views.md)."""
        if route_id not in self.state.extra_routes:
            return str(self._column("routes", "name")[route_id])
        row = self.route_rows[route_id]
        return (
            f"route {row['serial']}, {self.public_place_name(str(row['origin']))} – "
            f"{self.public_place_name(str(row['destination']))}"
        )

    def public_place_name(self, place: str) -> str:
        """A place as every team knows it: a fleet train by whose it is (the name its team
        gave it is the team's own), any other place by its name."""
        if self._column("bases", "kind").get(place) == "fleet_train":
            return f"Fleet train of {self.name_of(self.holder(place))}"
        return self.place_name(place)

    def place_name_for(self, place: str, viewer: str | None) -> str:
        """A place's name as the team ``viewer`` reads it (``None``: Game Control, who
        reads every name): a fleet train's name is its own side's (a team typed it); the
        others read whose train it is."""
        if viewer is None or self.friendly(viewer, self.holder(place)):
            return self.place_name(place)
        return self.public_place_name(place)

    def route_name_for(self, route_id: str, viewer: str | None) -> str:
        """The route's name as the team ``viewer`` knows it (``None``: Game Control): its
        own name for its own nation, else :meth:`public_route_name`."""
        if viewer is None or self.route_nation(route_id) == viewer:
            return str(self._column("routes", "name")[route_id])
        return self.public_route_name(route_id)

    def route_ids(self) -> list[str]:
        """Every merchant route, in the chart's (serial) order."""
        serials = self._column("routes", "serial")
        return sorted(serials, key=lambda r: (serials[r], r))

    def routes_by_area(self, routes: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """``routes`` by the sea areas their paths pass through, each area's in the order
        given: for a caller looking for routes near a place (raiders, the computer), who
        then asks about the areas in its reach rather than about every route."""
        index: dict[str, list[str]] = {}
        for r in routes:
            for a in dict.fromkeys(self.route_path(r)):
                index.setdefault(a, []).append(r)
        return {a: tuple(found) for a, found in index.items()}

    def route_status(self, route_id: str) -> RouteStatus:
        """002 "Economic Route Chart": a route works when *both ends of it [are] in your
        hands or the hands of your allies, and uncontested, at the start*. The one answer
        the turn, the order check, the map, the details and the exports give — to every
        team alike (it is on the map), so its words name places by their public names."""
        row = self.route_rows[route_id]
        nation = str(row["nation"])
        places = (str(row["origin"]), str(row["destination"]))
        for place in places:
            if not self.open_to(nation, place):
                holder = self.name_of(self.holder(place))
                return RouteStatus(CUT, f"{self.public_place_name(place)} is held by {holder}")
        contested = self.contested_for(nation)
        if not contested:  # nothing contested for its side: nothing on its way either
            return RouteStatus(WORKING, "working")
        for place in places:
            if self.area_of(place) in contested:
                where = self.public_place_name(place)
                return RouteStatus(CONTESTED, f"{where}'s sea area is contested")
        path = self.route_path(route_id)
        ends = {path[0], path[-1]}
        passing = tuple(a for a in path if a in contested and a not in ends)
        return RouteStatus(WORKING, "working", passing)

    def contested_for(self, nation: str) -> AbstractSet[str]:
        """The sea areas contested for the merchant routes of ``nation``'s side (step 8's,
        for this turn: 002 "Economic Route Chart"), as a set made once for each list the
        state holds. Every route's status asks it, and a big world's list is long: made
        afresh for each question, a turn's questions grew with the routes times the areas.
        The state's lists are replaced, not changed in place (``GameState.contested``); a
        list whose length has changed is read again all the same."""
        key = self.side_key(nation)
        areas = self.state.contested.get(key)
        if not areas:
            return frozenset()
        kept = self._contested.get(key)
        if kept is None or kept[0] is not areas or kept[1] != len(areas):
            kept = self._contested[key] = (areas, len(areas), frozenset(areas))
        return kept[2]

    def route_working(self, route_id: str) -> tuple[bool, str]:
        """(works?, why) — :meth:`route_status` in short."""
        status = self.route_status(route_id)
        return status.working, status.why

    def escorts(self, route_id: str, orders: Mapping[str, Orders]) -> list[RouteForce]:
        """Who protects the route this turn (step 5a), nation by nation in order."""
        return self.escorts_by_route(orders).get(route_id, [])

    def escorts_by_route(self, orders: Mapping[str, Orders]) -> dict[str, list[RouteForce]]:
        """:meth:`escorts` of every route at once (route → escorts; routes nobody escorts
        left out): one pass over the orders, for a step that visits every route."""
        out: dict[str, list[RouteForce]] = {}
        for nation, mine in orders.items():
            for e in mine.escorts:
                force = RouteForce(nation, tuple(e.units), tuple((a.air, a.points) for a in e.air))
                out.setdefault(e.route, []).append(force)
        return out

    def attackers(
        self,
        route_id: str,
        orders: Mapping[str, Orders],
        surface_raids: Iterable[SurfaceRaid] = (),
    ) -> list[RouteForce]:
        """Who attacks the route this turn: submarines and aircraft allocated in step 5c,
        then the surface raids that won through in step 8 (002 "Deployments")."""
        return self.attackers_by_route(orders, surface_raids).get(route_id, [])

    def attackers_by_route(
        self, orders: Mapping[str, Orders], surface_raids: Iterable[SurfaceRaid] = ()
    ) -> dict[str, list[RouteForce]]:
        """:meth:`attackers` of every route at once (route → attackers; routes nobody
        attacks left out)."""
        out: dict[str, list[RouteForce]] = {}
        for nation, mine in orders.items():
            for r in mine.raids:
                air = tuple((a.air, a.points) for a in r.air)
                force = RouteForce(nation, tuple(r.units), air, r.area, False)
                out.setdefault(r.route, []).append(force)
        for raid in surface_raids:
            force = RouteForce(raid.nation, tuple(raid.units), tuple(raid.air), raid.area, True)
            out.setdefault(raid.route, []).append(force)
        return out

    def unit_name(self, unit_id: str) -> str:
        unit = self.state.units.get(unit_id)
        return unit.name if unit else unit_id

    def air_name(self, air_id: str) -> str:
        """Land-based Air Points in words: "land-based air at Rabaul"."""
        air = self.state.air.get(air_id)
        if air is None:
            return air_id
        kind = {"land": "land-based air"}.get(air.kind, f"{air.kind.replace('_', ' ')} air")
        return f"{kind} at {self.place_name(air.base)}"

    def place_name(self, place: str) -> str:
        name = self._column("bases", "name").get(place)
        return str(name) if name is not None else place

    def area_name(self, area: str) -> str:
        return self.world.names.get(area, area)

    def card_value(self, card: str) -> int:
        return int(self.cards[card]["value"])
