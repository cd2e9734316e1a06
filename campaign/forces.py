"""Combat values of groups of units, as the combat rules need them.

002 "Unit Characteristics" gives each unit three values; carriers add the Air Point they
carry; damaged units fight at half (rounded down); land-based Air Points add their values
where they are in range.
"""

from __future__ import annotations

from collections.abc import Iterable

from .state import Unit
from .units import carried_air_values, land_air_values, unit_values

CARRIERS = ("fleet_carrier", "escort_carrier")

#: 002 Column shifts: *Heavy Unit outclasses Light Cruiser Unit, Light Cruiser Unit
#: outclasses Escort unit.* Carrier groups sail with their battle escorts and rank as heavy.
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


def fleet_cv(unit: Unit, with_submarines: bool = True) -> int:
    """Fleet Operations CV of one unit, with its carried air."""
    if unit.state == "sunk" or (unit.type == "submarine" and not with_submarines):
        return 0
    cv = unit_values(unit.type, unit.nation, unit.state == "damaged").fleet
    if carries_air(unit):
        cv += carried_air_values(unit.type).fleet
    return cv


def attack_cv(unit: Unit) -> int:
    """Commerce Attack CV of one unit (with carried air)."""
    if unit.state == "sunk":
        return 0
    cv = unit_values(unit.type, unit.nation, unit.state == "damaged").attack
    if carries_air(unit):
        cv += carried_air_values(unit.type).attack
    return cv


def defence_cv(unit: Unit) -> int:
    """Commerce Defence CV of one unit (with carried air)."""
    if unit.state == "sunk":
        return 0
    cv = unit_values(unit.type, unit.nation, unit.state == "damaged").defence
    if carries_air(unit):
        cv += carried_air_values(unit.type).defence
    return cv


def air_points(units: Iterable[Unit]) -> int:
    """Air Points carried by these units."""
    return sum(1 for u in units if carries_air(u))


def land_air_cv(kind: str, points: int, use: str) -> int:
    """CV of ``points`` land-based Air Points of ``kind`` for ``use`` (fleet/attack/defence)."""
    values = land_air_values(kind)
    return points * {"fleet": values.fleet, "attack": values.attack, "defence": values.defence}[use]


def surface_rank(units: Iterable[Unit]) -> int:
    """The best surface rank among these units (0: none, e.g. submarines only)."""
    return max((SURFACE_RANK.get(u.type, 0) for u in units if u.state != "sunk"), default=0)
