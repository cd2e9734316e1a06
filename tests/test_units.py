"""002 "Unit Characteristics" cell by cell against the seed."""

from __future__ import annotations

import re

from campaign import units
from tests import seeds

ROWS = {
    "Fleet Carrier Group": units.UNIT_VALUES["fleet_carrier"],
    "Escort Carrier Group": units.UNIT_VALUES["escort_carrier"],
    "Heavy Ship Group": units.UNIT_VALUES["heavy"],
    "Light Cruiser Force": units.UNIT_VALUES["light_cruiser"],
    "Escort Force": units.UNIT_VALUES["escort"],
    "Allied / German Submarine flotilla": units.UNIT_VALUES["submarine"],
    "Japanese Sub Flotilla": units.JAPANESE_SUBMARINE,
    "Landing Craft Group": units.UNIT_VALUES["landing_craft"],
    "Air Point launched from Land or Fleet Carrier": units.AIR_LAND_OR_FLEET_CARRIER,
    "Air Point launched from Escort Carrier": units.AIR_ESCORT_CARRIER,
    "Strategic Bomber Point (from Land)": units.AIR_STRATEGIC,
}


def test_unit_values_match_the_seed_table() -> None:
    text = seeds.between(seeds.seed_text(), "Unit Type Fleet", "Operational Range")
    for label, values in ROWS.items():
        m = re.search(re.escape(label) + r" (\d+) (\d+) (\d+)", text)
        assert m, label
        assert tuple(int(x) for x in m.groups()) == (values.fleet, values.attack, values.defence), (
            label
        )


def test_damaged_units_fight_at_half_rounded_down() -> None:
    assert units.unit_values("heavy", "uk", damaged=True) == units.CombatValues(2, 2, 1)
    assert units.unit_values("escort", "uk", damaged=True) == units.CombatValues(0, 0, 1)


def test_japanese_submarines_have_no_commerce_attack() -> None:
    assert units.unit_values("submarine", "japan").attack == 0
    assert units.unit_values("submarine", "germany").attack == 3
    assert units.unit_values("submarine", "usa").attack == 3


def test_carried_and_land_air() -> None:
    assert units.carried_air_values("fleet_carrier").fleet == 10
    assert units.carried_air_values("escort_carrier").defence == 5
    assert units.land_air_values("strategic").defence == 8
    assert units.land_air_values("land").attack == 4


def test_invasion_and_range_numbers_from_the_seed() -> None:
    text = " ".join(seeds.seed_text().split())
    assert f"Manpower point {units.MANPOWER_CV} Tank Point {units.TANK_CV}" in text
    assert f"land up to {units.LANDING_CRAFT_CAPACITY} manpower / tank points" in text
    assert f"operate up to {units.NAVAL_RANGE} areas from a base" in text
