"""Odds of a tactical battle by running it many times with seeded dice.

The tactical rule sets are too rich to enumerate, so their odds are sampled: battle *i*
uses the dice seeded ``f"{seed}/{i}"``, so a preview is reproducible. Every figure comes
with its standard error (√(p(1−p)/n) for a probability, s/√n for a mean) so the reader sees
how sure it is; ``on_progress`` is called with the figures so far, so a window can show
first results early and a progress bar.

Where the set-up's ships belong to campaign units (``Ship.campaign_unit``, as a battle
drawn from the campaign has), each battle's result is also turned into campaign step losses
by :func:`campaign.tactical.outcome.step_losses`: the odds then give the distribution of
steps each unit and each side loses — the figures to set beside the damage table's exact
odds for the same battle. Given the campaign units themselves, the campaign winner (002:
the side that lost more combat value withdraws) is counted too.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
import math
import multiprocessing
import os
import pickle
import pkgutil
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..state import Unit
from . import RULE_SETS, BattleResult, BattleSetup, Ship, TacticalBattle, compiled, play
from .outcome import campaign_winner, declared_units, step_losses, unit_rosters
from .preview import PreviewDice


def available() -> list[str]:
    """The rule sets there are (each module registers itself when imported)."""
    import campaign.tactical as package

    for info in pkgutil.iter_modules(package.__path__):
        if info.name not in ("outcome", "simulate", "compiled"):
            importlib.import_module(f"campaign.tactical.{info.name}")
    return sorted(RULE_SETS)


@dataclass
class TacticalOdds:
    rule_set: str
    runs: int = 0
    sunk: Counter[str] = field(default_factory=Counter)  # ship id → battles it was sunk in
    hit: Counter[str] = field(default_factory=Counter)  # … damaged, crippled or sunk
    winners: Counter[str] = field(default_factory=Counter)
    ships_sunk: dict[str, Counter[int]] = field(default_factory=dict)  # side → n → battles
    #: (ships side a lost, ships side b lost) → battles: how the two sides' losses go together
    sunk_pairs: Counter[tuple[int, int]] = field(default_factory=Counter)
    names: dict[str, str] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)  # ship id → "a" / "b"
    side_names: dict[str, str] = field(default_factory=dict)  # "a" / "b" → the side's name
    #: campaign unit → steps lost → battles (empty when the ships have no campaign units)
    unit_steps: dict[str, Counter[int]] = field(default_factory=dict)
    unit_sides: dict[str, str] = field(default_factory=dict)  # campaign unit → "a" / "b"
    unit_names: dict[str, str] = field(default_factory=dict)
    side_steps: dict[str, Counter[int]] = field(default_factory=dict)  # side → steps → battles
    #: "a" / "b" → battles that side won by the campaign's rule (only with the units given)
    campaign_winners: Counter[str] = field(default_factory=Counter)

    def add(self, other: TacticalOdds) -> None:
        """Count ``other``'s battles in too (battles of the same set-up and rule set)."""
        self.runs += other.runs
        self.sunk.update(other.sunk)
        self.hit.update(other.hit)
        self.winners.update(other.winners)
        self.sunk_pairs.update(other.sunk_pairs)
        self.campaign_winners.update(other.campaign_winners)
        for table, more in (
            (self.ships_sunk, other.ships_sunk),
            (self.unit_steps, other.unit_steps),
            (self.side_steps, other.side_steps),
        ):
            for key, counts in more.items():
                table.setdefault(key, Counter()).update(counts)

    def p(self, count: int) -> tuple[float, float]:
        """A probability and its standard error."""
        if not self.runs:
            return 0.0, 0.0
        p = count / self.runs
        return p, math.sqrt(p * (1 - p) / self.runs)

    def mean(self, counts: Mapping[int, int]) -> tuple[float, float]:
        """The mean of a count distribution (e.g. steps lost) and its standard error."""
        if not self.runs:
            return 0.0, 0.0
        m = sum(k * n for k, n in counts.items()) / self.runs
        if self.runs < 2:
            return m, 0.0
        var = sum(n * (k - m) ** 2 for k, n in counts.items()) / (self.runs - 1)
        return m, math.sqrt(var / self.runs)

    @property
    def has_steps(self) -> bool:
        return bool(self.unit_steps)

    def to_dict(self) -> dict[str, Any]:
        ships = {}
        for sid, name in self.names.items():
            p, se = self.p(self.sunk[sid])
            ph, seh = self.p(self.hit[sid])
            ships[sid] = {
                "name": name,
                "side": self.sides[sid],
                "p_sunk": round(p, 4),
                "se_sunk": round(se, 4),
                "p_hit": round(ph, 4),
                "se_hit": round(seh, 4),
            }
        out: dict[str, Any] = {
            "rule_set": self.rule_set,
            "runs": self.runs,
            "winner": self._ps(self.winners),
            "ships_sunk": {
                side: {str(n): round(c / self.runs, 4) for n, c in sorted(d.items())}
                for side, d in self.ships_sunk.items()
            },
            "ships_sunk_together": {
                f"{a},{b}": round(c / self.runs, 4) for (a, b), c in sorted(self.sunk_pairs.items())
            },
            "every_ship_sunk": {k: self._pse(v) for k, v in self.wiped_out().items()},
            "ships": ships,
        }
        if self.has_steps:
            out["steps_lost"] = {
                side: self._distribution(counts) for side, counts in self.side_steps.items()
            }
            out["units"] = {
                unit: {
                    "name": self.unit_names.get(unit, unit),
                    "side": self.unit_sides[unit],
                    **self._distribution(counts),
                }
                for unit, counts in self.unit_steps.items()
            }
        if self.campaign_winners:
            out["campaign_winner"] = self._ps(self.campaign_winners)
        return out

    def wiped_out(self) -> dict[str, int]:
        """Battles in which side a, side b, both or neither lost every ship."""
        size = {k: sum(1 for side in self.sides.values() if side == k) for k in ("a", "b")}
        out = dict.fromkeys(("a", "b", "both", "neither"), 0)
        for (a, b), n in self.sunk_pairs.items():
            wa, wb = a >= size["a"] > 0, b >= size["b"] > 0
            out["a"] += n if wa else 0
            out["b"] += n if wb else 0
            out["both"] += n if wa and wb else 0
            out["neither"] += n if not wa and not wb else 0
        return out

    def _pse(self, count: int) -> dict[str, float]:
        p, se = self.p(count)
        return {"p": round(p, 4), "se": round(se, 4)}

    def _ps(self, counts: Mapping[str, int]) -> dict[str, dict[str, float]]:
        return {k: self._pse(v) for k, v in sorted(counts.items())}

    def _distribution(self, counts: Mapping[int, int]) -> dict[str, Any]:
        mean, se = self.mean(counts)
        return {
            "mean": round(mean, 4),
            "se_mean": round(se, 4),
            "p": {str(k): self._pse(n) for k, n in sorted(counts.items())},
        }

    def format(self) -> str:
        lines = [f"{self.rule_set}: {self.runs} battles"]
        for side in ("a", "b", ""):
            if self.winners.get(side):
                p, se = self.p(self.winners[side])
                label = f"{self.side_names.get(side, side)} wins" if side else "no decision"
                lines.append(f"  {label + ':':<32} {p:6.1%} ± {se:.1%}")
        for side, n in sorted(self.campaign_winners.items()):
            p, se = self.p(n)
            label = f"{self.side_names.get(side, side)} wins the campaign battle:"
            lines.append(f"  {label:<32} {p:6.1%} ± {se:.1%}")
        wiped = self.wiped_out()
        shown = [
            f"{self.side_names.get(k, k) if k in ('a', 'b') else k} {self.p(wiped[k])[0]:.1%}"
            for k in ("a", "b", "both", "neither")
        ]
        lines.append(f"  {'every ship sunk:':<32} " + ", ".join(shown))
        lines.append("  ship                          sunk            damaged or worse")
        for sid, name in self.names.items():
            p, se = self.p(self.sunk[sid])
            ph, seh = self.p(self.hit[sid])
            lines.append(f"  {name[:28]:<28} {p:6.1%} ± {se:4.1%}   {ph:6.1%} ± {seh:4.1%}")
        if self.has_steps:
            lines.append("  campaign steps lost           mean           chance of each number")
            for side in ("a", "b"):
                label = self.side_names.get(side, side)
                lines.append(self._steps_line(label, self.side_steps.get(side, Counter())))
                for unit, counts in self.unit_steps.items():
                    if self.unit_sides[unit] == side:
                        name = "  " + self.unit_names.get(unit, unit)
                        lines.append(self._steps_line(name, counts))
        return "\n".join(lines)

    def _steps_line(self, label: str, counts: Mapping[int, int]) -> str:
        mean, se = self.mean(counts)
        shown = ", ".join(
            f"{k}: {p:.0%} ± {s:.0%}" for k in sorted(counts) for p, s in [self.p(counts[k])]
        )
        return f"  {label[:28]:<28} {mean:5.2f} ± {se:4.2f}   {shown}"


def campaign_units(setup: BattleSetup) -> dict[str, list[Unit]]:
    """Stand-in campaign units for a set-up whose ships name their units (``"a"`` / ``"b"``
    → units): each unit ready, or damaged if one of its ships comes to the battle damaged,
    named and typed as the set-up lists it (``conditions["campaign_units"]``). Only the ids
    and states count for step losses."""
    out: dict[str, list[Unit]] = {"a": [], "b": []}
    listed = declared_units(setup)
    for key, side in (("a", setup.a), ("b", setup.b)):
        seen: dict[str, Unit] = {}
        for ship in side.ships:
            if not ship.campaign_unit:
                continue
            unit = seen.get(ship.campaign_unit)
            if unit is None:
                entry = listed.get(ship.campaign_unit)
                unit = Unit(
                    ship.campaign_unit,
                    ship.nation,
                    entry.type if entry else "",
                    entry.name if entry else ship.campaign_unit,
                    "",
                )
                seen[ship.campaign_unit] = unit
                out[key].append(unit)
            if ship.state != "undamaged":
                unit.state = "damaged"
        if seen and any(not s.campaign_unit for s in side.ships):
            return {"a": [], "b": []}  # some ships stand for no unit: no step losses
    return out


#: battles below which a preview is fought in the calling process (a pool of processes
#: costs more than it saves)
PARALLEL_FROM = 200
#: most worker processes a preview uses
MAX_WORKERS = 8


def default_workers(runs: int) -> int:
    """Worker processes for ``runs`` battles: one a core (at most :data:`MAX_WORKERS`),
    or none (1: in this process) for a short preview."""
    if runs < PARALLEL_FROM:
        return 1
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


@dataclass
class _Plan:
    """What every battle of one preview shares (sent to each worker process)."""

    rule_set: str
    setup: BattleSetup
    seed: str
    units: dict[str, list[Unit]] | None  # given by the caller (campaign winner counted)
    #: the compiled rule sets' folder, for worker processes ("": the sources)
    compiled: str = ""
    #: each way the battles have left the ships (their states in order) → what it counts
    #: (see :class:`_Fates`): kept with the plan, so a worker's later batches of the
    #: preview find the ways its earlier ones met (a Midway preview meets about 150 in
    #: 3,000 battles; a fast play battle of 32 ships ends a new way nearly every time)
    seen: dict[tuple[tuple[str, str], ...], _Fates] = field(default_factory=dict)


#: the most ways to end a preview keeps (each about 0.8 KB for Midway's 7 ships, 2.7 KB
#: for fast play's 32: at most about 3 MB a preview)
MOST_SEEN = 1024


def _blank(plan: _Plan) -> TacticalOdds:
    """The odds before the first battle: names, sides and the units counted."""
    setup, units = plan.setup, plan.units
    odds = TacticalOdds(plan.rule_set)
    for side_key, side in (("a", setup.a), ("b", setup.b)):
        odds.side_names[side_key] = side.name
        odds.ships_sunk[side_key] = Counter()
        for ship in side.ships:
            odds.names[ship.id] = ship.name
            odds.sides[ship.id] = side_key
    by_side = units if units else campaign_units(setup)
    fought = {s.campaign_unit for s in (*setup.a.ships, *setup.b.ships)}
    for key in ("a", "b"):
        for unit in by_side.get(key, []):
            if unit.id in fought:
                odds.unit_steps[unit.id] = Counter()
                odds.unit_sides[unit.id] = key
                odds.unit_names[unit.id] = unit.name
    if odds.unit_steps:
        odds.side_steps = {"a": Counter(), "b": Counter()}
    return odds


def _fight(
    plan: _Plan,
    odds: TacticalOdds,
    start: int,
    stop: int,
    each: Callable[[TacticalOdds], None] | None = None,
) -> None:
    """Fight battles ``start`` … ``stop - 1`` of the preview (battle *i* with the dice
    seeded ``f"{seed}/{i}"``) and count each into ``odds``; ``each(odds)`` after each."""
    if plan.rule_set not in RULE_SETS:
        available()
    factory = RULE_SETS[plan.rule_set]
    dice = _preview_dice()
    setup = plan.setup
    by_side = plan.units if plan.units else campaign_units(setup)
    rosters = unit_rosters(setup)
    everyone = [*by_side.get("a", []), *by_side.get("b", [])]
    #: a rule set whose battles offer ``rematch(dice)`` (the same battle from its opening,
    #: the set-up not read again) fights each battle after the first from an unplayed one
    rematch: Callable[[PreviewDice], TacticalBattle] | None = None
    seen = plan.seen
    with _fewer_collections():
        for i in range(start, stop):
            roll = dice(f"{plan.seed}/{i}")
            if rematch is not None:
                battle = rematch(roll)
            else:
                battle = factory(setup, roll)
                if hasattr(battle, "rematch"):
                    rematch = battle.rematch(roll).rematch  # an unplayed copy's
            battle.narrate = False
            play(battle)
            winner, states = battle.outcome()
            key = tuple(states.items())
            fates = seen.get(key)
            if fates is None:  # a new way for the ships to end: its result read once
                fates = _fates(plan, odds, battle.result(), everyone, rosters)
                if len(seen) < MOST_SEEN:
                    seen[key] = fates
            fates.count(odds, winner)
            if each is not None:
                each(odds)


def _preview_dice() -> type[PreviewDice]:
    """The preview's dice: in a worker fighting with the compiled rule sets, the compiled
    ones (:func:`compiled.use` imports the modules afresh, so a name bound when this module
    was imported would still be the source's class)."""
    module = importlib.import_module(f"{__package__}.preview")
    dice: type[PreviewDice] = module.PreviewDice
    return dice


#: allocations between two of the garbage collector's youngest collections while battles
#: are fought (Python's default is 700): a battle makes thousands of short-lived objects,
#: and fewer collections save a tenth to a fifth of the time
FEWER_COLLECTIONS = 20_000


@contextmanager
def _fewer_collections() -> Iterator[None]:
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], FEWER_COLLECTIONS), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


@dataclass(frozen=True)
class _Fates:
    """What a battle that left the ships one way adds to the odds: a preview's battles
    mostly end in ways met before (3,000 Midway battles in about 150), so each way's counts
    (the ships sunk or hit, the campaign step losses) are worked out once and added up for
    every battle that ends so."""

    sunk: tuple[str, ...]  # ship ids
    hit: tuple[str, ...]  # damaged, crippled or sunk
    sunk_pair: tuple[int, int]  # ships side a, side b lost
    unit_steps: tuple[tuple[str, int], ...]  # campaign unit → steps lost
    side_steps: tuple[int, int]  # steps side a, side b lost
    campaign_winner: str | None  # None: not counted (no campaign units given)

    def count(self, odds: TacticalOdds, winner: str) -> None:
        """Count one battle that ended so (won by ``winner``) into ``odds``."""
        odds.runs += 1
        odds.winners[winner] += 1
        for sid in self.sunk:
            odds.sunk[sid] += 1
        for sid in self.hit:
            odds.hit[sid] += 1
        a, b = self.sunk_pair
        odds.ships_sunk["a"][a] += 1
        odds.ships_sunk["b"][b] += 1
        odds.sunk_pairs[self.sunk_pair] += 1
        if odds.unit_steps:
            for unit, steps in self.unit_steps:
                odds.unit_steps[unit][steps] += 1
            odds.side_steps["a"][self.side_steps[0]] += 1
            odds.side_steps["b"][self.side_steps[1]] += 1
        if self.campaign_winner is not None:
            odds.campaign_winners[self.campaign_winner] += 1


def _fates(
    plan: _Plan,
    odds: TacticalOdds,
    result: BattleResult,
    everyone: list[Unit],
    rosters: Mapping[str, list[Ship]],
) -> _Fates:
    """What ``result``'s ships' fates count in the odds (see :class:`_Fates`)."""
    sunk = [sid for sid, ship in result.ships.items() if ship.state == "sunk"]
    per_side = Counter(odds.sides.get(sid, "?") for sid in sunk)
    unit_steps: list[tuple[str, int]] = []
    lost: Counter[str] = Counter()
    winner: str | None = None
    if odds.unit_steps:
        losses = step_losses(result, everyone, rosters)
        for loss in losses:
            unit_steps.append((loss.unit, loss.steps))
            lost[odds.unit_sides[loss.unit]] += loss.steps
        if plan.units:
            a, b = plan.units.get("a", []), plan.units.get("b", [])
            winner = campaign_winner(a, b, losses)
    return _Fates(
        tuple(sunk),
        tuple(sid for sid, ship in result.ships.items() if ship.state != "undamaged"),
        (per_side["a"], per_side["b"]),
        tuple(unit_steps),
        (lost["a"], lost["b"]),
        winner,
    )


def simulate(
    rule_set: str,
    setup: BattleSetup,
    runs: int,
    seed: str = "odds",
    on_progress: Callable[[TacticalOdds], None] | None = None,
    every: int = 50,
    units: Mapping[str, Iterable[Unit]] | None = None,
    workers: int | None = 1,
) -> TacticalOdds:
    """Fight ``runs`` battles; the odds of each ship being sunk or hit, of each side
    winning, and (ships with campaign units) of the campaign step losses. ``units``: the
    campaign units of each side (``"a"`` / ``"b"``), for their names, states and the
    campaign winner; else stand-ins from the ships (:func:`campaign_units`). A unit's
    steps weigh all its ships, those not in the set-up untouched
    (:func:`~campaign.tactical.outcome.unit_rosters`).

    ``workers``: processes fighting at once; None: :func:`default_workers` (a core each,
    for a long preview). A program that asks for workers starts them the way
    :mod:`multiprocessing` does, so its main script must keep its work under ``if __name__
    == "__main__":`` (the CLI's and the app's do); the default, 1, fights every battle in
    this process. Battle *i* always has the dice seeded ``f"{seed}/{i}"``, so the odds are
    the same however many workers fight them. ``on_progress(odds)`` is called
    every ``every`` battles (with workers: as each batch comes in — ``every`` battles, or for
    a long preview a tenth of a worker's share, :data:`BATCHES_A_WORKER`) and at the
    end; an exception it raises stops the preview. Raises KeyError for an unknown rule
    set, ValueError for a set-up whose ``campaign_units`` are not understood.

    Where the rule sets have no compiled build, one is started in the background
    (:func:`compiled.build_soon`; :func:`rules_note` says what a preview fought with)."""
    if rule_set not in RULE_SETS:
        available()
    if rule_set not in RULE_SETS:
        raise KeyError(rule_set)
    compiled.build_soon()  # the compiled rule sets, for this preview's workers or the next's
    plan = _Plan(rule_set, setup, seed, {k: list(v) for k, v in units.items()} if units else None)
    odds = _blank(plan)
    workers = default_workers(runs) if workers is None else max(1, workers)
    every = max(1, every)
    if workers == 1 or runs <= every:

        def each(so_far: TacticalOdds) -> None:
            if on_progress and (so_far.runs % every == 0 or so_far.runs == runs):
                on_progress(so_far)

        _fight(plan, odds, 0, runs, each)
        return odds
    return _fight_in_pool(plan, odds, runs, every, workers, on_progress)


def rules_note(runs: int) -> str:
    """After a preview of ``runs`` battles, its workers chosen by default: why they fought
    with the plain rules (:func:`compiled.describe`), or "" if they did not (a short
    preview is fought in the calling process, where the plain rules always fight; a long
    one with the compiled rule sets, once built). What the app and the command line tell
    the user."""
    if default_workers(runs) > 1 and compiled.ready() is None:
        return compiled.describe()
    return ""


def _fight_in_pool(
    plan: _Plan,
    odds: TacticalOdds,
    runs: int,
    every: int,
    workers: int,
    on_progress: Callable[[TacticalOdds], None] | None,
) -> TacticalOdds:
    """The preview's battles in batches of ``every`` (or more: :data:`BATCHES_A_WORKER`),
    fought by a pool of processes; each batch's counts are added as it comes in (the sums
    do not depend on the order). When
    the pool has yet to start, the first batch is fought here before the others are handed
    out, so the first figures come as soon as without a pool, while the pool's processes
    start on another core (:func:`_start_workers`); a pool already running (any preview
    after the first) is given every batch, its workers fighting with the compiled rule sets
    from the first battle on."""
    first = 0
    new = _POOL is None or _POOL[0] != workers
    pool = _pool(workers)
    if new:
        starting = threading.Thread(target=_start_workers, args=(pool, workers), daemon=True)
        starting.start()
        _fight(plan, odds, 0, every)  # (should it raise, the workers go on starting)
        first = every
        if on_progress:
            on_progress(odds)
        starting.join()
    built = compiled.ready()  # the rule sets compiled from the present sources, if built
    plan.compiled = str(built) if built else ""
    # (what the battles fought here met stays here: the same preview pickles the same)
    data = pickle.dumps(replace(plan, seen={}), protocol=pickle.HIGHEST_PROTOCOL)
    size = max(every, runs // (workers * BATCHES_A_WORKER))
    batches = [
        pool.submit(_fight_batch, data, start, min(start + size, runs))
        for start in range(first, runs, size)
    ]
    try:
        for done in as_completed(batches):
            odds.add(done.result())
            if on_progress:
                on_progress(odds)
    except BrokenProcessPool:
        shutdown_pool()  # a worker died: the next preview starts a new pool
        raise
    finally:
        for batch in batches:
            batch.cancel()
    return odds


#: a long preview's batches a worker, at least: a batch costs a round trip to a worker (a
#: Midway preview in batches of 50 ran 6% slower than in batches of 150), and the last
#: batch may leave the other workers idle while it is fought
BATCHES_A_WORKER = 10

_POOL: tuple[int, ProcessPoolExecutor] | None = None


def shutdown_pool() -> None:
    """End the worker processes (the next long preview starts new ones)."""
    global _POOL
    if _POOL is not None:
        _POOL[1].shutdown(cancel_futures=True)
        _POOL = None


def _pool(workers: int) -> ProcessPoolExecutor:
    """The worker processes, started once (a new process costs about a tenth of a second)
    and kept for the next preview. Started by a fork server where there is one: a new
    worker is a copy of a clean process that has imported this module, never of the
    calling program and its threads (the app's)."""
    global _POOL
    if _POOL is not None and _POOL[0] == workers:
        return _POOL[1]
    shutdown_pool()
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        context.set_forkserver_preload([__name__])
    executor = ProcessPoolExecutor(workers, mp_context=context)
    _POOL = (workers, executor)
    return executor


def _start_workers(pool: ProcessPoolExecutor, workers: int) -> None:
    """Start the pool's ``workers`` processes (a task each that does nothing), so a
    preview's batches find them running. On a thread of its own: it waits for the fork
    server to import this module (a tenth of a second and more), which it does on another
    core while the first batch is fought. A pool that cannot start is left for the batches
    to find out (their errors are the preview's)."""
    with contextlib.suppress(Exception):
        for started in [pool.submit(_rules_in_use) for _worker in range(workers)]:
            started.result()


@functools.lru_cache(maxsize=4)
def _unpickled(data: bytes) -> _Plan:
    plan = pickle.loads(data)
    assert isinstance(plan, _Plan)
    return plan


#: in a worker process: the compiled rule sets' folder in use ("" none), once chosen
_COMPILED: list[str] = []
#: in a worker process: builds given up on (a battle they fought raised), never taken again
_DROPPED: set[str] = set()


def _rules_in_use() -> str | None:
    """In a worker process: the compiled rule sets' folder it fights with, "" for the
    sources, None before its first batch."""
    return _COMPILED[0] if _COMPILED else None


def _fight_batch(data: bytes, start: int, stop: int) -> TacticalOdds:
    """In a worker process: battles ``start`` … ``stop - 1`` of the pickled plan's preview
    (the plan is unpickled once a worker, however many batches it fights), with the
    compiled rule sets if the plan names a build: taken up at a worker's first batch, or
    by a worker fighting with the sources at the first batch of a preview that names one
    (a build finished in the background since the worker started)."""
    plan = _unpickled(data)
    first = not _COMPILED
    if first or (not _COMPILED[0] and plan.compiled and plan.compiled not in _DROPPED):
        try:
            used = bool(plan.compiled) and compiled.use(Path(plan.compiled))
        except Exception:  # a build that cannot be imported (a damaged module): the sources
            compiled.drop(Path(plan.compiled))
            _DROPPED.add(plan.compiled)
            used = False
        _COMPILED[:] = [plan.compiled if used else ""]
    if first:
        gc.freeze()  # what the worker has imported is never garbage: not looked at again
    odds = _blank(plan)
    try:
        _fight(plan, odds, start, stop)
    except (ValueError, KeyError):
        raise  # the set-up's fault, whatever fights it
    except Exception:
        if not _COMPILED[0]:
            raise
        # compiled code holds to its types where the source would carry on: should a
        # battle the tests never fought fall foul of that, the sources fight this batch
        # and every later one (the same dice, the same battles)
        compiled.drop(Path(_COMPILED[0]))
        _DROPPED.add(_COMPILED[0])
        _COMPILED[0] = ""
        odds = _blank(plan)
        _fight(plan, odds, start, stop)
    return odds
