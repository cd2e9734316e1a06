"""Dice: seeded rolls never change, scripted rolls catch extra rolls, typed-in rolls are
checked, and the hash-chained log catches any tampering."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from campaign.dice import (
    DiceError,
    DiceLog,
    ManualDice,
    ScriptedDice,
    SeededDice,
    UnloggedDice,
    verify_chain,
)


def test_seeded_dice_are_the_same_on_every_run_and_version() -> None:
    # Golden values: roll n of seed s is sha256(f"{s}:{n}")'s first 8 bytes mod 6, plus 1.
    # If these change, saved games no longer replay.
    assert SeededDice(1942).rolls(12, "golden") == [5, 4, 4, 6, 5, 5, 3, 2, 3, 5, 1, 3]
    assert SeededDice("midway").roll("x", sides=100) == SeededDice("midway").roll("y", sides=100)


def test_unlogged_dice_roll_the_seeded_stream_and_log_nothing() -> None:
    logged, quiet = SeededDice("same"), UnloggedDice("same")
    asked = [(6, 1), (10, 1), (6, 5), (3, 2), (100, 1), (6, 1), (2, 7), (6, 40)]
    for sides, count in asked:
        want = [logged.roll("x", sides) for _ in range(count)]
        assert quiet.rolls(count, "x", sides) == want
        assert quiet.roll("y", sides) == logged.roll("y", sides)
    assert logged.counter == quiet.counter
    assert quiet.log.rolls == []
    with pytest.raises(ValueError, match="at least 2 sides"):
        quiet.rolls(2, "x", sides=1)


def test_seeded_dice_are_fair_enough() -> None:
    dice = SeededDice(7)
    counts = Counter(dice.roll("fairness") for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(880 < n < 1120 for n in counts.values())


def test_every_roll_is_logged_with_its_purpose() -> None:
    dice = SeededDice(3)
    dice.turn, dice.step = 2, 8
    dice.roll("TF 17 fires at Kido Butai")
    dice.roll("TF 17 fires at Kido Butai", reason="re-roll: die fell off the table")
    first, second = dice.log.rolls
    assert (first.seq, first.purpose, first.turn, first.step, first.source) == (
        1,
        "TF 17 fires at Kido Butai",
        2,
        8,
        "seeded",
    )
    assert second.reason.startswith("re-roll") and second.prev_hash == first.hash
    assert verify_chain(dice.log.rolls) == []


def test_scripted_dice_fail_on_an_unexpected_extra_roll() -> None:
    dice = ScriptedDice([3, 5])
    assert dice.rolls(2, "two dice") == [3, 5]
    with pytest.raises(DiceError, match="unexpected extra roll for 'third'"):
        dice.roll("third")
    with pytest.raises(DiceError, match="not a face"):
        ScriptedDice([7]).roll("d6")


def test_manual_dice_accept_only_legal_values() -> None:
    typed = iter([0, 7, 4])
    asked = []

    def ask(purpose: str, sides: int) -> int:
        asked.append((purpose, sides))
        return next(typed)

    dice = ManualDice(ask)
    assert dice.roll("Escort roll, route 1") == 4
    assert asked == [("Escort roll, route 1", 6)] * 3
    assert [r.value for r in dice.log.rolls] == [4]
    assert dice.log.rolls[0].source == "manual"
    with pytest.raises(DiceError):
        ManualDice(lambda p, s: 9, attempts=2).roll("never legal")


def chain() -> DiceLog:
    dice = SeededDice(11)
    dice.rolls(5, "chain")
    return dice.log


def test_an_edited_roll_is_detected() -> None:
    rolls = chain().rolls
    rolls[2] = replace(rolls[2], value=6 if rolls[2].value != 6 else 1)
    assert verify_chain(rolls) == ["roll 3: its contents were changed after it was rolled"]


def test_a_removed_roll_is_detected() -> None:
    rolls = chain().rolls
    del rolls[1]
    problems = verify_chain(rolls)
    assert "roll 3: expected 2 here (removed or moved)" in problems
    assert "roll 3: does not follow the roll before it" in problems


def test_reordered_rolls_are_detected() -> None:
    rolls = chain().rolls
    rolls[1], rolls[2] = rolls[2], rolls[1]
    assert len(verify_chain(rolls)) >= 2


def test_the_head_anchors_the_whole_log() -> None:
    a, b = chain(), chain()
    assert a.head == b.head and len(a.head) == 64
    assert DiceLog().head == "0" * 64
