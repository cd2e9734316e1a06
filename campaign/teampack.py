"""Team packs: what Game Control hands each team at the start of a turn, printed.

One PDF per team per turn (002 plays on paper as much as on screens):

* a cover with the team, the turn, its seat code and a QR code of the seats page, and the
  game file's chain head (the anchor the team can later check the file against:
  docs/game-file.md);
* its report of the turn just played (the team's view: :func:`campaign.events.visible`);
* a **Task Force Card** for each of its task forces — 002 "Conducting Operations": *A Task
  Force Card is created, onto which is stuck the ship counters of the force. The total
  Fleet CV is written on the card* — and a blank one to fill in;
* a **Forces in Port Card** for each of its bases with units there — *These units are
  stuck on a 'Forces in Port Card' with the name of the port written on it*;
* its merchant route chart (Annex B's columns) and the other routes it may raid;
* the order sheet of the turn's ten steps for paper play, its units and routes printed.

:func:`team_pack` gathers what one team may know, and nothing else: its own units, bases,
routes, cards and orders, and the events it may see. No other nation's units in port,
route tonnage or orders are read into a pack. :func:`render_pack` prints it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .board import Board
from .engine import Campaign
from .events import Event
from .forces import unit_cv
from .orders import Orders
from .printing import SMALL_PT, Sheet
from .production import production_due, with_production
from .reports import UNIT_TYPE_NAMES
from .seats import join_base, join_url, seat_codes
from .sequence import SEQUENCE
from .state import GameState, Unit

STATE_WORDS = {"ready": "Ready", "damaged": "Damaged", "sunk": "Sunk"}
KIND_WORDS = {"fleet_base": "Fleet base", "port": "Port", "island": "Island"}
OPERATION_WORDS = {
    "sea_control": "Sea control",
    "minor_invasion": "Minor invasion",
    "major_invasion": "Major invasion",
    "surface_raid": "Surface raid",
}


class PackError(ValueError):
    """A pack that cannot be made (a turn not yet begun), said in words."""


# -- what a pack holds -------------------------------------------------------------------------
@dataclass(frozen=True)
class UnitLine:
    """A unit as a card shows it: its three combat values now (halved when damaged, with
    the Air Point it carries: 002 "Unit Characteristics" and "Damage")."""

    id: str
    name: str
    type: str
    base: str
    state: str
    air_aboard: bool
    fleet: int
    attack: int
    defence: int


@dataclass(frozen=True)
class TaskForceCard:
    id: str
    name: str
    base: str
    turn: int
    units: tuple[UnitLine, ...]
    lsp: int
    operation: str
    stance: str

    @property
    def fleet_cv(self) -> int:
        return sum(u.fleet for u in self.units)


@dataclass(frozen=True)
class PortCard:
    base: str
    name: str
    sea_area: str
    kind: str
    units: tuple[UnitLine, ...]
    lsp: int
    air: tuple[str, ...]
    garrisons: int


@dataclass(frozen=True)
class OwnRoute:
    """A line of the team's merchant route chart (Annex B), with what it may know of who
    escorted and attacked the route in the turn reported."""

    id: str
    serial: int
    name: str
    ends: str
    tonnage: int
    length: str
    effective_lift: int
    state: str
    escorts: tuple[str, ...]
    attacks: tuple[str, ...]


@dataclass(frozen=True)
class OtherRoute:
    """Another nation's route, as the map shows it (no tonnage: that is its owner's)."""

    id: str
    serial: int
    name: str
    nation: str
    ends: str
    length: str
    sea_areas: tuple[str, ...]
    raided_by_you: tuple[str, ...]


@dataclass(frozen=True)
class CardInHand:
    id: str
    title: str
    value: int
    type: str


@dataclass
class TeamPack:
    """Everything one team's pack prints, and only what that team may know."""

    game: str
    nation: str
    team: str
    side: str
    turn: int
    period: str
    report_turn: int | None
    report: list[tuple[str, list[str]]]
    chain_head: str
    rolls: int
    seat_code: str
    join_url: str
    flags: tuple[int, int]
    unallocated: int
    task_forces: list[TaskForceCard]
    task_forces_turn: int | None
    ports: list[PortCard]
    routes: list[OwnRoute]
    other_routes: list[OtherRoute]
    cards: list[CardInHand]
    arriving: list[str]
    order_units: list[UnitLine]
    lsp: dict[str, int] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        data["task_forces"] = [{**asdict(t), "fleet_cv": t.fleet_cv} for t in self.task_forces]
        return data


# -- gathering ----------------------------------------------------------------------------------
def pack_turns(c: Campaign) -> list[int]:
    """The turns a pack can be made for: every turn that has begun."""
    return [t for t in c.game.turns() if t <= c.state.turn]


def _state_at(c: Campaign, turn: int) -> GameState:
    """The position at the start of ``turn`` (the current state before it is resolved)."""
    now = c.state
    if turn == now.turn and now.step == 0:
        return now
    try:
        return c.game.turn_start(turn)
    except KeyError:
        begun = pack_turns(c)
        raise PackError(
            f"turn {turn} has not begun; packs can be made for turns {begun[0]} to {begun[-1]}"
        ) from None


def _unit_line(board: Board, unit: Unit) -> UnitLine:
    return UnitLine(
        unit.id,
        unit.name,
        UNIT_TYPE_NAMES.get(unit.type, unit.type),
        board.place_name(unit.base),
        STATE_WORDS.get(unit.state, unit.state),
        unit.carries_air and unit.state == "ready",
        unit_cv(unit, "fleet"),
        unit_cv(unit, "attack"),
        unit_cv(unit, "defence"),
    )


def _report(events: Iterable[Event]) -> list[tuple[str, list[str]]]:
    by_step: dict[int, list[str]] = defaultdict(list)
    for e in events:
        by_step[e.step].append(e.text)
    out = [
        (f"Step {s.number} - {s.name}", by_step.get(s.number, ["(nothing to report)"]))
        for s in SEQUENCE
    ]
    return out


def team_pack(c: Campaign, nation: str, turn: int | None = None, join: str = "") -> TeamPack:
    """Gather the pack of ``nation`` for ``turn`` (default: the current turn): the
    position at the turn's start, the report of the turn before, the orders it gave.

    This is the one place a pack's content comes from; every line is the team's own or
    an event :func:`campaign.events.visible` lets it see."""
    scenario = c.scenario
    nations = scenario.by_id("nations")
    if nation not in nations:
        raise PackError(f"there is no nation '{nation}'; valid: {', '.join(nations)}")
    turn = c.state.turn if turn is None else turn
    state = _state_at(c, turn)
    board = Board(scenario, state)
    first = scenario.meta.first_turn
    report_turn = turn - 1 if turn > first else None

    report: list[tuple[str, list[str]]] = []
    if report_turn is not None:
        report = _report(c.events(nation, report_turn))
    since = [e.text for e in c.events(nation, turn) if e.step == 0]
    if since:
        report.append(("Since then", since))

    mine: dict[int, Orders | None] = {
        t: c.orders(t).get(nation) for t in (turn, report_turn) if t is not None
    }
    now_orders = mine.get(turn)
    last_orders = mine.get(report_turn) if report_turn is not None else None
    tf_source, tf_turn = (
        (now_orders, turn)
        if now_orders and now_orders.task_forces
        else (last_orders, report_turn)
        if last_orders and last_orders.task_forces
        else (None, None)
    )
    task_forces = (
        _task_force_cards(board, tf_source, tf_turn) if tf_source and tf_turn is not None else []
    )
    at_sea = {u.id for tf in task_forces for u in tf.units} if tf_source is now_orders else set()

    codes = seat_codes(c.game, [nation])
    return TeamPack(
        game=c.game.name,
        nation=nation,
        team=str(nations[nation]["name"]),
        side=str(nations[nation]["side"]),
        turn=turn,
        period=scenario.meta.period_of(turn),
        report_turn=report_turn,
        report=report,
        chain_head=c.chain_head(),
        rolls=len(c.dice_log()),
        seat_code=codes[nation],
        join_url=join_url(join or join_base(), codes[nation]),
        flags=board.flags(nation, turn),
        unallocated=state.tonnage.get(nation, 0),
        task_forces=task_forces,
        task_forces_turn=tf_turn,
        ports=_port_cards(board, nation, at_sea),
        routes=_own_routes(c, board, nation, report_turn, last_orders),
        other_routes=_other_routes(board, nation, last_orders),
        cards=[
            CardInHand(k, str(r["title"]), int(r["value"]), str(r["type"]))
            for k, r in board.cards.items()
            if r["nation"] == nation and k not in state.cards_played
        ],
        arriving=[
            f"{row['name']} ({UNIT_TYPE_NAMES.get(row['type'], row['type'])}) joins at "
            f"{board.place_name(base)}"
            if base
            else f"{row['name']} waits in the yard (no fleet base held)"
            for row, base in production_due(board)
            if row["nation"] == nation
        ]
        if state.step < 2
        else [],
        order_units=_order_units(board, nation),
        lsp={board.place_name(b): p for b, p in sorted(state.lsp_of(nation).items())},
    )


def _task_force_cards(board: Board, orders: Orders, turn: int) -> list[TaskForceCard]:
    ops: dict[str, list[str]] = defaultdict(list)
    for op in orders.operations:
        words = f"{OPERATION_WORDS.get(op.kind, op.kind)} in {board.area_name(op.area)}"
        if op.target:
            words += f" ({board.place_name(op.target)})"
        for tf_id in op.task_forces:
            ops[tf_id].append(words)
    cards = []
    for tf in orders.task_forces:
        units = tuple(
            _unit_line(board, board.state.units[u]) for u in tf.units if u in board.state.units
        )
        cards.append(
            TaskForceCard(
                tf.id,
                tf.name,
                board.place_name(tf.base),
                turn,
                units,
                tf.lsp,
                "; ".join(ops.get(tf.id, [])) or "none (no flag)",
                "intervenes in range" if tf.stance == "intervene" else "stays in port",
            )
        )
    return cards


def _port_cards(board: Board, nation: str, at_sea: set[str]) -> list[PortCard]:
    """A Forces in Port card per place where the team has units not on a task force card
    of this turn; with its LSP, land-based air and garrisons there."""
    state = board.state
    by_base: dict[str, list[Unit]] = defaultdict(list)
    for u in state.units_of(nation):
        if u.state != "sunk" and u.id not in at_sea:
            by_base[u.base].append(u)
    order = {t: i for i, t in enumerate(UNIT_TYPE_NAMES)}
    cards = []
    for base in sorted(by_base, key=board.place_name):
        row = board.bases.get(base, {})
        units = sorted(by_base[base], key=lambda u: (order.get(u.type, 99), u.name))
        air = tuple(
            f"{a.points} {a.kind} Air Point{'s' if a.points != 1 else ''}"
            for a in state.air.values()
            if a.nation == nation and a.base == base
        )
        cards.append(
            PortCard(
                base,
                board.place_name(base),
                board.area_name(str(row.get("sea_area", ""))),
                KIND_WORDS.get(str(row.get("kind", "")), ""),
                tuple(_unit_line(board, u) for u in units),
                state.lsp_at(base, nation),
                air,
                state.garrisons.get(base, {}).get(nation, 0),
            )
        )
    return cards


def _ends(board: Board, route: str, nation: str) -> str:
    """The route's ends as ``nation`` knows them."""
    row = board.route_rows[route]
    origin, destination = str(row["origin"]), str(row["destination"])
    return f"{board.place_name_for(origin, nation)} -> {board.place_name_for(destination, nation)}"


def _force_words(board: Board, units: Sequence[str], air: Sequence[tuple[str, int]]) -> str:
    names = [board.unit_name(u) for u in units]
    names += [f"{p} Air Point(s) of {board.air_name(a)}" for a, p in air]
    return ", ".join(names)


def _own_routes(
    c: Campaign, board: Board, nation: str, report_turn: int | None, orders: Orders | None
) -> list[OwnRoute]:
    attacks: dict[str, list[str]] = defaultdict(list)
    if report_turn is not None:
        for e in c.events(nation, report_turn):
            if e.kind not in ("merchant_combat", "merchant_no_combat"):
                continue
            d = e.data
            where = board.area_name(str(d.get("area", "")))
            what = f"{where}: raiders CV {d.get('attack_cv')} v escorts CV {d.get('escort_cv')}"
            if e.kind == "merchant_combat":
                what += f", {d.get('colour', '')}, {d.get('tonnage_lost', 0)} tonnage lost"
            else:
                what += ", no combat (below 1:3)"
            attacks[str(d.get("route", ""))].append(what)
    mine = {nation: orders} if orders else {}
    out = []
    for r in board.route_ids():
        if board.route_nation(r) != nation:
            continue
        line = board.route(r)
        status = board.route_status(r)
        escorts = tuple(_force_words(board, f.units, f.air) for f in board.escorts(r, mine))
        out.append(
            OwnRoute(
                r,
                line.serial,
                line.name,
                _ends(board, r, nation),
                line.tonnage,
                line.length.label,
                line.effective_lift,
                "working" if status.working else f"{status.state}: {status.why}",
                tuple(e for e in escorts if e),
                tuple(attacks.get(r, [])),
            )
        )
    return out


def _other_routes(board: Board, nation: str, orders: Orders | None) -> list[OtherRoute]:
    mine = {nation: orders} if orders else {}
    out = []
    for r in board.route_ids():
        owner = board.route_nation(r)
        if owner == nation:
            continue
        line = board.route(r)
        raids = tuple(
            f"{_force_words(board, f.units, f.air)} in {board.area_name(f.area)}"
            for f in board.attackers(r, mine)
        )
        out.append(
            OtherRoute(
                r,
                line.serial,
                board.route_name_for(r, nation),
                board.name_of(owner),
                _ends(board, r, nation),
                line.length.label,
                tuple(board.area_name(a) for a in line.path),
                raids,
            )
        )
    return out


def _order_units(board: Board, nation: str) -> list[UnitLine]:
    """The team's units afloat for this turn's orders, ships joining in step 2 included."""
    projected = Board(board.scenario, with_production(board.scenario, board.state))
    order = {t: i for i, t in enumerate(UNIT_TYPE_NAMES)}
    units = sorted(
        (u for u in projected.state.units_of(nation) if u.state != "sunk"),
        key=lambda u: (projected.place_name(u.base), order.get(u.type, 99), u.name),
    )
    return [_unit_line(projected, u) for u in units]


# -- printing ------------------------------------------------------------------------------------
def render_pack(pack: TeamPack, paper: str = "a4") -> Sheet:
    """The pack as a printable document (:meth:`Sheet.save` writes it)."""
    doc = Sheet(
        paper,
        f"Sea Control - {pack.team} - turn {pack.turn} ({pack.period})",
        f"{pack.game} - chain head {pack.chain_head[:16]}...",
    )
    _cover(doc, pack)
    _report_pages(doc, pack)
    _task_force_pages(doc, pack)
    _port_pages(doc, pack)
    _route_pages(doc, pack)
    _order_sheet(doc, pack)
    return doc


def _cover(doc: Sheet, pack: TeamPack) -> None:
    doc.add_page()
    doc.title_line(pack.team, 26)
    doc.title_line(f"Team pack for turn {pack.turn} - {pack.period}", 16)
    doc.para(f"Game: {pack.game}.  Side: {pack.side.capitalize()}.")
    doc.ln(4)
    top = doc.get_y()
    qr_size = 52.0
    doc.qr(pack.join_url, doc.l_margin, top, qr_size)
    x = doc.l_margin + qr_size + 6
    width = doc.content_width - qr_size - 6
    doc.set_xy(x, top + 4)
    doc.set_font("Helvetica", "B", 12)
    doc.cell(width, 6, "Your seat code", new_x="LEFT", new_y="NEXT")
    doc.set_font("Courier", "B", 24)
    doc.cell(width, 12, pack.seat_code, new_x="LEFT", new_y="NEXT")
    doc.set_font("Helvetica", size=10)
    doc.multi_cell(
        width,
        5,
        "Scan the square with a phone or open this address on a device on Game Control's "
        f"network, then type the seat code:\n{pack.join_url}\n"
        "The code opens your team's seat only. Keep it to your team.",
        new_x="LEFT",
        new_y="NEXT",
    )
    doc.set_y(max(doc.get_y(), top + qr_size) + 6)
    doc.heading("Anchor for the game file")
    doc.para(
        f"When this pack was printed the game's log held {pack.rolls} rolls and the game "
        "file's chain ended in this head. Keep it: Game Control's file must still pass "
        "through it later ('seacontrol-cli validate GAME --anchor HEAD'); a file cut short "
        "or rewritten from an earlier point does not."
    )
    doc.mono(pack.chain_head)
    doc.heading("In this pack")
    parts = [
        f"Report of turn {pack.report_turn}" if pack.report_turn else "The game begins",
        f"Task Force Cards ({len(pack.task_forces)}, and a blank one)",
        f"Forces in Port Cards ({len(pack.ports)})",
        "Merchant route chart",
        f"Order sheet for turn {pack.turn}",
    ]
    for p in parts:
        doc.bullet(p)


def _report_pages(doc: Sheet, pack: TeamPack) -> None:
    doc.add_page()
    if pack.report_turn is None:
        doc.title_line("The game begins")
        doc.para("No turn has been played yet.")
    else:
        doc.title_line(f"Report of turn {pack.report_turn}")
        doc.para(f"What {pack.team} knows of the turn, step by step.", SMALL_PT + 1)
    for heading, lines in pack.report:
        doc.heading(heading, 11)
        for text in lines:
            doc.bullet(text)


def _unit_rows(units: Sequence[UnitLine]) -> list[list[Any]]:
    return [
        [
            u.name + (" (+ Air Point)" if u.air_aboard else ""),
            u.type,
            u.state,
            u.fleet,
            u.attack,
            u.defence,
        ]
        for u in units
    ]


UNIT_HEAD = ("Unit", "Type", "State", "Fleet CV", "Attack CV", "Defence CV")
UNIT_WIDTHS = (36, 22, 12, 10, 10, 10)
UNIT_ALIGN = ("L", "L", "L", "R", "R", "R")


def _card_frame_start(doc: Sheet, rows: int) -> float:
    doc.keep(30 + rows * 6.5)
    doc.ln(2)
    return float(doc.get_y())


def _card_frame_end(doc: Sheet, top: float) -> None:
    bottom = doc.get_y() + 1
    if bottom > top:
        doc.set_line_width(0.6)
        doc.rect(doc.l_margin - 2, top - 2, doc.content_width + 4, bottom - top + 2)
        doc.set_line_width(0.2)
    doc.ln(5)


def _task_force_pages(doc: Sheet, pack: TeamPack) -> None:
    doc.add_page()
    doc.title_line("Task Force Cards")
    if pack.task_forces and pack.task_forces_turn == pack.turn:
        doc.para(f"The task forces ordered for turn {pack.turn}, with their units as they are.")
    elif pack.task_forces:
        doc.para(
            f"The task forces of turn {pack.task_forces_turn}, with their units as they are "
            f"now (damage and losses included). Form turn {pack.turn}'s on the blank card."
        )
    else:
        doc.para("No task forces yet: form them on the blank card (002 step 5).")
    for tf in pack.task_forces:
        top = _card_frame_start(doc, len(tf.units))
        doc.set_font("Helvetica", "B", 13)
        doc.cell(0, 7, f"TASK FORCE CARD - {tf.name}", new_x="LMARGIN", new_y="NEXT")
        doc.para(
            f"Base: {tf.base}.  Turn {tf.turn}.  LSP: {tf.lsp}.  Operation: {tf.operation}.  "
            f"Without an operation it {tf.stance}."
        )
        doc.ln(1)
        doc.grid(UNIT_HEAD, _unit_rows(tf.units), UNIT_WIDTHS, UNIT_ALIGN)
        doc.set_font("Helvetica", "B", 12)
        doc.cell(0, 7, f"Total Fleet CV: {tf.fleet_cv}", new_x="LMARGIN", new_y="NEXT")
        doc.set_font("Helvetica", size=10)
        _card_frame_end(doc, top)
    _blank_task_force(doc, pack)


def _blank_task_force(doc: Sheet, pack: TeamPack) -> None:
    top = _card_frame_start(doc, 6)
    doc.set_font("Helvetica", "B", 13)
    doc.cell(0, 7, "TASK FORCE CARD - (blank)", new_x="LMARGIN", new_y="NEXT")
    y = doc.get_y() + 1
    w = doc.content_width
    doc.box(doc.l_margin, y, w * 0.5, 10, "Name")
    doc.box(doc.l_margin + w * 0.5, y, w * 0.3, 10, "Base")
    doc.box(doc.l_margin + w * 0.8, y, w * 0.2, 10, "LSP")
    doc.set_y(y + 12)
    rows = [["", "", "", "", "", ""] for _ in range(6)]
    doc.grid(UNIT_HEAD, rows, UNIT_WIDTHS, UNIT_ALIGN, min_height=7)
    y = doc.get_y()
    doc.box(doc.l_margin, y, w * 0.6, 10, "Operation (kind, sea area, target)")
    doc.box(doc.l_margin + w * 0.6, y, w * 0.4, 10, "Total Fleet CV")
    doc.set_y(y + 11)
    _card_frame_end(doc, top)


def _port_pages(doc: Sheet, pack: TeamPack) -> None:
    doc.add_page()
    doc.title_line("Forces in Port Cards")
    doc.para(
        "Units left out of task forces are In Port (002). Repairs need a unit on the Port "
        "Card of a fleet base."
    )
    if not pack.ports:
        doc.para("No units in port.")
    for port in pack.ports:
        top = _card_frame_start(doc, len(port.units))
        doc.set_font("Helvetica", "B", 13)
        doc.cell(0, 7, f"FORCES IN PORT - {port.name}", new_x="LMARGIN", new_y="NEXT")
        extra = [f"{port.kind} in the {port.sea_area}", f"LSP: {port.lsp}"]
        if port.air:
            extra.append("Air: " + ", ".join(port.air))
        if port.garrisons:
            extra.append(f"Garrisons: {port.garrisons}")
        doc.para(".  ".join(extra) + ".")
        doc.ln(1)
        doc.grid(UNIT_HEAD, _unit_rows(port.units), UNIT_WIDTHS, UNIT_ALIGN)
        _card_frame_end(doc, top)


def _route_pages(doc: Sheet, pack: TeamPack) -> None:
    doc.add_page()
    doc.title_line("Merchant route chart")
    last = f"; escorts and attacks in turn {pack.report_turn}" if pack.report_turn else ""
    doc.para(
        f"{pack.team}'s routes (Annex B): tonnage points now; effective lift after the "
        f"route's length (Short x2, Med x1, Long x1/2){last}. Unallocated tonnage: "
        f"{pack.unallocated} points."
    )
    rows = [
        [
            r.serial,
            f"{r.name}\n{r.ends}",
            r.tonnage,
            r.length,
            r.effective_lift,
            r.state,
            "\n".join(r.escorts) or "-",
            "\n".join(r.attacks) or "-",
        ]
        for r in pack.routes
    ]
    doc.grid(
        ("#", "Route", "Tonnage", "Length", "Lift", "State", "Escorts", "Attacked"),
        rows or [["-", "No merchant routes", "", "", "", "", "", ""]],
        (5, 33, 14, 12, 8, 16, 24, 28),
        ("R", "L", "R", "L", "R", "L", "L", "L"),
    )
    doc.heading("Other nations' routes")
    doc.para("Their owners' tonnage is not shown. Raiders choose a sea area of the route.")
    rows = [
        [
            r.serial,
            f"{r.name}\n{r.ends}",
            r.nation,
            r.length,
            ", ".join(r.sea_areas),
            "\n".join(r.raided_by_you) or "-",
        ]
        for r in pack.other_routes
    ]
    doc.grid(
        ("#", "Route", "Nation", "Length", "Sea areas", "Your raiders"),
        rows or [["-", "None", "", "", "", ""]],
        (5, 34, 20, 12, 48, 26),
        ("R", "L", "L", "L", "L", "L"),
    )


def _order_sheet(doc: Sheet, pack: TeamPack) -> None:
    doc.add_page()
    doc.title_line(f"Order sheet - turn {pack.turn} ({pack.period})")
    naval, military = pack.flags
    doc.para(
        f"{pack.team}. Naval Operations Flags: {naval}. Military Operations Flags: "
        f"{military}. Advantage Cards in hand: {len(pack.cards)}. Unallocated tonnage: "
        f"{pack.unallocated}. LSP: "
        + (", ".join(f"{b} {p}" for b, p in pack.lsp.items()) or "none")
        + "."
    )
    doc.para("Hand this sheet to Game Control. Write clearly; tick boxes with a cross.", SMALL_PT)
    blank = ""
    doc.heading("Step 1 - Move supplies (LSP or cargo on a route; 2 tonnage points per LSP)")
    doc.grid(
        ("#", "Route", "Lift", "LSP to ship", "Cargo (kind)", "Cargo points"),
        [
            [r.serial, f"{r.name} ({r.ends})", r.effective_lift, blank, blank, blank]
            for r in pack.routes
        ]
        or [["-", "No routes", "", "", "", ""]],
        (6, 60, 9, 15, 22, 15),
        ("R", "L", "R", "L", "L", "L"),
        min_height=7,
    )
    doc.heading("Step 2 - New production (no orders)")
    for line in pack.arriving or ["No new ships this turn."]:
        doc.bullet(line)
    doc.heading("Steps 3 and 5 - Transfers and allocation of units")
    doc.para(
        "For each unit write ONE: a base to transfer to (step 3; it then does nothing else), "
        "or a route to escort, a task force, or a route and sea area to raid (step 5). "
        "Left blank: In Port.",
        SMALL_PT + 0.5,
    )
    doc.grid(
        (
            "Unit",
            "Type",
            "Base",
            "State",
            "3: transfer to",
            "5: escort route",
            "5: task force",
            "5: raid route / area",
        ),
        [[u.name, u.type, u.base, u.state, blank, blank, blank, blank] for u in pack.order_units]
        or [["No units", "", "", "", "", "", "", ""]],
        (30, 20, 18, 12, 18, 16, 16, 22),
        min_height=7,
    )
    doc.heading("Step 4 - Merchant tonnage (new totals per route)")
    doc.grid(
        ("#", "Route", "Tonnage now", "New tonnage"),
        [[r.serial, f"{r.name} ({r.ends})", r.tonnage, blank] for r in pack.routes]
        or [["-", "No routes", "", ""]],
        (6, 80, 20, 20),
        ("R", "L", "R", "L"),
        min_height=7,
    )
    doc.para("New routes (tonnage diverted to them):", SMALL_PT + 0.5, "B")
    doc.grid(
        ("Name", "From", "To", "Via sea areas", "Tonnage"),
        [[blank] * 5 for _ in range(2)],
        (30, 24, 24, 30, 14),
        min_height=8,
    )
    doc.heading("Step 5 - Task forces (the units above marked for each)")
    doc.grid(
        ("Task force name", "Base", "LSP", "Without an operation: intervene / stay"),
        [[blank] * 4 for _ in range(4)],
        (40, 30, 12, 40),
        min_height=8,
    )
    doc.heading(f"Step 6 - Operations Flags (naval {naval}, military {military})")
    doc.para(
        "Kind: sea control, minor invasion, major invasion (also a Military flag), surface "
        "raid (name the route).",
        SMALL_PT + 0.5,
    )
    doc.grid(
        (
            "Kind",
            "Sea area",
            "Task forces",
            "Target / route",
            "Invasion force",
            "Manpower",
            "Tanks",
        ),
        [[blank] * 7 for _ in range(max(2, naval))],
        (20, 20, 26, 22, 20, 12, 10),
        min_height=8,
    )
    doc.heading("Step 7 - Advantage Cards")
    doc.para(
        "Use: extra flag, +1 range for a task force, die bonus (the card's value), column "
        "shift, or other (write what Game Control is asked).",
        SMALL_PT + 0.5,
    )
    doc.grid(
        (
            "Card",
            "Value",
            "Play? (X)",
            "Use",
            "For (task force, route or ally)",
            "Other: what is asked",
        ),
        [[f"{k.title}", k.value, blank, blank, blank, blank] for k in pack.cards]
        or [["No cards in hand", "", "", "", "", ""]],
        (36, 9, 11, 18, 24, 30),
        ("L", "R", "L", "L", "L", "L"),
        min_height=7,
    )
    doc.heading("Steps 8 to 10 - Naval operations, merchant warfare, repairs")
    doc.para(
        "Game Control resolves them: nothing to write. Damaged units repair only on the "
        "In Port card of a fleet base (one a base a turn).",
    )
    doc.ln(6)
    doc.keep(14)
    y = doc.get_y()
    w = doc.content_width
    doc.box(doc.l_margin, y, w * 0.5, 12, "Signed for the team")
    doc.box(doc.l_margin + w * 0.5, y, w * 0.5, 12, "Received by Game Control (time)")
    doc.set_y(y + 14)


def file_prefix(name: str) -> str:
    """A game's name as the start of a file name (letters, digits, - and _)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name).strip("_")
    return safe or "game"


def write_packs(
    c: Campaign,
    folder: str | Path,
    nations: Sequence[str],
    turn: int | None = None,
    paper: str = "a4",
    join: str = "",
    prefix: str = "",
    progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Write one pack per team into ``folder`` as ``PREFIX-turnT-NATION.pdf`` (prefix:
    the game file's name); ``progress(done, total)`` after each."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    join = join or join_base()
    prefix = file_prefix(prefix or c.game.path.stem)
    written = []
    for i, nation in enumerate(nations):
        pack = team_pack(c, nation, turn, join)
        path = folder / f"{prefix}-turn{pack.turn}-{nation}.pdf"
        written.append(render_pack(pack, paper).save(path))
        if progress is not None:
            progress(i + 1, len(nations))
    return written
