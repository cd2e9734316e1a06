"""The team seats under load on loopback (a small version of bench/seats_bench.py): nine
teams' orders from eight clients at once, none lost, none mixed up, memory bounded."""

from __future__ import annotations

from pathlib import Path

from campaign import paths, seats
from campaign.gamefile import GameFile, opened
from campaign.scenario import load_scenario
from campaign.seatserver import SeatServer
from tests.seatload import one_unit_orders, rss_kib, run_load

PER_TEAM = 12
CLIENTS = 8


def test_nine_teams_from_eight_clients_at_once_lose_and_mix_up_nothing(tmp_path: Path) -> None:
    game = tmp_path / "war.seacontrol"
    GameFile.create(game, load_scenario(paths.scenario_dir("1942"))).close()
    orders = one_unit_orders(game)
    assert len(orders) == 9
    with opened(game) as g:
        codes = seats.seat_codes(g, sorted(orders))
    server = SeatServer(game, port=0)
    server.start()
    before = rss_kib()
    try:
        result = run_load(server.url, codes, orders, PER_TEAM, CLIENTS)
        sessions = len(server.app.sessions)
        tracked = len(server.app.buckets)
    finally:
        server.stop()
    after = rss_kib()
    assert result.check(game, PER_TEAM) == []
    assert result.sent == 9 * PER_TEAM
    with opened(game) as g:
        counted = {n: s.count for n, s in seats.submissions(g, 1).items()}
    assert counted == dict.fromkeys(orders, PER_TEAM)
    assert sessions == 9 * CLIENTS and tracked <= server.limits.clients
    if before and after:  # Linux: the server's memory did not run away (in KiB)
        assert after["VmRSS"] - before["VmRSS"] < 150_000
