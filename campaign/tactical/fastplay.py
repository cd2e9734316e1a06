"""*World War 2 Naval Fast Play Rules* (seed 000): surface, air and submarine battle.

One tactical turn is the seed's game turn, in its eight steps::

    "1. Players dice for initiative, the highest winning, and therefore choosing which
    player moves, attacks and tests for damage first. 2. Both players move all forces,
    including air and submarine attacks. 3. Resolve all gunnery attacks. 4. Resolve all AA
    fire, including air-to-air combat. 5. Resolve all air attacks against ships and land
    targets. 6. Resolve all ASW attacks against submarines. 7. Resolve surface and
    submarine launched torpedo attacks. 8. Repair damage."

The table top becomes one number: the **range** in inches between the two battle lines
(one inch stands for 1,000 yards). Gunnery reads the seed's range columns ("up to 36", 24",
18", 12"") from it, torpedoes their 6"/8" maximum range and half range, night fighting its
visibility in inches; :data:`RANGE_BANDS` names the bands. Each turn the faster side
chooses whether the range closes, opens or holds (see :data:`RULE_NOTES`).

Air strikes follow the seed's locating rolls and raid track: the side that first rolls the
"6" fixes the range at 330 miles (12 game turns down the raid track) and the other side's
raid is launched as many turns later as *"the number of dice rolls it takes the second
locating player to roll a '6'"* (the seed's example: a 6 on the sixth die, six turns).

Every die comes from the injected :class:`~campaign.dice.Dice`; every reading of the seed
where it is silent, cut short or ambiguous is a line of :data:`RULE_NOTES`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Final

from ..dice import Dice
from . import (
    FLAG,
    AirGroup,
    BattleResult,
    BattleSetup,
    Ship,
    Side,
    Spec,
    by_nation,
    by_side,
    either,
    list_of,
    number,
    one_of,
    register,
    ship_ids,
    whole,
)
from .turns import TurnBattle

RULE_SET: Final = "fastplay"

# ---------------------------------------------------------------------------------------
# The seed's tables as data
# ---------------------------------------------------------------------------------------

#: the gunnery table's range columns: "Range (in inches) up to 36" 24" 18" 12""
GUN_COLUMNS: Final[tuple[int, ...]] = (36, 24, 18, 12)

#: the gunnery table as printed: weapon row → dice at each range column (None = "-")
GUNNERY_TABLE: Final[dict[str, tuple[int | None, ...]]] = {
    '18"': (3, 3, 4, 5),
    '15/16"': (2, 3, 5, 6),
    '14"': (1, 2, 4, 6),
    '12"-11"': (1, 1, 5, 7),
    '8"': (None, 2, 6, 8),
    '6"-5.9"': (None, 1, 4, 8),
    '5.25"- 5"': (None, 1, 4, 8),
    '3.7"': (None, None, 2, 6),
}

#: which weapon row a calibre reads: (row, smallest calibre, calibre below which it stops);
#: each printed calibre reads its own row, calibres between rows the nearest row
GUN_ROWS: Final[tuple[tuple[str, float, float], ...]] = (
    ('18"', 17.0, 99.0),
    ('15/16"', 14.5, 17.0),
    ('14"', 13.0, 14.5),
    ('12"-11"', 9.5, 13.0),
    ('8"', 7.0, 9.5),
    ('6"-5.9"', 5.6, 7.0),
    ('5.25"- 5"', 4.4, 5.6),
    ('3.7"', 3.0, 4.4),
)

#: "Vessel type / Maximum damage capacity" as printed
CAPACITY_TABLE: Final[tuple[tuple[str, int], ...]] = (
    ("Submarine", 1),
    ("Transport vessel", 4),
    ("DE/DD", 6),
    ("CL", 8),
    ("CA/BC /CVE", 9),
    ("BB/CV", 10),
    ("BA", 12),
    ("Yamato and Musashi", 14),
)

#: "AA Factor by year" as printed: row → 1939-40, 1941, 1942, 1943, 1944/45 (None = "-")
AA_YEARS: Final[tuple[str, ...]] = ("1939-40", "1941", "1942", "1943", "1944/45")
AA_TABLE: Final[dict[str, tuple[int | None, ...]]] = {
    "Fleet Auxiliary": (1, 1, 1, 1, 2),
    "DD/DE": (1, 1, 1, 2, 2),
    "CL – CVL": (1, 1, 2, 2, 2),
    "CL – AA": (None, 2, 2, 3, 4),
    "CA": (1, 1, 2, 2, 3),
    "BC": (2, 2, 2, 3, 4),
    "BB – BA": (1, 2, 2, 3, 4),
    "CVE": (1, 2, 2, 2, 3),
}

#: "Aircraft Combat Factors" as printed: aircraft → dice for each counter
AIRCRAFT_FACTORS: Final[tuple[tuple[str, int], ...]] = (
    ("F2A Buffalo", 2),
    ("F4F Wildcat", 3),
    ("F5F Hellcat", 4),
    ("F6F Hellcat", 5),
    ("F4U Corsair", 4),
    ("Seafire", 4),
    ("Sea Hurricane", 3),
    ("Firefly", 3),
    ("TBM/TBF", 2),
    ("SBD/TBD", 1),
    ("B17", 2),
    ("A26 Bomber", 1),
    ("A5M Claude", 2),
    ("A6M2 Zero (1941-43)", 3),
    ("A6M6 Zero (1943-45)", 4),
    ("VAL/Kate", 1),
    ("Mitsubishi Betty", 1),
)

#: words in AirGroup.model that name a printed aircraft, checked in this order (designation
#: first: the seed prints "F5F Hellcat = 4" and "F6F Hellcat = 5")
MODEL_WORDS: Final[tuple[tuple[str, int], ...]] = (
    ("F2A", 2),
    ("BUFFALO", 2),
    ("F4F", 3),
    ("WILDCAT", 3),
    ("F5F", 4),
    ("F6F", 5),
    ("HELLCAT", 5),
    ("F4U", 4),
    ("CORSAIR", 4),
    ("SEAFIRE", 4),
    ("SEA HURRICANE", 3),
    ("FIREFLY", 3),
    ("TBM", 2),
    ("TBF", 2),
    ("AVENGER", 2),
    ("SBD", 1),
    ("DAUNTLESS", 1),
    ("TBD", 1),
    ("DEVASTATOR", 1),
    ("B17", 2),
    ("B-17", 2),
    ("A26", 1),
    ("A-26", 1),
    ("A5M", 2),
    ("CLAUDE", 2),
    ("A6M6", 4),
    ("A6M2", 3),
    ("VAL", 1),
    ("D3A", 1),
    ("KATE", 1),
    ("B5N", 1),
    ("BETTY", 1),
    ("G4M", 1),
)

#: "CL, DD, DE move 10 inches. CA, BA, BC, CV, IJN CVL move 9 inches. BB, US CVE move 7.
#: All transport and fleet train vessels move 6 inches per game turn."
MOVEMENT: Final[dict[str, int]] = {
    "CL": 10,
    "CLAA": 10,
    "DD": 10,
    "DE": 10,
    "MTB": 10,
    "CA": 9,
    "BA": 9,
    "BC": 9,
    "CV": 9,
    "CVL": 9,
    "BB": 7,
    "CVE": 7,
    "AUX": 6,
    "SS": 0,
    "YAMATO": 9,
}
#: "If turning up to 45°/90°/180°, reduce movement rate by 1/2/3 inch(es)"
TURN_PENALTY: Final[dict[int, int]] = {45: 1, 90: 2, 180: 3}

#: the seed's vessel types for each Ship.type (battleships: see :func:`vessel_type`)
TYPE_CODES: Final[dict[str, str]] = {
    "battlecruiser": "BC",
    "carrier": "CV",
    "light_carrier": "CVL",
    "escort_carrier": "CVE",
    "heavy_cruiser": "CA",
    "destroyer": "DD",
    "escort": "DE",
    "submarine": "SS",
    "transport": "AUX",
    "landing_ship": "AUX",  # "All transport and fleet train vessels" (ships.csv's type)
    "mtb": "MTB",
}
CAPACITY: Final[dict[str, int]] = {
    "SS": 1,
    "MTB": 1,
    "AUX": 4,
    "DD": 6,
    "DE": 6,
    "CL": 8,
    "CLAA": 8,
    "CVL": 8,
    "CA": 9,
    "BC": 9,
    "CVE": 9,
    "BB": 10,
    "CV": 10,
    "BA": 12,
    "YAMATO": 14,
}
AA_ROW: Final[dict[str, str]] = {
    "AUX": "Fleet Auxiliary",
    "DD": "DD/DE",
    "DE": "DD/DE",
    "MTB": "DD/DE",
    "CL": "CL – CVL",
    "CVL": "CL – CVL",
    "CLAA": "CL – AA",
    "CA": "CA",
    "BC": "BC",
    "BB": "BB – BA",
    "BA": "BB – BA",
    "YAMATO": "BB – BA",
    "CV": "BB – BA",
    "CVE": "CVE",
}

#: range bands (name, from, to inches): what is possible in each
RANGE_BANDS: Final[tuple[tuple[str, int, int], ...]] = (
    ("beyond gun range", 37, 999),
    ('long (up to 36")', 25, 36),
    ('medium (up to 24")', 19, 24),
    ('short (up to 18")', 13, 18),
    ('close (up to 12")', 9, 12),
    ('Long Lance (up to 8")', 7, 8),
    ('torpedo (up to 6")', 1, 6),
)
MAX_RANGE: Final = 48  # inches: the forces lose contact beyond this
MIN_RANGE: Final = 1
RAID_TRACK_MILES: Final = 330  # "starting with a range of 330 miles"
RAID_TRACK_TURNS: Final = 12  # "This requires 12 game turns ... to assemble a raid and arrive"
#: how the second locating side's delay is counted (conditions['locate_delay']): "The
#: number of dice rolls it takes the second locating player to roll a '6' is the number of
#: game turns delay" — every roll it made for the range (the literal count), or the rounds
#: from the one that fixed the range to its own 6, both counted
LOCATE_DELAYS: Final = ("all_rolls", "from_fix")
COUNTER_AIRCRAFT: Final = 4  # "Each aircraft counter or model represents 4 actual aircraft"
TORPEDO_RANGE: Final = {"japan": 8}  # "6 inches for Allied and German, 8 inches for Japanese"
TORPEDO_RANGE_DEFAULT: Final = 6
TORPEDO_DICE: Final = 4  # "Torpedo salvos are fired using 4D6"
MTB_DICE: Final = 2  # "All MTB's have an attack value of 2D6 per salvo."
AIR_ATTACK_DICE: Final = 4  # "Each attacking bomber or torpedo group rolls 4D6 as does the target"
KAMIKAZE_DICE: Final = 2  # "Attackers will roll 2D6"
KAMIKAZE_FROM: Final = 1944  # "Attacks began at the end of the Leyte Gulf campaign in June 1944"
GUIDED_DICE: Final = 2  # HS293 / BAT: "a 2D6 attack factor"
RADAR_RANGE: Final = 30  # "surface search radar will locate all targets at around 15 miles"
OLD_BEFORE: Final = 1919  # "Older ships": completed before the end of WW1
FAST_BATTLESHIP_KNOTS: Final = 27.0  # BA: a fast battleship
AXIS: Final = frozenset({"japan", "germany", "italy"})
ASW_SCREEN: Final = 2  # DD/DE "within 6 inches of the attacking submarine"
TORPEDO_SALVOS: Final = {"japan": 2}  # salvos a ship carries (reloads); others 1
DEFAULTS: Final[dict[str, Any]] = {"year": 1942, "turn_limit": 12, "strikes": 1}
#: every condition a set-up may give (docs/battle-setups.md lists them)
CONDITIONS: Final[dict[str, str]] = {
    "year": "the year of the battle: AA by year, aircraft factors, kamikaze (1942)",
    "turn_limit": "game turns after which the battle ends (12; later while raids fly)",
    "start_range": "inches between the lines at the start (else start_band; else out of "
    "surface contact: an air battle)",
    "start_band": "the starting range as a band: '36\"', '24\"', '18\"' or '12\"'",
    "intent": "{'a': ..., 'b': ...}: 'close', 'hold' or 'open', or a list, one a turn ('close')",
    "night": "true: a night action (2D6 visibility, radar, identification)",
    "weather": "'bad': gunnery halved ('fair', the default, is not)",
    "radar": "true, or by side key or nation: the side has gunnery radar",
    "smoke": "true, or by side key or nation: the side lays smoke (fire into it is halved)",
    "single_mounts": "ship ids whose main battery is in manually loaded single mounts",
    "armoured_deck": "carrier ids with an armoured flight deck (bomb damages halved)",
    "modernised": "ship ids modernised before the war (no -1 damage capacity for age)",
    "torpedo_salvos": "nation -> torpedo salvos a ship carries (Japan 2, others 1)",
    "sector": "{'a': 1-6, 'b': 1-6}: each side's sector for locating (else rolled)",
    "raid_turns": "game turns a raid takes to arrive (12)",
    "locate_delay": "how the second side's raid delay is counted: 'all_rolls' (every roll it "
    "made for the range, the default) or 'from_fix' (the rounds from the one that fixed the "
    "range to its own 6, both counted)",
    "strikes": "raids each side flies (1)",
    "historical_strike": "true: every serviceable counter flies (no 1D6 for serviceability)",
    "asw_screen": "DD/DE screening against each submarine attack (2)",
}
INTENTS: Final = ("close", "hold", "open")
#: what each condition may be (a set-up is checked whole before a battle is made)
CHECKS: Final[dict[str, Spec]] = {
    "year": whole(1900, 1960),
    "turn_limit": whole(1, 200),
    "start_range": number(0, 1000),
    "start_band": one_of('36"', '24"', '18"', '12"', "36", "24", "18", "12"),
    "intent": by_side(either(one_of(*INTENTS), list_of(one_of(*INTENTS), 200, 1))),
    "night": FLAG,
    "weather": one_of("bad", "fair", ""),
    "radar": either(FLAG, by_side(FLAG), by_nation(FLAG)),
    "smoke": either(FLAG, by_side(FLAG), by_nation(FLAG)),
    "single_mounts": ship_ids(),
    "armoured_deck": ship_ids("carrier"),
    "modernised": ship_ids(),
    "torpedo_salvos": by_nation(whole(0, 10)),
    "sector": by_side(whole(1, 6)),
    "raid_turns": whole(1, 50),
    "locate_delay": one_of(*LOCATE_DELAYS),
    "strikes": whole(1, 10),
    "historical_strike": FLAG,
    "asw_screen": whole(0, 20),
}
BOMBERS: Final = frozenset({"dive_bomber", "torpedo_bomber", "level_bomber"})

RULE_NOTES: Final[tuple[str, ...]] = (
    "Scale and range bands: one inch is 1,000 yards (the seed's 36\" 18-inch gun range, "
    "'12,000 yards' visual range beside a 2D6-inch visibility, radar at '15 miles (30,000 "
    "yards)' = 30\"). The two battle lines are one range in inches, read as the bands of "
    'RANGE_BANDS: beyond 36" no gun reaches (\'Range (in inches) up to 36" 24" 18" 12"\'); '
    'the 12" column serves every range under 12"; 8" and 6" are torpedo ranges.',
    "Closing and opening the range (step 2, 'Both players move all forces'): each side's "
    "intent (conditions['intent'][a|b]: 'close', 'hold' or 'open', or a list, one a turn, the "
    "last repeated; default 'close') is its course. The faster side chooses: the side whose "
    "movement rate (its slowest ship under way, MOVEMENT inches less 1 for each retained "
    "damage and less any turning penalty) is higher; equal rates: the higher Ship.speed of "
    "that slowest ship; still equal: the initiative winner. The chooser's 'hold' keeps the "
    "range; its 'close'/'open' changes the range by its rate, plus the other side's rate if "
    "the other side wants the same, or less the other side's rate if it wants the opposite "
    '(a chase). The range stays within 1" and 48"; beyond 48" contact is lost.',
    "Turning: 'If turning up to 90°, reduce movement by 2 inches. If turning up to 180°, "
    "reduce movement by 3 inches.' A side changing from hold to close/open (or back) turns "
    '90° (-2"); from close to open (or back) 180° (-3"). A side that turned 180° this turn '
    "is end-on: its batteries 'cannot bring a full broadside to bear' (half dice) and it is "
    "'dead astern or bow on' to torpedoes (-2D6).",
    "Torpedo angle: the bullet list prints '1D6 if target is beam on (270° or less)' while "
    "the attack angle template gives '-2D6', '-1D6' and 'All D6' (the minus signs of the "
    "bullets are lost in the text). Read: a target side holding the range is beam on (all "
    "D6); closing or opening it steers an oblique course (-1D6); end-on after a 180° turn "
    "-2D6.",
    "Initiative: each side rolls 1D6, 'the highest winning'; a tie is rolled again. The "
    "winner always chooses to move, attack and test for damage first: in steps 3, 4-5 and 7 "
    "its ships fire and its hits and sink tests take effect before the other side fires; a "
    "ship sunk by a sink test does not fire that turn.",
    "Batteries: the main battery is the largest calibre of Ship.guns, the secondary the "
    "next; smaller guns and those under 3in are the AA battery (AA by year, not the gunnery "
    "table). A calibre reads its printed row, or the nearest row between them (GUN_ROWS: "
    '4.7in and 4.5in read 5.25"-5", 4in and 3in read 3.7", 5.5in reads 5.25"-5" (the same '
    'dice as 6"-5.9"), 9.2in reads 8", 10in reads 12"-11", 13.5in reads 14"). The damage '
    'rules read the row too: "8 inch or larger" is the 8" row and up (7.5in counts), "6 '
    'inch or smaller" the 6"-5.9" row and below (6.1in/155mm counts), "18.1inch" the 18" '
    "row.",
    "Battery dice: the table's cell; at night or in bad weather (conditions['weather'] = "
    "'bad') 'All gunnery reduced to half D6' (half of the cell, rounded up), and firing "
    "into a smoke screen (conditions['smoke'][target side]) likewise - the seed names no "
    "smoke penalty, but its '+1D6 for gunnery radar ... when firing through a smoke screen' "
    "puts smoke beside night and bad weather, and a bonus for radar alone would make "
    "smoke help the firer; then +1D6 gunnery radar (side has "
    "conditions['radar']) at night, in bad weather or through smoke; main batteries +1D6 "
    "with more than 8 guns and, separately, -1D6 with fewer than 8 guns or single mounts "
    "(conditions['single_mounts'] lists ship ids; one -1D6 for both; twelve guns in single "
    "mounts get +1D6 -1D6); +1D6 if the target is stopped "
    "(movement 0); then halved (rounded up) if the firer is end-on; then -1D6 for each "
    "retained damage. Every 6 is a hit.",
    "Damage: each hit rolls 1D6 damages; a DE/DD or CL (CLAA too) hit by 8in or larger rolls "
    "a further 1D6; 6in or smaller against CA or larger halves the damages (rounded up, so "
    "a hit does at least 1); 18.1in and larger doubles them. Damages are counted at once, but "
    "only 'Each damage remaining after the repair cycle (step 8)' reduces speed and dice.",
    "Sink tests: 'All hits (NOT damages) by 8 inch guns or larger, allow the firer to make a "
    "sink test by rolling any double with 2D6' - the firer always tests; the table's note "
    "'Sinks on any double ... with guns 12\" caliber and over' is the same rule for its rows. "
    "'Guns 6 inches or smaller' test against MTB, DE, DD, CL (CLAA) and auxiliaries only. "
    "A double sinks the ship at once.",
    "Target priority: a battery fires first at an enemy that launched torpedoes at its ship "
    "last turn, then at one that fired at it (last turn or earlier this turn), else the main "
    "battery takes its opposite number (ships of each side in order of damage capacity, the "
    "i-th against the i-th, wrapping) and the secondary battery the enemy's smallest ship. "
    "Only ships in the battle line (afloat, not withdrawn, not submarines) are targets.",
    "Night (conditions['night']): each side rolls 2D6 for its visibility in inches at the "
    "start; a side with radar (conditions['radar'] by side key or nation) locates all "
    'targets within 30". A target is located if within range of detection or if it has '
    "fired ('Once firing is commenced, all firers are automatically located'); torpedo "
    "launches do not reveal ('Running torpedoes cannot be detected at night'). A radar "
    "contact beyond visual range that has not fired is fired on only on 5-6 (1D6 for each "
    "battery's target: 'a 1D6 roll for each radar target and if a 5 or 6 is rolled the "
    "target is fired on'). The two lines are never intermixed, so no friendly fire.",
    "Repair (step 8): every damaged ship afloat rolls 1D6 and removes that many damages; a "
    "ship whose damages then reach its maximum damage capacity is lost ('Ships that reach "
    "their maximum damage capacity are deemed to either have sunk'; 'still exceeds' in the "
    "repair text is read as reaching). Withdrawn ships have left the battle and roll no more.",
    "Damage capacity: Ship.damage_capacity when set, else CAPACITY_TABLE by type: BA is a "
    "battleship of 27 knots or more, BB a slower one; Yamato and Musashi 14; a CVL (not in "
    "the table) 8 as a CL; an MTB (not in the table) 1 as a submarine; 'Older ships should "
    "have their damage capacity reduced by 1, unless modernized before WW2': completed "
    "before 1919 and not in conditions['modernised'].",
    'Movement: CLAA and MTB move as CL/DD (10"); every CVL 9" (the seed names the IJN '
    'CVL) and every CVE 7" (the seed names the US CVE); a ship\'s rate is less 1" for each '
    "retained damage; at 0 it is stopped.",
    'Torpedoes: range 8" for Japanese ships, else 6"; 4D6 a salvo (MTB 2D6), -2D6 beyond '
    "half range or at night, the angle modifier above, +1D6 if the target is stopped or "
    "'moving at less than 1/3rd maximum speed' (rate below a third of its MOVEMENT), -1D6 "
    "for each retained damage of the firer. Each ship with tubes fires one salvo a turn "
    "while in range, at the enemy's largest ship in the line, up to 2 salvos a battle for "
    "Japanese ships (a reload) and 1 for others (the seed sets no limit; "
    "conditions['torpedo_salvos'] by nation overrides).",
    "Torpedo and air attack roll-offs: 'The target owner rolls the same number of dice. The "
    "highest dice roll wins inflicting 1D6 damage points for each hit.' Read: each attacker "
    "die higher than the target's highest die is a hit (a tie goes to the target). Every "
    "torpedo hit rolls 1D6 damages and a sink test on any double.",
    "Submarines are not moved ('The submarine comes into play automatically'): each "
    "submarine attacks the enemy's largest ship in the line, placed within half range and "
    "beam on (4D6; 2D6 at night), once a turn until its salvos (as ships: 1, Japanese 2) "
    "are spent - an ASW screen it does not evade costs no salvo. First up to 2 of the "
    "target side's DD/DE in the "
    'line (the least damaged) are the ASW ships within 6": each rolls 1D6 and the '
    "submarine 1D6 against each; any ASW 6 sinks it; else any ASW die equal or higher "
    "drives it off (it sits out the next turn); else it presses home in step 7, with its "
    "side's surface torpedoes, the initiative winner's side first ('attacks ... first'). "
    "Submarines are not gunnery targets.",
    "Locating the target: each side's sector (conditions['sector'][a|b], else rolled 1D6) "
    "must be rolled by the enemy before it rolls for the range; then each round both "
    "sides roll 1D6 and the first '6' fixes the range at 330 miles: that side's raid "
    "arrives after 12 game turns ('RAID TRACK - each square takes 1 game turn'; "
    "conditions['raid_turns'] overrides). 'starting with a range of 330 miles' might mean "
    "the range shortens round by round, but the text gives no step (the raid track's "
    "figure is lost), so a 6 in any round fixes 330 miles.",
    "The second locating side: 'The number of dice rolls it takes the second locating "
    "player to roll a 6 is the number of game turns delay'. The example - 'The first "
    "player rolls a 6 on first attempt ... The second player fails to roll the required 6 "
    "on any dice rolls until he rolls 6D6. This means that he is six game turns behind' - "
    "counts the roll the second player made in the round the range was fixed. Default "
    "(conditions['locate_delay'] 'all_rolls', the literal count): the delay is every roll "
    "that side made for the range, its 6 included; rule option 'from_fix': the rounds from "
    "the one that fixed the range to the one of its 6, both counted (the two agree when "
    "the range is fixed on the first roll, as in the example). A 6 in the fixing round is "
    "no delay (there is no second player). Sector rolls are not counted: they find the "
    "direction, not the range.",
    "'If there are separate forces attempting to locate the same target, each force must "
    "make a separate dice roll': a set-up's side is one force (its line of ships and its "
    "air), so it rolls once a round. Only sides with strike aircraft roll; a side with none "
    "never locates.",
    "Strike assembly: 'rolling 1D6 per type of aircraft available from each carrier or "
    "attack group', less (6 - counters) or plus (counters - 6) and capped by the counters "
    "(aircraft // 4 - the Santa Cruz example: 23 Kates are 5 counters), at least 0. "
    "conditions['historical_strike'] launches every counter. Further raids "
    "(conditions['strikes']) arrive 2 x raid_turns later (there and back).",
    "Air-to-air: the defender's fighters not in a raid fly CAP; each CAP counter engages "
    "one attacking counter (escort fighters first, then torpedo bombers, then dive and "
    "level bombers); each rolls its factor in dice (AirGroup.factor, else AIRCRAFT_FACTORS "
    "by model; A6M Zero by year: 3 to 1943, 4 from 1944; unknown fighters 3, bombers 1). A "
    "6 removes the enemy counter (both may fall); with no 6 the higher die drives the "
    "other off; a tie changes nothing. From 1944 Allied dice get +1 against Japanese air "
    "('add +1 to their air-to-air combat dice rolls'): the +1 is on each die, so a 5 reads "
    "6 and removes the counter (no die above 6).",
    "AA: every ship of the target side in the line is 'up to 6 inches from the target'; "
    "with several targets attacked, ships not attacked are shared round robin among the "
    "attacks ('Only AA batteries may be split'). AA dice are AA_TABLE by type and year "
    "(CV reads 'BB - BA', CVL 'CL - CVL', CLAA before 1941 the CL row), less 1D6 a retained "
    "damage. Each 6 removes a bomber (torpedo bombers first, 'the nearest attackers'). "
    "Escort fighters not engaged by CAP suppress one DD/DE/CL (not CLAA) each, which then "
    "fires only in defence of itself.",
    "Air attacks: raids attack the enemy's carriers first, then the largest ship; each "
    "carrier's or airfield's bombers attack one target, the i-th base the i-th target. "
    "Each bomber counter rolls 4D6 against the target's 4D6 (roll-off above); each hit 1D6 "
    "damages; torpedo hits sink-test; bomb hits sink-test except on BA, BB, BC, CV, CVL; "
    "bomb damages halved (rounded up) on BA, BB, BC and carriers with an armoured deck "
    "(Ship.deck 3in or more, or conditions['armoured_deck']). Guided bombs (model HS293 or "
    "BAT) attack with 2D6 and take no AA.",
    "Kamikaze (AirGroup.kind 'kamikaze', from 1944 only): the attacks per game are one 1D6 "
    "adjusted by counters, rolled when the side's first raid arrives and flying with it, "
    "aimed as its bombers (later raids bring no more from that group); each attacks "
    "with 2D6 against its target's AA dice (less 1D6 a retained damage), taking "
    "no general AA (roll-off); a win is one hit 'as per the gunnery rules for a 12\" shell' "
    "(1D6, +1D6 on DE/DD/CL), no sink test; the counter is spent.",
    "Morale (after repair): a ship retaining half its capacity or more rolls 2D6; less than "
    "its retained damages and it withdraws from the battle line (no longer fires or is "
    "fired on).",
    "Land targets: BattleSetup has none, so 'Gunfire and Bomb Damage - Land Targets' does "
    "not arise.",
    "End and winner: the battle ends at conditions['turn_limit'] (default 12, or later "
    "while raids are on the track), when a side has nothing left to fight with, or when "
    "the lines are out of contact and no raid is due. Winner: the side that sank more "
    "damage capacity; equal: the side with ships still in the line when the other has "
    "none; else no decision. Ship.state: sunk; crippled (withdrawn or retaining half its "
    "capacity); damaged (any damage taken); else undamaged.",
)


# ---------------------------------------------------------------------------------------
# Pure rules
# ---------------------------------------------------------------------------------------


@cache
def calibre_inches(calibre: str) -> float:
    """'14in' → 14.0, '5.9in' → 5.9, '150mm' → 5.9, '15cm' → 5.9."""
    text = calibre.strip().lower()
    if text.endswith("mm"):
        return round(float(text[:-2]) / 25.4, 1)
    if text.endswith("cm"):
        return round(float(text[:-2]) / 2.54, 1)
    return float(text.removesuffix("in").removesuffix('"'))


@cache
def calibre_words(calibre: float) -> str:
    """``8.0`` → ``"8in"``, ``5.5`` → ``"5.5in"``."""
    return f"{calibre:g}in"


@cache
def gun_row(calibre: float) -> str | None:
    """The gunnery table row a calibre reads, or None below 3in (AA battery only)."""
    for row, low, high in GUN_ROWS:
        if low <= calibre < high:
            return row
    return None


def column_for(distance: int) -> int | None:
    """The range column ("up to") for a distance, None beyond 36"."""
    for col in reversed(GUN_COLUMNS):
        if distance <= col:
            return col
    return None


def band_name(distance: int) -> str:
    for name, low, high in RANGE_BANDS:
        if low <= distance <= high:
            return name
    return RANGE_BANDS[0][0]


@cache
def table_dice(calibre: float, distance: int) -> int:
    """The table's number of dice for a calibre at a range (0 for "-" or out of range);
    remembered, as gunnery asks it for every battery every turn."""
    row = gun_row(calibre)
    col = column_for(distance)
    if row is None or col is None:
        return 0
    cell = GUNNERY_TABLE[row][GUN_COLUMNS.index(col)]
    return cell or 0


def half_up(n: int) -> int:
    return (n + 1) // 2


def battery_dice(
    calibre: float,
    distance: int,
    guns: int,
    *,
    main: bool,
    reduced_visibility: bool = False,
    radar: bool = False,
    single_mounts: bool = False,
    target_stopped: bool = False,
    end_on: bool = False,
    damage: int = 0,
) -> int:
    """Dice one battery rolls (see RULE_NOTES 'Battery dice')."""
    base = table_dice(calibre, distance)
    if base == 0:
        return 0
    n = half_up(base) if reduced_visibility else base
    if radar and reduced_visibility:
        n += 1
    if main:
        if guns > 8:
            n += 1
        if guns < 8 or single_mounts:
            n -= 1
    if target_stopped:
        n += 1
    if end_on:
        n = half_up(n)
    return max(0, n - damage)


#: a calibre counts as its gunnery-table row for the damage rules: "8 inch or larger" is the
#: 8" row and up (7.5in reads 8"), "6 inch or smaller" the 6"-5.9" row and below (6.1in
#: reads 6"), "18.1inch" the 18" row
EIGHT_INCH_FROM: Final = dict((r, low) for r, low, _ in GUN_ROWS)['8"']
EIGHTEEN_INCH_FROM: Final = dict((r, low) for r, low, _ in GUN_ROWS)['18"']


def hit_damages(calibre: float, target_type: str, rolls: Sequence[int]) -> int:
    """Damages from one gun hit: ``rolls`` is the damage die (and the heavy-calibre die)."""
    n = sum(rolls)
    small = calibre < EIGHT_INCH_FROM
    if small and CAPACITY.get(target_type, 0) >= CAPACITY["CA"] and target_type != "CVL":
        n = half_up(n)
    if calibre >= EIGHTEEN_INCH_FROM:
        n *= 2
    return n


def heavy_extra(calibre: float, target_type: str) -> bool:
    """'Where a DE/DD or CL is hit by a gun of 8" caliber or larger' +1D6 damages."""
    return calibre >= EIGHT_INCH_FROM and target_type in ("DD", "DE", "CL", "CLAA")


def gun_sink_test(calibre: float, target_type: str) -> bool:
    if calibre >= EIGHT_INCH_FROM:
        return True
    return target_type in ("MTB", "DE", "DD", "CL", "CLAA", "AUX")


def roll_off_hits(attack: Sequence[int], defence: Sequence[int]) -> int:
    """Attacker dice higher than the target's highest die."""
    bar = max(defence, default=0)
    return sum(1 for d in attack if d > bar)


def torpedo_dice(
    distance: int,
    max_range: int,
    *,
    night: bool = False,
    aspect: str = "beam",
    target_slow: bool = False,
    damage: int = 0,
    base: int = TORPEDO_DICE,
) -> int:
    """Dice of a torpedo salvo (0 = out of range). ``aspect``: beam | oblique | end-on."""
    if distance > max_range:
        return 0
    n = base - {"beam": 0, "oblique": 1, "end-on": 2}[aspect]
    if distance * 2 > max_range or night:
        n -= 2
    if target_slow:
        n += 1
    return max(0, n - damage)


def aa_factor(vessel: str, year: int) -> int:
    row = AA_ROW.get(vessel)
    if row is None:
        return 0
    i = 0 if year <= 1940 else min(4, year - 1940)
    cell = AA_TABLE[row][i]
    if cell is None:
        cell = AA_TABLE["CL – CVL"][i]
    return cell or 0


def aircraft_factor(group: AirGroup, year: int) -> int:
    if group.factor > 0:
        return group.factor
    model = group.model.upper()
    for word, factor in MODEL_WORDS:
        if word in model:
            return factor
    if "A6M" in model or "ZERO" in model:
        return 3 if year <= 1943 else 4
    return 3 if group.kind == "fighter" else 1


def counters(aircraft: int) -> int:
    """'Each aircraft counter or model represents 4 actual aircraft' (26 Zeros are 6)."""
    return max(0, aircraft) // COUNTER_AIRCRAFT


def assembled(roll: int, available: int) -> int:
    """Counters launched: the 1D6 less (6 - counters) or plus (counters - 6), capped."""
    return max(0, min(available, roll + available - 6))


def vessel_type(ship: Ship) -> str:
    """The seed's vessel type for a Ship."""
    if ship.name.strip().casefold() in ("yamato", "musashi"):
        return "YAMATO"
    if ship.type == "battleship":
        return "BA" if ship.speed >= FAST_BATTLESHIP_KNOTS else "BB"
    if ship.type == "light_cruiser":
        biggest = max((calibre_inches(c) for c in ship.guns), default=0.0)
        return "CLAA" if 0 < biggest <= 5.25 else "CL"
    code = TYPE_CODES.get(ship.type)
    if code is None:
        raise ValueError(f"{ship.name}: ship type {ship.type!r} is not known to fast play")
    return code


def damage_capacity(ship: Ship, modernised: Sequence[str] = ()) -> int:
    if ship.damage_capacity > 0:
        return ship.damage_capacity
    cap = CAPACITY[vessel_type(ship)]
    if 0 < ship.completed < OLD_BEFORE and ship.id not in modernised and cap > 1:
        cap -= 1
    return cap


def is_double(dice: Sequence[int]) -> bool:
    return dice[0] == dice[1]


# ---------------------------------------------------------------------------------------
# The battle
# ---------------------------------------------------------------------------------------


class _Unit:
    """A ship in the battle. (Plain classes, these three, not dataclasses: a dataclass's
    generated ``__init__`` runs as interpreted Python even in the compiled rule sets, and
    every preview battle makes its own.)"""

    def __init__(
        self,
        ship: Ship,
        side: int,
        vessel: str,
        capacity: int,
        batteries: list[tuple[float, int]],  # (calibre, guns): main, secondary
    ) -> None:
        self.ship = ship
        self.id = ship.id
        self.name = ship.name  # read in every die's purpose
        self.speed = ship.speed
        self.side = side
        self.vessel = vessel
        self.capacity = capacity
        self.batteries = batteries
        #: each battery's calibre in words ("8in"), for its dice's purpose
        self.calibres = [calibre_words(calibre) for calibre, _ in batteries]
        self.damage = 0  # damages now
        self.retained = 0  # damages after the last repair
        self.worst = 0
        self.sunk = False
        self.withdrawn = False
        self.salvos = 0
        #: the salvos it comes to the battle with (the seed's "Torpedo salvos" by nation)
        self.torpedo_salvos = 0
        self.fired_at_by: set[str] = set()  # this turn
        self.torpedoed_by: set[str] = set()  # this turn
        self.fired_at_last: set[str] = set()  # last turn
        self.torpedoed_last: set[str] = set()  # last turn
        self.revealed = False
        self.sub_rest = 0  # submarine: turns until it may attack again
        #: what befell it (the set-up's ship is only read: result() hands back a copy with
        #: these notes)
        self.notes: list[str] = []

    def __repr__(self) -> str:
        return f"_Unit({self.name!r}, damage {self.damage}, sunk {self.sunk})"

    def start(self) -> None:
        """As the battle finds the ship: the set-up's damage, its torpedo salvos."""
        self.damage = self.retained = self.worst = max(0, self.ship.damage)
        self.sunk = self.ship.state == "sunk"
        self.salvos = self.torpedo_salvos

    def afresh(self) -> _Unit:
        """The ship again as the battle found it (for a rematch)."""
        out = _Unit(self.ship, self.side, self.vessel, self.capacity, self.batteries)
        out.torpedo_salvos = self.torpedo_salvos
        out.start()
        return out

    @property
    def in_line(self) -> bool:
        return not self.sunk and not self.withdrawn

    @property
    def rate(self) -> int:
        left = MOVEMENT[self.vessel] - self.retained
        return left if left > 0 else 0


class _Counter:
    def __init__(self, group: AirGroup, side: int, base: str, kind: str, factor: int) -> None:
        self.group = group
        self.side = side
        self.base = base
        self.kind = kind
        self.factor = factor
        self.alive = True


class _Raid:
    def __init__(self, side: int, arrives: int) -> None:
        self.side = side
        self.arrives = arrives
        self.counters: list[_Counter] = []


class FastPlayBattle(TurnBattle):
    """A battle by the *World War 2 Naval Fast Play Rules* (see :data:`RULE_NOTES`)."""

    rule_set = RULE_SET
    #: the seed's "Game Turn Sequence"
    phases: tuple[str, ...] = (
        "1 Initiative",
        "2 Movement (and raids arriving)",
        "3 Gunnery",
        "4 AA fire and air-to-air",
        "5 Air attacks",
        "6 ASW",
        "7 Torpedoes",
        "8 Repair (and morale)",
    )

    def __init__(
        self, setup: BattleSetup, dice: Dice, opening: FastPlayBattle | None = None
    ) -> None:
        """``opening``: a battle of the same set-up not yet begun, whose reading of the
        set-up is taken over (see :meth:`rematch`)."""
        super().__init__(dice)
        self.setup = setup
        if opening is not None:
            self._take_opening(opening)
            self._begin()
            return
        cond: dict[str, Any] = {**DEFAULTS, **setup.conditions}
        self.cond = cond
        self.year = int(cond["year"])
        self.night = bool(cond.get("night", False))
        self.bad_weather = str(cond.get("weather", "")) == "bad"
        self.sides: tuple[Side, Side] = (setup.a, setup.b)
        self.names = (setup.a.name, setup.b.name)
        self.radar = (
            self._nation_flag(cond.get("radar"), 0),
            self._nation_flag(cond.get("radar"), 1),
        )
        self.smoke = (
            self._nation_flag(cond.get("smoke"), 0),
            self._nation_flag(cond.get("smoke"), 1),
        )
        self.single = frozenset(cond.get("single_mounts", []) or [])
        self.armoured = frozenset(cond.get("armoured_deck", []) or [])
        modernised = list(cond.get("modernised", []) or [])
        salvos = {**TORPEDO_SALVOS, **dict(cond.get("torpedo_salvos") or {})}
        self.units: dict[str, _Unit] = {}
        self.side_units: tuple[list[_Unit], list[_Unit]] = ([], [])
        for i, side in enumerate(self.sides):
            for ship in side.ships:
                if ship.id in self.units:
                    raise ValueError(f"ship id {ship.id!r} is used twice")
                vessel = vessel_type(ship)
                guns = sorted(
                    ((calibre_inches(c), n) for c, n in ship.guns.items() if n > 0),
                    reverse=True,
                )
                batteries = [(c, n) for c, n in guns if gun_row(c) is not None][:2]
                unit = _Unit(ship, i, vessel, damage_capacity(ship, modernised), batteries)
                if ship.torpedo_tubes > 0 or vessel in ("MTB", "SS"):
                    unit.torpedo_salvos = int(salvos.get(ship.nation, 1))
                unit.start()
                self.units[ship.id] = unit
                self.side_units[i].append(unit)
        #: each side's ships other than submarines, largest first (targets and firing order)
        self.order = tuple(
            sorted(
                (u for u in units if u.vessel != "SS"),
                key=lambda u: (-u.capacity, -u.ship.tonnage),
            )
            for units in self.side_units
        )
        self.intents = tuple(self._intents(cond, i) for i in (0, 1))
        self._begin()

    def rematch(self, dice: Dice) -> FastPlayBattle:
        """The same battle fought again from its opening with other dice: what
        ``FastPlayBattle(self.setup, dice)`` would be (a test checks, battle for battle),
        without reading the set-up again — an odds preview fights thousands of battles from
        one set-up. The dice of the set-up (night visibility, finding the enemy) are rolled
        afresh. Only a battle not yet begun has its opening to give."""
        self.check_unbegun()
        return FastPlayBattle(self.setup, dice, opening=self)

    def _take_opening(self, opening: FastPlayBattle) -> None:
        """The set-up as ``opening`` (an unplayed battle of the same set-up) read it: its
        settings shared (only read), its ships as the set-up gives them."""
        self.cond = opening.cond
        self.year = opening.year
        self.night = opening.night
        self.bad_weather = opening.bad_weather
        self.sides = opening.sides
        self.names = opening.names
        self.radar = opening.radar
        self.smoke = opening.smoke
        self.single = opening.single
        self.armoured = opening.armoured
        self.intents = opening.intents
        self.units = {}
        self.side_units = ([], [])
        for i in (0, 1):
            for unit in opening.side_units[i]:
                mine = unit.afresh()
                self.units[mine.id] = mine
                self.side_units[i].append(mine)
        self.order = tuple([self.units[u.id] for u in line] for line in opening.order)

    def _begin(self) -> None:
        """What every battle starts from nothing, and the set-up's dice (night visibility,
        finding the enemy): done afresh for a rematch too."""
        self.range = self._start_range(self.cond)
        self.course: list[str] = [self.intent(0, 1), self.intent(1, 1)]
        self.turned = [0, 0]
        self.visibility = [0, 0]
        self.first = 0
        self.winner = ""
        self.raids: list[_Raid] = []
        self.kamikaze_flown: set[str] = set()  # kamikaze groups already rolled for
        self.lost_aircraft: dict[str, int] = {}
        self.turn_limit = int(self.cond["turn_limit"])
        self._setup_lines = self._night_setup() + self._locate()
        if self.raids:
            self.turn_limit = max(self.turn_limit, max(r.arrives for r in self.raids))

    # -- set-up -------------------------------------------------------------------------

    @staticmethod
    def _per_side(value: Any, i: int, default: Any) -> Any:
        if isinstance(value, Mapping):
            key = "ab"[i]
            return value.get(key, default)
        return default if value is None else value

    def _nation_flag(self, value: Any, i: int) -> bool:
        if isinstance(value, Mapping):
            side = self.sides[i]
            return bool(value.get("ab"[i], value.get(side.nation, False)))
        return bool(value)

    def _start_range(self, cond: Mapping[str, Any]) -> int:
        if "start_range" in cond:
            return max(MIN_RANGE, int(cond["start_range"]))
        if "start_band" in cond:
            return max(MIN_RANGE, int(str(cond["start_band"]).strip('"')))
        return MAX_RANGE + 1  # out of surface contact (an air battle)

    @staticmethod
    def _intents(cond: Mapping[str, Any], i: int) -> list[str]:
        value = (cond.get("intent") or {}).get("ab"[i], "close")
        out = [value] if isinstance(value, str) else list(value)
        for v in out:
            if v not in ("close", "hold", "open"):
                raise ValueError(f"intent {v!r}: use close, hold or open")
        return out or ["close"]

    def intent(self, i: int, turn: int) -> str:
        seq = self.intents[i]
        return seq[min(turn, len(seq)) - 1]

    def _night_setup(self) -> list[str]:
        if not self.night:
            return []
        lines = []
        for i in (0, 1):
            v = sum(self.dice.rolls(2, f"{self.names[i]} night visibility (2D6 inches)"))
            self.visibility[i] = v
            radar = f', radar {RADAR_RANGE}"' if self.radar[i] else ""
            lines.append(f'Night: {self.names[i]} visibility {v}"{radar}')
        return lines

    def _strike_groups(self, i: int) -> list[tuple[str, AirGroup]]:
        side = self.sides[i]
        out: list[tuple[str, AirGroup]] = []
        for ship in side.ships:
            if self.units[ship.id].in_line:
                out.extend((ship.id, g) for g in ship.air_groups)
        out.extend((g.base or "airfield", g) for g in side.air_groups)
        return out

    def _has_strike(self, i: int) -> bool:
        kamikaze = self.year >= KAMIKAZE_FROM
        return any(
            g.kind in BOMBERS or (kamikaze and g.kind == "kamikaze")
            for _, g in self._strike_groups(i)
            if counters(g.aircraft - g.lost)
        )

    def _locate(self) -> list[str]:
        """Locating the target and the raid track (RULE_NOTES 'Locating the target')."""
        searching = [i for i in (0, 1) if self._has_strike(i) and self.line(1 - i)]
        if not searching:
            return []
        lines: list[str] = []
        sector = [0, 0]
        for i in (0, 1):
            if 1 - i not in searching:
                continue
            given = self._per_side(self.cond.get("sector"), i, 0)
            sector[i] = int(given) if given else self.dice.roll(f"{self.names[i]} sector")
        found_dir = {i: False for i in searching}
        located: dict[int, int] = {}  # side → round it rolled its 6
        range_rolls = dict.fromkeys(searching, 0)  # side → dice it rolled for the range
        rnd = 0
        fixed_round = 0
        raid_turns = int(self.cond.get("raid_turns", RAID_TRACK_TURNS))
        counting = str(self.cond.get("locate_delay") or LOCATE_DELAYS[0])
        if counting not in LOCATE_DELAYS:
            raise ValueError(f"locate_delay {counting!r}: use {' or '.join(LOCATE_DELAYS)}")
        while len(located) < len(searching):
            rnd += 1
            if rnd > 200:
                break
            for i in searching:
                if i in located:
                    continue
                enemy = 1 - i
                if not found_dir[i]:
                    r = self.dice.roll(f"{self.names[i]} searches sector {sector[enemy]}")
                    found_dir[i] = r == sector[enemy]
                    continue
                r = self.dice.roll(f"{self.names[i]} locates at {RAID_TRACK_MILES} miles")
                range_rolls[i] += 1
                if r == 6:
                    located[i] = rnd
            if located and not fixed_round:
                fixed_round = rnd
        strikes = int(self.cond["strikes"])
        for i, rnd_found in located.items():
            # "The number of dice rolls it takes the second locating player to roll a '6' is
            # the number of game turns delay"; a six in the fixing round is no delay
            if rnd_found == fixed_round:
                delay = 0
            elif counting == "all_rolls":
                delay = range_rolls[i]
            else:
                delay = rnd_found - fixed_round + 1
            lines.append(
                f"{self.names[i]} locates the enemy ({RAID_TRACK_MILES} miles) in round "
                f"{rnd_found}: raid arrives turn {raid_turns + delay}"
                + (f" ({delay} turns behind)" if delay else "")
            )
            for k in range(strikes):
                self.raids.append(_Raid(i, raid_turns + delay + k * 2 * raid_turns))
        self.raids.sort(key=lambda r: (r.arrives, r.side))
        return lines

    # -- the protocol -------------------------------------------------------------------

    def play_turn(self) -> list[str]:
        lines: list[str] = []
        self.remember_last_turn()
        if self.turn == 1:
            lines.extend(self._setup_lines)
        lines.extend(self.initiative())
        order = (self.first, 1 - self.first)
        lines.extend(self.movement())
        arriving = [r for r in self.raids if r.arrives == self.turn]
        for raid in arriving:
            lines.extend(self.assemble(raid))
        for i in order:
            lines.extend(self.gunnery(i))
        plans: list[tuple[_Raid, dict[str, list[_Counter]]]] = []
        for i in order:
            for raid in arriving:
                if raid.side == i:
                    plan, air_lines = self.air_defence(raid)
                    lines.extend(air_lines)
                    plans.append((raid, plan))
        for raid, plan in plans:
            lines.extend(self.air_attacks(raid, plan))
        attacks, asw_lines = self.asw()
        lines.extend(asw_lines)
        for i in order:  # step 7, the initiative winner first: its ships', then its boats'
            lines.extend(self.torpedoes(i))
            lines.extend(self.submarine_attacks([a for a in attacks if a[0].side == i]))
        lines.extend(self.repair())
        lines.extend(self._check_end())
        return [f"Turn {self.turn}: {line}" for line in lines] if self.narrate else []

    def remember_last_turn(self) -> None:
        """Who fired or launched torpedoes at each ship: what this turn saw becomes last
        turn's, and older turns are forgotten (target priority reads the two)."""
        for u in self.units.values():
            u.fired_at_last, u.fired_at_by = u.fired_at_by, set()
            u.torpedoed_last, u.torpedoed_by = u.torpedoed_by, set()

    # -- 1. initiative ------------------------------------------------------------------

    def initiative(self) -> list[str]:
        self.dice.step = 1
        while True:
            a = self.dice.roll(f"{self.names[0]} initiative")
            b = self.dice.roll(f"{self.names[1]} initiative")
            if a != b:
                break
        self.first = 0 if a > b else 1
        return [f"initiative {a}-{b}: {self.names[self.first]} moves and fires first"]

    # -- 2. movement --------------------------------------------------------------------

    def side_rate(self, i: int) -> tuple[int, float]:
        moving = [u for u in self.side_units[i] if u.in_line and u.vessel != "SS" and u.rate]
        if not moving:
            return 0, 0.0
        slow = moving[0]  # the first of the slowest: the lowest rate, then the lowest speed
        for u in moving:
            if u.rate < slow.rate or (u.rate == slow.rate and u.speed < slow.speed):
                slow = u
        return max(0, slow.rate - self.turned[i]), slow.speed

    def movement(self) -> list[str]:
        self.dice.step = 2
        for u in self.units.values():
            if u.sub_rest:
                u.sub_rest -= 1
        new = [self.intent(i, self.turn) for i in (0, 1)]
        for i in (0, 1):
            old = self.course[i]
            if old == new[i]:
                self.turned[i] = 0
            elif "hold" in (old, new[i]):
                self.turned[i] = TURN_PENALTY[90]
            else:
                self.turned[i] = TURN_PENALTY[180]
            self.course[i] = new[i]
        if self.range > MAX_RANGE:
            return []
        rates = [self.side_rate(i) for i in (0, 1)]
        chooser = self.first
        if rates[0] != rates[1]:
            chooser = 0 if rates[0] > rates[1] else 1
        other = 1 - chooser
        want, other_want = new[chooser], new[other]
        r_c, r_o = rates[chooser][0], rates[other][0]
        change = 0
        if want != "hold":
            if other_want == want:
                change = r_c + r_o
            elif other_want == "hold":
                change = r_c
            else:
                change = max(0, r_c - r_o)
        sign = -1 if want == "close" else 1
        before = self.range
        self.range = max(MIN_RANGE, min(MAX_RANGE + 1, before + sign * change))
        turn_words = [
            f'{self.names[i]} turns ({self.turned[i]}" lost)' for i in (0, 1) if self.turned[i]
        ]
        line = (
            f'{self.names[chooser]} (the faster side, {r_c}") chooses to {want}: range '
            f'{before}" → {self.range}" ({band_name(self.range)})'
        )
        if self.range > MAX_RANGE:
            line += "; contact lost"
        return [*turn_words, line]

    def aspect(self, i: int) -> str:
        if self.turned[i] == TURN_PENALTY[180]:
            return "end-on"
        return "beam" if self.course[i] == "hold" else "oblique"

    # -- 3. gunnery ---------------------------------------------------------------------

    def line(self, i: int) -> list[_Unit]:
        return [u for u in self.side_units[i] if u.in_line and u.vessel != "SS"]

    def located(self, firer: int, target: _Unit) -> tuple[bool, bool]:
        """(can be fired on, needs the 5-6 radar identification roll)."""
        if not self.night:
            return True, False
        if target.revealed or self.range <= self.visibility[firer]:
            return True, False
        if self.radar[firer] and self.range <= RADAR_RANGE:
            return True, True
        return False, False

    def _targets(self, i: int) -> list[_Unit]:
        """Side ``i``'s enemies in the line, largest first."""
        return [u for u in self.order[1 - i] if not u.sunk and not u.withdrawn]

    def _in_sight(self, i: int) -> list[_Unit]:
        """Side ``i``'s enemies it can fire on, largest first."""
        enemies = self._targets(i)
        if self.night:
            enemies = [u for u in enemies if self.located(i, u)[0]]
        return enemies

    def choose_target(
        self, unit: _Unit, index: int, main: bool, enemies: list[_Unit] | None = None
    ) -> _Unit | None:
        """What a battery fires at (see RULE_NOTES); ``enemies`` is ``_in_sight``, when the
        caller already has it."""
        if enemies is None:
            enemies = self._in_sight(unit.side)
        if not enemies:
            return None
        for last, now in (
            (unit.torpedoed_last, unit.torpedoed_by),
            (unit.fired_at_last, unit.fired_at_by),
        ):
            # the first (largest) enemy in the line among those that torpedoed / fired at it
            if last or now:
                for u in enemies:
                    if u.id in last or u.id in now:
                        return u
        if main:
            return enemies[index % len(enemies)]
        return enemies[-1]

    def gunnery(self, i: int) -> list[str]:
        self.dice.step = 3
        lines: list[str] = []
        reduced = self.night or self.bad_weather
        distance = self.range
        radar = self.radar[i]
        end_on = self.aspect(i) == "end-on"
        enemies = self._in_sight(i)  # seen again whenever one sinks
        for index, unit in enumerate(self._targets(1 - i)):
            for b, (calibre, guns) in enumerate(unit.batteries):
                if unit.sunk or unit.withdrawn:
                    break
                if not table_dice(calibre, distance):
                    continue
                target = self.choose_target(unit, index, b == 0, enemies)
                if target is None:
                    continue
                n = battery_dice(
                    calibre,
                    distance,
                    guns,
                    main=b == 0,
                    reduced_visibility=reduced or self.smoke[target.side],
                    radar=radar,
                    single_mounts=unit.id in self.single,
                    target_stopped=target.rate == 0,
                    end_on=end_on,
                    damage=unit.retained,
                )
                if n == 0:
                    continue
                _, identify = self.located(i, target)
                if identify:
                    r = self.dice.roll(f"{unit.name} identifies radar target")
                    if r < 5:
                        lines.append(f"{unit.name} holds fire on a radar contact ({r})")
                        continue
                who = "main" if b == 0 else "secondary"
                rolls = self.dice.rolls(n, f"{unit.name} {who} {unit.calibres[b]} at {target.name}")
                unit.revealed = True
                target.fired_at_by.add(unit.id)
                hits = rolls.count(6)
                if self.narrate:
                    lines.append(
                        f"{unit.name} {who} battery ({guns} x {calibre:g}in, {n}D6) at "
                        f'{target.name} ({self.range}"): {_show(rolls)} - '
                        f"{hits} hit{'s' if hits != 1 else ''}"
                    )
                for _ in range(hits):
                    if target.sunk:
                        break
                    text = self.gun_hit(unit, calibre, target)
                    if self.narrate:
                        lines.append(text)
                if target.sunk:
                    enemies = self._in_sight(i)
        return lines

    def gun_hit(self, firer: _Unit, calibre: float, target: _Unit) -> str:
        """One gun hit: its damages and, where the rules want one, the sink test ("" when
        the battle is not narrated)."""
        rolls = [self.dice.roll(f"damages on {target.name}")]
        if heavy_extra(calibre, target.vessel):
            rolls.append(self.dice.roll(f"heavy calibre damages on {target.name}"))
        n = hit_damages(calibre, target.vessel, rolls)
        self.add_damage(target, n)
        now = target.damage
        test = self.sink_test(target) if gun_sink_test(calibre, target.vessel) else ""
        if not self.narrate:
            return ""
        what = f"{target.name} hit by {calibre:g}in"
        return f"{what}: {n} damage{'s' if n != 1 else ''} ({now} now){test}"

    def add_damage(self, unit: _Unit, n: int) -> None:
        unit.damage += n
        if unit.damage > unit.worst:
            unit.worst = unit.damage

    def sink_test(self, unit: _Unit) -> str:
        """2D6: a double sinks the ship. Returns the words ("" when not narrated)."""
        pair = self.dice.rolls(2, f"sink test on {unit.name}")
        double = is_double(pair)
        if double:
            self.sink(unit, f"sink test {pair[0]}-{pair[1]}")
        if not self.narrate:
            return ""
        return f"; sink test {pair[0]}-{pair[1]}" + (": SUNK" if double else "")

    def sink(self, unit: _Unit, why: str) -> None:
        unit.sunk = True
        unit.notes.append(f"turn {self.turn}: sunk ({why})")

    # -- 4-5. air -------------------------------------------------------------------------

    def assemble(self, raid: _Raid) -> list[str]:
        self.dice.step = 2
        i = raid.side
        historical = bool(self.cond.get("historical_strike", False))
        parts = []
        for base, g in self._strike_groups(i):
            if g.kind not in BOMBERS and g.kind not in ("fighter", "kamikaze"):
                continue
            avail = counters(g.aircraft - g.lost) - self.lost_aircraft.get(g.id, 0) // 4
            if avail <= 0:
                continue
            if g.kind == "kamikaze":
                # "1D6 roll for the number of attacks per GAME": one roll, the first raid
                if self.year < KAMIKAZE_FROM or g.id in self.kamikaze_flown:
                    continue
                self.kamikaze_flown.add(g.id)
            if historical:
                n = avail
            else:
                n = assembled(self.dice.roll(f"{g.name or g.id} serviceable counters"), avail)
            factor = aircraft_factor(g, self.year)
            raid.counters.extend(_Counter(g, i, base, g.kind, factor) for _ in range(n))
            parts.append(f"{n} {g.name or g.id}")
        return [f"{self.names[i]} raid arrives: " + (", ".join(parts) or "nothing serviceable")]

    def _lose(self, c: _Counter) -> None:
        c.alive = False
        self.lost_aircraft[c.group.id] = self.lost_aircraft.get(c.group.id, 0) + COUNTER_AIRCRAFT

    def _air_dice(self, n: int, purpose: str, bonus: int) -> list[int]:
        return [min(6, r + bonus) for r in self.dice.rolls(n, purpose)]

    def air_defence(self, raid: _Raid) -> tuple[dict[str, list[_Counter]], list[str]]:
        """Step 4: CAP against the raid, then AA; returns the bombers at each target."""
        self.dice.step = 4
        i, d = raid.side, 1 - raid.side
        lines: list[str] = []
        cap_groups = [g for _, g in self._strike_groups(d) if g.kind == "fighter"]
        # fighters not flying with a raid this turn fly CAP (counter by counter)
        launched = Counter(
            c.group.id for r in self.raids if r.arrives == self.turn for c in r.counters
        )
        cap = [
            _Counter(g, d, g.base, g.kind, aircraft_factor(g, self.year))
            for g in cap_groups
            for _ in range(
                max(
                    0,
                    counters(g.aircraft - g.lost)
                    - self.lost_aircraft.get(g.id, 0) // 4
                    - launched[g.id],
                )
            )
        ]
        escorts = [c for c in raid.counters if c.kind == "fighter"]
        kinds = {"torpedo_bomber": 0, "dive_bomber": 1, "level_bomber": 2, "kamikaze": 3}
        bombers = sorted(
            (c for c in raid.counters if c.kind != "fighter"), key=lambda c: kinds[c.kind]
        )
        opponents = [*escorts, *bombers]
        engaged: set[int] = set()
        allied_1944 = self.year >= 1944
        for k, defender in enumerate(cap):
            if k >= len(opponents):
                break
            attacker = opponents[k]
            engaged.add(id(attacker))
            bonus_a = (
                1
                if allied_1944
                and self.sides[i].nation not in AXIS
                and (self.sides[d].nation == "japan")
                else 0
            )
            bonus_d = (
                1
                if allied_1944
                and self.sides[d].nation not in AXIS
                and (self.sides[i].nation == "japan")
                else 0
            )
            ra = self._air_dice(attacker.factor, f"{attacker.group.id} air combat", bonus_a)
            rd = self._air_dice(defender.factor, f"CAP {defender.group.id} air combat", bonus_d)
            text = f"CAP {defender.group.id} ({_show(rd)}) v {attacker.group.id} ({_show(ra)})"
            if 6 in rd or 6 in ra:
                if 6 in rd:
                    self._lose(attacker)
                    text += f": {attacker.group.id} counter shot down"
                if 6 in ra:
                    self._lose(defender)
                    text += f": CAP {defender.group.id} counter shot down"
            elif max(rd) > max(ra):
                attacker.alive = False  # driven off, returns to base
                text += f": {attacker.group.id} driven off"
            elif max(ra) > max(rd):
                text += ": CAP driven off"
            lines.append(text)
        strike = [c for c in bombers if c.alive]
        free_escorts = [c for c in escorts if c.alive and id(c) not in engaged]
        plan = self._plan(i, strike)
        suppressed = self._suppress(d, free_escorts, plan, lines)
        defenders = [u for u in self.line(d) if u.id not in suppressed or u.id in plan]
        not_targets = [u for u in defenders if u.id not in plan]
        share: dict[str, list[_Unit]] = {t: [self.units[t]] for t in plan}
        keys = list(plan)
        for k, u in enumerate(not_targets):
            if keys:
                share[keys[k % len(keys)]].append(u)
        for tid, attackers in plan.items():
            guided = [c for c in attackers if _guided(c.group)]
            exposed = [c for c in attackers if not _guided(c.group) and c.kind != "kamikaze"]
            n = sum(max(0, aa_factor(u.vessel, self.year) - u.retained) for u in share[tid])
            if not exposed or n == 0:
                continue
            rolls = self.dice.rolls(n, f"AA over {self.units[tid].name}")
            sixes = rolls.count(6)
            for c in exposed[:sixes]:
                self._lose(c)
            lines.append(
                f"AA over {self.units[tid].name} ({n}D6) {_show(rolls)}: "
                f"{min(sixes, len(exposed))} counter(s) removed"
            )
            plan[tid] = [*[c for c in exposed if c.alive], *guided]
            plan[tid] += [c for c in attackers if c.kind == "kamikaze"]
        return plan, lines

    def _plan(self, i: int, strike: list[_Counter]) -> dict[str, list[_Counter]]:
        targets = sorted(
            self.line(1 - i),
            key=lambda u: (u.vessel not in ("CV", "CVL", "CVE"), -u.capacity, -u.ship.tonnage),
        )
        plan: dict[str, list[_Counter]] = {}
        if not targets:
            return plan
        bases: list[str] = []
        for c in strike:
            if c.base not in bases:
                bases.append(c.base)
        for c in strike:
            t = targets[bases.index(c.base) % len(targets)]
            plan.setdefault(t.id, []).append(c)
        return plan

    def _suppress(
        self, d: int, escorts: list[_Counter], plan: Mapping[str, list[_Counter]], lines: list[str]
    ) -> set[str]:
        light = [u for u in self.line(d) if u.vessel in ("DD", "DE", "CL") and u.id not in plan]
        out = set()
        for c, u in zip(escorts, light, strict=False):
            out.add(u.id)
            lines.append(f"{c.group.id} fighters suppress {u.name}'s AA")
        return out

    def air_attacks(self, raid: _Raid, plan: Mapping[str, list[_Counter]]) -> list[str]:
        self.dice.step = 5
        lines: list[str] = []
        for tid, attackers in plan.items():
            target = self.units[tid]
            for c in attackers:
                if target.sunk or not c.alive:
                    continue
                name = c.group.id
                if c.kind == "kamikaze":
                    att = self.dice.rolls(KAMIKAZE_DICE, f"kamikaze {name} at {target.name}")
                    n = max(0, aa_factor(target.vessel, self.year) - target.retained)
                    dfn = self.dice.rolls(n, f"{target.name} AA v kamikaze") if n else []
                    c.alive = False
                    self._lose(c)
                    if roll_off_hits(att, dfn):
                        lines.append(f"kamikaze {name} strikes {target.name}")
                        lines.append(self.gun_hit_no_sink(12.0, target))
                    else:
                        lines.append(f"kamikaze {name} misses {target.name}")
                    continue
                base = GUIDED_DICE if _guided(c.group) else AIR_ATTACK_DICE
                att = self.dice.rolls(base, f"{name} attacks {target.name}")
                dfn = self.dice.rolls(base, f"{target.name} evades {name}")
                hits = roll_off_hits(att, dfn)
                lines.append(
                    f"{name} at {target.name}: {_show(att)} v {_show(dfn)} - {hits} hit(s)"
                )
                for _ in range(hits):
                    if target.sunk:
                        break
                    lines.append(self.air_hit(c, target))
        return lines

    def gun_hit_no_sink(self, calibre: float, target: _Unit) -> str:
        rolls = [self.dice.roll(f"damages on {target.name}")]
        if heavy_extra(calibre, target.vessel):
            rolls.append(self.dice.roll(f"heavy calibre damages on {target.name}"))
        n = hit_damages(calibre, target.vessel, rolls)
        self.add_damage(target, n)
        return f"{target.name}: {n} damages ({target.damage} now)"

    def air_hit(self, c: _Counter, target: _Unit) -> str:
        n = self.dice.roll(f"damages on {target.name}")
        torpedo = c.kind == "torpedo_bomber"
        if not torpedo and self._armoured(target):
            n = half_up(n)
        self.add_damage(target, n)
        text = f"{target.name} hit by {'torpedo' if torpedo else 'bomb'}: {n} damages"
        if torpedo or target.vessel not in ("BA", "BB", "BC", "CV", "CVL", "YAMATO"):
            text += self.sink_test(target)
        return text

    def _armoured(self, u: _Unit) -> bool:
        if u.vessel in ("BA", "BB", "BC", "YAMATO"):
            return True
        carrier = u.vessel in ("CV", "CVL", "CVE")
        return carrier and (u.ship.deck >= 3.0 or u.id in self.armoured)

    # -- 6-7. ASW, torpedoes ------------------------------------------------------------

    def asw(self) -> tuple[list[tuple[_Unit, _Unit]], list[str]]:
        self.dice.step = 6
        attacks: list[tuple[_Unit, _Unit]] = []
        lines: list[str] = []
        for i in (self.first, 1 - self.first):
            for sub in self.side_units[i]:
                if sub.vessel != "SS" or sub.sunk or sub.sub_rest or sub.salvos <= 0:
                    continue
                targets = self._targets(i)
                if not targets:
                    continue
                target = targets[0]
                screen = sorted(
                    (u for u in self.line(1 - i) if u.vessel in ("DD", "DE")),
                    key=lambda u: u.retained,
                )[: int(self.cond.get("asw_screen", ASW_SCREEN))]
                outcome = "presses home"
                if screen:
                    asw = self.dice.rolls(len(screen), f"ASW against {sub.name}")
                    evade = self.dice.rolls(len(screen), f"{sub.name} evades")
                    if 6 in asw:
                        self.sink(sub, "ASW")
                        outcome = "is sunk"
                    elif any(a >= s for a, s in zip(asw, evade, strict=True)):
                        sub.sub_rest = 2
                        outcome = "is driven off"
                    lines.append(
                        f"ASW ({', '.join(u.name for u in screen)}) {_show(asw)} v "
                        f"{sub.name} {_show(evade)}: {sub.name} {outcome}"
                    )
                if outcome == "presses home":
                    attacks.append((sub, target))
        return attacks, lines

    def submarine_attacks(self, attacks: list[tuple[_Unit, _Unit]]) -> list[str]:
        self.dice.step = 7
        lines = []
        for sub, target in attacks:
            if target.sunk:
                continue
            n = torpedo_dice(1, 2, night=self.night, damage=sub.retained)
            lines.extend(self._salvo(sub, target, n))
        return lines

    def torpedoes(self, i: int) -> list[str]:
        self.dice.step = 7
        lines = []
        # enemies seen without radar (who is seen does not change while torpedoes run)
        seen = [u for u in self._targets(i) if self.located(i, u) == (True, False)]
        for unit in self.line(i):
            if unit.salvos <= 0 or not unit.in_line:
                continue
            max_range = TORPEDO_RANGE.get(unit.ship.nation, TORPEDO_RANGE_DEFAULT)
            if self.range > max_range:
                continue
            target = next((u for u in seen if not u.sunk), None)
            if target is None:
                continue
            n = torpedo_dice(
                self.range,
                max_range,
                night=self.night,
                aspect=self.aspect(1 - i),
                target_slow=target.rate * 3 < MOVEMENT[target.vessel],
                damage=unit.retained,
                base=MTB_DICE if unit.vessel == "MTB" else TORPEDO_DICE,
            )
            unit.salvos -= 1
            target.torpedoed_by.add(unit.id)
            if n == 0:
                lines.append(f"{unit.name} torpedoes at {target.name}: no dice")
                continue
            lines.extend(self._salvo(unit, target, n))
        return lines

    def _salvo(self, unit: _Unit, target: _Unit, n: int) -> list[str]:
        att = self.dice.rolls(n, f"{unit.name} torpedoes at {target.name}")
        dfn = self.dice.rolls(n, f"{target.name} evades torpedoes")
        hits = roll_off_hits(att, dfn)
        lines = (
            [
                f"{unit.name} torpedoes ({n}D6) at {target.name}: {_show(att)} v "
                f"{_show(dfn)} - {hits} hit(s)"
            ]
            if self.narrate
            else []
        )
        if unit.vessel == "SS":
            unit.salvos -= 1
        for _ in range(hits):
            if target.sunk:
                break
            d = self.dice.roll(f"torpedo damages on {target.name}")
            self.add_damage(target, d)
            test = self.sink_test(target)
            if self.narrate:
                lines.append(f"{target.name} torpedoed: {d} damages{test}")
        return lines

    # -- 8. repair, morale ---------------------------------------------------------------

    def repair(self) -> list[str]:
        self.dice.step = 8
        lines = []
        for unit in self.units.values():
            if unit.sunk or unit.withdrawn or unit.damage <= 0:
                continue
            r = self.dice.roll(f"{unit.name} damage control")
            before = unit.damage
            unit.damage = max(0, unit.damage - r)
            unit.retained = unit.damage
            text = f"{unit.name} repairs {r}: {before} → {unit.damage} damages"
            if unit.damage >= unit.capacity:
                self.sink(unit, f"{unit.damage} damages, capacity {unit.capacity}")
                text += f" - lost (capacity {unit.capacity})"
            elif unit.damage * 2 >= unit.capacity:
                pair = self.dice.rolls(2, f"{unit.name} morale")
                if sum(pair) < unit.damage:
                    unit.withdrawn = True
                    unit.notes.append(f"turn {self.turn}: withdrew (morale)")
                    text += f"; morale {pair[0]}+{pair[1]}: withdraws"
                else:
                    text += f"; morale {pair[0]}+{pair[1]}: stays in the line"
            if self.narrate:
                lines.append(text)
        return lines

    # -- the end --------------------------------------------------------------------------

    def _can_fight(self, i: int) -> bool:
        """Side ``i`` has ships in the line, a submarine or a raid still to come."""
        return (
            bool(self.line(i))
            or any(u.vessel == "SS" and not u.sunk for u in self.side_units[i])
            or any(r.side == i and r.arrives > self.turn for r in self.raids)
        )

    def _check_end(self) -> list[str]:
        raids_due = any(r.arrives > self.turn for r in self.raids)
        reason = ""
        if not self.line(0) and not self.line(1):
            reason = "neither side has ships in the battle line"
        elif not self._can_fight(0) or not self._can_fight(1):
            reason = "a side has nothing left to fight with"
        elif self.range > MAX_RANGE and not raids_due:
            reason = "the forces are out of contact"
        elif self.turn >= self.turn_limit:
            reason = f"turn limit ({self.turn_limit})"
        if not reason:
            return []
        self._finished = True
        lost = [sum(u.capacity for u in self.side_units[i] if u.sunk) for i in (0, 1)]
        if lost[0] != lost[1]:
            self.winner = "a" if lost[1] > lost[0] else "b"
        else:
            left = [bool(self.line(i)) for i in (0, 1)]
            self.winner = "" if left[0] == left[1] else ("a" if left[0] else "b")
        who = {"a": self.names[0], "b": self.names[1]}.get(self.winner, "")
        return [
            f"The battle ends after turn {self.turn}: {reason}. Capacity sunk: "
            f"{self.names[0]} {lost[0]}, {self.names[1]} {lost[1]}. "
            + (f"Winner: {who}." if who else "No decision.")
        ]

    def result(self) -> BattleResult:
        ships: dict[str, Ship] = {}
        for sid, unit in self.units.items():
            out = unit.ship.copy()
            out.notes += unit.notes
            out.state = _state(unit)
            out.damage = unit.capacity if unit.sunk else unit.damage
            ships[sid] = out
        groups: dict[str, AirGroup] = {}
        for side in self.sides:
            for g in [*(g for s in side.ships for g in s.air_groups), *side.air_groups]:
                o = g.copy()
                o.lost = min(g.aircraft, g.lost + self.lost_aircraft.get(g.id, 0))
                groups[g.id] = o
        for ship in ships.values():
            ship.air_groups = [groups[g.id] for g in ship.air_groups]
        return BattleResult(self.rule_set, self.turn, self.winner, ships, groups, list(self.log))

    def outcome(self) -> tuple[str, dict[str, str]]:
        return self.winner, {sid: _state(unit) for sid, unit in self.units.items()}


def _state(unit: _Unit) -> str:
    """A ship's state at the end: sunk; crippled (withdrawn, or half its damage capacity
    gone); damaged; or undamaged."""
    if unit.sunk:
        return "sunk"
    if unit.withdrawn or unit.damage * 2 >= unit.capacity:
        return "crippled"
    return "damaged" if unit.worst > 0 else "undamaged"


def _guided(group: AirGroup) -> bool:
    model = group.model.upper().replace(" ", "")
    return "HS293" in model or "BAT" in model.split("/")


def _show(values: Sequence[int]) -> str:
    return "[" + " ".join(str(v) for v in values) + "]"


@register(RULE_SET)
def fastplay_battle(setup: BattleSetup, dice: Dice) -> FastPlayBattle:
    """The ``fastplay`` rule set: *World War 2 Naval Fast Play Rules*."""
    return FastPlayBattle(setup, dice)
