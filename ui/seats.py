"""*Game → Open team seats…*: the team seats of the open game, served from the app.

The seats server (:class:`campaign.seatserver.SeatServer`) runs in a background thread on
the app's own game (its working copy), so what the teams submit is in the game the app
shows, and *Save* keeps it. :class:`SeatsWatch` polls the game file (SQLite's
``data_version``: it changes when another connection writes) and tells the session which
nations' orders arrived, so the orders editor, the map and the odds redraw them. The
window shows the address, each team's code and join link, who submitted and when; it
reissues a code and locks or unlocks the turn's orders.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign import seats
from campaign.seatpages import when
from campaign.seats import DEFAULT_PORT, join_base, join_url, lan_address
from campaign.seatserver import SeatServer

from .session import GameSession

COLUMNS = ("Team", "Seat code", "Submitted", "Times", "Join link")
POLL_MS = 1000


class SeatsWatch(QObject):
    """The server of the open game's seats, and the watch on its game file."""

    changed = Signal()  # started or stopped, a submission arrived, the lock changed

    def __init__(self, session: GameSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.server: SeatServer | None = None
        self.shown_host = ""
        self._version = -1
        self._orders: dict[str, str] = {}
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)
        session.gameChanged.connect(self.stop)  # another game, or none: these seats close

    @property
    def running(self) -> bool:
        return self.server is not None

    @property
    def base(self) -> str:
        return join_base(self.shown_host, self.server.port) if self.server else ""

    def start(self, host: str, port: int) -> None:
        """Serve the open game on ``host``:``port`` (raises OSError if it cannot listen)."""
        self.stop()
        campaign = self.session.require()
        self._snapshot()
        server = SeatServer(campaign.game.path, host, port)
        server.start()
        self.server = server
        self.shown_host = lan_address() if host in ("0.0.0.0", "::") else host
        self.timer.start()
        self.changed.emit()

    def stop(self) -> None:
        if self.server is None:
            return
        self.timer.stop()
        server, self.server = self.server, None
        server.stop()
        self.changed.emit()

    def _snapshot(self) -> None:
        game = self.session.require().game
        self._version = _data_version(game)
        self._orders = game.orders(self.session.require().state.turn)

    def poll(self) -> None:
        """Another program (the seats) wrote the game file: which nations' orders changed."""
        if not self.session.is_open:
            return
        game = self.session.require().game
        version = _data_version(game)
        if version == self._version:
            return
        before = self._orders
        self._snapshot()
        arrived = sorted(
            n for n in set(before) | set(self._orders) if before.get(n) != self._orders.get(n)
        )
        if arrived:
            self.session.orders_arrived(arrived)
        self.changed.emit()


def _data_version(game: object) -> int:
    db = getattr(game, "db", None)
    row = db.execute("PRAGMA data_version").fetchone() if db is not None else None
    return int(row[0]) if row else -1


class SeatsDialog(QDialog):
    """The seats' address, codes and submissions; start, stop, reissue, lock."""

    def __init__(self, session: GameSession, watch: SeatsWatch, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.watch = watch
        self.setWindowTitle("Team seats")
        self.setMinimumSize(760, 420)
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Each team joins from its own browser with its seat code (in its team pack, with "
            "a QR code of its join link), sees only its own view and submits its orders: "
            "checked by the rules and stored in this game as they arrive."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.host = QComboBox()
        lan = lan_address()
        self.host.addItem("This computer only (127.0.0.1)", "127.0.0.1")
        if lan != "127.0.0.1":
            self.host.addItem(f"The room's network ({lan})", lan)
        self.host.addItem("Every network of this computer (0.0.0.0)", "0.0.0.0")
        self.port = QSpinBox()
        self.port.setRange(1, 65535)
        settings = QSettings()
        remembered = str(settings.value("seats/port", DEFAULT_PORT))
        self.port.setValue(int(remembered) if remembered.isdigit() else DEFAULT_PORT)
        index = self.host.findData(str(settings.value("seats/host", "127.0.0.1")))
        self.host.setCurrentIndex(max(0, index))
        where = QHBoxLayout()
        where.addWidget(self.host, 1)
        where.addWidget(QLabel("port"))
        where.addWidget(self.port)
        self.start_button = QPushButton()
        where.addWidget(self.start_button)
        form.addRow("Listen on", where)
        self.address = QLabel()
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow("Address", self.address)
        self.lock_label = QLabel()
        form.addRow("This turn's orders", self.lock_label)
        layout.addLayout(form)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(
            len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch
        )
        layout.addWidget(self.table, 1)
        buttons = QHBoxLayout()
        self.reissue_button = QPushButton("Reissue the chosen team's code")
        self.copy_button = QPushButton("Copy its join link")
        self.lock_button = QPushButton()
        buttons.addWidget(self.reissue_button)
        buttons.addWidget(self.copy_button)
        buttons.addStretch(1)
        buttons.addWidget(self.lock_button)
        layout.addLayout(buttons)
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.start_button.clicked.connect(self.toggle)
        self.reissue_button.clicked.connect(self.reissue)
        self.copy_button.clicked.connect(self.copy_link)
        self.lock_button.clicked.connect(self.toggle_lock)
        watch.changed.connect(self.refresh)
        session.ordersChanged.connect(lambda _n: self.refresh())
        session.ordersArrived.connect(self._arrived)
        session.stateChanged.connect(self.refresh)
        self.refresh()

    # -- what it shows ----------------------------------------------------------------------------
    def refresh(self) -> None:
        running = self.watch.running
        self.start_button.setText("Stop the seats" if running else "Open the seats")
        self.host.setEnabled(not running)
        self.port.setEnabled(not running)
        self.address.setText(f"{self.watch.base}/" if running else "(the seats are closed)")
        if not self.session.is_open:
            self.table.setRowCount(0)
            return
        campaign = self.session.require()
        game, turn = campaign.game, campaign.state.turn
        board = campaign.board()
        teams = board.teams()
        codes = seats.seat_codes(game, teams)
        sent = seats.submissions(game, turn)
        lock = seats.lock_of(game, turn)
        base = self.watch.base or join_base(str(self.host.currentData()), self.port.value())
        chosen = self.chosen_team()
        self.table.setRowCount(len(teams))
        for row, n in enumerate(teams):
            mine = sent.get(n)
            cells = (
                board.name_of(n),
                codes[n],
                when(mine.last) if mine else "not yet",
                str(mine.count) if mine else "",
                join_url(base, codes[n]),
            )
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, n)
                self.table.setItem(row, col, item)
            if n == chosen:
                self.table.selectRow(row)
        self.table.resizeColumnsToContents()
        self.lock_label.setText(
            f"Locked at {when(lock.at)}: no more submissions" if lock else "Open to the teams"
        )
        self.lock_button.setText("Unlock the orders" if lock else "Lock the orders")
        self.lock_button.setEnabled(campaign.state.step == 0 or lock is not None)

    def _arrived(self, nations: list[str]) -> None:
        board = self.session.board()
        names = ", ".join(board.name_of(n) for n in nations)
        self.status.setText(f"Orders arrived from their seats: {names}.")

    def chosen_team(self) -> str:
        items = self.table.selectedItems()
        return str(items[0].data(Qt.ItemDataRole.UserRole)) if items else ""

    # -- what it does -----------------------------------------------------------------------------
    def toggle(self) -> None:
        if self.watch.running:
            self.watch.stop()
            self.status.setText("The seats are closed.")
            return
        host, port = str(self.host.currentData()), self.port.value()
        try:
            self.watch.start(host, port)
        except OSError as exc:
            self.status.setText(
                f"The seats cannot listen on {host}:{port} ({exc.strerror or exc}): choose "
                "another port, or close the program using it."
            )
            return
        QSettings().setValue("seats/host", host)
        QSettings().setValue("seats/port", port)
        self.status.setText(
            "The seats are open: give each team its code or join link (or its team pack)."
        )

    def reissue(self) -> None:
        team = self.chosen_team()
        if not team or not self.session.is_open:
            self.status.setText("Choose a team in the list first.")
            return
        game = self.session.require().game
        code = seats.reissue(game, team)
        self.status.setText(
            f"New code for {self.session.board().name_of(team)}: {code}. Its old code and "
            "every browser joined with it are closed at once."
        )
        self.refresh()

    def copy_link(self) -> None:
        items = self.table.selectedItems()
        cell = self.table.item(items[0].row(), len(COLUMNS) - 1) if items else None
        if cell is not None:
            QGuiApplication.clipboard().setText(cell.text())
            self.status.setText(f"Copied {cell.text()}")

    def toggle_lock(self) -> None:
        campaign = self.session.require()
        turn = campaign.state.turn
        locked = seats.lock_of(campaign.game, turn) is not None
        seats.set_lock(campaign.game, turn, not locked)
        self.status.setText(
            f"Turn {turn}'s orders are open again." if locked else f"Turn {turn}'s orders locked."
        )
        self.refresh()
