"""The default owner's choice of step losses (campaign.losses.SpreadLosses)."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from campaign.context import unit_casualty
from campaign.forces import fleet_cv
from campaign.losses import (
    Casualty,
    LossAllocationError,
    LossRequest,
    SpreadLosses,
    check_allocation,
)
from campaign.state import Unit


def unit(cid: str, type_: str, steps: int, now: int, after: int, two: int = 0) -> Casualty:
    return Casualty(cid, "usa", "unit", cid, type_, steps, now, after, two)


def take(steps: int, *candidates: Casualty, protect: tuple[str, ...] = ()) -> list[str]:
    request = LossRequest("Allies", ("usa",), steps, candidates, protect=protect)
    chosen = SpreadLosses().allocate(request)
    check_allocation(request, chosen)
    return chosen


DMG_ESCORT = unit("dmg_escort", "escort", 1, 0, 0)
DMG_HEAVY = unit("dmg_heavy", "heavy", 1, 2, 0)
HEAVY = unit("heavy", "heavy", 2, 5, 2, 0)
CARRIERS = unit("carriers", "fleet_carrier", 2, 11, 1, 0)


def test_ready_units_are_damaged_before_anything_is_sunk() -> None:
    # "spreads damage before sinking anything": the ready heavy group is damaged first,
    # then the cheapest sinking is the damaged escort (no CV), not the damaged heavy
    assert take(2, DMG_ESCORT, DMG_HEAVY, HEAVY) == ["heavy", "dmg_escort"]


def test_the_unit_losing_least_combat_value_is_damaged_first() -> None:
    # a carrier group's first step costs 10 CV (its Air Point goes ashore), a heavy's 3
    assert take(1, CARRIERS, HEAVY) == ["heavy"]
    assert take(2, CARRIERS, HEAVY) == ["heavy", "carriers"]
    # the third step sinks the cheaper of the two now damaged (heavy 2 CV, carriers 1 CV)
    assert take(3, CARRIERS, HEAVY) == ["heavy", "carriers", "carriers"]


def test_garrisons_and_air_go_at_their_first_step_troops_last() -> None:
    garrison = Casualty("g", "usa", "garrison", "garrison", steps_left=1, cv_now=8)
    troops = Casualty("m", "usa", "manpower", "manpower", steps_left=1, cv_now=8)
    assert take(1, troops, garrison, protect=("manpower",)) == ["g"]
    assert take(2, troops, garrison, HEAVY, protect=("manpower",)) == ["heavy", "g"]
    assert take(4, troops, garrison, HEAVY, protect=("manpower",)) == [
        "heavy",
        "g",
        "heavy",
        "m",
    ]


def test_a_loss_larger_than_the_force_takes_everything() -> None:
    assert take(3, HEAVY) == ["heavy", "heavy"]


def test_a_hand_choice_of_the_wrong_size_or_unit_is_refused() -> None:
    request = LossRequest("Allies", ("usa",), 2, (HEAVY, DMG_ESCORT))
    for bad in (["heavy"], ["heavy", "nobody"], ["dmg_escort", "dmg_escort"]):
        with pytest.raises(LossAllocationError):
            check_allocation(request, bad)


def test_a_unit_weighed_for_a_loss_keeps_everything_but_its_state_and_air() -> None:
    """``Unit.in_state`` copies field by field: every field of the unit is copied, so a
    field added to units later cannot be dropped from the copy unnoticed."""
    values: dict[str, object] = {}
    for f in fields(Unit):
        values[f.name] = True if f.type in ("bool", bool) else f"{f.name} value"
    unit = Unit(**values)  # type: ignore[arg-type]
    for state in ("damaged", "sunk"):
        assert unit.in_state(state) == replace(unit, state=state, carries_air=False)
    assert unit.state == "state value" and unit.carries_air  # the unit itself unchanged
    carrier = Unit("cv", "usa", "fleet_carrier", "CV", "pearl_harbour", "ready", True)
    casualty = unit_casualty(carrier, fleet_cv)
    assert (casualty.cv_now, casualty.steps_left) == (fleet_cv(carrier), 2)
    after = (fleet_cv(carrier.in_state("damaged")), fleet_cv(carrier.in_state("sunk")))
    assert (casualty.cv_after_step, casualty.cv_after_two) == after
    assert casualty.cv_now > fleet_cv(replace(carrier, carries_air=False)) > after[0]
