"""``seacontrol-cli edit``, ``audit`` and ``rule``: Game Control's table from a terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign.cli import main
from campaign.engine import Campaign
from campaign.gamefile import GameFile
from campaign.orders import parse_orders
from campaign.scenario import load_scenario


@pytest.fixture
def game(tmp_path: Path, mini_dir: Path) -> Path:
    path = tmp_path / "g.seacontrol"
    GameFile.create(path, load_scenario(mini_dir)).close()
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_edit_by_names_and_ids(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "edit", str(game), "move", "Blue Battle Squadron", "blue isle", "--reason", "oops"
    )
    assert code == 0
    assert "Blue Battle Squadron (Blueland) moved Blue Harbour → Blue Isle" in out
    code, out, _ = run(
        capsys, "edit", str(game), "damage", "blue_cv1", "--reason", "bomb", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["edit"] == 2 and data["kind"] == "control_edit"
    assert data["seen_by"] == ["blue", "umpire"]
    assert [["units", "blue_cv1", "state"], ["ready"], ["damaged"]] in data["changes"]
    for args in (
        ("holder", "The Rock", "Blueland"),
        ("tonnage", "blue_north", "9", "--from-pool"),
        ("pool", "red", "3"),
        ("flags", "red", "3", "1", "--turn", "2"),
        ("card", "Night attack", "remove"),
        ("garrison", "rock", "blue", "2"),
        ("lsp", "blue_isle", "blue", "1"),
        ("air", "red_air1", "2"),
        ("add-air", "blue", "blue_isle", "land", "1"),
        ("move-air", "blue_air1", "Blue Isle"),
        ("contested", "axis", "Inner Sea", "yes"),
        ("state", "blue_es1", "ready"),
        ("repair", "blue_cv1"),
        ("carrier-air", "blue_cv1", "yes"),
        ("sink", "red_ss1"),
    ):
        code, out, err = run(capsys, "edit", str(game), *args, "--reason", "test")
        assert code == 0, (args, err)
    with Campaign.open(game) as c:
        state = c.state
        assert state.holders["rock"] == "blue" and state.routes["blue_north"] == 9
        assert state.flag_overrides == {"2": {"red": [3, 1]}}
        assert "red_surprise" in state.cards_played
        assert state.contested == {"axis": ["inner_sea"]}
        assert state.units["red_ss1"].state == "sunk"
        assert len(c.control_audit()) == 17


def test_a_refused_edit_exits_1_in_words(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "edit", str(game), "move", "blue_bb1", "Atlantis", "--reason", "x")
    assert code == 1
    assert "there is no base, port or island 'Atlantis'" in err
    assert "Traceback" not in err
    code, out, _ = run(
        capsys, "edit", str(game), "move", "blue_bb1", "red_port", "--reason", "x", "--json"
    )
    assert code == 1 and "enemy of Blueland" in json.loads(out)["error"]
    code, _, err = run(
        capsys, "edit", str(game), "carrier-air", "blue_cv1", "maybe", "--reason", "x"
    )
    assert code == 1 and "must be yes or no" in err
    with pytest.raises(SystemExit) as exit_:
        main(["edit", str(game), "move", "blue_bb1", "blue_isle"])  # no reason: usage
    assert exit_.value.code == 2


def test_undo_and_the_audit(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "edit", str(game), "move", "blue_bb1", "blue_isle", "--reason", "first")
    code, out, _ = run(capsys, "edit", str(game), "undo", "1")
    assert code == 0 and "undoes edit 1" in out
    code, _, err = run(capsys, "edit", str(game), "undo", "1")
    assert code == 1 and "already undone" in err
    code, out, _ = run(capsys, "audit", str(game))
    assert code == 0
    assert "[undone by edit 2]" in out and "seen by Blueland, Game Control" in out
    code, out, _ = run(capsys, "audit", str(game), "--json")
    entries = json.loads(out)["entries"]
    assert [(e["kind"], e["number"]) for e in entries] == [("edit", 1), ("undo", 2)]


def test_rulings_from_the_command_line(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blue = {
        "nation": "blue",
        "turn": 1,
        "cards": [{"card": "blue_radar", "use": "other", "text": "jam their radios"}],
    }
    with Campaign.open(game) as c:
        c.set_orders("blue", parse_orders(blue, "blue"))
        c.resolve(seed=1)
    code, out, _ = run(capsys, "rule", str(game))
    assert code == 0 and "blue_radar (blue, turn 1): jam their radios" in out
    code, out, _ = run(capsys, "audit", str(game))
    assert "Awaiting a ruling: Blueland's card 'blue_radar' (turn 1): jam their radios" in out
    code, out, _ = run(capsys, "rule", str(game), "blue_radar", "Granted: Red's orders are late")
    assert code == 0 and "Granted: Red's orders are late" in out
    code, out, _ = run(capsys, "rule", str(game), "--pending", "--json")
    assert json.loads(out) == []
    code, _, err = run(capsys, "rule", str(game), "red_surprise", "no")
    assert code == 1 and "no card 'red_surprise'" in err
    code, _, err = run(capsys, "rule", str(game), "blue_radar")
    assert code == 1 and "give the ruling" in err
