"""Qt tests run offscreen, with settings and app data in a throw-away test location."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths
from PySide6.QtWidgets import QDialog

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Qt's test locations live under the home folder: a home of this run's own keeps two test
# runs on one machine (CI beside a developer's run) from emptying each other's files
os.environ["HOME"] = tempfile.mkdtemp(prefix="seacontrol-ui-tests-")
atexit.register(shutil.rmtree, os.environ["HOME"], True)


@pytest.fixture(autouse=True)
def no_unexpected_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A modal dialog nobody answers would hang the suite: a test that opens one without
    saying how it is answered fails at once instead."""

    def refuse(self: QDialog) -> int:
        raise AssertionError(f"a modal dialog opened in a test: {self.windowTitle()!r}")

    monkeypatch.setattr(QDialog, "exec", refuse)


@pytest.fixture
def window(qtbot: object, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """The main window on a new 1942 game, shown; "discard changes?" is answered Discard."""
    from PySide6.QtWidgets import QMessageBox

    from ui.mainwindow import MainWindow

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    w = MainWindow(ask_losses=False)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.session.new_game()
    w.show()
    yield w


@pytest.fixture(autouse=True)
def isolated_qt(qapp: object) -> Iterator[None]:
    """Settings and recovery files in Qt's test locations, emptied around each test."""
    QCoreApplication.setOrganizationName("SeaControlTests")
    QCoreApplication.setApplicationName("Sea Control tests")
    QStandardPaths.setTestModeEnabled(True)
    data = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    shutil.rmtree(Path(data), ignore_errors=True)
    QSettings().clear()
    yield
    QSettings().clear()
    shutil.rmtree(Path(data), ignore_errors=True)
