"""The team seats under load on loopback: 9 teams x 200 orders submissions from 8 clients at
once against ``seacontrol-cli serve`` run as its own program (the 1942 game, turn 1).

Prints the submissions a second, the time each took (median, 95th percentile, worst), the
retries (answers 429 or 503), and the server's memory (resident now and at its peak)
before and after; checks that no submission was lost or mixed up (tests/seatload.py).

Run: ``python bench/seats_bench.py [--per-team N] [--clients N]``. Every request goes to
127.0.0.1; the run stops by itself after ten minutes whatever is left.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from campaign import paths, seats  # noqa: E402 - after the path is set
from campaign.gamefile import GameFile, opened  # noqa: E402
from campaign.scenario import load_scenario  # noqa: E402
from tests.seatload import one_unit_orders, rss_kib, run_load  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-team", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "bench.seacontrol"
        GameFile.create(game, load_scenario(paths.scenario_dir("1942"))).close()
        orders = one_unit_orders(game)
        with opened(game) as g:
            codes = seats.seat_codes(g, sorted(orders))
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        server = subprocess.Popen(
            [sys.executable, "-m", "campaign", "serve", str(game), "--port", "0"],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            assert server.stdout is not None
            found = re.search(r"at (http://127\.0\.0\.1:\d+)/", server.stdout.readline())
            if not found:
                raise SystemExit("the server did not start")
            before = rss_kib(server.pid)
            result = run_load(found[1], codes, orders, args.per_team, args.clients)
            after = rss_kib(server.pid)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=60)
        problems = result.check(game, args.per_team)
    lat = sorted(result.latencies)
    rate = result.sent / result.seconds
    print(
        f"{len(orders)} teams x {args.per_team} submissions, {args.clients} clients at once: "
        f"{result.sent} stored in {result.seconds:.1f} s = {rate:.1f} a second"
    )
    if lat:
        p95 = lat[int(0.95 * (len(lat) - 1))]
        print(
            f"each: median {statistics.median(lat) * 1000:.0f} ms, 95% {p95 * 1000:.0f} ms, "
            f"worst {lat[-1] * 1000:.0f} ms; retries (429/503): {result.retries}"
        )
    if before and after:
        print(
            f"server memory: {before['VmRSS'] / 1024:.0f} MiB before, {after['VmRSS'] / 1024:.0f}"
            f" MiB after, peak {after['VmHWM'] / 1024:.0f} MiB"
        )
    print("lost or mixed up: none" if not problems else "PROBLEMS:\n  " + "\n  ".join(problems))


if __name__ == "__main__":
    main()
