"""Back to the campaign: a tactical result becomes step losses by a documented rule."""

from __future__ import annotations

import pytest

from campaign.scenario import Scenario, load_scenario
from campaign.state import Unit
from campaign.tactical import (
    BattleResult,
    BattleSetup,
    Ship,
    Side,
    builtin_battles,
    ignored_conditions,
)
from campaign.tactical.outcome import (
    campaign_winner,
    declared_units,
    expand_forces,
    in_rule_set_terms,
    ships_of,
    step_losses,
    unit_rosters,
)


def ship(sid: str, unit: str, tons: int, state: str) -> Ship:
    return Ship(
        sid,
        sid,
        "usa",
        "heavy_cruiser",
        tonnage=tons,
        campaign_unit=unit,
        state=state or "undamaged",
    )


def result(*ships: Ship) -> BattleResult:
    return BattleResult("test", 3, "a", {s.id: s for s in ships}, {}, [])


UNITS = [
    Unit("u1", "usa", "heavy", "CruDiv", "pearl_harbour"),
    Unit("u2", "usa", "heavy", "BatDiv", "pearl_harbour", state="damaged"),
    Unit("u3", "usa", "escort", "DesRon", "pearl_harbour"),
]


def test_three_quarters_sunk_is_two_steps_a_quarter_one() -> None:
    r = result(
        ship("a", "u1", 10000, "sunk"),
        ship("b", "u1", 10000, "sunk"),
        ship("c", "u1", 10000, "sunk"),
        ship("d", "u1", 10000, "undamaged"),
        ship("e", "u3", 1500, "sunk"),
        ship("f", "u3", 1500, "undamaged"),
        ship("g", "u3", 1500, "undamaged"),
        ship("h", "u3", 1500, "undamaged"),
    )
    losses = {x.unit: x for x in step_losses(r, UNITS)}
    assert losses["u1"].steps == 2 and losses["u1"].why == "75% of its tonnage sunk"
    assert losses["u3"].steps == 1 and losses["u3"].why == "25% of its tonnage sunk"
    r.ships["e"].state = "undamaged"
    r.ships["f"].state = "crippled"
    assert step_losses(r, UNITS)[1].why == "25% of its tonnage sunk or crippled"
    r.ships["f"].state = "damaged"  # a quarter merely damaged: no step
    assert step_losses(r, UNITS)[1].steps == 0


def test_just_under_each_threshold_is_the_step_below() -> None:
    r = result(ship("a", "u1", 7499, "sunk"), ship("b", "u1", 2501, "undamaged"))
    assert step_losses(r, UNITS)[0].steps == 1  # 74.99% sunk
    r = result(ship("a", "u1", 2499, "crippled"), ship("b", "u1", 7501, "undamaged"))
    assert step_losses(r, UNITS)[0].steps == 0  # 24.99% out of action


def test_damaged_ships_only() -> None:
    # a ready unit: three quarters of it damaged is one step, less is none
    r = result(*(ship(x, "u1", 10000, "damaged") for x in "abc"), ship("d", "u1", 10000, ""))
    assert step_losses(r, UNITS)[0].steps == 1
    assert step_losses(r, UNITS)[0].why == "75% of its tonnage damaged"
    r.ships["c"].state = "undamaged"
    [loss] = step_losses(r, UNITS)
    assert (loss.steps, loss.why) == (0, "lightly touched: 50% of its tonnage hit")
    # a damaged unit's ships came damaged: staying so is no new loss ...
    r = result(ship("a", "u2", 30000, "damaged"), ship("b", "u2", 32000, "damaged"))
    assert step_losses(r, UNITS)[0].steps == 0
    # ... but one put out of action sinks it, and it never takes more than one step
    r.ships["a"].state = "crippled"
    assert step_losses(r, UNITS)[0].steps == 1
    r.ships["b"].state = "sunk"
    assert step_losses(r, UNITS)[0].steps == 1


def test_lightly_touched_units_take_nothing() -> None:
    r = result(ship("a", "u1", 10000, "damaged"), ship("b", "u1", 11000, "undamaged"))
    [loss] = step_losses(r, UNITS)
    assert (loss.unit, loss.steps) == ("u1", 0)
    r.ships["a"].state = "undamaged"
    assert step_losses(r, UNITS)[0].why == "untouched"


def test_the_winner_lost_less_combat_value() -> None:
    a = [Unit("x", "usa", "heavy", "X", "pearl_harbour")]
    b = [Unit("y", "japan", "heavy", "Y", "truk")]
    r = result(
        Ship("s1", "s1", "usa", "heavy_cruiser", tonnage=1, campaign_unit="x", state="sunk"),
        Ship("s2", "s2", "japan", "heavy_cruiser", tonnage=1, campaign_unit="y", state="damaged"),
    )
    losses = step_losses(r, a + b)
    assert campaign_winner(a, b, losses) == "b"


def test_a_set_up_for_one_rule_set_is_read_afresh_by_another() -> None:
    from campaign.tactical import BattleSetup, builtin_battles
    from campaign.tactical.airstrike import ship_factors
    from campaign.tactical.outcome import in_rule_set_terms

    midway = BattleSetup.load(builtin_battles()["midway"])
    assert midway.rule_set == "carrier" and midway.a.ships[0].damage_capacity == 10
    own = in_rule_set_terms("carrier", midway)
    assert own.a.ships[0].damage_capacity == 10  # the carrier rules' own figure stays
    other = in_rule_set_terms("airstrike", midway)
    akagi = other.a.ships[0]
    assert akagi.damage_capacity == 0 and other.rule_set == "airstrike"
    assert ship_factors(akagi) < 10  # sized by the air-strike rules from her tonnage
    assert midway.a.ships[0].damage_capacity == 10  # the set-up itself is untouched


# -- issue 13: a unit is weighed whole, its ships that were not in the battle untouched --


@pytest.fixture(scope="module")
def scenario_1942() -> Scenario:
    return load_scenario()


def carrier_unit(uid: str, name: str) -> Unit:
    return Unit(uid, "usa", "fleet_carrier", name, "pearl_harbour", carries_air=True)


def fate(scenario: Scenario, uid: str, states: dict[str, str]) -> BattleResult:
    """The ships of ``uid`` named in ``states`` (by ships.csv id) as a battle left them."""
    ships = [s for s in ships_of(scenario, uid) if s.id in states]
    for s in ships:
        s.state = states[s.id] or "undamaged"
    return result(*ships)


def test_hornet_alone_for_wasp_and_hornet_sunk_costs_one_step(scenario_1942: Scenario) -> None:
    roster = {"usa_cv_wasp_hornet": ships_of(scenario_1942, "usa_cv_wasp_hornet")}
    unit = carrier_unit("usa_cv_wasp_hornet", "Wasp & Hornet")
    [loss] = step_losses(fate(scenario_1942, unit.id, {"hornet": "sunk"}), [unit], roster)
    assert loss.steps == 1  # Wasp (14,700 t) was not there: the group is damaged, not sunk
    assert loss.absent == ("wasp",)
    assert loss.sunk_share == pytest.approx(20000 / 34700)
    assert loss.why == "58% of its tonnage sunk; Wasp not in the battle"
    # without the roster Hornet would be the whole unit, and her loss its end
    assert step_losses(fate(scenario_1942, unit.id, {"hornet": "sunk"}), [unit])[0].steps == 2


def test_the_midway_set_up_lists_wasp_as_absent() -> None:
    midway = BattleSetup.load(builtin_battles()["midway"])
    rosters = unit_rosters(midway)
    assert [s.name for s in rosters["usa_cv_wasp_hornet"]] == ["Wasp", "Hornet"]
    assert [s.id for s in rosters["usa_cv_enterprise_yorktown"]] == ["enterprise", "yorktown"]
    hornet = next(s for s in midway.b.ships if s.id == "hornet").copy()
    hornet.state = "sunk"
    unit = carrier_unit("usa_cv_wasp_hornet", "Wasp & Hornet")
    assert step_losses(result(hornet), [unit], rosters)[0].steps == 1


def test_yorktown_lost_leaves_enterprise_and_the_group_damaged(scenario_1942: Scenario) -> None:
    unit = carrier_unit("usa_cv_enterprise_yorktown", "Enterprise & Yorktown")
    states = {"enterprise_cv6": "undamaged", "yorktown": "sunk"}
    [loss] = step_losses(fate(scenario_1942, unit.id, states), [unit])
    assert (loss.steps, loss.sunk_share) == (1, 0.5)
    states["enterprise_cv6"] = "sunk"
    assert step_losses(fate(scenario_1942, unit.id, states), [unit])[0].steps == 2


def test_which_carrier_sinks_does_not_decide_the_cost(scenario_1942: Scenario) -> None:
    unit = carrier_unit("jpn_cv_akagi_kaga", "Akagi & Kaga")
    kaga = step_losses(fate(scenario_1942, unit.id, {"akagi": "", "kaga": "sunk"}), [unit])
    akagi = step_losses(fate(scenario_1942, unit.id, {"akagi": "sunk", "kaga": ""}), [unit])
    assert kaga[0].sunk_share > 0.5 > akagi[0].sunk_share  # Kaga is the heavier
    assert kaga[0].steps == akagi[0].steps == 1
    crippled = fate(scenario_1942, unit.id, {"akagi": "crippled", "kaga": "damaged"})
    assert step_losses(crippled, [unit])[0].steps == 1  # one carrier out of action


def test_every_1942_carrier_group_loses_one_step_per_carrier(scenario_1942: Scenario) -> None:
    groups = [u for u in scenario_1942.rows("units") if u["type"] == "fleet_carrier"]
    assert len(groups) == 12
    for row in groups:
        unit = carrier_unit(row["id"], row["name"])
        ships = ships_of(scenario_1942, unit.id)
        assert len(ships) == 2, row["id"]
        for lost in ships:
            r = fate(
                scenario_1942, unit.id, {s.id: "sunk" if s.id == lost.id else "" for s in ships}
            )
            assert step_losses(r, [unit])[0].steps == 1, (row["id"], lost.name)


def test_all_present_ships_sunk_while_others_were_absent() -> None:
    unit = Unit("u1", "usa", "heavy", "BatDiv", "pearl_harbour")
    roster = {"u1": [ship(x, "u1", 30000, "") for x in "abcd"]}
    two = result(ship("a", "u1", 30000, "sunk"), ship("b", "u1", 30000, "sunk"))
    [loss] = step_losses(two, [unit], roster)
    assert (loss.steps, loss.absent, loss.sunk_share) == (1, ("c", "d"), 0.5)
    assert loss.why == "50% of its tonnage sunk; c and d not in the battle"
    three = result(*(ship(x, "u1", 30000, "sunk") for x in "abc"))
    assert step_losses(three, [unit], roster)[0].steps == 2  # three of four sunk


def test_a_unit_with_no_ships_in_the_data_is_sized_by_002() -> None:
    """A set-up of its own naming a unit it does not list: 002's size for its type."""
    setup = BattleSetup(
        "test",
        Side("a", "usa", [Ship("cv", "Ranger", "usa", "carrier", 14500, campaign_unit="x")]),
        Side("b", "japan", [Ship("dd", "Kagero", "japan", "destroyer", 2000, campaign_unit="y")]),
    )
    rosters = unit_rosters(setup)
    assert [(s.name, s.tonnage) for s in rosters["x"]] == [
        ("Ranger", 14500),
        ("another carrier", 14500),  # "Fleet Carrier Group – 2 fleet carrier"
    ]
    assert len(rosters["y"]) == 30  # "Escort Force – approx 30 escorts and/or destroyers"
    sunk = result(Ship("cv", "Ranger", "usa", "carrier", 14500, campaign_unit="x", state="sunk"))
    [loss] = step_losses(sunk, [carrier_unit("x", "X")], rosters)
    assert (loss.steps, loss.why) == (
        1,
        "50% of its tonnage sunk; another carrier not in the battle",
    )
    dd = result(Ship("dd", "Kagero", "japan", "destroyer", 2000, campaign_unit="y", state="sunk"))
    [loss] = step_losses(dd, [Unit("y", "japan", "escort", "Y", "truk")], rosters)
    assert loss.steps == 0 and "29 of its ships not in the battle" in loss.why
    # a type 002 gives no size for (landing ships) is the ships that fought
    setup.b.ships[0].type = "landing_ship"
    assert len(unit_rosters(setup)["y"]) == 1


def test_a_campaign_battle_lists_each_unit_whole(scenario_1942: Scenario) -> None:
    carriers = [carrier_unit("usa_cv_wasp_hornet", "Wasp & Hornet")]
    kido = [Unit("jpn_cv_akagi_kaga", "japan", "fleet_carrier", "Akagi & Kaga", "truk")]
    setup = expand_forces(
        scenario_1942, "test", ("US", "usa", carriers), ("Kido Butai", "japan", kido)
    )
    listed = declared_units(setup)
    assert listed["usa_cv_wasp_hornet"].name == "Wasp & Hornet"
    assert [s.id for s in listed["usa_cv_wasp_hornet"].ships] == ["wasp", "hornet"]
    assert [s.id for s in unit_rosters(setup)["jpn_cv_akagi_kaga"]] == ["akagi", "kaga"]
    assert not ignored_conditions("carrier", setup)


def test_a_malformed_unit_list_is_refused_by_name() -> None:
    setup = BattleSetup("t", Side("a", "usa"), Side("b", "japan"))
    setup.conditions["campaign_units"] = {"x": {"ships": [{"id": "cv", "tonnage": "big"}]}}
    with pytest.raises(ValueError, match=r"'conditions.campaign_units.x.ships\[0\].tonnage': "):
        unit_rosters(setup)
    setup.conditions["campaign_units"] = {"x": {"type": "battleship", "ships": []}}
    with pytest.raises(ValueError, match=r"campaign_units\.x\.type': must be one of"):
        unit_rosters(setup)
    # the same check refuses the set-up before any battle
    with pytest.raises(ValueError, match=r"campaign_units\.x\.type"):
        in_rule_set_terms("carrier", setup)
