"""002 "Calculating Losses": the odds columns, colour table and results, and the seed's
three worked examples."""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaign import merchant_warfare as mw
from campaign.merchant_warfare import MerchantCombat, odds_column, resolve
from tests import seeds


def test_colour_table_rows_match_the_seed_cell_by_cell() -> None:
    printed = seeds.colour_rows()
    assert [tuple(r) for r in printed] == mw.seed_rows()
    assert [len(r) for r in printed] == [9, 9, 8, 9, 9, 9, 9, 9, 9]


@pytest.mark.parametrize("reading", sorted(mw.SHORT_ROW_READINGS))
def test_every_reading_of_the_short_row_keeps_the_printed_cells(reading: str) -> None:
    full = mw.colour_table(reading)
    assert all(len(row) == 9 for row in full)
    printed = seeds.colour_rows()
    for i, row in enumerate(printed):
        if i != mw.SHORT_ROW:
            assert list(full[i]) == row
    short = list(full[mw.SHORT_ROW])
    # the printed 8 cells are the full row with one cell taken out
    assert any(short[:k] + short[k + 1 :] == printed[mw.SHORT_ROW] for k in range(9))


def test_unknown_short_row_reading_is_refused() -> None:
    with pytest.raises(ValueError, match="gap_orange"):
        mw.colour_table("guess")


def test_results_table_matches_the_seed() -> None:
    text = seeds.between(seeds.seed_text(), "Red  \n(bad)", "ALL LOSSES IN STEPS")
    flat = " ".join(text.split())
    assert "40% 20% 10% Nil Merchant losses Nil Merchant losses" in flat
    assert "Orange 30% 10% 20% Merchant losses 1 per 2 interdicting units (round down)" in flat
    assert "Yellow 20% 10% 20% Merchant losses 1 per interdicting unit" in flat
    assert "Blue 10% 10% 20% Merchant losses 2 per interdicting unit" in flat
    assert "Green (Good) 10% NIL 30% Merchant losses 3 per interdicting unit." in flat
    r = mw.RESULTS
    assert [(r[c].raider_surface_pct, r[c].raider_sub_pct, r[c].escort_pct) for c in "ROYBG"] == [
        (40, 20, 10),
        (30, 10, 20),
        (20, 10, 20),
        (10, 10, 20),
        (10, 0, 30),
    ]
    assert [r[c].german_sub_rate for c in "ROYBG"] == [0, Fraction(1, 2), 1, 2, 3]
    assert [r[c].other_rate for c in "ROYBG"] == [0, 0, Fraction(1, 2), 1, 2]


@pytest.mark.parametrize(
    ("attack", "escort", "label"),
    [
        (1, 3, "1:3 or less"),
        (1, 2, "1:2"),
        (2, 3, "2:3"),
        (24, 18, "1:1"),
        (3, 2, "3:2"),
        (2, 1, "2:1"),
        (5, 2, "5:2"),
        (12, 4, "3:1"),
        (4, 1, "4:1 or more"),
        (40, 1, "4:1 or more"),
        (12, 0, "4:1 or more"),
    ],
)
def test_odds_columns(attack: int, escort: int, label: str) -> None:
    column = odds_column(attack, escort)
    assert column is not None and mw.ODDS_LABELS[column] == label


def test_the_odds_column_is_the_highest_the_ratio_reaches() -> None:
    """Every ratio of combat values up to 60 a side: the column is the highest whose odds
    the ratio, as an exact fraction, reaches (none below the first)."""
    for attack in range(1, 61):
        for escort in range(1, 61):
            ratio = Fraction(attack, escort)
            reached = [i for i, c in enumerate(mw.ODDS_COLUMNS) if ratio >= c]
            assert odds_column(attack, escort) == (reached[-1] if reached else None)


@pytest.mark.parametrize("colour", "ROYBG")
def test_tonnage_lost_rounds_each_kind_of_unit_down(colour: str) -> None:
    """*"1 per 2 interdicting units (round down)"*: German submarines and other units each
    at their colour's rate, each rounded down on its own, for every count up to 9."""
    rates = mw.RESULTS[colour]
    cvs, rolls = next(
        (cvs, (a, e))
        for cvs in ((1, 3), (2, 2), (4, 1), (3, 1))
        for a in range(1, 7)
        for e in range(1, 7)
        if resolve(MerchantCombat(*cvs), a, e).colour == colour
    )
    for subs in range(10):
        for others in range(10):
            combat = MerchantCombat(*cvs, german_sub_units=subs, other_units=others)
            r = resolve(combat, *rolls)
            assert r.colour == colour
            expected = int(subs * rates.german_sub_rate) + int(others * rates.other_rate)
            assert r.tonnage_lost == expected


def test_no_combat_below_1_to_3() -> None:
    assert odds_column(1, 4) is None
    assert odds_column(0, 4) is None
    assert not resolve(MerchantCombat(attack_cv=2, escort_cv=7), 6, 1).combat


def test_example_one_four_u_boat_flotillas_against_two_escort_forces() -> None:
    combat = MerchantCombat(attack_cv=4 * 3, escort_cv=2 * 2, german_sub_units=4)
    r = resolve(combat, attack_roll=1, escort_roll=2)
    assert mw.ODDS_LABELS[r.column] == "3:1" and r.difference == -1
    assert r.colour == "B"
    assert (r.tonnage_lost, r.escort_steps, r.raider_steps) == (8, 2, 0)


def test_example_two_eight_flotillas_against_a_mixed_escort() -> None:
    # RN escorts 4 x 2 = 8, Light Cruiser Force 4, escort carriers 6: total 18
    combat = MerchantCombat(attack_cv=8 * 3, escort_cv=8 + 4 + 6, german_sub_units=8)
    r = resolve(combat, attack_roll=3, escort_roll=1)
    assert mw.ODDS_LABELS[r.column] == "1:1" and r.difference == 2
    assert r.colour == "B"
    assert (r.tonnage_lost, r.escort_steps, r.raider_steps) == (16, 4, 1)


def test_example_three_us_submarines_against_an_unescorted_route() -> None:
    combat = MerchantCombat(attack_cv=4 * 3, escort_cv=0, other_units=4)
    r = resolve(combat, attack_roll=5, escort_roll=2)
    assert mw.ODDS_LABELS[r.column] == "4:1 or more" and r.difference == 3
    assert r.colour == "G"
    assert (r.tonnage_lost, r.raider_steps) == (8, 0)


def test_shifts_and_card_bonuses_move_the_cell() -> None:
    base = MerchantCombat(attack_cv=12, escort_cv=12, other_units=2)
    shifted = MerchantCombat(attack_cv=12, escort_cv=12, other_units=2, shift=2)
    assert resolve(base, 3, 3).column == 3 and resolve(shifted, 3, 3).column == 5
    bonus = MerchantCombat(attack_cv=12, escort_cv=12, other_units=2, attack_bonus=3)
    assert resolve(bonus, 3, 3).difference == 3
    beyond = MerchantCombat(attack_cv=40, escort_cv=10, shift=5)
    assert resolve(beyond, 3, 3).column == 8


def test_surface_raiders_use_the_surface_column() -> None:
    combat = MerchantCombat(attack_cv=10, escort_cv=10, other_units=2, surface_raider=True)
    r = resolve(combat, 1, 6)  # -5 at 1:1: Orange
    assert r.colour == "O" and r.raider_steps == 3 and r.tonnage_lost == 0


def test_exact_distribution_sums_to_one_and_matches_enumeration() -> None:
    combat = MerchantCombat(attack_cv=12, escort_cv=4, german_sub_units=4)
    dist = mw.distribution(combat)
    assert sum(dist.values()) == 1
    blue = sum(p for (colour, *_), p in dist.items() if colour == "B")
    cells = mw.colour_table()
    expected = sum(
        Fraction(1, 36)
        for a in range(1, 7)
        for e in range(1, 7)
        if cells[mw.dice_row(a - e)][7] == "B"
    )
    assert blue == expected


def test_the_short_row_option_offers_exactly_the_tables_readings() -> None:
    from campaign.options import RULE_OPTIONS

    rule = RULE_OPTIONS["colour_short_row"]
    assert set(rule.choices) == set(mw.SHORT_ROW_READINGS)
    assert rule.default == mw.DEFAULT_SHORT_ROW
