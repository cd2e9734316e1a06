"""New scenario from this game (campaign/snapshot.py): a game played some turns becomes a
scenario that validates and starts where the game stood."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.autoplay import standing_orders
from campaign.cli import main
from campaign.engine import Campaign
from campaign.gamefile import GameFile
from campaign.scenario import load_scenario, write_scenario
from campaign.snapshot import scenario_from_game
from campaign.state import initial_state

TURNS = 4


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("played") / "game.seacontrol"
    GameFile.create(path, load_scenario()).close()
    with Campaign.open(path) as c:
        for _ in range(TURNS):
            board = c.board()
            for nation in board.teams():
                c.set_orders(nation, standing_orders(board, nation))
            c.resolve(seed="snapshot")
    return path


def test_a_played_game_becomes_a_scenario_that_starts_where_it_stood(
    played: Path, tmp_path: Path
) -> None:
    with Campaign.open(played) as c:
        state = c.state
        scenario, notes = scenario_from_game(c.scenario, state)
        period = c.scenario.meta.period_of(state.turn)
    assert state.turn == TURNS + 1 and state.step == 0
    folder = tmp_path / "from-game"
    write_scenario(scenario, folder)
    assert main(["validate", str(folder)]) == 0
    assert main(["new", str(folder), "-o", str(tmp_path / "next.seacontrol")]) == 0
    loaded = load_scenario(folder)
    meta = loaded.meta
    assert meta.first_turn == state.turn and meta.period_of(meta.first_turn) == period
    start = initial_state(loaded)
    assert start.turn == state.turn
    afloat = {k: u for k, u in state.units.items() if u.state != "sunk"}
    assert start.units == afloat
    assert any(u.state == "sunk" for u in state.units.values())
    assert any("sunk unit(s) are left out" in n for n in notes)
    assert start.holders == state.holders
    assert start.air == state.air
    assert start.garrisons == {b: dict(g) for b, g in state.garrisons.items() if any(g.values())}
    assert start.routes == state.routes
    for nation in loaded.by_id("nations"):
        routes = [r for r, row in loaded.by_id("routes").items() if row["nation"] == nation]
        assert start.total_tonnage(nation, routes) == state.total_tonnage(nation, routes)
    played_cards = set(state.cards_played)
    assert not played_cards & set(loaded.by_id("cards"))
    assert all(r["turn"] >= state.turn for r in loaded.rows("flags"))
    assert all(r["id"] not in state.units for r in loaded.rows("production"))


def test_lsp_waiting_at_a_port_is_delivered_there_again(played: Path) -> None:
    with Campaign.open(played) as c:
        state = c.state
        scenario, _notes = scenario_from_game(c.scenario, state)
        kinds = {b["id"]: b["kind"] for b in c.scenario.rows("bases")}
    at_ports = {
        (nation, base): points
        for base, held in state.lsp.items()
        for nation, points in held.items()
        if points and kinds[base] != "fleet_base"
    }
    supply = {
        (r["nation"], r["base"]): r["points"]
        for r in scenario.rows("lsp_supply")
        if r["turn"] == state.turn
    }
    for key, points in at_ports.items():
        assert supply[key] >= points
    at_bases = {(r["nation"], r["base"]): r["points"] for r in scenario.rows("lsp")}
    assert sum(at_bases.values()) + sum(at_ports.values()) == sum(
        p for held in state.lsp.values() for p in held.values()
    )


def test_a_turn_in_progress_is_refused(mini_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "mini.seacontrol"
    GameFile.create(path, load_scenario(mini_dir)).close()
    with Campaign.open(path) as c:
        c.resolve(to_step=2, seed="x")
        with pytest.raises(ValueError, match="in progress"):
            scenario_from_game(c.scenario, c.state)
        scenario, notes = scenario_from_game(c.scenario, c.game.turn_start(1))
    assert scenario.meta.first_turn == 1 and notes == []


def test_the_command_line_exports_a_games_position(played: Path, tmp_path: Path) -> None:
    folder = tmp_path / "position"
    assert main(["export", str(played), str(folder), "--position"]) == 0
    meta = load_scenario(folder).meta
    assert meta.first_turn == TURNS + 1 and meta.id == "1942_turn_5"
    assert main(["export", str(played), str(tmp_path / "as-set-up")]) == 0
    assert load_scenario(tmp_path / "as-set-up").meta.first_turn == 1
