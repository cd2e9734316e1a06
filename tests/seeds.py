"""Read the rules seeds (../shared/seeds) so tables are checked against the text itself.

Tests that need a seed skip when the seeds folder is not beside the project (CI and
newcomer-check always have it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"
NAVAL = "002_4a8284ed4f9f6c77.txt"


def seed_text(name: str = NAVAL) -> str:
    path = SEEDS / name
    if not path.is_file():
        pytest.skip(f"the rules seed {name} is not beside the project ({SEEDS})")
    return path.read_text(encoding="utf-8")


def between(text: str, start: str, end: str) -> str:
    i = text.index(start)
    return text[i : text.index(end, i)]


def damage_rows() -> dict[int, list[int]]:
    """The naval damage table as the seed prints it: CV → 15 cells."""
    block = between(seed_text(), "-1 0 1 2 3 4 5 6 7 8 9 10 11 12 +", "[page break]")
    rows = {}
    for line in block.splitlines()[1:]:
        cells = line.split()
        if cells and cells[0].isdigit():
            rows[int(cells[0])] = [int(x) for x in cells[1:]]
    return rows


def colour_rows() -> list[list[str]]:
    """The merchant colour table's rows as printed (cells after the row label)."""
    block = between(seed_text(), "-6 or less R", "[page break]")
    rows = []
    for line in block.splitlines():
        cells = re.findall(r"(?<![A-Za-z])[ROYBG](?![A-Za-z])", line)
        if cells:
            rows.append(cells)
    return rows


def starting_balance() -> dict[str, dict[str, int]]:
    """The "Starting Naval Balance Jan/Feb 1942" table: row label → nation → number."""
    text = seed_text()
    block = between(text, "Fleet Carrier Group 3 0 0", "Annex A")
    block = block[: block.index("Landing Craft")] + " ".join(
        block[block.index("Landing Craft") :].split()[:12]
    )
    nations = [
        "usa",
        "germany",
        "italy",
        "uk",
        "japan",
        "free_france",
        "netherlands",
        "vichy_france",
        "ussr",
    ]
    table: dict[str, dict[str, int]] = {}
    words: list[str] = []
    tokens = block.split()
    i = 0
    while i < len(tokens):
        if tokens[i].isdigit():
            numbers = [int(x) for x in tokens[i : i + 9]]
            table[" ".join(words)] = dict(zip(nations, numbers, strict=True))
            words = []
            i += 9
        else:
            words.append(tokens[i])
            i += 1
    return table
