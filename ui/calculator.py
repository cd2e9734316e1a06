"""The umpire's calculator for games played on paper: the seed's tables, with the dice typed in.

Every number comes from :mod:`campaign.calculator` (:func:`~campaign.calculator.calc_naval`,
:func:`~campaign.calculator.calc_merchant`); this panel only collects the inputs and shows
the result next to the table it was read from, with the cells used highlighted.

* **Naval fire** (002 "Damage Calculations"): the CV, the total die modifier and one d6 per
  20 CV or part thereof; each die's CV row, modified roll, column and steps, and the total.
* **Merchant warfare** (002 "Calculating Losses"): interdictor and escort CV, what attacks
  and how many, the column shift, the card bonuses, the two d6; the odds column, the dice
  difference and row, the colour and the losses.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from campaign import calculator
from campaign import merchant_warfare as mw
from campaign import naval_combat as nc
from ui.oddschart import HUES, SHORT_ROW_TEXT
from ui.style import MUTED, SELECTION, TEXT, ui_font
from ui.tables import cell

NAVAL_COLUMNS = ("Die", "CV row", "Roll", "Modified", "Column", "Steps")


class _UsedCellDelegate(QStyledItemDelegate):
    """Draws a dark frame round the cells the result was read from (``used``: row, column)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.used: set[tuple[int, int]] = set()

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        super().paint(painter, option, index)
        if (index.row(), index.column()) in self.used:
            painter.save()
            painter.setPen(QPen(TEXT, 2.5))
            rect: QRect = option.rect.adjusted(1, 1, -2, -2)
            painter.drawRect(rect)
            painter.restore()


def _grid(rows: int, columns: int) -> tuple[QTableWidget, _UsedCellDelegate]:
    table = QTableWidget(rows, columns)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    delegate = _UsedCellDelegate(table)
    table.setItemDelegate(delegate)
    table.setShowGrid(True)
    table.setStyleSheet("QTableWidget { gridline-color: #c9d5df; }")
    return table, delegate


def _spin(low: int, high: int, value: int, tip: str = "") -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setValue(value)
    if tip:
        box.setToolTip(tip)
    box.setMinimumWidth(64)
    return box


def _tint(colour: QColor, amount: float) -> QColor:
    """``colour`` mixed with white (``amount`` 0 = white, 1 = the colour)."""
    return QColor(
        round(255 + (colour.red() - 255) * amount),
        round(255 + (colour.green() - 255) * amount),
        round(255 + (colour.blue() - 255) * amount),
    )


def _value_label(bold: bool = False) -> QLabel:
    label = QLabel("—")
    label.setFont(ui_font(10, bold=bold))
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class CalculatorPanel(QWidget):
    """Naval fire and merchant warfare by hand, with the seed's tables beside the result."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.naval_result: dict[str, Any] | None = None
        self.merchant_result: dict[str, Any] | None = None
        self.naval_dice: list[QSpinBox] = []
        # fonts are made once and kept: a temporary QFont given to QTableWidgetItem.setFont
        # upsets PySide 6.12's reference counts (a crash at exit)
        self._cell_font = ui_font(9)
        self._used_font = ui_font(9.5, bold=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._naval_page(), "Naval fire")
        self.tabs.addTab(self._merchant_page(), "Merchant warfare")
        layout.addWidget(self.tabs)
        self._rebuild_dice()
        self.calculate_merchant()

    # == naval =====================================================================================
    def _naval_page(self) -> QWidget:
        page = QWidget()
        row = QHBoxLayout(page)
        row.setSpacing(12)
        left = QVBoxLayout()
        inputs = QGroupBox("Fire")
        form = QFormLayout(inputs)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.naval_cv = _spin(0, 400, 45, "the firing side's total combat value")
        self.naval_drm = _spin(-12, 12, 0, "the sum of the die modifiers (see the rules)")
        self.naval_drm.setPrefix("DRM ")
        self.naval_shift = _spin(
            -3, 3, 0, "Advantage Card column shifts: they move the column, not the die"
        )
        self.naval_dice_note = QLabel()
        self.naval_dice_note.setStyleSheet(f"color: {MUTED.name()}")
        self.naval_dice_note.setWordWrap(True)
        form.addRow("Combat value", self.naval_cv)
        form.addRow("Die modifier", self.naval_drm)
        form.addRow("Column shift", self.naval_shift)
        form.addRow("", self.naval_dice_note)
        left.addWidget(inputs)
        self.dice_box = QGroupBox("Dice rolled (d6)")
        self.dice_grid = QGridLayout(self.dice_box)
        self.dice_grid.setHorizontalSpacing(10)
        left.addWidget(self.dice_box)
        results = QGroupBox("Result")
        col = QVBoxLayout(results)
        self.naval_table = QTableWidget(0, len(NAVAL_COLUMNS))
        self.naval_table.setHorizontalHeaderLabels(NAVAL_COLUMNS)
        self.naval_table.verticalHeader().setVisible(False)
        self.naval_table.verticalHeader().setDefaultSectionSize(22)
        self.naval_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.naval_table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.naval_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        col.addWidget(self.naval_table, 1)
        self.naval_total = QLabel()
        self.naval_total.setFont(ui_font(12, bold=True))
        self.naval_total.setWordWrap(True)
        col.addWidget(self.naval_total)
        left.addWidget(results, 1)
        row.addLayout(left, 2)

        table_box = QGroupBox("Damage table (002): CV row × modified roll → steps of loss")
        tcol = QVBoxLayout(table_box)
        self.damage_grid, self._damage_marks = _grid(len(nc.DAMAGE_TABLE), len(nc.ROLL_COLUMNS))
        self.damage_grid.setHorizontalHeaderLabels(
            [
                calculator.column_label(c).replace(" or less", "−").replace(" +", "+")
                for c in nc.ROLL_COLUMNS
            ]
        )
        self.damage_grid.setVerticalHeaderLabels([str(cv) for cv in nc.DAMAGE_TABLE])
        hh, vh = self.damage_grid.horizontalHeader(), self.damage_grid.verticalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        hh.setMinimumSectionSize(24)
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        vh.setMinimumSectionSize(18)
        for r, (cv, cells) in enumerate(nc.DAMAGE_TABLE.items()):
            for c, steps in enumerate(cells):
                item = QTableWidgetItem(str(steps))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                item.setToolTip(
                    f"CV {cv}, modified roll {calculator.column_label(nc.ROLL_COLUMNS[c])}:"
                    f" {steps} step(s)"
                )
                self.damage_grid.setItem(r, c, item)
        tcol.addWidget(self.damage_grid)
        hint = QLabel("Rows: the CV on one die (20 a die; the part left over on its own row).")
        hint.setStyleSheet(f"color: {MUTED.name()}")
        tcol.addWidget(hint)
        row.addWidget(table_box, 3)
        self.naval_cv.valueChanged.connect(self._rebuild_dice)
        self.naval_drm.valueChanged.connect(self.calculate_naval)
        self.naval_shift.valueChanged.connect(self.calculate_naval)
        return page

    def _rebuild_dice(self) -> None:
        """One spin box per die the CV needs (values already typed are kept)."""
        chunks = nc.dice_for(self.naval_cv.value())
        old = [box.value() for box in self.naval_dice]
        while self.dice_grid.count():
            item = self.dice_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.naval_dice = []
        per_row = 4
        for i, chunk in enumerate(chunks):
            box = _spin(
                1, 6, old[i] if i < len(old) else 1, f"die {i + 1}: rolls on CV row {chunk}"
            )
            box.valueChanged.connect(self.calculate_naval)
            label = QLabel(f"Die {i + 1} (CV {chunk})")
            r, c = divmod(i, per_row)
            self.dice_grid.addWidget(label, r, 2 * c)
            self.dice_grid.addWidget(box, r, 2 * c + 1)
            self.naval_dice.append(box)
        if not chunks:
            self.dice_grid.addWidget(QLabel("CV 0 rolls no dice."), 0, 0)
        n = len(chunks)
        rows = " + ".join(str(c) for c in chunks) or "none"
        self.naval_dice_note.setText(
            f"{n} {'die' if n == 1 else 'dice'}: one per 20 CV or part thereof (CV rows {rows})"
        )
        self.calculate_naval()

    def calculate_naval(self) -> dict[str, Any] | None:
        """Read the naval inputs, calculate, show; returns the result (None if refused)."""
        try:
            result = calculator.calc_naval(
                self.naval_cv.value(),
                [b.value() for b in self.naval_dice],
                self.naval_drm.value(),
                self.naval_shift.value(),
            )
        except ValueError as exc:
            self.naval_result = None
            self.naval_table.setRowCount(0)
            self.naval_total.setText(f"<span style='color:#a33b3b'>{exc}</span>")
            self._highlight_damage([])
            return None
        self.naval_result = result
        dice = result["dice"]
        self.naval_table.setRowCount(len(dice))
        for r, d in enumerate(dice):
            values = (d["die"], d["cv"], d["roll"], f"{d['modified']:+d}", d["column"], d["steps"])
            for c, value in enumerate(values):
                item = QTableWidgetItem(str(value))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.naval_table.setItem(r, c, item)
        steps = result["steps"]
        self.naval_total.setText(
            f"Total: {steps} step{'' if steps == 1 else 's'} of loss inflicted"
            if dice
            else "CV 0 inflicts no steps."
        )
        self._highlight_damage(dice)
        return result

    def _highlight_damage(self, dice: list[dict[str, Any]]) -> None:
        used: dict[tuple[int, int], list[int]] = {}
        rows = list(nc.DAMAGE_TABLE)
        for d in dice:
            column = d["column_read"] - nc.MIN_COLUMN
            used.setdefault((rows.index(d["cv"]), column), []).append(d["die"])
        shade = QColor("#2e6f9e")
        for r, cells in enumerate(nc.DAMAGE_TABLE.values()):
            for c, steps in enumerate(cells):
                item = cell(self.damage_grid, r, c)
                dice_here = used.get((r, c))
                if dice_here:
                    item.setBackground(QBrush(SELECTION))
                    item.setFont(self._used_font)
                    names = ", ".join(str(n) for n in dice_here)
                    item.setToolTip(f"die {names}: {steps} step(s)")
                else:
                    item.setBackground(QBrush(_tint(shade, 0.05 + 0.09 * steps)))
                    item.setFont(self._cell_font)
        self._damage_marks.used = set(used)
        self.damage_grid.viewport().update()

    # == merchant ==================================================================================
    def _merchant_page(self) -> QWidget:
        page = QWidget()
        row = QHBoxLayout(page)
        row.setSpacing(12)
        left = QVBoxLayout()
        inputs = QGroupBox("Combat")
        form = QFormLayout(inputs)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.m_attack_cv = _spin(1, 400, 12, "the interdictors' total CV")
        self.m_escort_cv = _spin(0, 400, 4, "the escorts' total CV (0: unescorted route)")
        self.m_attacker = QComboBox()
        for key, label in calculator.ATTACKERS.items():
            self.m_attacker.addItem(label, key)
        self.m_attackers = _spin(1, 99, 4, "how many interdicting units")
        self.m_shift = _spin(-8, 8, 0, "net column shift in the interdictor's favour")
        self.m_bonus = _spin(-6, 6, 0, "the interdictor's Advantage Card die bonus")
        self.m_escort_bonus = _spin(-6, 6, 0, "the escort's Advantage Card die bonus")
        self.m_attack_roll = _spin(1, 6, 1, "the interdictor's d6")
        self.m_escort_roll = _spin(1, 6, 1, "the escort's d6")
        self.m_short_row = QComboBox()
        for key in mw.SHORT_ROW_READINGS:
            self.m_short_row.addItem(SHORT_ROW_TEXT.get(key, key), key)
        self.m_short_row.setCurrentIndex(self.m_short_row.findData(mw.DEFAULT_SHORT_ROW))
        self.m_short_row.setToolTip(
            "the seed's '-3 / -2' row has 8 cells for 9 columns: how to read it"
        )
        for label, w in (
            ("Interdictor CV", self.m_attack_cv),
            ("Escort CV", self.m_escort_cv),
            ("Attacker", self.m_attacker),
            ("Attacking units", self.m_attackers),
            ("Column shift", self.m_shift),
            ("Card bonus", self.m_bonus),
            ("Escort card bonus", self.m_escort_bonus),
            ("Interdictor's roll", self.m_attack_roll),
            ("Escort's roll", self.m_escort_roll),
            ("Short row", self.m_short_row),
        ):
            form.addRow(label, w)
            if isinstance(w, QSpinBox):
                w.valueChanged.connect(self.calculate_merchant)
            else:
                w.currentIndexChanged.connect(self.calculate_merchant)
        left.addWidget(inputs)

        results = QGroupBox("Result")
        grid = QFormLayout(results)
        grid.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.m_labels: dict[str, QLabel] = {}
        for key, label in (
            ("odds", "Odds column"),
            ("dice", "Dice difference"),
            ("row", "Row"),
            ("colour", "Colour"),
            ("tonnage", "Tonnage lost"),
            ("escorts", "Escort steps"),
            ("raiders", "Raider steps"),
        ):
            self.m_labels[key] = _value_label(bold=key == "colour")
            grid.addRow(label, self.m_labels[key])
        self.m_note = QLabel()
        self.m_note.setWordWrap(True)
        self.m_note.setStyleSheet(f"color: {MUTED.name()}")
        grid.addRow(self.m_note)
        left.addWidget(results, 1)
        row.addLayout(left, 2)

        table_box = QGroupBox("Colour table (002): dice difference × odds column")
        tcol = QVBoxLayout(table_box)
        self.colour_grid, self._colour_marks = _grid(len(mw.ROW_LABELS), len(mw.ODDS_LABELS))
        self.colour_grid.setHorizontalHeaderLabels(
            [label.replace(" or ", "\nor ") for label in mw.ODDS_LABELS]
        )
        self.colour_grid.setVerticalHeaderLabels(list(mw.ROW_LABELS))
        hh, vh = self.colour_grid.horizontalHeader(), self.colour_grid.verticalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        tcol.addWidget(self.colour_grid, 1)
        self.results_table = QLabel(_results_text())
        self.results_table.setWordWrap(True)
        self.results_table.setStyleSheet(f"color: {MUTED.name()}")
        tcol.addWidget(self.results_table)
        row.addWidget(table_box, 3)
        return page

    def calculate_merchant(self) -> dict[str, Any] | None:
        """Read the merchant inputs, calculate, show; returns the result (None if refused)."""
        try:
            result = calculator.calc_merchant(
                self.m_attack_cv.value(),
                self.m_escort_cv.value(),
                self.m_attack_roll.value(),
                self.m_escort_roll.value(),
                str(self.m_attacker.currentData()),
                self.m_attackers.value(),
                shift=self.m_shift.value(),
                bonus=self.m_bonus.value(),
                escort_bonus=self.m_escort_bonus.value(),
                short_row=str(self.m_short_row.currentData()),
            )
        except ValueError as exc:
            self.merchant_result = None
            for label in self.m_labels.values():
                label.setText("—")
            self.m_note.setText(f"<span style='color:#a33b3b'>{exc}</span>")
            self._fill_colour_grid(None)
            return None
        self.merchant_result = result
        r = result
        labels = self.m_labels
        if not r["combat"]:
            for label in labels.values():
                label.setText("—")
            labels["odds"].setText("below 1:3: no combat")
            self.m_note.setText(r["description"])
            self._fill_colour_grid(r)
            return r
        odds = r["odds_column"]
        if r["shift"]:
            odds = f"{r['base_odds_column']} shifted {r['shift']:+d} → {odds}"
        labels["odds"].setText(odds)
        attack = f"{r['attack_roll']}" + (f"{r['bonus']:+d}" if r["bonus"] else "")
        escort = f"{r['escort_roll']}" + (f"{r['escort_bonus']:+d}" if r["escort_bonus"] else "")
        labels["dice"].setText(f"{attack} − {escort} = {r['difference']:+d}")
        labels["row"].setText(r["row"])
        code = next(k for k, v in mw.COLOURS.items() if v == r["colour"])
        hue = HUES[code]
        labels["colour"].setText(
            f"<span style='background:{hue.name()}; color:{_ink(hue)}'>&nbsp;"
            f"{r['colour'].upper()}&nbsp;</span>"
        )
        labels["tonnage"].setText(f"{r['tonnage_lost']} points ({r['tonnage_rate']})")
        labels["escorts"].setText(
            f"{r['escort_steps']} ({r['escort_pct']}% of {r['attack_cv']}, rounded down)"
            if r["escort_cv"]
            else "none: no escorts on the route"
        )
        labels["raiders"].setText(
            f"{r['raider_steps']} ({r['raider_pct']}% of {r['escort_cv']}, rounded down)"
        )
        note = ""
        if r["attacker"] in calculator.OUTCLASSES and not r["shift"]:
            note = (
                f"A {calculator.ATTACKERS[r['attacker']]} outclasses "
                f"{calculator.OUTCLASSES[r['attacker']]}: if so, set the column shift to "
                f"+{calculator.OUTCLASSED_SHIFT}."
            )
        self.m_note.setText(note)
        self._fill_colour_grid(r)
        return r

    def _fill_colour_grid(self, r: dict[str, Any] | None) -> None:
        short_row = str(self.m_short_row.currentData())
        table = mw.colour_table(short_row)
        seed = mw.seed_rows()
        used: tuple[int, int] | None = None
        if r and r["combat"]:
            used = (mw.ROW_LABELS.index(r["row"]), mw.ODDS_LABELS.index(r["odds_column"]))
        for i, cells in enumerate(table):
            for j, code in enumerate(cells):
                item = self.colour_grid.item(i, j)
                if item is None:
                    item = QTableWidgetItem()
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                    self.colour_grid.setItem(i, j, item)
                hue = HUES[code]
                item.setText(mw.COLOURS[code])
                tip = f"row {mw.ROW_LABELS[i]}, column {mw.ODDS_LABELS[j]}: {mw.COLOURS[code]}"
                if i == mw.SHORT_ROW and (j >= len(seed[i]) or seed[i][j] != code):
                    reading = SHORT_ROW_TEXT.get(short_row, short_row)
                    tip += f"\n(the seed's short row, read as: {reading})"
                    item.setText(mw.COLOURS[code] + "*")
                item.setToolTip(tip)
                if used == (i, j):
                    item.setBackground(QBrush(hue))
                    item.setForeground(QBrush(QColor(_ink(hue))))
                    item.setFont(self._used_font)
                else:
                    item.setBackground(QBrush(_tint(hue, 0.28)))
                    item.setForeground(QBrush(TEXT))
                    item.setFont(self._cell_font)
        self._colour_marks.used = {used} if used else set()
        self.colour_grid.viewport().update()


def _ink(background: QColor) -> str:
    """Black or white, whichever reads better on ``background``."""
    return "#1d2b36" if background.lightnessF() > 0.6 else "#ffffff"


def _results_text() -> str:
    """The seed's results table in one line per colour."""
    lines = []
    for res in mw.RESULTS.values():
        lines.append(
            f"<b>{res.colour}</b>: raiders lose {res.raider_surface_pct}% (surface) /"
            f" {res.raider_sub_pct}% (subs) of escort CV; escorts {res.escort_pct}% of raider"
            f" CV; tonnage {_rate(res.german_sub_rate)} per German flotilla,"
            f" {_rate(res.other_rate)} per other unit"
        )
    return "<br>".join(lines) + "<br>* short row (see the option on the left)"


def _rate(rate: Any) -> str:
    if rate == 0:
        return "nil"
    return str(rate.numerator) if rate.denominator == 1 else f"1/{rate.denominator}"
