"""The orders editor's last tab: land-based Air Points moved (step 3), fleet trains set up,
moved or disbanded (002 "Bases": *a Mobile Fleet Base*), and the owner's choices given ahead
(002 "Damage": *Owner chooses which ship losses to take*).

Every change goes through the editor's undoable :meth:`ui.orders.OrdersEditor.edit`, and the
rule check of the whole orders shows its problems below the tabs as for every other order.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign.board import Board
from campaign.options import option
from campaign.orders import AirTransfer, Choices, FleetTrainOrder, Orders

if TYPE_CHECKING:
    from ui.orders import OrdersEditor

CARRIERS = ("fleet_carrier", "escort_carrier")


def _table(headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.verticalHeader().setVisible(False)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    table.setMinimumHeight(80)
    table.setMaximumHeight(130)
    return table


def _fill(combo: QComboBox, items: list[tuple[str, str]]) -> None:
    """Refill a choice list, keeping the current choice where it is still offered."""
    current = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    for text, data in items:
        combo.addItem(text, data)
    combo.setCurrentIndex(max(0, combo.findData(current)))
    combo.blockSignals(False)


def _spin(low: int, high: int, prefix: str) -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setPrefix(prefix)
    return box


class MoreOrdersTab(QWidget):
    """Air Points moved, fleet trains, and the owner's choices of the editor's nation."""

    def __init__(self, editor: OrdersEditor) -> None:
        super().__init__()
        self.editor = editor
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer.addWidget(scroll)
        body = QWidget()
        scroll.setWidget(body)
        layout = QVBoxLayout(body)
        layout.addWidget(self._air_box())
        layout.addWidget(self._train_box())
        layout.addWidget(self._choices_box())
        layout.addStretch(1)

    # == Air Points moved ==========================================================================
    def _air_box(self) -> QGroupBox:
        box = QGroupBox("Step 3 — land-based Air Points moved (they sit out the turn)")
        col = QVBoxLayout(box)
        self.air_moves = _table(["Air Points", "Points", "To"])
        col.addWidget(self.air_moves)
        row = QHBoxLayout()
        self.air_from = QComboBox()
        self.air_points = _spin(0, 99, "")
        self.air_points.setSpecialValueText("all")
        self.air_points.setToolTip("How many Air Points fly (0: all of them)")
        self.air_to = QComboBox()
        self.air_add = QPushButton("Fly")
        self.air_remove = QPushButton("Remove")
        row.addWidget(self.air_from, 1)
        row.addWidget(self.air_points)
        col.addLayout(row)
        row2 = QHBoxLayout()
        row2.addWidget(QLabel("to"))
        row2.addWidget(self.air_to, 1)
        row2.addWidget(self.air_add)
        row2.addWidget(self.air_remove)
        col.addLayout(row2)
        self.air_add.clicked.connect(self._fly)
        self.air_remove.clicked.connect(self._unfly)
        return box

    def _fly(self) -> None:
        air, to = str(self.air_from.currentData() or ""), str(self.air_to.currentData() or "")
        if not air or not to:
            return
        orders = self.editor.draft()
        moves = (*orders.air_transfers, AirTransfer(air, to, self.air_points.value()))
        self.editor.edit(replace(orders, air_transfers=moves), f"Fly Air Points to {to}")

    def _unfly(self) -> None:
        rows = {i.row() for i in self.air_moves.selectedIndexes()}
        orders = self.editor.draft()
        if rows:
            kept = tuple(a for i, a in enumerate(orders.air_transfers) if i not in rows)
            self.editor.edit(replace(orders, air_transfers=kept), "Remove Air Points moved")

    # == fleet trains ==============================================================================
    def _train_box(self) -> QGroupBox:
        box = QGroupBox("Fleet trains — a mobile fleet base supplied by its own merchant route")
        col = QVBoxLayout(box)
        self.train_note = QLabel()
        self.train_note.setWordWrap(True)
        col.addWidget(self.train_note)
        self.trains = _table(["Fleet train", "Sea area", "Supplied from", "This turn"])
        col.addWidget(self.trains)
        new = QHBoxLayout()
        self.train_name = QLineEdit()
        self.train_name.setPlaceholderText("name, e.g. Service Squadron 10")
        self.train_area = QComboBox()
        self.train_area.setToolTip("the sea area where the train lies")
        self.train_origin = QComboBox()
        self.train_origin.setToolTip("the mainland fleet base its supply route comes from")
        self.train_tonnage = _spin(0, 999, "tonnage ")
        self.train_lsp = _spin(0, 99, "LSP ")
        self.train_add = QPushButton("Set up")
        new.addWidget(self.train_name, 1)
        new.addWidget(QLabel("in"))
        new.addWidget(self.train_area, 1)
        col.addLayout(new)
        new2 = QHBoxLayout()
        new2.addWidget(QLabel("from"))
        for w, stretch in (
            (self.train_origin, 1),
            (self.train_tonnage, 0),
            (self.train_lsp, 0),
            (self.train_add, 0),
        ):
            new2.addWidget(w, stretch)
        col.addLayout(new2)
        act = QHBoxLayout()
        self.train_move_to = QComboBox()
        self.train_move = QPushButton("Move selected there")
        self.train_disband = QPushButton("Disband selected")
        self.train_cancel = QPushButton("Cancel its order")
        act.addWidget(self.train_move_to, 1)
        act.addWidget(self.train_move)
        col.addLayout(act)
        act2 = QHBoxLayout()
        act2.addStretch(1)
        act2.addWidget(self.train_disband)
        act2.addWidget(self.train_cancel)
        col.addLayout(act2)
        self.train_add.clicked.connect(self._set_up_train)
        self.train_move.clicked.connect(self._move_train)
        self.train_disband.clicked.connect(self._disband_train)
        self.train_cancel.clicked.connect(self._cancel_train)
        return box

    def _selected_train(self) -> str:
        rows = {i.row() for i in self.trains.selectedIndexes()}
        if len(rows) != 1:
            return ""
        item = self.trains.item(rows.pop(), 0)
        return str(item.data(Qt.ItemDataRole.UserRole)) if item else ""

    def _train_order(self, order: FleetTrainOrder, text: str) -> None:
        orders = self.editor.draft()
        kept = tuple(f for f in orders.fleet_trains if f.id != order.id)
        self.editor.edit(replace(orders, fleet_trains=(*kept, order)), text)

    def _set_up_train(self) -> None:
        name = self.train_name.text().strip()
        area = str(self.train_area.currentData() or "")
        origin = str(self.train_origin.currentData() or "")
        if not (name and area and origin):
            return
        board = self.editor.session.board()
        taken = set(board.bases) | {f.id for f in self.editor.draft().fleet_trains}
        base = "ft_" + "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_")
        train_id, n = base, 2
        while train_id in taken:
            train_id, n = f"{base}_{n}", n + 1
        order = FleetTrainOrder(
            train_id, name, area, origin, self.train_tonnage.value(), self.train_lsp.value()
        )
        self._train_order(order, f"Set up fleet train {name}")
        self.train_name.clear()

    def _move_train(self) -> None:
        train, area = self._selected_train(), str(self.train_move_to.currentData() or "")
        if train and area:
            self._train_order(FleetTrainOrder(train, area=area), f"Move fleet train {train}")

    def _disband_train(self) -> None:
        train = self._selected_train()
        if train:
            self._train_order(FleetTrainOrder(train, disband=True), f"Disband {train}")

    def _cancel_train(self) -> None:
        train = self._selected_train()
        orders = self.editor.draft()
        kept = tuple(f for f in orders.fleet_trains if f.id != train)
        if train and kept != orders.fleet_trains:
            self.editor.edit(replace(orders, fleet_trains=kept), f"Cancel the order for {train}")

    # == the owner's choices =======================================================================
    def _choices_box(self) -> QGroupBox:
        box = QGroupBox("Your choices when the dice fall (002: the owner chooses the losses)")
        col = QVBoxLayout(box)
        hint = QLabel(
            "For a turn resolved without you at the table. Units listed take the steps first, "
            "one step per line in order (list a unit twice to have it sunk before the next is "
            "damaged); the rest fall as the default owner takes them. Select units on the "
            "Forces tab, then add them."
        )
        hint.setWordWrap(True)
        col.addWidget(hint)
        lists = QHBoxLayout()
        self.loss_list = QListWidget()
        self.repair_list = QListWidget()
        for title, widget, key in (
            ("Take losses first", self.loss_list, "losses"),
            ("Repair first", self.repair_list, "repairs"),
        ):
            part = QVBoxLayout()
            part.addWidget(QLabel(f"<b>{title}</b>"))
            widget.setMinimumHeight(80)
            part.addWidget(widget)
            buttons = QHBoxLayout()
            for label, action in (
                ("Add selected", "add"),
                ("Up", "up"),
                ("Remove", "remove"),
            ):
                button = QPushButton(label)
                button.clicked.connect(
                    lambda _c=False, k=key, a=action, w=widget: self._choice(k, a, w)
                )
                buttons.addWidget(button)
            part.addLayout(buttons)
            lists.addLayout(part)
        col.addLayout(lists)
        self.carrier_air = _table(["Carrier", "If damaged, its Air Point goes"])
        col.addWidget(self.carrier_air)
        return box

    def _choice(self, key: str, action: str, widget: QListWidget) -> None:
        orders = self.editor.draft()
        current = list(getattr(orders.choices, key))
        row = widget.currentRow()
        if action == "add":
            current += self.editor.selected_units()
        elif action == "up" and 0 < row < len(current):
            current[row - 1], current[row] = current[row], current[row - 1]
        elif action == "remove" and 0 <= row < len(current):
            del current[row]
        if key == "losses":
            choices = replace(orders.choices, losses=tuple(current))
        else:
            choices = replace(orders.choices, repairs=tuple(current))
        self.editor.edit(replace(orders, choices=choices), f"Choices: {key}")

    def _carrier_air_chosen(self, carrier: str, combo: QComboBox) -> None:
        orders = self.editor.draft()
        where = dict(orders.choices.carrier_air)
        target = str(combo.currentData() or "")
        if target:
            where[carrier] = target
        else:
            where.pop(carrier, None)
        self.editor.edit(
            replace(orders, choices=replace(orders.choices, carrier_air=where)),
            "Choices: carrier Air Point",
        )

    # == refresh ===================================================================================
    def refresh(self, orders: Orders) -> None:
        board = self.editor.session.orders_board()
        self._refresh_air(board, orders)
        self._refresh_trains(board, orders)
        self._refresh_choices(board, orders.choices, orders.nation)

    def _refresh_air(self, board: Board, orders: Orders) -> None:
        nation = orders.nation
        self.air_moves.setRowCount(len(orders.air_transfers))
        for row, move in enumerate(orders.air_transfers):
            cells = [
                board.air_name(move.air),
                move.points or "all",
                board.place_name(move.to),
            ]
            for col, value in enumerate(cells):
                self.air_moves.setItem(row, col, QTableWidgetItem(str(value)))
        own_air = sorted(
            (a for a in board.state.air.values() if a.nation == nation and a.points > 0),
            key=lambda a: board.air_name(a.id),
        )
        _fill(
            self.air_from,
            [(f"{board.air_name(a.id)} ({a.points})", a.id) for a in own_air],
        )
        airfields = sorted(
            (
                b
                for b, row in board.bases.items()
                if row["kind"] != "fleet_train" and board.friendly(nation, board.holder(b))
            ),
            key=lambda b: (board.holder(b) != nation, board.place_name(b)),
        )
        _fill(self.air_to, [(board.place_name(b), b) for b in airfields])

    def _refresh_trains(self, board: Board, orders: Orders) -> None:
        nation = orders.nation
        opts = board.scenario.meta.options
        self.train_note.setText(
            "Set up in step 4 from one of your mainland fleet bases: its supply route carries at "
            f"least {option(opts, 'fleet_train_tonnage')} tonnage points and it takes at least "
            f"{option(opts, 'fleet_train_lsp')} LSP there; it costs "
            f"{option(opts, 'fleet_train_manpower')} manpower. It serves as a fleet base from "
            "the next turn while its route works and lifts "
            f"{option(opts, 'fleet_train_support')} tonnage point(s) per unit based on it."
        )
        ordered = {f.id: f for f in orders.fleet_trains}
        rows: list[tuple[str, str, str, str, str]] = []
        for train in sorted(board.state.fleet_trains.values(), key=lambda t: t.name):
            if train.nation != nation:
                continue
            order = ordered.get(train.id)
            what = (
                "disband"
                if order and order.disband
                else f"move to {board.area_name(order.area)}"
                if order and order.area
                else ("supports the fleet" if board.fleet_train_support(train.id)[0] else "idle")
            )
            rows.append(
                (
                    train.id,
                    train.name,
                    board.area_name(train.area),
                    board.place_name(train.origin),
                    what,
                )
            )
        for f in orders.fleet_trains:
            if f.id not in board.state.fleet_trains:
                rows.append(
                    (
                        f.id,
                        f.name,
                        board.area_name(f.area),
                        board.place_name(f.origin),
                        f"set up: {f.tonnage} tonnage, {f.lsp} LSP",
                    )
                )
        self.trains.setRowCount(len(rows))
        for r, (train_id, *cells) in enumerate(rows):
            for c, value in enumerate(cells):
                item = QTableWidgetItem(value)
                item.setData(Qt.ItemDataRole.UserRole, train_id)
                self.trains.setItem(r, c, item)
        areas = sorted(board.world.areas, key=board.area_name)
        for combo in (self.train_area, self.train_move_to):
            _fill(combo, [(board.area_name(a), a) for a in areas])
        mainland = sorted(
            (
                b
                for b in board.fleet_bases_of(nation)
                if board.bases[b]["kind"] == "fleet_base" and not board.bases[b]["island"]
            ),
            key=board.place_name,
        )
        _fill(self.train_origin, [(board.place_name(b), b) for b in mainland])
        if not self.train_tonnage.value():
            self.train_tonnage.setValue(int(option(opts, "fleet_train_tonnage")))
        if not self.train_lsp.value():
            self.train_lsp.setValue(int(option(opts, "fleet_train_lsp")))

    def _refresh_choices(self, board: Board, choices: Choices, nation: str) -> None:
        for widget, ids in ((self.loss_list, choices.losses), (self.repair_list, choices.repairs)):
            row = widget.currentRow()
            widget.clear()
            for unit_id in ids:
                widget.addItem(QListWidgetItem(board.unit_name(unit_id)))
            widget.setCurrentRow(min(row, widget.count() - 1))
        carriers = sorted(
            (
                u
                for u in board.state.units.values()
                if u.nation == nation and u.type in CARRIERS and u.state != "sunk"
            ),
            key=lambda u: u.name,
        )
        self.carrier_air.setRowCount(len(carriers))
        for row, unit in enumerate(carriers):
            self.carrier_air.setItem(row, 0, QTableWidgetItem(unit.name))
            combo = QComboBox()
            combo.addItem("another free carrier at its base, else ashore", "")
            combo.addItem("ashore at its base", "ashore")
            for other in carriers:
                if other.id != unit.id:
                    combo.addItem(f"to {other.name} (if free at the same base)", other.id)
            combo.setCurrentIndex(max(0, combo.findData(choices.carrier_air.get(unit.id, ""))))
            combo.currentIndexChanged.connect(
                lambda _i, c=unit.id, box=combo: self._carrier_air_chosen(c, box)
            )
            self.carrier_air.setCellWidget(row, 1, combo)
