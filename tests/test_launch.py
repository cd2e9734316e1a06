"""The installed commands' entry points are light modules: a long preview's worker
processes import the program's main script when they start (multiprocessing's fork
server and spawn methods do), so the script must not import Qt, the app or the whole
command line (campaign/launch.py)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from campaign import launch
from tests.helpers import printed_by

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("PySide6", "ui.app", "campaign.cli", "campaign.engine")
#: evaluated in a worker process: which of HEAVY it has imported
ASK = f"sorted(m for m in {HEAVY!r} if m in __import__('sys').modules)"


def test_the_commands_point_at_the_light_entry_points() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"seacontrol-cli": "campaign.launch:cli", "seacontrol": "ui.launch:app"}


def test_importing_an_entry_point_loads_neither_qt_nor_the_program() -> None:
    code = (
        "import sys, campaign.launch, ui.launch\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    assert printed_by(code) == "[]"


def test_a_preview_worker_started_from_the_app_script_loads_no_qt(tmp_path: Path) -> None:
    """A script made as the installed ``seacontrol`` is (importing its entry point), whose
    preview starts the pool: the worker has not imported Qt or the app."""
    script = tmp_path / "seacontrol"
    script.write_text(
        "import sys\n"
        "from ui.launch import app\n"
        "if __name__ == '__main__':\n"
        "    from campaign.tactical import simulate\n"
        "    pool = simulate._pool(2)\n"
        f"    ask = {ASK!r}\n"
        "    print(sorted({str(pool.submit(eval, ask).result()) for _ in range(4)}))\n"
        "    print('PySide6' in sys.modules)\n"
        "    simulate.shutdown_pool()\n"
    )
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.split("\n")[:2] == ["['[]']", "False"]


def test_the_command_line_entry_point_runs_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        sys, "argv", ["seacontrol-cli", "odds", "naval", "--cv", "20", "--enemy-cv", "20"]
    )
    assert launch.cli() == 0
    assert "win" in capsys.readouterr().out.lower()
