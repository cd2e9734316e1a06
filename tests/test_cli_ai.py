"""``seacontrol-cli ai`` and ``seacontrol-cli play`` (issue 9)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign.cli import main
from campaign.engine import Campaign


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "solo.seacontrol"
    assert run(capsys, "new", "-o", str(path))[0] == 0
    return path


def test_ai_check_prints_the_orders_and_stores_nothing(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "ai", str(game), "japan", "--check", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["stored"] is False and data["nation"] == "japan"
    assert data["orders"]["reasons"]
    with Campaign.open(game) as c:
        assert c.orders() == {}
    code, out, _ = run(capsys, "ai", str(game), "japan", "--check", "--level", "novice")
    assert code == 0 and "Computer orders for japan, turn 1 (novice)" in out


def test_ai_stores_orders_that_pass_the_check(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "ai", str(game), "uk", "--posture", "expansion")
    assert code == 0 and "stored" in out
    with Campaign.open(game) as c:
        orders = c.orders()["uk"]
        assert c.check(orders) == []
        assert orders.reasons


def test_ai_refuses_an_unknown_nation_or_level(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "ai", str(game), "atlantis")
    assert code == 1 and "unknown nation 'atlantis'" in err and "japan" in err
    with pytest.raises(SystemExit):
        main(["ai", str(game), "japan", "--level", "grandmaster"])
    capsys.readouterr()


def test_play_plays_turns_with_the_computer_and_reports_the_score(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the Germans keep the orders stored for them; the computer plays the others
    run(capsys, "ai", str(game), "germany", "--level", "novice")
    code, out, _ = run(
        capsys,
        "play",
        str(game),
        "--computer",
        "japan,usa,uk",
        "--turns",
        "2",
        "--seed",
        "9",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["computer"] == ["usa", "uk", "japan"]
    assert data["from_turn"] == 1 and data["to_turn"] == 3
    assert [t["turn"] for t in data["score"]["turns"]] == [1, 2]
    total = data["score"]["total"]
    assert total["allies"] == pytest.approx(-total["axis"])
    with Campaign.open(game) as c:
        assert set(c.orders(1)) == {"germany", "usa", "uk", "japan"}
        assert set(c.orders(2)) == {"usa", "uk", "japan"}
    code, out, _ = run(capsys, "play", str(game), "--computer", "all", "--turns", "1")
    assert code == 0 and "Net score after turn 3" in out


def test_play_refuses_an_unknown_nation(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", str(game), "--computer", "usa,mars", "--json")
    assert code == 1 and "mars" in json.loads(out)["error"]


def test_ai_can_command_only_some_forces_and_keeps_the_rest(
    game: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mine = {
        "nation": "uk",
        "task_forces": [{"id": "h", "name": "Force H", "base": "gibraltar", "units": [], "lsp": 0}],
    }
    with Campaign.open(game) as c:
        units = [u.id for u in c.state.units.values() if u.base == "gibraltar"]
    mine["task_forces"][0]["units"] = units  # type: ignore[index]
    path = tmp_path / "uk.json"
    path.write_text(json.dumps(mine), encoding="utf-8")
    assert run(capsys, "orders", str(game), "uk", str(path))[0] == 0
    code, out, _ = run(
        capsys,
        "ai",
        str(game),
        "uk",
        "--only",
        "escorts",
        "--areas",
        "north_atlantic,western_approaches",
        "--json",
    )
    assert code == 0
    orders = json.loads(out)["orders"]
    assert [tf["id"] for tf in orders["task_forces"]] == ["h"]
    assert orders["escorts"] and "raids" not in orders
    code, _, err = run(capsys, "ai", str(game), "uk", "--only", "everything")
    assert code == 1 and "valid: logistics, escorts, raids, fleet" in err
    code, _, err = run(capsys, "ai", str(game), "uk", "--areas", "atlantis")
    assert code == 1 and "unknown sea area atlantis" in err
