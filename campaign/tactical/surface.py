"""Ellard & Hammond, *World War Two Naval Wargame Rules* (1977, seed 004): a surface action.

A battle is fought in **moves** (*"1 move represents 2 minutes of real time"*). Each move:

1. torpedoes are fired (*"Torpedoes are fired at the beginning of the move, before ship
   movement"*) and any air strike due this move is flown in (AA fire, Table 10; bombs, Table
   11; aerial torpedoes dropped);
2. every ship moves (*"Speed is 1/2 cm per knot of real speed"*), crossing minefields and
   laying smoke;
3. every ship fires its guns (Tables 1–5 and the special-effect hits), both sides together;
4. at the end of the move the torpedoes fired a move earlier arrive (Tables 6–8), hangar
   fires burn, flooding spreads and boiler rooms raise steam.

Distances are the seed's table-top centimetres at 1/3000 (*"1 Nautical mile = 15cms"*). The
table top is a plane: side ``a`` starts on the line y = 0 and side ``b`` on y =
``start_range`` (north of it), both steaming east (+x) in line ahead; every ship's bow is a
point and the range is measured bow to bow. A side's orders (``close``, ``hold``, ``open``)
turn its ships 45° towards, along or away from the line of bearing of the nearest enemy each
move; :data:`RULE_NOTES` gives every reading of the seed and every choice the automatic
commanders make.

Every die comes from the injected :class:`~campaign.dice.Dice`. Percentile dice are one
``dice.roll(purpose, sides=100)`` (faces 1–100): tables printed from 1 (weather, Table 4)
and "% chance" figures (Tables 2 and 11, mines) read the face as it is; tables printed from
0 to 99 (Tables 3, 8 and 10) read 100 as 00. The *"single % dice"* of a boiler-room hit is a
d10.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from ..dice import Dice
from . import (
    FLAG,
    AirGroup,
    BattleResult,
    BattleSetup,
    Ship,
    Spec,
    by_ship,
    by_side,
    either_none,
    list_of,
    number,
    one_of,
    register,
    shape,
    ship_ids,
    text,
    whole,
)
from .turns import TurnBattle

RULE_SET: Final = "surface"

# ---------------------------------------------------------------------------------------
# The seed's tables as data
# ---------------------------------------------------------------------------------------

#: "Std. Tonnage + 10% if hull completed in 1920's / 20% ... 1930's / 30% ... 1940's"
COMPLETION_BONUS: Final[dict[int, int]] = {1920: 10, 1930: 20, 1940: 30}

#: Weather a. VISIBILITY: (low, high % roll, max visibility cm, N. Atlantic, Pacific or Med.)
WEATHER: Final[tuple[tuple[int, int, int, str, str], ...]] = (
    (0, 5, 300, "Clear", "Clear"),
    (6, 15, 240, "Haze", "Clear"),
    (16, 30, 180, "Mist", "Light Squall"),
    (31, 50, 150, "Overcast -perhaps light rain", "Light Squall"),
    (51, 70, 120, "Dull - steady rain", "Light Squall"),
    (71, 85, 100, "Heavy rain", "Heavy Squall"),
    (86, 95, 60, "Sleet", "Heavy Squall"),
    (96, 100, 30, "Snow or Night", "Storm or Night"),
)

#: Weather b. WIND: "Use 1-10 (%) Dice. Wind comes from." (9 and 10: "Dead Calm")
WIND: Final[dict[int, str]] = {
    1: "North",
    2: "North East",
    3: "East",
    4: "South East",
    5: "South",
    6: "South West",
    7: "West",
    8: "North West",
    9: "Dead Calm",
    10: "Dead Calm",
}
#: compass bearing (degrees clockwise from north) the wind comes from
WIND_BEARING: Final[dict[str, float]] = {
    "North": 0.0,
    "North East": 45.0,
    "East": 90.0,
    "South East": 135.0,
    "South": 180.0,
    "South West": 225.0,
    "West": 270.0,
    "North West": 315.0,
}

#: Smokescreens: wind speed → (drift cm a move in the direction of the wind, moves a
#: section of smokescreen remains)
SMOKE: Final[dict[str, tuple[int, int]]] = {
    "gentle": (3, 8),
    "moderate": (6, 4),
    "rough": (12, 2),
    "still": (0, 15),
}

#: Table 1, GUN RANGES & DAMAGE VALUES: nation → rows of (gun as printed, long range max cm,
#: medium & short range max cm, damage penetrating, damage non-penetrating)
TABLE_1: Final[dict[str, tuple[tuple[str, int, int, int, int], ...]]] = {
    "BRITISH": (
        ("16", 340, 225, 4535, 1130),
        ("15", 260, 170, 4375, 1090),
        ("14", 300, 200, 3540, 885),
        ("8", 240, 160, 581, 145),
        ("6", 195, 130, 254, 60),
        ("7.5", 170, 110, 500, 120),
        ("5.25", 190, 125, 192, 45),
        ("4.7", 170, 110, 113, 25),
        ("4.5", 170, 110, 125, 30),
        ("4", 150, 100, 70, 15),
    ),
    "GERMAN": (
        ("16", 300, 200, 4100, 1050),
        ("15", 300, 200, 3990, 995),
        ("11", 350, 230, 1575, 390),
        ("8", 280, 195, 592, 150),
        ("5.9", 180, 120, 216, 50),
        ("5.1", 170, 110, 140, 35),
        ("4.1", 120, 80, 75, 15),
        ("3.9", 120, 80, 70, 15),
    ),
    "U.S.A.": (
        ("16 new", 300, 200, 6120, 1530),
        ("16 old", 250, 165, 6120, 1530),
        ("14", 250, 165, 3175, 790),
        ("8", 240, 160, 590, 145),
        ("6", 220, 160, 260, 75),
        ("5", 130, 90, 120, 30),
        ("12", 275, 180, 2500, 625),
    ),
    "JAPAN": (
        ("18", 360, 240, 7300, 1825),
        ("16", 340, 225, 4965, 1240),
        ("14", 310, 205, 3375, 840),
        ("8", 240, 160, 629, 155),
        ("6.1", 245, 160, 278, 65),
        ("5.5", 180, 120, 190, 45),
        ("5", 120, 80, 115, 25),
        ("4.7", 120, 80, 110, 25),
    ),
    "ITALIAN": (
        ("15", 350, 230, 4410, 1100),
        ("12.6", 240, 160, 2625, 655),
        ("8", 245, 160, 600, 150),
        ("6", 190, 125, 240, 60),
        ("5.3", 160, 105, 160, 40),
        ("4.7", 170, 110, 115, 25),
        ("3.9", 125, 80, 69, 15),
        ("3.5", 105, 70, 50, 10),
    ),
    "FRENCH": (
        ("15", 350, 230, 4450, 1110),
        ("13.4", 200, 130, 2770, 690),
        ("13", 340, 225, 2800, 700),
        ("12", 215, 140, 2160, 540),
        ("8", 240, 160, 600, 150),
        ("6", 220, 145, 270, 65),
        ("5.5", 130, 85, 197, 45),
        ("5.1", 170, 110, 160, 40),
        ("3.9", 125, 80, 74, 15),
    ),
}

#: Ship.nation (as the campaign spells it) → Table 1 nation; others use BRITISH
NATIONS: Final[dict[str, str]] = {
    "uk": "BRITISH",
    "britain": "BRITISH",
    "british": "BRITISH",
    "commonwealth": "BRITISH",
    "germany": "GERMAN",
    "german": "GERMAN",
    "usa": "U.S.A.",
    "us": "U.S.A.",
    "american": "U.S.A.",
    "japan": "JAPAN",
    "japanese": "JAPAN",
    "italy": "ITALIAN",
    "italian": "ITALIAN",
    "france": "FRENCH",
    "french": "FRENCH",
    "free_france": "FRENCH",
    "vichy_france": "FRENCH",
}

#: "Salvos were fired as follows": guns firing → salvos
SALVOS: Final[dict[int, tuple[int, ...]]] = {
    6: (3, 3),
    7: (3, 4),
    8: (4, 4),
    9: (4, 5),
    10: (5, 5),
    12: (4, 4, 4),
}

#: Table 2, % CHANCE OF A HIT PER SALVO AT OVER 180CMS: the range bands' upper limits (cm;
#: the first band starts at 180) and guns per salvo → % chance of one hit in each band
TABLE_2_BANDS: Final[tuple[int, ...]] = (195, 210, 225, 240, 255, 270, 285, 300)
TABLE_2: Final[dict[int, tuple[int, ...]]] = {
    2: (20, 18, 14, 12, 10, 8, 5, 5),
    3: (30, 26, 18, 14, 12, 10, 5, 5),
    4: (35, 28, 23, 16, 13, 11, 5, 5),
    5: (40, 30, 25, 20, 15, 13, 8, 5),
}

#: Table 3, HITS PER SALVO AT LESS THAN 180 CMS: the bands' upper limits (cm) and
#: guns per salvo → hits → the % rolls (low, high) in each band (None: "-")
TABLE_3_BANDS: Final[tuple[int, ...]] = (15, 37, 59, 90, 119, 150, 180)
Cell = tuple[int, int] | None
TABLE_3: Final[dict[int, dict[int, tuple[Cell, ...]]]] = {
    2: {
        1: ((36, 99), (31, 85), (26, 70), (21, 60), (16, 50), (11, 40), (11, 30)),
        2: ((0, 35), (0, 30), (0, 25), (0, 20), (0, 15), (0, 10), (0, 10)),
    },
    3: {
        1: ((46, 99), (41, 85), (36, 75), (31, 65), (21, 60), (16, 55), (11, 50)),
        2: ((26, 45), (21, 40), (16, 35), (11, 30), (6, 20), (0, 15), (0, 10)),
        3: ((0, 25), (0, 20), (0, 15), (0, 10), (0, 5), None, None),
    },
    4: {
        1: ((51, 99), (46, 90), (41, 80), (36, 70), (26, 65), (19, 60), (11, 55)),
        2: ((31, 50), (26, 45), (21, 40), (16, 35), (11, 25), (6, 18), (0, 10)),
        3: ((0, 30), (0, 25), (0, 20), (0, 15), (0, 10), (0, 5), None),
    },
    5: {
        1: ((61, 99), (56, 99), (51, 90), (46, 85), (36, 80), (21, 70), (11, 60)),
        2: ((36, 60), (31, 55), (26, 50), (21, 45), (16, 35), (11, 20), (6, 10)),
        3: ((0, 35), (0, 30), (0, 25), (0, 20), (0, 15), (0, 10), (0, 5)),
    },
}

#: Table 4, POSITION OF HITS ON THE TARGET, cell by cell as printed: (upper limit of the %
#: band, Aircraft Carrier / Long Range, Battleship/Cruiser / Short Range, Cruisers / Long
#: Range, Destroyers / Short Range). The last row's "Stern" under the two right-hand
#: columns is printed on a line of its own; it belongs to those cells.
TABLE_4: Final[tuple[tuple[int, str, str, str, str], ...]] = (
    (5, "Catapult (Deck)", '"A" Turret', '"A" Turret', '"A" Mount'),
    (10, "Hull", '"B" Turret', '"B" Turret', '"B" Mount'),
    (15, "P/S MainAA", "Upp.Bridge", '"C" Turret', '"B" Mount'),
    (20, "P/S MainAA", "Lwr.Bridge", "Bridge", "Bridge"),
    (25, "Bridge", "P/S 2nd.Tur", "P/S 2ndTur", 'Hull "A"'),
    (30, "Deck", 'Belt(?) "A"', "End Deck", "AA"),
    (35, "Deck (Alift)", "Hanger Side", "End Deck", 'Funnel "A"'),
    (40, "Deck", "Hanger Side", "P/S 2ndTur", '"C" Turret'),
    (45, "AA", "AA", 'Funnels/Deck "A"', 'Funnel "A"'),
    (50, "Deck", "Hanger Side", "P/S 2ndTur", "1st TT/Deck"),
    (55, "Dk(B lift)", "Hanger Side", "Hanger/Dk.", "S/L Platf. S/L Platf"),
    (60, "Deck", 'Belt(?) "B"', 'Mid.Deck/ Cranes "A"', "2nd TT"),
    (65, "AA", "AA", "P/S 2ndTur", "Deck B"),
    (70, "Deck", "Hanger Side", 'Mid.Deck "B"', "3rd TT/Deck"),
    (75, "Deck (C lift)", "Hanger Side", "End Deck", "AA. Platf. AA. Platf"),
    (80, "Deck", "Hanger Side", "End Deck", "4ft. TT/Deck"),
    (85, "P/S MainAA", "P/S MainAA", "Aft. SS (AA)", "Deck"),
    (90, "P/S MainAA", "P/S MainAA", "Aft. SS (AA)", "Aft. SS"),
    (95, "Round-down", "Hull", "X Turret", "X Turret"),
    (100, "Stern", "Stern", "Y Turret Stern", "Y Mount Stern"),
)
#: the column of Table 4 read for each kind of target (see RULE_NOTES): "carrier" (all
#: ranges), "short" and "long" (battleships, battlecruisers, cruisers and the rest), "destroyer"
COLUMN_CARRIER, COLUMN_SHORT, COLUMN_LONG, COLUMN_DESTROYER = 1, 2, 3, 4


@dataclass(frozen=True)
class Location:
    """How one Table 4 cell is read.

    ``armour``: "" (unarmoured), "belt", "end_belt" (half the belt), "deck", "end_deck" (half
    the deck) or "turret"; ``marker``: the seed's "A" (boiler rooms) or "B" (engine room);
    ``kind`` says which special effect applies; ``needs`` is the equipment the ship must have
    for the hit to count (otherwise ``fallback``, or a dud when there is none).
    """

    name: str
    kind: str
    armour: str = ""
    marker: str = ""
    needs: str = ""
    fallback: Location | None = None


_DECK = Location("deck", "deck", "deck")
_STERN = Location("stern", "hull")
#: the reading of every cell of Table 4
LOCATIONS: Final[dict[str, Location]] = {
    "Catapult (Deck)": Location("catapult", "equipment"),
    "Hull": Location("hull (end belt)", "hull", "end_belt"),
    "P/S MainAA": Location("main AA", "aa"),
    "Bridge": Location("bridge", "bridge"),
    "Deck": _DECK,
    "Deck (Alift)": Location("deck (A lift)", "lift", "deck"),
    "AA": Location("AA", "aa"),
    "Dk(B lift)": Location("deck (B lift)", "lift", "deck"),
    "Deck (C lift)": Location("deck (C lift)", "lift", "deck"),
    "Round-down": Location("round-down", "hull"),
    "Stern": _STERN,
    '"A" Turret': Location('"A" turret', "turret", "turret", needs="A"),
    '"B" Turret': Location('"B" turret', "turret", "turret", needs="B"),
    '"C" Turret': Location('"C" turret', "turret", "turret", needs="C"),
    "X Turret": Location("X turret", "turret", "turret", needs="X"),
    "Y Turret Stern": Location("Y turret", "turret", "turret", needs="Y", fallback=_STERN),
    '"A" Mount': Location('"A" mount', "turret", "turret", needs="A"),
    '"B" Mount': Location('"B" mount', "turret", "turret", needs="B"),
    "Y Mount Stern": Location("Y mount", "turret", "turret", needs="Y", fallback=_STERN),
    "Upp.Bridge": Location("upper bridge", "bridge"),
    # "upper bridge (BB,BC) and bridge hits may destroy vital equipment": not the lower one
    "Lwr.Bridge": Location("lower bridge", "hull"),
    "P/S 2nd.Tur": Location("secondary turret", "secondary", needs="secondary"),
    "P/S 2ndTur": Location("secondary turret", "secondary", needs="secondary"),
    'Belt(?) "A"': Location('belt "A"', "belt", "belt", "A"),
    'Belt(?) "B"': Location('belt "B"', "belt", "belt", "B"),
    "Hanger Side": Location("hangar side", "hangar", needs="hangar"),
    "End Deck": Location("end deck", "deck", "end_deck"),
    'Funnels/Deck "A"': Location('funnels/deck "A"', "deck", "deck", "A"),
    "Hanger/Dk.": Location("hangar", "hangar", needs="hangar", fallback=_DECK),
    'Mid.Deck/ Cranes "A"': Location('mid deck/cranes "A"', "deck", "deck", "A"),
    'Mid.Deck "B"': Location('mid deck "B"', "deck", "deck", "B"),
    "Aft. SS (AA)": Location("aft superstructure (AA)", "aa"),
    'Hull "A"': Location('hull "A"', "hull", "end_belt", "A"),
    'Funnel "A"': Location('funnel "A"', "hull", "", "A"),
    "1st TT/Deck": Location("1st torpedo tubes", "tubes", needs="TT1", fallback=_DECK),
    "S/L Platf. S/L Platf": Location("searchlight platform", "equipment"),
    "2nd TT": Location("2nd torpedo tubes", "tubes", needs="TT2"),
    "Deck B": Location('deck "B"', "deck", "deck", "B"),
    "3rd TT/Deck": Location("3rd torpedo tubes", "tubes", needs="TT3", fallback=_DECK),
    "AA. Platf. AA. Platf": Location("AA platform", "aa"),
    "4ft. TT/Deck": Location("4th torpedo tubes", "tubes", needs="TT4", fallback=_DECK),
    "Aft. SS": Location("aft superstructure", "hull"),
}

#: Table 5, RANGE AT WHICH VERTICAL ARMOUR IS PENETRATED (cm): gun calibre → the range for
#: 1, 2, ... 20 inches (None: blank — never; ANY: at any range)
ANY: Final = 10_000
TABLE_5: Final[dict[float, tuple[int | None, ...]]] = {}


def _table_5_row(first: int | None, columns: int) -> tuple[int | None, ...]:
    start = first if first is not None else 290
    cells: list[int | None] = [start - 10 * i for i in range(columns)]
    if first is None:
        cells[0] = ANY
    return tuple(cells) + (None,) * (20 - columns)


for _cal, _first, _n in (
    (18.0, None, 20),
    (16.0, 280, 20),
    (15.0, 260, 20),
    (14.0, 240, 20),
    (13.0, 220, 20),
    (12.0, 200, 20),
    (11.0, 180, 18),
    (8.0, 140, 14),
    (7.5, 120, 12),
    (6.0, 100, 10),
    (5.0, 80, 8),
    (4.7, 70, 7),
    (4.5, 70, 7),
    (4.0, 60, 6),
    (3.0, 40, 4),
):
    TABLE_5[_cal] = _table_5_row(_first, _n)

#: "At a gun's long range (see Chart 1) guns of 11" and over will penetrate 1/2 as much
#: armour again"
PLUNGING_CALIBRE: Final = 11.0
PLUNGING_FACTOR: Final = 1.5

#: table 6 TORPEDO RANGES: torpedo nation → runs (name, range cm, speed knots)
TABLE_6: Final[dict[str, tuple[tuple[str, int, int], ...]]] = {
    "British, German, French, Italian, and U.S.": (
        ("Short Run", 65, 40),
        ("Normal Run", 90, 35),
        ("Long Run", 115, 30),
    ),
    "Japanese": (("Short Run", 180, 49), ("Normal Run", 320, 36)),
}
#: "All aerial torpedoes travel at 40 knots."
AERIAL_TORPEDO_KNOTS: Final = 40
#: the range of an aerial torpedo's run (the seed gives none; see RULE_NOTES)
AERIAL_TORPEDO_RUN: Final = 115

#: table 7 DEPTH SETTING TABLE: target → (Shallow, Medium, Deep)
TABLE_7: Final[dict[str, tuple[str, str, str]]] = {
    "BB, CV": ("Hit", "Hit", "Crit. Hit"),
    "CA, CL, CVE": ("Hit", "Crit.Hit", "Runs under"),
    "DD, DE": ("Crit.Hit", "Runs under", "Runs under"),
    "SS": ("Sunk", "Runs under", "Runs under"),
    "Merchants/ Tankers": ("Crit.Hit", "Crit.Hit", "Runs under"),
}
DEPTHS: Final = ("Shallow", "Medium", "Deep")

#: table 8 BASIC CHANCE TORPEDO HIT TABLE: the bands' upper limits (cm; the first starts
#: at 15, the last is "250+") and torpedoes fired → (A one hit, B two hits) rolls per band
TABLE_8_BANDS: Final[tuple[float, ...]] = (30, 45, 60, 90, 150, 250, math.inf)
TABLE_8: Final[dict[int, tuple[tuple[Cell, ...], tuple[Cell, ...]]]] = {
    1: (((0, 50), (0, 30), (0, 10), (0, 5), (0, 5), None, None), (None,) * 7),
    2: (
        ((26, 55), (6, 35), (0, 15), (0, 7), (0, 5), None, None),
        ((0, 25), (0, 5), None, None, None, None, None),
    ),
    3: (
        ((31, 60), (11, 40), (6, 20), (0, 10), (0, 7), (0, 5), None),
        ((0, 30), (0, 10), (0, 5), None, None, None, None),
    ),
    4: (
        ((33, 65), (13, 45), (8, 25), (6, 12), (0, 7), (0, 5), None),
        ((0, 32), (0, 12), (0, 7), (0, 5), None, None, None),
    ),
    5: (
        ((36, 70), (16, 50), (11, 30), (6, 15), (6, 10), (0, 7), (0, 5)),
        ((0, 35), (0, 15), (0, 10), (0, 5), (0, 5), None, None),
    ),
    6: (
        ((38, 75), (18, 55), (13, 35), (11, 17), (8, 10), (0, 7), (0, 5)),
        ((0, 37), (0, 17), (0, 12), (0, 10), (0, 7), None, None),
    ),
}
MAX_TORPEDO_SALVO: Final = 6

#: (B) TORPEDO DAMAGE: 1-6 die → position; position → basic points (x 1-6 die score)
TORPEDO_POSITION: Final[dict[int, str]] = {1: "Fwd.", 2: "Fwd.", 3: "Amidships", 4: "Amidships"}
TORPEDO_POSITION.update({5: "Aft", 6: "Aft"})
TORPEDO_DAMAGE: Final[dict[str, int]] = {"Fwd.": 500, "Amidships": 700, "Aft": 600}
TORPEDO_CRITICAL: Final = 0.5  # "Another 50% to original damage if hit is critical"
TORPEDO_SPEED_BONUS: Final[tuple[tuple[int, int], ...]] = ((30, 500), (20, 250))
FLOODING_POINTS: Final = 250  # "250 pts. each subsequent turn if the flooding is not controlled"
FLOODING_CONTROLLED: Final = 6  # "a 6 must be thrown on a 1 - 6 die"

#: A. A.A. POINTS VALUE / table 9 AA GUN RANGES: (guns, range name, range cm, points a gun)
TABLE_9: Final[tuple[tuple[str, str, int, int], ...]] = (
    ("3 - 6in", "Long", 80, 3),
    ("31mm- 40mm", "Med.", 40, 2),
    ("20mm- 30mm", "Short", 10, 1),
)
AA_A_ARC: Final = 0.5  # "'A' arcs and 'B' arcs into which 1/2 and 1/4 of the total A.A. value"
AA_B_ARC: Final = 0.25
WAVE: Final = 5  # "waves of 5 Aircraft"
WAVE_DISTANCE: Final = 25  # "25 cm. from the target along the direction of the attack"

#: table 10 AA CASUALTIES TABLE (skip bombing): the column headings as printed (AA points
#: firing, low and high) and rows B–E (row A is "0-" in every column: 0 up to B's low - 1)
TABLE_10_COLUMNS: Final[tuple[tuple[int, int], ...]] = (
    (0, 10),
    *tuple((lo, lo + 9) for lo in (*range(11, 172, 10), *range(191, 232, 10))),
)


def _steps(first: int, blanks: int, last_lo: int) -> tuple[Cell, ...]:
    cells: list[Cell] = [None] * blanks
    lo = first
    while lo <= last_lo:
        cells.append((lo, lo + 4))
        lo += 3
    return tuple(cells)


TABLE_10: Final[dict[str, tuple[Cell, ...]]] = {
    "B": ((11, 15), (14, 18), (17, 22), *_steps(20, 0, 77)),
    "C": _steps(25, 3, 82),
    "D": _steps(42, 7, 87),
    "E": _steps(62, 12, 92),
}
#: result → (shot down, damaged)
TABLE_10_RESULTS: Final[dict[str, tuple[int, int]]] = {
    "A": (0, 1),
    "B": (1, 0),
    "C": (1, 1),
    "D": (1, 2),
    "E": (2, 2),
}
#: "Dive Bombers deduct 10 from all figures ... Torpedo Bombers add 5"
TABLE_10_SHIFT: Final[dict[str, int]] = {"skip": 0, "dive": -10, "torpedo": 5}

#: table 11 PERCENTAGE CHANCE OF BOMB HIT: target → (Skip Bombers, Dive Bombers)
TABLE_11: Final[dict[str, tuple[int, int]]] = {
    "Carriers-Battleships": (20, 30),
    "Cruisers": (15, 20),
    "Destroyers, Escorts": (10, 10),
}
#: bomber → (bombs each, pounds, armour penetrated in inches)
BOMBS: Final[dict[str, tuple[int, int, float]]] = {"dive": (1, 1000, 6.0), "skip": (4, 500, 3.0)}
#: AirGroup.kind → the seed's bomber
BOMBER_KINDS: Final[dict[str, str]] = {
    "dive_bomber": "dive",
    "level_bomber": "skip",
    "torpedo_bomber": "torpedo",
}

#: MINES: density of mines per square mile → % chance of a hit
MINES: Final[tuple[tuple[int, int], ...]] = (
    (10, 5),
    (20, 10),
    (30, 15),
    (40, 20),
    (50, 25),
    (60, 30),
    (70, 35),
    (80, 40),
    (90, 45),
    (100, 50),
    (120, 55),
)
MINE_DAMAGE: Final = 1500  # "Pts. damage = 1 - 6 dice throw x 1500"

#: special effect 3, Bridge: 1-6 die → result
BRIDGE: Final[dict[int, str]] = {
    1: "Wheelhouse",
    2: "Conning Tower",
    3: "Director out of action",
    4: "S/Light out and other minor items",
    5: "Radar beacon shattered",
    6: "No significant damage",
}
WHEELHOUSE_MOVES: Final = 3  # "continue on its present course for three moves"
CONNING_MOVES: Final = 1  # "maintain present course for next move"
DIRECTOR_PENALTY: Final = 15  # "15% of chance of hits with gunnery" (added to % rolls)
BOWS_KNOTS: Final = 3  # "reduce speed by 3 knots if shell 8" or more"
BOWS_CALIBRE: Final = 8.0
SMALL_TARGET_FT: Final = 600  # "for every complete 50 ft. under 600 ft. add 5%"
HANGAR_FIRE_POINTS: Final = 100  # "initially 100 pts. then 200 ... then 400 ... then 800"
TT_DAMAGE: Final = 1.5  # "Torpedo Tubes 1 1/2 times damage points. except Japanese 2 x"
TT_DAMAGE_JAPANESE: Final = 2.0

#: ship length in feet by type (the Ship record has none; conditions "length_ft" overrides)
LENGTH_FT: Final[dict[str, int]] = {
    "battleship": 750,
    "battlecruiser": 770,
    "carrier": 800,
    "light_carrier": 620,
    "escort_carrier": 500,
    "heavy_cruiser": 630,
    "light_cruiser": 560,
    "destroyer": 360,
    "escort": 300,
    "submarine": 250,
    "transport": 450,
}

CARRIERS: Final = ("carrier", "light_carrier", "escort_carrier")
DESTROYERS: Final = ("destroyer", "escort")
CAPITAL: Final = ("battleship", "battlecruiser")
CRUISERS: Final = ("heavy_cruiser", "light_cruiser")

#: the seed's numbers and the automatic commanders' choices a set-up's conditions may change
DEFAULTS: Final[dict[str, Any]] = {
    "weather": "north_atlantic",  # or "pacific", "mediterranean" (names of the states)
    "visibility": None,  # cm; None: thrown on the visibility table
    "wind": None,  # "North" … "Dead Calm"; None: thrown when smoke is first laid
    "wind_speed": "moderate",  # gentle | moderate | rough (still air when calm)
    "start_range": 150,  # cm between the two lines at the start
    "spacing": 5,  # cm between ships in line ahead (3 cables)
    "turn_limit": 45,  # moves (90 minutes)
    "orders": {},  # side ("a"/"b") → close | hold | open
    "courses": {},  # ship id → fixed course, degrees towards the enemy line
    "course_angle": 45,  # degrees off the line of bearing for close and open
    "close_to": 20,  # cm: a closing ship holds its course once this close
    "break_off": 0.5,  # a side that has lost this share of its points value turns away
    "contact_lost_moves": 3,  # moves out of sight (one side opening) ending the battle
    "torpedo_range": None,  # cm; None: the nation's Short Run
    "air_strike_turn": 1,
    "smoke": [],  # ship ids that lay smoke whenever their side opens the range
    "minefields": [],  # {"x": [x0, x1], "y": [y0, y1], "density": 40, "magnetic": false}
    "degaussed": [],  # ship ids
    "length_ft": {},  # ship id → feet
    "turrets": {},  # ship id → main turrets, e.g. ["A", "B", "Y"]
    "hangars": [],  # ship ids with a hangar (carriers and ships with air groups have one)
}
#: every condition a set-up may give (docs/battle-setups.md lists them)
CONDITIONS: Final[dict[str, str]] = {
    "weather": "'north_atlantic', 'pacific' or 'mediterranean': the weather table",
    "visibility": "cm; else thrown on the visibility table",
    "wind": "'North' ... 'Dead Calm'; else thrown when smoke is first laid",
    "wind_speed": "'gentle', 'moderate' or 'rough' (still air when calm)",
    "start_range": "cm between the two lines at the start (150)",
    "spacing": "cm between ships in line ahead (5: 3 cables)",
    "turn_limit": "moves after which the battle ends (45: 90 minutes)",
    "orders": "{'a': ..., 'b': ...}: 'close', 'hold' or 'open' ('close')",
    "courses": "ship id -> a fixed course, degrees towards the enemy line",
    "course_angle": "degrees off the line of bearing for close and open (45)",
    "close_to": "cm: a closing ship holds its course once this close (20)",
    "break_off": "share of its points value a side loses before it turns away (0.5)",
    "contact_lost_moves": "moves out of sight ending the battle (3)",
    "torpedo_range": "cm; else each nation's Short Run",
    "air_strike_turn": "the move the air strike comes in (1)",
    "smoke": "ship ids that lay smoke whenever their side opens the range",
    "minefields": "[{'x': [x0, x1], 'y': [y0, y1], 'density': 40, 'magnetic': false}]",
    "degaussed": "ship ids degaussed against magnetic mines",
    "length_ft": "ship id -> length in feet (torpedo hit tables)",
    "turrets": "ship id -> main turrets, e.g. ['A', 'B', 'Y']",
    "hangars": "ship ids with a hangar (carriers and ships with air groups have one)",
}
ORDERS: Final = ("close", "hold", "open")
#: ships a side: every ship is moved, sighted and fired ship by ship each move, so a side
#: of 50 takes a second or two for a 45-move battle (bench/hostile_bench.py); the seed's
#: actions are squadron actions (docs/battle-setups.md, "Limits")
MAX_SHIPS_A_SIDE: Final = 50
#: a minefield: a box of the table (cm) and its density
_SPAN = list_of(number(-10_000, 10_000), 2, 2)
#: what each condition may be (a set-up is checked whole before a battle is made)
CHECKS: Final[dict[str, Spec]] = {
    "weather": one_of("north_atlantic", "pacific", "mediterranean", None),
    "visibility": either_none(number(1, 1000)),
    "wind": one_of(*sorted(set(WIND.values())), None),
    "wind_speed": one_of(*SMOKE),
    "start_range": number(1, 1000),
    "spacing": number(0, 100),
    "turn_limit": whole(1, 200),
    "orders": by_side(one_of(*ORDERS)),
    "courses": by_ship(number(-360, 360)),
    "course_angle": number(0, 90),
    "close_to": number(0, 1000),
    "break_off": number(0, 1),
    "contact_lost_moves": whole(1, 200),
    "torpedo_range": either_none(number(0, 1000)),
    "air_strike_turn": whole(1, 200),
    "smoke": ship_ids(),
    "minefields": list_of(
        shape(
            {"x": _SPAN, "y": _SPAN, "density": number(0, 100), "magnetic": FLAG},
            ("x", "y", "density"),
        ),
        50,
    ),
    "degaussed": ship_ids(),
    "length_ft": by_ship(number(1, 1500)),
    "turrets": by_ship(list_of(text(8, required=True), 10, 1)),
    "hangars": ship_ids(),
}
SHIP_WIDTH: Final = 2.0  # cm: a ship "directly between" lies this close to the line of fire
CLEAR_DISTANCE: Final = 10.0  # "unless you are larger than it and are at least 10 cm. away"

RULE_NOTES: Final[tuple[str, ...]] = (
    "Dice: percentile dice are one 100-sided roll (faces 1-100). The weather table ('0 - 5' "
    "… '96 - 100'), Table 4 ('1-5' … '96-100') and the '% chance' figures of Tables 2 and 11 "
    "and the mines read the face as it is (a hit on a roll at or under the chance); Tables 3, "
    "8 and 10, printed from 0 to 99 ('0-35', '36-99'), read 100 as 00. 'Dice with a single % "
    "dice. Ships lose 1-10 knots speed' is a d10; every 1-6 die is a d6.",
    "Range model: the table top is a plane in the seed's centimetres ('1 Nautical mile = "
    "15cms'); side a starts in line ahead on y = 0 and side b on y = start_range (conditions, "
    "150 cm, or the visibility if that is less: the lines meet where they sight each other), "
    "both heading east, ships 'spacing' (5 cm) apart; the range is measured 'from bow "
    "to bow' between the two points. Each move a ship steams speed / 2 cm ('1/2 cm per knot "
    "of vessel per move') on a course set by its side's orders: 'hold' runs at right angles "
    "to the line of bearing of the nearest enemy, 'close' and 'open' turn 45 degrees "
    "(course_angle) towards or away from it. A set-up may give a ship a fixed course in "
    "degrees towards the enemy line (conditions 'courses').",
    "Orders: each side's orders come from conditions 'orders' (default 'close'); a closing "
    "ship holds its course once within 20 cm of an enemy (close_to); a side that has lost half "
    "its points value (break_off) turns away and opens the range, its destroyers and escorts "
    "laying smoke.",
    "'Increases in speed are restricted to 5 knots (2 1/2 cm.) per move': a ship whose "
    "speed is restored (boiler rooms raising steam) regains at most 5 knots a move; losses of "
    "speed from damage take effect at once.",
    "'If you turn your ship through more than 60° your main armament may not fire that "
    "move': a ship whose course changes by more than 60 degrees in a move (from closing to "
    "opening is 90) fires only its secondary guns.",
    "'You cannot fire through your own superstructure or turrets': with the target within 30 "
    "degrees of the bow only the forward main turrets (A, B, C) bear, within 30 degrees of the "
    "stern only the after ones (X, Y); all bear otherwise. Guns of a smaller calibre than the "
    "main armament are secondaries, mounted half on each beam ('P/S 2nd.Tur'): only the half "
    "on the engaged beam fire.",
    "Main turrets: a set-up may list a ship's turrets (conditions 'turrets'); otherwise 9, 12 "
    "or 15 main guns are in triple turrets, others in twins (a single gun in one mount), "
    "named A, B, Y (three), A, B, X, Y (four), A, B, C, X, Y (five); A and Y for two, A for "
    "one. A Table 4 hit on a turret the ship does not have is a dud ('the hit is regarded as a "
    "dud shell and no damage occurs').",
    "Salvos: 'A ship with 6 guns firing fires 2 x 3 gun salvos' ... 'A ship with 12 guns "
    "firing fires 3 x 4 gun salvos' as printed; up to 5 guns fire one salvo, and other "
    "numbers are split into ceil(n / 5) salvos as evenly as possible, the smaller first (11: "
    "3 + 4 + 4). 'Guns of 8 in calibre and under fire twice per move'. A one-gun salvo "
    "reads the '1 or 2' row of Table 3 and the 2 row of Table 2.",
    "Table 1: a calibre is read from the first number of a Ship.guns key ('15in', '5.9in'); "
    "a calibre the nation's rows do not list uses its nearest listed calibre (ties: the "
    "smaller); guns under 3 in are AA only. U.S. 16in guns are '16\" new' on ships completed "
    "in 1940 or later, '16\" old' before. Nations outside the table (the Netherlands, the "
    "U.S.S.R.) use the British rows. Beyond a gun's long range maximum it does not fire; a "
    "range above the medium & short limit is long range.",
    "Tables 2 and 3: 'If this is over 180cm. consult Table 2; if under 180 cm use Table 3'; a "
    "band covers ranges above the previous band's upper figure up to its own (15-37 then "
    "38-59: 37.5 cm is in 38-59); 180 cm exactly is in Table 3. No gun fires beyond 300 cm "
    "(Table 2 ends at '285-300' and the best visibility is '300cm').",
    "'for every complete 50 ft. under 600 ft. add 5% to the % dice rolls': ship lengths are "
    "not in the Ship record, so conditions 'length_ft' gives them, else a length by type "
    "(battleship 750 ft, destroyer 360 ft …). A Table 3 roll raised past 99 misses.",
    "'Director out of action. 15% of chance of hits with gunnery' is read as 15 added to the "
    "ship's gunnery % rolls from then on, the way a small target's penalty is added.",
    "'Any ship directly between you and your target impedes your fire unless you are larger "
    "than it and are at least 10 cm. away from it': a ship within 2 cm of the line of fire "
    "between firer and target is directly between; larger is greater standard tonnage. An "
    "impeded ship picks another target; 'If you change target you must stop firing for a "
    "complete move' holds for every change, including after a target sinks.",
    "Targets: a ship fires all its guns at one target, the nearest enemy it can see (within "
    "the visibility, not behind smoke, not impeded) within range of any of its guns, and "
    "keeps it while it stays so. Both sides fire together: the guns and directors that fire "
    "are those at the start of the gunfire, and a ship sunk in it still fires.",
    "Table 4: the extracted table has four columns headed Aircraft Carrier, "
    "Battleship/Cruiser, Cruisers, Destroyers over Long Range, Short Range, Long Range, Short "
    "Range. They are read as the carrier column (long range: deck and lifts; used at "
    "every range), the battleship and cruiser short range column (belts, hangar sides), the "
    "battleship and cruiser long range column (end and mid decks: 'This tended to produce deck "
    "and superstructure hits') and the destroyer column (every range). The worked example agrees: "
    "Scharnhorst at long range, roll 17, is the '16-20' cell 'Bridge' of the long range column "
    "— 'he has hit the upper bridge' (special effect 3: 'upper bridge (BB,BC) and bridge "
    "hits'). Submarines and transports use the battleship and cruiser columns. The lower "
    "bridge ('Lwr.Bridge', battleship and battlecruiser column) is no bridge hit: the "
    "special effect names the 'upper bridge (BB,BC)'; it takes the shell's points only.",
    "Table 4 cells: 'X/Y' cells ('1st TT/Deck', 'Hanger/Dk.') hit X where the ship has one, "
    "else Y; the last row's 'Y Turret' and 'Y Mount' with 'Stern' printed under them hit the "
    "stern of a ship without a Y turret; 'S/L Platf. S/L Platf' and 'AA. Platf. AA. Platf' are "
    "one cell each. 'Hull' is the end belt ('End belt 1/2 Mid. Belt thickness'), 'Belt' the mid "
    "belt, 'Deck' and 'Mid.Deck' the deck, 'End Deck' half of it ('End deck is always 1/2 Mid. "
    "Deck thickness'); 'Funnels/Deck \"A\"' and 'Mid.Deck/ Cranes \"A\"' are deck hits at "
    '"A". Bridges, AA, secondary turrets, hangar sides, tubes, funnels, superstructure, '
    "catapults, searchlights, round-down and stern are unarmoured.",
    "Damage: 'A shell which hits an unarmoured place will destroy it and cause the damage "
    "points for a non penetrating hit'; one that fails to penetrate armour causes the "
    "non-penetrating points too; only a shell that penetrates armour causes the penetrating "
    "points ('as a vital penetrating hit') — the worked example's 1,090 and 4,375.",
    "Table 5: armour is penetrated when the range is at or under the figure for its thickness; "
    "a thickness between whole inches needs the next whole inch; a blank cell never "
    "penetrates and 'ANY' always does; a calibre not in Table 5 reads its nearest row (ties: "
    "the smaller). Plunging fire: 'At a gun's long range ... guns of 11\" and over will "
    "penetrate 1/2 as much armour again' — the inches penetrated are multiplied by 1.5 ('260 cm. "
    'vertical pen. 3" but = long range 4 1/2 " pen.\'). Table 5 is used for belt, deck and '
    "turret armour alike (it is the only penetration table).",
    'Hit markers: \'Penetration at "A" (see table) means boiler rooms affected\' and \'at "B" '
    '... engine room affected\' apply to every cell marked "A" or "B" (belt, deck, hull, '
    "funnel); on a part with no armour the shell reaches the room without penetrating armour "
    "(non-penetrating points, the room's effect all the same). Boiler rooms: d10 knots lost, "
    "and at the end of each move after the hit ('Dice each subsequent move') a d6 of 4-6 "
    "regains 2 of them; engine room: 'Ship loses "
    "1-6 dice x 2 knots' for good.",
    "Special effects: 'Bows - reduce speed by 3 knots if shell 8\" or more' applies to a hit "
    "in the 1-5 band, the foremost place in the diagram whose top is labelled 'Bows'. "
    "'Turret - penetration destroys all guns within'; a secondary turret is unarmoured and a "
    "hit destroys two guns of the largest secondary calibre on the engaged beam. 'A.A. - dice "
    "Ship loses 1 - 6 AA points.' Torpedo tubes: '1 1/2 times damage points. except Japanese "
    "2 x', and the set of tubes hit is lost: tubes come in sets of four (the mounts of the "
    "day; 10 tubes are 4, 3 and 3), the '1st TT' cell the first set, '2nd TT' the second "
    "(where a ship has fewer sets the cell's other part is hit, else nothing).",
    "Bridge: 1 Wheelhouse — the course is held for 3 moves; a second wheelhouse hit finds "
    "the aft steering position destroyed: 'beyond control. Must stop' (speed 0 for good). 2 "
    "Conning tower — course held for the next move. 3 Director. 4-6 are noted only (radar has "
    "no other rule).",
    "Hangars: 'Hangers - 50/50 chance of AV. gas FIRE. 1-6 dice. 1-3 no: 4-6 yes': a burning "
    "hangar does 100 points at the end of the move it was hit, 200 the next, 400, 800 …; "
    "after each burning a d6 of 5 or 6 puts it out. A ship has a hangar if it is a carrier, "
    "has air groups or is listed in conditions 'hangars'; a 'Hanger Side' hit on a ship "
    "without one is a dud.",
    "Points value: 'Std. Tonnage + 10% if hull completed in 1920's', '20% if hull completed "
    "in 1930's', '30% if hull completed in 1940's'; a hull completed before 1920 adds nothing "
    "(Renown, 1916); with no tonnage, Ship.damage_capacity is the points value. 'When this "
    "reaches 0 it will sink.' A ship is crippled when it has lost half its points, all its "
    "main guns, or all its speed.",
    "Torpedoes: a ship fires the tubes bearing (all on a destroyer or escort, half rounded up "
    "on other ships) at the nearest enemy it can see within the nation's Short Run (65 cm; "
    "Japanese 180 cm; conditions 'torpedo_range'), each tube once, in salvos of at most 6 "
    "(Table 8 stops at 6), setting the shortest run of Table 6 that reaches the target and the "
    "depth of Table 7 with the best result for the target (a tie: the shallower). They arrive "
    "at the end of the next move: the range is 'measured from the firing marker to the bow of "
    "the target vessel'; a target beyond the run's range is missed. Under 15 cm uses the "
    "'15-30' column.",
    "Table 8 modifiers change the chance: the roll has the net additions subtracted (or the "
    "subtractions added) and is read against the printed A and B cells: 'B' two hits, 'A' one. "
    "'5 for each complete 150 ft. ... over 300 ft. providing the range is under 90 cms', '5 "
    "for each 2 knots of target speed under 15 knots' (complete 2 knots), '1 for every knot of "
    "speed of torpedo over 30 knots', '10 for each additional complete 5 knots of target "
    "speed over 15 knots', '5 for each complete 50 ft. under 300 ft.'; broadside: the angle "
    "between the target's fore-and-aft line and the line to the marker (0-90) over 30 adds 5, "
    "under 30 subtracts 15.",
    "Torpedo damage: each hit throws a d6 for position and a d6 for the score (500 / 700 / "
    "600 x score); a critical hit adds 50% of that; '500 pts. if target moving at 30 knots+' "
    "and '250 pts. if ... 20 knots+' are one or the other; a bow hit then throws a d6 for "
    "knots lost, an aft hit a d6 (6: propellers and rudders, immobilized). 'Runs under' does "
    "nothing; against a submarine 'Sunk' sinks it. Flooding: each torpedo hit floods; at "
    "the end of each move after it ('250 pts. each subsequent turn if the flooding is not "
    "controlled') one d6 is thrown for all the ship's older floods: a 6 controls them all, "
    "else 250 points for each.",
    "Aircraft: dive_bomber groups are dive bombers (one 1,000 lb bomb), level_bomber groups "
    "skip bombers (four 500 lb), torpedo_bomber groups drop one torpedo each; fighters and "
    "patrol groups take no part (the seed has no rules for them). Each bomber group, from its "
    "ships or the side's land-based air, attacks once, at the start of move 'air_strike_turn' "
    "(1), in waves of 5 against the enemy ship with the most points value left.",
    "AA: 'A.A. POINTS VALUE' is Ship.aa (guns 3-6in x 3, 30-40mm x 2, 20-29mm x 1), less hits. "
    "The attacker comes in on the 'least resistance': every wave attacks in the target's B "
    "arc, which fires 1/4 of its AA points; every other ship of its side within 80 cm of the "
    "target (Table 9's long AA range) fires 1/4 too. Each firing ship throws once on Table 10 "
    "('Each ship takes casualties separately') with the column of its points (the printed "
    "headings skip '181 to 190': those points use '171 to 180'; over 240, the last column). A "
    "'damaged' aircraft turns back without attacking; one 'shot down' is lost.",
    "Table 10: row A is printed '0-' in every column and read as 0 up to one below row B; the "
    "rows' figures move down 10 for dive bombers and up 5 for torpedo bombers (A keeps its 0); "
    "a roll above the last figure of the column does nothing. The third column's B cell is "
    "printed '17-22' and kept so.",
    "Bombs: the prose ('Dive bombers ... hit horizontal surfaces and will penetrate 6 inches', "
    "'Skip bombers ... hit vertical surfaces (i.e. belt) and penetrate 3 inches', 'long range "
    "columns for dive bombing and the medium-short range columns for skip bombing') is "
    "followed where the summary table swaps 'Vertical' and 'Horizontal'. A bomb on an "
    "unarmoured part, or on armour it cannot penetrate, does its poundage; a penetrating bomb "
    "poundage x 1-6 die. Table 11 rows: carriers and capital ships; cruisers and transports "
    "(a big hull, as the cruiser row's 15-20%); destroyers, escorts and the rest.",
    "Aerial torpedoes: the marker is placed 25 cm from the target, 45 degrees off its bow on "
    "the side facing the attacker's ships; they run at 40 knots, with a run of 115 cm (the "
    "seed gives no aerial run), and arrive at the end of the next move ('After two moves have "
    "elapsed', counting the move of the drop) with the depth best for the target.",
    "Mines: conditions 'minefields' (rectangles in cm, density per square mile, magnetic or "
    "not); 'Throw a pair of % dice for each vessel entering the minefield for each move or "
    "part of a move that it is within the minefield boundaries' — once a move for a ship whose "
    "track crosses a field. A density between printed figures uses the figure below it "
    "(under 10: the 10 column); 'double the above figures for magnetic mines unless the "
    "vessel concerned is degaussed' (conditions 'degaussed'). A hit: d6 x 1,500 points and "
    "'an immediate reduction of speed by 1/2'.",
    "Smoke: a section of screen is the track a ship steamed in a move while laying smoke; it "
    "drifts with the wind ('Speed of drift in direction of wind') and blocks fire for the "
    "table's moves ('Length of time each section of smokescreen remains present'), the move "
    "it is laid counting as the first. Wind direction is thrown (d10) when smoke is first "
    "laid unless conditions "
    "give 'wind'; the seed gives no way to find the wind's speed, so conditions 'wind_speed' "
    "(moderate) does; 'Dead Calm' is still air. Gunfire whose line crosses a section is "
    "blocked ('Protect threatened vessels from visually directed gun fire').",
    "The end of the battle is not in the seed: it ends when a side has no ship afloat, when "
    "no enemy has been in sight for 3 moves while a side is opening the range "
    "(contact_lost_moves), or at the turn limit (45 moves). The winner is the side that still "
    "has ships when the other has none; otherwise the side that lost the smaller share of its "
    "points value, if the shares differ by a tenth or more (else no decision).",
)


# ---------------------------------------------------------------------------------------
# Rules usable alone
# ---------------------------------------------------------------------------------------


def pct(face: int) -> int:
    """A 1–100 face read on a table printed from 0 to 99 (100 is 00)."""
    return face % 100


def points_value(tonnage: int, completed: int) -> int:
    """*"Std. Tonnage + 10% if hull completed in 1920's ... 20% ... 1930's ... 30% ...
    1940's"* (*"RODNEY = 34,500t + 10% (completed 1928) ... 37,950 points"*)."""
    decade = (completed // 10) * 10
    bonus = COMPLETION_BONUS.get(min(decade, 1940) if decade >= 1920 else 0, 0)
    return tonnage + tonnage * bonus // 100


def weather(face: int, region: str = "north_atlantic") -> tuple[int, str]:
    """Weather a. VISIBILITY: the % face → (max visibility cm, weather)."""
    for lo, hi, cm, atlantic, other in WEATHER:
        if lo <= face <= hi:
            return cm, atlantic if region == "north_atlantic" else other
    raise ValueError(f"no weather for {face}")


@lru_cache(maxsize=512)
def calibre(key: str) -> float:
    """Inches from a Ship.guns key: '15in', '5.9in', '16in new', '150mm', '20mm'."""
    m = re.match(r"\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|\")?", key)
    if not m:
        raise ValueError(f"not a calibre: {key!r}")
    value = float(m[1])
    unit = m[2] or "in"
    if unit == "mm":
        return value / 25.4
    if unit == "cm":
        return value / 2.54
    return value


def nation_of(nation: str) -> str:
    return NATIONS.get(nation.strip().lower().replace(" ", "_"), "BRITISH")


@dataclass(frozen=True)
class Gun:
    """One Table 1 row."""

    label: str
    calibre: float
    long_max: int
    medium_max: int
    penetrating: int
    non_penetrating: int

    def range_class(self, cm: float) -> str:
        """ "long", "medium" (medium & short) or "" (out of range)."""
        if cm > self.long_max:
            return ""
        return "long" if cm > self.medium_max else "medium"


@lru_cache(maxsize=512)
def gun(nation: str, key: str, completed: int = 0) -> Gun | None:
    """The Table 1 row for a ship's guns (None for AA guns under 3 in)."""
    cal = calibre(key)
    if cal < 3.0:
        return None
    us_16 = "16 new" if completed >= 1940 else "16 old"
    rows = [r for r in TABLE_1[nation_of(nation)] if not r[0].startswith("16 ") or r[0] == us_16]

    def score(row: tuple[str, int, int, int, int]) -> tuple[float, float]:
        row_cal = float(row[0].split()[0])
        return abs(row_cal - cal), row_cal

    label, long_max, medium_max, pen, np_ = min(rows, key=score)
    return Gun(label, cal, long_max, medium_max, pen, np_)


def salvos(guns: int) -> tuple[int, ...]:
    """*"A ship with 6 guns firing fires 2 x 3 gun salvos"* … (see RULE_NOTES)."""
    if guns <= 0:
        return ()
    if guns in SALVOS:
        return SALVOS[guns]
    if guns <= 5:
        return (guns,)
    n = math.ceil(guns / 5)
    base, extra = divmod(guns, n)
    return tuple([base] * (n - extra) + [base + 1] * extra)


def _band(bands: Sequence[float], cm: float) -> int:
    for i, upper in enumerate(bands):
        if cm <= upper:
            return i
    return -1


def table_2_chance(guns: int, cm: float) -> int:
    """Table 2: % chance of one hit for a salvo at over 180 cm (0 beyond 300)."""
    if cm <= 180:
        raise ValueError("Table 2 is for ranges over 180 cm")
    i = _band(TABLE_2_BANDS, cm)
    return TABLE_2[min(max(guns, 2), 5)][i] if i >= 0 else 0


def table_3_hits(guns: int, cm: float, roll: int) -> int:
    """Table 3: hits from a salvo at 180 cm or less for a (modified) 0-99 roll."""
    i = _band(TABLE_3_BANDS, cm)
    for hits, cells in TABLE_3[min(max(guns, 2), 5)].items():
        cell = cells[i]
        if cell is not None and cell[0] <= roll <= cell[1]:
            return hits
    return 0


def small_target_penalty(length_ft: float) -> int:
    """*"for every complete 50 ft. under 600 ft. add 5% to the % dice rolls"*."""
    return 5 * int(max(0.0, SMALL_TARGET_FT - length_ft) // 50)


def location(face: int, column: int) -> str:
    """Table 4: the printed cell for a 1-100 face in a column (1-4)."""
    for upper, *cells in TABLE_4:
        if face <= upper:
            return cells[column - 1]
    raise ValueError(f"no Table 4 row for {face}")


@lru_cache(maxsize=512)
def table_5_row(cal: float) -> tuple[int | None, ...]:
    best = min(TABLE_5, key=lambda c: (abs(c - cal), c))
    return TABLE_5[best]


@lru_cache(maxsize=64)
def _negated_cells(cal: float) -> tuple[int, ...]:
    """A Table 5 row's printed ranges, negated (ascending: the cells fall with thickness)."""
    return tuple(-c for c in table_5_row(cal) if c is not None)


def penetration(cal: float, cm: float, plunging: bool = False) -> float:
    """Inches of armour a gun penetrates at a range (Table 5, plunging fire x 1.5): the
    thickest column whose range is at or over ``cm``."""
    inches = bisect_right(_negated_cells(cal), -cm)
    return inches * (PLUNGING_FACTOR if plunging else 1.0)


def penetrates(armour: float, cal: float, cm: float, plunging: bool = False) -> bool:
    return armour <= 0 or armour <= penetration(cal, cm, plunging) + 1e-9


def torpedo_runs(nation: str) -> tuple[tuple[str, int, int], ...]:
    key = "Japanese" if nation_of(nation) == "JAPAN" else next(iter(TABLE_6))
    return TABLE_6[key]


def target_class(ship_type: str) -> str:
    """Table 7's row for a Ship.type."""
    if ship_type in CAPITAL or ship_type in ("carrier", "light_carrier"):
        return "BB, CV"
    if ship_type in CRUISERS or ship_type == "escort_carrier":
        return "CA, CL, CVE"
    if ship_type in DESTROYERS:
        return "DD, DE"
    if ship_type == "submarine":
        return "SS"
    return "Merchants/ Tankers"


_DEPTH_VALUE = {"Runs under": 0, "Hit": 1, "Crit.Hit": 2, "Crit. Hit": 2, "Sunk": 3}


def best_depth(ship_type: str) -> str:
    """The depth setting with the best Table 7 result (the shallower on a tie)."""
    row = TABLE_7[target_class(ship_type)]
    return max(DEPTHS, key=lambda d: (_DEPTH_VALUE[row[DEPTHS.index(d)]], -DEPTHS.index(d)))


def depth_result(ship_type: str, depth: str) -> str:
    return TABLE_7[target_class(ship_type)][DEPTHS.index(depth)]


def torpedo_modifier(
    length_ft: float,
    target_knots: float,
    torpedo_knots: float,
    broadside: float,
    cm: float,
) -> int:
    """The net addition to Table 8's basic chance (ADD (1)-(4), SUBTRACT (1)-(3))."""
    m = 0
    if length_ft > 300 and cm < 90:
        m += 5 * int((length_ft - 300) // 150)
    if broadside > 30:
        m += 5
    if target_knots < 15:
        m += 5 * int((15 - target_knots) // 2)
    if torpedo_knots > 30:
        m += int(torpedo_knots - 30)
    if target_knots > 15:
        m -= 10 * int((target_knots - 15) // 5)
    if length_ft < 300:
        m -= 5 * int((300 - length_ft) // 50)
    if broadside < 30:
        m -= 15
    return m


def table_8_hits(torpedoes: int, cm: float, roll: int) -> int:
    """Table 8: hits for a (modified) 0-99 roll; the roll has the modifier subtracted."""
    i = _band(TABLE_8_BANDS, max(cm, 15.0))
    one, two = TABLE_8[min(max(torpedoes, 1), MAX_TORPEDO_SALVO)]
    for hits, cell in ((2, two[i]), (1, one[i])):
        if cell is not None and roll <= cell[1]:
            return hits
    return 0


def table_10_column(points: int) -> int:
    """The Table 10 column for AA points firing (see RULE_NOTES for the missing heading)."""
    column = 0
    for i, (lo, _hi) in enumerate(TABLE_10_COLUMNS):
        if points >= lo:
            column = i
    return column


def aa_casualties(points: int, roll: int, bomber: str) -> tuple[int, int, str]:
    """Table 10: (shot down, damaged, row) for AA points firing and a 0-99 roll."""
    col = table_10_column(points)
    shift = TABLE_10_SHIFT[bomber]
    b = TABLE_10["B"][col]
    assert b is not None
    if roll < b[0] + shift:
        row = "A"
    else:
        row = ""
        for name in ("B", "C", "D", "E"):
            cell = TABLE_10[name][col]
            if cell is not None and cell[0] + shift <= roll <= cell[1] + shift:
                row = name
    if not row:
        return 0, 0, "-"
    down, damaged = TABLE_10_RESULTS[row]
    return down, damaged, row


def bomb_class(ship_type: str) -> str:
    if ship_type in CARRIERS or ship_type in CAPITAL:
        return "Carriers-Battleships"
    if ship_type in CRUISERS or ship_type == "transport":
        return "Cruisers"
    return "Destroyers, Escorts"


def mine_chance(density: float, magnetic: bool = False, degaussed: bool = False) -> int:
    chance = MINES[0][1]
    for d, c in MINES:
        if density >= d:
            chance = c
    return chance * 2 if magnetic and not degaussed else chance


def turret_names(count: int) -> tuple[str, ...]:
    return {
        0: (),
        1: ("A",),
        2: ("A", "Y"),
        3: ("A", "B", "Y"),
        4: ("A", "B", "X", "Y"),
    }.get(count, ("A", "B", "C", "X", "Y"))


def turrets_for(guns: int) -> int:
    if guns <= 0:
        return 0
    if guns % 3 == 0 and guns >= 9:
        return min(5, guns // 3)
    return min(5, math.ceil(guns / 2))


# ---------------------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------------------

Point = tuple[float, float]


def distance(p: Point, q: Point) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


def bearing(p: Point, q: Point) -> float:
    """Direction from p to q, degrees anticlockwise from +x (east)."""
    return math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) % 360.0


def angle_between(a: float, b: float) -> float:
    """Smallest angle between two directions (0-180)."""
    d = abs(a - b) % 360.0
    return 360.0 - d if d > 180.0 else d


def _segment_distance(p: Point, a: Point, b: Point) -> tuple[float, float]:
    """(distance from p to segment ab, position along it 0-1)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return distance(p, a), 0.0
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    t = min(1.0, max(0.0, t))
    return distance(p, (a[0] + t * dx, a[1] + t * dy)), t


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    return (d1 * d2 < 0) and (d3 * d4 < 0)


def crosses_box(p: Point, q: Point, xs: Sequence[float], ys: Sequence[float]) -> bool:
    """Does the track p→q enter the rectangle (Liang–Barsky clipping)?"""
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pk, qk in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if pk == 0:
            if qk < 0:
                return False
            continue
        r = qk / pk
        if pk < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 > t1:
            return False
    return True


# ---------------------------------------------------------------------------------------
# The battle
# ---------------------------------------------------------------------------------------


@dataclass
class Vessel:
    """A ship in the battle: the set-up's Ship and everything the rules track."""

    ship: Ship
    side: int
    points: int
    nation: str
    length_ft: float
    x: float
    y: float
    heading: float
    speed: float
    base_speed: float
    main: str = ""  # the main armament's Ship.guns key
    turrets: dict[str, int] = field(default_factory=dict)  # main turret → guns left
    secondary: dict[str, list[int]] = field(default_factory=dict)  # key → [port, starboard]
    aa: int = 0
    tubes: int = 0  # torpedo tubes left to fire
    tube_sets: list[int] = field(default_factory=list)  # tubes in each set still working
    hangar: bool = False
    damage: int = 0
    sunk: bool = False
    course_lock: int = 0
    wheelhouse_hit: bool = False
    beyond_control: bool = False
    immobilised: bool = False
    director_out: bool = False
    boiler_loss: int = 0
    engine_loss: int = 0
    bow_loss: int = 0
    speed_factor: float = 1.0
    target: str = ""
    had_target: bool = False
    hold_fire: bool = False
    turned: float = 0.0  # degrees turned this move
    fire_moves: int = 0  # hangar fire: moves burning (0 = no fire)
    flooding: int = 0  # uncontrolled floods
    new_floods: int = 0  # of which begun this move (rolled for from the next move)
    boiler_hit_move: int = 0  # the move boiler rooms were last hit (steam from the next)
    history: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.ship.id

    @property
    def name(self) -> str:
        return self.ship.name

    @property
    def pos(self) -> Point:
        return (self.x, self.y)

    @property
    def max_speed(self) -> float:
        if self.immobilised or self.beyond_control:
            return 0.0
        lost = self.boiler_loss + self.engine_loss + self.bow_loss
        return max(0.0, (self.base_speed - lost) * self.speed_factor)

    @property
    def main_guns(self) -> int:
        return sum(self.turrets.values())

    @property
    def state(self) -> str:
        if self.sunk:
            return "sunk"
        if (
            self.damage * 2 >= self.points
            or (self.main and self.main_guns == 0)
            or self.max_speed <= 0
        ):
            return "crippled"
        if self.damage or self.history:
            return "damaged"
        return "undamaged"


@dataclass
class Torpedoes:
    """A firing marker: torpedoes on their way."""

    firer: str
    side: int
    target: str
    marker: Point
    count: int
    run: str
    run_cm: int
    knots: int
    depth: str
    arrives: int  # the move at whose end they arrive


@dataclass
class Smoke:
    a: Point
    b: Point
    moves_left: int


class SurfaceBattle(TurnBattle):
    """A surface action by Ellard & Hammond (see the module docstring and RULE_NOTES)."""

    rule_set = RULE_SET
    #: one move (the module docstring)
    phases: tuple[str, ...] = (
        "1 Torpedoes fired, air strikes",
        "2 Movement, mines, smoke",
        "3 Gunfire",
        "4 End of move: torpedoes arrive, fires, flooding",
    )

    def __init__(self, setup: BattleSetup, dice: Dice) -> None:
        super().__init__(dice)
        self.setup = setup
        cond: dict[str, Any] = {**DEFAULTS, **setup.conditions}
        self.conditions = cond
        self.side_names = (setup.a.name, setup.b.name)
        self.winner = ""
        self.end_reason = ""
        self.turn_limit = int(cond["turn_limit"])
        self.region = str(cond["weather"] or "north_atlantic")
        orders: Mapping[str, Any] = cond.get("orders") or {}
        self.orders = [str(orders.get("a", "close")), str(orders.get("b", "close"))]
        for o in self.orders:
            if o not in ORDERS:
                raise ValueError(f"orders must be one of {ORDERS}, not {o!r}")
        self.courses: Mapping[str, float] = cond.get("courses") or {}
        self.torpedoes: list[Torpedoes] = []
        self.smoke: list[Smoke] = []
        self.wind: str | None = cond.get("wind")
        if self.wind is not None and self.wind not in WIND.values():
            raise ValueError(f"wind must be one of {sorted(set(WIND.values()))}, not {self.wind!r}")
        if str(cond["wind_speed"]) not in SMOKE:
            raise ValueError(f"wind_speed must be one of {list(SMOKE)}, not {cond['wind_speed']!r}")
        self.out_of_sight = 0
        self.air_done = False
        self.air_losses: dict[str, int] = {}

        # "Weather ... This is determined for the ensuing battle. ... Throw a % dice."
        if cond.get("visibility") is not None:
            self.visibility = float(cond["visibility"])
            self.weather = "as set"
            self.log.append(f"Visibility {self.visibility:g} cm (set).")
        else:
            face = dice.roll("visibility (% dice)", sides=100)
            cm, self.weather = weather(face, self.region)
            self.visibility = float(cm)
            self.log.append(f"Visibility: % dice {face}: {self.weather}, {cm} cm.")

        self.vessels: dict[str, Vessel] = {}
        self.sides: tuple[list[Vessel], list[Vessel]] = ([], [])
        # the lines sight each other at the visibility at the furthest
        start = min(float(cond["start_range"]), self.visibility)
        spacing = float(cond["spacing"])
        lengths: Mapping[str, Any] = cond.get("length_ft") or {}
        turrets: Mapping[str, Any] = cond.get("turrets") or {}
        hangars = set(cond.get("hangars") or [])
        for index, side in enumerate((setup.a, setup.b)):
            for n, ship in enumerate(side.ships):
                v = self._vessel(ship, index, n, start, spacing, lengths, turrets, hangars)
                self.vessels[ship.id] = v
                self.sides[index].append(v)
        self.start_points = [sum(v.points for v in s) for s in self.sides]

    def _vessel(
        self,
        ship: Ship,
        side: int,
        n: int,
        start: float,
        spacing: float,
        lengths: Mapping[str, Any],
        turrets: Mapping[str, Any],
        hangars: set[str],
    ) -> Vessel:
        points = points_value(ship.tonnage, ship.completed) if ship.tonnage else 0
        points = points or ship.damage_capacity or 1
        length = float(lengths.get(ship.id) or LENGTH_FT.get(ship.type, 450))
        y = 0.0 if side == 0 else start
        v = Vessel(
            ship,
            side,
            points,
            ship.nation,
            length,
            -spacing * n,
            y,
            0.0,
            ship.speed,
            ship.speed,
        )
        shooting = [k for k, count in ship.guns.items() if count > 0 and calibre(k) >= 3.0]
        if shooting:
            v.main = max(shooting, key=calibre)
            count = ship.guns[v.main]
            names = [str(t) for t in turrets.get(ship.id, ())] or list(
                turret_names(turrets_for(count))
            )
            base, extra = divmod(count, len(names))
            v.turrets = {t: base + (1 if i < extra else 0) for i, t in enumerate(names)}
            for k in shooting:
                if k != v.main:
                    half = ship.guns[k] // 2
                    v.secondary[k] = [ship.guns[k] - half, half]
        v.aa = ship.aa
        v.tubes = ship.torpedo_tubes
        sets = math.ceil(ship.torpedo_tubes / 4) if ship.torpedo_tubes else 0
        v.tube_sets = [
            ship.torpedo_tubes // sets + (1 if i < ship.torpedo_tubes % sets else 0)
            for i in range(sets)
        ]
        v.hangar = ship.type in CARRIERS or bool(ship.air_groups) or ship.id in hangars
        v.damage = min(ship.damage, points)
        if ship.state == "sunk" or v.damage >= points:
            v.sunk = True
        return v

    # -- the protocol -------------------------------------------------------------------

    def play_turn(self) -> list[str]:
        """One move (see the module docstring for its order)."""
        events: list[str] = []
        self.dice.step = 1
        events += self.fire_torpedoes()
        if not self.air_done and self.turn >= int(self.conditions["air_strike_turn"]):
            self.air_done = True
            events += self.air_strikes()
        self.dice.step = 2
        events += self.move()
        self.dice.step = 3
        events += self.gunfire()
        self.dice.step = 4
        events += self.end_of_move()
        events += self._check_end()
        return [f"Move {self.turn}: {e}" for e in events] if self.narrate else []

    def result(self) -> BattleResult:
        ships: dict[str, Ship] = {}
        groups: dict[str, AirGroup] = {}
        for v in self.vessels.values():
            out = v.ship.copy()
            out.damage = v.damage
            out.state = v.state
            out.damage_capacity = v.points
            out.aa = v.aa
            out.notes = [*out.notes, *v.history]
            ships[out.id] = out
            for g in out.air_groups:
                groups[g.id] = g
        for side in (self.setup.a, self.setup.b):
            for g in side.air_groups:
                groups[g.id] = g.copy()
        for gid, lost in self.air_losses.items():
            if gid in groups:
                groups[gid].lost += lost
        return BattleResult(
            self.rule_set,
            self.turn,
            self.winner,
            ships,
            groups,
            list(self.log) if self.narrate else [],
        )

    def outcome(self) -> tuple[str, dict[str, str]]:
        return self.winner, {v.ship.id: v.state for v in self.vessels.values()}

    # -- queries ------------------------------------------------------------------------

    def afloat(self, side: int) -> list[Vessel]:
        return [v for v in self.sides[side] if not v.sunk]

    def nearest_enemy(self, v: Vessel) -> Vessel | None:
        enemies = self.afloat(1 - v.side)
        return min(enemies, key=lambda e: distance(v.pos, e.pos)) if enemies else None

    def smoke_between(self, p: Point, q: Point) -> bool:
        return any(segments_cross(p, q, s.a, s.b) for s in self.smoke)

    def impeded(self, v: Vessel, target: Vessel) -> bool:
        """*"Any ship directly between you and your target impedes your fire unless you are
        larger than it and are at least 10 cm. away from it"*."""
        for other in self.vessels.values():
            if other is v or other is target or other.sunk:
                continue
            d, t = _segment_distance(other.pos, v.pos, target.pos)
            if 0.0 < t < 1.0 and d < SHIP_WIDTH:
                larger = v.ship.tonnage > other.ship.tonnage
                if not (larger and distance(v.pos, other.pos) >= CLEAR_DISTANCE):
                    return True
        return False

    def can_see(self, v: Vessel, e: Vessel) -> bool:
        return distance(v.pos, e.pos) <= self.visibility and not self.smoke_between(v.pos, e.pos)

    def max_gun_range(self, v: Vessel) -> float:
        best = 0.0
        for key in self._working_guns(v):
            g = gun(v.nation, key, v.ship.completed)
            if g is not None:
                best = max(best, float(g.long_max))
        return best

    def _working_guns(self, v: Vessel) -> list[str]:
        keys = [v.main] if v.main and v.main_guns else []
        return keys + [k for k, beams in v.secondary.items() if sum(beams) > 0]

    def valid_target(self, v: Vessel, e: Vessel) -> bool:
        cm = distance(v.pos, e.pos)
        return (
            not e.sunk
            and self.can_see(v, e)
            and cm <= min(self.max_gun_range(v), 300.0)
            and not self.impeded(v, e)
        )

    def engaged_beam(self, v: Vessel, target: Point) -> int:
        """0 port, 1 starboard: the side of the ship facing the target."""
        rel = (bearing(v.pos, target) - v.heading) % 360.0
        return 0 if 0.0 < rel < 180.0 else 1

    # -- 1. torpedoes and aircraft ------------------------------------------------------

    def fire_torpedoes(self) -> list[str]:
        """*"Torpedoes are fired at the beginning of the move, before ship movement."*"""
        events: list[str] = []
        for side in (0, 1):
            for v in self.afloat(side):
                if v.tubes <= 0:
                    continue
                e = self.nearest_enemy(v)
                if e is None or not self.can_see(v, e):
                    continue
                cm = distance(v.pos, e.pos)
                runs = torpedo_runs(v.nation)
                limit = self.conditions.get("torpedo_range") or runs[0][1]
                if cm > float(limit):
                    continue
                reach = [r for r in runs if r[1] >= cm]
                if not reach:
                    continue
                run, run_cm, knots = reach[0]
                working = sum(v.tube_sets)
                total = v.ship.torpedo_tubes
                bearing_tubes = total if v.ship.type in DESTROYERS else math.ceil(total / 2)
                count = min(bearing_tubes, working, v.tubes)
                if count <= 0:
                    continue
                v.tubes -= count
                depth = best_depth(e.ship.type)
                for n in salvos_of_torpedoes(count):
                    self.torpedoes.append(
                        Torpedoes(
                            v.id, side, e.id, v.pos, n, run, run_cm, knots, depth, self.turn + 1
                        )
                    )
                events.append(
                    f"{v.name} fires {count} torpedoes at {e.name} ({cm:.0f} cm; {run} "
                    f"{run_cm} cm at {knots} kts, {depth} setting)."
                )
        return events

    def air_strikes(self) -> list[str]:
        events: list[str] = []
        for side, force in enumerate((self.setup.a, self.setup.b)):
            groups = [g for v in self.sides[side] if not v.sunk for g in v.ship.air_groups]
            groups += force.air_groups
            for g in groups:
                bomber = BOMBER_KINDS.get(g.kind)
                available = g.aircraft - g.lost
                if bomber is None or available <= 0:
                    continue
                targets = self.afloat(1 - side)
                if not targets:
                    break
                target = max(targets, key=lambda t: (t.points - t.damage, -t.side))
                left = available
                wave = 0
                while left > 0 and not target.sunk:
                    size = min(WAVE, left)
                    left -= size
                    wave += 1
                    label = f"{g.name or g.id} wave {wave}"
                    events += self.air_attack(label, g.id, bomber, size, target)
        return events

    def air_attack(
        self, label: str, group: str, bomber: str, aircraft: int, target: Vessel
    ) -> list[str]:
        """One wave: AA fire (Table 10), then the survivors' bombs (Table 11) or
        torpedoes."""
        events: list[str] = []
        down = damaged = 0
        shooters = [target] + [
            o
            for o in self.afloat(target.side)
            if o is not target and distance(o.pos, target.pos) <= TABLE_9[0][2]
        ]
        for ship in shooters:
            points = int(ship.aa * AA_B_ARC)
            if points <= 0:
                continue
            face = self.dice.roll(f"{ship.name} AA at {label} (% dice)", sides=100)
            d, dm, row = aa_casualties(points, pct(face), bomber)
            down += d
            damaged += dm
            events.append(
                f"{ship.name} fires {points} AA points at {label}: % dice {pct(face):02d}, "
                f"row {row}: {d} shot down, {dm} damaged."
            )
        down = min(down, aircraft)
        damaged = min(damaged, aircraft - down)
        self.air_losses[group] = self.air_losses.get(group, 0) + down
        attackers = aircraft - down - damaged
        if attackers <= 0:
            events.append(f"{label}: no aircraft get through.")
            return events
        if bomber == "torpedo":
            # 45 degrees off the bow, on the side facing the enemy
            enemies = self.afloat(1 - target.side)
            if enemies:
                facing = bearing(
                    target.pos, min(enemies, key=lambda e: distance(e.pos, target.pos)).pos
                )
            else:
                facing = 90.0 if target.side == 0 else 270.0
            side_angle = min(
                (target.heading + 45.0, target.heading - 45.0),
                key=lambda h: angle_between(h % 360.0, facing),
            )
            rad = math.radians(side_angle)
            marker = (
                target.x + WAVE_DISTANCE * math.cos(rad),
                target.y + WAVE_DISTANCE * math.sin(rad),
            )
            depth = best_depth(target.ship.type)
            self.torpedoes.append(
                Torpedoes(
                    label,
                    1 - target.side,
                    target.id,
                    marker,
                    attackers,
                    "aerial",
                    AERIAL_TORPEDO_RUN,
                    AERIAL_TORPEDO_KNOTS,
                    depth,
                    self.turn + 1,
                )
            )
            events.append(f"{label}: {attackers} torpedoes dropped at {target.name} ({depth}).")
            return events
        per, pounds, pen_inches = BOMBS[bomber]
        chance = TABLE_11[bomb_class(target.ship.type)][0 if bomber == "skip" else 1]
        bombs = attackers * per
        column = self.column(target, "long" if bomber == "dive" else "medium")
        hits = 0
        hit_lines: list[str] = []
        for n in range(bombs):
            face = self.dice.roll(f"{label} bomb {n + 1} on {target.name} (% dice)", sides=100)
            if face <= chance:
                hits += 1
                hit_lines += self.bomb_hit(target, column, pounds, pen_inches, label)
        events.append(f"{label}: {attackers} aircraft, {bombs} bombs at {chance}%: {hits} hit.")
        return events + hit_lines

    def bomb_hit(
        self, target: Vessel, column: int, pounds: int, pen_inches: float, label: str
    ) -> list[str]:
        face = self.dice.roll(f"{label} bomb hit position on {target.name} (Table 4)", sides=100)
        loc = self.resolve_location(target, location(face, column))
        if loc is None:
            return [f"Bomb hit on {target.name}: Table 4 {face}: a dud (not on this ship)."]
        armour = self.armour(target, loc)
        penetrated = armour > 0 and armour <= pen_inches
        if penetrated:
            score = self.dice.roll(f"bomb damage on {target.name} (1-6 die)")
            points = pounds * score
        else:
            points = pounds
        text = f"Bomb hit on {target.name}: Table 4 {face}: {loc.name}"
        text += f", penetrating: {pounds} x {points // pounds}" if penetrated else ""
        lines = [f"{text}: {points} points."]
        lines += self.effects(target, loc, armour <= 0 or penetrated, 0.0, face, points)
        return lines

    # -- 2. movement --------------------------------------------------------------------

    def side_orders(self, side: int) -> str:
        if self.start_points[side] and (
            sum(v.damage for v in self.sides[side])
            >= float(self.conditions["break_off"]) * self.start_points[side]
        ):
            return "open"
        return self.orders[side]

    def move(self) -> list[str]:
        events: list[str] = []
        angle = float(self.conditions["course_angle"])
        close_to = float(self.conditions["close_to"])
        laying: list[tuple[Vessel, Point]] = []
        for side in (0, 1):
            orders = self.side_orders(side)
            smoke_ids = set(self.conditions.get("smoke") or [])
            for v in self.afloat(side):
                old = v.heading
                e = self.nearest_enemy(v)
                if v.course_lock > 0:
                    v.course_lock -= 1
                elif v.id in self.courses:
                    toward = 1.0 if v.side == 0 else -1.0
                    v.heading = (toward * float(self.courses[v.id])) % 360.0
                elif e is not None:
                    v.heading = self._course(v, e, orders, angle, close_to)
                v.turned = angle_between(old, v.heading)
                # speed: damage takes effect at once; gains at most 5 knots a move
                top = v.max_speed
                v.speed = top if v.speed > top else min(top, v.speed + 5)
                start = v.pos
                step = v.speed / 2.0
                rad = math.radians(v.heading)
                v.x += step * math.cos(rad)
                v.y += step * math.sin(rad)
                if orders == "open" and (v.ship.type in DESTROYERS or v.id in smoke_ids):
                    laying.append((v, start))
                events += self.mines(v, start)
        for s in self.smoke:
            self._drift(s)
        if laying:
            if self.wind is None:
                face = self.dice.roll("wind direction (1-10 die)", sides=10)
                self.wind = WIND[face]
                events.append(f"Wind: 1-10 die {face}: {self.wind}.")
            drift_moves = SMOKE[self._wind_speed()][1]
            for v, start in laying:  # present this move and drift_moves - 1 more
                self.smoke.append(Smoke(start, v.pos, drift_moves - 1))
                events.append(f"{v.name} lays smoke.")
        return events

    def _course(self, v: Vessel, e: Vessel, orders: str, angle: float, close_to: float) -> float:
        line = bearing(v.pos, e.pos)
        perp = min(((line + 90) % 360, (line - 90) % 360), key=lambda h: angle_between(h, 0.0))
        if angle_between(perp, v.heading) > 90:
            perp = (perp + 180) % 360
        turn = math.copysign(1.0, ((line - perp + 540) % 360) - 180)
        if orders == "close" and distance(v.pos, e.pos) > close_to:
            return (perp + turn * angle) % 360
        if orders == "open":
            return (perp - turn * angle) % 360
        return perp

    def _wind_speed(self) -> str:
        if self.wind == "Dead Calm":
            return "still"
        return str(self.conditions["wind_speed"])

    def _drift(self, s: Smoke) -> None:
        s.moves_left -= 1
        if self.wind is None or self.wind == "Dead Calm":
            return
        drift = SMOKE[self._wind_speed()][0]
        # the wind comes from a compass bearing; smoke drifts the other way (+y is north)
        towards = math.radians(90.0 - (WIND_BEARING[self.wind] + 180.0))
        dx, dy = drift * math.cos(towards), drift * math.sin(towards)
        s.a = (s.a[0] + dx, s.a[1] + dy)
        s.b = (s.b[0] + dx, s.b[1] + dy)

    def mines(self, v: Vessel, start: Point) -> list[str]:
        events: list[str] = []
        degaussed = v.id in set(self.conditions.get("degaussed") or [])
        for n, field_ in enumerate(self.conditions.get("minefields") or []):
            if not crosses_box(start, v.pos, field_["x"], field_["y"]):
                continue
            chance = mine_chance(float(field_["density"]), bool(field_.get("magnetic")), degaussed)
            face = self.dice.roll(f"{v.name} in minefield {n + 1} (% dice)", sides=100)
            if face > chance:
                events.append(f"{v.name} crosses minefield {n + 1}: {face} > {chance}%.")
                continue
            score = self.dice.roll(f"{v.name} mine damage (1-6 die)")
            points = score * MINE_DAMAGE
            v.speed_factor /= 2
            v.history.append(f"move {self.turn}: mine, {points} points, speed halved")
            events.append(
                f"{v.name} strikes a mine ({face} <= {chance}%): {score} x {MINE_DAMAGE} = "
                f"{points} points, speed halved."
            )
            events += self.damage(v, points)
        return events

    # -- 3. gunfire ---------------------------------------------------------------------

    def gunfire(self) -> list[str]:
        """Both sides fire; the guns that fire are those at the start of the gunfire."""
        events: list[str] = []
        plans: list[tuple[Vessel, Vessel, list[tuple[str, int]], bool]] = []
        for side in (0, 1):
            for v in self.afloat(side):
                target = self.choose_target(v)
                if target is None:
                    continue
                if v.hold_fire:
                    events.append(f"{v.name} shifts target to {target.name}: no fire this move.")
                    v.hold_fire = False
                    continue
                plans.append((v, target, self.guns_bearing(v, target), v.director_out))
        for v, target, batteries, director_out in plans:
            events += self.fire(v, target, batteries, director_out)
        return events

    def choose_target(self, v: Vessel) -> Vessel | None:
        current = self.vessels.get(v.target)
        if current is not None and self.valid_target(v, current):
            return current
        candidates = sorted(self.afloat(1 - v.side), key=lambda e: distance(v.pos, e.pos))
        for e in candidates:
            if self.valid_target(v, e):
                if v.had_target:
                    v.hold_fire = True  # "If you change target you must stop firing"
                v.target = e.id
                v.had_target = True
                return e
        if v.target:
            v.target = ""
        return None

    def guns_bearing(self, v: Vessel, target: Vessel) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        if v.main and v.turned <= 60.0:
            rel = angle_between(bearing(v.pos, target.pos), v.heading)
            if rel < 30.0:
                turrets = [t for t in v.turrets if t in ("A", "B", "C")]
            elif rel > 150.0:
                turrets = [t for t in v.turrets if t in ("X", "Y")]
            else:
                turrets = list(v.turrets)
            guns = sum(v.turrets[t] for t in turrets)
            if guns:
                out.append((v.main, guns))
        beam = self.engaged_beam(v, target.pos)
        for key in sorted(v.secondary, key=calibre, reverse=True):
            if v.secondary[key][beam]:
                out.append((key, v.secondary[key][beam]))
        return out

    def fire(
        self,
        v: Vessel,
        target: Vessel,
        batteries: Sequence[tuple[str, int]],
        director_out: bool = False,
    ) -> list[str]:
        """Fire every battery bearing: Tables 1, 2 and 3, then each hit (Tables 4 and 5)."""
        events: list[str] = []
        cm = distance(v.pos, target.pos)
        penalty = small_target_penalty(target.length_ft) + (DIRECTOR_PENALTY if director_out else 0)
        for key, guns in batteries:
            g = gun(v.nation, key, v.ship.completed)
            if g is None:
                continue
            rc = g.range_class(cm)
            if not rc or cm > 300.0:
                continue
            times = 2 if g.calibre <= 8.0 else 1
            for volley in range(times):
                for n, size in enumerate(salvos(guns)):
                    purpose = f"{v.name} {key} salvo {n + 1}"
                    purpose += f" (fire {volley + 1})" if times > 1 else ""
                    purpose += f" at {target.name} (% dice)"
                    face = self.dice.roll(purpose, sides=100)
                    if cm > 180.0:
                        chance = table_2_chance(size, cm)
                        roll = face + penalty
                        hits = 1 if roll <= chance else 0
                    else:
                        roll = pct(face) + penalty
                        hits = table_3_hits(size, cm, roll) if roll <= 99 else 0
                    if self.narrate:  # an odds preview builds no words
                        how = (
                            f"Table 2 {table_2_chance(size, cm)}%, % dice {face}"
                            if cm > 180.0
                            else f"Table 3, % dice {pct(face):02d}"
                        )
                        if penalty:
                            how += f" + {penalty}"
                        events.append(
                            f"{v.name} fires {size} x {key} ({rc} range, {cm:.0f} cm) at "
                            f"{target.name}: {how}: {hits} hit{'s' if hits != 1 else ''}."
                        )
                    for _ in range(hits):
                        events += self.shell_hit(target, g, cm, rc, v)
        return events

    def column(self, target: Vessel, range_class: str) -> int:
        t = target.ship.type
        if t in CARRIERS:
            return COLUMN_CARRIER
        if t in DESTROYERS:
            return COLUMN_DESTROYER
        return COLUMN_LONG if range_class == "long" else COLUMN_SHORT

    def resolve_location(self, target: Vessel, cell: str) -> Location | None:
        loc: Location | None = LOCATIONS[cell]
        while loc is not None and loc.needs and not self.has(target, loc.needs):
            loc = loc.fallback
        return loc

    def has(self, v: Vessel, item: str) -> bool:
        if item == "hangar":
            return v.hangar
        if item == "secondary":
            return bool(v.secondary)
        if item.startswith("TT"):
            return int(item[2:]) <= len(v.tube_sets)
        return item in v.turrets

    def armour(self, v: Vessel, loc: Location) -> float:
        s = v.ship
        return {
            "": 0.0,
            "belt": s.belt,
            "end_belt": s.belt / 2,
            "deck": s.deck,
            "end_deck": s.deck / 2,
            "turret": s.turret,
        }[loc.armour]

    def shell_hit(
        self, target: Vessel, g: Gun, cm: float, range_class: str, firer: Vessel | None = None
    ) -> list[str]:
        face = self.dice.roll(f"hit position on {target.name} (Table 4)", sides=100)
        column = self.column(target, range_class)
        cell = location(face, column)
        loc = self.resolve_location(target, cell)
        if loc is None:
            return [f"Hit on {target.name}: Table 4 {face}: {cell}: a dud (not on this ship)."]
        armour = self.armour(target, loc)
        plunging = range_class == "long" and g.calibre >= PLUNGING_CALIBRE
        name = loc.name
        if loc.kind == "bridge" and name == "bridge" and target.ship.type in CAPITAL:
            name = "upper bridge"
        if armour <= 0:
            points = g.non_penetrating
            through = True
            how = "unarmoured: non-penetrating points"
        elif penetrates(armour, g.calibre, cm, plunging):
            points = g.penetrating
            through = True
            how = f'{armour:g}" armour penetrated'
        else:
            points = g.non_penetrating
            through = False
            how = f'{armour:g}" armour not penetrated'
        if loc.kind == "tubes":
            factor = TT_DAMAGE_JAPANESE if nation_of(target.nation) == "JAPAN" else TT_DAMAGE
            points = int(points * factor)
        effects = self.effects(target, loc, through, g.calibre, face, points)
        if not self.narrate:
            return effects
        return [f"Hit on {target.name}: Table 4 {face}: {name} ({how}): {points} points.", *effects]

    def effects(
        self, v: Vessel, loc: Location, through: bool, shell: float, face: int, points: int
    ) -> list[str]:
        """The damage points, then the special-effect hits."""
        lines: list[str] = []
        rec = f"move {self.turn}: {loc.name}"
        if face <= 5 and shell >= BOWS_CALIBRE:
            v.bow_loss += BOWS_KNOTS
            lines.append(f"{v.name}: bows hit, speed -{BOWS_KNOTS} knots.")
        kind = loc.kind
        if kind == "turret" and through:
            lost = v.turrets.get(loc.needs, 0)
            v.turrets[loc.needs] = 0
            if lost:
                lines.append(f"{v.name}: {loc.name} destroyed, {lost} guns lost.")
        elif kind == "secondary":
            beam = 0
            enemy = self.nearest_enemy(v)
            if enemy is not None:
                beam = self.engaged_beam(v, enemy.pos)
            key = max(v.secondary, key=calibre)
            lost = min(2, v.secondary[key][beam])
            v.secondary[key][beam] -= lost
            lines.append(f"{v.name}: secondary turret destroyed, {lost} x {key} lost.")
        elif kind == "bridge":
            lines += self.bridge(v)
        elif kind == "aa":
            lost = self.dice.roll(f"{v.name} AA points lost (1-6 die)")
            v.aa = max(0, v.aa - lost)
            lines.append(f"{v.name}: AA hit, loses {lost} AA points ({v.aa} left).")
        elif kind == "hangar":
            fire = self.dice.roll(f"{v.name} hangar fire (1-6 die)")
            if fire >= 4 and v.fire_moves:
                lines.append(f"{v.name}: hangar hit, 1-6 die {fire}: the fire burns on.")
            elif fire >= 4:
                v.fire_moves = 1
                lines.append(f"{v.name}: hangar hit, 1-6 die {fire}: aviation gas fire!")
            else:
                lines.append(f"{v.name}: hangar hit, 1-6 die {fire}: no fire.")
        elif kind == "tubes":
            index = int(loc.needs[2:]) - 1
            if index < len(v.tube_sets) and v.tube_sets[index]:
                lost = v.tube_sets[index]
                v.tube_sets[index] = 0
                v.tubes = max(0, min(v.tubes, sum(v.tube_sets)))
                lines.append(f"{v.name}: {loc.name} destroyed ({lost} tubes).")
        elif kind in ("equipment", "lift"):
            lines.append(f"{v.name}: {loc.name} inoperable.")
        if loc.marker == "A" and through:
            lost = self.dice.roll(f"{v.name} steam lost (single % die)", sides=10)
            v.boiler_loss += lost
            v.boiler_hit_move = self.turn
            lines.append(f"{v.name}: boiler rooms hit, steam lost: -{lost} knots.")
        elif loc.marker == "B" and through:
            score = self.dice.roll(f"{v.name} engine room damage (1-6 die)")
            v.engine_loss += 2 * score
            lines.append(f"{v.name}: engine room hit, machinery damaged: -{2 * score} knots.")
        v.history.append(f"{rec}, {points} points")
        return lines + self.damage(v, points)

    def bridge(self, v: Vessel) -> list[str]:
        face = self.dice.roll(f"{v.name} bridge hit (1-6 die)")
        result = BRIDGE[face]
        text = f"{v.name}: bridge hit, 1-6 die {face}: {result}"
        if face == 1:
            if v.wheelhouse_hit:
                v.beyond_control = True
                text += " — aft steering destroyed: beyond control, must stop"
            else:
                v.wheelhouse_hit = True
                v.course_lock = max(v.course_lock, WHEELHOUSE_MOVES)
                text += f" — present course held for {WHEELHOUSE_MOVES} moves"
        elif face == 2:
            v.course_lock = max(v.course_lock, CONNING_MOVES)
            text += " — captain killed, present course held next move"
        elif face == 3:
            v.director_out = True
        v.history.append(f"move {self.turn}: {result}")
        return [text + "."]

    def damage(self, v: Vessel, points: int) -> list[str]:
        if v.sunk:
            return []
        v.damage += points
        if v.damage >= v.points:
            v.sunk = True
            v.history.append(f"move {self.turn}: sunk")
            return [f"{v.name} sinks ({v.damage} of {v.points} points)."]
        return []

    # -- 4. the end of the move ---------------------------------------------------------

    def end_of_move(self) -> list[str]:
        events: list[str] = []
        arriving = [t for t in self.torpedoes if t.arrives == self.turn]
        self.torpedoes = [t for t in self.torpedoes if t.arrives != self.turn]
        for t in arriving:
            events += self.torpedo_attack(t)
        for v in self.vessels.values():
            if v.sunk:
                continue
            if v.fire_moves:
                points = HANGAR_FIRE_POINTS * 2 ** (v.fire_moves - 1)
                events.append(f"{v.name}: hangar fire, {points} points.")
                events += self.damage(v, points)
                face = self.dice.roll(f"{v.name} fight hangar fire (1-6 die)")
                if face >= 5:
                    v.fire_moves = 0
                    events.append(f"{v.name}: fire put out ({face}).")
                else:
                    v.fire_moves += 1
            # "250 pts. each subsequent turn": floods begun this move are rolled for from
            # the next; one die for all the older ones
            older = v.flooding - v.new_floods
            v.new_floods = 0
            if older and not v.sunk:
                face = self.dice.roll(f"{v.name} control flooding (1-6 die)")
                if face >= FLOODING_CONTROLLED:
                    v.flooding -= older
                    events.append(f"{v.name}: flooding controlled ({face}).")
                else:
                    pts = FLOODING_POINTS * older
                    events.append(f"{v.name}: flooding not controlled ({face}): {pts} points.")
                    events += self.damage(v, pts)
            # "Dice each subsequent move ... 4, 5, 6 = 2 knots regained"
            if v.boiler_loss and not v.sunk and self.turn > v.boiler_hit_move:
                face = self.dice.roll(f"{v.name} raise steam (1-6 die)")
                if face >= 4:
                    v.boiler_loss = max(0, v.boiler_loss - 2)
                    events.append(f"{v.name}: steam raised ({face}), +2 knots.")
        self.smoke = [s for s in self.smoke if s.moves_left > 0]
        return events

    def torpedo_attack(self, t: Torpedoes) -> list[str]:
        target = self.vessels[t.target]
        if target.sunk:
            return []
        cm = distance(t.marker, target.pos)
        who = self.vessels[t.firer].name if t.firer in self.vessels else t.firer
        if cm > t.run_cm:
            return [f"{who}'s torpedoes run out before reaching {target.name} ({cm:.0f} cm)."]
        line = bearing(target.pos, t.marker)
        off = angle_between(line, target.heading)
        broadside = 180.0 - off if off > 90.0 else off
        modifier = torpedo_modifier(target.length_ft, target.speed, t.knots, broadside, cm)
        face = self.dice.roll(f"{who} torpedoes at {target.name} (% dice)", sides=100)
        hits = table_8_hits(t.count, cm, pct(face) - modifier)
        events = [
            f"{who}'s {t.count} torpedoes reach {target.name} ({cm:.0f} cm, broadside "
            f"{broadside:.0f}°): % dice {pct(face):02d}, modifier {modifier:+d}: {hits} hits."
        ]
        result = depth_result(target.ship.type, t.depth)
        for _ in range(hits):
            if target.sunk:
                break
            events += self.torpedo_hit(target, result)
        return events

    def torpedo_hit(self, v: Vessel, result: str) -> list[str]:
        if result == "Runs under":
            return [f"Torpedo runs under {v.name}."]
        if result == "Sunk":
            v.history.append(f"move {self.turn}: torpedo")
            return [f"Torpedo hits {v.name}.", *self.damage(v, v.points - v.damage)]
        where = TORPEDO_POSITION[self.dice.roll(f"{v.name} torpedo hit position (1-6 die)")]
        score = self.dice.roll(f"{v.name} torpedo damage (1-6 die)")
        base = TORPEDO_DAMAGE[where] * score
        points = base
        if result.replace(" ", "") == "Crit.Hit":
            points += int(base * TORPEDO_CRITICAL)
        for knots, extra in TORPEDO_SPEED_BONUS:
            if v.speed >= knots:
                points += extra
                break
        lines = [f"Torpedo hit on {v.name} ({where}, {result}): {points} points."]
        v.flooding += 1
        v.new_floods += 1
        if where == "Fwd.":
            lost = self.dice.roll(f"{v.name} bow hit speed lost (1-6 die)")
            v.bow_loss += lost
            lines.append(f"{v.name}: bow hit, -{lost} knots.")
        elif where == "Aft":
            face = self.dice.roll(f"{v.name} aft hit (1-6 die)")
            if face == 6:
                v.immobilised = True
                lines.append(f"{v.name}: propellers and rudders hit, immobilized.")
        v.history.append(f"move {self.turn}: torpedo {where}, {points} points")
        return lines + self.damage(v, points)

    # -- the end ------------------------------------------------------------------------

    def _check_end(self) -> list[str]:
        afloat = [bool(self.afloat(0)), bool(self.afloat(1))]
        in_sight = any(self.can_see(v, e) for v in self.afloat(0) for e in self.afloat(1))
        opening = "open" in (self.side_orders(0), self.side_orders(1))
        self.out_of_sight = 0 if in_sight or not opening else self.out_of_sight + 1
        reason = ""
        if not all(afloat):
            reason = "a side has no ship afloat"
        elif self.out_of_sight >= int(self.conditions["contact_lost_moves"]):
            reason = "contact lost"
        elif self.turn >= self.turn_limit:
            reason = "turn limit"
        if not reason:
            return []
        self._finished = True
        self.end_reason = reason
        self.winner = self._decide(afloat)
        who = {"a": self.side_names[0], "b": self.side_names[1]}.get(self.winner, "no one")
        return [f"The battle ends ({reason}); winner: {who}."]

    def _decide(self, afloat: Sequence[bool]) -> str:
        if afloat[0] != afloat[1]:
            return "a" if afloat[0] else "b"
        shares = [
            sum(min(v.damage, v.points) for v in self.sides[s]) / max(1, self.start_points[s])
            for s in (0, 1)
        ]
        if abs(shares[0] - shares[1]) < 0.1:
            return ""
        return "a" if shares[0] < shares[1] else "b"


def salvos_of_torpedoes(count: int) -> tuple[int, ...]:
    """Tubes fired split into salvos of at most 6 (Table 8's last row), as evenly as
    possible."""
    if count <= 0:
        return ()
    n = math.ceil(count / MAX_TORPEDO_SALVO)
    base, extra = divmod(count, n)
    return tuple([base] * (n - extra) + [base + 1] * extra)


@register(RULE_SET)
def surface_battle(setup: BattleSetup, dice: Dice) -> SurfaceBattle:
    """A surface action by Ellard & Hammond (seed 004)."""
    return SurfaceBattle(setup, dice)
