"""Helpers for tests that break scenario files on purpose."""

from __future__ import annotations

import csv
import io
from pathlib import Path


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
