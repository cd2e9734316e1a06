"""Guns as ships.csv's ``guns`` column and a tactical set-up write them: a calibre and a
number (``8in:8 5in:12``).

A module of its own, beside the rules that read the guns (:mod:`campaign.tactical`): the
check of a scenario's ships (:mod:`campaign.validation`) reads them too, and it runs on
every start of the program, which has no need of the tactical rule sets until a battle is
fought or previewed.
"""

from __future__ import annotations

import re

#: a gun's calibre: a number and its unit (``in`` or ``"``, ``mm``, ``cm``): ``14in``,
#: ``5.9in``, ``150mm``. The same in ships.csv's ``guns`` and a set-up's ``guns``.
CALIBRE_RE = re.compile(r'([0-9]{1,3}(?:\.[0-9]{1,2})?)(in|"|mm|cm)')
#: the calibres a ship may carry, inches: from a heavy machine gun to the largest gun
#: afloat (Yamato's 18.1in) with room to spare
CALIBRE_INCHES = (0.25, 20.0)
#: guns of one calibre in one ship
MAX_GUNS = 200
UNIT_INCHES = {"in": 1.0, '"': 1.0, "mm": 1 / 25.4, "cm": 1 / 2.54}


def calibre_problem(text: str) -> str | None:
    """What is wrong with a calibre, or None (:data:`CALIBRE_RE`, :data:`CALIBRE_INCHES`)."""
    match = CALIBRE_RE.fullmatch(text)
    if not match:
        return f"{text[:20]!r} is not a calibre; write it like 14in, 5.9in or 150mm"
    inches = float(match[1]) * UNIT_INCHES[match[2]]
    low, high = CALIBRE_INCHES
    if not low <= inches <= high:
        return f"{text!r} is not a naval gun's calibre ({low}in to {high:g}in)"
    return None


def parse_guns(text: str | None) -> tuple[dict[str, int], str | None]:
    """ships.csv's ``guns`` cell (``8in:8 5in:12``: calibre and number, space-separated)
    as calibre → number, and what is wrong with it (None: nothing)."""
    out: dict[str, int] = {}
    for part in (text or "").split():
        calibre, sep, count = part.partition(":")
        problem = calibre_problem(calibre)
        if problem is None and (
            not sep or not re.fullmatch(r"[0-9]{1,3}", count) or not 1 <= int(count) <= MAX_GUNS
        ):
            problem = f"{count[:20]!r} is not a number of guns from 1 to {MAX_GUNS}"
        if problem:
            return out, f"{part[:30]!r}: {problem}; write calibre:number pairs, like 8in:8 5in:12"
        out[calibre] = out.get(calibre, 0) + int(count)
    return out, None
