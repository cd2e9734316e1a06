"""The two-month turn: 002 "Turn sequence", ten steps in the seed's order.

:data:`STEPS` lists the steps as data (their names are :mod:`campaign.sequence`'s), each
with the function that runs it. A step is a function of a :class:`Turn` (the scenario, the
state it changes, every nation's orders, the dice and the owner's loss choices) that
appends :class:`~campaign.events.Event`\\ s. The orders are checked whole before step 1 runs
(:func:`campaign.rules.check_turn`).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .allocation import allocate_units, place_flags
from .cards import play_cards
from .context import Turn
from .logistics import allocate_tonnage, move_supplies, strategic_transfers
from .merchant_warfare import merchant_warfare
from .operations import naval_operations
from .production import new_production, with_production
from .record import TurnRecord
from .repairs import repairs
from .sequence import SEQUENCE, StepName

__all__ = ["STEPS", "Step", "Turn", "end_turn", "older_objects_set_aside", "with_production"]


@dataclass(frozen=True)
class Step(StepName):
    """A step of the sequence with the function that runs it."""

    run: Callable[[Turn], None]


#: the rules of each step of 002 "Turn sequence" (:data:`~campaign.sequence.SEQUENCE`)
RULES: tuple[Callable[[Turn], None], ...] = (
    move_supplies,  # 1
    new_production,  # 2
    strategic_transfers,  # 3
    allocate_tonnage,  # 4
    allocate_units,  # 5
    place_flags,  # 6
    play_cards,  # 7
    naval_operations,  # 8
    merchant_warfare,  # 9
    repairs,  # 10
)

#: 002 "Turn sequence": the ten steps, in the seed's order, each with its rules.
STEPS: tuple[Step, ...] = tuple(
    Step(step.number, step.name, step.seed, run) for step, run in zip(SEQUENCE, RULES, strict=True)
)


@contextlib.contextmanager
def older_objects_set_aside() -> Iterator[None]:
    """Resolve a turn with the garbage collector looking only at the objects the turn makes.

    Everything made before (the scenario, the state, the program) is set aside with
    :func:`gc.freeze` for the block and given back after it. A turn of a large game makes
    enough objects to start a full collection, which walked every object of the game: a
    third of a turn on a world 100 times the 1942 one, and the reason its turn grew faster
    than the world (bench/turn_bench.py). The collector is also paused for the block: a
    turn leaves no cyclic garbage to speak of, yet its young collections, each checking what
    the new objects refer to across the whole game, still cost a tenth of that turn.

    What the turn made and kept (its events, the state's new parts) joins the oldest
    generation with the rest when the block ends, unwalked: a turn makes no cyclic garbage
    (a full collection after a turn finds none, in the 1942 game and the synthetic worlds
    alike), and the young collection the collector would otherwise start at once walked
    every object the turn made, 4% of a turn at 100 times the 1942 world. The collector
    runs again afterwards (if it ran before); its next full collection looks at them too,
    so nothing a turn makes is left uncollected for good.
    """
    gc.freeze()
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()  # the turn's objects join the set-aside ones (and the young count is 0)
        gc.unfreeze()  # and all go back, into the oldest generation
        if enabled:
            gc.enable()


def end_turn(t: Turn) -> None:
    """After step 10: the next turn begins with its orders still to give."""
    t.state.contested = t.record.contested_next
    t.state.turn_record = TurnRecord()
    t.state.turn += 1
    t.state.step = 0
    t.emit(
        "turn_started", f"Turn {t.state.turn} begins ({t.scenario.meta.period_of(t.state.turn)})."
    )
