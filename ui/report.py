"""The turn report panel: a turn's events in words, step by step, and the dice behind them.

Two views, and switching between them is always an explicit act (*View as…*, confirmed):

* **Game Control** sees every event, who may see each one, and every die roll.
* **A team view** shows only what that team may know. Everything on screen — the events,
  the choices in the filter boxes, the counts — is drawn from
  :func:`campaign.events.visible` for that team. Individual dice rolls are *not* listed
  in a team view (a roll's purpose can name a force the team has not seen); the team is
  shown the chain head and the number of rolls, the anchor it can check later.

The filters (step, nation, kind, words) only narrow what the current view already shows;
they never widen it.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from campaign.events import Event, visible
from campaign.sequence import SEQUENCE
from ui import export
from ui.session import GameSession
from ui.style import MUTED, TEXT, ui_font

ALL = ""  # the "any" choice of every filter box
DICE_COLUMNS = ("#", "Turn", "Step", "Purpose", "Roll", "Source", "Re-roll reason")


class ReportPanel(QWidget):
    """The turn report with filters, a turn chooser, the dice log and the viewer switch."""

    #: the viewer now: "" for Game Control, else a nation id
    viewerChanged = Signal(str)

    def __init__(self, session: GameSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._viewer = ""
        self._turn: int | None = None  # None: follow the latest report turn
        self._shown: list[Event] = []
        self._events: list[Event] = []
        self._build()
        session.gameChanged.connect(self._on_game_changed)
        session.stateChanged.connect(self.refresh)
        session.eventsAdded.connect(self._on_events_added)
        self._on_game_changed()

    # -- building ------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)

        top = QHBoxLayout()
        top.setSpacing(8)
        self.viewer_label = QLabel()
        self.viewer_label.setFont(ui_font(10, bold=True))
        self.view_button = QToolButton()
        self.view_button.setText("View as…")
        self.view_button.setToolTip(
            "Switch between Game Control's view (everything) and one team's view "
            "(only what that team may know)"
        )
        self.view_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.view_menu = QMenu(self.view_button)
        self.view_button.setMenu(self.view_menu)
        self.export_button = QToolButton()
        self.export_button.setText("Export…")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        export_menu = QMenu(self.export_button)
        export_menu.addAction("Report as CSV…", lambda: self._export("csv"))
        export_menu.addAction("Report as PDF…", lambda: self._export("pdf"))
        self.export_button.setMenu(export_menu)
        top.addWidget(QLabel("Seen as:"))
        top.addWidget(self.viewer_label)
        top.addWidget(self.view_button)
        top.addStretch(1)
        top.addWidget(QLabel("Turn"))
        self.turn_box = QComboBox()
        self.turn_box.setMinimumContentsLength(14)
        self.turn_box.activated.connect(self._on_turn_chosen)
        top.addWidget(self.turn_box)
        top.addWidget(self.export_button)
        layout.addLayout(top)

        filters = QHBoxLayout()
        filters.setSpacing(8)
        self.step_box = QComboBox()
        self.step_box.addItem("All steps", ALL)
        for step in SEQUENCE:
            self.step_box.addItem(f"{step.number}. {step.name}", str(step.number))
        self.step_box.addItem(export.BETWEEN_TURNS, "0")
        self.nation_box = QComboBox()
        self.kind_box = QComboBox()
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search the events…")
        self.search.setClearButtonEnabled(True)
        for label, box in (("Step", self.step_box), ("Nation", self.nation_box)):
            filters.addWidget(QLabel(label))
            filters.addWidget(box)
        filters.addWidget(QLabel("Kind"))
        filters.addWidget(self.kind_box)
        filters.addWidget(self.search, 1)
        self.count_label = QLabel()
        self.count_label.setStyleSheet(f"color: {MUTED.name()}")
        filters.addWidget(self.count_label)
        layout.addLayout(filters)
        for box in (self.step_box, self.nation_box, self.kind_box):
            box.currentIndexChanged.connect(self._render_events)
        self.search.textChanged.connect(self._render_events)

        self.tabs = QTabWidget()
        self.events_view = QTextBrowser()
        self.events_view.setOpenLinks(False)
        self.events_view.document().setDefaultStyleSheet(_CSS)
        self.tabs.addTab(self.events_view, "Events")
        self.tabs.addTab(self._build_dice(), "Dice")
        layout.addWidget(self.tabs, 1)

    def _build_dice(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(6, 6, 6, 6)
        self.chain_label = QLabel()
        self.chain_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.chain_label.setWordWrap(True)
        layout.addWidget(self.chain_label)
        row = QHBoxLayout()
        self.all_turns = QCheckBox("Rolls of every turn (not only the chosen one)")
        self.all_turns.toggled.connect(self._render_dice)
        row.addWidget(self.all_turns)
        row.addStretch(1)
        layout.addLayout(row)
        self.dice_stack = QStackedWidget()
        self.dice_table = QTableWidget(0, len(DICE_COLUMNS))
        self.dice_table.setHorizontalHeaderLabels(DICE_COLUMNS)
        self.dice_table.verticalHeader().setVisible(False)
        self.dice_table.verticalHeader().setDefaultSectionSize(22)
        self.dice_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.dice_table.setAlternatingRowColors(True)
        self.dice_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.dice_table.horizontalHeader()
        for column in range(len(DICE_COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.dice_hidden = QLabel()
        self.dice_hidden.setWordWrap(True)
        self.dice_hidden.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.dice_hidden.setMargin(12)
        self.dice_stack.addWidget(self.dice_table)
        self.dice_stack.addWidget(self.dice_hidden)
        layout.addWidget(self.dice_stack, 1)
        return page

    # -- the viewer ----------------------------------------------------------------------------
    @property
    def viewer(self) -> str:
        """ "" for Game Control, else the nation whose team view is shown."""
        return self._viewer

    def viewers(self) -> list[tuple[str, str]]:
        """(nation id, label) of every view offered: Game Control first, then each team."""
        out = [("", "Game Control (everything)")]
        if self.session.is_open:
            out += [(n, export.viewer_name(self.session, n)) for n in self.session.board().teams()]
        return out

    def set_viewer(self, nation: str, confirm: bool = True) -> bool:
        """Show the report as ``nation``'s team sees it ("" = Game Control).

        With ``confirm`` the user is asked first (what the *View as…* menu does); returns
        whether the view changed.
        """
        nation = nation or ""
        if nation == self._viewer:
            return False
        if confirm and not self._confirm(nation):
            return False
        self._viewer = nation
        self.refresh()
        self.viewerChanged.emit(nation)
        return True

    def _confirm(self, nation: str) -> bool:
        if nation:
            name = export.viewer_name(self.session, nation)
            text = (
                f"Show the report as the {name} sees it?\n\n"
                "Only events that team may know are shown; other teams' events and the "
                "individual dice rolls are hidden. Use this view when the screen is seen "
                "by players."
            )
        else:
            text = (
                "Show Game Control's view?\n\nEvery team's events and every die roll will "
                "be on screen. Make sure no player can see it."
            )
        answer = QMessageBox.question(
            self,
            "View as…",
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _fill_view_menu(self) -> None:
        self.view_menu.clear()
        for nation, label in self.viewers():
            action = QAction(label.replace("&", "&&"), self.view_menu)
            action.setCheckable(True)
            action.setChecked(nation == self._viewer)
            action.triggered.connect(lambda _=False, n=nation: self.set_viewer(n, confirm=True))
            self.view_menu.addAction(action)
            if not nation:
                self.view_menu.addSeparator()

    # -- the turn ------------------------------------------------------------------------------
    @property
    def turn(self) -> int | None:
        """The turn shown (None when no game is open)."""
        if not self.session.is_open:
            return None
        return self._turn if self._turn is not None else export.default_turn(self.session)

    def set_turn(self, turn: int | None) -> None:
        """Show ``turn`` (None: follow the latest turn with events)."""
        self._turn = turn
        self.refresh()

    def _on_turn_chosen(self, index: int) -> None:
        turn = self.turn_box.itemData(index)
        latest = export.default_turn(self.session) if self.session.is_open else None
        self.set_turn(None if turn == latest else int(turn))

    # -- refreshing ----------------------------------------------------------------------------
    def _on_game_changed(self) -> None:
        self._turn = None
        if self._viewer:
            self._viewer = ""
            self.viewerChanged.emit("")
        self.refresh()

    def _on_events_added(self, events: list[Event]) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Redraw everything from the session (the viewer and filters are kept)."""
        open_ = self.session.is_open
        for w in (self.view_button, self.export_button, self.turn_box):
            w.setEnabled(open_)
        self.viewer_label.setText(export.viewer_name(self.session, self._viewer) if open_ else "—")
        colour = TEXT.name() if not self._viewer else "#8a4b08"
        self.viewer_label.setStyleSheet(f"color: {colour}")
        self._fill_view_menu()
        self.turn_box.blockSignals(True)
        self.turn_box.clear()
        if open_:
            period = self.session.scenario.meta.period_of
            for t in reversed(export.played_turns(self.session)):
                self.turn_box.addItem(f"Turn {t} ({period(t)})", t)
            self.turn_box.setCurrentIndex(max(0, self.turn_box.findData(self.turn)))
        self.turn_box.blockSignals(False)
        self._events = self._load_events()
        self._fill_filter(self.nation_box, "All nations", self._nation_choices())
        self._fill_filter(self.kind_box, "All kinds", self._kind_choices())
        self._render_events()
        self._render_dice()

    def _load_events(self) -> list[Event]:
        if not self.session.is_open:
            return []
        viewer = self._viewer or None
        # the session already filters for a nation; visible() again makes the rule explicit
        return visible(self.session.events(viewer, self.turn), viewer)

    def _nation_choices(self) -> list[tuple[str, str]]:
        seen = sorted({e.nation for e in self._events if e.nation})
        return [(n, export.nation_name(self.session, n)) for n in seen]

    def _kind_choices(self) -> list[tuple[str, str]]:
        kinds = sorted({e.kind for e in self._events})
        return [(k, k.replace("_", " ")) for k in kinds]

    @staticmethod
    def _fill_filter(box: QComboBox, everything: str, choices: list[tuple[str, str]]) -> None:
        current = box.currentData()
        box.blockSignals(True)
        box.clear()
        box.addItem(everything, ALL)
        for value, label in choices:
            box.addItem(label, value)
        index = box.findData(current)
        box.setCurrentIndex(index if index >= 0 else 0)
        box.blockSignals(False)

    # -- filters ---------------------------------------------------------------------------------
    def set_filters(
        self,
        step: int | None = None,
        nation: str = ALL,
        kind: str = ALL,
        text: str = "",
    ) -> None:
        """Set every filter at once (None / "" = any)."""
        for box, value in (
            (self.step_box, ALL if step is None else str(step)),
            (self.nation_box, nation),
            (self.kind_box, kind),
        ):
            box.blockSignals(True)
            index = box.findData(value)
            box.setCurrentIndex(index if index >= 0 else 0)
            box.blockSignals(False)
        self.search.blockSignals(True)
        self.search.setText(text)
        self.search.blockSignals(False)
        self._render_events()

    def shown_events(self) -> list[Event]:
        """The events on screen now (the view's events, narrowed by the filters)."""
        return list(self._shown)

    def _matches(self, e: Event) -> bool:
        step, nation, kind = (
            self.step_box.currentData(),
            self.nation_box.currentData(),
            self.kind_box.currentData(),
        )
        words = self.search.text().strip().lower()
        if step and _step_key(e.step) != step:
            return False
        if nation and e.nation != nation:
            return False
        if kind and e.kind != kind:
            return False
        return not words or words in e.text.lower() or words in e.kind.replace("_", " ")

    # -- drawing ---------------------------------------------------------------------------------
    def _render_events(self) -> None:
        if not self.session.is_open:
            self._shown = []
            self.events_view.setHtml("<p class='none'>No game is open.</p>")
            self.count_label.setText("")
            return
        self._shown = [e for e in self._events if self._matches(e)]
        by_step = export.group_by_step(self._shown)
        filtered = len(self._shown) != len(self._events)
        chosen = self.step_box.currentData()
        numbers = [s.number for s in SEQUENCE]
        numbers += sorted({e.step for e in self._events if not 1 <= e.step <= len(SEQUENCE)})
        parts = []
        gc = not self._viewer
        for number in numbers:
            if chosen and _step_key(number) != chosen:
                continue
            events = by_step.get(number, [])
            count = f" <span class='count'>({len(events)})</span>" if events else ""
            parts.append(f"<h3>{html.escape(export.step_heading(number))}{count}</h3>")
            if not events:
                why = "nothing matches the filters" if filtered else "nothing to report"
                parts.append(f"<p class='none'>({why})</p>")
                continue
            parts.append("<ul>")
            for e in events:
                parts.append(f"<li>{self._event_html(e, gc)}</li>")
            parts.append("</ul>")
        self.events_view.setHtml("".join(parts))
        total = len(self._events)
        self.count_label.setText(
            f"{len(self._shown)} of {total} events" if filtered else f"{total} events"
        )

    def _event_html(self, e: Event, gc: bool) -> str:
        who = ""
        if e.nation:
            nations = self.session.scenario.by_id("nations")
            row = nations.get(e.nation)
            colour = QColor(str(row["colour"])) if row else QColor(MUTED)
            who = (
                f"<span style='color:{colour.darker(130).name()}; font-weight:bold'>"
                f"{html.escape(export.nation_name(self.session, e.nation))}</span> · "
            )
        kind = f" <span class='kind'>{html.escape(e.kind.replace('_', ' '))}</span>"
        seen = (
            f" <span class='seen'>· seen by {html.escape(export.seen_by(self.session, e))}</span>"
            if gc
            else ""
        )
        return f"{who}{html.escape(e.text)}{kind}{seen}"

    def _render_dice(self) -> None:
        if not self.session.is_open:
            self.chain_label.setText("No game is open.")
            self.dice_table.setRowCount(0)
            return
        summary = export.dice_summary(self.session)
        colour = "#2f6f4f" if summary.ok else "#a33b3b"
        status = (
            "chain verified: no roll was edited, removed or reordered"
            if summary.ok
            else "; ".join(summary.problems)
        )
        self.chain_label.setText(
            f"<b>{summary.count}</b> rolls in the dice log · chain head "
            f"<code>{summary.head}</code><br><span style='color:{colour}; font-weight:bold'>"
            f"{summary.mark} {html.escape(status)}</span>"
        )
        if self._viewer:
            self.all_turns.setVisible(False)
            self.dice_hidden.setText(
                "<p><b>Individual rolls are shown to Game Control only.</b></p>"
                "<p>A roll's purpose can name a force or a battle this team has not seen, so a "
                "team view lists no rolls. The team holds the chain head above and the number "
                "of rolls: Game Control can show later that the rolls of this game lead to the "
                "same head, and any roll edited afterwards would not.</p>"
            )
            self.dice_stack.setCurrentWidget(self.dice_hidden)
            self.dice_table.setRowCount(0)
            return
        self.all_turns.setVisible(True)
        self.dice_stack.setCurrentWidget(self.dice_table)
        rolls = self.session.require().dice_log()
        if not self.all_turns.isChecked():
            rolls = [r for r in rolls if r.turn == self.turn]
        self.dice_table.setRowCount(len(rolls))
        for row, r in enumerate(rolls):
            values = (
                str(r.seq),
                str(r.turn),
                f"{r.step}. {export.step_name(r.step)}" if r.step else "—",
                r.purpose,
                f"{r.value}  (d{r.sides})",
                r.source,
                r.reason,
            )
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                if column in (0, 1, 4):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                if column == 3:
                    item.setToolTip(f"{r.purpose}\nhash {r.hash}\nafter {r.prev_hash}")
                self.dice_table.setItem(row, column, item)

    # -- export ----------------------------------------------------------------------------------
    def _export(self, kind: str) -> None:
        if not self.session.is_open or self.turn is None:
            return
        who = self._viewer or "game-control"
        suggested = f"turn-{self.turn}-{who}.{kind}"
        filters = "CSV files (*.csv)" if kind == "csv" else "PDF files (*.pdf)"
        path, _ = QFileDialog.getSaveFileName(self, "Export the report", suggested, filters)
        if not path:
            return
        target = Path(path)
        if kind == "csv":
            export.export_report_csv(self.session, target, self._viewer or None, self.turn)
        else:
            export.export_report_pdf(self.session, target, self._viewer or None, self.turn)


def _step_key(step: int) -> str:
    """The step filter's value for a step: its number, "0" for anything between turns."""
    return str(step) if 1 <= step <= len(SEQUENCE) else "0"


_CSS = f"""
h3 {{ color: #35556f; margin-top: 10px; margin-bottom: 2px; font-size: 11pt; }}
ul {{ margin-top: 0px; margin-bottom: 0px; }}
li {{ margin-bottom: 3px; }}
p.none {{ color: {MUTED.name()}; font-style: italic; margin-left: 24px; margin-top: 0px; }}
span.count {{ color: {MUTED.name()}; font-weight: normal; font-size: 9pt; }}
span.kind {{ color: {MUTED.name()}; font-size: 8pt; }}
span.seen {{ color: {MUTED.name()}; font-size: 8pt; }}
"""
