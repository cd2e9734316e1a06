"""The scenario editor: a scenario's order of battle and board, table by table, on the map.

A window over one :class:`~campaign.scenario_edit.Draft` — a scenario folder opened, a
built-in scenario's copy, a new empty scenario or a game's position: on the left the kinds
of record (nations, bases, units, ships…), in the middle a table of the kind chosen (add,
duplicate, delete; choices offered from the scenario itself), under it the problems the
loader's own validator finds as you edit, and on the right the map, where bases are placed
and merchant routes drawn by clicking. Every edit is a ``QUndoCommand`` holding a draft
``Edit``; renames carry through to every reference. A draft with problems can be saved, but
a game starts only from a scenario without errors.

A game in progress is not edited here (that is Game Control's edit mode); *New scenario from
this game* makes a draft of a game's position instead.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QAction,
    QBrush,
    QCloseEvent,
    QColor,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QShowEvent,
    QUndoCommand,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign import paths
from campaign.csvdata import Column, InputError, Problem, describe
from campaign.options import RULE_OPTIONS
from campaign.scenario import META_FILE, META_KEYS, PERIODS, Scenario
from campaign.scenario_edit import (
    SCHEMAS,
    Check,
    Draft,
    DraftListener,
    Edit,
    InsertRow,
    Op,
    RemoveRow,
    SetCell,
    SetMeta,
    coordinate,
    waypoints,
)
from campaign.snapshot import scenario_from_game
from campaign.units import NAVAL_RANGE
from campaign.untrusted import escaped
from campaign.validation import REF_TABLES

from .dialogs import save_first
from .scenario_map import (
    LIFT_WORDS,
    MOVE_BASE,
    NEW_BASE,
    ROUTE,
    SELECT,
    DraftSession,
    ScenarioChart,
    layout_of,
)

if TYPE_CHECKING:
    from .mainwindow import MainWindow

#: the kinds of record, in the order the editor lists them: (table, what people call it)
KINDS: tuple[tuple[str, str], ...] = (
    ("nations", "Nations and sides"),
    ("bases", "Bases, ports, islands"),
    ("garrisons", "Garrisons"),
    ("units", "Naval units"),
    ("ships", "Ships"),
    ("air_groups", "Carrier air groups"),
    ("routes", "Merchant routes"),
    ("production", "Production"),
    ("shipyards", "Shipyards"),
    ("cards", "Advantage Cards"),
    ("flags", "Operations Flags"),
    ("air", "Air Points"),
    ("air_ranges", "Air ranges"),
    ("lsp", "LSP at fleet bases"),
    ("lsp_supply", "LSP supply"),
    ("sea_areas", "Sea areas"),
    ("adjacency", "Sea-area links"),
)
SETTINGS = "settings"
#: how long after the last edit the validator runs (ms)
CHECK_DELAY_MS = 300
ERROR_TINT = QColor("#f4c7c1")
WARNING_TINT = QColor("#fbe6b0")
ROW_TINT = QColor("#fbe4e0")
#: characters of a cell shown in the table (the whole text is in its tooltip and editor)
SHOWN_CHARS = 90
#: what :func:`campaign.untrusted.escaped` writes out (the test before the slower escaping)
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
#: rows measured to size a table's columns (a few screens' worth, not every ship)
MEASURED_ROWS = 60
#: problems listed in the panel at the most (the count says how many more)
MAX_LISTED = 400
FOLDER_NOTE = "Scenario folder"


class RecordsModel(QAbstractTableModel):
    """One table of the draft, cell by cell as text; a cell with a problem is tinted and
    says the problem in its tooltip. Edits go to the editor, which makes them undoable."""

    def __init__(self, editor: ScenarioEditor, table: str) -> None:
        super().__init__(editor)
        self.editor = editor
        self.table = table
        self.schema = SCHEMAS[table]
        self.cell_problems: dict[tuple[int, int], list[Problem]] = {}
        self.row_problems: dict[int, list[Problem]] = {}

    @property
    def rows(self) -> list[list[str]]:
        return self.editor.draft.rows[self.table]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.schema.columns)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = 0) -> Any:
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        text = self.rows[index.row()][index.column()]
        problems = self.cell_problems.get((index.row(), index.column()), [])
        if role == Qt.ItemDataRole.DisplayRole:
            # a control or a bidirectional override is shown written out, never obeyed
            shown = text.replace("\r", "").replace("\n", " ⏎ ")
            shown = escaped(shown) if UNSAFE.search(shown) else shown
            return shown if len(shown) <= SHOWN_CHARS else shown[: SHOWN_CHARS - 1] + "…"
        if role == Qt.ItemDataRole.EditRole:
            return text
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [p.message for p in problems]
            lines += [p.message for p in self.row_problems.get(index.row(), [])]
            if len(text) > SHOWN_CHARS or "\n" in text:
                lines.append(text[:1000])
            return "\n".join(lines) or None
        if role == Qt.ItemDataRole.BackgroundRole:
            if problems:
                severe = any(p.severity == "error" for p in problems)
                return QBrush(ERROR_TINT if severe else WARNING_TINT)
            if index.row() in self.row_problems:
                return QBrush(ROW_TINT)
            return None
        if role == Qt.ItemDataRole.DecorationRole and self.schema.columns[index.column()].kind == (
            "colour"
        ):
            colour = QColor(text.strip())
            return colour if colour.isValid() else None
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Vertical:
            if role == Qt.ItemDataRole.DisplayRole:
                return str(section + 2)  # the spreadsheet row: the header is row 1
            if role == Qt.ItemDataRole.ToolTipRole:
                return f"Row {section + 2} of {self.schema.file}"
            return None
        if section >= len(self.schema.columns):
            return None
        col = self.schema.columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return col.name
        if role == Qt.ItemDataRole.ToolTipRole:
            return column_help(col)
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable

    def setData(
        self, index: QModelIndex | QPersistentModelIndex, value: Any, role: int = 2
    ) -> bool:
        if not index.isValid() or role != Qt.ItemDataRole.EditRole:
            return False
        column = self.schema.columns[index.column()].name
        self.editor.edit_cell(self.table, index.row(), column, "" if value is None else str(value))
        return True

    def set_problems(self, problems: Sequence[Problem]) -> None:
        """Mark the cells (and rows) these problems of this file are about."""
        cells: dict[tuple[int, int], list[Problem]] = {}
        rows: dict[int, list[Problem]] = {}
        names = self.schema.names
        for p in problems:
            if p.row < 2:
                continue
            if p.field in names:
                cells.setdefault((p.row - 2, names.index(p.field)), []).append(p)
            else:
                rows.setdefault(p.row - 2, []).append(p)
        if cells == self.cell_problems and rows == self.row_problems:
            return
        self.cell_problems, self.row_problems = cells, rows
        if self.rows:
            last = self.index(len(self.rows) - 1, len(names) - 1)
            self.dataChanged.emit(self.index(0, 0), last, [Qt.ItemDataRole.BackgroundRole])


def column_help(col: Column) -> str:
    """A column's tooltip: what it holds and whether it may be empty."""
    text = f"{col.name}: {describe(col)}"
    text += "" if col.required else " (may be empty)"
    target = REF_TABLES.get(col.ref or "")
    if target is not None:
        text += f" — from {SCHEMAS[target].file}"
    if col.help:
        text += f"\n{col.help}"
    return text


class ChoiceDelegate(QStyledItemDelegate):
    """Cells whose values come from a list get a drop-down: a list's values (a unit's type,
    a nation's side), yes/no, and the records of the table a column refers to (a unit's
    base from the bases, a ship's unit from the units) — typed text still goes, for the
    validator to judge."""

    def __init__(self, editor: ScenarioEditor, table: str) -> None:
        super().__init__(editor)
        self.editor = editor
        self.table = table

    def createEditor(
        self,
        parent: QWidget,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> QWidget:
        col = SCHEMAS[self.table].columns[index.column()]
        choices = self.editor.choices(col)
        if choices is None:
            return super().createEditor(parent, option, index)
        combo = QComboBox(parent)
        combo.setEditable(col.kind not in ("enum", "bool"))
        combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        combo.setMaxVisibleItems(20)
        for value, label in choices:
            combo.addItem(label, value)
        return combo

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        if not isinstance(editor, QComboBox):
            super().setEditorData(editor, index)
            return
        text = str(index.data(Qt.ItemDataRole.EditRole) or "")
        found = editor.findData(text.strip())
        if found >= 0:
            editor.setCurrentIndex(found)
        elif editor.isEditable():
            editor.setEditText(text)

    def setModelData(
        self,
        editor: QWidget,
        model: QAbstractTableModel | QSortFilterProxyModel | Any,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        if not isinstance(editor, QComboBox):
            super().setModelData(editor, model, index)
            return
        found = editor.findText(editor.currentText())
        value = editor.itemData(found) if found >= 0 else None
        if value is None:
            value = editor.currentText().strip()  # typed: the validator judges it
        model.setData(index, value, Qt.ItemDataRole.EditRole)


class RecordsView(QTableView):
    """A table that copies, pastes and clears blocks of cells as a spreadsheet does
    (tab-separated text: what spreadsheets put on the clipboard)."""

    def __init__(self, page: TablePage) -> None:
        super().__init__()
        self.page = page

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Copy):
            self.page.copy_cells()
        elif event.matches(QKeySequence.StandardKey.Paste):
            self.page.paste_cells()
        elif event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and not event.modifiers():
            self.page.clear_cells()
        else:
            super().keyPressEvent(event)


class TablePage(QWidget):
    """One kind of record: a filter, the record buttons and the table."""

    def __init__(self, editor: ScenarioEditor, table: str) -> None:
        super().__init__()
        self.table = table
        self.model = RecordsModel(editor, table)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setFilterKeyColumn(-1)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter rows (any column)…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.add_button = QPushButton("Add")
        self.duplicate_button = QPushButton("Duplicate")
        self.delete_button = QPushButton("Delete")
        self.editor = editor
        self.add_button.clicked.connect(editor.add_record)
        self.duplicate_button.clicked.connect(editor.duplicate_records)
        self.delete_button.clicked.connect(editor.delete_records)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.filter, 1)
        for button in (self.add_button, self.duplicate_button, self.delete_button):
            top.addWidget(button)
        self.view = RecordsView(self)
        self.view.setModel(self.proxy)
        self.view.setItemDelegate(ChoiceDelegate(editor, table))
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.horizontalHeader().setResizeContentsPrecision(MEASURED_ROWS)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.selectionModel().currentRowChanged.connect(
            lambda _now, _before: editor.record_chosen(self.table, self.current_row())
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.view)
        self._sized = False

    def size_columns(self) -> None:
        """Columns as wide as their contents, within reason (once, when first shown)."""
        if self._sized or not self.model.rows:
            return
        self._sized = True
        self.view.resizeColumnsToContents()
        header = self.view.horizontalHeader()
        for i in range(header.count()):
            header.resizeSection(i, max(56, min(header.sectionSize(i), 240)))

    def current_row(self) -> int | None:
        index = self.view.currentIndex()
        if not index.isValid():
            return None
        return self.proxy.mapToSource(index).row()

    def selected_rows(self) -> list[int]:
        """The rows with a selected cell (or the current row), as rows of the table."""
        rows = {
            self.proxy.mapToSource(i).row() for i in self.view.selectionModel().selectedIndexes()
        }
        current = self.current_row()
        if not rows and current is not None:
            rows = {current}
        return sorted(r for r in rows if 0 <= r < len(self.model.rows))

    def selected_cells(self) -> list[tuple[int, int]]:
        """(row, column) of the selected cells, as the table's, in reading order."""
        chosen = self.view.selectionModel().selectedIndexes() or [self.view.currentIndex()]
        cells = {(self.proxy.mapToSource(i).row(), i.column()) for i in chosen if i.isValid()}
        return sorted(cells)

    def copy_cells(self) -> None:
        """The selected block as tab-separated text on the clipboard."""
        cells = self.selected_cells()
        if not cells:
            return
        rows = sorted({r for r, _ in cells})
        columns = sorted({c for _, c in cells})
        chosen = set(cells)
        out = io.StringIO()
        writer = csv.writer(out, delimiter="\t", lineterminator="\n")
        for r in rows:
            writer.writerow([self.model.rows[r][c] if (r, c) in chosen else "" for c in columns])
        QGuiApplication.clipboard().setText(out.getvalue())

    def paste_cells(self) -> None:
        """Tab-separated text from the clipboard, its top left at the current cell."""
        row, column = self.current_row(), self.view.currentIndex().column()
        text = QGuiApplication.clipboard().text()
        if not text:
            return
        block = [r for r in csv.reader(io.StringIO(text), delimiter="\t") if r]
        if row is None:
            row, column = len(self.model.rows), 0
        self.editor.push(self.editor.draft.paste_edit(self.table, row, max(column, 0), block))

    def clear_cells(self) -> None:
        names = SCHEMAS[self.table].names
        cells = [(r, names[c]) for r, c in self.selected_cells()]
        self.editor.push(self.editor.draft.clear_edit(self.table, cells))

    def select(self, row: int, column: int = 0) -> None:
        """Show and select a cell (the filter is cleared when it hides the row)."""
        if not 0 <= row < len(self.model.rows):
            return
        source = self.model.index(row, max(0, column))
        index = self.proxy.mapFromSource(source)
        if not index.isValid():
            self.filter.clear()
            index = self.proxy.mapFromSource(source)
        self.view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
        )
        self.view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)


class SettingsPage(QScrollArea):
    """scenario.toml: what the scenario is called, its turns, and the rule options."""

    def __init__(self, editor: ScenarioEditor) -> None:
        super().__init__()
        self.editor = editor
        self.fields: dict[str, QLineEdit | QComboBox] = {}
        self.tips: dict[str, str] = {}
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        labels = {
            "id": "Id",
            "name": "Name",
            "description": "Description",
            "first_turn": "First turn",
            "last_turn": "Last turn",
            "start_year": "Year of the first turn",
        }
        for key, label in labels.items():
            line = QLineEdit()
            line.editingFinished.connect(lambda k=key, w=line: editor.edit_meta(k, w.text()))
            self.fields[key] = line
            form.addRow(label, line)
        period = QComboBox()
        for i, name in enumerate(PERIODS, start=1):
            period.addItem(f"{i} — {name}", str(i))
        period.activated.connect(
            lambda i, w=period: editor.edit_meta("start_period", str(w.itemData(i)))
        )
        self.fields["start_period"] = period
        form.addRow("Months of the first turn", period)
        note = QLabel(
            "<b>Rule options</b> — readings of the rules players could disagree on "
            "(docs/rules-notes.md). Empty: the default."
        )
        note.setWordWrap(True)
        form.addRow(note)
        for name, option in RULE_OPTIONS.items():
            key = f"options.{name}"
            widget: QLineEdit | QComboBox
            default = str(option.default).lower() if isinstance(option.default, bool) else ""
            if option.choices or isinstance(option.default, bool):
                widget = QComboBox()
                widget.addItem(f"(default: {default or option.default})", "")
                for value in option.choices or ("true", "false"):
                    widget.addItem(value, value)
                widget.activated.connect(
                    lambda i, k=key, w=widget: editor.edit_meta(k, str(w.itemData(i)))
                )
            else:
                widget = QLineEdit()
                widget.setPlaceholderText(f"default: {option.default}")
                widget.editingFinished.connect(
                    lambda k=key, w=widget: editor.edit_meta(k, w.text())
                )
            self.tips[key] = option.meaning
            widget.setToolTip(option.meaning)
            self.fields[key] = widget
            form.addRow(name, widget)
        self.form = form
        #: the keys of settings the format does not have, shown so they can be cleared
        self.unknown: list[str] = []
        inner = QWidget()
        inner.setLayout(form)
        self.setWidget(inner)
        self.setWidgetResizable(True)

    def _show_unknown(self) -> None:
        """A row for each setting or option in the file that the format does not have (the
        validator refuses them): clear it to leave it out."""
        draft = self.editor.draft
        known = {key for key, *_ in META_KEYS}
        unknown = [k for k in draft.meta if k not in known and draft.meta[k]]
        unknown += [f"options.{n}" for n in draft.options if n not in RULE_OPTIONS]
        if unknown == self.unknown:
            return
        for key in self.unknown:
            self.form.removeRow(self.fields.pop(key))
        self.unknown = unknown
        for key in unknown:
            line = QLineEdit()
            line.setPlaceholderText("cleared: left out")
            line.editingFinished.connect(lambda k=key, w=line: self.editor.edit_meta(k, w.text()))
            self.tips[key] = "not a setting of scenario.toml: clear it to leave it out"
            self.fields[key] = line
            self.form.addRow(f"{key} (unknown)", line)

    def refresh(self) -> None:
        """Show the draft's settings (after an edit, an undo, another draft)."""
        self._show_unknown()
        draft = self.editor.draft
        for key, widget in self.fields.items():
            if key.startswith("options."):
                text = draft.options.get(key.removeprefix("options."), "")
            else:
                text = draft.meta.get(key, "")
            widget.blockSignals(True)
            if isinstance(widget, QComboBox):
                found = widget.findData(text)
                if found < 0:
                    widget.addItem(text, text)  # what the file says, valid or not
                    found = widget.count() - 1
                widget.setCurrentIndex(found)
            elif widget.text() != text:
                widget.setText(text)
                widget.setCursorPosition(0)
            widget.blockSignals(False)

    def set_problems(self, problems: Sequence[Problem]) -> None:
        """Tint the settings with a problem and say it in their tooltips."""
        by_key: dict[str, list[str]] = {}
        for p in problems:
            by_key.setdefault(p.field, []).append(p.message)
        for key, widget in self.fields.items():
            messages = by_key.get(key, [])
            widget.setStyleSheet(f"background: {ERROR_TINT.name()};" if messages else "")
            widget.setToolTip("\n".join(messages) or self.tips.get(key, ""))


class EditCommand(QUndoCommand):
    """One draft edit on the undo stack: redo applies it, undo applies its inverse."""

    def __init__(self, editor: ScenarioEditor, edit: Edit) -> None:
        super().__init__(edit.label)
        self.editor = editor
        self.edit = edit
        self.inverse: Edit | None = None

    def redo(self) -> None:
        self.inverse = self.editor.draft.apply(self.edit)
        self.editor.reveal(self.edit)

    def undo(self) -> None:
        if self.inverse is not None:
            self.edit = self.editor.draft.apply(self.inverse)
            self.editor.reveal(self.inverse)


class _Bridge(DraftListener):
    """The draft's operations as the table models' row and cell signals."""

    def __init__(self, editor: ScenarioEditor) -> None:
        self.editor = editor

    def before(self, op: Op) -> None:
        if isinstance(op, InsertRow):
            model = self.editor.pages[op.table].model
            model.beginInsertRows(QModelIndex(), op.index, op.index)
        elif isinstance(op, RemoveRow):
            model = self.editor.pages[op.table].model
            model.beginRemoveRows(QModelIndex(), op.index, op.index)

    def after(self, op: Op) -> None:
        if isinstance(op, InsertRow):
            self.editor.pages[op.table].model.endInsertRows()
        elif isinstance(op, RemoveRow):
            self.editor.pages[op.table].model.endRemoveRows()
        elif isinstance(op, SetCell):
            model = self.editor.pages[op.table].model
            index = model.index(op.row, SCHEMAS[op.table].names.index(op.column))
            model.dataChanged.emit(index, index)
        elif isinstance(op, SetMeta):
            self.editor.settings.refresh()
        self.editor.changed()


class ScenarioEditor(QMainWindow):
    """The scenario editor window (see the module's docstring)."""

    def __init__(
        self,
        parent: QWidget | None = None,
        start_game: Callable[[Scenario], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.start_game = start_game
        self.draft = Draft.new()
        self.result: Check | None = None
        self.undo = QUndoStack(self)
        self.undo.cleanChanged.connect(self._clean_changed)
        self.bridge = _Bridge(self)
        self.draft.listeners.append(self.bridge)
        self._unsaved_new = False
        self._moving: str | None = None
        self._shown_scenario: Scenario | None = None
        self._shown_once = False
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(CHECK_DELAY_MS)
        self.timer.timeout.connect(self.check_now)
        self.resize(1366, 768)
        self.setMinimumSize(1000, 600)

        self.kinds = QListWidget()
        self.kinds.setMaximumWidth(210)
        self.stack = QStackedWidget()
        self.settings = SettingsPage(self)
        self.pages: dict[str, TablePage] = {}
        self._add_kind(SETTINGS, "Scenario settings", self.settings)
        for table, label in KINDS:
            page = TablePage(self, table)
            self.pages[table] = page
            self._add_kind(table, label, page)
        self.kinds.currentRowChanged.connect(self._kind_chosen)

        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.origin_note = QLabel()
        self.origin_note.setWordWrap(True)
        self.origin_note.setVisible(False)
        self.problems = QTreeWidget()
        self.problems.setHeaderLabels(["Where", "Problem"])
        self.problems.setRootIsDecorated(False)
        self.problems.setColumnWidth(0, 230)
        self.problems.setWordWrap(True)
        self.problems.itemActivated.connect(self._problem_activated)
        problems_box = QWidget()
        box = QVBoxLayout(problems_box)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.origin_note)
        box.addWidget(self.summary)
        box.addWidget(self.problems)

        middle = QSplitter(Qt.Orientation.Vertical)
        middle.addWidget(self.stack)
        middle.addWidget(problems_box)
        middle.setStretchFactor(0, 3)
        middle.setStretchFactor(1, 1)
        middle.setSizes([480, 170])

        self.map_session = DraftSession(self)
        self.chart = ScenarioChart(self.map_session)
        self.chart.placed.connect(self._placed)
        self.chart.basePicked.connect(self._base_picked)
        self.chart.routeDrawn.connect(self._route_drawn)
        self.chart.selected.connect(self._map_selected)
        self.map_status = QLabel()
        self.map_status.setWordWrap(True)
        self.chart.message.connect(self.map_status.setText)
        self.tool_buttons = QButtonGroup(self)
        tools = QHBoxLayout()
        tools.setContentsMargins(0, 0, 0, 0)
        for tool, text, tip in (
            (SELECT, "Select", "Click a base or a route to show its record"),
            (NEW_BASE, "New base", "Click a sea area or a point on the coast to add a base"),
            (MOVE_BASE, "Move base", "Click a base, then the point it moves to"),
            (ROUTE, "Draw route", "Click a base, the sea areas along the way, another base"),
        ):
            button = QToolButton()
            button.setText(text)
            button.setToolTip(tip)
            button.setCheckable(True)
            button.setProperty("tool", tool)
            self.tool_buttons.addButton(button)
            tools.addWidget(button)
        tools.addStretch(1)
        self.tool_buttons.buttonClicked.connect(lambda b: self.set_tool(str(b.property("tool"))))
        map_box = QWidget()
        map_layout = QVBoxLayout(map_box)
        map_layout.setContentsMargins(0, 0, 0, 0)
        map_layout.addLayout(tools)
        map_layout.addWidget(self.chart, 1)
        map_layout.addWidget(self.map_status)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.kinds)
        split.addWidget(middle)
        split.addWidget(map_box)
        split.setStretchFactor(1, 5)
        split.setStretchFactor(2, 4)
        split.setSizes([190, 660, 516])
        self.setCentralWidget(split)
        self._menus()
        self.set_tool(SELECT)
        self.kinds.setCurrentRow(1)
        self.load(self.draft)

    def _add_kind(self, key: str, label: str, page: QWidget) -> None:
        item = QListWidgetItem(label)
        item.setData(Qt.ItemDataRole.UserRole, key)
        item.setData(Qt.ItemDataRole.UserRole + 1, label)
        self.kinds.addItem(item)
        self.stack.addWidget(page)

    # -- menus -------------------------------------------------------------------------------
    def _action(
        self,
        menu: QMenu,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    def _menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        self._action(file, "&New scenario", self.new_scenario, QKeySequence.StandardKey.New)
        self._action(
            file, "&Open scenario folder…", self.open_folder, QKeySequence.StandardKey.Open
        )
        builtin = file.addMenu("Open a copy of a &built-in scenario")
        for name in paths.builtin_scenarios():
            self._action(builtin, name, partial(self.open_builtin, name))
        file.addSeparator()
        self._action(file, "&Save", self.save, QKeySequence.StandardKey.Save)
        self._action(file, "Save &as…", self.save_as, QKeySequence.StandardKey.SaveAs)
        file.addSeparator()
        self.start_action = self._action(file, "New &game from this scenario", self.new_game)
        file.addSeparator()
        self._action(file, "&Close", self.close, QKeySequence.StandardKey.Close)

        edit = bar.addMenu("&Edit")
        undo = self.undo.createUndoAction(self, "&Undo")
        undo.setShortcuts([QKeySequence("Ctrl+Z")])
        redo = self.undo.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Y"), QKeySequence("Ctrl+Shift+Z")])
        edit.addAction(undo)
        edit.addAction(redo)
        self.undo_action, self.redo_action = undo, redo
        edit.addSeparator()
        self._action(edit, "&Add a record", self.add_record, "Ctrl+Shift+N")
        self._action(edit, "&Duplicate", self.duplicate_records, "Ctrl+D")
        self._action(edit, "De&lete…", self.delete_records, "Ctrl+Del")
        edit.addSeparator()
        for text, name in (
            ("&Copy cells\tCtrl+C", "copy_cells"),
            ("&Paste cells\tCtrl+V", "paste_cells"),
            ("Clear cells\tDel", "clear_cells"),
        ):
            self._action(edit, text, partial(self._on_page, name))
        self._action(edit, "&Filter rows", self._focus_filter, QKeySequence.StandardKey.Find)
        self._action(edit, "Next &problem", self.next_problem, "F8")

        map_menu = bar.addMenu("&Map")
        for tool, text, key in (
            (SELECT, "&Select", "Ctrl+1"),
            (NEW_BASE, "&New base", "Ctrl+2"),
            (MOVE_BASE, "&Move base", "Ctrl+3"),
            (ROUTE, "Draw &route", "Ctrl+4"),
        ):
            self._action(map_menu, text, partial(self.set_tool, tool), key)
        map_menu.addSeparator()
        self._action(map_menu, "&Fit the world", self.chart.fit_world, "Ctrl+0")

    # -- the draft -----------------------------------------------------------------------------
    def load(self, draft: Draft, unsaved: bool = False) -> None:
        """Edit another draft (the undo history starts again)."""
        if self.bridge in self.draft.listeners:
            self.draft.listeners.remove(self.bridge)
        self.draft = draft
        draft.listeners.append(self.bridge)
        self._unsaved_new = unsaved
        self._moving = None
        self.origin_note.setVisible(False)
        self.undo.clear()
        for page in self.pages.values():
            page.model.beginResetModel()
            page.model.cell_problems, page.model.row_problems = {}, {}
            page.model.endResetModel()
            page.filter.clear()
            page._sized = False
        self.settings.refresh()
        self.chart.cancel_route()
        self._shown_scenario = None
        self.check_now()
        self.chart.fit_world()
        self._kind_chosen(self.kinds.currentRow())
        self._update_title()

    def changed(self) -> None:
        """The draft changed: check it again once the user pauses."""
        self.timer.start()

    def check_now(self) -> Check:
        """Run the validator now (it runs by itself a moment after each edit)."""
        self.timer.stop()
        result = self.draft.check()
        self.result = result
        by_file: dict[str, list[Problem]] = {}
        for p in result.problems:
            by_file.setdefault(p.file, []).append(p)
        for table, page in self.pages.items():
            page.model.set_problems(by_file.get(SCHEMAS[table].file, []))
        self.settings.set_problems(by_file.get(META_FILE, []))
        self._list_problems(result.problems)
        self._update_kinds(by_file)
        self._update_map(result)
        self.start_action.setEnabled(result.startable)
        return result

    def _list_problems(self, problems: Sequence[Problem]) -> None:
        self.problems.clear()
        errors = sum(1 for p in problems if p.severity == "error")
        others = len(problems) - errors
        if not problems:
            self.summary.setText("No problems: this scenario can be started.")
        else:
            words = [f"{errors} error{'s' if errors != 1 else ''}"] if errors else []
            if others:
                words.append(f"{others} warning(s) or note(s)")
            verdict = (
                "it can be saved as a draft, but a game cannot start from it until the errors "
                "are fixed"
                if errors
                else "a game can start from it"
            )
            self.summary.setText(
                f"<b>{', '.join(words)}</b>: {verdict}. Double-click a problem to go to its cell."
            )
        items = []
        for p in problems[:MAX_LISTED]:
            where = (
                p.file + (f", row {p.row}" if p.row else "") + (f" · {p.field}" if p.field else "")
            )
            tag = "" if p.severity == "error" else f"{p.severity}: "
            item = QTreeWidgetItem([where, tag + p.message])
            item.setData(0, Qt.ItemDataRole.UserRole, p)
            item.setToolTip(1, p.message)
            colour = QColor("#9b2d20") if p.severity == "error" else QColor("#7a5b00")
            item.setForeground(0, colour)
            items.append(item)
        if len(problems) > MAX_LISTED:
            items.append(QTreeWidgetItem(["", f"… and {len(problems) - MAX_LISTED} more"]))
        self.problems.addTopLevelItems(items)

    def _update_kinds(self, by_file: dict[str, list[Problem]]) -> None:
        for i in range(self.kinds.count()):
            item = self.kinds.item(i)
            key = str(item.data(Qt.ItemDataRole.UserRole))
            label = str(item.data(Qt.ItemDataRole.UserRole + 1))
            file = META_FILE if key == SETTINGS else SCHEMAS[key].file
            found = by_file.get(file, [])
            errors = sum(1 for p in found if p.severity == "error")
            text = label if key == SETTINGS else f"{label} ({len(self.draft.rows[key])})"
            if errors:
                text += f" — {errors} ✖"
            item.setText(text)
            item.setForeground(QColor("#9b2d20") if errors else QColor("#1d2b36"))

    def _update_map(self, result: Check) -> None:
        scenario = self.draft.drawable(result)
        shown = self._shown_scenario
        if shown is not None and scenario.world is shown.world and scenario.tables == shown.tables:
            return
        self._shown_scenario = scenario
        if shown is not None and layout_of(scenario) == layout_of(shown):
            self.map_session.refresh(scenario)
        else:
            self.map_session.show(scenario)

    def _clean_changed(self, _clean: bool) -> None:
        self._update_title()

    def _update_title(self) -> None:
        folder = self.draft.folder
        where = str(folder) if folder else "not saved"
        mark = " *" if self.dirty else ""
        name = self.draft.meta.get("name") or "Scenario"
        self.setWindowTitle(f"{name} ({where}){mark} — Scenario editor — Sea Control")

    @property
    def dirty(self) -> bool:
        return not self.undo.isClean() or self._unsaved_new

    # -- editing ---------------------------------------------------------------------------------
    def push(self, edit: Edit) -> None:
        """Make an edit, undoably."""
        if edit:
            self.undo.push(EditCommand(self, edit))

    def edit_cell(self, table: str, row: int, column: str, text: str) -> None:
        edit = self.draft.cell_edit(table, row, column, text)
        self.push(edit)
        if edit and edit.label.startswith("Rename"):
            self.statusBar().showMessage(edit.label, 6000)

    def edit_meta(self, key: str, text: str) -> None:
        self.push(self.draft.meta_edit(key, text.strip() if key != "description" else text))

    def current_table(self) -> str | None:
        item = self.kinds.currentItem()
        key = str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else SETTINGS
        return None if key == SETTINGS else key

    def add_record(self) -> None:
        table = self.current_table()
        if table is None:
            return
        page = self.pages[table]
        current = page.current_row()
        index = None if current is None else current + 1
        self.push(self.draft.add_edit(table, index=index))

    def duplicate_records(self) -> None:
        table = self.current_table()
        if table is None or not self.pages[table].selected_rows():
            return
        self.push(self.draft.duplicate_edit(table, self.pages[table].selected_rows()))

    def delete_records(self) -> None:
        """Delete the selected records; what refers to them is listed first, and asked."""
        table = self.current_table()
        if table is None:
            return
        rows = self.pages[table].selected_rows()
        if not rows:
            return
        refs = self.draft.referrers(table, rows)
        if refs:
            listed = "\n".join(plain(self.draft.describe(r)) for r in refs[:15])
            more = f"\n… and {len(refs) - 15} more" if len(refs) > 15 else ""
            answer = QMessageBox.question(
                self,
                "Delete records that others refer to?",
                f"{len(refs)} record(s) refer to what you are deleting:\n\n{listed}{more}\n\n"
                "Delete anyway? Those references will then name nothing, and the problems "
                "panel will list them.",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.push(self.draft.delete_edit(table, rows))

    def reveal(self, edit: Edit) -> None:
        """Show where an edit (or its undo) happened: its table and row."""
        op = edit.ops[0] if edit.ops else None
        if isinstance(op, SetMeta):
            self.show_kind(SETTINGS)
        elif op is not None:
            self.show_kind(op.table)
            page = self.pages[op.table]
            column = SCHEMAS[op.table].names.index(op.column) if isinstance(op, SetCell) else 0
            row = min(op.index if not isinstance(op, SetCell) else op.row, len(page.model.rows) - 1)
            if row >= 0:
                page.select(row, column)

    def choices(self, col: Column) -> list[tuple[str, str]] | None:
        """The values a cell's drop-down offers, as (value, label); None: typed text."""
        empty = [] if col.required else [("", "(empty)")]
        if col.kind == "enum":
            return empty + [(c, c) for c in col.choices]
        if col.kind == "bool":
            return [*empty, ("yes", "yes"), ("no", "no")]
        target = REF_TABLES.get(col.ref or "")
        if target is None or col.kind == "idlist":
            return None
        labelled = "name" in SCHEMAS[target].names
        out = []
        for ident in self.draft.ids(target):
            name = self.draft.name_of(target, ident) if labelled else ""
            out.append((ident, f"{ident} — {name}" if name and name != ident else ident))
        return empty + out

    # -- moving about --------------------------------------------------------------------------
    def show_kind(self, key: str) -> None:
        for i in range(self.kinds.count()):
            if self.kinds.item(i).data(Qt.ItemDataRole.UserRole) == key:
                if self.kinds.currentRow() != i:
                    self.kinds.setCurrentRow(i)
                return

    def _kind_chosen(self, index: int) -> None:
        if index < 0:
            return
        self.stack.setCurrentIndex(index)
        table = self.current_table()
        if table is not None:
            self.pages[table].size_columns()
            self.record_chosen(table, self.pages[table].current_row())  # shown on the map

    def _on_page(self, method: str) -> None:
        """Copy, paste or clear on the table shown (the Edit menu's cell entries)."""
        table = self.current_table()
        if table is not None:
            getattr(self.pages[table], method)()

    def _focus_filter(self) -> None:
        table = self.current_table()
        if table is not None:
            self.pages[table].filter.setFocus()

    def go_to(self, problem: Problem) -> None:
        """Show the cell (or the row, the file, the setting) a problem is about."""
        if problem.file == META_FILE:
            self.show_kind(SETTINGS)
            widget = self.settings.fields.get(problem.field)
            if widget is not None:
                self.settings.ensureWidgetVisible(widget)
                widget.setFocus()
            return
        table = next((t for t, s in SCHEMAS.items() if s.file == problem.file), None)
        if table is None:
            return
        self.show_kind(table)
        page = self.pages[table]
        if problem.row >= 2:
            names = SCHEMAS[table].names
            page.select(
                problem.row - 2, names.index(problem.field) if problem.field in names else 0
            )
        page.view.setFocus()

    def _problem_activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        problem = item.data(0, Qt.ItemDataRole.UserRole)
        if isinstance(problem, Problem):
            if self.timer.isActive():
                self.check_now()
            self.go_to(problem)

    def next_problem(self) -> None:
        """Go to the next problem in the list (F8)."""
        count = self.problems.topLevelItemCount()
        current = self.problems.currentItem()
        at = self.problems.indexOfTopLevelItem(current) if current is not None else -1
        item = self.problems.topLevelItem((at + 1) % count) if count else None
        if item is not None:
            self.problems.setCurrentItem(item)
            self._problem_activated(item)

    def record_chosen(self, table: str, row: int | None) -> None:
        """A record chosen in a table: shown on the map — a base, a route, a unit's base and
        naval range, an Air Point's base and air range."""
        self._moving = None
        if row is None or not self.map_session.is_open:
            return
        record = self.draft.record(table, row)
        board = self.map_session.board()
        self.chart.clear_range()
        if table == "units" and record["base"].strip() in board.bases:
            base = record["base"].strip()
            areas = self.chart.show_reach(base, NAVAL_RANGE)
            self.map_status.setText(
                f"{record['name']} at {board.place_name(base)}: naval range {NAVAL_RANGE} sea "
                f"areas ({len(areas)} shaded)"
            )
        elif table == "air" and record["base"].strip() in board.bases:
            base = record["base"].strip()
            reach = board.air_range(
                record["nation"].strip(), record["kind"].strip(), self.draft_first_turn()
            )
            areas = self.chart.show_reach(base, reach)
            self.map_status.setText(
                f"{record['id']} at {board.place_name(base)}: air range {reach} on the first "
                f"turn ({len(areas)} sea area{'s' if len(areas) != 1 else ''} shaded)"
            )
        elif table == "bases" and record["id"].strip() in board.bases:
            self.chart.show_reach(record["id"].strip(), -1)
            self.chart.set_selection("base", record["id"].strip())
        elif table in ("lsp", "lsp_supply", "garrisons") and record["base"].strip() in board.bases:
            self.chart.set_selection("base", record["base"].strip())
        elif table == "routes" and record["id"].strip() in board.route_rows:
            line = board.route(record["id"].strip())
            self.chart.set_selection("route", line.id)
            label = line.length.label
            self.map_status.setText(
                f"{line.name}: {line.moves} move{'s' if line.moves != 1 else ''} — {label} "
                f"({LIFT_WORDS[label]}); {line.tonnage} tonnage points lift "
                f"{line.effective_lift}"
            )
        elif table == "sea_areas" and record["id"].strip() in self.chart.areas:
            self.chart.set_selection("area", record["id"].strip())

    def draft_first_turn(self) -> int:
        meta = self.result.meta if self.result is not None else None
        return meta.first_turn if meta is not None else 1

    # -- the map's tools ---------------------------------------------------------------------
    def set_tool(self, tool: str) -> None:
        for button in self.tool_buttons.buttons():
            button.setChecked(button.property("tool") == tool)
        self._moving = None
        self.chart.set_tool(tool)
        if tool != SELECT:
            self.chart.setFocus()

    def _placed(self, lon: float, lat: float, area: str, inside: bool) -> None:
        world = self.draft.world()
        where = world.areas[area].name if area in world.areas else area
        if self.chart.tool == NEW_BASE:
            values = {
                "lon": coordinate(lon),
                "lat": coordinate(lat),
                "sea_area": area,
                "island": "no",
            }
            self.push(self.draft.add_edit("bases", values))
            self.map_status.setText(
                f"New base in {where}{'' if inside else ' (its nearest water)'}: name it in "
                "the table; click again for another"
            )
            return
        base = self._moving
        if base is None:
            page = self.pages["bases"]
            row = page.current_row() if self.current_table() == "bases" else None
            base = self.draft.ids_by_row("bases")[row] if row is not None else None
        row = self.draft.find("bases", base) if base else None
        if row is None:
            self.map_status.setText("Move base: click the base to move first")
            return
        self.push(self.draft.place_edit("bases", row, lon, lat, area))
        self._moving = None
        self.map_status.setText(f"{base} moved to {where}; click another base to move it")

    def _base_picked(self, base: str) -> None:
        row = self.draft.find("bases", base)
        if row is None:
            return
        self.show_kind("bases")
        self.pages["bases"].select(row, 0)
        self._moving = base
        self.map_status.setText(
            f"Move base: now click where {self.draft.name_of('bases', base)} goes"
        )

    def _route_drawn(self, origin: str, destination: str, path: list[str]) -> None:
        via = waypoints(self.draft.world(), path)
        row = None
        page = self.pages["routes"]
        current = page.current_row() if self.current_table() == "routes" else None
        if current is not None:
            record = self.draft.record("routes", current)
            if (record["origin"].strip(), record["destination"].strip()) == (origin, destination):
                row = current
        edit = self.draft.route_edit(origin, destination, via, row)
        self.push(edit)
        moves = len(path) - 1
        self.map_status.setText(
            f"{edit.label or 'Route unchanged'}: {moves} move{'s' if moves != 1 else ''}. "
            "Click a base to draw another"
        )

    def _map_selected(self, kind: str, key: str) -> None:
        table = {"base": "bases", "route": "routes"}.get(kind)
        row = self.draft.find(table, key) if table else None
        if table is not None and row is not None:
            self.show_kind(table)
            self.pages[table].select(row, 0)

    # -- files ---------------------------------------------------------------------------------
    def maybe_discard(self) -> bool:
        """Before unsaved edits would be lost: save, discard or cancel."""
        if not self.dirty:
            return True
        return save_first(
            self,
            "Unsaved scenario",
            "The scenario has edits that are not saved. Save them?",
            self.save,
        )

    def new_scenario(self) -> None:
        if self.maybe_discard():
            self.load(Draft.new())

    def open_folder(self, folder: str | Path | None = None) -> bool:
        if not self.maybe_discard():
            return False
        if folder is None:
            folder = QFileDialog.getExistingDirectory(self, "Open a scenario folder")
            if not folder:
                return False
        try:
            draft = Draft.open(folder)
        except InputError as exc:
            self.error("The scenario cannot be opened in the editor", str(exc))
            return False
        if _builtin(Path(folder)):
            draft.folder = None  # the program's own data: saved as a copy elsewhere
        self.load(draft)
        return True

    def open_builtin(self, name: str) -> bool:
        return self.open_folder(paths.scenario_dir(name))

    def open_draft(self, draft: Draft, note: str = "") -> None:
        """Edit a draft made elsewhere (a game's position), not yet saved."""
        if not self.maybe_discard():
            return
        self.load(draft, unsaved=True)
        if note:
            self.origin_note.setText(note)
            self.origin_note.setVisible(True)

    def save(self) -> bool:
        if self.draft.folder is None:
            return self.save_as()
        return self._save_to(self.draft.folder)

    def save_as(self, folder: str | Path | None = None) -> bool:
        if folder is None:
            folder = QFileDialog.getExistingDirectory(
                self, "Save the scenario into a folder (new or empty)"
            )
            if not folder:
                return False
        target = Path(folder)
        if _builtin(target):
            self.error(
                "Choose another folder",
                "The built-in scenarios are part of the program: save your copy elsewhere.",
            )
            return False
        if (
            target != self.draft.folder
            and (target / META_FILE).is_file()
            and QMessageBox.question(
                self,
                "Replace a scenario?",
                f"{target} already holds a scenario. Replace its files with this one?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            )
            != QMessageBox.StandardButton.Yes
        ):
            return False
        return self._save_to(target)

    def _save_to(self, folder: Path) -> bool:
        try:
            self.draft.save(folder)
        except InputError as exc:
            self.error("The scenario was not saved", str(exc))
            return False
        except OSError as exc:
            self.error("The scenario could not be saved", f"{folder}: {exc.strerror or exc}")
            return False
        self.undo.setClean()
        self._unsaved_new = False
        self._update_title()
        result = self.check_now()
        count = len(result.errors)
        self.statusBar().showMessage(
            f"Saved to {folder}"
            + (f" as a draft: {count} error(s) to fix before it can be started" if count else ""),
            8000,
        )
        return True

    def new_game(self) -> None:
        """Start a game from the scenario (in the main window), if it has no errors."""
        result = self.check_now()
        if not result.startable:
            self.error(
                "This scenario cannot be started yet",
                f"It has {len(result.errors) or 'setting'} error(s); the problems panel lists "
                "them. It can be saved as a draft meanwhile.",
            )
            if result.errors:
                self.go_to(result.errors[0])
            return
        if self.start_game is None:
            self.statusBar().showMessage(
                "Open the editor from the main window to start games", 6000
            )
            return
        self.start_game(self.draft.build())

    def error(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, text)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._shown_once:  # the chart has its size now
            self._shown_once = True
            self.chart.fit_world()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.maybe_discard():
            event.accept()
        else:
            event.ignore()


def plain(text: str) -> str:
    """Text from a file made safe for a message box, which would take tags for rich text:
    controls written out, angle brackets shown as ‹ ›."""
    return escaped(text).replace("<", "‹").replace(">", "›")


def _builtin(folder: Path) -> bool:
    """Is this folder among the program's own built-in scenarios?"""
    try:
        root = (paths.data_dir() / "scenarios").resolve()
        return folder.resolve().is_relative_to(root)
    except OSError:
        return False


# -- the main window's menu entries ---------------------------------------------------------
class EditorLauncher(QObject):
    """The main window's way into the editor: File → Scenario editor…, and File → New
    scenario from this game…; a scenario started from the editor opens in the main window."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.editor: ScenarioEditor | None = None
        window.installEventFilter(self)  # closing the app asks for the editor's edits too

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The main window closing takes the editor with it: unsaved edits are asked
        about first (Cancel keeps both open)."""
        if (
            watched is self.window
            and event.type() == QEvent.Type.Close
            and self.editor is not None
            and not self.editor.maybe_discard()
        ):
            event.ignore()
            return True
        return super().eventFilter(watched, event)

    def open_editor(self) -> ScenarioEditor:
        if self.editor is None:
            self.editor = ScenarioEditor(self.window, start_game=self.start_game)
        self.editor.show()
        self.editor.raise_()
        self.editor.activateWindow()
        return self.editor

    def start_game(self, scenario: Scenario) -> None:
        window = self.window
        if not window.maybe_save():
            return
        window.session.new_game(scenario)
        window.chart.fit_world()
        window.raise_()
        window.activateWindow()

    def from_game(self) -> None:
        """The open game's position (the start of its current turn) as a new scenario's
        draft in the editor, to save where the user chooses."""
        session = self.window.session
        if not session.is_open:
            self.window.statusBar().showMessage("Open a game first", 4000)
            return
        state = session.state
        mid_turn = state.step != 0
        if mid_turn:
            state = session.require().game.turn_start(state.turn)
        scenario, notes = scenario_from_game(session.scenario, state)
        lead = f"From turn {state.turn} of {session.require().game.name}"
        if mid_turn:
            lead += " (the start of the turn: it is being resolved)"
        text = lead + (": " + "; ".join(notes) if notes else "") + ". Save it to keep it."
        self.open_editor().open_draft(Draft.from_scenario(scenario), text)
