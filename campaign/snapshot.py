"""A game's position as the start of a new scenario ("New scenario from this game").

The state at the start of a turn — where every unit is and in what state, who holds each
place, the LSP, Air Points, garrisons and tonnage — becomes the tables of a scenario whose
first turn is that turn: the same turn numbers, so the flags, production and LSP deliveries
still to come keep theirs, and ``start_year``/``start_period`` name that turn's two months.
What a scenario file cannot hold is said in the notes returned with it: a fleet train (its
units go back to the fleet base it sailed from) and its routes; sunk units (and their ships
and air groups); Advantage Cards already played.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from .board import Board
from .csvdata import Row
from .scenario import PERIODS, Scenario
from .state import GameState


def scenario_from_game(
    scenario: Scenario, state: GameState, name: str = ""
) -> tuple[Scenario, list[str]]:
    """A new scenario starting where ``state`` stands (the start of a turn: step 0), and
    notes on what could not be carried over. Raises ValueError for a state in mid-turn
    (take the turn's start: ``GameFile.turn_start``)."""
    if state.step != 0:
        raise ValueError(
            f"turn {state.turn} is in progress (step {state.step} done); a scenario starts at "
            "the start of a turn"
        )
    notes: list[str] = []
    first = state.turn
    period = scenario.meta.period_of(first)
    month, year = period.rsplit(" ", 1)
    meta = replace(
        scenario.meta,
        id=f"{scenario.meta.id}_turn_{first}",
        name=name or f"{period} (from turn {first} of {scenario.meta.name})",
        first_turn=first,
        last_turn=max(scenario.meta.last_turn, first),
        start_year=int(year),
        start_period=PERIODS.index(month) + 1,
        options=dict(scenario.meta.options),
    )
    tables: dict[str, list[Row]] = {k: copy.deepcopy(v) for k, v in scenario.tables.items()}
    bases = {b["id"] for b in tables["bases"]}
    for row in tables["bases"]:
        row["holder"] = state.holders.get(row["id"], row["holder"])
    tables["units"] = _units(scenario, state, bases, notes)
    units = {u["id"] for u in tables["units"]}
    tables["ships"] = [s for s in tables["ships"] if s["unit"] in units]
    ships = {s["id"] for s in tables["ships"]}
    tables["air_groups"] = [g for g in tables["air_groups"] if g["ship"] in ships]
    tables["lsp"], waiting = _lsp(scenario, state, bases)
    tables["garrisons"] = [
        {"base": base, "nation": nation, "garrisons": count}
        for base, held in sorted(state.garrisons.items())
        for nation, count in sorted(held.items())
        if base in bases and count
    ]
    air_notes = {r["id"]: r["notes"] for r in scenario.rows("air")}
    tables["air"] = [
        {
            "id": a.id,
            "nation": a.nation,
            "base": a.base,
            "kind": a.kind,
            "points": a.points,
            "notes": air_notes.get(a.id),
        }
        for a in state.air.values()
        if a.base in bases
    ]
    tables["routes"] = _routes(scenario, state, bases, notes)
    # every tonnage point the nation has, on a route or not (a route left out gives its
    # tonnage back to the pool)
    board = Board(scenario, state)
    for row in tables["nations"]:
        row["tonnage"] = state.total_tonnage(row["id"], board.routes_of(row["id"]))
    played = set(state.cards_played)
    if played:
        notes.append(f"{len(played)} Advantage Card(s) already played are left out of the decks")
    tables["cards"] = [c for c in tables["cards"] if c["id"] not in played]
    tables["flags"] = _flags(tables["flags"], state, first)
    tables["lsp_supply"] = _supply(tables["lsp_supply"], waiting, first)
    if waiting:
        notes.append(
            f"LSP waiting at {len(waiting)} port(s) (delivered there, not yet moved to a fleet "
            f"base) arrive there again on turn {first}, in lsp_supply.csv"
        )
    tables["production"] = _production(tables["production"], state, first)
    return Scenario(meta, tables), notes


def _units(scenario: Scenario, state: GameState, bases: set[str], notes: list[str]) -> list[Row]:
    """The units afloat, where they are; a unit with a fleet train goes back to the fleet
    base the train sailed from (a scenario has no fleet trains)."""
    notes_of = {r["id"]: r["notes"] for r in scenario.rows("units")}
    notes_of.update(
        {r["id"]: r["notes"] for r in scenario.rows("production") if r["id"] not in notes_of}
    )
    sunk = [u for u in state.units.values() if u.state == "sunk"]
    if sunk:
        notes.append(f"{len(sunk)} sunk unit(s) are left out, with their ships and air groups")
    out: list[Row] = []
    for unit in state.units.values():
        if unit.state == "sunk":
            continue
        base = unit.base
        train = state.fleet_trains.get(base)
        if train is not None:
            notes.append(
                f"{unit.name} was with fleet train {train.name}: it starts at {train.origin}"
            )
            base = train.origin
        if base not in bases:
            notes.append(f"{unit.name} is at {base}, not a place of the scenario: left out")
            continue
        out.append(
            {
                "id": unit.id,
                "nation": unit.nation,
                "type": unit.type,
                "name": unit.name,
                "base": base,
                "state": unit.state,
                "carries_air": unit.carries_air and unit.state == "ready",
                "notes": notes_of.get(unit.id),
            }
        )
    return out


def _routes(scenario: Scenario, state: GameState, bases: set[str], notes: list[str]) -> list[Row]:
    """The scenario's routes and those created in play, with the tonnage they carry now; a
    route to a fleet train is left out (its tonnage goes back to the nation's pool)."""
    rows: list[Row] = [dict(r) for r in scenario.rows("routes")]
    rows += [dict(r) for r in state.extra_routes.values()]
    out = []
    for row in rows:
        if row["origin"] not in bases or row["destination"] not in bases:
            notes.append(f"route {row['name']} ends at a fleet train: left out")
            continue
        row["tonnage"] = state.routes.get(row["id"], 0)
        out.append({k: row.get(k) for k in _ROUTE_COLUMNS})
    return out


_ROUTE_COLUMNS = (
    "id",
    "serial",
    "name",
    "nation",
    "origin",
    "destination",
    "via",
    "tonnage",
    "notes",
)


def _lsp(
    scenario: Scenario, state: GameState, bases: set[str]
) -> tuple[list[Row], dict[tuple[str, str], int]]:
    """LSP at fleet bases (lsp.csv), and LSP waiting at ports: the economy delivers LSP to
    ports (lsp_supply.csv) and merchant routes carry them on, but lsp.csv holds fleet bases
    only — so what waits at a port is delivered there again on the first turn."""
    kinds = {b["id"]: b["kind"] for b in scenario.rows("bases")}
    at_bases: list[Row] = []
    waiting: dict[tuple[str, str], int] = {}
    for base, held in sorted(state.lsp.items()):
        for nation, points in sorted(held.items()):
            if base not in bases or not points:
                continue
            if kinds[base] == "fleet_base":
                at_bases.append({"base": base, "nation": nation, "points": points})
            else:
                waiting[(nation, base)] = points
    return at_bases, waiting


def _supply(rows: list[Row], waiting: dict[tuple[str, str], int], first: int) -> list[Row]:
    """Deliveries still to come, with the LSP waiting at ports added on the first turn."""
    out = [dict(r) for r in rows if r["turn"] >= first]
    for (nation, base), points in waiting.items():
        row = next(
            (r for r in out if (r["nation"], r["turn"], r["base"]) == (nation, first, base)),
            None,
        )
        if row is None:
            out.append({"nation": nation, "turn": first, "base": base, "points": points})
        else:
            row["points"] += points
    return out


def _flags(rows: list[Row], state: GameState, first: int) -> list[Row]:
    """Flags from the new first turn on, with Game Control's corrections written in."""
    out = []
    for row in rows:
        if row["turn"] < first:
            continue
        override = state.flag_overrides.get(str(row["turn"]), {}).get(row["nation"])
        if override is not None:
            row = {**row, "naval": override[0], "military": override[1]}
        out.append(row)
    return out


def _production(rows: list[Row], state: GameState, first: int) -> list[Row]:
    """Production still to come: what has joined the fleet is a unit now; a ship that was
    due and waits in its yard arrives on the new first turn."""
    out = []
    for row in rows:
        if row["id"] in state.units:
            continue
        out.append({**row, "turn": max(row["turn"], first)})
    return out
