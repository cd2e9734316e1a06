"""Back to the campaign: a tactical result becomes step losses by a documented rule."""

from __future__ import annotations

from campaign.state import Unit
from campaign.tactical import BattleResult, Ship
from campaign.tactical.outcome import campaign_winner, step_losses


def ship(sid: str, unit: str, tons: int, state: str) -> Ship:
    return Ship(sid, sid, "usa", "heavy_cruiser", tonnage=tons, campaign_unit=unit, state=state)


def result(*ships: Ship) -> BattleResult:
    return BattleResult("test", 3, "a", {s.id: s for s in ships}, {}, [])


UNITS = [
    Unit("u1", "usa", "heavy", "CruDiv", "pearl_harbour"),
    Unit("u2", "usa", "heavy", "BatDiv", "pearl_harbour", state="damaged"),
    Unit("u3", "usa", "escort", "DesRon", "pearl_harbour"),
]


def test_half_the_tonnage_sunk_is_two_steps_any_sinking_one() -> None:
    r = result(
        ship("a", "u1", 10000, "sunk"),
        ship("b", "u1", 10000, "undamaged"),
        ship("c", "u2", 30000, "sunk"),
        ship("d", "u2", 32000, "damaged"),
        ship("e", "u3", 1500, "undamaged"),
        ship("f", "u3", 1500, "crippled"),
    )
    losses = {x.unit: x for x in step_losses(r, UNITS)}
    assert losses["u1"].steps == 2  # 50% sunk
    assert losses["u2"].steps == 1  # already damaged: one more step sinks it
    assert losses["u3"].steps == 1 and losses["u3"].why == "50% of its tonnage damaged"


def test_lightly_touched_units_take_nothing() -> None:
    r = result(ship("a", "u1", 10000, "damaged"), ship("b", "u1", 11000, "undamaged"))
    [loss] = step_losses(r, UNITS)
    assert (loss.unit, loss.steps) == ("u1", 0)


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
