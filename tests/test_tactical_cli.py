"""Tactical battles and their odds from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign.cli import main
from campaign.engine import Campaign

MIDWAY = "data/battles/midway.json"
FORCE_Z = "data/battles/airstrike-example.json"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("rule_set", "setup"),
    [
        ("carrier", MIDWAY),
        ("airstrike", FORCE_Z),
        ("fastplay", "data/battles/fastplay-example.json"),
        ("surface", "data/battles/surface-example.json"),
    ],
)
def test_a_whole_battle_runs_and_is_the_same_for_the_same_seed(
    capsys: pytest.CaptureFixture[str], rule_set: str, setup: str
) -> None:
    code, out, _ = run(capsys, "battle", rule_set, "--setup", setup, "--seed", "7", "--json")
    first = json.loads(out)
    assert code == 0 and first["log"] and first["ships"]
    assert (
        json.loads(run(capsys, "battle", rule_set, "--setup", setup, "--seed", "7", "--json")[1])
        == first
    )


def test_odds_of_a_battle_have_standard_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "carrier", "--setup", MIDWAY, "--runs", "60", "--json")
    data = json.loads(out)
    assert code == 0 and data["runs"] == 60
    akagi = data["ships"]["akagi"]
    assert 0 <= akagi["p_sunk"] <= 1 and akagi["se_sunk"] >= 0
    assert abs(sum(v["p"] for v in data["winner"].values()) - 1) < 1e-3
    code, out, _ = run(capsys, "odds", "carrier", "--setup", MIDWAY, "--runs", "20")
    assert "Kido Butai wins" in out or "Task Forces 16 and 17 wins" in out


def test_midway_odds_never_sink_wasp_with_hornet(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 13: Hornet stands alone for Wasp & Hornet; losing her damages the group (one
    step) and leaves Wasp, whichever way the battle goes."""
    code, out, _ = run(capsys, "odds", "carrier", "--setup", MIDWAY, "--runs", "60", "--json")
    data = json.loads(out)
    wasp_hornet = data["units"]["usa_cv_wasp_hornet"]
    assert code == 0 and wasp_hornet["name"] == "Wasp & Hornet"
    assert "2" not in wasp_hornet["p"] and data["ships"]["hornet"]["p_sunk"] > 0.5
    assert wasp_hornet["p"]["1"]["p"] >= data["ships"]["hornet"]["p_sunk"]
    every = data["every_ship_sunk"]
    assert every["a"]["p"] + every["b"]["p"] - every["both"]["p"] + every["neither"]["p"] == (
        pytest.approx(1, abs=1e-3)
    )


def test_bad_set_ups_and_missing_rule_sets_are_reported(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "battle", "carrier", "--setup", "nope.json")
    assert code == 1 and "nope.json" in err
    code, _, err = run(capsys, "odds", "carrier")
    assert code == 1 and "--setup" in err
    data = json.loads(Path(MIDWAY).read_text(encoding="utf-8"))
    data["conditions"]["campaign_units"]["usa_cv_wasp_hornet"]["ships"][0]["tonnage"] = "?"
    bad = Path(str(tmp_path)) / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "odds", "carrier", "--setup", str(bad), "--runs", "2")
    assert code == 1 and (
        "bad.json, field 'conditions.campaign_units.usa_cv_wasp_hornet.ships[0].tonnage'" in err
    )


@pytest.mark.parametrize("rule_set", ["carrier", "fastplay", "surface", "airstrike"])
def test_a_campaign_battle_fought_out_comes_back_as_step_losses(
    tmp_path: object, capsys: pytest.CaptureFixture[str], rule_set: str
) -> None:
    from pathlib import Path

    from campaign import paths

    game = str(Path(str(tmp_path)) / "g.seacontrol")
    assert run(capsys, "new", "-o", game)[0] == 0
    samples = paths.scenario_dir("1942") / "sample-orders"
    for f in sorted(samples.glob("*.json")):
        assert run(capsys, "orders", game, f.stem, str(f))[0] == 0
    with Campaign.open(game) as before:
        start = {u.id: u.state for u in before.state.units.values()}
    code, out, err = run(capsys, "resolve", game, "--seed", "3", "--fight", rule_set)
    assert code == 0, err
    assert f"fought out with the {rule_set} rules" in out
    code, out, _ = run(capsys, "report", game, "--json")
    events = json.loads(out)["events"]
    fought = next(e for e in events if e["kind"] == "tactical_battle")
    assert fought["data"]["rule_set"] == rule_set and fought["data"]["log"]
    result = next(e for e in events if e["kind"] == "battle_result" and e["step"] == 8)
    losses = result["data"]["losses"]  # the ships' fate became campaign step losses
    assert any(losses.values())  # (seed 3 sinks or damages something with every rule set)
    with Campaign.open(game) as after:
        for unit, steps in losses.items():
            if steps:  # each step taken shows on the unit (ready → damaged → sunk)
                assert after.state.units[unit].state != start[unit], unit


def test_built_in_battles_by_name_from_any_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    from campaign.tactical import builtin_battles, find_setup

    monkeypatch.chdir(str(tmp_path))  # not a source checkout: data/battles is not here
    midway = builtin_battles()["midway"]
    assert find_setup("midway") == find_setup("midway.json") == midway
    assert find_setup("data/battles/midway.json") == midway
    own = Path(str(tmp_path)) / "midway.json"  # a file of one's own wins over the built-in
    own.write_text(midway.read_text(encoding="utf-8"), encoding="utf-8")
    assert find_setup("midway.json") == Path("midway.json")
    code, out, _ = run(capsys, "battle", "carrier", "--setup", "surface-example", "--seed", "1")
    assert code == 0 and "Renown" in out
    code, _, err = run(capsys, "odds", "carrier", "--setup", "nowhere", "--runs", "5")
    assert code == 1 and "built-in: airstrike-example, fastplay-example, midway" in err


def test_conditions_a_rule_set_does_not_read_are_reported(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "battle", "fastplay", "--setup", "midway", "--seed", "1")
    assert code == 0 and out
    assert "the fastplay rules do not read these conditions of the set-up" in err
    assert "searching_side" in err and "source" not in err  # a note for people is fine
    code, _, err = run(capsys, "battle", "carrier", "--setup", "midway", "--seed", "1")
    assert code == 0 and err == ""


def test_a_long_preview_with_the_plain_rules_says_why_on_stderr(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The odds go to stdout as ever; a note on stderr says the rule sets are not compiled
    and why (here: turned off), only for a preview long enough for worker processes, and
    none once they are compiled."""
    import campaign.cli as cli
    from campaign.tactical import compiled

    monkeypatch.setenv("SEACONTROL_COMPILED", str(tmp_path))
    # two cores or more (a machine with one fights every preview in its own process)
    monkeypatch.setattr("campaign.tactical.simulate.os.cpu_count", lambda: 2)
    fought: list[int] = []

    def quick(kind: str, setup: object, runs: int, **options: object) -> object:
        fought.append(runs)
        return real(kind, setup, 20, workers=1)  # the figures need not be many here

    real = cli.simulate
    monkeypatch.setattr(cli, "simulate", quick)
    code, out, err = run(capsys, "odds", "carrier", "--setup", MIDWAY, "--runs", "2000")
    assert code == 0 and "wins" in out and fought == [2000]
    assert err == "Note: Previews fight with the plain rules (SEACONTROL_COMPILE=never).\n"
    code, out, err = run(capsys, "odds", "carrier", "--setup", MIDWAY, "--runs", "60")
    assert code == 0 and err == ""  # fought in this process: nothing to say
    (tmp_path / compiled.key()).mkdir()
    (tmp_path / compiled.key() / compiled.DONE).write_text("built")
    code, out, err = run(capsys, "odds", "carrier", "--setup", MIDWAY, "--runs", "2000")
    assert code == 0 and err == ""


def test_a_tactical_odds_command_starts_compiling_the_rule_sets(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any tactical odds command, however short, asks for the compiled rule sets (built in
    the background if they are not: for this preview's workers, or the next one's)."""
    from campaign.tactical import compiled

    asked: list[bool] = []
    monkeypatch.setattr(compiled, "build_soon", lambda: asked.append(True) or False)
    code, _out, _err = run(capsys, "odds", "carrier", "--setup", MIDWAY, "--runs", "20")
    assert code == 0 and asked == [True]
    code, _out, _err = run(capsys, "odds", "naval", "--cv", "20", "--enemy-cv", "20")
    assert code == 0 and asked == [True]  # the campaign's own odds: nothing compiled
