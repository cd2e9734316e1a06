"""The turn's ten steps as a visible sequence bar, with the buttons that resolve them."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from campaign.sequence import SEQUENCE

from .session import GameSession
from .style import STEP_SHORT


class TurnBar(QFrame):
    """Step 1 … 10 with the current position; "Next step" and "Resolve turn"."""

    resolveRequested = Signal(int)  # resolve up to this step

    def __init__(self, session: GameSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setObjectName("TurnBar")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(3)
        self.turn_label = QLabel()
        self.turn_label.setMinimumWidth(150)
        layout.addWidget(self.turn_label)
        self.steps: list[QLabel] = []
        for step, short in zip(SEQUENCE, STEP_SHORT, strict=True):
            label = QLabel(f"{step.number} {short}")
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setToolTip(f"Step {step.number}: {step.seed}")
            label.setMinimumWidth(52)
            layout.addWidget(label)
            self.steps.append(label)
        layout.addStretch(1)
        self.dice_mode = QComboBox()
        self.dice_mode.addItems(["Seeded dice", "Umpire rolls"])
        self.dice_mode.setToolTip(
            "Seeded: the program rolls, reproducibly from the seed. "
            "Umpire rolls: you type each physical roll when asked."
        )
        layout.addWidget(self.dice_mode)
        seed_label = QLabel("Seed")
        layout.addWidget(seed_label)
        self.seed = QLineEdit()
        seed_label.setBuddy(self.seed)
        self.seed.setPlaceholderText("seed")
        self.seed.setMaximumWidth(90)
        self.seed.setToolTip("The dice seed: the same orders and seed give the same game")
        layout.addWidget(self.seed)
        self.next_button = QPushButton("Next step")
        self.next_button.setToolTip("Resolve the next step of the turn (F5)")
        self.turn_button = QPushButton("Resolve turn")
        self.turn_button.setToolTip("Resolve every remaining step of the turn (Ctrl+F5)")
        layout.addWidget(self.next_button)
        layout.addWidget(self.turn_button)
        self.next_button.clicked.connect(self.next_step)
        self.turn_button.clicked.connect(lambda: self.resolveRequested.emit(10))
        self.seed.editingFinished.connect(self._seed_changed)
        session.gameChanged.connect(self.refresh)
        session.stateChanged.connect(self.refresh)
        session.stepResolved.connect(lambda _n: self.refresh())
        self.refresh()

    def next_step(self) -> None:
        """Ask for the next step to be resolved (the button, or F5)."""
        if self.session.is_open and self.next_button.isEnabled():
            self.resolveRequested.emit(self.session.state.step + 1)

    def _seed_changed(self) -> None:
        text = self.seed.text().strip()
        if text and self.session.is_open:
            self.session.seed = text

    def refresh(self) -> None:
        open_ = self.session.is_open
        for w in (self.next_button, self.turn_button, self.seed, self.dice_mode):
            w.setEnabled(open_)
        if not open_:
            self.turn_label.setText("No game open")
            return
        state = self.session.state
        self.turn_label.setText(
            f"<b>Turn {state.turn}</b> · {self.session.scenario.meta.period_of(state.turn)}"
        )
        self.seed.setText(self.session.seed)
        for i, label in enumerate(self.steps, start=1):
            if i <= state.step:
                style = "background:#cfe3d6; color:#23422f; border-radius:3px;"
            elif i == state.step + 1:
                style = "background:#f6e3b4; color:#3a2c07; border-radius:3px; font-weight:bold;"
            else:
                style = "background:#e8edf1; color:#5d6d7a; border-radius:3px;"
            label.setStyleSheet(style + " padding:3px 4px;")
        last = self.session.scenario.meta.last_turn
        done = state.turn > last
        self.next_button.setEnabled(not done)
        self.turn_button.setEnabled(not done)
