"""Helpers for tests: scenario files broken on purpose, code run in a new process."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

#: the project's folder (where ``campaign`` and ``ui`` are)
PROJECT = Path(__file__).resolve().parent.parent


def printed_by(code: str) -> str:
    """The last line ``code`` prints, run by this Python in a new process from the
    project's folder (what a fresh start imports, untouched by the tests' own imports)."""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PROJECT
    )
    return out.stdout.strip().splitlines()[-1]


def read_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    return rows[0], rows[1:]


def write_rows(path: Path, header: list[str], rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    path.write_text(out.getvalue(), encoding="utf-8")


def set_cell(folder: Path, file: str, row: int, field: str, value: str) -> None:
    """Set data row ``row`` (0 = first after the header) of ``file``'s ``field``."""
    path = folder / file
    header, rows = read_rows(path)
    rows[row][header.index(field)] = value
    write_rows(path, header, rows)


def add_row(folder: Path, file: str, values: dict[str, str]) -> None:
    path = folder / file
    header, rows = read_rows(path)
    rows.append([values.get(h, "") for h in header])
    write_rows(path, header, rows)
