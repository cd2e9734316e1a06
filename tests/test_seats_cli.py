"""``seacontrol-cli seats`` (who submitted, the lock) and ``seacontrol-cli serve`` run as a
program: a team joins the served game and its orders land in the file."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from campaign import seats
from campaign.cli import main
from campaign.gamefile import opened
from tests.test_cli import game, run

__all__ = ["game"]  # the fixture: a new game of the mini scenario

ROOT = Path(__file__).resolve().parent.parent


def test_seats_status_says_who_submitted_and_the_lock(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with opened(game) as g:
        seats.seat_codes(g, ["blue", "red"])
        seats.record_submission(g, 1, "red")
    code, out, _ = run(capsys, "seats", str(game), "--status")
    assert code == 0
    assert re.search(r"Blueland\s+\S+  not submitted", out)
    assert re.search(r"Redland\s+\S+  submitted \d\d:\d\d:\d\d \(\d{4}-\d\d-\d\d\) \(1x\)", out)
    assert "Turn 1's orders are open." in out
    out = run(capsys, "seats", str(game), "--lock")[1]
    assert "Turn 1's orders locked at" in out
    data = json.loads(run(capsys, "seats", str(game), "--status", "--json")[1])
    assert data["turn"] == 1 and data["locked"]
    assert [(t["nation"], t["submissions"]) for t in data["teams"]] == [("blue", 0), ("red", 1)]
    assert "are open" in run(capsys, "seats", str(game), "--unlock")[1]
    plain = json.loads(run(capsys, "seats", str(game), "--json")[1])
    assert [sorted(row) for row in plain] == [["code", "name", "nation"]] * 2
    with pytest.raises(SystemExit) as usage:
        main(["seats", str(game), "--lock", "--unlock"])
    assert usage.value.code == 2 and "not allowed" in capsys.readouterr().err


def test_serve_refuses_a_port_in_use_in_words(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        code, _, err = run(capsys, "serve", str(game), "--port", str(port))
    assert code == 1 and f"cannot listen on 127.0.0.1:{port}" in err and "--port" in err


def test_serve_refuses_what_is_not_a_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "serve", str(tmp_path / "none.seacontrol"), "--port", "0")
    assert code == 1 and "no such game file" in err


def test_serve_as_a_program_a_team_joins_and_its_orders_land_in_the_file(game: Path) -> None:
    with opened(game) as g:
        code = seats.seat_codes(g, ["blue", "red"])["blue"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(
        [sys.executable, "-m", "campaign", "serve", str(game), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        found = re.search(r"at (http://127\.0\.0\.1:\d+)/", first)
        assert found, first
        listing = [server.stdout.readline() for _ in range(3)]
        assert any(f"/join?code={code}" in line for line in listing)
        where = urlsplit(found[1])
        conn = http.client.HTTPConnection(where.hostname or "", where.port, timeout=30)
        conn.request(
            "POST",
            "/join",
            urlencode({"code": code}),
            {"content-type": "application/x-www-form-urlencoded"},
        )
        joined = conn.getresponse()
        joined.read()
        assert joined.status == 303
        cookie = (joined.getheader("set-cookie") or "").split(";")[0]
        conn.request("GET", "/api/session", headers={"cookie": cookie})
        token = json.loads(conn.getresponse().read())["csrf"]
        orders = json.dumps({"nation": "blue", "tonnage": {}})
        conn.request(
            "POST",
            "/api/orders",
            orders,
            {"cookie": cookie, "x-seat-token": token, "content-type": "application/json"},
        )
        answer = conn.getresponse()
        data = json.loads(answer.read())
        assert answer.status == 200 and data["stored"], data
        conn.close()
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        finally:
            if server.poll() is None:
                server.kill()
            for stream in (server.stdout, server.stderr):
                if stream is not None:
                    stream.close()
    with opened(game) as g:
        assert "blue" in g.orders(1) and seats.submissions(g, 1)["blue"].count == 1
