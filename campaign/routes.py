"""Merchant routes: their paths over the sea-area graph, length class and effective lift.

002 "Merchant Warfare" and "Supply Effectiveness"; Annex B (the merchant routes chart).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .csvdata import Row
from .scenario import Scenario
from .world import LengthClass, length_class


@dataclass(frozen=True, slots=True)
class RouteLine:
    """One line of the merchant routes chart (Annex B), computed from the graph."""

    id: str
    serial: int
    name: str
    nation: str
    origin: str
    destination: str
    path: tuple[str, ...]
    tonnage: int

    @property
    def moves(self) -> int:
        return len(self.path) - 1

    @property
    def length(self) -> LengthClass:
        return length_class(self.moves)

    @property
    def effective_lift(self) -> int:
        return self.length.effective(self.tonnage)


def route_line(
    scenario: Scenario,
    route: Row,
    tonnage: int | None = None,
    areas: Mapping[str, str] | None = None,
) -> RouteLine:
    """The chart line of ``route`` (a routes.csv row), with ``tonnage`` if given; ``areas``:
    each place's sea area as the board knows them (fleet trains set up in play among
    them; the scenario's places if not given)."""
    path = route_path(scenario, route, areas)
    return RouteLine(
        route["id"],
        route["serial"],
        route["name"],
        route["nation"],
        route["origin"],
        route["destination"],
        tuple(path),
        route["tonnage"] if tonnage is None else tonnage,
    )


def route_path(scenario: Scenario, route: Row, areas: Mapping[str, str] | None = None) -> list[str]:
    """The sea areas ``route`` (a routes.csv row) passes through, its ends' areas first
    and last: :attr:`RouteLine.path` without the rest of the line (``areas``: as
    :func:`route_line`'s)."""
    areas = areas if areas is not None else scenario.field_by_id("bases", "sea_area")
    return scenario.world.path(areas[route["origin"]], areas[route["destination"]], route["via"])


def route_chart(scenario: Scenario, tonnage: dict[str, int] | None = None) -> list[RouteLine]:
    """Every route's chart line in serial order (tonnage from the game state if given)."""
    lines = [
        route_line(scenario, r, None if tonnage is None else tonnage.get(r["id"], 0))
        for r in scenario.rows("routes")
    ]
    return sorted(lines, key=lambda line: (line.serial, line.id))
