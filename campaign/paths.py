"""Where the shipped data and resources are, however the program was installed.

From a source checkout or an editable install they are the top-level ``data/`` and
``resources/`` folders beside ``campaign/``; a wheel carries them inside the package as
``campaign/_data`` and ``campaign/_resources`` (see ``pyproject.toml``).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(packaged: str, top_level: str) -> Path:
    inside = _PACKAGE / packaged
    if inside.is_dir():
        return inside
    beside = _PACKAGE.parent / top_level
    if beside.is_dir():
        return beside
    raise FileNotFoundError(
        f"Sea Control's {top_level}/ folder is missing (looked in {inside} and {beside}); "
        "reinstall the program."
    )


def data_dir() -> Path:
    """The shipped ``data/`` folder (world map and built-in scenarios)."""
    return _find("_data", "data")


def resources_dir() -> Path:
    """The shipped ``resources/`` folder (coastline, icons)."""
    return _find("_resources", "resources")


def docs_dir() -> Path:
    """The shipped ``docs/`` folder (the readings of the rules and the file formats)."""
    return _find("_docs", "docs")


def world_dir() -> Path:
    """The built-in world: ``data/world``."""
    return data_dir() / "world"


def scenario_dir(name: str = "1942") -> Path:
    """A built-in scenario folder, ``data/scenarios/NAME``."""
    return data_dir() / "scenarios" / name


def builtin_scenarios() -> list[str]:
    """Names of the built-in scenarios."""
    root = data_dir() / "scenarios"
    return sorted(p.name for p in root.iterdir() if (p / "scenario.toml").is_file())
