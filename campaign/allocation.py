"""Steps 5 and 6 of 002's "Turn sequence": units allocated to merchant shipping
protection, task forces or attacking merchant shipping, and Naval Operations Flags placed
on the operations."""

from __future__ import annotations

from .context import Turn, count
from .events import Cover
from .forces import fleet_cv
from .record import ESCORT, RAID, TASK_FORCE, TRANSFERRED, Assignment, FlagUse


def allocate_units(t: Turn) -> None:
    """5. *Allocate units available (i.e. those not conducting strategic moves) to a.
    merchant shipping protection or b. task forces or c. attacking merchant shipping.*
    Units left out are In Port."""
    board = t.board
    # units allocated alike share one (frozen) allocation: a big world allocates thousands
    moved = Assignment(TRANSFERRED)
    where: dict[str, Assignment] = dict.fromkeys(t.record.transferred, moved)
    for nation in t.nations():
        orders = t.orders[nation]
        for e in orders.escorts:
            escort = Assignment(ESCORT, route=e.route)
            for u in e.units:
                where[u] = escort
            air_points = sum(a.points for a in e.air)
            who = " and ".join(
                part
                for part in (
                    count(len(e.units), "unit"),
                    count(air_points, "Air Point") if air_points else "",
                )
                if part and not part.startswith("0 ")
            )
            one = who.startswith("1 ") and " and " not in who
            t.emit(
                "escort_allocated",
                f"{who or 'Nothing'} escort{'s' if one else ''} "
                f"'{board.route_name_for(e.route, nation)}'.",
                nation,
                (nation,),
                route=e.route,
                units=list(e.units),
                air=[[a.air, a.points] for a in e.air],
            )
        for tf in orders.task_forces:
            in_task_force = Assignment(TASK_FORCE, nation=nation, task_force=tf.id)
            for u in tf.units:
                where[u] = in_task_force
            cv = sum(fleet_cv(t.state.units[u]) for u in tf.units)
            t.emit(
                "task_force_formed",
                f"Task Force '{tf.name}' formed at "
                f"{board.place_name(tf.base)}: {len(tf.units)} unit(s), CV {cv}, "
                f"{tf.lsp} LSP.",
                nation,
                (nation,),
                # 002: *a TF Counter placed on the Map*: where, not what or whose name
                cover=Cover(
                    f"A task force counter of {board.name_of(nation)} is placed at "
                    f"{board.public_place_name(tf.base)} "
                    f"({board.area_name(board.area_of(tf.base))}).",
                    {"base": tf.base, "area": board.area_of(tf.base)},
                ),
                task_force=tf.id,
                base=tf.base,
                units=list(tf.units),
                cv=cv,
                lsp=tf.lsp,
            )
        for r in orders.raids:
            raiding = Assignment(RAID, route=r.route)
            for u in r.units:
                where[u] = raiding
            t.emit(
                "raiders_allocated",
                f"{len(r.units)} unit(s) attack "
                f"'{board.route_name_for(r.route, nation)}' in {board.area_name(r.area)}.",
                nation,
                (nation,),
                route=r.route,
                area=r.area,
                units=list(r.units),
            )
    t.record.assignments = where


def place_flags(t: Turn) -> None:
    """6. *Allocate Naval Operations Flags to the map area you wish to conduct any specific
    operations in.* One flag per operation (covering and invasion forces share it); a major
    landing also takes a Military Operations Flag."""
    board = t.board
    flags = t.record.flags
    for nation in t.nations():
        ops = t.orders[nation].operations
        naval, military = board.flags(nation)
        used_naval = len(ops)
        used_military = sum(1 for o in ops if o.kind == "major_invasion")
        flags[nation] = FlagUse(naval, military, used_naval, used_military)
        for op in ops:
            t.emit(
                "flag_placed",
                f"Naval Operations Flag: {t.operation_words(nation, op)}.",
                nation,
                (nation,),
                # 002 step 6: *Allocate Naval Operations Flags to the map area*: the flag
                # in its sea area is public, the operation behind it is not
                cover=Cover(
                    f"A Naval Operations Flag of {board.name_of(nation)} is placed in "
                    f"{board.area_name(op.area)}.",
                    {"area": op.area},
                ),
                operation=op.id,
                operation_kind=op.kind,
                area=op.area,
            )
