"""The order builder on a team seat's orders page: plain HTML forms that change the team's
draft orders without writing JSON.

Each form asks for one change — form a task force, send task forces on an operation, put
tonnage on routes, escort a route, or remove any of these — and :func:`apply_change` makes
it on the team's draft (its stored orders as data, or empty orders for the turn). Every id a
form may name is one its :class:`~campaign.teamview.TeamView` offers (its own units, its
side's fleet bases, its own routes, its draft's task forces and operations): anything else
is refused here (:class:`Refused`) before the orders are read. The changed orders are then
checked and stored by the seat server's own submission path, exactly as orders typed as JSON.
Nothing here reads the game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from .orders import MAX_COUNT, OPERATION_KINDS, STANCES
from .reports import UNIT_TYPE_NAMES
from .teamview import TeamView, UnitView
from .world import World

KIND_WORDS = {
    "sea_control": "Sea control",
    "minor_invasion": "Minor invasion",
    "major_invasion": "Major invasion",
    "surface_raid": "Surface raid",
}
STANCE_WORDS = {
    "intervene": "Intervene (oppose enemy operations in range)",
    "stay": "Stay in port",
}
#: what the orders page says after each change was stored
DONE = {
    "tf_add": "Task force formed",
    "tf_remove": "Task force removed",
    "op_add": "Operation ordered",
    "op_remove": "Operation removed",
    "tonnage": "Tonnage set",
    "escort_add": "Escort set",
    "escort_remove": "Escort removed",
}
MAX_NAME = 60


class Refused(Exception):
    """A form names something the team may not order, or is filled in wrongly."""


# -- what a team may choose -------------------------------------------------------------------
def own_units(view: TeamView) -> list[UnitView]:
    return [u for u in view.units if u.state != "sunk"]


def fleet_bases(view: TeamView) -> list[str]:
    """Its side's fleet bases where the team has units: where a task force may form."""
    friends = {view.nation, *view.allies}
    here = {u.base for u in own_units(view)}
    return [b.id for b in view.bases if b.fleet_base and b.holder in friends and b.id in here]


def own_routes(view: TeamView) -> list[str]:
    return [r.id for r in view.routes if r.nation == view.nation]


def empty_orders(nation: str, turn: int) -> dict[str, Any]:
    return {
        "nation": nation,
        "turn": turn,
        "task_forces": [],
        "operations": [],
        "escorts": [],
        "raids": [],
    }


def in_orders(draft: Mapping[str, Any]) -> dict[str, str]:
    """The units the draft already gives a task force or an escort, with where, in words."""
    out: dict[str, str] = {}
    for key, label, what in (("task_forces", "name", "in"), ("escorts", "route", "escorting")):
        for item in draft.get(key) or ():
            if isinstance(item, dict):
                for unit in item.get("units") or ():
                    out.setdefault(str(unit), f"{what} {item.get(label, '')}")
    return out


# -- reading a form ----------------------------------------------------------------------------
def _one(form: Mapping[str, Sequence[str]], key: str) -> str:
    values = form.get(key) or [""]
    return values[0].strip()


def _count(form: Mapping[str, Sequence[str]], key: str, what: str) -> int:
    text = _one(form, key)
    if not text:
        return 0
    if not text.isdigit() or int(text) > MAX_COUNT:
        raise Refused(f"{what} is a whole number from 0 to {MAX_COUNT}, not '{text[:20]}'")
    return int(text)


def _chosen(
    form: Mapping[str, Sequence[str]],
    key: str,
    offered: Sequence[str],
    what: str,
    default: str = "",
) -> str:
    value = _one(form, key) or default
    if not value:
        raise Refused(f"choose {what} from the list")
    if value not in offered:
        raise Refused(f"choose {what} from the list ('{value[:40]}' is not offered to you)")
    return value


def _ticked(
    form: Mapping[str, Sequence[str]], key: str, offered: Sequence[str], what: str
) -> list[str]:
    values = list(dict.fromkeys(v.strip() for v in form.get(key, ()) if v.strip()))
    for v in values:
        if v not in offered:
            raise Refused(f"'{v[:40]}' is not one of your {what}")
    return values


def _slug(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:40] or "order"
    found, n = base, 1
    while found in taken:
        n += 1
        found = f"{base}_{n}"
    return found


def _list(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    found = data.setdefault(key, [])
    if not isinstance(found, list):
        raise Refused(f"the draft's {key} are not a list: fix them in the JSON editor")
    return found


# -- the changes -------------------------------------------------------------------------------
def apply_change(
    view: TeamView, areas: Sequence[str], draft: dict[str, Any], form: Mapping[str, Sequence[str]]
) -> str:
    """Make the change ``form`` asks for (its ``action``) on ``draft`` in place, and return
    the action. Raises :class:`Refused` for anything the team may not choose."""
    action = _one(form, "action")
    tfs = _list(draft, "task_forces")
    tf_ids = [str(t.get("id", "")) for t in tfs if isinstance(t, dict)]
    ops = _list(draft, "operations")
    if action == "tf_add":
        name = _one(form, "name")[:MAX_NAME]
        if not name:
            raise Refused("give the task force a name")
        base = _chosen(form, "base", fleet_bases(view), "the base")
        at_base = [u.id for u in own_units(view) if u.base == base]
        units = _ticked(form, "units", [u.id for u in own_units(view)], "units")
        if not units:
            raise Refused("tick the units that form the task force")
        away = [u for u in units if u not in at_base]
        if away:
            raise Refused(f"{', '.join(away)} not at {base}: a task force forms at one base")
        tf: dict[str, Any] = {"id": _slug(name, set(tf_ids)), "name": name, "base": base}
        tf["units"] = units
        lsp = _count(form, "lsp", "LSP")
        if lsp:
            tf["lsp"] = lsp
        tf["stance"] = _chosen(form, "stance", STANCES, "the stance", "intervene")
        tfs.append(tf)
    elif action == "tf_remove":
        gone = _chosen(form, "task_force", tf_ids, "the task force")
        draft["task_forces"] = [t for t in tfs if t.get("id") != gone]
        kept = []
        for op in ops:
            op["task_forces"] = [t for t in op.get("task_forces", []) if t != gone]
            if op.get("invasion_force") == gone:
                op.pop("invasion_force")
            if op["task_forces"]:
                kept.append(op)
        draft["operations"] = kept
    elif action == "op_add":
        ops.append(_operation(view, areas, form, tf_ids, {str(o.get("id")) for o in ops}))
    elif action == "op_remove":
        gone = _chosen(form, "operation", [str(o.get("id", "")) for o in ops], "the operation")
        draft["operations"] = [o for o in ops if o.get("id") != gone]
    elif action == "tonnage":
        tonnage = draft.setdefault("tonnage", {})
        for route in own_routes(view):
            if _one(form, f"t_{route}"):
                tonnage[route] = _count(form, f"t_{route}", f"Tonnage on {route}")
            else:
                tonnage.pop(route, None)
    elif action in ("escort_add", "escort_remove"):
        route = _chosen(form, "route", own_routes(view), "the route")
        escorts = [e for e in _list(draft, "escorts") if e.get("route") != route]
        if action == "escort_add":
            units = _ticked(form, "units", [u.id for u in own_units(view)], "units")
            if not units:
                raise Refused("tick the units that escort the route")
            escorts.append({"route": route, "units": units})
        draft["escorts"] = escorts
    else:
        raise Refused("that form asks for nothing this page knows: reload the orders page")
    return action


def _operation(
    view: TeamView,
    areas: Sequence[str],
    form: Mapping[str, Sequence[str]],
    tf_ids: Sequence[str],
    op_ids: set[str],
) -> dict[str, Any]:
    kind = _chosen(form, "kind", OPERATION_KINDS, "the kind of operation")
    area = _chosen(form, "area", areas, "the sea area")
    forces = _ticked(form, "task_forces", tf_ids, "task forces in these orders")
    if not forces:
        raise Refused("tick the task forces that sail on the operation")
    op: dict[str, Any] = {"id": _slug(f"{kind}_{area}", op_ids), "kind": kind, "area": area}
    op["task_forces"] = forces
    if kind in ("minor_invasion", "major_invasion"):
        op["target"] = _chosen(form, "target", [b.id for b in view.bases], "the place invaded")
        force = _one(form, "invasion_force") or forces[0]
        if force not in forces:
            raise Refused("the invasion force is one of the task forces ticked")
        op["invasion_force"] = force
        for key, what in (("manpower", "Manpower"), ("tanks", "Tanks")):
            value = _count(form, key, what)
            if value:
                op[key] = value
    if kind == "surface_raid":
        op["route"] = _chosen(form, "raid_route", [r.id for r in view.routes], "the route")
    return op


# -- the forms ---------------------------------------------------------------------------------
def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _options(pairs: Sequence[tuple[str, str]], blank: str = "") -> str:
    first = f"<option value=''>{_e(blank)}</option>" if blank else ""
    return first + "".join(f"<option value='{_e(v)}'>{_e(t)}</option>" for v, t in pairs)


def _form(action: str, csrf: str, body: str, button: str, cls: str = "build") -> str:
    return (
        f"<form method='post' action='/team/orders/build' class='{cls}'>"
        f"<input type='hidden' name='csrf' value='{_e(csrf)}'>"
        f"<input type='hidden' name='action' value='{action}'>{body}"
        f"<button type='submit' id='{action}'>{_e(button)}</button></form>"
    )


def _remove(action: str, key: str, value: str, csrf: str) -> str:
    return (
        "<form method='post' action='/team/orders/build' class='remove'>"
        f"<input type='hidden' name='csrf' value='{_e(csrf)}'>"
        f"<input type='hidden' name='action' value='{action}'>"
        f"<input type='hidden' name='{key}' value='{_e(value)}'>"
        f"<button type='submit' class='remove' data-{key.replace('_', '-')}='{_e(value)}'>"
        "Remove</button></form>"
    )


def unit_words(u: UnitView, used: Mapping[str, str]) -> str:
    """A unit as a box to tick names it: ``Akagi (carrier, damaged, in Kido Butai)``."""
    notes = [UNIT_TYPE_NAMES.get(u.type, u.type)]
    if u.state == "damaged":
        notes.append("damaged")
    if u.id in used:
        notes.append(used[u.id])
    return f"{u.name} ({', '.join(notes)})"


def _unit_boxes(
    view: TeamView, units: Sequence[UnitView], group: str, used: Mapping[str, str]
) -> str:
    """Checkboxes of ``units``, grouped by base (the script shows only the chosen base's)."""
    out = []
    bases = list(dict.fromkeys(u.base for u in units))
    for base in bases:
        found = view.base(base)
        boxes = "".join(
            f"<label><input type='checkbox' name='units' value='{_e(u.id)}'> "
            f"{_e(unit_words(u, used))}</label>"
            for u in units
            if u.base == base
        )
        out.append(
            f"<fieldset class='pick' data-{group}='{_e(base)}'><legend>At "
            f"{_e(found.name if found else base)}</legend>{boxes}</fieldset>"
        )
    return "".join(out) or "<p class='note'>No units.</p>"


def _names(view: TeamView, item: Mapping[str, Any]) -> str:
    """The units of a draft's task force or escort, by name."""
    units = [view.unit(str(u)) for u in item.get("units") or ()]
    ids = [str(u) for u in item.get("units") or ()]
    return ", ".join(u.name if u else i for u, i in zip(units, ids, strict=True))


def builder(view: TeamView, world: World, draft: Mapping[str, Any], csrf: str) -> str:
    """The order builder: the draft's task forces, operations, tonnage and escorts, each
    with a Remove button, and a form for each kind of change."""
    names: dict[Any, str] = {b.id: b.name for b in view.bases}
    names.update({r.id: r.name for r in view.routes})
    units = own_units(view)
    used = in_orders(draft)
    tfs = [t for t in draft.get("task_forces", []) if isinstance(t, dict)]
    ops = [o for o in draft.get("operations", []) if isinstance(o, dict)]
    escorts = [e for e in draft.get("escorts", []) if isinstance(e, dict)]
    tonnage = draft.get("tonnage", {}) if isinstance(draft.get("tonnage"), dict) else {}
    routes = [r for r in view.routes if r.nation == view.nation]
    area_pairs = sorted(((a.id, a.name) for a in world.areas.values()), key=lambda p: p[1])
    parts = [
        "<section id='builder'><h3>Build your orders</h3><p class='note'>Each change "
        "is checked and, when valid, stored for Game Control at once.</p>"
    ]

    rows = "".join(
        f"<tr><td>{_e(t.get('name', ''))}</td><td>{_e(names.get(t.get('base'), t.get('base')))}"
        f"</td><td>{_e(_names(view, t))}</td><td>{_e(t.get('lsp', 0))}"
        f"</td><td>{_e(t.get('stance', 'intervene'))}</td>"
        f"<td>{_remove('tf_remove', 'task_force', str(t.get('id', '')), csrf)}</td></tr>"
        for t in tfs
    )
    parts.append("<h4>Task forces</h4>")
    parts.append(
        "<table id='draft-tfs'><tr><th>Task force</th><th>Base</th><th>Units</th><th>LSP</th>"
        f"<th>Stance</th><th></th></tr>{rows}</table>"
        if rows
        else "<p class='note'>No task force yet.</p>"
    )
    bases = fleet_bases(view)
    at_bases = [u for u in units if u.base in bases]
    parts.append(
        _form(
            "tf_add",
            csrf,
            "<label>Name <input name='name' id='tf-name' maxlength='60' required></label> "
            f"<label>Base <select name='base' id='tf-base'>"
            f"{_options([(b, names.get(b, b)) for b in bases])}</select></label> "
            "<label>LSP <input name='lsp' type='number' min='0' value='0'></label> "
            f"<label>Stance <select name='stance'>{_options(list(STANCE_WORDS.items()))}"
            f"</select></label>{_unit_boxes(view, at_bases, 'base', used)}",
            "Form task force",
        )
        if bases
        else "<p class='note'>None of your units is at a fleet base of your side.</p>"
    )

    rows = "".join(
        f"<tr><td>{_e(KIND_WORDS.get(str(o.get('kind')), o.get('kind')))}</td>"
        f"<td>{_e(world.areas[o['area']].name if o.get('area') in world.areas else o.get('area'))}"
        f"</td><td>{_e(', '.join(map(str, o.get('task_forces', []))))}</td>"
        f"<td>{_e(names.get(o.get('target'), o.get('target') or o.get('route') or ''))}</td>"
        f"<td>{_remove('op_remove', 'operation', str(o.get('id', '')), csrf)}</td></tr>"
        for o in ops
    )
    parts.append("<h4>Operations</h4>")
    parts.append(
        "<table id='draft-ops'><tr><th>Operation</th><th>Sea area</th><th>Task forces</th>"
        f"<th>Target</th><th></th></tr>{rows}</table>"
        if rows
        else "<p class='note'>No operation yet.</p>"
    )
    if tfs:
        ticks = "".join(
            f"<label><input type='checkbox' name='task_forces' value='{_e(t.get('id'))}'> "
            f"{_e(t.get('name', t.get('id')))}</label>"
            for t in tfs
        )
        tf_pairs = [(str(t.get("id")), str(t.get("name", t.get("id")))) for t in tfs]
        others = [b for b in view.bases if b.holder not in {view.nation, *view.allies}]
        parts.append(
            _form(
                "op_add",
                csrf,
                f"<label>Kind <select name='kind' id='op-kind'>"
                f"{_options(list(KIND_WORDS.items()))}</select></label> "
                f"<label>Sea area <select name='area'>{_options(area_pairs)}</select></label>"
                f"<fieldset><legend>Task forces</legend>{ticks}</fieldset>"
                "<fieldset class='invasion'><legend>Invasions</legend>"
                "<label>Place invaded <select name='target'>"
                f"{_options([(b.id, f'{b.name} ({b.sea_area})') for b in others], '-')}"
                "</select></label> <label>Invasion force <select name='invasion_force'>"
                f"{_options(tf_pairs, 'the first ticked')}</select></label> "
                "<label>Manpower <input name='manpower' type='number' min='0' value='0'></label> "
                "<label>Tanks <input name='tanks' type='number' min='0' value='0'></label>"
                "</fieldset><fieldset class='raid'><legend>Surface raids</legend>"
                "<label>Route attacked <select name='raid_route'>"
                f"{_options([(r.id, r.name) for r in view.routes if r.nation != view.nation], '-')}"
                "</select></label></fieldset>",
                "Order operation",
            )
        )
    else:
        parts.append("<p class='note'>Form a task force first to send it on an operation.</p>")

    parts.append("<h4>Merchant tonnage and escorts</h4>")
    if routes:
        fields = "".join(
            f"<tr><td>{_e(r.name)}</td><td>{_e(r.state)}</td><td><input name='t_{_e(r.id)}' "
            f"type='number' min='0' value='{_e(tonnage.get(r.id, ''))}' "
            f"placeholder='{_e('' if r.tonnage is None else r.tonnage)}'></td></tr>"
            for r in routes
        )
        parts.append(
            _form(
                "tonnage",
                csrf,
                "<table id='draft-tonnage'><tr><th>Route</th><th>State</th><th>Tonnage "
                f"(blank: as now)</th></tr>{fields}</table>",
                "Set tonnage",
            )
        )
        rows = "".join(
            f"<tr><td>{_e(names.get(e.get('route'), e.get('route')))}"
            f"</td><td>{_e(_names(view, e))}</td>"
            f"<td>{_remove('escort_remove', 'route', str(e.get('route', '')), csrf)}</td></tr>"
            for e in escorts
        )
        if rows:
            parts.append(
                f"<table id='draft-escorts'><tr><th>Escorted route</th><th>Units</th><th></th>"
                f"</tr>{rows}</table>"
            )
        parts.append(
            _form(
                "escort_add",
                csrf,
                f"<label>Route <select name='route'>{_options([(r.id, r.name) for r in routes])}"
                f"</select></label>{_unit_boxes(view, units, 'at', used)}",
                "Escort route",
            )
        )
    else:
        parts.append("<p class='note'>No merchant routes.</p>")
    parts.append("</section>")
    return "".join(parts)
