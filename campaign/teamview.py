"""The game as one team may know it: the one view every team output is made from.

A team's report, its ``show``, its exports, its seat page, its team pack and the computer
opponent playing it all read a :class:`TeamView`, never Game Control's state. The view is
built by :func:`team_view` — the one place that reads the state on a team's behalf and
decides what the team may know — and by :func:`campaign.events.visible` for the events.
Who learns what, passage by passage from the rules, is in ``docs/team-views.md``:

* **its own forces, whole**: units (where, state, what they were allocated to this turn),
  land-based Air Points, garrisons, LSP, tonnage, its merchant routes with their tonnage,
  the Advantage Cards left in its hand, its Operations Flags, its task forces;
* **its allies' forces** (rule option ``allies_share_forces``, default on): their units,
  Air Points and garrisons — allied navies plan together (002: *Advantage Cards may also
  be played on behalf of Allies*; task forces sail from allied fleet bases);
* **what is public**: the sea areas, every base and who holds it, every merchant route on
  the map (its ends, path, length and whether it works — not an enemy's tonnage), the sea
  areas contested, the task force counters and Naval Operations Flags placed on the map
  this turn (where and whose, not what or under what name);
* **what it learned in combat**: enemy units it fought, as last seen (the battles and
  merchant combats in the events it may see);
* **the events it may see**, through :func:`~campaign.events.visible`.

The view is plain, frozen data; :meth:`TeamView.to_data` is its JSON form, sorted, so the
same game gives the same bytes, and a change in a fact the team cannot know (an enemy unit
in port, an enemy route's tonnage) leaves it unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from .board import Board
from .events import Event, visible
from .forces import fleet_cv
from .options import option
from .orders import Orders
from .scenario import Scenario
from .state import GameState, Unit

#: event kinds in which a team sees the enemy units it fought (their ids in the data)
COMBAT_SIGHTINGS = {
    "naval_combat": lambda data: [
        u for side in data.get("sides", {}).values() for u in side.get("units", [])
    ],
    "merchant_combat": lambda data: [*data.get("raiders", []), *data.get("escorts", [])],
}


@dataclass(frozen=True)
class UnitView:
    """A naval unit as its own side knows it (002 "Units", "Damage")."""

    id: str
    nation: str
    type: str
    name: str
    base: str
    state: str  # ready | damaged | sunk
    carries_air: bool
    #: this turn's allocation (step 5): in_port | transferred | escort | task_force | raid
    assignment: str = "in_port"
    route: str = ""  # escort / raid: the route
    task_force: str = ""  # task force: its id


@dataclass(frozen=True)
class AirView:
    """Land-based Air Points at a place."""

    id: str
    nation: str
    base: str
    kind: str
    points: int


@dataclass(frozen=True)
class GarrisonView:
    base: str
    nation: str
    garrisons: int


@dataclass(frozen=True)
class NationView:
    """A nation and its side: public (the briefing's sides; nations.csv)."""

    id: str
    name: str
    side: str


@dataclass(frozen=True)
class BaseView:
    """A base on the map: public (002 "Bases"; Annex A lists the fleet bases)."""

    id: str
    name: str
    kind: str  # fleet_base | port | island
    island: bool
    sea_area: str
    holder: str
    fleet_base: bool  # a fleet base usable this turn


@dataclass(frozen=True)
class RouteView:
    """A merchant route on the map. 002: *Merchant routes are marked on the map and
    recorded separately* on a chart *maintained by naval map control*: every team sees the
    line; the tonnage is known to the route's own team (``None`` for the others)."""

    id: str
    serial: int
    nation: str
    name: str  # its own name for its team; the public name for the others
    origin: str
    destination: str
    path: tuple[str, ...]
    length: str
    state: str  # working | contested | cut
    why: str
    tonnage: int | None = None
    effective_lift: int | None = None


@dataclass(frozen=True)
class TaskForceView:
    """One of the team's own task forces this turn (002 "Conducting Operations": *a Task
    Force Card is created ... The total Fleet CV is written on the card*)."""

    id: str
    name: str
    base: str
    units: tuple[str, ...]
    cv: int
    lsp: int
    stance: str = "intervene"
    operation: str = ""  # the operation it sails on (its flag), "" for none


@dataclass(frozen=True)
class CounterView:
    """Another nation's task force counter on the map: whose, and where (*a TF Counter
    placed on the Map*); its units, CV and name are on its team's card."""

    nation: str
    base: str
    sea_area: str


@dataclass(frozen=True)
class FlagView:
    """A Naval Operations Flag on the map (002 step 6: *Allocate Naval Operations Flags to
    the map area*). ``operation``: the team's own operation's id, "" for another's flag."""

    nation: str
    sea_area: str
    operation: str = ""


@dataclass(frozen=True)
class SightingView:
    """An enemy unit the team fought, as last seen: in the battle or merchant combat of
    ``turn`` in ``sea_area``; ``last_known`` "seen", "damaged" or "sunk" (from the losses
    the team saw it take)."""

    id: str
    nation: str
    type: str
    name: str
    turn: int
    sea_area: str
    last_known: str


@dataclass(frozen=True)
class CardView:
    """An Advantage Card still in the team's hand (002: *Each card may only be played
    ONCE*)."""

    id: str
    title: str
    type: str
    value: int


@dataclass(frozen=True)
class FlagsView:
    """The team's Operations Flags this turn (flags.csv) and those placed (step 6)."""

    naval: int
    military: int
    naval_used: int = 0
    military_used: int = 0


@dataclass(frozen=True)
class TonnageView:
    total: int
    on_routes: int
    unallocated: int


@dataclass(frozen=True)
class TeamView:
    """The game as the team of ``nation`` may know it (docs/team-views.md)."""

    scenario: str
    turn: int
    step: int
    period: str
    nation: str
    name: str
    side: str
    allies: tuple[str, ...]
    units: tuple[UnitView, ...]
    air: tuple[AirView, ...]
    garrisons: tuple[GarrisonView, ...]
    lsp: tuple[tuple[str, int], ...]  # (base, points), bases with none left out
    tonnage: TonnageView
    cards: tuple[CardView, ...]
    flags: FlagsView
    task_forces: tuple[TaskForceView, ...]
    allied_units: tuple[UnitView, ...]
    allied_air: tuple[AirView, ...]
    allied_garrisons: tuple[GarrisonView, ...]
    nations: tuple[NationView, ...]
    bases: tuple[BaseView, ...]
    routes: tuple[RouteView, ...]
    contested: tuple[tuple[str, tuple[str, ...]], ...]  # (side, sea areas)
    counters: tuple[CounterView, ...]
    flags_on_map: tuple[FlagView, ...]
    sightings: tuple[SightingView, ...]
    events: tuple[Event, ...] = field(default=(), repr=False)

    # -- questions the outputs ask ---------------------------------------------------------
    def unit(self, unit_id: str) -> UnitView | None:
        """An own or allied unit by id (None: not one the team knows in full)."""
        for u in (*self.units, *self.allied_units):
            if u.id == unit_id:
                return u
        return None

    def route(self, route_id: str) -> RouteView | None:
        return next((r for r in self.routes if r.id == route_id), None)

    def base(self, base_id: str) -> BaseView | None:
        return next((b for b in self.bases if b.id == base_id), None)

    def known_units_at(self, base: str) -> list[UnitView]:
        """Own and allied units (not sunk) at ``base``: the In Port card as the team may
        read it — an enemy's port holds nothing the team can know."""
        return [
            u for u in (*self.units, *self.allied_units) if u.base == base and u.state != "sunk"
        ]

    def known_air_at(self, base: str) -> list[AirView]:
        return [a for a in (*self.air, *self.allied_air) if a.base == base and a.points > 0]

    def known_garrisons_at(self, base: str) -> list[GarrisonView]:
        return [g for g in (*self.garrisons, *self.allied_garrisons) if g.base == base]

    def name_of(self, nation: str) -> str:
        """A nation's name, or a side's ("Allies", "Axis")."""
        for n in self.nations:
            if n.id == nation:
                return n.name
        return {"allies": "Allies", "axis": "Axis"}.get(nation, nation)

    def lsp_at(self, base: str) -> int:
        return dict(self.lsp).get(base, 0)

    # -- JSON --------------------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """The view as plain data (what seat pages and the computer opponent read)."""
        data = asdict(self)
        data["lsp"] = dict(self.lsp)
        data["contested"] = {side: list(areas) for side, areas in self.contested}
        data["events"] = [
            {
                "turn": e.turn,
                "step": e.step,
                "kind": e.kind,
                "nation": e.nation,
                "text": e.text,
                "data": e.data,
            }
            for e in self.events
        ]
        return data

    def to_json(self) -> str:
        """Canonical JSON: sorted keys, no spaces; the same view gives the same bytes."""
        return json.dumps(self.to_data(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def team_view(
    scenario: Scenario,
    state: GameState,
    events: Iterable[Event],
    nation: str,
    orders: Orders | None = None,
) -> TeamView:
    """The game as ``nation``'s team may know it.

    ``events``: the whole event log (Game Control's); only what :func:`visible` lets the
    team see is read. ``orders``: the team's own orders for this turn, if any (its task
    forces and flags before they are resolved). Raises KeyError for an unknown nation and
    ValueError for another nation's orders.
    """
    board = Board(scenario, state)
    if nation not in board.nations:
        raise KeyError(nation)
    if orders is not None and orders.nation != nation:
        raise ValueError(f"the orders are {orders.nation}'s, not {nation}'s")
    seen = visible(events, nation)
    side = board.side(nation)
    share = bool(option(scenario.meta.options, "allies_share_forces"))
    allies = tuple(n for n in board.nations if n != nation and board.friendly(n, nation))
    friends = set(allies) if share else set()
    record = state.turn_record

    def unit_view(u: Unit) -> UnitView:
        where = record.where(u.id)
        return UnitView(
            u.id,
            u.nation,
            u.type,
            u.name,
            u.base,
            u.state,
            u.carries_air,
            where.kind,
            where.route,
            where.task_force,
        )

    def units_of(nations: set[str]) -> tuple[UnitView, ...]:
        return tuple(
            unit_view(u)
            for u in sorted(state.units.values(), key=lambda u: u.id)
            if u.nation in nations
        )

    def air_of(nations: set[str]) -> tuple[AirView, ...]:
        return tuple(
            AirView(a.id, a.nation, a.base, a.kind, a.points)
            for a in sorted(state.air.values(), key=lambda a: a.id)
            if a.nation in nations and a.points > 0
        )

    def garrisons_of(nations: set[str]) -> tuple[GarrisonView, ...]:
        return tuple(
            GarrisonView(base, n, count)
            for base in sorted(state.garrisons)
            for n, count in sorted(state.garrisons[base].items())
            if n in nations and count
        )

    routes = tuple(_route_view(board, r, nation) for r in board.route_ids())
    on_routes = sum(r.tonnage or 0 for r in routes if r.nation == nation)
    unallocated = state.tonnage.get(nation, 0)
    naval, military = board.flags(nation)
    used = record.flags.get(nation)
    played = set(state.cards_played)
    return TeamView(
        scenario=scenario.meta.id,
        turn=state.turn,
        step=state.step,
        period=scenario.meta.period_of(state.turn),
        nation=nation,
        name=board.name_of(nation),
        side=side,
        allies=allies,
        units=units_of({nation}),
        air=air_of({nation}),
        garrisons=garrisons_of({nation}),
        lsp=tuple(sorted(state.lsp_of(nation).items())),
        tonnage=TonnageView(on_routes + unallocated, on_routes, unallocated),
        cards=tuple(
            CardView(c["id"], c["title"], c["type"], c["value"])
            for c in sorted(scenario.rows("cards"), key=lambda c: c["id"])
            if c["nation"] == nation and c["id"] not in played
        ),
        flags=FlagsView(
            naval,
            military,
            used.naval_used if used else 0,
            used.military_used if used else 0,
        ),
        task_forces=_task_forces(board, seen, nation, orders),
        allied_units=units_of(friends),
        allied_air=air_of(friends),
        allied_garrisons=garrisons_of(friends),
        nations=tuple(
            NationView(n, board.name_of(n), board.side(n)) for n in sorted(board.nations)
        ),
        bases=tuple(
            BaseView(
                b,
                board.place_name_for(b, nation),
                str(row["kind"]),
                bool(row["island"]),
                str(row["sea_area"]),
                board.holder(b),
                board.is_fleet_base(b),
            )
            for b, row in sorted(board.bases.items())
        ),
        routes=routes,
        contested=tuple(
            (side_key, tuple(sorted(areas))) for side_key, areas in sorted(state.contested.items())
        ),
        counters=_counters(seen, nation, state.turn),
        flags_on_map=_flags(seen, nation, state.turn, orders),
        sightings=_sightings(board, seen, nation, friends),
        events=tuple(seen),
    )


def _route_view(board: Board, route_id: str, nation: str) -> RouteView:
    line = board.route(route_id)
    status = board.route_status(route_id)
    own = line.nation == nation
    return RouteView(
        line.id,
        line.serial,
        line.nation,
        board.route_name_for(route_id, nation),
        line.origin,
        line.destination,
        line.path,
        line.length.label,
        status.state,
        status.why,
        line.tonnage if own else None,
        line.effective_lift if own else None,
    )


def _task_forces(
    board: Board, seen: list[Event], nation: str, orders: Orders | None
) -> tuple[TaskForceView, ...]:
    """The team's own task forces this turn: from its orders when given, else from the
    task forces its report says were formed this turn (step 5; which operation each sails
    on is in the orders only)."""
    state = board.state
    if orders is not None:
        operation = {
            tf: op.id
            for op in orders.operations
            for tf in (*op.task_forces, op.invasion_force)
            if tf
        }
        return tuple(
            TaskForceView(
                tf.id,
                tf.name,
                tf.base,
                tf.units,
                sum(fleet_cv(state.units[u]) for u in tf.units if u in state.units),
                tf.lsp,
                tf.stance,
                operation.get(tf.id, ""),
            )
            for tf in sorted(orders.task_forces, key=lambda tf: tf.id)
        )
    out = []
    for e in seen:
        if e.kind != "task_force_formed" or e.nation != nation or e.turn != state.turn:
            continue
        units = tuple(str(u) for u in e.data.get("units", []))
        out.append(
            TaskForceView(
                str(e.data.get("task_force", "")),
                _quoted(e.text),
                str(e.data.get("base", "")),
                units,
                sum(fleet_cv(state.units[u]) for u in units if u in state.units),
                int(e.data.get("lsp", 0)),
            )
        )
    return tuple(sorted(out, key=lambda tf: tf.id))


def _quoted(text: str) -> str:
    """The first 'quoted' words of an event's text (a task force's name)."""
    start = text.find("'")
    end = text.find("'", start + 1)
    return text[start + 1 : end] if 0 <= start < end else ""


def _counters(seen: list[Event], nation: str, turn: int) -> tuple[CounterView, ...]:
    """Other nations' task force counters placed on the map this turn (step 5)."""
    counters = (
        CounterView(e.nation, str(e.data.get("base", "")), str(e.data.get("area", "")))
        for e in seen
        if e.kind == "task_force_formed" and e.turn == turn and e.nation != nation
    )
    return tuple(sorted(counters, key=lambda c: (c.nation, c.base, c.sea_area)))


def _flags(
    seen: list[Event], nation: str, turn: int, orders: Orders | None
) -> tuple[FlagView, ...]:
    """Naval Operations Flags on the map this turn: the others' placed in step 6, and the
    team's own (from its orders, or from its report once placed)."""
    out = [
        FlagView(e.nation, str(e.data.get("area", "")))
        for e in seen
        if e.kind == "flag_placed" and e.turn == turn and e.nation != nation
    ]
    if orders is not None:
        out += [FlagView(nation, op.area, op.id) for op in orders.operations]
    else:
        out += [
            FlagView(nation, str(e.data.get("area", "")), str(e.data.get("operation", "")))
            for e in seen
            if e.kind == "flag_placed" and e.turn == turn and e.nation == nation
        ]
    return tuple(sorted(out, key=lambda f: (f.nation, f.sea_area, f.operation)))


def _sightings(
    board: Board, seen: list[Event], nation: str, friends: set[str]
) -> tuple[SightingView, ...]:
    """Enemy units the team fought, as last seen, from the combats in its events."""
    state = board.state
    last: dict[str, tuple[int, str, str]] = {}  # unit → (turn, area, last known)
    for e in seen:
        if e.kind in COMBAT_SIGHTINGS:
            for uid in COMBAT_SIGHTINGS[e.kind](e.data):
                known = last.get(uid, (0, "", "seen"))[2]
                last[uid] = (
                    e.turn,
                    str(e.data.get("area", "")),
                    "sunk" if known == "sunk" else "seen",
                )
        elif e.kind in ("unit_damaged", "unit_sunk"):
            uid = str(e.data.get("unit", ""))
            turn, area, _ = last.get(uid, (e.turn, "", "seen"))
            last[uid] = (turn, area, "damaged" if e.kind == "unit_damaged" else "sunk")
    out = []
    for uid, (turn, area, known) in last.items():
        unit = state.units.get(uid)
        if unit is None or unit.nation == nation or unit.nation in friends:
            continue
        out.append(SightingView(uid, unit.nation, unit.type, unit.name, turn, area, known))
    return tuple(sorted(out, key=lambda s: s.id))
