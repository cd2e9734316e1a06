"""Tactical battle speed: whole battles a second, for each rule set's benchmark set-up.

Run: ``python bench/tactical_bench.py [--battles N] [--runs N] [--seeded N] [NAME ...]``.
Prints each figure against its target with "ok" or "OVER TARGET".

* Odds preview (the target): ``--battles`` battles through
  :func:`campaign.tactical.simulate.simulate` — exactly what ``seacontrol-cli odds`` and the
  app's fight-it-out odds run: ``PreviewDice`` and battles not put into words — best of
  ``--runs`` runs (on this shared 2-core machine the same code measures up to 30% slower
  from one run to the next). Target: 1,000 battles under 2 s. Also the time to the first
  figures a window shows (the first 50 battles), target under 0.5 s.
* Narrated (information): whole battles with their words, as the drill-down window plays
  them, with dice drawn beforehand and a log that only counts, so only the rules are timed.
* Seeded (information): ``--seeded`` narrated battles with real ``SeededDice``, whose
  hash-chained log (a SHA-256 and a JSON dump per roll) costs more than the rules: the cost
  of one battle fought at step 8.

Add a rule set by adding its name and benchmark set-up to :data:`SETUPS`.

History for ``carrier`` (Midway, about 560 dice a battle, 8 turns): the first complete
version ran 312 narrated battles a second (the profile put a quarter of it in listing groups
for the log, then copying the set-up's ships, the planning phase and the dice). Not copying
the set-up's ships and air groups when a battle starts, plain attributes, one pass over the
counters per planning phase and the like brought it to 400-530 a second. The odds preview
still took 3.9-4.1 s for 1,000 Midway battles: a third of it a JSON round trip copying the
set-up for each battle, a fifth the SHA-256 behind each preview die. Battles no longer
change their set-up (so it is not copied; a test checks), preview dice come from a seeded
Mersenne Twister, and a preview battle is not put into words (``narrate = False``; a test
checks the outcome is the same): 1.3-1.8 s (best of 5 runs 1.40-1.64 s over the day).

Fast play's example (the Java Sea: 32 ships, about 900 dice and 7 turns a battle) went from
5.3 s to 1.8-2.2 s the same way, plus gunnery looking targets up by place and no words built
for unnarrated hits; then 1.6-1.9 s once target priority remembered only last turn's fire
(a rules fix that also shortened the search). This machine's timings of the same code vary
by a third from run to run. The surface and air-strike examples take 0.8-1.0 s and 0.1 s.
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
    "airstrike": "data/battles/airstrike-example.json",
}
PREVIEW_TARGET = 2.0  # seconds for 1,000 battles of an odds preview
FIRST_TARGET = 0.5  # seconds to the first figures of an odds preview
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


def preview(name: str, battles: int, every: int = 50) -> tuple[float, float]:
    """The odds preview (``campaign.tactical.simulate``): seconds to its first figures (the
    first ``every`` battles, when a window first shows them) and to ``battles`` battles."""
    from campaign.tactical.simulate import simulate

    setup = load(name)
    times: list[float] = []
    start = time.perf_counter()
    simulate(
        name, setup, battles, on_progress=lambda _o: times.append(time.perf_counter()), every=every
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
    target = args.battles * PREVIEW_TARGET / 1000
    for name in args.names or list(SETUPS):
        print(f"{name} ({SETUPS[name]})")
        runs = [preview(name, args.battles) for _ in range(args.runs)]
        first = min(r[0] for r in runs)
        whole = min(r[1] for r in runs)
        worst = max(r[1] for r in runs)
        verdict = "ok" if whole < target else "OVER TARGET"
        print(
            f"{'  odds preview':<32} {args.battles:,} battles in {whole:5.2f} s  "
            f"target < {target:g} s  {verdict}   (slowest of {args.runs} runs {worst:.2f} s)"
        )
        verdict = "ok" if first < FIRST_TARGET else "OVER TARGET"
        print(
            f"{'  odds preview: first results':<32} {first * 1000:>5,.0f} ms{'':18}"
            f"target < {FIRST_TARGET * 1000:,.0f} ms  {verdict}"
        )
        rate, rolls, turns = max(rules_rate(name, args.battles, pool) for _ in range(2))
        print(
            f"{'  narrated, rules only':<32} {rate:>5,.0f} battles/s  (information: "
            f"{rolls:.0f} dice, {turns:.1f} turns a battle)"
        )
        if args.seeded:
            print(
                f"{'  narrated, SeededDice':<32} "
                f"{seeded_rate(name, args.seeded):>5,.0f} battles/s  (information)"
            )


if __name__ == "__main__":
    main()
