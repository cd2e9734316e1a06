"""The shipped 1942 sample orders, through the command line as an umpire would use them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign import paths
from campaign.cli import main

SAMPLES = paths.scenario_dir("1942") / "sample-orders"
NATIONS = (
    "usa",
    "uk",
    "japan",
    "germany",
    "italy",
    "free_france",
    "netherlands",
    "vichy_france",
    "ussr",
)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_playing_nation_has_sample_orders() -> None:
    assert sorted(p.stem for p in SAMPLES.glob("*.json")) == sorted(NATIONS)


def test_the_ten_steps_run_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = str(tmp_path / "1942.seacontrol")
    assert cli(capsys, "new", "-o", game)[0] == 0
    for nation in NATIONS:
        code, out, err = cli(capsys, "orders", game, nation, str(SAMPLES / f"{nation}.json"))
        assert code == 0, err
        assert out.startswith(f"Orders for {nation}, turn 1, accepted")
    code, out, err = cli(capsys, "resolve", game, "--seed", "1942")
    assert code == 0, err
    for step in range(1, 11):
        assert f"Step {step} — " in out
    for words in (
        "LSP shipped",
        "intervenes in Bismarck Sea",
        "Battle in Bismarck Sea",
        "Landing at Rabaul",
        "Central North Atlantic",
        "Advantage Card",
        "Turn 2 begins",
    ):
        assert words in out, words
    code, out, _ = cli(capsys, "report", game, "--nation", "germany", "--json")
    events = json.loads(out)["events"]
    assert code == 0 and events
    # Germany sees Japan's task force counters on the map, not the forces or their names
    japanese = [e for e in events if e["kind"] == "task_force_formed" and e["nation"] == "japan"]
    assert japanese and all(set(e["data"]) == {"base", "area"} for e in japanese)
    assert all(e["text"].startswith("A task force counter of Japan is placed at") for e in japanese)
    code, out, _ = cli(capsys, "report", game)
    assert "Game Control" in out and "chain head" in out


def test_orders_that_break_the_rules_are_refused_with_reasons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = str(tmp_path / "g.seacontrol")
    cli(capsys, "new", "-o", game)
    orders = json.loads((SAMPLES / "japan.json").read_text())
    for tf in orders["task_forces"]:
        tf["lsp"] = 9
    bad = tmp_path / "japan.json"
    bad.write_text(json.dumps(orders))
    code, _, err = cli(capsys, "orders", game, "japan", str(bad))
    assert code == 1
    assert "Orders refused" in err and "002 Logistic Support Points" in err
    code, out, _ = cli(capsys, "orders", game, "japan", str(bad), "--json")
    assert code == 1 and json.loads(out)["accepted"] is False
    code, _, err = cli(capsys, "resolve", game)
    assert code == 1 and "no orders are stored" in err


def test_the_check_reckons_each_places_lsp_after_the_supplies_as_step_1_leaves_it() -> None:
    """The order check weighs a task force's LSP against what its nation will have at the
    base once step 1 is done: the stock there, the turn's new supply and the supply moves
    in and out. It reckons only the places asked (a nation's task-force bases); asked for
    every place, for every nation with sample orders (four of which move LSP), it gives
    what a plain reckoning over the whole stock gives."""
    from campaign.board import Board
    from campaign.orders import load_orders
    from campaign.rules import _Check
    from campaign.scenario import load_scenario
    from campaign.state import initial_state

    scenario = load_scenario()
    state = initial_state(scenario)
    board = Board(scenario, state)
    orders = {
        n: load_orders((SAMPLES / f"{n}.json").read_text(encoding="utf-8"), n) for n in NATIONS
    }
    moved = 0
    for nation, given in orders.items():
        expected = {b: p[nation] for b, p in state.lsp.items() if nation in p}
        for row in scenario.rows("lsp_supply"):
            if row["nation"] == nation and row["turn"] == state.turn:
                expected[row["base"]] = expected.get(row["base"], 0) + row["points"]
        for move in given.supplies:
            if move.lsp:
                moved += 1
                route = board.route_rows[move.route]
                for end, sign in ((route["origin"], -1), (route["destination"], 1)):
                    expected[end] = expected.get(end, 0) + sign * move.lsp
        places = list(board.bases)
        got = _Check(board, given, orders).projected_lsp(places)
        assert set(got) == set(places)
        assert {p: n for p, n in got.items() if n} == {p: n for p, n in expected.items() if n}
    assert moved >= 4
