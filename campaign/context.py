"""The turn in progress: what every step of 002's "Turn sequence" works on.

A step is a function of a :class:`Turn` — the scenario, the state it changes, every
nation's orders, the dice and the owners' choices — that appends
:class:`~campaign.events.Event`\\ s. The shared acts of the steps live here too: a step
of loss on a unit (002 "Damage"), asking the owner which units take the losses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, Protocol, TypeVar

from .board import Board
from .dice import Dice
from .events import UMPIRE, Cover, Event
from .losses import (
    Casualty,
    LossPolicy,
    LossRequest,
    PreferredLosses,
    SpreadLosses,
    check_allocation,
)
from .orders import Choices, Operation, Orders
from .record import CardEffect, TurnRecord
from .scenario import Scenario
from .state import AirUnit, GameState, Unit


@dataclass
class Turn:
    """Everything a step needs. ``state`` is changed in place."""

    scenario: Scenario
    state: GameState
    orders: Mapping[str, Orders]
    dice: Dice
    losses: LossPolicy = field(default_factory=SpreadLosses)
    events: list[Event] = field(default_factory=list)
    #: Game Control's choice for each step-8 battle: a tactical rule set's name to fight
    #: it out, or None for the damage table (operations.BattleChoice → str | None)
    fight: Callable[[Any], str | None] | None = None
    #: shown a tactical battle before it is run to its end: (battle, set-up) → None
    watch: Callable[[Any, Any], None] | None = None
    #: :meth:`units_at`'s and :meth:`air_at`'s indexes ("units", "air")
    _by_base: dict[str, _ByBase[Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    #: :meth:`cards_aimed`'s index: (the effects' list, its length, index)
    _card_index: tuple[list[CardEffect], int, dict[tuple[str, ...], list[int]]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def board(self) -> Board:
        return Board(self.scenario, self.state)

    @property
    def record(self) -> TurnRecord:
        return self.state.turn_record

    @property
    def options(self) -> dict[str, Any]:
        return self.scenario.meta.options

    def emit(
        self,
        kind: str,
        text: str,
        nation: str = "",
        visible_to: tuple[str, ...] = (),
        /,
        *,
        cover: Cover | None = None,
        **data: Any,
    ) -> Event:
        """Log an event. ``cover``: the public form of a secret event, read by every team
        outside ``visible_to`` (docs/team-views.md)."""
        event = Event(self.state.turn, self.state.step, kind, text, nation, data, visible_to, cover)
        self.events.append(event)
        return event

    def nations(self) -> list[str]:
        """Nations with orders, in nations.csv order (the order every step goes in)."""
        return [n for n in self.scenario.by_id("nations") if n in self.orders]

    def take_losses(self, request: LossRequest) -> list[str]:
        """Ask the owner (the loss policy) and check the answer; when every candidate is
        lost anyway nobody is asked."""
        if request.due == 0:
            return []
        if request.due == request.capacity:  # everything is lost: there is no choice
            return [c.id for c in request.candidates for _ in range(c.steps_left)]
        preferred = [u for n in request.nations for u in self.choices(n).losses]
        policy = PreferredLosses(preferred) if preferred else self.losses
        chosen = list(policy.allocate(request))
        check_allocation(request, chosen)
        return chosen

    def choices(self, nation: str) -> Choices:
        """The choices ``nation`` gave ahead for this turn (none: an empty set)."""
        orders = self.orders.get(nation)
        return orders.choices if orders is not None else Choices()

    def units_at(self, base: str) -> list[Unit]:
        """The units based at ``base`` now (sunk ones too), in the units' order. Looked up in
        an index made once a step, as a capture asks for the units in port and a carrier's
        loss for the carriers beside it, and a big world has thousands of units; a unit a
        step moves is moved with :meth:`move_unit`, which keeps the index."""
        return self._located("units", self.state.units, base)

    def air_at(self, place: str) -> list[AirUnit]:
        """The Air Points based at ``place`` now, in the table's order. Looked up in an index
        made once a step, as each landing asks for the island's air and each capture for
        the air it removes; an Air Point a step adds, moves or removes is so with
        :meth:`add_air`, :meth:`move_air` or :meth:`remove_air`, which keep the index."""
        return self._located("air", self.state.air, place)

    def move_unit(self, unit: Unit, base: str) -> None:
        """``unit`` is now based at ``base`` (:meth:`units_at` finds it there)."""
        self._move("units", self.state.units, unit, base)

    def add_air(self, air: AirUnit) -> None:
        """A new Air Point in the table (:meth:`air_at` finds it)."""
        table = self.state.air
        index = self._kept("air", table)
        new = air.id not in table
        table[air.id] = air
        if index is not None:
            index.add(air, new)

    def move_air(self, air: AirUnit, base: str) -> None:
        """``air`` is now based at ``base`` (:meth:`air_at` finds it there)."""
        self._move("air", self.state.air, air, base)

    def remove_air(self, air: AirUnit) -> None:
        """``air`` leaves the table (destroyed, or joined to another)."""
        index = self._kept("air", self.state.air)
        del self.state.air[air.id]
        if index is not None:
            index.remove(air)

    def _move(self, name: str, table: dict[str, _T], item: _T, base: str) -> None:
        index = self._kept(name, table)
        if index is not None:
            index.move(item, base)
        item.base = base

    def _located(self, name: str, table: dict[str, _T], base: str) -> list[_T]:
        """What ``table`` has at ``base``, from the index ``name`` (made again when the
        table is another, its count has changed, or an item the index lists there has
        been put in another's place)."""
        index = self._by_base.get(name)
        if index is None or not index.fresh(table, base):
            index = self._by_base[name] = _ByBase(table)
        return index.at(base)

    def _kept(self, name: str, table: dict[str, Any]) -> _ByBase[Any] | None:
        """The index ``name`` if it is still ``table``'s, to be kept as a step changes the
        table (else it is dropped, to be made again when next asked)."""
        index = self._by_base.get(name)
        if index is not None and not index.current(table):
            del self._by_base[name]
            return None
        return index

    def cards_aimed(
        self, use: str, task_forces: Iterable[tuple[str, str]], route: str
    ) -> list[CardEffect]:
        """The Advantage Card effects of ``use`` played this turn (step 7) aimed at one of
        ``task_forces`` ((beneficiary, task force id)) or at ``route``, in the order played,
        each once. Looked up in an index made once a list of effects: steps 8 and 9 ask for
        every battle and every route attacked, and a big world plays hundreds of cards."""
        effects = self.record.cards
        kept = self._card_index
        if kept is None or kept[0] is not effects or kept[1] != len(effects):
            index: dict[tuple[str, ...], list[int]] = {}
            for i, effect in enumerate(effects):
                if effect.task_force:
                    key = (effect.use, "tf", effect.beneficiary, effect.task_force)
                    index.setdefault(key, []).append(i)
                if effect.route:
                    index.setdefault((effect.use, "route", effect.route), []).append(i)
            kept = self._card_index = (effects, len(effects), index)
        found: set[int] = set()
        for nation, tf_id in task_forces:
            found.update(kept[2].get((use, "tf", nation, tf_id), ()))
        if route:
            found.update(kept[2].get((use, "route", route), ()))
        return [effects[i] for i in sorted(found)]

    def task_force_name(self, nation: str, tf_id: str) -> str:
        """A task force by the name its orders give it (its id if it has none)."""
        return self._task_force_names.get((nation, tf_id)) or tf_id

    @cached_property
    def _task_force_names(self) -> dict[tuple[str, str], str]:
        """(nation, task force id) → the name the nation's orders give it (the first task
        force of that id): looked up, not searched for, as every operation names its task
        forces and a big world's nation forms hundreds."""
        names: dict[tuple[str, str], str] = {}
        for nation, orders in self.orders.items():
            for tf in orders.task_forces:
                names.setdefault((nation, tf.id), tf.name)
        return names

    def operation_words(self, nation: str, op: Operation) -> str:
        """An operation as the umpire and its team name it: what, where and by which task
        forces ("sea control in the Natuna Sea by Kido Butai") — not its id in the orders
        file."""
        by = ", ".join(self.task_force_name(nation, tf) for tf in op.task_forces)
        what = f"{op.kind.replace('_', ' ')} in {self.board.area_name(op.area)}"
        return f"{what} by {by}" if by else what

    def hit_unit(
        self, unit: Unit, context: str, witnesses: Iterable[str] = (), steps: int = 1
    ) -> None:
        """``steps`` steps of loss on a unit: ready → damaged → sunk (002 "Damage").

        One event says where the unit ended (a ready unit taking two steps is reported
        sunk once, not damaged and then sunk). Its owner, Game Control and the
        ``witnesses`` (the nations of the combat that did it) learn of it; nobody else does
        (docs/team-views.md)."""
        seen = (*sorted({unit.nation, *witnesses} - {UMPIRE}), UMPIRE)
        before = unit.state
        for _ in range(steps):
            if unit.state == "ready":
                unit.state = "damaged"
                if unit.carries_air:
                    unit.carries_air = False
                    self.land_carrier_air(unit)
            elif unit.state == "damaged":
                unit.state = "sunk"
        if unit.state == before:
            return
        kind, words = (
            ("unit_damaged", "damaged") if unit.state == "damaged" else ("unit_sunk", "sunk")
        )
        self.emit(
            kind,
            f"{unit.name} ({self.board.name_of(unit.nation)}) is {words} — {context}.",
            unit.nation,
            seen,
            unit=unit.id,
            context=context,
            steps=steps,
        )

    def land_carrier_air(self, unit: Unit) -> None:
        """002: *Damaged Carrier units cannot carry their air unit any longer – this must be
        transferred to land or another carrier unit with no air point.* The owner's choice
        (``choices.carrier_air``), else another ready carrier of the nation at the same base
        with no Air Point (fleet carriers first), else ashore at the carrier's base."""
        other = self._carrier_for_air(unit)
        if other is not None:
            other.carries_air = True
            self.emit(
                "air_transferred",
                f"{unit.name}'s Air Point flies to {other.name}.",
                unit.nation,
                (unit.nation,),
                unit=unit.id,
                to=other.id,
            )
            return
        air_id = f"{unit.id}_air"
        existing = self.state.air.get(air_id)
        if existing:
            existing.points += 1
            self.move_air(existing, unit.base)
        else:
            self.add_air(AirUnit(air_id, unit.nation, unit.base, "land", 1))
        self.emit(
            "air_landed",
            f"{unit.name}'s Air Point goes ashore at {self.board.place_name(unit.base)}.",
            unit.nation,
            (unit.nation,),
            unit=unit.id,
            air=air_id,
        )

    def _carrier_for_air(self, unit: Unit) -> Unit | None:
        wanted = self.choices(unit.nation).carrier_air.get(unit.id, "")
        if wanted == "ashore":
            return None
        free = [
            u
            for u in self.units_at(unit.base)
            if u.id != unit.id
            and u.nation == unit.nation
            and u.type in ("fleet_carrier", "escort_carrier")
            and u.state == "ready"
            and not u.carries_air
        ]
        chosen = [u for u in free if u.id == wanted]
        if wanted and not chosen:
            return None  # the chosen carrier cannot take it now: ashore
        ranked = sorted(free, key=lambda u: (u.type != "fleet_carrier", u.id))
        pick = chosen or ranked
        return pick[0] if pick else None


class _Based(Protocol):
    """A unit or an Air Point: an id, and the place it is based at."""

    id: str
    base: str


_T = TypeVar("_T", bound=_Based)


class _ByBase(Generic[_T]):
    """:meth:`Turn.units_at`'s and :meth:`Turn.air_at`'s index of a table (id → a unit
    or an Air Point): base → its items, and each id's place in the table's order (a new
    id goes last, as in the table)."""

    def __init__(self, table: dict[str, _T]) -> None:
        self.table = table
        self.size = len(table)
        self.by_base: dict[str, list[_T]] = {}
        for item in table.values():
            self.by_base.setdefault(item.base, []).append(item)
        self.order = {key: i for i, key in enumerate(table)}
        self.next = len(table)  # the place in that order of the next id added

    def current(self, table: dict[str, _T]) -> bool:
        return self.table is table and self.size == len(table)

    def fresh(self, table: dict[str, _T], base: str) -> bool:
        listed = self.by_base.get(base, ())
        return self.current(table) and all(table.get(item.id) is item for item in listed)

    def at(self, base: str) -> list[_T]:
        here = [item for item in self.by_base.get(base, ()) if item.base == base]
        here.sort(key=lambda item: self.order[item.id])
        return here

    def add(self, item: _T, new: bool) -> None:
        self.by_base.setdefault(item.base, []).append(item)
        if new:  # last in the table's order (one put in another's place keeps it)
            self.order[item.id] = self.next
            self.next += 1
        self.size = len(self.table)

    def move(self, item: _T, base: str) -> None:
        self._forget(item)
        self.by_base.setdefault(base, []).append(item)

    def remove(self, item: _T) -> None:
        self._forget(item)
        self.order.pop(item.id, None)
        self.size = len(self.table)

    def _forget(self, item: _T) -> None:
        """Take ``item`` itself (not an equal one) out of its base's list."""
        listed = self.by_base.get(item.base, [])
        for i, other in enumerate(listed):
            if other is item:
                del listed[i]
                return


def count(n: int, noun: str) -> str:
    """``3 units``, ``1 Air Point``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def unit_casualty(unit: Unit, cv: Callable[[Unit], int]) -> Casualty:
    """A unit as a loss candidate, with the CV it keeps after one and two steps."""
    values = [cv(unit.in_state(state)) for state in ("damaged", "sunk")]
    return Casualty(
        unit.id,
        unit.nation,
        "unit",
        unit.name,
        unit.type,
        2 if unit.state == "ready" else 1,
        cv(unit),
        values[0],
        values[1] if unit.state == "ready" else values[0],
    )
