"""The engine never imports Qt or the UI (STYLE.md: the model never imports Qt)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers import printed_by

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
    assert printed_by(code) == "[]"


def _module_level_imports(path: Path, package: str) -> set[str]:
    """The package's modules ``path`` imports when it is loaded (imports inside functions,
    which run later, are left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = path.relative_to(CAMPAIGN.parent).with_suffix("").parts
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(here[: len(here) - node.level])
                if path.name == "__init__.py":
                    base = list(here[: len(here) - node.level + 1])
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith(package):
                names.add(target)
                names.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith(package))
    return names


def test_the_engine_has_no_import_cycles() -> None:
    """A module never imports one that imports it back (turn.py and operations.py did)."""
    import networkx as nx

    modules = {}
    for path in CAMPAIGN.rglob("*.py"):
        parts = path.relative_to(CAMPAIGN.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        for target in _module_level_imports(path, "campaign"):
            if target in modules and target != name:
                graph.add_edge(name, target)
    assert list(nx.simple_cycles(graph)) == []


def test_the_command_line_loads_the_pdf_library_and_sqlite_utils_only_when_used() -> None:
    """fpdf2 and segno (a third of a second to import) load for a team pack or a hand-off
    sheet, sqlite-utils (a twentieth) for a game file, not for every command: here, ``odds
    naval`` run in a new process."""
    heavy = ("fpdf", "segno", "campaign.printing", "sqlite_utils")
    code = (
        "import sys\n"
        "from campaign.cli import main\n"
        "assert main(['odds', 'naval', '--cv', '20', '--enemy-cv', '20']) == 0\n"
        f"print(sorted(m for m in {heavy!r} if m in sys.modules))\n"
    )
    assert printed_by(code) == "[]"


def test_the_app_loads_sqlite_utils_before_qt() -> None:
    """Once PySide6 is loaded it reads the source of every module imported after it
    (ui/app.py): the app imports sqlite-utils, which the game file loads only when used,
    before it."""
    code = "import sys, ui.app\nnames = list(sys.modules)\n"
    code += "print(names.index('sqlite_utils') < names.index('PySide6'))\n"
    assert printed_by(code) == "True"
