"""*Game → Phase clock…*: the phase clock for the room, on a projector.

A window of its own (full screen with F11 or its button): the phase, the time left in
figures readable across a hall, the next phase, and Control's buttons — start or pause,
one minute more or less, skip to the next phase, restart the phase. At two minutes left and
at time up (:data:`campaign.clock.ALERTS`) the window flashes and the system beeps.

The clock itself is :mod:`campaign.clock`, kept in the game file, so the team seats' pages
and ``seacontrol-cli clock`` show and change the same clock. ``now`` gives the time (the
tests give their own).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCloseEvent, QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from campaign import clock
from campaign.seats import GameFileBusy

from .session import GameSession

TICK_MS = 250
#: the flash: colours swapped this many times, this far apart
FLASHES, FLASH_MS = 8, 350
NORMAL = ("#10202e", "#f4f6f8")  # background, figures
OVER = ("#5a0f0f", "#ffffff")
FLASH = ("#ffd33d", "#000000")


class ClockWindow(QWidget):
    """The phase clock, large, with Control's buttons."""

    def __init__(
        self,
        session: GameSession,
        now: Callable[[], float] = time.time,
        beep: Callable[[], None] = QApplication.beep,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.session = session
        self.now = now
        self.beep = beep
        self.setWindowTitle("Phase clock — Sea Control")
        self.resize(900, 560)
        self.alerts: list[int] = []  # the alert marks passed, in order (for the tests)
        self._left: float | None = None
        self._flashes = 0
        self._phase = (-1, -1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 24, 24, 24)
        self.phase = QLabel()
        self.figures = QLabel()
        self.next = QLabel()
        for label, size in ((self.phase, 40), (self.figures, 160), (self.next, 22)):
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            font = QFont()
            font.setPointSize(size)
            font.setBold(label is not self.next)
            if label is self.figures:
                font.setFamily("monospace")
                font.setStyleHint(QFont.StyleHint.Monospace)
            label.setFont(font)
            layout.addWidget(label, 3 if label is self.figures else 1)
        row = QHBoxLayout()
        self.start_button = QPushButton()
        self.buttons = {
            "start": self.start_button,
            "less": QPushButton("− 1 min"),
            "more": QPushButton("+ 1 min"),
            "skip": QPushButton("Next phase"),
            "restart": QPushButton("Restart phase"),
            "full": QPushButton("Full screen (F11)"),
        }
        for button in self.buttons.values():
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            row.addWidget(button)
        self.controls = QWidget()
        self.controls.setLayout(row)
        layout.addWidget(self.controls)
        self.message = QLabel()
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.message)
        self.buttons["start"].clicked.connect(self.start_or_pause)
        self.buttons["less"].clicked.connect(lambda: self.change(lambda c: clock.extend(c, -1)))
        self.buttons["more"].clicked.connect(lambda: self.change(lambda c: clock.extend(c, 1)))
        self.buttons["skip"].clicked.connect(
            lambda: self.change(lambda c: clock.skip(c, self.now()))
        )
        self.buttons["restart"].clicked.connect(
            lambda: self.change(lambda c: clock.restart_phase(c, self.now()))
        )
        self.buttons["full"].clicked.connect(self.toggle_full_screen)
        for keys, slot in (
            ("Space", self.start_or_pause),
            ("F11", self.toggle_full_screen),
            ("Escape", self.showNormal),
            ("N", self.buttons["skip"].click),
            ("+", self.buttons["more"].click),
            ("-", self.buttons["less"].click),
        ):
            QShortcut(QKeySequence(keys), self).activated.connect(slot)
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self.tick)
        self.flash_timer = QTimer(self)
        self.flash_timer.setInterval(FLASH_MS)
        self.flash_timer.timeout.connect(self._flash_step)
        self.setAutoFillBackground(True)
        self.timer.start()
        self.tick()

    # -- reading the clock ----------------------------------------------------------------------
    def status(self) -> clock.ClockStatus | None:
        if not self.session.is_open:
            return None
        return clock.status(clock.load(self.session.require().game), self.now())

    def tick(self) -> None:
        """Redraw; alert when the time left falls past two minutes or to zero."""
        s = self.status()
        if s is None:
            self.phase.setText("No game is open")
            self.figures.setText("--:--")
            self.next.setText("")
            return
        self.phase.setText(f"{s.phase}")
        self.figures.setText(clock.shown_time(s.remaining))
        self.next.setText(
            f"Phase {s.index + 1} of {s.count}, round {s.round}"
            f"{'' if s.running else ' — paused'}. Next: {s.next_phase}"
        )
        self.start_button.setText("Pause (Space)" if s.running else "Start (Space)")
        phase = (s.round, s.index)
        if self._left is not None and phase == self._phase:
            for mark in clock.crossed(self._left, s.remaining):
                self.alert(mark)
        self._left, self._phase = s.remaining, phase
        if not self._flashes:
            self._paint(OVER if s.over else NORMAL)

    def alert(self, mark: int) -> None:
        """Two minutes left, or time up: a flash the room sees and the system beep."""
        self.alerts.append(mark)
        self.beep()
        self._flashes = FLASHES
        self._paint(FLASH)
        self.flash_timer.start()

    def _flash_step(self) -> None:
        self._flashes -= 1
        if self._flashes <= 0:
            self.flash_timer.stop()
            self._flashes = 0
            s = self.status()
            self._paint(OVER if s is not None and s.over else NORMAL)
            return
        self._paint(FLASH if self._flashes % 2 == 0 else NORMAL)

    def _paint(self, colours: tuple[str, str]) -> None:
        background, figures = colours
        self.setStyleSheet(
            f"ClockWindow {{ background: {background}; }} "
            f"QLabel {{ color: {figures}; background: transparent; }}"
        )

    @property
    def flashing(self) -> bool:
        return self._flashes > 0

    # -- Control's buttons ----------------------------------------------------------------------
    def change(self, how: Callable[[clock.Clock], clock.Clock]) -> None:
        if not self.session.is_open:
            return
        try:
            clock.change(self.session.require().game, how)
        except clock.ClockError as exc:
            self.message.setText(str(exc))
            return
        except GameFileBusy as exc:
            self.message.setText(f"{exc}: try again")
            return
        self.message.setText("")
        self._left = None  # a change by hand is not a time that ran out
        self.tick()

    def start_or_pause(self) -> None:
        s = self.status()
        if s is not None:
            now = self.now()
            self.change(lambda c: clock.pause(c, now) if s.running else clock.start(c, now))

    def toggle_full_screen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.timer.stop()
        self.flash_timer.stop()
        super().closeEvent(event)
