"""The orders editor: one nation's orders for the turn, built with forms and checked live.

Every change is a :class:`QUndoCommand` that swaps the nation's whole draft for a new one
(orders are small immutable values), so undo and redo are exact. After every change the
draft is checked by the engine; if the rules accept it, it is stored in the game at once,
otherwise the problems are listed in words under the editor and the draft waits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QByteArray, QMimeData, Qt, Signal
from PySide6.QtGui import (
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QUndoCommand,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from campaign.board import Board
from campaign.forces import fleet_cv
from campaign.orders import (
    CARD_USES,
    CardPlay,
    Escort,
    Operation,
    OrderProblem,
    Orders,
    OrdersError,
    Raid,
    SupplyMove,
    TaskForce,
    Transfer,
    read_orders_file,
)
from campaign.reports import UNIT_TYPE_NAMES

from .orders_more import MoreOrdersTab
from .session import GameSession
from .tables import cell

OPERATION_NAMES = {
    "sea_control": "Sea control",
    "minor_invasion": "Minor invasion",
    "major_invasion": "Major invasion",
    "surface_raid": "Surface raid",
}
USE_NAMES = {
    "extra_flag": "Extra Naval Operations Flag",
    "range": "+1 sea area of range for a task force",
    "die_bonus": "Add to a combat die roll",
    "column_shift": "Shift one column in your favour",
    "other": "Something else, for Game Control",
}


class EditOrders(QUndoCommand):
    """Replace a nation's draft orders (undo puts the old draft back)."""

    def __init__(
        self, editor: OrdersEditor, nation: str, old: Orders, new: Orders, text: str
    ) -> None:
        super().__init__(text)
        self.editor, self.nation, self.old, self.new = editor, nation, old, new

    def redo(self) -> None:
        self.editor.apply(self.nation, self.new)

    def undo(self) -> None:
        self.editor.apply(self.nation, self.old)


ORDERS_FILTER = "Orders files (*.json)"


def _refused(parent: QWidget, title: str, exc: OrdersError) -> None:
    """Why an orders file was refused: every problem, in words."""
    lines = [f"• {p.order}: {p.message}" for p in exc.problems[:12]]
    if len(exc.problems) > 12:
        lines.append(f"… and {len(exc.problems) - 12} more")
    QMessageBox.warning(parent, title, "\n".join(lines))


UNITS_MIME = "application/x-seacontrol-units"


class UnitTable(QTableWidget):
    """The units list: dragging selected rows carries their unit ids."""

    def mimeData(self, items: Sequence[QTableWidgetItem]) -> QMimeData:
        ids = sorted({str(cell(self, i.row()).data(Qt.ItemDataRole.UserRole)) for i in items})
        data = QMimeData()
        data.setData(UNITS_MIME, QByteArray("\n".join(ids).encode()))
        return data

    def mimeTypes(self) -> list[str]:
        return [UNITS_MIME]


class DropTable(QTableWidget):
    """A table whose rows accept units dropped on them: ``unitsDropped(row_id, ids)``."""

    unitsDropped = Signal(str, list)

    def __init__(self, rows: int, columns: int) -> None:
        super().__init__(rows, columns)
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)
        self.setDropIndicatorShown(True)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasFormat(UNITS_MIME):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        row = self.rowAt(event.position().toPoint().y())
        if event.mimeData().hasFormat(UNITS_MIME) and row >= 0:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        row = self.rowAt(event.position().toPoint().y())
        if row < 0 or not event.mimeData().hasFormat(UNITS_MIME):
            event.ignore()
            return
        ids = bytes(event.mimeData().data(UNITS_MIME).data()).decode().split("\n")
        key = str(cell(self, row).data(Qt.ItemDataRole.UserRole))
        event.acceptProposedAction()
        self.unitsDropped.emit(key, [i for i in ids if i])


def _table(headers: list[str], kind: type[QTableWidget] = QTableWidget) -> QTableWidget:
    table = kind(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.verticalHeader().setVisible(False)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    table.setAlternatingRowColors(True)
    return table


def _item(text: object, data: object = None) -> QTableWidgetItem:
    item = QTableWidgetItem(str(text))
    if data is not None:
        item.setData(Qt.ItemDataRole.UserRole, data)
    return item


class OrdersEditor(QWidget):
    """Orders of the chosen nation; ``problemsChanged`` says how many rules are broken."""

    problemsChanged = Signal(int)

    def __init__(
        self, session: GameSession, undo: QUndoStack, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.undo = undo
        self.drafts: dict[str, Orders] = {}
        self.team: str | None = None  # a team's view shows only its own orders
        self.problems: list[OrderProblem] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(QLabel("Orders for"))
        self.nation = QComboBox()
        self.nation.setMinimumWidth(170)
        top.addWidget(self.nation, 1)
        self.open_button = QPushButton("Open…")
        self.open_button.setToolTip(
            "Load this nation's orders from an orders file (JSON, docs/orders-format.md)"
        )
        top.addWidget(self.open_button)
        self.save_button = QPushButton("Save…")
        self.save_button.setToolTip("Write this nation's orders to an orders file (JSON)")
        top.addWidget(self.save_button)
        self.clear_button = QPushButton("Clear")
        self.clear_button.setToolTip("Remove all of this nation's orders for the turn")
        top.addWidget(self.clear_button)
        layout.addLayout(top)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs, 1)
        self._build_forces()
        self._build_routes()
        self._build_operations()
        self._build_cards()
        self._build_supplies()
        self.more = MoreOrdersTab(self)  # Air Points moved, fleet trains, choices
        self.tabs.addTab(self.more, "Air, trains && choices")
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.problem_list = QListWidget()
        self.problem_list.setMaximumHeight(110)
        self.problem_list.setWordWrap(True)
        layout.addWidget(self.problem_list)
        self.nation.currentIndexChanged.connect(lambda _i: self.refresh())
        self.clear_button.clicked.connect(self._clear)
        self.open_button.clicked.connect(lambda: self.open_file())
        self.save_button.clicked.connect(lambda: self.save_file())
        session.gameChanged.connect(self._game_changed)
        session.stateChanged.connect(self._state_changed)
        session.ordersArrived.connect(self._arrived)
        self._game_changed()

    # -- the draft ---------------------------------------------------------------------------
    @property
    def current_nation(self) -> str:
        return str(self.nation.currentData() or "")

    def draft(self, nation: str | None = None) -> Orders:
        nation = nation or self.current_nation
        if nation not in self.drafts:
            stored = self.session.orders(nation) if self.session.is_open else None
            self.drafts[nation] = stored or Orders(nation, self.session.state.turn)
        return self.drafts[nation]

    def edit(self, new: Orders, text: str) -> None:
        """Push an undoable change of the current nation's orders."""
        nation = self.current_nation
        old = self.draft(nation)
        if new == old:
            return
        self.undo.push(EditOrders(self, nation, old, new, text))

    def apply(self, nation: str, orders: Orders) -> None:
        """Make ``orders`` the nation's draft; store it if the rules accept it."""
        self.drafts[nation] = orders
        problems = self.session.check(orders)
        if not problems:
            self.session.set_orders(nation, orders)
        if nation != self.current_nation:
            index = self.nation.findData(nation)
            if index >= 0:
                self.nation.setCurrentIndex(index)
        self.refresh()

    def unstored(self) -> list[str]:
        """Nations whose draft differs from what is stored (it breaks a rule)."""
        out = []
        for nation, orders in self.drafts.items():
            stored = self.session.orders(nation)
            empty = Orders(nation, orders.turn)
            if orders != (stored or empty) and orders != empty:
                out.append(nation)
        return out

    def load(self, orders: Orders, text: str) -> None:
        """Make ``orders`` its nation's draft as one undoable change (stored if the rules
        accept them; otherwise shown with their problems)."""
        old = self.draft(orders.nation)
        if orders != old:
            self.undo.push(EditOrders(self, orders.nation, old, orders, text))
        elif orders.nation != self.current_nation:
            self.nation.setCurrentIndex(self.nation.findData(orders.nation))

    def open_file(self, path: str | None = None) -> bool:
        """Load the current nation's orders from a file; False if none was loaded."""
        nation = self.current_nation
        if not self.session.is_open or not nation:
            return False
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self, f"Open {self.nation.currentText()}'s orders", "", ORDERS_FILTER
            )
            if not path:
                return False
        try:
            orders = read_orders_file(path, nation)
        except OrdersError as exc:
            _refused(self, f"{Path(path).name} cannot be loaded", exc)
            return False
        self.load(orders, f"Open {Path(path).name}")
        return True

    def save_file(self, path: str | None = None) -> bool:
        """Write the current nation's orders (the draft, as shown) to a file."""
        nation = self.current_nation
        if not self.session.is_open or not nation:
            return False
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, f"Save {self.nation.currentText()}'s orders", f"{nation}.json", ORDERS_FILTER
            )
            if not path:
                return False
        try:
            Path(path).write_text(self.draft(nation).to_json() + "\n", encoding="utf-8")
        except OSError as exc:
            QMessageBox.warning(self, "The orders could not be saved", f"{path}: {exc.strerror}")
            return False
        return True

    def _clear(self) -> None:
        self.edit(Orders(self.current_nation, self.session.state.turn), "Clear orders")

    def set_team(self, nation: str | None) -> None:
        """Show only ``nation``'s orders (a team's view: no other team's orders can be
        chosen), or every nation's (``None``: Game Control)."""
        self.team = nation or None
        self._fill_nations()
        self.refresh()

    def _fill_nations(self) -> None:
        current = self.current_nation
        self.nation.blockSignals(True)
        self.nation.clear()
        if self.session.is_open:
            nations = self.session.scenario.by_id("nations")
            for n in self.session.board().teams():
                if self.team is None or n == self.team:
                    self.nation.addItem(str(nations[n]["name"]), n)
            index = self.nation.findData(current)
            self.nation.setCurrentIndex(max(index, 0))
        self.nation.blockSignals(False)

    def _game_changed(self) -> None:
        self.drafts.clear()
        self.undo.clear()
        self.team = None
        self._fill_nations()
        self.setEnabled(self.session.is_open)
        self.refresh()

    def _arrived(self, nations: list[str]) -> None:
        """Orders a team submitted from its seat replace the draft shown for it."""
        for nation in nations:
            self.drafts.pop(nation, None)
        self.refresh()

    def _state_changed(self) -> None:
        if self.session.is_open and self.session.state.step == 0:
            turn = self.session.state.turn
            if any(o.turn != turn for o in self.drafts.values()):
                self.drafts.clear()
                self.undo.clear()
        self.refresh()

    # -- refresh -------------------------------------------------------------------------------
    def refresh(self) -> None:
        if not self.session.is_open or not self.current_nation:
            self.status.setText("Open or start a game to give orders.")
            return
        orders = self.draft()
        locked = self.session.state.step != 0
        self.tabs.setEnabled(not locked)
        self.clear_button.setEnabled(not locked)
        self.open_button.setEnabled(not locked)
        self._refresh_forces(orders)
        self._refresh_routes(orders)
        self._refresh_operations(orders)
        self._refresh_cards(orders)
        self._refresh_supplies(orders)
        self.more.refresh(orders)
        self.problems = [] if locked else self.session.check(orders)
        self.problem_list.clear()
        for p in self.problems:
            self.problem_list.addItem(self.session.problem_text(p, orders))
        if locked:
            self.status.setText(
                "The turn is being resolved: orders can no longer change "
                "(reopen the turn to change them)."
            )
        elif self.problems:
            self.status.setText(
                f"<span style='color:#a33b3b'><b>{len(self.problems)} "
                "problem(s)</b> — these orders are not stored until they "
                "keep the rules:</span>"
            )
        else:
            self.status.setText(
                "<span style='color:#2f6f4f'><b>✓ Orders keep the rules and are stored.</b></span>"
            )
        self.problem_list.setVisible(bool(self.problems))
        self.problemsChanged.emit(len(self.problems))

    # == forces ==================================================================================
    def _build_forces(self) -> None:
        tab = QWidget()
        layout = QVBoxLayout(tab)
        self.units = _table(["Unit", "Type", "Base", "State", "Assigned to"], UnitTable)
        header = self.units.horizontalHeader()
        header.setStretchLastSection(False)
        # the unit's name and its assignment share the spare width (elided); type, base and
        # state always show in full
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.units.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.units.setDragEnabled(True)
        layout.addWidget(
            QLabel(
                "<b>Units</b> — select, then add to a task force or escort "
                "(or drag them onto a task force or a route)"
            )
        )
        layout.addWidget(self.units, 2)
        box = QGroupBox("Task forces")
        form = QVBoxLayout(box)
        self.tf_list = _table(["Task force", "Base", "Units", "CV", "LSP", "Stance"], DropTable)
        self.tf_list.unitsDropped.connect(self.add_units_to)  # type: ignore[attr-defined]
        form.addWidget(self.tf_list, 1)
        row = QHBoxLayout()
        self.tf_name = QLineEdit()
        self.tf_name.setPlaceholderText("name, e.g. TF 17")
        self.tf_base = QComboBox()
        self.tf_lsp = QSpinBox()
        self.tf_lsp.setRange(0, 99)
        self.tf_lsp.setPrefix("LSP ")
        self.tf_intervene = QCheckBox("intervene")
        self.tf_intervene.setChecked(True)
        self.tf_intervene.setToolTip("Without an operation, oppose enemy operations in range")
        self.tf_where = QComboBox()
        self.tf_where.setToolTip(
            "Where the task force stands ready to intervene (002: any enemy TF within range "
            "may choose to intervene)"
        )
        self.tf_create = QPushButton("New task force")
        for w in (
            self.tf_name,
            self.tf_base,
            self.tf_lsp,
            self.tf_intervene,
            self.tf_where,
            self.tf_create,
        ):
            row.addWidget(w)
        form.addLayout(row)
        row2 = QHBoxLayout()
        self.tf_add = QPushButton("Add selected units")
        self.tf_remove = QPushButton("Remove selected units")
        self.tf_delete = QPushButton("Delete task force")
        for w in (self.tf_add, self.tf_remove, self.tf_delete):
            row2.addWidget(w)
        form.addLayout(row2)
        layout.addWidget(box, 2)
        self.tabs.addTab(tab, "Forces")
        self.tf_create.clicked.connect(self._new_task_force)
        self.tf_add.clicked.connect(self._add_units)
        self.tf_remove.clicked.connect(self._remove_units)
        self.tf_delete.clicked.connect(self._delete_task_force)
        self.tf_lsp.valueChanged.connect(self._tf_settings)
        self.tf_intervene.toggled.connect(self._tf_settings)
        self.tf_where.currentIndexChanged.connect(self._tf_settings)
        self.tf_list.itemSelectionChanged.connect(self._tf_selected)
        self.tf_list.itemSelectionChanged.connect(self._forces_buttons)
        self.units.itemSelectionChanged.connect(self._units_selected)
        self.units.itemSelectionChanged.connect(self._forces_buttons)
        self.forces_hint = QLabel()
        self.forces_hint.setWordWrap(True)
        form.addWidget(self.forces_hint)

    def _assignments(self, orders: Orders) -> dict[str, str]:
        board = self.session.board()

        def route(rid: str) -> str:
            if rid in board.route_rows:
                return board.route_name_for(rid, orders.nation)
            new = {r.id: r.name for r in orders.new_routes}
            return new.get(rid, rid)

        where: dict[str, str] = {}
        for t in orders.transfers:
            where[t.unit] = f"transfer to {board.place_name(t.to)}"
        for tf in orders.task_forces:
            for u in tf.units:
                where[u] = tf.name
        for e in orders.escorts:
            for u in e.units:
                where[u] = f"escort: {route(e.route)}"
        for r in orders.raids:
            for u in r.units:
                where[u] = f"raid: {route(r.route)}"
        return where

    def _refresh_forces(self, orders: Orders) -> None:
        board = self.session.orders_board()  # ships arriving in step 2 may be given orders
        state = board.state
        arriving = {u for u in state.units if u not in self.session.state.units}
        where = self._assignments(orders)
        mine = sorted(
            (u for u in state.units.values() if u.nation == orders.nation and u.state != "sunk"),
            key=lambda u: (u.base, u.type, u.name),
        )
        self.units.setRowCount(len(mine))
        for row, u in enumerate(mine):
            self.units.setItem(row, 0, _item(u.name, u.id))
            self.units.setItem(row, 1, _item(UNIT_TYPE_NAMES[u.type]))
            self.units.setItem(row, 2, _item(board.place_name(u.base)))
            shown = u.state + (" +air" if u.carries_air else "")
            self.units.setItem(row, 3, _item("new: joins in step 2" if u.id in arriving else shown))
            self.units.setItem(row, 4, _item(where.get(u.id, "In Port")))
        selected = self._selected_tf()
        self.tf_list.setRowCount(len(orders.task_forces))
        for row, tf in enumerate(orders.task_forces):
            cv = sum(fleet_cv(state.units[u]) for u in tf.units if u in state.units)
            cells = [
                tf.name,
                board.place_name(tf.base) if tf.base in board.bases else tf.base,
                len(tf.units),
                cv,
                tf.lsp,
                _stance_words(board, tf),
            ]
            for col, value in enumerate(cells):
                self.tf_list.setItem(row, col, _item(value, tf.id))
            if tf.id == selected:
                self.tf_list.selectRow(row)
        bases = sorted(
            (b for b in board.fleet_bases() if board.friendly(orders.nation, board.holder(b))),
            key=lambda b: (board.holder(b) != orders.nation, board.place_name(b)),  # own first
        )
        current = self.tf_base.currentData()
        self.tf_base.blockSignals(True)
        self.tf_base.clear()
        for b in bases:
            self.tf_base.addItem(board.place_name(b), b)
        if current:
            self.tf_base.setCurrentIndex(max(0, self.tf_base.findData(current)))
        self.tf_base.blockSignals(False)
        self._forces_buttons()

    def selected_units(self) -> list[str]:
        rows = sorted({i.row() for i in self.units.selectedIndexes()})
        return [str(cell(self.units, r).data(Qt.ItemDataRole.UserRole)) for r in rows]

    def _selected_tf(self) -> str:
        rows = {i.row() for i in self.tf_list.selectedIndexes()}
        if len(rows) != 1:
            return ""
        return str(cell(self.tf_list, rows.pop()).data(Qt.ItemDataRole.UserRole))

    def _units_selected(self) -> None:
        """A new task force forms where the selected units are: their base (the most
        common one when they lie at several) becomes the form's base."""
        units = self.session.state.units if self.session.is_open else {}
        bases = Counter(units[u].base for u in self.selected_units() if u in units)
        if bases:
            index = self.tf_base.findData(bases.most_common(1)[0][0])
            if index >= 0:
                self.tf_base.setCurrentIndex(index)

    def _forces_buttons(self) -> None:
        """Buttons that need a selection say which one they need."""
        units, tf = bool(self.selected_units()), bool(self._selected_tf())
        self.tf_add.setEnabled(units and tf)
        self.tf_remove.setEnabled(units and tf)
        self.tf_delete.setEnabled(tf)
        if units and not tf and self.tf_list.rowCount():
            hint = (
                "To add the selected units to a task force, click the task force in the list "
                "(or drag the units onto it); to form a new one, name it and press New task "
                "force."
            )
        elif units and not self.tf_list.rowCount():
            hint = "Name the new task force and press New task force: the selected units form it."
        else:
            hint = ""
        self.forces_hint.setText(hint)
        self.forces_hint.setVisible(bool(hint))

    def _tf_selected(self) -> None:
        tf = self._find_tf(self._selected_tf())
        if tf is None:
            return
        for w in (self.tf_lsp, self.tf_intervene, self.tf_where):
            w.blockSignals(True)
        self.tf_lsp.setValue(tf.lsp)
        self.tf_intervene.setChecked(tf.stance == "intervene")
        self._fill_intervention_areas(tf)
        for w in (self.tf_lsp, self.tf_intervene, self.tf_where):
            w.blockSignals(False)

    def _fill_intervention_areas(self, tf: TaskForce) -> None:
        """The sea areas the task force can reach (Board.task_force_reach, as the order
        check reads it), nearest first, after "the nearest enemy operation"."""
        board = self.session.board()
        self.tf_where.clear()
        self.tf_where.addItem("the nearest enemy operation", "")
        if tf.base in board.bases:
            everyone = {**self.session.all_orders(), self.current_nation: self.draft()}
            reach = board.task_force_reach(self.current_nation, tf.id, everyone.values())
            areas = board.areas_within(tf.base, reach)
            for area in sorted(
                areas, key=lambda a: (board.distance(tf.base, a), board.area_name(a))
            ):
                self.tf_where.addItem(f"in {board.area_name(area)}", area)
        chosen = tf.intervene_in[0] if tf.intervene_in else ""
        self.tf_where.setCurrentIndex(max(0, self.tf_where.findData(chosen)))

    def _find_tf(self, tf_id: str) -> TaskForce | None:
        return next((t for t in self.draft().task_forces if t.id == tf_id), None)

    def _new_task_force(self) -> None:
        orders = self.draft()
        name = self.tf_name.text().strip() or f"TF {len(orders.task_forces) + 1}"
        base = str(self.tf_base.currentData() or "")
        tf_id = _slug(name, {t.id for t in orders.task_forces})
        selected = self.selected_units()
        units = tuple(u for u in selected if self.session.state.units[u].base == base)
        elsewhere = [self.session.state.units[u].name for u in selected if u not in units]
        tf = TaskForce(
            tf_id,
            name,
            base,
            units,
            self.tf_lsp.value(),
            stance="intervene" if self.tf_intervene.isChecked() else "stay",
        )
        self.edit(replace(orders, task_forces=(*orders.task_forces, tf)), f"New task force {name}")
        self.tf_name.clear()
        if elsewhere:  # said after the refresh, which clears the hint
            self.forces_hint.setText(
                f"A task force forms at one base ({self.tf_base.currentText()}): left out, "
                f"as they lie elsewhere: {', '.join(elsewhere)}."
            )
            self.forces_hint.show()

    def new_task_force(self, name: str, base: str, units: list[str], lsp: int) -> None:
        """The form's action, for keyboard macros and tests."""
        self.tf_name.setText(name)
        self.tf_base.setCurrentIndex(self.tf_base.findData(base))
        self.tf_lsp.setValue(lsp)
        self.select_units(units)
        self.tf_create.click()

    def select_units(self, ids: list[str]) -> None:
        self.units.clearSelection()
        mode = self.units.selectionMode()
        self.units.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        for row in range(self.units.rowCount()):
            if cell(self.units, row).data(Qt.ItemDataRole.UserRole) in ids:
                self.units.selectRow(row)
        self.units.setSelectionMode(mode)

    def _replace_tf(self, tf_id: str, **changes: object) -> None:
        orders = self.draft()
        tfs = tuple(
            replace(t, **changes) if t.id == tf_id else t  # type: ignore[arg-type]
            for t in orders.task_forces
        )
        self.edit(replace(orders, task_forces=tfs), f"Change {tf_id}")

    def _add_units(self) -> None:
        self.add_units_to(self._selected_tf(), self.selected_units())

    def add_units_to(self, tf_id: str, units: list[str]) -> None:
        """Add units to a task force (the button, or units dropped on it)."""
        tf = self._find_tf(tf_id)
        if tf is None:
            return
        add = [u for u in units if u not in tf.units]
        if add:
            self._replace_tf(tf.id, units=(*tf.units, *add))

    def _remove_units(self) -> None:
        tf = self._find_tf(self._selected_tf())
        if tf is not None:
            gone = set(self.selected_units())
            self._replace_tf(tf.id, units=tuple(u for u in tf.units if u not in gone))

    def _delete_task_force(self) -> None:
        tf_id = self._selected_tf()
        orders = self.draft()
        if tf_id:
            self.edit(
                replace(orders, task_forces=tuple(t for t in orders.task_forces if t.id != tf_id)),
                f"Delete task force {tf_id}",
            )

    def _tf_settings(self) -> None:
        tf = self._find_tf(self._selected_tf())
        if tf is not None:
            stance = "intervene" if self.tf_intervene.isChecked() else "stay"
            area = str(self.tf_where.currentData() or "") if stance == "intervene" else ""
            where = (area, *(a for a in tf.intervene_in[1:] if a != area)) if area else ()
            if (tf.lsp, tf.stance, tf.intervene_in) != (self.tf_lsp.value(), stance, where):
                self._replace_tf(tf.id, lsp=self.tf_lsp.value(), stance=stance, intervene_in=where)

    # == routes ==================================================================================
    def _build_routes(self) -> None:
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.addWidget(
            QLabel("<b>Merchant routes chart</b> (Annex B) — tonnage, escorts and attackers")
        )
        self.routes = _table(
            ["#", "Route", "Nation", "Tonnage", "Length", "Lift", "State", "Escorts", "Attackers"],
            DropTable,
        )
        self.routes.unitsDropped.connect(self.escort_route)  # type: ignore[attr-defined]
        layout.addWidget(self.routes, 1)
        row = QHBoxLayout()
        self.tonnage = QSpinBox()
        self.tonnage.setRange(0, 10000)
        self.tonnage.setPrefix("tonnage ")
        self.set_tonnage = QPushButton("Set tonnage")
        self.escort_button = QPushButton("Escort with selected units")
        for w in (self.tonnage, self.set_tonnage, self.escort_button):
            row.addWidget(w)
        layout.addLayout(row)
        row2 = QHBoxLayout()
        self.raid_area = QComboBox()
        self.raid_area.setToolTip("The sea area of the route's path where the raiders attack")
        self.raid_button = QPushButton("Attack with selected submarines")
        row2.addWidget(QLabel("Raid in"))
        row2.addWidget(self.raid_area, 1)
        row2.addWidget(self.raid_button)
        layout.addLayout(row2)
        self.tabs.addTab(tab, "Routes")
        self.routes.itemSelectionChanged.connect(self._route_selected)
        self.set_tonnage.clicked.connect(self._set_tonnage)
        self.escort_button.clicked.connect(self._escort)
        self.raid_button.clicked.connect(self._raid)

    def _refresh_routes(self, orders: Orders) -> None:
        """The routes chart as the orders' author may read it: Game Control every route's
        tonnage and every nation's escorts and attackers; a team (:attr:`team`) its own
        routes' tonnage, the others' routes by their public names, and only the escorts
        and attackers its own orders give (docs/team-views.md)."""
        board = self.session.board()
        secret = self.team is not None
        all_orders = {} if secret else dict(self.session.all_orders())
        all_orders[orders.nation] = orders
        escorts: dict[str, int] = {}
        raiders: dict[str, int] = {}
        for o in all_orders.values():
            for e in o.escorts:
                escorts[e.route] = escorts.get(e.route, 0) + len(e.units)
            for r in o.raids:
                raiders[r.route] = raiders.get(r.route, 0) + len(r.units)
        ids = sorted(board.route_rows, key=lambda r: (board.route_rows[r]["serial"], r))
        selected = self.selected_route()
        self.routes.setRowCount(len(ids))
        for row, rid in enumerate(ids):
            line = board.route(rid)
            own = line.nation == orders.nation
            tonnage = orders.tonnage.get(rid, line.tonnage) if own else line.tonnage
            known = own or not secret
            working, why = board.route_working(rid)
            cells = [
                line.serial,
                board.route_name_for(rid, orders.nation if secret else None),
                board.name_of(line.nation),
                tonnage if known else "not known",
                line.length.label,
                line.length.effective(tonnage) if known else "—",
                "working" if working else f"cut: {why}",
                escorts.get(rid, 0),
                raiders.get(rid, 0),
            ]
            for col, value in enumerate(cells):
                self.routes.setItem(row, col, _item(value, rid))
            if rid == selected:
                self.routes.selectRow(row)

    def selected_route(self) -> str:
        rows = {i.row() for i in self.routes.selectedIndexes()}
        if len(rows) != 1:
            return ""
        return str(cell(self.routes, rows.pop()).data(Qt.ItemDataRole.UserRole))

    def select_route(self, route: str) -> None:
        for row in range(self.routes.rowCount()):
            if cell(self.routes, row).data(Qt.ItemDataRole.UserRole) == route:
                self.routes.selectRow(row)

    def _route_selected(self) -> None:
        rid = self.selected_route()
        self.raid_area.clear()
        if not rid:
            return
        board = self.session.board()
        line = board.route(rid)
        # tonnage is set on the orders' own routes only (nor shown for another's)
        own = line.nation == self.draft().nation
        self.tonnage.setValue(self.draft().tonnage.get(rid, line.tonnage) if own else 0)
        self.set_tonnage.setEnabled(own)
        for area in line.path:
            self.raid_area.addItem(board.area_name(area), area)

    def _set_tonnage(self) -> None:
        rid = self.selected_route()
        if rid:
            orders = self.draft()
            tonnage = dict(orders.tonnage)
            tonnage[rid] = self.tonnage.value()
            self.edit(replace(orders, tonnage=tonnage), f"Tonnage on {rid}")

    def _escort(self) -> None:
        self.escort_route(self.selected_route(), self.selected_units())

    def escort_route(self, rid: str, units: list[str]) -> None:
        """Escort a route with units (the button, or units dropped on the route)."""
        if not rid or not units:
            return
        orders = self.draft()
        escorts = [e for e in orders.escorts if e.route != rid]
        old = next((e for e in orders.escorts if e.route == rid), Escort(rid))
        escorts.append(replace(old, units=(*old.units, *[u for u in units if u not in old.units])))
        self.edit(replace(orders, escorts=tuple(escorts)), f"Escort {rid}")

    def _raid(self) -> None:
        rid = self.selected_route()
        area = str(self.raid_area.currentData() or "")
        units = self.selected_units()
        if not rid or not area or not units:
            return
        orders = self.draft()
        raids = [r for r in orders.raids if (r.route, r.area) != (rid, area)]
        raids.append(Raid(rid, area, tuple(units)))
        self.edit(replace(orders, raids=tuple(raids)), f"Raid {rid}")

    # == operations ==============================================================================
    def _build_operations(self) -> None:
        tab = QWidget()
        layout = QVBoxLayout(tab)
        self.flags_label = QLabel()
        layout.addWidget(self.flags_label)
        self.operations = _table(["Operation", "Kind", "Sea area", "Task forces", "Target"])
        layout.addWidget(self.operations, 1)
        box = QGroupBox("New operation (takes a Naval Operations Flag)")
        form = QFormLayout(box)
        self.op_kind = QComboBox()
        for kind, name in OPERATION_NAMES.items():
            self.op_kind.addItem(name, kind)
        self.op_tfs = QListWidget()
        self.op_tfs.setMaximumHeight(80)
        self.op_area = QComboBox()
        self.op_target = QComboBox()
        self.op_route = QComboBox()
        self.op_manpower = QSpinBox()
        self.op_manpower.setRange(0, 50)
        self.op_tanks = QSpinBox()
        self.op_tanks.setRange(0, 50)
        self.op_create = QPushButton("Place flag: create operation")
        form.addRow("Kind", self.op_kind)
        form.addRow("Task forces", self.op_tfs)
        form.addRow("Sea area", self.op_area)
        form.addRow("Target (invasion)", self.op_target)
        form.addRow("Route (surface raid)", self.op_route)
        troops = QHBoxLayout()
        troops.addWidget(QLabel("manpower"))
        troops.addWidget(self.op_manpower)
        troops.addWidget(QLabel("tanks"))
        troops.addWidget(self.op_tanks)
        form.addRow("Troops landed", troops)
        form.addRow(self.op_create)
        layout.addWidget(box)
        self.op_delete = QPushButton("Remove selected operation")
        layout.addWidget(self.op_delete)
        self.tabs.addTab(tab, "Operations")
        self.op_tfs.itemChanged.connect(lambda _i: self._op_areas())
        self.op_area.currentIndexChanged.connect(lambda _i: self._op_targets())
        self.op_create.clicked.connect(self._new_operation)
        self.op_delete.clicked.connect(self._delete_operation)

    def _refresh_operations(self, orders: Orders) -> None:
        board = self.session.board()
        naval, military = board.flags(orders.nation)
        extra = sum(1 for c in orders.cards if c.use == "extra_flag")
        used = len(orders.operations)
        self.flags_label.setText(
            f"<b>Naval Operations Flags:</b> {used} used of {naval + extra}"
            + (f" ({extra} from cards)" if extra else "")
            + f" · <b>Military flags:</b> "
            f"{sum(1 for o in orders.operations if o.kind == 'major_invasion')} of {military}"
        )
        self.operations.setRowCount(len(orders.operations))
        for row, op in enumerate(orders.operations):
            tf_names = {tf.id: tf.name for tf in orders.task_forces}
            target = ""
            if op.target:
                target = board.place_name_for(op.target, orders.nation)
            elif op.route in board.route_rows:
                target = board.route_name_for(op.route, orders.nation)
            cells = [
                op.id,
                OPERATION_NAMES[op.kind],
                board.area_name(op.area),
                ", ".join(tf_names.get(t, t) for t in op.task_forces),
                target or op.route,
            ]
            for col, value in enumerate(cells):
                self.operations.setItem(row, col, _item(value, op.id))
        self.op_tfs.blockSignals(True)
        checked = self.checked_task_forces()
        self.op_tfs.clear()
        for tf in orders.task_forces:
            self.op_tfs.addItem(tf.name)
            item = self.op_tfs.item(self.op_tfs.count() - 1)
            item.setData(Qt.ItemDataRole.UserRole, tf.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(
                Qt.CheckState.Checked if tf.id in checked else Qt.CheckState.Unchecked
            )
        self.op_tfs.blockSignals(False)
        self.op_route.clear()
        for rid in sorted(board.route_rows):
            if board.enemies(orders.nation, board.route_nation(rid)):
                self.op_route.addItem(board.route_name_for(rid, orders.nation), rid)
        self._op_areas()

    def checked_task_forces(self) -> list[str]:
        out = []
        for i in range(self.op_tfs.count()):
            item = self.op_tfs.item(i)
            if item.checkState() == Qt.CheckState.Checked:
                out.append(str(item.data(Qt.ItemDataRole.UserRole)))
        return out

    def check_task_forces(self, ids: list[str]) -> None:
        for i in range(self.op_tfs.count()):
            item = self.op_tfs.item(i)
            item.setCheckState(
                Qt.CheckState.Checked
                if item.data(Qt.ItemDataRole.UserRole) in ids
                else Qt.CheckState.Unchecked
            )

    def _op_areas(self) -> None:
        """Sea areas every chosen task force can reach (the map shades the same range)."""
        board = self.session.board()
        tfs = [t for t in self.draft().task_forces if t.id in self.checked_task_forces()]
        current = self.op_area.currentData()
        self.op_area.blockSignals(True)
        self.op_area.clear()
        if tfs:
            reach = None
            everyone = {**self.session.all_orders(), self.current_nation: self.draft()}
            for tf in tfs:
                if tf.base not in board.bases:
                    continue
                steps = board.task_force_reach(self.current_nation, tf.id, everyone.values())
                areas = board.areas_within(tf.base, steps)
                reach = areas if reach is None else reach & areas
            for area in sorted(reach or (), key=board.area_name):
                self.op_area.addItem(board.area_name(area), area)
            if current:
                self.op_area.setCurrentIndex(max(0, self.op_area.findData(current)))
        self.op_area.blockSignals(False)
        self._op_targets()

    def _op_targets(self) -> None:
        board = self.session.board()
        area = self.op_area.currentData()
        self.op_target.clear()
        self.op_target.addItem("—", "")
        nation = self.current_nation
        # an enemy's place as this team knows it (a fleet train by whose it is)
        for name, b in sorted((board.place_name_for(b, nation), b) for b in board.places_in(area)):
            if board.enemies(nation, board.holder(b)):
                self.op_target.addItem(f"{name} ({board.holder(b)})", b)

    def _new_operation(self) -> None:
        orders = self.draft()
        tfs = tuple(self.checked_task_forces())
        area = str(self.op_area.currentData() or "")
        if not tfs or not area:
            self.status.setText("Tick the task forces of the operation and choose a sea area.")
            return
        kind = str(self.op_kind.currentData())
        op_id = _slug(f"{kind}_{area}", {o.id for o in orders.operations})
        invasion = kind in ("minor_invasion", "major_invasion")
        op = Operation(
            op_id,
            kind,
            area,
            tfs,
            target=str(self.op_target.currentData() or "") if invasion else "",
            invasion_force=tfs[-1] if invasion else "",
            manpower=self.op_manpower.value() if invasion else 0,
            tanks=self.op_tanks.value() if invasion else 0,
            route=str(self.op_route.currentData() or "") if kind == "surface_raid" else "",
        )
        self.edit(
            replace(orders, operations=(*orders.operations, op)),
            f"{OPERATION_NAMES[kind]} in {area}",
        )

    def send_task_force(self, nation: str, tf_id: str, area: str) -> None:
        """A task force dragged onto a sea area: its operation moves there, or it starts a
        sea-control operation there (change the kind in the Operations tab)."""
        index = self.nation.findData(nation)
        if index < 0:
            return
        self.nation.setCurrentIndex(index)
        orders = self.draft()
        if not any(t.id == tf_id for t in orders.task_forces):
            return
        ops = list(orders.operations)
        for i, op in enumerate(ops):
            if tf_id in op.task_forces:
                ops[i] = replace(op, area=area)
                self.edit(replace(orders, operations=tuple(ops)), f"Send {tf_id} to {area}")
                return
        op_id = _slug(f"sea_control_{area}", {o.id for o in ops})
        ops.append(Operation(op_id, "sea_control", area, (tf_id,)))
        self.edit(replace(orders, operations=tuple(ops)), f"Send {tf_id} to {area}")
        self.tabs.setCurrentIndex(2)

    def _delete_operation(self) -> None:
        rows = {i.row() for i in self.operations.selectedIndexes()}
        if len(rows) != 1:
            return
        op_id = cell(self.operations, rows.pop()).data(Qt.ItemDataRole.UserRole)
        orders = self.draft()
        self.edit(
            replace(orders, operations=tuple(o for o in orders.operations if o.id != op_id)),
            f"Remove {op_id}",
        )

    # == cards ===================================================================================
    def _build_cards(self) -> None:
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.addWidget(
            QLabel(
                "<b>Advantage Cards</b> — each played once; several may be "
                "played together, also for allies"
            )
        )
        self.cards = _table(["Card", "Type", "Value", "Status"])
        layout.addWidget(self.cards, 1)
        form = QFormLayout()
        self.card_use = QComboBox()
        for use in CARD_USES:
            self.card_use.addItem(USE_NAMES[use], use)
        self.card_tf = QComboBox()
        self.card_route = QComboBox()
        self.card_for = QComboBox()
        self.card_text = QLineEdit()
        self.card_text.setPlaceholderText("what Game Control is asked to allow")
        self.card_play = QPushButton("Play selected card")
        form.addRow("Use", self.card_use)
        form.addRow("Task force", self.card_tf)
        form.addRow("or route", self.card_route)
        form.addRow("Played for", self.card_for)
        form.addRow("Request", self.card_text)
        form.addRow(self.card_play)
        layout.addLayout(form)
        self.card_undo = QPushButton("Take back the selected card")
        layout.addWidget(self.card_undo)
        self.tabs.addTab(tab, "Cards")
        self.card_play.clicked.connect(self._play_card)
        self.card_undo.clicked.connect(self._unplay_card)

    def _refresh_cards(self, orders: Orders) -> None:
        board = self.session.board()
        hand = [c for c in self.session.scenario.rows("cards") if c["nation"] == orders.nation]
        playing = {c.card: c for c in orders.cards}
        self.cards.setRowCount(len(hand))
        for row, c in enumerate(hand):
            if c["id"] in self.session.state.cards_played:
                status = "played"
            elif c["id"] in playing:
                status = "playing now: " + USE_NAMES[playing[c["id"]].use]
            else:
                status = "in hand"
            for col, value in enumerate([c["title"], c["type"], f"+{c['value']}", status]):
                self.cards.setItem(row, col, _item(value, c["id"]))
        for combo, items in (
            (self.card_tf, [("—", "")] + [(t.name, t.id) for t in orders.task_forces]),
            (
                self.card_route,
                [("—", "")]
                + [(board.route_name_for(r, orders.nation), r) for r in sorted(board.route_rows)],
            ),
            (
                self.card_for,
                [
                    (str(board.nations[n]["name"]), n)
                    for n in board.teams()
                    if board.friendly(orders.nation, n)
                ],
            ),
        ):
            current = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            for text, data in items:
                combo.addItem(text, data)
            index = combo.findData(current if current is not None else orders.nation)
            combo.setCurrentIndex(max(0, index))
            combo.blockSignals(False)

    def _selected_card(self) -> str:
        rows = {i.row() for i in self.cards.selectedIndexes()}
        if len(rows) != 1:
            return ""
        return str(cell(self.cards, rows.pop()).data(Qt.ItemDataRole.UserRole))

    def select_card(self, card: str) -> None:
        for row in range(self.cards.rowCount()):
            if cell(self.cards, row).data(Qt.ItemDataRole.UserRole) == card:
                self.cards.selectRow(row)

    def _play_card(self) -> None:
        card = self._selected_card()
        if not card:
            return
        orders = self.draft()
        beneficiary = str(self.card_for.currentData() or orders.nation)
        play = CardPlay(
            card,
            str(self.card_use.currentData()),
            task_force=str(self.card_tf.currentData() or ""),
            route=str(self.card_route.currentData() or ""),
            beneficiary="" if beneficiary == orders.nation else beneficiary,
            text=self.card_text.text().strip(),
        )
        cards = (*tuple(c for c in orders.cards if c.card != card), play)
        self.edit(replace(orders, cards=cards), f"Play {card}")

    def _unplay_card(self) -> None:
        card = self._selected_card()
        orders = self.draft()
        if card:
            self.edit(
                replace(orders, cards=tuple(c for c in orders.cards if c.card != card)),
                f"Take back {card}",
            )

    # == supplies and transfers ==================================================================
    def _build_supplies(self) -> None:
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.addWidget(
            QLabel("<b>Step 1 — supplies</b> along your routes (2 tonnage of lift per LSP)")
        )
        self.supplies = _table(["Route", "LSP", "Cargo", "Points"])
        layout.addWidget(self.supplies, 1)
        row = QHBoxLayout()
        self.supply_route = QComboBox()
        self.supply_lsp = QSpinBox()
        self.supply_lsp.setRange(0, 99)
        self.supply_lsp.setPrefix("LSP ")
        self.supply_add = QPushButton("Ship")
        row.addWidget(self.supply_route, 1)
        row.addWidget(self.supply_lsp)
        row.addWidget(self.supply_add)
        layout.addLayout(row)
        layout.addWidget(
            QLabel("<b>Step 3 — strategic transfers</b> (the unit sits out the turn In Port)")
        )
        self.transfers = _table(["Unit", "To"])
        layout.addWidget(self.transfers, 1)
        row2 = QHBoxLayout()
        self.transfer_to = QComboBox()
        self.transfer_add = QPushButton("Transfer selected units (Forces tab)")
        row2.addWidget(self.transfer_to, 1)
        row2.addWidget(self.transfer_add)
        layout.addLayout(row2)
        self.supply_remove = QPushButton("Remove selected supply move or transfer")
        layout.addWidget(self.supply_remove)
        self.tabs.addTab(tab, "Supplies && transfers")
        self.supply_add.clicked.connect(self._ship)
        self.transfer_add.clicked.connect(self._transfer)
        self.supply_remove.clicked.connect(self._remove_supply)

    def _refresh_supplies(self, orders: Orders) -> None:
        board = self.session.board()
        self.supplies.setRowCount(len(orders.supplies))
        for row, s in enumerate(orders.supplies):
            for col, value in enumerate(
                [
                    board.route_name_for(s.route, orders.nation)
                    if s.route in board.route_rows
                    else s.route,
                    s.lsp,
                    s.cargo or "—",
                    s.points,
                ]
            ):
                self.supplies.setItem(row, col, _item(value, row))
        self.transfers.setRowCount(len(orders.transfers))
        for row, t in enumerate(orders.transfers):
            self.transfers.setItem(row, 0, _item(board.unit_name(t.unit), row))
            self.transfers.setItem(row, 1, _item(board.place_name(t.to), row))
        for combo, items in (
            (
                self.supply_route,
                [
                    (board.route_name_for(r, orders.nation), r)
                    for r in sorted(board.route_rows)
                    if board.route_nation(r) == orders.nation
                ],
            ),
            (
                self.transfer_to,
                [
                    (board.place_name(b), b)
                    for b in sorted(
                        board.bases,
                        key=lambda b: (board.holder(b) != orders.nation, board.place_name(b)),
                    )
                    if board.bases[b]["kind"] != "island"
                    and board.friendly(orders.nation, board.holder(b))
                ],
            ),
        ):
            current = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            for text, data in items:
                combo.addItem(text, data)
            combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.blockSignals(False)

    def _ship(self) -> None:
        route = str(self.supply_route.currentData() or "")
        if route and self.supply_lsp.value():
            orders = self.draft()
            move = SupplyMove(route, self.supply_lsp.value())
            self.edit(replace(orders, supplies=(*orders.supplies, move)), f"Ship LSP on {route}")

    def _transfer(self) -> None:
        to = str(self.transfer_to.currentData() or "")
        units = self.selected_units()
        if to and units:
            orders = self.draft()
            moves = [t for t in orders.transfers if t.unit not in units]
            moves += [Transfer(u, to) for u in units]
            self.edit(replace(orders, transfers=tuple(moves)), f"Transfer to {to}")

    def _remove_supply(self) -> None:
        orders = self.draft()
        rows = {i.row() for i in self.supplies.selectedIndexes()}
        if rows:
            self.edit(
                replace(
                    orders,
                    supplies=tuple(s for i, s in enumerate(orders.supplies) if i not in rows),
                ),
                "Remove supply move",
            )
            return
        rows = {i.row() for i in self.transfers.selectedIndexes()}
        if rows:
            self.edit(
                replace(
                    orders,
                    transfers=tuple(t for i, t in enumerate(orders.transfers) if i not in rows),
                ),
                "Remove transfer",
            )


def _stance_words(board: Board, tf: TaskForce) -> str:
    """A task force's stance as the forces table shows it."""
    if tf.stance != "intervene":
        return "stays in port"
    if not tf.intervene_in:
        return "intervene (nearest)"
    return "intervene: " + ", ".join(board.area_name(a) for a in tf.intervene_in)


def _slug(text: str, taken: set[str]) -> str:
    base = "".join(ch if ch.isalnum() else "_" for ch in text.lower()).strip("_") or "item"
    while "__" in base:
        base = base.replace("__", "_")
    if not base[0].isalpha():
        base = f"x_{base}"
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}_{n}", n + 1
    return slug
