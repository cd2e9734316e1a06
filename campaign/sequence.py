"""002 "Turn sequence": the ten steps of a two-month turn, by number, name and the seed's
words.

This is what the screens, reports and team packs name; the rules that run each step are
:data:`campaign.turn.STEPS`, built from these. Kept apart so that naming a step does not
load every step's rules (the program's start-up reads this module, not those).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StepName:
    number: int
    name: str
    #: the seed's words for the step
    seed: str


#: 002 "Turn sequence": the ten steps, in the seed's order.
SEQUENCE: tuple[StepName, ...] = (
    StepName(
        1,
        "Move supplies",
        "Move supplies (including LSP) using Tonnage points left over from the previous turn.",
    ),
    StepName(2, "New production", "Add new ship production to nearest fleet base to the shipyard."),
    StepName(3, "Strategic transfers", "Strategic base to base transfers."),
    StepName(4, "Merchant tonnage", "Allocate available tonnage points to merchant routes."),
    StepName(
        5,
        "Allocate units",
        "Allocate units available to merchant shipping protection, task forces or attacking "
        "merchant shipping.",
    ),
    StepName(
        6,
        "Operations Flags",
        "Allocate Naval Operations Flags to the map area you wish to conduct operations in.",
    ),
    StepName(7, "Advantage Cards", "Play Advantage Cards."),
    StepName(8, "Naval operations", "Assess results of Naval Operations."),
    StepName(9, "Merchant warfare", "Calculate effects of Merchant Warfare."),
    StepName(
        10, "Repairs", "Update repairs on damaged units that have spent the turn in a Fleet Base."
    ),
)
