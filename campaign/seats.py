"""Team seat codes: the secret each team uses to join its seat (web page, team pack).

A seat code opens one team's view and orders, nothing else. Codes are made by Game Control
when seats are first asked for (not when a game is created, so that the same scenario,
orders and seed still give the same game file), kept in the game file's ``meta`` table,
and can be reissued for one team (a code seen by the wrong people) without touching the
others.

Codes come from :mod:`secrets` (they guard access; they are not game dice): ten letters
and digits from an alphabet without look-alikes (no 0/O, 1/I/L), written in groups
``XXXX-XXXX-XX`` and read back whatever the case, spaces or dashes.

The seats server (:mod:`campaign.seatserver`) also keeps here, in ``meta``, what Game
Control reads about the seats: when each team last submitted its orders for a turn (and how
often), and whether Control has locked the turn's orders. Both are written in the same
transaction as the orders they concern (:func:`write_transaction`).
"""

from __future__ import annotations

import contextlib
import hmac
import json
import secrets
import socket
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from .gamefile import GameFile

META_KEY = "seat_codes"
LOCK_KEY = "seat_lock"
SUBMISSIONS_KEY = "seat_submissions"
#: how long a write waits for another program (the desktop app, the CLI) holding the file
BUSY_TIMEOUT_MS = 10_000
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 10


def new_code() -> str:
    """A fresh random code, ``XXXX-XXXX-XX`` (about 50 bits)."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def normalise(text: str) -> str:
    """A code as typed (any case, spaces, dashes) in its canonical ``XXXX-XXXX-XX`` form,
    or "" when it cannot be a code."""
    raw = "".join(ch for ch in text.upper() if ch not in " -\t")
    if len(raw) != LENGTH or any(ch not in ALPHABET for ch in raw):
        return ""
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def stored_codes(game: GameFile) -> dict[str, str]:
    """Nation → code as kept in the game file (no new codes made)."""
    text = game.meta(META_KEY)
    if not text:
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v) for k, v in data.items() if isinstance(v, str) and normalise(v)}


def seat_codes(game: GameFile, teams: list[str]) -> dict[str, str]:
    """Nation → code for every team in ``teams``, making (and storing) codes for teams that
    have none yet. Teams keep their codes."""
    codes = stored_codes(game)
    missing = [t for t in teams if t not in codes]
    if missing:
        for team in missing:
            codes[team] = new_code()
        _store(game, codes)
    return {t: codes[t] for t in teams}


def reissue(game: GameFile, nation: str) -> str:
    """A new code for ``nation``; its old code stops working at once."""
    codes = stored_codes(game)
    old = codes.get(nation)
    code = new_code()
    while code == old:  # pragma: no cover - a 1 in 10**15 event
        code = new_code()
    codes[nation] = code
    _store(game, codes)
    return code


def nation_for(game: GameFile, code: str) -> str | None:
    """The team a typed code opens, or None. Every stored code is compared in constant time,
    so the answer's timing does not tell how much of a guess was right."""
    typed = normalise(code)
    found = None
    for nation, stored in stored_codes(game).items():
        if hmac.compare_digest(typed.encode(), stored.encode()) and typed:
            found = nation
    return found


def _store(game: GameFile, codes: dict[str, str]) -> None:
    game.set_meta(META_KEY, json.dumps(dict(sorted(codes.items())), separators=(",", ":")))


# -- writing beside other programs --------------------------------------------------------------
class GameFileBusy(Exception):
    """Another program held the game file longer than :data:`BUSY_TIMEOUT_MS`."""


@contextlib.contextmanager
def write_transaction(game: GameFile) -> Iterator[None]:
    """One transaction that takes the game file's write lock before it reads anything
    (``BEGIN IMMEDIATE``), so what it checks cannot change before it writes: another
    program writing the same file (the desktop app, ``seacontrol-cli``) is waited for up to
    :data:`BUSY_TIMEOUT_MS`, then :class:`GameFileBusy` is raised and nothing is written.
    Writes inside (``GameFile``'s own transactions) become savepoints of this one."""
    conn = game.db.conn
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise GameFileBusy(f"the game file is busy ({exc})") from None
    try:
        yield
    except BaseException:
        conn.rollback()
        raise
    try:
        conn.execute("COMMIT")
    except sqlite3.OperationalError as exc:
        conn.rollback()
        raise GameFileBusy(f"the game file is busy ({exc})") from None


def _meta_json(game: GameFile, key: str) -> dict[str, object]:
    try:
        data = json.loads(game.meta(key) or "{}")
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def _now_text(when: datetime | None) -> str:
    return (when or datetime.now().astimezone()).isoformat(timespec="seconds")


# -- the lock on a turn's orders ------------------------------------------------------------------
@dataclass(frozen=True)
class Lock:
    """Game Control's lock on the orders of ``turn``, set at ``at`` (ISO time)."""

    turn: int
    at: str


def lock_of(game: GameFile, turn: int) -> Lock | None:
    """The lock on ``turn``'s orders, if Control set one (a lock on an earlier turn does
    not hold the next one: each turn's orders open unlocked)."""
    data = _meta_json(game, LOCK_KEY)
    if data.get("turn") == turn and isinstance(data.get("at"), str):
        return Lock(turn, str(data["at"]))
    return None


def set_lock(game: GameFile, turn: int, locked: bool, when: datetime | None = None) -> None:
    """Lock (or unlock) the seats' orders for ``turn``: a locked turn's submissions are
    refused with the time of the lock; orders stored stay as they are."""
    value = json.dumps({"turn": turn, "at": _now_text(when)}) if locked else ""
    game.set_meta(LOCK_KEY, value)


# -- who submitted, and when ----------------------------------------------------------------------
@dataclass(frozen=True)
class Submission:
    """A team's orders given through its seat for a turn: first and last time, how often."""

    nation: str
    turn: int
    first: str
    last: str
    count: int


def submissions(game: GameFile, turn: int) -> dict[str, Submission]:
    """Nation → its seat's submissions for ``turn`` (teams that have not submitted are
    left out)."""
    per_turn = _meta_json(game, SUBMISSIONS_KEY).get(str(turn))
    out: dict[str, Submission] = {}
    if not isinstance(per_turn, dict):
        return out
    for nation, row in per_turn.items():
        if isinstance(row, dict):
            count = row.get("count")
            out[str(nation)] = Submission(
                str(nation),
                turn,
                str(row.get("first", "")),
                str(row.get("last", "")),
                count if isinstance(count, int) else 0,
            )
    return out


def record_submission(
    game: GameFile, turn: int, nation: str, when: datetime | None = None
) -> Submission:
    """Note that ``nation``'s seat submitted orders for ``turn`` (call it in the
    transaction that stores them)."""
    data = _meta_json(game, SUBMISSIONS_KEY)
    per_turn = data.get(str(turn))
    per_turn = dict(per_turn) if isinstance(per_turn, dict) else {}
    old = per_turn.get(nation)
    old = old if isinstance(old, dict) else {}
    now = _now_text(when)
    count = old.get("count")
    made = Submission(
        nation,
        turn,
        str(old.get("first") or now),
        now,
        (count if isinstance(count, int) else 0) + 1,
    )
    per_turn[nation] = {"first": made.first, "last": made.last, "count": made.count}
    data[str(turn)] = dict(sorted(per_turn.items()))
    game.set_meta(SUBMISSIONS_KEY, json.dumps(data, separators=(",", ":")))
    return made


# -- where teams' devices join --------------------------------------------------------------

#: the seats server's port unless told otherwise
DEFAULT_PORT = 8765
#: the seats server's page a seat code is typed into (or a QR code leads to)
JOIN_PATH = "/join"


def lan_address() -> str:
    """This machine's address on the local network (where the seats server listens), or
    127.0.0.1. A UDP socket is pointed at a documentation address to learn the route;
    nothing is sent."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            address = str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    return address if address and not address.startswith("0.") else "127.0.0.1"


def join_base(host: str | None = None, port: int = DEFAULT_PORT) -> str:
    """``http://HOST:PORT``: where teams' devices reach the seats server."""
    return f"http://{host or lan_address()}:{port}"


def join_url(base: str, code: str) -> str:
    """The seats server's join page for a seat code."""
    return f"{base.rstrip('/')}{JOIN_PATH}?code={code}"
