"""Named rule options: readings of the rules players could reasonably disagree on.

A scenario chooses them in the ``[options]`` table of ``scenario.toml``; each is explained,
with the seed passage it reads, in docs/rules-notes.md. An unknown option or a value of the
wrong kind is refused when the scenario is read, naming the option and what would be valid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RuleOption:
    name: str
    default: Any
    meaning: str
    choices: tuple[str, ...] = ()  # for a text option; empty: a number or yes/no


RULE_OPTIONS: dict[str, RuleOption] = {
    o.name: o
    for o in (
        RuleOption(
            "colour_short_row",
            "gap_orange",
            "how the colour table's short '-3 / -2' row is read "
            "(the readings are campaign.merchant_warfare.SHORT_ROW_READINGS)",
            ("gap_orange", "gap_yellow", "last_repeated"),
        ),
        RuleOption(
            "fleet_train_tonnage",
            10,
            "tonnage points a new fleet train's supply route must carry (002 'substantial "
            "dedicated merchant tonnage')",
        ),
        RuleOption(
            "fleet_train_lsp",
            2,
            "LSP a new fleet train takes from its origin as its first stock (002 'additional "
            "... LSP')",
        ),
        RuleOption(
            "fleet_train_manpower",
            1,
            "manpower points setting up a fleet train costs, handed to the land game (002 "
            "'additional manpower')",
        ),
        RuleOption(
            "fleet_train_support",
            1,
            "tonnage points of effective lift a fleet train's route needs for each unit based "
            "there (002 'that merchant route must be sufficient to support the fleet')",
        ),
        RuleOption(
            "improvised_landing",
            2,
            "manpower/tank points an invasion force without landing craft may land (at -2)",
        ),
        RuleOption(
            "allies_share_forces",
            True,
            "true: a team's view shows its allies' units, Air Points and garrisons (allied "
            "navies plan together: cards may be played on behalf of allies); false: only "
            "its own forces and what is public (docs/team-views.md)",
        ),
        RuleOption(
            "annihilated_can_win",
            False,
            "true: a naval battle is judged by combat value lost alone, so a force sunk to the "
            "last unit can still win and hold the area (002 'The side that has lost the most "
            "combat value must withdraw')",
        ),
        RuleOption(
            "landing_strength",
            "invasion_force",
            "whose ships and air add to a minor invasion's CV: the invasion force (002 'the "
            "TF allocated to Invasion') or every task force of the operation",
            ("invasion_force", "all_task_forces"),
        ),
        RuleOption(
            "merchant_card_shifts",
            False,
            "true: an Advantage Card may shift a merchant-warfare combat one odds column "
            "(002 'Calculating Losses' says cards count there as the die roll bonus shown)",
        ),
        RuleOption(
            "single_task_force_landings",
            False,
            "true: an amphibious operation may be one task force covering its own landing "
            "(002 asks for a covering force and an invasion force)",
        ),
        RuleOption(
            "score_delivered",
            10,
            "solo score: points for delivering a whole turn's starting lift on working "
            "routes (campaign/score.py; the naval rules set no victory conditions)",
        ),
        RuleOption(
            "score_tonnage_sunk",
            1,
            "solo score: points per per cent of the enemy side's starting tonnage sunk",
        ),
        RuleOption(
            "score_fleet_cv",
            1,
            "solo score: points per per cent of the enemy side's starting Fleet CV lost to "
            "damage and sinking",
        ),
        RuleOption("score_base", 5, "solo score: points per base or island taken from the enemy"),
        RuleOption(
            "score_sea_area",
            2,
            "solo score: points per sea area won by an operation (contested for the enemy)",
        ),
        RuleOption(
            "score_invasion", 3, "solo score: points per landing that succeeds, minor or major"
        ),
    )
}


def option(options: Mapping[str, Any], name: str) -> Any:
    """The scenario's value of a rule option, else its default."""
    return options.get(name, RULE_OPTIONS[name].default)


def check_options(options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(option, what is wrong) for each unknown option or value of the wrong kind."""
    problems = []
    for name, value in options.items():
        rule = RULE_OPTIONS.get(name)
        if rule is None:
            problems.append((name, "is not a rule option; valid: " + ", ".join(RULE_OPTIONS)))
            continue
        default = rule.default
        if rule.choices:
            if value not in rule.choices:
                problems.append((name, f"{value!r} is not one of: {', '.join(rule.choices)}"))
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                problems.append((name, f"must be true or false, not {value!r}"))
        elif isinstance(default, int) and (
            isinstance(value, bool) or not isinstance(value, int) or value < 0
        ):
            problems.append((name, f"must be a whole number 0 or more, not {value!r}"))
    return problems
