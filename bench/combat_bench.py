"""Combat speed for odds previews: naval fire, exact naval odds, merchant combat and odds.

Run: ``python bench/combat_bench.py [--runs N] [--calls N]``. Prints each figure against
its target with "ok" or "OVER TARGET".

* Naval resolutions: single ``naval_combat.fire`` calls for forces of CV 10–40 (1–2 dice)
  with pre-drawn dice (``SeededDice``), so only the rules are timed — target at least
  100,000 a second. ``odds.fire_steps`` (the cached table look-up an app uses for many
  previews) is timed the same way.
* Exact naval odds: ``odds.naval_odds`` for CV 20, 60 and 200 a side (1, 3 and 10 dice each),
  from a cold cache, from a warm one, and with ``to_dict()`` (the joint table) as well.
* Merchant resolutions: ``merchant_warfare.resolve`` with pre-drawn dice; and the exact
  ``odds.merchant_odds`` (36 pairs of faces), cold and warm.

Measured on this 2-core machine: ``fire`` went from about 115,000/s to 240,000/s once
``modifiers`` compared CV ratios as integers instead of Fractions, and ``resolve`` from
90,000/s to about 105,000/s once ``colour_table`` was cached.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from campaign import merchant_warfare as mw
from campaign import naval_combat as nc
from campaign import odds
from campaign.dice import SeededDice
from campaign.merchant_warfare import MerchantCombat
from campaign.naval_combat import CombatSide

RATE_TARGET = 100_000  # resolutions a second
NAVAL_ODDS_TARGET_MS = 20.0  # one exact odds preview, cold cache
MERCHANT_ODDS_TARGET_MS = 5.0


def best_of(func: Callable[[], object], runs: int) -> float:
    """Median seconds of ``runs`` calls of ``func``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rate_line(label: str, calls: int, seconds: float, target: float = RATE_TARGET) -> None:
    rate = calls / seconds
    verdict = "ok" if rate >= target else "OVER TARGET"
    print(f"{label:<44} {rate:>12,.0f}/s   target >= {target:>9,.0f}/s  {verdict}")


def time_line(label: str, seconds: float, target_ms: float) -> None:
    ms = seconds * 1000
    verdict = "ok" if ms <= target_ms else "OVER TARGET"
    print(f"{label:<44} {ms:>11.3f} ms   target <= {target_ms:>8.1f} ms  {verdict}")


def naval_cases(calls: int) -> list[tuple[CombatSide, CombatSide, list[int]]]:
    """``calls`` fire calls: CV 10–40 a side, varied modifiers, dice drawn beforehand."""
    dice = SeededDice("combat-bench")
    sides = [
        CombatSide(f"s{cv}", cv=cv, air_points=cv % 4, at_own_fleet_base_area=cv % 3 == 0)
        for cv in range(10, 41)
    ]
    pool = [dice.roll("bench") for _ in range(4096)]
    cases = []
    for k in range(calls):
        a, b = sides[k % len(sides)], sides[(k * 7 + 3) % len(sides)]
        n = len(nc.dice_for(a.cv))
        cases.append((a, b, [pool[(k * 2 + i) % len(pool)] for i in range(n)]))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--calls", type=int, default=50_000)
    args = parser.parse_args()
    runs, calls = args.runs, args.calls

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

    rate_line("  naval_combat.fire", calls, best_of(run_fire, runs))
    rate_line("  odds.fire_steps (cached table look-up)", calls, best_of(run_fire_steps, runs))

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
            f"  CV {cv} v {cv} ({n}+{n} dice), cold", best_of(cold, runs), NAVAL_ODDS_TARGET_MS
        )
        time_line(f"  CV {cv} v {cv}, warm cache", best_of(warm, runs), NAVAL_ODDS_TARGET_MS)
        time_line(f"  CV {cv} v {cv}, warm + to_dict()", best_of(full, runs), NAVAL_ODDS_TARGET_MS)

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

    rate_line("  merchant_warfare.resolve", calls, best_of(run_resolve, runs))

    print("exact merchant odds (36 pairs of faces)")
    combat = combats[1]

    def mcold() -> None:
        odds.merchant_odds.cache_clear()
        odds.merchant_odds(combat)

    time_line("  merchant_odds, cold", best_of(mcold, runs), MERCHANT_ODDS_TARGET_MS)
    time_line(
        "  merchant_odds, warm cache",
        best_of(lambda: odds.merchant_odds(combat), runs),
        MERCHANT_ODDS_TARGET_MS,
    )


if __name__ == "__main__":
    main()
