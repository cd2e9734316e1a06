"""002 "Unit Characteristics": the three combat values of every unit type.

*Fleet Operations: the combat value (CV) of the unit when engaged in fleet operations.
Commerce Attack: … when attacking merchant shipping. Commerce Defence: … when escorting
merchant shipping and defending it.* Damaged units fight at half value, rounded down
(002 "Damage").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CombatValues:
    fleet: int
    attack: int
    defence: int

    def damaged(self) -> CombatValues:
        """002 "Damage": *all their combat values are reduced by half rounded down*."""
        return CombatValues(self.fleet // 2, self.attack // 2, self.defence // 2)


#: 002 "Unit Type / Fleet Operations / Commerce Attack / Commerce Defence", row by row.
UNIT_VALUES: dict[str, CombatValues] = {
    "fleet_carrier": CombatValues(1, 0, 0),  # Fleet Carrier Group 1 0 0
    "escort_carrier": CombatValues(1, 0, 0),  # Escort Carrier Group 1 0 0
    "heavy": CombatValues(5, 4, 2),  # Heavy Ship Group 5 4 2
    "light_cruiser": CombatValues(3, 4, 4),  # Light Cruiser Force 3 4 4
    "escort": CombatValues(1, 1, 2),  # Escort Force 1 1 2
    "submarine": CombatValues(1, 3, 0),  # Allied / German Submarine flotilla 1 3 0
    "landing_craft": CombatValues(0, 0, 0),  # Landing Craft Group 0 0 0
}
#: Japanese Sub Flotilla 1 0 0
JAPANESE_SUBMARINE = CombatValues(1, 0, 0)
#: Air Point launched from Land or Fleet Carrier 10 4 6
AIR_LAND_OR_FLEET_CARRIER = CombatValues(10, 4, 6)
#: Air Point launched from Escort Carrier 3 4 5
AIR_ESCORT_CARRIER = CombatValues(3, 4, 5)
#: Strategic Bomber Point (from Land) 10 6 8
AIR_STRATEGIC = CombatValues(10, 6, 8)

#: 002 "Minor Invasions": *Manpower point 8, Tank Point 6*; a garrison *is treated as a
#: single manpower point*.
MANPOWER_CV = 8
TANK_CV = 6
GARRISON_CV = MANPOWER_CV

#: 002 "Landing Craft Group": *One group can land up to 2 manpower / tank points.*
LANDING_CRAFT_CAPACITY = 2

#: 002 "Operational Range": *Naval units can operate up to 4 areas from a base.*
NAVAL_RANGE = 4

#: the nation whose submarines use the "Japanese Sub Flotilla" row
JAPANESE_NATIONS = frozenset({"japan"})


def unit_values(unit_type: str, nation: str, damaged: bool = False) -> CombatValues:
    """The combat values of one naval unit (no air)."""
    if unit_type == "submarine" and nation in JAPANESE_NATIONS:
        values = JAPANESE_SUBMARINE
    else:
        values = UNIT_VALUES[unit_type]
    return values.damaged() if damaged else values


def carried_air_values(unit_type: str) -> CombatValues:
    """The values of the Air Point a carrier group carries."""
    if unit_type == "escort_carrier":
        return AIR_ESCORT_CARRIER
    if unit_type == "fleet_carrier":
        return AIR_LAND_OR_FLEET_CARRIER
    raise ValueError(f"a {unit_type} carries no air")


def land_air_values(kind: str) -> CombatValues:
    """The values of one land-based Air Point of ``kind`` (land or strategic)."""
    return AIR_STRATEGIC if kind == "strategic" else AIR_LAND_OR_FLEET_CARRIER
