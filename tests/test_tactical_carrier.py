"""*A Terrible Resolve* (seed 003): the carrier battle, table by table and rule by rule."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from campaign.dice import DiceError, ScriptedDice, SeededDice, UnloggedDice, verify_chain
from campaign.tactical import RULE_SETS, BattleSetup, Ship, run
from campaign.tactical import carrier as cv
from campaign.tactical.carrier import (
    ABOARD,
    ATTACKING,
    CAP,
    DECK,
    DESTROYED,
    HOME,
    MOVING,
    READY,
    WAITING,
    CarrierBattle,
    carrier_battle,
)
from tests import seeds
from tests.rematches import assert_rematches_are_fresh_battles

SEED = "003_7f0288c8fccba7df.txt"
MIDWAY = Path(__file__).resolve().parent.parent / "data" / "battles" / "midway.json"


def seed() -> str:
    return seeds.seed_text(SEED)


# ---------------------------------------------------------------------------------------
# The seed's tables, cell by cell
# ---------------------------------------------------------------------------------------


def printed_ship_data() -> dict[str, tuple[int, str, int, int, int]]:
    """The "Ship Data" table as printed: name, AA Fire, Repair Damage, F, TB, DB."""
    block = seeds.between(seed(), "Ship Data\nCarrier", "Each carrier is crippled")
    tokens = block.split("Dive Bombers", 1)[1].split()
    assert len(tokens) % 6 == 0, tokens
    rows = {}
    for i in range(0, len(tokens), 6):
        name, aa, repair, f, t, d = tokens[i : i + 6]
        rows[name] = (int(aa), repair, int(f), int(t), int(d))
    return rows


def test_ship_data_table_cell_by_cell() -> None:
    printed = printed_ship_data()
    assert list(printed) == list(cv.SHIP_DATA)  # same carriers, same order
    for name, row in printed.items():
        for column, (got, want) in enumerate(zip(cv.SHIP_DATA[name], row, strict=True)):
            assert got == want, (name, column)
    headers = seeds.between(seed(), "Ship Data\nCarrier", "Enterprise").split()
    assert " ".join(headers) == (
        "Ship Data Carrier AA Fire Repair Damage Fighters Torpedo Bombers Dive Bombers"
    )


def test_sequence_of_play_step_by_step() -> None:
    block = seeds.between(seed(), "Sequence of Play:", "Land Planes:")
    printed = re.findall(r"^(\d+)\. (\w+) (.+?)\s*$", block, re.MULTILINE)
    assert len(printed) == len(cv.SEQUENCE) == 14
    for (number, who, phase), (step, side, ours) in zip(printed, cv.SEQUENCE, strict=True):
        assert int(number) == step
        assert who.startswith(("Jap", "American"))
        assert side == (0 if who.startswith("Jap") else 1), number
        # the seed's typos: "Attackse", "Phas"
        assert phase.startswith(ours) or ours.startswith(phase), (phase, ours)


def test_numbers_in_the_rules_text() -> None:
    text = seed()
    m = re.search(r"crippled when it has (\d+) damage points, and sinks at (\d+)", text)
    assert m and (int(m[1]), int(m[2])) == (
        cv.DEFAULTS["crippled_at"],
        cv.DEFAULTS["sunk_at"],
    )
    assert "taken 7 or more hits" in text and "receives 10 points of damage is sunk" in text
    m = re.search(r"can land (\d+) strenght points", text)
    assert m and int(m[1]) == cv.DEFAULTS["land_per_turn"]
    m = re.search(r"may launch up to (\d+) strength points of planes OR land up to (\d+)", text)
    assert m and int(m[1]) == cv.DEFAULTS["launch_per_turn"] and int(m[2]) == 20
    m = re.search(r"divided into (\d+) search groups", text)
    assert m and int(m[1]) == cv.DEFAULTS["search_groups"]
    assert "re-roll if the die reads 5 or 6" in text
    m = re.search(r"five circles to represent the strength", text)
    assert m and cv.DEFAULTS["group_strength"] == 5
    assert "for every 4, 5, or 6 rolled" in text and cv.AIR_TO_AIR_HIT == 4
    assert "one hit for every 4, 5, or 6 rolled" in text and cv.AA_HIT == 4
    assert "Every 5 or 6 scores one hit" in text and cv.DIVE_HIT == 5
    assert "A roll of 6 scores 2 hits" in text and cv.TORPEDO_SIX_HITS == 2
    assert "Eight bombers from each Japanese carrier" in text


def test_repair_text_agrees_with_the_table() -> None:
    text = seed()
    assert "Japanese carriers may repair one point if they roll a 6" in text
    assert "The Enterprise and Hornet may repair one point if they roll a 5 or 6" in text
    assert "The Yorktown may repair one point if it rolls a 4, 5, or 6" in text
    needs = {name: cv.repair_needs(row[1]) for name, row in cv.SHIP_DATA.items()}
    assert needs == {
        "Enterprise": 5,
        "Hornet": 5,
        "Yorktown": 4,
        "Hiryu": 6,
        "Soryu": 6,
        "Akagi": 6,
        "Kaga": 6,
    }


def test_the_aa_recap_differs_from_the_table_only_for_enterprise() -> None:
    m = re.search(
        r"\(Soryu 6, Akagi & Hiryu 7, Kaga 9, Hornet & Yorktown 12, Enterprise 12\)", seed()
    )
    assert m, "the recap sentence changed"
    recap = {"Soryu": 6, "Akagi": 7, "Hiryu": 7, "Kaga": 9, "Hornet": 12, "Yorktown": 12}
    for name, aa in recap.items():
        assert cv.SHIP_DATA[name][0] == aa
    assert cv.SHIP_DATA["Enterprise"][0] == 16  # the table; the recap says 12
    assert any("Enterprise 16" in note for note in cv.RULE_NOTES)


def test_rule_notes_quote_the_seed() -> None:
    assert len(cv.RULE_NOTES) >= 20
    text = " ".join(seed().split())
    # a quotation: between quote marks, with apostrophes only inside words ("6's")
    quote = re.compile(r"(?<![A-Za-z0-9])'((?:[^']|(?<=[A-Za-z0-9])'(?=[a-z]))+)'")
    quoted = [q for note in cv.RULE_NOTES for q in quote.findall(note) if len(q) >= 20]
    assert len(quoted) >= 20
    for q in quoted:
        for piece in q.split(" ... "):
            piece = piece.strip(" .")
            if len(piece) >= 10:
                assert piece in text, q


# ---------------------------------------------------------------------------------------
# midway.json
# ---------------------------------------------------------------------------------------


def test_midway_setup_matches_the_seed() -> None:
    setup = BattleSetup.load(MIDWAY)
    assert [s.name for s in setup.a.ships] == ["Akagi", "Kaga", "Soryu", "Hiryu"]
    assert [s.name for s in setup.b.ships] == ["Enterprise", "Hornet", "Yorktown"]
    assert setup.a.nation == "japan" and setup.b.nation == "usa"
    repair = setup.conditions["repair"]
    for ship in setup.a.ships + setup.b.ships:
        aa, cell, fighters, torpedo, dive = cv.SHIP_DATA[ship.name]
        assert ship.type == "carrier"
        assert ship.aa == aa, ship.name
        assert repair[ship.id] == cell, ship.name
        assert ship.damage_capacity == 10
        points = {"fighter": 0, "torpedo_bomber": 0, "dive_bomber": 0}
        for g in ship.air_groups:
            points[g.kind] += g.aircraft
            assert g.base == ship.id and g.name and g.model
        assert points == {"fighter": fighters * 5, "torpedo_bomber": torpedo * 5} | {
            "dive_bomber": dive * 5
        }, ship.name
    cond = setup.conditions
    assert (cond["crippled_at"], cond["sunk_at"]) == (7, 10)
    assert (cond["land_per_turn"], cond["launch_per_turn"], cond["group_strength"]) == (20, 20, 5)
    assert (cond["searching_side"], cond["search_groups"]) == ("b", 4)
    assert (cond["returning_side"], cond["returning_bombers_per_carrier"]) == ("a", 8)
    names = {g.name.split(" (")[0] for s in setup.b.ships for g in s.air_groups}
    assert {"VF-6", "VB-6", "VS-6", "VT-6", "VF-8", "VT-8", "VF-3", "VB-3", "VT-3"} <= names


def test_midway_starts_with_eight_bomber_groups_per_japanese_carrier_waiting() -> None:
    battle = carrier_battle(BattleSetup.load(MIDWAY), ScriptedDice([]))
    for carrier in battle.side_carriers[0]:
        waiting = [c for c in battle.counters[0] if c.home == carrier.id and c.box == WAITING]
        assert len(waiting) == 8 and all(c.bomber for c in waiting)
        assert sum(c.strength for c in waiting) == 40
    kaga = [c for c in battle.counters[0] if c.home == "kaga" and c.box == WAITING]
    assert sorted(c.kind for c in kaga).count("torpedo_bomber") == 4
    assert not any(c.box == WAITING for c in battle.counters[1])
    assert len(battle.counters[1]) == 16 * 3  # 5+3+8, 3+5+8, 3+5+8 groups


# ---------------------------------------------------------------------------------------
# Dice rules alone
# ---------------------------------------------------------------------------------------


def test_dive_bombing_rerolls_a_six() -> None:
    dice = ScriptedDice([6, 5, 3, 4])
    r = cv.dive_bombing(dice, 3, "VB-6 dive on Kaga")
    assert r.hits == 2  # the 6 and the 5; the re-rolled 4 adds nothing
    assert r.text == "6 (re-rolled 4), 5, 3"
    assert dice.unused == []
    assert dice.log.rolls[-1].reason == "re-roll of a six"


def test_dive_bombing_keeps_rerolling_sixes() -> None:
    dice = ScriptedDice([6, 1, 6, 6, 2])
    r = cv.dive_bombing(dice, 2, "dive")
    assert r.hits == 3 and r.text == "6 (re-rolled 6, 6, 2), 1"


def test_a_rerolled_five_scores_nothing() -> None:
    assert cv.dive_bombing(ScriptedDice([6, 5]), 1, "dive").hits == 1


def test_all_sixes_are_rerolled_together() -> None:
    # first dice 6, 6; re-roll round 1 (both): 6, 3; round 2 (the first): 2
    dice = ScriptedDice([6, 6, 6, 3, 2])
    r = cv.dive_bombing(dice, 2, "dive")
    assert r.hits == 3 and r.text == "6 (re-rolled 6, 2), 6 (re-rolled 3)"


def test_torpedo_six_is_two_hits_and_each_rerolled_six_one_more() -> None:
    dice = ScriptedDice([6, 6, 5, 6, 3, 2])
    r = cv.torpedo_bombing(dice, 3, "VT-8 torpedo Akagi")
    assert r.hits == 2 + 2 + 1  # two sixes, one re-rolled six; a 5 scores nothing
    assert dice.unused == []
    assert cv.torpedo_bombing(ScriptedDice([5, 4]), 2, "t").hits == 0


def test_an_unscripted_reroll_fails() -> None:
    with pytest.raises(DiceError):
        cv.dive_bombing(ScriptedDice([6]), 1, "dive")  # the six must be re-rolled


def test_aa_and_air_to_air_hit_on_four_five_six() -> None:
    assert cv.aa_fire(ScriptedDice([1, 2, 3, 4, 5, 6]), 6, "AA").hits == 3
    assert cv.air_to_air(ScriptedDice([3, 4]), 2, "CAP").hits == 1
    assert cv.aa_fire(ScriptedDice([]), 0, "AA").hits == 0


def test_repair_cells() -> None:
    assert [cv.repair_needs(c) for c in ("6", "5-6", "4-6")] == [6, 5, 4]
    with pytest.raises(ValueError):
        cv.repair_needs("seven")


# ---------------------------------------------------------------------------------------
# Rules in a small battle
# ---------------------------------------------------------------------------------------


def group(gid: str, kind: str, points: int, name: str, base: str) -> dict[str, Any]:
    model = {"fighter": "F", "dive_bomber": "SBD Dauntless", "torpedo_bomber": "TBD"}[kind]
    return {"id": gid, "kind": kind, "aircraft": points, "name": name, "base": base, "model": model}


def small(
    a_groups: list[dict[str, Any]] | None = None,
    b_groups: list[dict[str, Any]] | None = None,
    **conditions: Any,
) -> BattleSetup:
    """Alpha (side a, AA 2, repairs on 6) and Bravo (side b, AA 3, repairs on 5-6)."""
    data = {
        "title": "test",
        "a": {
            "name": "Red",
            "nation": "japan",
            "ships": [
                {
                    "id": "alpha",
                    "name": "Alpha",
                    "nation": "japan",
                    "type": "carrier",
                    "aa": 2,
                    "damage_capacity": 10,
                    "air_groups": a_groups or [],
                }
            ],
        },
        "b": {
            "name": "Blue",
            "nation": "usa",
            "ships": [
                {
                    "id": "bravo",
                    "name": "Bravo",
                    "nation": "usa",
                    "type": "carrier",
                    "aa": 3,
                    "damage_capacity": 10,
                    "air_groups": b_groups or [],
                }
            ],
        },
        "conditions": {"searching_side": "", "repair": {"alpha": "6", "bravo": "5-6"}} | conditions,
    }
    return BattleSetup.from_data(data)


def battle(setup: BattleSetup, rolls: list[int]) -> tuple[CarrierBattle, ScriptedDice]:
    dice = ScriptedDice(rolls)
    return carrier_battle(setup, dice), dice


def test_registered() -> None:
    assert RULE_SETS["carrier"] is carrier_battle
    b, _ = battle(small(), [])
    assert b.rule_set == "carrier"


def test_squadrons_are_cut_into_groups_of_five() -> None:
    b, _ = battle(small(b_groups=[group("vb", "dive_bomber", 12, "VB-6 (SBD)", "bravo")]), [])
    assert [(c.label, c.strength) for c in b.counters[1]] == [
        ("VB-6/1", 5),
        ("VB-6/2", 5),
        ("VB-6/3", 2),
    ]


def test_aa_fire_removes_bombers_before_they_bomb() -> None:
    setup = small(b_groups=[group("vb", "dive_bomber", 10, "VB-6 (SBD)", "bravo")])
    # Alpha's AA: 2 dice (4, 6: 2 hits); then 8 surviving points dive: 5, 1, 1, 1, 1, 1, 1, 2
    b, dice = battle(setup, [4, 6, 5, 1, 1, 1, 1, 1, 1, 2])
    for c in b.counters[1]:
        c.box = ATTACKING
    events = b.carrier_attacks(1)
    assert [c.strength for c in b.counters[1]] == [4, 4]  # spread evenly
    assert b.carriers["alpha"].damage == 1
    assert all(c.box == HOME for c in b.counters[1])
    assert dice.unused == []
    assert "her AA rolls 4, 6 — 2 hits (VB-6/1 −1, VB-6/2 −1)" in events[0]
    assert events[1].startswith("8 SBD Dauntless of VB-6 dive on Alpha: rolls 5, 1")
    assert events[-1] == "Alpha takes 1 hit: damage 1."


def test_aa_can_destroy_a_whole_group() -> None:
    setup = small(b_groups=[group("vt", "torpedo_bomber", 2, "VT-6 (TBD)", "bravo")])
    b, dice = battle(setup, [5, 5])
    b.counters[1][0].box = ATTACKING
    b.carrier_attacks(1)
    assert b.counters[1][0].box == DESTROYED and dice.unused == []  # no bombing dice


def test_aa_hits_whole_groups_under_the_rule_option() -> None:
    """conditions['aa_hits'] = 'group': a hit is a plane model (RULE_NOTES 'AA hits')."""
    setup = small(b_groups=[group("vb", "dive_bomber", 10, "VB-6 (SBD)", "bravo")])
    setup.conditions["aa_hits"] = "group"
    # Alpha's AA: 2 dice (4, 1: 1 hit, a whole group); the other 5 points dive: 5, 6 (re-roll
    # 1), 1, 1, 1
    b, dice = battle(setup, [4, 1, 5, 6, 1, 1, 1, 1])
    for c in b.counters[1]:
        c.box = ATTACKING
    events = b.carrier_attacks(1)
    assert [(c.label, c.strength, c.box) for c in b.counters[1]] == [
        ("VB-6/1", 0, DESTROYED),
        ("VB-6/2", 5, HOME),
    ]
    assert "— 1 hit (VB-6/1 −5 (destroyed))" in events[0]
    assert b.carriers["alpha"].damage == 2 and dice.unused == []
    # the same dice by default take one point
    b, _ = battle(small(b_groups=[group("vb", "dive_bomber", 10, "VB-6 (SBD)", "bravo")]), [])
    assert b.shoot_down is cv.spread_hits


def test_aa_group_hits_are_shared_out_by_carrier() -> None:
    """'the hits should be distributed evenly, with the player with the most attacking groups
    receiving any extra hits': the carrier with most groups in the wave loses one first."""

    def counter(label: str, home: str, strength: int) -> cv.Counter:
        return cv.Counter(label, label[:4], "dive_bomber", strength, label[:4], home, 1)

    wave = [
        counter("VB-6/1", "ent", 5),
        counter("VB-6/2", "ent", 5),
        counter("VB-6/3", "ent", 2),
        counter("VB-8/1", "hor", 4),
        counter("VB-8/2", "hor", 5),
    ]
    shot = cv.eliminate_groups(wave, 3)
    assert [(c.label, n) for c, n in shot] == [("VB-6/1", 5), ("VB-6/2", 5), ("VB-8/2", 5)]
    assert [c.label for c in wave if c.box == DESTROYED] == ["VB-6/1", "VB-6/2", "VB-8/2"]
    assert len(cv.eliminate_groups(wave, 9)) == 2  # hits beyond the groups are wasted


def test_a_side_with_only_crippled_carriers_breaks_off_under_the_rule_option() -> None:
    def crippled_blue(**conditions: Any) -> CarrierBattle:
        setup = small(
            [group("kb", "dive_bomber", 5, "Kanbaku", "alpha")],
            [group("vb", "dive_bomber", 5, "VB-6 (SBD)", "bravo")],
            **conditions,
        )
        b, _ = battle(setup, [])
        b.carriers["bravo"].damage = 7  # crippled, her bombers aboard: nothing on its way
        return b

    b = crippled_blue()
    assert b._check_end() == [] and not b.finished  # the default: Red may finish her off
    b = crippled_blue(break_off="no_working_carrier")
    b.turn = 4
    assert b._check_end() == [
        "The battle ends after turn 4: Blue has no working carrier left and breaks off. "
        "Winner: Red."
    ]
    assert b.result().ships["bravo"].state == "crippled"
    b = crippled_blue(break_off="no_working_carrier")
    b.counters[1][0].box = MOVING  # a strike still on its way: Blue stays to see it home
    assert b._check_end() == []
    for key in ("break_off", "aa_hits"):
        with pytest.raises(ValueError, match=f"{key} 'sometimes': use"):
            crippled_blue(**{key: "sometimes"})


def test_fighters_in_the_attacking_box_go_home_without_attacking() -> None:
    setup = small(b_groups=[group("vf", "fighter", 5, "VF-6 (F4F)", "bravo")])
    b, _ = battle(setup, [])
    b.counters[1][0].box = ATTACKING
    b.carrier_attacks(1)
    assert b.counters[1][0].box == HOME


def test_cap_fights_escorts_then_attacks_bombers() -> None:
    setup = small(
        a_groups=[group("zero", "fighter", 10, "Zeros (A6M)", "alpha")],
        b_groups=[
            group("vf", "fighter", 3, "VF-6 (F4F)", "bravo"),
            group("vb", "dive_bomber", 5, "VB-6 (SBD)", "bravo"),
        ],
    )
    # CAP Zeros/1 (5) dogfights VF-6 (3): CAP 4,4,1,1,1 → 2 hits; VF-6 6,1,1 → 1 hit.
    # CAP Zeros/2 (5) attacks the bombers: 5,5,5,1,1 → 3 hits.
    b, dice = battle(setup, [4, 4, 1, 1, 1, 6, 1, 1, 5, 5, 5, 1, 1])
    zeros = b.counters[0]
    for c in zeros:
        c.box = CAP
    for c in b.counters[1]:
        c.box = READY
    events = b.cap_attacks(0)
    vf, vb = b.counters[1]
    assert vf.strength == 1 and vb.strength == 2
    assert zeros[0].strength == 4 and zeros[1].strength == 5
    assert all(z.ring == 1 and z.box == CAP for z in zeros)
    assert dice.unused == []
    assert "dogfights escorts VF-6" in events[0] and "attacks bombers VB-6" in events[1]


@pytest.mark.parametrize(
    ("reading", "escort_dice", "escorts_left"),
    [
        # one CAP group against two escort groups: as many escorts as CAP groups are in the
        # dogfight ("an equal number of his fighters to battle them"): VF-6/1 takes both hits
        ("paired", [1, 1, 1, 1, 4], [3, 5]),
        # the other reading: every escort group rolls; the hits are spread evenly
        ("all_escorts", [1] * 9 + [4], [4, 4]),
    ],
)
def test_cap_with_fewer_fighters_than_escorts_only_dogfights(
    reading: str, escort_dice: list[int], escorts_left: list[int]
) -> None:
    setup = small(
        a_groups=[group("zero", "fighter", 2, "Zeros (A6M)", "alpha")],
        b_groups=[
            group("vf", "fighter", 10, "VF-6 (F4F)", "bravo"),
            group("vb", "dive_bomber", 5, "VB-6 (SBD)", "bravo"),
        ],
        dogfight=reading,
    )
    # CAP 2 dice (two sixes), then the escorts in the dogfight; nothing left for the bombers
    b, dice = battle(setup, [6, 6, *escort_dice])
    b.counters[0][0].box = CAP
    for c in b.counters[1]:
        c.box = READY
    b.cap_attacks(0)
    assert dice.unused == []
    assert b.counters[1][2].strength == 5  # bombers untouched
    assert [c.strength for c in b.counters[1][:2]] == escorts_left
    assert b.counters[0][0].strength == 1  # one escort hit (the 4)


def test_cap_leaves_the_last_ring_to_land() -> None:
    setup = small(
        a_groups=[group("zero", "fighter", 1, "Zeros (A6M)", "alpha")],
        b_groups=[group("vb", "dive_bomber", 5, "VB-6 (SBD)", "bravo")],
    )
    b, _ = battle(setup, [1, 1, 1])
    zero = b.counters[0][0]
    zero.box = CAP
    b.counters[1][0].box = READY
    b.cap_attacks(0)
    b.cap_attacks(0)
    assert zero.box == CAP and zero.ring == 2
    b.cap_attacks(0)
    assert zero.box == WAITING and zero.ring == 0


def test_cap_without_targets_stays_put() -> None:
    setup = small(a_groups=[group("zero", "fighter", 5, "Zeros (A6M)", "alpha")])
    b, _ = battle(setup, [])
    b.counters[0][0].box = CAP
    assert b.cap_attacks(0) == []
    assert b.counters[0][0].ring == 0


def test_repair_roll() -> None:
    b, dice = battle(small(), [5, 4, 6])
    bravo, alpha = b.carriers["bravo"], b.carriers["alpha"]
    bravo.damage = 3
    assert b.repair_damage(1) == ["Bravo repairs (rolls 5): damage 2."]
    b.repair_damage(1)
    assert bravo.damage == 2  # a 4 does not repair on 5-6
    alpha.damage = 1
    b.repair_damage(0)
    assert alpha.damage == 0
    assert dice.unused == []
    assert b.repair_damage(0) == []  # no damage: no roll (ScriptedDice would fail)


def test_one_repair_roll_per_damaged_carrier_and_an_extra_roll_fails() -> None:
    b, _ = battle(small(), [])
    b.carriers["bravo"].damage = 2
    with pytest.raises(DiceError):
        b.repair_damage(1)


def test_crippled_at_seven_and_sunk_at_ten() -> None:
    setup = small(b_groups=[group("vb", "dive_bomber", 10, "VB-6 (SBD)", "bravo")])
    b, _ = battle(setup, [6])
    bravo = b.carriers["bravo"]
    assert "CRIPPLED" not in b.damage(bravo, 6) and bravo.operational
    assert "CRIPPLED" in b.damage(bravo, 1)
    assert bravo.crippled and not bravo.operational and bravo.state == "crippled"
    assert not b.can_land("bravo")
    b.repair_damage(1)  # rolls 6: back to 6 damage, working again
    assert bravo.damage == 6 and bravo.operational
    text = b.damage(bravo, 5)
    assert bravo.sunk and bravo.damage == 10 and bravo.state == "sunk"
    assert "SUNK, taking down VB-6/1,2" in text
    assert all(c.box == DESTROYED for c in b.counters[1])
    assert b.repair_damage(1) == []  # a sunk carrier is not repaired


def test_a_crippled_carrier_cannot_launch_or_land() -> None:
    setup = small(b_groups=[group("vb", "dive_bomber", 10, "VB-6 (SBD)", "bravo")])
    b, _ = battle(setup, [])
    deck, waiting = b.counters[1]
    deck.box, waiting.box = DECK, WAITING
    b.carriers["bravo"].damage = 7
    assert "cannot be launched" in b.launch_planes(1)[0]
    assert deck.box == DECK
    deck.box = ABOARD
    assert b.land_planes(1) == ["Bravo is crippled and cannot land VB-6/2."]
    assert waiting.box == WAITING
    assert b.planning_phase(1) == [] and deck.box == ABOARD


def test_landing_needs_a_clear_deck_and_takes_twenty_points() -> None:
    setup = small(b_groups=[group("vb", "dive_bomber", 25, "VB-6 (SBD)", "bravo")])
    b, _ = battle(setup, [])
    groups = b.counters[1]
    for c in groups:
        c.box = WAITING
    groups[0].box = DECK
    assert b.land_planes(1) == [] and not b.can_land("bravo")
    groups[0].box = WAITING
    assert b.land_planes(1) == ["Bravo lands VB-6/1,2,3,4 (20 strength points)."]
    assert groups[4].box == WAITING
    b.land_planes(1)
    assert groups[4].box == ABOARD


def test_groups_of_a_crippled_carrier_land_on_another() -> None:
    data = small().to_json()
    setup = BattleSetup.from_data(__import__("json").loads(data))
    setup.b.ships.append(
        cv.Ship(
            "charlie",
            "Charlie",
            "usa",
            "carrier",
            aa=1,
            damage_capacity=10,
            air_groups=[cv.AirGroup("vt", "torpedo_bomber", 5, "VT-3 (TBD)", "charlie")],
        )
    )
    b, _ = battle(setup, [])
    (vt,) = b.counters[1]
    vt.box = WAITING
    b.carriers["charlie"].damage = 8
    events = b.land_planes(1)
    assert events == ["Bravo lands VT-3 (5 strength points)."]
    assert vt.box == ABOARD and vt.home == "bravo"


def test_planning_spots_and_the_next_launch_flies_them() -> None:
    setup = small(
        b_groups=[
            group("vf", "fighter", 10, "VF-6 (F4F)", "bravo"),
            group("vb", "dive_bomber", 20, "VB-6 (SBD)", "bravo"),
        ]
    )
    b, _ = battle(setup, [])
    b.planning_phase(1)
    deck = b.deck("bravo")
    assert sum(c.strength for c in deck) == 20  # the most a carrier may launch
    assert [c.role for c in deck if not c.bomber] == ["cap", "escort"]
    assert b.land_planes(1) == []  # a spotted deck lands nothing
    b.launch_planes(1)
    boxes = {c.label: c.box for c in b.counters[1]}
    assert boxes == {
        "VF-6/1": CAP,
        "VF-6/2": MOVING,
        "VB-6/1": MOVING,
        "VB-6/2": MOVING,
        "VB-6/3": ABOARD,
        "VB-6/4": ABOARD,
    }


def test_planes_move_one_box_a_turn_round_the_circuit() -> None:
    setup = small(b_groups=[group("vb", "dive_bomber", 25, "VB-6 (SBD)", "bravo")])
    b, _ = battle(setup, [])
    start = [MOVING, READY, ATTACKING, HOME, CAP]
    for c, box in zip(b.counters[1], start, strict=True):
        c.box = box
    b.move_planes(1)
    assert [c.box for c in b.counters[1]] == [READY, ATTACKING, HOME, WAITING, CAP]


def test_search_sends_one_search_group_ahead() -> None:
    setup = small(
        b_groups=[group("vb", "dive_bomber", 40, "VB-6 (SBD)", "bravo")], searching_side="b"
    )
    b, dice = battle(setup, [5, 6, 3])  # 5 and 6 are re-rolled; search group 3 finds them
    groups = b.counters[1]
    for c in groups:
        c.box = MOVING
    events = b.move_planes(1)
    assert [c.label for c in groups if c.box == READY] == ["VB-6/3", "VB-6/7"]
    assert sum(c.box == MOVING for c in groups) == 6
    assert b.found and dice.unused == []
    assert [r.reason for r in dice.log.rolls] == [
        "",
        "re-roll: the die read 5",
        "re-roll: the die read 6",
    ]
    assert "search group 3 (VB-6/3,7) finds the Red" in events[0]
    b.move_planes(1)  # the next turn they move normally
    assert sum(c.box == READY for c in groups) == 6


def test_midway_first_three_turns_roll_only_the_search_die() -> None:
    b, dice = battle(BattleSetup.load(MIDWAY), [2])
    b.step()
    b.step()
    assert dice.used == 0  # landing, spotting and launching roll no dice
    events = b.step()
    assert dice.used == 1 and b.found
    assert any("search group 2" in e for e in events)
    with pytest.raises(DiceError):
        b.step()  # turn 4 has CAP fights and attacks: an unscripted roll fails


# ---------------------------------------------------------------------------------------
# Whole battles
# ---------------------------------------------------------------------------------------


def test_a_whole_midway_battle_is_deterministic() -> None:
    setup = BattleSetup.load(MIDWAY)
    first = run(carrier_battle(setup, SeededDice("midway")))
    again = run(carrier_battle(BattleSetup.load(MIDWAY), SeededDice("midway")))
    other = run(carrier_battle(setup, SeededDice("other")))
    assert first.log == again.log and first.winner == again.winner
    assert first.log != other.log
    assert first.rule_set == "carrier" and first.winner in ("a", "b", "")
    assert first.log[-1].startswith(f"The battle ends after turn {first.turns}:")
    assert set(first.ships) == {s.id for s in setup.a.ships + setup.b.ships}
    assert all(
        s.state in ("undamaged", "damaged", "crippled", "sunk") for s in first.ships.values()
    )
    # the set-up itself is never changed
    assert setup.to_json() == BattleSetup.load(MIDWAY).to_json()


def test_strongest_first_is_a_stable_sort_by_strength() -> None:
    import random

    draw = random.Random(14)
    for _ in range(200):
        groups = [
            cv.Counter(f"g{i}", "VF-1", "fighter", draw.randint(0, 6), "VF-1", "cv", 0)
            for i in range(draw.randint(0, 9))
        ]
        assert cv.strongest_first(groups) == sorted(groups, key=lambda c: -c.strength)


def test_a_rematch_fights_the_very_battle_a_fresh_one_would() -> None:
    """An odds preview fights its battles from one unplayed opening (``rematch``)."""
    setup = BattleSetup.load(MIDWAY)
    assert_rematches_are_fresh_battles(carrier_battle, setup, 40)
    # returning strikes and aa_hits by group: the opening carries the rule options too
    setup.conditions = {**setup.conditions, "aa_hits": "group", "searching_side": "b"}
    assert_rematches_are_fresh_battles(carrier_battle, setup, 10)


def test_many_battles_end_and_are_consistent() -> None:
    setup = BattleSetup.load(MIDWAY)
    winners = set()
    for i in range(30):
        dice = SeededDice(i)
        b = carrier_battle(setup, dice)
        r = run(b)
        assert b.finished and r.turns <= 30
        assert verify_chain(dice.log.rolls) == []
        winners.add(r.winner)
        for ship in r.ships.values():
            assert 0 <= ship.damage <= 10
            assert (ship.state == "sunk") == (ship.damage == 10)
            assert (ship.state == "crippled") == (7 <= ship.damage < 10)
        for g in r.air_groups.values():
            assert 0 <= g.lost <= g.aircraft
        sunk = {
            s: all(r.ships[x.id].state == "sunk" for x in side.ships)
            for s, side in (("a", setup.a), ("b", setup.b))
        }
        if sunk["a"] != sunk["b"]:
            assert r.winner == ("b" if sunk["a"] else "a")
    assert {"a", "b"} <= winners  # either side can win


def test_the_turn_limit_ends_a_battle() -> None:
    setup = BattleSetup.load(MIDWAY)
    setup.conditions["turn_limit"] = 2
    r = run(carrier_battle(setup, SeededDice(1)))
    assert r.turns == 2 and "turn limit (2)" in r.log[-1]


def test_a_step_after_the_end_does_nothing() -> None:
    setup = small()  # no aircraft at all: neither side can attack
    b, _ = battle(setup, [])
    events = b.step()
    assert b.finished and events[-1].endswith(
        "neither side has bombers able to attack. No decision."
    )
    assert b.step() == []


def test_cap_spotted_on_a_crippled_carrier_does_not_count_as_cap() -> None:
    # Akagi is crippled with a fighter group spotted for CAP: she cannot launch it, so the
    # three working carriers each spot a CAP group (one per working carrier)
    b = carrier_battle(BattleSetup.load(MIDWAY), ScriptedDice([]))
    for c in b.counters[0]:
        if c.box == WAITING:
            c.box = ABOARD  # no planes waiting to land: every carrier may spot
    b.carriers["akagi"].damage = 7
    stuck = next(c for c in b.counters[0] if c.home == "akagi" and not c.bomber)
    stuck.box, stuck.role = DECK, "cap"
    b.planning_phase(0)
    spotted = [c.home for c in b.counters[0] if c.box == DECK and c.role == "cap"]
    assert sorted(h for h in spotted if h != "akagi") == ["hiryu", "kaga", "soryu"]


def test_bombers_aboard_a_crippled_carrier_can_still_strike_after_a_repair() -> None:
    # "A crippled carrier can be repaired during the Repair Damage phase": the battle goes on
    b = carrier_battle(BattleSetup.load(MIDWAY), ScriptedDice([]))
    for c in b.counters[1]:
        if c.bomber:
            c.box = ABOARD
    for carrier in b.side_carriers[1]:
        carrier.damage = 7  # every American carrier crippled, none sunk
    assert b.can_strike(1)
    for carrier in b.side_carriers[1]:
        carrier.damage, carrier.sunk = 10, True
    assert not b.can_strike(1)


def test_the_outcome_counts_escorts_and_carriers_that_came_damaged() -> None:
    """``outcome()`` (what an odds preview counts) reports a ship that is no carrier as the
    set-up brought it, and a carrier that came damaged as the battle left her: what
    ``result()`` reports, battle after battle."""
    setup = BattleSetup.load(MIDWAY)
    setup.a.ships.append(Ship("tone", "Tone", "japan", "heavy_cruiser", state="damaged"))
    setup.b.ships[0].state = "damaged"
    for i in range(20):
        battle = carrier_battle(setup, UnloggedDice(f"outcome/{i}"))
        battle.narrate = False
        result = run(battle)
        winner, states = battle.outcome()
        assert winner == result.winner
        assert list(states.items()) == [(sid, s.state) for sid, s in result.ships.items()]
        assert states["tone"] == "damaged"
