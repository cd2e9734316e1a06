"""What happened, on the chart: after a turn is resolved, a mark where each battle was
fought, where each landing went ashore (or failed) and where each merchant combat struck,
with the ships sunk and damaged there. Each mark is Qt's own items (no Python painting),
keeps its size at every zoom, and opens its events when clicked.

The marks read the event log through the session, as the viewer of the chart may see it
(a team's chart marks only what that team learns), like every other output.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QPointF
from PySide6.QtGui import QBrush, QColor, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
)

from campaign.events import Event

from . import style
from .session import GameSession

#: event kinds that put a mark on the chart, and the mark's look: (symbol, fill colour)
MARKED = {
    "naval_combat": ("⚔", "#b03a2e"),
    "tactical_battle": ("⚔", "#b03a2e"),
    "landing_succeeded": ("⚓", "#1e7a46"),
    "major_landing": ("⚓", "#1e7a46"),
    "landing_failed": ("⚓", "#7a5a1e"),
    "operation_failed": ("✕", "#7a5a1e"),
    "merchant_combat": ("✦", "#5b3f8c"),
}
HITS = ("unit_sunk", "unit_damaged")
RADIUS = 11.0  # px on screen, at every zoom


@dataclass
class Mark:
    """One place on the chart where something happened this turn."""

    key: str  # "area:<sea area id>"
    point: QPointF
    kind: str  # the first marked event's kind (gives the symbol)
    events: list[Event] = field(default_factory=list)
    sunk: int = 0
    damaged: int = 0

    def summary(self) -> str:
        parts = [e.text for e in self.events if e.kind in MARKED]
        hits = []
        if self.sunk:
            hits.append(f"{self.sunk} sunk")
        if self.damaged:
            hits.append(f"{self.damaged} damaged")
        return "\n".join(parts + ([", ".join(hits)] if hits else []))


class TurnMarks:
    """The marks of the turn last resolved, kept in step with the session and the chart's
    viewer. ``items`` are the clickable dots (their ``data(1)`` is the mark's key)."""

    def __init__(self, chart: object, session: GameSession) -> None:
        self.chart = chart
        self.session = session
        self.marks: dict[str, Mark] = {}
        self.items: list[QGraphicsItem] = []
        self.visible = True

    def clear(self) -> None:
        scene = self.chart.scene()  # type: ignore[attr-defined]
        for item in self.items:
            scene.removeItem(item)
        self.forget()

    def forget(self) -> None:
        """Drop the marks without touching the scene (it was cleared)."""
        self.items, self.marks = [], {}

    def set_visible(self, on: bool) -> None:
        self.visible = on
        for item in self.items:
            item.setVisible(on)

    def refresh(self) -> None:
        """Mark the events of the latest turn that has any (the turn just resolved, or
        the one being resolved), as the chart's viewer may see them."""
        self.clear()
        if not self.session.is_open:
            return
        viewer = self.chart.team  # type: ignore[attr-defined]
        state = self.session.state
        turn = state.turn if state.step else state.turn - 1
        if turn < 1:
            return
        self.marks = self._collect(self.session.events(viewer, turn))
        for mark in self.marks.values():
            self._draw(mark)

    def mark(self, key: str) -> Mark | None:
        return self.marks.get(key)

    # -- internals ---------------------------------------------------------------------------
    def _collect(self, events: list[Event]) -> dict[str, Mark]:
        marks: dict[str, Mark] = {}
        last: Mark | None = None
        for e in events:
            if e.kind in MARKED:
                key, point = self._where(e)
                if point is None:
                    last = None
                    continue
                last = marks.setdefault(key, Mark(key, point, e.kind))
                last.events.append(e)
            elif e.kind in HITS and last is not None and last.events[-1].step == e.step:
                last.events.append(e)  # a ship hit in the combat just marked
                if e.kind == "unit_sunk":
                    last.sunk += 1
                else:
                    last.damaged += 1
        return marks

    def _where(self, e: Event) -> tuple[str, QPointF | None]:
        """One mark per sea area (a battle and the landing it covered share it), placed
        at the area's name; a landing's place gives its area."""
        chart = self.chart
        area = str(e.data.get("area") or "")
        place = str(e.data.get("target") or e.data.get("place") or "")
        if not area and place:
            board = self.session.board()
            if place in board.bases:
                area = board.area_of(place)
        if area and area in chart.label_points:  # type: ignore[attr-defined]
            return f"area:{area}", chart.label_points[area]  # type: ignore[attr-defined]
        return "", None

    def _draw(self, mark: Mark) -> None:
        symbol, colour = MARKED[mark.kind]
        dot = QGraphicsEllipseItem(-RADIUS, -RADIUS, 2 * RADIUS, 2 * RADIUS)
        dot.setBrush(QBrush(QColor(colour)))
        dot.setPen(QPen(QColor("white"), 1.5))
        dot.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        dot.setPos(mark.point)
        dot.setZValue(45)
        dot.setData(0, "event")
        dot.setData(1, mark.key)
        dot.setToolTip(mark.summary())
        dot.setVisible(self.visible)
        text = QGraphicsSimpleTextItem(symbol, dot)
        text.setBrush(QBrush(QColor("white")))
        text.setFont(style.ui_font(9.0, bold=True))
        box = text.boundingRect()
        text.setPos(-box.width() / 2, -box.height() / 2)
        if mark.sunk or mark.damaged:
            plate = QGraphicsRectItem(dot)
            count = QGraphicsSimpleTextItem(_tally(mark), plate)
            count.setFont(style.ui_font(7.5, bold=True))
            count.setBrush(QBrush(QColor(colour)))
            box = count.boundingRect().adjusted(-3, -1, 3, 1)
            plate.setRect(box)
            plate.setBrush(QBrush(QColor(255, 255, 255, 225)))
            plate.setPen(QPen(QColor(colour), 0.8))
            plate.setPos(RADIUS + 4, -box.height() / 2)
        self.chart.scene().addItem(dot)  # type: ignore[attr-defined]
        self.items.append(dot)

    def hit(self, view_pos: QPointF) -> str | None:
        """The mark under a viewport position (its key), if any: the dots keep their size,
        so the test is in screen pixels."""
        to_view = self.chart.viewportTransform()  # type: ignore[attr-defined]
        for item in reversed(self.items):
            if not item.isVisible():
                continue
            centre = to_view.map(item.pos())
            if (centre - view_pos).manhattanLength() <= RADIUS * 1.6:
                return str(item.data(1))
        return None


def _tally(mark: Mark) -> str:
    parts = []
    if mark.sunk:
        parts.append(f"{mark.sunk} sunk")
    if mark.damaged:
        parts.append(f"{mark.damaged} damaged")
    return ", ".join(parts)
