"""The phase clock: the megagame's turn, played against time, in phases Game Control sets.

A megagame turn runs as phases of fixed length (say orders 15 minutes, Control's
resolution 10, the briefing 5), shown to the room on a projector and on every team's seat
page. Control starts, pauses, extends or skips the current phase; after the last phase the
first comes round again (the next turn).

The clock is kept in the game file's ``meta`` (key :data:`META_KEY`) as plain data, so the
desktop app, ``seacontrol-cli clock`` and the seats server, each with its own connection,
read the same clock. Time is wall-clock seconds (``time.time()``), passed in by the caller
(``now``), so tests give their own.

When a phase's time is up the clock does not move on by itself: it shows the phase over
(and for how long), the room is alerted (:func:`crossed`, :data:`ALERTS`), and Control
skips to the next phase when the room is ready.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .gamefile import GameFile
from .seats import write_transaction

META_KEY = "phase_clock"
#: seconds left at which the room is alerted (a flash and a beep): two minutes, and time up
ALERTS = (120, 0)
MAX_PHASES = 20
MAX_NAME = 40
MAX_MINUTES = 600
#: phases a game has until Control sets its own (issue 10's example)
DEFAULT_PHASES: tuple[tuple[str, int], ...] = (
    ("Orders", 15 * 60),
    ("Control resolution", 10 * 60),
    ("Briefing", 5 * 60),
)
_PHASE_RE = re.compile(r"^\s*(?P<name>[^=]+?)\s*=\s*(?P<time>\S+)\s*$")
_TIME_RE = re.compile(r"^(?P<m>\d{1,3})(?::(?P<s>[0-5]\d)|\.(?P<f>\d{1,2}))?$")


class ClockError(ValueError):
    """A clock command that cannot be carried out, said in words."""


@dataclass(frozen=True)
class Phase:
    name: str
    seconds: int


@dataclass(frozen=True)
class Clock:
    """The clock as stored: the phases, which one is current, and how far it has run.

    ``run_from``: when the current run began (None while paused); ``used``: seconds the
    current phase ran before that; ``extra``: seconds Control added to the phase."""

    phases: tuple[Phase, ...] = field(
        default_factory=lambda: tuple(Phase(n, s) for n, s in DEFAULT_PHASES)
    )
    index: int = 0
    round: int = 1
    run_from: float | None = None
    used: float = 0.0
    extra: float = 0.0

    @property
    def running(self) -> bool:
        return self.run_from is not None

    @property
    def phase(self) -> Phase:
        return self.phases[self.index]

    def elapsed(self, now: float) -> float:
        return self.used + (max(0.0, now - self.run_from) if self.run_from is not None else 0.0)

    def to_data(self) -> dict[str, Any]:
        return {
            "phases": [{"name": p.name, "seconds": p.seconds} for p in self.phases],
            "index": self.index,
            "round": self.round,
            "run_from": self.run_from,
            "used": self.used,
            "extra": self.extra,
        }

    @classmethod
    def from_data(cls, data: Any) -> Clock:
        """The stored clock; anything unreadable gives the default clock (stopped)."""
        try:
            phases = tuple(
                Phase(_name(str(p["name"])), _seconds_ok(int(p["seconds"]))) for p in data["phases"]
            )
            if not 1 <= len(phases) <= MAX_PHASES:
                raise ValueError
            index = int(data["index"])
            run_from = data.get("run_from")
            return cls(
                phases,
                index if 0 <= index < len(phases) else 0,
                max(1, int(data.get("round", 1))),
                None if run_from is None else _finite(float(run_from)),
                max(0.0, _finite(float(data.get("used", 0.0)))),
                _finite(float(data.get("extra", 0.0))),
            )
        except (KeyError, TypeError, ValueError, ClockError):
            return cls()


@dataclass(frozen=True)
class ClockStatus:
    """The clock as the room reads it at one moment."""

    phase: str
    index: int
    count: int
    round: int
    length: float  # the phase's seconds, extensions included
    remaining: float  # seconds left; below 0: the phase is over by that much
    running: bool
    next_phase: str

    @property
    def over(self) -> bool:
        return self.remaining <= 0

    def to_data(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "index": self.index,
            "count": self.count,
            "round": self.round,
            "length": round(self.length, 1),
            "remaining": round(self.remaining, 1),
            "running": self.running,
            "over": self.over,
            "next_phase": self.next_phase,
            "shown": shown_time(self.remaining),
        }


def status(clock: Clock, now: float) -> ClockStatus:
    length = clock.phase.seconds + clock.extra
    return ClockStatus(
        clock.phase.name,
        clock.index,
        len(clock.phases),
        clock.round,
        length,
        length - clock.elapsed(now),
        clock.running,
        clock.phases[(clock.index + 1) % len(clock.phases)].name,
    )


def shown_time(remaining: float) -> str:
    """``MM:SS`` left (rounded up, so 0:00 is shown only when time is up), or ``+MM:SS``
    over time."""
    if remaining > 0:
        whole = math.ceil(remaining)
        return f"{whole // 60:02d}:{whole % 60:02d}"
    over = math.floor(-remaining)
    return f"+{over // 60:02d}:{over % 60:02d}" if over else "00:00"


def crossed(before: float, after: float, alerts: tuple[int, ...] = ALERTS) -> list[int]:
    """The alert marks (seconds left) passed going from ``before`` to ``after`` seconds
    left: each is passed once, when the time left falls to it."""
    return [mark for mark in alerts if before > mark >= after]


# -- changes (each returns the new clock) ------------------------------------------------------
def start(clock: Clock, now: float) -> Clock:
    """Run the clock (from where it was paused)."""
    return clock if clock.running else replace(clock, run_from=now)


def pause(clock: Clock, now: float) -> Clock:
    if not clock.running:
        return clock
    return replace(clock, run_from=None, used=clock.elapsed(now))


def extend(clock: Clock, minutes: float) -> Clock:
    """Add (or with a negative figure take away) minutes from the current phase."""
    if not math.isfinite(minutes) or not -MAX_MINUTES <= minutes <= MAX_MINUTES or not minutes:
        raise ClockError(f"extend by 1 to {MAX_MINUTES} minutes (or take away as many)")
    extra = clock.extra + minutes * 60.0
    if clock.phase.seconds + extra < 0:
        raise ClockError(
            f"the phase '{clock.phase.name}' cannot be shorter than nothing "
            f"(it has {shown_time(clock.phase.seconds + clock.extra)} in all)"
        )
    return replace(clock, extra=extra)


def skip(clock: Clock, now: float) -> Clock:
    """On to the next phase (after the last, the first of the next round), with its full
    time; it runs if the clock was running."""
    index = (clock.index + 1) % len(clock.phases)
    return replace(
        clock,
        index=index,
        round=clock.round + (1 if index == 0 else 0),
        run_from=now if clock.running else None,
        used=0.0,
        extra=0.0,
    )


def restart_phase(clock: Clock, now: float) -> Clock:
    """The current phase from its full time again (running if it was)."""
    return replace(clock, run_from=now if clock.running else None, used=0.0, extra=0.0)


def set_phases(phases: list[Phase]) -> Clock:
    """A stopped clock at the first of ``phases``."""
    if not 1 <= len(phases) <= MAX_PHASES:
        raise ClockError(f"give 1 to {MAX_PHASES} phases")
    return Clock(tuple(phases))


def parse_phase(text: str) -> Phase:
    """``NAME=MINUTES`` (``Orders=15``, ``Briefing=2:30``, ``Break=7.5``)."""
    found = _PHASE_RE.match(text)
    if not found:
        raise ClockError(
            f"'{text[:60]}' is not a phase; write NAME=MINUTES, e.g. Orders=15 or Briefing=2:30"
        )
    when = _TIME_RE.match(found["time"])
    if not when:
        raise ClockError(
            f"'{found['time'][:20]}' for '{found['name'][:MAX_NAME]}' is not a time; "
            "write whole minutes (15), minutes and seconds (2:30) or a decimal (7.5)"
        )
    seconds = int(when["m"]) * 60 + int(when["s"] or 0)
    if when["f"]:
        seconds += round(float("0." + when["f"]) * 60)
    return Phase(_name(found["name"]), _seconds_ok(seconds))


def _name(text: str) -> str:
    name = " ".join(text.split())
    if not name or len(name) > MAX_NAME or not name.isprintable() or not name.isascii():
        raise ClockError(f"a phase's name is 1 to {MAX_NAME} plain characters")
    return name


def _seconds_ok(seconds: int) -> int:
    if not 0 < seconds <= MAX_MINUTES * 60:
        raise ClockError(f"a phase lasts more than 0 and at most {MAX_MINUTES} minutes")
    return seconds


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError(value)
    return value


# -- in the game file ---------------------------------------------------------------------------
def load(game: GameFile) -> Clock:
    text = game.meta(META_KEY)
    if not text:
        return Clock()
    try:
        return Clock.from_data(json.loads(text))
    except json.JSONDecodeError:
        return Clock()


def is_set(game: GameFile) -> bool:
    """Whether Control has set or run this game's clock (until then the seats hide it)."""
    return bool(game.meta(META_KEY))


def save(game: GameFile, clock: Clock) -> None:
    game.set_meta(META_KEY, json.dumps(clock.to_data(), separators=(",", ":")))


def change(game: GameFile, how: Callable[[Clock], Clock]) -> Clock:
    """Read, change and store the clock in one transaction (another program changing it at
    the same moment is waited for, not overwritten)."""
    with write_transaction(game):
        clock = how(load(game))
        save(game, clock)
    return clock
