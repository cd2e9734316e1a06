"""Scenarios: a folder of CSV files and ``scenario.toml``, loaded whole or not at all.

:func:`load_scenario` reads every file, checks every cell and every cross-reference, and
either returns a :class:`Scenario` or raises :class:`~campaign.csvdata.InputError` listing
every problem (file, row, field, what would be valid). Nothing is half-loaded.
:func:`write_scenario` writes the canonical form; reading a canonical folder and writing
it again gives identical files.
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import paths
from .csvdata import (
    MAX_NOTES,
    InputError,
    Problem,
    Row,
    Table,
    read_table,
    render_table,
    text_problem,
)
from .options import check_options
from .schemas import TABLES, WORLD_TABLES, table_name
from .untrusted import MAX_DIGITS, bad_character, field_name, shown
from .validation import validate
from .world import World

META_FILE = "scenario.toml"

#: scenario.toml's keys: (name, type, required, default)
META_KEYS: tuple[tuple[str, type, bool, Any], ...] = (
    ("id", str, True, None),
    ("name", str, True, None),
    ("description", str, False, ""),
    ("first_turn", int, True, None),
    ("last_turn", int, True, None),
    ("start_year", int, True, None),
    ("start_period", int, True, None),
)

#: the most scenario.toml may be: a few settings and a description
MAX_META_BYTES = 64 * 1024
#: characters of the scenario's id and name; its description may run to MAX_NOTES
MAX_META_TEXT = 200

PERIODS = ("Jan/Feb", "Mar/Apr", "May/Jun", "Jul/Aug", "Sep/Oct", "Nov/Dec")


@dataclass
class ScenarioMeta:
    """``scenario.toml``: what the scenario is and when it starts."""

    id: str
    name: str
    description: str = ""
    first_turn: int = 1
    last_turn: int = 24
    start_year: int = 1942
    start_period: int = 1
    #: named rule options chosen for this scenario (see docs/rules-notes.md)
    options: dict[str, Any] = field(default_factory=dict)

    def period_of(self, turn: int) -> str:
        """``"Jan/Feb 1942"`` for the scenario's first turn, and so on."""
        index = self.start_period - 1 + (turn - self.first_turn)
        return f"{PERIODS[index % 6]} {self.start_year + index // 6}"

    def to_toml(self) -> str:
        lines = []
        for key, _kind, _req, _default in META_KEYS:
            lines.append(f"{key} = {_toml_value(getattr(self, key))}")
        if self.options:
            lines.append("")
            lines.append("[options]")
            for key in sorted(self.options):
                lines.append(f"{key} = {_toml_value(self.options[key])}")
        return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(str(value), ensure_ascii=False)


def parse_meta(data: bytes, file: str = META_FILE) -> tuple[ScenarioMeta | None, list[Problem]]:
    """Parse ``scenario.toml``, listing every problem."""
    if len(data) > MAX_META_BYTES:
        return None, [Problem(file, 0, "", f"is more than {MAX_META_BYTES:,} bytes")]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None, [Problem(file, 0, "", "is not UTF-8 text")]
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return None, [Problem(file, 0, "", f"is not valid TOML: {exc}")]
    except RecursionError:
        return None, [Problem(file, 0, "", "is nested too deeply to be a scenario's settings")]
    except ValueError:  # Python's own limit on the digits of an integer (4,300)
        return None, [Problem(file, 0, "", "is not valid TOML: a number in it is absurdly large")]
    problems: list[Problem] = list(_plain_settings(raw, file))
    values: dict[str, Any] = {}
    for key, kind, required, default in META_KEYS:
        if key not in raw:
            if required:
                problems.append(Problem(file, 0, key, "is missing"))
            values[key] = default
            continue
        value = raw[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            problems.append(Problem(file, 0, key, f"must be a whole number, not {shown(value)}"))
        elif kind is str and not isinstance(value, str):
            problems.append(Problem(file, 0, key, f"must be text in quotes, not {shown(value)}"))
        values[key] = value
    known = {k for k, *_ in META_KEYS} | {"options"}
    for key in raw:
        if key not in known:
            problems.append(
                Problem(
                    file,
                    0,
                    field_name(key),
                    "is not a scenario setting; valid: " + ", ".join(sorted(known)),
                )
            )
    options = raw.get("options", {})
    if not isinstance(options, dict):
        problems.append(Problem(file, 0, "options", "must be a [options] table"))
        options = {}
    for name, message in check_options(options):
        problems.append(Problem(file, 0, f"options.{name}", message))
    if problems:
        return None, problems
    meta = ScenarioMeta(**values, options=dict(options))
    if not 1 <= meta.first_turn <= meta.last_turn <= 200:
        problems.append(
            Problem(file, 0, "last_turn", "turns must satisfy 1 ≤ first_turn ≤ last_turn ≤ 200")
        )
    if not 1 <= meta.start_period <= 6:
        problems.append(Problem(file, 0, "start_period", "must be 1 (Jan/Feb) to 6 (Nov/Dec)"))
    if not 1900 <= meta.start_year <= 2100:
        problems.append(Problem(file, 0, "start_year", "must be a year from 1900 to 2100"))
    if problems:
        return None, problems
    return meta, []


def _plain_settings(raw: Mapping[str, Any], file: str) -> Iterator[Problem]:
    """scenario.toml's texts are plain (no controls, no lone surrogates, which TOML's
    ``\\u`` escapes can write) and bounded, and its numbers are figures, not thousands of
    digits."""
    stack: list[tuple[str, Any]] = [(k, v) for k, v in raw.items()]
    while stack:
        key, value = stack.pop()
        if isinstance(value, Mapping):
            stack.extend((f"{key}.{k}", v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((f"{key}[{i}]", v) for i, v in enumerate(value))
        elif isinstance(value, str):
            limit = MAX_NOTES if key == "description" else MAX_META_TEXT
            problem = bad_character(value, allow="\t\n")
            if len(value) > limit:
                problem = f"is {len(value):,} characters long; at most {limit:,}"
            if problem:
                yield Problem(file, 0, field_name(key), problem)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**MAX_DIGITS:
            yield Problem(file, 0, field_name(key), "is absurdly large")


#: table → its columns of names (ids, lists of ids, one of a fixed set of words)
_NAME_COLUMNS: dict[str, tuple[str, ...]] = {
    table_name(schema): tuple(c.name for c in schema.columns if c.kind in ("id", "idlist", "enum"))
    for schema in TABLES
}


def _intern_names(tables: Mapping[str, list[Row]]) -> None:
    """Every id and fixed word of the tables made one string object per value
    (:func:`sys.intern`), in place. A look-up by id then finds its key by identity, without
    reading the key's own string (a spreadsheet's cell, or a game file's, is a new string
    each time it is read), and a unit's state or type is compared with the rules' words
    the same way. A big world's tables are spread over far more memory than a processor
    keeps at hand, and this was a miss at each look-up."""
    intern = sys.intern
    for name, rows in tables.items():
        columns = _NAME_COLUMNS.get(name, ())
        for row in rows:
            for column in columns:
                value = row.get(column)
                if type(value) is str:
                    row[column] = intern(value)
                elif type(value) is list:
                    row[column] = [intern(v) if type(v) is str else v for v in value]


@dataclass
class Scenario:
    """A whole scenario: its metadata and the typed rows of every table."""

    meta: ScenarioMeta
    tables: dict[str, list[Row]]
    #: problems of severity "warning" found when it was loaded
    warnings: list[Problem] = field(default_factory=list)
    _world: World | None = field(default=None, init=False, repr=False, compare=False)
    _by_id: dict[str, dict[str, Row]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _grouped: dict[tuple[str, ...], dict[tuple[Any, ...], list[Row]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _columns: dict[tuple[str, str], tuple[Any, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _fields: dict[tuple[str, str], dict[str, Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _groups: dict[tuple[str, str], dict[Any, tuple[str, ...]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        _intern_names(self.tables)

    def rows(self, name: str) -> list[Row]:
        return self.tables[name]

    def by_id(self, name: str) -> dict[str, Row]:
        """Rows of table ``name`` by id (built once: a scenario's tables do not change)."""
        index = self._by_id.get(name)
        if index is None:
            index = {r["id"]: r for r in self.tables[name]}
            self._by_id[name] = index
        return index

    def rows_with(self, name: str, **values: Any) -> list[Row]:
        """Rows of table ``name`` whose columns hold ``values``, in the table's order (an
        index on those columns built once: a turn asks nation by nation, and scanning a
        large table for each made the turn grow faster than the world)."""
        columns = tuple(values)
        key = (name, *columns)
        index = self._grouped.get(key)
        if index is None:
            index = {}
            for row in self.tables[name]:
                index.setdefault(tuple(row[c] for c in columns), []).append(row)
            self._grouped[key] = index
        return index.get(tuple(values.values()), [])

    def column(self, name: str, column: str) -> tuple[Any, ...]:
        """One column of table ``name``, row by row (built once): a question put to every
        row reads it without reaching into each row (a big world's table is spread over
        far more memory than the column's values)."""
        values = self._columns.get((name, column))
        if values is None:
            values = self._columns[(name, column)] = tuple(r[column] for r in self.tables[name])
        return values

    def ids_by(self, name: str, column: str) -> dict[Any, tuple[str, ...]]:
        """The ids of table ``name``'s rows by their value in ``column``, in the table's
        order (built once): a nation's routes, asked nation by nation, without a pass over
        every route for each."""
        groups = self._groups.get((name, column))
        if groups is None:
            lists: dict[Any, list[str]] = {}
            for row in self.tables[name]:
                lists.setdefault(row[column], []).append(row["id"])
            groups = self._groups[(name, column)] = {k: tuple(v) for k, v in lists.items()}
        return groups

    def field_by_id(self, name: str, column: str) -> dict[str, Any]:
        """One column of table ``name`` by row id (built once): the question a turn asks
        most, a place's sea area or a route's nation, answered from one small table
        instead of each row's (a big world's rows are spread over far more memory)."""
        values = self._fields.get((name, column))
        if values is None:
            values = self._fields[(name, column)] = {r["id"]: r[column] for r in self.tables[name]}
        return values

    @property
    def world(self) -> World:
        if self._world is None:
            self._world = World.from_rows(self.tables["sea_areas"], self.tables["adjacency"])
        return self._world

    def render(self) -> dict[str, str]:
        """Every file's canonical text, by file name."""
        files = {META_FILE: self.meta.to_toml()}
        for schema in TABLES:
            rows = self.tables[table_name(schema)]
            if rows or not schema.optional or schema in WORLD_TABLES:
                files[schema.file] = render_table(schema, rows)
        return files


def _read_folder(folder: Path) -> tuple[ScenarioMeta | None, dict[str, Table], list[Problem]]:
    problems: list[Problem] = []
    meta_path = folder / META_FILE
    meta: ScenarioMeta | None = None
    if meta_path.is_file():
        try:
            with meta_path.open("rb") as f:
                data = f.read(MAX_META_BYTES + 1)
        except OSError as exc:
            problems.append(
                Problem(META_FILE, 0, "", f"cannot be read: {exc.strerror or exc}", blocking=True)
            )
        else:
            meta, found = parse_meta(data)
            problems += found
    else:
        problems.append(Problem(META_FILE, 0, "", f"is missing from {folder}"))
    tables: dict[str, Table] = {}
    for schema in TABLES:
        path = folder / schema.file
        if not path.is_file() and schema in WORLD_TABLES:
            path = paths.world_dir() / schema.file
        if not path.is_file() and schema.optional and schema not in WORLD_TABLES:
            tables[table_name(schema)] = Table(schema)  # an optional file left out: empty
            continue
        if not path.is_file():
            problems.append(
                Problem(
                    schema.file,
                    0,
                    "",
                    f"is missing ({schema.description}) from {folder}",
                    blocking=True,
                )
            )
            tables[table_name(schema)] = Table(schema, incomplete=True)
            continue
        table, found = read_table(schema, path)
        tables[table_name(schema)] = table
        problems += found
    return meta, tables, problems


def scenario_from_tables(
    meta: ScenarioMeta | None, tables: Mapping[str, Table], problems: list[Problem]
) -> Scenario:
    """Validate parsed tables and build the scenario, or raise InputError with all problems."""
    problems = problems + validate(meta, tables)
    if meta is None or any(p.severity == "error" for p in problems):
        raise InputError(problems)
    warnings = [p for p in problems if p.severity != "error"]
    return Scenario(meta, {name: t.rows for name, t in tables.items()}, warnings)


def load_scenario(folder: str | Path | None = None) -> Scenario:
    """Load a scenario folder (default: the built-in 1942 scenario).

    Raises :class:`InputError` listing every problem if anything is wrong.
    """
    folder = Path(folder) if folder is not None else paths.scenario_dir("1942")
    if not folder.is_dir():
        raise InputError([Problem(str(folder), 0, "", "is not a scenario folder")])
    meta, tables, problems = _read_folder(folder)
    return scenario_from_tables(meta, tables, problems)


def write_scenario(scenario: Scenario, folder: str | Path) -> list[Path]:
    """Write every file of ``scenario`` canonically into ``folder`` (created if needed).

    A scenario is checked when it is loaded, so its text cannot start a spreadsheet formula;
    the text cells are checked again here all the same (a scenario made in code skips the
    loader), and :class:`InputError` names any that would, before anything is written."""
    problems = [
        Problem(schema.file, line, col.name, message)
        for schema in TABLES
        for line, row in enumerate(scenario.tables[table_name(schema)], start=2)
        for col in schema.columns
        if col.kind == "text" and isinstance(row.get(col.name), str)
        for message in [text_problem(col, row[col.name])]
        if message
    ]
    if problems:
        raise InputError(problems)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in scenario.render().items():
        path = folder / name
        path.write_text(text, encoding="utf-8", newline="")
        written.append(path)
    return written
