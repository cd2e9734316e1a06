"""The two-month turn: 002 "Turn sequence", ten steps in the seed's order.

:data:`STEPS` lists the steps as data, each with the function that runs it. A step is a
function of a :class:`Turn` (the scenario, the state it changes, every nation's orders, the
dice and the owner's loss choices) that appends :class:`~campaign.events.Event`\\ s. The
orders are checked whole before step 1 runs (:func:`campaign.rules.check_turn`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import merchant_warfare as mw
from .board import Board
from .dice import Dice
from .events import UMPIRE, Event
from .forces import (
    CARRIERS,
    attack_cv,
    carries_air,
    defence_cv,
    fleet_cv,
    land_air_cv,
    surface_rank,
)
from .losses import Casualty, LossPolicy, LossRequest, SpreadLosses, check_allocation
from .options import option
from .orders import Orders
from .scenario import Scenario
from .state import AirUnit, GameState, Unit
from .units import unit_values


@dataclass
class Turn:
    """Everything a step needs. ``state`` is changed in place."""

    scenario: Scenario
    state: GameState
    orders: Mapping[str, Orders]
    dice: Dice
    losses: LossPolicy = field(default_factory=SpreadLosses)
    events: list[Event] = field(default_factory=list)
    #: Game Control's choice for each step-8 battle: a tactical rule set's name to fight
    #: it out, or None for the damage table (operations.BattleChoice → str | None)
    fight: Callable[[Any], str | None] | None = None
    #: shown a tactical battle before it is run to its end: (battle, set-up) → None
    watch: Callable[[Any, Any], None] | None = None

    @property
    def board(self) -> Board:
        return Board(self.scenario, self.state)

    @property
    def record(self) -> dict[str, Any]:
        return self.state.turn_record

    @property
    def options(self) -> dict[str, Any]:
        return self.scenario.meta.options

    def emit(
        self,
        kind: str,
        text: str,
        nation: str = "",
        visible_to: tuple[str, ...] = (),
        /,
        **data: Any,
    ) -> Event:
        event = Event(self.state.turn, self.state.step, kind, text, nation, data, visible_to)
        self.events.append(event)
        return event

    def nations(self) -> list[str]:
        """Nations with orders, in nations.csv order (the order every step goes in)."""
        return [n for n in self.scenario.by_id("nations") if n in self.orders]

    def take_losses(self, request: LossRequest) -> list[str]:
        """Ask the owner (the loss policy) and check the answer; when every candidate is
        lost anyway nobody is asked."""
        if request.due == 0:
            return []
        if request.due == request.capacity:  # everything is lost: there is no choice
            return [c.id for c in request.candidates for _ in range(c.steps_left)]
        chosen = list(self.losses.allocate(request))
        check_allocation(request, chosen)
        return chosen

    def hit_unit(self, unit: Unit, context: str) -> None:
        """One step of loss on a unit: ready → damaged → sunk (002 "Damage")."""
        if unit.state == "ready":
            unit.state = "damaged"
            if unit.carries_air:
                unit.carries_air = False
                self.land_carrier_air(unit)
            self.emit(
                "unit_damaged",
                f"{unit.name} ({self.board.name_of(unit.nation)}) is damaged — {context}.",
                unit.nation,
                unit=unit.id,
                context=context,
            )
        elif unit.state == "damaged":
            unit.state = "sunk"
            self.emit(
                "unit_sunk",
                f"{unit.name} ({self.board.name_of(unit.nation)}) is sunk — {context}.",
                unit.nation,
                unit=unit.id,
                context=context,
            )

    def land_carrier_air(self, unit: Unit) -> None:
        """002: *Damaged Carrier units cannot carry their air unit any longer – this must be
        transferred to land or another carrier unit*: it goes ashore at the carrier's base."""
        air_id = f"{unit.id}_air"
        existing = self.state.air.get(air_id)
        if existing:
            existing.points += 1
            existing.base = unit.base
        else:
            self.state.air[air_id] = AirUnit(air_id, unit.nation, unit.base, "land", 1)
        self.emit(
            "air_landed",
            f"{unit.name}'s Air Point goes ashore at {self.board.place_name(unit.base)}.",
            unit.nation,
            (unit.nation,),
            unit=unit.id,
            air=air_id,
        )


def _count(n: int, noun: str) -> str:
    """``3 units``, ``1 Air Point``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def unit_casualty(unit: Unit, cv: Callable[[Unit], int]) -> Casualty:
    """A unit as a loss candidate, with the CV it keeps after one and two steps."""
    after = Unit(**{**unit.__dict__})
    values = []
    for state in ("damaged", "sunk"):
        after.state = state
        after.carries_air = False
        values.append(cv(after))
    return Casualty(
        unit.id,
        unit.nation,
        "unit",
        unit.name,
        unit.type,
        2 if unit.state == "ready" else 1,
        cv(unit),
        values[0],
        values[1] if unit.state == "ready" else values[0],
    )


# == step 1 ==============================================================================
def move_supplies(t: Turn) -> None:
    """1. *Move supplies (including LSP) using Tonnage points left over from the previous
    turn.* The economy's LSP arrive first (lsp_supply.csv); then each route carries what the
    orders load, within its effective lift (002 "Transportation and Supply")."""
    board = t.board
    for row in t.scenario.rows("lsp_supply"):
        if row["turn"] == t.state.turn and row["points"]:
            t.state.add_lsp(row["base"], row["nation"], row["points"])
            t.emit(
                "lsp_delivered",
                f"{row['points']} LSP delivered at {board.place_name(row['base'])}.",
                row["nation"],
                (row["nation"],),
                base=row["base"],
                points=row["points"],
            )
    for nation in t.nations():
        for move in t.orders[nation].supplies:
            route = board.route(move.route)
            row = board.route_rows[move.route]
            if move.lsp:
                t.state.add_lsp(row["origin"], nation, -move.lsp)
                t.state.add_lsp(row["destination"], nation, move.lsp)
                t.emit(
                    "lsp_moved",
                    f"{move.lsp} LSP shipped {board.place_name(row['origin'])} "
                    f"→ {board.place_name(row['destination'])} on '{route.name}'.",
                    nation,
                    (nation,),
                    route=move.route,
                    lsp=move.lsp,
                )
            if move.cargo:
                t.emit(
                    "cargo_moved",
                    f"{move.points} {move.cargo.replace('_', ' ')} point(s) "
                    f"carried on '{route.name}' to {board.place_name(row['destination'])} "
                    "(for the economic and land games).",
                    nation,
                    (nation, UMPIRE),
                    route=move.route,
                    cargo=move.cargo,
                    points=move.points,
                    destination=row["destination"],
                )


# == step 2 ==============================================================================
def production_due(board: Board) -> list[tuple[Mapping[str, Any], str | None]]:
    """Production rows due this turn, or due earlier and delayed, not yet commissioned, each
    with the fleet base nearest its shipyard where it joins (None: its nation holds no fleet
    base, and the ship waits in the yard)."""
    state = board.state
    out: list[tuple[Mapping[str, Any], str | None]] = []
    for row in board.scenario.rows("production"):
        if row["turn"] > state.turn or row["id"] in state.units:
            continue
        yard = board.shipyards[row["shipyard"]]
        try:
            base: str | None = board.nearest_fleet_base(
                row["nation"], yard["sea_area"], (yard["lon"], yard["lat"])
            )
        except LookupError:
            base = None
        out.append((row, base))
    return out


def _commission(state: GameState, row: Mapping[str, Any], base: str) -> Unit:
    carrier = row["type"] in ("fleet_carrier", "escort_carrier")
    unit = Unit(row["id"], row["nation"], row["type"], row["name"], base, "ready", carrier)
    state.units[row["id"]] = unit
    return unit


def with_production(scenario: Scenario, state: GameState) -> GameState:
    """The state as a turn's orders see it: before step 2 has run, the ships it will
    commission are already at their fleet bases, so orders may name them (002: "2. Add new
    ship production ... 5. Allocate units available"). Returns ``state`` itself once step
    2 is done, else a copy."""
    if state.step >= 2:
        return state
    projected = copy.deepcopy(state)
    for row, base in production_due(Board(scenario, projected)):
        if base is not None:
            _commission(projected, row, base)
    return projected


def new_production(t: Turn) -> None:
    """2. *Add new ship production to nearest fleet base to the shipyard.* A ship whose
    nation holds no fleet base waits in the yard and joins when it holds one again."""
    board = t.board
    for row, base in production_due(board):
        yard = board.shipyards[row["shipyard"]]
        if base is None:
            t.emit(
                "production_delayed",
                f"{row['name']} cannot join the fleet yet: {board.name_of(row['nation'])} "
                "holds no fleet base; it waits in the yard.",
                row["nation"],
                (row["nation"],),
                unit=row["id"],
            )
            continue
        _commission(t.state, row, base)
        t.emit(
            "unit_commissioned",
            f"{row['name']} joins the fleet at {board.place_name(base)} (built at {yard['name']}).",
            row["nation"],
            (row["nation"],),
            unit=row["id"],
            base=base,
            shipyard=row["shipyard"],
        )


# == step 3 ==============================================================================
def strategic_transfers(t: Turn) -> None:
    """3. *Strategic base to base transfers. Units that do this may not also conduct
    operations of any sort that turn. Strategic moves can be of any length. Place
    strategically moved unit counters on an 'In Port' Card.*"""
    board = t.board
    moved = t.record.setdefault("transferred", [])
    for nation in t.nations():
        for move in t.orders[nation].transfers:
            unit = t.state.units[move.unit]
            origin = unit.base
            unit.base = move.to
            moved.append(unit.id)
            t.emit(
                "unit_transferred",
                f"{unit.name} moves {board.place_name(origin)} → "
                f"{board.place_name(move.to)} (In Port).",
                nation,
                (nation,),
                unit=unit.id,
                origin=origin,
                to=move.to,
            )


# == step 4 ==============================================================================
def allocate_tonnage(t: Turn) -> None:
    """4. *Allocate available tonnage points to merchant routes. New merchant routes can be
    created by diverting tonnage points to them.*"""
    for nation in t.nations():
        orders = t.orders[nation]
        serial = max(
            [r["serial"] for r in t.scenario.rows("routes")]
            + [r["serial"] for r in t.state.extra_routes.values()]
        )
        for new in orders.new_routes:
            serial += 1
            t.state.extra_routes[new.id] = {
                "id": new.id,
                "serial": serial,
                "name": new.name,
                "nation": nation,
                "origin": new.origin,
                "destination": new.destination,
                "via": list(new.via),
                "tonnage": 0,
                "notes": f"created on turn {t.state.turn}",
            }
            t.state.routes.setdefault(new.id, 0)
            t.emit(
                "route_created",
                f"New merchant route '{new.name}' ({serial}).",
                nation,
                (nation,),
                route=new.id,
            )
        changes = dict(orders.tonnage)
        for new in orders.new_routes:
            changes.setdefault(new.id, new.tonnage)
        if not changes:
            continue
        board = t.board
        total = t.state.total_tonnage(nation, board.route_nations())
        for route, points in changes.items():
            before = t.state.routes.get(route, 0)
            t.state.routes[route] = points
            if points != before:
                t.emit(
                    "tonnage_allocated",
                    f"'{board.route(route).name}': {before} → {points} tonnage points.",
                    nation,
                    (nation,),
                    route=route,
                    before=before,
                    after=points,
                )
        on_routes = sum(p for r, p in t.state.routes.items() if board.route_nation(r) == nation)
        t.state.tonnage[nation] = total - on_routes


# == step 5 ==============================================================================
def allocate_units(t: Turn) -> None:
    """5. *Allocate units available (i.e. those not conducting strategic moves) to a.
    merchant shipping protection or b. task forces or c. attacking merchant shipping.*
    Units left out are In Port."""
    board = t.board
    where: dict[str, str] = {u: "transferred" for u in t.record.get("transferred", [])}
    for nation in t.nations():
        orders = t.orders[nation]
        for e in orders.escorts:
            for u in e.units:
                where[u] = f"escort:{e.route}"
            air_points = sum(a.points for a in e.air)
            who = " and ".join(
                part
                for part in (
                    _count(len(e.units), "unit"),
                    _count(air_points, "Air Point") if air_points else "",
                )
                if part and not part.startswith("0 ")
            )
            one = who.startswith("1 ") and " and " not in who
            t.emit(
                "escort_allocated",
                f"{who or 'Nothing'} escort{'s' if one else ''} '{board.route(e.route).name}'.",
                nation,
                (nation,),
                route=e.route,
                units=list(e.units),
                air=[[a.air, a.points] for a in e.air],
            )
        for tf in orders.task_forces:
            for u in tf.units:
                where[u] = f"tf:{nation}:{tf.id}"
            cv = sum(fleet_cv(t.state.units[u]) for u in tf.units)
            t.emit(
                "task_force_formed",
                f"Task Force '{tf.name}' formed at "
                f"{board.place_name(tf.base)}: {len(tf.units)} unit(s), CV {cv}, "
                f"{tf.lsp} LSP.",
                nation,
                (nation,),
                task_force=tf.id,
                base=tf.base,
                units=list(tf.units),
                cv=cv,
                lsp=tf.lsp,
            )
        for r in orders.raids:
            for u in r.units:
                where[u] = f"raid:{r.route}"
            t.emit(
                "raiders_allocated",
                f"{len(r.units)} unit(s) attack "
                f"'{board.route(r.route).name}' in {board.area_name(r.area)}.",
                nation,
                (nation,),
                route=r.route,
                area=r.area,
                units=list(r.units),
            )
    t.record["assignments"] = where


# == step 6 ==============================================================================
def place_flags(t: Turn) -> None:
    """6. *Allocate Naval Operations Flags to the map area you wish to conduct any specific
    operations in.* One flag per operation (covering and invasion forces share it); a major
    landing also takes a Military Operations Flag."""
    board = t.board
    flags = t.record.setdefault("flags", {})
    for nation in t.nations():
        ops = t.orders[nation].operations
        naval, military = board.flags(nation)
        used_naval = len(ops)
        used_military = sum(1 for o in ops if o.kind == "major_invasion")
        flags[nation] = {
            "naval": naval,
            "military": military,
            "naval_used": used_naval,
            "military_used": used_military,
        }
        for op in ops:
            t.emit(
                "flag_placed",
                f"Naval Operations Flag: {op.kind.replace('_', ' ')} "
                f"'{op.id}' in {board.area_name(op.area)}.",
                nation,
                (nation,),
                operation=op.id,
                operation_kind=op.kind,
                area=op.area,
            )


# == step 7 ==============================================================================
def play_cards(t: Turn) -> None:
    """7. *Play Advantage Cards.* Each card once, for one of its five uses; cards may be
    played on behalf of allies. Effects are kept for steps 8 and 9."""
    board = t.board
    effects = t.record.setdefault("cards", [])
    for nation in t.nations():
        for play in t.orders[nation].cards:
            value = board.card_value(play.card)
            t.state.cards_played.append(play.card)
            effect = {
                "card": play.card,
                "nation": nation,
                "use": play.use,
                "value": value,
                "beneficiary": play.beneficiary or nation,
                "task_force": play.task_force,
                "route": play.route,
                "text": play.text,
                "used": False,
                "ruling": "",
            }
            effects.append(effect)
            title = board.cards[play.card]["title"]
            words = {
                "extra_flag": "an extra Naval Operations Flag",
                "range": f"+1 sea area of range for '{play.task_force}'",
                "die_bonus": f"+{value} to a combat die roll",
                "column_shift": "one column shift",
                "other": f"Game Control is asked: {play.text}",
            }[play.use]
            t.emit(
                "card_played",
                f"Advantage Card '{title}' played: {words}.",
                nation,
                (nation, UMPIRE),
                **{k: v for k, v in effect.items() if k != "used"},
            )


def card_bonus(
    t: Turn,
    use: str,
    *,
    task_forces: Sequence[tuple[str, str]] = (),
    route: str = "",
    nations: set[str] | None = None,
    peek: bool = False,
) -> int:
    """Sum of unused card values of ``use`` aimed at one of ``task_forces`` ((nation, id))
    or at ``route`` and benefiting ``nations``; marks them used ("for a single attack")."""
    total = 0
    for effect in t.record.get("cards", []):
        if effect["use"] != use or effect["used"]:
            continue
        if nations is not None and effect["beneficiary"] not in nations:
            continue
        aimed = (effect["beneficiary"], effect["task_force"])
        hit = (effect["task_force"] and aimed in task_forces) or (
            route and effect["route"] == route
        )
        if hit:
            effect["used"] = effect["used"] or not peek
            total += effect["value"] if use == "die_bonus" else 1
    return total


# == step 9 ==============================================================================
def merchant_warfare(t: Turn) -> None:
    """9. *Calculate effects of Merchant Warfare* (002 "Calculating Losses")."""
    board = t.board
    short_row = str(option(t.options, "colour_short_row"))
    raids: dict[str, list[tuple[str, str, list[str], list[tuple[str, int]], bool]]] = {}
    for nation in t.nations():
        for r in t.orders[nation].raids:
            raids.setdefault(r.route, []).append(
                (nation, r.area, list(r.units), [(a.air, a.points) for a in r.air], False)
            )
    for raid in t.record.get("surface_raids", []):
        raids.setdefault(raid["route"], []).append(
            (raid["nation"], raid["area"], raid["units"], raid["air"], True)
        )
    escorts: dict[str, list[tuple[str, list[str], list[tuple[str, int]]]]] = {}
    for nation in t.nations():
        for e in t.orders[nation].escorts:
            escorts.setdefault(e.route, []).append(
                (nation, list(e.units), [(a.air, a.points) for a in e.air])
            )
    status = t.record.setdefault("routes", {})
    for route_id in sorted(board.route_rows, key=lambda r: (board.route_rows[r]["serial"], r)):
        working, why = board.route_working(route_id)
        line = board.route(route_id)
        status[route_id] = {"working": working, "why": why}
        groups: dict[str, list[tuple[str, str, list[str], list[tuple[str, int]], bool]]] = {}
        for raid in raids.get(route_id, []):
            groups.setdefault(raid[1], []).append(raid)
        for area in sorted(groups):
            _merchant_combat(
                t,
                board,
                route_id,
                line.name,
                area,
                groups[area],
                escorts.get(route_id, []),
                short_row,
            )
        if not working:
            t.emit(
                "route_cut",
                f"'{line.name}' does not work: {why}.",
                line.nation,
                route=route_id,
                reason=why,
            )


def _merchant_combat(
    t: Turn,
    board: Board,
    route_id: str,
    route_name: str,
    area: str,
    raiders: list[tuple[str, str, list[str], list[tuple[str, int]], bool]],
    escorts: list[tuple[str, list[str], list[tuple[str, int]]]],
    short_row: str,
) -> None:
    state = t.state
    owner = board.route_nation(route_id)
    raid_units = [state.units[u] for r in raiders for u in r[2] if state.units[u].state != "sunk"]
    escort_units = [state.units[u] for e in escorts for u in e[1] if state.units[u].state != "sunk"]
    raid_air = [(a, p) for r in raiders for a, p in r[3] if board.air_in_range(a, area)]
    escort_air = [(a, p) for e in escorts for a, p in e[2] if board.air_in_range(a, area)]
    a_cv = sum(attack_cv(u) for u in raid_units) + sum(
        land_air_cv(state.air[a].kind, p, "attack") for a, p in raid_air
    )
    e_cv = sum(defence_cv(u) for u in escort_units) + sum(
        land_air_cv(state.air[a].kind, p, "defence") for a, p in escort_air
    )
    raid_air_points = sum(p for _, p in raid_air) + sum(1 for u in raid_units if carries_air(u))
    escort_air_points = sum(p for _, p in escort_air) + sum(
        1 for u in escort_units if carries_air(u)
    )
    shift = 0
    reasons = []
    if raid_air_points and raid_air_points >= 3 * escort_air_points:
        shift += 2
        reasons.append("raiders' air supremacy +2")
    elif escort_air_points and escort_air_points >= 3 * raid_air_points:
        shift -= 2
        reasons.append("escorts' air supremacy −2")
    surface = any(r[4] for r in raiders)
    if surface and surface_rank(
        u for r in raiders if r[4] for u in (state.units[x] for x in r[2])
    ) > surface_rank(escort_units):
        shift += 2
        reasons.append("escorts outclassed by surface raider +2")
    raid_nations = {r[0] for r in raiders}
    escort_nations = {e[0] for e in escorts} | {owner}
    german = sum(1 for u in raid_units if u.type == "submarine" and u.nation == "germany")
    others = len(raid_units) - german + sum(p for _, p in raid_air)
    everyone = (*tuple(sorted(raid_nations | escort_nations)), UMPIRE)
    if mw.odds_column(a_cv, e_cv) is None:
        t.emit(
            "merchant_no_combat",
            f"'{route_name}', {board.area_name(area)}: raiders CV "
            f"{a_cv} against escorts CV {e_cv} — below 1:3, no combat.",
            owner,
            everyone,
            route=route_id,
            area=area,
            attack_cv=a_cv,
            escort_cv=e_cv,
        )
        return
    # Cards are spent only on a combat that happens ("for a single attack").
    shift += card_bonus(t, "column_shift", route=route_id, nations=raid_nations)
    shift -= card_bonus(t, "column_shift", route=route_id, nations=escort_nations)
    a_bonus = card_bonus(t, "die_bonus", route=route_id, nations=raid_nations)
    e_bonus = card_bonus(t, "die_bonus", route=route_id, nations=escort_nations)
    combat = mw.MerchantCombat(a_cv, e_cv, german, others, surface, shift, a_bonus, e_bonus)
    a_roll = t.dice.roll(f"merchant warfare '{route_name}': interdictor")
    e_roll = t.dice.roll(f"merchant warfare '{route_name}': escort")
    result = mw.resolve(combat, a_roll, e_roll, short_row)
    lost = min(result.tonnage_lost, state.routes.get(route_id, 0))
    state.routes[route_id] = state.routes.get(route_id, 0) - lost
    t.emit(
        "merchant_combat",
        f"'{route_name}', {board.area_name(area)}: raiders CV {a_cv} vs escorts CV {e_cv} "
        f"({mw.ODDS_LABELS[result.base_column or 0]}"
        + (f", shifted to {mw.ODDS_LABELS[result.column or 0]}" if shift else "")
        + f"); dice {a_roll}{'+' + str(a_bonus) if a_bonus else ''} − {e_roll}"
        f"{'+' + str(e_bonus) if e_bonus else ''} = {result.difference:+d}: "
        f"{mw.COLOURS[result.colour]}. Merchants lose {lost} tonnage; escorts "
        f"{result.escort_steps} step(s); raiders {result.raider_steps}.",
        owner,
        everyone,
        route=route_id,
        area=area,
        attack_cv=a_cv,
        escort_cv=e_cv,
        shift=shift,
        shift_reasons=reasons,
        attack_roll=a_roll,
        escort_roll=e_roll,
        attack_bonus=a_bonus,
        escort_bonus=e_bonus,
        column=mw.ODDS_LABELS[result.column or 0],
        row=mw.ROW_LABELS[result.row or 0],
        colour=mw.COLOURS[result.colour],
        tonnage_lost=lost,
        escort_steps=result.escort_steps,
        raider_steps=result.raider_steps,
        raiders=[u.id for u in raid_units],
        escorts=[u.id for u in escort_units],
    )
    context = f"merchant warfare on '{route_name}'"
    for units, steps, side, cv in (
        (escort_units, result.escort_steps, "escorts", defence_cv),
        (raid_units, result.raider_steps, "raiders", attack_cv),
    ):
        if steps and units:
            request = LossRequest(
                f"{side} of '{route_name}'",
                tuple(sorted({u.nation for u in units})),
                steps,
                tuple(unit_casualty(u, cv) for u in units),
                context,
            )
            for uid in t.take_losses(request):
                t.hit_unit(state.units[uid], context)


# == step 10 =============================================================================
def repairs(t: Turn) -> None:
    """10. *Update repairs on damaged units that have spent the turn in a Fleet Base.*
    *One base can repair one unit per turn … the unit must be on the appropriate Port
    Card* — units left In Port (or transferred there) this turn."""
    board = t.board
    where = t.record.get("assignments", {})
    damaged_at: dict[str, list[Unit]] = {}
    for u in t.state.units.values():
        if u.state == "damaged" and where.get(u.id, "in_port") in ("in_port", "transferred"):
            damaged_at.setdefault(u.base, []).append(u)
    for base in sorted(damaged_at):
        if not board.is_fleet_base(base):
            continue
        holder = board.holder(base)
        waiting = [u for u in damaged_at[base] if board.friendly(u.nation, holder)]
        if not waiting:
            continue
        unit = max(waiting, key=lambda u: (unit_values(u.type, u.nation).fleet, u.type, u.id))
        unit.state = "ready"
        t.emit(
            "unit_repaired",
            f"{unit.name} repaired at {board.place_name(base)}.",
            unit.nation,
            (unit.nation,),
            unit=unit.id,
            base=base,
        )
    # a ready carrier group takes its Air Point aboard again wherever the two meet: at the
    # base where it was repaired, or where it returns to the Air Point it put ashore
    for unit in t.state.units.values():
        if unit.type not in CARRIERS or unit.state != "ready" or unit.carries_air:
            continue
        air = t.state.air.get(f"{unit.id}_air")
        if air is None or air.base != unit.base or air.points <= 0:
            continue
        air.points -= 1
        unit.carries_air = True
        if air.points == 0:
            del t.state.air[air.id]
        t.emit(
            "air_embarked",
            f"{unit.name} takes its Air Point aboard at {board.place_name(unit.base)}.",
            unit.nation,
            (unit.nation,),
            unit=unit.id,
            air=air.id,
        )


@dataclass(frozen=True)
class Step:
    number: int
    name: str
    run: Callable[[Turn], None]
    #: the seed's words for the step
    seed: str


def _naval_operations(t: Turn) -> None:
    from .operations import naval_operations

    naval_operations(t)


#: 002 "Turn sequence": the ten steps, in the seed's order.
STEPS: tuple[Step, ...] = (
    Step(
        1,
        "Move supplies",
        move_supplies,
        "Move supplies (including LSP) using Tonnage points left over from the previous turn.",
    ),
    Step(
        2,
        "New production",
        new_production,
        "Add new ship production to nearest fleet base to the shipyard.",
    ),
    Step(3, "Strategic transfers", strategic_transfers, "Strategic base to base transfers."),
    Step(
        4,
        "Merchant tonnage",
        allocate_tonnage,
        "Allocate available tonnage points to merchant routes.",
    ),
    Step(
        5,
        "Allocate units",
        allocate_units,
        "Allocate units available to merchant shipping protection, task forces or attacking "
        "merchant shipping.",
    ),
    Step(
        6,
        "Operations Flags",
        place_flags,
        "Allocate Naval Operations Flags to the map area you wish to conduct operations in.",
    ),
    Step(7, "Advantage Cards", play_cards, "Play Advantage Cards."),
    Step(8, "Naval operations", _naval_operations, "Assess results of Naval Operations."),
    Step(9, "Merchant warfare", merchant_warfare, "Calculate effects of Merchant Warfare."),
    Step(
        10,
        "Repairs",
        repairs,
        "Update repairs on damaged units that have spent the turn in a Fleet Base.",
    ),
)


def end_turn(t: Turn) -> None:
    """After step 10: the next turn begins with its orders still to give."""
    t.state.contested = t.record.get("contested_next", {})
    t.state.turn_record = {}
    t.state.turn += 1
    t.state.step = 0
    t.emit(
        "turn_started", f"Turn {t.state.turn} begins ({t.scenario.meta.period_of(t.state.turn)})."
    )
