"""001 *A World at War* air attacks on naval units: table 20.44 against the seed, the
modifiers, how hits fall on each kind of target, critical hits, and whole battles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from campaign.dice import DiceError, ScriptedDice, SeededDice
from campaign.tactical import RULE_SETS, AirGroup, BattleSetup, Ship, Side, run
from campaign.tactical import airstrike as air
from campaign.tactical.airstrike import (
    AirStrikeBattle,
    air_hits,
    air_rows,
    airstrike_battle,
    column,
    fleet_hits,
    fleet_modifiers,
    ship_factors,
    squadrons,
)
from tests import seeds

SEED = "001_6fce96fd9666c389.txt"
EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "battles" / "airstrike-example.json"


def printed_table() -> list[tuple[str, str, list[int]]]:
    """Table 20.44 as the seed prints it: (AS label, FF label, 11 cells) per row.

    The extraction lost the layout: every cell is followed by "|"; the rows start after
    the "12+" header and end at "Modifiers - Air"; an empty FF cell is an empty piece.
    """
    block = seeds.between(seeds.seed_text(SEED), "12+ |", "Modifiers - Air")
    pieces = [p.strip() for p in block[len("12+ |") :].split("|")]
    while pieces and pieces[0] == "":
        pieces.pop(0)
    while pieces and pieces[-1] == "":
        pieces.pop()
    assert len(pieces) % 13 == 0, "every row is two labels and 11 cells"
    rows = []
    for i in range(0, len(pieces), 13):
        as_label, ff_label, *cells = pieces[i : i + 13]
        rows.append((as_label, ff_label, [int(c) for c in cells]))
    return rows


def test_the_table_as_data_is_the_table_as_printed() -> None:
    printed = printed_table()
    assert len(printed) == len(air.TABLE_20_44) == 23
    for (as_label, ff_label, cells), (squadrons_, span, data) in zip(
        printed, air.TABLE_20_44, strict=True
    ):
        assert as_label == ("-" if squadrons_ is None else str(squadrons_))
        if span is None:
            assert ff_label == ""
        else:
            low, high = span
            assert ff_label == (str(low) if low == high else f"{low}-{high}")
        assert list(data) == cells


def test_every_air_cell_matches_the_seed() -> None:
    checked = 0
    for as_label, _, cells in printed_table():
        if as_label == "-":
            continue
        for col, expected in zip(air.COLUMNS, cells, strict=True):
            assert air_hits(int(as_label), col) == expected, f"AS {as_label}, roll {col}"
            checked += 1
    assert checked == 20 * 11


def test_every_fleet_cell_matches_the_seed() -> None:
    for _, ff_label, cells in printed_table():
        if not ff_label:
            continue
        low, _, high = ff_label.partition("-")
        for factors in range(int(low), int(high or low) + 1):
            for col, expected in zip(air.COLUMNS, cells, strict=True):
                assert fleet_hits(factors, col) == expected, f"FF {factors}, roll {col}"
    assert sorted(air.FLEET_ROWS) == list(range(1, 26))
    with pytest.raises(ValueError):
        fleet_hits(26, 7)
    assert fleet_hits(0, 12) == 0


@pytest.mark.parametrize(
    ("count", "rows"),
    [
        (0, []),
        (1, [1]),
        (20, [20]),
        (21, [20, 1]),
        (27, [20, 7]),
        (40, [20, 20]),
        (45, [20, 20, 5]),
    ],
)
def test_over_20_squadrons_consult_the_20_row_and_the_remainder(
    count: int, rows: list[int]
) -> None:
    assert air_rows(count) == rows


def test_over_20_hits_are_the_20_row_plus_the_other_row() -> None:
    assert air_hits(27, 7) == 11 + 4
    assert air_hits(21, 2) == 8 + 0
    assert air_hits(45, 12) == 13 + 13 + 6
    with pytest.raises(ValueError):
        air_hits(3, 13)


def test_columns_clamp_and_a_natural_12_ignores_negative_modifiers() -> None:
    assert column(12, -3) == 12
    assert column(11, 1) == 12
    assert column(11, 4) == 12
    assert column(2, -2) == 2
    assert column(7, -1) == 6
    with pytest.raises(ValueError):
        column(1, 0)


# -- building battles --------------------------------------------------------------------


def bomber(id_: str = "vb", factor: int = 1, kind: str = "dive_bomber") -> AirGroup:
    return AirGroup(id=id_, kind=kind, aircraft=12 * factor, factor=factor)


def ship(id_: str, type_: str, **kw: Any) -> Ship:
    return Ship(id=id_, name=id_.title(), nation=kw.pop("nation", "usa"), type=type_, **kw)


def battle(
    targets: list[Ship],
    dice: list[int],
    air_groups: list[AirGroup] | None = None,
    carriers: list[Ship] | None = None,
    **conditions: Any,
) -> tuple[AirStrikeBattle, ScriptedDice]:
    attacker = Side("Kido Butai", "japan", carriers or [], air_groups or [])
    defender = Side("Pacific Fleet", "usa", targets, [])
    scripted = ScriptedDice(dice)
    setup = BattleSetup("test", attacker, defender, dict(conditions))
    return AirStrikeBattle(setup, scripted), scripted


def state(b: AirStrikeBattle, ship_id: str) -> str:
    """How a ship stands in the battle (the set-up's ships are never changed)."""
    return b.result().ships[ship_id].state


def strike(
    targets: list[Ship], dice: list[int], factor: int = 1, **conditions: Any
) -> AirStrikeBattle:
    """One strike by ``factor`` land-based squadrons; every scripted roll must be used."""
    b, scripted = battle(targets, dice, [bomber(factor=factor)], **conditions)
    b.step()
    assert scripted.unused == []
    return b


def dd(n: int = 1) -> list[Ship]:
    return [ship(f"dd{i}", "destroyer") for i in range(1, n + 1)]


# -- modifiers ---------------------------------------------------------------------------


def test_one_squadron_needs_a_6_for_one_hit() -> None:
    assert strike(dd(), [2, 3]).result().ships["dd1"].state == "undamaged"
    assert strike(dd(), [3, 3]).result().ships["dd1"].state == "sunk"


def test_attackers_air_nationality_drm_is_added() -> None:
    b = strike(dd(), [2, 3], air_drm={"japan": 1, "usa": 0})
    assert b.result().ships["dd1"].state == "sunk"
    assert "attacker's Air Nationality DRM +1" in b.log[1]


def test_defenders_naval_nationality_drm_is_subtracted() -> None:
    b = strike(dd(), [3, 3], naval_drm={"usa": 1, "japan": 2})
    assert b.result().ships["dd1"].state == "undamaged"
    assert "defender's Naval Nationality DRM -1" in b.log[1]


def test_naval_air_gets_plus_one_against_ships_at_sea_only() -> None:
    kaga = ship("kaga", "carrier", nation="japan", air_groups=[bomber("kaga-vb")])
    at_sea, _ = battle(dd(), [2, 3], carriers=[kaga])
    at_sea.step()
    assert at_sea.result().ships["dd1"].state == "sunk"
    assert "naval air attacking ships at sea +1" in at_sea.log[1]

    kaga = ship("kaga", "carrier", nation="japan", air_groups=[bomber("kaga-vb")])
    in_port, _ = battle(dd(), [2, 3], carriers=[kaga], at_sea=False)
    in_port.step()
    assert in_port.result().ships["dd1"].state == "undamaged"

    kaga = ship("kaga", "carrier", nation="japan", air_groups=[bomber("kaga-vb")])
    per_side, _ = battle(dd(), [2, 3], carriers=[kaga], at_sea={"a": True, "b": False})
    per_side.step()
    assert per_side.result().ships["dd1"].state == "undamaged"


def test_land_based_air_is_naval_air_when_listed() -> None:
    assert strike(dd(), [2, 3]).result().ships["dd1"].state == "undamaged"
    assert strike(dd(), [2, 3], naval_air=["vb"]).result().ships["dd1"].state == "sunk"


def test_surprise_of_3_or_more_gives_plus_one_in_the_first_strike() -> None:
    assert strike(dd(), [2, 3], surprise=2).result().ships["dd1"].state == "undamaged"
    assert strike(dd(), [2, 3], surprise=3).result().ships["dd1"].state == "sunk"
    assert strike(dd(), [2, 3], surprise={"b": 3}).result().ships["dd1"].state == "undamaged"
    b, _ = battle(dd(2), [2, 3, 2, 3], [bomber()], surprise=4, strikes=2)
    b.step()
    b.step()
    states = [s.state for s in b.result().ships.values()]
    assert states == ["sunk", "undamaged"]  # the second strike has no surprise


def test_fleet_attack_modifiers() -> None:
    assert fleet_modifiers(0, 0) == []
    mods = fleet_modifiers(2, 1, attacker_reduced=True, defender_reduced=True)
    assert [m.value for m in mods] == [1, -1, 1]


# -- conversions -------------------------------------------------------------------------


def test_squadrons_from_factor_or_aircraft() -> None:
    assert squadrons([AirGroup("a", "torpedo_bomber", 85)]) == 7
    assert squadrons([AirGroup("a", "torpedo_bomber", 18)]) == 2  # 1.5 rounds up
    assert squadrons([AirGroup("a", "torpedo_bomber", 17)]) == 1
    assert squadrons([AirGroup("a", "dive_bomber", 3)]) == 1
    assert squadrons([AirGroup("a", "dive_bomber", 12, lost=12)]) == 0
    assert squadrons([AirGroup("a", "dive_bomber", 40, factor=2)]) == 2
    assert squadrons([AirGroup("f", "fighter", 36), AirGroup("p", "patrol", 12)]) == 0
    pooled = [AirGroup("a", "dive_bomber", 6), AirGroup("b", "level_bomber", 6)]
    assert squadrons(pooled) == 1


def test_ship_factors() -> None:
    assert ship_factors(ship("nevada", "battleship", tonnage=29_000)) == 3
    assert ship_factors(ship("pow", "battleship", tonnage=36_727)) == 4
    assert ship_factors(ship("yamato", "battleship", tonnage=64_000)) == 4
    assert ship_factors(ship("hosho", "light_carrier", tonnage=7_470)) == 1
    assert ship_factors(ship("enterprise", "carrier", tonnage=19_800)) == 2
    assert ship_factors(ship("x", "battleship", tonnage=29_000, damage_capacity=2)) == 2
    assert ship_factors(ship("y", "carrier")) == 2
    assert ship_factors(ship("ca", "heavy_cruiser", tonnage=10_000)) == 2
    assert ship_factors(ship("dd", "destroyer")) == 1


# -- hits on named ships -----------------------------------------------------------------


def capital_ships() -> list[Ship]:
    return [
        ship("repulse", "battlecruiser", tonnage=32_000),  # 3 factors
        ship("pow", "battleship", tonnage=36_727),  # 4 factors
    ]


def test_named_ship_damaged_at_one_less_than_its_size_and_sunk_at_its_size() -> None:
    # 4 squadrons: column 4 → 2 hits, column 6 → 2, column 7 → 3, column 8 → 3, column 10 → 4
    b = strike([ship("nevada", "battleship", tonnage=29_000)], [1, 3], factor=4)  # 2 hits
    assert b.result().ships["nevada"].state == "damaged"
    b = strike([ship("nevada", "battleship", tonnage=29_000)], [3, 4], factor=4)  # 3 hits
    assert b.result().ships["nevada"].state == "sunk"
    b = strike([ship("nevada", "battleship", tonnage=29_000)], [1, 1], factor=4)  # 1 hit
    assert b.result().ships["nevada"].state == "undamaged"


def test_nevada_one_hit_is_repaired_before_the_second_strike() -> None:
    nevada = ship("nevada", "battleship", tonnage=29_000)
    # 2 squadrons: column 4 → 1 hit; column 8 → 2 hits
    b, scripted = battle([nevada], [2, 2, 4, 4], [bomber(factor=2)], strikes=2)
    b.step()
    assert state(b, "nevada") == "undamaged" and "repaired immediately" in b.log[-1]
    b.step()
    assert state(b, "nevada") == "damaged"  # 2 hits, not 1 + 2
    assert b.finished and scripted.unused == []


def test_a_damaged_ship_damaged_again_is_sunk() -> None:
    nevada = ship("nevada", "battleship", tonnage=29_000, state="damaged")
    b = strike([nevada], [4, 4], factor=2)  # 2 hits
    assert state(b, "nevada") == "sunk"
    assert "damaged again" in b.log[-1]


def test_hits_concentrate_on_the_biggest_named_ship_first() -> None:
    ships = capital_ships()
    b = strike(ships, [4, 5], factor=7)  # row 7, column 9: 5 hits
    result = b.result().ships
    assert result["pow"].state == "sunk"
    assert result["repulse"].state == "undamaged"  # its one hit is repaired
    ships = capital_ships()
    result = strike(ships, [5, 5], factor=7).result().ships  # column 10: 6 hits
    assert (result["pow"].state, result["repulse"].state) == ("sunk", "damaged")


def test_carriers_are_hit_before_battleships() -> None:
    b = strike([*capital_ships(), ship("lex", "carrier", tonnage=36_000)], [3, 4], factor=4)
    assert b.result().ships["lex"].state == "damaged"  # 3 hits on a 4-factor carrier
    assert b.result().ships["pow"].state == "undamaged"


def test_hits_beyond_every_target_are_lost() -> None:
    b = strike(dd(1), [6, 5], factor=20)  # 13 hits, one destroyer
    assert "12 hits find no target" in "\n".join(b.log)


# -- hits on light forces ----------------------------------------------------------------


def cruisers(n: int) -> list[Ship]:
    return [ship(f"ca{i}", "heavy_cruiser", tonnage=10_000) for i in range(1, n + 1)]


def test_cruiser_group_odd_hit_damages_one_cruiser() -> None:
    b = strike(cruisers(3), [3, 4], factor=4)  # column 7: 3 hits
    states = [s.state for s in b.result().ships.values()]
    assert states == ["sunk", "damaged", "undamaged"]


def test_a_damaged_cruiser_sinks_with_one_hit() -> None:
    group = cruisers(2)
    group[1].state = "damaged"
    b = strike(group, [1, 1], factor=4)  # column 2: 1 hit
    assert [s.state for s in b.result().ships.values()] == ["undamaged", "sunk"]


def test_each_hit_sinks_a_one_factor_unit_apportioned_by_kind() -> None:
    force = [
        ship("dd1", "destroyer"),
        ship("dd2", "destroyer"),
        ship("cve", "escort_carrier"),
        ship("ap", "transport"),
        ship("de", "escort"),
    ]
    b = strike(force, [5, 5], factor=4)  # column 10: 4 hits
    states = {k: s.state for k, s in b.result().ships.items()}
    # the kind with most factors afloat first: destroyers (3 with the escort) until there is
    # one of each kind, then destroyer, CVE, transport in turn
    assert states == {
        "dd1": "sunk",
        "dd2": "sunk",
        "cve": "sunk",
        "ap": "undamaged",
        "de": "sunk",
    }


def test_transports_only() -> None:
    convoy = [ship(f"ap{i}", "transport") for i in range(4)]
    b = strike(convoy, [4, 4], factor=4)  # column 8: 3 hits
    assert [s.state for s in b.result().ships.values()].count("sunk") == 3


def test_mixed_light_force_cruiser_hit_first_fifth_ninth() -> None:
    force = [*cruisers(3), *dd(6)]
    b = strike(force, [6, 5], factor=9)  # row 9, column 11: 7 hits
    result = b.result().ships
    # hits 1-2 sink ca1, 3-4 sink two destroyers, 5-6 sink ca2, 7 sinks a third destroyer
    assert [result[f"ca{i}"].state for i in (1, 2, 3)] == ["sunk", "sunk", "undamaged"]
    assert [result[f"dd{i}"].state for i in range(1, 7)].count("sunk") == 3
    lines = [line for line in b.log if line.startswith("  hit")]
    assert [line.split()[2] for line in lines] == ["Ca1", "Ca1", "Dd1", "Dd2", "Ca2", "Ca2", "Dd3"]


def test_mixed_light_force_five_hits_damage_a_cruiser_with_the_fifth() -> None:
    b = strike([*cruisers(2), *dd(4)], [4, 5], factor=5)  # row 5, column 9: 4 hits
    states = {k: s.state for k, s in b.result().ships.items()}
    assert states["ca1"] == "sunk" and states["ca2"] == "undamaged"
    assert [states[f"dd{i}"] for i in range(1, 5)] == ["sunk", "sunk", "undamaged", "undamaged"]
    b = strike([*cruisers(2), *dd(4)], [5, 5], factor=5)  # column 10: 5 hits
    states = {k: s.state for k, s in b.result().ships.items()}
    assert states["ca2"] == "damaged"


def test_mixed_force_one_factor_units_gone_then_cruisers_take_the_rest() -> None:
    b = strike([*cruisers(2), *dd(1)], [4, 5], factor=5)  # 4 hits
    states = {k: s.state for k, s in b.result().ships.items()}
    assert states == {"ca1": "sunk", "ca2": "damaged", "dd1": "sunk"}


def test_one_factor_units_never_outrun_cruiser_factors_sunk() -> None:
    # 20.551: one-factor factors sunk never exceed cruiser factors sunk while cruisers live
    for factor in range(1, 21):
        for roll in ([1, 1], [3, 4], [6, 5]):
            b = strike([*cruisers(4), *dd(8)], roll, factor=factor)
            sunk_cruiser = sum(
                2
                for s in b.result().ships.values()
                if s.type == "heavy_cruiser" and s.state == "sunk"
            )
            sunk_dd = sum(
                1 for s in b.result().ships.values() if s.type == "destroyer" and s.state == "sunk"
            )
            if sunk_cruiser < 8:
                assert sunk_dd <= sunk_cruiser, (factor, roll)


def test_named_ships_before_the_light_force_and_submarines_not_at_all() -> None:
    force = [ship("ss", "submarine"), *dd(1), ship("nevada", "battleship", tonnage=29_000)]
    b = strike(force, [4, 5], factor=5)  # 4 hits: 3 sink Nevada, 1 the destroyer
    states = {k: s.state for k, s in b.result().ships.items()}
    assert states == {"ss": "undamaged", "dd1": "sunk", "nevada": "sunk"}


# -- critical hits -----------------------------------------------------------------------


def test_double_six_gives_a_critical_hit_die_roll() -> None:
    pow_ = ship("pow", "battleship", tonnage=36_727)
    b = strike([pow_], [6, 6, 4], factor=1)  # row 1, 12+: 2 hits; critical on 4
    assert state(b, "pow") == "damaged"
    assert any("critical hit, damaged" in line for line in b.log)


def test_a_failed_critical_hit_die_roll_has_no_effect() -> None:
    pow_ = ship("pow", "battleship", tonnage=36_727)
    b = strike([pow_], [6, 6, 3], factor=1)
    assert state(b, "pow") == "undamaged"  # 2 hits, repaired


def test_critical_hit_on_a_damaged_ship_sinks_it() -> None:
    pow_ = ship("pow", "battleship", tonnage=36_727, state="damaged")
    b = strike([pow_], [6, 6, 6], factor=1)
    assert state(b, "pow") == "sunk"


def test_critical_hit_in_port_sinks_the_ship() -> None:
    nevada = ship("nevada", "battleship", tonnage=29_000)
    b = strike([nevada], [6, 6, 5], factor=1, at_sea=False)
    assert state(b, "nevada") == "sunk"
    assert any("sunk in port" in line for line in b.log)


def test_eleven_plus_one_is_no_critical_hit() -> None:
    pow_ = ship("pow", "battleship", tonnage=36_727)
    b = strike([pow_], [5, 6], factor=1, air_drm={"japan": 1})  # a third would be unused
    assert state(b, "pow") == "undamaged"


def test_negative_modifiers_do_not_reduce_a_natural_12() -> None:
    b = strike(dd(3), [6, 6], factor=1, naval_drm={"usa": 3})  # no named ship: no crit roll
    assert sum(s.state == "sunk" for s in b.result().ships.values()) == 2


def test_no_critical_roll_for_a_ship_already_sunk() -> None:
    nevada = ship("nevada", "battleship", tonnage=29_000)
    b = strike([nevada], [6, 6], factor=2)  # row 2, 12+: 3 hits sink her; no critical roll
    assert state(b, "nevada") == "sunk"


# -- dice discipline and whole battles ---------------------------------------------------


def test_an_unscripted_roll_fails() -> None:
    b, _ = battle(dd(), [3], [bomber()])
    with pytest.raises(DiceError):
        b.step()
    b, _ = battle(dd(2), [1, 1], [bomber()], strikes=2)
    b.step()
    with pytest.raises(DiceError):
        b.step()


def test_the_battle_ends_without_air_or_after_its_strikes() -> None:
    b, _ = battle(dd(), [], [AirGroup("f", "fighter", 24)])
    assert b.finished and b.step() == []
    b, _ = battle(dd(3), [1, 1, 1, 1, 1, 1], [bomber()], strikes=3)
    result = run(b)
    assert result.turns == 3 and b.finished
    b, _ = battle(dd(1), [3, 3], [bomber()], strikes=5)
    assert run(b).turns == 1  # nothing left to attack
    with pytest.raises(ValueError):
        battle(dd(), [], [bomber()], strikes=0)


def test_a_damaged_carrier_cannot_launch_again() -> None:
    akagi = ship("akagi", "carrier", nation="japan", tonnage=36_500, air_groups=[bomber("a1")])
    enterprise = ship("enterprise", "carrier", tonnage=19_800, air_groups=[bomber("e1", 4)])
    setup = BattleSetup(
        "duel",
        Side("Kido Butai", "japan", [akagi]),
        Side("TF 16", "usa", [enterprise]),
        {"strikes": 2},
    )
    # strike 1: Akagi's 1 squadron (+1 naval air) 1+1 → column 3: 0 hits;
    # Enterprise's 4 squadrons 3+3+1 → column 7: 3 hits, Akagi (4 factors) damaged.
    # strike 2: only Enterprise's air: 1+1+1 → column 3: 1 hit.
    scripted = ScriptedDice([1, 1, 3, 3, 1, 1])
    b = AirStrikeBattle(setup, scripted)
    b.step()
    assert state(b, "akagi") == "damaged" and state(b, "enterprise") == "undamaged"
    second = b.step()
    assert scripted.unused == [] and b.finished
    assert not any(line.startswith("Kido Butai") for line in second)
    assert any(line.startswith("TF 16 naval air") for line in second)


def test_strikes_are_simultaneous_a_carrier_sunk_still_launches() -> None:
    akagi = ship("akagi", "carrier", nation="japan", tonnage=36_500, air_groups=[bomber("a1")])
    enterprise = ship("enterprise", "carrier", tonnage=19_800, air_groups=[bomber("e1", 4)])
    setup = BattleSetup(
        "duel", Side("Kido Butai", "japan", [akagi]), Side("TF 16", "usa", [enterprise])
    )
    # Akagi's air 6+5+1 → 12+: 2 hits sink Enterprise (2 factors); hers still attack: 1 hit
    scripted = ScriptedDice([6, 5, 1, 1])
    b = AirStrikeBattle(setup, scripted)
    result = run(b)
    assert scripted.unused == []
    assert state(b, "enterprise") == "sunk" and state(b, "akagi") == "undamaged"
    assert result.winner == "a"


def test_the_winner_lost_fewer_factors() -> None:
    b = strike(dd(2), [3, 3], factor=1)
    assert b.result().winner == "a"
    b = strike(dd(2), [1, 1], factor=1)
    assert b.result().winner == ""


def test_seeded_battles_are_deterministic() -> None:
    def log(seed: int) -> list[str]:
        setup = BattleSetup.load(EXAMPLE)
        setup.conditions["strikes"] = 3
        return run(airstrike_battle(setup, SeededDice(seed))).log

    assert log(7) == log(7)
    assert log(1) != log(2)


def test_the_example_loads_and_fights() -> None:
    setup = BattleSetup.load(EXAMPLE)
    assert setup.a.nation == "japan" and setup.b.name == "Force Z"
    assert squadrons(setup.a.air_groups) == 7  # 85 bombers; the 3 search aircraft do not count
    assert {s.id: ship_factors(s) for s in setup.b.ships if s.type != "destroyer"} == {
        "prince-of-wales": 4,
        "repulse": 3,
    }
    battle_ = RULE_SETS["airstrike"](setup, SeededDice(3))
    assert battle_.rule_set == "airstrike"
    result = run(battle_)
    assert result.turns == 1 and result.log[0] == "Strike 1"
    assert set(result.ships) == {s.id for s in setup.b.ships}
    assert "kanoya-g4m" in result.air_groups


def test_rule_notes_are_recorded() -> None:
    assert len(air.RULE_NOTES) >= 20
    assert all(note.strip() for note in air.RULE_NOTES)
