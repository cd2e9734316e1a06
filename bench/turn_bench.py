"""Resolving a whole turn: the 1942 world, and synthetic worlds 10× and 100× larger.

Run: ``python bench/turn_bench.py [--runs N]``. Prints, for each world:

* *turn*: what ``Campaign.resolve`` does in memory, on a copy of the state and the
  orders read afresh from their JSON (:meth:`Setup.timed`): the order
  check of every nation's orders together, the ten steps (each with its own dice, as the
  engine makes them) and the end of the turn, the steps' events kept for the turn's report
  as ``resolve`` keeps and returns them — what the engine costs, median of repeated
  runs. (Until the second pass the bench let each step's events go as the next step began,
  timing their freeing: 2 ms of the 100× turn, in step 6, where step 5's thousands of
  events went.) Target (issue 14): linear in the size of the world, the 100× turn at most 11×
  the 10× turn (the two timed in turns, so a drift of the machine's speed slows both);
  the 1942 turn under 50 ms;
* *resolve + save*: ``Campaign.resolve`` including the ten one-transaction saves with
  ``synchronous=FULL`` — what an umpire waits for;
* the same two worlds' second turns (:func:`after_a_turn`), their turns with a fleet
  train on the map (:func:`with_a_fleet_train`), with a supplied fleet train in every
  copy (:func:`with_fleet_trains_everywhere`) and with sea areas contested for the
  merchant routes (:func:`with_contested_areas`), and a turn of every copy's 1942 sample
  orders (:func:`sample_orders_in_every_copy`: operations, battles, invasions, cards);
* the rules' work counted, not timed: the function calls one turn of each world makes
  (:func:`calls_made`), whose ratio is the rules' own growth whatever the machine's
  memory makes of the larger world;
* for comparison with the ratio, a plain loop over the same orders' units with no rule in
  it (:func:`plain_loop`), at 10x and 100x: what this machine's memory makes of
  ten times the data (information, not a target).

Orders: every nation gives the shipped sample orders for turn 1 where they exist
(``data/scenarios/1942/sample-orders``), else standing orders (escorts on its routes,
submarines against enemy routes, squadrons ready to intervene). A synthetic world is the
1942 scenario copied N times side by side (sea areas, bases, units, routes; each copy's
areas joined to the next), played with standing orders; the turn time should grow
linearly with N.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from campaign import paths
from campaign.autoplay import standing_orders
from campaign.board import Board
from campaign.csvdata import Row
from campaign.dice import DiceLog
from campaign.engine import Campaign, DiceFactory, seeded
from campaign.events import Event
from campaign.gamefile import GameFile
from campaign.orders import Escort, Orders, OrdersError, Raid, TaskForce, load_orders
from campaign.rules import check_turn
from campaign.scenario import Scenario, load_scenario
from campaign.state import FleetTrain, GameState, initial_state
from campaign.turn import STEPS, Turn, end_turn, older_objects_set_aside, with_production

SAMPLES = paths.scenario_dir("1942") / "sample-orders"


def synthetic(base: Scenario, copies: int, flags: bool = False) -> Scenario:
    """The scenario repeated ``copies`` times; copy k's ids get the suffix ``_k``. Up to
    46 copies of the 1942 world it is a valid scenario (a game file made from it opens
    again, rechecked); beyond, the UK's tonnage passes the 10,000 points a nation may hold
    (nations.csv), so the 100x world is played in memory only. A nation's tonnage grows
    with the copies; with ``flags`` its Operations Flags do too (for orders that place a
    flag in every copy: :func:`sample_orders_in_every_copy`)."""
    if copies == 1:
        return base
    id_columns = {
        "sea_areas": ("id",),
        "adjacency": ("a", "b"),
        "bases": ("id", "sea_area"),
        "routes": ("id", "origin", "destination"),
        "units": ("id", "base"),
        "lsp": ("base",),
        "lsp_supply": ("base",),
        "air": ("id", "base"),
        "garrisons": ("base",),
        "shipyards": ("id", "sea_area"),
        "production": ("id", "shipyard"),
        "cards": ("id",),
    }
    tables: dict[str, list[dict[str, Any]]] = {}
    # copy k's route serials follow copy k-1's, so the chart keeps the copies in order
    stride = max(r["serial"] for r in base.rows("routes"))
    for name, rows in base.tables.items():
        if name not in id_columns:
            tables[name] = [dict(r) for r in rows]
            continue
        out = []
        for k in range(copies):
            for row in rows:
                new = dict(row)
                if k:
                    for col in id_columns[name]:
                        new[col] = f"{row[col]}_{k}"
                    if name == "routes":
                        new["via"] = [f"{v}_{k}" for v in row["via"]]
                        new["serial"] = row["serial"] + stride * k
                out.append(new)
        tables[name] = out
    first = base.tables["sea_areas"][0]["id"]
    for k in range(1, copies):
        prev = first if k == 1 else f"{first}_{k - 1}"
        tables["adjacency"].append(
            {"a": prev, "b": f"{first}_{k}", "kind": "strait", "name": f"link {k}"}
        )
    for n in tables["nations"]:
        n["tonnage"] = n["tonnage"] * copies
    if flags:
        for f in tables["flags"]:
            f["naval"], f["military"] = f["naval"] * copies, f["military"] * copies
    return Scenario(copy.deepcopy(base.meta), tables)


#: the tables whose ids a synthetic world suffixes, and so the orders naming them
_ID_TABLES = ("units", "bases", "sea_areas", "routes", "air", "cards")
#: keys of the orders whose text is an id of the orders' own (task forces, operations)
_ORDERS_IDS = frozenset({"id", "task_forces", "invasion_force", "task_force", "intervene_in"})
#: keys whose text is never an id
_NOT_IDS = frozenset({"nation", "name", "notes", "kind", "stance", "use", "text", "cargo"})


def copies_of(scenario: Scenario) -> int:
    """How many copies of the 1942 world a :func:`synthetic` world is."""
    return len(scenario.rows("units")) // _units_a_copy()


@functools.cache
def _units_a_copy() -> int:
    return len(load_scenario().rows("units"))


def sample_orders_in_every_copy(base: Scenario) -> Callable[[Board], dict[str, Orders]]:
    """Orders for a synthetic world of ``base`` (:func:`synthetic` with ``flags``) that
    give, in every copy, the 1942 sample orders with the copy's ids: task forces,
    operations and their battles, invasions, Advantage Cards, escorts and raids in every
    copy, as a big game's turn has them (standing orders make no operation). Nations
    without sample orders give standing orders."""
    ids = {str(r["id"]) for table in _ID_TABLES for r in base.rows(table)}

    def of_copy(data: Any, k: int, key: str = "") -> Any:
        if isinstance(data, dict):
            return {
                (f"{name}_{k}" if key == "tonnage" and name in ids else name): of_copy(v, k, name)
                for name, v in data.items()
            }
        if isinstance(data, list):
            return [of_copy(v, k, key) for v in data]
        if isinstance(data, str) and key not in _NOT_IDS and (data in ids or key in _ORDERS_IDS):
            return f"{data}_{k}"
        return data

    def orders(board: Board) -> dict[str, Orders]:
        copies = copies_of(board.scenario)
        out = {}
        for nation in board.teams():
            sample = SAMPLES / f"{nation}.json"
            if not sample.is_file():
                out[nation] = standing_orders(board, nation)
                continue
            data = json.loads(sample.read_text(encoding="utf-8"))
            merged = copy.deepcopy(data)
            for k in range(1, copies):
                for key, value in of_copy(data, k).items():
                    if isinstance(value, list):
                        merged[key] = merged.get(key, []) + value
                    elif isinstance(value, dict):
                        merged.setdefault(key, {}).update(value)
            out[nation] = load_orders(json.dumps(merged), nation)
        return out

    return orders


def orders_for(board: Board, use_samples: bool) -> dict[str, Orders]:
    out = {}
    for nation in board.teams():
        sample = SAMPLES / f"{nation}.json"
        if use_samples and sample.is_file():
            out[nation] = load_orders(sample.read_text(encoding="utf-8"), nation)
        else:
            out[nation] = standing_orders(board, nation)
    return out


def play_turn(
    scenario: Scenario, work: GameState, orders: dict[str, Orders], dice: DiceFactory
) -> list[Event]:
    """The whole turn in memory: order check, ten steps, end of turn (no game file, whose
    scenario would be checked: see :func:`synthetic`). Gives back the steps' events, kept
    for the turn's report as ``Campaign.resolve`` keeps them."""
    events: list[Event] = []
    with older_objects_set_aside():  # as Campaign.resolve does
        problems = check_turn(Board(scenario, with_production(scenario, work)), orders)
        if problems:
            raise SystemExit(f"the bench's orders break the rules: {problems[0]}")
        for step in STEPS:
            turn = Turn(scenario, work, orders, dice(work.turn, step.number, DiceLog()))
            work.step = step.number
            step.run(turn)
            if step.number == len(STEPS):
                end_turn(turn)
            events += turn.events
    return events


def plain_loop(
    scenario: Scenario, work: GameState, orders: dict[str, Orders], dice: DiceFactory
) -> list[str]:
    """For comparison with the turn: a plain loop over the same orders' units with no rule
    in it — each unit looked up, the order it is in noted, and a line of text naming it
    and its place (``dice`` unused). It does ten times the work at 100x as at 10x, so its
    growth is what the machine's memory makes of ten times the data."""
    names = scenario.field_by_id("bases", "name")
    units = work.units
    where: dict[str, object] = {}
    lines = []
    for given in orders.values():
        placed: list[Escort | TaskForce | Raid] = [
            *given.escorts,
            *given.task_forces,
            *given.raids,
        ]
        for order in placed:
            for unit_id in order.units:
                unit = units[unit_id]
                where[unit_id] = order
                lines.append(f"{unit.name} at {names[unit.base]} ({unit.type}, {unit.state})")
    return lines


def _set_up_train(
    state: GameState, home: Row, train_id: str, name: str, serial: int, tonnage: int
) -> None:
    """A fleet train in ``home``'s sea area, supplied from ``home`` by a route of its own
    (route serial ``serial``) with ``tonnage`` points taken from its nation's, as step 4
    sets one up."""
    nation, origin = str(home["nation"]), str(home["id"])
    route = f"{train_id}_supply"
    state.fleet_trains[train_id] = FleetTrain(
        train_id, nation, name, str(home["sea_area"]), origin, route, 1
    )
    columns = {"id": route, "serial": serial, "name": f"{name} supply", "nation": nation}
    columns |= {"origin": origin, "destination": train_id, "via": [], "tonnage": 0, "notes": ""}
    state.extra_routes[route] = columns
    state.routes[route] = tonnage
    if tonnage:
        state.tonnage[nation] -= tonnage


def _next_serial(scenario: Scenario) -> int:
    return max(int(r["serial"]) for r in scenario.rows("routes")) + 1


def with_a_fleet_train(scenario: Scenario) -> GameState:
    """The initial state with one fleet train (002 "Bases": *a Mobile Fleet Base*) in the
    sea area of the scenario's first fleet base, supplied from that base by a route of its
    own with no tonnage: a turn lays the trains over the places, and a turn's cost once
    grew with its places times its hits when a train was on the map."""
    state = initial_state(scenario)
    home = next(r for r in scenario.rows("bases") if r["kind"] == "fleet_base")
    _set_up_train(state, home, "bench_train", "Bench train", _next_serial(scenario), 0)
    return state


def with_fleet_trains_everywhere(scenario: Scenario) -> GameState:
    """The initial state with a fleet train in every copy of the 1942 world (in the sea
    area of one of the United States' fleet bases in turn), each supplied by its own route
    with 5 tonnage points: the trains support the fleet, so every question about a place
    lays them over the places and asks their routes' status."""
    state = initial_state(scenario)
    homes = [
        r for r in scenario.rows("bases") if r["kind"] == "fleet_base" and r["nation"] == "usa"
    ]
    copies = copies_of(scenario)
    serial = _next_serial(scenario)
    for k, home in enumerate(homes[:: max(1, len(homes) // copies)][:copies]):
        _set_up_train(state, home, f"train_{k}", f"Train {k}", serial + k, 5)
    return state


def with_contested_areas(scenario: Scenario) -> GameState:
    """The initial state with one sea area in twenty (of each copy of the 1942 world)
    contested for both sides' merchant routes, as step 8 leaves the areas its operations
    won for the next turn (002 "Economic Route Chart": a route works when its ends are
    *uncontested, at the start*): a turn asks every route's status, and each question once
    read the whole list of its side's contested areas."""
    state = initial_state(scenario)
    areas = sorted(str(r["id"]) for r in scenario.rows("sea_areas"))[::20]
    state.contested = {"allies": list(areas), "axis": list(areas)}
    return state


def after_a_turn(scenario: Scenario) -> GameState:
    """The state a second turn starts from: the first played with standing orders (seed
    0), so ships are due (step 2 asks for the fleet base nearest each one's yard) and
    units are damaged and sunk."""
    state = initial_state(scenario)
    play_turn(scenario, state, orders_for(Board(scenario, state), False), seeded(0))
    return state


#: what :meth:`Setup.timed` times, on a fresh copy of the state: :func:`play_turn` or
#: :func:`plain_loop`; what it gives back is let go after the clock stops
Play = Callable[[Scenario, GameState, dict[str, Orders], DiceFactory], object]


class Setup:
    """What the runs of one world and one state start from, made once: the state
    ``state_of`` gives and every nation's orders as JSON text, checked to read back equal.
    (Until 2026-11-27 each call of :func:`measure_rules` made them again: a second turn, or
    the standing orders of 11,700 units, 0.3-1 s of the 100x world's set-up a call, half the
    bench's time and none of its figures.)"""

    def __init__(
        self,
        scenario: Scenario,
        use_samples: bool,
        state_of: Callable[[Scenario], GameState] = initial_state,
        orders_of: Callable[[Board], dict[str, Orders]] | None = None,
    ) -> None:
        self.scenario = scenario
        self.state = state_of(scenario)
        board = Board(scenario, self.state)
        orders = orders_of(board) if orders_of else orders_for(board, use_samples)
        self.texts = {nation: given.to_json() for nation, given in orders.items()}
        try:
            read_back = {n: load_orders(text, n) for n, text in self.texts.items()}
        except OrdersError as error:  # e.g. past the orders' 1,000 items a list (about 112x)
            raise SystemExit(f"the bench's orders are not valid orders: {error}") from error
        if read_back != orders:
            raise SystemExit("the bench's orders do not read back as they were written")

    def timed(
        self,
        runs: int,
        clock: Callable[[], float] = time.perf_counter,
        first_seed: int = 0,
        play: Play = play_turn,
    ) -> list[float]:
        """``play`` timed ``runs`` times (ms), each on its own copy of the state and the
        orders parsed afresh from their JSON, with its own dice.

        ``Campaign.resolve`` reads the state and every nation's orders from the game file
        just before it checks them and runs the steps; a run here is given the same, outside
        the clock. (Until 2026-11-27 the runs shared the orders made once when the world was
        set up; at 100x the turn then found them, and the ids they name, gone cold, as
        ``resolve`` never does: about 0.3 on the ratio, docs/performance.md "The orders as
        resolve reads them".)"""
        times = []
        kept: list[object] = []  # what a run gives back, let go before the next run's clock
        for i in range(runs):
            work = copy.deepcopy(self.state)
            read = {nation: load_orders(text, nation) for nation, text in self.texts.items()}
            dice = seeded(first_seed + i)
            kept.clear()
            start = clock()
            kept.append(play(self.scenario, work, read, dice))
            times.append((clock() - start) * 1000)
        return times


def measure_rules(
    scenario: Scenario,
    runs: int,
    use_samples: bool,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """The whole turn on the scenario's initial state timed ``runs`` times
    (:meth:`Setup.timed`)."""
    return Setup(scenario, use_samples).timed(runs, clock)


def interleaved(
    small: Scenario,
    big: Scenario,
    rounds: int,
    clock: Callable[[], float],
    play: Play = play_turn,
    state_of: Callable[[Scenario], GameState] = initial_state,
    orders_of: Callable[[Board], dict[str, Orders]] | None = None,
) -> dict[int, list[float]]:
    """The turn (or another ``play``) of the 10x and the 100x world, timed by turns: each
    round three of the small one, then one of the big (the first of each a warm-up, left
    out), the big one with the dice of the small one's first turn of the round (each
    round new dice)."""
    ten, hundred = Setup(small, False, state_of, orders_of), Setup(big, False, state_of, orders_of)
    ten.timed(1, clock, play=play)
    hundred.timed(1, clock, play=play)
    times: dict[int, list[float]] = {10: [], 100: []}
    for round_ in range(rounds):
        times[10] += ten.timed(3, clock, 3 * round_, play)
        times[100] += hundred.timed(1, clock, 3 * round_, play)
    return times


def measure_saved(scenario: Scenario, runs: int, use_samples: bool) -> list[float]:
    """``Campaign.resolve`` on a real game file: rules plus ten saves."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.seacontrol"
        GameFile.create(path, scenario).close()
        with Campaign.open(path) as campaign:
            for nation, o in orders_for(campaign.board(), use_samples).items():
                campaign.set_orders(nation, o)
            times = []
            for i in range(runs):
                start = time.perf_counter()
                campaign.resolve(seed=i)
                times.append((time.perf_counter() - start) * 1000)
                campaign.reopen_turn(1)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    # 21: ten rounds of the paired lines (seven until the set-up was made once a line,
    # 2026-11-27, which halved the bench's time): a steadier median in the same half minute
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    base = load_scenario()
    print(f"{'world':<26}{'units':>7}{'areas':>7}    turn (median)   resolve + save (median)")
    per_unit = None
    medians: dict[int, float] = {}
    worlds = {copies: synthetic(base, copies) for copies in (10, 100)}
    # the 10x and 100x turns, whose ratio is the target, are timed in turns, a few of one
    # then one of the other, so a machine whose speed drifts (a shared one drifts by a
    # third in a minute) slows both alike
    rounds = max(5, args.runs // 2)
    paired = interleaved(worlds[10], worlds[100], rounds, time.perf_counter)
    for copies in (1, 10, 30, 100):
        scenario = worlds.get(copies) or synthetic(base, copies)
        runs = args.runs if copies < 30 else max(5, args.runs // 3)
        rules = (
            paired[copies]
            if copies in paired
            else measure_rules(scenario, runs, use_samples=copies == 1)
        )
        saved = measure_saved(scenario, max(3, runs // 3), copies == 1) if copies == 1 else []
        units = len(scenario.tables["units"])
        median = medians[copies] = statistics.median(rules)
        label = "1942" if copies == 1 else f"synthetic {copies}x"
        per = median / units
        growth = "" if per_unit is None else f"  ({per / per_unit:.2f}x the 1942 time per unit)"
        per_unit = per_unit or per
        # the target is the turn's (the first figure), not the saves'
        target = (
            "  turn target < 50 ms: " + ("ok" if median < 50 else "OVER TARGET")
            if copies == 1
            else ""
        )
        print(
            f"{label:<26}{units:>7}{len(scenario.tables['sea_areas']):>7}"
            f"   {median:9.1f} ms   "
            + (f"{statistics.median(saved):12.1f} ms" if saved else f"{'-':>15}")
            + f"{growth}{target}"
        )
    ratio = medians[100] / medians[10]
    print(
        f"turn at 100x / turn at 10x: {ratio:.1f}   target <= 11 (linear): "
        + ("ok" if ratio <= 11 else "OVER TARGET")
    )
    # on a shared machine the wall clock of the big world counts the other jobs' use of the
    # memory caches too: the process's own CPU time is the steadier figure
    # (each turn's line takes its medians from as many rounds as the first: with five, the CPU
    # line read 10.5, 10.7 and 11.5 in three runs of one hour, the first line 10.6-10.9)
    paired_line("the same in CPU time", worlds, time.process_time, rounds=rounds)
    paired_line(
        "the second turn (ships due, units damaged and sunk)",
        worlds,
        state_of=after_a_turn,
        rounds=rounds,
    )
    # every board lays a fleet train over the places
    paired_line("with a fleet train on the map", worlds, state_of=with_a_fleet_train, rounds=rounds)
    paired_line(
        "with a supplied fleet train in every copy",
        worlds,
        state_of=with_fleet_trains_everywhere,
        rounds=rounds,
    )
    paired_line(
        "with sea areas contested (one in twenty)",
        worlds,
        state_of=with_contested_areas,
        rounds=rounds,
    )
    # every copy's 1942 sample orders: operations, battles, invasions and cards at scale
    paired_line(
        "the sample orders in every copy (operations, battles, cards)",
        {copies: synthetic(base, copies, flags=True) for copies in (10, 100)},
        rounds=rounds,
        orders_of=sample_orders_in_every_copy(base),
    )
    # the rules' own growth, which no clock or memory sees: calls made in one turn
    small, big = (calls_made(worlds[c]) for c in (10, 100))
    print(
        f"the rules' work, by calls made in the turn (no clock): {small:,} and {big:,}, "
        f"{big / small:.2f} times (linear: 10)"
    )
    # the machine's own growth for ten times the data, beside which to read the ratio
    paired_line(
        "for comparison, a plain loop over the same orders' units (no rules; CPU time)",
        worlds,
        time.process_time,
        play=plain_loop,
        rounds=10,
    )


def calls_made(scenario: Scenario, seed: int = 0) -> int:
    """Function calls made by :func:`play_turn` on the scenario's initial state with
    standing orders (Python frames entered, a generator's resumptions among them, and
    built-in calls): the rules' work counted, not timed. It
    grows as the rules do, whatever the machine's memory makes of the larger world (the
    clock's ratio counts both: docs/performance.md "A turn's ratio"). A turn is played
    first, uncounted, so the indexes a first turn makes (paths, ranges) count in neither
    world, whichever the bench played before."""
    state = initial_state(scenario)
    orders = orders_for(Board(scenario, state), False)
    play_turn(scenario, copy.deepcopy(state), orders, seeded(seed))
    made = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal made
        if event in ("call", "c_call"):
            made += 1

    before = sys.getprofile()  # a profiler the bench runs under is put back after
    sys.setprofile(count)
    try:
        play_turn(scenario, state, orders, seeded(seed))
    finally:
        sys.setprofile(before)
    return made


def paired_line(
    label: str,
    worlds: dict[int, Scenario],
    clock: Callable[[], float] = time.perf_counter,
    play: Play = play_turn,
    state_of: Callable[[Scenario], GameState] = initial_state,
    rounds: int = 5,
    orders_of: Callable[[Board], dict[str, Orders]] | None = None,
) -> None:
    """One line: the medians of ``play`` on the 10x and the 100x world timed by turns
    (:func:`interleaved`), and how many times the one the other is."""
    times = interleaved(worlds[10], worlds[100], rounds, clock, play, state_of, orders_of)
    small, big = statistics.median(times[10]), statistics.median(times[100])
    print(f"{label}: {small:.2f} ms and {big:.2f} ms, {big / small:.1f} times")


if __name__ == "__main__":
    main()
