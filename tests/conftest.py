"""Shared fixtures: the small hand-made scenario and copies of it to break."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

FIXTURES = Path(__file__).parent / "fixtures"
MINI = FIXTURES / "mini"


@pytest.fixture
def mini_dir() -> Path:
    return MINI


@pytest.fixture
def mini_copy(tmp_path: Path) -> Path:
    """A writable copy of the mini scenario."""
    target = tmp_path / "mini"
    shutil.copytree(MINI, target)
    return target
