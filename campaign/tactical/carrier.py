"""*A Terrible Resolve* — fast play rules for the Battle of Midway (seed 003), by Matt Fritz.

A carrier battle fought in turns of fourteen steps (the seed's "Sequence of Play", kept as
:data:`SEQUENCE`). Side ``a`` of the :class:`~campaign.tactical.BattleSetup` takes the
Japanese half of each step and side ``b`` the American half::

    1. Japanese Land Planes      2. Americans Land Planes
    3. Japanese Move Planes      4. Americans Move Planes
    5. Japanse CAP Attacks       6. Americans CAP Attackse
    7. Japanese Carrier Attacks  8. Americans Carrier Attacks
    9. Japanese Launch Planes   10. Americans Launch Planes
   11. Japanese Planning Phas   12. Americans Planning Phase
   13. Japanese Repair Damage   14. Americans Repair Damage

Air power is counted in the seed's **groups**: *"One plane model was used to represent a
group of fighters or bombers ... five circles to represent the strength of the group"*. A
set-up's :class:`~campaign.tactical.AirGroup` gives a squadron's strength points in
``aircraft`` (one point for one aircraft); the battle cuts it into :class:`Counter` groups of
up to five points (``VB-6/1`` … ``VB-6/4`` for a squadron of 20). Each counter goes round the
box circuit *Moving to Attack → Ready to Attack → Attacking → Heading Home → Waiting to
Land*, or flies CAP in the rings of the CAP box, and is landed, spotted on a flight deck and
launched again.

The seed is written for players: it says what *may* be done, not what *should* be. The
battle's automatic commanders make those choices by the fixed policy in :data:`COMMANDER`
(what to spot, which carrier to attack, which CAP squadrons fight the escorts) — each choice
and every reading of an ambiguous passage is a line of :data:`RULE_NOTES`.

Every die comes from the injected :class:`~campaign.dice.Dice`, in a documented order (see
each phase's docstring), so a :class:`~campaign.dice.ScriptedDice` test can follow a battle
roll by roll.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any, Final

from ..dice import Dice
from . import (
    AirGroup,
    BattleResult,
    BattleSetup,
    Ship,
    Spec,
    by_ship,
    one_of,
    register,
    shape,
    whole,
)
from .turns import TurnBattle

RULE_SET: Final = "carrier"

# ---------------------------------------------------------------------------------------
# The seed's tables as data
# ---------------------------------------------------------------------------------------

#: The "Ship Data" table as printed: carrier → (AA Fire, Repair Damage, Fighters, Torpedo
#: Bombers, Dive Bombers); the last three in groups (plane models) of five strength points.
SHIP_DATA: Final[dict[str, tuple[int, str, int, int, int]]] = {
    "Enterprise": (16, "5-6", 5, 3, 8),
    "Hornet": (12, "5-6", 3, 5, 8),
    "Yorktown": (12, "4-6", 3, 5, 8),
    "Hiryu": (7, "6", 4, 4, 4),
    "Soryu": (6, "6", 4, 4, 4),
    "Akagi": (7, "6", 4, 4, 4),
    "Kaga": (9, "6", 6, 6, 5),
}

#: AA guns (ships.csv counts heavy and light AA guns) per AA die for carriers not in
#: the Ship Data table: Enterprise carried about 48 such guns in 1942 and has 16 dice.
AA_GUNS_PER_DIE: Final = 3


def adapt(setup: BattleSetup) -> BattleSetup:
    """Campaign ships in this rule set's terms: a carrier's AA is rolled in dice (the Ship
    Data table's, where the seed lists the ship; else one die per ``AA_GUNS_PER_DIE`` AA
    guns, at least 2), its air groups are counted in strength points of one aircraft each
    (as the seed's counters), and it sinks at 10 damage."""
    for side in (setup.a, setup.b):
        for ship in side.ships:
            if ship.type not in ("carrier", "light_carrier", "escort_carrier"):
                continue
            row = SHIP_DATA.get(ship.name)
            ship.aa = row[0] if row else max(2, round(ship.aa / AA_GUNS_PER_DIE))
            ship.damage_capacity = ship.damage_capacity or 10
    return setup


#: "Sequence of Play": (step, side index — 0 is side a, the Japanese half — phase)
SEQUENCE: Final[tuple[tuple[int, int, str], ...]] = (
    (1, 0, "Land Planes"),
    (2, 1, "Land Planes"),
    (3, 0, "Move Planes"),
    (4, 1, "Move Planes"),
    (5, 0, "CAP Attacks"),
    (6, 1, "CAP Attacks"),
    (7, 0, "Carrier Attacks"),
    (8, 1, "Carrier Attacks"),
    (9, 0, "Launch Planes"),
    (10, 1, "Launch Planes"),
    (11, 0, "Planning Phase"),
    (12, 1, "Planning Phase"),
    (13, 0, "Repair Damage"),
    (14, 1, "Repair Damage"),
)

#: CAP and escort fire: "Cross out one strength point ... for every 4, 5, or 6 rolled."
AIR_TO_AIR_HIT: Final = 4
#: AA: "The Carrier scores one hit for every 4, 5, or 6 rolled."
AA_HIT: Final = 4
#: Dive-Bombers: "Every 5 or 6 scores one hit against the carrier."
DIVE_HIT: Final = 5
#: Torpedo-Bombers: "A roll of 6 scores 2 hits on the carrier."
TORPEDO_SIX_HITS: Final = 2
#: both: "Re-roll any 6's and if it comes up 6 again score another hit"
RE_ROLL_FACE: Final = 6
#: the average hits of one strength point of either kind of bomber: 1/6 + (1/6)(1 + 1/5)
#: for a dive bomber, (1/6)(2 + 1/5) for a torpedo bomber — both 11/30
EXPECTED_HITS_PER_POINT: Final = 11 / 30

#: the seed's numbers a set-up's ``conditions`` may change (the defaults are the seed's)
DEFAULTS: Final[dict[str, Any]] = {
    "group_strength": 5,  # "five circles to represent the strength of the group"
    "land_per_turn": 20,  # "can land 20 strenght points of planes"
    "launch_per_turn": 20,  # "A carrier may launch up to 20 strength points of planes"
    "crippled_at": 7,  # "Each carrier is crippled when it has 7 damage points"
    "sunk_at": 10,  # "and sinks at 10 damage points"
    "cap_rings": 3,  # the centre circle and two rings (the printed box is not in the text)
    "searching_side": "b",  # "At the start of the game the Americans are looking"
    "search_groups": 4,  # "they should be divided into 4 search groups"
    "returning_side": "a",  # "Eight bombers from each Japanese carrier ..."
    "returning_bombers_per_carrier": 0,  # 8 in the Midway set-up
    "turn_limit": 30,  # not in the seed
    # who is "in the dogfight" when CAP has fewer groups than the escorts: "paired" (as many
    # escort groups as CAP groups, the strongest) or "all_escorts" (every escort group)
    "dogfight": "paired",
    # what one AA hit shoots down: "strength_point" (one circle, as a CAP hit) or "group"
    # (a whole plane model); RULE_NOTES says why the first follows the text
    "aa_hits": "strength_point",
    # when a side breaks off: "never" (the seed's battle reports) or "no_working_carrier"
    # (a side left with only crippled carriers and no strike on its way withdraws)
    "break_off": "never",
    "repair": {},  # ship id → "Repair Damage" cell ("6", "5-6", "4-6")
    "commander": {},  # overrides of COMMANDER
}

#: every condition a set-up may give (docs/battle-setups.md lists them)
CONDITIONS: Final[dict[str, str]] = {
    "group_strength": "strength points of a full group (5: 'five circles')",
    "land_per_turn": "strength points a carrier lands in a turn (20)",
    "launch_per_turn": "strength points a carrier launches in a turn (20)",
    "crippled_at": "damage points that cripple a carrier (7)",
    "sunk_at": "damage points that sink a carrier (10; Ship.damage_capacity overrides)",
    "cap_rings": "the CAP box: the centre circle and its rings (3)",
    "searching_side": "'a' or 'b': the side still looking for the enemy fleet ('b'); '' none",
    "search_groups": "search groups the searching side's first wave splits into (4)",
    "returning_side": "'a' or 'b': the side whose first strike is coming home ('a')",
    "returning_bombers_per_carrier": "bomber groups per carrier placed Waiting to Land (0)",
    "turn_limit": "turns after which the battle ends (30)",
    "dogfight": "'paired' (as many escort groups as CAP groups fight) or 'all_escorts'",
    "aa_hits": "what an AA hit shoots down: 'strength_point' (one point, the default) or "
    "'group' (a whole group of five)",
    "break_off": "'never' (the default: the battle goes on while both sides have a carrier "
    "afloat) or 'no_working_carrier' (a side with only crippled carriers left and no strike "
    "on its way withdraws, ending the battle)",
    "repair": "ship id -> 'Repair Damage' cell ('6', '5-6', '4-6'); else the Ship Data table",
    "commander": "overrides of the automatic commanders: cap_groups_per_carrier (2), "
    "escorts_per_launch (1)",
}

#: what each condition may be (a set-up is checked whole before a battle is made): the
#: seed's figures with room to spare, and never a figure that would divide by nothing
CHECKS: Final[dict[str, Spec]] = {
    "group_strength": whole(1, 50),
    "land_per_turn": whole(0, 1000),
    "launch_per_turn": whole(0, 1000),
    "crippled_at": whole(1, 1000),
    "sunk_at": whole(1, 1000),
    "cap_rings": whole(1, 10),
    "searching_side": one_of("a", "b", "", None),
    "search_groups": whole(1, 20),
    "returning_side": one_of("a", "b", "", None),
    "returning_bombers_per_carrier": whole(0, 100),
    "turn_limit": whole(1, 200),
    "dogfight": one_of("paired", "all_escorts"),
    "aa_hits": one_of("strength_point", "group"),
    "break_off": one_of("never", "no_working_carrier"),
    "repair": by_ship(one_of("6", "5-6", "4-6", "3-6", "2-6", "1-6")),
    "commander": shape(
        {"cap_groups_per_carrier": whole(0, 10), "escorts_per_launch": whole(0, 10)}
    ),
}


def check_together(conditions: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """A carrier is crippled before (or as) it sinks."""
    crippled = conditions.get("crippled_at", DEFAULTS["crippled_at"])
    sunk = conditions.get("sunk_at", DEFAULTS["sunk_at"])
    if crippled > sunk:
        yield "conditions.crippled_at", f"{crippled} is more than sunk_at ({sunk})"


#: the automatic commanders' fixed policy (a set-up may override under
#: ``conditions["commander"]``)
COMMANDER: Final[dict[str, int]] = {
    # keep this many fighter groups on CAP per working carrier: two, the "powerful fighter
    # umbrella" of 003's Battle 1 (one left both sides' last carriers open to the same
    # turn's strikes in a quarter of Midways; docs/rules-notes.md)
    "cap_groups_per_carrier": 2,
    "escorts_per_launch": 1,  # fighter groups spotted with each launch of bombers
}

#: "Repair Damage: ... Japanese carriers may repair one point if they roll a 6"
DEFAULT_REPAIR: Final = "6"

CARRIER_TYPES: Final = ("carrier", "light_carrier", "escort_carrier")
FIGHTER: Final = "fighter"
DIVE: Final = "dive_bomber"
TORPEDO: Final = "torpedo_bomber"
BOMBERS: Final = (DIVE, TORPEDO)
PLAYING_KINDS: Final = (FIGHTER, DIVE, TORPEDO)

# the boxes
ABOARD: Final = "aboard"
DECK: Final = "flight deck"
CAP: Final = "CAP"
MOVING: Final = "Moving to Attack"
READY: Final = "Ready to Attack"
ATTACKING: Final = "Attacking"
HOME: Final = "Heading Home"
WAITING: Final = "Waiting to Land"
DESTROYED: Final = "destroyed"
#: "The sequence of movement: Moving to Attack Box, Ready to Attack Box, Attacking Box,
#: Heading Home Box, Waiting to Land Box."
CIRCUIT: Final = (MOVING, READY, ATTACKING, HOME, WAITING)
AIRBORNE: Final = (CAP, MOVING, READY, ATTACKING, HOME, WAITING)
ATTACK_CIRCUIT: Final = (MOVING, READY, ATTACKING)

RULE_NOTES: Final[tuple[str, ...]] = (
    "Sequence of Play: side a of a set-up takes the Japanese half of each step ('1. Japanese "
    "Land Planes', '3. Japanese Move Planes' ...) and side b the American half, so any two "
    "carrier forces can fight; a carrier's AA dice are Ship.aa and its sinking figure "
    "Ship.damage_capacity.",
    "Ship Data: the table gives Enterprise 16 AA dice, but the Carrier Attacks text says "
    "'(Soryu 6, Akagi & Hiryu 7, Kaga 9, Hornet & Yorktown 12, Enterprise 12)'. The table is "
    "used (16): it is the ship data the counters carry, and the text lists Enterprise apart "
    "from 'Hornet & Yorktown 12' as if her figure were different.",
    "Ship Data columns 'Fighters', 'Torpedo Bombers', 'Dive Bombers' count plane models: "
    "'One plane model was used to represent a group of fighters or bombers ... five circles to "
    "represent the strength of the group'. A group is 5 strength points, one point per "
    "aircraft, so Enterprise's 8 dive bomber groups are 40 points (VB-6 20 and VS-6 20). A "
    "set-up's AirGroup.aircraft is its strength points; the battle cuts it into groups of up "
    "to 5 (conditions 'group_strength').",
    "'Each carrier is crippled when it has 7 damage points, and sinks at 10 damage points': "
    "Ship.damage_capacity is the sinking figure (10 in the seed); for a ship with another "
    "capacity the crippling figure is scaled, ceil(capacity x 7 / 10).",
    "'A carrier may never have more than ten unmarked damage circles': damage never goes "
    "below 0 (a repair roll is made only by a carrier that has damage) and is never counted "
    "above the sinking figure.",
    "Crippled: 'A crippled carrier can be repaired during the Repair Damage phase' — a repair "
    "that takes a carrier below 7 damage makes it operational again; its AA fires whether "
    "crippled or not (the seed does not reduce it).",
    "Repair Damage: 'Japanese carriers may repair one point if they roll a 6. The Enterprise "
    "and Hornet ... 5 or 6. The Yorktown ... 4, 5, or 6.' The Ship Data cell ('6', '5-6', "
    "'4-6') is kept per ship under conditions 'repair'; a carrier not listed there uses its "
    "Ship Data row by name, else '6'.",
    "Set Up: 'Eight bombers from each Japanese carrier should be placed in their \"Ready to "
    "Land\" box' — read as the Waiting to Land box (the only landing box the rules name) and "
    "as eight bomber groups: all of Akagi's, Soryu's and Hiryu's; Kaga (6 torpedo, 5 dive) "
    "puts in 4 torpedo and 4 dive bomber groups, taken alternately torpedo then dive. 'They "
    "must be landed before new planes can be launched' is kept by the planning policy: a "
    "carrier keeps its deck clear while any of its own planes wait to land.",
    "Land Planes: 'can land 20 strenght points of planes (up to four full strength groups)' — "
    "whole groups only, its own groups first; a group whose own carrier is crippled or sunk may "
    "land on any working carrier of its side (Battle 2: the Japanese pilots knew there would "
    "be 'no Japanese carriers for them to land on' — any carrier would have done). Landed "
    "groups go below (aboard) and may be spotted again at the next planning phase.",
    "Planning Phase: 'A carrier may launch up to 20 strength points of planes OR land up to 20 "
    "strength points in one turn' — it spots up to 20 points at the planning phase and "
    "launches them at the next turn's Launch Planes step; with planes on deck it cannot land "
    "('a clear flight deck (no planes waiting for take off)').",
    "Crippled: 'can no longer launch or land planes. Any planes on the flight deck may not be "
    "launched' — a crippled carrier spots nothing; planes left on its deck stay there and are "
    "launched if it is repaired. A carrier that sinks takes down the groups aboard and on its "
    "deck.",
    "Move Planes: 'Planes may choose to stay in their box, or advance to the next box' — the "
    "automatic commanders always advance, one box a turn; bombers move from Ready to Attack "
    "into the Attacking box and attack in the same turn's Carrier Attacks step.",
    "CAP box: the number of rings is on the printed box, not in the text; it is 3 (the centre "
    "circle and two rings: conditions 'cap_rings'). A CAP squadron moves out a ring only "
    "after it has made an attack ('After a fighter squadron flying CAP has made an attack it is "
    "moved out to the next ring'); one that attacks from the last ring goes to the Waiting to "
    "Land box, so a squadron makes at most three CAP attacks between landings.",
    "CAP attacks: 'the attacking player must allocate an equal number of his fighters' counts "
    "groups: as many CAP groups (strongest first) as there are enemy fighter groups in the "
    "Ready to Attack box fight them (all CAP groups if there are fewer); the rest attack the "
    "bombers. Every CAP group with a target attacks. A CAP group left with no target (no "
    "bombers) does not attack and does not move out.",
    "Dogfight: 'the attacking player must allocate an equal number of his fighters to battle "
    "them ... Roll 1D6 for each fighter strength point in the dogfight ... All hits are "
    "considered simultaneous': the dogfight pairs groups, so when CAP has fewer groups than "
    "the escorts only as many escort groups (the strongest) are in it; the CAP groups roll, "
    "then those escorts, and both sides' losses are applied together. Rule option "
    "conditions['dogfight'] = 'all_escorts' puts every escort group in the dogfight instead.",
    "AA hits: the Carrier Attacks text says the carrier's player 'rolls dice to see how many "
    "planes in the attack wave are shot down', 'The attacking players may choose which "
    "bombers are eliminated', and Basing calls each plane model 'a group'. Read alone, those "
    "words make a hit a whole group of five points. But the same text goes on: 'The surviving "
    "bombers in the attack wave then resolve their attacks ... Dive-Bombers - Roll 1D6 for "
    "every surviving strength point' - strength points survive AA, as they survive CAP, "
    "whose hits 'Cross out one strength point on the opponent's base for every 4, 5, or 6 "
    "rolled' on the same 4-6; 'hit' is one point everywhere else in the rules (a carrier "
    "'crippled when they have taken 7 or more hits' is crippled at 7 damage points); and "
    "'If they can't agree then the hits should be distributed evenly' shares hits out among "
    "groups. The seed's own battles agree: its two reports sink 5 and 6 of the 7 carriers, "
    "and so do these rules with one point a hit (5.8 a battle at Midway), while with a group "
    "a hit AA stops nearly every strike (1.2 a battle; 95% of battles end with both sides "
    "keeping a carrier). Default: a hit takes one strength point. Rule option "
    "conditions['aa_hits'] = 'group': each hit eliminates a whole group, shared out evenly "
    "among the attacking carriers' groups (the carrier with most groups in the wave first, "
    "'the player with the most attacking groups receiving any extra hits'), its strongest "
    "group first.",
    "Hit allocation (CAP on escorts and bombers, escorts on CAP, AA on a wave): 'The attacker "
    "can decide how many of the bomber hits are inflicted on torpedo or dive bombers' and, for "
    "AA, 'If they can't agree then the hits should be distributed evenly'. Every loss is "
    "spread evenly: each hit strikes the group with the most strength left (the first listed "
    "on a tie). Both kinds of bomber are worth the same (11/30 of a hit per strength point), "
    "so no allocation is better for either player.",
    "Carrier Attacks: 'Each bomber group must choose which carrier it will attack': the "
    "attacker takes the enemy's working carriers first, then its crippled ones, each in order "
    "of the strength points needed to sink it (its remaining damage / (11/30) plus half its AA "
    "dice, the average shot down), and sends groups, strongest first, to each in turn until "
    "that need is met; groups left over go round the targets again. With no enemy carrier "
    "afloat the bombers turn for home without attacking.",
    "Dive-bombing and torpedo re-rolls: all the wave's dice are rolled first; then every six is "
    "re-rolled together, and the sixes of that re-roll again, until no six is left ('Continue "
    "re-rolling 6's and scoring hits until there are no more 6's'). A re-rolled 5 scores "
    "nothing.",
    "'Bombers that have completed an attack run are immediately placed in the Returning Home "
    "box': the Heading Home box (the circuit's name for it).",
    "Finding the Japanese Fleet: the searching side (conditions 'searching_side', 'b' for the "
    "Americans) holds every group in its Moving to Attack box there until its first Move step "
    "with bombers in the box; those groups (escorts too) are dealt in turn into 4 search groups, "
    "one die is rolled (re-rolled on 5 or 6, each re-roll logged), and that search group moves "
    "to Ready to Attack — if it is empty, nobody moves this turn. From then on the fleet is "
    "found and all move normally.",
    "Taking part: only fighter, dive_bomber and torpedo_bomber groups take part; other "
    "kinds (level_bomber, patrol) and a side's land-based air stay out of the battle and are "
    "reported unchanged. The seed's set-up has no Midway island air (its strike is already "
    "over: the Japanese bombers returning 'from the attack on Midway Island').",
    "Spotting policy (COMMANDER): at each planning phase a working carrier with none of its "
    "own planes waiting to land spots, up to 20 strength points: one fighter group for CAP if "
    "the side has fewer than 1 CAP group per working carrier aloft or spotted, one escort "
    "fighter group if it has bombers aboard, then bombers strongest first while they fit; with "
    "no bombers aboard it spots its fighters for CAP.",
    "The end of the battle is not in the rules: the Sequence of Play repeats with no turn "
    "limit, no night, no fuel for the ships and no way for a side to withdraw; the only search "
    "is the Americans' first ('At the start of the game the Americans are looking for the "
    "Japanese Fleet'), and it cannot fail (a die picks which search group finds it). The "
    "battle reports show how a battle ends: Battle 1 when 'The Japanese had succeeded in "
    "destroying the American carriers' (Kaga still operational, Akagi crippled); Battle 2 "
    "after the carrierless Japanese strike's 'one-way trip', when 'The Yorktown limped back "
    "to port'. Nobody breaks off before: a crippled carrier stays and is finished off "
    "('finishing off the Hiryu', Hornet 'a burning wreck' given 'the knock out'). So the "
    "battle ends at the end of a turn when a side has no carrier afloat and no bombers on "
    "their way to attack; when neither side has bombers able to attack (on the way, or "
    "aboard, landing or returning to a carrier afloat - a crippled one too, as a repair may "
    "free them); or at the turn limit (conditions 'turn_limit', 30, not in the seed: a "
    "set-up may set it for nightfall).",
    "Breaking off (rule option, not in the seed): conditions['break_off'] = "
    "'no_working_carrier' ends the battle at the end of a turn in which a side has carriers "
    "afloat but none operational and no bombers on their way to attack: it withdraws with "
    "its crippled carriers, which are not finished off. The default 'never' follows the "
    "reports.",
    "Winner: a side that still has a carrier afloat when the other has none wins (Battle 2, "
    "'This battle was an American victory'); otherwise each side scores 2 for every enemy "
    "carrier sunk and 1 for every enemy carrier crippled, and the higher score wins (equal: no "
    "decision).",
    "At the end of the battle, groups still in the air whose side has no carrier afloat are "
    "lost (they have nowhere to land); groups aloft over a crippled carrier, or aboard one, "
    "survive with her.",
    "A ship that comes to the battle 'damaged' with no damage count starts with 1 damage "
    "point, one that comes 'crippled' with the crippling figure; a carrier-type ship with no "
    "air groups still takes part (it may be attacked, fires AA and repairs).",
)


# ---------------------------------------------------------------------------------------
# Dice rules, each usable alone
# ---------------------------------------------------------------------------------------


class DiceResult:
    """Dice rolled for one rule and the hits they score; ``text`` shows every die (built
    only when read: an odds preview never reads it). A plain class, not a dataclass: one is
    made for every handful of dice, and a dataclass's generated ``__init__`` would run as
    interpreted Python even in the compiled rule sets."""

    def __init__(
        self,
        hits: int,
        values: tuple[int, ...] = (),
        rerolls: Mapping[int, Sequence[int]] | None = None,
    ) -> None:
        self.hits: Final = hits
        self.values: Final = values
        #: die index → the re-rolls of that six, in order
        self.rerolls: Final = rerolls

    @property
    def text(self) -> str:
        if not self.rerolls:
            return _show(self.values)
        chains = self.rerolls
        return ", ".join(
            f"{v} (re-rolled {_show(chains[i])})" if i in chains else str(v)
            for i, v in enumerate(self.values)
        )


def count_at_least(values: list[int], face: int) -> int:
    """How many of ``values`` are ``face`` or more."""
    count = 0
    for value in values:
        if value >= face:
            count += 1
    return count


def _show(values: Sequence[int]) -> str:
    return ", ".join(map(str, values))


def air_to_air(dice: Dice, strength: int, purpose: str) -> DiceResult:
    """CAP and escort fire: *"Roll 1D6 for each fighter strength point in the dogfight ...
    Cross out one strength point on the opponent's base for every 4, 5, or 6 rolled."*"""
    values = dice.rolls(strength, purpose) if strength > 0 else []
    return DiceResult(count_at_least(values, AIR_TO_AIR_HIT), tuple(values))


def aa_fire(dice: Dice, aa_dice: int, purpose: str) -> DiceResult:
    """*"The dice are rolled only once against the entire wave ... The Carrier scores one hit
    for every 4, 5, or 6 rolled."*"""
    values = dice.rolls(aa_dice, purpose) if aa_dice > 0 else []
    return DiceResult(count_at_least(values, AA_HIT), tuple(values))


def _bombing(dice: Dice, strength: int, purpose: str, torpedo: bool) -> DiceResult:
    if strength <= 0:
        return DiceResult(0)
    first = dice.rolls(strength, purpose)
    sixes = first.count(RE_ROLL_FACE)
    hits = TORPEDO_SIX_HITS * sixes if torpedo else count_at_least(first, DIVE_HIT)
    if not sixes:
        return DiceResult(hits, tuple(first))
    chains: dict[int, list[int]] = {}
    live = [i for i, v in enumerate(first) if v == RE_ROLL_FACE]
    round_no = 0
    while live:
        round_no += 1
        still = []
        again = f"{purpose} re-roll {round_no}"
        for i in live:
            value = dice.roll(again, reason="re-roll of a six")
            chains.setdefault(i, []).append(value)
            if value == RE_ROLL_FACE:
                hits += 1
                still.append(i)
        live = still
    return DiceResult(hits, tuple(first), chains)


def dive_bombing(dice: Dice, strength: int, purpose: str) -> DiceResult:
    """*"Dive-Bombers - Roll 1D6 for every surviving strength point. Every 5 or 6 scores one
    hit against the carrier. Re-roll any 6's and if it comes up 6 again score another hit
    against the carrier. Continue re-rolling 6's and scoring hits until there are no more
    6's."*

    Rolls ``strength`` dice, then re-rolls every six together, round after round."""
    return _bombing(dice, strength, purpose, torpedo=False)


def torpedo_bombing(dice: Dice, strength: int, purpose: str) -> DiceResult:
    """*"Torpedo-Bombers - roll 1D6 per surviving strength point. A roll of 6 scores 2 hits on
    the carrier. Re-roll all 6's, and score one additional hit for every 6 rolled. Continue
    re-rolling 6's and scoring hits until there are no more 6's."*"""
    return _bombing(dice, strength, purpose, torpedo=True)


@cache
def repair_needs(cell: str) -> int:
    """The lowest roll that repairs, from a "Repair Damage" cell: ``"5-6"`` → 5, ``"6"`` → 6."""
    match = re.fullmatch(r"\s*([1-6])\s*(?:-\s*6\s*)?", str(cell))
    if not match:
        raise ValueError(f"not a Repair Damage cell: {cell!r}")
    return int(match[1])


# ---------------------------------------------------------------------------------------
# Pieces on the table
# ---------------------------------------------------------------------------------------


class Counter:
    """One group (plane model with five strength circles) of an air group. (Plain classes,
    these two, for the reason :class:`DiceResult` gives: every battle makes its own.)"""

    def __init__(
        self,
        label: str,  # "VB-6/2"
        squadron: str,  # "VB-6"
        kind: str,
        strength: int,
        group: str,  # the AirGroup id
        home: str,  # the carrier it lands on
        side: int,
        model: str = "",
        number: int = 0,  # 2 of "VB-6/2" (0 for a one-group squadron)
        box: str = ABOARD,
        ring: int = 0,  # CAP ring, 0 = the centre circle
        role: str = "",  # a spotted fighter: "cap" or "escort"
        bomber: bool = True,
        order: int = 0,  # when it was raised (squadron by squadron), for listing
        tag: str = "",  # its number as text ("" for a one-group squadron)
    ) -> None:
        self.label = label
        self.squadron = squadron
        self.kind = kind
        self.strength = strength
        self.group = group
        self.home = home
        self.side = side
        self.model = model
        self.number = number
        self.box = box
        self.ring = ring
        self.role = role
        self.bomber = bomber
        self.order = order
        self.tag = tag

    def __repr__(self) -> str:
        return f"Counter({self.label!r}, {self.box!r}, strength {self.strength})"

    def copy(self) -> Counter:
        return Counter(
            self.label,
            self.squadron,
            self.kind,
            self.strength,
            self.group,
            self.home,
            self.side,
            self.model,
            self.number,
            self.box,
            self.ring,
            self.role,
            self.bomber,
            self.order,
            self.tag,
        )


class Carrier:
    """A carrier's damage track and numbers from the Ship Data table."""

    def __init__(
        self, ship: Ship, side: int, aa: int, repair_on: int, crippled_at: int, sunk_at: int
    ) -> None:
        self.ship = ship
        self.side = side
        self.aa = aa
        self.repair_on = repair_on
        self.crippled_at = crippled_at
        self.sunk_at = sunk_at
        self.damage = 0
        self.sunk = False
        self.history: list[str] = []
        self.id = ship.id
        self.name = ship.name

    def __repr__(self) -> str:
        return f"Carrier({self.name!r}, damage {self.damage}, {self.state})"

    def copy(self) -> Carrier:
        out = Carrier(self.ship, self.side, self.aa, self.repair_on, self.crippled_at, self.sunk_at)
        out.damage = self.damage
        out.sunk = self.sunk
        out.history = list(self.history)
        return out

    @property
    def crippled(self) -> bool:
        """*"Carriers are crippled when they have taken 7 or more hits."*"""
        return not self.sunk and self.damage >= self.crippled_at

    @property
    def operational(self) -> bool:
        return not self.sunk and self.damage < self.crippled_at

    @property
    def state(self) -> str:
        if self.sunk:
            return "sunk"
        if self.crippled:
            return "crippled"
        return "damaged" if self.damage else "undamaged"


def next_box(box: str) -> str:
    """The box after ``box`` in the circuit (:data:`CIRCUIT`), "" for a box outside it or
    its end. (Compared box by box: for the few boxes of the circuit that is quicker than a
    table's look-up, and every group of a side is moved every turn.)"""
    if box == MOVING:
        return READY
    if box == READY:
        return ATTACKING
    if box == ATTACKING:
        return HOME
    if box == HOME:
        return WAITING
    return ""


def spread_hits(groups: list[Counter], hits: int) -> list[tuple[Counter, int]]:
    """Losses spread evenly: each hit strikes the group with the most strength left (the first
    listed on a tie). Returns (group, points lost) for each group hit; a group brought to 0
    is destroyed. Hits beyond the groups' strength are wasted."""
    lost: list[int] = [0] * len(groups)
    for _hit in range(hits):  # (named: mypyc boxes a loop's "_" as an object)
        strongest = 0  # the first of the strongest
        for i in range(1, len(groups)):
            if groups[i].strength > groups[strongest].strength:
                strongest = i
        if not groups or groups[strongest].strength <= 0:
            break  # every group is down: the rest are wasted
        groups[strongest].strength -= 1
        lost[strongest] += 1
    out = []
    for i, g in enumerate(groups):
        n = lost[i]
        if n:
            if g.strength <= 0:
                g.box = DESTROYED
            out.append((g, n))
    return out


def eliminate_groups(groups: list[Counter], hits: int) -> list[tuple[Counter, int]]:
    """AA read as whole plane models (rule option ``aa_hits`` = ``"group"``): each hit
    eliminates one group, shared out evenly among the carriers the wave flew from — *"the
    hits should be distributed evenly, with the player with the most attacking groups
    receiving any extra hits"* — the carrier with the most groups left first (the first
    listed on a tie), its strongest group. Returns (group, points lost) for each group."""
    left: dict[str, list[Counter]] = {}
    for g in groups:
        if g.strength > 0:
            left.setdefault(g.home, []).append(g)
    out = []
    for _hit in range(hits):  # (named: mypyc boxes a loop's "_" as an object)
        if not left:
            break
        home = max(left, key=lambda h: len(left[h]))
        pile = left[home]
        g = max(pile, key=lambda c: c.strength)
        pile.remove(g)
        if not pile:
            del left[home]
        out.append((g, g.strength))
        g.strength = 0
        g.box = DESTROYED
    return out


def names(counters: Sequence[Counter]) -> str:
    """``VB-6/1,2, VT-6/3``: counters grouped by squadron, in the order they were raised."""
    if len(counters) == 1:
        return counters[0].label
    parts: list[str] = []
    squadron = ""
    tags: list[str] = []
    prev = -1
    for c in counters:
        if c.order < prev:
            return names(sorted(counters, key=_in_order))
        prev = c.order
        if c.squadron != squadron:
            if tags:
                parts.append(f"{squadron}/{','.join(tags)}" if tags[0] else squadron)
            squadron = c.squadron
            tags = [c.tag]
        else:
            tags.append(c.tag)
    if tags:
        parts.append(f"{squadron}/{','.join(tags)}" if tags[0] else squadron)
    return ", ".join(parts)


def _in_order(c: Counter) -> int:
    return c.order


def _n_hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def _losses(pairs: Sequence[tuple[Counter, int]]) -> str:
    if not pairs:
        return "no losses"
    return ", ".join(
        f"{c.label} −{n}" + (" (destroyed)" if c.strength <= 0 else "") for c, n in pairs
    )


@cache
def _cut(short: str, aircraft: int, size: int) -> tuple[tuple[str, int, int, str], ...]:
    """A squadron of ``aircraft`` strength points cut into groups of up to ``size``: each
    group's (label, strength, number, tag) — ``VB-6/2``, 5, 2, ``"2"`` (a one-group
    squadron: ``VB-6``, its points, 0, "")."""
    count = math.ceil(aircraft / size)
    out = []
    left = aircraft
    for n in range(count):
        strength = min(size, left)
        left -= strength
        if count > 1:
            out.append((f"{short}/{n + 1}", strength, n + 1, str(n + 1)))
        else:
            out.append((short, strength, 0, ""))
    return tuple(out)


def _short(group: AirGroup) -> str:
    return (group.name.split(" (")[0].strip() or group.id) if group.name else group.id


def _strike_needed(c: Carrier) -> float:
    """The bombers' strength points a carrier is worth: enough to sink her, after her AA."""
    return (c.sunk_at - c.damage) / EXPECTED_HITS_PER_POINT + c.aa * (3 / 6)


def _target_order(c: Carrier) -> tuple[bool, float]:
    """Sort key of the attacker's targets: working carriers first, the cheapest to sink
    first."""
    return not c.operational, _strike_needed(c)


def _survivors(groups: list[Counter]) -> list[Counter]:
    """The groups not destroyed: those that stay on the table (the list itself when none
    was destroyed, as in most turns)."""
    if any(c.box == DESTROYED for c in groups):
        return [c for c in groups if c.box != DESTROYED]
    return groups


def strongest_first(groups: list[Counter]) -> list[Counter]:
    """The groups, the strongest first (on a tie, in the order given: what a stable sort by
    strength gives). An insertion sort: the lists are a handful of groups, and sorting them
    with a key function costs a call per group."""
    out: list[Counter] = []
    for g in groups:
        i = len(out)
        while i > 0 and out[i - 1].strength < g.strength:
            i -= 1
        out.insert(i, g)
    return out


# ---------------------------------------------------------------------------------------
# The battle
# ---------------------------------------------------------------------------------------


class CarrierBattle(TurnBattle):
    """A carrier battle by *A Terrible Resolve* (see the module docstring and
    :data:`RULE_NOTES`)."""

    rule_set = RULE_SET
    #: the Sequence of Play, each step for one side then the other
    phases = tuple(f"{n}-{n + 1} {name}" for n, side, name in SEQUENCE if side == 0)

    def __init__(
        self, setup: BattleSetup, dice: Dice, opening: CarrierBattle | None = None
    ) -> None:
        """``opening``: a battle of the same set-up not yet begun, whose reading of the
        set-up is taken over (see :meth:`rematch`)."""
        super().__init__(dice)
        self.setup = setup
        if opening is not None:
            self._take_opening(opening)
            return
        cond: dict[str, Any] = {**DEFAULTS, **setup.conditions}
        self.conditions = cond
        self.commander = {**COMMANDER, **dict(cond.get("commander") or {})}
        self.cap_groups_per_carrier = int(self.commander["cap_groups_per_carrier"])
        self.escorts_per_launch = int(self.commander["escorts_per_launch"])
        self.side_names = (setup.a.name, setup.b.name)
        self.winner = ""
        self.end_reason = ""
        self.group_strength = int(cond["group_strength"])
        self.land_per_turn = int(cond["land_per_turn"])
        self.launch_per_turn = int(cond["launch_per_turn"])
        self.cap_rings = max(1, int(cond["cap_rings"]))
        self.turn_limit = int(cond["turn_limit"])
        for key, choices in (
            ("aa_hits", ("strength_point", "group")),
            ("break_off", ("never", "no_working_carrier")),
        ):
            if cond[key] not in choices:
                raise ValueError(f"{key} {cond[key]!r}: use {' or '.join(choices)}")
        self.shoot_down = eliminate_groups if cond["aa_hits"] == "group" else spread_hits
        self.break_off = cond["break_off"] == "no_working_carrier"
        searching = str(cond.get("searching_side") or "")
        self.searching = {"a": 0, "b": 1}.get(searching, -1)
        self.found = self.searching < 0

        self.ships: dict[str, Ship] = {}
        self.carriers: dict[str, Carrier] = {}
        self.side_carriers: tuple[list[Carrier], list[Carrier]] = ([], [])
        self.groups: dict[str, AirGroup] = {}
        self.counters: tuple[list[Counter], list[Counter]] = ([], [])
        repair: Mapping[str, Any] = cond.get("repair") or {}
        crippled_at, sunk_at = int(cond["crippled_at"]), int(cond["sunk_at"])
        for index, side in enumerate((setup.a, setup.b)):
            # the set-up's ships and air groups are only read; result() returns copies
            for air in side.air_groups:
                self.groups[air.id] = air
            for ship in side.ships:
                self.ships[ship.id] = ship
                for air in ship.air_groups:
                    self.groups[air.id] = air
                if ship.type not in CARRIER_TYPES:
                    continue
                capacity = ship.damage_capacity or sunk_at
                cripple = math.ceil(capacity * crippled_at / sunk_at)
                cell = repair.get(ship.id)
                if cell is None:
                    row = SHIP_DATA.get(ship.name)
                    cell = row[1] if row else DEFAULT_REPAIR
                carrier = Carrier(ship, index, ship.aa, repair_needs(str(cell)), cripple, capacity)
                carrier.damage = min(ship.damage, capacity)
                if ship.state == "damaged" and not carrier.damage:
                    carrier.damage = 1
                elif ship.state == "crippled":
                    carrier.damage = max(carrier.damage, cripple)
                if carrier.damage >= capacity or ship.state == "sunk":
                    carrier.sunk = True
                self.carriers[ship.id] = carrier
                self.side_carriers[index].append(carrier)
                if not carrier.sunk:
                    self._make_counters(ship, index)
        self._place_returning_strike(cond)
        #: every group from the start, destroyed ones too (``counters`` drops them each turn)
        self.all_counters: list[Counter] = [*self.counters[0], *self.counters[1]]

    def rematch(self, dice: Dice) -> CarrierBattle:
        """The same battle fought again from its opening with other dice: what
        ``CarrierBattle(self.setup, dice)`` would be (a test checks, battle for battle),
        without reading the set-up again — an odds preview fights thousands of battles from
        one set-up. Only a battle not yet begun has its opening to give."""
        self.check_unbegun()
        return CarrierBattle(self.setup, dice, opening=self)

    # -- set-up -------------------------------------------------------------------------

    def _take_opening(self, opening: CarrierBattle) -> None:
        """This battle's start from ``opening``'s (an unplayed battle of the same set-up):
        its settings and the set-up's tables shared (only read), its carriers and air
        groups copied."""
        self.conditions = opening.conditions
        self.commander = opening.commander
        self.cap_groups_per_carrier = opening.cap_groups_per_carrier
        self.escorts_per_launch = opening.escorts_per_launch
        self.side_names = opening.side_names
        self.winner = ""
        self.end_reason = ""
        self.group_strength = opening.group_strength
        self.land_per_turn = opening.land_per_turn
        self.launch_per_turn = opening.launch_per_turn
        self.cap_rings = opening.cap_rings
        self.turn_limit = opening.turn_limit
        self.shoot_down = opening.shoot_down
        self.break_off = opening.break_off
        self.searching = opening.searching
        self.found = opening.found
        self.ships = opening.ships
        self.groups = opening.groups
        self.carriers = {}
        self.side_carriers = ([], [])
        for side in (0, 1):
            for carrier in opening.side_carriers[side]:
                mine = carrier.copy()
                self.carriers[mine.id] = mine
                self.side_carriers[side].append(mine)
        self.counters = (
            [c.copy() for c in opening.counters[0]],
            [c.copy() for c in opening.counters[1]],
        )
        self.all_counters = [*self.counters[0], *self.counters[1]]

    def _make_counters(self, ship: Ship, side: int) -> None:
        size = self.group_strength
        for air in ship.air_groups:
            if air.kind not in PLAYING_KINDS or air.aircraft <= 0:
                continue
            short = _short(air)
            bomber = air.kind != FIGHTER
            for label, strength, number, tag in _cut(short, air.aircraft, size):
                order = len(self.counters[0]) + len(self.counters[1])
                self.counters[side].append(
                    Counter(
                        label,
                        short,
                        air.kind,
                        strength,
                        air.id,
                        ship.id,
                        side,
                        air.model,
                        number,
                        ABOARD,
                        0,
                        "",
                        bomber,
                        order,
                        tag,
                    )
                )

    def _place_returning_strike(self, cond: Mapping[str, Any]) -> None:
        """*"Eight bombers from each Japanese carrier should be placed in their "Ready to Land"
        box. This is the first wave returning from the attack on Midway Island. They must be
        landed before new planes can be launched."*"""
        per_carrier = int(cond.get("returning_bombers_per_carrier") or 0)
        side = {"a": 0, "b": 1}.get(str(cond.get("returning_side") or ""), -1)
        if per_carrier <= 0 or side < 0:
            return
        for carrier in self.side_carriers[side]:
            mine = [c for c in self.counters[side] if c.home == carrier.id and c.box == ABOARD]
            torpedo = [c for c in mine if c.kind == TORPEDO]
            dive = [c for c in mine if c.kind == DIVE]
            chosen: list[Counter] = []
            while len(chosen) < per_carrier and (torpedo or dive):
                for pile in (torpedo, dive):
                    if pile and len(chosen) < per_carrier:
                        chosen.append(pile.pop(0))
            for c in chosen:
                c.box = WAITING

    # -- the protocol -------------------------------------------------------------------

    def play_turn(self) -> list[str]:
        """The fourteen steps of the Sequence of Play, then the end check."""
        events: list[str] = []
        for number, side, phase in SEQUENCE:
            self.dice.step = number
            lines = self.play_step(phase, side)
            if lines:
                prefix = f"Turn {self.turn}, step {number} ({self.side_names[side]} {phase}): "
                events.extend(prefix + line for line in lines)
        a, b = self.counters
        self.counters = (_survivors(a), _survivors(b))
        events.extend(self._check_end())
        return events

    def result(self) -> BattleResult:
        ships: dict[str, Ship] = {}
        for sid, ship in self.ships.items():
            out = ship.copy(air_groups=False)  # its groups' copies are put in below
            carrier = self.carriers.get(sid)
            if carrier is not None:
                out.damage = carrier.damage
                out.state = carrier.state
                out.notes = [*out.notes, *carrier.history]
            ships[sid] = out
        surviving: dict[str, int] = {}
        ditch = [self._finished and all(c.sunk for c in self.side_carriers[s]) for s in (0, 1)]
        for c in self.all_counters:
            if c.box == DESTROYED or (ditch[c.side] and c.box in AIRBORNE):
                continue
            surviving[c.group] = surviving.get(c.group, 0) + c.strength
        groups: dict[str, AirGroup] = {}
        playing = {c.group for c in self.all_counters}
        for gid, group in self.groups.items():
            out_group = group.copy()
            if gid in playing:
                out_group.lost = group.lost + group.aircraft - surviving.get(gid, 0)
            elif group.base in self.carriers and self.carriers[group.base].sunk:
                out_group.lost = group.aircraft
            groups[gid] = out_group
        for sid, ship in ships.items():
            ship.air_groups = [groups[g.id] for g in self.ships[sid].air_groups]
        return BattleResult(self.rule_set, self.turn, self.winner, ships, groups, list(self.log))

    def outcome(self) -> tuple[str, dict[str, str]]:
        carriers = self.carriers
        return self.winner, {
            sid: carriers[sid].state if sid in carriers else ship.state
            for sid, ship in self.ships.items()
        }

    # -- queries ------------------------------------------------------------------------

    def play_step(self, phase: str, side: int) -> list[str]:
        """One step of the Sequence of Play for one side. (Not a table of bound methods: the
        battle would hold itself, and every battle would wait for the garbage collector.)"""
        if phase == "Land Planes":
            return self.land_planes(side)
        if phase == "Move Planes":
            return self.move_planes(side)
        if phase == "CAP Attacks":
            return self.cap_attacks(side)
        if phase == "Carrier Attacks":
            return self.carrier_attacks(side)
        if phase == "Launch Planes":
            return self.launch_planes(side)
        if phase == "Planning Phase":
            return self.planning_phase(side)
        if phase == "Repair Damage":
            return self.repair_damage(side)
        raise ValueError(f"no step {phase!r} in the Sequence of Play")

    def in_box(self, side: int, box: str) -> list[Counter]:
        return [c for c in self.counters[side] if c.box == box]

    def deck(self, carrier_id: str) -> list[Counter]:
        """The groups spotted on a carrier's flight deck."""
        carrier = self.carriers[carrier_id]
        return [c for c in self.counters[carrier.side] if c.box == DECK and c.home == carrier_id]

    def decks(self, side: int) -> dict[str, list[Counter]]:
        """Every carrier's flight deck on one side: carrier id → groups spotted."""
        out: dict[str, list[Counter]] = {c.id: [] for c in self.side_carriers[side]}
        for c in self.counters[side]:
            if c.box == DECK:
                out[c.home].append(c)
        return out

    def can_land(self, carrier_id: str) -> bool:
        """*"A carrier can land planes only if it has a clear flight deck (no planes waiting
        for take off)"*; *"A crippled carrier can no longer launch or land planes."*"""
        carrier = self.carriers[carrier_id]
        return carrier.operational and not self.deck(carrier_id)

    def _working(self, side: int) -> list[Carrier]:
        return [c for c in self.side_carriers[side] if c.operational]

    # -- 1, 2: Land Planes --------------------------------------------------------------

    def land_planes(self, side: int) -> list[str]:
        """*"A carrier can land planes only if it has a clear flight deck (no planes waiting for
        take off), and has planes in the Waiting to Land Box. Each carrier meeting the
        requirements can land 20 strenght points of planes (up to four full strength
        groups)."*

        Carriers land in set-up order, their own groups first, then groups whose carrier is
        crippled or sunk. No dice."""
        out: list[str] = []
        waiting = self.in_box(side, WAITING)
        if not waiting:
            return out
        decks = self.decks(side)
        # groups whose carrier is crippled or sunk (none while all the side's carriers work)
        homeless = not all(c.operational for c in self.side_carriers[side])
        for carrier in self.side_carriers[side]:
            if carrier.sunk:
                continue
            own = [c for c in waiting if c.home == carrier.id and c.box == WAITING]
            if not carrier.operational:
                if own and self.narrate:
                    out.append(f"{carrier.name} is crippled and cannot land {names(own)}.")
                continue
            if decks[carrier.id]:
                continue
            orphans: list[Counter] = []
            if homeless:
                orphans = [
                    c
                    for c in waiting
                    if c.box == WAITING
                    and c.home != carrier.id
                    and not self.carriers[c.home].operational
                ]
            room = self.land_per_turn
            landed = []
            for c in own + orphans:
                if c.strength <= room:
                    room -= c.strength
                    c.box = ABOARD
                    c.home = carrier.id
                    c.ring = 0
                    c.role = ""
                    landed.append(c)
            if landed and self.narrate:
                points = self.land_per_turn - room
                out.append(f"{carrier.name} lands {names(landed)} ({points} strength points).")
        return out

    # -- 3, 4: Move Planes --------------------------------------------------------------

    def move_planes(self, side: int) -> list[str]:
        """*"Planes that are being sent to attack the enemy move in a circuit. Planes may choose
        to stay in their box, or advance to the next box. The sequence of movement: Moving to
        Attack Box, Ready to Attack Box, Attacking Box, Heading Home Box, Waiting to Land
        Box."*

        Every group in the circuit advances one box (see :data:`RULE_NOTES`); CAP does not
        move here. The searching side's first wave searches instead (:meth:`search`)."""
        out: list[str] = []
        searching = side == self.searching and not self.found
        moved = [  # the groups that move, chosen before the search sends any on
            c
            for c in self.counters[side]
            if next_box(c.box) and not (searching and c.box == MOVING)
        ]
        if searching:
            moving = self.in_box(side, MOVING)
            if any(c.bomber for c in moving):
                out.extend(self._search_lines(side, moving))
        for c in moved:
            c.box = next_box(c.box)
        if moved and self.narrate:
            parts = []
            for target in CIRCUIT[1:]:
                groups = [c for c in moved if c.box == target]
                if groups:
                    parts.append(f"{names(groups)} to {target}")
            out.append("planes move: " + "; ".join(parts) + ".")
        return out

    def search(self, side: int) -> list[str]:
        """*"Finding the Japanese Fleet. At the start of the game the Americans are looking for
        the Japanese Fleet. When the first wave of bombers is ready to move into the Ready to
        Attack Box they should be divided into 4 search groups. One die is rolled to determine
        which of the four has found the Japanese Fleet (re-roll if the die reads 5 or 6). The
        lucky group is immediately placed in the Ready to Attack Box. The other three groups
        must stay in the Moving to Attack Box. During their next turn the planes may move
        normally."*

        One die, re-rolled while it is above the number of search groups."""
        return self._search_lines(side, self.in_box(side, MOVING))

    def _search_lines(self, side: int, moving: list[Counter]) -> list[str]:
        count = max(1, int(self.conditions["search_groups"]))
        parts: list[list[Counter]] = [moving[i::count] for i in range(count)]
        purpose = f"{self.side_names[side]} search"
        rolls = [self.dice.roll(purpose)]
        while rolls[-1] > count:
            rolls.append(self.dice.roll(purpose, reason=f"re-roll: the die read {rolls[-1]}"))
        lucky = parts[rolls[-1] - 1]
        self.found = True
        for c in lucky:
            c.box = READY
        if not self.narrate:
            return []
        enemy = self.side_names[1 - side]
        shown = ", ".join(
            f"{r} (re-rolled)" if i < len(rolls) - 1 else str(r) for i, r in enumerate(rolls)
        )
        groups_text = "; ".join(
            f"{i + 1}: {names(p) if p else '(none)'}" for i, p in enumerate(parts)
        )
        if lucky:
            found = (
                f"search group {rolls[-1]} ({names(lucky)}) finds the {enemy} and goes to "
                f"{READY}; the others stay in {MOVING}."
            )
        else:
            found = f"search group {rolls[-1]} is empty: the others stay in {MOVING}."
        return [f"search for the {enemy} — search groups {groups_text}; die {shown}: {found}"]

    # -- 5, 6: CAP Attacks --------------------------------------------------------------

    def cap_attacks(self, side: int) -> list[str]:
        """*"Each fighter squadron may attack enemy planes in the enemy's Ready to Attack Box.
        If there are enemy fighters in the Ready to Attack Box the attacking player must
        allocate an equal number of his fighters to battle them. Remaining CAP fighters, if
        any, can attack the bombers. Attacks on fighters and bombers should be resolved
        separately. Roll 1D6 for each fighter strength point in the dogfight, bombers do not
        get to fire back. All hits are considered simultaneous. ... After a fighter squadron
        flying CAP has made an attack it is moved out to the next ring in the CAP box.
        Fighters in the last ring of the CAP box are moved to the Waiting to Land Box."*

        Dice in this order: each dogfighting CAP group's points, each escort's points, then
        each of the other CAP groups' points (on the bombers)."""
        enemy = 1 - side
        targets = [c for c in self.counters[enemy] if c.box == READY]
        if not targets:
            return []
        cap = [c for c in self.counters[side] if c.box == CAP and c.strength > 0]
        if not cap:
            return []
        escorts = [c for c in targets if not c.bomber]
        bombers = [c for c in targets if c.bomber]
        cap = strongest_first(cap)
        dogfight = cap[: len(escorts)]
        rest = cap[len(escorts) :] if bombers else []
        out: list[str] = []
        say = self.narrate
        name = self.side_names[side]
        if dogfight:
            if self.conditions["dogfight"] != "all_escorts":
                escorts = strongest_first(escorts)[: len(dogfight)]
            cap_fire = [air_to_air(self.dice, c.strength, f"CAP {c.label}") for c in dogfight]
            esc_fire = [air_to_air(self.dice, c.strength, f"escort {c.label}") for c in escorts]
            on_escorts = spread_hits(escorts, sum(r.hits for r in cap_fire))
            on_cap = spread_hits(dogfight, sum(r.hits for r in esc_fire))
            if say:
                out.append(
                    f"{name} CAP {names(dogfight)} dogfights escorts {names(escorts)}: CAP rolls "
                    + "; ".join(r.text for r in cap_fire)
                    + f" — {_n_hits(sum(r.hits for r in cap_fire))} ({_losses(on_escorts)}); "
                    + "escorts roll "
                    + "; ".join(r.text for r in esc_fire)
                    + f" — {_n_hits(sum(r.hits for r in esc_fire))} ({_losses(on_cap)})."
                )
        if rest:
            fire = [air_to_air(self.dice, c.strength, f"CAP {c.label}") for c in rest]
            hits = sum(r.hits for r in fire)
            on_bombers = spread_hits(bombers, hits)
            if say:
                out.append(
                    f"{name} CAP {names(rest)} attacks bombers {names(bombers)}: rolls "
                    + "; ".join(r.text for r in fire)
                    + f" — {_n_hits(hits)} ({_losses(on_bombers)})."
                )
        moved_out = []
        landing = []
        for c in dogfight + rest:
            if c.box != CAP:
                continue
            if c.ring + 1 >= self.cap_rings:
                c.box = WAITING
                c.ring = 0
                landing.append(c)
            else:
                c.ring += 1
                moved_out.append(c)
        if moved_out and say:
            out.append(f"{names(moved_out)} move out a ring of the CAP box.")
        if landing and say:
            out.append(f"{names(landing)} leave the last CAP ring for {WAITING}.")
        return out

    # -- 7, 8: Carrier Attacks ----------------------------------------------------------

    def choose_targets(self, side: int, bombers: list[Counter]) -> dict[str, list[Counter]]:
        """The attacker's choice of carrier for each bomber group (see :data:`RULE_NOTES`)."""
        enemy = [c for c in self.side_carriers[1 - side] if not c.sunk]
        if not enemy:
            return {}
        order = sorted(enemy, key=_target_order)
        plan: dict[str, list[Counter]] = {c.id: [] for c in order}
        assigned = dict.fromkeys(plan, 0)
        i = 0
        all_met = False
        for b in strongest_first(bombers):
            target = order[i]
            plan[target.id].append(b)
            assigned[target.id] += b.strength
            if all_met or assigned[target.id] >= _strike_needed(target):
                i += 1
                if i == len(order):
                    i = 0
                    all_met = True
        return {k: v for k, v in plan.items() if v}

    def carrier_attacks(self, side: int) -> list[str]:
        """*"Each bomber group must choose which carrier it will attack ... Fighters do not
        attack carriers, they should be moved to the Heading Home Box. All attacks against a
        carrier are resolved simultaneously for all the bombers that have been designated to
        attack it this turn. All the squadrons attacking one carrier are called an attack wave.
        Resolving AA: The player controlling the carrier under attack rolls dice to see how many
        planes in the attack wave are shot down. The dice are rolled only once against the
        entire wave ... The surviving bombers in the attack wave then resolve their attacks
        against the carrier they are targeting. ... Bombers that have completed an attack run
        are immediately placed in the Returning Home box."*

        Dice, wave by wave: the carrier's AA dice, then each squadron's bombing dice (with
        their re-rolls) in the order the squadrons are listed."""
        attacking = self.in_box(side, ATTACKING)
        if not attacking:
            return []
        out: list[str] = []
        fighters = [c for c in attacking if not c.bomber]
        bombers = [c for c in attacking if c.bomber]
        if fighters:
            for c in fighters:
                c.box = HOME
            if self.narrate:
                out.append(f"fighters {names(fighters)} do not attack carriers: to {HOME}.")
        plan = self.choose_targets(side, bombers)
        if bombers and not plan:
            for c in bombers:
                c.box = HOME
            if self.narrate:
                out.append(f"{names(bombers)} find no enemy carrier afloat and turn for {HOME}.")
            return out
        for target_id, wave in plan.items():
            out.extend(self.attack_wave(self.carriers[target_id], wave))
        return out

    def attack_wave(self, carrier: Carrier, wave: list[Counter]) -> list[str]:
        """One attack wave on one carrier: AA once against the whole wave, then every
        surviving squadron's bombing, all hits together."""
        out: list[str] = []
        say = self.narrate
        points = sum(c.strength for c in wave)
        aa = aa_fire(self.dice, carrier.aa, f"AA {carrier.name}")
        shot = self.shoot_down(list(wave), aa.hits)
        if say:
            out.append(
                f"{names(wave)} ({points} strength points) attack {carrier.name}: her AA rolls "
                f"{aa.text or 'no dice'} — {_n_hits(aa.hits)} ({_losses(shot)})."
            )
        by_squadron: dict[tuple[str, str], list[Counter]] = {}
        for c in wave:
            if c.strength > 0:
                by_squadron.setdefault((c.squadron, c.kind), []).append(c)
        total = 0
        for (squadron, kind), groups in by_squadron.items():
            strength = sum(c.strength for c in groups)
            if kind == DIVE:
                r = dive_bombing(self.dice, strength, f"{squadron} dive on {carrier.name}")
                verb = "dive on"
            else:
                r = torpedo_bombing(self.dice, strength, f"{squadron} torpedo {carrier.name}")
                verb = "make torpedo runs on"
            total += r.hits
            if say:
                model = groups[0].model or kind.replace("_", " ")
                out.append(
                    f"{strength} {model} of {squadron} {verb} {carrier.name}: "
                    f"rolls {r.text} — {_n_hits(r.hits)}."
                )
        for c in wave:
            if c.strength > 0:
                c.box = HOME
        text = self.damage(carrier, total)
        if say:
            out.append(text)
        return out

    def damage(self, carrier: Carrier, hits: int) -> str:
        """*"Carriers are crippled when they have taken 7 or more hits. ... A carrier that
        receives 10 points of damage is sunk and cannot be repaired."* Returns the words
        ("" when the battle is not put into words)."""
        was_crippled = carrier.crippled
        carrier.damage = min(carrier.sunk_at, carrier.damage + hits)
        outcome = ""
        if carrier.damage >= carrier.sunk_at:
            carrier.sunk = True
            lost = [
                c
                for c in self.counters[carrier.side]
                if c.home == carrier.id and c.box in (ABOARD, DECK)
            ]
            for c in lost:
                c.box = DESTROYED
            carrier.history.append(f"carrier battle: sunk on turn {self.turn}")
            outcome = " — SUNK"
            if lost and self.narrate:
                outcome += f", taking down {names(lost)}"
        elif carrier.crippled and not was_crippled:
            carrier.history.append(f"carrier battle: crippled on turn {self.turn}")
            outcome = " — CRIPPLED"
        if not self.narrate:
            return ""
        return f"{carrier.name} takes {_n_hits(hits)}: damage {carrier.damage}{outcome}."

    # -- 9, 10: Launch Planes -----------------------------------------------------------

    def launch_planes(self, side: int) -> list[str]:
        """*"A Carrier may launch planes only if it placed the planes on its flight deck during
        the previous planning phase. Bombers should be moved to the Moving to Attack Box.
        Fighters can either be placed in the center ring of the CAP Box, or placed in the
        Moving to Attack Box so they can protect the bombers."* No dice."""
        out: list[str] = []
        decks = self.decks(side)
        for carrier in self.side_carriers[side]:
            deck = decks[carrier.id]
            if carrier.sunk or not deck:
                continue
            if not carrier.operational:
                if self.narrate:
                    out.append(
                        f"{carrier.name} is crippled: {names(deck)} on her flight deck cannot "
                        "be launched."
                    )
                continue
            cap = [c for c in deck if c.role == "cap"]
            strike = [c for c in deck if c.role != "cap"]
            for c in cap:
                c.box = CAP
                c.ring = 0
            for c in strike:
                c.box = MOVING
            if not self.narrate:
                continue
            parts = []
            if strike:
                parts.append(f"{names(strike)} to {MOVING}")
            if cap:
                parts.append(f"{names(cap)} to the centre of the CAP box")
            out.append(f"{carrier.name} launches " + "; ".join(parts) + ".")
        return out

    # -- 11, 12: Planning Phase ---------------------------------------------------------

    def planning_phase(self, side: int) -> list[str]:
        """*"A carrier may launch up to 20 strength points of planes OR land up to 20 strength
        points in one turn. If the player is going to launch planes next turn he must put them
        on the flight deck of the carrier. If he wishes to land planes next turn he must leave
        the flight deck empty."* The choice is :data:`COMMANDER`'s (see :data:`RULE_NOTES`).
        No dice."""
        out: list[str] = []
        working = self._working(side)
        if not working:
            return out
        # each working carrier's groups, by its place in ``working`` (lists, not dicts keyed
        # by carrier: this runs for every side every turn of thousands of preview battles)
        place = {c.id: i for i, c in enumerate(working)}
        decks: list[list[Counter]] = [[] for _c in working]
        aboard_by: list[list[Counter]] = [[] for _c in working]
        own_waiting = [0] * len(working)
        orphans = False  # groups waiting whose own carrier is crippled or sunk
        cap_now = 0
        for c in self.counters[side]:
            box = c.box
            if box == ABOARD:
                i = place.get(c.home, -1)
                if i >= 0 and c.strength > 0:
                    aboard_by[i].append(c)
            elif box == WAITING:
                i = place.get(c.home, -1)
                if i >= 0:
                    own_waiting[i] += c.strength
                else:
                    orphans = True
            elif box == DECK:
                i = place.get(c.home, -1)
                if i >= 0:  # a working carrier: it can launch what it spotted
                    decks[i].append(c)
                    if c.role == "cap":
                        cap_now += 1
            elif box == CAP:
                cap_now += 1
        # orphans go to a carrier already keeping clear for its own planes (the least loaded
        # of them), else the first
        host = -1
        if orphans:
            loaded = [w for w in own_waiting if w > 0]
            host = own_waiting.index(min(loaded)) if loaded else 0
        cap_target = self.cap_groups_per_carrier * len(working)
        for i, carrier in enumerate(working):
            deck = decks[i]
            if not deck and (own_waiting[i] or i == host):
                if self.narrate:
                    out.append(f"{carrier.name} keeps her flight deck clear to land planes.")
                continue
            room = self.launch_per_turn - sum(c.strength for c in deck)
            aboard = strongest_first(aboard_by[i])
            fighters = [c for c in aboard if not c.bomber]
            bombers = [c for c in aboard if c.bomber]
            wishes: list[tuple[Counter, str]] = []
            if fighters and cap_now < cap_target:
                wishes.append((fighters.pop(0), "cap"))
            if bombers:
                escorts = self.escorts_per_launch
                wishes += [(f, "escort") for f in fighters[:escorts]]
                wishes += [(b, "") for b in bombers]
            else:
                wishes += [(f, "cap") for f in fighters]
            spotted: list[Counter] = []
            for c, role in wishes:
                if c.strength <= room:
                    room -= c.strength
                    c.box = DECK
                    c.role = role
                    spotted.append(c)
            cap_now += sum(1 for c in spotted if c.role == "cap")
            if spotted and self.narrate:
                cap = [c for c in spotted if c.role == "cap"]
                strike = [c for c in spotted if c.role != "cap"]
                parts = []
                if strike:
                    parts.append(f"strike {names(strike)}")
                if cap:
                    parts.append(f"CAP {names(cap)}")
                out.append(f"{carrier.name} spots " + "; ".join(parts) + " on her flight deck.")
        return out

    # -- 13, 14: Repair Damage ----------------------------------------------------------

    def repair_damage(self, side: int) -> list[str]:
        """*"Each carrier that has sustained damage may attempt to repair one damage point by
        rolling one die. ... Only one damage point may be repaired on each carrier each turn.
        A carrier that has been sunk may not be repaired. Japanese carriers may repair one
        point if they roll a 6. The Enterprise and Hornet may repair one point if they roll a 5
        or 6. The Yorktown may repair one point if it rolls a 4, 5, or 6."*

        One die for each damaged carrier afloat, in set-up order."""
        out: list[str] = []
        for carrier in self.side_carriers[side]:
            if carrier.sunk or carrier.damage <= 0:
                continue
            roll = self.dice.roll(f"repair {carrier.name}")
            if roll >= carrier.repair_on:
                was_crippled = carrier.crippled
                carrier.damage -= 1
                text = f"{carrier.name} repairs (rolls {roll}): damage {carrier.damage}"
                if was_crippled and not carrier.crippled:
                    text += " — no longer crippled"
                    carrier.history.append(f"carrier battle: repaired on turn {self.turn}")
                if self.narrate:
                    out.append(text + ".")
            elif self.narrate:
                out.append(
                    f"{carrier.name} fails to repair (rolls {roll}, needs {carrier.repair_on}+): "
                    f"damage {carrier.damage}."
                )
        return out

    # -- the end ------------------------------------------------------------------------

    def can_strike(self, side: int) -> bool:
        """Bombers on their way to attack, or aboard, landing or returning to a carrier
        afloat (*"A crippled carrier can be repaired during the Repair Damage phase"*, so
        bombers aboard a crippled carrier may fly again)."""
        afloat = any(not c.sunk for c in self.side_carriers[side])
        for c in self.counters[side]:
            if not c.bomber or c.strength <= 0:
                continue
            if c.box in ATTACK_CIRCUIT:
                return True
            if c.box in (ABOARD, DECK) and not self.carriers[c.home].sunk:
                return True
            if c.box in (HOME, WAITING) and afloat:
                return True
        return False

    def _on_their_way(self, side: int) -> bool:
        """Bombers of ``side`` in the Moving to Attack, Ready to Attack or Attacking box."""
        return any(
            c.bomber and c.strength > 0 and c.box in ATTACK_CIRCUIT for c in self.counters[side]
        )

    def _check_end(self) -> list[str]:
        afloat = [any(not c.sunk for c in self.side_carriers[s]) for s in (0, 1)]
        reason = ""
        for s in (0, 1):
            if not afloat[s] and not self._on_their_way(s):
                reason = f"{self.side_names[s]} has no carrier afloat"
                break
        if not reason and not self.can_strike(0) and not self.can_strike(1):
            reason = "neither side has bombers able to attack"
        if not reason and self.break_off:
            for s in (0, 1):
                if afloat[s] and not self._working(s) and not self._on_their_way(s):
                    reason = f"{self.side_names[s]} has no working carrier left and breaks off"
                    break
        if not reason and self.turn >= self.turn_limit:
            reason = f"the turn limit ({self.turn_limit}) is reached"
        if not reason:
            return []
        self._finished = True
        self.end_reason = reason
        self.winner = self._decide(afloat)
        who = {"a": self.side_names[0], "b": self.side_names[1]}.get(self.winner)
        return [
            f"The battle ends after turn {self.turn}: {reason}. "
            + (f"Winner: {who}." if who else "No decision.")
        ]

    def _decide(self, afloat: Sequence[bool]) -> str:
        if afloat[0] != afloat[1]:
            return "a" if afloat[0] else "b"
        score = [0, 0]
        for s in (0, 1):
            for c in self.side_carriers[1 - s]:
                score[s] += 2 if c.sunk else 1 if c.crippled else 0
        if score[0] == score[1]:
            return ""
        return "a" if score[0] > score[1] else "b"


@register(RULE_SET)
def carrier_battle(setup: BattleSetup, dice: Dice) -> CarrierBattle:
    """A carrier battle by *A Terrible Resolve* (seed 003)."""
    return CarrierBattle(setup, dice)
