"""Exact odds of a naval combat and of a merchant-warfare combat, by enumerating the dice.

Nothing here samples: every face of every die is counted, so the probabilities are exact
rationals (:class:`fractions.Fraction`); only ``to_dict`` and ``format`` turn them into
floats for people and programs.

Naval combat — 002 "Damage Calculations": *Total the Combat Value available and roll 1d6,
plus die rolls for losses inflicted. For CV of more than 20, roll 1d6 for each multiple of
20 or part thereof.* Both sides fire at once, each with the modifiers of
:func:`campaign.naval_combat.modifiers`, so the steps a inflicts on b and the steps b
inflicts on a are independent. The steps of many dice are added by convolving one die's
distribution at a time (a CV-200 side is 10 dice: about 10 × 30 × 6 additions, not 6**10).

Who wins — 002 "Naval Combat": *The side that has lost the most combat value must withdraw
and has lost. In the event of equal losses, the side with the highest CV at the end is the
winner.* Which units absorb the steps is the owner's choice (*Owner chooses which ship
losses to take*), so the odds cannot know the CV lost. Two ways are offered:

* with ``cv_lost`` for a side (steps → CV lost, worked out by the caller from the force's
  units and the owner's intended loss order), the sides are compared by CV lost, ties by
  the CV left at the end;
* without it, every step is taken to cost the side's *average CV per step*: its CV over
  its steps, two per unit (*Ship Units can be in one of three states – undamaged, damaged
  or sunk*), i.e. ``cv / (2 × units)``, never more than the CV the side has. If only one
  side has ``cv_lost``, the other side's CV lost is that same average estimate.

Each pair of results is then judged by :func:`campaign.naval_combat.battle_winner`, the
rule step 8 applies: a force sunk to the last unit cannot win, and a result still level
after the tie-break goes to the defender (``b``), as in play — there is no "draw".

Merchant warfare — 002 "Calculating Losses": *Roll 1d6 per side, subtract escort score
from interdictor's score.* The 36 pairs of faces are each resolved with
:func:`campaign.merchant_warfare.resolve` (escort steps: none on an unescorted route,
:func:`escort_steps_lost`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from campaign import merchant_warfare as mw
from campaign import naval_combat as nc
from campaign.dice import Dice
from campaign.merchant_warfare import DEFAULT_SHORT_ROW, MerchantCombat
from campaign.naval_combat import CombatSide, Modifier

__all__ = [
    "FireOdds",
    "MerchantOdds",
    "NavalOdds",
    "average_cv_per_step",
    "escort_steps_lost",
    "fire_odds",
    "fire_steps",
    "merchant_odds",
    "naval_odds",
    "sample_combat",
    "step_counts",
]

FACES = 6
BAR_WIDTH = 30
_EIGHTHS = " ▏▎▍▌▋▊▉"

CvLost = Callable[[int], int]


# ----------------------------------------------------------------------------- helpers


def exact(p: Fraction) -> str:
    """A probability as the string ``"n/d"`` (always with a denominator: ``"1/1"``)."""
    return f"{p.numerator}/{p.denominator}"


def probability(p: Fraction) -> dict[str, Any]:
    """JSON form of a probability: ``{"p": 0.123457, "exact": "10/81"}``."""
    return {"p": round(float(p), 6), "exact": exact(p)}


def _moments(dist: Mapping[int, Fraction]) -> tuple[int, int, int, int]:
    """(Σ n, Σ k·n, Σ k²·n, d): the distribution's probabilities as whole numbers ``n`` of
    parts ``1/d`` (``d`` their common denominator), so that the sums are integer sums."""
    d = math.lcm(*(p.denominator for p in dist.values())) if dist else 1
    s0 = s1 = s2 = 0
    for k, p in dist.items():
        n = p.numerator * (d // p.denominator)
        s0 += n
        s1 += k * n
        s2 += k * k * n
    return s0, s1, s2, d


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    """The exact mean of a distribution ``value → probability``."""
    _, s1, _, d = _moments(dist)
    return Fraction(s1, d)


def variance(dist: Mapping[int, Fraction]) -> Fraction:
    """The exact variance of a distribution ``value → probability``: Σ (k − m)² p."""
    s0, s1, s2, d = _moments(dist)
    return Fraction(s2 * d * d - 2 * s1 * s1 * d + s1 * s1 * s0, d**3)


def sd(dist: Mapping[int, Fraction]) -> float:
    """The standard deviation of a distribution, as a float."""
    return math.sqrt(variance(dist))


def bar(p: float, width: int = BAR_WIDTH) -> str:
    """A text bar ``width`` characters long at probability 1, in eighths of a block."""
    eighths = round(max(0.0, min(1.0, p)) * width * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "")


def percent(p: float) -> str:
    """A probability as a percentage for a table: ``" 12.3%"``; tiny non-zero as ``<0.1%``."""
    if 0 < p < 0.0005:
        return " <0.1%"
    if 0.9995 <= p < 1:
        return ">99.9%"
    return f"{p * 100:5.1f}%"


def _dist_rows(dist: Mapping[int, Fraction], key: str) -> list[dict[str, Any]]:
    return [{key: k, **probability(p)} for k, p in sorted(dist.items())]


def _dist_lines(dist: Mapping[int, Fraction], label: str, indent: str = "  ") -> list[str]:
    lines = [f"{indent}{label}:"]
    for k, p in sorted(dist.items()):
        lines.append(f"{indent}{k:>4}  {percent(float(p))}  {bar(float(p))}")
    return lines


def _mean_sd(dist: Mapping[int, Fraction]) -> str:
    return f"{float(mean(dist)):.2f} ± {sd(dist):.2f}"


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


# ------------------------------------------------------------------------ naval combat


@lru_cache(maxsize=256)
def _die_counts(cv: int, drm: int, shift: int = 0) -> tuple[int, ...]:
    """One die of ``cv`` (1–20) at ``drm``, read ``shift`` columns right: ``counts[k]`` =
    faces giving ``k`` steps."""
    steps = [nc.damage(cv, face + drm, shift) for face in range(1, FACES + 1)]
    counts = [0] * (max(steps) + 1)
    for s in steps:
        counts[s] += 1
    return tuple(counts)


def _convolve(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return tuple(out)


@lru_cache(maxsize=256)
def step_counts(cv: int, drm: int, shift: int = 0) -> tuple[int, ...]:
    """All the dice of a ``cv`` side at ``drm`` (and ``shift`` columns): ``counts[k]`` of
    the ``6**n`` face combinations give ``k`` steps (``n = len(dice_for(cv))``). Cached: an
    odds preview asks for the same few (CV, DRM) pairs over and over."""
    counts: tuple[int, ...] = (1,)
    for chunk in nc.dice_for(cv):
        counts = _convolve(counts, _die_counts(chunk, drm, shift))
    return counts


def _to_dist(counts: Sequence[int]) -> dict[int, Fraction]:
    total = sum(counts)
    return {k: Fraction(c, total) for k, c in enumerate(counts) if c}


@dataclass(frozen=True)
class FireOdds:
    """One side's fire: the exact distribution of steps it inflicts on the other."""

    side: str
    target: str
    cv: int
    dice: tuple[int, ...]  # the CV row each die rolls on (nc.dice_for)
    modifiers: tuple[Modifier, ...]
    distribution: Mapping[int, Fraction]  # steps inflicted → probability
    shift: int = 0  # Advantage Card column shifts (they move the column, not the die)

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def mean(self) -> float:
        return float(mean(self.distribution))

    @property
    def sd(self) -> float:
        return sd(self.distribution)

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "target": self.target,
            "cv": self.cv,
            "dice": list(self.dice),
            "drm": self.drm,
            "modifiers": [{"label": m.label, "value": m.value} for m in self.modifiers],
            "column_shift": self.shift,
            "steps": _dist_rows(self.distribution, "steps"),
            "mean": round(self.mean, 6),
            "mean_exact": exact(mean(self.distribution)),
            "sd": round(self.sd, 6),
        }


def fire_odds(side: CombatSide, enemy: CombatSide) -> FireOdds:
    """Exact odds of the steps ``side`` inflicts on ``enemy`` (one side's fire)."""
    mods = tuple(nc.modifiers(side, enemy))
    counts = step_counts(side.cv, sum(m.value for m in mods), side.column_shift)
    return FireOdds(
        side.name,
        enemy.name,
        side.cv,
        tuple(nc.dice_for(side.cv)),
        mods,
        MappingProxyType(_to_dist(counts)),
        side.column_shift,
    )


def average_cv_per_step(side: CombatSide) -> Fraction:
    """The side's CV over its steps, two steps per unit (undamaged → damaged → sunk)."""
    return Fraction(max(side.cv, 0), 2 * max(side.units, 1))


def _lost_parts(side: CombatSide, steps: int, cv_lost: CvLost | None, unit: int) -> int:
    """The CV ``side`` loses for ``steps`` steps, in parts of 1/``unit`` CV (``unit`` a
    multiple of its steps, two a unit): ``cv_lost``'s figure, else every step at the side's
    :func:`average_cv_per_step`, never more than the CV it has."""
    if cv_lost is not None:
        return cv_lost(steps) * unit
    cv = max(side.cv, 0)
    return min(cv * unit, steps * cv * (unit // (2 * max(side.units, 1))))


@dataclass(frozen=True)
class NavalOdds:
    """Exact odds of a naval combat between ``a`` and ``b`` (simultaneous fire).

    ``a_fire`` is a's fire (steps *b* loses), ``b_fire`` b's fire (steps *a* loses).
    ``decided_by`` is ``"cv"`` (the CV each side loses was given from its units) or
    ``"estimated cv"`` (each step estimated at the side's average CV per step). Every pair
    of results is judged by :func:`campaign.naval_combat.battle_winner`, the rule step 8
    applies, so ``p_a_wins + p_b_wins == 1``; ``p_level`` is the part of ``p_b_wins``
    where the sides were still level after the tie-break and the defender held.
    """

    a: CombatSide
    b: CombatSide
    a_fire: FireOdds
    b_fire: FireOdds
    p_a_wins: Fraction
    p_b_wins: Fraction
    p_level: Fraction  # level after the tie-break (or both sunk): the defender holds
    p_tie_steps: Fraction  # both sides lose the same number of steps
    decided_by: str
    p_a_sunk: Fraction = Fraction(0)  # a's whole force sunk
    p_b_sunk: Fraction = Fraction(0)  # b's whole force sunk

    @property
    def a_on_b(self) -> Mapping[int, Fraction]:
        """Steps inflicted by a on b → probability."""
        return self.a_fire.distribution

    @property
    def b_on_a(self) -> Mapping[int, Fraction]:
        """Steps inflicted by b on a → probability."""
        return self.b_fire.distribution

    @property
    def joint(self) -> dict[tuple[int, int], Fraction]:
        """``(steps a inflicts on b, steps b inflicts on a)`` → probability (independent)."""
        return {(i, j): pi * pj for i, pi in self.a_on_b.items() for j, pj in self.b_on_a.items()}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: floats rounded to 6 places, exact fractions as ``"n/d"``."""
        return {
            "a": self.a.name,
            "b": self.b.name,
            "a_fire": self.a_fire.to_dict(),
            "b_fire": self.b_fire.to_dict(),
            "joint": [
                {"a_on_b": i, "b_on_a": j, **probability(p)}
                for (i, j), p in sorted(self.joint.items())
            ],
            "a_wins": probability(self.p_a_wins),
            "b_wins": probability(self.p_b_wins),
            "level_defender_holds": probability(self.p_level),
            "a_sunk": probability(self.p_a_sunk),
            "b_sunk": probability(self.p_b_sunk),
            "tie_on_steps": probability(self.p_tie_steps),
            "decided_by": self.decided_by,
        }

    def format(self) -> str:
        """A terminal summary for the umpire: each side's fire, then who wins."""
        lines = [
            f"Naval combat odds: {self.a.name} (CV {self.a.cv}) v {self.b.name} (CV {self.b.cv})"
        ]
        for f in (self.a_fire, self.b_fire):
            rows = "+".join(str(c) for c in f.dice) or "none"
            mods = ", ".join(f"{m.label} {_signed(m.value)}" for m in f.modifiers) or "none"
            dice = f"{len(f.dice)} {'die' if len(f.dice) == 1 else 'dice'}"
            lines.append("")
            shift = f", column shift {_signed(f.shift)}" if f.shift else ""
            lines.append(f"{f.side} fires {dice} (CV rows {rows}), DRM {_signed(f.drm)}{shift}")
            lines.append(f"  modifiers: {mods}")
            lines.extend(_dist_lines(f.distribution, f"steps on {f.target}"))
            lines.append(f"  mean {_mean_sd(f.distribution)} steps")
        names = (f"{self.a.name} wins", f"{self.b.name} wins")
        width = max(len(n) for n in names)
        lines.append("")
        how = (
            "most CV lost loses, each step estimated at the side's average CV per step"
            if self.decided_by == "estimated cv"
            else "most CV lost loses"
        )
        lines.append(
            f"Result ({how}; equal CV lost: more CV left wins; a force sunk to the last "
            "unit cannot win; still level: the defender holds)"
        )
        for name, p in zip(names, (self.p_a_wins, self.p_b_wins), strict=True):
            lines.append(f"  {name:<{width}}  {percent(float(p))}  {bar(float(p))}")
        lines.append(
            f"  of which level, {self.b.name} holds: {percent(float(self.p_level)).strip()}"
        )
        lines.append(f"  equal steps lost: {percent(float(self.p_tie_steps)).strip()}")
        return "\n".join(line.rstrip() for line in lines)


def naval_odds(
    a: CombatSide,
    b: CombatSide,
    a_cv_lost: CvLost | None = None,
    b_cv_lost: CvLost | None = None,
    a_steps_to_sink: int | None = None,
    b_steps_to_sink: int | None = None,
    annihilated_can_win: bool = False,
) -> NavalOdds:
    """Exact odds of a naval combat: both sides fire at once (002 "Damage Calculations").

    ``a_cv_lost(steps)`` / ``b_cv_lost(steps)``: the CV that side loses for ``steps``
    steps, from its units; not given, each step costs the side's average CV per step
    (module docstring). ``a_steps_to_sink`` / ``b_steps_to_sink``: the steps that sink a
    side's whole force (default two per unit: every unit undamaged). The winner of each
    pair of results is :func:`campaign.naval_combat.battle_winner`'s.
    """
    a_fire = fire_odds(a, b)
    b_fire = fire_odds(b, a)
    ca = step_counts(a.cv, a_fire.drm, a.column_shift)  # ca[i]: b loses i steps
    cb = step_counts(b.cv, b_fire.drm, b.column_shift)  # cb[j]: a loses j steps
    total = sum(ca) * sum(cb)
    by_cv = a_cv_lost is not None or b_cv_lost is not None
    sink_a = a_steps_to_sink if a_steps_to_sink is not None else 2 * max(a.units, 1)
    sink_b = b_steps_to_sink if b_steps_to_sink is not None else 2 * max(b.units, 1)

    # the CV lost counted in parts of 1/unit CV, so that the pairs below compare whole
    # numbers (the estimate, a step at cv / (2 × units), is a whole number of parts)
    unit = math.lcm(2 * max(a.units, 1), 2 * max(b.units, 1))
    lost_a = [_lost_parts(a, j, a_cv_lost, unit) for j in range(len(cb))]
    lost_b = [_lost_parts(b, i, b_cv_lost, unit) for i in range(len(ca))]
    cv_a, cv_b = a.cv * unit, b.cv * unit
    a_wins = level = tie_steps = 0
    for i, x in enumerate(ca):
        if not x:
            continue
        for j, y in enumerate(cb):
            if not y:
                continue
            winner, why = nc.battle_winner(
                lost_a[j],
                max(cv_a - lost_a[j], 0),
                lost_b[i],
                max(cv_b - lost_b[i], 0),
                wiped_a=j >= sink_a,
                wiped_b=i >= sink_b,
                annihilated_can_win=annihilated_can_win,
            )
            if winner == "a":
                a_wins += x * y
            elif "not pressed home" in why:
                level += x * y
            if i == j:
                tie_steps += x * y
    a_sunk = sum(y for j, y in enumerate(cb) if j >= sink_a) * sum(ca)
    b_sunk = sum(x for i, x in enumerate(ca) if i >= sink_b) * sum(cb)
    return NavalOdds(
        a,
        b,
        a_fire,
        b_fire,
        Fraction(a_wins, total),
        Fraction(total - a_wins, total),
        Fraction(level, total),
        Fraction(tie_steps, total),
        "cv" if by_cv else "estimated cv",
        Fraction(a_sunk, total),
        Fraction(b_sunk, total),
    )


@lru_cache(maxsize=1024)
def _face_steps(side: CombatSide, enemy: CombatSide) -> tuple[tuple[int, ...], ...]:
    drm = sum(m.value for m in nc.modifiers(side, enemy))
    return tuple(
        tuple(nc.damage(chunk, face + drm, side.column_shift) for face in range(FACES + 1))
        for chunk in nc.dice_for(side.cv)
    )


def fire_steps(side: CombatSide, enemy: CombatSide, rolls: Sequence[int]) -> int:
    """The steps of :func:`campaign.naval_combat.fire` only, fast (for many previews).

    The steps of each die at each face are worked out once per pair of sides (cached);
    a roll is then one table look-up per die. Same rolls, same total as ``fire``; the
    rolls are not checked to be 1–6 (that is ``fire``'s and the dice's job).
    """
    table = _face_steps(side, enemy)
    if len(rolls) != len(table):
        raise ValueError(f"{side.name}: CV {side.cv} rolls {len(table)} dice, not {len(rolls)}")
    return sum(row[r] for row, r in zip(table, rolls, strict=True))


def sample_combat(a: CombatSide, b: CombatSide, dice: Dice) -> tuple[int, int]:
    """One two-sided naval combat fought with ``dice``, for bulk callers (odds checks, the
    computer opponent's look-ahead): (steps ``a`` inflicts on ``b``, steps ``b`` inflicts
    on ``a``). Step 8 rolls the same dice in the same order — ``a``'s, then ``b``'s — and
    reads them with :func:`campaign.naval_combat.fire`; this reads them in each side's
    cached table (:func:`fire_steps`) and builds no labelled result. Pass
    :class:`~campaign.dice.UnloggedDice` so that no roll is logged: an imagined combat is
    not part of the game's dice log."""
    table_a, table_b = _face_steps(a, b), _face_steps(b, a)
    return _read(table_a, dice.rolls(len(table_a), "naval combat fire")), _read(
        table_b, dice.rolls(len(table_b), "naval combat fire")
    )


def _read(table: tuple[tuple[int, ...], ...], rolls: Sequence[int]) -> int:
    """The steps of ``rolls`` read in a side's face table (one row per die)."""
    if len(table) == 1:
        return table[0][rolls[0]]
    total = 0
    for row, face in zip(table, rolls, strict=True):
        total += row[face]
    return total


# --------------------------------------------------------------------- merchant warfare

COLOUR_ORDER = ("none", "R", "O", "Y", "B", "G")


def _colour_name(code: str) -> str:
    return "no combat" if code == "none" else mw.COLOURS[code]


@dataclass(frozen=True)
class MerchantOdds:
    """Exact odds of one merchant-warfare combat (36 equally likely pairs of d6)."""

    combat: MerchantCombat
    short_row: str
    base_column: int | None  # None: no combat (odds below 1:3)
    column: int | None
    colours: Mapping[str, Fraction]  # "none", "R", "O", "Y", "B", "G" → probability
    raider_steps: Mapping[int, Fraction]
    escort_steps: Mapping[int, Fraction]
    tonnage_lost: Mapping[int, Fraction]

    @property
    def column_label(self) -> str:
        return "no combat" if self.column is None else mw.ODDS_LABELS[self.column]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: floats rounded to 6 places, exact fractions as ``"n/d"``."""
        c = self.combat
        return {
            "attack_cv": c.attack_cv,
            "escort_cv": c.escort_cv,
            "column": self.column_label,
            "base_column": None if self.base_column is None else mw.ODDS_LABELS[self.base_column],
            "shift": c.shift,
            "short_row": self.short_row,
            "colours": {
                _colour_name(k): probability(self.colours.get(k, Fraction(0))) for k in COLOUR_ORDER
            },
            **{
                name: {
                    "distribution": _dist_rows(dist, "steps"),
                    "mean": round(float(mean(dist)), 6),
                    "mean_exact": exact(mean(dist)),
                    "sd": round(sd(dist), 6),
                }
                for name, dist in (
                    ("raider_steps", self.raider_steps),
                    ("escort_steps", self.escort_steps),
                    ("tonnage_lost", self.tonnage_lost),
                )
            },
        }

    def format(self) -> str:
        """A terminal summary for the umpire: colour odds, then losses mean ± sd."""
        c = self.combat
        head = f"Merchant warfare odds: interdictor CV {c.attack_cv} v escort CV {c.escort_cv}"
        if self.column is None:
            return f"{head}\n  no combat: the interdictor's odds are below 1:3"
        base = mw.ODDS_LABELS[self.base_column] if self.base_column is not None else "-"
        lines = [
            head,
            f"  odds column {self.column_label} (base {base}, shift {_signed(c.shift)}),"
            f" die bonus {_signed(c.attack_bonus)} / escort {_signed(c.escort_bonus)}",
            "",
            "  result    probability",
        ]
        for code in COLOUR_ORDER[1:]:
            p = float(self.colours.get(code, Fraction(0)))
            lines.append(f"  {_colour_name(code):<8}  {percent(p)}  {bar(p)}")
        lines.append("")
        for label, dist in (
            ("raider steps lost", self.raider_steps),
            ("escort steps lost", self.escort_steps),
            ("tonnage lost", self.tonnage_lost),
        ):
            spread = ", ".join(f"{k}: {percent(float(p)).strip()}" for k, p in sorted(dist.items()))
            lines.append(f"  {label:<17}  {_mean_sd(dist)}   ({spread})")
        return "\n".join(line.rstrip() for line in lines)


def escort_steps_lost(c: MerchantCombat, steps: int) -> int:
    """Escort steps lost, none when there are no escorts (escort CV 0).

    The results table gives escort losses as a % of the raider's CV, which would be 30% of
    12 = 3 steps even on an unescorted route; 002 Example 3 (*US Subs ... vs. unprotected
    Japanese merchant route*) has no escort to lose them, so the odds, the calculator and
    :func:`campaign.merchant_warfare.resolve` all count 0.
    """
    return steps if c.escort_cv > 0 else 0


@lru_cache(maxsize=256)
def merchant_odds(c: MerchantCombat, short_row: str = DEFAULT_SHORT_ROW) -> MerchantOdds:
    """Exact odds of a merchant combat (002 "Calculating Losses"): every pair of d6.

    Cached (the inputs are frozen and the result read-only).
    """
    mw.colour_table(short_row)  # an unknown reading is refused before anything else
    # resolve reads the two faces only through their difference: each of the 11
    # differences is resolved once and weighs the pairs of faces that give it
    colours: Counter[str] = Counter()
    raider: Counter[int] = Counter()
    escort: Counter[int] = Counter()
    tonnage: Counter[int] = Counter()
    for difference in range(1 - FACES, FACES):
        pairs = FACES - abs(difference)
        r = mw.resolve(c, max(1, 1 + difference), max(1, 1 - difference), short_row)
        colours[r.colour or "none"] += pairs
        raider[r.raider_steps] += pairs
        escort[escort_steps_lost(c, r.escort_steps)] += pairs
        tonnage[r.tonnage_lost] += pairs
    return MerchantOdds(
        c,
        short_row,
        r.base_column,  # the odds column is the same whatever the faces
        r.column,
        MappingProxyType(
            {k: Fraction(colours[k], FACES * FACES) for k in COLOUR_ORDER if k in colours}
        ),
        MappingProxyType(_shares(raider)),
        MappingProxyType(_shares(escort)),
        MappingProxyType(_shares(tonnage)),
    )


def _shares(counts: Mapping[int, int]) -> dict[int, Fraction]:
    """Pairs of faces (of 36) → probability, by value."""
    return {k: Fraction(n, FACES * FACES) for k, n in sorted(counts.items())}
