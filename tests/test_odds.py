"""Exact odds (campaign.odds) and the umpire's calculator (campaign.calculator).

The exact odds are checked three ways: against hand-worked cases read off the seed's
tables, against brute-force enumeration of every face through ``naval_combat.fire`` /
``merchant_warfare.resolve``, and against a large seeded sample of the same functions.
The calculator is checked on the damage-table cells and on the seed's three worked
merchant-warfare examples (002 "Examples of Calculating Merchant Warfare Losses").
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import TypeVar

import pytest

from campaign import merchant_warfare as mw
from campaign import naval_combat as nc
from campaign.calculator import calc_merchant, calc_naval, format_merchant, format_naval
from campaign.dice import SeededDice, UnloggedDice
from campaign.merchant_warfare import MerchantCombat
from campaign.naval_combat import CombatSide
from campaign.odds import (
    escort_steps_lost,
    fire_steps,
    merchant_odds,
    naval_odds,
    sample_combat,
    step_counts,
)

TRIALS = 20_000
K = TypeVar("K", bound=Hashable)


def within_4_se(exact: Mapping[K, Fraction], seen: Counter[K], n: int) -> None:
    """Every outcome's sample frequency is within 4 standard errors of its exact odds."""
    assert sum(exact.values()) == 1
    assert set(seen) <= set(exact), f"outcomes the exact odds call impossible: {seen}"
    for outcome, p in exact.items():
        freq = seen.get(outcome, 0) / n
        se = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(freq - float(p)) <= 4 * se, f"{outcome}: sample {freq:.4f}, exact {p}"


def winner(
    a: CombatSide,
    b: CombatSide,
    b_loses: int,
    a_loses: int,
    lost_a: Callable[[int], Fraction],
    lost_b: Callable[[int], Fraction],
    by_cv: bool,
) -> str:
    """An independent reading of the rule: a force sunk to the last unit (two steps a unit)
    cannot win; else most CV lost loses, equal losses the higher CV at the end wins; still
    level (or both sunk) the defender holds: "level"."""
    sunk_a, sunk_b = a_loses >= 2 * a.units, b_loses >= 2 * b.units
    if sunk_a and sunk_b:
        return "level"
    if sunk_a or sunk_b:
        return "b" if sunk_a else "a"
    la, lb = lost_a(a_loses), lost_b(b_loses)
    if la != lb:
        return "a" if lb > la else "b"
    left_a = max(a.cv - la, Fraction(0))
    left_b = max(b.cv - lb, Fraction(0))
    return "a" if left_a > left_b else "b" if left_b > left_a else "level"


def average_loss(side: CombatSide) -> Callable[[int], Fraction]:
    return lambda steps: min(Fraction(side.cv), Fraction(steps * side.cv, 2 * side.units))


# ---------------------------------------------------------------------- naval: exact


def test_cv_5_against_cv_5_read_off_the_table() -> None:
    # row 5 at rolls 1..6 (columns 1..6): 0 0 1 1 1 1
    odds = naval_odds(CombatSide("a", cv=5), CombatSide("b", cv=5))
    third, two_thirds = Fraction(1, 3), Fraction(2, 3)
    assert dict(odds.a_on_b) == dict(odds.b_on_a) == {0: third, 1: two_thirds}
    assert odds.joint == {
        (0, 0): third * third,
        (0, 1): third * two_thirds,
        (1, 0): two_thirds * third,
        (1, 1): two_thirds * two_thirds,
    }
    # one unit each, two steps sink it: none of these results sinks a force
    assert odds.p_a_wins == Fraction(2, 9)
    assert odds.p_tie_steps == Fraction(5, 9)
    assert odds.p_level == Fraction(5, 9)  # same CV and units: level, the defender holds
    assert odds.p_b_wins == Fraction(2, 9) + Fraction(5, 9)
    assert odds.a_fire.mean == pytest.approx(2 / 3)
    assert odds.a_fire.sd == pytest.approx(math.sqrt(2 / 9))


def test_equal_steps_go_to_the_side_with_more_cv_left() -> None:
    # b has two units: a step costs it 5/4 CV, a 5/2 — after 1 step each b has more left
    odds = naval_odds(CombatSide("a", cv=5), CombatSide("b", cv=5, units=2))
    assert odds.p_a_wins == Fraction(2, 9)
    assert odds.p_level == Fraction(1, 9)  # no losses at all: the defender holds
    assert odds.p_b_wins == Fraction(2, 9) + Fraction(4, 9) + Fraction(1, 9)


def test_a_force_sunk_to_the_last_unit_cannot_win() -> None:
    """The audit's case: a side that loses less CV but is wiped out does not hold the area
    (unless the rule option annihilated_can_win keeps the literal reading)."""
    # a: one cheap unit (2 CV lost when sunk); b: a big force losing 9 CV a step
    a, b = CombatSide("a", cv=40, units=1), CombatSide("b", cv=60, units=3)

    def a_lost(steps: int) -> int:
        return min(steps, 2) * 1  # a's unit is cheap to lose (its CV is its air)

    def b_lost(steps: int) -> int:
        return min(60, 9 * steps)

    odds = naval_odds(a, b, a_lost, b_lost, a_steps_to_sink=2)
    literal = naval_odds(a, b, a_lost, b_lost, a_steps_to_sink=2, annihilated_can_win=True)
    assert odds.p_a_sunk > 0
    assert odds.p_a_wins < literal.p_a_wins
    assert nc.battle_winner(2, 0, 9, 51, wiped_a=True) == (
        "b",
        "the other force was sunk to the last unit",
    )
    assert nc.battle_winner(2, 0, 9, 51, wiped_a=True, annihilated_can_win=True)[0] == "a"
    assert nc.battle_winner(5, 0, 5, 0, wiped_a=True, wiped_b=True)[0] == "b"
    assert nc.battle_winner(3, 7, 3, 7)[0] == "b"  # level: the defender holds


def test_modifiers_move_the_columns() -> None:
    # 60 v 20: a +2 (3:1), b -2. a: three dice on row 20 at rolls 3..8 -> 3 3 4 4 4 4.
    # b: row 20 at rolls -1..4 -> 2 2 3 3 3 3.
    odds = naval_odds(CombatSide("a", cv=60, units=6), CombatSide("b", cv=20, units=2))
    assert (odds.a_fire.drm, odds.b_fire.drm) == (2, -2)
    one = {3: Fraction(1, 3), 4: Fraction(2, 3)}
    three = {
        s: sum(
            (
                one[x] * one[y] * one[z]
                for x, y, z in itertools.product(one, repeat=3)
                if x + y + z == s
            ),
            Fraction(0),
        )
        for s in range(9, 13)
    }
    assert dict(odds.a_on_b) == three
    assert dict(odds.b_on_a) == {2: Fraction(1, 3), 3: Fraction(2, 3)}
    assert odds.p_a_wins == 1


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (CombatSide("a", cv=45, lsp=0), CombatSide("b", cv=15)),
        (CombatSide("a", cv=30, units=3, air_points=3), CombatSide("b", cv=22, units=2)),
        (CombatSide("a", cv=8, at_own_fleet_base_area=True), CombatSide("b", cv=27, die_bonus=1)),
        (CombatSide("a", cv=0), CombatSide("b", cv=12)),
    ],
)
def test_exact_odds_equal_brute_force_over_every_face(a: CombatSide, b: CombatSide) -> None:
    na, nb = len(nc.dice_for(a.cv)), len(nc.dice_for(b.cv))

    def lost_a(steps: int) -> int:  # a caller's loss order: 4 CV, then 3 per step
        return min(a.cv, 4 + 3 * (steps - 1)) if steps else 0

    def lost_b(steps: int) -> int:
        return min(b.cv, 2 * steps)

    for by_cv in (False, True):
        odds = naval_odds(a, b, a_cv_lost=lost_a, b_cv_lost=lost_b) if by_cv else naval_odds(a, b)
        assert odds.decided_by == ("cv" if by_cv else "estimated cv")
        joint: Counter[tuple[int, int]] = Counter()
        verdicts: Counter[str] = Counter()
        for faces in itertools.product(range(1, 7), repeat=na + nb):
            i = nc.fire(a, b, faces[:na]).steps
            j = nc.fire(b, a, faces[na:]).steps
            joint[(i, j)] += 1
            if by_cv:
                la: Callable[[int], Fraction] = lambda s: Fraction(lost_a(s))  # noqa: E731
                lb: Callable[[int], Fraction] = lambda s: Fraction(lost_b(s))  # noqa: E731
            else:
                la, lb = average_loss(a), average_loss(b)
            verdicts[winner(a, b, i, j, la, lb, by_cv)] += 1
        total = 6 ** (na + nb)
        assert odds.joint == {k: Fraction(v, total) for k, v in joint.items()}
        assert odds.p_a_wins == Fraction(verdicts["a"], total)
        assert odds.p_b_wins == Fraction(verdicts["b"] + verdicts["level"], total)
        assert odds.p_level == Fraction(verdicts["level"], total)
        assert odds.p_tie_steps == sum(
            (Fraction(v, total) for (i, j), v in joint.items() if i == j), Fraction(0)
        )


@pytest.mark.parametrize("cv", [1, 5, 20, 21, 45, 60, 99, 200, 260])
@pytest.mark.parametrize("drm", [-7, -3, 0, 2, 5])
def test_distributions_sum_to_one_and_match_step_distribution(cv: int, drm: int) -> None:
    counts = step_counts(cv, drm)
    assert sum(counts) == 6 ** len(nc.dice_for(cv))
    side = CombatSide("s", cv=cv, die_bonus=drm)
    enemy = CombatSide("e", cv=cv)  # equal CV: the card bonus is the only modifier
    odds = naval_odds(side, enemy)
    assert sum(odds.a_on_b.values()) == sum(odds.b_on_a.values()) == 1
    assert sum(odds.joint.values()) == 1
    assert odds.p_a_wins + odds.p_b_wins == 1
    assert dict(odds.a_on_b) == nc.step_distribution(side, enemy)


def test_fire_steps_is_fire() -> None:
    a, b = CombatSide("a", cv=45, lsp=0), CombatSide("b", cv=15, air_points=1)
    for faces in itertools.product(range(1, 7), repeat=3):
        assert fire_steps(a, b, faces) == nc.fire(a, b, faces).steps
    with pytest.raises(ValueError, match="rolls 3 dice"):
        fire_steps(a, b, [1])


def test_sample_combat_is_step_8s_fire_with_the_same_dice_and_logs_nothing() -> None:
    """The bulk path rolls what step 8 rolls (a's dice, then b's, from the same stream) and
    reads the same steps as ``fire``; its dice are in no log."""
    sides = [
        CombatSide("a", cv=45, lsp=0),
        CombatSide("b", cv=15, air_points=1, column_shift=1),
        CombatSide("c", cv=0),
        CombatSide("d", cv=61, units=3, at_own_fleet_base_area=True, die_bonus=2),
        CombatSide("e", cv=7, minor_invasion_without_landing_craft=True),
    ]
    game, bulk = SeededDice("combats"), UnloggedDice("combats")
    for a, b in itertools.product(sides, repeat=2):
        for _ in range(20):
            rolls_a = game.rolls(len(nc.dice_for(a.cv)), "a fire")
            rolls_b = game.rolls(len(nc.dice_for(b.cv)), "b fire")
            expected = (nc.fire(a, b, rolls_a).steps, nc.fire(b, a, rolls_b).steps)
            assert sample_combat(a, b, bulk) == expected
    assert bulk.counter == game.counter
    assert bulk.log.rolls == []


def test_large_forces_are_enumerated_by_convolution() -> None:
    # 10 + 10 dice: 6**20 products would never finish; timings live in bench/combat_bench.py
    odds = naval_odds(CombatSide("a", cv=200, units=20), CombatSide("b", cv=190, units=18))
    assert len(odds.a_fire.dice) == len(odds.b_fire.dice) == 10
    assert sum(odds.joint.values()) == 1
    # ten independent dice on row 20 at rolls 1..6: 3 3 3 3 4 4 each
    assert dict(odds.a_on_b) == {
        30 + k: Fraction(math.comb(10, k) * 4 ** (10 - k) * 2**k, 6**10) for k in range(11)
    }


# ---------------------------------------------------------------------- naval: sample


@pytest.mark.slow
def test_seeded_sample_agrees_with_exact_naval_odds() -> None:
    a = CombatSide("a", cv=25, units=2)
    b = CombatSide("b", cv=22, units=1)
    odds = naval_odds(a, b)
    assert all(0.1 < float(p) < 0.9 for p in (odds.p_a_wins, odds.p_b_wins))
    dice = SeededDice("odds-naval")
    joint: Counter[tuple[int, int]] = Counter()
    a_side: Counter[int] = Counter()
    verdicts: Counter[str] = Counter()
    for _ in range(TRIALS):
        i = nc.fire(a, b, dice.rolls(len(nc.dice_for(a.cv)), "a fires")).steps
        j = nc.fire(b, a, dice.rolls(len(nc.dice_for(b.cv)), "b fires")).steps
        joint[(i, j)] += 1
        a_side[i] += 1
        verdicts[winner(a, b, i, j, average_loss(a), average_loss(b), by_cv=False)] += 1
    within_4_se(odds.joint, joint, TRIALS)
    within_4_se(odds.a_on_b, a_side, TRIALS)
    exact_verdicts = {
        "a": odds.p_a_wins,
        "b": odds.p_b_wins - odds.p_level,
        "level": odds.p_level,
    }
    within_4_se({k: v for k, v in exact_verdicts.items() if v}, verdicts, TRIALS)


# -------------------------------------------------------------------- merchant: exact


def test_merchant_odds_example_one_by_hand() -> None:
    # 3:1 column: Yellow at -6..-4 (3 pairs), Blue at -3..-1 (12), Green at 0 and up (21)
    odds = merchant_odds(MerchantCombat(attack_cv=12, escort_cv=4, german_sub_units=4))
    assert odds.column_label == "3:1"
    assert dict(odds.colours) == {
        "Y": Fraction(3, 36),
        "B": Fraction(12, 36),
        "G": Fraction(21, 36),
    }
    # tonnage: 4 x 1, 4 x 2, 4 x 3; escorts 20% or 30% of 12; subs 10% / 0% of 4 -> 0
    assert dict(odds.tonnage_lost) == {
        4: Fraction(3, 36),
        8: Fraction(12, 36),
        12: Fraction(21, 36),
    }
    assert dict(odds.escort_steps) == {2: Fraction(15, 36), 3: Fraction(21, 36)}
    assert dict(odds.raider_steps) == {0: Fraction(1)}


def test_merchant_odds_without_combat_and_without_escorts() -> None:
    none = merchant_odds(MerchantCombat(attack_cv=1, escort_cv=4, other_units=1))
    assert dict(none.colours) == {"none": Fraction(1)}
    assert none.column is None and none.column_label == "no combat"
    assert dict(none.tonnage_lost) == {0: Fraction(1)}
    assert "no combat" in none.format()
    bare = merchant_odds(MerchantCombat(attack_cv=12, escort_cv=0, other_units=4))
    assert dict(bare.escort_steps) == {0: Fraction(1)}  # nobody there to lose steps
    assert escort_steps_lost(MerchantCombat(attack_cv=12, escort_cv=0), 3) == 0
    with pytest.raises(ValueError, match="gap_orange"):
        merchant_odds(MerchantCombat(attack_cv=12, escort_cv=4), "guess")


@pytest.mark.parametrize("reading", sorted(mw.SHORT_ROW_READINGS))
@pytest.mark.parametrize(
    "combat",
    [
        MerchantCombat(attack_cv=24, escort_cv=18, german_sub_units=8),
        MerchantCombat(attack_cv=10, escort_cv=10, other_units=2, surface_raider=True, shift=1),
        MerchantCombat(attack_cv=6, escort_cv=12, other_units=3, attack_bonus=2, escort_bonus=1),
        MerchantCombat(attack_cv=12, escort_cv=0, other_units=4, shift=-2),
        MerchantCombat(attack_cv=3, escort_cv=20, german_sub_units=2),  # no combat
        MerchantCombat(attack_cv=40, escort_cv=4, german_sub_units=9, attack_bonus=-3, shift=3),
    ],
)
def test_merchant_odds_equal_merchant_distribution(combat: MerchantCombat, reading: str) -> None:
    odds = merchant_odds(combat, reading)
    colours: dict[str, Fraction] = {}
    raider: dict[int, Fraction] = {}
    escort: dict[int, Fraction] = {}
    tonnage: dict[int, Fraction] = {}
    for (colour, raider_steps, escort_steps, tons), p in mw.distribution(combat, reading).items():
        for tally, key in ((raider, raider_steps), (escort, escort_steps), (tonnage, tons)):
            tally[key] = tally.get(key, Fraction(0)) + p
        colours[colour] = colours.get(colour, Fraction(0)) + p
    assert dict(odds.colours) == colours
    assert (dict(odds.raider_steps), dict(odds.escort_steps), dict(odds.tonnage_lost)) == (
        raider,
        escort,
        tonnage,
    )
    for d in (odds.colours, odds.raider_steps, odds.escort_steps, odds.tonnage_lost):
        assert sum(d.values()) == 1


@pytest.mark.slow
def test_seeded_sample_agrees_with_exact_merchant_odds() -> None:
    combat = MerchantCombat(attack_cv=24, escort_cv=18, german_sub_units=8, escort_bonus=1)
    odds = merchant_odds(combat)
    dice = SeededDice("odds-merchant")
    colours: Counter[str] = Counter()
    tonnage: Counter[int] = Counter()
    raiders: Counter[int] = Counter()
    escorts: Counter[int] = Counter()
    for _ in range(TRIALS):
        r = mw.resolve(combat, dice.roll("interdictor"), dice.roll("escort"))
        colours[r.colour] += 1
        tonnage[r.tonnage_lost] += 1
        raiders[r.raider_steps] += 1
        escorts[r.escort_steps] += 1
    within_4_se(odds.colours, colours, TRIALS)
    within_4_se(odds.tonnage_lost, tonnage, TRIALS)
    within_4_se(odds.raider_steps, raiders, TRIALS)
    within_4_se(odds.escort_steps, escorts, TRIALS)


# ------------------------------------------------------------------- output formats


def test_to_dict_is_json_with_rounded_floats_and_exact_fractions() -> None:
    odds = naval_odds(CombatSide("a", cv=5), CombatSide("b", cv=5))
    data = json.loads(json.dumps(odds.to_dict()))
    assert data["a_wins"] == {"p": 0.222222, "exact": "2/9"}
    assert data["level_defender_holds"]["exact"] == "5/9"
    assert data["b_wins"]["exact"] == "7/9"
    assert data["a_fire"]["steps"] == [
        {"steps": 0, "p": 0.333333, "exact": "1/3"},
        {"steps": 1, "p": 0.666667, "exact": "2/3"},
    ]
    assert sum(Fraction(row["exact"]) for row in data["joint"]) == 1
    m = json.loads(json.dumps(merchant_odds(MerchantCombat(12, 4, german_sub_units=4)).to_dict()))
    assert m["colours"]["Green"] == {"p": 0.583333, "exact": "7/12"}
    assert m["colours"]["Red"]["exact"] == "0/1"
    assert m["tonnage_lost"]["mean_exact"] == "10/1"


def test_format_shows_a_table_with_bars_and_mean_sd() -> None:
    text = naval_odds(CombatSide("Royal Navy", cv=5), CombatSide("Regia Marina", cv=5)).format()
    assert "Royal Navy wins" in text and "22.2%" in text and "█" in text
    assert "mean 0.67 ± 0.47" in text
    merchant = merchant_odds(MerchantCombat(12, 4, german_sub_units=4)).format()
    assert "Green" in merchant and "58.3%" in merchant and "10.00 ± 2.58" in merchant


# ----------------------------------------------------------------------- calculator


def test_calc_naval_cells() -> None:
    result = calc_naval(45, [6, 4, 1], drm=-1)
    assert [
        (d["cv"], d["roll"], d["modified"], d["column"], d["steps"]) for d in result["dice"]
    ] == [
        (20, 6, 5, "5", 4),
        (20, 4, 3, "3", 3),
        (5, 1, 0, "0", 0),
    ]
    assert result["steps"] == 7
    assert calc_naval(5, [6], drm=9)["dice"][0]["column"] == "12 +"
    assert calc_naval(20, [1], drm=-9)["dice"][0] | {"die": 1} == {
        "die": 1,
        "cv": 20,
        "roll": 1,
        "modified": -8,
        "column": "-2 or less",
        "column_read": -2,
        "steps": 2,
    }
    assert calc_naval(0, [])["steps"] == 0
    text = format_naval(result)
    assert "total: 7 steps" in text and "-2 or less" in format_naval(calc_naval(20, [1], -9))


def test_calc_naval_agrees_with_fire_for_every_face() -> None:
    for cv, drm in [(13, 0), (20, 3), (33, -2)]:
        side = CombatSide("s", cv=cv, die_bonus=drm)
        enemy = CombatSide("e", cv=cv)
        for faces in itertools.product(range(1, 7), repeat=len(nc.dice_for(cv))):
            assert calc_naval(cv, list(faces), drm)["steps"] == nc.fire(side, enemy, faces).steps


def test_calc_merchant_example_one() -> None:
    r = calc_merchant(12, 4, attack_roll=1, escort_roll=2, attacker="german-sub", attackers=4)
    assert (r["odds_column"], r["difference"], r["row"], r["colour"]) == ("3:1", -1, "-1", "Blue")
    assert (r["tonnage_lost"], r["escort_steps"], r["raider_steps"]) == (8, 2, 0)
    assert "BLUE" in format_merchant(r) and "Blue" in r["description"]


def test_calc_merchant_example_two() -> None:
    r = calc_merchant(24, 18, attack_roll=3, escort_roll=1, attacker="german-sub", attackers=8)
    assert (r["odds_column"], r["difference"], r["colour"]) == ("1:1", 2, "Blue")
    assert (r["tonnage_lost"], r["escort_steps"], r["raider_steps"]) == (16, 4, 1)


def test_calc_merchant_example_three() -> None:
    r = calc_merchant(12, 0, attack_roll=5, escort_roll=2, attacker="sub", attackers=4)
    assert (r["odds_column"], r["difference"], r["colour"]) == ("4:1 or more", 3, "Green")
    assert (r["tonnage_lost"], r["raider_steps"], r["escort_steps"]) == (8, 0, 0)


def test_calc_merchant_attackers_shift_and_bonuses() -> None:
    surface = calc_merchant(10, 10, 1, 6, "surface-heavy", 2)
    assert (surface["colour"], surface["raider_steps"], surface["tonnage_lost"]) == ("Orange", 3, 0)
    assert "shift +2" in format_merchant(surface)  # the outclassing reminder
    shifted = calc_merchant(10, 10, 3, 3, "surface-light", 2, shift=2, bonus=1, escort_bonus=2)
    assert (shifted["base_odds_column"], shifted["odds_column"]) == ("1:1", "2:1")
    assert shifted["difference"] == -1
    sub = calc_merchant(12, 12, 6, 1, "sub", 3, bonus=1)  # +6 at 1:1: Green, subs NIL
    assert (sub["colour"], sub["tonnage_lost"], sub["raider_steps"]) == ("Green", 6, 0)
    none = calc_merchant(2, 7, 6, 1, "sub", 1)
    assert not none["combat"] and none["colour"] is None and "no combat" in format_merchant(none)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: calc_naval(45, [6, 4]), "CV 45 needs 3 dice"),
        (lambda: calc_naval(20, [3, 3]), "CV 20 needs 1 die"),
        (lambda: calc_naval(5, [7]), r"1–6"),
        (lambda: calc_naval(5, [0]), r"1–6"),
        (lambda: calc_naval(-1, []), "negative"),
        (lambda: calc_naval(5, [True]), "whole number"),
        (lambda: calc_merchant(12, 4, 7, 2, "german-sub", 4), r"interdictor's roll .*1–6"),
        (lambda: calc_merchant(12, 4, 1, 0, "german-sub", 4), r"escort's roll .*1–6"),
        (lambda: calc_merchant(12, 4, 1, 2, "u-boat", 4), "german-sub, sub, surface-heavy"),
        (lambda: calc_merchant(12, 4, 1, 2, "sub", 0), "at least 1 interdicting unit"),
        (lambda: calc_merchant(0, 4, 1, 2, "sub", 1), "at least 1"),
        (lambda: calc_merchant(12, -4, 1, 2, "sub", 1), "negative"),
        (lambda: calc_merchant(12, 4, 1, 2, "sub", 1, short_row="x"), "gap_orange"),
    ],
)
def test_invalid_inputs_are_clear_value_errors(call: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()
