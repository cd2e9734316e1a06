"""What every tactical rule set promises (campaign.tactical.TacticalBattle): the set-up is
never changed, and a battle fought without words (an odds preview) rolls the same dice to
the same outcome as the narrated one."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.tactical import RULE_SETS, BattleResult, BattleSetup, run
from campaign.tactical.preview import PreviewDice
from campaign.tactical.simulate import available

ROOT = Path(__file__).resolve().parent.parent
SETUPS = {
    "carrier": "midway.json",
    "fastplay": "fastplay-example.json",
    "surface": "surface-example.json",
    "airstrike": "airstrike-example.json",
}


def test_every_rule_set_has_an_example_here() -> None:
    assert sorted(SETUPS) == available()


def _outcome(result: BattleResult) -> tuple[object, ...]:
    ships = sorted((s.id, s.state, s.damage, tuple(s.notes)) for s in result.ships.values())
    groups = sorted((g.id, g.lost) for g in result.air_groups.values())
    return result.turns, result.winner, tuple(ships), tuple(groups)


def _where(dice: PreviewDice) -> tuple[int, int, float]:
    """Where preview dice stand: the six-sided dice left of the last draw, the next draw."""
    return dice._left, dice._bank, dice._random()


@pytest.mark.parametrize("rule_set", sorted(SETUPS))
def test_quiet_battles_match_narrated_ones_and_leave_the_setup_alone(rule_set: str) -> None:
    available()
    setup = BattleSetup.load(ROOT / "data" / "battles" / SETUPS[rule_set])
    before = setup.to_json()
    factory = RULE_SETS[rule_set]
    outcomes = set()
    for seed in range(25):
        told_dice, quiet_dice = PreviewDice(seed), PreviewDice(seed)
        told = run(factory(setup, told_dice))
        battle = factory(setup, quiet_dice)
        battle.narrate = False
        quiet = run(battle)
        assert _outcome(quiet) == _outcome(told), f"seed {seed}"
        assert _where(told_dice) == _where(quiet_dice), f"seed {seed}: other dice rolled"
        assert told.log and not quiet.log
        outcomes.add(_outcome(told))
    assert setup.to_json() == before
    assert len(outcomes) > 1  # the seeds really gave different battles


@pytest.mark.parametrize("rule_set", sorted(SETUPS))
def test_the_outcome_is_what_the_result_reports(rule_set: str) -> None:
    """``outcome()`` (what an odds preview counts, copying nothing) gives the winner and
    every ship's state as ``result()`` does, in the result's order, at every turn."""
    available()
    setup = BattleSetup.load(ROOT / "data" / "battles" / SETUPS[rule_set])
    factory = RULE_SETS[rule_set]
    states = set()
    for seed in range(15):
        battle = factory(setup, PreviewDice(f"outcome/{seed}"))
        battle.narrate = False
        for _turn in range(200):
            result = battle.result()
            expected = (result.winner, {sid: s.state for sid, s in result.ships.items()})
            winner, fates = battle.outcome()
            assert (winner, list(fates.items())) == (expected[0], list(expected[1].items()))
            if battle.finished:
                break
            battle.step()
        states.add(tuple(fates.values()))
    assert len(states) > 1  # battles that end differently were compared
