"""The selected object in words, beside the chart.

:class:`DetailsPanel` listens to :attr:`ui.mapview.SeaChart.selected` and shows the card
an umpire or a player would read at the table: a base's *In Port* card, a task force's
card, a merchant route's line of the routes chart (Annex B), a sea area's neighbours and
bases. It re-reads the model when the state or the orders change, so it never shows
stale numbers.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from campaign.board import Board
from campaign.forces import fleet_cv
from campaign.orders import Orders

from . import style
from .mapview import (
    PUBLIC,
    find_task_force,
    operation_of,
    route_attackers,
    route_escorts,
    route_status_words,
    task_force_cv,
    type_name,
    units_at,
)
from .session import GameSession

if TYPE_CHECKING:  # a team's view loads when the details are first shown as a team sees them
    from campaign.teamview import TeamView

KIND_NAMES = {
    "fleet_base": "Fleet base",
    "port": "Port",
    "island": "Island",
    "fleet_train": "Fleet train (a mobile fleet base)",
}
STATE_NAMES = {"ready": "ready", "damaged": "damaged", "sunk": "sunk"}


class DetailsPanel(QWidget):
    """Shows one object of the chart: connect :meth:`show_item` to ``SeaChart.selected``."""

    def __init__(self, session: GameSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.browser = QTextBrowser(self)
        self.browser.setOpenLinks(False)
        self.browser.setFont(style.ui_font())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)
        self._item: tuple[str, str] | None = None
        self._team: str | None = None
        session.gameChanged.connect(self.clear)
        session.stateChanged.connect(self.refresh)
        session.ordersChanged.connect(self.refresh)
        self.clear()

    @property
    def item(self) -> tuple[str, str] | None:
        """(kind, id) shown now, or None."""
        return self._item

    def clear(self) -> None:
        self._item = None
        self.browser.setHtml(
            f"<p style='color:{style.MUTED.name()}'>Click a sea area, base, route or task "
            "force on the chart to see it here.</p>"
        )

    @property
    def team(self) -> str | None:
        return self._team

    def set_team(self, nation: str | None) -> None:
        """Show the cards as ``nation``'s team may read them (its team view), or Game
        Control's (``None``: everything)."""
        self._team = nation or None
        self.refresh()

    def show_item(self, kind: str, key: str) -> None:
        """Show an object: kind is "area", "base", "route" or "task_force"."""
        self._item = (kind, key)
        self.refresh()

    def show_page(self, body: str) -> None:
        """Show a page made elsewhere (what happened at a mark of the last turn)."""
        self._item = None
        self.browser.setHtml(_page(body))

    def html(self) -> str:
        """The card's HTML (what the browser shows)."""
        return self.browser.toHtml()

    def text(self) -> str:
        return self.browser.toPlainText()

    def refresh(self, *_args: object) -> None:
        if self._item is None or not self.session.is_open:
            return
        kind, key = self._item
        board = self.session.board()
        orders = self.session.all_orders()
        view = self.session.team_view(self._team) if self._team else None
        try:
            if view is not None:
                body = _team_card(board, view, orders.get(view.nation), kind, key)
            else:
                make = {
                    "base": _base_card,
                    "task_force": _task_force_card,
                    "route": _route_card,
                    "area": _area_card,
                }.get(kind)
                body = make(board, orders, key) if make else ""
        except KeyError:
            body = ""
        if not body:
            body = f"<p>{escape(key)} is no longer on the chart.</p>"
        self.browser.setHtml(_page(body))


def _page(body: str) -> str:
    return (
        f"<div style='color:{style.TEXT.name()}'>{body}</div>"
        "<style>h2{margin:0 0 4px 0} h3{margin:8px 0 2px 0} td{padding:0 8px 0 0}</style>"
    )


def _nation(board: Board, nation: str) -> str:
    name = board.name_of(nation)
    colour = style.nation_colour(board.nations, nation).name()
    return f"<span style='color:{colour}'>■</span> {escape(name)}"


def _table(rows: list[list[str]], head: list[str] | None = None) -> str:
    out = ["<table cellspacing='0' cellpadding='3'>"]
    if head:
        out.append("<tr>" + "".join(f"<th align='left'>{h}</th>" for h in head) + "</tr>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _base_card(board: Board, orders: dict[str, Orders], base: str) -> str:
    """The base's In Port card: holder, units by type with state, LSP, garrisons, air."""
    row = board.bases[base]
    state = board.state
    parts = [
        f"<h2>{escape(str(row['name']))}</h2>",
        f"<p>{KIND_NAMES.get(str(row['kind']), str(row['kind']))}"
        f"{' (island)' if row['island'] else ''} in "
        f"{escape(board.area_name(board.area_of(base)))}<br>"
        f"Held by {_nation(board, board.holder(base))}</p>",
    ]
    if row["kind"] == "fleet_train":
        train = state.fleet_trains[base]
        supported, why = board.fleet_train_support(base)
        parts.append(
            f"<p>Supplied from {escape(board.place_name(train.origin))} by "
            f"'{escape(board.route(train.route).name)}' "
            f"(effective lift {board.route(train.route).effective_lift}) — "
            + ("it supports the fleet this turn" if supported else f"<b>{escape(why)}</b>")
            + "</p>"
        )
    parts += [
        "<h3>In port</h3>",
    ]
    units = [state.units[u] for u in units_at(state, base)]
    if units:
        units.sort(key=lambda u: (u.nation, u.type, u.name))
        parts.append(
            _table(
                [
                    [
                        _nation(board, u.nation),
                        escape(type_name(u.type)),
                        escape(u.name),
                        STATE_NAMES.get(u.state, u.state),
                        str(fleet_cv(u)),
                    ]
                    for u in units
                ],
                ["Nation", "Type", "Unit", "State", "CV"],
            )
        )
    else:
        parts.append("<p>No units.</p>")
    lsp = state.lsp.get(base, {})
    parts.append("<h3>LSP</h3>")
    parts.append(
        _table([[_nation(board, n), str(p)] for n, p in sorted(lsp.items())])
        if lsp
        else "<p>None.</p>"
    )
    garrisons = state.garrisons.get(base, {})
    parts.append("<h3>Garrisons</h3>")
    parts.append(
        _table([[_nation(board, n), str(g)] for n, g in sorted(garrisons.items())])
        if garrisons
        else "<p>None.</p>"
    )
    air = [a for a in state.air.values() if a.base == base]
    parts.append("<h3>Air Points</h3>")
    parts.append(
        _table([[_nation(board, a.nation), escape(a.kind), str(a.points)] for a in air])
        if air
        else "<p>None.</p>"
    )
    forces = [(n, tf) for n, mine in orders.items() for tf in mine.task_forces if tf.base == base]
    if forces:
        parts.append("<h3>Task forces forming here</h3><ul>")
        parts += [f"<li>{escape(tf.name)} ({_nation(board, n)})</li>" for n, tf in forces]
        parts.append("</ul>")
    return "".join(parts)


def _task_force_card(board: Board, orders: dict[str, Orders], key: str) -> str:
    """A task force: units with type, state and CV; LSP; its operation and flag."""
    found = find_task_force(orders, key)
    if found is None:
        return ""
    mine, tf = found
    state = board.state
    parts = [
        f"<h2>{escape(tf.name)}</h2>",
        f"<p>{_nation(board, mine.nation)} · at {escape(board.place_name(tf.base))} "
        f"({escape(board.area_name(board.area_of(tf.base)))})<br>"
        f"Fleet CV <b>{task_force_cv(state, tf)}</b> · LSP {tf.lsp} · "
        f"range {board.task_force_reach(mine.nation, tf.id, orders.values())} areas</p>",
        "<h3>Units</h3>",
    ]
    rows = []
    for u in tf.units:
        unit = state.units.get(u)
        if unit is None:
            rows.append([escape(u), "", "missing", ""])
        else:
            rows.append(
                [escape(unit.name), escape(type_name(unit.type)), unit.state, str(fleet_cv(unit))]
            )
    parts.append(_table(rows, ["Unit", "Type", "State", "CV"]))
    if tf.air:
        parts.append("<h3>Air</h3>")
        parts.append(_table([[escape(board.air_name(a.air)), str(a.points)] for a in tf.air]))
    op_id = operation_of(mine, tf.id)
    parts.append("<h3>Operation</h3>")
    if op_id:
        op = next(o for o in mine.operations if o.id == op_id)
        what = op.kind.replace("_", " ")
        text = f"<p>⚑ <b>{escape(op.id)}</b>: {escape(what)} in {escape(board.area_name(op.area))}"
        if op.target:
            text += f", target {escape(board.place_name(op.target))}"
        if op.invasion_force == tf.id:
            text += " — carries the invasion force"
        if op.route:
            text += f", on route {escape(op.route)}"
        parts.append(text + "</p>")
    else:
        parts.append(f"<p>No operation (no flag); stance: {escape(tf.stance)}.</p>")
    return "".join(parts)


def _route_card(board: Board, orders: dict[str, Orders], route_id: str) -> str:
    """A route's line of the merchant routes chart, with who escorts and attacks it."""
    line = board.route(route_id)
    status = board.route_status(route_id)
    colour = {
        "working": style.ROUTE_WORKING,
        "contested": style.ROUTE_CONTESTED,
        "cut": style.ROUTE_CUT,
    }[status.state].name()
    parts = [
        f"<h2>{line.serial}. {escape(line.name)}</h2>",
        f"<p>{_nation(board, line.nation)}<br>"
        f"{escape(board.place_name(line.origin))} → "
        f"{escape(board.place_name(line.destination))}</p>",
        _table(
            [
                ["Tonnage", str(line.tonnage)],
                ["Length", f"{line.length.label} ({line.moves} moves)"],
                ["Effective lift", str(line.effective_lift)],
                [
                    "State",
                    f"<b style='color:{colour}'>{escape(route_status_words(board, route_id))}</b>",
                ],
            ]
        ),
        "<h3>Path</h3><p>" + " → ".join(escape(board.area_name(a)) for a in line.path) + "</p>",
    ]
    escorts = route_escorts(board, orders, route_id)
    attackers = route_attackers(board, orders, route_id)
    parts.append("<h3>Escorts</h3>")
    parts.append(
        "<ul>" + "".join(f"<li>{escape(e)}</li>" for e in escorts) + "</ul>"
        if escorts
        else "<p>None ordered.</p>"
    )
    parts.append("<h3>Attackers</h3>")
    parts.append(
        "<ul>" + "".join(f"<li>{escape(a)}</li>" for a in attackers) + "</ul>"
        if attackers
        else "<p>None ordered.</p>"
    )
    return "".join(parts)


def _area_card(
    board: Board, orders: dict[str, Orders], area_id: str, viewer: str | None = None
) -> str:
    """A sea area: its neighbours (straits named) and the bases in it (by the names the
    team ``viewer`` knows them by; ``None``: Game Control)."""
    world = board.world
    area = world.areas[area_id]
    parts = [f"<h2>{escape(area.name)}</h2>", "<h3>Neighbours</h3><ul>"]
    for other in world.neighbours(area_id):
        data = world.edge(area_id, other)
        strait = ""
        if data.get("kind") == "strait":
            strait = f" <i>(strait{': ' + escape(data['name']) if data.get('name') else ''})</i>"
        parts.append(f"<li>{escape(board.area_name(other))}{strait}</li>")
    parts.append("</ul><h3>Bases</h3>")
    here = sorted(
        (board.place_name_for(b, viewer), b)
        for b, r in board.bases.items()
        if str(r["sea_area"]) == area_id
    )
    if here:
        parts.append(
            _table(
                [
                    [
                        escape(name),
                        KIND_NAMES.get(str(board.bases[b]["kind"]), ""),
                        _nation(board, board.holder(b)),
                    ]
                    for name, b in here
                ]
            )
        )
    else:
        parts.append("<p>None.</p>")
    contested = [side for side, areas in board.state.contested.items() if area_id in areas]
    if contested:
        parts.append(
            "<p>Merchant routes contested here for: "
            + escape(", ".join(board.name_of(side) for side in contested))
            + "</p>"
        )
    return "".join(parts)


# -- a team's cards: made from its team view (docs/team-views.md) -----------------------------
def _team_card(board: Board, view: TeamView, own: Orders | None, kind: str, key: str) -> str:
    """A card as the team of ``view`` may read it: an In Port card with the units, Air
    Points and garrisons it knows of; its own task forces whole and the others' counters
    as placed on the map; a route without an enemy's tonnage or allocations."""
    mine = {view.nation: own} if own is not None else {}
    if kind == "area":
        return _area_card(board, {}, key, view.nation)
    if kind == "task_force":
        if key.startswith(f"{PUBLIC}:"):
            return _counter_card(board, view, key)
        return _task_force_card(board, mine, key) if key.startswith(f"{view.nation}:") else ""
    if kind == "base":
        return _team_base_card(board, view, mine, key)
    if kind == "route":
        return _team_route_card(board, view, mine, key)
    return ""


def _counter_card(board: Board, view: TeamView, key: str) -> str:
    _, nation, base, _n = key.split(":", 3)
    here = sum(1 for c in view.counters if c.nation == nation and c.base == base)
    where = board.place_name_for(base, view.nation)
    return (
        f"<h2>Task force counter</h2><p>{_nation(board, nation)} · at "
        f"{escape(where)} ({escape(board.area_name(board.area_of(base)))})"
        f"{f' — {here} counters here' if here > 1 else ''}</p>"
        f"<p style='color:{style.MUTED.name()}'>Its units, Fleet CV and name are on "
        f"{escape(view.name_of(nation))}'s Task Force Card: not known to the "
        f"{escape(view.name)} team (002: <i>a TF Counter placed on the Map</i>).</p>"
    )


def _team_base_card(board: Board, view: TeamView, mine: dict[str, Orders], base: str) -> str:
    row = board.bases[base]
    parts = [
        f"<h2>{escape(board.place_name_for(base, view.nation))}</h2>",
        f"<p>{KIND_NAMES.get(str(row['kind']), str(row['kind']))}"
        f"{' (island)' if row['island'] else ''} in "
        f"{escape(board.area_name(board.area_of(base)))}<br>"
        f"Held by {_nation(board, board.holder(base))}</p>",
        "<h3>In port (known to your team)</h3>",
    ]
    units = sorted(view.known_units_at(base), key=lambda u: (u.nation, u.type, u.name))
    if units:
        parts.append(
            _table(
                [
                    [
                        _nation(board, u.nation),
                        escape(type_name(u.type)),
                        escape(u.name),
                        STATE_NAMES.get(u.state, u.state),
                    ]
                    for u in units
                ],
                ["Nation", "Type", "Unit", "State"],
            )
        )
    else:
        parts.append("<p>None known.</p>")
    lsp = view.lsp_at(base)
    parts.append(f"<h3>LSP</h3><p>{f'{lsp} of yours' if lsp else 'None of yours.'}</p>")
    garrisons = view.known_garrisons_at(base)
    parts.append("<h3>Garrisons (known)</h3>")
    parts.append(
        _table([[_nation(board, g.nation), str(g.garrisons)] for g in garrisons])
        if garrisons
        else "<p>None known.</p>"
    )
    air = view.known_air_at(base)
    parts.append("<h3>Air Points (known)</h3>")
    parts.append(
        _table([[_nation(board, a.nation), escape(a.kind), str(a.points)] for a in air])
        if air
        else "<p>None known.</p>"
    )
    forces = [tf for o in mine.values() for tf in o.task_forces if tf.base == base]
    counters = [c for c in view.counters if c.base == base]
    if forces or counters:
        parts.append("<h3>Task forces here</h3><ul>")
        parts += [f"<li>{escape(tf.name)} ({_nation(board, view.nation)})</li>" for tf in forces]
        parts += [f"<li>a counter of {_nation(board, c.nation)}</li>" for c in counters]
        parts.append("</ul>")
    return "".join(parts)


def _team_route_card(board: Board, view: TeamView, mine: dict[str, Orders], route_id: str) -> str:
    route = view.route(route_id)
    if route is None:
        return ""
    status = board.route_status(route_id)
    colour = {
        "working": style.ROUTE_WORKING,
        "contested": style.ROUTE_CONTESTED,
        "cut": style.ROUTE_CUT,
    }[status.state].name()
    unknown = "not known to your team"
    parts = [
        f"<h2>{route.serial}. {escape(route.name)}</h2>",
        f"<p>{_nation(board, route.nation)}<br>"
        f"{escape(board.place_name_for(route.origin, view.nation))} → "
        f"{escape(board.place_name_for(route.destination, view.nation))}</p>",
        _table(
            [
                ["Tonnage", unknown if route.tonnage is None else str(route.tonnage)],
                ["Length", f"{route.length} ({len(route.path) - 1} moves)"],
                [
                    "Effective lift",
                    unknown if route.effective_lift is None else str(route.effective_lift),
                ],
                [
                    "State",
                    f"<b style='color:{colour}'>{escape(route_status_words(board, route_id))}</b>",
                ],
            ]
        ),
        "<h3>Path</h3><p>" + " → ".join(escape(board.area_name(a)) for a in route.path) + "</p>",
    ]
    for title, lines in (
        ("Your escorts", route_escorts(board, mine, route_id)),
        ("Your attackers", route_attackers(board, mine, route_id)),
    ):
        parts.append(f"<h3>{title}</h3>")
        parts.append(
            "<ul>" + "".join(f"<li>{escape(x)}</li>" for x in lines) + "</ul>"
            if lines
            else "<p>None ordered.</p>"
        )
    return "".join(parts)
