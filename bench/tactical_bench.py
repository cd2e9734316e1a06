"""Tactical battle speed: battles sampled a second, for each rule set's benchmark set-up.

Run: ``python bench/tactical_bench.py [--battles N] [--runs N] [--seeded N] [NAME ...]``.
Every timed figure is the median of ``--runs`` runs (this 2-core machine is shared, and the
same code measures up to a third slower from one run to the next), printed against its
target with "ok" or "UNDER TARGET" / "OVER TARGET".

* Sampled (the figure issue 14 sets): ``--battles`` battles through
  :func:`campaign.tactical.simulate.simulate` — exactly what ``seacontrol-cli odds`` and the
  app's fight-it-out odds run: ``PreviewDice``, battles not put into words, and for a long
  preview a pool of worker processes, one a core, which fight with the rule sets compiled
  by mypyc (``campaign.tactical.compiled``: the bench builds them first, unless
  ``--sources``). Targets: carrier (Midway) 5,000 battles a second, fast play and surface
  3,000, the air strike 5,000 (as it was). The pool is started before the timed runs (a
  preview after the first finds it running, and gives it every batch).
* First preview, new process (information): a new process's first preview of
  ``--battles`` battles, the pool started for it — what ``seacontrol-cli odds`` and the
  app's first preview after a start see.
* One process (information): the same with ``workers=1`` — what a core does alone with
  the sources.
* One core, compiled, CPU (information): a process fighting with the compiled rule sets,
  timed by its CPU time, and that times the workers: what an idle machine's pool comes
  to, and the figure a shared machine's load sways least.
* First results: seconds to the first figures a window shows (the first batch of 50
  battles in), target under 0.5 s.
* Narrated (information): whole battles with their words, as the drill-down window plays
  them, with dice drawn beforehand and a log that only counts, so only the rules are timed.
* Seeded (information): ``--seeded`` narrated battles with real ``SeededDice``, whose
  hash-chained log (a SHA-256 and a JSON dump per roll) costs more than the rules: the cost
  of one battle fought at step 8.

Add a rule set by adding its name, benchmark set-up and target to :data:`SETUPS`.

History for ``carrier`` (Midway, about 560-630 dice a battle, 8-12 turns): the first
complete version ran 312 narrated battles a second (the profile put a quarter of it in
listing groups for the log, then copying the set-up's ships, the planning phase and the
dice). Not copying the set-up's ships and air groups when a battle starts, plain
attributes, one pass over the counters per planning phase and the like brought it to
400-530 a second. The odds preview still took 3.9-4.1 s for 1,000 Midway battles: a third
of it a JSON round trip copying the set-up for each battle, a fifth the SHA-256 behind each
preview die. Battles no longer change their set-up (so it is not copied; a test checks),
preview dice come from a seeded Mersenne Twister, and a preview battle is not put into
words (``narrate = False``; a test checks the outcome is the same): 536-773 battles a
second. Fast play's example (the Java Sea: 32 ships, about 900 dice and 7 turns a battle)
went from 5.3 s to 1.6-1.9 s for 1,000 the same way. Then (issue 14) both cores: a pool of
worker processes fights a long preview in batches, with the rule sets compiled by mypyc
(1.4-1.8 times as fast as the sources at first). Counted in instructions (callgrind, which
a shared machine's load does not sway), a compiled Midway battle then took 9.0 million and
a fast play battle 8.7 million; making the compiled code native (the shared turn and the
preview dice compiled with the rule sets, Final constants, plain classes for what a battle
makes, plain loops in the hot rules, no format specs in dice purposes) and fighting each
preview battle after the first from an unplayed opening (``rematch``, carrier) brought
them to 4.0 and 4.6 million. Reading a preview's six-sided dice ten from a draw, counting
each battle by its outcome (each way the ships end worked out once a preview) and fewer
lists and dictionaries in the carrier rules brought Midway from 3.6 to 2.9 million
(averaged over 1,000 battles).
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from campaign.dice import Dice, DiceLog, Roll, SeededDice  # noqa: E402
from campaign.tactical import RULE_SETS, BattleSetup, run  # noqa: E402

#: rule set → its benchmark set-up (relative to the project root) and target, battles a second
SETUPS: dict[str, tuple[str, float]] = {
    "carrier": ("data/battles/midway.json", 5000),
    "surface": ("data/battles/surface-example.json", 3000),
    "fastplay": ("data/battles/fastplay-example.json", 3000),
    "airstrike": ("data/battles/airstrike-example.json", 5000),
}
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
    return BattleSetup.load(ROOT / SETUPS[name][0])


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


def sampled(name: str, battles: int, workers: int | None = None) -> tuple[float, float]:
    """An odds preview (``campaign.tactical.simulate``): (seconds to its first figures, the
    first 50 battles, when a window first shows them; seconds to all ``battles``)."""
    from campaign.tactical.simulate import simulate

    setup = load(name)
    times: list[float] = []
    start = time.perf_counter()
    simulate(
        name,
        setup,
        battles,
        on_progress=lambda _o: times.append(time.perf_counter()),
        every=50,
        workers=workers,
    )
    return times[0] - start, times[-1] - start


#: one core fighting a preview's battles with the compiled rule sets, timed by its CPU
_CORE = """
import sys, time
from campaign.tactical import BattleSetup, compiled
from campaign.tactical.simulate import simulate
name, path, battles = sys.argv[1], sys.argv[2], int(sys.argv[3])
built = compiled.ready()
if built is not None:
    compiled.use(built)
setup = BattleSetup.load(path)
simulate(name, setup, 50)
start = time.process_time()
simulate(name, setup, battles)
print(battles / (time.process_time() - start))
"""


#: a new process's first preview: the pool started for it (what the command line's odds
#: and the app's first preview after a start do), timed to its last figures
_COLD = """
import sys, time
from campaign.tactical import BattleSetup
from campaign.tactical.simulate import simulate
name, path, battles = sys.argv[1], sys.argv[2], int(sys.argv[3])
setup = BattleSetup.load(path)
start = time.perf_counter()
simulate(name, setup, battles, workers=None)
print(battles / (time.perf_counter() - start))
"""


def cold_rate(name: str, battles: int) -> float:
    """Battles a second of a new process's first preview: the pool's processes started for
    it (with ``-c``, as from the installed commands' light scripts, the workers import no
    main module)."""
    return _child_rate(_COLD, name, battles)


def core_rate(name: str, battles: int) -> float:
    """Battles a second one core fights with the compiled rule sets (the sources where there
    is no build), by its CPU time: the figure the load of a shared machine sways least (a
    preview's pool fights about this many a core)."""
    return _child_rate(_CORE, name, battles)


def _child_rate(script: str, name: str, battles: int) -> float:
    """The battles a second ``script`` prints, run in a new process for rule set ``name``'s
    benchmark set-up and ``battles`` battles."""
    out = subprocess.run(
        [sys.executable, "-c", script, name, str(ROOT / SETUPS[name][0]), str(battles)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    from campaign.tactical import compiled
    from campaign.tactical.simulate import default_workers

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", help=f"rule sets (default: {', '.join(SETUPS)})")
    parser.add_argument("--battles", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seeded", type=int, default=100)
    parser.add_argument(
        "--sources", action="store_true", help="do not build or use the compiled rule sets"
    )
    args = parser.parse_args()
    seeded = SeededDice("tactical-bench")
    pool = [seeded.roll("bench", sides=1 << 32) - 1 for _ in range(POOL)]
    workers = default_workers(args.battles)
    if args.sources:
        os.environ["SEACONTROL_COMPILED"] = tempfile.mkdtemp()  # a folder with no build
        os.environ["SEACONTROL_COMPILE"] = "never"  # (and none built there while timing)
        print("the worker processes fight with the sources (--sources)")
    else:
        try:
            print(f"the worker processes fight with the compiled rule sets: {compiled.build()}")
        except compiled.BuildError as exc:
            print(f"the worker processes fight with the sources: {exc}")
    print(
        f"{args.battles:,} battles a preview, {workers} worker process(es), medians of "
        f"{args.runs} runs"
    )
    for name in args.names or list(SETUPS):
        path, target = SETUPS[name]
        print(f"{name} ({path})")
        sampled(name, min(args.battles, 400), None)  # start the pool (once a process)
        runs = [sampled(name, args.battles, None) for _ in range(args.runs)]
        rate = args.battles / statistics.median(r[1] for r in runs)
        verdict = "ok" if rate >= target else "UNDER TARGET"
        print(
            f"{'  sampled (odds preview)':<32} {rate:>7,.0f} battles/s  target >= {target:,.0f}"
            f"  {verdict}   (runs: {', '.join(f'{args.battles / r[1]:,.0f}' for r in runs)})"
        )
        first = statistics.median(r[0] for r in runs)
        verdict = "ok" if first < FIRST_TARGET else "OVER TARGET"
        print(
            f"{'  sampled: first results':<32} {first * 1000:>7,.0f} ms{'':9}"
            f"target < {FIRST_TARGET * 1000:,.0f} ms  {verdict}"
        )
        colds = [cold_rate(name, args.battles) for _ in range(max(1, args.runs // 2))]
        print(
            f"{'  first preview, new process':<32} {statistics.median(colds):>7,.0f} battles/s"
            f"  (information: the pool started for it; runs: "
            f"{', '.join(f'{c:,.0f}' for c in colds)})"
        )
        alone = [sampled(name, args.battles // 2, 1)[1] for _ in range(max(1, args.runs // 2))]
        print(
            f"{'  one process, sources (info)':<32} "
            f"{args.battles // 2 / statistics.median(alone):>7,.0f} battles/s"
        )
        cores = [core_rate(name, args.battles // 2) for _ in range(max(1, args.runs // 2))]
        print(
            f"{'  one core, compiled, CPU (info)':<32} {statistics.median(cores):>7,.0f} battles/s"
            f"  (x {workers} worker(s): {statistics.median(cores) * workers:,.0f})"
        )
        rate, rolls, turns = rules_rate(name, args.battles // 2, pool)
        print(
            f"{'  narrated, rules only':<32} {rate:>7,.0f} battles/s  (information: "
            f"{rolls:.0f} dice, {turns:.1f} turns a battle)"
        )
        if args.seeded:
            print(
                f"{'  narrated, SeededDice':<32} "
                f"{seeded_rate(name, args.seeded):>7,.0f} battles/s  (information)"
            )


if __name__ == "__main__":
    main()
