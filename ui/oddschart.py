"""Odds at a glance: :class:`OddsChart` draws a loss distribution, :class:`OddsPanel` feeds it.

The numbers are :mod:`campaign.odds`'s exact fractions; the chart only draws them. Given a
:class:`~campaign.odds.NavalOdds` it shows who wins (a stacked strip) and both sides'
step-loss distributions side by side on one scale; given a
:class:`~campaign.odds.MerchantOdds` it shows the chance of each colour (in the colour's
hue) and the tonnage-loss distribution with its mean ± sd. Every bar has a tooltip with
the exact fraction. Drawn with :class:`QPainter` only (no chart library).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QHelpEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QTabWidget,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from campaign import calculator
from campaign import merchant_warfare as mw
from campaign.merchant_warfare import DEFAULT_SHORT_ROW, SHORT_ROW_READINGS
from campaign.naval_combat import CombatSide, Modifier
from campaign.odds import MerchantOdds, NavalOdds, mean, merchant_odds, naval_odds, sd
from campaign.operations import BattlePreview
from ui.style import MUTED, SEA_AREA_LABEL, TEXT, ui_font

#: each merchant result colour's hue (charts and the calculator's colour table)
HUES: dict[str, QColor] = {
    "none": QColor("#9aa5ae"),
    "R": QColor("#c0392b"),
    "O": QColor("#e67e22"),
    "Y": QColor("#f1c40f"),
    "B": QColor("#2e86c1"),
    "G": QColor("#27ae60"),
}
SIDE_A = QColor("#2e6f9e")
SIDE_B = QColor("#b0483a")
DRAW = QColor("#9aa5ae")
TONNAGE = QColor("#35556f")
GRID = QColor("#d5dee6")

#: the short-row readings in words (docs/rules-notes.md)
SHORT_ROW_TEXT: dict[str, str] = {
    "gap_orange": "gap at 3:2 read as Orange",
    "gap_yellow": "gap at 3:2 read as Yellow",
    "last_repeated": "last cell repeats the one before",
}


def fraction_text(p: Fraction) -> str:
    """``"25/216 = 11.57%"``."""
    return f"{p.numerator}/{p.denominator} = {float(p) * 100:.2f}%"


def percent_text(p: float) -> str:
    """A short percentage for a label: ``"12%"``, ``"0.4%"``, ``"<0.1%"``."""
    if p == 0:
        return "0%"
    if p < 0.001:
        return "<0.1%"
    if p < 0.1:
        return f"{p * 100:.1f}%"
    return f"{p * 100:.0f}%"


@dataclass(frozen=True)
class Bar:
    """One bar drawn: its rectangle (widget coordinates) and its tooltip."""

    rect: QRectF
    tooltip: str


class OddsChart(QWidget):
    """A small bar chart of a naval or merchant combat's exact odds."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._naval: NavalOdds | None = None
        self._merchant: MerchantOdds | None = None
        self._bars: list[Bar] = []
        self.setMouseTracking(True)
        self.setMinimumSize(300, 190)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)

    # -- data -------------------------------------------------------------------------------
    @property
    def kind(self) -> str:
        """``"naval"``, ``"merchant"`` or ``""`` (nothing to show)."""
        if self._naval is not None:
            return "naval"
        return "merchant" if self._merchant is not None else ""

    def set_naval(self, odds: NavalOdds | None) -> None:
        self._naval, self._merchant = odds, None
        self.update()

    def set_merchant(self, odds: MerchantOdds | None) -> None:
        self._naval, self._merchant = None, odds
        self.update()

    def clear(self) -> None:
        self._naval = self._merchant = None
        self.update()

    def bars(self) -> list[Bar]:
        """The bars of the last paint, with their tooltips."""
        return list(self._bars)

    def sizeHint(self) -> QSize:
        return QSize(520, 300)

    # -- tooltips ---------------------------------------------------------------------------
    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.tooltip_at(QPointF(event.pos()))
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def tooltip_at(self, pos: QPointF) -> str:
        """The tooltip of the bar under ``pos`` ("" for none)."""
        for bar in self._bars:
            if bar.rect.adjusted(-2, -4, 2, 4).contains(pos):
                return bar.tooltip
        return ""

    # -- painting ---------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        self._bars = []
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor("#ffffff"))
        area = QRectF(self.rect()).adjusted(10, 8, -10, -8)
        try:
            if self._naval is not None:
                self._paint_naval(painter, area, self._naval)
            elif self._merchant is not None:
                self._paint_merchant(painter, area, self._merchant)
            else:
                self._message(painter, area, "No odds to show")
        finally:
            painter.end()

    def _font(self, size: float, bold: bool = False) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(size)
        font.setBold(bold)
        return font

    def _message(self, painter: QPainter, area: QRectF, text: str) -> None:
        painter.setFont(self._font(10))
        painter.setPen(MUTED)
        painter.drawText(area, int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap), text)

    def _title(self, painter: QPainter, area: QRectF, text: str) -> float:
        """Draw a title line at the top of ``area``; returns its height."""
        font = self._font(9.5, bold=True)
        painter.setFont(font)
        painter.setPen(TEXT)
        metrics = QFontMetricsF(font)
        elided = metrics.elidedText(text, Qt.TextElideMode.ElideRight, area.width())
        painter.drawText(
            QRectF(area.left(), area.top(), area.width(), metrics.height()),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            elided,
        )
        return metrics.height() + 4

    def _paint_naval(self, painter: QPainter, area: QRectF, odds: NavalOdds) -> None:
        a, b = odds.a, odds.b
        top = area.top() + self._title(
            painter, area, f"{a.name} (CV {a.cv}) v {b.name} (CV {b.cv})"
        )
        # who wins: one stacked strip
        strip = QRectF(area.left(), top, area.width(), 20)
        parts = [
            (f"{_wins(a.name)}", odds.p_a_wins, SIDE_A),
            (f"level, {b.name} holds", odds.p_level, DRAW),
            (f"{_wins(b.name)}", odds.p_b_wins - odds.p_level, SIDE_B),
        ]
        x = strip.left()
        small = self._font(8)
        painter.setFont(small)
        metrics = QFontMetricsF(small)
        for label, p, colour in parts:
            width = strip.width() * float(p)
            if width <= 0:
                continue
            rect = QRectF(x, strip.top(), width, strip.height())
            painter.fillRect(rect, colour)
            text = f"{label} {percent_text(float(p))}"
            if metrics.horizontalAdvance(text) + 6 < width:
                painter.setPen(QColor("#ffffff"))
                painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), text)
            self._bars.append(Bar(rect, f"{label}: {fraction_text(p)}"))
            x += width
        legend_top = strip.bottom() + 3
        painter.setPen(MUTED)
        legend = " · ".join(f"{label} {percent_text(float(p))}" for label, p, _ in parts)
        how = "by estimated CV lost" if odds.decided_by == "estimated cv" else "by CV lost"
        painter.drawText(
            QRectF(area.left(), legend_top, area.width(), metrics.height()),
            int(Qt.AlignmentFlag.AlignLeft),
            metrics.elidedText(f"{legend}   ({how})", Qt.TextElideMode.ElideRight, area.width()),
        )
        top = legend_top + metrics.height() + 8
        # both sides' fire, side by side on one scale
        gap = 16.0
        half = (area.width() - gap) / 2
        ymax = max([*odds.a_on_b.values(), *odds.b_on_a.values(), Fraction(1, 100)])
        for i, (fire, colour) in enumerate(((odds.a_fire, SIDE_A), (odds.b_fire, SIDE_B))):
            rect = QRectF(area.left() + i * (half + gap), top, half, area.bottom() - top)
            dist = fire.distribution
            title = f"Steps lost by {fire.target} ({fire.side} fires)"
            sub = (
                f"mean {fire.mean:.2f} ± {fire.sd:.2f} · {len(fire.dice)} dice · DRM {fire.drm:+d}"
            )
            items = [
                (str(k), p, colour, f"{fire.side} inflicts {k} step(s): {fraction_text(p)}")
                for k, p in sorted(dist.items())
            ]
            self._bar_panel(painter, rect, title, sub, items, ymax)

    def _paint_merchant(self, painter: QPainter, area: QRectF, odds: MerchantOdds) -> None:
        c = odds.combat
        head = (
            f"Interdictor CV {c.attack_cv} v escort CV {c.escort_cv} — column {odds.column_label}"
        )
        top = area.top() + self._title(painter, area, head)
        if odds.column is None:
            self._message(
                painter,
                QRectF(area.left(), top, area.width(), area.bottom() - top),
                "No combat: the interdictor's odds are below 1:3.",
            )
            return
        gap = 16.0
        left_w = (area.width() - gap) * 0.46
        left = QRectF(area.left(), top, left_w, area.bottom() - top)
        right = QRectF(left.right() + gap, top, area.width() - left_w - gap, left.height())
        colours = [
            (code, odds.colours.get(code, Fraction(0))) for code in ("R", "O", "Y", "B", "G")
        ]
        items = [
            (mw.COLOURS[code], p, HUES[code], f"{mw.COLOURS[code]}: {fraction_text(p)}")
            for code, p in colours
        ]
        self._bar_panel(
            painter,
            left,
            "Result colour",
            "chance of each result",
            items,
            max(p for _, p in colours),
        )
        dist = odds.tonnage_lost
        tonnage = [
            (str(k), p, TONNAGE, f"{k} tonnage point(s) lost: {fraction_text(p)}")
            for k, p in sorted(dist.items())
        ]
        self._bar_panel(
            painter,
            right,
            "Tonnage points lost",
            f"mean {float(mean(dist)):.2f} ± {sd(dist):.2f}",
            tonnage,
            max(dist.values()),
        )

    def _bar_panel(
        self,
        painter: QPainter,
        rect: QRectF,
        title: str,
        subtitle: str,
        items: list[tuple[str, Fraction, QColor, str]],
        ymax: Fraction,
    ) -> None:
        """Vertical bars with a title, a subtitle, value labels and category labels."""
        bold = self._font(8.5, bold=True)
        small = self._font(7.5)
        mb, ms = QFontMetricsF(bold), QFontMetricsF(small)
        painter.setFont(bold)
        painter.setPen(SEA_AREA_LABEL)
        painter.drawText(
            QRectF(rect.left(), rect.top(), rect.width(), mb.height()),
            int(Qt.AlignmentFlag.AlignLeft),
            mb.elidedText(title, Qt.TextElideMode.ElideRight, rect.width()),
        )
        painter.setFont(small)
        painter.setPen(MUTED)
        painter.drawText(
            QRectF(rect.left(), rect.top() + mb.height(), rect.width(), ms.height()),
            int(Qt.AlignmentFlag.AlignLeft),
            ms.elidedText(subtitle, Qt.TextElideMode.ElideRight, rect.width()),
        )
        plot = QRectF(
            rect.left(),
            rect.top() + mb.height() + ms.height() + 4 + ms.height(),
            rect.width(),
            rect.height() - mb.height() - 3 * ms.height() - 8,
        )
        if plot.height() < 10 or not items:
            return
        painter.setPen(QPen(GRID, 1))
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        n = len(items)
        slot = plot.width() / n
        width = max(2.0, min(slot * 0.72, 46.0))
        label_every = max(1, int((ms.horizontalAdvance("888") + 4) // slot) + 1)
        scale = float(ymax) if ymax > 0 else 1.0
        for i, (label, p, colour, tip) in enumerate(items):
            cx = plot.left() + slot * (i + 0.5)
            height = plot.height() * float(p) / scale
            bar = QRectF(cx - width / 2, plot.bottom() - height, width, height)
            painter.fillRect(bar, colour)
            self._bars.append(Bar(QRectF(cx - slot / 2, plot.top(), slot, plot.height()), tip))
            text = percent_text(float(p))
            if ms.horizontalAdvance(text) <= slot - 1:
                painter.setPen(TEXT)
                painter.drawText(
                    QRectF(cx - slot / 2, bar.top() - ms.height(), slot, ms.height()),
                    int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom),
                    text,
                )
            if i % label_every == 0:
                painter.setPen(MUTED)
                shown = ms.elidedText(label, Qt.TextElideMode.ElideRight, slot * label_every)
                painter.drawText(
                    QRectF(
                        cx - slot * label_every / 2,
                        plot.bottom() + 2,
                        slot * label_every,
                        ms.height(),
                    ),
                    int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop),
                    shown,
                )


def _spin(low: int, high: int, value: int, tip: str = "") -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setValue(value)
    box.setToolTip(tip)
    box.setMinimumWidth(70)
    return box


def _signed_spin(low: int, high: int, tip: str = "") -> QSpinBox:
    return _spin(low, high, 0, tip)


class _SideForm(QGroupBox):
    """One side of a naval combat, as :class:`CombatSide` needs it."""

    def __init__(self, title: str, cv: int, invasion: bool) -> None:
        super().__init__(title)
        form = QFormLayout(self)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.cv = _spin(0, 400, cv, "the Task Force's total combat value")
        self.air = _spin(0, 99, 0, "air points in the combat")
        self.lsp = _spin(0, 99, 1, "LSP allocated to the Task Force (0: -3)")
        self.units = _spin(
            1,
            99,
            4,
            "units in the Task Force (more LSP than units: +2; two steps a unit sink the "
            "whole force, which then cannot win)",
        )
        self.at_base = QCheckBox("a fleet base of its side in the area (+1)")
        self.bonus = _signed_spin(-6, 6, "Advantage Card die bonus")
        self.shift = _signed_spin(-6, 6, "Advantage Card column shift")
        form.addRow("CV", self.cv)
        form.addRow("Air points", self.air)
        form.addRow("LSP", self.lsp)
        form.addRow("Units", self.units)
        form.addRow("", self.at_base)
        form.addRow("Card die bonus", self.bonus)
        form.addRow("Card shift", self.shift)
        self.invasion: QCheckBox | None = None
        if invasion:
            self.invasion = QCheckBox("minor invasion, no landing craft (-2)")
            form.addRow("", self.invasion)

    def set_side(self, title: str, side: CombatSide) -> None:
        """Fill the form from a side of a coming battle (the engine's own inputs)."""
        self.setTitle(title)
        for widget, value in (
            (self.cv, side.cv),
            (self.air, side.air_points),
            (self.lsp, side.lsp),
            (self.units, side.units),
            (self.bonus, side.die_bonus),
            (self.shift, side.column_shift),
        ):
            widget.setValue(value)
        self.at_base.setChecked(side.at_own_fleet_base_area)
        if self.invasion is not None:
            self.invasion.setChecked(side.minor_invasion_without_landing_craft)

    def widgets(self) -> list[QWidget]:
        out: list[QWidget] = [
            self.cv,
            self.air,
            self.lsp,
            self.units,
            self.at_base,
            self.bonus,
            self.shift,
        ]
        return out + ([self.invasion] if self.invasion else [])

    def side(self, name: str) -> CombatSide:
        return CombatSide(
            name,
            self.cv.value(),
            self.air.value(),
            self.at_base.isChecked(),
            self.lsp.value(),
            self.units.value(),
            bool(self.invasion and self.invasion.isChecked()),
            self.bonus.value(),
            self.shift.value(),
        )


class OddsPanel(QWidget):
    """The inputs of ``seacontrol-cli odds naval|merchant`` with a live :class:`OddsChart`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(10)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._naval_page(), "Naval combat")
        self.tabs.addTab(self._merchant_page(), "Merchant warfare")
        self.tabs.currentChanged.connect(self.update_odds)
        self.tabs.setMaximumWidth(380)
        layout.addWidget(self.tabs, 0)
        right = QVBoxLayout()
        self.chart = OddsChart()
        right.addWidget(self.chart, 1)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setFont(ui_font(9))
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        right.addWidget(self.summary)
        layout.addLayout(right, 1)
        self.odds: NavalOdds | MerchantOdds | None = None
        #: the coming battle whose figures fill the forms (None: the umpire's own figures)
        self.shown: BattlePreview | None = None
        self.update_odds()

    def set_battles(self, battles: list[BattlePreview], team_view: bool = False) -> None:
        """The battles step 8 will fight; choosing one shows its exact odds (``team_view``:
        none are listed because a team does not know them before they are fought)."""
        self.battles: list[BattlePreview] = battles
        self.battle.blockSignals(True)
        self.battle.clear()
        self.battle.addItem("— your own figures —")
        for b in battles:
            sides = " v ".join(", ".join(names) for names in b.task_forces.values())
            self.battle.addItem(f"{b.area_name}: {sides}")
        self.battle.blockSignals(False)
        self.battle.setEnabled(bool(battles))
        if battles:
            self.battle.setCurrentIndex(1)  # shows the first coming battle
        self.battle.setToolTip(
            f"{len(battles)} battle(s) coming in step 8"
            if battles
            else "The coming battles are Game Control's to see: a team learns of a battle "
            "when it is fought (View → View as Game Control)"
            if team_view
            else "No battle is coming in step 8 with the orders given"
        )

    def show_battle(self, index: int) -> None:
        if not 1 <= index <= len(self.battles):
            self.shown = None
            return
        b = self.battles[index - 1]
        names = list(b.task_forces)
        self.shown = None  # while the forms are filled
        self.side_a.set_side(f"{b.a.name}: {', '.join(b.task_forces[names[0]])}", b.a)
        self.side_b.set_side(f"{b.b.name}: {', '.join(b.task_forces[names[1]])}", b.b)
        self.shown = b
        self.tabs.setCurrentIndex(0)
        self.update_odds()

    def _naval_page(self) -> QWidget:
        page = QWidget()
        col = QVBoxLayout(page)
        self.battles = []
        self.battle = QComboBox()
        self.battle.currentIndexChanged.connect(self.show_battle)
        col.addWidget(QLabel("Coming battle (step 8):"))
        col.addWidget(self.battle)
        self.side_a = _SideForm("Your side", 20, invasion=True)
        self.side_b = _SideForm("Enemy", 20, invasion=False)
        for form in (self.side_a, self.side_b):
            col.addWidget(form)
            for w in form.widgets():
                _on_change(w, self.update_odds)
        col.addStretch(1)
        return page

    def _merchant_page(self) -> QWidget:
        page = QWidget()
        col = QVBoxLayout(page)
        box = QGroupBox("Merchant combat")
        form = QFormLayout(box)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.attack_cv = _spin(1, 400, 12, "the interdictors' total CV")
        self.escort_cv = _spin(0, 400, 4, "the escorts' total CV (0: unescorted)")
        self.attacker = QComboBox()
        for key, label in calculator.ATTACKERS.items():
            self.attacker.addItem(label, key)
        self.attackers = _spin(1, 99, 4, "number of interdicting units")
        self.shift = _signed_spin(-8, 8, "net column shift in the interdictor's favour")
        self.bonus = _signed_spin(-6, 6, "interdictor's Advantage Card die bonus")
        self.escort_bonus = _signed_spin(-6, 6, "escort's Advantage Card die bonus")
        self.short_row = QComboBox()
        for key in SHORT_ROW_READINGS:
            self.short_row.addItem(SHORT_ROW_TEXT.get(key, key), key)
        self.short_row.setCurrentIndex(self.short_row.findData(DEFAULT_SHORT_ROW))
        self.short_row.setToolTip("reading of the colour table's short '-3 / -2' row")
        for label, w in (
            ("Interdictor CV", self.attack_cv),
            ("Escort CV", self.escort_cv),
            ("Attacker", self.attacker),
            ("Attacking units", self.attackers),
            ("Column shift", self.shift),
            ("Card bonus", self.bonus),
            ("Escort card bonus", self.escort_bonus),
            ("Short row", self.short_row),
        ):
            form.addRow(label, w)
            _on_change(w, self.update_odds)
        col.addWidget(box)
        col.addStretch(1)
        return page

    def mode(self) -> str:
        """``"naval"`` or ``"merchant"``: the tab shown."""
        return "naval" if self.tabs.currentIndex() == 0 else "merchant"

    def update_odds(self) -> None:
        """Recompute the odds from the inputs and redraw the chart."""
        odds: NavalOdds | MerchantOdds
        try:
            if self.mode() == "naval":
                a, b = self.side_a.side("You"), self.side_b.side("Enemy")
                shown = self.shown
                if (
                    shown is not None
                    and replace(a, name=shown.a.name) == shown.a
                    and replace(b, name=shown.b.name) == shown.b
                ):
                    # the coming battle as the engine sees it: the winner by CV lost, the
                    # units taking their steps as the default loss policy would
                    odds = shown.odds()
                else:
                    odds = naval_odds(a, b)
                self.chart.set_naval(odds)
                self.summary.setText(_naval_summary(odds))
            else:
                combat = calculator.merchant_combat(
                    self.attack_cv.value(),
                    self.escort_cv.value(),
                    str(self.attacker.currentData()),
                    self.attackers.value(),
                    shift=self.shift.value(),
                    bonus=self.bonus.value(),
                    escort_bonus=self.escort_bonus.value(),
                )
                odds = merchant_odds(combat, str(self.short_row.currentData()))
                self.chart.set_merchant(odds)
                self.summary.setText(_merchant_summary(odds))
        except ValueError as exc:
            self.odds = None
            self.chart.clear()
            self.summary.setText(f"<span style='color:#a33b3b'>{exc}</span>")
            return
        self.odds = odds


def _wins(name: str) -> str:
    return f"{name} win" if name.lower() in ("you", "we") else f"{name} wins"


def _on_change(widget: QWidget, slot: Callable[[], None]) -> None:
    if isinstance(widget, QSpinBox):
        widget.valueChanged.connect(slot)
    elif isinstance(widget, QComboBox):
        widget.currentIndexChanged.connect(slot)
    elif isinstance(widget, QCheckBox):
        widget.toggled.connect(slot)


def _mods(mods: Sequence[Modifier]) -> str:
    return ", ".join(f"{m.label} {m.value:+d}" for m in mods) or "no modifiers"


def _naval_summary(odds: NavalOdds) -> str:
    lines = []
    for fire in (odds.a_fire, odds.b_fire):
        lines.append(f"<b>{fire.side}</b> DRM {fire.drm:+d}: {_mods(fire.modifiers)}")
    lines.append(
        f"Equal steps lost: {percent_text(float(odds.p_tie_steps))} (then the side with more"
        " CV left wins)"
    )
    return "<br>".join(lines)


def _merchant_summary(odds: MerchantOdds) -> str:
    if odds.column is None:
        return "No combat: the interdictor's odds are below 1:3."
    c = odds.combat
    base = mw.ODDS_LABELS[odds.base_column] if odds.base_column is not None else "–"
    raider = f"{float(mean(odds.raider_steps)):.2f} ± {sd(odds.raider_steps):.2f}"
    escort = f"{float(mean(odds.escort_steps)):.2f} ± {sd(odds.escort_steps):.2f}"
    return (
        f"Odds column <b>{odds.column_label}</b> (base {base}, shift {c.shift:+d}); die bonus"
        f" {c.attack_bonus:+d}, escort {c.escort_bonus:+d}.<br>Steps lost: raiders {raider},"
        f" escorts {escort}. Hover a bar for the exact fraction."
    )
