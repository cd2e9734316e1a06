"""Forces handed to the computer inside a nation a person plays: *the computer commands the
Atlantic escorts*, *the computer commands task force 'TF 17'*.

A :class:`Scope` says which of the nation's forces the computer commands (those based in
some sea areas, or some units by id — a task force's) and which kinds of orders it gives
for them (:data:`PARTS`). :func:`split` cuts the person's draft in two: what stays the
person's, and what the computer takes over; the computer then plans with the rest of the
nation's forces out of its hands, and its orders are merged into the person's
(:func:`merge`), to be seen and edited before the turn is resolved.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from ..board import Board
from ..orders import Orders, live_reasons

#: the kinds of orders a scope may hand over: supplies, transfers and tonnage; escorts;
#: submarine raids; task forces with their operations, interventions and cards
PARTS = ("logistics", "escorts", "raids", "fleet")
#: each section of an orders file and the part it belongs to
SECTION_PART = {
    "supplies": "logistics",
    "transfers": "logistics",
    "escorts": "escorts",
    "task_forces": "fleet",
    "raids": "raids",
    "operations": "fleet",
    "cards": "fleet",
}


@dataclass(frozen=True)
class Scope:
    """What the computer commands within a nation. ``areas``: only forces based in these
    sea areas (none: everywhere); ``units``: only these units (none: any); ``parts``: only
    these kinds of orders (none: all of them). Logistics (supplies, transfers, tonnage)
    concern the whole nation and are handed over only by a scope without areas or units."""

    areas: frozenset[str] = frozenset()
    units: frozenset[str] = frozenset()
    parts: frozenset[str] = frozenset()
    name: str = ""

    @property
    def whole(self) -> bool:
        return not (self.areas or self.units or self.parts)

    @property
    def restricted(self) -> bool:
        """Only some forces (some areas or units), not the whole nation's."""
        return bool(self.areas or self.units)

    def has(self, part: str) -> bool:
        if part == "logistics" and self.restricted:
            return False
        return not self.parts or part in self.parts

    def commands(self, board: Board, unit_id: str) -> bool:
        """Is the unit one the computer commands?"""
        if self.units and unit_id not in self.units:
            return False
        unit = board.state.units.get(unit_id)
        if unit is None:
            return False
        return not self.areas or board.area_of(unit.base) in self.areas

    def commands_air(self, board: Board, air_id: str) -> bool:
        if self.units:
            return False
        air = board.state.air.get(air_id)
        return air is not None and (not self.areas or board.area_of(air.base) in self.areas)


def split(board: Board, orders: Orders, scope: Scope) -> Orders:
    """The person's orders less what ``scope`` hands to the computer (their reasons kept)."""
    keep: dict[str, list[object]] = {}
    if scope.has("logistics"):
        keep["supplies"], keep["transfers"] = [], []
        tonnage: Mapping[str, int] = {}
    else:
        keep["supplies"], keep["transfers"] = list(orders.supplies), list(orders.transfers)
        tonnage = orders.tonnage
    for section in ("escorts", "raids"):
        items = list(getattr(orders, section))
        if scope.has(section):
            items = [
                x
                for x in (_without(board, scope, item) for item in items)
                if x.units or x.air  # type: ignore[attr-defined]
            ]
        keep[section] = items
    tfs = list(orders.task_forces)
    if scope.has("fleet"):
        tfs = [tf for tf in tfs if not any(scope.commands(board, u) for u in tf.units)]
    kept_tfs = {tf.id for tf in tfs}
    keep["task_forces"] = list(tfs)
    keep["operations"] = [
        op for op in orders.operations if all(t in kept_tfs for t in op.task_forces)
    ]
    keep["cards"] = [
        c
        for c in orders.cards
        if not (scope.has("fleet") and not scope.restricted)
        and (not c.task_force or c.task_force in kept_tfs or c.beneficiary)
    ]
    return rebuild(orders, keep, dict(tonnage), [orders])


def _without(board: Board, scope: Scope, item: object) -> object:
    units = tuple(u for u in item.units if not scope.commands(board, u))  # type: ignore[attr-defined]
    air = tuple(
        a
        for a in item.air  # type: ignore[attr-defined]
        if not scope.commands_air(board, a.air)
    )
    return replace(item, units=units, air=air)  # type: ignore[type-var]


def merge(person: Orders, computer: Orders) -> Orders:
    """The person's orders with the computer's added after them, each with its reason;
    the computer's tonnage settings win on the routes it names."""
    sections = {name: [*getattr(person, name), *getattr(computer, name)] for name in SECTION_PART}
    tonnage = {**person.tonnage, **computer.tonnage}
    return rebuild(person, sections, tonnage, [person, computer])


def units_in(orders: Orders) -> set[str]:
    """Every unit an order set gives an order to."""
    out = {t.unit for t in orders.transfers}
    for section in ("escorts", "raids", "task_forces"):
        for item in getattr(orders, section):
            out.update(item.units)
    return out


def air_in(orders: Orders) -> dict[str, int]:
    """Air Points each air id gives to an order set's escorts, raids and task forces."""
    out: dict[str, int] = {}
    for section in ("escorts", "raids", "task_forces"):
        for item in getattr(orders, section):
            for a in item.air:
                out[a.air] = out.get(a.air, 0) + a.points
    return out


def rebuild(
    base: Orders,
    sections: Mapping[str, Iterable[object]],
    tonnage: Mapping[str, int],
    sources: Iterable[Orders],
) -> Orders:
    """``base`` with new sections and tonnage; each order keeps the reason it had in
    ``sources`` (reasons name their orders by key: :func:`campaign.orders.order_key`)."""
    pooled = tuple(r for source in sources for r in source.reasons)
    rebuilt = replace(
        base,
        tonnage=dict(tonnage),
        reasons=pooled,
        **{name: tuple(sections.get(name, ())) for name in SECTION_PART},  # type: ignore[arg-type]
    )
    return replace(rebuilt, reasons=tuple(live_reasons(rebuilt)))


__all__ = ["PARTS", "Scope", "air_in", "merge", "rebuild", "split", "units_in"]
