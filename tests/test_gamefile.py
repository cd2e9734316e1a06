"""The game file: one SQLite file, refused when not ours or too new, never half-saved."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from campaign import gamefile
from campaign.gamefile import APPLICATION_ID, SCHEMA_VERSION, GameFile, GameFileError
from campaign.scenario import load_scenario, write_scenario
from campaign.state import STATE_FORMAT, GameState


@pytest.fixture
def game_path(tmp_path: Path, mini_dir: Path) -> Path:
    path = tmp_path / "game.seacontrol"
    GameFile.create(path, load_scenario(mini_dir), name="Test game").close()
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_new_game_is_marked_and_versioned(game_path: Path) -> None:
    conn = sqlite3.connect(game_path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()
    assert sorted(p.name for p in game_path.parent.iterdir()) == ["game.seacontrol"]


def test_the_game_holds_its_scenario_and_starting_state(game_path: Path, mini_dir: Path) -> None:
    with GameFile.open(game_path) as game:
        assert game.name == "Test game"
        assert game.scenario.tables == load_scenario(mini_dir).tables
        state = game.state()
        assert state.turn == 1 and state.step == 0
        assert state.units["blue_es1"].state == "damaged"
        assert state.tonnage == {"blue": 10, "red": 7, "grey": 0}
        assert state.lsp == {"blue_port": {"blue": 2}, "red_port": {"red": 1}}
        assert game.turns() == [1]


@pytest.mark.parametrize("scenario_dir", ["mini", "1942"])
def test_a_new_game_is_as_the_file_opens(tmp_path: Path, mini_dir: Path, scenario_dir: str) -> None:
    """create() plays the scenario it was given without reading it back: the file holds
    exactly that scenario, and a write made at once seals as any other."""
    scenario = load_scenario(mini_dir if scenario_dir == "mini" else None)
    path = tmp_path / "new.seacontrol"
    with GameFile.create(path, scenario) as new:
        assert new.path == path and new.integrity.verified
        with GameFile.open(path) as opened:
            assert opened.scenario.tables == new.scenario.tables
            assert opened.scenario.meta == new.scenario.meta
            assert opened.scenario.warnings == new.scenario.warnings
            assert opened.integrity == new.integrity
            assert opened.state().to_json() == new.state().to_json()
        state = new.state()
        state.step = 1
        new.save(state)
    with GameFile.open(path) as again:
        assert again.integrity.verified and again.state().step == 1


def test_export_of_a_game_gives_back_the_scenario_files(
    game_path: Path, mini_dir: Path, tmp_path: Path
) -> None:
    with GameFile.open(game_path) as game:
        write_scenario(game.scenario, tmp_path / "out")
    for path in mini_dir.iterdir():
        assert (tmp_path / "out" / path.name).read_bytes() == path.read_bytes(), path.name


def test_save_keeps_turn_starts_and_a_turn_can_be_reopened(game_path: Path) -> None:
    with GameFile.open(game_path) as game:
        state = game.state()
        state.step = 10
        state.units["blue_bb1"].state = "damaged"
        game.save(
            state, events=[{"turn": 1, "step": 8, "kind": "combat", "nation": "blue", "data": "{}"}]
        )
        state.turn, state.step = 2, 0
        game.save(state)
    with GameFile.open(game_path) as game:
        assert game.turns() == [1, 2]
        assert game.state().turn == 2
        assert game.turn_start(2).units["blue_bb1"].state == "damaged"
        start = game.reopen_turn(1)
        assert start.units["blue_bb1"].state == "ready"
        assert game.turns() == [1]
        assert [e["kind"] for e in game.events()] == ["combat", "turn_reopened"]
        with pytest.raises(KeyError):
            game.turn_start(5)


def test_state_json_is_canonical(game_path: Path) -> None:
    with GameFile.open(game_path) as game:
        state = game.state()
    text = state.to_json()
    assert GameState.from_json(text).to_json() == text
    assert json.loads(text)["format"] == STATE_FORMAT == 2


def test_a_format_1_state_is_read_with_its_untyped_turn_record() -> None:
    """Game files written before the turn record was typed (state format 1) still open:
    a unit's allocation was a string there."""
    from campaign.record import ESCORT, IN_PORT, RAID, TASK_FORCE, TRANSFERRED

    old = {
        "format": 1,
        "turn": 3,
        "step": 6,
        "units": {},
        "lsp": {},
        "tonnage": {},
        "routes": {},
        "holders": {},
        "garrisons": {},
        "air": {},
        "cards_played": [],
        "extra_routes": {},
        "contested": {},
        "turn_record": {
            "transferred": ["a"],
            "assignments": {
                "a": "transferred",
                "b": "escort:r1",
                "c": "tf:japan:kb",
                "d": "raid:r2",
            },
            "flags": {"japan": {"naval": 2, "military": 1, "naval_used": 1, "military_used": 0}},
            "cards": [
                {
                    "card": "c1",
                    "nation": "japan",
                    "use": "die_bonus",
                    "value": 2,
                    "beneficiary": "japan",
                    "task_force": "kb",
                    "route": "",
                    "text": "",
                    "used": False,
                    "ruling": "",
                }
            ],
        },
    }
    state = GameState.from_json(json.dumps(old))
    record = state.turn_record
    assert record.transferred == ["a"]
    assert record.where("a").kind == TRANSFERRED and record.where("a").on_port_card
    assert record.where("b").kind == ESCORT and record.where("b").route == "r1"
    assert (record.where("c").kind, record.where("c").task_force) == (TASK_FORCE, "kb")
    assert record.where("d").kind == RAID and not record.where("d").on_port_card
    assert record.where("zzz").kind == IN_PORT
    assert record.flags["japan"].military == 1 and record.cards[0].value == 2
    assert json.loads(state.to_json())["format"] == STATE_FORMAT


def test_a_file_from_a_newer_version_is_refused_and_untouched(game_path: Path) -> None:
    conn = sqlite3.connect(game_path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    before = digest(game_path)
    with pytest.raises(GameFileError, match=f"game file version {SCHEMA_VERSION + 1}.*not been"):
        GameFile.open(game_path)
    assert digest(game_path) == before


def test_an_older_version_is_migrated_step_by_step(
    game_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []

    def add_notes(db: object) -> None:
        calls.append("v1→v2")
        db["meta"].insert({"key": "notes", "value": "migrated"})  # type: ignore[index]

    monkeypatch.setattr(gamefile, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(gamefile.MIGRATIONS, SCHEMA_VERSION, add_notes)
    with GameFile.open(game_path) as game:
        assert game.db["meta"].get("notes")["value"] == "migrated"
    assert sqlite3.connect(game_path).execute("PRAGMA user_version").fetchone()[0] == (
        SCHEMA_VERSION + 1
    )
    assert calls == ["v1→v2"]


def test_files_that_are_not_games_are_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.seacontrol"
    text.write_text("hello, I am not a database\n" * 100)
    with pytest.raises(GameFileError, match="not a Sea Control game file"):
        GameFile.open(text)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(GameFileError, match="not a Sea Control game file"):
        GameFile.open(other)
    with pytest.raises(GameFileError, match="no such game file"):
        GameFile.open(tmp_path / "missing.seacontrol")


def test_a_damaged_file_is_refused(game_path: Path) -> None:
    data = bytearray(game_path.read_bytes())
    page = 4096
    for i in range(page * 2 + 100, min(len(data), page * 4), 7):
        data[i] = 0xFF
    game_path.write_bytes(bytes(data))
    with pytest.raises(GameFileError):
        GameFile.open(game_path)


def test_save_as_and_backup_write_complete_copies(game_path: Path, tmp_path: Path) -> None:
    with GameFile.open(game_path) as game:
        game.backup(tmp_path / "backup.seacontrol")
        game.save_as(tmp_path / "copy.seacontrol")
        state = game.state()
        state.step = 3
        game.save(state)
    with GameFile.open(tmp_path / "copy.seacontrol") as copy:
        assert copy.state().step == 3
    with GameFile.open(game_path) as original:
        assert original.state().step == 0
    with GameFile.open(tmp_path / "backup.seacontrol") as backup:
        assert backup.state().step == 0
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def _save_forever(path: Path, ready: int) -> None:
    """Child process: save again and again, each save's marker in the state and an event
    (the parent is told once the game is open: opening is not what is being killed)."""
    game = GameFile.open(path)
    state = game.state()
    marker = state.tonnage["blue"]
    os.write(ready, b"!")
    while True:
        marker += 1
        state.tonnage["blue"] = marker
        game.save(
            state,
            events=[
                {
                    "turn": 1,
                    "step": 1,
                    "kind": "marker",
                    "nation": "blue",
                    "data": json.dumps({"marker": marker}),  # an event's data: an object
                }
            ],
        )


def test_killing_a_process_mid_save_never_damages_the_game(game_path: Path) -> None:
    """200 times: a child saves in a loop and is killed at a random moment; the file must
    reopen intact (its seal verified) with the state of one complete save (its marker
    equals the last event's)."""
    rng = random.Random(1942)
    markers = []
    for _ in range(200):
        ready, told = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            try:
                os.close(ready)
                _save_forever(game_path, told)
            finally:
                os._exit(0)
        os.close(told)
        os.read(ready, 1)
        os.close(ready)
        time.sleep(rng.uniform(0.002, 0.06))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with GameFile.open(game_path) as game:
            marker = game.state().tonnage["blue"]
            events = game.events()
            last = json.loads(events[-1]["data"])["marker"] if events else 10
            assert marker == last
            assert len(events) == marker - 10
        markers.append(marker)
    assert markers[-1] > markers[0]
