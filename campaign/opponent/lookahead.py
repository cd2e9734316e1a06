"""Look-ahead: a candidate plan resolved on the belief state, and what it is worth.

A turn of the 1942 world resolves in a few milliseconds, so the computer can play a plan
out: the ten steps (:data:`campaign.turn.STEPS`) on a copy of its belief state, with the
candidate orders for its nation, its allies' orders and the enemy model's, on a few dice
seeds of its own; the turn is then scored (:func:`campaign.score.turn_score`) and the
parts weighed by the nation's posture.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..dice import UnloggedDice
from ..options import option
from ..orders import Orders
from ..scenario import Scenario
from ..score import SIDES, Baseline, TurnScore, enemy_of, turn_score
from ..state import GameState
from ..turn import STEPS, Turn, end_turn
from .planner import Posture


def posture_value(
    score: TurnScore, side: str, posture: Posture, scenario: Scenario, baseline: Baseline
) -> float:
    """The turn's net score for ``side``, each part weighed by the posture."""
    if side not in SIDES:
        return 0.0
    o = scenario.meta.options
    foe = enemy_of(side)

    def parts(s: str) -> tuple[float, float, float, float]:
        x = score.sides[s]
        other = enemy_of(s)
        delivered = float(option(o, "score_delivered")) * x.delivered
        sunk = float(option(o, "score_tonnage_sunk")) * 100 * x.tonnage_sunk
        sunk /= max(baseline.tonnage[other], 1)
        fleet = float(option(o, "score_fleet_cv")) * 100 * x.fleet_cv
        fleet /= max(baseline.fleet_cv[other], 1)
        ground = (
            float(option(o, "score_base")) * x.bases
            + float(option(o, "score_sea_area")) * x.sea_areas
            + float(option(o, "score_invasion")) * x.invasions
        )
        return delivered, sunk, fleet, ground

    md, ms, mf, mg = parts(side)
    fd, fs, ff, fg = parts(foe)
    return (
        posture.delivered * (md - fd)
        + posture.sunk * ms
        - posture.delivered * fs
        + posture.fleet * (mf - ff)
        + posture.ground * (mg - fg)
    )


def play_out(
    scenario: Scenario,
    belief: GameState,
    frozen: str,
    orders: Mapping[str, Orders],
    side: str,
    posture: Posture,
    seeds: int,
    baseline: Baseline,
) -> float:
    """The mean posture-weighted value of resolving the turn with ``orders`` on the belief,
    over ``seeds`` dice streams of the computer's own (never the game's). ``frozen``:
    the belief as JSON (``belief.to_json()``, made once for all the plans tried)."""
    total = 0.0
    for s in range(seeds):
        work = GameState.from_json(frozen)
        # the faces of SeededDice, logged nowhere: an imagined turn is not part of the game
        turn = Turn(scenario, work, orders, UnloggedDice(f"lookahead/{belief.turn}/{s}"))
        for step in STEPS:
            work.step = step.number
            step.run(turn)
        end_turn(turn)
        score = turn_score(scenario, belief, work, turn.events, baseline)
        total += posture_value(score, side, posture, scenario, baseline)
    return total / max(seeds, 1)
