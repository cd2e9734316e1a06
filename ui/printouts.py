"""*Export → Team packs…* and *Export → Hand-off sheets…*: the printed sheets of Game
Control's table, made by the same code as ``seacontrol-cli pack`` and ``handoff``
(:mod:`campaign.teampack`, :mod:`campaign.handoff`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressDialog,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from campaign.seats import DEFAULT_PORT, join_base, lan_address

from .session import GameSession

PAPERS = (("A4", "a4"), ("Letter (US)", "letter"))


@dataclass(frozen=True)
class PackChoice:
    teams: list[str]
    turn: int
    paper: str
    folder: Path
    host: str
    port: int


@dataclass(frozen=True)
class HandoffChoice:
    tables: list[str]
    turn: int
    paper: str
    folder: Path


def _folder_row(parent: QWidget, start: str) -> tuple[QHBoxLayout, QLineEdit]:
    row = QHBoxLayout()
    edit = QLineEdit(start)
    browse = QPushButton("Choose…")

    def choose() -> None:
        folder = QFileDialog.getExistingDirectory(parent, "Folder", edit.text())
        if folder:
            edit.setText(folder)

    browse.clicked.connect(choose)
    row.addWidget(edit, 1)
    row.addWidget(browse)
    return row, edit


def _paper_box() -> QComboBox:
    box = QComboBox()
    for text, data in PAPERS:
        box.addItem(text, data)
    return box


def _start_folder(session: GameSession) -> str:
    return str(session.path.parent if session.path else Path.home())


class TeamPacksDialog(QDialog):
    """Which teams, which turn, which paper, where; and the address the QR codes open."""

    def __init__(self, session: GameSession, parent: QWidget | None = None) -> None:
        from campaign import teampack  # the PDF library loads when asked for, not at start-up

        super().__init__(parent)
        self.session = session
        self.setWindowTitle("Team packs")
        self.setMinimumWidth(480)
        layout = QVBoxLayout(self)
        intro = QLabel(
            "One PDF per team: its report, Task Force and In Port cards, merchant route "
            "chart, the order sheet for paper play, and its seat code with a QR code of its "
            "seat. A team's pack holds only what that team may know."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.teams = QListWidget()
        board = session.board()
        for n in board.teams():
            item = QListWidgetItem(board.name_of(n))
            item.setData(Qt.ItemDataRole.UserRole, n)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.teams.addItem(item)
        layout.addWidget(QLabel("Teams"))
        layout.addWidget(self.teams, 1)
        form = QFormLayout()
        turns = teampack.pack_turns(session.require())
        self.turn = QSpinBox()
        self.turn.setRange(turns[0], turns[-1])
        self.turn.setValue(turns[-1])
        form.addRow("Turn (orders asked for)", self.turn)
        self.paper = _paper_box()
        form.addRow("Paper", self.paper)
        self.host = QLineEdit(lan_address())
        self.port = QSpinBox()
        self.port.setRange(1, 65535)
        self.port.setValue(DEFAULT_PORT)
        seats = QHBoxLayout()
        seats.addWidget(self.host, 1)
        seats.addWidget(QLabel("port"))
        seats.addWidget(self.port)
        form.addRow("Seats server", seats)
        row, self.folder = _folder_row(self, _start_folder(session))
        form.addRow("Folder", row)
        layout.addLayout(form)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Write the packs")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.teams.itemChanged.connect(self._update)
        self._update()

    def chosen_teams(self) -> list[str]:
        return [
            str(self.teams.item(i).data(Qt.ItemDataRole.UserRole))
            for i in range(self.teams.count())
            if self.teams.item(i).checkState() == Qt.CheckState.Checked
        ]

    def choice(self) -> PackChoice:
        return PackChoice(
            self.chosen_teams(),
            self.turn.value(),
            str(self.paper.currentData()),
            Path(self.folder.text()),
            self.host.text().strip() or "127.0.0.1",
            self.port.value(),
        )

    def _update(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            bool(self.chosen_teams())
        )


class HandoffDialog(QDialog):
    """Which Control tables, which turn, which paper, where."""

    def __init__(self, session: GameSession, parent: QWidget | None = None) -> None:
        from campaign import handoff  # the PDF library loads when asked for, not at start-up

        super().__init__(parent)
        self.setWindowTitle("Hand-off sheets")
        self.setMinimumWidth(440)
        layout = QVBoxLayout(self)
        intro = QLabel(
            "What the naval game hands the other Control tables for a turn, as CSV and PDF: "
            "the land game (major landings, Military flags) and the economic game (cargo and "
            "LSP delivered, tonnage lost and left)."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.tables = {t: QCheckBox(f"The {handoff.TABLE_NAMES[t]}") for t in handoff.TABLES}
        for box in self.tables.values():
            box.setChecked(True)
            box.toggled.connect(self._update)
            layout.addWidget(box)
        form = QFormLayout()
        campaign = session.require()
        first = session.scenario.meta.first_turn
        self.turn = QSpinBox()
        self.turn.setRange(first, session.state.turn)
        self.turn.setValue(handoff.played_turn(campaign, None))
        form.addRow("Turn", self.turn)
        self.paper = _paper_box()
        form.addRow("Paper", self.paper)
        row, self.folder = _folder_row(self, _start_folder(session))
        form.addRow("Folder", row)
        layout.addLayout(form)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Write the sheets")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._update()

    def choice(self) -> HandoffChoice:
        return HandoffChoice(
            [t for t, box in self.tables.items() if box.isChecked()],
            self.turn.value(),
            str(self.paper.currentData()),
            Path(self.folder.text()),
        )

    def _update(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            any(box.isChecked() for box in self.tables.values())
        )


def _progress(
    parent: QWidget, text: str, total: int
) -> tuple[QProgressDialog, Callable[[int, int], None]]:
    """A progress bar shown when the work takes more than a second."""
    dialog = QProgressDialog(text, "", 0, total, parent)
    dialog.setCancelButton(None)
    dialog.setMinimumDuration(1000)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setValue(0)

    def step(done: int, _total: int) -> None:
        dialog.setValue(done)
        QApplication.processEvents()

    return dialog, step


def write_team_packs(session: GameSession, choice: PackChoice, parent: QWidget) -> list[Path]:
    """Write the chosen packs, with a progress bar (a pack takes about half a second)."""
    from campaign import teampack

    dialog, step = _progress(parent, "Writing the team packs…", len(choice.teams))
    try:
        return teampack.write_packs(
            session.require(),
            choice.folder,
            choice.teams,
            turn=choice.turn,
            paper=choice.paper,
            join=join_base(choice.host, choice.port),
            prefix=_prefix(session),
            progress=step,
        )
    finally:
        dialog.close()


def write_handoffs(session: GameSession, choice: HandoffChoice, parent: QWidget) -> list[Path]:
    from campaign import handoff

    dialog, step = _progress(parent, "Writing the hand-off sheets…", len(choice.tables))
    campaign = session.require()
    written: list[Path] = []
    try:
        for i, table in enumerate(choice.tables):
            sheet = handoff.handoff_sheet(campaign, table, choice.turn)
            written += handoff.write_sheet(
                campaign, sheet, choice.folder, choice.paper, prefix=_prefix(session)
            )
            step(i + 1, len(choice.tables))
    finally:
        dialog.close()
    return written


def _prefix(session: GameSession) -> str:
    """Files are named after the game's own file (the working copy's name means nothing)."""
    return session.path.stem if session.path else session.require().game.name
