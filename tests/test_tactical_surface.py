"""Ellard & Hammond, *World War Two Naval Wargame Rules* (seed 004): the surface action,
table by table (parsed from the seed itself) and rule by rule."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest

from campaign.dice import DiceError, ScriptedDice, SeededDice, verify_chain
from campaign.tactical import RULE_SETS, AirGroup, BattleSetup, Ship, Side, run
from campaign.tactical import surface as sf
from campaign.tactical.surface import SurfaceBattle, Torpedoes, surface_battle
from tests import seeds

SEED = "004_78a035db3e08a1a0.txt"
EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "battles" / "surface-example.json"


def seed() -> str:
    return seeds.seed_text(SEED)


def lines_between(start: str, end: str) -> list[str]:
    return seeds.between(seed(), start, end).splitlines()


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.split("\t")]


def span(text: str) -> tuple[int, int] | None:
    text = text.strip()
    if text == "-":
        return None
    lo, hi = re.split(r"\s*-\s*", text)
    return int(lo), int(hi)


# ---------------------------------------------------------------------------------------
# The seed's tables, cell by cell
# ---------------------------------------------------------------------------------------


def test_points_value_example_and_bonus() -> None:
    text = seed()
    assert "RODNEY = 34,500t + 10% (completed 1928)" in text and "37,950 points" in text
    assert sf.points_value(34_500, 1928) == 37_950
    for decade, bonus in (("1920's", 10), ("1930's", 20), ("1940's", 30)):
        assert f"{bonus}% if hull completed in {decade}" in text
        assert sf.COMPLETION_BONUS[int(decade[:4])] == bonus
    assert sf.points_value(32_100, 1939) == 38_520
    assert sf.points_value(30_000, 1944) == 39_000
    assert sf.points_value(30_750, 1916) == 30_750  # no bonus before the 1920s


def test_weather_table_cell_by_cell() -> None:
    rows = [
        cells(line)
        for line in lines_between("%\tMax Visibility", "Throw a % dice")[1:]
        if line.strip()
    ]
    assert len(rows) == len(sf.WEATHER) == 8
    for row, (lo, hi, cm, atlantic, other) in zip(rows, sf.WEATHER, strict=True):
        assert span(row[0]) == (lo, hi)
        assert int(re.match(r"(\d+)cm", row[1])[1]) == cm  # type: ignore[index]
        assert (row[2], row[3]) == (atlantic, other)
    assert sf.weather(12) == (240, "Haze")
    assert sf.weather(12, "pacific") == (240, "Clear")
    assert sf.weather(100) == (30, "Snow or Night")


def test_wind_table() -> None:
    block = lines_between("Wind Direction.", "Movement & Firing")
    printed = dict(re.findall(r"^(\d)\.\t(.+)$", "\n".join(block), re.MULTILINE))
    for face in range(1, 9):
        assert sf.WIND[face] == printed[str(face)]
    assert "9&10(0)\tDead Calm" in seed()
    assert sf.WIND[9] == sf.WIND[10] == "Dead Calm"


def test_salvos_as_printed() -> None:
    for n, text in re.findall(r"A ship with (\d+) guns firing fires (.+)", seed()):
        printed: list[int] = []
        for count, size in re.findall(r"(\d) x (\d) gun salvo", text):
            printed += [int(size)] * int(count)
        assert sf.salvos(int(n)) == tuple(printed), n
    assert len(sf.SALVOS) == 6
    assert sf.salvos(5) == (5,) and sf.salvos(11) == (3, 4, 4) and sf.salvos(16) == (4, 4, 4, 4)
    assert "Guns of 8 in calibre and under fire twice per move" in seed()


def printed_table_1() -> dict[str, list[tuple[str, int, int, int, int]]]:
    block = lines_between("table 1 GUN RANGES", "table 2 % CHANCE")
    nations = list(sf.TABLE_1)
    table: dict[str, list[tuple[str, int, int, int, int]]] = {}
    nation = ""
    row = re.compile(r'^([\d.]+)"( new| old)?\t(\d+)\s*-\s*(\d+)\t(\d+)-0\t(\d+)\t(\d+)')
    for line in block:
        m = row.match(line)
        if not m:
            continue
        for n in nations:
            if n in line:
                nation = n
        label = m[1] + (m[2] or "")
        assert int(m[4]) == int(m[5])  # the long band ends where medium & short begins
        table.setdefault(nation, []).append((label, int(m[3]), int(m[4]), int(m[6]), int(m[7])))
    return table


def test_table_1_cell_by_cell() -> None:
    printed = printed_table_1()
    assert list(printed) == list(sf.TABLE_1)
    for nation, rows in printed.items():
        assert len(rows) == len(sf.TABLE_1[nation]), nation
        for got, want in zip(sf.TABLE_1[nation], rows, strict=True):
            assert got == want, (nation, got, want)


def test_table_1_lookups() -> None:
    g = sf.gun("germany", "11in")
    assert g is not None and (g.long_max, g.medium_max, g.penetrating) == (350, 230, 1575)
    assert g.range_class(237) == "long" and g.range_class(230) == "medium"
    assert g.range_class(351) == ""
    r = sf.gun("uk", "15in")
    assert r is not None and (r.penetrating, r.non_penetrating) == (4375, 1090)
    assert r.range_class(237) == "long"
    new, old = sf.gun("usa", "16in", 1941), sf.gun("usa", "16in", 1921)
    assert new is not None and new.label == "16 new" and new.long_max == 300
    assert old is not None and old.label == "16 old" and old.long_max == 250
    hood = sf.gun("uk", "5.5in")  # nearest British row: 5.25"
    assert hood is not None and hood.label == "5.25"
    assert sf.gun("uk", "40mm") is None
    assert sf.gun("netherlands", "5.9in") is not None  # British rows
    assert sf.calibre("150mm") == pytest.approx(5.906, abs=1e-3)


def test_table_2_cell_by_cell() -> None:
    block = lines_between("table 2 % CHANCE", "table 3 HITS")
    header = block[2] if "180-195" in block[2] else next(x for x in block if "180-195" in x)
    bands = re.findall(r"(\d+)-(\d+)", header)
    assert [int(hi) for _, hi in bands] == list(sf.TABLE_2_BANDS)
    assert int(bands[0][0]) == 180
    rows = [cells(x) for x in block if re.match(r"^[2-5]\t", x)]
    assert len(rows) == 4
    for row in rows:
        assert tuple(int(c) for c in row[1:]) == sf.TABLE_2[int(row[0])]
    assert sf.table_2_chance(4, 237) == 16 and sf.table_2_chance(5, 237) == 20
    assert sf.table_2_chance(3, 237) == 14
    assert sf.table_2_chance(3, 195) == 30 and sf.table_2_chance(3, 195.5) == 26
    assert sf.table_2_chance(1, 190) == 20  # one gun reads the 2 row
    assert sf.table_2_chance(5, 301) == 0


def test_table_3_cell_by_cell() -> None:
    block = lines_between("table 3 HITS PER SALVO", "A = 1 hit")
    header = next(x for x in block if x.strip().startswith("0-15"))
    uppers = [int(re.match(r"\d+-(\d+)", c)[1]) for c in cells(header) if c]  # type: ignore[index]
    assert uppers == list(sf.TABLE_3_BANDS)
    guns = 0
    seen = 0
    for line in block:
        m = re.match(r"^(1 or 2|\d)?\t(A|B|C)\t(.+)$", line)
        if not m:
            continue
        if m[1]:
            guns = 2 if m[1] == "1 or 2" else int(m[1])
        hits = "ABC".index(m[2]) + 1
        printed = tuple(span(c) for c in m[3].split("\t"))
        assert sf.TABLE_3[guns][hits] == printed, (guns, m[2])
        seen += 1
    assert seen == sum(len(v) for v in sf.TABLE_3.values()) == 11
    assert sf.table_3_hits(4, 141, 61) == 0 and sf.table_3_hits(5, 141, 60) == 1
    assert sf.table_3_hits(3, 10, 30) == 2 and sf.table_3_hits(3, 10, 25) == 3
    assert sf.table_3_hits(3, 37.5, 36) == 1  # 37.5 cm is in 38-59
    assert sf.table_3_hits(2, 180, 99) == 0 and sf.table_3_hits(2, 180, 30) == 1


def printed_table_4() -> list[list[str]]:
    block = lines_between("Pos. of Hit\t% Die Roll", "Abbreviations")
    rows: list[list[str]] = []
    for line in block[3:]:
        c = line.split("\t")
        if len(c) > 2 and re.match(r"\d+-\d+$", c[1]):
            rows.append([c[1]] + [x.strip() for x in c[2:]])
        elif line.strip():
            # the last row's "Stern" under the two right-hand columns
            for i, x in enumerate(c):
                if x.strip():
                    rows[-1][i - 1] += " " + x.strip()
    return rows


def test_table_4_cell_by_cell() -> None:
    header = lines_between("Pos. of Hit\t% Die Roll", "\t1-5\t")
    assert cells(header[1])[2:] == [
        "Aircraft Carrier",
        "Battleship/Cruiser",
        "Cruisers",
        "Destroyers",
    ]
    assert cells(header[2])[2:] == ["Long Range Bows", "Short Range Bows"] * 2
    rows = printed_table_4()
    assert len(rows) == len(sf.TABLE_4) == 20
    low = 1
    for row, (upper, *ours) in zip(rows, sf.TABLE_4, strict=True):
        assert span(row[0]) == (low, upper)
        assert row[1:] == ours
        low = upper + 1
    for _upper, *cols in sf.TABLE_4:
        for cell in cols:
            assert cell in sf.LOCATIONS, cell
    # the worked example: Scharnhorst, long range, 17 — "he has hit the upper bridge"
    assert sf.location(17, sf.COLUMN_LONG) == "Bridge"
    assert sf.location(1, 1) == "Catapult (Deck)" and sf.location(100, 4) == "Y Mount Stern"


def test_table_5_cell_by_cell() -> None:
    block = lines_between("RANGE AT WHICH VERTICAL ARMOUR", "At a gun's long range")
    header = cells(next(x for x in block if x.startswith("GUN Cal")))
    assert header[1:] == [str(i) for i in range(1, 21)]
    rows = [x.split("\t") for x in block if re.match(r'^[\d.]+"\t', x)]
    assert len(rows) == len(sf.TABLE_5) == 15
    for row in rows:
        cal = float(row[0].rstrip('"'))
        printed = [c.strip() for c in row[1:]] + [""] * (21 - len(row))
        ours = sf.TABLE_5[cal]
        for thickness, (got, want) in enumerate(zip(ours, printed, strict=True), start=1):
            if want == "":
                assert got is None, (cal, thickness)
            elif want == "ANY":
                assert got == sf.ANY, (cal, thickness)
            else:
                assert got == int(want), (cal, thickness)


def test_plunging_fire_example() -> None:
    text = " ".join(seed().split())
    assert 'guns of 11" and over will penetrate $\\frac{1}{2}$ as much armour again' in text
    assert 'Range: 260 cm. vertical pen. 3" but = long range 4 $\\frac{1}{2}$ " pen.' in text
    assert sf.penetration(16, 260) == 3
    assert sf.penetration(16, 260, plunging=True) == 4.5
    assert sf.penetrates(4.5, 16, 260, True) and not sf.penetrates(4.6, 16, 260, True)
    assert sf.penetration(18, 1000) == 1  # "ANY"
    assert sf.penetration(11, 10) == 18 and sf.penetration(3, 41) == 0
    assert sf.penetrates(13.8, 15, 130) and not sf.penetrates(13.8, 15, 131)  # the 14" cell


def test_table_6_and_7_cell_by_cell() -> None:
    text = seed()
    for name, runs in sf.TABLE_6.items():
        line = next(x for x in text.splitlines() if x.startswith(name + "\t"))
        printed = re.findall(r"(\d+)cm & (\d+)kts", line)
        assert [(int(a), int(b)) for a, b in printed] == [(r[1], r[2]) for r in runs]
    block = lines_between("Target Ship\tDepth of Torpedoes", "CALCULATION OF HITS")
    rows = [x for x in block[2:] if "\t" in x]
    assert len(rows) == len(sf.TABLE_7)
    for line in rows:
        name, *rest = line.split("\t")
        values = [v.strip() for part in rest for v in part.split(")") if v.strip()]
        # ")" closes the bracket of "Runs under" spanning the Deep column
        values += ["Runs under"] * (3 - len(values))
        assert tuple(values) == sf.TABLE_7[name.strip()], name
    assert sf.best_depth("battleship") == "Deep"
    assert sf.best_depth("heavy_cruiser") == "Medium"
    assert sf.best_depth("destroyer") == "Shallow" and sf.best_depth("submarine") == "Shallow"
    assert sf.best_depth("transport") == "Shallow"


def test_table_8_cell_by_cell() -> None:
    block = lines_between("table 8 BASIC CHANCE", "A = one hit")
    seen = 0
    for line in block:
        m = re.match(r"^(\d) (A|B)\t(.+)$", line)
        if not m:
            continue
        printed = tuple(span(c) for c in m[3].split("\t"))
        a, b = sf.TABLE_8[int(m[1])]
        assert (a if m[2] == "A" else b) == printed, line
        seen += 1
    assert seen == 12
    header = next(x for x in block if x.strip().startswith("15-30"))
    assert "250+" in header
    assert sf.TABLE_8_BANDS[:-1] == (30, 45, 60, 90, 150, 250)
    assert sf.table_8_hits(2, 20, 25) == 2 and sf.table_8_hits(2, 20, 55) == 1
    assert sf.table_8_hits(2, 20, 56) == 0 and sf.table_8_hits(1, 200, 0) == 0
    assert sf.table_8_hits(3, 10, 40) == 1  # under 15 cm reads the first column


def test_torpedo_modifiers_as_printed() -> None:
    text = " ".join(seed().split())
    for phrase in (
        "5 for each complete 150 ft. of the target's length over 300 ft. providing the range "
        "is under 90 cms",
        "5 if the target is more than 30° broadside to the firing marker",
        "5 for each 2 knots of target speed under 15 knots",
        "1 for every knot of speed of torpedo over 30 knots",
        "10 for each additional complete 5 knots of target speed over 15 knots",
        "5 for each complete 50 ft. under 300 ft. of target length",
        "15 if the target is less than 30° broadside",
    ):
        assert phrase in text, phrase
    # a 300 ft. target at 15 knots, 30-knot torpedo, exactly 30 degrees: the basic chance
    assert sf.torpedo_modifier(300, 15, 30, 30, 50) == 0
    assert sf.torpedo_modifier(600, 15, 30, 30, 50) == 10
    assert sf.torpedo_modifier(600, 15, 30, 30, 90) == 0
    assert sf.torpedo_modifier(300, 10, 30, 45, 50) == 5 + 10
    assert sf.torpedo_modifier(300, 30, 40, 10, 50) == 10 - 30 - 15
    assert sf.torpedo_modifier(190, 15, 49, 30, 50) == 19 - 10


def test_torpedo_damage_table() -> None:
    text = seed()
    assert "\n500\t700\t600\n" in text and "1 - 2 = forward (bow) hit" in text
    assert "3 - 4 = amidships hit" in text and "5 - 6 = aft hit" in text
    assert [sf.TORPEDO_DAMAGE[sf.TORPEDO_POSITION[f]] for f in range(1, 7)] == [
        500,
        500,
        700,
        700,
        600,
        600,
    ]
    assert "500 pts. if target moving at 30 knots+" in text
    assert "250 pts. if target moving at 20 knots+" in text
    assert sf.TORPEDO_SPEED_BONUS == ((30, 500), (20, 250))


def test_table_9_and_aa_points_example() -> None:
    block = lines_between("table 9 AA GUN RANGES", "EXETER")
    rows = [cells(x) for x in block if re.search(r"\t\d$", x)]
    assert [(r[0], r[1].split()[0], int(re.findall(r"\d+", r[1])[0]), int(r[2])) for r in rows] == [
        (a, b, c, d) for a, b, c, d in sf.TABLE_9
    ]
    assert "66 A.A. points" in seed()


def test_table_10_cell_by_cell() -> None:
    block = lines_between("A.A POINTS FIRING", "SKIP BOMBING")
    header = next(x for x in block if "0 to 10" in x)
    columns = [tuple(int(n) for n in c.split(" to ")) for c in cells(header)[1:]]
    assert columns == list(sf.TABLE_10_COLUMNS) and len(columns) == 23
    rows = {c[0]: c[1:] for c in (cells(x) for x in block) if c and c[0] in "ABCDE" and c[0]}
    assert rows["A"] == ["0-"] * 23
    for name in "BCDE":
        assert tuple(span(c) for c in rows[name]) == sf.TABLE_10[name], name
    text = seed()
    assert "Dive Bombers deduct 10 from all figures" in text
    assert "Torpedo Bombers add 5 to all figures" in text
    for row, words in (
        ("A", "A = 1 damaged"),
        ("B", "B = 1 Shot down"),
        ("C", "C = 1 Shot down + 1 Damaged"),
        ("D", "D = 1 Shot down + 2 Damaged"),
        ("E", "E = 2 Shot down + 2 Damaged"),
    ):
        assert words in text
        assert sf.TABLE_10_RESULTS[row] == (
            int(words.split(" = ")[1][0]) if "Shot" in words else 0,
            int(re.findall(r"(\d) [Dd]amaged", words)[0]) if "amaged" in words else 0,
        )


def test_table_10_reading() -> None:
    # 66 AA points (the seed's example) read the "61 to 70" column: B 29-33, C 34-38
    assert sf.table_10_column(66) == 6
    assert sf.aa_casualties(66, 10, "skip") == (0, 1, "A")
    assert sf.aa_casualties(66, 30, "skip") == (1, 0, "B")
    assert sf.aa_casualties(66, 36, "skip") == (1, 1, "C")
    assert sf.aa_casualties(66, 39, "skip") == (0, 0, "-")
    assert sf.aa_casualties(66, 22, "dive") == (1, 0, "B")  # 29-33 less 10
    assert sf.aa_casualties(66, 36, "torpedo") == (1, 0, "B")  # 29-33 plus 5
    assert sf.table_10_column(185) == sf.table_10_column(171)  # no "181 to 190" heading
    assert sf.table_10_column(500) == 22
    assert sf.aa_casualties(240, 95, "skip") == (2, 2, "E")


def test_table_11_bombs_mines_and_smoke_cell_by_cell() -> None:
    text = seed()
    for name, (skip, dive) in sf.TABLE_11.items():
        assert f"{name}\t{skip}% per bomb\t{dive}%" in text
    assert "Dive bombers all carry one 1000 lb bomb" in text
    assert "Skip bombers all carry 4 500 lb bombs" in text
    assert sf.BOMBS == {"dive": (1, 1000, 6.0), "skip": (4, 500, 3.0)}
    density = cells(next(x for x in text.splitlines() if x.startswith("Density of mines")))
    chance = cells(next(x for x in text.splitlines() if x.startswith("% chance of a hit")))
    assert [(int(d), int(c)) for d, c in zip(density[1:], chance[1:], strict=True)] == list(
        sf.MINES
    )
    assert "Pts. damage = 1 - 6 dice throw x 1500" in text and sf.MINE_DAMAGE == 1500
    assert sf.mine_chance(45) == 20 and sf.mine_chance(45, magnetic=True) == 40
    assert sf.mine_chance(45, True, degaussed=True) == 20 and sf.mine_chance(500) == 55
    for line in lines_between("Wind Speed\tSpeed of drift", "Still air")[1:]:
        if line.strip():
            name, drift, moves = cells(line)
            assert sf.SMOKE[name.lower()] == (int(drift.split()[0]), int(moves.split()[0]))
    assert "Still air\tNil\t15 moves" in text and sf.SMOKE["still"] == (0, 15)


def test_bridge_and_special_effect_numbers() -> None:
    text = seed()
    for face, words in sf.BRIDGE.items():
        assert f"({face}. {words}" in text
    assert 'reduce speed by 3 knots if shell 8" or more' in text
    assert "initially 100 pts. then 200 (2nd turn)" in text
    assert "Dice (1-6) 5 or 6 needed to put fire out" in text
    assert "Torpedo Tubes $1\\frac{1}{2}$ times damage points. except Japanese 2 x" in text


def test_rule_notes_quote_the_seed() -> None:
    assert len(sf.RULE_NOTES) >= 25
    text = " ".join(seed().split())
    text = text.replace("$\\frac{1}{2}$", "1/2").replace("$1\\frac{1}{2}$", "1 1/2")
    text = text.replace("$2\\frac{1}{2}$", "2 1/2").replace("1 1/2", "1 1/2")
    quote = re.compile(r"(?<![A-Za-z0-9])'((?:[^']|(?<=[A-Za-z0-9])'(?=[a-z]))+)'")
    quoted = [q for note in sf.RULE_NOTES for q in quote.findall(note) if len(q) >= 20]
    assert len(quoted) >= 25
    squashed = " ".join(text.replace(" 1/2", "1/2").split())
    for q in quoted:
        for piece in q.split(" ... "):
            piece = piece.strip(" .")
            if len(piece) >= 10:
                assert piece in text or piece.replace(" 1/2", "1/2") in squashed, q


# ---------------------------------------------------------------------------------------
# Set-ups for the rules alone
# ---------------------------------------------------------------------------------------


def ship(sid: str, **kw: Any) -> Ship:
    base: dict[str, Any] = {
        "id": sid,
        "name": sid.title(),
        "nation": "uk",
        "type": "battleship",
        "tonnage": 30_000,
        "completed": 1916,
        "speed": 24,
        "guns": {"15in": 8},
        "belt": 13,
        "deck": 3,
        "turret": 13,
    }
    base.update(kw)
    return Ship(**base)


def setup(a: list[Ship], b: list[Ship], **conditions: Any) -> BattleSetup:
    cond: dict[str, Any] = {"visibility": 300, "start_range": 100} | conditions
    return BattleSetup("test", Side("A", a[0].nation, a), Side("B", b[0].nation, b), cond)


def battle(s: BattleSetup, rolls: list[int]) -> tuple[SurfaceBattle, ScriptedDice]:
    dice = ScriptedDice(rolls)
    return SurfaceBattle(s, dice), dice


def test_registered() -> None:
    assert RULE_SETS["surface"] is surface_battle


def test_visibility_roll_and_lines_meet_at_the_visibility() -> None:
    s = setup([ship("a1")], [ship("b1")], visibility=None, start_range=250)
    b, dice = battle(s, [12])
    assert b.visibility == 240 and b.weather == "Haze" and dice.unused == []
    assert b.vessels["b1"].y == 240  # 250 cm apart cannot be seen: they meet at 240
    b2, _ = battle(setup([ship("a1")], [ship("b1")], visibility=None, weather="pacific"), [12])
    assert b2.weather == "Clear"


def test_main_turrets_and_secondaries() -> None:
    s = setup(
        [ship("a1", guns={"11in": 9, "5.9in": 12, "20mm": 8})],
        [ship("b1", guns={"15in": 6, "4.5in": 20}), ship("b2", guns={"14in": 10})],
        turrets={"b2": ["A", "B", "X", "Y"]},
    )
    b, _ = battle(s, [])
    a1, b1, b2 = (b.vessels[k] for k in ("a1", "b1", "b2"))
    assert a1.main == "11in" and a1.turrets == {"A": 3, "B": 3, "Y": 3}
    assert a1.secondary == {"5.9in": [6, 6]}  # 20mm is AA only
    assert b1.turrets == {"A": 2, "B": 2, "Y": 2}
    assert b2.turrets == {"A": 3, "B": 3, "X": 2, "Y": 2}


def test_gunfire_at_long_range_table_2_with_small_target_penalty() -> None:
    s = setup(
        [ship("a1", guns={"15in": 8})],
        [ship("dd", type="destroyer", tonnage=1800, guns={"4.7in": 8}, turret=0, belt=0, deck=0)],
        start_range=200,
    )
    # 360 ft. destroyer: "4 x 50 ft." under 600 → +20: a 4-gun salvo at 200 cm needs 28;
    # the hit's Table 4 roll (100: "Y Mount") comes before the second salvo's roll
    b, dice = battle(s, [8, 100, 9])
    a1, dd = b.vessels["a1"], b.vessels["dd"]
    events = b.fire(a1, dd, [("15in", 8)])
    assert "Table 2 28%, % dice 8 + 20: 1 hit." in events[0]
    assert "% dice 9 + 20: 0 hits." in events[-1]
    assert "Y mount (unarmoured: non-penetrating points): 1090 points." in events[1]
    assert dice.unused == [] and dd.damage == 1090 and dd.turrets["Y"] == 0


def test_guns_of_8in_and_under_fire_twice() -> None:
    s = setup([ship("a1", guns={"8in": 6})], [ship("b1")], start_range=190)
    b, dice = battle(s, [99, 99, 99, 99])
    events = b.fire(b.vessels["a1"], b.vessels["b1"], [("8in", 6)])
    assert len(events) == 4 and all("3 x 8in" in e for e in events)
    assert dice.unused == []


def test_turret_penetration_destroys_the_guns_and_bows_hit_slows() -> None:
    s = setup([ship("a1")], [ship("b1", turret=14.2)])
    b, dice = battle(s, [3])
    b1 = b.vessels["b1"]
    g = sf.gun("uk", "15in")
    assert g is not None
    events = b.shell_hit(b1, g, 100.0, "medium")
    assert '"A" turret (14.2" armour penetrated): 4375 points' in events[0]
    assert b1.turrets["A"] == 0 and b1.bow_loss == 3 and b1.damage == 4375
    assert dice.unused == []


def test_armour_not_penetrated_does_non_penetrating_points() -> None:
    s = setup([ship("a1")], [ship("b1", belt=13.8)])
    b, _dice = battle(s, [26, 96])  # belt "A" at 200 cm with a 15in: not penetrated
    g = sf.gun("uk", "15in")
    assert g is not None
    events = b.shell_hit(b.vessels["b1"], g, 150.0, "medium")
    assert 'belt "A" (13.8" armour not penetrated): 1090 points' in events[0]
    assert b.vessels["b1"].boiler_loss == 0
    events = b.shell_hit(b.vessels["b1"], g, 150.0, "medium")
    assert "Y turret" in events[0] or "stern" in events[0]


def test_boiler_room_hit_and_steam_raised() -> None:
    s = setup([ship("a1")], [ship("b1", deck=2)])
    # Table 4 long range 41-45: 'Funnels/Deck "A"'; 2" deck penetrated by a 15in at 240 cm
    b, dice = battle(s, [42, 7, 5, 3])
    g = sf.gun("uk", "15in")
    assert g is not None
    b1 = b.vessels["b1"]
    b.turn = 1
    events = b.shell_hit(b1, g, 240.0, "long")
    assert any("steam lost: -7 knots" in e for e in events)
    assert b1.max_speed == 24 - 7
    b.end_of_move()  # "Dice each subsequent move": not in the move of the hit
    assert b1.boiler_loss == 7 and dice.unused == [5, 3]
    b.turn = 2
    b.end_of_move()  # 5: +2 knots
    assert b1.boiler_loss == 5
    b.turn = 3
    b.end_of_move()  # 3: no
    assert b1.boiler_loss == 5 and dice.unused == []


def test_engine_room_hit_is_permanent() -> None:
    s = setup([ship("a1")], [ship("b1", belt=4)])
    b, dice = battle(s, [58, 4])  # 'Belt(?) "B"' penetrated at short range: 4 x 2 knots
    g = sf.gun("uk", "15in")
    assert g is not None
    b1 = b.vessels["b1"]
    b.shell_hit(b1, g, 100.0, "medium")
    assert b1.engine_loss == 8 and b1.max_speed == 16 and dice.unused == []


def test_bridge_effects() -> None:
    s = setup([ship("a1")], [ship("b1")])
    b, dice = battle(s, [1, 1, 2, 3])
    b1 = b.vessels["b1"]
    b.bridge(b1)
    assert b1.course_lock == 3 and not b1.beyond_control
    b.bridge(b1)
    assert b1.beyond_control and b1.max_speed == 0 and b1.state == "crippled"
    b.bridge(b1)
    assert b1.course_lock == 3
    b.bridge(b1)
    assert b1.director_out and dice.unused == []


def test_director_out_adds_15_to_gunnery_rolls() -> None:
    s = setup([ship("a1")], [ship("b1")], start_range=200)
    b, dice = battle(s, [13, 50, 14])  # 50: Table 4 "Hanger Side" on a ship without: a dud
    events = b.fire(b.vessels["a1"], b.vessels["b1"], [("15in", 8)], director_out=True)
    # a 4-gun salvo at 200 cm: 28%; 13 + 15 = 28 hits, 14 + 15 misses
    assert "% dice 13 + 15: 1 hit" in events[0]
    assert "a dud" in events[1] and "% dice 14 + 15: 0 hits" in events[-1]
    assert dice.unused == []


def test_aa_hit_hangar_fire_and_tubes() -> None:
    s = setup(
        [ship("a1")],
        [
            ship(
                "b1",
                aa=20,
                torpedo_tubes=8,
                type="destroyer",
                nation="japan",
                guns={"5in": 6},
                turret=0,
                belt=0,
                deck=0,
            )
        ],
        hangars=["b1"],
    )
    b, dice = battle(s, [26, 4, 50, 100, 2, 1, 6])
    b1 = b.vessels["b1"]
    g = sf.gun("uk", "4.7in")
    assert g is not None
    b.shell_hit(b1, g, 50.0, "medium")  # destroyer 26-30: AA, d6 4
    assert b1.aa == 16
    events = b.shell_hit(b1, g, 50.0, "medium")  # 46-50: 1st TT: Japanese x 2
    assert "50 points" in events[0] and b1.tube_sets == [0, 4] and b1.tubes == 4
    b.shell_hit(b1, g, 50.0, "medium")  # 96-100: Y mount
    assert b1.turrets == {"A": 2, "B": 2, "Y": 0}
    assert dice.unused == [2, 1, 6]


def test_hangar_fire_doubles_until_put_out() -> None:
    s = setup([ship("a1")], [ship("b1")], hangars=["b1"])
    b, dice = battle(s, [32, 4, 1, 2, 5])
    g = sf.gun("uk", "15in")
    assert g is not None
    b1 = b.vessels["b1"]
    b.shell_hit(b1, g, 100.0, "medium")  # 31-35 short: Hanger Side; d6 4: fire
    assert b1.fire_moves == 1 and b1.damage == 1090
    b.end_of_move()  # 100, d6 1
    b.end_of_move()  # 200, d6 2
    b.end_of_move()  # 400, d6 5: out
    assert b1.damage == 1090 + 700 and b1.fire_moves == 0 and dice.unused == []


def test_hangar_side_on_a_ship_without_a_hangar_is_a_dud() -> None:
    s = setup([ship("a1")], [ship("b1")])
    b, _dice = battle(s, [32])
    g = sf.gun("uk", "15in")
    assert g is not None
    events = b.shell_hit(b.vessels["b1"], g, 100.0, "medium")
    assert "a dud" in events[0] and b.vessels["b1"].damage == 0


def test_sinks_at_its_points_value() -> None:
    s = setup([ship("a1")], [ship("b1", tonnage=1000, completed=1935)])
    b, _ = battle(s, [])
    b1 = b.vessels["b1"]
    assert b1.points == 1200
    assert b.damage(b1, 1199) == [] and not b1.sunk
    assert "sinks" in b.damage(b1, 1)[0] and b1.sunk and b1.state == "sunk"


def test_torpedo_attack_and_damage() -> None:
    s = setup([ship("a1")], [ship("b1", speed=20)])
    b, dice = battle(s, [20, 3, 4, 5, 6, 1, 6])
    b1 = b.vessels["b1"]
    b1.speed = 20
    b1.x, b1.y, b1.heading = 0.0, 100.0, 0.0
    t = Torpedoes("a1", 0, "b1", (0.0, 75.0), 2, "Short Run", 65, 40, "Deep", 1)
    events = b.torpedo_attack(t)
    # 25 cm, beam on (+5), 750 ft (+15), 20 knots (-10), 40-knot torpedo (+10): +20;
    # 20 - 20 = 0: two hits on 2 torpedoes
    assert "modifier +20: 2 hits" in events[0]
    # hit 1: amidships (3) x 4 = 2800, Crit. Hit +1400, 20 knots +250
    assert "Amidships, Crit. Hit): 4450 points" in events[1]
    # hit 2: aft (5) x 6 = 3600 + 1800 + 250; aft d6 1: not immobilized
    assert "Aft, Crit. Hit): 5650 points" in events[2]
    assert b1.flooding == 2 and not b1.immobilised
    b.end_of_move()  # "250 pts. each subsequent turn": nothing in the move of the hits
    assert b1.flooding == 2 and dice.unused == [6]
    b.turn += 1
    b.end_of_move()  # d6 6: flooding controlled
    assert b1.flooding == 0 and dice.unused == []


def test_torpedoes_run_out_and_run_under() -> None:
    s = setup([ship("a1")], [ship("b1", type="destroyer", tonnage=1500, guns={"4.7in": 8})])
    b, dice = battle(s, [])
    t = Torpedoes("a1", 0, "b1", (0.0, 0.0), 2, "Short Run", 65, 40, "Deep", 1)
    assert "run out" in b.torpedo_attack(t)[0]
    assert b.torpedo_hit(b.vessels["b1"], "Runs under") == ["Torpedo runs under B1."]
    assert dice.unused == []


def test_ships_fire_torpedoes_at_the_start_and_they_arrive_a_move_later() -> None:
    s = setup(
        [ship("dd", type="destroyer", tonnage=1800, guns={"4.7in": 8}, torpedo_tubes=8)],
        [ship("b1", guns={}, speed=0)],
        start_range=60,
        orders={"a": "hold", "b": "hold"},
    )
    # move 1: the 4.7s fire 2 x (4, 4) at 60 cm; move 2: again, then the two torpedo
    # salvos arrive (modifier +65: 750 ft., beam on, stopped, 40 knots; 99 - 65 misses)
    b, dice = battle(s, [99] * 4 + [99] * 4 + [99, 99])
    b.step()
    assert len(b.torpedoes) == 2 and b.vessels["dd"].tubes == 0
    assert b.torpedoes[0].count == 4 and b.torpedoes[0].run == "Short Run"
    assert b.torpedoes[0].depth == "Deep"
    events = b.step()
    assert (
        sum(
            "torpedoes reach B1 (60 cm, broadside 68°): % dice 99, modifier +65: 0 hits" in e
            for e in events
        )
        == 2
    )
    assert dice.unused == []
    with pytest.raises(DiceError):
        b.step()


def test_target_change_stops_fire_for_a_move() -> None:
    s = setup(
        [ship("a1")],
        [ship("b1", guns={}), ship("b2", guns={})],
        start_range=150,
        orders={"a": "hold", "b": "hold"},
    )
    b, dice = battle(s, [99, 99])
    b.gunfire()
    assert b.vessels["a1"].target == "b1"
    b.vessels["b1"].sunk = True
    events = b.gunfire()
    assert events == ["A1 shifts target to B2: no fire this move."]
    assert dice.unused == []
    dice.values += [99, 99]
    assert len(b.gunfire()) == 2 and dice.unused == []  # firing again the move after


def test_a_turn_of_more_than_60_degrees_silences_the_main_armament() -> None:
    s = setup([ship("a1", guns={"15in": 8, "6in": 12})], [ship("b1")])
    b, _ = battle(s, [])
    a1, b1 = b.vessels["a1"], b.vessels["b1"]
    a1.turned = 90.0
    assert b.guns_bearing(a1, b1) == [("6in", 6)]
    a1.turned = 45.0
    assert b.guns_bearing(a1, b1)[0] == ("15in", 8)


def test_only_forward_turrets_bear_near_the_bow() -> None:
    s = setup([ship("a1")], [ship("b1")])
    b, _ = battle(s, [])
    a1, b1 = b.vessels["a1"], b.vessels["b1"]
    a1.heading = 80.0  # target dead ahead within 30 degrees
    assert b.guns_bearing(a1, b1) == [("15in", 4)]
    a1.heading = 260.0
    assert b.guns_bearing(a1, b1) == [("15in", 4)]  # X and Y astern


def test_ship_between_impedes_fire_unless_larger_and_10cm_away() -> None:
    s = setup(
        [ship("a1")],
        [ship("b1"), ship("dd", type="destroyer", tonnage=1800, guns={"4.7in": 4})],
    )
    b, _ = battle(s, [])
    a1, b1, dd = (b.vessels[k] for k in ("a1", "b1", "dd"))
    a1.x, a1.y, b1.x, b1.y = 0.0, 0.0, 0.0, 100.0
    dd.x, dd.y = 0.0, 50.0
    assert not b.impeded(a1, b1)  # larger and 50 cm away
    dd.y = 5.0
    assert b.impeded(a1, b1)  # larger but under 10 cm away
    dd.x, dd.y = 5.0, 50.0
    assert not b.impeded(a1, b1)  # not directly between
    dd.x = 0.0
    dd.ship.tonnage = 31_000
    assert b.impeded(a1, b1)  # not larger than it
    assert b.choose_target(a1) is dd  # so a1 fires at the nearer ship in the way


def test_smoke_blocks_fire_and_drifts_with_the_wind() -> None:
    s = setup(
        [ship("a1")],
        [ship("dd", type="destroyer", tonnage=1800, guns={"4.7in": 4}, speed=30)],
        start_range=100,
        orders={"a": "hold", "b": "open"},
        wind_speed="gentle",
    )
    b, dice = battle(s, [])
    dice.values = [1]  # wind from the north
    events = b.move()
    assert "Wind: 1-10 die 1: North." in events and "Dd lays smoke." in events
    smoke = b.smoke[0]
    assert smoke.moves_left == 7  # 8 moves in all, this one included
    before = smoke.a
    b._drift(smoke)
    assert smoke.a[1] == pytest.approx(before[1] - 3) and smoke.moves_left == 6
    a1, dd = b.vessels["a1"], b.vessels["dd"]
    b.smoke = [sf.Smoke((-100.0, 50.0), (100.0, 50.0), 3)]
    assert not b.can_see(a1, dd) and b.choose_target(a1) is None


def test_mines() -> None:
    fields = [{"x": [-50, 50], "y": [-10, 10], "density": 40, "magnetic": True}]
    s = setup([ship("a1", speed=20)], [ship("b1")], minefields=fields, orders={"a": "hold"})
    b, _dice = battle(s, [40, 3])
    a1 = b.vessels["a1"]
    events = b.mines(a1, (-60.0, 0.0))
    assert "strikes a mine (40 <= 40%): 3 x 1500 = 4500 points, speed halved." in events[0]
    assert a1.damage == 4500 and a1.max_speed == 10
    b2, _dice2 = battle(
        setup([ship("a1")], [ship("b1")], minefields=fields, degaussed=["a1"]), [21]
    )
    assert "21 > 20%" in b2.mines(b2.vessels["a1"], (-60.0, 0.0))[0]
    assert not sf.crosses_box((-60.0, 50.0), (60.0, 50.0), [-50, 50], [-10, 10])
    assert sf.crosses_box((-60.0, 0.0), (-55.0, 0.0), [-50, 50], [-10, 10]) is False
    assert sf.crosses_box((-60.0, 0.0), (-45.0, 0.0), [-50, 50], [-10, 10])


def test_air_strike_aa_then_dive_bombs() -> None:
    group = AirGroup("vb", "dive_bomber", 5, name="VB")
    carrier = ship("cv", type="carrier", guns={}, air_groups=[group])
    target = ship("b1", aa=80, deck=5, nation="germany", guns={"11in": 9})
    s = setup([carrier], [target])
    # AA: 80 x 1/4 = 20 points: column "11 to 20": B 14-18; dive: -10 → B 4-8: roll 05
    # 4 bombs at 30%: 30 hits, 31 misses, 1 hits, 100 misses
    # hit 1: Table 4 long 26-30 End Deck (2.5") penetrated by 6": 1000 x d6 4
    # hit 2: Table 4 16-20 Bridge: 1000, bridge d6 6
    b, dice = battle(s, [5, 30, 27, 4, 31, 1, 17, 6, 100])
    events = b.air_strikes()
    assert "row B: 1 shot down, 0 damaged" in events[0]
    assert "VB wave 1: 4 aircraft, 4 bombs at 30%: 2 hit." in events
    b1 = b.vessels["b1"]
    assert b1.damage == 4000 + 1000 and b.air_losses == {"vb": 1}
    assert dice.unused == []
    result = b.result()
    assert result.air_groups["vb"].lost == 1


def test_air_strike_torpedo_bombers_drop_a_salvo() -> None:
    group = AirGroup("vt", "torpedo_bomber", 3, name="VT")
    s = setup([ship("cv", type="carrier", guns={}, air_groups=[group])], [ship("b1", aa=0)])
    b, _dice = battle(s, [])
    events = b.air_strikes()
    assert events == ["VT wave 1: 3 torpedoes dropped at B1 (Deep)."]
    t = b.torpedoes[0]
    assert t.count == 3 and t.knots == 40 and t.arrives == 1
    assert math.dist(t.marker, b.vessels["b1"].pos) == pytest.approx(25)


def test_a_sunk_carriers_aircraft_do_not_strike() -> None:
    group = AirGroup("vb", "dive_bomber", 5, name="VB")
    sunk = ship("cv", type="carrier", guns={}, air_groups=[group], state="sunk")
    b, dice = battle(setup([sunk, ship("a2")], [ship("b1", aa=80)]), [])
    assert b.air_strikes() == [] and dice.unused == []


def test_torpedo_bombers_drop_on_the_side_facing_them() -> None:
    # the marker is 45 degrees off the target's bow on the side towards the enemy, whichever
    # way the target is heading
    group = AirGroup("vt", "torpedo_bomber", 3, name="VT")
    for heading in (0.0, 180.0):
        s = setup([ship("cv", type="carrier", guns={}, air_groups=[group])], [ship("b1", aa=0)])
        b, _dice = battle(s, [])
        target = b.vessels["b1"]
        target.heading = heading
        b.air_strikes()
        carrier = b.vessels["cv"]
        marker = b.torpedoes[0].marker
        assert math.dist(marker, carrier.pos) < math.dist(target.pos, carrier.pos), heading


def test_only_the_upper_bridge_of_a_capital_ship_is_a_bridge_hit() -> None:
    # "3. Bridge - upper bridge (BB,BC) and bridge hits may destroy vital equipment"
    assert sf.LOCATIONS["Upp.Bridge"].kind == "bridge"
    assert sf.LOCATIONS["Bridge"].kind == "bridge"
    assert sf.LOCATIONS["Lwr.Bridge"].kind == "hull"


# ---------------------------------------------------------------------------------------
# The worked example: Renown against Scharnhorst
# ---------------------------------------------------------------------------------------


def example_setup() -> BattleSetup:
    scharnhorst = ship(
        "scharnhorst",
        name="Scharnhorst",
        nation="germany",
        tonnage=32_100,
        completed=1939,
        speed=30,
        guns={"11in": 9, "5.9in": 12, "4.1in": 14},
        belt=13.8,
        deck=3.7,
        turret=14.2,
    )
    renown = ship(
        "renown",
        name="Renown",
        type="battlecruiser",
        tonnage=30_750,
        speed=30,
        guns={"15in": 6, "4.5in": 20},
        belt=9,
        deck=2.5,
        turret=9,
    )
    # "The two ships are placed 240 cm. apart ... both ships are travelling at 30 knots or
    # 15 cm. per turn ... The range is 237 cm.": the seed gives no courses; Scharnhorst
    # holds on, Renown closes at asin(3 / 15), 11.5 degrees, to close 3 cm in 15.
    return setup(
        [scharnhorst],
        [renown],
        visibility=None,
        start_range=240,
        orders={"a": "hold", "b": "close"},
        courses={"renown": math.degrees(math.asin(3 / 15))},
    )


def test_worked_example_first_salvos() -> None:
    text = " ".join(seed().split())
    assert "a 12 is thrown with % dice to give a haze on the horizon" in text
    assert "The first salvo is a miss (76%) but the second one obtains a hit (07%)" in text
    assert "rolls % dice (17) and finds he has hit the upper bridge" in text
    assert "hit on the conning tower(2)" in text
    # visibility 12; Scharnhorst's 4- and 5-gun salvos (the seed gives no numbers, only "No
    # hits are obtained": 50 and 60 miss 16% and 20%); Renown 76, 07; Table 4 17; bridge 2
    b, dice = battle(example_setup(), [12, 50, 60, 76, 7, 17, 2])
    assert b.visibility == 240 and b.weather == "Haze"
    events = b.step()
    assert dice.unused == []
    scharnhorst, renown = b.vessels["scharnhorst"], b.vessels["renown"]
    assert scharnhorst.speed == renown.speed == 30
    assert distance_cm(b) == pytest.approx(237.0)
    fire = [e for e in events if " fires " in e]
    assert fire == [
        "Move 1: Scharnhorst fires 4 x 11in (long range, 237 cm) at Renown: Table 2 16%, % "
        "dice 50: 0 hits.",
        "Move 1: Scharnhorst fires 5 x 11in (long range, 237 cm) at Renown: Table 2 20%, % "
        "dice 60: 0 hits.",
        "Move 1: Renown fires 3 x 15in (long range, 237 cm) at Scharnhorst: Table 2 14%, % "
        "dice 76: 0 hits.",
        "Move 1: Renown fires 3 x 15in (long range, 237 cm) at Scharnhorst: Table 2 14%, % "
        "dice 7: 1 hit.",
    ]
    assert (
        "Move 1: Hit on Scharnhorst: Table 4 17: upper bridge (unarmoured: non-penetrating "
        "points): 1090 points." in events
    )
    assert any("1-6 die 2: Conning Tower — captain killed" in e for e in events)
    assert scharnhorst.damage == 1090 and renown.damage == 0
    assert scharnhorst.course_lock == 1  # "unable to change course next move"
    # "Had this shell hit and penetrated armour at this range the damage would have been
    # 4,375 pts."
    g = sf.gun("uk", "15in")
    assert g is not None and g.range_class(237) == "long" and g.penetrating == 4375
    # next move Scharnhorst keeps her course; one roll more than scripted fails
    heading = scharnhorst.heading
    with pytest.raises(DiceError):
        b.step()
    assert scharnhorst.heading == heading


def distance_cm(b: SurfaceBattle) -> float:
    return math.dist(b.vessels["scharnhorst"].pos, b.vessels["renown"].pos)


def test_an_extra_roll_fails() -> None:
    b, _dice = battle(example_setup(), [12, 50, 60, 76, 7])
    with pytest.raises(DiceError, match="unexpected extra roll"):
        b.step()


# ---------------------------------------------------------------------------------------
# Whole battles
# ---------------------------------------------------------------------------------------


def test_example_setup_file() -> None:
    s = BattleSetup.load(EXAMPLE)
    assert [x.name for x in s.a.ships] == ["Gneisenau", "Scharnhorst"]
    assert [x.name for x in s.b.ships] == ["Renown"]
    renown = s.b.ships[0]
    assert renown.guns["15in"] == 6 and renown.completed == 1916 and renown.nation == "uk"
    for x in s.a.ships:
        assert x.guns["11in"] == 9 and x.nation == "germany" and x.tonnage == 32_100
    b = SurfaceBattle(s, ScriptedDice([8]))
    assert b.vessels["scharnhorst"].points == 38_520 and b.vessels["renown"].points == 30_750
    assert b.vessels["gneisenau"].points == 38_520
    assert b.orders == ["open", "close"]


def test_a_whole_battle_is_deterministic() -> None:
    s = BattleSetup.load(EXAMPLE)
    first = run(surface_battle(s, SeededDice("surface-1")))
    dice = SeededDice("surface-1")
    second = run(surface_battle(s, dice))
    assert first.log == second.log and first.winner == second.winner
    assert {k: v.damage for k, v in first.ships.items()} == {
        k: v.damage for k, v in second.ships.items()
    }
    assert verify_chain(dice.log.rolls) == []


def test_many_battles_end_and_are_consistent() -> None:
    s = BattleSetup.load(EXAMPLE)
    for n in range(25):
        battle_ = SurfaceBattle(s, SeededDice(f"surface-many-{n}"))
        result = run(battle_)
        assert battle_.finished and result.turns <= 45
        assert battle_.step() == []
        for x in result.ships.values():
            assert x.state in ("undamaged", "damaged", "crippled", "sunk")
            assert (x.state == "sunk") == (x.damage >= x.damage_capacity)
        assert result.winner in ("a", "b", "")
        assert s.b.ships[0].damage == 0  # the set-up is not changed


def test_a_mixed_battle_with_destroyers_aircraft_and_mines() -> None:
    group = AirGroup("sw", "torpedo_bomber", 9, name="Swordfish")
    s = BattleSetup(
        "mixed",
        Side(
            "British",
            "uk",
            [
                ship("ark", type="carrier", guns={"4.5in": 16}, aa=60, air_groups=[group]),
                ship(
                    "dd1",
                    type="destroyer",
                    tonnage=1700,
                    guns={"4.7in": 6},
                    torpedo_tubes=8,
                    speed=36,
                    aa=10,
                ),
            ],
        ),
        Side(
            "Italian",
            "italy",
            [
                ship(
                    "vv",
                    nation="italy",
                    guns={"15in": 9, "6in": 12},
                    speed=30,
                    aa=50,
                    completed=1940,
                    tonnage=41_000,
                ),
                ship(
                    "ca",
                    nation="italy",
                    type="heavy_cruiser",
                    guns={"8in": 8},
                    torpedo_tubes=0,
                    tonnage=11_000,
                    completed=1931,
                    speed=32,
                    aa=30,
                ),
            ],
        ),
        {
            "start_range": 120,
            "minefields": [{"x": [0, 200], "y": [40, 60], "density": 30}],
            "smoke": ["dd1"],
        },
    )
    for n in range(10):
        result = run(surface_battle(s, SeededDice(f"mixed-{n}")))
        assert result.turns >= 1
        assert "sw" in result.air_groups and 0 <= result.air_groups["sw"].lost <= 9


def test_a_shallow_torpedo_sinks_a_submarine() -> None:
    s = setup([ship("a1")], [ship("ss", type="submarine", tonnage=1000, guns={})])
    b, dice = battle(s, [])
    assert sf.best_depth("submarine") == "Shallow"
    events = b.torpedo_hit(b.vessels["ss"], sf.depth_result("submarine", "Shallow"))
    assert events == ["Torpedo hits Ss.", "Ss sinks (1000 of 1000 points)."]
    assert dice.unused == []


def test_bad_conditions_are_refused() -> None:
    with pytest.raises(ValueError, match="orders"):
        SurfaceBattle(setup([ship("a1")], [ship("b1")], orders={"a": "flee"}), ScriptedDice([]))
    with pytest.raises(ValueError, match="wind"):
        SurfaceBattle(setup([ship("a1")], [ship("b1")], wind="Up"), ScriptedDice([]))
    with pytest.raises(ValueError, match="wind_speed"):
        SurfaceBattle(setup([ship("a1")], [ship("b1")], wind_speed="gale"), ScriptedDice([]))
