"""Typed CSV tables that a person can edit in a spreadsheet, read and written exactly.

A :class:`TableSchema` names a file, its columns and their kinds. :func:`read_table`
turns the file into typed rows and collects *every* problem it finds (each a
:class:`Problem` naming the file, the spreadsheet row and the field, and saying what would
be valid) instead of stopping at the first. :func:`render_table` gives the canonical form:
UTF-8, ``\\n`` line ends, minimal quoting, numbers in their shortest form, so a canonical
file read and written again is byte-for-byte the same.
"""

from __future__ import annotations

import csv
import difflib
import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .untrusted import (
    MAX_DIGITS,
    bad_character,
    escaped,
    field_name,
    foreign_digit,
    formula_risk,
    shown,
)

ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_ROWS = 100_000
#: characters in a text cell (a name, a title) unless its column allows more
MAX_TEXT = 200
#: characters in a notes cell
MAX_NOTES = 4000
#: numbers as a spreadsheet writes them, in ASCII digits only (Python's int() and float()
#: would also read other scripts' digits, "1_000", "nan" and "infinity")
INT_RE = re.compile(r"[+-]?[0-9]+")
DECIMAL_RE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")

TRUE_WORDS = {"yes": True, "no": False}


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input, said so that a person can find and fix it.

    ``row`` is the spreadsheet row (the header is row 1), 0 when the problem is about the
    whole file. ``severity`` is ``"error"`` (the input is refused) or ``"warning"``.
    """

    file: str
    row: int
    field: str
    message: str
    #: "error", "warning", or "note" (a consequence of another problem, not checked)
    severity: str = "error"
    #: the whole file could not be read: later problems may only follow from it, so it is
    #: listed first (a root cause before its consequences)
    blocking: bool = False

    def __str__(self) -> str:
        where = self.file
        if self.row:
            where += f", row {self.row}"
        if self.field:
            where += f", field '{self.field}'"
        tag = "" if self.severity == "error" else f"{self.severity}: "
        return f"{where}: {tag}{self.message}"


class InputError(Exception):
    """Input that cannot be used; carries every problem found, not only the first."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = sorted(problems, key=lambda p: (not p.blocking, p))
        count = len(self.problems)
        head = "\n".join(str(p) for p in self.problems[:50])
        more = f"\n… and {count - 50} more" if count > 50 else ""
        super().__init__(f"{count} problem{'s' if count != 1 else ''}:\n{head}{more}")

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]


def suggest(value: str, valid: Iterable[str]) -> str:
    """' (did you mean X?)' when a close spelling exists, else ''."""
    close = difflib.get_close_matches(value, list(valid), n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else ""


@dataclass(frozen=True)
class Column:
    """One column of a table.

    ``kind`` is one of ``id``, ``text``, ``int``, ``decimal``, ``bool``, ``enum``,
    ``colour``, ``idlist`` (``;``-separated ids). ``ref`` names what an id refers to (for
    messages and cross-checks: ``"nation"``, ``"base"``, ``"sea_area"`` …). ``required``
    means the cell may not be empty. A text cell holds at most ``max_length`` characters
    (default :data:`MAX_TEXT`), on one line unless ``lines``, and may not start like a
    spreadsheet formula, except that a ``numbers`` text (a polygon's ``lon,lat`` pairs) may
    start with a minus sign.
    """

    name: str
    kind: str = "text"
    required: bool = True
    choices: tuple[str, ...] = ()
    ref: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    help: str = ""
    max_length: int = MAX_TEXT
    numbers: bool = False
    #: the text may run over several lines and hold tabs (notes); a name is one line
    lines: bool = False


@dataclass(frozen=True)
class TableSchema:
    """A CSV file: its name, columns in order, and the columns whose values are unique."""

    file: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()
    optional: bool = False
    description: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)


Row = dict[str, Any]


@dataclass
class Table:
    """Typed rows of one file, each with its spreadsheet row number for messages."""

    schema: TableSchema
    rows: list[Row] = field(default_factory=list)
    line_of: list[int] = field(default_factory=list)
    #: key values of rows refused for a bad cell: other files may still refer to them
    #: without a second, confusing "unknown id" message.
    bad_keys: set[str] = field(default_factory=set)
    #: the file could not be read (or not to its end): references to it are not checked
    incomplete: bool = False


def describe(col: Column) -> str:
    """What a cell of this column must hold (for messages and the editor's tooltips)."""
    return _describe(col)


def _describe(col: Column) -> str:
    if col.kind == "enum":
        return "one of " + ", ".join(col.choices)
    if col.kind == "bool":
        return "yes or no"
    if col.kind in ("int", "decimal"):
        word = "a whole number" if col.kind == "int" else "a number"
        if col.minimum is not None and col.maximum is not None:
            return f"{word} from {_fmt_number(col.minimum)} to {_fmt_number(col.maximum)}"
        if col.minimum is not None:
            return f"{word} ≥ {_fmt_number(col.minimum)}"
        return word
    if col.kind == "id":
        return "an id of lower-case letters, digits and _ starting with a letter"
    if col.kind == "idlist":
        return "ids separated by ;"
    if col.kind == "colour":
        return "a colour like #1f4e79"
    return "text"


def _fmt_number(value: float) -> str:
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return str(int(value))
    return repr(value)


def parse_cell(col: Column, raw: str) -> tuple[Any, str | None]:
    """Convert one cell; returns (value, None) or (None, message)."""
    text = raw.strip()
    if text == "":
        if col.required:
            return None, f"is empty; expected {_describe(col)}"
        return ([] if col.kind == "idlist" else None), None
    kind = col.kind
    value: Any
    if kind == "text":
        message = text_problem(col, raw)
        if message:
            return None, message
        value = raw
    elif kind == "id":
        if not ID_RE.match(text):
            return None, f"{shown(text)} is not a valid id; expected {_describe(col)}"
        value = text
    elif kind == "idlist":
        parts = [p.strip() for p in text.split(";")]
        bad = [p for p in parts if not ID_RE.match(p)]
        if bad:
            return None, f"{shown(bad[0])} is not a valid id; expected {_describe(col)}"
        value = parts
    elif kind == "int" and text.isdigit() and text.isascii() and len(text) <= MAX_DIGITS:
        # most numbers of a scenario: ASCII digits alone, read as _number reads them (its
        # words for a number out of the column's bounds)
        value = int(text)
        if (col.minimum is not None and value < col.minimum) or (
            col.maximum is not None and value > col.maximum
        ):
            return None, _number(col, text)[1]
    elif kind in ("int", "decimal"):
        value, message = _number(col, text)
        if message:
            return None, message
    elif kind == "bool":
        low = text.lower()
        if low not in TRUE_WORDS:
            return None, f"{shown(text)} is not yes or no"
        value = TRUE_WORDS[low]
    elif kind == "enum":
        if text not in col.choices:
            return None, (
                f"{shown(text)} is not valid; expected {_describe(col)}{suggest(text, col.choices)}"
            )
        value = text
    elif kind == "colour":
        if not COLOUR_RE.match(text):
            return None, f"{shown(text)} is not a colour; expected {_describe(col)}"
        value = text.lower()
    else:  # pragma: no cover - schema error, caught by tests of the schemas
        raise ValueError(f"unknown column kind {kind}")
    return value, None


def _number(col: Column, text: str) -> tuple[Any, str | None]:
    """A whole number or a decimal in ASCII digits, within the column's bounds."""
    foreign = foreign_digit(text)
    if foreign:
        return None, f"{foreign}; expected {_describe(col)}"
    digits = len(text.lstrip("+-").split(".")[0].split("e")[0].split("E")[0])
    if digits > MAX_DIGITS:
        return None, f"{shown(text)} is absurdly large; expected {_describe(col)}"
    value: float | int
    if col.kind == "int":
        if not INT_RE.fullmatch(text):
            return None, f"{shown(text)} is not a whole number; expected {_describe(col)}"
        value = int(text)
    else:
        if text.lstrip("+-").lower() in ("nan", "inf", "infinity"):
            return None, f"{shown(text)} is not a finite number; expected {_describe(col)}"
        if not DECIMAL_RE.fullmatch(text):
            return None, f"{shown(text)} is not a number; expected {_describe(col)}"
        value = float(text)
        if not math.isfinite(value):
            return None, f"{shown(text)} is not a finite number; expected {_describe(col)}"
    if abs(value) >= 10**MAX_DIGITS:
        return None, f"{shown(text)} is absurdly large; expected {_describe(col)}"
    if col.minimum is not None and value < col.minimum:
        return None, f"{text} is too small; expected {_describe(col)}"
    if col.maximum is not None and value > col.maximum:
        return None, f"{text} is too large; expected {_describe(col)}"
    return value, None


def text_problem(col: Column, text: str) -> str | None:
    """What is wrong with a text cell, or None: too long, a character that has no place in
    plain text, a start a spreadsheet would run as a formula, or (for a ``numbers`` text)
    digits other than ASCII. A scenario must read back exactly as written, so such text is
    refused rather than altered (docs/scenario-format.md, "Hostile input")."""
    if len(text) > col.max_length:
        return f"is {len(text):,} characters long; at most {col.max_length:,}"
    if not col.lines and ("\n" in text or "\r" in text):
        return "runs over more than one line; a name or a title is one line"
    bad = bad_character(text, allow="\t\n\r" if col.lines else "")
    if bad:
        return bad
    if col.numbers:
        foreign = foreign_digit(text)
        if foreign:
            return foreign
        if text.lstrip(" ").startswith("-"):
            return None
    if formula_risk(text):
        start = escaped(text.lstrip(" ")[:1] or text[:1])
        return (
            f"{shown(text)} starts with '{start}', which a spreadsheet runs as a formula; "
            "start it with a letter or a digit"
        )
    return None


def value_ok(col: Column, value: Any) -> bool:
    """A quick yes for a typed value that :func:`parse_cell` would accept as it stands
    (its canonical text parses without a message). False means "not sure": ask
    ``parse_cell(col, format_cell(col, value))`` for the verdict and the message."""
    kind = col.kind
    if value is None:
        return not col.required
    if kind == "text":
        if not isinstance(value, str):
            return False
        return (not col.required or bool(value.strip())) and text_problem(col, value) is None
    if kind == "int" or kind == "decimal":
        if type(value) is not int and (kind == "int" or type(value) is not float):
            return False
        if kind == "decimal" and not math.isfinite(value):
            return False
        if abs(value) >= 10**MAX_DIGITS:
            return False
        return (col.minimum is None or value >= col.minimum) and (
            col.maximum is None or value <= col.maximum
        )
    if kind == "enum":
        return isinstance(value, str) and value in col.choices
    if kind == "id":
        return isinstance(value, str) and ID_RE.match(value) is not None
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "idlist":
        if not isinstance(value, list):
            return False
        if not value:
            return not col.required
        return all(isinstance(p, str) and ID_RE.match(p) for p in value)
    if kind == "colour":
        return isinstance(value, str) and COLOUR_RE.match(value) is not None
    return False


def format_cell(col: Column, value: Any) -> str:
    """The canonical text of a typed value (the inverse of :func:`parse_cell`)."""
    if value is None:
        return ""
    if col.kind == "bool":
        return "yes" if value else "no"
    if col.kind == "idlist":
        return ";".join(value)
    if col.kind == "decimal":
        return _fmt_number(float(value))
    if col.kind == "int":
        return str(int(value))
    return str(value)


def decode(data: bytes, file: str) -> tuple[str | None, list[Problem]]:
    """UTF-8 text of a file (a leading byte-order mark is accepted and dropped)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, [
            Problem(
                file,
                0,
                "",
                "is UTF-16 text (a spreadsheet's 'Unicode text'); save it as 'CSV UTF-8'",
                blocking=True,
            )
        ]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return None, [
            Problem(
                file,
                line,
                "",
                f"is not UTF-8 text (byte {exc.start}); save it as 'CSV UTF-8' in your spreadsheet",
                blocking=True,
            )
        ]
    if "\x00" in text:
        return None, [
            Problem(
                file, 0, "", "contains NUL characters; it is not a CSV text file", blocking=True
            )
        ]
    return text, []


def parse_table(schema: TableSchema, data: bytes) -> tuple[Table, list[Problem]]:
    """Parse a whole file, collecting every problem."""
    file = schema.file
    table = Table(schema, incomplete=True)  # until every row is read
    if len(data) > MAX_FILE_BYTES:
        return table, [
            Problem(
                file,
                0,
                "",
                f"is more than {MAX_FILE_BYTES:,} bytes, the most a scenario file may be",
                blocking=True,
            )
        ]
    text, problems = decode(data, file)
    if text is None:
        return table, problems
    if not text.strip():
        return table, [
            Problem(
                file,
                0,
                "",
                "is empty; it needs a header row: " + ",".join(schema.names),
                blocking=True,
            )
        ]
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader)
    except csv.Error as exc:
        return table, [Problem(file, 1, "", f"cannot be read as CSV: {exc}", blocking=True)]
    header = [h.strip() for h in header]
    known = set(schema.names)
    for name in header:
        if name not in known:
            problems.append(
                Problem(
                    file,
                    1,
                    field_name(name),
                    "is not a column of this file"
                    + suggest(name, schema.names)
                    + "; valid columns: "
                    + ", ".join(schema.names),
                )
            )
    seen: set[str] = set()
    for name in header:
        if name in seen:
            problems.append(Problem(file, 1, field_name(name), "appears twice in the header"))
        seen.add(name)
    missing = [c.name for c in schema.columns if c.name not in header]
    for name in missing:
        col = schema.column(name)
        if col.required:
            problems.append(Problem(file, 1, name, "column is missing from the header"))
    if any(p.row == 1 for p in problems):
        return table, [replace(p, blocking=True) for p in problems]
    index = {name: i for i, name in enumerate(header)}
    line = 1  # the spreadsheet row: records, not lines (a notes cell may run over lines)
    try:
        for record in reader:
            line += 1
            if not record or all(not cell.strip() for cell in record):
                continue
            if len(table.rows) >= MAX_ROWS:
                problems.append(
                    Problem(file, line, "", f"more than {MAX_ROWS:,} rows", blocking=True)
                )
                return table, problems
            if len(record) > len(header):
                problems.append(too_many_cells(file, line, len(record), len(header)))
                continue
            row: Row = {}
            ok = True
            for col in schema.columns:
                i = index.get(col.name)
                raw = record[i] if i is not None and i < len(record) else ""
                value, message = parse_cell(col, raw)
                if message:
                    problems.append(Problem(file, line, col.name, message))
                    ok = False
                row[col.name] = value
            if ok:
                table.rows.append(row)
                table.line_of.append(line)
            elif len(schema.key) == 1 and index.get(schema.key[0]) is not None:
                k = index[schema.key[0]]
                if k < len(record) and record[k].strip():
                    table.bad_keys.add(record[k].strip())
    except csv.Error as exc:
        problems.append(
            Problem(
                file,
                line + 1,
                "",
                f"cannot be read as CSV (text line {reader.line_num}): {exc}",
                blocking=True,
            )
        )
        return table, problems
    table.incomplete = False
    problems += duplicate_keys(schema, table, file)
    return table, problems


def duplicate_keys(schema: TableSchema, table: Table, file: str) -> list[Problem]:
    """A row whose key (``schema.key``) an earlier row of ``table`` already has."""
    problems = []
    for key in schema.key:
        first: dict[Any, int] = {}
        for row, line in zip(table.rows, table.line_of, strict=True):
            v = row[key] if len(schema.key) == 1 else tuple(row[k] for k in schema.key)
            if v in first:
                problems.append(Problem(file, line, key, f"'{v}' is a duplicate of row {first[v]}"))
            else:
                first[v] = line
        if len(schema.key) > 1:
            break
    return problems


def too_many_cells(file: str, line: int, cells: int, columns: int) -> Problem:
    """A record longer than its header: its cells cannot be told apart."""
    message = f"has {cells} cells but the header has {columns} columns (an unquoted comma?)"
    return Problem(file, line, "", message)


def read_table(schema: TableSchema, path: Path) -> tuple[Table, list[Problem]]:
    """Read ``path`` (which must exist) as ``schema``."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)  # a bigger file is refused unread
    except OSError as exc:
        return Table(schema, incomplete=True), [
            Problem(schema.file, 0, "", f"cannot be read: {exc.strerror or exc}", blocking=True)
        ]
    return parse_table(schema, data)


def render_table(schema: TableSchema, rows: Iterable[Mapping[str, Any]]) -> str:
    """The canonical CSV text of ``rows``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(schema.names)
    for row in rows:
        writer.writerow([format_cell(c, row.get(c.name)) for c in schema.columns])
    return out.getvalue()
