"""The computer opponent's plan for one nation's turn, step by step, each order with its
reason (docs/computer-opponent.md "Method").

A :class:`Planner` works on a belief state (:mod:`campaign.opponent.belief`) through the
engine's own board queries; merchant combats are weighed with the exact odds of
:func:`campaign.odds.merchant_odds`, battles with :func:`campaign.odds.naval_odds`. The
enemy is modelled as playing standing orders (:func:`campaign.autoplay.standing_orders`)
on the belief: their raiders are the threat the escorts answer, their escorts what the
raiders meet, their squadrons standing by the task forces an operation may have to fight.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from ..autoplay import standing_orders
from ..board import Board
from ..forces import (
    air_points,
    attack_cv,
    defence_cv,
    fleet_cv,
    land_air_cv,
    landing_capacity,
)
from ..merchant_warfare import MerchantCombat, combat_values
from ..naval_combat import CombatSide
from ..odds import mean, merchant_odds, naval_odds
from ..options import option
from ..orders import (
    AirAllocation,
    Escort,
    Operation,
    Orders,
    Raid,
    SupplyMove,
    TaskForce,
    Transfer,
)
from ..scenario import Scenario
from ..score import SIDES, Baseline, enemy_of
from ..state import GameState, Unit
from ..units import MANPOWER_CV

#: unit types that escort convoys when the threat is worth it
ESCORT_TYPES = ("escort", "escort_carrier", "light_cruiser")
#: unit types that sail in task forces
FLEET_TYPES = ("heavy", "fleet_carrier", "light_cruiser", "escort_carrier", "escort")


@dataclass(frozen=True)
class Level:
    """How hard the computer thinks (docs/computer-opponent.md "Levels")."""

    name: str
    #: raiders and escorts weighed with exact merchant odds (else standing-orders style)
    weigh_merchant: bool
    #: operations weighed with exact naval odds; the least chance of winning it accepts
    min_win: float
    #: operations launched at most (besides the flags)
    max_operations: int
    #: dice seeds each candidate plan is resolved on in the look-ahead (0: none)
    lookahead_seeds: int
    #: candidate operations tried in the look-ahead
    lookahead_candidates: int
    #: plays Advantage Cards
    cards: bool
    #: invasions considered
    invasions: bool


LEVELS: dict[str, Level] = {
    "novice": Level("novice", False, 0.6, 1, 0, 0, False, False),
    "captain": Level("captain", True, 0.55, 9, 0, 0, True, True),
    "admiral": Level("admiral", True, 0.45, 9, 2, 4, True, True),
}


@dataclass(frozen=True)
class Posture:
    """What a nation's navy is for this turn: weights on the solo score's parts as the
    computer values them (docs/computer-opponent.md "Postures")."""

    name: str
    meaning: str
    delivered: float = 1.0  # own tonnage delivered and kept
    sunk: float = 1.0  # enemy tonnage sunk
    fleet: float = 1.0  # combat value (enemy's lost, own kept)
    ground: float = 1.0  # bases, sea areas, landings
    #: light cruisers go to escort before task forces
    cruisers_escort: bool = False


POSTURES: dict[str, Posture] = {
    p.name: p
    for p in (
        Posture(
            "defend_trade",
            "the merchant routes first: escorts before task forces, operations only at good odds",
            delivered=2.0,
            ground=0.7,
            cruisers_escort=True,
        ),
        Posture(
            "decisive_battle",
            "seek the battle that sinks the enemy fleet: concentrated task forces, "
            "operations where the enemy must come out",
            fleet=2.0,
        ),
        Posture(
            "expansion",
            "take and hold: invasions and sea control at the enemy's routes",
            ground=2.0,
        ),
        Posture(
            "commerce_raiding",
            "sink merchant ships: every submarine and surface raider against the routes",
            sunk=2.0,
            fleet=0.7,
        ),
    )
}

#: each nation's posture in January 1942 (docs/computer-opponent.md "Historical defaults")
DEFAULT_POSTURES: dict[str, str] = {
    "uk": "defend_trade",
    "usa": "decisive_battle",
    "japan": "expansion",
    "germany": "commerce_raiding",
    "italy": "defend_trade",
    "free_france": "defend_trade",
    "netherlands": "decisive_battle",
    "vichy_france": "defend_trade",
    "ussr": "defend_trade",
}


def default_posture(nation: str) -> str:
    return DEFAULT_POSTURES.get(nation, "defend_trade")


def _fmt(x: float) -> str:
    return f"{x:.1f}"


@dataclass
class Section:
    """Orders of one kind with their reasons, in order."""

    items: list[object] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)

    def add(self, item: object, reason: str) -> None:
        self.items.append(item)
        self.reasons.append(reason)


@dataclass(frozen=True)
class OpCandidate:
    """A naval operation the planner may launch, weighed before the look-ahead."""

    op: Operation
    task_forces: tuple[TaskForce, ...]
    value: float  # expected points (its side's score, by the posture)
    p_win: float
    opposed_cv: int
    reason: str


class Planner:
    """Plans one nation's orders on a belief state."""

    def __init__(
        self,
        scenario: Scenario,
        belief: GameState,
        board: Board,
        nation: str,
        level: Level,
        posture: Posture,
        allied_orders: Mapping[str, Orders],
    ) -> None:
        self.scenario = scenario
        self.belief = belief
        self.b = board
        self.state = board.state
        self.nation = nation
        self.side = board.side_key(nation)
        self.level = level
        self.posture = posture
        self.options = scenario.meta.options
        self.baseline = Baseline.of(scenario)
        self.sections: dict[str, Section] = {}
        #: what stays the person's when only some forces are handed to the computer
        self.keep = Orders(nation, board.state.turn)
        self.flags_used = 0  # Naval Operations Flags the person's own orders take
        #: Military Operations Flags left for major invasions (002 "Amphibious Operations")
        self.military_flags = board.flags(nation)[1]
        self.cards_used: set[str] = set()  # cards the person's own orders play
        self.tonnage: dict[str, int] = {}
        self.tonnage_reasons: dict[str, str] = {}
        self.used: set[str] = set()  # units given an order
        self.air_left: dict[str, int] = {
            a.id: a.points for a in self.state.air.values() if a.nation == nation and a.points
        }
        self.lsp = self._projected_lsp()
        teams = board.teams()
        self.enemy_orders = {
            n: standing_orders(board, n) for n in teams if board.enemies(nation, n)
        }
        #: the escorts (units and Air Points) the enemy model puts on each route
        self.enemy_escorts: dict[str, list[Unit]] = {}
        self.enemy_escort_air: dict[str, list[tuple[str, int]]] = {}
        for orders in self.enemy_orders.values():
            for e in orders.escorts:
                self.enemy_escorts.setdefault(e.route, []).extend(
                    self.state.units[u] for u in e.units if u in self.state.units
                )
                self.enemy_escort_air.setdefault(e.route, []).extend(
                    (a.air, a.points) for a in e.air
                )
        self._places: dict[str, list[str]] | None = None
        self._trade: tuple[str, ...] | None = None
        self._trade_through: dict[str, tuple[str, ...]] | None = None
        self._standing_by: dict[str, tuple[tuple[str, TaskForce], ...]] | None = None
        self._guard_worth: dict[str, int] | None = None
        self._air_at: dict[str, int] | None = None
        self._raid_odds: dict[tuple[str, tuple[str, ...]], float] = {}
        self._opposition: dict[str, tuple[list[Unit], list[tuple[str, int]], int]] = {}
        self._battles: dict[tuple[object, ...], tuple[float, float, float, int]] = {}
        self.near = {self.b.area_of(x) for x in board.fleet_bases_of(nation)}
        self.foe_bases = {
            board.area_of(x) for x in board.fleet_bases() if board.enemies(nation, board.holder(x))
        }
        self.allied_orders = {
            n: allied_orders.get(n) or standing_orders(board, n)
            for n in teams
            if n != nation and board.friendly(nation, n)
        }

    # -- helpers ---------------------------------------------------------------------------
    def section(self, name: str) -> Section:
        return self.sections.setdefault(name, Section())

    def my_units(self) -> list[Unit]:
        return sorted(
            (u for u in self.state.units.values() if u.nation == self.nation and u.state != "sunk"),
            key=lambda u: u.id,
        )

    def free(self, unit: Unit) -> bool:
        return unit.id not in self.used

    def _projected_lsp(self) -> dict[str, int]:
        stock = dict(self.state.lsp_of(self.nation))
        for row in self.scenario.rows("lsp_supply"):
            if row["nation"] == self.nation and row["turn"] == self.state.turn:
                stock[row["base"]] = stock.get(row["base"], 0) + row["points"]
        return stock

    def route_name(self, route: str) -> str:
        return self.b.route_name_for(route, self.nation)

    def tonnage_points(self, enemy_side: str, tons: float) -> float:
        """Score points of ``tons`` sunk of ``enemy_side``'s tonnage."""
        w = float(option(self.options, "score_tonnage_sunk"))
        return w * 100 * tons / max(self.baseline.tonnage[enemy_side], 1) if enemy_side else 0.0

    def cv_points(self, side: str, cv: float) -> float:
        """Score points of ``cv`` Fleet CV lost by ``side`` (to its enemy)."""
        w = float(option(self.options, "score_fleet_cv"))
        return w * 100 * cv / max(self.baseline.fleet_cv.get(side, 0), 1)

    def lift_points(self, side: str, lift: float) -> float:
        w = float(option(self.options, "score_delivered"))
        return w * lift / max(self.baseline.lift.get(side, 0), 1)

    # -- step 1: supplies ------------------------------------------------------------------
    def supplies(self) -> None:
        want: dict[str, int] = {}
        for base in self.b.fleet_bases_of(self.nation):
            ships = [
                u
                for u in self.my_units()
                if u.base == base and u.type in ("heavy", "fleet_carrier", "light_cruiser")
            ]
            if ships:
                want[base] = 2 + len(ships) // 2
        section = self.section("supplies")
        for route in sorted(self.b.route_rows):
            if self.b.route_nation(route) != self.nation or not self.b.route_working(route)[0]:
                continue
            row = self.b.route_rows[route]
            origin, dest = str(row["origin"]), str(row["destination"])
            need = want.get(dest, 0) - self.lsp.get(dest, 0)
            spare = self.lsp.get(origin, 0) - want.get(origin, 0)
            n = min(need, spare, self.b.route(route).effective_lift // 2)
            if n <= 0:
                continue
            self.lsp[origin] -= n
            self.lsp[dest] = self.lsp.get(dest, 0) + n
            section.add(
                SupplyMove(route, lsp=n),
                f"LSP {n} {self.b.place_name(origin)} → {self.b.place_name(dest)}: the "
                f"warships there need {want[dest]}, {want[dest] - need} on hand",
            )

    # -- step 3: transfers -----------------------------------------------------------------
    def transfers(self) -> None:
        """Damaged units go where a fleet base can repair them this turn (002 "Repairs":
        *One base can repair one unit per turn*)."""
        bases = [b for b in self.b.fleet_bases_of(self.nation)]
        if not bases:
            return
        waiting: dict[str, int] = {}
        section = self.section("transfers")
        for unit in self.my_units():
            if unit.state != "damaged":
                continue
            here = unit.base
            if self.b.is_fleet_base(here) and waiting.get(here, 0) == 0:
                waiting[here] = 1
                self.used.add(unit.id)  # stays on the port card to be repaired
                continue
            free = [b for b in bases if waiting.get(b, 0) == 0]
            if not free:
                continue
            to = min(free, key=lambda b: (self.b.distance(here, self.b.area_of(b)), b))
            waiting[to] = 1
            self.used.add(unit.id)
            section.add(
                Transfer(unit.id, to),
                f"repair {unit.name}: to {self.b.place_name(to)}, whose yard is free this turn",
            )

    # -- step 4: tonnage -------------------------------------------------------------------
    def allocate_tonnage(self, threat: Mapping[str, float]) -> None:
        """Tonnage left over or stranded on a cut route goes to the working routes that
        deliver most per point: short routes lift double, long ones half (002 "Supply
        Effectiveness"), less the share raiders are expected to sink."""
        pool = self.state.tonnage.get(self.nation, 0)
        mine = [r for r in self.b.route_ids() if self.b.route_nation(r) == self.nation]
        freed: list[str] = []
        for r in mine:
            status = self.b.route_status(r)
            if status.state == "cut" and self.state.routes.get(r, 0) > 0:
                pool += self.state.routes[r]
                self.tonnage[r] = 0
                freed.append(r)
                self.tonnage_reasons[r] = f"tonnage off {self.route_name(r)}: {status.why}"
        if pool <= 0:
            return
        working = [r for r in mine if self.b.route_working(r)[0] and r not in freed]
        if not working:
            return

        def worth(r: str) -> tuple[float, str]:
            line = self.b.route(r)
            tons = max(self.state.routes.get(r, 0), 1)
            safe = 1.0 - min(threat.get(r, 0.0) / tons, 0.9)
            return (float(line.length.multiplier) * safe, r)

        if self.level.weigh_merchant:
            best = sorted(working, key=worth, reverse=True)[:2]
        else:  # the novice feeds its busiest route
            best = [max(working, key=lambda r: (self.state.routes.get(r, 0), r))]
        share, extra = divmod(pool, len(best))
        for i, r in enumerate(best):
            add = share + (1 if i < extra else 0)
            if add <= 0:
                continue
            self.tonnage[r] = self.state.routes.get(r, 0) + add
            line = self.b.route(r)
            self.tonnage_reasons[r] = (
                f"tonnage +{add} to {self.route_name(r)}: {line.length.label.lower()} route "
                f"(lift ×{line.length.multiplier}), expected loss {_fmt(threat.get(r, 0.0))}"
            )

    # -- merchant warfare --------------------------------------------------------------------
    def expected_merchant(
        self,
        route: str,
        area: str,
        raiders: Sequence[Unit],
        raid_air: Sequence[tuple[str, int]],
        escorts: Sequence[Unit],
        escort_air: Sequence[tuple[str, int]],
    ) -> tuple[float, float, float]:
        """(tonnage lost, raider steps lost, escort steps lost) expected in one merchant
        combat, exactly (every pair of dice)."""
        state = self.state
        raid_air = [(a, p) for a, p in raid_air if self.b.air_in_range(a, area)]
        escort_air = [(a, p) for a, p in escort_air if self.b.air_in_range(a, area)]
        if not raiders and not raid_air:
            return 0.0, 0.0, 0.0
        a_cv, e_cv, shift, _ = combat_values(state, raiders, raid_air, escorts, escort_air)
        german = sum(1 for u in raiders if u.type == "submarine" and u.nation == "germany")
        others = len(raiders) - german + sum(p for _, p in raid_air)
        lost, raider_steps, escort_steps = _merchant_means(
            MerchantCombat(a_cv, e_cv, german, others, False, shift),
            str(option(self.options, "colour_short_row")),
        )
        return min(lost, float(state.routes.get(route, 0))), raider_steps, escort_steps

    def predicted_raids(self) -> dict[str, list[tuple[str, list[Unit], list[tuple[str, int]]]]]:
        """Own and allied routes → the raids the enemy model sends: (area, units, air)."""
        out: dict[str, list[tuple[str, list[Unit], list[tuple[str, int]]]]] = {}
        for orders in self.enemy_orders.values():
            for raid in orders.raids:
                units = [self.state.units[u] for u in raid.units if u in self.state.units]
                air = [(a.air, a.points) for a in raid.air]
                out.setdefault(raid.route, []).append((raid.area, units, air))
        return out

    def escorts(self, give: bool = True) -> dict[str, float]:
        """Step 5a: each escort goes where it saves the most tonnage (greedy on the exact
        expected loss); escorts that save nothing cover the busiest routes against raiders
        the model did not foresee. Returns each own route's expected loss."""
        raids = self.predicted_raids()
        mine = [
            r
            for r in self.b.route_ids()
            if self.b.route_nation(r) == self.nation and self.state.routes.get(r, 0) > 0
        ]
        pool = [
            u
            for u in self.my_units()
            if self.free(u)
            and (
                u.type in ("escort", "escort_carrier")
                or (u.type == "light_cruiser" and self.posture.cruisers_escort)
            )
            and defence_cv(u) > 0
        ]
        assigned: dict[str, list[Unit]] = {r: [] for r in mine}
        air: dict[str, list[tuple[str, int]]] = {r: [] for r in mine}

        def loss(r: str, units: list[Unit], air_list: list[tuple[str, int]]) -> float:
            return sum(
                self.expected_merchant(r, area, ru, ra, units, air_list)[0]
                for area, ru, ra in raids.get(r, [])
            )

        before = {r: loss(r, [], []) for r in mine}
        current = dict(before)
        if not give:
            return current
        section = self.section("escorts")
        if self.level.weigh_merchant:
            pool.sort(key=lambda u: (-defence_cv(u), u.id))
            for unit in pool:
                best: tuple[float, str] | None = None
                for r in mine:
                    if not raids.get(r):
                        continue
                    gain = current[r] - loss(r, [*assigned[r], unit], air[r])
                    if gain > 0.05 and (best is None or gain > best[0]):
                        best = (gain, r)
                if best is not None:
                    assigned[best[1]].append(unit)
                    current[best[1]] -= best[0]
                    self.used.add(unit.id)
            for air_id in sorted(self.air_left):
                while self.air_left[air_id] > 0:
                    gain_at: tuple[float, str] | None = None
                    for r in mine:
                        if not raids.get(r):
                            continue
                        more = _add_air(air[r], air_id)
                        gain = current[r] - loss(r, assigned[r], more)
                        if gain > 0.3 and (gain_at is None or gain > gain_at[0]):
                            gain_at = (gain, r)
                    if gain_at is None:
                        break
                    air[gain_at[1]] = _add_air(air[gain_at[1]], air_id)
                    current[gain_at[1]] -= gain_at[0]
                    self.air_left[air_id] -= 1
        busiest = sorted(mine, key=lambda r: (-self.state.routes.get(r, 0), r))
        spare = [u for u in pool if self.free(u) and u.type == "escort"]
        for i, unit in enumerate(spare):
            if not busiest:
                break
            r = busiest[i % len(busiest)]
            assigned[r].append(unit)
            self.used.add(unit.id)
        for r in mine:
            if not assigned[r] and not air[r]:
                continue
            after = loss(r, assigned[r], air[r])
            current[r] = after
            if raids.get(r):
                why = (
                    f"escort {self.route_name(r)}: expected loss {_fmt(before[r])} → "
                    f"{_fmt(after)} tonnage"
                )
            else:
                why = f"escort {self.route_name(r)}: no raider foreseen; covers it against surprise"
            section.add(
                Escort(
                    r,
                    tuple(u.id for u in assigned[r]),
                    tuple(AirAllocation(a, p) for a, p in air[r]),
                ),
                why,
            )
        return current

    def raids(self) -> None:
        """Step 5c: each submarine joins the raid where it adds the most expected tonnage
        sunk, less what its own losses cost (exact merchant odds against the escorts the
        enemy model gives)."""
        if self.b.side(self.nation) == "neutral":
            return  # a neutral defends its own waters; it attacks nobody's trade
        subs = [
            u
            for u in self.my_units()
            if self.free(u) and u.type == "submarine" and attack_cv(u) > 0 and u.state == "ready"
        ]
        if not subs:
            return
        escorts, escort_air = self.enemy_escorts, self.enemy_escort_air
        order = {r: i for i, r in enumerate(self.enemy_trade())}
        groups: dict[tuple[str, str], list[Unit]] = {}
        reach = self.b.naval_range()

        def value(route: str, area: str, units: list[Unit]) -> float:
            if not units:
                return 0.0
            lost, steps, _ = self.expected_merchant(
                route, area, units, [], escorts.get(route, []), escort_air.get(route, [])
            )
            foe = self.b.side(self.b.route_nation(route))
            sunk = self.tonnage_points(foe, lost) * self.posture.sunk
            return sunk - self.cv_points(self.b.side(self.nation), steps * 0.5)

        for sub in sorted(subs, key=lambda u: u.id):
            if not order:
                break  # no enemy trade to attack
            best: tuple[float, str, str] | None = None
            within = self.b.areas_within(sub.base, reach)
            targets = {r for a in within for r in self.trade_through(a)}
            for route in sorted(targets, key=order.__getitem__):
                near = [a for a in self.b.route(route).path if a in within]
                if not self.level.weigh_merchant:
                    area = min(near, key=lambda a: (self.b.distance(sub.base, a), a))
                    gain = float(self.state.routes.get(route, 0))
                    if best is None or gain > best[0]:
                        best = (gain, route, area)
                    continue
                for area in near:
                    have = groups.get((route, area), [])
                    gain = value(route, area, [*have, sub]) - value(route, area, have)
                    if best is None or gain > best[0]:
                        best = (gain, route, area)
            if best is None or (self.level.weigh_merchant and best[0] <= 0):
                continue
            groups.setdefault((best[1], best[2]), []).append(sub)
            self.used.add(sub.id)
        section = self.section("raids")
        for (route, area), units in sorted(groups.items()):
            lost, _, _ = self.expected_merchant(
                route, area, units, [], escorts.get(route, []), escort_air.get(route, [])
            )
            e_cv = sum(defence_cv(u) for u in escorts.get(route, []))
            section.add(
                Raid(route, area, tuple(u.id for u in units)),
                f"raid {self.b.public_route_name(route)} in {self.b.area_name(area)}: expected "
                f"{_fmt(lost)} tonnage sunk against escorts of about CV {e_cv}",
            )

    # -- steps 5b and 6: task forces and operations -------------------------------------------
    def fleets(self) -> dict[str, list[Unit]]:
        """Own ready warships free for task forces, by fleet base."""
        out: dict[str, list[Unit]] = {}
        for u in self.my_units():
            if not self.free(u) or u.state != "ready":
                continue
            if u.type not in (*FLEET_TYPES, "landing_craft", "submarine"):
                continue
            if self.b.is_fleet_base(u.base) and self.b.friendly(self.nation, self.b.holder(u.base)):
                out.setdefault(u.base, []).append(u)
        return out

    def places_in(self, area: str) -> list[str]:
        """The places in ``area`` (bases, ports, islands), in id order."""
        if self._places is None:
            self._places = {}
            for place in sorted(self.b.bases):
                self._places.setdefault(self.b.area_of(place), []).append(place)
        return self._places.get(area, [])

    def enemy_trade(self) -> tuple[str, ...]:
        """The enemy's merchant routes with tonnage on them, in the chart's order: what
        raiders can attack (a neutral's trade is left alone)."""
        if self._trade is None:
            trade = []
            for r in self.b.route_ids():
                owner = self.b.route_nation(r)
                if not self.b.enemies(self.nation, owner) or self.b.side(owner) == "neutral":
                    continue
                if self.state.routes.get(r, 0) > 0:
                    trade.append(r)
            self._trade = tuple(trade)
        return self._trade

    def trade_through(self, area: str) -> tuple[str, ...]:
        """The routes of :meth:`enemy_trade` whose path passes through ``area``, in the
        chart's order (an index made once, so a raid's search is by the areas in reach,
        not by every route of the map)."""
        if self._trade_through is None:
            self._trade_through = self.b.routes_by_area(self.enemy_trade())
        return self._trade_through.get(area, ())

    def air_over(self) -> dict[str, list[tuple[str, int]]]:
        """Sea area → the Air Points the nation has left that reach it, (air unit, points)
        in the units' order: what :meth:`candidates` gives an operation there."""
        over: dict[str, list[tuple[str, int]]] = {}
        for a, p in sorted(self.air_left.items()):
            if p:
                for area in self.b.air_areas(a):
                    over.setdefault(area, []).append((a, p))
        return over

    def air_points_at(self, place: str) -> int:
        """Air Points based at ``place`` (every nation's, as the belief has them)."""
        if self._air_at is None:
            self._air_at = {}
            for a in self.state.air.values():
                if a.points:
                    self._air_at[a.base] = self._air_at.get(a.base, 0) + a.points
        return self._air_at.get(place, 0)

    def side_cv(self, units: Sequence[Unit], air: Sequence[tuple[str, int]], area: str) -> int:
        return sum(fleet_cv(u) for u in units) + sum(
            land_air_cv(self.state.air[a].kind, p, "fleet")
            for a, p in air
            if a in self.state.air and self.b.air_in_range(a, area)
        )

    def opposition(self, area: str) -> tuple[list[Unit], list[tuple[str, int]], int]:
        """The enemy task forces the model says stand by within reach of ``area``: their
        units, air and LSP (those that would intervene: 002 *Any enemy TF within range may
        choose to intervene*)."""
        if area not in self._opposition:
            self._opposition[area] = self._opposing(area)
        return self._opposition[area]

    def standing_by(self, area: str) -> tuple[tuple[str, TaskForce], ...]:
        """The enemy model's task forces standing by to intervene with ``area`` in their
        reach, (nation, task force) in the orders' order: an index made once from each
        force's reach, so a question costs the forces near ``area``, not all of them."""
        if self._standing_by is None:
            index: dict[str, list[tuple[str, TaskForce]]] = {}
            reach = self.b.naval_range()
            for nation, orders in self.enemy_orders.items():
                for tf in orders.task_forces:
                    if tf.stance != "intervene" or tf.lsp < 1 or tf.base not in self.b.bases:
                        continue
                    for a in self.b.areas_within(tf.base, reach):
                        index.setdefault(a, []).append((nation, tf))
            self._standing_by = {a: tuple(found) for a, found in index.items()}
        return self._standing_by.get(area, ())

    def _opposing(self, area: str) -> tuple[list[Unit], list[tuple[str, int]], int]:
        units: list[Unit] = []
        air: list[tuple[str, int]] = []
        lsp = 0
        for nation, tf in self.standing_by(area):
            if self.b.side(nation) == "neutral" and not any(
                self.b.holder(p) == nation for p in self.places_in(area)
            ):
                continue
            units += [self.state.units[u] for u in tf.units if u in self.state.units]
            air += [(a.air, a.points) for a in tf.air]
            lsp += tf.lsp
        return units, air, lsp

    def battle(
        self,
        mine: Sequence[Unit],
        my_air: Sequence[tuple[str, int]],
        lsp: int,
        area: str,
        bonus: int = 0,
    ) -> tuple[float, float, float, int]:
        """(P(win), own CV lost, enemy CV lost, enemy CV) of the battle an operation in
        ``area`` would fight against the model's interveners, by the exact odds."""
        key = (tuple(u.id for u in mine), tuple(my_air), lsp, area, bonus)
        if key not in self._battles:
            self._battles[key] = self._battle(mine, my_air, lsp, area, bonus)
        return self._battles[key]

    def _battle(
        self,
        mine: Sequence[Unit],
        my_air: Sequence[tuple[str, int]],
        lsp: int,
        area: str,
        bonus: int,
    ) -> tuple[float, float, float, int]:
        foes, foe_air, foe_lsp = self.opposition(area)
        if not foes and not foe_air:
            return 1.0, 0.0, 0.0, 0
        my_cv = self.side_cv(mine, my_air, area)
        foe_cv = self.side_cv(foes, foe_air, area)
        near, foe_bases = self.near, self.foe_bases
        a = CombatSide(
            "own",
            my_cv,
            air_points(mine) + sum(p for _, p in my_air),
            area in near,
            lsp,
            max(len(mine), 1),
            die_bonus=bonus,
        )
        b = CombatSide(
            "enemy",
            foe_cv,
            air_points(foes) + sum(p for _, p in foe_air),
            area in foe_bases,
            foe_lsp,
            max(len(foes), 1),
        )
        odds = _naval_odds(a, b)
        lost_mine = float(sum(j * p for j, p in odds.b_on_a.items())) * float(
            Fraction(my_cv, 2 * max(len(mine), 1))
        )
        lost_foe = float(sum(i * p for i, p in odds.a_on_b.items())) * float(
            Fraction(foe_cv, 2 * max(len(foes), 1))
        )
        return float(odds.p_a_wins), lost_mine, lost_foe, foe_cv

    def candidates(self) -> list[OpCandidate]:
        """Every operation the nation could launch this turn, each weighed: sea control
        where enemy routes end (they stop working next turn), minor invasions of enemy
        islands, surface raids on enemy routes."""
        out: list[OpCandidate] = []
        w_area = float(option(self.options, "score_sea_area"))
        me_side = self.b.side(self.nation)
        if me_side == "neutral":
            return out
        enemy_side = enemy_of(me_side) if me_side in SIDES else ""
        route_ends: dict[str, list[str]] = {}
        for r in self.b.route_ids():
            owner = self.b.route_nation(r)
            if not self.b.enemies(self.nation, owner) or self.b.side(owner) == "neutral":
                continue
            if not self.b.route_working(r)[0]:
                continue
            line = self.b.route(r)
            for end in {self.b.area_of(line.origin), self.b.area_of(line.destination)}:
                route_ends.setdefault(end, []).append(r)
        air_over = self.air_over()
        for base, units in sorted(self.fleets().items()):
            lsp = self.lsp.get(base, 0)
            if lsp < 1:
                continue
            warships = [u for u in units if u.type in FLEET_TYPES]
            if not warships or self.side_cv(warships, [], "") < 3:
                continue
            reach = self.b.naval_range()
            for area in sorted(self.b.areas_within(base, reach)):
                air = list(air_over.get(area, ()))
                tf_lsp = min(lsp, len(warships) + 1) if lsp > len(warships) else 1
                p_win, lost, gained, foe_cv = self.battle(warships, air, tf_lsp, area)
                exchange = (
                    self.cv_points(enemy_side, gained) * self.posture.fleet
                    - self.cv_points(me_side, lost) * self.posture.fleet
                    if enemy_side
                    else 0.0
                )
                tf = TaskForce(
                    f"tf_{base}",
                    f"{self.b.place_name(base)} task force",
                    base,
                    tuple(u.id for u in warships),
                    tf_lsp,
                    tuple(AirAllocation(a, p) for a, p in air),
                    "intervene",
                )
                cut = route_ends.get(area, [])
                if cut and enemy_side:
                    lift = sum(self.b.route(r).effective_lift for r in cut)
                    gain = (self.lift_points(enemy_side, lift) + w_area) * self.posture.ground
                    out.append(
                        OpCandidate(
                            Operation(f"control_{area}", "sea_control", area, (tf.id,)),
                            (tf,),
                            p_win * gain + exchange,
                            p_win,
                            foe_cv,
                            f"sea control of {self.b.area_name(area)}: {len(cut)} enemy "
                            f"route(s) end there; P(win) {p_win:.0%} against about CV "
                            f"{foe_cv}",
                        )
                    )
                if self.level.invasions:
                    out += self._invasions(base, units, area, air, p_win, exchange, foe_cv)
                out += self._surface_raids(base, warships, area, tf, p_win, exchange, foe_cv)
        return out

    def _invasions(
        self,
        base: str,
        units: list[Unit],
        area: str,
        air: list[tuple[str, int]],
        p_win: float,
        exchange: float,
        foe_cv: int,
    ) -> list[OpCandidate]:
        out: list[OpCandidate] = []
        lsp = self.lsp.get(base, 0)
        if lsp < 2:
            return out
        single = bool(option(self.options, "single_task_force_landings"))
        for place in self.places_in(area):
            row = self.b.bases[place]
            if row["kind"] == "fleet_train":
                continue
            holder = self.b.holder(place)
            if not self.b.enemies(self.nation, holder) or self.b.side(holder) == "neutral":
                continue
            major = self.b.on_land_map(place)
            craft = [u for u in units if u.type == "landing_craft"]
            if major and (not craft or self.military_flags < 1):
                continue  # 002: a major invasion needs landing craft and a Military flag
            escorts = sorted(
                (u for u in units if u.type in FLEET_TYPES), key=lambda u: (fleet_cv(u), u.id)
            )
            if len(escorts) < (1 if single else 2) and not craft:
                continue
            invasion_units = [*craft] or [escorts[0]]
            if craft and escorts and len(escorts) >= 2:
                invasion_units.append(escorts[0])
            cover_units = [u for u in escorts if u not in invasion_units]
            if not cover_units and not single:
                continue
            capacity = landing_capacity(invasion_units, self.options)[1]
            troops = min(2, capacity)
            if troops < 1:
                continue
            defenders = sum(self.state.garrisons.get(place, {}).values())
            defence_air = self.air_points_at(place)
            landing_cv = self.side_cv(invasion_units, [], area) + MANPOWER_CV * troops
            defence = 8 * defenders + 10 * defence_air
            w_base = float(option(self.options, "score_base"))
            w_inv = float(option(self.options, "score_invasion"))
            w_area = float(option(self.options, "score_sea_area"))
            if major:
                # the troops go ashore and the land game decides (002 "Major Invasions")
                p_land, gain = 1.0, (w_inv + w_area) * self.posture.ground
                troops = capacity
            else:
                p_land = _landing_chance(landing_cv, defence, bool(craft))
                gain = (w_base + w_inv + w_area) * self.posture.ground
            cover = TaskForce(
                f"cover_{place}",
                f"{self.b.place_name(place)} covering force",
                base,
                tuple(u.id for u in cover_units),
                1,
                tuple(AirAllocation(a, p) for a, p in air),
            )
            invasion = TaskForce(
                f"invade_{place}",
                f"{self.b.place_name(place)} invasion force",
                base,
                tuple(u.id for u in invasion_units),
                1,
            )
            forces = (cover, invasion) if cover_units else (invasion,)
            p = p_win * p_land
            out.append(
                OpCandidate(
                    Operation(
                        f"take_{place}",
                        "major_invasion" if major else "minor_invasion",
                        area,
                        tuple(t.id for t in forces),
                        target=place,
                        invasion_force=invasion.id,
                        manpower=troops,
                    ),
                    forces,
                    p * gain + exchange,
                    p,
                    foe_cv,
                    f"major landing at {self.b.place_name(place)}: {troops} troop point(s) "
                    f"go ashore for the land game if the covering force wins (P {p:.0%})"
                    if major
                    else f"invade {self.b.place_name(place)}: {troops} troop point(s) and CV "
                    f"{landing_cv} against about {defenders} garrison(s) and {defence_air} "
                    f"Air Point(s); P(success) {p:.0%}",
                )
            )
        return out

    def _surface_raids(
        self,
        base: str,
        warships: list[Unit],
        area: str,
        tf: TaskForce,
        p_win: float,
        exchange: float,
        foe_cv: int,
    ) -> list[OpCandidate]:
        out: list[OpCandidate] = []
        raiders = [u for u in warships if u.type in ("heavy", "light_cruiser")]
        if not raiders:
            return out
        enemy_escorts = self.enemy_escorts
        for route in self.trade_through(area):
            owner = self.b.route_nation(route)
            key = (route, tuple(u.id for u in raiders))
            if key not in self._raid_odds:
                escorts = enemy_escorts.get(route, [])
                a_cv, e_cv, shift, _ = combat_values(self.state, raiders, [], escorts, [], raiders)
                odds = merchant_odds(
                    MerchantCombat(a_cv, e_cv, 0, len(raiders), True, shift),
                    str(option(self.options, "colour_short_row")),
                )
                self._raid_odds[key] = min(
                    float(mean(odds.tonnage_lost)), float(self.state.routes.get(route, 0))
                )
            lost = self._raid_odds[key]
            foe = self.b.side(owner)
            gain = self.tonnage_points(foe, lost) * self.posture.sunk
            raid_tf = TaskForce(
                tf.id,
                tf.name,
                tf.base,
                tuple(u.id for u in raiders),
                1,
            )
            out.append(
                OpCandidate(
                    Operation(f"raid_{route}_{area}", "surface_raid", area, (tf.id,), route=route),
                    (raid_tf,),
                    p_win * gain + exchange,
                    p_win,
                    foe_cv,
                    f"surface raid on {self.b.public_route_name(route)} in "
                    f"{self.b.area_name(area)}: expected {_fmt(lost)} tonnage sunk; P(win) "
                    f"{p_win:.0%}",
                )
            )
        return out

    def standing_forces(self, committed: set[str]) -> None:
        """Task forces without an operation stand by to intervene when an LSP is to hand
        (002: *the intervening TF does not need a NOF to do this, but it does also need an
        LSP*); the rest stay in port."""
        section = self.section("task_forces")
        for base, units in sorted(self.fleets().items()):
            ships = [u for u in units if u.id not in committed and u.type in FLEET_TYPES]
            if not ships:
                continue
            lsp = self.lsp.get(base, 0)
            if lsp < 1:
                continue
            cv = sum(fleet_cv(u) for u in ships)
            if cv < 3:
                continue
            foe_cv = self.side_cv(*self.opposition(self.b.area_of(base))[:2], self.b.area_of(base))
            if self.level.weigh_merchant and foe_cv > 3 * cv:
                continue  # outmatched: it would only lose ships; it stays in port
            self.lsp[base] -= 1
            for u in ships:
                self.used.add(u.id)
            areas = self.guard_areas(base) if self.level.weigh_merchant else ()
            first = ", ".join(self.b.area_name(a) for a in areas[:3])
            section.add(
                TaskForce(
                    f"guard_{base}",
                    f"{self.b.place_name(base)} squadron",
                    base,
                    tuple(u.id for u in ships),
                    1,
                    intervene_in=areas,
                ),
                f"{self.b.place_name(base)} squadron (CV {cv}) stands by to intervene against "
                "enemy operations within 4 sea areas"
                + (f", first where its side's places and routes are: {first}" if first else ""),
            )

    def guard_areas(self, base: str) -> tuple[str, ...]:
        """The sea areas a squadron at ``base`` stands ready in, first choice first: where
        its side holds places and its routes end, then the nearest (002 *Any enemy TF
        within range may choose to intervene*); every area in reach is named, so it still
        meets an enemy operation anywhere in range."""
        if self._guard_worth is None:
            worth: dict[str, int] = {}
            for place in self.b.bases:
                if self.b.friendly(self.nation, self.b.holder(place)):
                    area = self.b.area_of(place)
                    worth[area] = worth.get(area, 0) + 1
            for r in self.b.route_ids():
                if self.b.friendly(self.nation, self.b.route_nation(r)):
                    line = self.b.route(r)
                    for end in (line.origin, line.destination):
                        area = self.b.area_of(end)
                        worth[area] = worth.get(area, 0) + 2
            self._guard_worth = worth
        worth = self._guard_worth
        reach = self.b.areas_within(base, self.b.naval_range())
        return tuple(sorted(reach, key=lambda a: (-worth.get(a, 0), self.b.distance(base, a), a)))


def _add_air(air: list[tuple[str, int]], air_id: str) -> list[tuple[str, int]]:
    out = dict(air)
    out[air_id] = out.get(air_id, 0) + 1
    return sorted(out.items())


def _landing_chance(attack_cv: int, defence_cv: int, craft: bool) -> float:
    """The chance the landing troops are not wiped out (002 "Minor Invasions"), by the
    exact odds of the naval table: the defenders must inflict at least the troops' steps."""
    if defence_cv <= 0:
        return 1.0
    a = CombatSide("landing", attack_cv, minor_invasion_without_landing_craft=not craft)
    b = CombatSide("defence", defence_cv)
    return float(_naval_odds(a, b).p_a_wins)


@lru_cache(maxsize=4096)
def _merchant_means(combat: MerchantCombat, short_row: str) -> tuple[float, float, float]:
    """The expected (tonnage lost, raider steps lost, escort steps lost) of a merchant
    combat by its figures, exactly: the escorts' greedy choice weighs the same figures
    on many routes for many escorts."""
    odds = merchant_odds(combat, short_row)
    return (
        float(mean(odds.tonnage_lost)),
        float(mean(odds.raider_steps)),
        float(mean(odds.escort_steps)),
    )


#: exact naval odds by the sides' figures: candidates in many sea areas meet the same forces
_naval_odds = lru_cache(maxsize=4096)(naval_odds)
