"""The Qt binding must not leak references to None.

PySide6-Essentials 6.12.0 on CPython 3.11 takes one reference from ``None`` on every Qt
call that returns nothing; after some tens of thousands of calls the interpreter aborts
("deallocating None"). pyproject.toml pins a good build; this test fails on a bad one.
"""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QLabel


def test_void_qt_calls_keep_none_alive(qapp: object) -> None:
    label = QLabel()
    before = sys.getrefcount(None)
    for _ in range(2000):
        label.setText("HMS Warspite")
    after = sys.getrefcount(None)
    assert after >= before - 50, f"None lost {before - after} references in 2000 calls"
