"""The chart's legend: who holds the bases (each nation's colour), the kinds of place, the
merchant routes' states and tonnage, task-force counters with their Naval Operations
Flag, and the marks of the last turn. It floats in a corner of the map and can be hidden
(View → Legend); its colours are the chart's own, taken from the same places."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, QSettings, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from . import style
from .mapmarks import MARKED
from .mapview import draw_symbol
from .session import GameSession

SWATCH = 18  # px


class MapLegend(QFrame):
    """A key over the chart's lower-left corner, folded to its button until opened."""

    def __init__(self, session: GameSession, parent: QWidget) -> None:
        super().__init__(parent)
        self.session = session
        self.setObjectName("mapLegend")
        self.setStyleSheet(
            "#mapLegend { background: rgba(255,255,255,228); border: 1px solid #9db4c8;"
            " border-radius: 4px; } QLabel { background: transparent; }"
        )
        self.column = column = QVBoxLayout(self)
        column.setContentsMargins(4, 2, 4, 4)
        column.setSpacing(2)
        self.toggle = QToolButton()
        self.toggle.setText("Legend")
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolTip("Show or hide the key to the chart")
        self.toggle.toggled.connect(self.expand)
        column.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.body = QWidget()
        self.grid = QGridLayout(self.body)
        self.grid.setContentsMargins(4, 0, 4, 0)
        self.grid.setHorizontalSpacing(6)
        self.grid.setVerticalSpacing(2)
        self.body.hide()
        column.addWidget(self.body)
        self.rows: list[tuple[QPixmap, str]] = []
        self._columns = -1
        parent.installEventFilter(self)
        session.gameChanged.connect(self.rebuild)
        self.rebuild()
        self.expand(QSettings().value("legendOpen", "false") == "true")

    def rebuild(self) -> None:
        """The rows for the open game (its nations' colours), laid out for the space."""
        rows: list[tuple[QPixmap, str]] = []
        if self.session.is_open:
            nations = self.session.scenario.by_id("nations")
            holders = [n for n in self.session.board().teams() if n in nations]
            for n in holders:
                rows.append((_symbol("port", style.nation_colour(nations, n)), _name(nations, n)))
        grey = QColor("#b8c2ca")
        rows += [
            (_symbol("fleet_base", grey), "Fleet base (ringed)"),
            (_symbol("port", grey), "Port or place"),
            (_symbol("island", grey), "Island"),
            (_symbol("fleet_train", grey), "Fleet train"),
            (_line(style.ROUTE_WORKING, 3.0), "Route working (thick: more tonnage)"),
            (_line(style.ROUTE_CONTESTED, 3.0), "Route contested"),
            (_line(style.ROUTE_CUT, 2.0, dash=True), "Route cut (dashed: no tonnage)"),
            (_counter(), "Task force (CV); flag: on an operation"),
            (_mark("naval_combat"), "Last turn: battle (ships sunk, damaged)"),
            (_mark("landing_succeeded"), "Last turn: landing"),
            (_mark("merchant_combat"), "Last turn: merchant combat"),
        ]
        self.rows = rows
        self._columns = -1
        self.place()

    @property
    def expanded(self) -> bool:
        return self.toggle.isChecked()

    def expand(self, on: bool) -> None:
        """Open the key (or fold it to its button); the choice is remembered."""
        self.toggle.setChecked(on)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.body.setVisible(on)
        QSettings().setValue("legendOpen", "true" if on else "false")
        self._columns = -1
        self.place()

    def _lay_out(self, per_column: int) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        for i, (pixmap, text) in enumerate(self.rows):
            column, row = divmod(i, per_column)
            icon = QLabel()
            icon.setPixmap(pixmap)
            label = QLabel(text)
            label.setFont(style.ui_font(8.0))
            self.grid.addWidget(icon, row, 2 * column)
            self.grid.addWidget(label, row, 2 * column + 1)
            if self.body.isVisible():
                icon.show()  # now, so the layout counts them before the size is taken
                label.show()
        self.grid.activate()
        self.column.activate()
        self.resize(self.column.sizeHint())

    def place(self) -> None:
        """Keep to the lower-left corner of the chart, at most about a third of its height
        (more columns when the window is short)."""
        parent = self.parentWidget()
        if parent is None:
            return
        per_column = max(4, int(parent.height() * 0.5) // (SWATCH + 2))
        columns = -(-len(self.rows) // per_column)
        if not self.expanded:  # folded to its button: the rows are laid out when opened
            self._columns = -1
            self.resize(self.column.sizeHint())
        elif columns != self._columns:
            self._columns = columns
            self._lay_out(-(-len(self.rows) // columns))
        self.move(8, max(8, parent.height() - self.height() - 8))
        self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self.place()
        return False


def _name(nations: dict[str, dict[str, object]], nation: str) -> str:
    return f"Held by {nations[nation]['name']}"


def _canvas() -> tuple[QPixmap, QPainter]:
    pixmap = QPixmap(SWATCH, SWATCH)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    return pixmap, painter


def _symbol(kind: str, colour: QColor) -> QPixmap:
    pixmap, painter = _canvas()
    painter.translate(SWATCH / 2, SWATCH / 2)
    painter.scale(1.4, 1.4)
    draw_symbol(painter, kind, colour)
    painter.end()
    return pixmap


def _line(colour: QColor, width: float, dash: bool = False) -> QPixmap:
    pixmap, painter = _canvas()
    pen = QPen(colour, width)
    if dash:
        pen.setStyle(Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.drawLine(QPointF(1, SWATCH / 2), QPointF(SWATCH - 1, SWATCH / 2))
    painter.end()
    return pixmap


def _counter() -> QPixmap:
    pixmap, painter = _canvas()
    painter.setPen(QPen(QColor("#1d2b36"), 0.8))
    painter.setBrush(QColor("#1f4e79"))
    painter.drawRoundedRect(QRectF(1, 6, 14, 10), 2, 2)
    painter.setBrush(style.SELECTION)
    painter.drawPolygon(QPolygonF([QPointF(15, 1), QPointF(10, 3), QPointF(15, 5)]))
    painter.drawLine(QPointF(15, 1), QPointF(15, 7))
    painter.end()
    return pixmap


def _mark(kind: str) -> QPixmap:
    symbol, colour = MARKED[kind]
    pixmap, painter = _canvas()
    painter.setPen(QPen(QColor("white"), 1.2))
    painter.setBrush(QColor(colour))
    painter.drawEllipse(QRectF(1, 1, SWATCH - 2, SWATCH - 2))
    painter.setPen(QColor("white"))
    painter.setFont(style.ui_font(7.5, bold=True))
    painter.drawText(QRectF(0, 0, SWATCH, SWATCH), Qt.AlignmentFlag.AlignCenter, symbol)
    painter.end()
    return pixmap
