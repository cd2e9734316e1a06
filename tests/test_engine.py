"""The turn engine through its public API (campaign.engine.Campaign) on the mini scenario."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from campaign.context import Turn
from campaign.dice import DiceError, DiceLog, ScriptedDice
from campaign.engine import Campaign
from campaign.gamefile import GameFile, GameFileError
from campaign.losses import ScriptedLosses
from campaign.orders import Orders, OrdersError, TaskForce, parse_orders
from campaign.scenario import load_scenario
from campaign.state import initial_state

BLUE: dict[str, Any] = {
    "nation": "blue",
    "turn": 1,
    "supplies": [{"route": "blue_north", "lsp": 1}],
    "task_forces": [
        {
            "id": "home",
            "name": "Home Fleet",
            "base": "blue_port",
            "units": ["blue_cv1", "blue_bb1"],
            "lsp": 1,
        }
    ],
    "escorts": [{"route": "blue_north", "units": ["blue_es1"]}],
    "operations": [
        {
            "id": "rock",
            "kind": "minor_invasion",
            "area": "east_sea",
            "task_forces": ["home"],
            "target": "rock",
            "invasion_force": "home",
            "manpower": 1,
        }
    ],
    "cards": [{"card": "blue_radar", "use": "die_bonus", "task_force": "home"}],
}
RED: dict[str, Any] = {
    "nation": "red",
    "turn": 1,
    "task_forces": [
        {"id": "red_fleet", "name": "Red Fleet", "base": "red_port", "units": ["red_bb1"], "lsp": 1}
    ],
    "raids": [{"route": "blue_north", "area": "north_sea", "units": ["red_ss1"]}],
}


def new_game(tmp_path: Path, mini_dir: Path, name: str = "g.seacontrol") -> Path:
    path = tmp_path / name
    GameFile.create(path, load_scenario(mini_dir)).close()
    return path


@pytest.fixture
def game(tmp_path: Path, mini_dir: Path) -> Path:
    return new_game(tmp_path, mini_dir)


def give(campaign: Campaign, *orders: dict[str, Any]) -> None:
    for data in orders:
        campaign.set_orders(data["nation"], parse_orders(data, data["nation"]))


def scripted(per_step: dict[int, list[int]]) -> Any:
    def make(turn: int, step: int, log: DiceLog) -> ScriptedDice:
        return ScriptedDice(per_step.get(step, []), log)

    return make


def test_a_whole_turn_with_scripted_dice(game: Path) -> None:
    # step 8: naval battle — blue CV 16 (1 die), red CV 5 (1 die); landing: blue CV 24
    # (2 dice: 20 + 4), red CV 18 (1 die); step 9: interdictor then escort.
    dice = scripted({8: [1, 5, 3, 2, 2], 9: [4, 6]})
    with Campaign.open(game) as c:
        give(c, BLUE, RED)
        c.resolve(dice=dice)
        state = c.state
        assert state.turn == 2 and state.step == 0
        assert state.units["red_bb1"].state == "sunk"
        assert state.holders["rock"] == "blue"
        assert state.garrisons["rock"] == {"blue": 1}
        assert "red_air1" not in state.air
        assert state.routes["blue_north"] == 5  # 6 - 1 lost (Blue: 1 per non-German unit)
        assert state.lsp_at("blue_isle", "blue") == 1  # shipped in step 1
        assert state.lsp_at("blue_port", "blue") == 0  # 2 - 1 shipped - 1 consumed
        assert "blue_radar" in state.cards_played
        kinds = [e.kind for e in c.events()]
        for kind in (
            "lsp_moved",
            "task_force_formed",
            "flag_placed",
            "card_played",
            "task_force_intervenes",
            "naval_combat",
            "battle_result",
            "landing_combat",
            "landing_succeeded",
            "merchant_combat",
            "turn_started",
        ):
            assert kind in kinds, kind
        battle = next(e for e in c.events() if e.kind == "naval_combat")
        blue_fire = battle.data["fire"]["allies"]
        assert ["Advantage Card die bonus", 2] in blue_fire["modifiers"]
        # the landing's modifiers are a naval battle's: Red's fleet base is in the East Sea
        landing = next(e for e in c.events() if e.kind == "landing_combat")
        assert "Redland: a fleet base of its side in the area (Red Harbour) +1" in landing.text
        assert blue_fire["dice"] == [[16, 1, 7, 3]]
        assert c.verify_dice() == []
        assert len(c.dice_log()) == 7


def test_an_unexpected_extra_roll_fails(game: Path) -> None:
    with Campaign.open(game) as c:
        give(c, BLUE, RED)
        with pytest.raises(DiceError, match="unexpected extra roll"):
            c.resolve(dice=scripted({8: [1, 5, 3, 2]}))


def test_step_by_step_equals_the_whole_turn(tmp_path: Path, mini_dir: Path) -> None:
    a, b = (
        new_game(tmp_path, mini_dir, "a.seacontrol"),
        new_game(tmp_path, mini_dir, "b.seacontrol"),
    )
    with Campaign.open(a) as c:
        give(c, BLUE, RED)
        c.resolve(seed=5)
    with Campaign.open(b) as c:
        give(c, BLUE, RED)
        for step in range(1, 11):
            c.resolve(to_step=step, seed=5)
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()


def test_invalid_orders_are_refused_whole_with_every_reason(game: Path) -> None:
    bad = json.loads(json.dumps(BLUE))
    bad["task_forces"][0]["lsp"] = 5  # only 1 left after shipping 1
    bad["task_forces"].append(
        {"id": "far", "name": "Far", "base": "blue_isle", "units": ["blue_bb1"], "lsp": 0}
    )  # bb1 twice; isle no base
    bad["operations"][0]["manpower"] = 3  # 3 > 2 without landing craft
    bad["operations"].append(
        {"id": "x", "kind": "sea_control", "area": "inner_sea", "task_forces": ["far"]}
    )
    bad["operations"].append(
        {"id": "y", "kind": "sea_control", "area": "west_sea", "task_forces": ["far"]}
    )  # 3 ops, 2 flags; far twice
    bad["cards"].append({"card": "blue_radar", "use": "column_shift", "task_force": "home"})
    bad["supplies"][0]["lsp"] = 4  # 4 LSP = 8 tonnage > lift 6; only 2 LSP there
    bad["transfers"] = [{"unit": "blue_es1", "to": "red_port"}]  # enemy base; es1 twice
    bad["raids"] = [{"route": "red_inner", "area": "east_sea", "units": ["blue_cv1"]}]
    bad["tonnage"] = {"blue_home": 30}
    with Campaign.open(game) as c:
        with pytest.raises(OrdersError) as info:
            c.set_orders("blue", parse_orders(bad, "blue"))
        text = str(info.value)
        for words in (
            "allocate 5 LSP but Blueland will have",
            "already in operation 2: sea control in",
            "is not a fleet base",
            "3 manpower/tank points but the invasion force can land 2",
            "3 operations need 3 Naval Operations Flags; Blueland has 2",
            "each card may only be played ONCE",
            "effective lift is 6",
            "moves 4 LSP but Blueland has only 2 there",
            "Red Harbour is held by Redland",
            "surface raiders need a task force",
            "allocates 36 tonnage points; Blueland has 20",
            "'Far' has no LSP allocated",
        ):
            assert words in text, words
        assert all(p.rule.startswith("002") for p in info.value.problems)
        assert c.orders() == {}


def test_a_base_that_is_not_yet_a_fleet_base(game: Path) -> None:
    far = {
        "nation": "red",
        "task_forces": [{"id": "t", "name": "T", "base": "red_far", "units": [], "lsp": 0}],
    }
    with Campaign.open(game) as c, pytest.raises(OrdersError, match=r"not a fleet base \(this"):
        c.set_orders("red", parse_orders(far, "red"))


def test_orders_cannot_change_once_resolution_starts(game: Path) -> None:
    with Campaign.open(game) as c:
        give(c, BLUE, RED)
        c.resolve(to_step=3, seed=1)
        with pytest.raises(OrdersError, match="already being resolved"):
            give(c, RED)


def test_reopening_a_turn_resolves_it_again_the_same_way(game: Path) -> None:
    with Campaign.open(game) as c:
        give(c, BLUE, RED)
        c.resolve(seed=3)
        first = c.state.to_json()
        c.reopen_turn(1)
        assert c.state.turn == 1 and c.state.units["blue_cv1"].state == "ready"
        assert set(c.orders()) == {"blue", "red"}
        c.resolve(seed=3)
        assert c.state.to_json() == first
        assert c.verify_dice() == []


def test_a_reopened_turn_sets_its_results_aside_but_the_log_keeps_them(game: Path) -> None:
    with Campaign.open(game) as c:
        give(c, BLUE, RED)
        c.resolve(seed=3)
        first = [e.text for e in c.events(turn=1)]
        c.reopen_turn(1)
        now = c.events(turn=1)
        assert [e.kind for e in now] == ["turn_reopened"]  # the report starts afresh
        aside = c.set_aside()  # kept for the audit, with the next turn's start
        assert [e.text for e in aside if e.turn == 1] == first
        assert [e.kind for e in aside if e.turn == 2] == ["turn_started"]
        assert [e.kind for e in c.events("red", 1)] == ["turn_reopened"]  # teams are told
        c.resolve(seed=3)
        again = [e.text for e in c.events(turn=1)]
        assert again[0] == "Turn 1 reopened from its start." and again[1:] == first


def test_team_reports_hide_what_the_enemy_cannot_know(game: Path) -> None:
    with Campaign.open(game) as c:
        give(c, BLUE, RED)
        c.resolve(seed=11)
        red = c.report("red", 1)
        umpire = c.report(None, 1)
        assert "Home Fleet' formed" in umpire and "Home Fleet' formed" not in red
        assert "Red Fleet' formed" in red
        assert "Battle in East Sea" in red
        assert c.dice_head() in red


def test_a_tampered_dice_log_is_detected(game: Path) -> None:
    with Campaign.open(game) as c:
        give(c, BLUE, RED)
        c.resolve(seed=2)
    conn = sqlite3.connect(game)
    conn.execute("UPDATE dice SET value = 7 - value WHERE seq = 2")
    conn.commit()
    conn.close()
    with pytest.raises(GameFileError, match="records were changed in dice"):
        Campaign.open(game)  # the seal finds it first (campaign/seal.py)
    with Campaign.open(game, altered_ok=True) as c:
        assert c.verify_dice() == ["roll 2: its contents were changed after it was rolled"]


def test_production_arrives_at_the_fleet_base_nearest_its_shipyard(game: Path) -> None:
    with Campaign.open(game) as c:
        c.resolve(seed=1)  # turn 1: nothing ordered
        c.resolve(seed=1)  # turn 2: Blue's new carriers are built
        new = c.state.units["blue_new_cv"]
        assert (new.base, new.state, new.carries_air) == ("blue_port", "ready", True)
        assert c.state.lsp_at("blue_port", "blue") == 3  # 2 + 1 delivered on turn 2


def test_repairs_one_unit_per_fleet_base_in_port(tmp_path: Path, mini_dir: Path) -> None:
    path = new_game(tmp_path, mini_dir)
    with Campaign.open(path) as c:
        give(c, {"nation": "blue", "transfers": [{"unit": "blue_es1", "to": "blue_port"}]})
        c.resolve(seed=4)
        assert c.state.units["blue_es1"].state == "ready"
        assert any(e.kind == "unit_repaired" for e in c.events())


def test_a_person_chooses_the_losses(game: Path) -> None:
    losses = ScriptedLosses([["blue_bb1", "blue_bb1", "blue_cv1"]])
    with Campaign.open(game, losses=losses) as c:
        give(c, BLUE, RED)
        c.resolve(dice=scripted({8: [1, 5, 3, 2, 2], 9: [4, 6]}))
        assert c.state.units["blue_bb1"].state == "sunk"
        assert c.state.units["blue_cv1"].state == "damaged"
        [asked] = losses.requests  # the other losses took everything: nobody is asked
        assert asked.due == 3 and {x.kind for x in asked.candidates} == {"unit", "manpower"}


def test_game_control_rules_on_an_other_card(game: Path) -> None:
    blue = json.loads(json.dumps(BLUE))
    blue["cards"] = [{"card": "blue_radar", "use": "other", "text": "Spies report Red's plan"}]
    with Campaign.open(game) as c:
        give(c, blue, RED)
        c.resolve(seed=1)
        with pytest.raises(ValueError, match="no card 'red_surprise'"):
            c.rule_on_card("red_surprise", "no")
        event = c.rule_on_card("blue_radar", "Red's fleet is reported at Red Harbour")
        assert event.visible_to == ("blue", "umpire")
        assert "Spies report Red's plan" in event.text
    with Campaign.open(game) as c:
        assert any(e.kind == "card_ruling" for e in c.events("blue"))
        assert not any(e.kind == "card_ruling" for e in c.events("red"))


def test_battles_are_previewed_before_the_dice_with_their_exact_odds(game: Path) -> None:
    from campaign.odds import naval_odds
    from campaign.operations import cv_lost_by_default

    with Campaign.open(game) as c:
        give(c, BLUE, RED)
        before = c.state.to_json()
        [battle] = c.preview_battles()
        assert battle.area == "east_sea"
        assert (battle.a.cv, battle.b.cv) == (16, 5)
        assert battle.a.die_bonus == 2  # the radar card, not yet spent
        assert battle.task_forces == {"allies": ["Home Fleet"], "axis": ["Red Fleet"]}
        assert c.state.to_json() == before and c.dice_log() == []
        odds = naval_odds(battle.a, battle.b)
        assert 0 < odds.p_a_wins <= 1
        # the engine's own odds: the winner by combat value lost, each side taking its steps
        # as the default loss policy would: Blue's heavy group is damaged first (CV 5 → 2),
        # then its carriers (11 → 0: their Air Point goes ashore), then the cheaper sinking
        # (the carriers, nothing left to lose), then the heavy group
        exact = battle.odds()
        assert exact.decided_by == "cv"
        blue = cv_lost_by_default(battle.casualties["allies"])
        assert [blue(n) for n in range(5)] == [0, 3, 14, 14, 16]
        assert exact.p_a_wins + exact.p_b_wins == 1  # one rule: the defender holds a level
        assert exact.p_b_sunk > 0  # the step losses that sink all of Red's force are counted
        c.resolve(to_step=7, seed=1)
        assert [b.a.cv for b in c.preview_battles()] == [16]
        c.resolve(to_step=8, seed=1)
        assert c.preview_battles() == []
        fought = next(e for e in c.events() if e.kind == "naval_combat")
        assert fought.data["sides"]["allies"]["cv"] == 16


def test_nothing_is_resolved_after_the_last_turn(game: Path) -> None:
    with Campaign.open(game) as c:
        for _ in range(3):  # the mini scenario has turns 1-3
            c.resolve(seed=1)
        assert c.state.turn == 4
        with pytest.raises(OrdersError, match="the scenario ended with turn 3"):
            c.resolve(seed=1)


def major(*, with_red: bool) -> list[dict[str, Any]]:
    """Blue lands on Red's home coast (a Land Combat map place) with landing craft."""
    land = ["blue_bb1", "blue_lc1"]
    blue = {
        "nation": "blue",
        "turn": 1,
        "task_forces": [
            {"id": "cover", "name": "Cover", "base": "blue_port", "units": ["blue_cv1"], "lsp": 1},
            {"id": "land", "name": "Landing", "base": "blue_port", "units": land, "lsp": 1},
        ],
        "operations": [
            {
                "id": "big",
                "kind": "major_invasion",
                "area": "east_sea",
                "task_forces": ["cover", "land"],
                "target": "red_port",
                "invasion_force": "land",
                "manpower": 2,
            }
        ],
    }
    return [blue, RED] if with_red else [blue]


def with_landing_craft(tmp_path: Path, mini_copy: Path) -> Path:
    """The mini scenario with a Blue Landing Craft Group at Blue Harbour."""
    from tests.helpers import add_row

    add_row(
        mini_copy,
        "units.csv",
        {
            "id": "blue_lc1",
            "nation": "blue",
            "type": "landing_craft",
            "name": "Blue Landing Craft",
            "base": "blue_port",
            "state": "ready",
            "carries_air": "no",
        },
    )
    return new_game(tmp_path, mini_copy, "craft.seacontrol")


@pytest.mark.parametrize("with_red", [False, True])
def test_a_major_landing_is_supported_by_the_invasion_force_if_not_engaged(
    tmp_path: Path, mini_copy: Path, with_red: bool
) -> None:
    # 002: "The Invasion TF is counted as support to the landings (if not engaged by enemy
    # TF interfering)": the invasion force's CV (the heavy group, 5), not the covering
    # carriers'; nothing when Red's fleet intervened and had to be beaten first
    game = with_landing_craft(tmp_path, mini_copy)
    with Campaign.open(game) as c:
        give(c, *major(with_red=with_red))
        c.resolve(seed="major")
        fought = any(e.kind == "naval_combat" for e in c.events())
        landing = next(e for e in c.events() if e.kind == "major_landing")
        assert fought is with_red
        assert landing.data["support_cv"] == (0 if with_red else 5)
        assert ("without naval support" in landing.text) is with_red


def test_ships_built_this_turn_may_be_given_orders_this_turn(game: Path) -> None:
    # 002: "2. Add new ship production to nearest fleet base ... 5. Allocate units
    # available": Blue's new carriers (due turn 2) may sail in turn 2's orders
    sail = {
        "nation": "blue",
        "turn": 2,
        "task_forces": [
            {"id": "new", "name": "New", "base": "blue_port", "units": ["blue_new_cv"], "lsp": 0}
        ],
    }
    with Campaign.open(game) as c:
        with pytest.raises(OrdersError, match="blue_new_cv"):
            c.set_orders("blue", parse_orders({**sail, "turn": 1}, "blue"))  # not yet due
        c.resolve(seed=1)
        assert "blue_new_cv" not in c.state.units  # it joins in turn 2's step 2
        assert c.orders_board().state.units["blue_new_cv"].base == "blue_port"
        c.set_orders("blue", parse_orders(sail, "blue"))
        c.resolve(seed=2)
        assert any(e.kind == "task_force_formed" and "New" in e.text for e in c.events(turn=2))


def test_a_landing_needs_a_covering_force_unless_the_option_says_otherwise(
    tmp_path: Path, mini_copy: Path, mini_dir: Path
) -> None:
    # 002: "An amphibious operation always requires ... 1. A TF allocated at the Covering
    # Force. 2. A TF allocated as the invasion force"
    toml = mini_copy / "scenario.toml"
    toml.write_text(toml.read_text(encoding="utf-8").split("[options]")[0], encoding="utf-8")
    strict = new_game(tmp_path, mini_copy, "strict.seacontrol")
    with Campaign.open(strict) as c, pytest.raises(OrdersError, match="needs a covering force"):
        give(c, BLUE)
    with Campaign.open(new_game(tmp_path, mini_dir, "lax.seacontrol")) as c:
        give(c, BLUE)  # the mini scenario sets single_task_force_landings = true


def test_a_new_route_joins_two_different_ports(game: Path) -> None:
    # 002: "Port - ... terminate merchant tonnage routes"; an island with no port does not
    def route(origin: str, destination: str) -> dict[str, Any]:
        return {
            "nation": "blue",
            "turn": 1,
            "new_routes": [
                {"id": "new", "name": "New", "origin": origin, "destination": destination}
            ],
        }

    with Campaign.open(game) as c:
        c.set_orders("blue", parse_orders(route("blue_port", "blue_isle"), "blue"))
        for origin, destination, why in (
            ("blue_port", "blue_port", "two different ports"),
            ("blue_port", "rock", "has no port facilities"),
        ):
            with pytest.raises(OrdersError, match=why):
                c.set_orders("blue", parse_orders(route(origin, destination), "blue"))


def test_landing_craft_sunk_before_the_landing_leave_troops_aboard(game: Path) -> None:
    # Blue lands 3 manpower with no landing craft: refused when ordered (the improvised
    # capacity, rule option improvised_landing, is 2); and counted again at the landing,
    # where 2 go ashore and the report says so
    from campaign.operations import _troops_landed

    orders = json.loads(json.dumps(BLUE))
    orders["operations"][0]["manpower"] = 3
    with Campaign.open(game) as c, pytest.raises(OrdersError, match="can land 2"):
        give(c, orders)

    class Stub:  # the smallest turn _troops_landed needs
        def __init__(self, state: Any) -> None:
            self.options: dict[str, Any] = {}
            self.state = state
            self.events: list[tuple[str, str]] = []

        def emit(self, kind: str, text: str, *a: Any, **k: Any) -> None:
            self.events.append((kind, text))

    with Campaign.open(game) as c:
        give(c, BLUE)
        op = c.orders()["blue"].operations[0]
        turn = Stub(c.state)
        tfs = {("blue", tf.id): tf for tf in c.orders()["blue"].task_forces}
        big = dataclasses.replace(op, manpower=3)
        assert _troops_landed(turn, c.board(), "blue", big, tfs) == (2, 0)  # type: ignore[arg-type]
        assert turn.events and "Only 2 manpower" in turn.events[0][1]


def test_a_damaged_carriers_air_point_goes_ashore_and_comes_back_aboard(mini_dir: Path) -> None:
    # 002: "Damaged Carrier units cannot carry their air unit any longer - this must be
    # transferred to land or another carrier unit": ashore at the carrier's base; aboard
    # again when the carrier is ready at the same base as its Air Point
    from campaign.state import initial_state
    from campaign.turn import Turn, repairs

    scenario = load_scenario(mini_dir)
    state = initial_state(scenario)
    t = Turn(scenario, state, {}, ScriptedDice([]))
    cv = state.units["blue_cv1"]
    assert cv.carries_air
    t.hit_unit(cv, "test")
    assert not cv.carries_air and state.air["blue_cv1_air"].base == "blue_port"
    cv.state, cv.base = "ready", "blue_isle"  # repaired elsewhere: the Air Point is not there
    repairs(t)
    assert not cv.carries_air and "blue_cv1_air" in state.air
    cv.base = "blue_port"  # back where its Air Point is
    repairs(t)
    assert cv.carries_air and "blue_cv1_air" not in state.air
    assert [e.kind for e in t.events][-1] == "air_embarked"


def test_a_carrier_repaired_where_its_air_point_waits_takes_it_aboard_in_the_same_step(
    mini_dir: Path,
) -> None:
    # 002 "Repairs" then "Damaged Carrier units cannot carry their air unit": repaired in
    # step 10 at the fleet base where its Air Point went ashore, the carrier is ready and
    # takes it aboard again that same step (repair first, then embark)
    from campaign.state import initial_state
    from campaign.turn import Turn, repairs

    scenario = load_scenario(mini_dir)
    state = initial_state(scenario)
    t = Turn(scenario, state, {}, ScriptedDice([]))
    cv = state.units["blue_cv1"]
    t.hit_unit(cv, "test")
    assert cv.state == "damaged" and state.air["blue_cv1_air"].base == cv.base == "blue_port"
    repairs(t)
    assert cv.state == "ready" and cv.carries_air and "blue_cv1_air" not in state.air
    assert [e.kind for e in t.events][-2:] == ["unit_repaired", "air_embarked"]


def test_problems_name_the_order_in_words(game: Path) -> None:
    from campaign.rules import order_in_words

    orders = parse_orders(
        {
            "nation": "blue",
            "turn": 1,
            "task_forces": [{"id": "home", "name": "Home Fleet", "base": "blue_port"}],
            "operations": [
                {"id": "x", "kind": "sea_control", "area": "east_sea", "task_forces": ["home"]}
            ],
            "escorts": [{"route": "blue_north", "units": []}],
        },
        "blue",
    )
    with Campaign.open(game) as c:
        board = c.board()
        words = [
            order_in_words(board, orders, where)
            for where in ("task_forces[0]", "operations[0] 'x'", "escorts[0]", "cards[3]")
        ]
    assert words[0] == "Task force 'Home Fleet'"
    assert words[1] == "Operation 1: sea control in East Sea"
    assert words[2].startswith("Escort 1, on route ")
    assert words[3] == "cards[3]"  # no such order: the path as given


def test_a_task_force_is_named_as_its_orders_name_it() -> None:
    """Events name a task force as its team's orders do; one without a name, or not in
    the orders, by its id (looked up once a step: a big world's nation forms hundreds)."""
    scenario = load_scenario()
    orders = {
        "japan": Orders(
            "japan",
            1,
            task_forces=(
                TaskForce("tf1", "Kido Butai", "truk", ()),
                TaskForce("tf2", "", "truk", ()),
                TaskForce("tf1", "a second tf1", "truk", ()),
            ),
        )
    }
    turn = Turn(scenario, initial_state(scenario), orders, ScriptedDice([]))
    assert turn.task_force_name("japan", "tf1") == "Kido Butai"  # the first of that id
    assert turn.task_force_name("japan", "tf2") == "tf2"
    assert turn.task_force_name("japan", "tf9") == "tf9"
    assert turn.task_force_name("usa", "tf1") == "tf1"


def test_checking_or_storing_orders_reads_the_game_state_once(
    game: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A team seat checks a team's orders at each change and stores them on each submit:
    the check reads the state from the game file once, for its board and its turn alike
    (it read it twice, and storing a third time); a turn resolved reads it once before
    its order check."""
    import campaign.engine as engine

    reads: list[int] = []
    read = GameFile.state
    monkeypatch.setattr(GameFile, "state", lambda g: reads.append(1) or read(g))
    checked_after: list[int] = []
    check_turn = engine.check_turn
    monkeypatch.setattr(
        engine, "check_turn", lambda b, o: checked_after.append(len(reads)) or check_turn(b, o)
    )
    orders = parse_orders(BLUE, "blue")
    with Campaign.open(game) as c:
        reads.clear()
        assert c.check(orders) == []
        assert len(reads) == 1
        reads.clear()
        c.set_orders("blue", orders)
        assert len(reads) == 1
        reads.clear()
        c.resolve(to_step=1, seed=1)
    assert checked_after == [1]


def test_each_nations_orders_are_parsed_again_only_when_their_text_changes(
    game: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An order check reads every nation's stored orders; a nation's are parsed once for
    a text, and again only when the stored text changes (a new submission, the turn
    reopened), whoever stored it. What comes back is what the text says."""
    import campaign.engine as engine

    parsed: list[str] = []
    load = engine.load_orders
    monkeypatch.setattr(engine, "load_orders", lambda text, n: parsed.append(n) or load(text, n))
    with Campaign.open(game) as giver:
        give(giver, BLUE, RED)
    with Campaign.open(game) as c:
        parsed.clear()
        first = c.orders()
        assert sorted(parsed) == ["blue", "red"]
        parsed.clear()
        assert c.check(parse_orders(BLUE, "blue")) == []
        assert c.orders() == first and parsed == []
        less = json.loads(json.dumps(RED))
        less["raids"] = []
        with Campaign.open(game) as other:  # another program stores red's new orders
            give(other, less)
        parsed.clear()
        again = c.orders()
        assert parsed == ["red"]
        assert again["red"].raids == () and again["blue"] is first["blue"]
        c.reopen_turn(1)
        assert c.orders()["red"].raids == ()
