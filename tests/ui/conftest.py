"""Qt tests run offscreen, with settings and app data in a throw-away test location."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths


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
