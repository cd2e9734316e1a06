"""The computer opponent's strength and speed (issue 9).

Run: ``python bench/ai_bench.py [--games N] [--turns T] [--workers W]``. Prints:

* **against standing orders**: ``N`` seeded games of ``T`` turns from the 1942 start, half
  with the computer (admiral) playing every Allied nation and standing orders
  (campaign/autoplay.py) the Axis, half the other way round; a game is won when the
  computer's side ends ahead on the solo score (campaign/score.py). Target: 80% or more
  for the Allies and for the Axis.
* **against its weaker level**: the same with the novice level in place of standing
  orders. Target: 65% or more.
* **speed**: the computer's orders for all nine nations of the 1942 game at the start
  (median of several runs; target under 2 s).
* **scaling**: one nation's orders (Japan's, turn 1) on the 1942 world and on synthetic
  worlds 3× and 10× its size (``turn_bench.synthetic``: the scenario copied side by
  side), at each level; linear growth is 3 and 10 times the 1942 time (information, not a
  target: the 1942 world is the one the computer plays). ``--scaling-only`` skips the
  games.

Neutrals play standing orders. Games are played in memory (the engine's ten steps, no game
file) and spread over ``W`` processes (default 2: the machine is shared).
"""

from __future__ import annotations

import argparse
import statistics
import time
from multiprocessing import Pool

from campaign.autoplay import standing_orders
from campaign.board import Board
from campaign.dice import SeededDice
from campaign.events import Event
from campaign.opponent import LEVELS, computer_orders
from campaign.orders import Orders
from campaign.production import with_production
from campaign.rules import check_orders
from campaign.scenario import Scenario, load_scenario
from campaign.score import Baseline, turn_score
from campaign.state import GameState, initial_state
from campaign.teamview import team_view
from campaign.turn import STEPS, Turn, end_turn

_SCENARIO: Scenario | None = None


def scenario() -> Scenario:
    global _SCENARIO
    if _SCENARIO is None:
        _SCENARIO = load_scenario()
    return _SCENARIO


def play_game(job: tuple[str, str, str, int, int]) -> tuple[str, str, float, int]:
    """One game: the computer (``strong`` level) plays ``side``; the other side plays
    ``weak`` (a level, or "standing"). Returns (opponent, side, the computer side's net
    score, orders refused)."""
    side, strong, weak, seed, turns = job
    sc = scenario()
    state = initial_state(sc)
    baseline = Baseline.of(sc)
    events: list[Event] = []
    net = 0.0
    refused = 0
    for _ in range(turns):
        board = Board(sc, with_production(sc, state))
        orders: dict[str, Orders] = {}
        for nation in board.teams():
            nation_side = board.side(nation)
            level = strong if nation_side == side else weak if nation_side != "neutral" else ""
            if not level or level == "standing":
                orders[nation] = standing_orders(board, nation)
            else:
                view = team_view(sc, state, events, nation)
                orders[nation] = computer_orders(sc, view, level)
        for nation, o in orders.items():
            if check_orders(board, o, orders):
                refused += 1
                orders[nation] = Orders(nation, state.turn)
        before = GameState.from_json(state.to_json())
        turn = Turn(sc, state, orders, SeededDice(f"bench/{seed}/{state.turn}"))
        for step in STEPS:
            state.step = step.number
            step.run(turn)
        end_turn(turn)
        events += turn.events
        score = turn_score(sc, before, state, turn.events, baseline)
        net += score.net(side)
    return weak, side, net, refused


def speed(runs: int) -> list[float]:
    sc = scenario()
    state = initial_state(sc)
    nations = Board(sc, state).teams()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for nation in nations:
            computer_orders(sc, team_view(sc, state, [], nation), "admiral")
        times.append(time.perf_counter() - start)
    return times


def scaling(runs: int) -> dict[tuple[str, int], float]:
    """(level, copies) → median seconds of Japan's orders on a world ``copies`` times the
    1942 world's size."""
    from turn_bench import synthetic

    out: dict[tuple[str, int], float] = {}
    for copies in SCALES:
        sc = synthetic(scenario(), copies)
        view = team_view(sc, initial_state(sc), [], "japan")
        for level in LEVEL_NAMES:
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                computer_orders(sc, view, level)
                times.append(time.perf_counter() - start)
            out[level, copies] = statistics.median(times)
    return out


def print_scaling(runs: int) -> None:
    figures = scaling(runs)
    runs_text = f"{runs} run{'s' if runs != 1 else ''}"
    print(f"Japan's orders by world size (median of {runs_text}; linear: 3x and 10x the 1942 time)")
    print(f"{'level':<10}" + "".join(f"{f'{n}x':>12}" for n in SCALES) + "   growth at 3x, 10x")
    for level in LEVEL_NAMES:
        row = [figures[level, n] for n in SCALES]
        print(
            f"{level:<10}"
            + "".join(f"{t * 1000:>9.0f} ms" for t in row)
            + f"   {row[1] / row[0]:.1f}x, {row[2] / row[0]:.1f}x"
        )


#: world sizes of the scaling figures (copies of the 1942 world)
SCALES = (1, 3, 10)
#: the computer's levels, weakest first (campaign.opponent.LEVELS)
LEVEL_NAMES = tuple(LEVELS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50, help="games per opponent (even)")
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--speed-runs", type=int, default=5)
    parser.add_argument("--scaling-runs", type=int, default=3)
    parser.add_argument(
        "--scaling-only", action="store_true", help="only the figures by world size"
    )
    args = parser.parse_args()
    if args.scaling_only:
        print_scaling(args.scaling_runs)
        return
    half = max(args.games // 2, 1)
    jobs = [
        (side, "admiral", weak, seed, args.turns)
        for weak in ("standing", "novice")
        for side in ("allies", "axis")
        for seed in range(half)
    ]
    start = time.perf_counter()
    with Pool(args.workers) as pool:
        results = pool.map(play_game, jobs)
    took = time.perf_counter() - start
    print(
        f"{len(jobs)} games of {args.turns} turns from the 1942 start in {took:.0f} s "
        f"({args.workers} processes)"
    )
    print(f"{'computer (admiral) v':<24}{'side':<8}{'won':>10}{'mean net':>10}   target")
    refused = 0
    for weak, target in (("standing", 0.8), ("novice", 0.65)):
        for side in ("allies", "axis"):
            nets = [n for w, s, n, _ in results if w == weak and s == side]
            refused += sum(r for w, s, _, r in results if w == weak and s == side)
            won = sum(1 for n in nets if n > 0) / len(nets)
            verdict = "ok" if won >= target else "BELOW TARGET"
            print(
                f"{weak + ' orders' if weak == 'standing' else weak:<24}{side:<8}"
                f"{won:>9.0%} {statistics.mean(nets):>9.1f}   ≥{target:.0%} {verdict}"
            )
    print(f"orders refused by the rule check: {refused}")
    times = speed(args.speed_runs)
    median = statistics.median(times)
    verdict = "ok" if median < 2 else "OVER TARGET"
    print(
        f"orders for all nine nations (admiral, turn 1): median {median:.2f} s over "
        f"{len(times)} runs   target < 2 s: {verdict}"
    )
    print_scaling(args.scaling_runs)


if __name__ == "__main__":
    main()
