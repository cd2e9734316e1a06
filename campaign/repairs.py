"""Step 10 of 002's "Turn sequence": *Update repairs on damaged units that have spent
the turn in a Fleet Base* (002 "Repairs")."""

from __future__ import annotations

from .context import Turn
from .forces import CARRIERS
from .state import Unit
from .units import unit_values


def _first_to_repair(t: Turn, holder: str, waiting: list[Unit]) -> Unit:
    """The unit a fleet base repairs: the first its owners named (``choices.repairs``; the
    base's holder's list first), else the most valuable (Fleet CV, then type and id)."""
    named = list(t.choices(holder).repairs)
    for nation in sorted({u.nation for u in waiting} - {holder}):
        named += t.choices(nation).repairs
    for unit_id in named:
        for unit in waiting:
            if unit.id == unit_id:
                return unit
    return max(waiting, key=lambda u: (unit_values(u.type, u.nation).fleet, u.type, u.id))


def repairs(t: Turn) -> None:
    """10. *Update repairs on damaged units that have spent the turn in a Fleet Base.*
    *One base can repair one unit per turn … the unit must be on the appropriate Port
    Card* — units left In Port (or transferred there) this turn; the owner chooses which
    (given ahead in its orders' ``choices.repairs``)."""
    board = t.board
    damaged_at: dict[str, list[Unit]] = {}
    # carrier groups without their Air Point aboard, noted in the same pass over the units
    # (a big world's units are more than a processor keeps at hand: one pass, not two)
    ashore: list[Unit] = []
    for u in t.state.units.values():
        if u.state == "damaged" and t.record.where(u.id).on_port_card:
            damaged_at.setdefault(u.base, []).append(u)
        if u.type in CARRIERS and not u.carries_air:
            ashore.append(u)
    for base in sorted(damaged_at):
        if not board.is_fleet_base(base):
            continue
        holder = board.holder(base)
        waiting = [u for u in damaged_at[base] if board.friendly(u.nation, holder)]
        if not waiting:
            continue
        unit = _first_to_repair(t, holder, waiting)
        unit.state = "ready"
        t.emit(
            "unit_repaired",
            f"{unit.name} repaired at {board.place_name(base)}.",
            unit.nation,
            (unit.nation,),
            unit=unit.id,
            base=base,
        )
    # a ready carrier group takes its Air Point aboard again wherever the two meet: at the
    # base where it was repaired, or where it returns to the Air Point it put ashore
    # (a repair makes a unit ready, and gives no carrier its Air Point)
    for unit in ashore:
        if unit.state != "ready":
            continue
        air = t.state.air.get(f"{unit.id}_air")
        if air is None or air.base != unit.base or air.points <= 0:
            continue
        air.points -= 1
        unit.carries_air = True
        if air.points == 0:
            t.remove_air(air)
        t.emit(
            "air_embarked",
            f"{unit.name} takes its Air Point aboard at {board.place_name(unit.base)}.",
            unit.nation,
            (unit.nation,),
            unit=unit.id,
            air=air.id,
        )
