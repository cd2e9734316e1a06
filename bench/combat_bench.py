"""Combat speed: two-sided naval combats, exact naval and merchant odds, the ``odds`` command.

Run: ``python bench/combat_bench.py [--runs N] [--calls N]``. Every figure is the median of
``--runs`` timed runs (this 2-core machine is shared: single runs vary by a third), printed
against its target with "ok", "OVER TARGET" (a time) or "UNDER TARGET" (a rate).

* Two-sided naval combats with the engine's real dice (the figure issue 14 sets): both
  sides of a combat (CV 10–40 a side, 1–2 dice each) rolled from ``SeededDice``'s stream and
  read on the damage table. The bulk path (``odds.sample_combat`` with ``UnloggedDice``:
  each side's cached face table, no log, no labelled result) — target at least 100,000 a
  second. For information, the game's own path, as step 8 fights: ``SeededDice.rolls``
  (each die logged: a JSON dump and a SHA-256 for the chain) and ``naval_combat.fire``
  twice (labelled results) — 13,500 a second when the issue was filed.
* Naval resolutions (information): single ``fire`` and ``odds.fire_steps`` calls with dice
  drawn beforehand, so only the table is timed.
* ``odds naval`` in-process: ``cli.main`` with its argument parsing, the exact odds and the
  printed table, for a round of different forces — target 0.3 ms (2.5 ms when the parser was
  built for every call).
* Exact naval odds: ``odds.naval_odds`` for CV 20, 60 and 200 a side (1, 3 and 10 dice each),
  from a cold cache, from a warm one, and with ``to_dict()`` (the joint table) as well.
* Merchant resolutions (information), and the exact ``odds.merchant_odds`` cold — target
  0.3 ms (0.68 ms when it resolved all 36 pairs of faces in Fractions) — and warm.

Measured on this 2-core machine: ``fire`` went from about 115,000/s to 240,000/s once
``modifiers`` compared CV ratios as integers instead of Fractions, and ``resolve`` from
90,000/s to about 105,000/s once ``colour_table`` was cached; then ``resolve`` 99,000/s →
303,000/s and ``merchant_odds`` cold 0.136 → 0.058 ms once the odds column and the
tonnage lost were worked out in whole numbers too (the same combats, before and after).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from campaign import cli, odds
from campaign import merchant_warfare as mw
from campaign import naval_combat as nc
from campaign.dice import SeededDice, UnloggedDice
from campaign.merchant_warfare import MerchantCombat
from campaign.naval_combat import CombatSide

RATE_TARGET = 100_000  # two-sided combats (and resolutions) a second
NAVAL_ODDS_TARGET_MS = 20.0  # one exact odds preview, cold cache
CLI_TARGET_MS = 0.3  # ``odds naval`` in-process, with its argument parsing
MERCHANT_ODDS_TARGET_MS = 0.3  # exact merchant odds, cold


def median_of(func: Callable[[], object], runs: int) -> float:
    """Median seconds of ``runs`` calls of ``func``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rate_line(label: str, calls: int, seconds: float, target: float = RATE_TARGET) -> None:
    """A rate against its target (0: information, no target)."""
    rate = calls / seconds
    if not target:
        print(f"{label:<44} {rate:>12,.0f}/s")
        return
    verdict = "ok" if rate >= target else "UNDER TARGET"
    print(f"{label:<44} {rate:>12,.0f}/s   target >= {target:>9,.0f}/s  {verdict}")


def time_line(label: str, seconds: float, target_ms: float) -> None:
    ms = seconds * 1000
    verdict = "ok" if ms <= target_ms else "OVER TARGET"
    print(f"{label:<44} {ms:>11.3f} ms   target <= {target_ms:>8.1f} ms  {verdict}")


def naval_cases(calls: int) -> list[tuple[CombatSide, CombatSide, list[int]]]:
    """``calls`` fire calls: CV 10–40 a side, varied modifiers, dice drawn beforehand."""
    dice = SeededDice("combat-bench")
    forces = sides()
    pool = [dice.roll("bench") for _ in range(4096)]
    cases = []
    for k in range(calls):
        a, b = forces[k % len(forces)], forces[(k * 7 + 3) % len(forces)]
        n = len(nc.dice_for(a.cv))
        cases.append((a, b, [pool[(k * 2 + i) % len(pool)] for i in range(n)]))
    return cases


def sides() -> list[CombatSide]:
    return [
        CombatSide(f"s{cv}", cv=cv, air_points=cv % 4, at_own_fleet_base_area=cv % 3 == 0)
        for cv in range(10, 41)
    ]


def two_sided(calls: int, runs: int) -> None:
    """Two-sided combats with the engine's real dice: the bulk path, then the game's."""
    forces = sides()
    pairs = [(forces[k % len(forces)], forces[(k * 7 + 3) % len(forces)]) for k in range(calls)]

    def bulk() -> None:
        sample, dice = odds.sample_combat, UnloggedDice("combat-bench")
        for a, b in pairs:
            sample(a, b, dice)

    game_calls = max(1, calls // 10)  # the logged path is slow: a tenth as many

    def game() -> None:
        fire, dice_for, dice = nc.fire, nc.dice_for, SeededDice("combat-bench")
        for a, b in pairs[:game_calls]:
            rolls_a = dice.rolls(len(dice_for(a.cv)), "a fire")
            rolls_b = dice.rolls(len(dice_for(b.cv)), "b fire")
            fire(a, b, rolls_a)
            fire(b, a, rolls_b)

    print(f"two-sided naval combats, engine's real dice (SeededDice stream; {calls:,} combats)")
    rate_line("  bulk: odds.sample_combat, UnloggedDice", calls, median_of(bulk, runs))
    rate_line("  game: logged SeededDice + fire x2 (info)", game_calls, median_of(game, runs), 0)


def odds_command(runs: int) -> None:
    """``odds naval`` in-process: argument parsing, exact odds and the printed table."""
    forces = [("40", "25", "2"), ("12", "30", "0"), ("65", "60", "3"), ("20", "8", "1")]
    argvs = [
        ["odds", "naval", "--cv", cv, "--enemy-cv", enemy, "--air", air, "--units", "2"]
        for cv, enemy, air in forces
    ]
    sink = io.StringIO()

    def call() -> None:
        with contextlib.redirect_stdout(sink):
            for argv in argvs:
                cli.main(argv)
        sink.seek(0)
        sink.truncate()

    call()  # the parser is built once a process
    seconds = median_of(call, runs * 20) / len(argvs)
    time_line("  odds naval (cli.main, one call)", seconds, CLI_TARGET_MS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--calls", type=int, default=50_000)
    args = parser.parse_args()
    runs, calls = args.runs, args.calls

    two_sided(calls, runs)
    print("the odds command, in-process")
    odds_command(runs)

    print(f"naval resolutions ({calls:,} calls, CV 10-40 a side, dice drawn beforehand)")
    cases = naval_cases(calls)

    def run_fire() -> None:
        fire = nc.fire
        for a, b, rolls in cases:
            fire(a, b, rolls)

    def run_fire_steps() -> None:
        fire_steps = odds.fire_steps
        for a, b, rolls in cases:
            fire_steps(a, b, rolls)

    rate_line("  naval_combat.fire (info)", calls, median_of(run_fire, runs), 0)
    rate_line(
        "  odds.fire_steps (cached table look-up, info)", calls, median_of(run_fire_steps, runs), 0
    )

    print("exact naval odds (both sides' fire, joint, win/lose/draw)")
    for cv in (20, 60, 200):
        a = CombatSide("a", cv=cv, units=max(1, cv // 10))
        b = CombatSide("b", cv=cv, units=max(1, cv // 10), air_points=1)

        def cold(a: CombatSide = a, b: CombatSide = b) -> None:
            odds.step_counts.cache_clear()
            odds._die_counts.cache_clear()
            odds.naval_odds(a, b)

        def full(a: CombatSide = a, b: CombatSide = b) -> None:
            odds.naval_odds(a, b).to_dict()  # with the joint table, as an app would show it

        def warm(a: CombatSide = a, b: CombatSide = b) -> None:
            odds.naval_odds(a, b)

        n = len(nc.dice_for(cv))
        time_line(
            f"  CV {cv} v {cv} ({n}+{n} dice), cold", median_of(cold, runs), NAVAL_ODDS_TARGET_MS
        )
        time_line(f"  CV {cv} v {cv}, warm cache", median_of(warm, runs), NAVAL_ODDS_TARGET_MS)
        time_line(
            f"  CV {cv} v {cv}, warm + to_dict()", median_of(full, runs), NAVAL_ODDS_TARGET_MS
        )

    print(f"merchant resolutions ({calls:,} calls)")
    dice = SeededDice("combat-bench-merchant")
    pool = [dice.roll("bench") for _ in range(4096)]
    combats = [
        MerchantCombat(attack_cv=12, escort_cv=4, german_sub_units=4),
        MerchantCombat(attack_cv=24, escort_cv=18, german_sub_units=8),
        MerchantCombat(attack_cv=12, escort_cv=0, other_units=4),
        MerchantCombat(attack_cv=10, escort_cv=10, other_units=2, surface_raider=True, shift=2),
    ]
    mcases = [
        (combats[k % len(combats)], pool[(2 * k) % len(pool)], pool[(2 * k + 1) % len(pool)])
        for k in range(calls)
    ]

    def run_resolve() -> None:
        resolve = mw.resolve
        for c, x, y in mcases:
            resolve(c, x, y)

    rate_line("  merchant_warfare.resolve (info)", calls, median_of(run_resolve, runs), 0)

    print("exact merchant odds (36 pairs of faces)")
    combat = combats[1]

    def mcold() -> None:
        odds.merchant_odds.cache_clear()
        odds.merchant_odds(combat)

    time_line("  merchant_odds, cold", median_of(mcold, runs), MERCHANT_ODDS_TARGET_MS)
    time_line(
        "  merchant_odds, warm cache",
        median_of(lambda: odds.merchant_odds(combat), runs),
        MERCHANT_ODDS_TARGET_MS,
    )


if __name__ == "__main__":
    main()
