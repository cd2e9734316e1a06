"""Hand-off sheets: what the naval game tells the other Control tables after a turn.

*The Last War* is one megagame of several games; the naval game feeds two of them:

* the **land game** — 002 "Amphibious Operations": *Major Invasion – delivering troops
  into the Land Combat Map*, which *requires both a Naval flag and a Military flag*. Its
  sheet lists every major landing (place, manpower and tank points ashore, the invasion
  force's supporting CV) and every major invasion turned back, and each nation's Military
  Operations Flags for the turn and those its invasions used;
* the **economic game** — 002 "Transportation and Supply": *Transfer 1 raw material, oil
  or food point (see economic rules)*. Its sheet lists the cargo each nation carried
  (kind, points, route, destination), the LSP shipped, the tonnage each nation lost to
  merchant warfare, and each nation's tonnage points at the end of the turn.

Both read the event log (Game Control's view: everything) and are written as CSV (one row
a line, safe to open in a spreadsheet: a cell that would start a formula is quoted) and
as PDF, per table per turn.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .board import Board
from .engine import Campaign
from .state import GameState

if TYPE_CHECKING:
    from .printing import Sheet

TABLES = ("land", "economic")
TABLE_NAMES = {"land": "land game", "economic": "economic game"}

LAND_HEADER: tuple[str, ...] = (
    "turn",
    "what",
    "nation",
    "place",
    "sea_area",
    "manpower",
    "tanks",
    "naval_support_cv",
    "military_flags",
    "military_flags_used",
    "operation",
    "note",
)
ECONOMIC_HEADER: tuple[str, ...] = (
    "turn",
    "what",
    "nation",
    "kind",
    "points",
    "route",
    "origin",
    "destination",
    "note",
)
#: a spreadsheet reads a cell starting with one of these as a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class HandoffError(ValueError):
    """A hand-off sheet that cannot be made (a turn not played), said in words."""


@dataclass
class HandoffSheet:
    table: str
    turn: int
    period: str
    game: str
    header: tuple[str, ...]
    rows: list[list[Any]] = field(default_factory=list)

    @property
    def table_name(self) -> str:
        return TABLE_NAMES[self.table]

    def to_data(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "turn": self.turn,
            "period": self.period,
            "rows": [dict(zip(self.header, r, strict=True)) for r in self.rows],
        }


def played_turn(c: Campaign, turn: int | None) -> int:
    """``turn``, or the last turn resolved (as the report's default); refused if not begun."""
    state = c.state
    first = c.scenario.meta.first_turn
    if turn is None:
        return state.turn if state.step else max(state.turn - 1, first)
    if not first <= turn <= state.turn:
        raise HandoffError(f"turn {turn} has not been played; turns {first} to {state.turn} have")
    return turn


def handoff_sheet(c: Campaign, table: str, turn: int | None = None) -> HandoffSheet:
    """The hand-off sheet of ``table`` ("land" or "economic") for ``turn``."""
    if table not in TABLES:
        raise HandoffError(f"'{table}' is not a Control table; valid: {', '.join(TABLES)}")
    turn = played_turn(c, turn)
    period = c.scenario.meta.period_of(turn)
    if table == "land":
        return HandoffSheet(table, turn, period, c.game.name, LAND_HEADER, _land_rows(c, turn))
    return HandoffSheet(table, turn, period, c.game.name, ECONOMIC_HEADER, _economic_rows(c, turn))


def _start(c: Campaign, turn: int) -> GameState:
    try:
        return c.game.turn_start(turn)
    except KeyError:
        return c.state


def _end(c: Campaign, turn: int) -> GameState:
    """The state once ``turn`` is over (the next turn's start), or as it is now."""
    try:
        return c.game.turn_start(turn + 1)
    except KeyError:
        return c.state


def _land_rows(c: Campaign, turn: int) -> list[list[Any]]:
    board = Board(c.scenario, _start(c, turn))
    events = c.events(None, turn)
    orders = c.orders(turn)
    rows: list[list[Any]] = []
    used: Counter[str] = Counter()
    majors: dict[str, str] = {}
    for e in events:
        if e.kind == "flag_placed" and e.data.get("operation_kind") == "major_invasion":
            used[e.nation] += 1
            majors[str(e.data.get("operation"))] = e.nation
    for e in events:
        d = e.data
        if e.kind == "major_landing":
            rows.append(
                [
                    turn,
                    "major landing",
                    board.name_of(e.nation),
                    board.place_name(str(d.get("place", ""))),
                    board.area_name(str(d.get("area", ""))),
                    d.get("manpower", 0),
                    d.get("tanks", 0),
                    d.get("support_cv", 0),
                    "",
                    "",
                    d.get("operation", ""),
                    "" if d.get("support_cv") else "no naval support (the invasion force fought)",
                ]
            )
        elif e.kind == "operation_failed" and d.get("operation") in majors:
            op = next(
                (
                    o
                    for o in getattr(orders.get(e.nation), "operations", ())
                    if o.id == d.get("operation")
                ),
                None,
            )
            rows.append(
                [
                    turn,
                    "major invasion turned back",
                    board.name_of(e.nation),
                    board.place_name(op.target) if op else "",
                    board.area_name(str(d.get("area", ""))),
                    op.manpower if op else "",
                    op.tanks if op else "",
                    0,
                    "",
                    "",
                    d.get("operation", ""),
                    "the troops stay aboard: the naval battle was lost",
                ]
            )
    for nation in board.nations:
        _naval, military = board.flags(nation, turn)
        if military or used[nation]:
            rows.append(
                [
                    turn,
                    "military flags",
                    board.name_of(nation),
                    "",
                    "",
                    "",
                    "",
                    "",
                    military,
                    used[nation],
                    "",
                    f"{max(military - used[nation], 0)} left for the land game",
                ]
            )
    return rows


def _economic_rows(c: Campaign, turn: int) -> list[list[Any]]:
    start = _start(c, turn)
    board = Board(c.scenario, start)
    end_board = Board(c.scenario, _end(c, turn))
    rows: list[list[Any]] = []
    lost: Counter[str] = Counter()

    def route_ends(route: str) -> tuple[str, str, str]:
        rows_ = end_board.route_rows
        if route not in rows_:
            return route, "", ""
        r = rows_[route]
        return (
            str(r["name"]),
            end_board.place_name(str(r["origin"])),
            end_board.place_name(str(r["destination"])),
        )

    for e in c.events(None, turn):
        d = e.data
        if e.kind == "cargo_moved":
            name, origin, _ = route_ends(str(d.get("route", "")))
            rows.append(
                [
                    turn,
                    "cargo delivered",
                    board.name_of(e.nation),
                    str(d.get("cargo", "")).replace("_", " "),
                    d.get("points", 0),
                    name,
                    origin,
                    end_board.place_name(str(d.get("destination", ""))),
                    "",
                ]
            )
        elif e.kind == "lsp_moved":
            name, origin, destination = route_ends(str(d.get("route", "")))
            rows.append(
                [
                    turn,
                    "LSP shipped",
                    board.name_of(e.nation),
                    "LSP",
                    d.get("lsp", 0),
                    name,
                    origin,
                    destination,
                    "",
                ]
            )
        elif e.kind == "merchant_combat" and d.get("tonnage_lost"):
            lost[e.nation] += int(d["tonnage_lost"])
    for nation in board.nations:
        if lost[nation]:
            rows.append(
                [
                    turn,
                    "tonnage lost",
                    board.name_of(nation),
                    "tonnage",
                    lost[nation],
                    "",
                    "",
                    "",
                    "to merchant warfare (step 9)",
                ]
            )
    for nation in board.nations:
        total = end_board.state.total_tonnage(nation, end_board.routes_of(nation))
        if total or lost[nation]:
            rows.append(
                [
                    turn,
                    "tonnage at end of turn",
                    board.name_of(nation),
                    "tonnage",
                    total,
                    "",
                    "",
                    "",
                    f"{end_board.state.tonnage.get(nation, 0)} unallocated",
                ]
            )
    return rows


# -- writing --------------------------------------------------------------------------------------
def safe_cell(value: Any) -> Any:
    """A cell a spreadsheet will not run: text starting like a formula gets a leading '."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_csv(sheet: HandoffSheet, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(sheet.header)
        writer.writerows([[safe_cell(v) for v in row] for row in sheet.rows])
    return path


#: the PDF's columns per table: (heading, column index in the CSV, width, alignment)
_PDF_COLUMNS: dict[str, Sequence[tuple[str, int, float, str]]] = {
    "land": (
        ("What", 1, 21, "L"),
        ("Nation", 2, 21, "L"),
        ("Place", 3, 17, "L"),
        ("Sea area", 4, 16, "L"),
        ("Manpower", 5, 14, "R"),
        ("Tanks", 6, 9, "R"),
        ("Naval support CV", 7, 12, "R"),
        ("Military flags", 8, 12, "R"),
        ("Used", 9, 8, "R"),
        ("Note", 11, 24, "L"),
    ),
    "economic": (
        ("What", 1, 18, "L"),
        ("Nation", 2, 21, "L"),
        ("Kind", 3, 15, "L"),
        ("Points", 4, 11, "R"),
        ("Route", 5, 28, "L"),
        ("From", 6, 15, "L"),
        ("To", 7, 15, "L"),
        ("Note", 8, 20, "L"),
    ),
}


def render_sheet(sheet: HandoffSheet, chain_head: str, paper: str = "a4") -> Sheet:
    from .printing import Sheet  # the PDF library loads when a sheet is printed

    title = f"Sea Control - hand-off to the {sheet.table_name} - turn {sheet.turn}"
    doc = Sheet(paper, title, f"{sheet.game} - chain head {chain_head[:16]}...")
    doc.add_page()
    doc.title_line(f"Hand-off to the {sheet.table_name}")
    doc.para(f'Turn {sheet.turn} ({sheet.period}) of the naval game "{sheet.game}".')
    doc.ln(2)
    columns = _PDF_COLUMNS[sheet.table]
    rows = [[row[i] for _h, i, _w, _a in columns] for row in sheet.rows]
    if not rows:
        doc.para("Nothing for this table this turn.", style="I")
    else:
        doc.grid(
            [h for h, _i, _w, _a in columns],
            rows,
            [w for _h, _i, w, _a in columns],
            [a for _h, _i, _w, a in columns],
        )
    doc.ln(3)
    doc.para(f"Chain head of the game's log when this sheet was printed: {chain_head}", 9)
    return doc


def write_sheet(
    c: Campaign, sheet: HandoffSheet, folder: str | Path, paper: str = "a4", prefix: str = ""
) -> list[Path]:
    """Write the sheet's CSV and PDF into ``folder`` as ``PREFIX-turnT-TABLE.csv`` and
    ``.pdf`` (prefix: the game file's name)."""
    from .teampack import file_prefix

    folder = Path(folder)
    stem = f"{file_prefix(prefix or c.game.path.stem)}-turn{sheet.turn}-{sheet.table}"
    return [
        write_csv(sheet, folder / f"{stem}.csv"),
        render_sheet(sheet, c.chain_head(), paper).save(folder / f"{stem}.pdf"),
    ]
