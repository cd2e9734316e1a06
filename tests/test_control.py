"""Game Control's edit mode (campaign/control.py) through the engine's API, on the mini
scenario: every edit is checked, recorded as an event the teams concerned see, and undone
by an event of its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from campaign import control
from campaign.control import (
    AddAirPoints,
    EditError,
    MoveAir,
    MoveUnit,
    SetAirPoints,
    SetCard,
    SetCarrierAir,
    SetContested,
    SetFlags,
    SetGarrison,
    SetHolder,
    SetLSP,
    SetPool,
    SetRouteTonnage,
    SetUnitState,
    edit_from_data,
)
from campaign.engine import Campaign
from campaign.gamefile import GameFile
from campaign.orders import OrdersError, parse_orders
from campaign.scenario import load_scenario


@pytest.fixture
def game(tmp_path: Path, mini_dir: Path) -> Path:
    path = tmp_path / "g.seacontrol"
    GameFile.create(path, load_scenario(mini_dir)).close()
    return path


def kinds(c: Campaign, nation: str | None) -> list[str]:
    return [e.kind for e in c.events(nation)]


def test_moving_a_unit_is_saved_with_an_event_only_its_team_and_control_see(game: Path) -> None:
    with Campaign.open(game) as c:
        event = c.control_edit(MoveUnit("blue_bb1", "blue_isle"), "counter on the wrong card")
        assert event.kind == "control_edit" and event.data["edit"] == 1
        assert event.visible_to == ("blue", "umpire")
        assert "Blue Battle Squadron (Blueland) moved Blue Harbour → Blue Isle" in event.text
        assert "Reason: counter on the wrong card" in event.text
        assert event.data["changes"] == [
            [["units", "blue_bb1", "base"], ["blue_port"], ["blue_isle"]]
        ]
    with Campaign.open(game) as c:  # saved, and the team report carries it
        assert c.state.units["blue_bb1"].base == "blue_isle"
        assert "control_edit" in kinds(c, "blue")
        assert "control_edit" not in kinds(c, "red")
        assert "counter on the wrong card" in c.report("blue", 1)
        assert "counter on the wrong card" not in c.report("red", 1)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (MoveUnit("blue_bb1", "atlantis"), "no base, port or island 'atlantis'"),
        (MoveUnit("nobody", "blue_isle"), "no unit 'nobody'"),
        (MoveUnit("blue_bb1", "blue_port"), "already at Blue Harbour"),
        (MoveUnit("blue_bb1", "red_port"), "held by Redland, an enemy of Blueland"),
        (SetUnitState("blue_bb1", "lost"), "valid: ready, damaged, sunk"),
        (SetCarrierAir("blue_bb1", True), "not a carrier group"),
        (SetCarrierAir("blue_cv1", True), "already aboard"),
        (SetHolder("rock", "red"), "already held by Redland"),
        (SetHolder("rock", "purple"), "no nation 'purple'"),
        (SetRouteTonnage("blue_north", -1), "from 0 to 10000"),
        (SetRouteTonnage("blue_nort", 3), "did you mean blue_north"),
        (SetRouteTonnage("blue_north", 30, from_pool=True), "only 10 unallocated"),
        (SetFlags("blue", 2, 1), "already has 2 naval and 1 military flags on turn 1"),
        (SetFlags("blue", 2, 1, turn=9), "turns 1 to 3, not 9"),
        (SetCard("blue_radar", True), "has not been played"),
        (SetCard("joker", False), "no Advantage Card 'joker'"),
        (SetGarrison("rock", "red", 1), "already has 1 garrison"),
        (SetLSP("blue_port", "blue", 2), "already has 2 LSP"),
        (SetAirPoints("blue_air1", 2), "already has 2 Air Points"),
        (AddAirPoints("blue", "red_port", "land", 1), "held by Redland"),
        (AddAirPoints("blue", "blue_port", "jets", 1), "valid: land, strategic"),
        (MoveAir("blue_air1", "blue_port"), "already there"),
        (SetContested("martians", "east_sea", True), "valid: allies, axis"),
        (SetContested("allies", "east_sea", False), "already uncontested"),
    ],
)
def test_an_impossible_edit_is_refused_in_words_and_changes_nothing(
    game: Path, edit: control.Edit, message: str
) -> None:
    with Campaign.open(game) as c:
        before = c.state.to_json()
        with pytest.raises(EditError, match=message):
            c.control_edit(edit, "a reason")
        assert c.state.to_json() == before
        assert "control_edit" not in kinds(c, None)


def test_an_edit_needs_a_reason(game: Path) -> None:
    with Campaign.open(game) as c, pytest.raises(EditError, match="needs a reason"):
        c.control_edit(MoveUnit("blue_bb1", "blue_isle"), "  ")


def test_a_sunk_unit_does_not_sail_until_raised(game: Path) -> None:
    with Campaign.open(game) as c:
        c.control_edit(SetUnitState("blue_bb1", "sunk"), "torpedoed, missed by the table")
        with pytest.raises(EditError, match="is sunk"):
            c.control_edit(MoveUnit("blue_bb1", "blue_isle"), "x")
        c.control_edit(SetUnitState("blue_bb1", "damaged"), "only damaged after all")
        c.control_edit(MoveUnit("blue_bb1", "blue_isle"), "limps home")
        assert c.state.units["blue_bb1"].state == "damaged"


def test_damaging_a_carrier_puts_its_air_ashore_and_the_undo_takes_it_back(game: Path) -> None:
    with Campaign.open(game) as c:
        event = c.control_edit(SetUnitState("blue_cv1", "damaged"), "bomb hit")
        state = c.state
        assert state.units["blue_cv1"].carries_air is False
        assert state.air["blue_cv1_air"].points == 1
        assert "Air Point goes ashore at Blue Harbour" in event.text
        undo = c.undo_control_edit(1, "the bomb missed")
        assert undo.kind == "control_undo" and undo.data["undoes"] == 1
        assert undo.visible_to == ("blue", "umpire")
        state = c.state
        assert state.units["blue_cv1"].state == "ready" and state.units["blue_cv1"].carries_air
        assert "blue_cv1_air" not in state.air


def test_sinking_a_carrier_straight_from_ready_loses_its_air(game: Path) -> None:
    with Campaign.open(game) as c:
        event = c.control_edit(SetUnitState("blue_cv1", "sunk"), "magazine explosion")
        assert "lost with it" in event.text
        assert "blue_cv1_air" not in c.state.air


def test_a_base_changing_hands_is_seen_by_both_holders(game: Path) -> None:
    with Campaign.open(game) as c:
        c.control_edit(MoveUnit("red_ss1", "rock"), "sheltering")
        event = c.control_edit(SetHolder("rock", "blue"), "land game took it")
        assert c.state.holders["rock"] == "blue"
        assert set(event.visible_to) == {"red", "blue", "umpire"}
        assert "1 unit of Redland still in port there" in event.text


def test_route_tonnage_from_the_pool_keeps_the_total(game: Path) -> None:
    with Campaign.open(game) as c:
        routes = c.board().routes_of("blue")
        total = c.state.total_tonnage("blue", routes)
        c.control_edit(SetRouteTonnage("blue_north", 9, from_pool=True), "late allocation")
        assert c.state.routes["blue_north"] == 9
        assert c.state.total_tonnage("blue", routes) == total
        c.control_edit(SetRouteTonnage("blue_north", 8), "one point lost at sea")
        assert c.state.total_tonnage("blue", routes) == total - 1
        c.control_edit(SetPool("blue", 12), "economy sent two more")
        assert c.state.tonnage["blue"] == 12


def test_changed_flags_are_the_rules_answer_and_undo_forgets_them(game: Path) -> None:
    two_ops = {
        "nation": "red",
        "turn": 1,
        "task_forces": [
            {"id": "a", "base": "red_port", "units": ["red_bb1"], "lsp": 1},
            {"id": "b", "base": "red_port", "units": ["red_ss1"]},
        ],
        "operations": [
            {"id": "x", "kind": "sea_control", "area": "east_sea", "task_forces": ["a"]},
            {"id": "y", "kind": "sea_control", "area": "inner_sea", "task_forces": ["b"]},
        ],
    }
    with Campaign.open(game) as c:
        plain = c.state.to_json()
        assert "flag_overrides" not in plain  # an uncorrected game keeps its bytes
        assert c.board().flags("red") == (1, 1)
        c.control_edit(SetFlags("red", 2, 0), "briefing: an extra flag this winter")
        assert c.board().flags("red") == (2, 0)
        assert c.board().flags("red", 2) == (2, 1)  # other turns keep flags.csv
        need = "need 2 Naval Operations Flags"
        assert not any(need in p.message for p in c.check(parse_orders(two_ops, "red")))
        c.undo_control_edit(1)
        assert c.board().flags("red") == (1, 1)
        assert c.state.to_json() == plain
        assert any(need in p.message for p in c.check(parse_orders(two_ops, "red")))


def test_setting_flags_back_to_the_briefing_keeps_no_correction(game: Path) -> None:
    with Campaign.open(game) as c:
        plain = c.state.to_json()
        c.control_edit(SetFlags("blue", 4, 1, turn=2), "more flags")
        assert c.state.flag_overrides == {"2": {"blue": [4, 1]}}
        c.control_edit(SetFlags("blue", 3, 1, turn=2), "as briefed after all")
        assert c.state.to_json() == plain


def test_a_card_given_back_may_be_played_again(game: Path) -> None:
    play = {"nation": "blue", "turn": 2, "cards": [{"card": "blue_radar", "use": "extra_flag"}]}
    with Campaign.open(game) as c:
        c.control_edit(SetCard("blue_radar", False), "played at the table by mistake")
        assert "blue_radar" in c.state.cards_played
        c.resolve(seed=1)
        with pytest.raises(OrdersError, match="blue_radar"):
            c.set_orders("blue", parse_orders(play, "blue"))
        c.control_edit(SetCard("blue_radar", True), "the mistake was ours")
        c.set_orders("blue", parse_orders(play, "blue"))


def test_a_card_given_back_mid_turn_loses_its_unspent_effect(game: Path) -> None:
    play = {"nation": "blue", "turn": 1, "cards": [{"card": "blue_radar", "use": "extra_flag"}]}
    with Campaign.open(game) as c:
        c.set_orders("blue", parse_orders(play, "blue"))
        c.resolve(to_step=7, seed=1)
        assert [e.card for e in c.state.turn_record.cards] == ["blue_radar"]
        event = c.control_edit(SetCard("blue_radar", True), "withdrawn")
        assert "effect this turn is cancelled" in event.text
        assert c.state.turn_record.cards == [] and c.state.cards_played == []


def test_garrisons_lsp_and_air(game: Path) -> None:
    with Campaign.open(game) as c:
        c.control_edit(SetGarrison("rock", "red", 0), "garrison evacuated")
        assert "rock" not in c.state.garrisons
        c.control_edit(SetGarrison("blue_isle", "blue", 2), "reinforced")
        c.control_edit(SetLSP("blue_isle", "blue", 3), "shipped by hand")
        c.control_edit(SetAirPoints("red_air1", 0), "withdrawn to the land game")
        c.control_edit(AddAirPoints("blue", "blue_isle", "strategic", 2), "bombers arrive")
        c.control_edit(MoveAir("blue_air1", "blue_isle"), "redeployed")
        state = c.state
        assert state.garrisons["blue_isle"] == {"blue": 2}
        assert state.lsp_at("blue_isle", "blue") == 3
        assert "red_air1" not in state.air
        assert state.air["blue_strategic_air_blue_isle"].points == 2
        assert state.air["blue_air1"].base == "blue_isle"
        for n in range(6, 0, -1):  # every one undoes, newest first, to the start
            c.undo_control_edit(n)
        fresh = GameFile.create(game.with_name("fresh.seacontrol"), c.scenario)
        assert json.loads(c.state.to_json()) == json.loads(fresh.state().to_json())
        fresh.close()


def test_contested_areas(game: Path) -> None:
    with Campaign.open(game) as c:
        event = c.control_edit(SetContested("allies", "north_sea", True), "U-boat pack")
        assert c.state.contested == {"allies": ["north_sea"]}
        assert event.visible_to == ("blue", "umpire")
        c.control_edit(SetContested("allies", "north_sea", False), "driven off")
        assert c.state.contested == {}
        # an edit refused (not contested already) leaves the state as it was
        board = c.board()
        before = board.state.to_json()
        with pytest.raises(EditError, match="already uncontested"):
            SetContested("allies", "north_sea", False).apply(board)
        assert board.state.to_json() == before


def test_an_undo_is_refused_once_the_value_has_moved_on(game: Path) -> None:
    with Campaign.open(game) as c:
        c.control_edit(MoveUnit("blue_bb1", "blue_isle"), "first")
        c.control_edit(MoveUnit("blue_bb1", "blue_port"), "second")
        with pytest.raises(EditError, match=r"unit blue_bb1's base has changed.*\"blue_port\""):
            c.undo_control_edit(1)
        c.undo_control_edit(2)
        c.undo_control_edit(1)
        assert c.state.units["blue_bb1"].base == "blue_port"
        with pytest.raises(EditError, match="already undone"):
            c.undo_control_edit(1)
        with pytest.raises(EditError, match="no Control edit 9"):
            c.undo_control_edit(9)
        with pytest.raises(EditError, match="no Control edit 3"):
            c.undo_control_edit(3)  # an undo is not itself undone: edit again instead


def test_an_undone_card_removal_keeps_cards_played_since(game: Path) -> None:
    with Campaign.open(game) as c:
        c.control_edit(SetCard("red_surprise", False), "discarded")
        c.control_edit(SetCard("blue_radar", False), "discarded too")
        c.undo_control_edit(1)
        assert c.state.cards_played == ["blue_radar"]


def test_the_audit_lists_edits_undos_and_rulings(game: Path) -> None:
    blue = {
        "nation": "blue",
        "turn": 1,
        "cards": [{"card": "blue_radar", "use": "other", "text": "a coastwatcher network"}],
    }
    with Campaign.open(game) as c:
        c.control_edit(MoveUnit("blue_bb1", "blue_isle"), "first")
        c.undo_control_edit(1, "wrong unit")
        c.set_orders("blue", parse_orders(blue, "blue"))
        c.resolve(seed=1)
        [asked] = c.cards_awaiting_ruling()
        assert asked.data["card"] == "blue_radar"
        c.rule_on_card("blue_radar", "Blue sees Red's fleet next turn")
        assert c.cards_awaiting_ruling() == []
        entries = c.control_audit()
        assert [(e.kind, e.number, e.undone_by, e.undoes) for e in entries] == [
            ("edit", 1, 2, 0),
            ("undo", 2, 0, 1),
            ("ruling", 0, 0, 0),
        ]
        assert entries[1].reason == "wrong unit"
        assert entries[2].reason == "Blue sees Red's fleet next turn"


def test_a_ruling_is_kept_with_the_card_in_the_turn_record(game: Path) -> None:
    blue = {
        "nation": "blue",
        "turn": 1,
        "cards": [{"card": "blue_radar", "use": "other", "text": "x"}],
    }
    with Campaign.open(game) as c:
        c.set_orders("blue", parse_orders(blue, "blue"))
        c.resolve(to_step=7, seed=1)
        c.rule_on_card("blue_radar", "granted")
        assert c.state.turn_record.cards[0].ruling == "granted"


def test_an_edit_before_the_turn_is_resolved_survives_reopening_it(game: Path) -> None:
    with Campaign.open(game) as c:
        c.control_edit(MoveUnit("blue_bb1", "blue_isle"), "before orders")
        c.resolve(seed=1)
        c.reopen_turn(1)
        assert c.state.units["blue_bb1"].base == "blue_isle"


def test_edits_round_trip_through_their_data(game: Path) -> None:
    edit = SetRouteTonnage("blue_north", 3, from_pool=True)
    data: dict[str, Any] = edit.to_data()
    assert data == {
        "action": "route_tonnage",
        "route": "blue_north",
        "points": 3,
        "from_pool": True,
    }
    assert edit_from_data(data) == edit
    with pytest.raises(EditError, match="not an edit"):
        edit_from_data({"action": "teleport"})
    with pytest.raises(EditError, match="Move a unit"):
        edit_from_data({"action": "move_unit", "unit": "x"})
