"""Dialogs where the rules ask a person: which units take the losses, what the die showed.

:class:`LossDialog` is a :class:`campaign.losses.LossPolicy`: when a side must take step
losses the owner ticks which units take them (the default owner's choice is filled in) or
lets the default decide. :func:`ask_die` is the manual dice hook: the umpire types the
physical roll, with the roll's purpose shown; only legal faces are accepted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from html import escape

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMessageBox,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from campaign.dice import DiceError
from campaign.losses import LossAllocationError, LossRequest, SpreadLosses, check_allocation

KIND_WORDS = {
    "unit": "ship unit",
    "garrison": "garrison",
    "air": "Air Point",
    "manpower": "manpower point",
    "tank": "tank point",
}


class LossDialog(QDialog):
    """Choose, step by step, which units take a side's losses."""

    def __init__(self, request: LossRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.setObjectName("stepLosses")
        self.setWindowTitle("Step losses")
        self.setMinimumWidth(520)
        layout = QVBoxLayout(self)
        side = request.side[:1].upper() + request.side[1:]
        steps = f"{request.due} step{'s' if request.due != 1 else ''}"
        intro = QLabel(
            f"<b>{escape(side)}</b> must take <b>{steps}</b> of loss "
            f"({escape(request.context)}).<br>A step damages a ready unit or sinks a damaged "
            "one; garrisons, Air Points and troops are removed by one step."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = QTableWidget(len(request.candidates), 4)
        self.table.setHorizontalHeaderLabels(["Unit", "Kind", "CV now", "Steps taken"])
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        default = Counter(SpreadLosses().allocate(request))
        self.spins: list[QSpinBox] = []
        for row, c in enumerate(request.candidates):
            several = len(request.nations) > 1  # name the nation only where it tells apart
            name = f"{c.name} ({c.nation})" if several else c.name
            self.table.setItem(row, 0, QTableWidgetItem(name))
            kind = c.type.replace("_", " ") if c.kind == "unit" else KIND_WORDS[c.kind]
            self.table.setItem(row, 1, QTableWidgetItem(kind))
            self.table.setItem(row, 2, QTableWidgetItem(str(c.cv_now)))
            spin = QSpinBox()
            spin.setRange(0, c.steps_left)
            spin.setValue(default[c.id])
            spin.valueChanged.connect(self._update)
            self.table.setCellWidget(row, 3, spin)
            self.spins.append(spin)
        layout.addWidget(self.table)
        self.status = QLabel()
        layout.addWidget(self.status)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        default_button = self.buttons.addButton(
            "Use the default choice", QDialogButtonBox.ButtonRole.ResetRole
        )
        default_button.clicked.connect(self._use_default)
        self.buttons.accepted.connect(self.accept)
        layout.addWidget(self.buttons)
        self._update()

    def chosen(self) -> list[str]:
        out: list[str] = []
        for spin, c in zip(self.spins, self.request.candidates, strict=True):
            out += [c.id] * spin.value()
        return out

    def _use_default(self) -> None:
        default = Counter(SpreadLosses().allocate(self.request))
        for spin, c in zip(self.spins, self.request.candidates, strict=True):
            spin.setValue(default[c.id])

    def _update(self) -> None:
        taken = sum(s.value() for s in self.spins)
        ok = taken == self.request.due
        self.status.setText(
            f"{taken} of {self.request.due} step(s) chosen"
            + ("" if ok else " — choose exactly the steps due")
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)


class DialogLosses:
    """The loss policy of the app: ask the owner in a dialog (or the default owner)."""

    def __init__(self, parent: QWidget | None = None, ask: bool = True) -> None:
        self.parent = parent
        self.ask = ask

    def allocate(self, request: LossRequest) -> Sequence[str]:
        if not self.ask:
            return SpreadLosses().allocate(request)
        dialog = LossDialog(request, self.parent)
        dialog.exec()
        chosen = dialog.chosen()
        try:
            check_allocation(request, chosen)
        except LossAllocationError:
            return SpreadLosses().allocate(request)
        return chosen


def ask_die(parent: QWidget | None) -> Callable[[str, int], int]:
    """The manual dice hook: ``ask(purpose, sides) -> face``."""

    def ask(purpose: str, sides: int) -> int:
        value, ok = QInputDialog.getInt(
            parent,
            "Roll the die",
            f"{purpose}\n\nRoll a d{sides} and enter the face shown:",
            1,
            1,
            sides,
            1,
        )
        if not ok:
            raise DiceError(f"the roll for {purpose!r} was not entered")
        return int(value)

    return ask


def save_first(parent: QWidget, title: str, text: str, save: Callable[[], bool]) -> bool:
    """Before unsaved work would be lost: Save (``save()`` says whether it was), Discard
    or Cancel. True when the caller may go on."""
    answer = QMessageBox.question(
        parent,
        title,
        text,
        QMessageBox.StandardButton.Save
        | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel,
    )
    if answer == QMessageBox.StandardButton.Save:
        return save()
    return answer == QMessageBox.StandardButton.Discard
