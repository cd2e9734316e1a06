"""Standing orders: plausible, deterministic orders built from the position alone.

Every nation escorts its busiest working routes with its escort forces and sends its
submarines against the richest enemy route they can reach; heavy units stay at their base
as a task force ready to intervene when LSP allows. No operations are launched. Used to
play long games in tests and benchmarks, and as the starting point an umpire can edit
for a team that sent no orders.
"""

from __future__ import annotations

from .board import Board
from .forces import attack_cv
from .orders import Escort, Orders, Raid, TaskForce


def standing_orders(board: Board, nation: str) -> Orders:
    state = board.state
    units = sorted(
        (u for u in state.units.values() if u.nation == nation and u.state != "sunk"),
        key=lambda u: u.id,
    )
    routes = sorted(
        (
            r
            for r in board.route_rows
            if board.route_nation(r) == nation
            and board.route_working(r)[0]
            and state.routes.get(r, 0) > 0
        ),
        key=lambda r: (-state.routes.get(r, 0), r),
    )
    escorts: dict[str, list[str]] = {}
    escort_units = [u for u in units if u.type == "escort"]
    for i, unit in enumerate(escort_units):
        if routes:
            escorts.setdefault(routes[i % len(routes)], []).append(unit.id)
    raids: dict[tuple[str, str], list[str]] = {}
    reach = board.naval_range()
    enemy_routes = sorted(
        (
            r
            for r in board.route_rows
            if board.enemies(nation, board.route_nation(r)) and state.routes.get(r, 0) > 0
        ),
        key=lambda r: (-state.routes.get(r, 0), r),
    )
    first = {r: i for i, r in enumerate(enemy_routes)}
    through: dict[str, tuple[str, ...]] | None = None  # made for the first submarine
    for unit in units:
        if unit.type != "submarine" or attack_cv(unit) == 0 or not enemy_routes:
            continue
        if through is None:
            through = board.routes_by_area(enemy_routes)
        # the first route (most tonnage first) passing through an area in the sub's reach
        within = board.areas_within(unit.base, reach)
        ranks = [first[r] for a in within for r in through.get(a, ())]
        if not ranks:
            continue
        route = enemy_routes[min(ranks)]
        near = [a for a in board.route(route).path if a in within]
        area = min(near, key=lambda a: (board.distance(unit.base, a), a))
        raids.setdefault((route, area), []).append(unit.id)
    task_forces = []
    lsp = dict(state.lsp_of(nation))
    heavies: dict[str, list[str]] = {}
    for unit in units:
        if unit.type in ("heavy", "fleet_carrier") and board.is_fleet_base(unit.base):
            heavies.setdefault(unit.base, []).append(unit.id)
    for base, ids in sorted(heavies.items()):
        if lsp.get(base, 0) >= 1 and board.friendly(nation, board.holder(base)):
            lsp[base] -= 1
            task_forces.append(
                TaskForce(
                    f"{base}_squadron", f"{board.place_name(base)} squadron", base, tuple(ids), 1
                )
            )
    return Orders(
        nation,
        state.turn,
        escorts=tuple(Escort(r, tuple(u)) for r, u in sorted(escorts.items())),
        raids=tuple(Raid(r, a, tuple(u)) for (r, a), u in sorted(raids.items())),
        task_forces=tuple(task_forces),
    )
