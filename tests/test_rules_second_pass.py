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
from campaign.world import great_circle_km
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


def test_a_unit_sunk_by_two_steps_at_once_is_reported_once(game: Path) -> None:
    """Issue 15: the report listed every sunk unit twice (damaged, then sunk)."""
    with Campaign.open(game) as c:
        give(c, _blue_carriers_in_the_east(), RED_BATTLESHIPS)
        c.resolve(dice=scripted({8: [1, 6]}))  # Red's battleships take 2 steps
        about = [e for e in c.events() if e.data.get("unit") == "red_bb1"]
        assert [(e.kind, e.data["steps"]) for e in about] == [("unit_sunk", 2)]
        assert "is sunk" in about[0].text
        carrier = [e.kind for e in c.events() if e.data.get("unit") == "blue_cv1"]
        assert carrier == ["air_landed", "unit_damaged"]  # one step: damaged, air ashore


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


def test_an_air_point_escorting_alone_takes_the_escorts_step(tmp_path: Path) -> None:
    """The audit's case: 'escorts 1 step(s)' on USA East Coast – Panama with an Air Point
    as the only escort, and nobody lost anything. The Air Point is removed by the step
    (002: Air Points *are removed at the first step*), and the report says who lost what."""
    path = tmp_path / "drumbeat.seacontrol"
    GameFile.create(path, load_scenario()).close()
    with Campaign.open(path) as c:
        board = c.board()
        area = board.area_of("norfolk")  # US land-based air has range 0
        assert area in board.route("usa_east_panama").path
        usa = {
            "nation": "usa",
            "turn": 1,
            "escorts": [
                {
                    "route": "usa_east_panama",
                    "air": [{"air": "usa_air_east_coast", "points": 1}],
                }
            ],
        }
        subs = ["ger_ss_lorient", "ger_ss_la_pallice", "ger_ss_st_nazaire"]
        germany = {
            "nation": "germany",
            "turn": 1,
            "raids": [{"route": "usa_east_panama", "area": area, "units": subs}],
        }
        give(c, usa, germany)
        # CV 9 v 6 (3:2), the escorts' air supremacy −2 → 2:3; dice 5 − 3 = +2: Blue,
        # escorts lose 20% of 9 = 1 step
        c.resolve(dice=scripted({9: [5, 3]}))
        combat = next(e for e in c.events() if e.kind == "merchant_combat")
        assert combat.data["escort_steps"] == combat.data["escort_steps_taken"] == 1
        assert "escorts lose 1 step (Air Point of land-based air at Norfolk)" in combat.text
        assert c.state.air["usa_air_east_coast"].points == 0
        assert any(e.kind == "air_lost" for e in c.events())


def test_production_joins_the_fleet_base_nearest_the_shipyard_in_kilometres() -> None:
    """002 step 2: *Add new ship production to nearest fleet base to the shipyard*: Harima
    (Aioi) → Nagasaki (~480 km), not Ominato (~925 km)."""
    from campaign.board import Board
    from campaign.production import production_due
    from campaign.state import initial_state

    scenario = load_scenario()
    state = initial_state(scenario)
    state.turn = 2
    board = Board(scenario, state)
    yard = board.shipyards["harima_aioi"]
    at = (yard["lon"], yard["lat"])
    assert round(great_circle_km(at, (129.87, 32.75))) in range(440, 520)  # Nagasaki
    joins = {row["id"]: base for row, base in production_due(board)}
    assert joins["jpn_p_lc_army_landing_ships"] == "nagasaki"
    assert board.nearest_fleet_base("japan", at) == "nagasaki"


# -- the owner's choices given ahead (002 "Damage": *Owner chooses which ship losses*) ----
def _blue_fleet_sweeps_east(choices: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "nation": "blue",
        "turn": 1,
        "task_forces": [
            {
                "id": "home",
                "name": "Home Fleet",
                "base": "blue_port",
                "units": ["blue_cv1", "blue_bb1"],
                "lsp": 1,
            }
        ],
        "operations": [
            {"id": "sweep", "kind": "sea_control", "area": "east_sea", "task_forces": ["home"]}
        ],
        "choices": choices or {},
    }


def _damaged(c: Campaign) -> set[str]:
    return {u.id for u in c.state.units.values() if u.state == "damaged"}


@pytest.mark.parametrize(
    ("choices", "hit"),
    [
        ({}, "blue_bb1"),  # the default owner keeps the most CV: the battle squadron (5 → 2)
        ({"losses": ["blue_cv1"]}, "blue_cv1"),  # the owner said: the carriers first
    ],
)
def test_losses_fall_where_the_owner_chose_ahead(
    game: Path, choices: dict[str, Any], hit: str
) -> None:
    with Campaign.open(game) as c:
        give(c, _blue_fleet_sweeps_east(choices), RED_BATTLESHIPS)
        # Blue CV 16 rolls 1 (+2 air, +1 2:1 → 4: 2 steps on Red); Red CV 5 rolls 6
        # (−2 air, −1 outnumbered, +1 own base → 4: 1 step on Blue)
        c.resolve(dice=scripted({8: [1, 6]}))
        assert hit in _damaged(c)
        assert ({"blue_bb1", "blue_cv1"} - {hit}) & _damaged(c) == set()


def _second_carrier(folder: Path) -> None:
    from tests.helpers import add_row

    add_row(
        folder,
        "units.csv",
        {
            "id": "blue_cv2",
            "nation": "blue",
            "type": "fleet_carrier",
            "name": "Blue Reserve Carriers",
            "base": "blue_port",
            "state": "ready",
            "carries_air": "no",
        },
    )


@pytest.mark.parametrize(
    ("choice", "aboard"),
    [({}, True), ({"carrier_air": {"blue_cv1": "ashore"}}, False)],
)
def test_a_damaged_carriers_air_point_flies_to_another_carrier_or_ashore(
    tmp_path: Path, mini_copy: Path, choice: dict[str, Any], aboard: bool
) -> None:
    """002: *Damaged Carrier units cannot carry their air unit any longer – this must be
    transferred to land or another carrier unit with no air point.*"""
    _second_carrier(mini_copy)
    with Campaign.open(_fresh(tmp_path, mini_copy)) as c:
        give(c, _blue_fleet_sweeps_east({"losses": ["blue_cv1"]} | choice), RED_BATTLESHIPS)
        c.resolve(dice=scripted({8: [1, 6]}))
        assert c.state.units["blue_cv1"].state == "damaged"
        assert c.state.units["blue_cv2"].carries_air is aboard
        assert ("blue_cv1_air" in c.state.air) is not aboard


def test_repairs_follow_the_owners_choice(tmp_path: Path, mini_copy: Path) -> None:
    from tests.helpers import set_cell

    set_cell(mini_copy, "units.csv", 1, "state", "damaged")  # blue_bb1
    set_cell(mini_copy, "units.csv", 2, "base", "blue_port")  # blue_es1 (damaged)
    path = _fresh(tmp_path, mini_copy)
    with Campaign.open(path) as c:
        give(c, {"nation": "blue", "turn": 1})
        c.resolve(dice=scripted({}))
        assert _damaged(c) == {"blue_es1"}  # the default repairs the heavier unit
    path = _fresh(tmp_path, mini_copy)
    with Campaign.open(path) as c:
        give(c, {"nation": "blue", "turn": 1, "choices": {"repairs": ["blue_es1"]}})
        c.resolve(dice=scripted({}))
        assert _damaged(c) == {"blue_bb1"}


def test_choices_given_on_the_command_line_while_the_turn_is_resolved(
    game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from campaign.cli import main

    with Campaign.open(game) as c:
        give(c, _blue_fleet_sweeps_east(), RED_BATTLESHIPS)
        c.resolve(to_step=7, dice=scripted({}))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"blue": {"losses": ["red_bb1"]}}), encoding="utf-8")
    assert main(["resolve", str(game), "--choices", str(bad)]) == 1
    assert "Redland's, not Blueland's" in capsys.readouterr().err
    good = tmp_path / "choices.json"
    good.write_text(json.dumps({"blue": {"losses": ["blue_cv1"]}}), encoding="utf-8")
    with Campaign.open(game) as c:
        c.set_choices("blue", c.orders()["blue"].choices)  # unchanged: accepted mid-turn
    assert main(["resolve", str(game), "--choices", str(good), "--to-step", "7"]) == 0
    with Campaign.open(game) as c:
        assert c.orders()["blue"].choices.losses == ("blue_cv1",)
        c.resolve(dice=scripted({8: [1, 6]}))
        assert "blue_cv1" in _damaged(c) and "blue_bb1" not in _damaged(c)


# -- fleet trains and Air Points moved (002 "Bases", step 3) -------------------------------
TRAIN = {"id": "ft1", "name": "Service Squadron", "area": "north_sea", "origin": "blue_port"}


def test_a_fleet_train_is_set_up_supplied_used_and_disbanded(game: Path) -> None:
    """002: *A fleet train is treated as a Mobile Fleet Base. It requires a merchant route
    from an existing fleet base to it, and that merchant route must be sufficient to
    support the fleet. Setting up a Fleet Train requires substantial dedicated merchant
    tonnage as well as additional manpower and LSP.*"""
    from campaign.orders import OrdersError

    with Campaign.open(game) as c:
        with pytest.raises(OrdersError, match="at least 10"):
            give(c, {"nation": "blue", "turn": 1, "fleet_trains": [TRAIN | {"lsp": 2}]})
        give(c, {"nation": "blue", "turn": 1, "fleet_trains": [TRAIN | {"lsp": 2, "tonnage": 10}]})
        c.resolve(dice=scripted({}))
        state = c.state
        train = state.fleet_trains["ft1"]
        assert (train.area, train.route) == ("north_sea", "ft1_supply")
        assert state.routes["ft1_supply"] == 10 and state.tonnage["blue"] == 0
        assert state.lsp_at("ft1", "blue") == 2 and state.lsp_at("blue_port", "blue") == 0
        board = c.board()
        assert board.is_fleet_base("ft1") and board.route_status("ft1_supply").working
        established = next(e for e in c.events() if e.kind == "fleet_train_established")
        assert established.data["manpower"] == 1  # handed to the land game
        # turn 2: the battle squadron moves onto the train (a strategic transfer)
        give(c, {"nation": "blue", "turn": 2, "transfers": [{"unit": "blue_bb1", "to": "ft1"}]})
        c.resolve(dice=scripted({}))
        assert c.state.units["blue_bb1"].base == "ft1"
        # turn 3: it sails from the train, whose range counts from the North Sea
        tg = {"id": "tg", "name": "TG", "base": "ft1", "units": ["blue_bb1"], "lsp": 1}
        sweep = {
            "nation": "blue",
            "turn": 3,
            "task_forces": [tg],
            "operations": [
                {"id": "op", "kind": "sea_control", "area": "inner_sea", "task_forces": ["tg"]}
            ],
        }
        give(c, sweep)
        assert c.board().distance("ft1", "inner_sea") == 2
        c.resolve(dice=scripted({}))
        assert any(e.kind == "sea_control" for e in c.events(turn=3))
        assert c.state.lsp_at("ft1", "blue") == 1  # the task force took its LSP there


def test_a_fleet_train_without_enough_lift_is_no_fleet_base(game: Path) -> None:
    from campaign.orders import OrdersError

    with Campaign.open(game) as c:
        give(c, {"nation": "blue", "turn": 1, "fleet_trains": [TRAIN | {"lsp": 2, "tonnage": 10}]})
        c.resolve(dice=scripted({}))
        give(
            c,
            {
                "nation": "blue",
                "turn": 2,
                "transfers": [
                    {"unit": "blue_bb1", "to": "ft1"},
                    {"unit": "blue_cv1", "to": "ft1"},
                ],
                "tonnage": {"ft1_supply": 1},  # lifts 1: too little for two units
            },
        )
        c.resolve(dice=scripted({}))
        supported, why = c.board().fleet_train_support("ft1")
        assert not supported and "need 2" in why
        tg = {"id": "tg", "name": "TG", "base": "ft1", "units": ["blue_bb1"], "lsp": 1}
        with pytest.raises(OrdersError, match="not a fleet base"):
            give(c, {"nation": "blue", "turn": 3, "task_forces": [tg]})
        # disbanding sends the units and LSP home and the tonnage back to the pool
        give(c, {"nation": "blue", "turn": 3, "fleet_trains": [{"id": "ft1", "disband": True}]})
        c.resolve(dice=scripted({}))
        assert "ft1" not in c.state.fleet_trains and "ft1_supply" not in c.state.routes
        assert c.state.units["blue_cv1"].base == "blue_port"
        assert c.state.lsp_at("blue_port", "blue") >= 2


def test_a_fleet_train_moves_with_the_units_based_on_it(game: Path) -> None:
    with Campaign.open(game) as c:
        give(c, {"nation": "blue", "turn": 1, "fleet_trains": [TRAIN | {"lsp": 2, "tonnage": 10}]})
        c.resolve(dice=scripted({}))
        give(
            c,
            {
                "nation": "blue",
                "turn": 2,
                "transfers": [{"unit": "blue_bb1", "to": "ft1"}],
                "fleet_trains": [{"id": "ft1", "area": "east_sea"}],
            },
        )
        c.resolve(dice=scripted({}))
        board = c.board()
        assert board.area_of("ft1") == "east_sea" == board.area_of(c.state.units["blue_bb1"].base)
        assert board.route("ft1_supply").path[-1] == "east_sea"


@pytest.mark.parametrize(
    ("train", "message"),
    [
        (TRAIN | {"lsp": 2, "tonnage": 10, "origin": "blue_isle"}, "not a mainland fleet base"),
        (TRAIN | {"lsp": 1, "tonnage": 10}, "at least 2"),
        (TRAIN | {"lsp": 2, "tonnage": 10, "area": "atlantis"}, "no sea area 'atlantis'"),
        (TRAIN | {"lsp": 3, "tonnage": 10}, "will have 2 there"),
        (TRAIN | {"lsp": 2, "tonnage": 11}, "allocates 21 tonnage points"),
        ({"id": "nothing", "disband": True}, "no fleet train 'nothing'"),
    ],
)
def test_fleet_train_orders_are_checked(game: Path, train: dict[str, Any], message: str) -> None:
    from campaign.orders import OrdersError

    with Campaign.open(game) as c, pytest.raises(OrdersError, match=message):
        give(c, {"nation": "blue", "turn": 1, "fleet_trains": [train]})


def test_air_points_fly_to_another_base_and_sit_out_the_turn(game: Path) -> None:
    from campaign.orders import OrdersError

    move = {"air": "blue_air1", "to": "blue_isle", "points": 1}
    escort = {"route": "blue_north", "air": [{"air": "blue_air1", "points": 2}]}
    with Campaign.open(game) as c:
        with pytest.raises(OrdersError, match="has 2 Air Points, 3 are allocated"):
            give(c, {"nation": "blue", "turn": 1, "air_transfers": [move], "escorts": [escort]})
        with pytest.raises(OrdersError, match="held by Redland"):
            give(c, {"nation": "blue", "turn": 1, "air_transfers": [move | {"to": "rock"}]})
        escort["air"][0]["points"] = 1
        give(c, {"nation": "blue", "turn": 1, "air_transfers": [move], "escorts": [escort]})
        c.resolve(dice=scripted({}))
        air = c.state.air
        assert (air["blue_air1"].base, air["blue_air1"].points) == ("blue_port", 1)
        assert (air["blue_air1@blue_isle"].base, air["blue_air1@blue_isle"].points) == (
            "blue_isle",
            1,
        )
        give(
            c,
            {
                "nation": "blue",
                "turn": 2,
                "air_transfers": [{"air": "blue_air1", "to": "blue_isle"}],
            },
        )
        c.resolve(dice=scripted({}))
        assert "blue_air1" not in c.state.air  # all of it joined the Air Points there
        assert c.state.air["blue_air1@blue_isle"].points == 2
