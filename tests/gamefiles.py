"""Game files for the trust tests: one played a little, and the tools a tamperer would use
(raw ``sqlite3`` edits, and a re-hash of the chain with or without a key)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from campaign import gamefile, seal
from campaign.autoplay import standing_orders
from campaign.cli import main
from campaign.engine import Campaign
from campaign.gamefile import GameFile
from campaign.scenario import load_scenario
from campaign.seats import seat_codes

if TYPE_CHECKING:
    from ui.session import GameSession

MINI = Path(__file__).parent / "fixtures" / "mini"


def played_game(path: Path, turns: int = 2, seats: bool = True) -> Path:
    """The mini scenario played for ``turns`` turns with standing orders: every table holds
    rows (orders and choices, events secret and public, dice, turn starts, the seed and the
    seat codes in meta, which are random: ``seats=False`` leaves them out)."""
    GameFile.create(path, load_scenario(MINI), name="Trust").close()
    with Campaign.open(path) as c:
        if seats:
            seat_codes(c.game, c.board().teams())
        for _ in range(turns):
            board = c.board()
            for nation in board.teams():
                c.set_orders(nation, standing_orders(board, nation))
            c.resolve(seed=7)
    return path


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """Run the command line as a person would: its exit code and all it printed (never a
    traceback)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


def sql(path: Path, *statements: str, args: tuple[Any, ...] = ()) -> None:
    """Edit a game file as a person with the sqlite3 tool would."""
    conn = sqlite3.connect(path)
    try:
        for statement in statements:
            conn.execute(statement, args) if args else conn.executescript(statement)
        conn.commit()
    finally:
        conn.close()


def tables(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        return [r[0] for r in rows]
    finally:
        conn.close()


def fingerprint(path: Path) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every row of every table in key order: what a tamperer changed, if anything."""
    conn = sqlite3.connect(path)
    conn.text_factory = bytes
    try:
        found = conn.execute("SELECT name, type FROM sqlite_master ORDER BY name").fetchall()
        out = []
        for raw, kind in found:
            name = raw.decode()
            if kind != b"table":
                out.append((name, []))
                continue
            order = gamefile.ROW_ORDER.get(name, "row_order")
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info([{name}])")]
            order = order if all(c.strip("[]") in cols for c in order.split(", ")) else "rowid"
            rows = conn.execute(f"SELECT * FROM [{name}] ORDER BY {order}").fetchall()
            out.append((name, [tuple((type(v).__name__, v) for v in r) for r in rows]))
        return out
    finally:
        conn.close()


def forge(path: Path, key: bytes | None, key_id: str | None = None, rebuild: bool = False) -> None:
    """Re-hash the file as a tamperer with this program's code would: digests of the records
    as they now are, a new link on the chain (or, with ``rebuild``, a whole new chain from
    the start), and a seal made with ``key`` (which the tamperer may not hold) under the
    name ``key_id``."""
    db = gamefile._connect(path)
    try:
        digests = gamefile._Digests(db, gamefile._sealed_tables(db)).hexdigests()
        digest = seal.content_digest(digests)
        links = db.execute("SELECT link, digest, head FROM chain ORDER BY link").fetchall()
        if rebuild:
            db.execute("DELETE FROM chain")
            links = []
        head = links[-1][2] if links else seal.GENESIS
        link = (links[-1][0] if links else 0) + 1
        head = seal.next_head(head, link, digest)
        db.execute("INSERT INTO chain (link, digest, head) VALUES (?, ?, ?)", [link, digest, head])
        mac = seal.mac(key, link, head) if key is not None else ""
        kid = key_id if key_id is not None else seal.key_id(key)
        db.execute(
            "UPDATE seal SET link = ?, head = ?, key_id = ?, mac = ?, tables = ?",
            [link, head, kid, mac, seal.tables_text(digests)],
        )
        db.conn.commit()
    finally:
        db.close()


def die(session: GameSession) -> Path:
    """The program holding ``session`` dies: its connection is gone, and its lock file is
    left behind naming a process that no longer runs."""
    working = session.working
    assert working is not None and session.campaign is not None and session._lock is not None
    session.campaign.close()
    session._lock.unlock()
    take = (
        "import os, sys\n"
        "from PySide6.QtCore import QLockFile\n"
        "lock = QLockFile(sys.argv[1])\n"
        "assert lock.tryLock(0)\n"
        "os._exit(0)\n"
    )
    lock = working.with_suffix(".lock")
    subprocess.run([sys.executable, "-c", take, str(lock)], check=True)
    assert lock.exists()
    return working
