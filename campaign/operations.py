"""Step 8: *Assess results of Naval Operations* (002 "Conducting Operations", "Amphibious
Operations", "Naval Combat").

Each operation goes to its sea area under its Naval Operations Flag. *Naval Combat occurs if
an enemy TF within range opposes the Operation. Any enemy TF within range may choose to
intervene — the intervening TF does not need a NOF to do this, but it does also need an
LSP.* The battle is fought on the damage table; *the side that has lost the most combat
value must withdraw and has lost*. An operation whose side did not lose goes ahead: a minor
invasion fights its landing, a major invasion is handed to the land game, a surface raid
goes on to attack its route in step 9. LSP are consumed by every task force that operated
or intervened.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .board import Board
from .cards import card_bonus
from .context import Turn, unit_casualty
from .events import UMPIRE, Cover
from .forces import air_points, fleet_cv, land_air_cv, landing_capacity
from .losses import Casualty, LossRequest, SpreadLosses
from .naval_combat import CombatSide, FireResult, battle_winner, dice_for, fire
from .options import option
from .orders import Operation, TaskForce, range_cards_by_task_force
from .record import SurfaceRaid
from .state import Unit
from .units import GARRISON_CV, MANPOWER_CV, TANK_CV, land_air_values

if TYPE_CHECKING:  # the odds (and their tables) load when a preview is first weighed
    from .odds import NavalOdds

TFKey = tuple[str, str]  # (nation, task force id)


@dataclass
class Force:
    """One side of a battle: its task forces, units and supporting air."""

    key: str  # side key (allies / axis / a neutral nation)
    task_forces: list[TFKey] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    air: list[tuple[str, int]] = field(default_factory=list)  # (air id, points) in range
    lsp: int = 0

    @property
    def nations(self) -> set[str]:
        return {n for n, _ in self.task_forces}


@dataclass
class Plan:
    """One sea area's operations and who will fight there (step 8, before any dice)."""

    area: str
    operations: list[tuple[str, Operation]]
    sides: dict[str, Force]
    attacker: str
    interveners: list[TFKey] = field(default_factory=list)

    @property
    def opposed(self) -> bool:
        return len(self.sides) >= 2


def plan_operations(t: Turn) -> tuple[list[Plan], dict[TFKey, TaskForce]]:
    """Who fights whom in step 8 — decided from the orders alone, with no side effects, so
    the app can show each battle's exact odds before it is fought."""
    board = t.board
    tfs: dict[TFKey, TaskForce] = {
        (n, tf.id): tf for n in t.nations() for tf in t.orders[n].task_forces
    }
    ops = [(n, op) for n in t.nations() for op in t.orders[n].operations]
    committed: set[TFKey] = {(n, tf_id) for n, op in ops for tf_id in op.task_forces}
    by_area: dict[str, list[tuple[str, Operation]]] = {}
    for n, op in ops:
        by_area.setdefault(op.area, []).append((n, op))
    interventions = choose_interventions(t, board, by_area, tfs, committed)
    plans = []
    for area in sorted(by_area):
        area_ops = by_area[area]
        sides: dict[str, Force] = {}
        for n, op in area_ops:
            force = sides.setdefault(board.side_key(n), Force(board.side_key(n)))
            for tf_id in op.task_forces:
                _join(force, (n, tf_id), tfs, t, area)
        attacker = next(iter(sides))
        interveners = interventions.get(area, [])
        for key in interveners:
            side = board.side_key(key[0])
            _join(sides.setdefault(side, Force(side)), key, tfs, t, area)
        plans.append(Plan(area, area_ops, sides, attacker, interveners))
    return plans, tfs


#: up to this many sea areas with operations, a squadron standing by asks each whether it
#: may intervene there; beyond, it looks only at the areas in its reach (the same answer:
#: tests/test_turn_indexes.py)
_FEW_OPERATION_AREAS = 8


def choose_interventions(
    t: Turn,
    board: Board,
    by_area: dict[str, list[tuple[str, Operation]]],
    tfs: dict[TFKey, TaskForce],
    committed: set[TFKey],
) -> dict[str, list[TFKey]]:
    """Sea area → the task forces that intervene there. 002: *Any enemy TF within range may
    choose to intervene - the intervening TF does not need a NOF to do this, but it does
    also need an LSP available to it.* A task force standing by (no operation, stance
    "intervene", an LSP) intervenes once: in the first of the areas its orders name
    (``intervene_in``) where an enemy operates within its reach, or, naming none, against
    the nearest enemy operation in reach (fewest sea areas away). It joins its side's force
    there, whether or not its side also operates in that area; a third side does not join
    a battle two other sides fight, and a neutral defends only its own waters."""
    sides_in = {area: {board.side_key(n) for n, _ in ops} for area, ops in by_area.items()}
    # every task force's range cards counted once (Board.reach_with for each)
    range_cards = range_cards_by_task_force(t.orders.values())
    chosen: dict[str, list[TFKey]] = {}
    for key in sorted(tfs):
        nation = key[0]
        tf = tfs[key]
        if key in committed or tf.stance != "intervene" or tf.lsp < 1:
            continue
        if tf.base not in board.bases:
            continue
        reach = board.reach_with(range_cards, nation, key[1])

        def may(area: str, nation: str = nation, tf: TaskForce = tf, reach: int = reach) -> bool:
            return _may_intervene(board, by_area, sides_in, nation, tf, reach, area)

        if tf.intervene_in:
            target = next((a for a in tf.intervene_in if may(a)), None)
        else:
            # a few operations: each one's area asked; many (a big world has hundreds):
            # only the areas in its reach looked at, not every operation's area asked
            candidates = (
                by_area
                if len(by_area) <= _FEW_OPERATION_AREAS
                else [a for a in board.areas_within(tf.base, reach) if a in by_area]
            )
            near = [a for a in candidates if may(a)]
            target = min(near, key=lambda a: (board.distance(tf.base, a), a)) if near else None
        if target is not None:
            chosen.setdefault(target, []).append(key)
    return chosen


def _may_intervene(
    board: Board,
    by_area: dict[str, list[tuple[str, Operation]]],
    sides_in: dict[str, set[str]],
    nation: str,
    tf: TaskForce,
    reach: int,
    area: str,
) -> bool:
    if area not in by_area or area not in board.world:
        return False
    if not any(board.enemies(nation, n) for n, _ in by_area[area]):
        return False
    if len(sides_in[area]) >= 2 and board.side_key(nation) not in sides_in[area]:
        return False
    if board.side(nation) == "neutral" and not any(
        board.holder(b) == nation for b in board.places_in(area)
    ):
        return False
    return board.in_reach(tf.base, area, reach)


@dataclass(frozen=True)
class BattlePreview:
    """A battle step 8 will fight, with each side as the damage table sees it."""

    area: str
    area_name: str
    a: CombatSide
    b: CombatSide
    task_forces: dict[str, list[str]]  # side key → task force names
    units: dict[str, list[str]] = field(default_factory=dict)  # side key → unit ids
    #: side key → its units as loss candidates (as they will be at step 8)
    casualties: dict[str, tuple[Casualty, ...]] = field(default_factory=dict)
    #: the scenario's rule option (naval_combat.battle_winner)
    annihilated_can_win: bool = False

    def odds(self) -> NavalOdds:
        """Exact odds on the damage table, the winner by combat value lost (002 *the side
        that has lost the most combat value must withdraw*) with each side taking its steps
        as the default loss policy would (an owner choosing otherwise changes the CV)."""
        a_key, b_key = list(self.task_forces)
        a_units, b_units = self.casualties.get(a_key, ()), self.casualties.get(b_key, ())
        from .odds import naval_odds

        return naval_odds(
            self.a,
            self.b,
            cv_lost_by_default(a_units),
            cv_lost_by_default(b_units),
            sum(c.steps_left for c in a_units),
            sum(c.steps_left for c in b_units),
            self.annihilated_can_win,
        )


def cv_lost_by_default(candidates: Sequence[Casualty]) -> Callable[[int], int]:
    """Steps → the combat value a force loses when :class:`SpreadLosses` takes them."""
    by_id = {c.id: c for c in candidates}
    pool = tuple(candidates)

    def lost(steps: int) -> int:
        chosen = Counter(SpreadLosses().allocate(LossRequest("", (), steps, pool)))
        return sum(
            by_id[cid].cv_now - (by_id[cid].cv_after_step if n == 1 else by_id[cid].cv_after_two)
            for cid, n in chosen.items()
        )

    return lost


def preview_battles(t: Turn) -> list[BattlePreview]:
    """The battles of the coming step 8 (no dice rolled, no card spent)."""
    board = t.board
    plans, tfs = plan_operations(t)
    out = []
    for plan in plans:
        if not plan.opposed:
            continue
        keys = sorted(plan.sides, key=lambda k: (k != plan.attacker, k))[:2]
        a, b = plan.sides[keys[0]], plan.sides[keys[1]]
        names = {f.key: [tfs[k].name for k in f.task_forces] for f in (a, b)}
        out.append(battle_preview(t, board, plan.area, a, b, names))
    return out


def battle_preview(
    t: Turn, board: Board, area: str, a: Force, b: Force, names: dict[str, list[str]]
) -> BattlePreview:
    """Two forces as the damage table will see them (cards looked at, not spent)."""
    return BattlePreview(
        area,
        board.area_name(area),
        replace(_side_of(t, board, a, area, peek=True), name=board.name_of(a.key)),
        replace(_side_of(t, board, b, area, peek=True), name=board.name_of(b.key)),
        names,
        {f.key: [u.id for u in f.units] for f in (a, b)},
        {f.key: tuple(unit_casualty(u, fleet_cv) for u in f.units) for f in (a, b)},
        bool(option(t.options, "annihilated_can_win")),
    )


def naval_operations(t: Turn) -> None:
    board = t.board
    plans, tfs = plan_operations(t)
    spent: set[TFKey] = set()
    contested: dict[str, set[str]] = {}
    if not plans:
        t.emit("no_operations", "No naval operations this turn.")
    for plan in plans:
        area, area_ops, sides = plan.area, plan.operations, plan.sides
        for nation, tf_id in plan.interveners:
            t.emit(
                "task_force_intervenes",
                f"'{tfs[(nation, tf_id)].name}' ({board.name_of(nation)}) intervenes in "
                f"{board.area_name(area)}.",
                nation,
                (nation, UMPIRE),
                # the counter moving on the map is public; the force's name is its team's
                cover=Cover(
                    f"A task force of {board.name_of(nation)} intervenes in "
                    f"{board.area_name(area)}.",
                    {"area": area},
                ),
                task_force=tf_id,
                area=area,
            )
        for force in sides.values():
            spent.update(force.task_forces)
        if plan.opposed:
            winner = _battle(t, board, area, sides, attacker=plan.attacker)
        else:
            winner = plan.attacker
            for n, op in area_ops:
                t.emit(
                    "operation_unopposed",
                    f"{_capital(t.operation_words(n, op))}: not opposed.",
                    n,
                    (n, UMPIRE),
                    cover=Cover(
                        f"A naval operation of {board.name_of(n)} in {board.area_name(area)} "
                        "is not opposed.",
                        {"area": area},
                    ),
                    operation=op.id,
                    area=area,
                )
        for n, op in area_ops:
            if board.side_key(n) != winner:
                t.emit(
                    "operation_failed",
                    f"{board.name_of(n)}'s {t.operation_words(n, op)} withdraws: "
                    "the operation fails.",
                    n,
                    (n, UMPIRE),
                    cover=Cover(
                        f"A naval operation of {board.name_of(n)} withdraws from "
                        f"{board.area_name(area)}: it fails.",
                        {"area": area},
                    ),
                    operation=op.id,
                    area=area,
                )
                continue
            for other in {board.side_key(x) for x in board.nations}:
                if other != winner:
                    contested.setdefault(other, set()).add(area)
            _carry_out(t, board, n, op, tfs, engaged=plan.opposed)
    for key in sorted(spent):
        tf = tfs[key]
        have = t.state.lsp_at(tf.base, key[0])
        used = min(tf.lsp, have)
        if used:
            t.state.add_lsp(tf.base, key[0], -used)
            t.emit(
                "lsp_consumed",
                f"'{tf.name}' consumes {used} LSP at {board.place_name(tf.base)}.",
                key[0],
                (key[0], UMPIRE),
                task_force=tf.id,
                lsp=used,
            )
    t.record.contested_next = {k: sorted(v) for k, v in sorted(contested.items())}


def _join(force: Force, key: TFKey, tfs: dict[TFKey, TaskForce], t: Turn, area: str) -> None:
    tf = tfs[key]
    force.task_forces.append(key)
    force.units += [t.state.units[u] for u in tf.units if t.state.units[u].state != "sunk"]
    force.air += [(a.air, a.points) for a in tf.air if t.board.air_in_range(a.air, area)]
    force.lsp += tf.lsp


def _side_of(t: Turn, board: Board, force: Force, area: str, peek: bool = False) -> CombatSide:
    cv = sum(fleet_cv(u) for u in force.units) + sum(
        land_air_cv(t.state.air[a].kind, p, "fleet") for a, p in force.air
    )
    air = air_points(force.units) + sum(p for _, p in force.air)
    base = _fleet_base_in(board, area, force.nations)
    tf_keys = list(force.task_forces)
    bonus = card_bonus(t, "die_bonus", task_forces=tf_keys, nations=force.nations, peek=peek)
    shift = card_bonus(t, "column_shift", task_forces=tf_keys, nations=force.nations, peek=peek)
    return CombatSide(
        force.key,
        cv,
        air,
        bool(base),
        force.lsp,
        len(force.units),
        die_bonus=bonus,
        column_shift=shift,
        fleet_base=base,
    )


def _troops_landed(
    t: Turn, board: Board, nation: str, op: Operation, tfs: dict[TFKey, TaskForce]
) -> tuple[int, int]:
    """(manpower, tank points) the invasion force can still put ashore: its landing craft
    afloat carry LANDING_CRAFT_CAPACITY each (none: the ``improvised_landing`` option), so
    craft sunk in the step-8 battle leave troops aboard (manpower lands first). Reports a
    shortfall."""
    craft, capacity = _invasion_capacity(t, nation, op, tfs)
    manpower = min(op.manpower, capacity)
    tanks = min(op.tanks, capacity - manpower)
    if manpower + tanks < op.manpower + op.tanks:
        t.emit(
            "landing_short",
            f"Only {manpower} manpower and {tanks} tank point{'' if tanks == 1 else 's'} of "
            f"{op.manpower} and "
            f"{op.tanks} can land at {board.place_name(op.target)}: "
            + (f"{craft} Landing Craft Group(s) left" if craft else "no landing craft left")
            + "; the rest stay aboard.",
            nation,
            (nation, UMPIRE),
            operation=op.id,
            place=op.target,
            manpower=manpower,
            tanks=tanks,
        )
    return manpower, tanks


def _invasion_capacity(
    t: Turn, nation: str, op: Operation, tfs: dict[TFKey, TaskForce]
) -> tuple[int, int]:
    """The invasion force's landing craft afloat and what they can land, now."""
    units = (t.state.units[u] for u in tfs[(nation, op.invasion_force)].units)
    return landing_capacity(units, t.options)


def _fleet_base_in(board: Board, area: str, nations: Iterable[str]) -> str:
    """002 *+1 if in same area as fleet base*: the side's fleet base in the sea area, in
    words ("Pearl Harbour", or "Pearl Harbour, an ally's" when none of the side's own
    nations holds it), or "" when it has none there. Its own come first."""
    side = tuple(nations)
    own, allied = [], []
    for b in board.places_in(area):
        if not board.is_fleet_base(b):
            continue
        holder = board.holder(b)
        if holder in side:
            own.append(board.place_name(b))
        elif any(board.friendly(holder, n) for n in side):
            allied.append(f"{board.place_name(b)}, {board.name_of(holder)}'s")
    return (sorted(own) + sorted(allied) + [""])[0]


def _describe_fire(result: FireResult) -> str:
    mods = ", ".join(f"{m.label} {m.value:+d}" for m in result.modifiers) or "no modifiers"
    if result.shift:
        mods += f"; Advantage Card column shift {result.shift:+d}"
    dice = "; ".join(f"CV {d.cv} rolled {d.roll} → {d.modified}: {d.steps}" for d in result.dice)
    return f"{mods}; {dice}" if dice else mods


def _battle(t: Turn, board: Board, area: str, sides: dict[str, Force], attacker: str) -> str:
    """Fight the battle; returns the winning side key."""
    keys = sorted(sides, key=lambda k: (k != attacker, k))[:2]
    a, b = sides[keys[0]], sides[keys[1]]
    where = board.area_name(area)
    na, nb = board.name_of(a.key), board.name_of(b.key)
    if t.fight is not None:
        names = {f.key: [t.task_force_name(*k) for k in f.task_forces] for f in (a, b)}
        rule_set = t.fight(
            BattleChoice(
                area,
                where,
                na,
                nb,
                [u.name for u in a.units],
                [u.name for u in b.units],
                battle_preview(t, board, area, a, b, names),
            )
        )
        if rule_set:
            winner = _tactical_battle(t, board, area, a, b, rule_set)
            if winner is not None:
                return winner
    side_a, side_b = _side_of(t, board, a, area), _side_of(t, board, b, area)
    rolls_a = t.dice.rolls(len(dice_for(side_a.cv)), f"naval combat in {where}: {na} fire")
    rolls_b = t.dice.rolls(len(dice_for(side_b.cv)), f"naval combat in {where}: {nb} fire")
    fire_a, fire_b = fire(side_a, side_b, rolls_a), fire(side_b, side_a, rolls_b)
    nations = (*tuple(sorted(a.nations | b.nations)), UMPIRE)
    t.emit(
        "naval_combat",
        f"Battle in {where}: {na} CV {side_a.cv} ({len(a.units)} units, {side_a.air_points} "
        f"air) against {nb} CV {side_b.cv} ({len(b.units)} units, {side_b.air_points} air). "
        f"{na}: {_describe_fire(fire_a)} — {fire_a.steps} step(s). "
        f"{nb}: {_describe_fire(fire_b)} — {fire_b.steps} step(s).",
        "",
        nations,
        area=area,
        sides={
            f.key: {
                "nations": sorted(f.nations),
                "units": [u.id for u in f.units],
                "air": [list(x) for x in f.air],
                "cv": s.cv,
                "air_points": s.air_points,
                "lsp": f.lsp,
            }
            for f, s in ((a, side_a), (b, side_b))
        },
        fire={fire_a.side: _fire_data(fire_a), fire_b.side: _fire_data(fire_b)},
    )
    lost = {}
    for force, steps, cv_before in ((a, fire_b.steps, side_a.cv), (b, fire_a.steps, side_b.cv)):
        context = f"battle in {where}"
        request = LossRequest(
            f"{force.key} in {where}",
            tuple(sorted(force.nations)),
            steps,
            tuple(unit_casualty(u, fleet_cv) for u in force.units),
            context,
        )
        for uid, steps in Counter(t.take_losses(request)).items():
            t.hit_unit(t.state.units[uid], context, nations, steps)
        cv_after = sum(fleet_cv(u) for u in force.units) + sum(
            land_air_cv(t.state.air[x].kind, p, "fleet") for x, p in force.air if x in t.state.air
        )
        lost[force.key] = (cv_before - cv_after, cv_after)
    (lost_a, end_a), (lost_b, end_b) = lost[a.key], lost[b.key]
    side, why = battle_winner(
        lost_a,
        end_a,
        lost_b,
        end_b,
        wiped_a=all(u.state == "sunk" for u in a.units),
        wiped_b=all(u.state == "sunk" for u in b.units),
        annihilated_can_win=bool(option(t.options, "annihilated_can_win")),
    )
    winner = a.key if side == "a" else b.key
    loser = b.key if winner == a.key else a.key
    t.emit(
        "battle_result",
        f"{board.name_of(winner)} win in {where} ({why}): {na} lost CV {lost_a}, "
        f"{nb} lost CV {lost_b}; {board.name_of(loser)} withdraw.",
        "",
        nations,
        cover=_battle_cover(board, area, winner, loser),
        area=area,
        winner=winner,
        loser=loser,
        cv_lost={a.key: lost_a, b.key: lost_b},
        cv_end={a.key: end_a, b.key: end_b},
    )
    return winner


def _battle_cover(board: Board, area: str, winner: str, loser: str) -> Cover:
    """A battle as the teams that did not fight it know it: where, and who withdrew (the
    counters on the map), not the forces, the dice or the losses."""
    return Cover(
        f"A naval battle is fought in {board.area_name(area)}: {board.name_of(winner)} win, "
        f"{board.name_of(loser)} withdraw.",
        {"area": area, "winner": winner, "loser": loser},
    )


@dataclass(frozen=True)
class BattleChoice:
    """What Game Control sees when choosing how a step-8 battle is resolved."""

    area: str
    area_name: str
    side_a: str
    side_b: str
    units_a: list[str]
    units_b: list[str]
    #: both sides as the damage table sees them, with its exact odds (``preview.odds()``)
    preview: BattlePreview | None = None


def _tactical_battle(
    t: Turn, board: Board, area: str, a: Force, b: Force, rule_set: str
) -> str | None:
    """Fight the battle out with a tactical rule set (the same logged dice); its result
    comes back as step losses (campaign/tactical/outcome.py). None: it cannot be fought
    that way (a unit without ships), and the damage table is used instead."""
    from .tactical import RULE_SETS
    from .tactical import run as run_battle
    from .tactical.outcome import (
        campaign_winner,
        expand_forces,
        in_rule_set_terms,
        step_losses,
    )
    from .tactical.simulate import available

    where = board.area_name(area)
    na, nb = board.name_of(a.key), board.name_of(b.key)
    nations = (*tuple(sorted(a.nations | b.nations)), UMPIRE)
    if rule_set not in RULE_SETS and rule_set not in available():
        raise ValueError(f"unknown tactical rule set '{rule_set}'")
    try:
        setup = expand_forces(
            t.scenario,
            f"Battle in {where}",
            (na, sorted(a.nations)[0], a.units),
            (nb, sorted(b.nations)[0], b.units),
            {
                "year": t.scenario.meta.start_year
                + (t.scenario.meta.start_period - 1 + t.state.turn - 1) // 6
            },
        )
        setup = in_rule_set_terms(rule_set, setup)
    except ValueError as exc:
        t.emit(
            "tactical_refused",
            f"The battle in {where} cannot be fought out ({exc}); "
            "it is resolved on the damage table.",
            "",
            nations,
            area=area,
        )
        return None
    battle = RULE_SETS[rule_set](setup, t.dice)
    if t.watch is not None:
        t.watch(battle, setup)  # a person may step through it; whatever is left runs below
    result = run_battle(battle)
    t.emit(
        "tactical_battle",
        f"Battle in {where} fought out with the {rule_set} rules: "
        f"{na} against {nb}, {result.turns} tactical turn(s).",
        "",
        nations,
        area=area,
        rule_set=rule_set,
        log=result.log,
        ships={sid: ship.state for sid, ship in result.ships.items()},
    )
    losses = step_losses(result, a.units + b.units)
    decided = campaign_winner(
        a.units, b.units, losses, bool(option(t.options, "annihilated_can_win"))
    )
    winner = a.key if decided == "a" else b.key
    for loss in losses:
        if loss.steps:
            t.hit_unit(
                t.state.units[loss.unit], f"battle in {where} ({loss.why})", nations, loss.steps
            )
    t.emit(
        "battle_result",
        f"{board.name_of(winner)} win in {where} (fought out with the {rule_set} rules).",
        "",
        nations,
        cover=_battle_cover(board, area, winner, b.key if winner == a.key else a.key),
        area=area,
        winner=winner,
        rule_set=rule_set,
        losses={x.unit: x.steps for x in losses},
    )
    return winner


def _fire_data(result: FireResult) -> dict[str, object]:
    return {
        "modifiers": [[m.label, m.value] for m in result.modifiers],
        "dice": [[d.cv, d.roll, d.modified, d.steps] for d in result.dice],
        "column_shift": result.shift,
        "steps": result.steps,
    }


def _carry_out(
    t: Turn,
    board: Board,
    nation: str,
    op: Operation,
    tfs: dict[TFKey, TaskForce],
    engaged: bool = False,
) -> None:
    """An operation that was unopposed or won its battle. ``engaged``: it had to fight in
    step 8."""
    if op.kind == "minor_invasion":
        _landing(t, board, nation, op, tfs)
    elif op.kind == "major_invasion":
        # 002: "The Invasion TF is counted as support to the landings (if not engaged by
        # enemy TF interfering)": the invasion force alone, and nothing after a battle
        cv = (
            0
            if engaged
            else sum(
                fleet_cv(t.state.units[u], with_submarines=False)
                for u in tfs[(nation, op.invasion_force)].units
            )
        )
        manpower, tanks = _troops_landed(t, board, nation, op, tfs)
        support = (
            f"supported by the invasion force's CV {cv}"
            if not engaged
            else "without naval support (the invasion force was engaged by enemy task forces)"
        )
        t.emit(
            "major_landing",
            f"Major landing at {board.place_name(op.target)}: "
            f"{manpower} manpower and {tanks} tank point{'' if tanks == 1 else 's'} go ashore, "
            f"{support}. "
            "Hand over to the land game.",
            nation,
            (nation, UMPIRE),
            # the troops go onto the Land Combat Map, where every team sees them
            cover=Cover(
                f"Major landing of {board.name_of(nation)} at "
                f"{board.public_place_name(op.target)}: "
                f"{manpower} manpower and {tanks} tank point{'' if tanks == 1 else 's'} go "
                "ashore. Hand over to the land game.",
                {"place": op.target, "area": op.area, "manpower": manpower, "tanks": tanks},
            ),
            operation=op.id,
            place=op.target,
            area=op.area,
            manpower=manpower,
            tanks=tanks,
            support_cv=cv,
            task_forces=list(op.task_forces),
        )
    elif op.kind == "surface_raid":
        units = [
            u
            for tf_id in op.task_forces
            for u in tfs[(nation, tf_id)].units
            if t.state.units[u].state != "sunk"
        ]
        air = tuple((a.air, a.points) for tf_id in op.task_forces for a in tfs[(nation, tf_id)].air)
        t.record.surface_raids.append(SurfaceRaid(nation, op.route, op.area, tuple(units), air))
        t.emit(
            "surface_raid_sails",
            f"Surface raiders ({t.operation_words(nation, op)}) reach "
            f"'{board.route_name_for(op.route, nation)}' in {board.area_name(op.area)}.",
            nation,
            (nation, UMPIRE),
            operation=op.id,
            route=op.route,
        )
    else:
        t.emit(
            "sea_control",
            f"{board.name_of(nation)} holds {board.area_name(op.area)} "
            f"({t.operation_words(nation, op)}).",
            nation,
            (nation, UMPIRE),
            cover=Cover(
                f"{board.name_of(nation)} holds {board.area_name(op.area)}.", {"area": op.area}
            ),
            operation=op.id,
            area=op.area,
        )


def _landing(
    t: Turn, board: Board, nation: str, op: Operation, tfs: dict[TFKey, TaskForce]
) -> None:
    """002 "Minor Invasions": troops (manpower 8, tank 6) and the invasion TF against the
    garrison (a manpower point each) and the island's Air Points; *if the attacking land
    forces are wiped out then the landing was unsuccessful*."""
    place = op.target
    name = board.place_name(place)
    defender = board.holder(place)
    landing_tfs = _landing_task_forces(t, op)
    units = [
        t.state.units[u]
        for tf_id in landing_tfs
        for u in tfs[(nation, tf_id)].units
        if t.state.units[u].state != "sunk" and t.state.units[u].type != "submarine"
    ]
    air = [
        (a.air, a.points)
        for tf_id in landing_tfs
        for a in tfs[(nation, tf_id)].air
        if board.air_in_range(a.air, op.area)
    ]
    craft = _invasion_capacity(t, nation, op, tfs)[0]
    garrison = t.state.garrisons.get(place, {}).get(defender, 0)
    island_air = [a for a in t.air_at(place) if a.points > 0 and board.friendly(a.nation, defender)]
    manpower, tanks = _troops_landed(t, board, nation, op, tfs)
    troops = [("manpower", MANPOWER_CV)] * manpower + [("tank", TANK_CV)] * tanks
    if not troops:
        t.emit(
            "landing_failed",
            f"The landing at {name} fails: no troops can be put ashore.",
            nation,
            (nation, UMPIRE),
            cover=Cover(
                f"The landing of {board.name_of(nation)} at {name} fails.", {"place": place}
            ),
            operation=op.id,
            place=place,
        )
        return
    a_cv = (
        sum(fleet_cv(u, with_submarines=False) for u in units)
        + sum(land_air_cv(t.state.air[x].kind, p, "fleet") for x, p in air)
        + sum(cv for _, cv in troops)
    )
    d_cv = garrison * GARRISON_CV + sum(
        a.points * land_air_values(a.kind).fleet for a in island_air
    )
    context = f"landing at {name}"
    # who fought the landing: the invader, the island's holder and the owners of its air
    fought = (*sorted({nation, defender} | {a.nation for a in island_air}), UMPIRE)
    survivors = len(troops)
    if d_cv > 0:
        # the modifiers as in a naval battle: the operation's LSP per unit, a fleet base of
        # either side in the sea area (002 Naval Combat modifiers)
        # cards aimed at the operation's task forces and not spent in a step-8 battle (an
        # unopposed landing) count here: *Add to Combat Die roll for a single attack*
        aimed = [(nation, tf_id) for tf_id in op.task_forces]
        attacker = CombatSide(
            nation,
            a_cv,
            air_points(units) + sum(p for _, p in air),
            at_own_fleet_base_area=bool(_fleet_base_in(board, op.area, (nation,))),
            fleet_base=_fleet_base_in(board, op.area, (nation,)),
            units=len(units) or 1,
            lsp=sum(tfs[(nation, tf_id)].lsp for tf_id in landing_tfs),
            minor_invasion_without_landing_craft=craft == 0,
            die_bonus=card_bonus(t, "die_bonus", task_forces=aimed, nations={nation}),
            column_shift=card_bonus(t, "column_shift", task_forces=aimed, nations={nation}),
        )
        defence = CombatSide(
            defender,
            d_cv,
            sum(a.points for a in island_air),
            at_own_fleet_base_area=bool(_fleet_base_in(board, op.area, (defender,))),
            fleet_base=_fleet_base_in(board, op.area, (defender,)),
        )
        rolls_a = t.dice.rolls(
            len(dice_for(a_cv)), f"landing at {name}: {board.name_of(nation)} fire"
        )
        rolls_d = t.dice.rolls(
            len(dice_for(d_cv)), f"landing at {name}: {board.name_of(defender)} fire"
        )
        fire_a, fire_d = fire(attacker, defence, rolls_a), fire(defence, attacker, rolls_d)
        t.emit(
            "landing_combat",
            f"Landing at {name}: {board.name_of(nation)} CV {a_cv} (troops "
            f"{manpower} manpower, {tanks} tank{'; no landing craft' if not craft else ''}"
            f") against {board.name_of(defender)} CV {d_cv} ({garrison} garrison, "
            f"{sum(a.points for a in island_air)} air). {board.name_of(nation)}: "
            f"{_describe_fire(fire_a)} — {fire_a.steps} step(s). {board.name_of(defender)}: "
            f"{_describe_fire(fire_d)} — {fire_d.steps} step(s).",
            nation,
            fought,
            area=op.area,
            place=place,
            attack_cv=a_cv,
            defence_cv=d_cv,
            fire={nation: _fire_data(fire_a), defender: _fire_data(fire_d)},
        )
        candidates = [unit_casualty(u, lambda x: fleet_cv(x, with_submarines=False)) for u in units]
        candidates += [
            Casualty(f"{kind}_{i + 1}", nation, kind, f"{kind} point {i + 1}", cv_now=cv)
            for i, (kind, cv) in enumerate(troops)
        ]
        chosen = t.take_losses(
            LossRequest(
                f"{board.name_of(nation)} landing at {name}",
                (nation,),
                fire_d.steps,
                tuple(candidates),
                context,
                protect=("manpower", "tank"),
            )
        )
        for cid, steps in Counter(chosen).items():
            if cid in t.state.units:
                t.hit_unit(t.state.units[cid], context, fought, steps)
            else:
                survivors -= steps
        d_candidates = [
            Casualty(
                f"garrison_{i + 1}", defender, "garrison", f"garrison {i + 1}", cv_now=GARRISON_CV
            )
            for i in range(garrison)
        ]
        d_candidates += [
            Casualty(
                f"air:{a.id}:{i + 1}",
                a.nation,
                "air",
                f"Air Point of {a.id}",
                cv_now=land_air_values(a.kind).fleet,
            )
            for a in island_air
            for i in range(a.points)
        ]
        d_chosen = t.take_losses(
            LossRequest(
                f"{board.name_of(defender)} defending {name}",
                (defender,),
                fire_a.steps,
                tuple(d_candidates),
                context,
            )
        )
        for cid in d_chosen:
            if cid.startswith("garrison_"):
                garrison -= 1
            else:
                air_id = cid.split(":")[1]
                t.state.air[air_id].points -= 1
        t.state.garrisons.setdefault(place, {})[defender] = garrison
    if survivors <= 0:
        t.emit(
            "landing_failed",
            f"The landing at {name} fails: the troops are wiped out.",
            nation,
            (nation, UMPIRE),
            cover=Cover(
                f"The landing of {board.name_of(nation)} at {name} fails.", {"place": place}
            ),
            operation=op.id,
            place=place,
        )
        return
    _capture(t, board, place, nation, survivors)
    t.emit(
        "landing_succeeded",
        f"{board.name_of(nation)} takes {name}: {survivors} troop point(s) ashore become its "
        "garrison.",
        nation,
        (nation, UMPIRE),
        # the holder's colour on the map changes for every team to see
        cover=Cover(f"{board.name_of(nation)} takes {name}.", {"place": place}),
        operation=op.id,
        place=place,
        garrison=survivors,
    )


def _landing_task_forces(t: Turn, op: Operation) -> tuple[str, ...]:
    """The task forces whose ships and air add to a minor invasion's CV. 002 "Minor
    Invasions": *Use the following Combat values for land troops, in addition to the CV of
    the TF allocated to Invasion* — the invasion force (rule option ``landing_strength``
    ``"all_task_forces"`` adds the covering force too, reading *In an invasion all naval
    units and air units in the supporting Task Force can be added into the invasion CV* as
    every task force of the operation)."""
    if option(t.options, "landing_strength") == "all_task_forces" or not op.invasion_force:
        return op.task_forces
    return (op.invasion_force,)


def _capture(t: Turn, board: Board, place: str, nation: str, survivors: int) -> None:
    """The place changes hands; surviving defenders and Air Points are removed; enemy
    units in port there fall back to their nation's nearest fleet base."""
    t.state.holders[place] = nation
    t.state.garrisons[place] = {nation: survivors}
    for air in t.air_at(place):
        if not board.friendly(air.nation, nation):
            t.remove_air(air)
    spot = (board.bases[place]["lon"], board.bases[place]["lat"])
    refuges: dict[str, str | None] = {}  # a nation's ships all fall back to one base
    for unit in t.units_at(place):
        if unit.state != "sunk" and not board.friendly(unit.nation, nation):
            if unit.nation not in refuges:
                try:
                    refuges[unit.nation] = board.nearest_fleet_base(unit.nation, spot)
                except LookupError:
                    refuges[unit.nation] = None
            refuge = refuges[unit.nation]
            if refuge is None:
                unit.state = "sunk"
                t.emit(
                    "unit_sunk",
                    f"{unit.name} is lost with {board.place_name(place)}.",
                    unit.nation,
                    (*sorted({unit.nation, nation}), UMPIRE),
                    unit=unit.id,
                )
                continue
            t.move_unit(unit, refuge)
            t.emit(
                "unit_transferred",
                f"{unit.name} escapes from {board.place_name(place)} "
                f"to {board.place_name(refuge)}.",
                unit.nation,
                (unit.nation, UMPIRE),
                unit=unit.id,
                to=refuge,
            )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
