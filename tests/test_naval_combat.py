"""002 "Naval Combat": the damage table cell by cell against the seed, and its modifiers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaign import naval_combat as nc
from campaign.naval_combat import CombatSide, damage, dice_for, fire, modifiers
from tests import seeds


def test_every_cell_of_the_damage_table_matches_the_seed() -> None:
    printed = seeds.damage_rows()
    assert sorted(printed) == list(range(1, 21))
    for cv, cells in printed.items():
        assert len(cells) == 15, f"seed row {cv}"
        for column, expected in zip(nc.ROLL_COLUMNS, cells, strict=True):
            assert damage(cv, column) == expected, f"CV {cv}, roll {column}"


def test_rolls_beyond_the_table_use_its_end_columns() -> None:
    assert damage(20, -9) == damage(20, -2) == 2  # "-2 or less"
    assert damage(1, 20) == damage(1, 12) == 1  # "12 +"
    assert damage(0, 6) == 0
    with pytest.raises(ValueError):
        damage(21, 3)


@pytest.mark.parametrize(
    ("cv", "chunks"),
    [(0, []), (1, [1]), (20, [20]), (21, [20, 1]), (40, [20, 20]), (45, [20, 20, 5])],
)
def test_one_die_per_20_cv_or_part_thereof(cv: int, chunks: list[int]) -> None:
    assert dice_for(cv) == chunks


def labels(side: CombatSide, enemy: CombatSide) -> dict[str, int]:
    return {m.label: m.value for m in modifiers(side, enemy)}


def test_outnumbering_and_outnumbered() -> None:
    big, small = CombatSide("a", cv=30), CombatSide("b", cv=10)
    assert labels(big, small)["outnumbering 3:1 or more"] == 2
    assert labels(small, big)["outnumbered 3:1 or more"] == -2
    assert labels(CombatSide("a", cv=20), small)["outnumbering 2:1"] == 1
    assert labels(small, CombatSide("a", cv=20))["outnumbered 2:1"] == -1
    assert labels(CombatSide("a", cv=19), small) == {}


def test_air_supremacy_and_inferiority_at_3_to_1() -> None:
    a = CombatSide("a", cv=10, air_points=3)
    b = CombatSide("b", cv=10, air_points=1)
    assert labels(a, b) == {"air supremacy (3:1 in air points)": 2}
    assert labels(b, a) == {"air inferiority (outnumbered 3:1 in air points)": -2}
    assert labels(CombatSide("a", cv=10, air_points=2), b) == {}
    assert labels(CombatSide("a", cv=10, air_points=1), CombatSide("b", cv=10)) == {
        "air supremacy (3:1 in air points)": 2
    }


def test_base_lsp_invasion_and_card_modifiers() -> None:
    enemy = CombatSide("e", cv=10)
    side = CombatSide(
        "s",
        cv=10,
        at_own_fleet_base_area=True,
        lsp=0,
        minor_invasion_without_landing_craft=True,
        die_bonus=2,
        column_shift=1,
    )
    assert labels(side, enemy) == {
        "a fleet base of its side in the area": 1,
        "no LSP allocated to the Task Force": -3,
        "minor invasion with no landing craft": -2,
        "Advantage Card die bonus": 2,
    }
    assert labels(CombatSide("s", cv=10, lsp=3, units=2), enemy) == {
        "more than 1 LSP per unit in the Task Force": 2
    }
    assert labels(CombatSide("s", cv=10, lsp=2, units=2), enemy) == {}


def test_fire_uses_one_roll_per_die_with_the_modifiers() -> None:
    side = CombatSide("s", cv=45, lsp=0)  # 3 dice, -3 no LSP, +2 outnumbering 3:1
    result = fire(side, CombatSide("e", cv=15), [6, 4, 1])
    assert result.drm == -1
    assert [(d.cv, d.modified, d.steps) for d in result.dice] == [
        (20, 5, 4),
        (20, 3, 3),
        (5, 0, 0),
    ]
    assert result.steps == 7
    with pytest.raises(ValueError, match="rolls 3 dice"):
        fire(side, CombatSide("e", cv=15), [6])


def test_a_column_shift_moves_the_column_not_the_die() -> None:
    """002 "Advantage Cards": *Shift combat results by one column in your favour*. At the
    "-2 or less" column a roll of -4 shifted one column reads the "-1" column (CV 18: 2
    steps), where +1 on the die (-3) would still read "-2 or less" (1 step)."""
    assert nc.damage(18, -4) == 1
    assert nc.damage(18, -4, shift=1) == nc.DAMAGE_TABLE[18][1] == 2
    assert nc.damage(18, -3) == 1  # what "+1 on the die" gave
    assert nc.column_of(-9, 2) == 0 and nc.column_of(12, 1) == 12 and nc.column_of(15, -1) == 11
    side = CombatSide("s", cv=18, lsp=0, column_shift=1)  # -3 no LSP
    result = fire(side, CombatSide("e", cv=18), [1])  # 1 - 3 = -2, shifted to -1
    assert result.shift == 1 and result.dice[0].column == -1 and result.steps == 2
    dist = nc.step_distribution(side, CombatSide("e", cv=18))
    assert dist == {
        k: Fraction(v, 6) for k, v in {2: 3, 3: 3}.items()
    }  # columns -1..4 after the shift: 2,2,2,3,3,3


def test_exact_step_distribution_is_a_distribution() -> None:
    dist = nc.step_distribution(CombatSide("s", cv=25), CombatSide("e", cv=20))
    assert sum(dist.values()) == 1
    # no modifiers (25:20 is under 2:1). CV 20 row at rolls 1-6: 3,3,3,3,4,4;
    # CV 5 row at rolls 1-6: 0,0,1,1,1,1
    p20 = {3: Fraction(4, 6), 4: Fraction(2, 6)}
    p5 = {0: Fraction(2, 6), 1: Fraction(4, 6)}
    assert dist == {
        3: p20[3] * p5[0],
        4: p20[3] * p5[1] + p20[4] * p5[0],
        5: p20[4] * p5[1],
    }
