"""Tactical battle speed: whole battles a second, for each rule set's benchmark set-up.

Run: ``python bench/tactical_bench.py [--battles N] [--runs N] [--seeded N] [NAME ...]``.
Prints each figure against its target with "ok" or "OVER TARGET".

* Rules: ``--battles`` whole battles (set-up, every turn to the end, ``result()``) with dice
  drawn beforehand from ``SeededDice`` and a log that only counts, so only the rules are
  timed (as ``combat_bench.py`` does) — target at least 500 a second (1,000 Midway battles
  under 2 s). The best of ``--runs`` runs is shown: on this shared 2-core machine the same
  code measures up to 20% slower from one run to the next.
* Seeded: ``--seeded`` battles with real ``SeededDice``, whose hash-chained dice log (a
  SHA-256 and a JSON dump per roll) costs more than the rules; shown for information.

Add a rule set by adding its name and benchmark set-up to :data:`SETUPS`.

Measured on this 2-core machine for ``carrier`` (Midway, about 560 dice a battle, 8 turns):
the first complete version ran 312 battles a second (about 3.2 ms a battle; the profile put
a quarter of it in listing groups for the log, then copying the set-up's ships, the
planning phase and the dice). Not copying the set-up's ships and air groups when a battle
starts (``result()`` copies them), plain attributes for each carrier's id and name, one pass
over the counters per planning phase, flight decks found in one pass, destroyed groups
dropped each turn, group lists built from precomputed numbers in the order groups were
raised, hits counted with ``list.count`` and losses spread by ``max``/``index`` brought it to
400-515 battles a second (best of 5 runs of 1,000), the spread being the machine's. With
``SeededDice`` the hash-chained log dominates: about 42 battles a second.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from campaign.dice import Dice, DiceLog, Roll, SeededDice  # noqa: E402
from campaign.tactical import RULE_SETS, BattleSetup, run  # noqa: E402

#: rule set → its benchmark set-up (relative to the project root)
SETUPS: dict[str, str] = {
    "carrier": "data/battles/midway.json",
    "surface": "data/battles/surface-example.json",
    "fastplay": "data/battles/fastplay-example.json",
}
RATE_TARGET = 500.0  # battles a second
POOL = 1 << 16


class CountingLog(DiceLog):
    """A dice log that only counts (the hash chain is timed in the seeded figure)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def append(
        self,
        purpose: str,
        sides: int,
        value: int,
        source: str,
        turn: int = 0,
        step: int = 0,
        reason: str = "",
    ) -> Roll:
        self.count += 1
        return _BLANK


_BLANK = Roll(0, "", 6, 1, "pool")


class PoolDice(Dice):
    """Dice read in turn from a pool of raw 32-bit draws made beforehand, reduced to the
    die asked for (d6, d10, d100 …), so only the rules are timed."""

    source = "pool"

    def __init__(self, pool: list[int], start: int) -> None:
        super().__init__(CountingLog())
        self.pool = pool
        self.i = start

    def _value(self, purpose: str, sides: int) -> int:
        self.i = (self.i + 1) % len(self.pool)
        return self.pool[self.i] % sides + 1


def load(name: str) -> BattleSetup:
    importlib.import_module(f"campaign.tactical.{name}")
    return BattleSetup.load(ROOT / SETUPS[name])


def rules_rate(name: str, battles: int, pool: list[int]) -> tuple[float, float, float]:
    """(battles a second, dice a battle, turns a battle) with pooled dice."""
    setup = load(name)
    factory = RULE_SETS[name]
    rolls = turns = 0
    start = time.perf_counter()
    for i in range(battles):
        dice = PoolDice(pool, i * 7919)
        turns += run(factory(setup, dice)).turns
        assert isinstance(dice.log, CountingLog)
        rolls += dice.log.count
    seconds = time.perf_counter() - start
    return battles / seconds, rolls / battles, turns / battles


def seeded_rate(name: str, battles: int) -> float:
    setup = load(name)
    factory = RULE_SETS[name]
    start = time.perf_counter()
    for i in range(battles):
        run(factory(setup, SeededDice(f"bench/{i}")))
    return battles / (time.perf_counter() - start)


def first_result(name: str, every: int = 50) -> tuple[float, float]:
    """The odds preview (``campaign.tactical.simulate``): seconds to its first figures (the
    first ``every`` battles, when a window first shows them) and to 1,000 battles."""
    from campaign.tactical.simulate import simulate

    setup = load(name)
    times: list[float] = []
    start = time.perf_counter()
    simulate(
        name, setup, 1000, on_progress=lambda _o: times.append(time.perf_counter()), every=every
    )
    return times[0] - start, times[-1] - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", help=f"rule sets (default: {', '.join(SETUPS)})")
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seeded", type=int, default=100)
    args = parser.parse_args()
    seeded = SeededDice("tactical-bench")
    pool = [seeded.roll("bench", sides=1 << 32) - 1 for _ in range(POOL)]
    for name in args.names or list(SETUPS):
        results = [rules_rate(name, args.battles, pool) for _ in range(args.runs)]
        rate = max(r[0] for r in results)
        _, rolls, turns = results[0]
        verdict = "ok" if rate >= RATE_TARGET else "OVER TARGET"
        label = f"{name} ({SETUPS[name]})"
        print(
            f"{label:<40} {rate:>9,.0f} battles/s  target >= {RATE_TARGET:,.0f}/s  {verdict}"
            f"   ({args.battles} battles in {args.battles / rate:.2f} s; "
            f"{rolls:.0f} dice, {turns:.1f} turns a battle)"
        )
        if args.seeded:
            print(
                f"{'  with SeededDice (hash-chained log)':<40} "
                f"{seeded_rate(name, args.seeded):>9,.0f} battles/s  (information)"
            )
        first, whole = first_result(name)
        verdict = "ok" if first < 0.5 else "OVER TARGET"
        print(
            f"{'  odds preview: first results':<40} {first * 1000:>9,.0f} ms        "
            f"target < 500 ms  {verdict}   (1,000 battles in {whole:.1f} s)"
        )


if __name__ == "__main__":
    main()
