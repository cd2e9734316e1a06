"""seacontrol-cli: exit 0 done, 1 invalid input with messages, 2 usage; --json everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign.cli import main
from tests.helpers import set_cell


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def game(tmp_path: Path, mini_dir: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "g.seacontrol"
    assert run(capsys, "new", str(mini_dir), "-o", str(path))[0] == 0
    return path


def test_new_refuses_to_overwrite_without_force(
    game: Path, mini_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "new", str(mini_dir), "-o", str(game))
    assert code == 1 and "--force" in err
    assert run(capsys, "new", str(mini_dir), "-o", str(game), "--force")[0] == 0


def test_validate_a_folder_and_a_game(
    game: Path, mini_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "validate", str(mini_dir))
    assert code == 0 and out.startswith("OK:")
    code, out, _ = run(capsys, "validate", str(game), "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] and data["kind"] == "game file"
    assert data["counts"]["units"] == 5


def test_validate_lists_every_problem_and_exits_1(
    mini_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_cell(mini_copy, "units.csv", 0, "base", "atlantis")
    set_cell(mini_copy, "nations.csv", 1, "colour", "crimson")
    code, _, err = run(capsys, "validate", str(mini_copy))
    assert code == 1
    assert "units.csv, row 2, field 'base': 'atlantis' is not a base" in err
    assert "nations.csv, row 3, field 'colour'" in err
    code, out, _ = run(capsys, "validate", str(mini_copy), "--json")
    data = json.loads(out)
    assert code == 1 and not data["valid"]
    assert {(p["file"], p["row"], p["field"]) for p in data["problems"]} == {
        ("units.csv", 2, "base"),
        ("nations.csv", 3, "colour"),
    }


def test_show_per_nation_and_as_json(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", str(game), "--nation", "blue")
    assert code == 0
    assert "Blue Harbour [west_sea]" in out and "Blue Carriers +Air" in out
    assert "Tonnage points: 20 (10 on routes, 10 unallocated)" in out
    code, out, _ = run(capsys, "show", str(game), "--json")
    data = json.loads(out)
    blue = next(n for n in data["nations"] if n["id"] == "blue")
    assert blue["units_by_type"]["fleet_carrier"] == 1
    assert blue["lsp"] == {"blue_port": 2}
    assert [(r["serial"], r["length"], r["effective_lift"]) for r in blue["routes"]] == [
        (1, "Short", 8),
        (2, "Med", 6),
    ]


def test_show_an_unknown_nation(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "show", str(game), "--nation", "green")
    assert code == 1 and "valid: blue, red, grey" in err


def test_export_then_import_round_trips(
    game: Path, mini_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "export", str(game), str(tmp_path / "out"))[0] == 0
    assert (
        run(capsys, "import", str(tmp_path / "out"), "-o", str(tmp_path / "g2.seacontrol"))[0] == 0
    )
    assert run(capsys, "export", str(tmp_path / "g2.seacontrol"), str(tmp_path / "out2"))[0] == 0
    for path in mini_dir.iterdir():
        assert (tmp_path / "out2" / path.name).read_bytes() == path.read_bytes()


def test_graph_distance_between_named_bases(
    mini_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "graph", str(mini_dir), "--between", "Blue Harbour", "red_far", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["sea_areas"] == 4 and data["connected"]
    assert data["between"]["distance"] == 3
    code, _, err = run(capsys, "graph", str(mini_dir), "--between", "Atlantis", "red_far")
    assert code == 1 and "'Atlantis' is not a base" in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["show"])
    assert info.value.code == 2


def test_a_missing_game_file_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "show", str(tmp_path / "nope.seacontrol"))
    assert code == 1 and "no such game file" in err


def test_seat_codes_are_kept_and_reissued_one_team_at_a_time(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from campaign.gamefile import opened
    from campaign.seats import nation_for

    code, out, _ = run(capsys, "seats", str(game), "--json")
    assert code == 0
    first = {row["nation"]: row["code"] for row in json.loads(out)}
    assert len(first) >= 2 and len(set(first.values())) == len(first)
    again = {
        row["nation"]: row["code"]
        for row in json.loads(run(capsys, "seats", str(game), "--json")[1])
    }
    assert again == first
    team = sorted(first)[0]
    out = run(capsys, "seats", str(game), "--reissue", team, "--json")[1]
    after = {row["nation"]: row["code"] for row in json.loads(out)}
    assert after[team] != first[team]
    assert {n: c for n, c in after.items() if n != team} == {
        n: c for n, c in first.items() if n != team
    }
    with opened(game) as g:
        assert nation_for(g, first[team]) is None  # the old code opens nothing
        assert nation_for(g, after[team].lower().replace("-", " ")) == team
    assert run(capsys, "seats", str(game), "--reissue", "atlantis")[0] == 1


def test_calc_naval_reads_a_column_shift_as_a_column(capsys: pytest.CaptureFixture[str]) -> None:
    """The audit's case: -4 falls in "-2 or less"; one column right is "-1": 2 steps."""
    code, out, _ = run(
        capsys,
        "calc",
        "naval",
        "--cv",
        "18",
        "--roll",
        "1",
        "--drm",
        "-5",
        "--shift",
        "1",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["steps"] == 2 and data["dice"][0]["column"] == "-1"
    code, out, _ = run(
        capsys, "odds", "naval", "--cv", "18", "--enemy-cv", "18", "--shift", "1", "--json"
    )
    plain = json.loads(run(capsys, "odds", "naval", "--cv", "18", "--enemy-cv", "18", "--json")[1])
    shifted = json.loads(out)
    assert shifted["a_fire"]["column_shift"] == 1
    assert shifted["a_fire"]["mean"] > plain["a_fire"]["mean"]
