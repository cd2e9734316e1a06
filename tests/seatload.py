"""A load on the team seats over loopback: teams' orders submitted by several clients at
once, each answer checked against what was sent (used by tests/test_seats_load.py and
bench/seats_bench.py).

Every client joins every team (a session of its own for each) and takes submissions from
one shared queue, so one team's orders arrive from several clients at once. Each
submission names its task force ``Load NATION K``: the answer must carry that team and
that name back, the server's count of the team's submissions must go 1, 2, … with none
missing or twice, and the game file must end with the name of the submission counted
last.
"""

from __future__ import annotations

import http.client
import json
import queue
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from campaign.engine import Campaign
from campaign.gamefile import opened


def one_unit_orders(game: Path) -> dict[str, dict[str, Any]]:
    """Each team's smallest valid orders that carry a name: one task force of one ready unit
    at a fleet base, staying there."""
    out = {}
    with Campaign.open(game) as c:
        board = c.orders_board()
        for n in board.teams():
            unit = next(
                (
                    u
                    for u in sorted(board.state.units.values(), key=lambda u: u.id)
                    if u.nation == n and u.state == "ready" and board.is_fleet_base(u.base)
                ),
                None,
            )
            if unit is not None:
                tf = {"id": "load", "name": "", "base": unit.base, "units": [unit.id]}
                out[n] = {"nation": n, "task_forces": [{**tf, "stance": "stay"}]}
    return out


def marker(nation: str, k: int) -> str:
    return f"Load {nation} {k}"


@dataclass
class LoadResult:
    sent: int = 0
    seconds: float = 0.0
    retries: int = 0  # answers 429 or 503, sent again
    latencies: list[float] = field(default_factory=list)
    #: nation → the server's submission count → the marker it stored
    counted: dict[str, dict[int, str]] = field(default_factory=lambda: defaultdict(dict))
    problems: list[str] = field(default_factory=list)

    def check(self, game: Path, per_team: int) -> list[str]:
        """Every problem with the load: a submission lost, counted twice or answered for
        another team, or a game file that does not end with the last one."""
        problems = list(self.problems)
        with opened(game) as g:
            turn = g.state().turn
            stored = {n: json.loads(text) for n, text in g.orders(turn).items()}
        for nation, counts in self.counted.items():
            if sorted(counts) != list(range(1, per_team + 1)):
                problems.append(f"{nation}: counts {sorted(counts)[:5]}… not 1..{per_team}")
            names = sorted(counts.values())
            if len(set(names)) != len(names):
                problems.append(f"{nation}: a submission answered twice")
            last = counts.get(max(counts, default=0))
            tfs = stored.get(nation, {}).get("task_forces", [{}])
            if tfs[0].get("name") != last:
                problems.append(f"{nation}: the file holds {tfs[0].get('name')!r}, not {last!r}")
        return problems


class _Client:
    def __init__(self, url: str) -> None:
        where = urlsplit(url)
        self.conn = http.client.HTTPConnection(where.hostname or "", where.port, timeout=60)
        self.seats: dict[str, tuple[str, str]] = {}  # nation → (cookie, form token)

    def request(
        self, method: str, path: str, body: str = "", headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        try:
            self.conn.request(method, path, body or None, headers or {})
            response = self.conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        except (ConnectionError, http.client.HTTPException):
            self.conn.close()  # the server closed an idle connection: open a new one
            self.conn.request(method, path, body or None, headers or {})
            response = self.conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()

    def join(self, nation: str, code: str, stop_at: float) -> None:
        """Join ``nation``'s seat, waiting as told when the address has joined too often
        (every client of the load shares 127.0.0.1)."""
        form = {"content-type": "application/x-www-form-urlencoded"}
        while True:
            status, headers, _ = self.request("POST", "/join", urlencode({"code": code}), form)
            if status != 429 or time.perf_counter() > stop_at:
                break
            time.sleep(float(headers.get("retry-after", headers.get("Retry-After", "1"))))
        if status != 303:
            raise RuntimeError(f"joining {nation}: HTTP {status}")
        cookie = headers.get("set-cookie", headers.get("Set-Cookie", "")).split(";")[0]
        _, _, body = self.request("GET", "/api/session", headers={"cookie": cookie})
        self.seats[nation] = (cookie, json.loads(body)["csrf"])


def run_load(
    url: str,
    codes: dict[str, str],
    orders: dict[str, dict[str, Any]],
    per_team: int,
    clients: int,
    deadline: float = 600.0,
) -> LoadResult:
    """Submit ``per_team`` orders for every team in ``orders`` from ``clients`` threads at
    once; stops by itself after ``deadline`` seconds whatever is left."""
    jobs: queue.Queue[tuple[str, int]] = queue.Queue()
    for k in range(per_team):
        for nation in orders:
            jobs.put((nation, k))
    result = LoadResult()
    lock = threading.Lock()
    start = time.perf_counter()
    stop_at = start + deadline

    def work() -> None:
        try:
            submit_all()
        except (OSError, RuntimeError, ValueError, KeyError) as exc:
            with lock:
                result.problems.append(f"{threading.current_thread().name}: {exc!r}")

    def submit_all() -> None:
        client = _Client(url)
        for nation in orders:
            client.join(nation, codes[nation], stop_at)
        while time.perf_counter() < stop_at:
            try:
                nation, k = jobs.get_nowait()
            except queue.Empty:
                break
            body = dict(orders[nation])
            body["task_forces"] = [{**body["task_forces"][0], "name": marker(nation, k)}]
            cookie, token = client.seats[nation]
            headers = {"cookie": cookie, "x-seat-token": token, "content-type": "application/json"}
            while time.perf_counter() < stop_at:
                began = time.perf_counter()
                status, answer_headers, raw = client.request(
                    "POST", "/api/orders", json.dumps(body), headers
                )
                if status in (429, 503):
                    with lock:
                        result.retries += 1
                    time.sleep(min(2.0, float(answer_headers.get("retry-after", "1")) / 10))
                    continue
                took = time.perf_counter() - began
                data = json.loads(raw)
                with lock:
                    result.sent += 1
                    result.latencies.append(took)
                    if status != 200 or not data.get("stored"):
                        result.problems.append(f"{nation} {k}: HTTP {status} {data}")
                        break
                    stored = data["orders"]
                    name = stored["task_forces"][0]["name"]
                    sub = data["submission"]
                    if stored["nation"] != nation or sub["nation"] != nation:
                        result.problems.append(f"{nation} {k}: answered for {sub['nation']}")
                    if name != marker(nation, k):
                        result.problems.append(f"{nation} {k}: stored {name!r}")
                    if sub["count"] in result.counted[nation]:
                        result.problems.append(f"{nation}: count {sub['count']} twice")
                    result.counted[nation][sub["count"]] = name
                break
        client.conn.close()

    threads = [threading.Thread(target=work, name=f"load-{i}") for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    result.seconds = time.perf_counter() - start
    if not jobs.empty():
        result.problems.append(f"{jobs.qsize()} submissions not sent before the deadline")
    return result


def rss_kib(pid: int | str = "self") -> dict[str, int]:
    """The process's resident memory now and at its peak (Linux), in KiB; {} elsewhere."""
    try:
        text = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out
