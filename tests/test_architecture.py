"""The engine never imports Qt or the UI (STYLE.md: the model never imports Qt)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CAMPAIGN = Path(__file__).resolve().parent.parent / "campaign"
FORBIDDEN = ("PySide6", "shiboken6", "PyQt5", "PyQt6", "ui")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_no_campaign_module_imports_qt_or_ui() -> None:
    offenders = {}
    for path in CAMPAIGN.rglob("*.py"):
        bad = {m for m in imported_modules(path) if m.split(".")[0] in FORBIDDEN}
        if bad:
            offenders[str(path.relative_to(CAMPAIGN))] = sorted(bad)
    assert offenders == {}


def test_importing_the_whole_engine_loads_no_qt() -> None:
    modules = [f"campaign.{p.stem}" for p in CAMPAIGN.glob("*.py") if p.stem not in ("__main__",)]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        f"{FORBIDDEN!r}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=CAMPAIGN.parent,
    )
    assert out.stdout.strip() == "[]"
