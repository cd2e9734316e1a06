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
import importlib
import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .. import schemas
from ..csvdata import Problem, suggest
from ..dice import Dice
from ..guns import MAX_GUNS, calibre_problem
from ..untrusted import (
    JsonInputError,
    JsonLimits,
    field_name,
    json_path,
    kind_of,
    read_json,
    within,
)


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
        out.__dict__ = self.__dict__.copy()  # field by field: a battle's result copies many
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

    def copy(self, air_groups: bool = True) -> Ship:
        """A copy a battle can change without touching the set-up (field by field rather
        than ``dataclasses.replace``, which costs an odds preview a tenth of its time);
        ``air_groups=False``: the same air groups (for a caller that puts in its own)."""
        out = object.__new__(Ship)
        fields = self.__dict__.copy()
        fields["guns"] = dict(self.guns)
        fields["notes"] = list(self.notes)
        fields["air_groups"] = [g.copy() for g in self.air_groups] if air_groups else []
        out.__dict__ = fields
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
    def load(cls, path: str | Path, rule_set: str = "") -> BattleSetup:
        """Read a set-up file (JSON) and check it whole, as a scenario is checked: within
        :data:`SETUP_LIMITS`, every field of every ship and air group, and the conditions
        (for the rule set the set-up is written for, else ``rule_set``, the one about to
        fight it). :class:`SetupError` (a ValueError) lists every problem with its field."""
        path = Path(path)
        name = path.name
        try:
            with path.open("rb") as f:
                raw = f.read(SETUP_LIMITS.max_bytes + 1)
        except OSError as exc:
            message = f"cannot be read: {exc.strerror or exc}"
            raise SetupError([Problem(name, 0, "", message)]) from None
        try:
            data, found = read_json(raw, SETUP_LIMITS)
        except JsonInputError as exc:
            raise SetupError([Problem(name, 0, "", f"{exc.where}: {exc.message}")]) from None
        problems = [Problem(name, 0, where, message) for where, message in found]
        refused = [p.field for p in problems]
        problems += [
            Problem(name, 0, where, message)
            for where, message in check_setup(data, rule_set)
            if not within(where, refused)
        ]
        if problems:
            raise SetupError(problems)
        return cls.from_data(data)


# -- checking a set-up --------------------------------------------------------------------
#: how much of a set-up file is read: a big battle's set-up is a few hundred kilobytes
SETUP_LIMITS = JsonLimits(max_bytes=4 * 1024 * 1024, max_depth=10, max_items=1000, max_text=4000)
#: ships on one side of a battle (Leyte Gulf's largest side had about 200)
MAX_SHIPS = 200
#: air groups of one ship, and land-based air groups of one side
MAX_SHIP_AIR_GROUPS = 20
MAX_SIDE_AIR_GROUPS = 100
#: aircraft in one air group, and in the whole battle (Midway: about 500; the Philippine
#: Sea: about 1,350) — the bound keeps one battle within a second or two
MAX_GROUP_AIRCRAFT = 1000
MAX_BATTLE_AIRCRAFT = 5000
#: characters of an id, a name or a nation
MAX_NAME = 200
#: Ship.type: ships.csv's types, a transport, and fast play's motor torpedo boat
SHIP_TYPES: tuple[str, ...] = (*schemas.SHIP_TYPES, "transport", "mtb")
#: AirGroup.kind: air_groups.csv's kinds and fast play's kamikaze
AIR_KINDS: tuple[str, ...] = (*schemas.AIR_GROUP_KINDS, "kamikaze")
SHIP_STATES = ("undamaged", "damaged", "crippled", "sunk")
CARRIER_TYPES = ("carrier", "light_carrier", "escort_carrier")
SIDE_KEYS = ("a", "b")
#: the rule sets, by the names set-ups and the command line use (module names)
RULE_SET_NAMES = ("carrier", "fastplay", "surface", "airstrike")


#: problems a set-up's message lists (all are in ``SetupError.problems``)
SHOWN_PROBLEMS = 50


class SetupError(ValueError):
    """A set-up refused as a whole; carries every problem (file, field, what is wrong)."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        head = "\n".join(str(p) for p in problems[:SHOWN_PROBLEMS])
        more = len(problems) - SHOWN_PROBLEMS
        super().__init__(head + (f"\n… and {more} more" if more > 0 else ""))


@dataclass(frozen=True)
class SetupIds:
    """What the fields of a set-up's conditions may name: its ships (and which of them are
    carriers) and its air groups (and which are land-based)."""

    ships: frozenset[str] = frozenset()
    carriers: frozenset[str] = frozenset()
    groups: frozenset[str] = frozenset()
    land_groups: frozenset[str] = frozenset()


Found = Iterator[tuple[str, str]]


class Spec:
    """What one field of a set-up may hold: ``describe`` in words ("a whole number from 1
    to 50"), and ``check`` yielding (path, message) for each thing wrong with a value.

    The rule set modules declare theirs for each condition they read (``CHECKS``); the
    fields of ships and air groups are :data:`SHIP_FIELDS` and :data:`AIR_GROUP_FIELDS`."""

    def __init__(self, describe: str, test: Callable[[Any, SetupIds], bool] | None = None):
        self.describe = describe
        self.test = test

    def check(self, value: Any, ids: SetupIds, path: str) -> Found:
        if self.test is not None and not self.test(value, ids):
            yield path, f"must be {self.describe}, not {kind_of(value)}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def whole(low: int, high: int) -> Spec:
    return Spec(
        f"a whole number from {low} to {high}", lambda v, _: _is_int(v) and low <= v <= high
    )


def number(low: float, high: float) -> Spec:
    return Spec(
        f"a number from {low:g} to {high:g}", lambda v, _: _is_number(v) and low <= v <= high
    )


def one_of(*choices: Any) -> Spec:
    words = ", ".join("null" if c is None else repr(c) for c in choices)
    return Spec(f"one of {words}", lambda v, _: isinstance(v, str | None) and v in choices)


def text(limit: int = MAX_NAME, required: bool = False) -> Spec:
    return Spec(
        f"text of at most {limit} characters" + (", not empty" if required else ""),
        lambda v, _: isinstance(v, str) and len(v) <= limit and (bool(v.strip()) or not required),
    )


FLAG = Spec("true or false", lambda v, _: isinstance(v, bool))
ANY = Spec("anything")


class _Named(Spec):
    """A list of ids of the battle's ships (or air groups)."""

    def __init__(self, what: str, pick: Callable[[SetupIds], frozenset[str]]) -> None:
        super().__init__(f"a list of {what} ids")
        self.what, self.pick = what, pick

    def check(self, value: Any, ids: SetupIds, path: str) -> Found:
        if not isinstance(value, list):
            yield path, f"must be {self.describe}, not {kind_of(value)}"
            return
        valid = self.pick(ids)
        for i, item in enumerate(value):
            if not isinstance(item, str) or item not in valid:
                hint = suggest(item, valid) if isinstance(item, str) else ""
                yield (
                    json_path(path, i),
                    f"{kind_of(item)} is not a {self.what} of the battle{hint}",
                )


def ship_ids(what: str = "ship") -> Spec:
    """A list of the battle's ships (``carrier``: of its carriers)."""
    return _Named(what, lambda ids: ids.carriers if what == "carrier" else ids.ships)


def land_group_ids() -> Spec:
    return _Named("land-based air group", lambda ids: ids.land_groups)


class _Keyed(Spec):
    """An object whose keys are ships of the battle, side keys (``a``, ``b``) or nations,
    each value checked by ``each``."""

    def __init__(self, keys: str, each: Spec) -> None:
        super().__init__(f"an object of {keys} → {each.describe}")
        self.keys, self.each = keys, each

    def check(self, value: Any, ids: SetupIds, path: str) -> Found:
        if not isinstance(value, dict):
            yield path, f"must be {self.describe}, not {kind_of(value)}"
            return
        for key, item in value.items():
            where = json_path(path, key)
            if self.keys == "ship" and key not in ids.ships:
                yield where, f"'{key}' is not a ship of the battle{suggest(key, ids.ships)}"
            elif self.keys == "side" and key not in SIDE_KEYS:
                yield where, f"'{key}' is not a side of the battle: a or b"
            elif len(key) > MAX_NAME:
                yield where, f"is not a {self.keys}"
            else:
                yield from self.each.check(item, ids, where)


def by_ship(each: Spec) -> Spec:
    return _Keyed("ship", each)


def by_side(each: Spec) -> Spec:
    return _Keyed("side", each)


def by_nation(each: Spec) -> Spec:
    return _Keyed("nation", each)


class _Either(Spec):
    """The first of ``specs`` whose form the value has (a flag, or a flag by side …)."""

    def __init__(self, *specs: Spec) -> None:
        super().__init__(" or ".join(s.describe for s in specs))
        self.specs = specs

    def check(self, value: Any, ids: SetupIds, path: str) -> Found:
        found: list[tuple[str, str]] = []
        for spec in self.specs:
            found = list(spec.check(value, ids, path))
            if not found:
                return
        if isinstance(value, dict | list) and found:
            yield from found  # the nested problem says more than the whole
        else:
            yield path, f"must be {self.describe}, not {kind_of(value)}"


def either(*specs: Spec) -> Spec:
    return _Either(*specs)


NULL = Spec("null", lambda v, _: v is None)


def either_none(spec: Spec) -> Spec:
    """``spec``, or null (the rule set's own figure, e.g. visibility thrown on a table)."""
    return _Either(spec, NULL)


class _ListOf(Spec):
    def __init__(self, each: Spec, most: int, least: int = 0) -> None:
        super().__init__(f"a list of {least} to {most} items, each {each.describe}")
        self.each, self.most, self.least = each, most, least

    def check(self, value: Any, ids: SetupIds, path: str) -> Found:
        if not isinstance(value, list) or not self.least <= len(value) <= self.most:
            yield path, f"must be {self.describe}, not {kind_of(value)}"
            return
        for i, item in enumerate(value):
            yield from self.each.check(item, ids, json_path(path, i))


def list_of(each: Spec, most: int, least: int = 0) -> Spec:
    return _ListOf(each, most, least)


class _Shape(Spec):
    """An object with these fields (``required`` ones must be there; no others)."""

    def __init__(self, fields: Mapping[str, Spec], required: tuple[str, ...] = ()) -> None:
        super().__init__("an object with " + ", ".join(fields))
        self.fields, self.required = fields, required

    def check(self, value: Any, ids: SetupIds, path: str) -> Found:
        if not isinstance(value, dict):
            yield path, f"must be {self.describe}, not {kind_of(value)}"
            return
        yield from check_fields(value, self.fields, self.required, ids, path)


def shape(fields: Mapping[str, Spec], required: tuple[str, ...] = ()) -> Spec:
    return _Shape(fields, required)


def check_fields(
    data: Mapping[str, Any],
    fields: Mapping[str, Spec],
    required: tuple[str, ...],
    ids: SetupIds,
    path: str,
) -> Found:
    """Every field of an object: the required ones there, no unknown ones, each valid."""
    for key in required:
        if key not in data:
            yield json_path(path, key), "is missing"
    for key, value in data.items():
        spec = fields.get(key)
        if spec is None:
            yield (
                json_path(path, field_name(key)),
                f"is not a field here{suggest(key, fields)}; valid: {', '.join(fields)}",
            )
        else:
            yield from spec.check(value, ids, json_path(path, key))


class _Guns(Spec):
    def __init__(self) -> None:
        super().__init__('an object of calibre → number of guns, like {"14in": 8}')

    def check(self, value: Any, ids: SetupIds, path: str) -> Found:
        if not isinstance(value, dict):
            yield path, f"must be {self.describe}, not {kind_of(value)}"
            return
        for key, count in value.items():
            problem = calibre_problem(key)
            if problem:
                yield json_path(path, field_name(key)), problem
            elif not (_is_int(count) and 0 <= count <= MAX_GUNS):
                yield (
                    json_path(path, key),
                    (f"must be a number of guns from 0 to {MAX_GUNS}, not {kind_of(count)}"),
                )


#: an air group's fields (docs/battle-setups.md "An air group")
AIR_GROUP_FIELDS: dict[str, Spec] = {
    "id": text(required=True),
    "kind": one_of(*AIR_KINDS),
    "aircraft": whole(0, MAX_GROUP_AIRCRAFT),
    "name": text(),
    "base": text(),
    "model": text(),
    "factor": whole(0, 100),
    "lost": whole(0, MAX_GROUP_AIRCRAFT),
}
AIR_GROUP_REQUIRED = ("id", "kind", "aircraft")

#: a ship's fields (docs/battle-setups.md "A ship"); bounds far beyond any ship afloat
SHIP_FIELDS: dict[str, Spec] = {
    "id": text(required=True),
    "name": text(required=True),
    "nation": text(required=True),
    "type": one_of(*SHIP_TYPES),
    "tonnage": whole(0, 100_000),
    "completed": either(whole(0, 0), whole(1860, 1960)),
    "speed": number(0, 50),
    "guns": _Guns(),
    "aa": whole(0, 500),
    "belt": number(0, 30),
    "deck": number(0, 15),
    "turret": number(0, 30),
    "torpedo_tubes": whole(0, 50),
    "damage_capacity": whole(0, 1000),
    "air_groups": list_of(shape(AIR_GROUP_FIELDS, AIR_GROUP_REQUIRED), MAX_SHIP_AIR_GROUPS),
    "campaign_unit": text(),
    "damage": whole(0, 1000),
    "state": one_of(*SHIP_STATES),
    "notes": list_of(text(4000), 50),
}
SHIP_REQUIRED = ("id", "name", "nation", "type")

SIDE_FIELDS: dict[str, Spec] = {
    "name": text(required=True),
    "nation": text(required=True),
    "ships": list_of(shape(SHIP_FIELDS, SHIP_REQUIRED), MAX_SHIPS),
    "air_groups": list_of(shape(AIR_GROUP_FIELDS, AIR_GROUP_REQUIRED), MAX_SIDE_AIR_GROUPS),
}
SETUP_FIELDS: dict[str, Spec] = {
    "title": text(required=True),
    "rule_set": one_of("", *RULE_SET_NAMES),
    "a": shape(SIDE_FIELDS, ("name", "nation")),
    "b": shape(SIDE_FIELDS, ("name", "nation")),
    "conditions": Spec("an object", lambda v, _: isinstance(v, dict)),
}

#: conditions any set-up may give, checked whatever rule set fights it
COMMON_CHECKS: dict[str, Spec] = {
    "year": whole(1900, 1960),
    "note": text(4000),
    "source": text(4000),
    # each campaign unit the ships stand for, with all its ships (campaign/tactical/outcome.py)
    "campaign_units": _Keyed(
        "campaign unit",
        shape(
            {
                "name": text(),
                "type": one_of("", *schemas.UNIT_TYPES),
                "ships": list_of(
                    shape(
                        {
                            "id": text(required=True),
                            "name": text(),
                            "type": one_of("", *SHIP_TYPES),
                            "tonnage": whole(0, 100_000),
                        },
                        ("id", "tonnage"),
                    ),
                    MAX_SHIPS,
                ),
            }
        ),
    ),
}


def check_setup(data: Any, rule_set: str = "") -> list[tuple[str, str]]:
    """Every problem of a set-up's decoded JSON, as (field, message): its shape, each ship
    and air group, ids used twice, the battle's size, and the conditions — for the rule set
    the set-up is written for, else ``rule_set`` (each rule set module's ``CHECKS``). A
    ship or group refused for its own fields still counts for the others (its id may be
    named in a condition), so every problem is found at once."""
    if not isinstance(data, dict):
        return [("", f"must be a battle set-up object {{…}}, not {kind_of(data)}")]
    found = list(check_fields(data, SETUP_FIELDS, ("title", "a", "b"), SetupIds(), ""))
    sides = {k: data[k] for k in SIDE_KEYS if isinstance(data.get(k), dict)}
    ships = [
        (f"{k}.ships[{i}]", s)
        for k, side in sides.items()
        for i, s in enumerate(_list(side.get("ships")))
        if isinstance(s, dict)
    ]
    groups = [
        (f"{where}.air_groups[{i}]", g)
        for where, s in ships
        for i, g in enumerate(_list(s.get("air_groups")))
        if isinstance(g, dict)
    ]
    land = [
        (f"{k}.air_groups[{i}]", g)
        for k, side in sides.items()
        for i, g in enumerate(_list(side.get("air_groups")))
        if isinstance(g, dict)
    ]
    found += _side_sizes(sides, rule_set)
    found += _twice("ship", ships)
    found += _twice("air group", groups + land)
    aircraft = [
        (w, g)
        for w, g in groups + land
        if _is_int(g.get("aircraft")) and 0 <= g["aircraft"] <= MAX_GROUP_AIRCRAFT
    ]
    for where, group in aircraft:
        lost = group.get("lost", 0)
        if _is_int(lost) and lost > group["aircraft"]:
            found.append((f"{where}.lost", f"is more than its {group['aircraft']} aircraft"))
    total = sum(g["aircraft"] for _, g in aircraft)
    if total > MAX_BATTLE_AIRCRAFT:
        found.append(
            (
                "",
                f"has {total:,} aircraft in all; a battle may have at most "
                f"{MAX_BATTLE_AIRCRAFT:,} (docs/battle-setups.md, 'Limits')",
            )
        )
    ids = SetupIds(
        ships=_ids(ships),
        carriers=_ids((w, s) for w, s in ships if s.get("type") in CARRIER_TYPES),
        groups=_ids(groups + land),
        land_groups=_ids(land),
    )
    conditions = data.get("conditions", {})
    own = data.get("rule_set")
    if isinstance(conditions, dict):
        written_for = own if isinstance(own, str) and own in RULE_SET_NAMES else rule_set
        found += check_conditions(conditions, written_for, ids)
    return found


def _side_sizes(sides: Mapping[str, Mapping[str, Any]], rule_set: str) -> list[tuple[str, str]]:
    """A rule set that fights ship by ship at length may allow fewer ships a side than
    :data:`MAX_SHIPS` (its module's ``MAX_SHIPS_A_SIDE``)."""
    if rule_set not in RULE_SET_NAMES:
        return []
    most = getattr(importlib.import_module(f"{__name__}.{rule_set}"), "MAX_SHIPS_A_SIDE", MAX_SHIPS)
    return [
        (
            f"{key}.ships",
            f"has {len(side['ships'])} ships; the {rule_set} rules fight at most {most} a side",
        )
        for key, side in sides.items()
        if most < len(_list(side.get("ships"))) <= MAX_SHIPS
    ]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _ids(items: Iterable[tuple[str, Mapping[str, Any]]]) -> frozenset[str]:
    return frozenset(item["id"] for _, item in items if isinstance(item.get("id"), str))


def check_conditions(
    conditions: Mapping[str, Any], rule_set: str, ids: SetupIds
) -> list[tuple[str, str]]:
    """The conditions a rule set reads, each held to its ``CHECKS`` (and the module's
    ``check_together``, for conditions that limit each other); the common ones whatever the
    rule set. Conditions the rule set does not read are left alone (the program says it
    ignores them)."""
    checks: Mapping[str, Spec] = COMMON_CHECKS
    together: Callable[[Mapping[str, Any]], Found] | None = None
    if rule_set in RULE_SET_NAMES:
        module = importlib.import_module(f"{__name__}.{rule_set}")
        checks = {**COMMON_CHECKS, **module.CHECKS}
        together = getattr(module, "check_together", None)
    found: list[tuple[str, str]] = []
    for key, value in conditions.items():
        spec = checks.get(key)
        if spec is not None:
            found += spec.check(value, ids, json_path("conditions", key))
    if together is not None and not found:
        found += together(conditions)
    return found


def _twice(what: str, items: Sequence[tuple[str, Mapping[str, Any]]]) -> list[tuple[str, str]]:
    """Ids used a second time, each named where it comes again."""
    first: dict[str, str] = {}
    out = []
    for where, item in items:
        ident = item.get("id")
        if not isinstance(ident, str):
            continue
        if ident in first:
            out.append(
                (
                    f"{where}.id",
                    f"'{ident}' is already the id of {first[ident]}; each {what} needs its own",
                )
            )
        first.setdefault(ident, where)
    return out


def ignored_conditions(rule_set: str, setup: BattleSetup) -> list[str]:
    """The set-up's conditions the rule set does not read (a misspelt key, or one written
    for another rule set), so a person can be told rather than left wondering. Each rule
    set module lists what it reads in ``CONDITIONS`` (docs/battle-setups.md)."""
    module = importlib.import_module(f"{__name__}.{rule_set}")
    known: Mapping[str, str] = {**COMMON_CONDITIONS, **getattr(module, "CONDITIONS", {})}
    return sorted(k for k in setup.conditions if k not in known)


#: conditions any set-up may give, whatever rule set fights it
COMMON_CONDITIONS: dict[str, str] = {
    "year": "the year of the battle (campaign battles give it; fast play reads it)",
    "note": "free text for people",
    "source": "where the set-up comes from (a seed, a book)",
    "campaign_units": "campaign unit id -> {name, type, ships: [{id, name, type, tonnage}]}: "
    "every ship of each unit the set-up's ships stand for, for the step losses",
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

    def outcome(self) -> tuple[str, dict[str, str]]:
        """The winner and each ship's state, as :meth:`result` would report them (the
        ships in its order), copying nothing: an odds preview counts thousands of battles
        by these, and copies a result only for a new way the ships end."""
        ...


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


def play(battle: TacticalBattle, max_turns: int = 200) -> None:
    """Play ``battle`` to its end (or ``max_turns``)."""
    for _ in range(max_turns):
        if battle.finished:
            break
        battle.step()


def run(battle: TacticalBattle, max_turns: int = 200) -> BattleResult:
    """Play ``battle`` to its end (or ``max_turns``) and return its result."""
    play(battle, max_turns)
    return battle.result()
