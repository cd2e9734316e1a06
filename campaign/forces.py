"""Combat values of groups of units, as the combat rules need them.

002 "Unit Characteristics" gives each unit three values; carriers add the Air Point they
carry; damaged units fight at half (rounded down); land-based Air Points add their values
where they are in range.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .options import option
from .state import Unit
from .units import (
    LANDING_CRAFT_CAPACITY,
    carried_air_values,
    land_air_values,
    unit_values,
)

CARRIERS = ("fleet_carrier", "escort_carrier")

#: 002 Column shifts: *Heavy Unit outclasses Light Cruiser Unit, Light Cruiser Unit
#: outclasses Escort unit.* Carrier groups sail with their screens: a fleet carrier group
#: (battleship or heavy cruiser escorts) ranks as heavy, an escort carrier group (cruiser
#: and destroyer escorts) as a light cruiser force (docs/rules-notes.md).
SURFACE_RANK = {
    "heavy": 3,
    "fleet_carrier": 3,
    "escort_carrier": 2,
    "light_cruiser": 2,
    "escort": 1,
}


def carries_air(unit: Unit) -> bool:
    """A carrier group's Air Point counts only while it is carried by a ready carrier."""
    return unit.type in CARRIERS and unit.carries_air and unit.state == "ready"


def unit_cv(unit: Unit, use: str, with_submarines: bool = True) -> int:
    """One unit's combat value for ``use`` ("fleet", "attack" or "defence"), halved when
    damaged, with the Air Point it carries; submarines may be left out of fleet values
    (002 "Minor Invasions": *with the exception of submarines*)."""
    if unit.state == "sunk" or (unit.type == "submarine" and not with_submarines):
        return 0
    cv: int = getattr(unit_values(unit.type, unit.nation, unit.state == "damaged"), use)
    if carries_air(unit):
        cv += getattr(carried_air_values(unit.type), use)
    return cv


def fleet_cv(unit: Unit, with_submarines: bool = True) -> int:
    """Fleet Operations CV of one unit, with its carried air."""
    return unit_cv(unit, "fleet", with_submarines)


def attack_cv(unit: Unit) -> int:
    """Commerce Attack CV of one unit (with carried air)."""
    return unit_cv(unit, "attack")


def defence_cv(unit: Unit) -> int:
    """Commerce Defence CV of one unit (with carried air)."""
    return unit_cv(unit, "defence")


def air_points(units: Iterable[Unit]) -> int:
    """Air Points carried by these units."""
    return sum(1 for u in units if carries_air(u))


def land_air_cv(kind: str, points: int, use: str) -> int:
    """CV of ``points`` land-based Air Points of ``kind`` for ``use`` (fleet/attack/defence)."""
    return points * int(getattr(land_air_values(kind), use))


def surface_rank(units: Iterable[Unit]) -> int:
    """The best surface rank among these units (0: none, e.g. submarines only)."""
    return max((SURFACE_RANK.get(u.type, 0) for u in units if u.state != "sunk"), default=0)


def landing_capacity(units: Iterable[Unit], options: Mapping[str, Any]) -> tuple[int, int]:
    """(Landing Craft Groups afloat among ``units``, manpower/tank points they can land):
    *One group can land up to 2 manpower / tank points*; with none, the rule option
    ``improvised_landing`` (docs/rules-notes.md)."""
    craft = sum(1 for u in units if u.type == "landing_craft" and u.state != "sunk")
    if craft:
        return craft, craft * LANDING_CRAFT_CAPACITY
    return 0, int(option(options, "improvised_landing"))
