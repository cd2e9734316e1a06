"""Running a piece of the app in a new Python process: what must start with a fresh Qt (a
screen's pixel ratio is set before Qt starts; what a start-up loads)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_python(code: str, home: Path, **env: str) -> str:
    """What ``code`` prints, run offscreen from the project's root with ``home`` for its
    settings and data (and ``env`` besides); a failure shows the process's errors."""
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(
            os.environ,
            QT_QPA_PLATFORM="offscreen",
            XDG_DATA_HOME=str(home),
            XDG_CONFIG_HOME=str(home),
            HOME=str(home),
            **env,
        ),
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout
