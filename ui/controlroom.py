"""Game Control's edit mode: correct the game as it stands, see every correction, rule on
cards (*Game → Control edit mode*).

The panel builds a :mod:`campaign.control` edit from a small form — one per kind of edit,
laid out from the edit's own fields — and hands it to the session with its reason; the
engine checks it and says in words why it refuses. Clicking a base, route, sea area or
task force on the map fills the forms with it. The audit lists every edit, undo and card
ruling, with the teams who see each; an edit still standing can be undone (itself an
event). Cards played for *some other advantage outside the rules at the discretion of
Game Control* wait in their own list for a ruling.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign.control import EDITS, MOST, UNIT_STATES, AuditEntry, Edit, EditError
from campaign.events import UMPIRE, Event
from campaign.schemas import AIR_KINDS

from .session import GameSession
from .style import MUTED

#: a form field's label, by the edit field's name
LABELS = {
    "unit": "Unit",
    "to": "To",
    "base": "Place",
    "nation": "Nation",
    "route": "Route",
    "card": "Advantage Card",
    "air": "Air unit",
    "area": "Sea area",
    "side": "Side",
    "state": "State",
    "kind": "Kind of air",
    "points": "Points",
    "garrisons": "Garrisons",
    "naval": "Naval flags",
    "military": "Military flags",
    "turn": "Turn",
    "from_pool": "Take it from the unallocated tonnage",
    "aboard": "Air Point aboard",
    "in_hand": "In the team's hand (unticked: discarded)",
    "contested": "Contested",
}
#: fields that pick something of the board, by the kind of list they offer
CHOICE_FIELDS = {
    "unit": "unit",
    "to": "base",
    "base": "base",
    "nation": "nation",
    "route": "route",
    "card": "card",
    "air": "air",
    "area": "area",
    "side": "side",
    "state": "state",
    "kind": "air_kind",
}
AUDIT_COLUMNS = ("#", "Turn", "What and why", "Seen by", "Now")
#: the fields a form fills with the game's value when its other fields change
PREFILLED = {
    "unit_state": "state",
    "carrier_air": "aboard",
    "holder": "nation",
    "route_tonnage": "points",
    "pool": "points",
    "flags": "naval military",
    "card": "in_hand",
    "garrison": "garrisons",
    "lsp": "points",
    "air_points": "points",
    "contested": "contested",
}


class ControlPanel(QWidget):
    """The edit forms, the audit and the cards awaiting a ruling."""

    def __init__(self, session: GameSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.forms: dict[str, dict[str, QWidget]] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        intro = QLabel(
            "Correct the game as it stands. Every edit needs a reason; the teams it "
            "concerns read it in their report, and it can be undone."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self._build_edit())
        splitter.addWidget(self._build_audit())
        splitter.addWidget(self._build_rulings())
        splitter.setStretchFactor(1, 3)
        splitter.setStretchFactor(2, 1)
        layout.addWidget(splitter, 1)
        session.gameChanged.connect(self.refresh)
        session.stateChanged.connect(self.refresh)
        self.refresh()

    # -- building ------------------------------------------------------------------------------
    def _build_edit(self) -> QWidget:
        box = QGroupBox("Make an edit")
        layout = QVBoxLayout(box)
        top = QFormLayout()
        self.action = QComboBox()
        for action, kind in EDITS.items():
            self.action.addItem(kind.label, action)
        top.addRow("Edit", self.action)
        layout.addLayout(top)
        self.stack = QStackedWidget()
        for action, kind in EDITS.items():
            self.stack.addWidget(self._form(action, kind))
        self.action.currentIndexChanged.connect(self._action_changed)
        layout.addWidget(self.stack)
        reason_row = QFormLayout()
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("Why (the teams concerned will read it)")
        reason_row.addRow("Reason", self.reason)
        layout.addLayout(reason_row)
        row = QHBoxLayout()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.apply_button = QPushButton("Apply the edit")
        self.apply_button.setDefault(True)
        self.apply_button.clicked.connect(self.apply)
        row.addWidget(self.status, 1)
        row.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(row)
        return box

    def _form(self, action: str, kind: type[Edit]) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        form.setContentsMargins(0, 0, 0, 0)
        fields: dict[str, QWidget] = {}
        for f in dataclasses.fields(kind):  # type: ignore[arg-type]
            widget: QWidget
            if f.name in CHOICE_FIELDS:
                combo = QComboBox()
                combo.setMinimumContentsLength(18)
                combo.setSizeAdjustPolicy(
                    QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
                )
                if f.name not in PREFILLED.get(action, "").split():
                    combo.currentIndexChanged.connect(lambda _i, a=action: self._prefill(a))
                widget = combo
            elif f.type in ("bool", bool):
                widget = QCheckBox(LABELS.get(f.name, f.name))
            else:
                spin = QSpinBox()
                spin.setRange(0, 99 if f.name in ("naval", "military", "garrisons") else MOST)
                if f.name == "turn":
                    spin.setSpecialValueText("this turn")
                    spin.valueChanged.connect(lambda _v, a=action: self._prefill(a))
                widget = spin
            fields[f.name] = widget
            label = "" if isinstance(widget, QCheckBox) else LABELS.get(f.name, f.name)
            form.addRow(label, widget)
        self.forms[action] = fields
        return page

    def _build_audit(self) -> QWidget:
        box = QGroupBox("Audit: every Control edit and ruling")
        layout = QVBoxLayout(box)
        self.audit_table = QTableWidget(0, len(AUDIT_COLUMNS))
        self.audit_table.setHorizontalHeaderLabels(AUDIT_COLUMNS)
        self.audit_table.verticalHeader().setVisible(False)
        self.audit_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.audit_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.audit_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.audit_table.setWordWrap(True)
        header = self.audit_table.horizontalHeader()
        for column in range(len(AUDIT_COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(3, 110)
        self.audit_table.itemSelectionChanged.connect(self._audit_selected)
        layout.addWidget(self.audit_table, 1)
        row = QHBoxLayout()
        self.undo_button = QPushButton("Undo the chosen edit…")
        self.undo_button.clicked.connect(self.undo_selected)
        row.addStretch(1)
        row.addWidget(self.undo_button)
        layout.addLayout(row)
        return box

    def _build_rulings(self) -> QWidget:
        box = QGroupBox("Advantage Cards awaiting Game Control's ruling")
        layout = QVBoxLayout(box)
        self.pending_list = QListWidget()
        self.pending_list.setWordWrap(True)
        self.pending_list.itemSelectionChanged.connect(self._pending_selected)
        layout.addWidget(self.pending_list, 1)
        row = QHBoxLayout()
        self.rule_button = QPushButton("Rule on the chosen card…")
        self.rule_button.clicked.connect(self.rule_selected)
        row.addStretch(1)
        row.addWidget(self.rule_button)
        layout.addLayout(row)
        return box

    # -- the lists ----------------------------------------------------------------------------
    def refresh(self) -> None:
        """Fill the lists from the game, keeping each form's choices."""
        self.audit: list[AuditEntry] = []
        self.pending: list[Event] = []
        enabled = self.session.is_open
        self.setEnabled(enabled)
        if not enabled:
            self.audit_table.setRowCount(0)
            self.pending_list.clear()
            return
        choices = self._choices()
        for fields in self.forms.values():
            for name, widget in fields.items():
                if isinstance(widget, QComboBox):
                    _fill(widget, choices[CHOICE_FIELDS[name]])
        self._prefill(self.current_action())
        campaign = self.session.require()
        self.audit = campaign.control_audit()
        self.pending = campaign.cards_awaiting_ruling()
        self._fill_audit()
        self._fill_pending()

    def _choices(self) -> dict[str, list[tuple[str, str]]]:
        board = self.session.board()
        state = board.state
        name = board.name_of
        units = sorted(state.units.values(), key=lambda u: (name(u.nation), u.name))
        return {
            "unit": [
                (
                    f"{u.name} — {name(u.nation)}, {board.place_name(u.base)}"
                    + ("" if u.state == "ready" else f" ({u.state})"),
                    u.id,
                )
                for u in units
            ],
            "base": sorted(
                ((f"{board.place_name(b)} ({name(board.holder(b))})", b) for b in board.bases),
                key=lambda x: x[0],
            ),
            "nation": [(name(n), n) for n in board.nations],
            "route": [
                (f"{line.serial}. {line.name} ({name(line.nation)})", line.id)
                for line in (board.route(r) for r in board.route_ids())
            ],
            "card": [
                (
                    f"{row['title']} ({name(str(row['nation']))})"
                    + (", played" if k in state.cards_played else ""),
                    k,
                )
                for k, row in board.cards.items()
            ],
            "air": [
                (f"{board.air_name(a.id)} — {name(a.nation)}, {a.points} pt", a.id)
                for a in sorted(state.air.values(), key=lambda a: (name(a.nation), a.id))
            ],
            "area": sorted(
                ((a.name, a.id) for a in board.world.areas.values()), key=lambda x: x[0]
            ),
            "side": [("Allies", "allies"), ("Axis", "axis")],
            "state": [(s.capitalize(), s) for s in UNIT_STATES],
            "air_kind": [("Land-based", AIR_KINDS[0]), ("Strategic bombers", AIR_KINDS[1])],
        }

    def _fill_audit(self) -> None:
        names = {n: str(r["name"]) for n, r in self.session.scenario.by_id("nations").items()}
        table = self.audit_table
        table.setRowCount(len(self.audit))
        for row, e in enumerate(self.audit):
            seen = ", ".join("Game Control" if v == UMPIRE else names.get(v, v) for v in e.seen_by)
            now = (
                f"undone by edit {e.undone_by}"
                if e.undone_by
                else f"undoes edit {e.undoes}"
                if e.kind == "undo"
                else "ruling"
                if e.kind == "ruling"
                else "standing"
            )
            what = e.text.split(". Reason:", 1)[0].strip()
            if e.kind != "ruling":
                what = what.split("): ", 1)[-1]  # "Game Control (edit 3): " is the # column
                what = f"{what}.\nReason: {e.reason}"
            cells = [e.number or "", f"{e.turn}/{e.step}", what, seen, now]
            for column, value in enumerate(cells):
                item = QTableWidgetItem(str(value))
                item.setToolTip(e.text)
                table.setItem(row, column, item)
        table.resizeRowsToContents()
        self._audit_selected()

    def _fill_pending(self) -> None:
        names = {n: str(r["name"]) for n, r in self.session.scenario.by_id("nations").items()}
        cards = self.session.scenario.by_id("cards")
        self.pending_list.clear()
        for e in self.pending:
            card = str(e.data.get("card", ""))
            title = cards[card]["title"] if card in cards else card
            asked = e.data.get("text") or "(no request written)"
            item = QListWidgetItem(
                f"{names.get(e.nation, e.nation)}: '{title}' (turn {e.turn}) asks: {asked}"
            )
            item.setData(Qt.ItemDataRole.UserRole, card)
            self.pending_list.addItem(item)
        if not self.pending:
            item = QListWidgetItem("No card awaits a ruling.")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.pending_list.addItem(item)
        self._pending_selected()

    def _audit_selected(self) -> None:
        entry = self.selected_entry()
        self.undo_button.setEnabled(
            entry is not None and entry.kind == "edit" and not entry.undone_by
        )

    def _pending_selected(self) -> None:
        self.rule_button.setEnabled(self.selected_card() is not None)

    def selected_entry(self) -> AuditEntry | None:
        rows = self.audit_table.selectionModel().selectedRows()
        return self.audit[rows[0].row()] if rows else None

    def selected_card(self) -> str | None:
        items = self.pending_list.selectedItems()
        data = items[0].data(Qt.ItemDataRole.UserRole) if items else None
        return str(data) if data else None

    # -- the forms ------------------------------------------------------------------------------
    def current_action(self) -> str:
        return str(self.action.currentData())

    def choose(self, action: str, **values: Any) -> None:
        """Show ``action``'s form and set its fields (ids for the lists)."""
        self.action.setCurrentIndex(self.action.findData(action))
        fields = self.forms[action]
        for name, value in values.items():
            widget = fields[name]
            if isinstance(widget, QComboBox):
                index = widget.findData(value)
                if index < 0:
                    raise LookupError(f"{name}: no choice '{value}'")
                widget.setCurrentIndex(index)
            elif isinstance(widget, QCheckBox):
                widget.setChecked(bool(value))
            elif isinstance(widget, QSpinBox):
                widget.setValue(int(value))

    def edit(self) -> Edit:
        """The edit the current form describes."""
        action = self.current_action()
        values: dict[str, Any] = {}
        for name, widget in self.forms[action].items():
            if isinstance(widget, QComboBox):
                values[name] = str(widget.currentData() or "")
            elif isinstance(widget, QCheckBox):
                values[name] = widget.isChecked()
            elif isinstance(widget, QSpinBox):
                values[name] = widget.value()
        return EDITS[action](**values)

    def apply(self) -> Event | None:
        """Make the edit; on refusal say why beside the button (nothing changes)."""
        if not self.session.is_open:
            return None
        try:
            event = self.session.control_edit(self.edit(), self.reason.text())
        except EditError as exc:
            self._say(f"Refused: {exc}.", error=True)
            return None
        self.reason.clear()
        self._say(f"Done — {event.text}")
        return event

    def _say(self, text: str, error: bool = False) -> None:
        weight = "bold" if error else "normal"
        self.status.setText(f"<span style='font-weight:{weight}'>{escape(text)}</span>")
        if not error:
            self.status.setStyleSheet(f"color: {MUTED.name()}")
        else:
            self.status.setStyleSheet("")

    def _action_changed(self) -> None:
        self.stack.setCurrentIndex(self.action.currentIndex())
        self._prefill(self.current_action())

    def _prefill(self, action: str) -> None:
        """Put the value the game has now into the form's number or tick box, so Control
        changes it from what it is."""
        if not self.session.is_open or action not in self.forms:
            return
        f = self.forms[action]
        board = self.session.board()
        state = board.state

        def pick(name: str) -> str:
            widget = f[name]
            return str(widget.currentData() or "") if isinstance(widget, QComboBox) else ""

        def put(name: str, value: Any) -> None:
            widget = f[name]
            widget.blockSignals(True)
            if isinstance(widget, QSpinBox):
                widget.setValue(int(value))
            elif isinstance(widget, QCheckBox):
                widget.setChecked(bool(value))
            elif isinstance(widget, QComboBox):
                widget.setCurrentIndex(max(0, widget.findData(value)))
            widget.blockSignals(False)

        unit = state.units.get(pick("unit")) if "unit" in f else None
        prefills: dict[str, Callable[[], None]] = {
            "unit_state": lambda: put("state", unit.state) if unit else None,
            "carrier_air": lambda: put("aboard", unit.carries_air) if unit else None,
            "holder": lambda: put("nation", board.holder(pick("base"))) if pick("base") else None,
            "route_tonnage": lambda: put("points", state.routes.get(pick("route"), 0)),
            "pool": lambda: put("points", state.tonnage.get(pick("nation"), 0)),
            "flags": lambda: self._prefill_flags(f, board),
            "card": lambda: put("in_hand", pick("card") not in state.cards_played),
            "garrison": lambda: put(
                "garrisons", state.garrisons.get(pick("base"), {}).get(pick("nation"), 0)
            ),
            "lsp": lambda: put("points", state.lsp_at(pick("base"), pick("nation"))),
            "air_points": lambda: put(
                "points", state.air[pick("air")].points if pick("air") in state.air else 0
            ),
            "contested": lambda: put(
                "contested", pick("area") in state.contested.get(pick("side"), [])
            ),
        }
        if action in prefills:
            prefills[action]()

    def _prefill_flags(self, f: dict[str, QWidget], board: Any) -> None:
        nation, turn = f["nation"], f["turn"]
        assert isinstance(nation, QComboBox) and isinstance(turn, QSpinBox)
        naval, military = board.flags(str(nation.currentData() or ""), turn.value() or None)
        for name, value in (("naval", naval), ("military", military)):
            spin = f[name]
            assert isinstance(spin, QSpinBox)
            spin.setValue(value)

    # -- picking on the map ----------------------------------------------------------------------
    def pick(self, kind: str, ident: str) -> None:
        """Something clicked on the map fills every form that takes one: a base (and its
        first unit in port), a route, a sea area, or a task force's first unit."""
        if not self.session.is_open:
            return
        state = self.session.state
        unit = ""
        if kind == "base":
            self._set_all("base", ident)
            self._set_all("to", ident)
            here = sorted(u.id for u in state.units.values() if u.base == ident)
            unit = here[0] if here else ""
        elif kind == "route":
            self._set_all("route", ident)
        elif kind == "area":
            self._set_all("area", ident)
        elif kind == "task_force":
            nation, _, tf_id = ident.partition(":")
            orders = self.session.all_orders().get(nation)
            tf = next((t for t in orders.task_forces if t.id == tf_id), None) if orders else None
            unit = tf.units[0] if tf and tf.units else ""
        if unit:
            self._set_all("unit", unit)
        self._prefill(self.current_action())

    def _set_all(self, name: str, value: str) -> None:
        for fields in self.forms.values():
            widget = fields.get(name)
            if isinstance(widget, QComboBox):
                index = widget.findData(value)
                if index >= 0:
                    widget.blockSignals(True)
                    widget.setCurrentIndex(index)
                    widget.blockSignals(False)

    # -- undo and rulings -------------------------------------------------------------------------
    def undo_selected(self) -> Event | None:
        entry = self.selected_entry()
        if entry is None or entry.kind != "edit" or entry.undone_by:
            return None
        reason, ok = QInputDialog.getText(
            self,
            "Undo a Control edit",
            f"Undo edit {entry.number}?\n\n{entry.text}\n\nWhy (optional):",
        )
        if not ok:
            return None
        try:
            event = self.session.undo_control_edit(entry.number, reason)
        except EditError as exc:
            self._say(f"Refused: {exc}.", error=True)
            return None
        self._say(f"Done — {event.text}")
        return event

    def rule_selected(self) -> Event | None:
        card = self.selected_card()
        event = next((e for e in self.pending if e.data.get("card") == card), None)
        if event is None:
            return None
        dialog = RulingDialog(self.session, event, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        try:
            ruled = self.session.rule_on_card(str(card), dialog.ruling())
        except ValueError as exc:
            self._say(f"Refused: {exc}.", error=True)
            return None
        self._say(f"Done — {ruled.text}")
        return ruled


class RulingDialog(QDialog):
    """Game Control's ruling on a card played for *some other advantage outside the rules
    at the discretion of Game Control* (002 "Advantage Cards")."""

    def __init__(self, session: GameSession, played: Event, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rule on an Advantage Card")
        self.setMinimumWidth(460)
        scenario = session.scenario
        card = str(played.data.get("card", ""))
        row = scenario.by_id("cards").get(card, {})
        team = scenario.by_id("nations").get(played.nation, {}).get("name", played.nation)
        layout = QVBoxLayout(self)
        asked = str(played.data.get("text") or "(nothing written)")
        intro = QLabel(
            f"<b>{escape(str(team))}</b> played <b>'{escape(str(row.get('title', card)))}'</b> "
            f"(value {escape(str(row.get('value', '')))}) on turn {played.turn} for some other "
            f"advantage, and asks:<br><i>{escape(asked)}</i>"
            "<br><br>Your ruling is shown to that team and to Game Control."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText("The ruling, in words the team will read")
        layout.addWidget(self.text, 1)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Record the ruling")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.text.textChanged.connect(self._update)
        self._update()

    def ruling(self) -> str:
        return self.text.toPlainText().strip()

    def _update(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(self.ruling()))


def _fill(combo: QComboBox, items: list[tuple[str, str]]) -> None:
    """Replace a list's choices, keeping the one chosen if it is still there."""
    keep = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    for text, data in items:
        combo.addItem(text, data)
    index = combo.findData(keep)
    combo.setCurrentIndex(index if index >= 0 else 0)
    combo.blockSignals(False)
