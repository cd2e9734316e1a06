"""Steps 1, 3 and 4 of 002's "Turn sequence": supplies moved along the merchant routes,
strategic base-to-base transfers, and tonnage allocated to the routes (new routes too)."""

from __future__ import annotations

from .context import Turn
from .events import UMPIRE, Cover


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


def strategic_transfers(t: Turn) -> None:
    """3. *Strategic base to base transfers. Units that do this may not also conduct
    operations of any sort that turn. Strategic moves can be of any length. Place
    strategically moved unit counters on an 'In Port' Card.*"""
    board = t.board
    moved = t.record.transferred
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
            board = t.board
            t.emit(
                "route_created",
                f"New merchant route '{new.name}' ({serial}).",
                nation,
                (nation,),
                # 002: *Merchant routes are marked on the map*: every team sees the line
                cover=Cover(
                    f"A new merchant route of {board.name_of(nation)} is marked on the map: "
                    f"{board.public_route_name(new.id)}.",
                    {
                        "route": new.id,
                        "serial": serial,
                        "origin": new.origin,
                        "destination": new.destination,
                    },
                ),
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
