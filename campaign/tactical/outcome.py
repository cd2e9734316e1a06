"""From the campaign to a tactical battle and back.

:func:`expand_forces` turns campaign task forces into named ships and air groups (from the
scenario's ``ships.csv`` and ``air_groups.csv``); :func:`step_losses` turns the battle's
result back into campaign step losses, unit by unit, by this rule (docs/rules-notes.md
"From a tactical battle to step losses"):

* a campaign unit's ships are weighed by standard tonnage;
* if half or more of its tonnage was sunk, the unit takes two steps (a ready unit is sunk,
  a damaged one too);
* otherwise, if any of its ships was sunk, or half or more of its tonnage was damaged or
  crippled, the unit takes one step;
* otherwise none.

The campaign battle's winner then follows 002: *the side that has lost the most combat
value must withdraw and has lost* (equal: the higher CV at the end wins).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass

from ..csvdata import Problem
from ..forces import fleet_cv
from ..naval_combat import battle_winner
from ..scenario import Scenario
from ..state import Unit
from . import AirGroup, BattleResult, BattleSetup, SetupError, Ship, Side, check_setup, parse_guns

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
    unit*). Raises ValueError naming a unit with no ships in ``ships.csv``."""

    def side(name: str, nation: str, units: Iterable[Unit]) -> Side:
        ships: list[Ship] = []
        for unit in units:
            if unit.state == "sunk":
                continue
            found = ships_of(scenario, unit.id)
            if not found:
                raise ValueError(f"'{unit.name}' ({unit.id}) has no ships in ships.csv")
            for ship in found:
                if unit.state == "damaged":
                    ship.state = "damaged"
                if not unit.carries_air:
                    ship.air_groups = []
            ships += found
        return Side(name, nation, ships)

    return BattleSetup(title, side(*a), side(*b), dict(conditions or {}))


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


@dataclass(frozen=True)
class UnitLoss:
    unit: str
    steps: int
    sunk_share: float  # of the unit's tonnage
    hit_share: float  # damaged, crippled or sunk
    why: str


def step_losses(result: BattleResult, units: Iterable[Unit]) -> list[UnitLoss]:
    """Campaign step losses for each unit whose ships fought (the rule above)."""
    out = []
    for unit in units:
        ships = [s for s in result.ships.values() if s.campaign_unit == unit.id]
        if not ships:
            continue
        total = sum(max(s.tonnage, 1) for s in ships)
        sunk = sum(max(s.tonnage, 1) for s in ships if s.state == "sunk")
        hit = sum(max(s.tonnage, 1) for s in ships if s.state != "undamaged")
        sunk_share, hit_share = sunk / total, hit / total
        if sunk_share >= 0.5:
            steps, why = 2, f"{sunk_share:.0%} of its tonnage sunk"
        elif sunk or hit_share >= 0.5:
            steps, why = (
                1,
                (
                    f"{sunk_share:.0%} of its tonnage sunk"
                    if sunk
                    else f"{hit_share:.0%} of its tonnage damaged"
                ),
            )
        else:
            steps, why = 0, "lightly touched"
        steps = min(steps, 2 if unit.state == "ready" else 1)
        out.append(UnitLoss(unit.id, steps, sunk_share, hit_share, why))
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
            after_unit = Unit(**{**unit.__dict__})
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
