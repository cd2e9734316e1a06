"""Team seat codes: the secret each team uses to join its seat (web page, team pack).

A seat code opens one team's view and orders, nothing else. Codes are made by Game Control
when seats are first asked for (not when a game is created, so that the same scenario,
orders and seed still give the same game file), kept in the game file's ``meta`` table,
and can be reissued for one team (a code seen by the wrong people) without touching the
others.

Codes come from :mod:`secrets` (they guard access; they are not game dice): ten letters
and digits from an alphabet without look-alikes (no 0/O, 1/I/L), written in groups
``XXXX-XXXX-XX`` and read back whatever the case, spaces or dashes.
"""

from __future__ import annotations

import hmac
import json
import secrets

from .gamefile import GameFile

META_KEY = "seat_codes"
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
