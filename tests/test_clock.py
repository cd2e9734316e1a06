"""The phase clock (campaign/clock.py): phases, start/pause/extend/skip against an injected
time, the alerts, the clock kept in the game file, ``seacontrol-cli clock``, and the seats'
``/api/clock``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign import cli_seats, clock
from campaign.cli import main
from campaign.gamefile import GameFile, opened
from campaign.scenario import load_scenario

T0 = 1_000_000.0


def test_a_new_game_has_the_issues_phases_stopped_at_the_first() -> None:
    s = clock.status(clock.Clock(), T0)
    assert (s.phase, s.remaining, s.running, s.next_phase) == (
        "Orders",
        900,
        False,
        "Control resolution",
    )


def test_running_pausing_and_running_again_counts_only_the_running_time() -> None:
    c = clock.start(clock.Clock(), T0)
    assert clock.status(c, T0 + 60).remaining == 840
    c = clock.pause(c, T0 + 100)
    assert clock.status(c, T0 + 5000).remaining == 800  # paused: time stands
    c = clock.start(c, T0 + 6000)
    assert clock.start(c, T0 + 6100) == c  # starting a running clock changes nothing
    assert clock.status(c, T0 + 6050).remaining == 750


def test_extend_adds_to_the_phase_and_can_take_away() -> None:
    c = clock.extend(clock.start(clock.Clock(), T0), 5)
    assert clock.status(c, T0).remaining == 1200 and clock.status(c, T0).length == 1200
    c = clock.extend(c, -2.5)
    assert clock.status(c, T0).remaining == 1050
    with pytest.raises(clock.ClockError, match="shorter than nothing"):
        clock.extend(c, -30)
    with pytest.raises(clock.ClockError, match="extend by"):
        clock.extend(c, 0)


def test_time_up_shows_the_overrun_and_does_not_move_on_by_itself() -> None:
    c = clock.start(clock.Clock(), T0)
    s = clock.status(c, T0 + 900 + 75)
    assert s.over and s.phase == "Orders" and clock.shown_time(s.remaining) == "+01:15"
    assert clock.shown_time(0.2) == "00:01" and clock.shown_time(0) == "00:00"
    assert clock.shown_time(899.5) == "15:00"


def test_skip_goes_round_the_phases_keeping_the_clock_running_or_not() -> None:
    c = clock.extend(clock.start(clock.Clock(), T0), 3)
    c = clock.skip(c, T0 + 100)
    s = clock.status(c, T0 + 160)
    assert (s.phase, s.remaining, s.running, s.round) == ("Control resolution", 540, True, 1)
    c = clock.skip(clock.skip(clock.pause(c, T0 + 200), T0 + 300), T0 + 400)
    s = clock.status(c, T0 + 9999)
    assert (s.phase, s.remaining, s.running, s.round) == ("Orders", 900, False, 2)


def test_restart_gives_the_phase_its_full_time_again() -> None:
    c = clock.extend(clock.start(clock.Clock(), T0), 4)
    c = clock.restart_phase(c, T0 + 500)
    assert clock.status(c, T0 + 560).remaining == 840


def test_alerts_fall_once_at_two_minutes_and_at_time_up() -> None:
    assert clock.crossed(121, 119.5) == [120]
    assert clock.crossed(120, 119) == []  # passed already at 120
    assert clock.crossed(1, -0.5) == [0]
    assert clock.crossed(200, -3) == [120, 0]
    assert clock.crossed(-1, -2) == []


@pytest.mark.parametrize(
    ("text", "phase"),
    [
        ("Orders=15", clock.Phase("Orders", 900)),
        ("Control resolution = 10", clock.Phase("Control resolution", 600)),
        ("Briefing=2:30", clock.Phase("Briefing", 150)),
        ("Break=7.5", clock.Phase("Break", 450)),
    ],
)
def test_phases_are_written_name_equals_minutes(text: str, phase: clock.Phase) -> None:
    assert clock.parse_phase(text) == phase


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Orders", "NAME=MINUTES"),
        ("Orders=fifteen", "not a time"),
        ("Orders=0", "more than 0"),
        ("Orders=601", "at most 600"),
        ("=5", "NAME=MINUTES"),
        ("Ordres\x1b[2J=5", "plain characters"),
        ("x" * 41 + "=5", "1 to 40"),
    ],
)
def test_a_phase_that_cannot_be_is_refused_in_words(text: str, words: str) -> None:
    with pytest.raises(clock.ClockError, match=words.replace("(", r"\(")):
        clock.parse_phase(text)


def test_a_stored_clock_that_cannot_be_read_is_the_default_one() -> None:
    for junk in ({}, {"phases": []}, {"phases": [{"name": "", "seconds": 5}], "index": 0}, [1]):
        assert clock.Clock.from_data(junk) == clock.Clock()
    data = clock.start(clock.Clock(), T0).to_data()
    data["run_from"] = float("nan")
    assert clock.Clock.from_data(data) == clock.Clock()


@pytest.fixture
def game(tmp_path: Path, mini_dir: Path) -> Path:
    path = tmp_path / "g.seacontrol"
    GameFile.create(path, load_scenario(mini_dir)).close()
    return path


def test_the_clock_is_kept_in_the_game_file(game: Path) -> None:
    with opened(game) as g:
        clock.change(g, lambda _c: clock.set_phases([clock.Phase("Plan", 60)]))
        clock.change(g, lambda c: clock.start(c, T0))
    with opened(game) as g:
        s = clock.status(clock.load(g), T0 + 15)
    assert (s.phase, s.remaining, s.running, s.count) == ("Plan", 45, True, 1)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_clock_from_the_command_line(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    moment = [T0]
    monkeypatch.setattr(cli_seats, "NOW", lambda: moment[0])
    g = str(game)
    code, out, _ = run(capsys, "clock", g, "set-phases", "Orders=15", "Control resolution=10")
    assert code == 0 and "Orders 15 min, Control resolution 10 min" in out
    assert "15:00 left, running" in run(capsys, "clock", g, "start")[1]
    moment[0] += 90
    assert "13:30 left, paused" in run(capsys, "clock", g, "pause")[1]
    assert "16:30 left" in run(capsys, "clock", g, "extend", "3")[1]
    assert "15:00 left" in run(capsys, "clock", g, "extend", "-1.5")[1]
    run(capsys, "clock", g, "start")
    moment[0] += 15 * 60 + 5
    data = json.loads(run(capsys, "clock", g, "status", "--json")[1])
    assert data["over"] and data["shown"] == "+00:05" and data["running"]
    assert data["phases"] == [
        {"name": "Orders", "minutes": 15},
        {"name": "Control resolution", "minutes": 10},
    ]
    out = run(capsys, "clock", g, "skip")[1]
    assert out.startswith("Control resolution (phase 2 of 2, round 1): 10:00 left, running")
    code, _, err = run(capsys, "clock", g, "extend", "-99")
    assert code == 1 and "shorter than nothing" in err
    code, _, err = run(capsys, "clock", g, "set-phases", "Orders")
    assert code == 1 and "NAME=MINUTES" in err


def test_the_seat_pages_read_the_same_clock(game: Path) -> None:
    from starlette.testclient import TestClient

    from campaign import seats
    from campaign.seatserver import SeatApp, SeatDesk

    moment = [T0]
    with opened(game) as g:
        code = seats.seat_codes(g, ["blue"])["blue"]
    desk = SeatDesk(game, now=lambda: moment[0])
    try:
        client = TestClient(SeatApp(desk).asgi, follow_redirects=False)
        client.post("/join", data={"code": code})
        assert client.get("/api/clock").json() == {"set": False}  # Control has not set it
        assert "class='clock'></span>" in client.get("/team").text
        with opened(game) as g:
            clock.change(g, lambda c: clock.start(c, T0))
        moment[0] += 61
        data = client.get("/api/clock").json()
        assert data["set"] and (data["phase"], data["remaining"]) == ("Orders", 839)
        assert data["shown"] == "13:59"
        assert "Orders 13:59" in client.get("/team").text
    finally:
        desk.close()
