"""The check every rule set offering ``rematch`` must pass (an odds preview fights its
battles from one unplayed opening)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.dice import Dice, SeededDice
from campaign.tactical import BattleSetup, run


def assert_rematches_are_fresh_battles(
    factory: Callable[[BattleSetup, Dice], Any], setup: BattleSetup, battles: int
) -> None:
    """Each rematch of one opening is the battle made afresh from the set-up with the same
    dice: the same dice rolled for the same purposes, the same words, the same end; and
    playing one leaves the opening as it was (the next rematch would differ otherwise)."""
    opening = factory(setup, SeededDice("unused"))
    for i in range(battles):
        fresh_dice, again_dice = SeededDice(f"r/{i}"), SeededDice(f"r/{i}")
        fresh = run(factory(setup, fresh_dice))
        again = run(opening.rematch(again_dice))
        assert again == fresh
        assert [r.body() for r in again_dice.log.rolls] == [r.body() for r in fresh_dice.log.rolls]
    begun = factory(setup, SeededDice(1))
    begun.step()
    with pytest.raises(ValueError, match="already begun"):
        begun.rematch(SeededDice(2))
