"""Hand-off sheets to the land and economic games (campaign/handoff.py)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pypdf
import pytest

from campaign.cli import main
from campaign.control import SetLSP, SetUnitState
from campaign.engine import Campaign
from campaign.gamefile import GameFile
from campaign.handoff import HandoffError, HandoffSheet, handoff_sheet, safe_cell, write_csv
from campaign.orders import parse_orders
from campaign.scenario import load_scenario
from tests.helpers import add_row

MAJOR: dict[str, Any] = {
    "nation": "blue",
    "turn": 1,
    "supplies": [
        {"route": "blue_north", "lsp": 1},
        {"route": "blue_north", "cargo": "oil", "points": 2},
    ],
    "task_forces": [
        {"id": "cover", "name": "Cover", "base": "blue_port", "units": ["blue_cv1"], "lsp": 1},
        {
            "id": "land",
            "name": "Landing",
            "base": "blue_port",
            "units": ["blue_bb1", "blue_lc1"],
            "lsp": 1,
        },
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
RED: dict[str, Any] = {
    "nation": "red",
    "turn": 1,
    "raids": [{"route": "blue_north", "area": "north_sea", "units": ["red_ss1"]}],
}


def with_landing_craft(folder: Path) -> Path:
    """The mini scenario with a Blue Landing Craft Group at Blue Harbour (a major invasion
    needs one)."""
    add_row(
        folder,
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
    return folder


@pytest.fixture
def game(tmp_path: Path, mini_copy: Path) -> Path:
    path = tmp_path / "g.seacontrol"
    GameFile.create(path, load_scenario(with_landing_craft(mini_copy))).close()
    with Campaign.open(path) as c:
        c.control_edit(SetLSP("blue_port", "blue", 3), "the economy's delivery")
        for data in (MAJOR, RED):
            c.set_orders(data["nation"], parse_orders(data, data["nation"]))
        c.resolve(seed="major")
    return path


def by_what(sheet: HandoffSheet) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for row in sheet.to_data()["rows"]:
        out.setdefault(row["what"], []).append(row)
    return out


def test_the_land_game_gets_major_landings_and_military_flags(game: Path) -> None:
    with Campaign.open(game) as c:
        sheet = handoff_sheet(c, "land")
        landing = next(e for e in c.events() if e.kind == "major_landing")
    assert sheet.turn == 1 and sheet.period == "Jan/Feb 1942"
    rows = by_what(sheet)
    [landed] = rows["major landing"]
    assert landed["nation"] == "Blueland" and landed["place"] == "Red Harbour"
    assert landed["sea_area"] == "East Sea"
    assert (landed["manpower"], landed["tanks"]) == (2, 0)
    assert landed["naval_support_cv"] == landing.data["support_cv"] == 5
    flags = {r["nation"]: r for r in rows["military flags"]}
    assert (flags["Blueland"]["military_flags"], flags["Blueland"]["military_flags_used"]) == (1, 1)
    assert (flags["Redland"]["military_flags"], flags["Redland"]["military_flags_used"]) == (1, 0)


def test_a_major_invasion_turned_back_is_handed_over_too(tmp_path: Path, mini_copy: Path) -> None:
    red_fleet = {
        "nation": "red",
        "turn": 1,
        "task_forces": [
            {
                "id": "f",
                "base": "red_port",
                "units": ["red_bb1", "red_ss1"],
                "lsp": 1,
                "air": [{"air": "red_air1", "points": 1}],  # from The Rock, in range
            }
        ],
    }
    path = tmp_path / "lost.seacontrol"
    GameFile.create(path, load_scenario(with_landing_craft(mini_copy))).close()
    with Campaign.open(path) as c:
        c.control_edit(SetLSP("blue_port", "blue", 3), "the economy's delivery")
        c.control_edit(SetUnitState("blue_cv1", "damaged"), "hit in port")  # Blue CV 5 v 16
        for data in (MAJOR, red_fleet):
            c.set_orders(data["nation"], parse_orders(data, data["nation"]))
        c.resolve(seed="major")
        assert any(e.kind == "operation_failed" for e in c.events())
        sheet = handoff_sheet(c, "land")
    rows = by_what(sheet)
    [back] = rows["major invasion turned back"]
    assert back["place"] == "Red Harbour" and back["manpower"] == 2
    assert "major landing" not in rows
    flags = {r["nation"]: r for r in rows["military flags"]}
    assert flags["Blueland"]["military_flags_used"] == 1


def test_the_economic_game_gets_cargo_lsp_and_tonnage(game: Path) -> None:
    with Campaign.open(game) as c:
        sheet = handoff_sheet(c, "economic")
        lost = sum(int(e.data["tonnage_lost"]) for e in c.events() if e.kind == "merchant_combat")
        total = c.state.total_tonnage("blue", c.board().routes_of("blue"))
    rows = by_what(sheet)
    [cargo] = rows["cargo delivered"]
    assert cargo["kind"] == "oil" and cargo["points"] == 2
    assert (cargo["origin"], cargo["destination"]) == ("Blue Harbour", "Blue Isle")
    [lsp] = rows["LSP shipped"]
    assert lsp["points"] == 1 and lsp["route"] == "Blue to the isle"
    ends = {r["nation"]: r for r in rows["tonnage at end of turn"]}
    assert ends["Blueland"]["points"] == total
    if lost:
        assert rows["tonnage lost"][0]["points"] == lost


def test_a_cell_that_would_start_a_formula_is_quoted(tmp_path: Path) -> None:
    assert [safe_cell(v) for v in ("=1+1", "+x", "-2", "@SUM", "\tx", "fine", 3)] == [
        "'=1+1",
        "'+x",
        "'-2",
        "'@SUM",
        "'\tx",
        "fine",
        3,
    ]
    sheet = HandoffSheet("economic", 1, "Jan/Feb 1942", "g", ("what", "route"))
    sheet.rows = [["cargo", '=HYPERLINK("http://x","y")']]
    path = write_csv(sheet, tmp_path / "x.csv")
    with path.open(encoding="utf-8", newline="") as f:
        assert list(csv.reader(f))[1] == ["cargo", '\'=HYPERLINK("http://x","y")']


def test_a_turn_not_played_or_an_unknown_table_is_refused(game: Path) -> None:
    with Campaign.open(game) as c:
        with pytest.raises(HandoffError, match="turn 4 has not been played"):
            handoff_sheet(c, "land", 4)
        with pytest.raises(HandoffError, match="valid: land, economic"):
            handoff_sheet(c, "naval")


def test_the_handoff_command_writes_csv_and_pdf(
    game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["handoff", str(game), "--table", "land", "-o", str(out)]) == 0
    assert "for the land game (turn 1)" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == ["g-turn1-land.csv", "g-turn1-land.pdf"]
    with (out / "g-turn1-land.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["what"] == "major landing" and rows[0]["place"] == "Red Harbour"
    text = " ".join(
        (p.extract_text() or "") for p in pypdf.PdfReader(out / "g-turn1-land.pdf").pages
    )
    text = " ".join(text.split())
    for words in ("Hand-off to the land game", "Turn 1 (Jan/Feb 1942)", "Red Harbour", "Blueland"):
        assert words in text
    code = main(
        ["handoff", str(game), "--table", "economic", "--turn", "1", "-o", str(out), "--json"]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["table"] == "economic"
    assert "g-turn1-economic.csv" in data["files"]
    assert main(["handoff", str(game), "--table", "land", "--turn", "7", "-o", str(out)]) == 1
    assert "turn 7 has not been played" in capsys.readouterr().err
