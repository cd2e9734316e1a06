"""Issue 13's readings of 002, each checked in play on the mini scenario with scripted dice
(see docs/rules-notes.md for the passages)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from campaign.engine import Campaign
from campaign.gamefile import GameFile
from campaign.scenario import load_scenario
from tests.test_engine import give, scripted
from tests.test_scenario import with_options


@pytest.fixture
def game(tmp_path: Path, mini_dir: Path) -> Path:
    path = tmp_path / "g.seacontrol"
    GameFile.create(path, load_scenario(mini_dir)).close()
    return path


def _blue_carriers_in_the_east(**tf: Any) -> dict[str, Any]:
    return {
        "nation": "blue",
        "turn": 1,
        "task_forces": [
            {"id": "cv", "name": "Carrier Group", "base": "blue_port", "units": ["blue_cv1"]}
            | {"lsp": 1}
            | tf
        ],
        "operations": [
            {"id": "sweep", "kind": "sea_control", "area": "east_sea", "task_forces": ["cv"]}
        ],
    }


RED_BATTLESHIPS = {
    "nation": "red",
    "turn": 1,
    "task_forces": [
        {"id": "bb", "name": "Red Fleet", "base": "red_port", "units": ["red_bb1"], "lsp": 1}
    ],
}


def test_a_force_sunk_to_the_last_unit_does_not_win_by_losing_less(game: Path) -> None:
    """Blue's carrier group (CV 11) is damaged (loses 11 CV); Red's battleships (CV 5) are
    sunk (lose 5). Red lost less combat value but has nothing left afloat: Blue wins and
    holds the area (the literal comparison is the option annihilated_can_win)."""
    with Campaign.open(game) as c:
        give(c, _blue_carriers_in_the_east(), RED_BATTLESHIPS)
        # step 8: Blue (CV 11, +1 2:1, +2 air) rolls 1 → column 4 → 2 steps: Red sunk;
        # Red (CV 5, -1 outnumbered, -2 air, +1 own fleet base) rolls 6 → column 4 → 1 step
        c.resolve(dice=scripted({8: [1, 6]}))
        result = next(e for e in c.events() if e.kind == "battle_result")
        assert result.data["cv_lost"] == {"allies": 11, "axis": 5}
        assert result.data["winner"] == "allies"
        assert "sunk to the last unit" in result.text
        assert any(e.kind == "sea_control" for e in c.events())


def game_with_options(tmp_path: Path, folder: Path, options: str) -> Path:
    """A new game of the scenario in ``folder`` with this ``[options]`` table."""
    with_options(folder, options)
    path = tmp_path / "options.seacontrol"
    GameFile.create(path, load_scenario(folder)).close()
    return path


def test_the_literal_reading_lets_the_sunk_force_win(tmp_path: Path, mini_copy: Path) -> None:
    path = game_with_options(tmp_path, mini_copy, "annihilated_can_win = true\n")
    with Campaign.open(path) as c:
        give(c, _blue_carriers_in_the_east(), RED_BATTLESHIPS)
        c.resolve(dice=scripted({8: [1, 6]}))
        result = next(e for e in c.events() if e.kind == "battle_result")
        assert result.data["winner"] == "axis"


BLUE_TWO_SWEEPS: dict[str, Any] = {
    "nation": "blue",
    "turn": 1,
    "task_forces": [
        {"id": "bb", "name": "Battle Squadron", "base": "blue_port", "units": ["blue_bb1"]}
        | {"lsp": 1},
        {"id": "cv", "name": "Carrier Group", "base": "blue_port", "units": ["blue_cv1"]}
        | {"lsp": 1},
    ],
    "operations": [
        {"id": "north", "kind": "sea_control", "area": "north_sea", "task_forces": ["bb"]},
        {"id": "east", "kind": "sea_control", "area": "east_sea", "task_forces": ["cv"]},
    ],
}


def _red_standing_by(**tf: Any) -> dict[str, Any]:
    return {
        "nation": "red",
        "turn": 1,
        "task_forces": [
            {"id": "bb", "name": "Red Fleet", "base": "red_port", "units": ["red_bb1"]}
            | {"lsp": 1}
            | tf
        ],
    }


def _battle_areas(c: Campaign) -> list[str]:
    return [e.data["area"] for e in c.events() if e.kind == "naval_combat"]


@pytest.mark.parametrize(
    ("intervene_in", "battle_in"),
    [
        ([], "east_sea"),  # none named: the nearest enemy operation (0 areas away)
        (["north_sea"], "north_sea"),  # the orders choose
        (["inner_sea", "north_sea"], "north_sea"),  # first named where the enemy operates
    ],
)
def test_a_task_force_intervenes_where_its_orders_say(
    game: Path, intervene_in: list[str], battle_in: str
) -> None:
    """002 *Any enemy TF within range may choose to intervene*: the orders name the sea
    areas (an enemy's operation ids are not known to a team)."""
    with Campaign.open(game) as c:
        give(c, BLUE_TWO_SWEEPS, _red_standing_by(intervene_in=intervene_in))
        c.resolve(dice=scripted({8: [3, 3]}))
        assert _battle_areas(c) == [battle_in]
        joined = next(e for e in c.events() if e.kind == "task_force_intervenes")
        assert joined.data["area"] == battle_in


def test_forces_standing_by_join_a_battle_where_both_sides_operate(game: Path) -> None:
    """Blue and Red both operate in the East Sea; Blue's battle squadron standing by in
    range joins its side there (it used to stay home when both sides operated)."""
    blue = {
        "nation": "blue",
        "turn": 1,
        "task_forces": [
            {"id": "cv", "name": "Carrier Group", "base": "blue_port", "units": ["blue_cv1"]}
            | {"lsp": 1},
            {"id": "bb", "name": "Battle Squadron", "base": "blue_port", "units": ["blue_bb1"]}
            | {"lsp": 1, "intervene_in": ["east_sea"]},
        ],
        "operations": [
            {"id": "east", "kind": "sea_control", "area": "east_sea", "task_forces": ["cv"]}
        ],
    }
    red = {
        "nation": "red",
        "turn": 1,
        "task_forces": [
            {"id": "bb", "name": "Red Fleet", "base": "red_port", "units": ["red_bb1"], "lsp": 1}
        ],
        "operations": [
            {"id": "hold", "kind": "sea_control", "area": "east_sea", "task_forces": ["bb"]}
        ],
    }
    with Campaign.open(game) as c:
        give(c, blue, red)
        [battle] = c.preview_battles()
        assert sorted(battle.units["allies"]) == ["blue_bb1", "blue_cv1"]
        c.resolve(dice=scripted({8: [3, 3]}))
        fought = next(e for e in c.events() if e.kind == "naval_combat")
        assert fought.data["sides"]["allies"]["cv"] == 16


@pytest.mark.parametrize(
    ("tf", "message"),
    [
        ({"intervene_in": ["atlantis"]}, "no sea area 'atlantis'"),
        ({"intervene_in": ["west_sea"], "lsp": 0}, "needs an LSP"),
        ({"intervene_in": ["west_sea"], "stance": "stay"}, "its stance is 'stay'"),
        ({"intervene_in": ["west_sea"], "intervene": True}, "intervene: is not a field"),
    ],
)
def test_intervention_orders_are_checked(game: Path, tf: dict[str, Any], message: str) -> None:
    from campaign.orders import OrdersError

    with Campaign.open(game) as c, pytest.raises(OrdersError, match=message):
        give(c, _red_standing_by(**tf))


def test_an_area_out_of_reach_cannot_be_chosen() -> None:
    from campaign.board import Board
    from campaign.orders import Orders, TaskForce
    from campaign.rules import check_orders
    from campaign.state import initial_state

    scenario = load_scenario()
    board = Board(scenario, initial_state(scenario))
    start = board.area_of("scapa_flow")
    far = min(a for a in board.world.areas if board.world.distance(start, a) == 6)
    tf = TaskForce("home", "Home Fleet", "scapa_flow", ("uk_bb_home_fleet",), 1, (), "intervene")
    problems = check_orders(board, Orders("uk", 1, task_forces=(replace(tf, intervene_in=(far,)),)))
    assert [p.rule for p in problems if "cannot intervene" in p.message] == [
        "002 Operational Range"
    ]


def _blue_lands_on_the_rock(cards: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "nation": "blue",
        "turn": 1,
        "task_forces": [
            {"id": "cover", "name": "Cover", "base": "blue_port", "units": ["blue_cv1"], "lsp": 1},
            {"id": "land", "name": "Landing", "base": "blue_port", "units": ["blue_bb1"], "lsp": 1},
        ],
        "operations": [
            {
                "id": "rock",
                "kind": "minor_invasion",
                "area": "east_sea",
                "task_forces": ["cover", "land"],
                "target": "rock",
                "invasion_force": "land",
                "manpower": 1,
            }
        ],
        "cards": cards or [],
    }


def _landing(c: Campaign) -> Any:
    return next(e for e in c.events() if e.kind == "landing_combat")


def test_a_minor_invasion_counts_the_invasion_force_not_the_covering_force(game: Path) -> None:
    """002 "Minor Invasions": *Use the following Combat values for land troops, in addition
    to the CV of the TF allocated to Invasion*: the heavy group (5) and a manpower point (8),
    not the covering carriers (11)."""
    with Campaign.open(game) as c:
        give(c, _blue_lands_on_the_rock())
        c.resolve(dice=scripted({8: [3, 3]}))
        assert _landing(c).data["attack_cv"] == 5 + 8


def test_the_whole_operation_lands_with_the_option(tmp_path: Path, mini_copy: Path) -> None:
    options = "single_task_force_landings = true\nlanding_strength = 'all_task_forces'\n"
    with Campaign.open(game_with_options(tmp_path, mini_copy, options)) as c:
        give(c, _blue_lands_on_the_rock())
        c.resolve(dice=scripted({8: [3, 3, 3]}))  # CV 24: two dice
        assert _landing(c).data["attack_cv"] == 11 + 5 + 8


def test_a_die_bonus_card_helps_an_unopposed_landing(game: Path) -> None:
    """Nobody opposes the operation at sea, so the card aimed at its invasion force is
    spent on the landing (*Add to Combat Die roll for a single attack*), not discarded."""
    card = [{"card": "blue_radar", "use": "die_bonus", "task_force": "land"}]
    with Campaign.open(game) as c:
        give(c, _blue_lands_on_the_rock(card))
        c.resolve(dice=scripted({8: [3, 3]}))
        mods = dict(_landing(c).data["fire"]["blue"]["modifiers"])
        assert mods["Advantage Card die bonus"] == 2


def test_a_major_invasion_needs_landing_craft(game: Path) -> None:
    from campaign.orders import OrdersError
    from tests.test_engine import major

    with Campaign.open(game) as c, pytest.raises(OrdersError, match="needs a Landing Craft"):
        give(c, major(with_red=False)[0] | {"task_forces": _no_craft()})


def _no_craft() -> list[dict[str, Any]]:
    return [
        {"id": "cover", "name": "Cover", "base": "blue_port", "units": ["blue_cv1"], "lsp": 1},
        {"id": "land", "name": "Landing", "base": "blue_port", "units": ["blue_bb1"], "lsp": 1},
    ]


def test_minor_invasions_reach_places_no_land_combat_map_covers(
    tmp_path: Path, mini_copy: Path
) -> None:
    """002: *Minor Invasion – involving an island or somewhere not covered by a Land Combat
    map; Major Invasion – delivering troops into the Land Combat Map.* Red Harbour is a
    mainland port; marked off the land maps, a minor invasion may take it, and a major
    invasion of the Rock (an island) is refused."""
    from campaign.orders import OrdersError
    from tests.helpers import set_cell

    set_cell(mini_copy, "bases.csv", 2, "land_map", "no")  # red_port
    path = tmp_path / "offmap.seacontrol"
    GameFile.create(path, load_scenario(mini_copy)).close()
    harbour = _blue_lands_on_the_rock()
    harbour["operations"][0]["target"] = "red_port"
    with Campaign.open(path) as c:
        give(c, harbour)  # accepted
        with pytest.raises(OrdersError, match="not on a Land Combat map"):
            big = _blue_lands_on_the_rock()
            big["operations"][0]["kind"] = "major_invasion"
            give(c, big)
    set_cell(mini_copy, "bases.csv", 2, "land_map", "")  # empty: a mainland port is on one
    with (
        Campaign.open(_fresh(tmp_path, mini_copy)) as c,
        pytest.raises(OrdersError, match="is on a Land Combat map"),
    ):
        give(c, harbour)


def _fresh(tmp_path: Path, folder: Path) -> Path:
    path = tmp_path / "fresh.seacontrol"
    GameFile.create(path, load_scenario(folder)).close()
    return path


def _red_subs_attack(card_use: str) -> dict[str, Any]:
    return {
        "nation": "red",
        "turn": 1,
        "raids": [{"route": "blue_north", "area": "north_sea", "units": ["red_ss1"]}],
        "cards": [{"card": "red_surprise", "use": card_use, "route": "blue_north"}],
    }


def test_merchant_warfare_cards_count_as_their_die_bonus(game: Path) -> None:
    """002 "Calculating Losses": *Advantage Cards count as die roll bonus shown on card*."""
    from campaign.orders import OrdersError

    with Campaign.open(game) as c:
        with pytest.raises(OrdersError, match="count as die roll bonus"):
            give(c, _red_subs_attack("column_shift"))
        give(c, _red_subs_attack("die_bonus"))
        c.resolve(dice=scripted({9: [3, 3]}))
        combat = next(e for e in c.events() if e.kind == "merchant_combat")
        assert combat.data["attack_bonus"] == 1 and combat.data["shift"] == 0


def test_a_column_shift_in_merchant_warfare_with_the_option(
    tmp_path: Path, mini_copy: Path
) -> None:
    path = game_with_options(tmp_path, mini_copy, "merchant_card_shifts = true\n")
    with Campaign.open(path) as c:
        give(c, _red_subs_attack("column_shift"))
        c.resolve(dice=scripted({9: [3, 3]}))
        combat = next(e for e in c.events() if e.kind == "merchant_combat")
        assert combat.data["shift"] == 1 and combat.data["attack_bonus"] == 0
