"""The computer opponent: whole orders for any nation, from that nation's team view only.

::

    view = campaign.team_view("japan")
    orders = computer_orders(campaign.scenario, view, level="admiral")
    campaign.set_orders("japan", orders)          # passes the same check as a person's

:func:`computer_orders` builds a belief state from the view (:mod:`.belief`), plans each
step with the engine's board queries and exact odds (:mod:`.planner`), tries the best
operations by resolving the turn on the belief (:mod:`.lookahead`), and checks the result
with the rules' own order check on the belief, dropping any order it refuses. Every order
carries a one-line reason (``Orders.reasons``) for the team's report. The method, the
levels and the postures are in docs/computer-opponent.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from ..board import Board
from ..orders import CardPlay, Operation, Orders, Reason, TaskForce, order_key
from ..rules import check_orders
from ..scenario import Scenario
from ..score import Baseline
from ..teamview import CardView, TeamView
from .belief import belief_state, known_nations, orders_state
from .lookahead import play_out
from .planner import (
    DEFAULT_POSTURES,
    LEVELS,
    POSTURES,
    Level,
    OpCandidate,
    Planner,
    Posture,
    Section,
    default_posture,
)
from .scope import Scope, air_in, merge, rebuild, split, units_in

__all__ = [
    "DEFAULT_POSTURES",
    "LEVELS",
    "POSTURES",
    "Scope",
    "computer_orders",
    "default_posture",
]

#: the order in which sections are written (the orders file's)
SECTIONS = ("supplies", "transfers", "escorts", "task_forces", "raids", "operations", "cards")
_INDEXED = re.compile(r"^(\w+)\[(\d+)\]")
_QUOTED = re.compile(r"\['([^']*)'\]")
#: rounds of dropping refused orders before giving up (never reached in the tests)
MAX_REPAIRS = 8


def computer_orders(
    scenario: Scenario,
    view: TeamView,
    level: str = "admiral",
    posture: str | None = None,
    allied_orders: Mapping[str, Orders] | None = None,
    progress: Callable[[str], None] | None = None,
    scope: Scope | None = None,
    keep: Orders | None = None,
) -> Orders:
    """The computer's orders for ``view``'s nation this turn, each with its reason.

    ``allied_orders``: orders the nation's allies have already given (what allies would
    tell each other at the table); allies without orders are expected to play standing
    orders. ``scope``: only the forces and kinds of orders handed to the computer
    (:class:`~campaign.opponent.scope.Scope`); the rest of ``keep`` (the person's draft)
    stays as it is and the computer's orders are added to it. Raises KeyError for an
    unknown level or posture."""
    lv = LEVELS[level]
    pv = POSTURES[posture or default_posture(view.nation)]
    allied = {
        n: o for n, o in (allied_orders or {}).items() if n in view.allies and n != view.nation
    }
    belief = belief_state(scenario, view)
    board = Board(scenario, orders_state(scenario, belief, known_nations(scenario, view)))
    if progress:
        progress(f"{view.name}: weighing escorts and raiders")
    planner = Planner(scenario, belief, board, view.nation, lv, pv, allied)
    scope = scope or Scope()
    planner.keep = _hand_over(planner, scope, keep or Orders(view.nation, view.turn))
    if scope.has("logistics"):
        planner.transfers()
        planner.supplies()
    if scope.has("raids"):
        planner.raids()
    threat = planner.escorts(give=scope.has("escorts"))
    if scope.has("logistics"):
        planner.allocate_tonnage(threat)
    chosen: list[OpCandidate] = []
    if scope.has("fleet"):
        if progress:
            progress(f"{view.name}: weighing operations")
        chosen = _choose_operations(planner, scenario, board, view, lv, pv, progress)
    orders = _finish(planner, chosen, view, fleet=scope.has("fleet"))
    return _repair(board, orders, allied)


def _hand_over(planner: Planner, scope: Scope, draft: Orders) -> Orders:
    """What stays the person's under ``scope``; the planner keeps its hands off those
    orders' units, Air Points, LSP, flags and cards, and off every force it does not
    command."""
    if scope.whole:
        return Orders(draft.nation, draft.turn)
    board = planner.b
    kept = split(board, draft, scope)
    planner.used |= units_in(kept)
    planner.used |= {u.id for u in planner.my_units() if not scope.commands(board, u.id)}
    for air_id, points in air_in(kept).items():
        if air_id in planner.air_left:
            planner.air_left[air_id] = max(planner.air_left[air_id] - points, 0)
    for air_id in list(planner.air_left):
        if not scope.commands_air(board, air_id):
            planner.air_left[air_id] = 0
    if not scope.has("logistics"):
        for move in kept.supplies:
            row = board.route_rows.get(move.route)
            if row is not None and move.lsp:
                origin, dest = str(row["origin"]), str(row["destination"])
                planner.lsp[origin] = planner.lsp.get(origin, 0) - move.lsp
                planner.lsp[dest] = planner.lsp.get(dest, 0) + move.lsp
    for tf in kept.task_forces:
        planner.lsp[tf.base] = planner.lsp.get(tf.base, 0) - tf.lsp
    planner.flags_used = len(kept.operations)
    planner.military_flags -= sum(1 for op in kept.operations if op.kind == "major_invasion")
    planner.cards_used = {c.card for c in kept.cards}
    return kept


def _military_ok(planner: Planner, chosen: list[OpCandidate], c: OpCandidate) -> bool:
    """A major invasion takes a Military Operations Flag as well: one is still free."""
    if c.op.kind != "major_invasion":
        return True
    majors = sum(1 for x in chosen if x.op.kind == "major_invasion")
    return majors < planner.military_flags


def _conflicts(a: OpCandidate, b: OpCandidate) -> bool:
    units_a = {u for tf in a.task_forces for u in tf.units}
    units_b = {u for tf in b.task_forces for u in tf.units}
    air_a = {x.air for tf in a.task_forces for x in tf.air}
    air_b = {x.air for tf in b.task_forces for x in tf.air}
    bases_a = {tf.base for tf in a.task_forces}
    bases_b = {tf.base for tf in b.task_forces}
    return bool(units_a & units_b or air_a & air_b or bases_a & bases_b or a.op.id == b.op.id)


def _choose_operations(
    planner: Planner,
    scenario: Scenario,
    board: Board,
    view: TeamView,
    lv: Level,
    pv: Posture,
    progress: Callable[[str], None] | None = None,
) -> list[OpCandidate]:
    flags = view.flags.naval - view.flags.naval_used - planner.flags_used
    cards = len(_hand(planner, view))
    extra = 1 if lv.cards and lv.lookahead_seeds and cards >= 2 else 0
    if flags + extra <= 0:
        return []
    cands = sorted(
        (c for c in planner.candidates() if c.value > 0 and c.p_win >= lv.min_win),
        key=lambda c: (-c.value, c.op.id),
    )
    limit = min(flags, lv.max_operations)
    if not lv.lookahead_seeds:
        chosen: list[OpCandidate] = []
        for c in cands:
            if len(chosen) >= limit:
                break
            if not any(_conflicts(c, x) for x in chosen) and _military_ok(planner, chosen, c):
                chosen.append(c)
        return chosen
    # look-ahead: add the operation that most improves the resolved turn, while it helps
    side = board.side(view.nation)
    baseline = Baseline.of(scenario)
    others = {**planner.enemy_orders, **planner.allied_orders}

    frozen = planner.belief.to_json()

    tried_plans = 0

    def worth(ops: list[OpCandidate]) -> float:
        nonlocal tried_plans
        tried_plans += 1
        if progress:
            progress(f"{view.name}: playing out plan {tried_plans}")
        orders = _finish(planner, ops, view, cards=False)
        return play_out(
            scenario,
            planner.belief,
            frozen,
            {**others, view.nation: orders},
            side,
            pv,
            lv.lookahead_seeds,
            baseline,
        )

    chosen = []
    best_value = worth(chosen)
    pool = list(cands)
    while len(chosen) < min(flags + extra, lv.max_operations):
        tried = [
            c
            for c in pool
            if not any(_conflicts(c, x) for x in chosen) and _military_ok(planner, chosen, c)
        ]
        tried = tried[: lv.lookahead_candidates]
        if not tried:
            break
        scored = [(worth([*chosen, c]), i, c) for i, c in enumerate(tried)]
        value, _, pick = max(scored, key=lambda x: (x[0], -x[1]))
        if value <= best_value + 0.1:
            break
        gain = value - best_value
        chosen.append(
            replace(pick, reason=f"{pick.reason}; look-ahead: +{gain:.1f} points this turn")
        )
        best_value = value
        pool.remove(pick)
    return chosen


def _hand(planner: Planner, view: TeamView) -> list[CardView]:
    """The cards in hand the person's own orders do not already play."""
    return [c for c in view.cards if c.id not in planner.cards_used]


def _finish(
    planner: Planner,
    chosen: list[OpCandidate],
    view: TeamView,
    cards: bool = True,
    fleet: bool = True,
) -> Orders:
    """Orders from the planner's steps 1–5 and the chosen operations: their task forces,
    squadrons standing by with what is left, and the cards; merged into what stays the
    person's (``planner.keep``)."""
    saved = (
        set(planner.used),
        dict(planner.lsp),
        {k: Section(list(v.items), list(v.reasons)) for k, v in planner.sections.items()},
    )
    lsp = planner.lsp
    tf_section = planner.section("task_forces")
    op_section = planner.section("operations")
    committed: set[str] = set()
    for c in chosen:
        for tf in c.task_forces:
            tf_section.add(tf, f"{tf.name}: sails for '{c.op.id}' ({c.op.kind.replace('_', ' ')})")
            committed.update(tf.units)
            lsp[tf.base] = lsp.get(tf.base, 0) - tf.lsp
        op_section.add(c.op, c.reason)
    planner.used |= committed
    if fleet:
        planner.standing_forces(committed)
    flags = view.flags.naval - view.flags.naval_used - planner.flags_used
    if cards and fleet and planner.level.cards:
        _cards(planner, chosen, view, max(len(chosen) - flags, 0))
    orders = _assemble(planner, view)
    planner.used, planner.lsp, planner.sections = saved
    return merge(planner.keep, orders)


def _cards(planner: Planner, chosen: list[OpCandidate], view: TeamView, extra_flags: int) -> None:
    """Advantage Cards: the lowest card buys a flag the chosen operations need; the best
    card goes on the chosen battle whose outcome it moves most (002: *Each card may only be
    played ONCE*)."""
    hand = sorted(_hand(planner, view), key=lambda c: (c.value, c.id))
    section = planner.section("cards")
    for _ in range(extra_flags):
        if not hand:
            return
        card = hand.pop(0)
        section.add(
            CardPlay(card.id, "extra_flag"),
            f"{card.title}: an extra Naval Operations Flag for this turn's operations",
        )
    best: tuple[float, OpCandidate, float, float] | None = None
    if not hand:
        return
    card = hand[-1]
    for c in chosen:
        if not 0.2 <= c.p_win <= 0.85 or not c.opposed_cv:
            continue
        tf = c.task_forces[0]
        units = [planner.state.units[u] for u in tf.units]
        air = [(a.air, a.points) for a in tf.air]
        before = planner.battle(units, air, tf.lsp, c.op.area)[0]
        after = planner.battle(units, air, tf.lsp, c.op.area, bonus=card.value)[0]
        if after - before > 0.08 and (best is None or after - before > best[0]):
            best = (after - before, c, before, after)
    if best is not None:
        _, c, before, after = best
        section.add(
            CardPlay(card.id, "die_bonus", task_force=c.task_forces[0].id),
            f"{card.title} (+{card.value}) for '{c.op.id}': P(win) {before:.0%} → {after:.0%}",
        )


def _assemble(planner: Planner, view: TeamView) -> Orders:
    reasons: list[Reason] = []
    parts: dict[str, tuple[object, ...]] = {}
    for name in SECTIONS:
        section = planner.sections.get(name, Section())
        parts[name] = tuple(section.items)
        reasons += [
            Reason(order_key(name, item), r)
            for item, r in zip(section.items, section.reasons, strict=True)
        ]
    reasons += [Reason(f"tonnage {r}", why) for r, why in sorted(planner.tonnage_reasons.items())]
    return Orders(
        view.nation,
        view.turn,
        supplies=parts["supplies"],  # type: ignore[arg-type]
        transfers=parts["transfers"],  # type: ignore[arg-type]
        tonnage=dict(sorted(planner.tonnage.items())),
        escorts=parts["escorts"],  # type: ignore[arg-type]
        task_forces=parts["task_forces"],  # type: ignore[arg-type]
        raids=parts["raids"],  # type: ignore[arg-type]
        operations=parts["operations"],  # type: ignore[arg-type]
        cards=parts["cards"],  # type: ignore[arg-type]
        reasons=tuple(reasons),
    )


def _repair(board: Board, orders: Orders, allied: Mapping[str, Orders]) -> Orders:
    """Orders the rules' own check accepts on the belief: any order it refuses is dropped
    (with what depends on it). The belief holds the team's own forces exactly, so what
    passes here passes in the game."""
    for _ in range(MAX_REPAIRS):
        problems = check_orders(board, orders, allied)
        if not problems:
            return orders
        orders = _drop(orders, [p.order for p in problems])
    if check_orders(board, orders, allied):
        return Orders(
            orders.nation,
            orders.turn,
            reasons=(Reason("orders", "no order of the plan passed the rules' check"),),
        )
    return orders


def _drop(orders: Orders, refused: list[str]) -> Orders:
    drop: dict[str, set[int]] = {}
    tonnage = dict(orders.tonnage)
    for where in refused:
        m = _INDEXED.match(where)
        if m:
            drop.setdefault(m.group(1), set()).add(int(m.group(2)))
        elif where.startswith("tonnage"):
            q = _QUOTED.search(where)
            if q:
                tonnage.pop(q.group(1), None)
            else:
                tonnage = {}
        elif where.startswith("task forces at") or where == "operations":
            drop.setdefault("operations", set()).update(range(len(orders.operations)))
            drop.setdefault("cards", set()).update(range(len(orders.cards)))
        elif where.startswith("supplies"):
            drop.setdefault("supplies", set()).update(range(len(orders.supplies)))
        else:
            section = where.split("[")[0].split(" ")[0].split(".")[0]
            whole = getattr(orders, section, ())
            if isinstance(whole, tuple):
                drop.setdefault(section, set()).update(range(len(whole)))
    kept: dict[str, tuple[object, ...]] = {}
    for name in SECTIONS:
        items: tuple[object, ...] = getattr(orders, name)
        gone = drop.get(name, set())
        kept[name] = tuple(x for i, x in enumerate(items) if i not in gone)
    lost_tfs = {
        tf.id for i, tf in enumerate(orders.task_forces) if i in drop.get("task_forces", set())
    }
    ops = [
        op
        for op in kept["operations"]
        if isinstance(op, Operation) and not set(op.task_forces) & lost_tfs
    ]
    op_tfs = {t for op in ops for t in op.task_forces}
    gone_ops = {op.id for op in orders.operations} - {op.id for op in ops}
    tfs = [
        tf
        for tf in kept["task_forces"]
        if isinstance(tf, TaskForce)
        and not (tf.id.startswith(("cover_", "invade_", "tf_")) and tf.id not in op_tfs)
    ]
    tf_ids = {tf.id for tf in tfs}
    cards = [
        c
        for c in kept["cards"]
        if isinstance(c, CardPlay) and (not c.task_force or c.task_force in tf_ids)
    ]
    if gone_ops:
        cards = [c for c in cards if c.use != "extra_flag"]
    new = {
        **kept,
        "operations": tuple(ops),
        "task_forces": tuple(tfs),
        "cards": tuple(cards),
    }
    return rebuild(orders, new, tonnage, [orders])
