"""*A World at War* air attacks on naval units (seed 001, rules 20.44 and 20.5x).

One tactical turn is one **air strike**: every side's air able to attack (carrier-borne and
land-based) attacks the enemy's ships. Each attack is one combat roll of two dice on table
20.44, read in the row of the number of air squadrons attacking::

    "If more than 20 air squadrons engage in combat, the result is determined by consulting
    the "20" row and whatever other row is required to equal the total number of air
    squadrons engaged."

modified by::

    "+# attacker's Air Nationality DRM -# defender's Naval Nationality DRM +1 naval air units
    attacking ships at sea +1 if the attacker achieves a surprise level of 3 or greater"

The hits ("naval attack effects") fall on named ships, cruiser groups, one-factor naval
units and mixed light forces exactly as the seed's "Results" describe, and a roll of double
sixes gives a chance at a critical hit. Every rule and every choice made where the seed is
silent, cut short or ambiguous is a line of :data:`RULE_NOTES`.

The table is printed in the seed with two row-label columns, ``AS`` (air squadrons) and
``FF`` (fleet factors, for fleet attacks); :data:`TABLE_20_44` keeps both, row by row as
printed. :func:`fleet_hits` and :func:`fleet_modifiers` read the ``FF`` column for fleet
attacks on naval units; the air strike itself uses only the ``AS`` column.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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
    land_group_ids,
    register,
    whole,
)

# ---------------------------------------------------------------------------------------
# Table 20.44 as data: (AS row label or None for "-", FF row range or None, cells 2..12+)
# ---------------------------------------------------------------------------------------

#: the dice-roll columns of table 20.44 ("12" is printed "12+")
COLUMNS: Final[tuple[int, ...]] = tuple(range(2, 13))

#: table 20.44 row by row as the seed prints it: ``AS``, ``FF`` (low, high), 11 cells
TABLE_20_44: Final[tuple[tuple[int | None, tuple[int, int] | None, tuple[int, ...]], ...]] = (
    (None, (1, 1), (0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1)),
    (None, (2, 2), (0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2)),
    (1, (3, 3), (0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2)),
    (None, (4, 4), (0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 3)),
    (2, (5, 6), (0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3)),
    (3, (7, 9), (1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4)),
    (4, (10, 12), (1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5)),
    (5, (13, 15), (2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6)),
    (6, (16, 18), (2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 6)),
    (7, (19, 21), (2, 3, 3, 3, 4, 4, 5, 5, 6, 6, 7)),
    (8, (22, 24), (3, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7)),
    (9, (25, 25), (3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8)),
    (10, None, (3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8)),
    (11, None, (4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9)),
    (12, None, (4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9)),
    (13, None, (5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10)),
    (14, None, (5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10)),
    (15, None, (6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11)),
    (16, None, (6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11)),
    (17, None, (7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12)),
    (18, None, (7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12)),
    (19, None, (8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13)),
    (20, None, (8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13)),
)

#: air squadrons (1..20) → hits in each column
AIR_ROWS: Final[dict[int, tuple[int, ...]]] = {
    squadrons: cells for squadrons, _, cells in TABLE_20_44 if squadrons is not None
}
#: fleet factors (1..25) → hits in each column
FLEET_ROWS: Final[dict[int, tuple[int, ...]]] = {
    factors: cells
    for _, span, cells in TABLE_20_44
    if span is not None
    for factors in range(span[0], span[1] + 1)
}

# ---------------------------------------------------------------------------------------
# Conversions and choices (each is explained in RULE_NOTES)
# ---------------------------------------------------------------------------------------

#: aircraft per air squadron when an air group has no ``factor``
SQUADRON_AIRCRAFT: Final = 12
#: air group kinds that attack ships (fighters and patrol aircraft do not)
STRIKE_KINDS: Final = frozenset({"dive_bomber", "torpedo_bomber", "level_bomber"})
#: ship types that are "named ships"
NAMED_TYPES: Final = ("carrier", "light_carrier", "battleship", "battlecruiser")
#: ship types that are cruisers; each cruiser is this many factors
CRUISER_TYPES: Final = frozenset({"heavy_cruiser", "light_cruiser"})
CRUISER_FACTORS: Final = 2
#: one-factor naval units, by the seed's three kinds ("destroyers, CVEs, transports")
ONE_FACTOR_KINDS: Final[dict[str, str]] = {
    "destroyer": "destroyer",
    "escort": "destroyer",
    "escort_carrier": "CVE",
    "transport": "transport",
}
ONE_FACTOR_ORDER: Final = ("destroyer", "CVE", "transport")
#: tons of standard displacement per named-ship factor (rounded half up), and its bounds
TONS_PER_FACTOR: Final = 10_000
NAMED_FACTOR_BOUNDS: Final = (1, 4)
#: a named ship with neither ``damage_capacity`` nor ``tonnage``
DEFAULT_NAMED_FACTORS: Final = {
    "carrier": 2,
    "light_carrier": 1,
    "battleship": 3,
    "battlecruiser": 3,
}
#: a critical hit die roll of this or more, after double sixes, is a critical hit
CRITICAL_HIT_ON: Final = 4
#: a surprise level of this or more gives +1
SURPRISE_LEVEL: Final = 3

RULE_NOTES: Final[tuple[str, ...]] = (
    "Table 20.44 is rebuilt by counting cells: two row labels then 11 cells under 'Dice Roll "
    "2 3 4 5 6 7 8 9 10 11 12+'. The printed row labels are AS (air squadrons) and FF (fleet "
    "factors): AS '-' with FF 1, 2 and 4; AS 1-9 beside FF 3, 5-6, 7-9, 10-12, 13-15, 16-18, "
    "19-21, 22-24, 25; AS 10-20 with no FF. All 23 rows have 11 cells; none is short or "
    "contradictory, and every row and column is non-decreasing.",
    "Air attacks use the AS column ('If more than 20 air squadrons engage in combat ... "
    'consult the "20" row\'): the row is the number of air squadrons, not fleet factors. '
    "The FF column is kept for fleet attacks (fleet_hits); a TF has at most 25 factors "
    "('the maximum size of a TF is 25 naval factors', 20.162F) so FF 26+ is refused.",
    "Over-20 rule: 'If more than 20 air squadrons engage in combat, the result is determined "
    'by consulting the "20" row and whatever other row is required to equal the total '
    "number of air squadrons engaged.' The same modified roll is read in the 20 row as many "
    "times as there are whole 20s and once in the row of the remainder (45 = 20 + 20 + 5); "
    "the hits are added.",
    "Combat roll: two dice (the seed's 'double sixes' and '\"11\" result'). Modified totals "
    "below 2 read the 2 column, 12 or more the '12+' column.",
    "'Negative modifiers to a \"12\" dice roll are disregarded': natural double sixes always "
    "read the 12+ column.",
    "Modifiers - Air Attacks on Naval Units: '+# attacker's Air Nationality DRM' = "
    "conditions['air_drm'][attacking side's nation]; '-# defender's Naval Nationality DRM' "
    "= minus conditions['naval_drm'][defending side's nation] (missing nations are 0; the "
    "side's nation is used, not each ship's).",
    "'+1 naval air units attacking ships at sea': naval air = groups flying from a ship "
    "(Ship.air_groups) plus land-based groups listed in conditions['naval_air']; 'at sea' = "
    "conditions['at_sea'] (true by default; or {'a': bool, 'b': bool} for each side's ships, "
    "false = in port).",
    "'+1 if the attacker achieves a surprise level of 3 or greater': conditions['surprise'] "
    "is side a's surprise level (an int) or {'a': n, 'b': n}; chosen to apply to the first "
    "strike only (surprise is lost once the enemy has been struck).",
    "Naval air and land-based air attack separately (two combat rolls) because the +1 for "
    "naval air applies to one and not the other: in each strike side a's naval air, side a's "
    "land-based air, then side b's naval air, side b's land-based air. Both sides' air is "
    "counted at the start of the strike (the strikes are simultaneous), so a carrier sunk by "
    "side a's attack still launches its strike in that strike.",
    "Squadrons: an air group's AirGroup.factor when set; otherwise the attack's aircraft "
    "(aircraft - lost, groups without a factor pooled) divided by 12 (one squadron per 12 "
    "aircraft, about a RAF squadron; IJN and USN units ranged from 9 to 18) rounded half "
    "up, at least 1 squadron if any aircraft attack.",
    "Only dive bombers, torpedo bombers and level bombers attack ships; fighters and patrol "
    "aircraft do not count as squadrons. The seed gives no air losses for air attacks on "
    "naval units, so none are taken (AirGroup.lost is not changed).",
    "Named ships are fleet and light carriers, battleships and battlecruisers. Their size in "
    "factors is Ship.damage_capacity when set, else standard tonnage / 10,000 rounded half up "
    "and kept within 1..4 (Nevada, 29,000 tons, is the seed's 'three-factor battleship'), "
    "else carrier 2, light carrier 1, battleship 3, battlecruiser 3.",
    "'A named ship or cruiser is damaged if it incurs naval attack effects one less than its "
    "size in factors and is sunk if it incurs naval attack effects equal to or greater than "
    "its size in factors.' Cruisers (heavy and light) are 2 factors each, so that 'the odd "
    "hit damages one cruiser'. A 1-factor named ship cannot be damaged: one hit sinks it.",
    "Hits count within one strike: hits below the damage level are repaired at the end of "
    "the strike ('This hit is repaired immediately and the Nevada will have no hits on her "
    "if the Japanese return for a second strike').",
    "20.5231 'EFFECTS OF ACCUMULATED HITS' is cut short in the seed: chosen that a ship "
    "already damaged is sunk when it incurs its damage level again (size - 1 hits; one hit "
    "for a cruiser).",
    "Which named ship is hit is not in the seed: the attacker concentrates, taking named "
    "ships carriers first, then battleships, then battlecruisers, the larger first, each "
    "until it is sunk; then the light force. Hits beyond every target are lost.",
    "Cruiser groups: 'If a group of light ships consisting only of cruisers incurs an odd "
    "number of hits, the odd hit damages one cruiser': hits go two to a cruiser (a damaged "
    "cruiser or one already hit in the strike first).",
    "One-factor naval units: 'each hit sinks a destroyer, CVE, or transport factor' "
    "(destroyers and escorts are destroyers; escort carriers are CVEs).",
    "20.552 apportions hits among kinds of one-factor units 'as per 20.57', which is not in "
    "the seed: chosen that each hit sinks a unit of the kind with the most factors afloat "
    "(ties: destroyer, CVE, transport), the first listed of that kind.",
    "Mixed light forces: 'distributed evenly between the cruisers and one-factor naval units, "
    "subject to the proviso that the number of one-factor ship factors sunk may not exceed "
    "the number of cruiser factors sunk until all the cruisers in the force are sunk', and "
    "'a cruiser is always damaged by the first, fifth, ninth, etc. hit, provided there is "
    "still a cruiser to be damaged': hits 1-2 of every 4 go to a cruiser, hits 3-4 to "
    "one-factor units if the proviso allows (else to a cruiser); with no one-factor units "
    "left, all go to cruisers. Counts are per attack.",
    "Critical hits: 'Before there is a chance at a critical hit, double sixes must be rolled. "
    'An "11" result with a +1 modifier is insufficient.\' The chance is a critical hit die '
    "roll (one die, a critical hit on 4-6: the seed gives no number), made once for each "
    "named ship afloat that the attack hit ('subject to only one critical hit die roll'). "
    "A ship the same roll sinks gets none: a critical hit could only sink her again (the "
    "seed's Pearl Harbor example rolls for a ship sunk in port, which matters only where "
    "ships sunk in port are raised, and nothing here raises them). Cruisers and one-factor "
    "units get none.",
    "20.526 EFFECTS OF CRITICAL HITS is cut short: 'B. SUNK IN PORT: A named ship is sunk "
    "while in port' is applied to ships in port; at sea (the lost item A) chosen: the ship is "
    "damaged, or sunk if it is already damaged — 'in addition to any effect of the combat "
    "roll which triggered the critical hit'.",
    "Submarines are SW units and are not attacked on this table.",
    "An air group flying from a carrier that is sunk or damaged cannot attack in a later "
    "strike. The battle ends after conditions['strikes'] strikes (default 1) or when neither "
    "side has air able to attack a ship afloat.",
    "Winner: the side whose enemy lost more naval factors sunk (named ship size, cruiser 2, "
    "one-factor 1); equal losses are no decision.",
    "Fleet attacks (fleet_modifiers): '+/-# Naval Nationality DRMs (22.552A)' read as the "
    "attacker's minus the defender's; '+/-1 If one of the combat groups involved is carrying "
    "out a naval activity which reduces its effectiveness (22.552B)': -1 if the attacker's, "
    "+1 if the defender's.",
)


# ---------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------


def column(natural: int, modifier: int) -> int:
    """The column of table 20.44 read for a two-dice roll ``natural`` and its modifier.

    "Negative modifiers to a "12" dice roll are disregarded." Totals below 2 read the 2
    column; 12 or more read "12+".
    """
    if not 2 <= natural <= 12:
        raise ValueError(f"{natural} is not a roll of two dice")
    if natural == 12:
        return 12
    return max(2, min(12, natural + modifier))


def air_rows(squadrons: int) -> list[int]:
    """The rows of table 20.44 consulted for ``squadrons`` air squadrons.

    "If more than 20 air squadrons engage in combat, the result is determined by consulting
    the "20" row and whatever other row is required to equal the total number of air
    squadrons engaged."
    """
    if squadrons < 0:
        raise ValueError("a negative number of squadrons")
    rows = [20] * (squadrons // 20)
    if squadrons % 20:
        rows.append(squadrons % 20)
    return rows


def air_hits(squadrons: int, col: int) -> int:
    """Hits (naval attack effects) scored by ``squadrons`` in column ``col`` (2..12)."""
    if col not in COLUMNS:
        raise ValueError(f"no column {col} in table 20.44")
    return sum(AIR_ROWS[row][col - 2] for row in air_rows(squadrons))


def fleet_hits(factors: int, col: int) -> int:
    """Hits scored by a fleet of ``factors`` naval factors in column ``col`` (FF rows)."""
    if col not in COLUMNS:
        raise ValueError(f"no column {col} in table 20.44")
    if factors == 0:
        return 0
    if factors not in FLEET_ROWS:
        raise ValueError(f"{factors} fleet factors: table 20.44 has FF rows 1-25 (20.162F)")
    return FLEET_ROWS[factors][col - 2]


@dataclass(frozen=True)
class Modifier:
    label: str
    value: int


def fleet_modifiers(
    attacker_naval_drm: int,
    defender_naval_drm: int,
    attacker_reduced: bool = False,
    defender_reduced: bool = False,
) -> list[Modifier]:
    """ "Modifiers - Fleet Attacks on Naval Units +/-# Naval Nationality DRMs (22.552A) +/-1
    If one of the combat groups involved is carrying out a naval activity which reduces its
    effectiveness (22.552B)"."""
    mods = []
    if attacker_naval_drm - defender_naval_drm:
        mods.append(Modifier("Naval Nationality DRMs", attacker_naval_drm - defender_naval_drm))
    if attacker_reduced:
        mods.append(Modifier("attacker's activity reduces its effectiveness", -1))
    if defender_reduced:
        mods.append(Modifier("defender's activity reduces its effectiveness", 1))
    return mods


def air_modifiers(
    air_drm: int, naval_drm: int, naval_air: bool, at_sea: bool, surprise: int
) -> list[Modifier]:
    """ "Modifiers - Air Attacks on Naval Units +# attacker's Air Nationality DRM -# defender's
    Naval Nationality DRM +1 naval air units attacking ships at sea +1 if the attacker
    achieves a surprise level of 3 or greater"."""
    mods = []
    if air_drm:
        mods.append(Modifier("attacker's Air Nationality DRM", air_drm))
    if naval_drm:
        mods.append(Modifier("defender's Naval Nationality DRM", -naval_drm))
    if naval_air and at_sea:
        mods.append(Modifier("naval air attacking ships at sea", 1))
    if surprise >= SURPRISE_LEVEL:
        mods.append(Modifier(f"surprise level {surprise}", 1))
    return mods


# ---------------------------------------------------------------------------------------
# Conversions
# ---------------------------------------------------------------------------------------


def _half_up(numerator: int, denominator: int) -> int:
    return (2 * numerator + denominator) // (2 * denominator)


def squadrons(groups: Iterable[AirGroup]) -> int:
    """Air squadrons of attacking air groups: ``factor`` if set, else aircraft / 12.

    Groups without a factor are pooled, then rounded half up (at least 1 squadron when any
    aircraft attack); fighters and patrol aircraft do not count.
    """
    total = 0
    pooled = 0
    for group in groups:
        if group.kind not in STRIKE_KINDS or group.aircraft - group.lost <= 0:
            continue
        if group.factor > 0:
            total += group.factor
        else:
            pooled += group.aircraft - group.lost
    if pooled:
        total += max(1, _half_up(pooled, SQUADRON_AIRCRAFT))
    return total


def target_kind(ship: Ship) -> str:
    """ "named", "cruiser", "one-factor" or "" (not attacked on this table)."""
    if ship.type in NAMED_TYPES:
        return "named"
    if ship.type in CRUISER_TYPES:
        return "cruiser"
    if ship.type in ONE_FACTOR_KINDS:
        return "one-factor"
    return ""


def ship_factors(ship: Ship) -> int:
    """A ship's size in naval factors (see :data:`RULE_NOTES`)."""
    kind = target_kind(ship)
    if kind == "cruiser":
        return CRUISER_FACTORS
    if kind != "named":
        return 1
    if ship.damage_capacity > 0:
        return ship.damage_capacity
    if ship.tonnage > 0:
        low, high = NAMED_FACTOR_BOUNDS
        return max(low, min(high, _half_up(ship.tonnage, TONS_PER_FACTOR)))
    return DEFAULT_NAMED_FACTORS[ship.type]


def _per_side(value: Any, key: str, default: Any, side_a_default: bool) -> Any:
    if isinstance(value, Mapping):
        return value.get(key, default)
    if value is None:
        return default
    if side_a_default and key != "a":
        return default
    return value


def _nation_value(table: Mapping[str, Any], nation: str) -> int:
    for key in (nation, nation.lower()):
        if key in table:
            return int(table[key])
    return 0


# ---------------------------------------------------------------------------------------
# The battle
# ---------------------------------------------------------------------------------------


@dataclass
class _Attack:
    """One combat roll: one side's naval air or land-based air at the other side's ships."""

    key: str  # "a" | "b"
    label: str  # "naval air" | "land-based air"
    naval_air: bool
    groups: list[AirGroup]


#: every condition a set-up may give (docs/battle-setups.md lists them)
CONDITIONS: Final[dict[str, str]] = {
    "strikes": "air strikes each side flies (1)",
    "air_drm": "nation -> its Air Nationality DRM (0)",
    "naval_drm": "nation -> its Naval Nationality DRM (0)",
    "naval_air": "land-based air group ids that count as naval air (+1 against ships at sea)",
    "at_sea": "true (default) or {'a': bool, 'b': bool}: each side's ships are at sea",
    "surprise": "side a's surprise level, or {'a': n, 'b': n} (3 or more: +1, first strike)",
}
#: what each condition may be (a set-up is checked whole before a battle is made)
CHECKS: Final[dict[str, Spec]] = {
    "strikes": whole(1, 20),
    "air_drm": by_nation(whole(-6, 6)),
    "naval_drm": by_nation(whole(-6, 6)),
    "naval_air": land_group_ids(),
    "at_sea": either(FLAG, by_side(FLAG)),
    "surprise": either(whole(0, 10), by_side(whole(0, 10))),
}


class AirStrikeBattle:
    """Air strikes on naval units by *A World at War* 20.44 (see :data:`RULE_NOTES`)."""

    rule_set = "airstrike"
    #: one strike
    phases: tuple[str, ...] = (
        "Each side's air attacks (20.44)",
        "Hits take effect: damaged, sunk, repaired",
    )

    def __init__(self, setup: BattleSetup, dice: Dice) -> None:
        setup = setup.copy()  # strikes mark the ships themselves; the caller's stay as given
        self.setup = setup
        self.dice = dice
        conditions = setup.conditions
        strikes = conditions.get("strikes", 1)
        if not isinstance(strikes, int) or isinstance(strikes, bool) or strikes < 1:
            raise ValueError(f"conditions['strikes'] must be a whole number ≥ 1, not {strikes!r}")
        self.strikes: int = strikes
        self.air_drm: Mapping[str, Any] = conditions.get("air_drm", {}) or {}
        self.naval_drm: Mapping[str, Any] = conditions.get("naval_drm", {}) or {}
        self.naval_air_ids: frozenset[str] = frozenset(conditions.get("naval_air", []) or [])
        self.sides: dict[str, Side] = {"a": setup.a, "b": setup.b}
        seen: set[str] = set()
        for side in self.sides.values():
            for ship in side.ships:
                if ship.id in seen:
                    raise ValueError(f"ship id {ship.id!r} is used twice")
                seen.add(ship.id)
        self.size: dict[str, int] = {
            ship.id: ship_factors(ship) for side in self.sides.values() for ship in side.ships
        }
        self.strike = 0
        self.log: list[str] = []
        self.narrate = True  # see TacticalBattle.narrate
        self._hits: dict[str, int] = {}  # this strike's hits on each ship

    # -- conditions ----------------------------------------------------------------------

    def at_sea(self, key: str) -> bool:
        """Whether side ``key``'s ships are at sea (else in port)."""
        return bool(_per_side(self.setup.conditions.get("at_sea", True), key, True, False))

    def surprise(self, key: str) -> int:
        """Side ``key``'s surprise level in this strike (the first strike only)."""
        if self.strike > 1:
            return 0
        return int(_per_side(self.setup.conditions.get("surprise", 0), key, 0, True))

    def modifiers(self, attack: _Attack) -> list[Modifier]:
        attacker = self.sides[attack.key]
        enemy_key = _enemy(attack.key)
        defender = self.sides[enemy_key]
        return air_modifiers(
            _nation_value(self.air_drm, attacker.nation),
            _nation_value(self.naval_drm, defender.nation),
            attack.naval_air,
            self.at_sea(enemy_key),
            self.surprise(attack.key),
        )

    # -- state ---------------------------------------------------------------------------

    def sink_level(self, ship: Ship) -> int:
        """Hits in one strike that sink ``ship``: its size, or size - 1 once damaged."""
        size = self.size[ship.id]
        if ship.state == "damaged" and size > 1:
            return size - 1
        return size

    def damage_level(self, ship: Ship) -> int:
        """Hits in one strike that damage ``ship`` (size - 1); 0 = it cannot be damaged."""
        size = self.size[ship.id]
        return size - 1 if size > 1 else 0

    def afloat(self, ship: Ship) -> bool:
        return ship.state != "sunk" and self._hits.get(ship.id, 0) < self.sink_level(ship)

    def _damaged_now(self, ship: Ship) -> bool:
        level = self.damage_level(ship)
        return ship.state == "damaged" or (level > 0 and self._hits.get(ship.id, 0) >= level)

    def targets(self, key: str) -> list[Ship]:
        """Side ``key``'s ships afloat that air can attack."""
        return [s for s in self.sides[key].ships if target_kind(s) and self.afloat(s)]

    def attacks(self, key: str) -> list[_Attack]:
        """Side ``key``'s air able to attack: naval air first, then land-based air."""
        side = self.sides[key]
        naval: list[AirGroup] = []
        for ship in side.ships:
            if ship.state == "undamaged":
                naval.extend(ship.air_groups)
        land: list[AirGroup] = []
        for group in side.air_groups:
            (naval if group.id in self.naval_air_ids else land).append(group)
        found = []
        for label, groups, is_naval in (
            ("naval air", naval, True),
            ("land-based air", land, False),
        ):
            if squadrons(groups):
                found.append(_Attack(key, label, is_naval, groups))
        return found

    def can_attack(self, key: str) -> bool:
        return bool(self.attacks(key)) and bool(self.targets(_enemy(key)))

    @property
    def finished(self) -> bool:
        return self.strike >= self.strikes or not (self.can_attack("a") or self.can_attack("b"))

    # -- a strike ------------------------------------------------------------------------

    def step(self) -> list[str]:
        """One air strike by each side's air, then the strike's hits take effect."""
        if self.finished:
            return []
        self.strike += 1
        self.dice.turn = self.strike
        self._hits = {}
        lines = [f"Strike {self.strike}"]
        planned = [(key, self.attacks(key)) for key in ("a", "b")]
        for key, attacks in planned:
            for attack in attacks:
                if self.targets(_enemy(key)):
                    lines.extend(self._attack(attack))
        lines.extend(self._end_of_strike())
        if not self.narrate:
            return []
        self.log.extend(lines)
        return lines

    def _attack(self, attack: _Attack) -> list[str]:
        attacker = self.sides[attack.key]
        defender = self.sides[_enemy(attack.key)]
        count = squadrons(attack.groups)
        mods = self.modifiers(attack)
        total = sum(m.value for m in mods)
        dice = self.dice.rolls(
            2, f"strike {self.strike}: {attacker.name} {attack.label} on {defender.name}"
        )
        natural = sum(dice)
        col = column(natural, total)
        hits = air_hits(count, col)
        rows = " + ".join(str(r) for r in air_rows(count))
        mod_text = ", ".join(f"{m.label} {m.value:+d}" for m in mods) or "no modifiers"
        lines = [
            f"{attacker.name} {attack.label} ({count} squadrons, row {rows}) attack "
            f"{defender.name}: rolled {dice[0]}+{dice[1]} = {natural} ({mod_text}) → column "
            f"{col if col < 12 else '12+'}: {hits} hit{'s' if hits != 1 else ''}"
        ]
        hit_named, applied = self._apply(defender, hits)
        lines.extend(applied)
        if dice[0] == dice[1] == 6:
            lines.extend(self._critical_hits(attack.key, hit_named))
        return lines

    def _hit(self, ship: Ship, lines: list[str], why: str = "") -> None:
        self._hits[ship.id] = self._hits.get(ship.id, 0) + 1
        h = self._hits[ship.id]
        lines.append(f"  hit on {ship.name} ({h} of {self.size[ship.id]} factors){why}")

    def _apply(self, defender: Side, hits: int) -> tuple[list[Ship], list[str]]:
        """Spread ``hits`` over ``defender``'s ships; returns named ships hit and the log."""
        lines: list[str] = []
        named_hit: list[Ship] = []
        named = [s for s in defender.ships if target_kind(s) == "named" and self.afloat(s)]
        order = {t: i for i, t in enumerate(NAMED_TYPES)}
        named.sort(key=lambda s: (order[s.type], -self.size[s.id]))
        remaining = hits
        for ship in named:
            while remaining and self.afloat(ship):
                self._hit(ship, lines)
                remaining -= 1
                if ship not in named_hit:
                    named_hit.append(ship)
        if remaining:
            remaining = self._apply_light(defender, remaining, lines)
        if remaining:
            lines.append(f"  {remaining} hit{'s' if remaining != 1 else ''} find no target")
        return named_hit, lines

    def _cruisers(self, defender: Side) -> list[Ship]:
        afloat = [s for s in defender.ships if target_kind(s) == "cruiser" and self.afloat(s)]
        # a cruiser already hit in this strike, then a damaged one, then as listed
        return sorted(afloat, key=lambda s: (self._hits.get(s.id, 0) == 0, s.state != "damaged"))

    def _one_factor(self, defender: Side) -> Ship | None:
        afloat = [s for s in defender.ships if target_kind(s) == "one-factor" and self.afloat(s)]
        if not afloat:
            return None
        counts = {k: sum(ONE_FACTOR_KINDS[s.type] == k for s in afloat) for k in ONE_FACTOR_ORDER}
        kind = max(ONE_FACTOR_ORDER, key=lambda k: (counts[k], -ONE_FACTOR_ORDER.index(k)))
        return next(s for s in afloat if ONE_FACTOR_KINDS[s.type] == kind)

    def _apply_light(self, defender: Side, hits: int, lines: list[str]) -> int:
        """Hits on the light force (cruisers and one-factor units); returns hits left over."""
        cruisers_at_start = bool(self._cruisers(defender))
        ones_at_start = self._one_factor(defender) is not None
        mixed = cruisers_at_start and ones_at_start
        cruiser_factors_sunk = 0
        one_factors_sunk = 0
        for k in range(hits):
            cruisers = self._cruisers(defender)
            one = self._one_factor(defender)
            if not cruisers and one is None:
                return hits - k
            if not cruisers:
                target = one
            elif one is None or k % 4 in (0, 1):
                # no one-factor unit left, or "the first, fifth, ninth, etc. hit" and its pair
                target = cruisers[0]
            elif one_factors_sunk + 1 <= cruiser_factors_sunk:
                target = one
            else:  # the proviso of 20.551
                target = cruisers[0]
            assert target is not None
            why = " (mixed light force)" if mixed else ""
            self._hit(target, lines, why)
            if not self.afloat(target):
                if target_kind(target) == "cruiser":
                    cruiser_factors_sunk += CRUISER_FACTORS
                else:
                    one_factors_sunk += 1
        return 0

    def _critical_hits(self, key: str, ships: Sequence[Ship]) -> list[str]:
        """Double sixes: one critical hit die roll for each named ship hit and afloat."""
        lines = ["  double sixes: a chance at a critical hit"]
        in_port = not self.at_sea(_enemy(key))
        for ship in ships:
            if not self.afloat(ship):
                continue
            roll = self.dice.roll(f"strike {self.strike}: critical hit on {ship.name}")
            if roll < CRITICAL_HIT_ON:
                lines.append(f"  critical hit die roll {roll} on {ship.name}: no critical hit")
                continue
            if in_port:
                self._hits[ship.id] = self.sink_level(ship)
                effect = "sunk in port"
            elif self._damaged_now(ship) or self.damage_level(ship) == 0:
                self._hits[ship.id] = self.sink_level(ship)
                effect = "sunk (already damaged)"
            else:
                self._hits[ship.id] = self.damage_level(ship)
                effect = "damaged"
            ship.notes.append(f"strike {self.strike}: critical hit ({effect})")
            lines.append(f"  critical hit die roll {roll} on {ship.name}: critical hit, {effect}")
        return lines

    def _end_of_strike(self) -> list[str]:
        lines = []
        for key, side in self.sides.items():
            port = "" if self.at_sea(key) else " in port"
            for ship in side.ships:
                h = self._hits.get(ship.id, 0)
                if not h:
                    continue
                size = self.size[ship.id]
                if h >= self.sink_level(ship):
                    again = " (damaged again)" if ship.state == "damaged" else ""
                    ship.state = "sunk"
                    ship.damage = size
                    text = f"{ship.name} sunk{port}{again} ({h} hits, {size} factors)"
                elif self.damage_level(ship) and h >= self.damage_level(ship):
                    ship.state = "damaged"
                    ship.damage = max(ship.damage, size - 1)
                    text = f"{ship.name} damaged{port} ({h} hits, {size} factors)"
                else:
                    text = f"{ship.name}: {h} hit{'s' if h != 1 else ''} repaired immediately"
                ship.notes.append(f"strike {self.strike}: {text}")
                lines.append(text)
        self._hits = {}
        return lines

    # -- the end -------------------------------------------------------------------------

    def factors_lost(self, key: str) -> int:
        """Naval factors side ``key`` has had sunk."""
        return sum(self.size[s.id] for s in self.sides[key].ships if s.state == "sunk")

    def _winner(self) -> str:
        """The side that sank more naval factors ("" on a tie)."""
        lost_a, lost_b = self.factors_lost("a"), self.factors_lost("b")
        return "a" if lost_b > lost_a else "b" if lost_a > lost_b else ""

    def outcome(self) -> tuple[str, dict[str, str]]:
        return self._winner(), {s.id: s.state for side in self.sides.values() for s in side.ships}

    def result(self) -> BattleResult:
        winner = self._winner()
        ships = {s.id: s for side in self.sides.values() for s in side.ships}
        groups: dict[str, AirGroup] = {}
        for side in self.sides.values():
            for ship in side.ships:
                groups.update({g.id: g for g in ship.air_groups})
            groups.update({g.id: g for g in side.air_groups})
        return BattleResult(self.rule_set, self.strike, winner, ships, groups, list(self.log))


def _enemy(key: str) -> str:
    return "b" if key == "a" else "a"


@register("airstrike")
def airstrike_battle(setup: BattleSetup, dice: Dice) -> AirStrikeBattle:
    """The ``airstrike`` rule set: *A World at War* air attacks on naval units."""
    return AirStrikeBattle(setup, dice)
