"""Tactical drill-down: a battle fought out ship by ship and air group by air group.

When step 8 brings two task forces to blows, Game Control may resolve the battle on the
campaign's damage table or *fight it out* with one of four tactical rule sets, each from a
seed in ``../shared/seeds``:

========== ================================================================ ==================
name       rule set                                                          module
========== ================================================================ ==================
carrier    *A Terrible Resolve* — carrier battle (003)                       ``carrier.py``
fastplay   *World War 2 Naval Fast Play Rules* (000)                         ``fastplay.py``
surface    Ellard & Hammond, surface action (004)                            ``surface.py``
airstrike  *A World at War* air attacks on naval units (001)                 ``airstrike.py``
========== ================================================================ ==================

Every rule set implements :class:`TacticalBattle`: it is set up from a :class:`BattleSetup`
(two sides of named ships and air groups), advances one tactical turn at a time with
:meth:`~TacticalBattle.step` (returning that turn's events in words), can run to the end,
uses the injected :class:`~campaign.dice.Dice` (seeded, typed in, or scripted in tests) for
every roll, and reports each ship's and air group's final state in a :class:`BattleResult`.
:mod:`campaign.tactical.outcome` turns that result into campaign step losses.
"""

from __future__ import annotations

import copy
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..dice import Dice

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


@dataclass
class AirGroup:
    """Aircraft of one type from one carrier or airfield."""

    id: str
    kind: str  # fighter | dive_bomber | torpedo_bomber | level_bomber | patrol
    aircraft: int  # aircraft (or the rule set's counters, see ``per_counter``)
    name: str = ""  # e.g. "VB-6 (SBD Dauntless)"
    base: str = ""  # the ship id or airfield it flies from
    model: str = ""  # e.g. "A6M2 Zero"
    factor: int = 0  # rule-set air factor where one is used (fast play air-to-air)
    lost: int = 0

    def copy(self) -> AirGroup:
        out = object.__new__(AirGroup)
        out.__dict__.update(self.__dict__)
        return out


@dataclass
class Ship:
    """One named ship (or a small group the rule set treats as one, e.g. a cruiser group)."""

    id: str
    name: str
    nation: str
    type: str  # battleship | battlecruiser | carrier | light_carrier | escort_carrier |
    # heavy_cruiser | light_cruiser | destroyer | escort | submarine | transport
    tonnage: int = 0  # standard displacement, tons
    completed: int = 0  # year of completion
    speed: float = 0.0  # knots
    guns: dict[str, int] = field(default_factory=dict)  # calibre ("14in") → number
    aa: int = 0  # the rule set's AA value (dice or factor)
    belt: float = 0.0  # armour, inches
    deck: float = 0.0
    turret: float = 0.0
    torpedo_tubes: int = 0
    damage_capacity: int = 0  # hits or points the rule set allows before sinking
    air_groups: list[AirGroup] = field(default_factory=list)
    campaign_unit: str = ""  # the campaign unit (units.csv id) this ship belongs to
    # what happened in the battle
    damage: int = 0
    state: str = "undamaged"  # undamaged | damaged | crippled | sunk
    notes: list[str] = field(default_factory=list)

    def copy(self) -> Ship:
        """A copy a battle can change without touching the set-up (field by field rather
        than ``dataclasses.replace``, which costs an odds preview a tenth of its time)."""
        out = object.__new__(Ship)
        fields = self.__dict__.copy()
        fields["guns"] = dict(self.guns)
        fields["notes"] = list(self.notes)
        fields["air_groups"] = [g.copy() for g in self.air_groups]
        out.__dict__.update(fields)
        return out


@dataclass
class Side:
    name: str  # e.g. "Kido Butai"
    nation: str
    ships: list[Ship] = field(default_factory=list)
    air_groups: list[AirGroup] = field(default_factory=list)  # land-based air


@dataclass
class BattleSetup:
    """Two opposing forces and the conditions of the battle."""

    title: str
    a: Side
    b: Side
    conditions: dict[str, Any] = field(default_factory=dict)  # weather, range, night …
    #: the rule set the set-up was written for (a suggestion: any rule set may fight it)
    rule_set: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, ensure_ascii=False)

    def copy(self) -> BattleSetup:
        """A copy a battle can change without touching this set-up (what a JSON round trip
        gives, at a fraction of the cost: an odds preview copies its set-up per battle)."""

        def side(s: Side) -> Side:
            return Side(
                s.name, s.nation, [x.copy() for x in s.ships], [g.copy() for g in s.air_groups]
            )

        return BattleSetup(
            self.title,
            side(self.a),
            side(self.b),
            copy.deepcopy(self.conditions),
            self.rule_set,
        )

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> BattleSetup:
        def side(d: Mapping[str, Any]) -> Side:
            ships = []
            for s in d.get("ships", []):
                groups = [AirGroup(**g) for g in s.get("air_groups", [])]
                ships.append(Ship(**{**s, "air_groups": groups}))
            air = [AirGroup(**g) for g in d.get("air_groups", [])]
            return Side(d["name"], d["nation"], ships, air)

        return cls(
            str(data["title"]),
            side(data["a"]),
            side(data["b"]),
            dict(data.get("conditions", {})),
            str(data.get("rule_set", "")),
        )

    @classmethod
    def load(cls, path: str | Path) -> BattleSetup:
        """Read a setup file (JSON); ValueError says what is wrong and where."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"{path}: cannot be read ({exc})") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})") from None
        try:
            return cls.from_data(data)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{path}: not a battle setup ({exc})") from None


def ignored_conditions(rule_set: str, setup: BattleSetup) -> list[str]:
    """The set-up's conditions the rule set does not read (a misspelt key, or one written
    for another rule set), so a person can be told rather than left wondering. Each rule
    set module lists what it reads in ``CONDITIONS`` (docs/battle-setups.md)."""
    import importlib

    module = importlib.import_module(f"{__name__}.{rule_set}")
    known: Mapping[str, str] = {**COMMON_CONDITIONS, **getattr(module, "CONDITIONS", {})}
    return sorted(k for k in setup.conditions if k not in known)


#: conditions any set-up may give, whatever rule set fights it
COMMON_CONDITIONS: dict[str, str] = {
    "year": "the year of the battle (campaign battles give it; fast play reads it)",
    "note": "free text for people",
    "source": "where the set-up comes from (a seed, a book)",
}


def builtin_battles() -> dict[str, Path]:
    """The battle set-ups shipped with the program (``data/battles``): name → file."""
    from ..paths import data_dir

    folder = data_dir() / "battles"
    return {p.stem: p for p in sorted(folder.glob("*.json"))}


def find_setup(text: str | Path) -> Path:
    """A set-up file: ``text`` as a path if there is such a file, else the built-in set-up
    of that name (``midway``, ``midway.json``, or ``data/battles/midway.json`` wherever the
    program runs). ValueError names the built-in ones."""
    path = Path(text)
    if path.is_file():
        return path
    builtin = builtin_battles()
    name = path.name.removesuffix(".json")
    if name in builtin:  # e.g. "data/battles/midway.json" from outside a source checkout
        return builtin[name]
    raise ValueError(
        f"{text}: no such set-up file, nor a built-in battle "
        f"(built-in: {', '.join(builtin) or 'none'})"
    )


@dataclass
class BattleResult:
    """The end of a battle: every ship and air group as it finished, and the winner."""

    rule_set: str
    turns: int
    winner: str  # "a", "b" or "" (no decision)
    ships: dict[str, Ship]
    air_groups: dict[str, AirGroup]
    log: list[str]


class TacticalBattle(Protocol):
    """What every rule set provides (see the module docstring). A battle never changes the
    set-up it was made from (an odds preview fights thousands from one set-up)."""

    rule_set: str
    #: what one tactical turn (``step``) plays, in order, in the rule set's words
    phases: tuple[str, ...]
    #: False: the battle is not put into words — ``step`` returns no lines and the result's
    #: log is empty, and a rule set may skip building the words at all (an odds preview
    #: fights thousands of battles nobody reads). The dice and the outcome are the same.
    narrate: bool

    def step(self) -> list[str]:
        """Play one tactical turn; returns what happened, in words."""
        ...

    @property
    def finished(self) -> bool: ...

    def result(self) -> BattleResult: ...


class TurnBattle(ABC):
    """What a rule set played in tactical turns shares: the turn counter (also the dice's
    ``turn``), the log, ``narrate`` and ``finished``. A subclass calls
    ``super().__init__(dice)``, plays one turn in :meth:`play_turn` and sets ``_finished``
    when the battle is over."""

    rule_set: str = ""
    phases: tuple[str, ...] = ()

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.turn = 0
        self.log: list[str] = []
        self.narrate = True  # see TacticalBattle.narrate
        self._finished = False

    @property
    def finished(self) -> bool:
        return self._finished

    def step(self) -> list[str]:
        """Play one tactical turn; returns what happened, in words (nothing unnarrated)."""
        if self._finished:
            return []
        self.turn += 1
        self.dice.turn = self.turn
        lines = self.play_turn()
        if not self.narrate:
            return []
        self.log.extend(lines)
        return lines

    @abstractmethod
    def play_turn(self) -> list[str]:
        """One turn of the rule set's sequence of play, its lines in words."""


BattleFactory = Callable[[BattleSetup, Dice], TacticalBattle]

#: rule-set name → factory; each module registers itself on import
RULE_SETS: dict[str, BattleFactory] = {}

#: rule-set name → what a person choosing one reads
TITLES: dict[str, str] = {
    "carrier": "Carrier battle (A Terrible Resolve)",
    "airstrike": "Air strike (A World at War)",
    "fastplay": "Fast play (WW2 Naval Fast Play Rules)",
    "surface": "Surface action (Ellard & Hammond)",
}


def title_of(rule_set: str) -> str:
    return TITLES.get(rule_set, rule_set)


def register(name: str) -> Callable[[BattleFactory], BattleFactory]:
    def add(factory: BattleFactory) -> BattleFactory:
        RULE_SETS[name] = factory
        return factory

    return add


def run(battle: TacticalBattle, max_turns: int = 200) -> BattleResult:
    """Play ``battle`` to its end (or ``max_turns``)."""
    for _ in range(max_turns):
        if battle.finished:
            break
        battle.step()
    return battle.result()
