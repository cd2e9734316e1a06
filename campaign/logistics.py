"""Steps 1, 3 and 4 of 002's "Turn sequence": supplies moved along the merchant routes,
strategic base-to-base transfers, and tonnage allocated to the routes (new routes too)."""

from __future__ import annotations

from .board import Board
from .context import Turn, count
from .events import UMPIRE, Cover
from .options import option
from .orders import AirTransfer
from .state import AirUnit, FleetTrain


def move_supplies(t: Turn) -> None:
    """1. *Move supplies (including LSP) using Tonnage points left over from the previous
    turn.* The economy's LSP arrive first (lsp_supply.csv); then each route carries what the
    orders load, within its effective lift (002 "Transportation and Supply")."""
    board = t.board
    for row in t.scenario.rows_with("lsp_supply", turn=t.state.turn):
        if row["points"]:
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
            t.move_unit(unit, move.to)
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
        for air_move in t.orders[nation].air_transfers:
            _move_air(t, board, nation, air_move)
        for order in t.orders[nation].fleet_trains:
            train = t.state.fleet_trains.get(order.id)
            if train is not None and order.area and not order.disband:
                before = train.area
                train.area = order.area
                t.emit(
                    "fleet_train_moved",
                    f"Fleet train '{train.name}' moves {board.area_name(before)} → "
                    f"{board.area_name(order.area)}, with the units based on it.",
                    nation,
                    (nation, UMPIRE),
                    cover=Cover(
                        f"A fleet train of {board.name_of(nation)} moves to "
                        f"{board.area_name(order.area)}.",
                        {"area": order.area},
                    ),
                    fleet_train=train.id,
                    origin=before,
                    to=order.area,
                )


def _move_air(t: Turn, board: Board, nation: str, move: AirTransfer) -> None:
    """Land-based Air Points flown to another place (step 3, any distance). Joining Air
    Points of the same nation and kind already there, else a new air unit there."""
    air = t.state.air[move.air]
    points = move.points or air.points
    origin = air.base
    if points >= air.points:
        there = _air_at(t, nation, air.kind, move.to, exclude=air.id)
        if there is None:
            t.move_air(air, move.to)
        else:
            there.points += air.points
            t.remove_air(air)
    else:
        air.points -= points
        there = _air_at(t, nation, air.kind, move.to, exclude=air.id)
        if there is None:
            new_id = f"{air.id}@{move.to}"
            t.add_air(AirUnit(new_id, nation, move.to, air.kind, points))
        else:
            there.points += points
    t.emit(
        "air_moved",
        f"{count(points, 'Air Point')} of land-based air fly {board.place_name(origin)} → "
        f"{board.place_name(move.to)}.",
        nation,
        (nation,),
        air=move.air,
        points=points,
        origin=origin,
        to=move.to,
    )


def _air_at(t: Turn, nation: str, kind: str, place: str, exclude: str) -> AirUnit | None:
    """The Air Points of ``nation`` and ``kind`` at ``place`` (other than ``exclude``) that
    Air Points flown there join: the first by id."""
    found = [
        other
        for other in t.air_at(place)
        if other.id != exclude and (other.nation, other.kind) == (nation, kind)
    ]
    return min(found, key=lambda a: a.id) if found else None


def _fleet_trains(t: Turn, nation: str, serial: int) -> int:
    """Step 4 for fleet trains (002 "Bases"): new ones are set up with their supply route
    from their origin (its tonnage allocated with the nation's other routes, the LSP taken
    there as the train's first stock, the manpower handed to the land game); disbanded
    ones send their units and LSP back to their origin and give up their route. Returns
    the last route serial used."""
    board = t.board
    for order in t.orders[nation].fleet_trains:
        train = t.state.fleet_trains.get(order.id)
        if train is None:
            serial += 1
            route_id = f"{order.id}_supply"
            train = FleetTrain(
                order.id, nation, order.name, order.area, order.origin, route_id, t.state.turn
            )
            t.state.fleet_trains[order.id] = train
            t.state.extra_routes[route_id] = {
                "id": route_id,
                "serial": serial,
                "name": f"{order.name} supply",
                "nation": nation,
                "origin": order.origin,
                "destination": order.id,
                "via": [],
                "tonnage": 0,
                "notes": f"fleet train supply route, set up on turn {t.state.turn}",
            }
            t.state.routes[route_id] = 0
            t.state.add_lsp(order.origin, nation, -order.lsp)
            t.state.add_lsp(order.id, nation, order.lsp)
            manpower = int(option(t.options, "fleet_train_manpower"))
            t.emit(
                "fleet_train_established",
                f"Fleet train '{order.name}' is set up in {board.area_name(order.area)}, "
                f"supplied from {board.place_name(order.origin)} by {order.tonnage} tonnage "
                f"points, with {order.lsp} LSP; it costs {count(manpower, 'manpower point')} "
                "(for the land game).",
                nation,
                (nation, UMPIRE),
                cover=Cover(
                    f"A fleet train of {board.name_of(nation)} is set up in "
                    f"{board.area_name(order.area)}.",
                    {"area": order.area},
                ),
                fleet_train=order.id,
                area=order.area,
                origin=order.origin,
                route=route_id,
                tonnage=order.tonnage,
                lsp=order.lsp,
                manpower=manpower,
            )
        elif order.disband:
            _disband(t, train)
    return serial


def _disband(t: Turn, train: FleetTrain) -> None:
    board = t.board
    for unit in t.state.units.values():
        if unit.base == train.id:
            t.move_unit(unit, train.origin)
    for nation, points in list(t.state.lsp.get(train.id, {}).items()):
        t.state.add_lsp(train.id, nation, -points)
        t.state.add_lsp(train.origin, nation, points)
    t.state.tonnage[train.nation] = t.state.tonnage.get(train.nation, 0) + t.state.routes.pop(
        train.route, 0
    )
    t.state.extra_routes.pop(train.route, None)
    del t.state.fleet_trains[train.id]
    t.emit(
        "fleet_train_disbanded",
        f"Fleet train '{train.name}' is disbanded: its units and LSP return to "
        f"{board.place_name(train.origin)}, its tonnage to the pool.",
        train.nation,
        (train.nation, UMPIRE),
        cover=Cover(
            f"A fleet train of {board.name_of(train.nation)} leaves {board.area_name(train.area)}.",
            {"area": train.area},
        ),
        fleet_train=train.id,
        origin=train.origin,
    )


def allocate_tonnage(t: Turn) -> None:
    """4. *Allocate available tonnage points to merchant routes. New merchant routes can be
    created by diverting tonnage points to them.*"""
    # the last route serial used: the scenario's routes', read once, or a created route's
    last = max(t.scenario.column("routes", "serial"), default=0)
    for nation in t.nations():
        orders = t.orders[nation]
        serial = max([last, *(r["serial"] for r in t.state.extra_routes.values())])
        serial = _fleet_trains(t, nation, serial)
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
        for order in orders.fleet_trains:
            if order.tonnage and not order.disband:
                changes.setdefault(f"{order.id}_supply", order.tonnage)
        if not changes:
            continue
        board = t.board
        total = t.state.total_tonnage(nation, board.routes_of(nation))
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
