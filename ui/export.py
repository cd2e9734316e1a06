"""Printable and spreadsheet exports: the turn report and the merchant routes chart.

Every export reads the game through :class:`ui.session.GameSession`; every team output
goes through :func:`campaign.events.visible` (the one fog-of-war filter) and the team's
:class:`~campaign.teamview.TeamView`, so a file made for a team holds only what that team
may know (docs/team-views.md). ``viewer=None`` is Game Control.

* CSV: UTF-8, ``\\n`` line ends, a header row (:data:`REPORT_HEADER`,
  :data:`ROUTES_HEADER`; Game Control's report adds a ``seen_by`` column).
* PDF: Qt's own :class:`~PySide6.QtGui.QPdfWriter` — A4 with margins, a title naming the
  game, the turn and the viewer, tables whose header row repeats on every page, page
  numbers, and the dice log's chain head at the bottom of the report so that every team
  holds an anchor against which the rolls can be checked later.
"""

from __future__ import annotations

import csv
import html
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QTextDocument,
)

from campaign.board import WORKING
from campaign.events import UMPIRE, Event, visible
from campaign.sequence import SEQUENCE
from campaign.untrusted import spreadsheet_safe
from campaign.world import length_class

if TYPE_CHECKING:
    from ui.session import GameSession

#: the report CSV's columns (Game Control's adds ``seen_by``)
REPORT_HEADER: tuple[str, ...] = ("turn", "step", "step_name", "nation", "kind", "text")
#: the merchant routes chart's columns (Annex B, with this turn's escorts and attackers)
ROUTES_HEADER: tuple[str, ...] = (
    "serial",
    "route",
    "nation",
    "tonnage_points",
    "length",
    "effective_lift",
    "escorts",
    "attackers",
    "state",
)
#: the dice log CSV's columns (Game Control only)
DICE_HEADER: tuple[str, ...] = (
    "seq",
    "turn",
    "step",
    "purpose",
    "sides",
    "value",
    "source",
    "reason",
    "prev_hash",
    "hash",
)
BETWEEN_TURNS = "Between turns"
PDF_RESOLUTION = 300  # dots per inch of the PDF's drawing surface
MARGIN_MM = 15.0


# -- what a viewer sees ----------------------------------------------------------------------
def is_game_control(viewer: str | None) -> bool:
    """``None``, ``""`` and ``"umpire"`` all mean Game Control (everything)."""
    return not viewer or viewer == UMPIRE


def step_name(step: int) -> str:
    """``"Move supplies"`` for step 1 …; step 0 (and anything outside 1–10) is between turns."""
    if 1 <= step <= len(SEQUENCE):
        return SEQUENCE[step - 1].name
    return BETWEEN_TURNS


def default_turn(session: GameSession) -> int:
    """The turn a report shows first: the current one once a step is resolved, else the one
    before (as ``seacontrol-cli report`` does)."""
    state = session.state
    first = session.scenario.meta.first_turn
    return state.turn if state.step else max(state.turn - 1, first)


def played_turns(session: GameSession) -> list[int]:
    """Every turn that has begun, first to current."""
    first = session.scenario.meta.first_turn
    return list(range(first, session.state.turn + 1))


def viewer_name(session: GameSession, viewer: str | None) -> str:
    """``"Game Control (everything)"`` or ``"Japan team"``."""
    if is_game_control(viewer):
        return "Game Control (everything)"
    nations = session.scenario.by_id("nations")
    row = nations.get(str(viewer))
    return f"{row['name'] if row else viewer} team"


def nation_name(session: GameSession, nation: str) -> str:
    row = session.scenario.by_id("nations").get(nation)
    return str(row["name"]) if row else nation


def report_events(
    session: GameSession, viewer: str | None = None, turn: int | None = None
) -> list[Event]:
    """The turn's events as ``viewer`` may see them (always through :func:`visible`)."""
    turn = default_turn(session) if turn is None else turn
    who = None if is_game_control(viewer) else viewer
    return visible(session.events(who, turn), who)


def group_by_step(events: Iterable[Event]) -> dict[int, list[Event]]:
    """Events by step number, in the log's order."""
    out: dict[int, list[Event]] = defaultdict(list)
    for event in events:
        out[event.step].append(event)
    return out


def seen_by(session: GameSession, event: Event) -> str:
    """Who may see an event, in words (for Game Control only: it names other teams)."""
    if not event.visible_to:
        return "everyone"
    names = ["Game Control" if v == UMPIRE else nation_name(session, v) for v in event.visible_to]
    return ", ".join(names)


@dataclass(frozen=True)
class DiceSummary:
    """The dice log as a report's anchor: count, chain head and whether the chain holds."""

    count: int
    head: str
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def mark(self) -> str:
        return "✓" if self.ok else "✗"

    def text(self) -> str:
        state = "chain verified" if self.ok else f"{len(self.problems)} problem(s) in the chain"
        return f"Dice log: {self.count} rolls; chain head {self.head} ({self.mark} {state})"


def dice_summary(session: GameSession) -> DiceSummary:
    campaign = session.require()
    return DiceSummary(
        len(campaign.dice_log()), campaign.dice_head(), tuple(campaign.verify_dice())
    )


def report_rows(
    session: GameSession, viewer: str | None = None, turn: int | None = None
) -> tuple[tuple[str, ...], list[list[Any]]]:
    """The report as a header and rows (what the CSV holds)."""
    gc = is_game_control(viewer)
    header = REPORT_HEADER + (("seen_by",) if gc else ())
    rows: list[list[Any]] = []
    for e in report_events(session, viewer, turn):
        row: list[Any] = [e.turn, e.step, step_name(e.step), e.nation, e.kind, e.text]
        if gc:
            row.append(seen_by(session, e))
        rows.append(row)
    return header, rows


# -- the merchant routes chart -------------------------------------------------------------
def route_rows(session: GameSession, viewer: str | None = None) -> list[list[Any]]:
    """Annex B lines for every route (serial order): tonnage, length, effective lift, the
    escorts and attackers allocated in the report turn (step 5 events) and whether the
    route is working now. A team's chart is made from its team view: another nation's
    route shows its public name and no tonnage (002: the chart *is maintained by naval map
    control*), and only the allocations the team's own events name."""
    if not is_game_control(viewer):
        return _team_route_rows(session, str(viewer))
    board = session.board()
    allocations: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for e in report_events(session, viewer):
        if e.kind in ("escort_allocated", "raiders_allocated"):
            side = "escorts" if e.kind == "escort_allocated" else "attackers"
            units = [board.unit_name(u) for u in e.data.get("units", [])]
            units += [_air_name(session, str(a[0]), int(a[1])) for a in e.data.get("air", [])]
            allocations[str(e.data.get("route", ""))][side].extend(units)
    lines = sorted((board.route(r) for r in board.route_rows), key=lambda r: (r.serial, r.id))
    rows = []
    for line in lines:
        working, why = board.route_working(line.id)
        here = allocations.get(line.id, {})
        rows.append(
            [
                line.serial,
                line.name,
                nation_name(session, line.nation),
                line.tonnage,
                f"{line.length.label} (x{_multiplier(line.length.multiplier)})",
                line.effective_lift,
                "; ".join(here.get("escorts", [])),
                "; ".join(here.get("attackers", [])),
                "working" if working else f"not working: {why}",
            ]
        )
    return rows


def _team_route_rows(session: GameSession, nation: str) -> list[list[Any]]:
    view = session.team_view(nation)
    turn = default_turn(session)
    places = {b.id: b.name for b in view.bases}
    air = {a.id: a for a in (*view.air, *view.allied_air)}
    allocations: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for e in view.events:
        if e.turn == turn and e.kind in ("escort_allocated", "raiders_allocated"):
            side = "escorts" if e.kind == "escort_allocated" else "attackers"
            names = []
            for u in e.data.get("units", []):
                unit = view.unit(str(u))
                names.append(unit.name if unit else str(u))
            for air_id, points in e.data.get("air", []):
                known = air.get(str(air_id))
                where = places.get(known.base, known.base) if known else str(air_id)
                names.append(f"air at {where} ({points} pt)")
            allocations[str(e.data.get("route", ""))][side].extend(names)
    rows = []
    for r in view.routes:
        length = length_class(len(r.path) - 1)
        here = allocations.get(r.id, {})
        rows.append(
            [
                r.serial,
                r.name,
                view.name_of(r.nation),
                "not known" if r.tonnage is None else r.tonnage,
                f"{length.label} (x{_multiplier(length.multiplier)})",
                "not known" if r.effective_lift is None else r.effective_lift,
                "; ".join(here.get("escorts", [])),
                "; ".join(here.get("attackers", [])),
                "working" if r.state == WORKING else f"not working: {r.why}",
            ]
        )
    return rows


def _air_name(session: GameSession, air_id: str, points: int) -> str:
    """``"air at Malta (1 pt)"``: land-based air named by its base."""
    air = session.state.air.get(air_id)
    where = session.board().place_name(air.base) if air else air_id
    return f"air at {where} ({points} pt)"


def _multiplier(value: Any) -> str:
    return str(value) if getattr(value, "denominator", 1) != 1 else str(int(value))


# -- CSV ---------------------------------------------------------------------------------------
def _write_csv(path: str | Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Path:
    """A CSV for people: a text cell a spreadsheet would run as a formula (a unit named
    ``=HYPERLINK(…)`` in a shared game file) is written with a leading ``'``
    (:func:`campaign.untrusted.spreadsheet_safe`)."""
    path = Path(path)
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    return path


def export_report_csv(
    session: GameSession, path: str | Path, viewer: str | None = None, turn: int | None = None
) -> Path:
    """The turn's events as CSV, as ``viewer`` sees them (``None``: Game Control)."""
    header, rows = report_rows(session, viewer, turn)
    return _write_csv(path, header, rows)


def export_routes_csv(session: GameSession, path: str | Path, viewer: str | None = None) -> Path:
    """The merchant routes chart (Annex B style) as CSV."""
    return _write_csv(path, ROUTES_HEADER, route_rows(session, viewer))


def export_dice_csv(session: GameSession, path: str | Path) -> Path:
    """Every roll of the dice log (Game Control only: a roll's purpose can name forces)."""
    rows = [[getattr(r, k) for k in DICE_HEADER] for r in session.require().dice_log()]
    return _write_csv(path, DICE_HEADER, rows)


# -- PDF ---------------------------------------------------------------------------------------
#: inline styles (Qt's rich text honours inline margins more reliably than a style sheet)
_STYLE: dict[str, str] = {
    "h1": "font-size: 14pt; font-weight: bold; margin-top: 0px; margin-bottom: 3px;",
    "sub": "font-size: 8.5pt; color: #5d6d7a; margin-top: 0px; margin-bottom: 5px;",
    "h2": "font-size: 10.5pt; font-weight: bold; color: #35556f; margin-top: 13px;"
    " margin-bottom: 4px;",
    "ev": "font-size: 9pt; margin-top: 0px; margin-bottom: 3px; margin-left: 36px;"
    " text-indent: -14px;",
    "none": "font-size: 9pt; color: #5d6d7a; font-style: italic; margin-top: 0px;"
    " margin-bottom: 3px; margin-left: 36px;"
    " text-indent: -14px;",
    "who": "color: #35556f; font-weight: bold;",
    "seen": "color: #5d6d7a; font-size: 7.5pt;",
    "th": "background-color: #dfeaf1; font-size: 8pt; font-weight: bold;",
    "td": "font-size: 8pt; border-bottom: 1px solid #c9d5df;",
    "anchor": "font-size: 8pt; margin-top: 21px; font-family: 'DejaVu Sans Mono';",
}


def _s(name: str) -> str:
    return f'style="{_STYLE[name]}"'


def _esc(value: Any) -> str:
    return html.escape(str(value))


def report_html(session: GameSession, viewer: str | None = None, turn: int | None = None) -> str:
    """The turn report as HTML for :class:`QTextDocument` (also used for the PDF)."""
    turn = default_turn(session) if turn is None else turn
    gc = is_game_control(viewer)
    by_step = group_by_step(report_events(session, viewer, turn))
    dice = dice_summary(session)
    period = session.scenario.meta.period_of(turn)
    parts = [
        f"<p {_s('h1')}>Turn {turn} report — {_esc(period)}</p>",
        f"<p {_s('sub')}>Sea Control game “{_esc(_game_name(session))}” · seen as:"
        f" <b>{_esc(viewer_name(session, viewer))}</b></p>",
    ]
    numbers = [s.number for s in SEQUENCE] + sorted(
        k for k in by_step if not 1 <= k <= len(SEQUENCE)
    )
    for number in numbers:
        parts.append(f"<p {_s('h2')}>{_esc(step_heading(number))}</p>")
        events = by_step.get(number, [])
        if not events:
            parts.append(f"<p {_s('none')}>(nothing to report)</p>")
        for e in events:
            who = (
                f"<span {_s('who')}>{_esc(nation_name(session, e.nation))}:</span> "
                if e.nation
                else ""
            )
            seen = f" <span {_s('seen')}>[seen by {_esc(seen_by(session, e))}]</span>" if gc else ""
            parts.append(f"<p {_s('ev')}>• {who}{_esc(e.text)}{seen}</p>")
    parts.append(f"<p {_s('anchor')}>{_esc(dice.text())}</p>")
    return "".join(parts)


def routes_html(session: GameSession, viewer: str | None = None) -> str:
    """The merchant routes chart as an HTML table with a repeating header row."""
    turn = default_turn(session)
    head = ("#", "Route", "Nation", "Tonnage", "Length", "Lift", "Escorts", "Attackers", "State")
    parts = [
        f"<p {_s('h1')}>Merchant routes chart</p>",
        f"<p {_s('sub')}>Sea Control game “{_esc(_game_name(session))}” · tonnage points now"
        f" (turn {session.state.turn}); escorts and attackers allocated in turn {turn} ·"
        f" seen as: <b>{_esc(viewer_name(session, viewer))}</b></p>",
        "<table width='100%' cellspacing='0' cellpadding='4'><thead><tr>",
        "".join(f"<th {_s('th')}>{h}</th>" for h in head),
        "</tr></thead><tbody>",
    ]
    for row in route_rows(session, viewer):
        cells = [_esc(v) for v in row]
        cells[3], cells[5] = (
            f"<div align='right'>{cells[3]}</div>",
            f"<div align='right'>{cells[5]}</div>",
        )
        parts.append("<tr>" + "".join(f"<td {_s('td')}>{c}</td>" for c in cells) + "</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


def step_heading(step: int) -> str:
    """``"Step 1 — Move supplies"`` …; anything outside 1–10 is between turns."""
    return f"Step {step} — {step_name(step)}" if 1 <= step <= len(SEQUENCE) else BETWEEN_TURNS


def _game_name(session: GameSession) -> str:
    if session.path is not None:
        return session.path.stem
    return str(session.require().game.name)


def _write_pdf(
    path: str | Path,
    body: str,
    title: str,
    footer: str,
    landscape: bool = False,
) -> Path:
    """Lay ``body`` (HTML) out on A4 pages and print it with a running title and footer."""
    path = Path(path)
    writer = QPdfWriter(str(path))
    writer.setResolution(PDF_RESOLUTION)
    writer.setTitle(title)
    writer.setCreator("Sea Control")
    orientation = (
        QPageLayout.Orientation.Landscape if landscape else QPageLayout.Orientation.Portrait
    )
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            orientation,
            QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
            QPageLayout.Unit.Millimeter,
        )
    )
    dpi = writer.resolution()
    page = QRectF(writer.pageLayout().paintRectPixels(dpi))
    page.moveTo(0, 0)
    band = dpi * 0.3  # room for the running header and footer (0.3 inch each)
    body_rect = QRectF(0, band, page.width(), page.height() - 2 * band)

    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)
    font = QFont("DejaVu Sans")
    font.setPointSizeF(9)
    doc.setDefaultFont(font)
    doc.setDocumentMargin(0)
    doc.setHtml(body)
    doc.setPageSize(QSizeF(body_rect.width(), body_rect.height()))
    pages = max(1, doc.pageCount())

    small = QFont("DejaVu Sans")
    small.setPointSizeF(7.5)
    muted = QColor("#5d6d7a")
    painter = QPainter(writer)
    try:
        for n in range(pages):
            if n:
                writer.newPage()
            painter.setFont(small)
            painter.setPen(muted)
            top = QRectF(0, 0, page.width(), band * 0.8)
            painter.drawText(
                top, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), title
            )
            bottom = QRectF(0, page.height() - band * 0.8, page.width(), band * 0.8)
            painter.drawText(
                bottom, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom), footer
            )
            painter.drawText(
                bottom,
                int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom),
                f"page {n + 1} of {pages}",
            )
            painter.setPen(QColor("#c9d5df"))
            painter.drawLine(QPointF(0, band * 0.85), QPointF(page.width(), band * 0.85))
            painter.save()
            painter.translate(0, body_rect.top() - n * body_rect.height())
            clip = QRectF(0, n * body_rect.height(), body_rect.width(), body_rect.height())
            doc.drawContents(painter, clip)
            painter.restore()
    finally:
        painter.end()
    return path


def export_report_pdf(
    session: GameSession, path: str | Path, viewer: str | None = None, turn: int | None = None
) -> Path:
    """The turn report as a printable A4 PDF, as ``viewer`` sees it; the dice chain head
    closes the report and is repeated (shortened) in every page's footer."""
    turn = default_turn(session) if turn is None else turn
    dice = dice_summary(session)
    title = f"Sea Control — {_game_name(session)} — turn {turn} — {viewer_name(session, viewer)}"
    footer = f"dice chain head {dice.head[:16]}… ({dice.count} rolls)"
    return _write_pdf(path, report_html(session, viewer, turn), title, footer)


def export_routes_pdf(session: GameSession, path: str | Path, viewer: str | None = None) -> Path:
    """The merchant routes chart (Annex B style) as a printable A4 landscape PDF."""
    title = (
        f"Sea Control — {_game_name(session)} — merchant routes — {viewer_name(session, viewer)}"
    )
    footer = f"turn {session.state.turn} ({session.scenario.meta.period_of(session.state.turn)})"
    return _write_pdf(path, routes_html(session, viewer), title, footer, landscape=True)
