"""Step 2 of 002's "Turn sequence": *Add new ship production to nearest fleet base to the
shipyard* (production.csv, shipyards.csv)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from .board import Board
from .context import Turn
from .scenario import Scenario
from .state import GameState, Unit
from .world import NearestPlaces


def production_due(board: Board) -> list[tuple[Mapping[str, Any], str | None]]:
    """Production rows due this turn, or due earlier and delayed, not yet commissioned, each
    with the fleet base nearest its shipyard where it joins (None: its nation holds no fleet
    base, and the ship waits in the yard)."""
    state = board.state
    out: list[tuple[Mapping[str, Any], str | None]] = []
    rows = board.scenario.rows("production")
    #: each nation's fleet bases, indexed once for all its ships (None: it holds none),
    #: from one pass over the places for every nation (made when a ship is first due)
    near: dict[str, NearestPlaces | None] = {}
    held: dict[str, list[str]] | None = None
    for i, turn in enumerate(board.scenario.column("production", "turn")):
        if turn > state.turn:
            continue
        row = rows[i]
        if row["id"] in state.units:
            continue
        nation = row["nation"]
        if nation not in near:
            if held is None:
                held = board.fleet_bases_by_holder()
            try:
                near[nation] = board.fleet_bases_near(nation, held.get(nation, []))
            except LookupError:
                near[nation] = None
        bases = near[nation]
        yard = board.shipyards[row["shipyard"]]
        out.append((row, bases.nearest((yard["lon"], yard["lat"])) if bases is not None else None))
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
    2 is done, or when no ship is due to join a fleet base, else a projection that shares
    everything but its units with ``state``: read it, never change it (a deep copy of a
    large game's state cost more than the order check it serves, and even the copy of its
    units is made only for a ship to add)."""
    if state.step >= 2:
        return state
    due = [(row, base) for row, base in production_due(Board(scenario, state)) if base is not None]
    if not due:
        return state
    projected = copy.copy(state)
    projected.units = dict(state.units)
    for row, base in due:
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
