"""A nation's orders for one turn, read from JSON (``docs/orders-format.md``).

Orders follow the seed's first seven steps (002 "Turn sequence"): supplies moved (1),
strategic transfers (3), tonnage allocated to routes and new routes (4), units allocated to
merchant protection, task forces or attacking merchant shipping (5), Naval Operations Flags
placed on operations (6) and Advantage Cards played (7). Step 2 (production) needs no
orders.

:func:`parse_orders` turns JSON into typed :class:`Orders`, naming every malformed field;
:mod:`campaign.rules` checks them against the rules before anything happens.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .untrusted import (
    JsonInputError,
    JsonLimits,
    escaped,
    field_name,
    kind_of,
    read_json,
    shown,
    within,
)

CARGO_KINDS = (
    "manpower",
    "tank",
    "aircraft",
    "raw_material",
    "oil",
    "food",
    "tungsten",
    "aluminium",
    "rubber",
)
#: Tungsten, aluminium and rubber: *any number … from the same resource area* per point.
BULK_CARGO = ("tungsten", "aluminium", "rubber")
OPERATION_KINDS = ("sea_control", "minor_invasion", "major_invasion", "surface_raid")
CARD_USES = ("extra_flag", "range", "die_bonus", "column_shift", "other")
STANCES = ("intervene", "stay")

#: how much of an orders file is read (docs/orders-format.md "Limits"): a nation's orders
#: for a turn are a few kilobytes; the limits are far above any real file and far below
#: what would slow the program or fill the game file
LIMITS = JsonLimits(max_bytes=1024 * 1024, max_depth=10, max_items=1000, max_text=10_000)
#: characters in an id or a name; free text (:data:`LONG_TEXT`) may run to LIMITS.max_text
MAX_NAME = 200
#: the keys whose text is free text for people, not an id or a name
LONG_TEXT = frozenset({"notes", "text"})
#: the largest figure any order gives (LSP, points, tonnage, manpower …)
MAX_COUNT = 10_000


@dataclass(frozen=True, slots=True)
class OrderProblem:
    """An order that breaks a rule: which nation, which order, which rule, what is wrong."""

    nation: str
    order: str  # e.g. "task_forces[0] 'Kido Butai'"
    rule: str  # e.g. "002 Operational Range"
    message: str

    def __str__(self) -> str:
        return f"{self.nation}: {self.order}: {self.message} ({self.rule})"


class OrdersError(Exception):
    """Orders refused as a whole; carries every problem."""

    def __init__(self, problems: list[OrderProblem]) -> None:
        self.problems = problems
        super().__init__(
            f"{len(problems)} problem{'s' if len(problems) != 1 else ''} with the orders:\n"
            + "\n".join(str(p) for p in problems)
        )


@dataclass(frozen=True, slots=True)
class SupplyMove:
    """Step 1: move LSP (or cargo for the other games) along a route, origin → destination."""

    route: str
    lsp: int = 0
    cargo: str = ""
    points: int = 0


@dataclass(frozen=True, slots=True)
class Transfer:
    """Step 3: a strategic base-to-base transfer of one unit (any distance)."""

    unit: str
    to: str


@dataclass(frozen=True, slots=True)
class AirTransfer:
    """Step 3: land-based Air Points moved to another base, port or island of the nation or
    an ally (``points`` 0: all of them). Like units moved strategically, they take no part
    in anything else that turn."""

    air: str
    to: str
    points: int = 0


@dataclass(frozen=True, slots=True)
class FleetTrainOrder:
    """002 "Bases": *A fleet train is treated as a Mobile Fleet Base. It requires a merchant
    route from an existing fleet base to it … Setting up a Fleet Train requires substantial
    dedicated merchant tonnage as well as additional manpower and LSP.* A new ``id`` sets
    one up in sea area ``area``, supplied by a route from the mainland fleet base
    ``origin`` carrying ``tonnage`` points, with ``lsp`` LSP taken there as its first stock
    (step 4); an existing train's id moves it to ``area`` (step 3, units based there go
    with it) or, with ``disband``, ends it (step 4: its units and LSP go back to its
    origin, its tonnage to the nation's pool)."""

    id: str
    name: str = ""
    area: str = ""
    origin: str = ""
    tonnage: int = 0
    lsp: int = 0
    disband: bool = False


@dataclass(frozen=True, slots=True)
class NewRoute:
    """Step 4: a new merchant route, created by diverting tonnage to it."""

    id: str
    name: str
    origin: str
    destination: str
    via: tuple[str, ...] = ()
    tonnage: int = 0


@dataclass(frozen=True, slots=True)
class AirAllocation:
    air: str  # an air.csv id
    points: int


@dataclass(frozen=True, slots=True)
class Escort:
    """Step 5a: units (and land-based air) protecting a merchant route."""

    route: str
    units: tuple[str, ...] = ()
    air: tuple[AirAllocation, ...] = ()


@dataclass(frozen=True, slots=True)
class Raid:
    """Step 5c: units attacking merchant shipping on a route, in a sea area of its path.

    Submarines and aircraft need no flag; surface raiders are ordered as a task force with a
    ``surface_raid`` operation instead.
    """

    route: str
    area: str
    units: tuple[str, ...] = ()
    air: tuple[AirAllocation, ...] = ()


@dataclass(frozen=True, slots=True)
class TaskForce:
    """Step 5b: a Task Force formed at a base (its units must all be there)."""

    id: str
    name: str
    base: str
    units: tuple[str, ...]
    lsp: int = 0
    air: tuple[AirAllocation, ...] = ()
    stance: str = "intervene"  # without an operation: oppose enemy operations in range?
    #: sea areas where it stands ready to intervene, first choice first (002 *Any enemy TF
    #: within range may choose to intervene*); none named: the nearest enemy operation
    intervene_in: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Operation:
    """Step 6: a naval operation with its Naval Operations Flag (and a Military flag for a
    major invasion). An amphibious operation has a covering force and an invasion force
    under one flag."""

    id: str
    kind: str
    area: str
    task_forces: tuple[str, ...]
    target: str = ""  # the place invaded (minor/major invasion)
    invasion_force: str = ""  # the task force carrying the troops
    manpower: int = 0
    tanks: int = 0
    route: str = ""  # surface raid: the route attacked


@dataclass(frozen=True, slots=True)
class CardPlay:
    """Step 7: one Advantage Card played for one of its five uses."""

    card: str
    use: str
    task_force: str = ""  # range; die_bonus / column_shift in that force's combat
    route: str = ""  # die_bonus / column_shift in that route's merchant combat
    beneficiary: str = ""  # an ally the card is played for (extra_flag: whose flag)
    text: str = ""  # use "other": what is asked of Game Control


@dataclass(frozen=True, slots=True)
class Choices:
    """The owner's choices when the dice fall (002 "Damage": *Owner chooses which ship
    losses to take from their Task Force*), given ahead for a turn resolved without the
    owner at the table: ``losses`` — the units to take steps first, one step per entry in
    order (an id twice: damaged, then sunk), the rest as the default owner would;
    ``repairs`` — units to repair first where several wait at one fleet base;
    ``carrier_air`` — a carrier's id → where its Air Point goes if it is damaged: another
    carrier's id (one with no Air Point at the same base) or "ashore"."""

    losses: tuple[str, ...] = ()
    repairs: tuple[str, ...] = ()
    carrier_air: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an order was given, in one line for the team's report. ``order`` is the order's
    key (:func:`order_key`: ``escort us_can_uk``, ``operation mo``, ``tonnage japan_korea``),
    so a reason follows its order when others are added or removed and is dropped with it;
    the computer opponent gives one for each of its orders (docs/computer-opponent.md)."""

    order: str
    text: str


@dataclass(frozen=True, slots=True)
class Orders:
    nation: str
    turn: int
    supplies: tuple[SupplyMove, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    air_transfers: tuple[AirTransfer, ...] = ()
    fleet_trains: tuple[FleetTrainOrder, ...] = ()
    tonnage: Mapping[str, int] = field(default_factory=dict)
    new_routes: tuple[NewRoute, ...] = ()
    escorts: tuple[Escort, ...] = ()
    task_forces: tuple[TaskForce, ...] = ()
    raids: tuple[Raid, ...] = ()
    operations: tuple[Operation, ...] = ()
    cards: tuple[CardPlay, ...] = ()
    choices: Choices = field(default_factory=Choices)
    reasons: tuple[Reason, ...] = ()

    def to_json(self) -> str:
        return json.dumps(orders_to_data(self), indent=2, ensure_ascii=False)


# -- parsing -----------------------------------------------------------------------------
class _Reader:
    """Reads one JSON object into dataclasses, collecting problems with their paths."""

    def __init__(self, nation: str) -> None:
        self.nation = nation
        self.problems: list[OrderProblem] = []

    def bad(self, where: str, message: str) -> None:
        where = escaped(where)  # a key from the file may hold control characters
        self.problems.append(OrderProblem(self.nation, where, "orders format", message))

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.bad(where, f"must be an object {{…}}, not {kind_of(value)}")
            return {}
        return value

    def items(self, data: dict[str, Any], key: str) -> list[tuple[str, dict[str, Any]]]:
        value = data.get(key, [])
        if not isinstance(value, list):
            self.bad(key, f"must be a list […], not {kind_of(value)}")
            return []
        out = [(f"{key}[{i}]", self.obj(v, f"{key}[{i}]")) for i, v in enumerate(value)]
        for where, item in out:
            self.known(item, SECTION_FIELDS[key], where)
        return out

    def known(self, d: dict[str, Any], fields: tuple[str, ...], where: str) -> None:
        """An unknown field is named, not silently ignored (a misspelt order would do
        nothing)."""
        for key in d:
            if key not in fields:
                self.bad(
                    f"{where}.{field_name(key)}", "is not a field here; valid: " + ", ".join(fields)
                )

    def text(self, d: dict[str, Any], key: str, where: str, required: bool = True) -> str:
        value = d.get(key, "")
        if not isinstance(value, str):
            self.bad(f"{where}.{key}", f"must be text, not {kind_of(value)}")
            return ""
        if required and not value:
            self.bad(f"{where}.{key}", "is missing")
        limit = LIMITS.max_text if key in LONG_TEXT else MAX_NAME
        if len(value) > limit:
            self.bad(f"{where}.{key}", f"is {len(value):,} characters long; at most {limit:,}")
            return ""
        # an id (a route, a base, a sea area) one string object per value, as the
        # scenario's and the state's are (campaign/scenario.py)
        return sys.intern(value) if type(value) is str and len(value) <= MAX_NAME else value

    def count(self, d: dict[str, Any], key: str, where: str, default: int = 0) -> int:
        value = d.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self.bad(f"{where}.{key}", f"must be a whole number ≥ 0, not {kind_of(value)}")
            return 0
        if value > MAX_COUNT:
            self.bad(f"{where}.{key}", f"{value} is absurdly large (at most {MAX_COUNT:,})")
            return 0
        return value

    def ids(self, d: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = d.get(key, [])
        if not isinstance(value, list):
            self.bad(f"{where}.{key}", f"must be a list of ids, not {kind_of(value)}")
            return ()
        for i, x in enumerate(value):
            if not isinstance(x, str) or not x or len(x) > MAX_NAME:
                self.bad(f"{where}.{key}[{i}]", f"must be an id, not {kind_of(x)}")
                return ()
        # one string object per id, as the scenario's and the state's (campaign/scenario.py)
        return tuple(sys.intern(v) if type(v) is str else v for v in value)

    def flag(self, d: dict[str, Any], key: str, where: str) -> bool:
        value = d.get(key, False)
        if not isinstance(value, bool):
            self.bad(f"{where}.{key}", f"must be true or false, not {value!r}")
            return False
        return value

    def choice(
        self,
        d: dict[str, Any],
        key: str,
        where: str,
        choices: tuple[str, ...],
        default: str | None = None,
    ) -> str:
        value = d.get(key, default)
        if not isinstance(value, str) or value not in choices:
            shown_value = "nothing" if value is None else kind_of(value)
            self.bad(f"{where}.{key}", f"{shown_value} is not one of {', '.join(choices)}")
            return choices[0]
        return value

    def choices(self, d: dict[str, Any]) -> Choices:
        if "choices" not in d:
            return Choices()
        c = self.obj(d["choices"], "choices")
        self.known(c, _fields(Choices), "choices")
        air = self.obj(c.get("carrier_air", {}), "choices.carrier_air")
        carrier_air = {}
        for carrier, target in air.items():
            if not isinstance(target, str) or not target:
                self.bad(f"choices.carrier_air.{carrier}", "must be a carrier id or 'ashore'")
            else:
                carrier_air[str(carrier)] = target
        return Choices(
            self.ids(c, "losses", "choices"), self.ids(c, "repairs", "choices"), carrier_air
        )

    def air(self, d: dict[str, Any], where: str) -> tuple[AirAllocation, ...]:
        out = []
        for i, a in enumerate(d.get("air", []) if isinstance(d.get("air", []), list) else []):
            w = f"{where}.air[{i}]"
            a = self.obj(a, w)
            self.known(a, ("air", "points"), w)
            out.append(AirAllocation(self.text(a, "air", w), self.count(a, "points", w, 1)))
        if not isinstance(d.get("air", []), list):
            self.bad(f"{where}.air", f"must be a list, not {kind_of(d.get('air'))}")
        return tuple(out)


def _fields(kind: type) -> tuple[str, ...]:
    return tuple(kind.__dataclass_fields__)  # type: ignore[attr-defined]


#: the fields each kind of order may have (its dataclass's)
SECTION_FIELDS: dict[str, tuple[str, ...]] = {
    "supplies": _fields(SupplyMove),
    "transfers": _fields(Transfer),
    "air_transfers": _fields(AirTransfer),
    "fleet_trains": _fields(FleetTrainOrder),
    "new_routes": _fields(NewRoute),
    "escorts": _fields(Escort),
    "task_forces": _fields(TaskForce),
    "raids": _fields(Raid),
    "operations": _fields(Operation),
    "cards": _fields(CardPlay),
    "reasons": _fields(Reason),
}

KNOWN_KEYS = {
    "nation",
    "turn",
    "supplies",
    "transfers",
    "air_transfers",
    "fleet_trains",
    "tonnage",
    "new_routes",
    "escorts",
    "task_forces",
    "raids",
    "operations",
    "cards",
    "choices",
    "reasons",
    "notes",
}


def parse_orders(data: Any, nation: str | None = None) -> Orders:
    """Typed orders from decoded JSON; raises :class:`OrdersError` naming every bad field."""
    r = _Reader(nation or "?")
    d = r.obj(data, "orders")
    who = d.get("nation", nation)
    if "nation" in d and not isinstance(who, str):
        r.bad("nation", f"must be text, not {kind_of(who)}")
        who = nation or "?"
    elif not who:
        r.bad("nation", "is missing")
        who = nation or "?"
    elif len(who) > MAX_NAME:
        r.bad("nation", f"is {len(who):,} characters long; at most {MAX_NAME}")
        who = nation or "?"
    r.nation = who
    if nation is not None and who != nation:
        r.bad("nation", f"the file is for {shown(who)}, not '{nation}'")
    for key in d:
        if key not in KNOWN_KEYS:
            r.bad(
                field_name(key), "is not a kind of order; valid: " + ", ".join(sorted(KNOWN_KEYS))
            )
    r.text(d, "notes", "orders", required=False)
    turn = r.count(d, "turn", "orders", 0)
    supplies = tuple(
        SupplyMove(
            r.text(s, "route", w),
            r.count(s, "lsp", w),
            r.choice(s, "cargo", w, ("", *CARGO_KINDS), "") if "cargo" in s else "",
            r.count(s, "points", w),
        )
        for w, s in r.items(d, "supplies")
    )
    transfers = tuple(
        Transfer(r.text(t, "unit", w), r.text(t, "to", w)) for w, t in r.items(d, "transfers")
    )
    air_transfers = tuple(
        AirTransfer(r.text(a, "air", w), r.text(a, "to", w), r.count(a, "points", w))
        for w, a in r.items(d, "air_transfers")
    )
    fleet_trains = tuple(
        FleetTrainOrder(
            r.text(f, "id", w),
            r.text(f, "name", w, required=False),
            r.text(f, "area", w, required=False),
            r.text(f, "origin", w, required=False),
            r.count(f, "tonnage", w),
            r.count(f, "lsp", w),
            r.flag(f, "disband", w),
        )
        for w, f in r.items(d, "fleet_trains")
    )
    tonnage_raw = r.obj(d.get("tonnage", {}), "tonnage")
    tonnage = {str(k): r.count(tonnage_raw, k, "tonnage") for k in tonnage_raw}
    new_routes = tuple(
        NewRoute(
            r.text(n, "id", w),
            r.text(n, "name", w),
            r.text(n, "origin", w),
            r.text(n, "destination", w),
            r.ids(n, "via", w),
            r.count(n, "tonnage", w),
        )
        for w, n in r.items(d, "new_routes")
    )
    escorts = tuple(
        Escort(r.text(e, "route", w), r.ids(e, "units", w), r.air(e, w))
        for w, e in r.items(d, "escorts")
    )
    task_forces = tuple(
        TaskForce(
            r.text(t, "id", w),
            r.text(t, "name", w, required=False) or r.text(t, "id", w),
            r.text(t, "base", w),
            r.ids(t, "units", w),
            r.count(t, "lsp", w),
            r.air(t, w),
            r.choice(t, "stance", w, STANCES, "intervene"),
            r.ids(t, "intervene_in", w),
        )
        for w, t in r.items(d, "task_forces")
    )
    raids = tuple(
        Raid(r.text(x, "route", w), r.text(x, "area", w), r.ids(x, "units", w), r.air(x, w))
        for w, x in r.items(d, "raids")
    )
    operations = tuple(
        Operation(
            r.text(o, "id", w),
            r.choice(o, "kind", w, OPERATION_KINDS),
            r.text(o, "area", w),
            r.ids(o, "task_forces", w),
            r.text(o, "target", w, required=False),
            r.text(o, "invasion_force", w, False),
            r.count(o, "manpower", w),
            r.count(o, "tanks", w),
            r.text(o, "route", w, required=False),
        )
        for w, o in r.items(d, "operations")
    )
    cards = tuple(
        CardPlay(
            r.text(c, "card", w),
            r.choice(c, "use", w, CARD_USES),
            r.text(c, "task_force", w, False),
            r.text(c, "route", w, False),
            r.text(c, "beneficiary", w, False),
            r.text(c, "text", w, False),
        )
        for w, c in r.items(d, "cards")
    )
    choices = r.choices(d)
    reasons = tuple(
        Reason(r.text(x, "order", w), r.text(x, "text", w)) for w, x in r.items(d, "reasons")
    )
    if r.problems:
        raise OrdersError(r.problems)
    return Orders(
        who,
        turn,
        supplies,
        transfers,
        air_transfers,
        fleet_trains,
        tonnage,
        new_routes,
        escorts,
        task_forces,
        raids,
        operations,
        cards,
        choices,
        reasons,
    )


def load_orders(text: str | bytes, nation: str | None = None) -> Orders:
    """Orders from JSON text, read within :data:`LIMITS` (size, nesting, list and text
    lengths, numbers, plain characters); :class:`OrdersError` names every problem."""
    who = nation or "?"
    try:
        data, found = read_json(text, LIMITS)
    except JsonInputError as exc:
        raise OrdersError([OrderProblem(who, exc.where, "orders format", exc.message)]) from None
    problems = [OrderProblem(who, where, "orders format", message) for where, message in found]
    try:
        orders = parse_orders(data, nation)
    except OrdersError as exc:
        if not problems:
            raise
        # the reader's own word on a value already refused above would only repeat it
        refused = [p.order for p in problems]
        rest = [p for p in exc.problems if not within(p.order.removeprefix("orders."), refused)]
        raise OrdersError(problems + rest) from None
    if problems:
        raise OrdersError(problems)
    return orders


def read_orders_file(path: str | Path, nation: str | None = None) -> Orders:
    """Orders from a JSON file (the app's *Open orders*, the command line's ``orders``).

    A file larger than :data:`LIMITS` allows is refused unread; an unreadable file or bad
    orders raise :class:`OrdersError` naming the file and every problem."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            text = f.read(LIMITS.max_bytes + 1)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise OrdersError([OrderProblem(nation or "?", str(path), "orders file", reason)]) from None
    return load_orders(text, nation)


def range_cards_by_task_force(orders: Iterable[Orders]) -> Counter[tuple[str, str]]:
    """Cards played to *Extend the range of one Task Force by one sea area*, by (nation,
    task force id) of the task force extended: played by that nation or by an ally on its
    behalf (``beneficiary``). One pass over the cards, for every task force at once."""
    found: Counter[tuple[str, str]] = Counter()
    for mine in orders:
        for card in mine.cards:
            if card.use == "range":
                found[(card.beneficiary or mine.nation, card.task_force)] += 1
    return found


def orders_to_data(orders: Orders) -> dict[str, Any]:
    """Plain data (the JSON file's content) of ``orders``, without empty sections."""

    def clean(obj: Any) -> Any:
        if hasattr(obj, "__dataclass_fields__"):
            return {
                k: clean(getattr(obj, k))
                for k in obj.__dataclass_fields__
                if getattr(obj, k) not in ("", (), None, {})
                and not (
                    k in ("lsp", "points", "manpower", "tanks", "tonnage") and getattr(obj, k) == 0
                )
                and not (k == "disband" and getattr(obj, k) is False)
            }
        if isinstance(obj, tuple | list):
            return [clean(x) for x in obj]
        if isinstance(obj, Mapping):
            return {k: clean(v) for k, v in obj.items()}
        return obj

    data = clean(orders)
    return {k: v for k, v in data.items() if v not in ({}, [])}


#: the sections of an orders file whose orders carry reasons, and how each is keyed
_KEYED: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("supplies", "supplies", ("route",)),
    ("transfers", "transfer", ("unit",)),
    ("escorts", "escort", ("route",)),
    ("task_forces", "task force", ("id",)),
    ("raids", "raid", ("route", "area")),
    ("operations", "operation", ("id",)),
    ("cards", "card", ("card",)),
)


def order_key(section: str, item: object) -> str:
    """The key a reason names an order by: ``escort us_can_uk``, ``raid us_can_uk
    north_atlantic``, ``task force kido_butai``, ``operation mo``, ``card jpn_jn25``,
    ``supplies japan_truk``, ``transfer jpn_bb_kongo_haruna`` (a route's tonnage:
    ``tonnage japan_korea``)."""
    for name, word, fields in _KEYED:
        if name == section:
            return " ".join([word, *(str(getattr(item, f)) for f in fields)])
    raise KeyError(section)


def order_keys(orders: Orders) -> list[str]:
    """The keys of every order that may carry a reason, in the file's order."""
    keys = [order_key(name, item) for name, _, _ in _KEYED for item in getattr(orders, name)]
    return keys + [f"tonnage {route}" for route in orders.tonnage]


def live_reasons(orders: Orders) -> list[Reason]:
    """The reasons whose order is still in ``orders`` (an order edited away takes its
    reason with it), in the orders' order."""
    by_key: dict[str, Reason] = {}
    for r in orders.reasons:
        by_key.setdefault(r.order, r)
    return [by_key[k] for k in dict.fromkeys(order_keys(orders)) if k in by_key]
