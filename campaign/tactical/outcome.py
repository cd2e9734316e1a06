"""From the campaign to a tactical battle and back.

:func:`expand_forces` turns campaign task forces into named ships and air groups (from the
scenario's ``ships.csv`` and ``air_groups.csv``); :func:`step_losses` turns the battle's
result back into campaign step losses, unit by unit, by this rule (docs/rules-notes.md
"From a tactical battle to step losses"):

* a campaign unit is weighed whole: every one of its ships by standard tonnage, the ships
  that were not in the battle counted as untouched (:func:`unit_rosters` lists them);
* 002 "Damage" gives a unit three states — undamaged, damaged (*all their combat values
  are reduced by half*) and sunk — so the unit takes the step whose state is nearest what
  is left of it: **two steps** when three quarters or more of its tonnage was sunk;
  **one step** when a quarter or more was sunk or crippled, or three quarters or more was
  damaged at all; otherwise none. A unit already damaged takes at most one more step, and
  its ships' old damage is not counted again.

No single carrier of a two-carrier group is under a quarter or over three quarters of its
tonnage (the 1942 groups run from 33% to 67%), so one carrier sunk costs its group one step
whichever carrier it is, and both sunk cost two.

The campaign battle's winner then follows 002: *the side that has lost the most combat
value must withdraw and has lost* (equal: the higher CV at the end wins).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace

from ..csvdata import Problem
from ..forces import fleet_cv
from ..guns import parse_guns
from ..naval_combat import battle_winner
from ..scenario import Scenario
from ..state import Unit
from . import (
    COMMON_CHECKS,
    AirGroup,
    BattleResult,
    BattleSetup,
    SetupError,
    SetupIds,
    Ship,
    Side,
    check_setup,
)

#: the set-up condition that lists each campaign unit's ships (docs/battle-setups.md)
UNITS_CONDITION = "campaign_units"

#: air group kind → words for its name
KIND_WORDS = {
    "fighter": "fighters",
    "dive_bomber": "dive bombers",
    "torpedo_bomber": "torpedo bombers",
    "level_bomber": "bombers",
    "patrol": "patrol aircraft",
}


def ships_of(scenario: Scenario, unit_id: str) -> list[Ship]:
    """The named ships of one campaign unit, with their carriers' air groups."""
    ship_names = {s["id"]: s["name"] for s in scenario.rows("ships")}
    groups: dict[str, list[AirGroup]] = {}
    for g in scenario.rows("air_groups"):
        kind = KIND_WORDS.get(g["kind"], g["kind"].replace("_", " "))
        groups.setdefault(g["ship"], []).append(
            AirGroup(
                g["id"],
                g["kind"],
                g["aircraft"],
                # "Lexington dive bombers (SBD Dauntless)": what a person reads in the log
                name=f"{ship_names.get(g['ship'], g['ship'])} {kind}"
                + (f" ({g['model']})" if g["model"] else ""),
                base=g["ship"],
                model=g["model"],
            )
        )
    out = []
    for s in scenario.rows("ships"):
        if s["unit"] != unit_id:
            continue
        out.append(
            Ship(
                s["id"],
                s["name"],
                s["nation"],
                s["type"],
                s["tonnage"],
                s["completed"],
                s["speed"],
                parse_guns(s["guns"])[0],
                s["aa"],
                s["belt"],
                s["deck"],
                s["turret"],
                s["torpedo_tubes"],
                air_groups=list(groups.get(s["id"], [])),
                campaign_unit=unit_id,
            )
        )
    return out


def expand_forces(
    scenario: Scenario,
    title: str,
    a: tuple[str, str, Iterable[Unit]],
    b: tuple[str, str, Iterable[Unit]],
    conditions: Mapping[str, object] | None = None,
) -> BattleSetup:
    """A battle set-up from two campaign forces: (side name, nation, units) each.

    A damaged campaign unit's ships start damaged; a carrier group that no longer carries
    its Air Point brings no air groups (002: *Damaged Carrier units cannot carry their air
    unit*). The units and all their ships are listed under ``conditions
    ["campaign_units"]`` (:func:`unit_rosters`). Raises ValueError naming a unit with no
    ships in ``ships.csv``."""

    listed: dict[str, object] = {}

    def side(name: str, nation: str, units: Iterable[Unit]) -> Side:
        ships: list[Ship] = []
        for unit in units:
            if unit.state == "sunk":
                continue
            found = ships_of(scenario, unit.id)
            if not found:
                raise ValueError(f"'{unit.name}' ({unit.id}) has no ships in ships.csv")
            listed[unit.id] = {
                "name": unit.name,
                "type": unit.type,
                "ships": [
                    {"id": s.id, "name": s.name, "type": s.type, "tonnage": s.tonnage}
                    for s in found
                ],
            }
            for ship in found:
                if unit.state == "damaged":
                    ship.state = "damaged"
                if not unit.carries_air:
                    ship.air_groups = []
            ships += found
        return Side(name, nation, ships)

    sides = side(*a), side(*b)
    # every unit's whole list of ships, so step losses weigh the unit whole
    return BattleSetup(title, *sides, {**(conditions or {}), UNITS_CONDITION: listed})


def in_rule_set_terms(rule_set: str, setup: BattleSetup) -> BattleSetup:
    """A set-up in a rule set's own scales, as a copy. A set-up written for another rule set
    (``setup.rule_set``) loses the figures only that one reads — each ship's
    ``damage_capacity`` and each air group's ``factor`` (e.g. the carrier rules' 10 damage
    points would be a 10-factor ship to the air-strike rules) — so the rule set works them
    out itself; then the module's ``adapt``, where it has one (e.g. the carrier rules roll AA
    in dice where ships.csv counts guns).

    The set-up is checked first, as a set-up file is (:func:`campaign.tactical.check_setup`:
    its ships and air groups, its size, and its conditions for the rule set it is written
    for, else this one): :class:`~campaign.tactical.SetupError` lists every problem."""
    found = check_setup(asdict(setup), rule_set)
    if found:
        raise SetupError([Problem("set-up", 0, where, message) for where, message in found])
    setup = setup.copy()
    if setup.rule_set and setup.rule_set != rule_set:
        for side in (setup.a, setup.b):
            for ship in side.ships:
                ship.damage_capacity = 0
                for group in ship.air_groups:
                    group.factor = 0
            for group in side.air_groups:
                group.factor = 0
        setup.rule_set = rule_set
    module = importlib.import_module(f"campaign.tactical.{rule_set}")
    adapt = getattr(module, "adapt", None)
    return adapt(setup) if adapt is not None else setup


#: 002 "Units": how many ships of which types a unit stands for — *Fleet Carrier Group – 2
#: fleet carrier plus their escorting light units*, *Escort Carrier Group – 4 escort
#: carriers*, *Heavy Ship Group - 4 ships – battleships, battle cruisers and heavy
#: cruisers*, *Light Cruiser Force - 6 light cruisers*, *Escort Force – approx 30 escorts
#: and/or destroyers*, *Submarine flotilla – A force of 20 submarines*. Read only for a
#: unit whose ships are not listed (a set-up of its own naming a campaign unit): its
#: missing ships are counted as absent and untouched. In the order a unit's type is told
#: from the ships it sent (a carrier makes it a carrier group).
UNIT_SIZES: dict[str, tuple[int, tuple[str, ...]]] = {
    "fleet_carrier": (2, ("carrier", "light_carrier")),
    "escort_carrier": (4, ("escort_carrier",)),
    "heavy": (4, ("battleship", "battlecruiser", "heavy_cruiser")),
    "light_cruiser": (6, ("light_cruiser",)),
    "submarine": (20, ("submarine",)),
    "escort": (30, ("destroyer", "escort")),
}

#: the step-loss thresholds, as shares of a unit's whole tonnage (numerator, denominator):
#: the midpoints between 002's three states, whole (1), damaged (half values) and sunk (0)
TWO_STEPS_SUNK = (3, 4)  # three quarters or more sunk: the unit is sunk
ONE_STEP_OUT = (1, 4)  # a quarter or more sunk or crippled: the unit is damaged
ONE_STEP_HIT = (3, 4)  # three quarters or more damaged at all: the unit is damaged


#: why a unit loses what it loses (:attr:`UnitLoss.reason`) → the words, given the share
_WHY: dict[str, tuple[str, int]] = {
    "sunk": ("{:.0%} of its tonnage sunk", 0),
    "out": ("{:.0%} of its tonnage sunk or crippled", 1),
    "hit": ("{:.0%} of its tonnage damaged", 2),
    "light": ("lightly touched: {:.0%} of its tonnage hit", 2),
}


@dataclass(frozen=True)
class UnitLoss:
    unit: str
    steps: int
    sunk_share: float  # of the whole unit's tonnage, absent ships included
    hit_share: float  # damaged, crippled or sunk
    #: which share decided: "sunk", "out" (sunk or crippled), "hit", "light" or "untouched"
    reason: str
    out_share: float = 0.0  # crippled or sunk
    absent: tuple[str, ...] = ()  # the unit's ships that were not in the battle
    absent_names: tuple[str, ...] = ()

    @property
    def why(self) -> str:
        """The loss in words (put together only when read: an odds preview counts
        thousands of losses and reads none)."""
        if self.reason in _WHY:
            text, which = _WHY[self.reason]
            why = text.format((self.sunk_share, self.out_share, self.hit_share)[which])
        else:
            why = "untouched"
        names = self.absent_names
        if names:
            if len(names) > 3:
                listed = f"{len(names)} of its ships"
            else:
                listed = (
                    names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
                )
            why += f"; {listed} not in the battle"
        return why


def _weight(ship: Ship) -> int:
    return max(ship.tonnage, 1)


def _at_least(part: int, whole: int, share: tuple[int, int]) -> bool:
    return part * share[1] >= whole * share[0]


#: the most steps a unit can lose, by its state before the battle
_STEPS_LEFT: dict[str, int] = {"ready": 2, "damaged": 1}


def unit_loss(unit: Unit, fought: Iterable[Ship], roster: Iterable[Ship] = ()) -> UnitLoss:
    """One unit's steps from the fate of all its ships (the module's rule): ``fought``
    are its ships as the battle left them; ``roster`` every ship of the unit, those not
    in the battle counting as untouched (empty: the unit is the ships that fought)."""
    fought = list(fought)
    absent: list[Ship] = []
    if roster:
        present = {s.id for s in fought}
        absent = [s for s in roster if s.id not in present]
    total = sum(_weight(s) for s in absent)
    sunk = out = hit = 0
    for ship in fought:
        w = _weight(ship)
        total += w
        state = ship.state
        if state == "sunk":
            sunk += w
        if state in ("sunk", "crippled"):
            out += w
        # a damaged unit's ships came to the battle damaged: that is not a new loss
        if state in ("sunk", "crippled") or (state == "damaged" and unit.state == "ready"):
            hit += w
    share = (sunk / total, out / total, hit / total) if total else (0.0, 0.0, 0.0)
    if _at_least(sunk, total, TWO_STEPS_SUNK):
        steps, reason = 2, "sunk"
    elif sunk and _at_least(sunk, total, ONE_STEP_OUT):
        steps, reason = 1, "sunk"
    elif out and _at_least(out, total, ONE_STEP_OUT):
        steps, reason = 1, "out"
    elif hit and _at_least(hit, total, ONE_STEP_HIT):
        steps, reason = 1, "hit"
    elif hit:
        steps, reason = 0, "light"
    else:
        steps, reason = 0, "untouched"
    steps = min(steps, _STEPS_LEFT.get(unit.state, 0))
    return UnitLoss(
        unit.id,
        steps,
        share[0],
        share[2],
        reason,
        share[1],
        tuple([s.id for s in absent]),
        tuple([s.name for s in absent]),
    )


def step_losses(
    result: BattleResult,
    units: Iterable[Unit],
    rosters: Mapping[str, Sequence[Ship]] | None = None,
) -> list[UnitLoss]:
    """Campaign step losses for each unit whose ships fought (the module's rule).
    ``rosters``: unit id → all the unit's ships (:func:`unit_rosters`); a unit not in it is
    taken to be the ships that fought (as every campaign battle brings whole units)."""
    by_unit: dict[str, list[Ship]] = {}
    for ship in result.ships.values():
        if ship.campaign_unit:
            by_unit.setdefault(ship.campaign_unit, []).append(ship)
    rosters = rosters or {}
    return [
        unit_loss(unit, by_unit[unit.id], rosters.get(unit.id, ()))
        for unit in units
        if unit.id in by_unit
    ]


@dataclass(frozen=True)
class UnitRoster:
    """A campaign unit as a set-up lists it under ``conditions["campaign_units"]``."""

    id: str
    name: str
    type: str
    ships: tuple[Ship, ...]


def declared_units(setup: BattleSetup) -> dict[str, UnitRoster]:
    """The campaign units a set-up lists (``conditions["campaign_units"]``: unit id →
    ``{"name", "type", "ships": [{"id", "name", "type", "tonnage"}, ...]}``), held to the
    set-up check (:data:`campaign.tactical.COMMON_CHECKS`): SetupError names every field
    that is wrong."""
    data = setup.conditions.get(UNITS_CONDITION) or {}
    found = list(
        COMMON_CHECKS[UNITS_CONDITION].check(data, SetupIds(), f"conditions.{UNITS_CONDITION}")
    )
    if found:
        raise SetupError([Problem("set-up", 0, where, message) for where, message in found])
    out: dict[str, UnitRoster] = {}
    for uid, entry in data.items():
        ships = tuple(
            Ship(
                row["id"],
                row.get("name") or row["id"],
                "",
                row.get("type", ""),
                row["tonnage"],
                campaign_unit=uid,
            )
            for row in entry.get("ships", [])
        )
        out[uid] = UnitRoster(uid, entry.get("name") or uid, entry.get("type", ""), ships)
    return out


def unit_type_of(ships: Iterable[Ship]) -> str:
    """The 002 unit type a unit's ships make (its carriers make it a carrier group ...);
    "" when no ship is of a type 002 sizes."""
    types = {s.type for s in ships}
    for unit_type, (_, ship_types) in UNIT_SIZES.items():
        if types & set(ship_types):
            return unit_type
    return ""


def unit_rosters(setup: BattleSetup) -> dict[str, list[Ship]]:
    """Every campaign unit the set-up's ships name → all its ships, for
    :func:`step_losses`: the ships the set-up lists for it (``conditions
    ["campaign_units"]``; a campaign battle lists every unit it brings), else the ships
    that fought and, for the rest of 002's size for the unit's type (:data:`UNIT_SIZES`),
    absent ships of the fighting ones' average tonnage."""
    declared = declared_units(setup)
    fought: dict[str, list[Ship]] = {}
    for ship in (*setup.a.ships, *setup.b.ships):
        if ship.campaign_unit:
            fought.setdefault(ship.campaign_unit, []).append(ship)
    out: dict[str, list[Ship]] = {}
    for uid, ships in fought.items():
        listed = declared.get(uid)
        if listed is not None and listed.ships:
            out[uid] = list(listed.ships)
            continue
        kind = (listed.type if listed else "") or unit_type_of(ships)
        size, types = UNIT_SIZES.get(kind, (0, ()))
        main = [s for s in ships if s.type in types]
        missing = size - len(main)
        out[uid] = list(ships)
        if missing <= 0 or not main:
            continue
        tons = round(sum(s.tonnage for s in main) / len(main))
        words = main[0].type.replace("_", " ")
        for n in range(1, missing + 1):
            out[uid].append(
                Ship(
                    f"{uid}/absent-{n}",
                    f"another {words}",
                    main[0].nation,
                    main[0].type,
                    tons,
                    campaign_unit=uid,
                )
            )
    return out


def campaign_winner(
    a_units: Iterable[Unit],
    b_units: Iterable[Unit],
    losses: Iterable[UnitLoss],
    annihilated_can_win: bool = False,
) -> str:
    """002: the side that lost more combat value withdraws ("a", "b")."""
    return campaign_decision(a_units, b_units, losses, annihilated_can_win)[0]


def campaign_decision(
    a_units: Iterable[Unit],
    b_units: Iterable[Unit],
    losses: Iterable[UnitLoss],
    annihilated_can_win: bool = False,
) -> tuple[str, str]:
    """The campaign winner ("a" / "b") and why, in words. 002: *The side that has lost the
    most combat value must withdraw and has lost. In the event of equal losses, the side
    with the highest CV at the end is the winner*; still equal, the defender (``b``) holds
    (docs/rules-notes.md)."""
    by_unit = {loss.unit: loss.steps for loss in losses}

    def lost_and_left(units: Iterable[Unit]) -> tuple[int, int, bool]:
        lost = left = 0
        wiped = True
        for unit in units:
            before = fleet_cv(unit)
            after_unit = replace(unit)
            for _ in range(by_unit.get(unit.id, 0)):
                after_unit.state = "damaged" if after_unit.state == "ready" else "sunk"
                after_unit.carries_air = False
            after = fleet_cv(after_unit)
            lost += before - after
            left += after
            wiped = wiped and after_unit.state == "sunk"
        return lost, left, wiped

    (lost_a, left_a, wiped_a) = lost_and_left(a_units)
    (lost_b, left_b, wiped_b) = lost_and_left(b_units)
    winner, why = battle_winner(
        lost_a, left_a, lost_b, left_b, wiped_a, wiped_b, annihilated_can_win
    )
    return winner, f"{why}: CV lost {lost_a} against {lost_b}, left {left_a} against {left_b}"
