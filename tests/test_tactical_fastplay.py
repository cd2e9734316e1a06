"""*World War 2 Naval Fast Play Rules* (seed 000): the tables cell by cell against the seed,
each rule with scripted dice, and whole battles."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from campaign.dice import DiceError, ScriptedDice, SeededDice, verify_chain
from campaign.tactical import RULE_SETS, AirGroup, BattleSetup, Ship, Side, run
from campaign.tactical import fastplay as fp
from campaign.tactical.fastplay import FastPlayBattle, fastplay_battle
from tests import seeds
from tests.rematches import assert_rematches_are_fresh_battles

SEED = "000_9da45e7446e38c59.txt"
EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "battles" / "fastplay-example.json"


def seed() -> str:
    return seeds.seed_text(SEED)


def rows(start: str, end: str) -> list[list[str]]:
    block = seeds.between(seed(), start, end)
    return [[c.strip() for c in line.split("\t")] for line in block.splitlines() if "\t" in line]


# -- the tables, cell by cell --------------------------------------------------------------


def test_gunnery_table_cell_by_cell() -> None:
    printed = rows("Range (in inches) up to", "All gunnery reduced")
    header, body = printed[0], printed[1:]
    assert [int(c.rstrip('"')) for c in header[2:6]] == list(fp.GUN_COLUMNS)
    assert [r[1] for r in body] == list(fp.GUNNERY_TABLE)
    for r in body:
        want = tuple(None if c == "-" else int(c) for c in r[2:6])
        assert fp.GUNNERY_TABLE[r[1]] == want, r[1]
    checked = 0
    for label, cells in fp.GUNNERY_TABLE.items():
        calibre = float(re.findall(r"[\d.]+", label)[-1])  # 18, 16, 14, 11, 8, 5.9, 5, 3.7
        for col, cell in zip(fp.GUN_COLUMNS, cells, strict=True):
            assert fp.table_dice(calibre, col) == (cell or 0), (label, col)
            checked += 1
    assert checked == 32


def test_damage_capacity_table_cell_by_cell() -> None:
    printed = rows("Vessel type\tMaximum", "Torpedo Attack")[1:]
    assert [(r[0], int(r[1])) for r in printed] == list(fp.CAPACITY_TABLE)
    codes = {
        "Submarine": ["SS"],
        "Transport vessel": ["AUX"],
        "DE/DD": ["DE", "DD"],
        "CL": ["CL"],
        "CA/BC /CVE": ["CA", "BC", "CVE"],
        "BB/CV": ["BB", "CV"],
        "BA": ["BA"],
        "Yamato and Musashi": ["YAMATO"],
    }
    for label, value in fp.CAPACITY_TABLE:
        for code in codes[label]:
            assert fp.CAPACITY[code] == value, label


def test_aa_table_cell_by_cell() -> None:
    printed = rows("AA Factor by year", "Historical Note")
    assert printed[0][1:] == list(fp.AA_YEARS)
    assert [r[0] for r in printed[1:]] == list(fp.AA_TABLE)
    for r in printed[1:]:
        assert fp.AA_TABLE[r[0]] == tuple(None if c == "-" else int(c) for c in r[1:6])
    years = (1940, 1941, 1942, 1943, 1944)
    for code, label in fp.AA_ROW.items():
        for year, cell in zip(years, fp.AA_TABLE[label], strict=True):
            assert fp.aa_factor(code, year) == (cell if cell is not None else 1)
    assert fp.aa_factor("DD", 1939) == 1 and fp.aa_factor("BB", 1945) == 4


def test_aircraft_factors_cell_by_cell() -> None:
    block = seeds.between(seed(), "Allied Aircraft", "Fighters attacking ships")
    printed = [(n.strip(), int(f)) for n, f in re.findall(r"([A-Za-z0-9/() \-]+?) = (\d)", block)]
    assert printed == list(fp.AIRCRAFT_FACTORS)
    for name, factor in printed:
        kind = "fighter" if factor >= 3 else "dive_bomber"
        group = AirGroup("g", kind, 4, model=name.split(" (")[0])
        assert fp.aircraft_factor(group, 1942) == factor, name
    # "1 TBM counter is opposed by 1 A6M6 Zero counter. TBM = 2, A6M6 = 4"
    assert "TBM = 2, A6M6 = 4" in seed()
    assert fp.aircraft_factor(AirGroup("t", "torpedo_bomber", 4, model="TBM Avenger"), 1944) == 2
    zero = AirGroup("z", "fighter", 4, model="A6M Zero")
    assert fp.aircraft_factor(zero, 1942) == 3 and fp.aircraft_factor(zero, 1944) == 4
    assert fp.aircraft_factor(AirGroup("x", "fighter", 4, factor=6), 1942) == 6


def test_movement_rates_are_the_seeds() -> None:
    text = " ".join(seed().split())
    assert (
        "CL, DD, DE move 10 inches. CA, BA, BC, CV, IJN CVL move 9 inches. BB, US CVE move 7. "
        "All transport and fleet train vessels move 6 inches per game turn." in text
    )
    for code, inches in (("CL", 10), ("DD", 10), ("DE", 10), ("CA", 9), ("BA", 9), ("BC", 9)):
        assert fp.MOVEMENT[code] == inches
    assert (fp.MOVEMENT["CV"], fp.MOVEMENT["CVL"], fp.MOVEMENT["BB"]) == (9, 9, 7)
    assert (fp.MOVEMENT["CVE"], fp.MOVEMENT["AUX"]) == (7, 6)
    for degrees, inches in fp.TURN_PENALTY.items():
        assert f"If turning up to {degrees}°, reduce movement" in text
        assert f"by {inches} inch" in text.split(f"up to {degrees}°")[1][:40]


def test_counters_follow_the_santa_cruz_example() -> None:
    block = seeds.between(seed(), "Battle of Santa Cruz Islands", "It can be seen")
    pairs = re.findall(r"(\d+)\((\d+)\)", block)
    assert len(pairs) == 17
    for aircraft, shown in pairs:
        assert fp.counters(int(aircraft)) == int(shown), aircraft


# -- pure rules ----------------------------------------------------------------------------


def test_calibres_read_the_nearest_row() -> None:
    assert fp.calibre_inches("14in") == 14.0 and fp.calibre_inches("150mm") == 5.9
    assert fp.gun_row(18.1) == '18"' and fp.gun_row(16) == '15/16"' and fp.gun_row(13.5) == '14"'
    assert fp.gun_row(11) == '12"-11"' and fp.gun_row(9.2) == '8"'
    assert fp.gun_row(5.5) == '5.25"- 5"' and fp.gun_row(4.7) == '5.25"- 5"'
    assert fp.gun_row(4.0) == '3.7"' and fp.gun_row(2.0) is None
    assert fp.column_for(37) is None and fp.column_for(30) == 36 and fp.column_for(3) == 12


def test_battery_dice_modifiers() -> None:
    # 14" at 30": 1 die, +1D6 for more than 8 guns
    assert fp.battery_dice(14, 30, 9, main=True) == 2
    assert fp.battery_dice(14, 30, 8, main=True) == 1  # exactly 8: no modifier
    assert fp.battery_dice(8, 18, 6, main=True) == 5  # fewer than 8 guns -1D6
    assert fp.battery_dice(8, 18, 8, main=True, single_mounts=True) == 5
    assert fp.battery_dice(8, 18, 6, main=False) == 6  # secondaries have no gun modifier
    assert fp.battery_dice(8, 12, 8, main=True, reduced_visibility=True) == 4  # half D6
    assert fp.battery_dice(8, 12, 8, main=True, reduced_visibility=True, radar=True) == 5
    assert fp.battery_dice(8, 12, 8, main=True, radar=True) == 8  # radar only at night/bad
    assert fp.battery_dice(8, 12, 8, main=True, target_stopped=True) == 9
    assert fp.battery_dice(8, 12, 8, main=True, end_on=True) == 4  # not a full broadside
    assert fp.battery_dice(8, 12, 8, main=True, damage=3) == 5  # 1D6 a retained damage
    assert fp.battery_dice(8, 30, 10, main=True) == 0  # "-": no fire
    assert fp.battery_dice(14, 37, 10, main=True) == 0  # beyond 36"


def test_damage_and_heavy_calibre() -> None:
    assert fp.hit_damages(8, "CA", [5]) == 5
    assert fp.hit_damages(6, "CA", [5]) == 3  # 6in or smaller against CA or larger: halved
    assert fp.hit_damages(5, "DD", [5]) == 5
    assert fp.hit_damages(18.1, "BB", [4]) == 8  # 18.1in doubled
    assert fp.heavy_extra(8, "DD") and fp.heavy_extra(14, "CL") and not fp.heavy_extra(8, "CA")
    assert not fp.heavy_extra(6, "DD")
    assert fp.gun_sink_test(8, "BB") and fp.gun_sink_test(6, "CL") and fp.gun_sink_test(5, "AUX")
    assert not fp.gun_sink_test(6, "CA")
    # calibres between the printed sizes count as their gunnery-table row: 6.1in (155mm)
    # reads 6"-5.9" (halved against a CA, sink test against a DD); 7.5in reads 8" (the
    # extra die against light ships, always a sink test); 18.1in reads 18" (doubled)
    assert fp.hit_damages(6.1, "CA", [5]) == 3 and fp.gun_sink_test(6.1, "DD")
    assert not fp.gun_sink_test(6.1, "CA")
    assert fp.heavy_extra(7.5, "DD") and fp.gun_sink_test(7.5, "CA")
    assert fp.hit_damages(7.5, "CA", [5]) == 5


def test_torpedo_dice() -> None:
    assert fp.torpedo_dice(3, 6) == 4
    assert fp.torpedo_dice(4, 6) == 2  # over half maximum range -2D6
    assert fp.torpedo_dice(4, 8) == 4  # Long Lance half range is 4"
    assert fp.torpedo_dice(7, 6) == 0 and fp.torpedo_dice(8, 8) == 2
    assert fp.torpedo_dice(3, 6, night=True) == 2
    assert fp.torpedo_dice(3, 6, aspect="oblique") == 3
    assert fp.torpedo_dice(3, 6, aspect="end-on") == 2
    assert fp.torpedo_dice(3, 6, target_slow=True) == 5
    assert fp.torpedo_dice(3, 6, damage=1, base=fp.MTB_DICE) == 1


def test_roll_off_and_strike_assembly() -> None:
    assert fp.roll_off_hits([6, 5, 2, 1], [5, 4, 3, 3]) == 1
    assert fp.roll_off_hits([5, 5], [5, 1]) == 0  # ties to the target
    # "On a US CVE the number of aircraft counters available are approximately 4. The 1D6
    # dice roll should be reduced by 2."
    assert fp.assembled(5, 4) == 3 and fp.assembled(6, 4) == 4 and fp.assembled(2, 4) == 0
    assert fp.assembled(2, 9) == 5 and fp.assembled(6, 9) == 9 and fp.assembled(6, 6) == 6


def ship(id_: str, type_: str, nation: str = "usa", **kw: Any) -> Ship:
    return Ship(id=id_, name=id_.title(), nation=nation, type=type_, **kw)


def test_vessel_types_and_capacity() -> None:
    assert fp.vessel_type(ship("nc", "battleship", speed=28)) == "BA"
    assert fp.vessel_type(ship("ten", "battleship", speed=21)) == "BB"
    assert fp.damage_capacity(Ship("y", "Yamato", "japan", "battleship", speed=27)) == 14
    assert fp.vessel_type(ship("atl", "light_cruiser", guns={"5in": 16})) == "CLAA"
    assert fp.vessel_type(ship("cl", "light_cruiser", guns={"6in": 15})) == "CL"
    old = ship("nev", "battleship", speed=20.5, completed=1916)
    assert fp.damage_capacity(old) == 9  # older ships -1
    assert fp.damage_capacity(old, ["nev"]) == 10  # modernized before WW2
    assert fp.damage_capacity(ship("x", "destroyer", damage_capacity=3)) == 3
    with pytest.raises(ValueError):
        fp.vessel_type(ship("z", "zeppelin"))


# -- rules in battle, with scripted dice ---------------------------------------------------


def setup_of(a: list[Ship], b: list[Ship], **conditions: Any) -> BattleSetup:
    return BattleSetup("test", Side("Blue", "usa", a, []), Side("Red", "japan", b, []), conditions)


def duel(dice: list[int], **conditions: Any) -> tuple[FastPlayBattle, ScriptedDice]:
    ca = ship("ca", "heavy_cruiser", guns={"8in": 10})
    dd = ship("dd", "destroyer", nation="japan")
    cond = {"start_range": 12, "intent": {"a": "hold", "b": "hold"}, "turn_limit": 1}
    scripted = ScriptedDice(dice)
    return FastPlayBattle(setup_of([ca], [dd], **{**cond, **conditions}), scripted), scripted


def test_gunnery_hit_heavy_calibre_damage_repair() -> None:
    # initiative 6-1; 9 dice (8 + 1 for 10 guns); damage 3 + heavy 2; sink test 1-2;
    # repair 4 → 1 damage retained
    b, dice = duel([6, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 3, 2, 1, 2, 4])
    b.step()
    assert dice.unused == [] and b.finished
    r = b.result()
    assert r.ships["dd"].state == "damaged" and r.ships["dd"].damage == 1
    assert any("5 damages" in line for line in r.log)


def test_an_extra_roll_fails() -> None:
    b, _ = duel([6, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 3, 2, 1, 2])
    with pytest.raises(DiceError):
        b.step()


def test_sink_test_double_sinks_at_once() -> None:
    b, dice = duel([6, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 3, 2, 4, 4])
    b.step()
    assert dice.unused == []
    r = b.result()
    assert r.ships["dd"].state == "sunk" and r.winner == "a"


def test_initiative_ties_are_rolled_again() -> None:
    b, dice = duel([3, 3, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    lines = b.step()
    assert dice.unused == [] and "initiative 1-2: Red" in lines[0]


def test_repair_capacity_and_morale() -> None:
    ca = ship("ca", "heavy_cruiser")
    dd = ship("dd", "destroyer", nation="japan")
    b = FastPlayBattle(setup_of([ca], [dd], start_range=40), ScriptedDice([2, 2, 2, 3]))
    b.units["ca"].damage = 11
    b.units["dd"].damage = 6  # 6 - 2 = 4 ≥ half of 6: morale 2+3 = 5 ≥ 4 stays
    lines = b.repair()
    assert b.units["ca"].sunk and "lost (capacity 9)" in lines[0]
    assert not b.units["dd"].withdrawn and b.units["dd"].retained == 4
    b.dice = ScriptedDice([1, 1, 2])
    b.units["dd"].damage = 5  # 5 - 1 = 4; morale 1+2 = 3 < 4: withdraws
    b.repair()
    assert b.units["dd"].withdrawn and b.units["dd"].rate == 6


def test_movement_faster_side_chooses() -> None:
    bb = ship("bb", "battleship", speed=21)
    dd = ship("dd", "destroyer", nation="japan")
    b = FastPlayBattle(
        setup_of([bb], [dd], start_range=30, intent={"a": "close", "b": "open"}), ScriptedDice([])
    )
    b.turn = 1
    b.movement()
    assert b.range == 30 + 10 - 7  # the destroyers (10") open; the battleship (7") chases
    b2 = FastPlayBattle(
        setup_of([bb], [dd], start_range=30, intent={"a": "close", "b": ["close", "open"]}),
        ScriptedDice([]),
    )
    b2.turn = 1
    b2.movement()
    assert b2.range == 30 - 17
    b2.turn = 2
    b2.movement()  # a 180° turn costs 3": 10 - 3 = 7 against 7: the range holds
    assert b2.range == 13 and b2.aspect(1) == "end-on" and b2.aspect(0) == "oblique"


def test_night_visibility_radar_and_identification() -> None:
    ca = ship("ca", "heavy_cruiser", guns={"8in": 10})
    dd = ship("dd", "destroyer", nation="japan")
    b = FastPlayBattle(
        setup_of([ca], [dd], start_range=10, night=True, radar={"a": True}),
        ScriptedDice([3, 3, 1, 1]),
    )
    assert b.visibility == [6, 2]
    assert b.located(0, b.units["dd"]) == (True, True)  # radar contact only
    assert b.located(1, b.units["ca"]) == (False, False)
    b.units["ca"].revealed = True  # "Once firing is commenced, all firers are located"
    assert b.located(1, b.units["ca"]) == (True, False)


def test_torpedo_salvo_roll_off() -> None:
    dd = ship("dd", "destroyer", nation="japan", torpedo_tubes=8)
    cl = ship("cl", "light_cruiser", guns={"6in": 8})
    dice = ScriptedDice([6, 6, 5, 2, 1, 1, 5, 3, 4, 2, 1, 3, 5, 2])
    b = FastPlayBattle(setup_of([cl], [dd], start_range=4, intent={"a": "hold", "b": "hold"}), dice)
    b.turn = 1
    lines = b.torpedoes(1)  # 4D6 (Long Lance, 4" is half range, beam on): two 6s beat a 5
    assert dice.unused == []
    assert "2 hit(s)" in lines[0]
    assert b.units["cl"].damage == 7 and b.units["dd"].salvos == 1
    assert b.units["cl"].torpedoed_by == {"dd"}


def test_asw_sinks_drives_off_or_is_evaded() -> None:
    def sub_battle(dice: list[int]) -> FastPlayBattle:
        sub = ship("i1", "submarine", nation="japan", torpedo_tubes=6)
        screen = [ship(f"dd{i}", "destroyer") for i in (1, 2, 3)]
        bb = ship("bb", "battleship", speed=21)
        return FastPlayBattle(setup_of([bb, *screen], [sub], start_range=40), ScriptedDice(dice))

    b = sub_battle([6, 1, 5, 5])
    attacks, _ = b.asw()
    assert attacks == [] and b.units["i1"].sunk
    b = sub_battle([3, 2, 3, 5])
    attacks, _ = b.asw()
    assert attacks == [] and b.units["i1"].sub_rest == 2
    b = sub_battle([2, 1, 3, 4, 6, 6, 1, 1, 5, 4, 2, 1, 3, 1, 2, 3, 4, 4])
    attacks, _ = b.asw()
    assert [t.ship.id for _, t in attacks] == ["bb"]
    lines = b.submarine_attacks(attacks)
    assert "2 hit(s)" in lines[0] and b.units["bb"].damage == 6 and b.units["bb"].sunk


def carrier_setup(**conditions: Any) -> BattleSetup:
    groups = [
        AirGroup("vf", "fighter", 24, name="VF", base="cv", model="F4F Wildcat"),
        AirGroup("vb", "dive_bomber", 36, name="VB", base="cv", model="SBD Dauntless"),
    ]
    cv = ship("cv", "carrier", air_groups=groups)
    kaga = ship("kaga", "carrier", nation="japan")
    return setup_of([cv], [kaga], **conditions)


def test_locating_the_target_and_the_raid_track() -> None:
    # a searches b's sector 2 (rolls 2: found), then rolls a 6 at 330 miles
    b = FastPlayBattle(carrier_setup(sector={"a": 1, "b": 2}), ScriptedDice([2, 6]))
    assert [(r.side, r.arrives) for r in b.raids] == [(0, 12)]
    assert b.turn_limit == 12
    # both search: a finds sector then a 6 in round 2; b rolls 3 (round 2), 4, 6 (round 4)
    both = carrier_setup(sector={"a": 1, "b": 2})
    both.b.ships[0].air_groups = [AirGroup("kb", "torpedo_bomber", 20, base="kaga")]
    b = FastPlayBattle(both, ScriptedDice([2, 1, 6, 3, 4, 6]))
    assert [(r.side, r.arrives) for r in b.raids] == [(0, 12), (1, 15)]  # three rolls
    # both sixes in the fixing round: nobody is behind
    b = FastPlayBattle(both, ScriptedDice([2, 1, 6, 6]))
    assert [(r.side, r.arrives) for r in b.raids] == [(0, 12), (1, 12)]


def both_locating(**conditions: Any) -> BattleSetup:
    setup = carrier_setup(sector={"a": 1, "b": 2}, **conditions)
    setup.b.ships[0].air_groups = [AirGroup("kb", "torpedo_bomber", 20, base="kaga")]
    return setup


def test_the_locating_example_puts_the_second_player_six_turns_behind() -> None:
    """000 "Locating the enemy": *The first player rolls a '6' on first attempt. He locates
    the target at 330 miles ... This requires 12 game turns ... The second player fails to
    roll the required '6' on any dice rolls until he rolls 6D6. This means that he is six
    game turns behind the first player in launching his attack.*"""
    sectors = [2, 1]  # each side first finds the other's direction (sectors 2 and 1)
    first_round = [6, 1]  # the first player's 6 on his first attempt; the second's miss
    then = [2, 3, 4, 5, 6]  # "fails ... until he rolls 6D6": his sixth die is the 6
    b = FastPlayBattle(both_locating(), ScriptedDice([*sectors, *first_round, *then]))
    assert [(r.side, r.arrives) for r in b.raids] == [(0, 12), (1, 12 + 6)]
    assert "raid arrives turn 18 (6 turns behind)" in " ".join(b._setup_lines)
    # the rule option counts rounds from the fix: the same six turns here ...
    b = FastPlayBattle(
        both_locating(locate_delay="from_fix"), ScriptedDice([*sectors, *first_round, *then])
    )
    assert [r.arrives for r in b.raids] == [12, 18]


def test_the_locating_example_is_quoted_from_the_seed() -> None:
    example = seeds.between(seed(), "Example:", "Both players assemble")
    assert "The first player rolls a '6' on first attempt" in example
    assert "until he rolls 6D6" in example and "six game turns behind" in example


def test_the_two_ways_of_counting_the_delay_differ_once_the_fix_took_rolls() -> None:
    # both miss twice, a rolls its 6 in round 4 (its third roll), b in round 5 (its fourth)
    dice = [2, 1, 1, 1, 2, 2, 6, 3, 6]
    b = FastPlayBattle(both_locating(), ScriptedDice(dice))
    assert [r.arrives for r in b.raids] == [12, 12 + 4]  # every roll b made for the range
    b = FastPlayBattle(both_locating(locate_delay="from_fix"), ScriptedDice(dice))
    assert [r.arrives for r in b.raids] == [12, 12 + 2]  # rounds 4 and 5
    with pytest.raises(ValueError, match="locate_delay 'late': use all_rolls or from_fix"):
        FastPlayBattle(both_locating(locate_delay="late"), ScriptedDice(dice))


def test_raid_cap_aa_and_attack() -> None:
    setup = carrier_setup(sector={"a": 1, "b": 2}, raid_turns=1, turn_limit=1)
    setup.b.ships[0].air_groups = [AirGroup("zero", "fighter", 4, base="kaga", model="A6M2")]
    dice = [2, 6]  # locate: raid arrives on turn 1
    dice += [6, 1]  # initiative
    dice += [4, 3]  # assembly: fighters 4 + (6 - 6) = 4 of 6; bombers 3 + 3 = 6 of 9
    dice += [1, 2, 3, 5, 5, 4]  # CAP Zero (3D6) against the first escort (3D6): driven off
    dice += [6, 1]  # AA: CV in 1942 reads BB - BA: 2D6, one 6 removes one bomber
    dice += [6, 6, 1, 1, 5, 2, 2, 2]  # first bomber: 2 hits
    dice += [4, 2]  # two bomb hits: 4 and 2 damages (no sink test on a CV)
    dice += [1, 1, 1, 1, 6, 6, 6, 6] * 4  # four more bombers miss
    dice += [3]  # repair: 6 - 3 = 3
    b = FastPlayBattle(setup, ScriptedDice(dice))
    b.step()
    assert isinstance(b.dice, ScriptedDice) and b.dice.unused == []
    r = b.result()
    assert r.ships["kaga"].damage == 3 and r.ships["kaga"].state == "damaged"
    assert r.air_groups["vb"].lost == 4 and r.air_groups["zero"].lost == 0


# -- whole battles ---------------------------------------------------------------------------


def test_the_example_loads_and_matches_ships_csv() -> None:
    setup = BattleSetup.load(EXAMPLE)
    names = {s.name for s in setup.a.ships} | {s.name for s in setup.b.ships}
    assert {"De Ruyter", "Java", "Exeter", "Houston", "Perth", "Nachi", "Haguro"} <= names
    csv = Path(__file__).resolve().parent.parent / "data" / "scenarios" / "1942" / "ships.csv"
    import csv as csvmod

    with csv.open(encoding="utf-8") as f:
        listed = {row["id"]: row for row in csvmod.DictReader(f)}
    for s in setup.a.ships + setup.b.ships:
        row = listed.get(s.id)
        if row is None:
            continue
        assert (s.name, s.nation, s.type) == (row["name"], row["nation"], row["type"])
        assert (s.tonnage, s.completed) == (int(row["tonnage"]), int(row["completed"]))
        assert s.speed == float(row["speed"]) and s.torpedo_tubes == int(row["torpedo_tubes"])
        guns = dict(p.split(":") for p in row["guns"].split())
        assert s.guns == {k: int(v) for k, v in guns.items()}
    assert RULE_SETS["fastplay"] is fastplay_battle


def test_a_whole_battle_is_deterministic() -> None:
    setup = BattleSetup.load(EXAMPLE)
    first = run(fastplay_battle(setup, SeededDice("java-sea")))
    again = run(fastplay_battle(BattleSetup.load(EXAMPLE), SeededDice("java-sea")))
    other = run(fastplay_battle(setup, SeededDice("other")))
    assert first.log == again.log and first.winner == again.winner
    assert first.log != other.log
    assert first.rule_set == "fastplay" and "The battle ends after turn" in first.log[-1]
    assert setup.to_json() == BattleSetup.load(EXAMPLE).to_json()  # the set-up is unchanged


def test_many_battles_end_and_are_consistent() -> None:
    setup = BattleSetup.load(EXAMPLE)
    for i in range(15):
        dice = SeededDice(i)
        b = fastplay_battle(setup, dice)
        r = run(b)
        assert b.finished and r.turns <= 12 and verify_chain(dice.log.rolls) == []
        for s in r.ships.values():
            assert s.state in ("undamaged", "damaged", "crippled", "sunk")
            cap = fp.damage_capacity(s)
            assert (s.state == "sunk") == (s.damage == cap and s.state == "sunk")
        assert b.step() == []


def test_a_night_carrier_and_submarine_battle_runs() -> None:
    setup = carrier_setup(night=True, radar={"usa": True}, year=1944)
    setup.a.ships.append(ship("dd", "destroyer", torpedo_tubes=10, guns={"5in": 5}))
    setup.b.ships.append(ship("i26", "submarine", nation="japan", torpedo_tubes=6))
    setup.b.air_groups.append(AirGroup("tokko", "kamikaze", 24, base="Mabalacat"))
    for i in range(5):
        r = run(fastplay_battle(setup, SeededDice(i)))
        assert r.turns >= 1 and r.winner in ("a", "b", "")


def test_a_rematch_fights_the_very_battle_a_fresh_one_would() -> None:
    """An odds preview fights its battles from one unplayed opening (``rematch``); the
    set-up's own dice (night visibility, finding the enemy) are rolled again."""
    night = carrier_setup(night=True, radar={"usa": True}, year=1944)
    night.a.ships.append(ship("dd", "destroyer", torpedo_tubes=10, guns={"5in": 5}))
    night.b.ships.append(ship("i26", "submarine", nation="japan", torpedo_tubes=6))
    night.b.air_groups.append(AirGroup("tokko", "kamikaze", 24, base="Mabalacat"))
    for setup in (BattleSetup.load(EXAMPLE), night, both_locating()):
        assert_rematches_are_fresh_battles(fastplay_battle, setup, 12)


# -- smoke, escorts, guided bombs, kamikaze, the 1944 air bonus (each alone) -----------------


def test_smoke_screens_the_side_that_lays_it() -> None:
    # 'when firing through a smoke screen': the heavy cruiser's 8in at 12" is 8D6, +1 for ten
    # guns = 9D6 in the clear; into Japanese smoke half (4), +1 = 5D6; her own smoke is no
    # screen for her target; radar adds 1D6 back through smoke.
    cases = [
        ({}, 9),
        ({"smoke": {"japan": True}}, 5),
        ({"smoke": {"b": True}}, 5),
        ({"smoke": {"usa": True}}, 9),
        ({"smoke": {"japan": True}, "radar": {"usa": True}}, 6),
    ]
    for conditions, dice in cases:
        b, scripted = duel([6, 1] + [1] * dice, **conditions)  # initiative, then all misses
        b.step()
        assert scripted.unused == [], conditions
        fired = [r for r in scripted.log.rolls if r.purpose.startswith("Ca main")]
        assert len(fired) == dice, conditions


def raid_battle(
    red: list[AirGroup], blue: list[Ship], year: int, red_nation: str = "japan", **cond: Any
) -> tuple[FastPlayBattle, Any]:
    """Red's land-based air has found Blue (sector 2, a 6 at once): the raid arrives on turn
    1. Returns the battle at turn 1 and its raid; the test gives the dice from there."""
    setup = BattleSetup(
        "raid",
        Side("Red", red_nation, [], red),
        Side("Blue", "usa", blue, []),
        {"sector": {"a": 1, "b": 2}, "raid_turns": 1, "year": year, **cond},
    )
    b = FastPlayBattle(setup, ScriptedDice([2, 6]))
    assert [r.arrives for r in b.raids][:1] == [1]
    b.turn = 1
    return b, b.raids[0]


def rolls_for(dice: ScriptedDice, start: str) -> list[int]:
    return [r.value for r in dice.log.rolls if r.purpose.startswith(start)]


def test_escort_fighters_suppress_a_light_ship_but_not_a_claa() -> None:
    # 1942: the carrier (BB - BA row) has 2 AA dice, the Atlanta (CLAA) 2, the destroyer 1.
    # An escort not met by CAP suppresses the destroyer — the CLAA cannot be — so the AA
    # over the carrier is 2 + 2 = 4D6, not 5D6.
    blue = [
        ship("cv", "carrier"),
        ship("atlanta", "light_cruiser", guns={"5in": 16}),
        ship("dd", "destroyer"),
    ]
    for escort, aa_dice in ((True, 4), (False, 5)):
        red = [AirGroup("val", "dive_bomber", 4, base="Rabaul", model="D3A Val")]
        if escort:
            red.insert(0, AirGroup("zero", "fighter", 4, base="Rabaul", model="A6M2 Zero"))
        b, raid = raid_battle(red, blue, 1942)
        assembly = [6] * len(red)  # 1D6 less (6 - 1 counter): a 6 launches the one counter
        b.dice = ScriptedDice(assembly + [1] * aa_dice)
        b.assemble(raid)
        plan, lines = b.air_defence(raid)
        assert b.dice.unused == [], escort
        assert len(rolls_for(b.dice, "AA over Cv")) == aa_dice
        assert ("zero fighters suppress Dd's AA" in lines) is escort
        assert [c.group.id for c in plan["cv"]] == ["val"]


def test_guided_bombs_take_no_aa_and_attack_with_two_dice() -> None:
    # An HS293 counter and a plain Do 217 counter at a light cruiser (CL - CVL 1943: 2D6).
    # Two AA sixes remove only the plain bomber; the guided bomb rolls 2D6 against 2D6.
    red = [
        AirGroup("hs293", "level_bomber", 4, base="Istres", model="Do 217K / HS293"),
        AirGroup("do217", "level_bomber", 4, base="Istres", model="Do 217K"),
    ]
    b, raid = raid_battle(
        red, [ship("savannah", "light_cruiser", guns={"6in": 15})], 1943, red_nation="germany"
    )
    assembly, aa = [6, 6], [6, 6]  # one 6 a group launches its counter; AA: two sixes
    b.dice = ScriptedDice(assembly + aa)
    b.assemble(raid)
    plan, _ = b.air_defence(raid)
    assert [c.group.id for c in plan["savannah"]] == ["hs293"]
    # attack 5, 4 against the target's 3, 2: both beat 3 — 2 hits; damages 2 and 1;
    # each bomb hit on a CL is sink-tested (1-2, 3-4: afloat)
    b.dice = ScriptedDice([5, 4, 3, 2, 2, 1, 2, 1, 3, 4])
    lines = b.air_attacks(raid, plan)
    assert b.dice.unused == []
    assert "hs293 at Savannah: [5 4] v [3 2] - 2 hit(s)" in lines
    assert b.units["savannah"].damage == 3


def test_kamikaze_only_from_1944() -> None:
    tokko = AirGroup("tokko", "kamikaze", 8, base="Mabalacat")
    # before 1944 a side with only kamikaze aircraft has no strike: it does not even search
    setup = BattleSetup(
        "raid",
        Side("Red", "japan", [], [tokko]),
        Side("Blue", "usa", [ship("dd", "destroyer")], []),
        {"sector": {"a": 1, "b": 2}, "raid_turns": 1, "year": 1943},
    )
    assert FastPlayBattle(setup, ScriptedDice([])).raids == []
    # and alongside bombers, the kamikaze group does not fly (not even its assembly die)
    val = AirGroup("val", "dive_bomber", 4, base="Mabalacat", model="D3A Val")
    b, raid = raid_battle([tokko, val], [ship("dd", "destroyer")], 1943)
    b.dice = ScriptedDice([6])  # the Vals' assembly die only
    assert b.assemble(raid) == ["Red raid arrives: 1 val"]
    assert [c.group.id for c in raid.counters] == ["val"]


def test_kamikaze_rolls_against_aa_and_hits_as_a_12in_shell_without_sink_test() -> None:
    # 8 aircraft = 2 counters; the assembly die 6 launches both. They take no general AA
    # (no AA dice before the attacks). Each rolls 2D6 against the destroyer's 2 AA dice
    # (DD/DE 1944/45): the first 6-5 beats 2-1 and hits as a 12in shell — 1D6 and, on a
    # destroyer, +1D6 (3 + 4 = 7 damages) with no sink test; the second 3-2 against 4-1 misses.
    tokko = AirGroup("tokko", "kamikaze", 8, base="Mabalacat")
    b, raid = raid_battle([tokko], [ship("dd", "destroyer")], 1944)
    b.dice = ScriptedDice([6])
    b.assemble(raid)
    plan, lines = b.air_defence(raid)
    assert len(plan["dd"]) == 2 and not any("AA over" in line for line in lines)
    first, second = [6, 5, 2, 1, 3, 4], [3, 2, 4, 1]  # 2D6 v 2D6 (+ 2 damage dice)
    b.dice = ScriptedDice(first + second)
    lines = b.air_attacks(raid, plan)
    assert b.dice.unused == []
    assert lines == [
        "kamikaze tokko strikes Dd",
        "Dd: 7 damages (7 now)",
        "kamikaze tokko misses Dd",
    ]
    assert not any("sink test" in r.purpose for r in b.dice.log.rolls)
    assert b.lost_aircraft["tokko"] == 8  # both counters are spent


def test_kamikaze_attacks_are_rolled_once_a_game() -> None:
    # 'using 1D6 roll for the number of attacks per GAME': a second raid brings none
    tokko = AirGroup("tokko", "kamikaze", 24, base="Mabalacat")
    b, raid = raid_battle([tokko], [ship("dd", "destroyer")], 1944, strikes=2)
    assert len(b.raids) == 2
    b.dice = ScriptedDice([3])  # 6 counters: 3 + (6 - 6) = 3 attacks for the game
    b.assemble(raid)
    assert len(raid.counters) == 3
    b.dice = ScriptedDice([])
    assert b.assemble(b.raids[1]) == ["Red raid arrives: nothing serviceable"]


def test_allied_air_to_air_dice_get_one_more_from_1944_against_japan() -> None:
    # A US Wildcat CAP counter (3D6) meets the Zero escort. The Zero rolls first (3D6 to
    # 1943, 4D6 as an A6M from 1944), then the Wildcat. In 1944 the Wildcat's 5 reads 6 and
    # shoots the Zero down; in 1943 it stays a 5, beats the Zero's 4 and drives it off.
    # The Japanese dice never get the bonus: the Zero's 5 stays a 5.
    for year, zero_dice, result in (
        (1944, [5, 1, 1, 1], "zero counter shot down"),
        (1943, [4, 1, 1], "zero driven off"),
    ):
        red_cv = ship(
            "shokaku",
            "carrier",
            nation="japan",
            air_groups=[
                AirGroup("zero", "fighter", 4, base="shokaku", model="A6M Zero"),
                AirGroup("val", "dive_bomber", 4, base="shokaku", model="D3A Val"),
            ],
        )
        blue_cv = ship(
            "cv",
            "carrier",
            air_groups=[AirGroup("vf", "fighter", 4, base="cv", model="F4F Wildcat")],
        )
        setup = BattleSetup(
            "cap",
            Side("Red", "japan", [red_cv], []),
            Side("Blue", "usa", [blue_cv], []),
            {"sector": {"a": 1, "b": 2}, "raid_turns": 1, "year": year},
        )
        b = FastPlayBattle(setup, ScriptedDice([2, 6]))
        b.turn = 1
        raid = b.raids[0]
        aa = fp.aa_factor("CV", year)
        b.dice = ScriptedDice([6, 6] + zero_dice + [5, 1, 1] + [1] * aa)
        b.assemble(raid)
        _, lines = b.air_defence(raid)
        assert b.dice.unused == [], year
        combat = next(line for line in lines if line.startswith("CAP vf"))
        assert combat.endswith(result), (year, combat)
        shown = "[6 2 2]" if year >= 1944 else "[5 1 1]"
        assert combat.startswith(f"CAP vf ({shown})"), combat
        assert f"zero ({fp._show(zero_dice)})" in combat


def test_single_mounts_and_more_than_eight_guns_are_separate_modifiers() -> None:
    # "+1D6 for main batteries with more than 8 guns"; "-1D6 ... less than 8 guns or manually
    # loaded single mounts": twelve single-mount 6in guns (Omaha-like) get both; fewer than
    # eight in single mounts lose one die, not two
    assert fp.battery_dice(6, 12, 12, main=True, single_mounts=True) == 8
    assert fp.battery_dice(6, 12, 12, main=True) == 9
    assert fp.battery_dice(6, 12, 6, main=True, single_mounts=True) == 7


def test_target_priority_remembers_last_turn_only() -> None:
    # "Targets should be engaged that have fired on the firer first": last turn or this turn
    big = ship("big", "battleship", nation="japan", guns={"14in": 8}, speed=25)
    small = ship("small", "heavy_cruiser", nation="japan", guns={"8in": 10})
    ca = ship("ca", "heavy_cruiser", guns={"8in": 9})
    b = FastPlayBattle(setup_of([ca], [big, small]), ScriptedDice([]))
    unit = b.units["ca"]
    assert b.choose_target(unit, 0, main=True) is b.units["big"]  # its opposite number
    unit.fired_at_by.add("small")  # the cruiser fired at it this turn
    assert b.choose_target(unit, 0, main=True) is b.units["small"]
    b.remember_last_turn()  # next turn: it fired last turn
    assert b.choose_target(unit, 0, main=True) is b.units["small"]
    b.remember_last_turn()  # a turn later, with no more fire from it: forgotten
    assert b.choose_target(unit, 0, main=True) is b.units["big"]


def test_fighters_left_at_home_fly_cap_counter_by_counter() -> None:
    # each side's 24 fighters are 6 counters; Blue's raid takes 1 of them as escort, so 5 fly
    # CAP against Red's raid (not none because the group sent one)
    def carrier(id_: str, nation: str, fighter: str, bomber: str) -> Ship:
        groups = [
            AirGroup(f"{id_}_f", "fighter", 24, base=id_, model=fighter),
            AirGroup(f"{id_}_b", "dive_bomber", 24, base=id_, model=bomber),
        ]
        return ship(id_, "carrier", nation=nation, air_groups=groups)

    setup = BattleSetup(
        "cap",
        Side("Red", "japan", [carrier("red", "japan", "A6M2 Zero", "D3A Val")]),
        Side("Blue", "usa", [carrier("blue", "usa", "F4F Wildcat", "SBD Dauntless")]),
        {"sector": {"a": 1, "b": 2}, "raid_turns": 1, "year": 1942},
    )
    # both find the other's sector at once, then both roll a 6: both raids arrive on turn 1
    b = FastPlayBattle(setup, ScriptedDice([2, 1, 6, 6]))
    red_raid, blue_raid = sorted(b.raids, key=lambda r: r.side)
    assert (red_raid.arrives, blue_raid.arrives) == (1, 1)
    b.turn = 1
    b.dice = ScriptedDice([6, 6, 1, 6])  # Red launches 6 + 6 counters; Blue 1 fighter, 6 SBD
    b.assemble(red_raid)
    b.assemble(blue_raid)
    b.dice = SeededDice("cap")
    _, lines = b.air_defence(red_raid)
    assert sum(line.startswith("CAP blue_f") for line in lines) == 5


def test_step_7_torpedoes_and_submarines_go_side_by_side_in_initiative_order() -> None:
    # "7. Resolve surface and submarine launched torpedo attacks", the initiative winner
    # "attacks ... first": its ships and its submarines, then the other side's
    setup = setup_of(
        [ship("dd", "destroyer", torpedo_tubes=8), ship("ss", "submarine", torpedo_tubes=6)],
        [
            ship("kdd", "destroyer", nation="japan", torpedo_tubes=8),
            ship("iss", "submarine", nation="japan", torpedo_tubes=6),
        ],
        start_range=12,
    )
    b = FastPlayBattle(setup, SeededDice("order"))
    calls: list[tuple[str, object]] = []

    def first_is_b() -> list[str]:
        b.first = 1
        return []

    b.initiative = first_is_b  # type: ignore[method-assign]
    b.asw = lambda: (  # type: ignore[method-assign]
        [(b.units["ss"], b.units["kdd"]), (b.units["iss"], b.units["dd"])],
        [],
    )
    b.torpedoes = lambda i: calls.append(("ships", i)) or []  # type: ignore[method-assign]
    b.submarine_attacks = lambda attacks: (  # type: ignore[method-assign]
        calls.append(("boats", [u.side for u, _ in attacks])) or []
    )
    b.play_turn()
    assert calls == [("ships", 1), ("boats", [1]), ("ships", 0), ("boats", [0])]
