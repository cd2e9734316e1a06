"""Orders checked against the rules before anything happens.

An order set is accepted whole or refused whole: :func:`check_orders` lists every problem,
each naming the order and the rule it breaks. Nothing is applied until all nations' orders
pass :func:`check_turn`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property

from .board import Board
from .forces import landing_capacity
from .options import option
from .orders import (
    BULK_CARGO,
    AirAllocation,
    Operation,
    OrderProblem,
    Orders,
    TaskForce,
    range_cards_by_task_force,
)
from .state import Unit
from .units import LANDING_CRAFT_CAPACITY

#: rule names used in messages (the seed passage each order breaks)
R_TURN = "002 Turn sequence"
R_SUPPLY = "002 Transportation and Supply"
R_ROUTE = "002 Economic Route Chart"
R_TRANSFER = "002 Turn sequence, step 3"
R_UNITS = "002 Turn sequence, step 5"
R_TF = "002 Conducting Operations"
R_RANGE = "002 Operational Range"
R_FLAGS = "002 Naval Operations Flags"
R_AMPHIB = "002 Amphibious Operations"
R_CARDS = "002 Advantage Cards"
R_LSP = "002 Logistic Support Points"
R_RAID = "002 Deployments"
R_MERCHANT = "002 Calculating Losses"
R_DAMAGE = "002 Damage"
R_TRAIN = "002 Bases: Fleet train"

#: rule option: troops an invasion force without landing craft may still put ashore
#: (docs/rules-notes.md "Landing without landing craft")


class _Check:
    def __init__(self, board: Board, orders: Orders, others: Mapping[str, Orders]) -> None:
        self.b = board
        self.o = orders
        self.others = others
        self.nation = orders.nation
        self.who = board.name_of(orders.nation)  # the nation in the messages' words
        self.problems: list[OrderProblem] = []
        self.options = board.scenario.meta.options
        #: the routes the orders create (step 4), which the orders' later steps may name
        self.new_route_ids = frozenset(r.id for r in orders.new_routes)

    def reach(self, tf_id: str) -> int:
        """:meth:`Board.task_force_reach` of one of the nation's task forces, the cards of
        every nation's orders counted once a check (a big world's orders play hundreds)."""
        return self.b.reach_with(self._range_cards, self.nation, tf_id)

    @cached_property
    def _range_cards(self) -> Counter[tuple[str, str]]:
        return range_cards_by_task_force([self.o, *self.others.values()])

    def bad(self, where: str, rule: str, message: str) -> None:
        self.problems.append(OrderProblem(self.nation, where, rule, message))

    # -- helpers -------------------------------------------------------------------------
    def own_unit(self, unit_id: str, where: str) -> Unit | None:
        """The unit, if it is this nation's and afloat (else the problem is noted)."""
        unit = self.b.state.units.get(unit_id)
        if unit is None:
            self.bad(where, R_UNITS, f"there is no unit '{unit_id}'")
            return None
        if unit.nation != self.nation:
            owner = self.b.name_of(unit.nation)
            self.bad(where, R_UNITS, f"{unit.name} is {owner}'s, not {self.who}'s")
            return None
        if unit.state == "sunk":
            self.bad(where, R_UNITS, f"{unit.name} has been sunk")
            return None
        return unit

    def route_exists(self, route: str, where: str) -> bool:
        if route not in self.b.route_rows and route not in self.new_route_ids:
            self.bad(where, R_ROUTE, f"there is no merchant route '{route}'")
            return False
        return True

    # -- step 1 --------------------------------------------------------------------------
    def supplies(self) -> None:
        used: Counter[str] = Counter()
        lsp_out: Counter[str] = Counter()
        for i, move in enumerate(self.o.supplies):
            where = f"supplies[{i}] (route '{move.route}')"
            if move.route not in self.b.route_rows:
                self.bad(where, R_ROUTE, f"there is no merchant route '{move.route}'")
                continue
            if self.b.route_nation(move.route) != self.nation:
                self.bad(where, R_SUPPLY, f"the route is {self.b.route_nation(move.route)}'s")
                continue
            working, why = self.b.route_working(move.route)
            if not working:
                self.bad(where, R_ROUTE, f"the route does not work this turn: {why}")
            if move.lsp == 0 and move.points == 0:
                self.bad(where, R_SUPPLY, "moves nothing: give lsp or cargo and points")
            if move.points and not move.cargo:
                self.bad(where, R_SUPPLY, "points given without a cargo kind")
            cost = 2 * move.lsp
            if move.cargo:
                cost += 1 if move.cargo in BULK_CARGO else move.points
            used[move.route] += cost
            if move.lsp:
                lsp_out[str(self.b.route_rows[move.route]["origin"])] += move.lsp
        for route, cost in used.items():
            lift = self.b.route(route).effective_lift
            if cost > lift:
                self.bad(
                    f"supplies (route '{route}')",
                    R_SUPPLY,
                    f"needs {cost} tonnage points of lift but the route's effective lift is "
                    f"{lift} (1 point per manpower/tank/aircraft/raw material/oil/food point, "
                    "1 per bulk resource area, 2 per LSP)",
                )
        supply = self.lsp_supply()
        for origin, n in lsp_out.items():
            have = self.b.state.lsp_at(origin, self.nation) + supply[origin]
            if n > have:
                self.bad(
                    f"supplies (LSP from {self.b.place_name(origin)})",
                    R_LSP,
                    f"moves {n} LSP but {self.who} has only {have} there",
                )

    def lsp_supply(self) -> Counter[str]:
        out: Counter[str] = Counter()
        rows = self.b.scenario.rows_with("lsp_supply", nation=self.nation, turn=self.b.state.turn)
        for row in rows:
            out[row["base"]] += row["points"]
        return out

    def projected_lsp(self, places: Iterable[str]) -> dict[str, int]:
        """LSP of this nation at each of ``places`` once step 1 is done: what it has
        there, this turn's supply and the supply moves in and out. Only the places asked
        (a nation's task-force bases): a big world's nation holds LSP at hundreds of places,
        and reading them all for each nation was a pass over every place's stock."""
        state = self.b.state
        stock = {place: state.lsp_at(place, self.nation) for place in places}
        for place, points in self.lsp_supply().items():
            if place in stock:
                stock[place] += points
        for move in self.o.supplies:
            if move.lsp and move.route in self.b.route_rows:
                row = self.b.route_rows[move.route]
                origin, destination = str(row["origin"]), str(row["destination"])
                if origin in stock:
                    stock[origin] -= move.lsp
                if destination in stock:
                    stock[destination] += move.lsp
        return stock

    # -- step 3 --------------------------------------------------------------------------
    def transfers(self) -> None:
        for i, t in enumerate(self.o.transfers):
            where = f"transfers[{i}] ({self.b.unit_name(t.unit)})"
            if not self.own_unit(t.unit, where):
                continue
            base = self.b.bases.get(t.to)
            if base is None:
                self.bad(where, R_TRANSFER, f"there is no base '{t.to}'")
                continue
            if base["kind"] == "island":
                self.bad(where, R_TRANSFER, f"{base['name']} has no port facilities")
            holder = self.b.holder(t.to)
            if not self.b.friendly(self.nation, holder):
                self.bad(where, R_TRANSFER, f"{base['name']} is held by {self.b.name_of(holder)}")

    def air_transfers(self) -> Counter[str]:
        """Step 3 for land-based Air Points; returns the points each air unit sends away
        (they may not also be allocated this turn: *Units that do this may not also conduct
        operations of any sort that turn*)."""
        moved: Counter[str] = Counter()
        for i, move in enumerate(self.o.air_transfers):
            where = f"air_transfers[{i}] ('{move.air}')"
            air = self.b.state.air.get(move.air)
            if air is None:
                self.bad(where, R_UNITS, f"there are no Air Points '{move.air}'")
                continue
            if air.nation != self.nation:
                self.bad(where, R_UNITS, f"Air Points '{move.air}' are {air.nation}'s")
                continue
            moved[move.air] += move.points or air.points
            if moved[move.air] > air.points:
                self.bad(
                    where,
                    R_TRANSFER,
                    f"'{move.air}' has {air.points} Air Points; {moved[move.air]} are moved",
                )
            base = self.b.bases.get(move.to)
            if base is None:
                self.bad(where, R_TRANSFER, f"there is no base, port or island '{move.to}'")
            elif base["kind"] == "fleet_train":
                self.bad(where, R_TRANSFER, "a fleet train has no airfield for land-based air")
            elif not self.b.friendly(self.nation, self.b.holder(move.to)):
                self.bad(
                    where,
                    R_TRANSFER,
                    f"{base['name']} is held by {self.b.name_of(self.b.holder(move.to))}",
                )
            elif move.to == air.base:
                self.bad(where, R_TRANSFER, f"the Air Points are already at {base['name']}")
        return moved

    def fleet_trains(self) -> tuple[Counter[str], dict[str, int]]:
        """002 "Bases": a fleet train set up, moved or disbanded. Returns the LSP new trains
        take from each origin and the tonnage of each new train's supply route."""
        lsp_out: Counter[str] = Counter()
        tonnage: dict[str, int] = {}
        ids = Counter(f.id for f in self.o.fleet_trains)
        opts = self.options
        for i, f in enumerate(self.o.fleet_trains):
            where = f"fleet_trains[{i}] ('{f.id}')"
            if ids[f.id] > 1:
                self.bad(where, R_TRAIN, f"fleet train '{f.id}' is named twice")
            train = self.b.state.fleet_trains.get(f.id)
            if train is not None:
                if train.nation != self.nation:
                    self.bad(where, R_TRAIN, f"the fleet train is {train.nation}'s")
                elif f.disband and f.area:
                    self.bad(where, R_TRAIN, "a fleet train is either moved or disbanded")
                elif not f.disband and f.area not in self.b.world:
                    self.bad(where, R_TRAIN, f"there is no sea area '{f.area}' to move it to")
                continue
            if f.disband:
                self.bad(where, R_TRAIN, f"there is no fleet train '{f.id}' to disband")
                continue
            if f.id in self.b.bases or f"{f.id}_supply" in self.b.route_rows:
                self.bad(where, R_TRAIN, f"the id '{f.id}' is already taken")
            if not f.name:
                self.bad(where, R_TRAIN, "a new fleet train needs a name")
            if f.area not in self.b.world:
                self.bad(where, R_TRAIN, f"there is no sea area '{f.area}'")
            origin = self.b.bases.get(f.origin)
            if origin is None:
                self.bad(where, R_TRAIN, f"there is no fleet base '{f.origin}'")
            elif (
                origin["kind"] != "fleet_base"
                or origin["island"]
                or not self.b.is_fleet_base(f.origin)
                or self.b.holder(f.origin) != self.nation
            ):
                self.bad(
                    where,
                    R_TRAIN,
                    f"{origin['name']} is not a mainland fleet base of yours: a fleet train's "
                    "route runs 'from a mainland Fleet Base'",
                )
            need_tonnage = int(option(opts, "fleet_train_tonnage"))
            if f.tonnage < need_tonnage:
                self.bad(
                    where,
                    R_TRAIN,
                    f"its supply route carries {f.tonnage} tonnage points; setting up a fleet "
                    f"train takes at least {need_tonnage} (rule option fleet_train_tonnage)",
                )
            need_lsp = int(option(opts, "fleet_train_lsp"))
            if f.lsp < need_lsp:
                self.bad(
                    where,
                    R_TRAIN,
                    f"it takes {f.lsp} LSP; setting up a fleet train takes at least {need_lsp} "
                    "(rule option fleet_train_lsp)",
                )
            lsp_out[f.origin] += f.lsp
            tonnage[f"{f.id}_supply"] = f.tonnage
        return lsp_out, tonnage

    # -- step 4 --------------------------------------------------------------------------
    def tonnage(self) -> None:
        new_ids = Counter(r.id for r in self.o.new_routes)
        for i, r in enumerate(self.o.new_routes):
            where = f"new_routes[{i}] ('{r.id}')"
            if r.id in self.b.route_rows or new_ids[r.id] > 1:
                self.bad(where, R_ROUTE, f"route id '{r.id}' is already taken")
            if r.origin == r.destination:
                self.bad(where, R_ROUTE, "a route joins two different ports")
            for end in (r.origin, r.destination):
                if end not in self.b.bases:
                    self.bad(where, R_ROUTE, f"there is no base or port '{end}'")
                elif self.b.bases[end]["kind"] not in ("fleet_base", "port"):
                    self.bad(
                        where,
                        R_ROUTE,
                        f"{self.b.place_name(end)} has no port facilities: routes end at "
                        "ports and fleet bases (002 'Port - ... terminate merchant tonnage "
                        "routes')",
                    )
                elif not self.b.open_to(self.nation, end):
                    self.bad(
                        where,
                        R_ROUTE,
                        f"{self.b.place_name(end)} is held by {self.b.name_of(self.b.holder(end))}",
                    )
            for area in r.via:
                if area not in self.b.world:
                    self.bad(where, R_ROUTE, f"there is no sea area '{area}'")
        allocated = self.b.state.routes
        allocation = {r: allocated[r] for r in self.b.routes_of(self.nation) if r in allocated}
        for route, points in self.o.tonnage.items():
            where = f"tonnage['{route}']"
            if route in self.b.route_rows:
                if self.b.route_nation(route) != self.nation:
                    self.bad(where, R_ROUTE, f"the route is {self.b.route_nation(route)}'s")
                    continue
            elif route not in new_ids:
                self.bad(where, R_ROUTE, f"there is no merchant route '{route}'")
                continue
            allocation[route] = points
        for r in self.o.new_routes:
            allocation.setdefault(r.id, r.tonnage)
            if r.id not in self.o.tonnage:
                allocation[r.id] = r.tonnage
        allocation.update(self.train_tonnage)
        for f in self.o.fleet_trains:
            train = self.b.state.fleet_trains.get(f.id)
            if f.disband and train is not None:
                allocation.pop(train.route, None)
        total = self.b.state.total_tonnage(self.nation, self.b.routes_of(self.nation))
        if sum(allocation.values()) > total:
            self.bad(
                "tonnage",
                R_ROUTE,
                f"allocates {sum(allocation.values())} tonnage points; {self.who} has {total}",
            )

    # -- step 5 --------------------------------------------------------------------------
    def allocations(self) -> None:
        place: dict[str, str] = {}

        def claim(unit_id: str, where: str) -> None:
            if unit_id in place:
                self.bad(
                    where,
                    R_UNITS,
                    f"{self.b.unit_name(unit_id)} is already in "
                    f"{place[unit_id]}; a unit can be in one place only",
                )
            else:
                place[unit_id] = where

        for i, t in enumerate(self.o.transfers):
            claim(t.unit, f"transfers[{i}]")
        air_used: Counter[str] = Counter(self.air_moved)
        for i, e in enumerate(self.o.escorts):
            where = f"escorts[{i}] (route '{e.route}')"
            if self.route_exists(e.route, where) and e.route in self.b.route_rows:
                owner = self.b.route_nation(e.route)
                if not self.b.friendly(self.nation, owner):
                    self.bad(where, R_RAID, f"the route is {owner}'s: escort your side's routes")
            for u in e.units:
                if self.own_unit(u, where):
                    claim(u, where)
            self.air(e.air, where, air_used)
        tf_ids = Counter(t.id for t in self.o.task_forces)
        lsp_at: Counter[str] = Counter()
        for i, tf in enumerate(self.o.task_forces):
            where = f"task_forces[{i}] '{tf.name}'"
            if tf_ids[tf.id] > 1:
                self.bad(where, R_TF, f"task force id '{tf.id}' is used twice")
            self.task_force(tf, where, claim)
            lsp_at[tf.base] += tf.lsp
            self.air(tf.air, where, air_used)
        lsp_at.update(self.train_lsp)
        projected = self.projected_lsp(lsp_at)
        for base, n in lsp_at.items():
            if n > projected[base] and base in self.b.bases:
                self.bad(
                    f"task forces at {self.b.place_name(base)}",
                    R_LSP,
                    f"allocate {n} LSP but {self.who} will have {projected[base]} there "
                    "after this turn's supplies",
                )
        for i, raid in enumerate(self.o.raids):
            where = f"raids[{i}] (route '{raid.route}')"
            self.raid(raid.route, raid.area, where)
            for u in raid.units:
                unit = self.own_unit(u, where)
                if unit is None:
                    continue
                claim(u, where)
                if unit.type != "submarine":
                    self.bad(
                        where,
                        R_FLAGS,
                        f"{unit.name} is a surface unit: surface raiders need a task force "
                        "with a surface_raid operation and its Naval Operations Flag",
                    )
                elif raid.area in self.b.world and not self.b.in_reach(
                    unit.base, raid.area, self.b.naval_range()
                ):
                    self.bad(
                        where,
                        R_RANGE,
                        f"{unit.name} at {self.b.place_name(unit.base)} is "
                        f"{self.b.distance(unit.base, raid.area)} sea areas from "
                        f"{self.b.area_name(raid.area)}; naval range is "
                        f"{self.b.naval_range()}",
                    )
            self.air(raid.air, where, air_used, area=raid.area)

    def raid(self, route: str, area: str, where: str) -> None:
        if not self.route_exists(route, where) or route not in self.b.route_rows:
            return
        owner = self.b.route_nation(route)
        if self.b.friendly(self.nation, owner):
            self.bad(where, R_RAID, f"the route is {owner}'s, on your own side")
        if area not in self.b.world:
            self.bad(where, R_RAID, f"there is no sea area '{area}'")
        elif area not in (path := self.b.route_path(route)):
            self.bad(
                where,
                R_RAID,
                f"{self.b.area_name(area)} is not on the route's path: " + ", ".join(path),
            )

    def task_force(self, tf: TaskForce, where: str, claim: Callable[[str, str], None]) -> None:
        if tf.base not in self.b.bases:
            self.bad(where, R_TF, f"there is no base '{tf.base}'")
            return
        if not self.b.is_fleet_base(tf.base):
            self.bad(
                where,
                R_TF,
                f"{self.b.place_name(tf.base)} is not a fleet base "
                "(this turn): ranges are measured from a fleet base",
            )
        elif not self.b.friendly(self.nation, self.b.holder(tf.base)):
            self.bad(
                where,
                R_TF,
                f"{self.b.place_name(tf.base)} is held by {self.b.name_of(self.b.holder(tf.base))}",
            )
        if not tf.units:
            self.bad(where, R_TF, "has no units")
        if tf.intervene_in:
            self.standing_by(tf, where)
        for u in tf.units:
            unit = self.own_unit(u, where)
            if unit is None:
                continue
            claim(u, where)
            if unit.base != tf.base:
                self.bad(
                    where,
                    R_TF,
                    f"{unit.name} is at {self.b.place_name(unit.base)}, "
                    f"not {self.b.place_name(tf.base)}",
                )

    def standing_by(self, tf: TaskForce, where: str) -> None:
        """002: *Any enemy TF within range may choose to intervene - the intervening TF does
        not need a NOF to do this, but it does also need an LSP available to it.*"""
        if tf.stance != "intervene":
            self.bad(where, R_TF, "names sea areas to intervene in but its stance is 'stay'")
        if tf.lsp < 1:
            self.bad(where, R_LSP, "an intervening task force needs an LSP allocated to it")
        if any(tf.id in op.task_forces for op in self.o.operations):
            self.bad(
                where,
                R_TF,
                "is in an operation; only a task force without one stands by to intervene",
            )
        if tf.base not in self.b.bases:
            return
        reach = self.reach(tf.id)
        for area in tf.intervene_in:
            if area not in self.b.world:
                self.bad(where, R_TF, f"there is no sea area '{area}' to intervene in")
            elif not self.b.in_reach(tf.base, area, reach):
                self.bad(
                    where,
                    R_RANGE,
                    f"cannot intervene in {self.b.area_name(area)}: it is "
                    f"{self.b.distance(tf.base, area)} sea areas from "
                    f"{self.b.place_name(tf.base)}; its range is {reach}",
                )

    def air(
        self,
        allocations: tuple[AirAllocation, ...],
        where: str,
        used: Counter[str],
        area: str = "",
    ) -> None:
        for a in allocations:
            air = self.b.state.air.get(a.air)
            if air is None:
                self.bad(where, R_UNITS, f"there are no Air Points '{a.air}'")
                continue
            if air.nation != self.nation:
                self.bad(where, R_UNITS, f"Air Points '{a.air}' are {air.nation}'s")
                continue
            used[a.air] += a.points
            if used[a.air] > air.points:
                self.bad(
                    where,
                    R_UNITS,
                    f"'{a.air}' has {air.points} Air Points, {used[a.air]} are allocated",
                )
            if area and area in self.b.world and not self.b.air_in_range(a.air, area):
                self.bad(
                    where,
                    R_RANGE,
                    f"Air Points at {self.b.place_name(air.base)} have range "
                    f"{self.b.air_range(air.nation, air.kind)} and cannot reach "
                    f"{self.b.area_name(area)}",
                )

    # -- step 6 --------------------------------------------------------------------------
    def operations(self) -> None:
        tfs = {t.id: t for t in self.o.task_forces}
        ids = Counter(o.id for o in self.o.operations)
        in_op: dict[str, str] = {}
        naval = military = 0
        for i, op in enumerate(self.o.operations):
            where = f"operations[{i}] '{op.id}'"
            if ids[op.id] > 1:
                self.bad(where, R_FLAGS, f"operation id '{op.id}' is used twice")
            naval += 1
            if op.kind == "major_invasion":
                military += 1
            if op.area not in self.b.world:
                self.bad(where, R_TF, f"there is no sea area '{op.area}'")
                continue
            if not op.task_forces:
                self.bad(where, R_TF, "names no task force")
            for tf_id in op.task_forces:
                tf = tfs.get(tf_id)
                if tf is None:
                    self.bad(where, R_TF, f"there is no task force '{tf_id}' in these orders")
                    continue
                if tf_id in in_op:
                    self.bad(where, R_FLAGS, f"'{tf.name}' is already in {in_op[tf_id]}")
                in_op[tf_id] = order_in_words(self.b, self.o, where).lower()
                if tf.lsp < 1:
                    self.bad(
                        where,
                        R_TF,
                        f"'{tf.name}' has no LSP allocated: a task force "
                        "needs at least one LSP to conduct an operation",
                    )
                if tf.base in self.b.bases:
                    reach = self.reach(tf.id)
                    if not self.b.in_reach(tf.base, op.area, reach):
                        dist = self.b.distance(tf.base, op.area)
                        self.bad(
                            where,
                            R_RANGE,
                            f"'{tf.name}' at {self.b.place_name(tf.base)} is {dist} sea "
                            f"areas from {self.b.area_name(op.area)}; its range is {reach}",
                        )
                for a in tf.air:
                    if a.air in self.b.state.air and not self.b.air_in_range(a.air, op.area):
                        air = self.b.state.air[a.air]
                        self.bad(
                            where,
                            R_RANGE,
                            f"Air Points at {self.b.place_name(air.base)} (range "
                            f"{self.b.air_range(air.nation, air.kind)}) cannot reach "
                            f"{self.b.area_name(op.area)}",
                        )
            if op.kind in ("minor_invasion", "major_invasion"):
                self.invasion(op, tfs, where)
            elif op.kind == "surface_raid":
                if not op.route:
                    self.bad(where, R_RAID, "a surface raid names the route it attacks")
                else:
                    self.raid(op.route, op.area, where)
        have_naval, have_military = self.b.flags(self.nation)
        extra = self.extra_flags()
        if naval > have_naval + extra:
            self.bad(
                "operations",
                R_FLAGS,
                f"{naval} operations need {naval} Naval Operations Flags; {self.who} has "
                f"{have_naval} this turn" + (f" and {extra} from cards" if extra else ""),
            )
        if military > have_military:
            self.bad(
                "operations",
                R_AMPHIB,
                f"{military} major invasion(s) need Military Operations Flags; "
                f"{self.who} has {have_military}",
            )

    def extra_flags(self) -> int:
        n = 0
        for orders in [self.o, *self.others.values()]:
            for card in orders.cards:
                if card.use == "extra_flag" and (card.beneficiary or orders.nation) == self.nation:
                    n += 1
        return n

    def invasion(self, op: Operation, tfs: Mapping[str, TaskForce], where: str) -> None:
        if op.target not in self.b.bases:
            self.bad(where, R_AMPHIB, f"there is no place '{op.target}' to invade")
            return
        if self.b.bases[op.target]["kind"] == "fleet_train":
            self.bad(where, R_AMPHIB, "a fleet train is at sea: it is fought, not invaded")
            return
        place = self.b.bases[op.target]
        if self.b.area_of(op.target) != op.area:
            self.bad(
                where,
                R_AMPHIB,
                f"{place['name']} is in {self.b.area_name(place['sea_area'])}"
                f", not {self.b.area_name(op.area)}",
            )
        if self.b.friendly(self.nation, self.b.holder(op.target)):
            self.bad(where, R_AMPHIB, f"{place['name']} is already held by your side")
        on_map = self.b.on_land_map(op.target)
        if op.kind == "minor_invasion" and on_map:
            self.bad(
                where,
                R_AMPHIB,
                f"{place['name']} is on a Land Combat map: a landing there is a major "
                "invasion (minor invasions are of islands or places no Land Combat map "
                "covers)",
            )
        if op.kind == "major_invasion" and not on_map:
            self.bad(
                where,
                R_AMPHIB,
                f"{place['name']} is not on a Land Combat map: a landing there is a minor invasion",
            )
        if op.invasion_force not in op.task_forces:
            self.bad(
                where,
                R_AMPHIB,
                "the invasion_force must be one of the operation's task "
                "forces (a covering force and an invasion force)",
            )
            return
        covering = [t for t in op.task_forces if t != op.invasion_force]
        if not covering and not option(self.options, "single_task_force_landings"):
            self.bad(
                where,
                R_AMPHIB,
                "an amphibious operation needs a covering force as well as the invasion "
                "force: name another task force (rule option single_task_force_landings "
                "lets one task force do both)",
            )
        troops = op.manpower + op.tanks
        if troops < 1:
            self.bad(where, R_AMPHIB, "an invasion lands at least one manpower or tank point")
        tf = tfs.get(op.invasion_force)
        if tf is None:
            return
        units = self.b.state.units
        craft, capacity = landing_capacity((units[u] for u in tf.units if u in units), self.options)
        if op.kind == "major_invasion" and not craft:
            self.bad(
                where,
                R_AMPHIB,
                "a major invasion needs a Landing Craft Group in its invasion force: 002 "
                "calls landing craft 'Essential for capturing islands or delivering troops "
                f"into the Land Combat against opposition', and {place['name']} is held by "
                f"{self.b.name_of(self.b.holder(op.target))}",
            )
        elif troops > capacity:
            self.bad(
                where,
                R_AMPHIB,
                f"{troops} manpower/tank points but the invasion force can land {capacity} "
                + (
                    f"({craft} Landing Craft Group(s) × {LANDING_CRAFT_CAPACITY})"
                    if craft
                    else "without landing craft"
                ),
            )

    # -- step 7 --------------------------------------------------------------------------
    def cards(self) -> None:
        seen: Counter[str] = Counter()
        tfs = {t.id for t in self.o.task_forces}
        for i, card in enumerate(self.o.cards):
            where = f"cards[{i}] ('{card.card}')"
            row = self.b.cards.get(card.card)
            seen[card.card] += 1
            if row is None:
                self.bad(where, R_CARDS, f"there is no Advantage Card '{card.card}'")
                continue
            if row["nation"] != self.nation:
                self.bad(where, R_CARDS, f"the card is in {row['nation']}'s hand")
            if card.card in self.b.state.cards_played or seen[card.card] > 1:
                self.bad(where, R_CARDS, "each card may only be played ONCE")
            who = card.beneficiary or self.nation
            if who not in self.b.nations or not self.b.friendly(self.nation, who):
                self.bad(where, R_CARDS, f"cards may be played for allies only, not '{who}'")
                continue
            target_orders = self.o if who == self.nation else self.others.get(who)
            target_tfs = (
                tfs
                if who == self.nation
                else ({t.id for t in target_orders.task_forces} if target_orders else None)
            )
            if card.use == "range" and not card.task_force:
                self.bad(where, R_CARDS, "a range card names the task force it extends")
            if card.use in ("die_bonus", "column_shift") and bool(card.task_force) == bool(
                card.route
            ):
                self.bad(
                    where,
                    R_CARDS,
                    "name either the task force or the route whose combat the card is for",
                )
            if card.task_force and target_tfs is not None and card.task_force not in target_tfs:
                self.bad(
                    where, R_CARDS, f"there is no task force '{card.task_force}' in {who}'s orders"
                )
            if card.route and card.route not in self.b.route_rows:
                self.bad(where, R_CARDS, f"there is no merchant route '{card.route}'")
            if (
                card.use == "column_shift"
                and card.route
                and not option(self.options, "merchant_card_shifts")
            ):
                self.bad(
                    where,
                    R_MERCHANT,
                    "in merchant warfare 'Advantage Cards count as die roll bonus shown on "
                    "card': play it for its die bonus (use die_bonus) on the route (rule "
                    "option merchant_card_shifts allows column shifts)",
                )
            if card.use == "other" and not card.text.strip():
                self.bad(where, R_CARDS, "say what Game Control is asked to allow (text)")

    def run(self) -> list[OrderProblem]:
        if self.nation not in self.b.nations:
            self.bad("nation", R_TURN, f"there is no nation '{self.nation}'")
            return self.problems
        if self.o.turn and self.o.turn != self.b.state.turn:
            self.bad(
                "turn",
                R_TURN,
                f"the orders are for turn {self.o.turn}; the game is on turn {self.b.state.turn}",
            )
        self.supplies()
        self.transfers()
        self.air_moved = self.air_transfers()
        self.train_lsp, self.train_tonnage = self.fleet_trains()
        self.tonnage()
        self.allocations()
        self.operations()
        self.cards()
        self.choices()
        return self.problems

    # -- the owner's choices ---------------------------------------------------------------
    def choices(self) -> None:
        """002 "Damage": *Owner chooses which ship losses to take*: choices given ahead
        name the nation's own units."""
        c = self.o.choices
        for key, ids in (("losses", c.losses), ("repairs", c.repairs)):
            for i, unit in enumerate(ids):
                self.own_unit(unit, f"choices.{key}[{i}]")
        carriers = ("fleet_carrier", "escort_carrier")
        for carrier, target in c.carrier_air.items():
            where = f"choices.carrier_air.{carrier}"
            if self.own_unit(carrier, where) and self.b.state.units[carrier].type not in carriers:
                self.bad(where, R_DAMAGE, f"{self.b.unit_name(carrier)} is not a carrier")
            if (
                target != "ashore"
                and self.own_unit(target, where)
                and self.b.state.units[target].type not in carriers
            ):
                self.bad(
                    where,
                    R_DAMAGE,
                    f"{self.b.unit_name(target)} is not a carrier: an Air Point goes "
                    "'ashore' or to another carrier",
                )


def check_orders(
    board: Board, orders: Orders, others: Mapping[str, Orders] | None = None
) -> list[OrderProblem]:
    """Every rule ``orders`` break (empty: the orders may be carried out)."""
    others = {n: o for n, o in (others or {}).items() if n != orders.nation}
    return _Check(board, orders, others).run()


def check_choices(board: Board, orders: Orders) -> list[OrderProblem]:
    """The problems of ``orders``' choices alone (given while the turn is being resolved)."""
    check = _Check(board, orders, {})
    check.choices()
    return check.problems


def check_turn(board: Board, all_orders: Mapping[str, Orders]) -> list[OrderProblem]:
    """Every nation's orders checked together (cards for allies, shared ranges)."""
    problems: list[OrderProblem] = []
    for orders in all_orders.values():
        problems += check_orders(board, orders, all_orders)
    return problems


_ORDER_PATH = re.compile(r"^(?P<kind>[a-z_]+)\[(?P<index>\d+)\]")
_KIND_NAMES = {
    "sea_control": "sea control",
    "minor_invasion": "minor invasion",
    "major_invasion": "major invasion",
    "surface_raid": "surface raid",
}


def problem_in_words(board: Board, orders: Orders | None, problem: OrderProblem) -> str:
    """A problem as the app and the team seats show it: its order named in words
    (:func:`order_in_words`, when the orders could be read), the message, the rule."""
    where = order_in_words(board, orders, problem.order) if orders is not None else problem.order
    return f"{where}: {problem.message} ({problem.rule})"


def order_in_words(board: Board, orders: Orders, order: str) -> str:
    """Which order a problem is about, as a person names it ("Task force 'TF 17'",
    "Escort on Halifax – UK", "Operation 2: sea control in the Natuna Sea") instead of the
    orders file's path (``task_forces[0]``), which the JSON output and tests keep."""
    found = _ORDER_PATH.match(order)
    if found is None:
        if order.startswith("tonnage["):
            return f"Tonnage on {_route(board, order[9:-2], orders.nation)}"
        if order.startswith("choices"):
            return "The owner's choices"
        return order
    kind, index = found["kind"], int(found["index"])
    items = getattr(orders, kind, ())
    if not isinstance(items, tuple) or index >= len(items):
        return order
    item = items[index]
    number = index + 1
    if kind in _NAMED:  # orders a team names itself
        return f"{_NAMED[kind]} '{item.name or item.id}'"
    if kind in _ON_ROUTE:
        return f"{_ON_ROUTE[kind]} {number}, on {_route(board, item.route, orders.nation)}"
    if kind == "operations":
        where = board.area_name(item.area) if item.area in board.world else item.area
        return f"Operation {number}: {_KIND_NAMES.get(item.kind, item.kind)} in {where}"
    if kind == "transfers":
        return f"Transfer of {board.unit_name(item.unit)}"
    if kind == "air_transfers":
        return f"Air Points moved: {board.air_name(item.air)}"
    return f"{_NUMBERED.get(kind, kind)} {number}"


_NAMED = {"task_forces": "Task force", "fleet_trains": "Fleet train"}
_ON_ROUTE = {"escorts": "Escort", "raids": "Raid", "supplies": "Supplies"}
_NUMBERED = {"new_routes": "New route", "cards": "Advantage Card"}


def _route(board: Board, route_id: str, viewer: str) -> str:
    if route_id in board.route_rows:
        return f"route {board.route_name_for(route_id, viewer)}"
    return f"route '{route_id}' (unknown)"
