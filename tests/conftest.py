"""Shared fixtures: the small hand-made scenario and copies of it to break."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# games are sealed with a key of this run's own, never the user's (campaign/seal.py)
_KEYS = tempfile.mkdtemp(prefix="seacontrol-keys-")
atexit.register(shutil.rmtree, _KEYS, True)
os.environ["SEACONTROL_KEY"] = os.path.join(_KEYS, "seal.key")
# a preview in a test never starts compiling the rule sets in the background
# (tests/test_tactical_compiled.py builds them in the foreground; tests of that undo this)
os.environ["SEACONTROL_COMPILE"] = "never"

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
