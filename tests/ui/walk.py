"""Answering the app's dialogs as a person does: a timer looks for the modal dialog on top
(among the application's top-level widgets), reads it, and clicks or types into its own
widgets. Nothing here calls a dialog's methods to bypass it; what it answered is kept so
a test can say which dialogs the person met. Used by the whole-turn test and by
tools/screenshots.py (which photographs each dialog as it comes)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QRadioButton,
)


@dataclass
class Person:
    """Answers whatever modal dialog comes up, as set by the test.

    ``files`` are typed into file dialogs in turn; ``battle`` picks the battle choice's
    radio button by its words; ``team`` is typed into a choose-an-item dialog; message
    boxes get the button named in ``buttons`` (default: their default button)."""

    files: list[str] = field(default_factory=list)
    battle: str = "damage table"
    team: str = ""
    buttons: dict[str, str] = field(default_factory=dict)
    met: list[str] = field(default_factory=list)  # "<kind>: <title>" of each dialog
    on_dialog: Callable[[QDialog], None] | None = None  # e.g. take a screenshot
    timer: QTimer = field(default_factory=QTimer)

    def start(self) -> None:
        self.timer.setInterval(40)
        self.timer.timeout.connect(self._look)
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _look(self) -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QDialog) or not dialog.isVisible():
            return
        if dialog.property("answered"):
            return
        dialog.setProperty("answered", True)
        if self.on_dialog is not None:
            self.on_dialog(dialog)
        kind = dialog.objectName() or type(dialog).__name__
        self.met.append(f"{kind}: {dialog.windowTitle()}")
        if isinstance(dialog, QFileDialog):
            self._file(dialog)
        elif isinstance(dialog, QMessageBox):
            self._message(dialog)
        elif isinstance(dialog, QInputDialog):
            self._item(dialog)
        elif kind == "battleChoice":
            self._battle(dialog)
        else:  # the step-losses dialog and others: their OK button
            _click(_button(dialog, ("OK", "&OK")))

    def _file(self, dialog: QFileDialog) -> None:
        buttons = dialog.findChild(QDialogButtonBox, "buttonBox")
        assert buttons is not None
        if not self.files:  # nothing to type: the person cancels
            _click(buttons.button(QDialogButtonBox.StandardButton.Cancel))
            return
        name = dialog.findChild(QLineEdit, "fileNameEdit")
        assert name is not None, "the file dialog has no file name box"
        name.setText(self.files.pop(0))
        accept = QDialogButtonBox.StandardButton.Open
        if dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave:
            accept = QDialogButtonBox.StandardButton.Save
        _click(buttons.button(accept))

    def _message(self, box: QMessageBox) -> None:
        wanted = self.buttons.get(box.windowTitle())
        if wanted is None:  # the box's own default, as Enter would
            _click(box.defaultButton() or box.buttons()[0])
            return
        for button in box.buttons():
            if button.text().replace("&", "") == wanted:
                _click(button)
                return
        raise AssertionError(f"no {wanted!r} button in {box.windowTitle()!r}")

    def _item(self, dialog: QInputDialog) -> None:
        combo = dialog.findChild(QComboBox)
        assert combo is not None, "the dialog offers no list to choose from"
        index = combo.findText(self.team)
        assert index >= 0, f"{self.team!r} is not offered"
        combo.setCurrentIndex(index)
        _click(_button(dialog, ("OK", "&OK")))

    def _battle(self, dialog: QDialog) -> None:
        for radio in dialog.findChildren(QRadioButton):
            if self.battle.lower() in radio.text().lower():
                _click(radio)
                break
        _click(_button(dialog, ("Resolve",)))


def _button(dialog: QDialog, texts: tuple[str, ...]) -> QAbstractButton:
    for button in dialog.findChildren(QAbstractButton):
        if button.text() in texts and button.isEnabled():
            return button
    raise AssertionError(f"no {texts} button in {dialog.windowTitle()!r}")


def _click(button: QAbstractButton | None) -> None:
    assert button is not None
    button.click()
