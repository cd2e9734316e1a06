"""Naval combat: 002 "Naval Combat" — the damage table, its modifiers, and step losses.

*Total the Combat Value available and roll 1d6, plus die rolls for losses inflicted. For CV
of more than 20, roll 1d6 for each multiple of 20 or part thereof.* Each side rolls
against the other; the result of each die is the number of steps of loss inflicted.

*The side that has lost the most combat value must withdraw and has lost. In the event of
equal losses, the side with the highest CV at the end is the winner.*
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

#: 002 "Damage Calculations" table, rows "Combat Value" 1–20, columns "D6 Die roll"
#: -2 or less, -1, 0, 1 … 11, 12+. Transcribed row by row from the seed.
_DAMAGE_TEXT = """
1 0 0 0 0 0 0 0 0 0 0 1 1 1 1 1
2 0 0 0 0 0 0 0 0 1 1 1 1 1 1 1
3 0 0 0 0 0 0 0 1 1 1 1 1 1 1 1
4 0 0 0 0 0 0 1 1 1 1 1 1 2 2 2
5 0 0 0 0 0 1 1 1 1 1 2 2 2 2 2
6 0 0 0 0 1 1 1 1 1 2 2 2 2 2 2
7 0 0 0 0 1 1 1 1 2 2 2 2 2 2 2
8 0 0 0 1 1 1 1 2 2 2 2 2 2 3 3
9 0 0 0 1 1 1 2 2 2 2 2 3 3 3 3
10 0 0 1 1 1 2 2 2 2 2 3 3 3 3 3
11 0 0 1 1 1 2 2 2 2 3 3 3 3 3 3
12 0 1 1 1 2 2 2 2 3 3 3 3 3 3 3
13 0 1 1 1 2 2 2 3 3 3 3 3 3 4 4
14 0 1 1 2 2 2 2 3 3 3 3 4 4 4 4
15 0 1 1 2 2 2 3 3 3 3 3 4 4 4 4
16 1 1 2 2 2 3 3 3 3 3 4 4 4 4 4
17 1 1 2 2 2 3 3 3 3 4 4 4 4 4 5
18 1 2 2 2 3 3 3 3 4 4 4 4 4 5 5
19 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5
20 2 2 2 3 3 3 3 4 4 4 4 4 5 5 5
"""

#: the die-roll columns: the first is "-2 or less", the last "12 +"
ROLL_COLUMNS: tuple[int, ...] = tuple(range(-2, 13))
MIN_COLUMN, MAX_COLUMN = ROLL_COLUMNS[0], ROLL_COLUMNS[-1]
CV_PER_DIE = 20


def _parse_damage(text: str) -> dict[int, tuple[int, ...]]:
    table = {}
    for line in text.strip().splitlines():
        cv, *cells = (int(x) for x in line.split())
        if len(cells) != len(ROLL_COLUMNS):
            raise ValueError(f"damage table row {cv} has {len(cells)} cells")
        table[cv] = tuple(cells)
    return table


DAMAGE_TABLE: dict[int, tuple[int, ...]] = _parse_damage(_DAMAGE_TEXT)


def column_of(modified_roll: int, shift: int = 0) -> int:
    """The die-roll column a modified roll is read in (-2 for "-2 or less", 12 for "12 +"),
    then moved ``shift`` columns (002 "Advantage Cards": *Shift combat results by one column
    in your favour*): a shift moves the column, so from "-2 or less" one shift reads "-1"
    whatever the roll below -2 was."""
    column = min(max(modified_roll, MIN_COLUMN), MAX_COLUMN)
    return min(max(column + shift, MIN_COLUMN), MAX_COLUMN)


def damage(cv: int, modified_roll: int, shift: int = 0) -> int:
    """Steps of loss inflicted by one die of ``cv`` (1–20) at ``modified_roll``, read
    ``shift`` columns to the right."""
    if cv <= 0:
        return 0
    if cv > CV_PER_DIE:
        raise ValueError(f"one die covers at most {CV_PER_DIE} CV, not {cv}")
    return DAMAGE_TABLE[cv][column_of(modified_roll, shift) - MIN_COLUMN]


def dice_for(cv: int) -> list[int]:
    """The CV each die rolls on: one die per 20 CV "or part thereof".

    ``dice_for(45) == [20, 20, 5]`` — see docs/rules-notes.md (each full 20 rolls on the
    CV-20 row, the remainder on its own row).
    """
    if cv <= 0:
        return []
    full, rest = divmod(cv, CV_PER_DIE)
    return [CV_PER_DIE] * full + ([rest] if rest else [])


@dataclass(frozen=True)
class CombatSide:
    """One side of a naval combat, as the damage table's modifiers need it."""

    name: str
    cv: int
    air_points: int = 0
    at_own_fleet_base_area: bool = False
    lsp: int = 1
    units: int = 1
    minor_invasion_without_landing_craft: bool = False
    die_bonus: int = 0  # Advantage Cards: "Add to Combat Die roll"
    column_shift: int = 0  # Advantage Cards: "Shift combat results by one column"
    #: the fleet base behind ``at_own_fleet_base_area``, in words ("Pearl Harbour, an
    #: ally's"), for the modifier's label
    fleet_base: str = ""


@dataclass(frozen=True)
class Modifier:
    label: str
    value: int


def modifiers(side: CombatSide, enemy: CombatSide) -> list[Modifier]:
    """002 "Damage Calculations" modifiers for ``side`` firing at ``enemy``.

    -1 if outnumbered 2:1 / +1 if outnumbering 2:1; -2 if outnumbered 3:1 or more / +2 if
    outnumbering 3:1 or more; +2 with Air supremacy (3:1 or more in air points); -2 with
    Air Inferiority (outnumbered 3:1 in air points); +1 if in same area as fleet base; -3 no
    LSP allocated to the Task Force; +2 more than 1 LSP per unit in TF; -2 Minor Invasion
    with no specialised landing craft; Advantage Card die bonuses. A card's column shift is
    not a die modifier: it moves the column the modified roll is read in
    (:func:`column_of`, ``CombatSide.column_shift``).
    """
    out: list[Modifier] = []
    a, b = side.cv, enemy.cv
    if a > 0 or b > 0:  # x:0 counts as outnumbering by any ratio
        if a >= 3 * b:
            out.append(Modifier("outnumbering 3:1 or more", +2))
        elif a >= 2 * b:
            out.append(Modifier("outnumbering 2:1", +1))
        elif 3 * a <= b:
            out.append(Modifier("outnumbered 3:1 or more", -2))
        elif 2 * a <= b:
            out.append(Modifier("outnumbered 2:1", -1))
    a, b = side.air_points, enemy.air_points
    if a > 0 or b > 0:
        if a >= 3 * b:
            out.append(Modifier("air supremacy (3:1 in air points)", +2))
        elif 3 * a <= b:
            out.append(Modifier("air inferiority (outnumbered 3:1 in air points)", -2))
    if side.at_own_fleet_base_area:
        where = f" ({side.fleet_base})" if side.fleet_base else ""
        out.append(Modifier(f"a fleet base of its side in the area{where}", +1))
    if side.lsp <= 0:
        out.append(Modifier("no LSP allocated to the Task Force", -3))
    elif side.lsp > side.units:
        out.append(Modifier("more than 1 LSP per unit in the Task Force", +2))
    if side.minor_invasion_without_landing_craft:
        out.append(Modifier("minor invasion with no landing craft", -2))
    if side.die_bonus:
        out.append(Modifier("Advantage Card die bonus", side.die_bonus))
    return out


@dataclass(frozen=True)
class DieResult:
    cv: int
    roll: int
    modified: int
    steps: int
    column: int = 0  # the column read (after any column shift)


@dataclass(frozen=True)
class FireResult:
    """One side's fire: its modifiers, each die, and the total steps inflicted."""

    side: str
    modifiers: tuple[Modifier, ...]
    dice: tuple[DieResult, ...] = field(default_factory=tuple)
    shift: int = 0  # Advantage Card column shifts

    @property
    def steps(self) -> int:
        return sum(d.steps for d in self.dice)

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.modifiers)


def fire(side: CombatSide, enemy: CombatSide, rolls: Sequence[int]) -> FireResult:
    """``side``'s fire at ``enemy`` with the given d6 ``rolls`` (one per :func:`dice_for`)."""
    mods = modifiers(side, enemy)
    drm = sum(m.value for m in mods)
    chunks = dice_for(side.cv)
    if len(rolls) != len(chunks):
        raise ValueError(f"{side.name}: CV {side.cv} rolls {len(chunks)} dice, not {len(rolls)}")
    shift = side.column_shift
    dice = tuple(
        DieResult(cv, roll, roll + drm, damage(cv, roll + drm, shift), column_of(roll + drm, shift))
        for cv, roll in zip(chunks, rolls, strict=True)
    )
    return FireResult(side.name, tuple(mods), dice, shift)


def step_distribution(side: CombatSide, enemy: CombatSide) -> dict[int, Fraction]:
    """Exact probability of each number of steps ``side`` inflicts (all dice enumerated)."""
    drm = sum(m.value for m in modifiers(side, enemy))
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for cv in dice_for(side.cv):
        one: dict[int, Fraction] = {}
        for face in range(1, 7):
            steps = damage(cv, face + drm, side.column_shift)
            one[steps] = one.get(steps, Fraction(0)) + Fraction(1, 6)
        new: dict[int, Fraction] = {}
        for a, pa in dist.items():
            for b, pb in one.items():
                new[a + b] = new.get(a + b, Fraction(0)) + pa * pb
        dist = new
    return dict(sorted(dist.items()))


def battle_winner(
    lost_a: Fraction | int,
    left_a: Fraction | int,
    lost_b: Fraction | int,
    left_b: Fraction | int,
    wiped_a: bool = False,
    wiped_b: bool = False,
    annihilated_can_win: bool = False,
) -> tuple[str, str]:
    """Who wins a naval battle, ``"a"`` or ``"b"`` (the defender), and why — the one rule
    step 8, the exact odds, the fought-out battles and the reports all use.

    002 "Naval Combat": *The side that has lost the most combat value must withdraw and has
    lost. In the event of equal losses, the side with the highest CV at the end is the
    winner.* A side whose whole force was sunk (``wiped_a`` / ``wiped_b``) cannot win and
    hold the area, whatever it lost (rule option ``annihilated_can_win`` keeps the literal
    comparison of combat value lost); both wiped out, or still level after the tie-break,
    the operation is not pressed home and the defender holds (docs/rules-notes.md)."""
    if not annihilated_can_win and (wiped_a or wiped_b):
        if wiped_a and wiped_b:
            return "b", "both forces were sunk: the operation is not pressed home"
        return ("b" if wiped_a else "a"), "the other force was sunk to the last unit"
    if lost_a != lost_b:
        return ("a" if lost_a < lost_b else "b"), "lost less combat value"
    if left_a != left_b:
        return ("a" if left_a > left_b else "b"), "equal losses; higher CV at the end"
    return "b", "equal losses and equal CV: the operation is not pressed home"
