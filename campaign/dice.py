"""Every random number in Sea Control comes through a :class:`Dice` object.

* :class:`SeededDice` — counter-based: roll *n* of seed *s* is derived from
  ``sha256(f"{s}:{n}")``, so the same seed gives the same rolls on every Python version
  and platform (``random.randint`` is not guaranteed to).
* :class:`UnloggedDice` — the same stream as :class:`SeededDice`, kept in no log, for bulk
  callers whose dice are not part of the game (odds checks, a look-ahead).
  (:class:`campaign.tactical.preview.PreviewDice`, the odds previews' dice, are kept in no
  log either: a seeded Mersenne Twister, beside the rule sets that roll them.)
* :class:`ManualDice` — an umpire rolls real dice and types each value in; the engine asks
  with the roll's purpose and accepts only legal values.
* :class:`ScriptedDice` — tests give the exact rolls; asking for a roll that was not
  scripted is an error, so a rule that rolls once too often fails its test.

Every roll is appended to a :class:`DiceLog`: an append-only, hash-chained record (each
entry carries the hash of the one before). A re-roll is a new entry with a reason, never
an edit. :func:`verify_chain` finds any edited, removed or reordered entry.
"""

from __future__ import annotations

import hashlib
import json
import random
import struct
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

GENESIS = "0" * 64


class DiceError(Exception):
    """A roll that cannot be made: an unscripted extra roll, or an illegal typed value."""


@dataclass(frozen=True, slots=True)
class Roll:
    """One die rolled: what for, how many sides, the value, and where it came from."""

    seq: int
    purpose: str
    sides: int
    value: int
    source: str  # seeded | manual | scripted
    turn: int = 0
    step: int = 0
    reason: str = ""  # for a re-roll: why
    prev_hash: str = GENESIS
    hash: str = ""

    def row(self) -> dict[str, object]:
        """Every field by name: the game file's ``dice`` row."""
        return {name: getattr(self, name) for name in Roll.__dataclass_fields__}

    def body(self) -> str:
        """The canonical text the hash covers (everything but the hash itself)."""
        data = {name: getattr(self, name) for name in _BODY_FIELDS}
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def sealed(self) -> Roll:
        digest = hashlib.sha256(self.body().encode("utf-8")).hexdigest()
        return replace(self, hash=digest)


_BODY_FIELDS = tuple(sorted(f for f in Roll.__dataclass_fields__ if f != "hash"))


@dataclass
class DiceLog:
    """Append-only, hash-chained rolls. ``head`` is the hash reports print as an anchor."""

    rolls: list[Roll] = field(default_factory=list)

    @property
    def head(self) -> str:
        return self.rolls[-1].hash if self.rolls else GENESIS

    def append(
        self,
        purpose: str,
        sides: int,
        value: int,
        source: str,
        turn: int = 0,
        step: int = 0,
        reason: str = "",
    ) -> Roll:
        seq = self.rolls[-1].seq + 1 if self.rolls else 1
        roll = Roll(seq, purpose, sides, value, source, turn, step, reason, self.head).sealed()
        self.rolls.append(roll)
        return roll


def verify_chain(rolls: Sequence[Roll], start: str = GENESIS) -> list[str]:
    """Problems with a dice log: each edited, removed or reordered roll is named."""
    problems = []
    prev = start
    expected_seq = rolls[0].seq if rolls else 1
    for roll in rolls:
        if roll.seq != expected_seq:
            problems.append(f"roll {roll.seq}: expected {expected_seq} here (removed or moved)")
        if roll.prev_hash != prev:
            problems.append(f"roll {roll.seq}: does not follow the roll before it")
        if roll.sealed().hash != roll.hash:
            problems.append(f"roll {roll.seq}: its contents were changed after it was rolled")
        prev = roll.hash
        expected_seq = roll.seq + 1
    return problems


class Dice(ABC):
    """The one source of randomness. Subclasses supply :meth:`_value`."""

    source = "dice"

    def __init__(self, log: DiceLog | None = None) -> None:
        self.log = log if log is not None else DiceLog()
        self.turn = 0
        self.step = 0

    def roll(self, purpose: str, sides: int = 6, reason: str = "") -> int:
        """Roll one die with ``sides`` sides for ``purpose``; logged."""
        if sides < 2:
            raise ValueError("a die has at least 2 sides")
        value = self._value(purpose, sides)
        self.log.append(purpose, sides, value, self.source, self.turn, self.step, reason)
        return value

    def rolls(self, count: int, purpose: str, sides: int = 6) -> list[int]:
        """``count`` dice for one purpose, numbered ``purpose #1`` … in the log."""
        if count == 1:
            return [self.roll(purpose, sides)]
        return [self.roll(f"{purpose} #{i + 1}", sides) for i in range(count)]

    @abstractmethod
    def _value(self, purpose: str, sides: int) -> int:
        """The face rolled (1..sides)."""


def preview_draws(seed: str) -> Callable[[], float]:
    """The draws of an odds preview's dice (:class:`campaign.tactical.preview.PreviewDice`):
    Python's Mersenne Twister seeded with the seed's text, each draw in [0, 1).
    ``random.Random(str)`` seeding and ``random()`` are the two parts of the module Python
    promises to keep stable across versions, so a preview stays reproducible. Here, with the
    other dice, so that every source of randomness is in this module."""
    return random.Random(seed).random


class NotLoggedDice(Dice):
    """Dice whose rolls go in no log: imagined battles and combats, never the game's."""

    def roll(self, purpose: str, sides: int = 6, reason: str = "") -> int:
        """One die, not logged."""
        if sides < 2:
            raise ValueError("a die has at least 2 sides")
        return self._value(purpose, sides)


class SeededDice(Dice):
    """Counter-based dice: the *n*-th draw of seed *s* never changes."""

    source = "seeded"

    def __init__(self, seed: int | str, log: DiceLog | None = None) -> None:
        super().__init__(log)
        self.seed = str(seed)
        self.counter = 0

    def _value(self, purpose: str, sides: int) -> int:
        # Rejection sampling on 64-bit draws keeps every face exactly equally likely.
        limit = (1 << 64) - ((1 << 64) % sides)
        while True:
            self.counter += 1
            digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
            draw = int.from_bytes(digest[:8], "big")
            if draw < limit:
                return draw % sides + 1


#: the first 8 bytes of a digest as a big-endian number (SeededDice's draw)
_FIRST_8 = struct.Struct(">Q")


class UnloggedDice(NotLoggedDice, SeededDice):
    """:class:`SeededDice`'s very stream (the *n*-th draw of seed *s* is the same face),
    kept in no log: for bulk callers whose dice are not part of the game — exact-odds
    checks, the computer opponent's look-ahead, thousands of imaginary combats. A game's
    own dice stay :class:`SeededDice`, each roll logged and hash-chained; these save the
    log's JSON and SHA-256 per roll (the stream's own SHA-256 per draw remains)."""

    source = "unlogged"

    def __init__(self, seed: int | str) -> None:
        super().__init__(seed, DiceLog())

    def rolls(self, count: int, purpose: str, sides: int = 6) -> list[int]:
        """``count`` faces in one go: the same faces ``count`` calls of :meth:`roll` give."""
        if sides < 2:
            raise ValueError("a die has at least 2 sides")
        limit = (1 << 64) - ((1 << 64) % sides)
        sha, unpack, prefix, n = hashlib.sha256, _FIRST_8.unpack_from, self.seed + ":", self.counter
        out: list[int] = []
        while len(out) < count:
            n += 1
            (draw,) = unpack(sha((prefix + str(n)).encode()).digest())
            if draw < limit:
                out.append(draw % sides + 1)
        self.counter = n
        return out


class ScriptedDice(Dice):
    """Exactly the given rolls, in order; one more is a :class:`DiceError`."""

    source = "scripted"

    def __init__(self, values: Iterable[int], log: DiceLog | None = None) -> None:
        super().__init__(log)
        self.values = list(values)
        self.used = 0

    def _value(self, purpose: str, sides: int) -> int:
        if self.used >= len(self.values):
            raise DiceError(f"unexpected extra roll for {purpose!r}: only {self.used} scripted")
        value = self.values[self.used]
        if not 1 <= value <= sides:
            raise DiceError(f"scripted {value} is not a face of a d{sides} ({purpose!r})")
        self.used += 1
        return value

    @property
    def unused(self) -> list[int]:
        return self.values[self.used :]


class ManualDice(Dice):
    """Rolls typed in by an umpire: ``ask(purpose, sides)`` returns the value rolled.

    A value outside 1..sides is refused and asked for again (up to ``attempts`` times),
    so a typing slip never enters the log.
    """

    source = "manual"

    def __init__(
        self, ask: Callable[[str, int], int], log: DiceLog | None = None, attempts: int = 5
    ) -> None:
        super().__init__(log)
        self.ask = ask
        self.attempts = attempts

    def _value(self, purpose: str, sides: int) -> int:
        for _ in range(self.attempts):
            value = self.ask(purpose, sides)
            if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= sides:
                return value
        raise DiceError(f"no legal roll (1–{sides}) was entered for {purpose!r}")
