"""Scenario drafts: a scenario folder's tables as editable text, for the scenario editor.

A :class:`Draft` holds every file of a scenario as rows of text cells — the CSV's own text,
in the schema's column order — so a row the loader would refuse is kept and shown to be
fixed, never dropped. Every change is an :class:`Edit` (a few primitive operations)
applied with :meth:`Draft.apply`, which returns the edit that undoes it (the editor's undo
stack holds these; TripleA's invertible ``Change`` objects are the model).

:meth:`Draft.check` runs the loader's own parser and validator over the draft text, so
the editor lists exactly the problems ``seacontrol-cli validate`` would, each with its
file, spreadsheet row and field. Renames carry through (:meth:`Draft.cell_edit` renames
every reference to a base, unit, nation… whose id changes) and deletions name what
refers to the rows deleted (:meth:`Draft.referrers`). :meth:`Draft.save` writes the folder:
a file whose rows did not change is written back byte for byte as it was read.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import paths
from .csvdata import (
    ID_RE,
    INT_RE,
    MAX_FILE_BYTES,
    MAX_ROWS,
    Column,
    InputError,
    Problem,
    Row,
    Table,
    TableSchema,
    decode,
    format_cell,
    parse_table,
    read_table,
    too_many_cells,
)
from .options import RULE_OPTIONS
from .scenario import (
    MAX_META_BYTES,
    META_FILE,
    META_KEYS,
    Scenario,
    ScenarioMeta,
    parse_meta,
    scenario_from_tables,
)
from .schemas import TABLES, WORLD_TABLES, table_name
from .untrusted import formula_risk
from .validation import REF_TABLES, validate
from .world import NoSeaPath, World

#: tables by name (``bases``), in the order files are listed
SCHEMAS: dict[str, TableSchema] = {table_name(s): s for s in TABLES}
WORLD_NAMES = tuple(table_name(s) for s in WORLD_TABLES)

#: what a new empty scenario starts as (scenario.toml's keys, as text)
NEW_META: dict[str, str] = {
    "id": "new_scenario",
    "name": "New scenario",
    "description": "",
    "first_turn": "1",
    "last_turn": "24",
    "start_year": "1942",
    "start_period": "1",
}


# -- edits -------------------------------------------------------------------------------
@dataclass(frozen=True)
class SetCell:
    """Set one cell's text (``column`` by name)."""

    table: str
    row: int
    column: str
    text: str


@dataclass(frozen=True)
class InsertRow:
    """Insert a row of cells (the schema's columns, in order) before ``index``."""

    table: str
    index: int
    cells: tuple[str, ...]


@dataclass(frozen=True)
class RemoveRow:
    table: str
    index: int


@dataclass(frozen=True)
class SetMeta:
    """Set a scenario.toml setting: a key of :data:`~campaign.scenario.META_KEYS`, or
    ``options.NAME`` for a rule option (empty text: the option is left out)."""

    key: str
    text: str


Op = SetCell | InsertRow | RemoveRow | SetMeta


@dataclass(frozen=True)
class Edit:
    """One undoable change: its name (for the Undo menu) and its operations, in order."""

    label: str
    ops: tuple[Op, ...]

    def __bool__(self) -> bool:
        return bool(self.ops)


@dataclass(frozen=True)
class Ref:
    """A cell that names a record of another table."""

    table: str
    row: int
    column: str


class DraftListener:
    """Told of every operation before and after it is applied (the editor's table models
    turn these into Qt's row and cell signals). Override what you need."""

    def before(self, op: Op) -> None:
        """Called just before ``op`` changes the draft."""

    def after(self, op: Op) -> None:
        """Called just after ``op`` changed the draft."""


@dataclass
class Check:
    """The verdict of :meth:`Draft.check`: every problem, and the tables as parsed (the
    rows the loader accepts, typed), for the map and for starting a game."""

    problems: list[Problem]
    meta: ScenarioMeta | None
    tables: dict[str, Table]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def startable(self) -> bool:
        """Can a game start from it? (No errors; warnings are allowed, as the loader allows
        them.)"""
        return self.meta is not None and not self.errors


# -- the draft ---------------------------------------------------------------------------
@dataclass
class _Source:
    """A file as it was read: its bytes, and its rows then (to know whether it changed)."""

    data: bytes
    rows: tuple[tuple[str, ...], ...]


class Draft:
    """A scenario being edited: its settings and every table as text cells."""

    def __init__(self, meta: Mapping[str, str], options: Mapping[str, str]) -> None:
        self.meta: dict[str, str] = dict(meta)
        self.options: dict[str, str] = dict(options)
        self.rows: dict[str, list[list[str]]] = {name: [] for name in SCHEMAS}
        #: the folder it was opened from or last saved to (None: never saved)
        self.folder: Path | None = None
        #: files as they were read, by table name (and META_FILE): kept to write them back
        #: unchanged, byte for byte
        self._sources: dict[str, _Source] = {}
        self._meta_source: tuple[bytes, dict[str, str], dict[str, str]] | None = None
        #: the world tables came from the built-in world, not from the scenario's folder
        self._world_builtin: set[str] = set()
        self.listeners: list[DraftListener] = []
        self._versions: dict[str, int] = dict.fromkeys([*SCHEMAS, META_FILE], 0)
        self._parsed: dict[str, tuple[int, Table, list[Problem]]] = {}
        self._world: tuple[tuple[int, int], World] | None = None

    # -- making ---------------------------------------------------------------------------
    @classmethod
    def new(cls) -> Draft:
        """A new empty scenario on the built-in world."""
        draft = cls(NEW_META, {})
        draft._read_world(paths.world_dir(), builtin=True)
        return draft

    @classmethod
    def open(cls, folder: str | Path) -> Draft:
        """Open a scenario folder, problems and all. Raises :class:`InputError` only for
        what cannot be shown as rows of cells (a file that is not UTF-8 CSV, a column the
        format does not have, a row with more cells than its header): fix those in a text
        editor first."""
        folder = Path(folder)
        if not folder.is_dir():
            raise InputError([Problem(str(folder), 0, "", "is not a scenario folder")])
        problems: list[Problem] = []
        meta_path = folder / META_FILE
        meta: dict[str, str] = dict(NEW_META)
        options: dict[str, str] = {}
        meta_bytes: bytes | None = None
        if meta_path.is_file():
            meta_bytes = _read_bytes(meta_path, MAX_META_BYTES, META_FILE, problems)
            if meta_bytes is not None:
                found = _meta_text(meta_bytes)
                if isinstance(found, Problem):
                    problems.append(found)
                else:
                    meta, options = found
        draft = cls(meta, options)
        if meta_bytes is not None:
            draft._meta_source = (meta_bytes, dict(draft.meta), dict(draft.options))
        for schema in TABLES:
            name = table_name(schema)
            path = folder / schema.file
            if not path.is_file():
                continue
            data = _read_bytes(path, MAX_FILE_BYTES, schema.file, problems)
            if data is None:
                continue
            rows = _records(schema, data, problems)
            if rows is not None:
                draft.rows[name] = rows
                draft._sources[name] = _Source(data, _frozen(rows))
        if problems:
            raise InputError(problems)
        missing = [n for n in WORLD_NAMES if n not in draft._sources]
        if missing:
            draft._read_world(paths.world_dir(), builtin=True, names=missing)
        draft.folder = folder
        return draft

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> Draft:
        """A draft of a scenario made in code (a game's position: New scenario from this
        game), not yet saved anywhere. Its sea areas are the built-in world's, and left
        out of the folder, when they are the same."""
        meta = {key: _as_text(getattr(scenario.meta, key)) for key, *_ in META_KEYS}
        options = {name: _as_text(value) for name, value in scenario.meta.options.items()}
        draft = cls(meta, options)
        for name, schema in SCHEMAS.items():
            draft.rows[name] = [
                [format_cell(col, row.get(col.name)) for col in schema.columns]
                for row in scenario.rows(name)
            ]
        builtin = cls.new()
        for name in WORLD_NAMES:
            if draft.rows[name] == builtin.rows[name]:
                draft._world_builtin.add(name)
                draft._sources[name] = builtin._sources[name]
        return draft

    def _read_world(self, folder: Path, builtin: bool, names: Iterable[str] = WORLD_NAMES) -> None:
        problems: list[Problem] = []
        for name in names:
            schema = SCHEMAS[name]
            data = _read_bytes(folder / schema.file, MAX_FILE_BYTES, schema.file, problems)
            rows = _records(schema, data, problems) if data is not None else None
            if rows is None:
                raise InputError(problems)
            self.rows[name] = rows
            if builtin:
                self._world_builtin.add(name)
                self._sources[name] = _Source(b"", _frozen(rows))

    # -- reading ----------------------------------------------------------------------------
    def schema(self, table: str) -> TableSchema:
        return SCHEMAS[table]

    def cell(self, table: str, row: int, column: str) -> str:
        return self.rows[table][row][_index(table, column)]

    def record(self, table: str, row: int) -> dict[str, str]:
        """A row as column → text."""
        return dict(zip(SCHEMAS[table].names, self.rows[table][row], strict=True))

    def ids(self, table: str) -> list[str]:
        """The ids of a table with an ``id`` column, in row order (blank ones left out)."""
        if "id" not in SCHEMAS[table].names:
            return []
        i = _index(table, "id")
        return [r[i].strip() for r in self.rows[table] if r[i].strip()]

    def find(self, table: str, ident: str) -> int | None:
        """The row of the record with id ``ident`` (the first, if ids repeat)."""
        for row, value in enumerate(self.ids_by_row(table)):
            if value == ident:
                return row
        return None

    def ids_by_row(self, table: str) -> list[str]:
        i = _index(table, "id")
        return [r[i].strip() for r in self.rows[table]]

    def name_of(self, table: str, ident: str) -> str:
        """A record's name (its id when it has none)."""
        row = self.find(table, ident)
        if row is None or "name" not in SCHEMAS[table].names:
            return ident
        return self.cell(table, row, "name") or ident

    def references(self, table: str, ident: str) -> list[Ref]:
        """Every cell of every table that names record ``ident`` of ``table``."""
        found = []
        for other, schema in SCHEMAS.items():
            for col in schema.columns:
                if REF_TABLES.get(col.ref or "") != table:
                    continue
                i = _index(other, col.name)
                for row, cells in enumerate(self.rows[other]):
                    if ident in _ref_values(col, cells[i]):
                        found.append(Ref(other, row, col.name))
        return found

    def referrers(self, table: str, rows: Iterable[int]) -> list[Ref]:
        """What refers to these rows (the references among the rows themselves left out):
        listed before they are deleted."""
        rows = set(rows)
        if "id" not in SCHEMAS[table].names:
            return []
        doomed = {self.cell(table, r, "id").strip() for r in rows} - {""}
        left = set(self.ids_by_row(table)[r] for r in range(len(self.rows[table])) if r not in rows)
        found = []
        for ident in sorted(doomed - left):
            found += [
                ref
                for ref in self.references(table, ident)
                if not (ref.table == table and ref.row in rows)
            ]
        return found

    def describe(self, ref: Ref) -> str:
        """``units.csv, row 4 (usa_cv_wasp): base`` — a reference for people."""
        ident = ""
        if "id" in SCHEMAS[ref.table].names:
            ident = f" ({self.cell(ref.table, ref.row, 'id')})"
        return f"{SCHEMAS[ref.table].file}, row {ref.row + 2}{ident}: {ref.column}"

    # -- changing --------------------------------------------------------------------------
    def apply(self, edit: Edit) -> Edit:
        """Apply ``edit``; returns the edit that undoes it."""
        undo: list[Op] = []
        for op in edit.ops:
            for listener in self.listeners:
                listener.before(op)
            undo.append(self._apply(op))
            for listener in self.listeners:
                listener.after(op)
        return Edit(edit.label, tuple(reversed(undo)))

    def _apply(self, op: Op) -> Op:
        if isinstance(op, SetMeta):
            self._versions[META_FILE] += 1
            if op.key.startswith("options."):
                name = op.key.removeprefix("options.")
                old = self.options.get(name, "")
                if op.text:
                    self.options[name] = op.text
                else:
                    self.options.pop(name, None)
            else:
                old = self.meta.get(op.key, "")
                self.meta[op.key] = op.text
            return SetMeta(op.key, old)
        rows = self.rows[op.table]
        self._versions[op.table] += 1
        if isinstance(op, SetCell):
            i = _index(op.table, op.column)
            old = rows[op.row][i]
            rows[op.row][i] = op.text
            return SetCell(op.table, op.row, op.column, old)
        if isinstance(op, InsertRow):
            width = len(SCHEMAS[op.table].columns)
            rows.insert(op.index, [*op.cells[:width], *[""] * (width - len(op.cells))])
            return RemoveRow(op.table, op.index)
        cells = rows.pop(op.index)
        return InsertRow(op.table, op.index, tuple(cells))

    # -- the edits the editor offers ---------------------------------------------------------
    def cell_edit(self, table: str, row: int, column: str, text: str) -> Edit:
        """Setting a cell. A record's id that other tables refer to is *renamed*: every
        reference follows it (unless the new id is blank, not an id, or already taken —
        then the cell alone changes and the validator says what is wrong)."""
        old = self.cell(table, row, column)
        if old == text:
            return Edit("", ())
        set_it = SetCell(table, row, column, text)
        what = _singular(table)
        old_id, new_id = old.strip(), text.strip()
        if column != "id" or not old_id or not _is_id(new_id) or new_id in self.ids(table):
            return Edit(f"Set {what} {column} to '{_short(text)}'", (set_it,))
        refs = self.references(table, old_id) if self.ids(table).count(old_id) == 1 else []
        ops: list[Op] = [set_it]
        for ref in refs:
            col = SCHEMAS[ref.table].column(ref.column)
            cell = self.cell(ref.table, ref.row, ref.column)
            ops.append(SetCell(ref.table, ref.row, ref.column, _renamed(col, cell, old_id, new_id)))
        tail = f" ({len(refs)} reference{'s' if len(refs) != 1 else ''} follow)" if refs else ""
        return Edit(f"Rename {what} '{old_id}' to '{new_id}'{tail}", tuple(ops))

    def add_edit(
        self, table: str, values: Mapping[str, str] | None = None, index: int | None = None
    ) -> Edit:
        """A new record (at the end, or before ``index``): sensible defaults, a fresh id,
        ``values`` over them."""
        cells = self.default_row(table)
        names = SCHEMAS[table].names
        for key, value in (values or {}).items():
            cells[names.index(key)] = value
        index = len(self.rows[table]) if index is None else index
        return Edit(f"Add {_singular(table)}", (InsertRow(table, index, tuple(cells)),))

    def duplicate_edit(self, table: str, rows: Sequence[int]) -> Edit:
        """Copies of ``rows``, each after the last of them, with fresh ids."""
        ops: list[Op] = []
        taken = set(self.ids(table))
        at = max(rows) + 1
        for row in sorted(rows):
            cells = list(self.rows[table][row])
            if "id" in SCHEMAS[table].names:
                i = _index(table, "id")
                cells[i] = _fresh(f"{cells[i].strip() or _singular(table)}_copy", taken)
                taken.add(cells[i])
            ops.append(InsertRow(table, at, tuple(cells)))
            at += 1
        return Edit(f"Duplicate {len(rows)} {_plural(table, len(rows))}", tuple(ops))

    def delete_edit(self, table: str, rows: Iterable[int]) -> Edit:
        """Delete ``rows`` (last first, so the indexes stay right). What refers to them is
        left as it is, for the validator to name: :meth:`referrers` lists it first."""
        rows = sorted(set(rows), reverse=True)
        ops = tuple(RemoveRow(table, r) for r in rows)
        return Edit(f"Delete {len(rows)} {_plural(table, len(rows))}", ops)

    def clear_edit(self, table: str, cells: Iterable[tuple[int, str]]) -> Edit:
        """Empty these cells (row, column), as one edit."""
        ops = tuple(
            SetCell(table, row, column, "")
            for row, column in sorted(set(cells))
            if self.cell(table, row, column)
        )
        return Edit(f"Clear {len(ops)} cell{'s' if len(ops) != 1 else ''}", ops)

    def paste_edit(self, table: str, row: int, column: int, block: Sequence[Sequence[str]]) -> Edit:
        """A block of cells (from a spreadsheet) pasted with its top left at ``row`` and
        the ``column``-th column; rows past the last become new records (defaults and fresh
        ids under what is pasted). Cells past the last column are left out. Ids pasted over
        are set, not renamed: nothing that refers to them follows."""
        names = SCHEMAS[table].names
        ops: list[Op] = []
        length = len(self.rows[table])
        taken = set(self.ids(table))
        for i, values in enumerate(block):
            cells = list(values[: max(0, len(names) - column)])
            at = row + i
            if at < length:
                ops += [
                    SetCell(table, at, names[column + j], text)
                    for j, text in enumerate(cells)
                    if self.cell(table, at, names[column + j]) != text
                ]
                continue
            new = self.default_row(table)
            if "id" in names:
                new[names.index("id")] = _fresh(_singular(table).replace(" ", "_"), taken)
            new[column : column + len(cells)] = cells
            if "id" in names:
                taken.add(new[names.index("id")].strip())
            ops.append(InsertRow(table, at, tuple(new)))
        added = sum(1 for op in ops if isinstance(op, InsertRow))
        tail = f" ({added} new {_plural(table, added)})" if added else ""
        return Edit(f"Paste {len(block)} row{'s' if len(block) != 1 else ''}{tail}", tuple(ops))

    def meta_edit(self, key: str, text: str) -> Edit:
        if key.startswith("options."):
            old = self.options.get(key.removeprefix("options."), "")
        else:
            old = self.meta.get(key, "")
        if old == text:
            return Edit("", ())
        return Edit(f"Set the scenario's {key} to '{_short(text)}'", (SetMeta(key, text),))

    def place_edit(self, table: str, row: int, lon: float, lat: float, area: str) -> Edit:
        """Put a base (or a shipyard) at a point and in a sea area."""
        ops = tuple(
            SetCell(table, row, column, text)
            for column, text in (
                ("lon", coordinate(lon)),
                ("lat", coordinate(lat)),
                ("sea_area", area),
            )
            if self.cell(table, row, column) != text
        )
        ident = self.cell(table, row, "id")
        return Edit(f"Move {_singular(table)} '{ident}' to {area}", ops)

    def route_edit(
        self, origin: str, destination: str, via: Sequence[str], row: int | None = None
    ) -> Edit:
        """A merchant route drawn on the map: a new route (``row`` None) or route ``row``
        redrawn (its ends and waypoints)."""
        via_text = ";".join(via)
        if row is not None:
            ops = tuple(
                SetCell("routes", row, column, text)
                for column, text in (
                    ("origin", origin),
                    ("destination", destination),
                    ("via", via_text),
                )
                if self.cell("routes", row, column) != text
            )
            return Edit(f"Redraw route '{self.cell('routes', row, 'id')}'", ops)
        base = self.find("bases", origin)
        nation = self.cell("bases", base, "holder") if base is not None else ""
        values = {
            "id": _fresh(f"{origin}_{destination}", set(self.ids("routes"))),
            "name": f"{self.name_of('bases', origin)} to {self.name_of('bases', destination)}",
            "origin": origin,
            "destination": destination,
            "via": via_text,
        }
        if nation:
            values["nation"] = nation
        return self.add_edit("routes", values)

    def default_row(self, table: str) -> list[str]:
        """A new record's cells: a fresh id, the first choice of each list, the first record
        of each table it refers to, the least number allowed; the rest empty."""
        schema = SCHEMAS[table]
        cells = []
        for col in schema.columns:
            cells.append(self._default(table, col))
        return cells

    def _default(self, table: str, col: Column) -> str:
        if col.name == "id":
            return _fresh(_singular(table).replace(" ", "_"), set(self.ids(table)))
        if col.name == "serial":
            serials = [int(s) for s in self._column(table, "serial") if INT_RE.fullmatch(s)]
            return str(max(serials, default=0) + 1)
        if col.name == "name" and col.required:
            return f"New {_singular(table)}"
        if not col.required:
            return ""
        if col.kind == "enum":
            return col.choices[0]
        if col.kind == "bool":
            return "no"
        if col.kind == "colour":
            return "#808080"
        if col.kind in ("int", "decimal"):
            low = col.minimum if col.minimum is not None else 0
            return str(int(max(low, 0) if col.maximum is None or col.maximum >= 0 else low))
        target = REF_TABLES.get(col.ref or "")
        if target is not None:
            ids = self.ids(target)
            return ids[0] if ids else ""
        return ""

    def _column(self, table: str, column: str) -> list[str]:
        i = _index(table, column)
        return [r[i].strip() for r in self.rows[table]]

    # -- checking ----------------------------------------------------------------------------
    def check(self) -> Check:
        """Every problem the loader and validator find in the draft, as
        ``seacontrol-cli validate`` lists them once the draft is saved (tables parsed
        again only when they changed)."""
        problems: list[Problem] = []
        meta, found = parse_meta(self.meta_bytes())
        problems += found
        tables: dict[str, Table] = {}
        for name in SCHEMAS:
            version = self._versions[name]
            cached = self._parsed.get(name)
            if cached is None or cached[0] != version:
                table, table_problems = parse_table(SCHEMAS[name], self.table_bytes(name))
                table_problems += self._blank_rows(name)
                cached = (version, table, table_problems)
                self._parsed[name] = cached
            tables[name] = cached[1]
            problems += cached[2]
        problems += validate(meta, tables)
        blocking = sorted(p for p in problems if p.blocking)
        return Check(blocking + [p for p in problems if not p.blocking], meta, tables)

    def _blank_rows(self, table: str) -> list[Problem]:
        """A row with every cell empty is left out by the loader without a word: said here."""
        return [
            Problem(
                SCHEMAS[table].file,
                row + 2,
                "",
                "is empty: it is left out when the scenario is read",
                "warning",
            )
            for row, cells in enumerate(self.rows[table])
            if not any(c.strip() for c in cells)
        ]

    def build(self) -> Scenario:
        """The scenario, ready to start a game; raises :class:`InputError` with every problem
        if it has errors (it may be saved as a draft, never started)."""
        result = self.check()
        return scenario_from_tables(result.meta, result.tables, [])

    def world(self) -> World:
        """The draft's board: its sea areas and adjacency as they stand, or the built-in
        world while they cannot be read (the map needs a board to draw)."""
        key = (self._versions["sea_areas"], self._versions["adjacency"])
        if self._world is not None and self._world[0] == key:
            return self._world[1]
        result = self.check()
        areas, edges = result.tables["sea_areas"], result.tables["adjacency"]
        world: World | None = None
        if areas.rows and not areas.incomplete and not edges.incomplete:
            names = {r["id"] for r in areas.rows}
            try:
                world = World.from_rows(
                    areas.rows, [e for e in edges.rows if {e["a"], e["b"]} <= names]
                )
            except ValueError:
                world = None
        if world is None:
            world = builtin_world()
        self._world = (key, world)
        return world

    def drawable(self, check: Check) -> Scenario:
        """The scenario as far as the map can draw it: the draft's world; the bases in a
        sea area of it; the routes between those bases joined by sea; the units, Air Points,
        garrisons and LSP at those bases. What is left out waits for its problem to be fixed
        (the problems panel names it)."""
        world = self.world()
        rows = {name: list(table.rows) for name, table in check.tables.items()}
        bases = [b for b in rows["bases"] if b["sea_area"] in world]
        at = {b["id"] for b in bases}
        routes = [r for r in rows["routes"] if _drawable_route(world, r, bases)]
        tables: dict[str, list[Row]] = {name: [] for name in SCHEMAS}
        tables["nations"] = rows["nations"]
        tables["bases"] = bases
        tables["routes"] = routes
        tables["air_ranges"] = rows["air_ranges"]
        for name in ("units", "air", "garrisons", "lsp"):
            tables[name] = [r for r in rows[name] if r["base"] in at]
        meta = check.meta or ScenarioMeta("draft", "Draft")
        scenario = Scenario(meta, tables)
        scenario._world = world  # the board as the draft has it (not parsed again)
        return scenario

    def unsafe_cells(self) -> list[Problem]:
        """Text cells a spreadsheet would run as a formula: even a draft is not saved with
        them (a shared scenario is opened in spreadsheets; docs/scenario-format.md)."""
        found = []
        for name, schema in SCHEMAS.items():
            for col in schema.columns:
                if col.kind != "text":
                    continue
                i = schema.names.index(col.name)
                for row, cells in enumerate(self.rows[name]):
                    text = cells[i]
                    if col.numbers and text.lstrip(" ").startswith("-"):
                        continue
                    if formula_risk(text):
                        found.append(
                            Problem(
                                schema.file,
                                row + 2,
                                col.name,
                                "starts like a spreadsheet formula (=, +, -, @); start it "
                                "with a letter or a digit",
                            )
                        )
        return found

    # -- writing -----------------------------------------------------------------------------
    def table_bytes(self, table: str) -> bytes:
        """The file's text as the draft stands: header, then one record per row."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(SCHEMAS[table].names)
        writer.writerows(self.rows[table])
        return out.getvalue().encode("utf-8")

    def meta_bytes(self) -> bytes:
        """scenario.toml as the draft stands (a setting that is not a number where one is
        wanted is written as text, for the loader to name)."""
        lines = []
        kinds = {key: kind for key, kind, _req, _default in META_KEYS}
        for key, kind, _required, _default in META_KEYS:
            text = self.meta.get(key, "")
            if not text:
                continue  # a required one: "is missing", says the loader
            value: Any = int(text) if kind is int and INT_RE.fullmatch(text.strip()) else text
            lines.append(f"{key} = {_toml(value)}")
        for key in self.meta:
            if key not in kinds and self.meta[key]:
                lines.append(f"{_toml_key(key)} = {_toml(self.meta[key])}")
        if self.options:
            lines += ["", "[options]"]
            for name in sorted(self.options):
                lines.append(
                    f"{_toml_key(name)} = {_toml(_option_value(name, self.options[name]))}"
                )
        return ("\n".join(lines) + "\n").encode("utf-8")

    def files(self) -> dict[str, bytes]:
        """What :meth:`save` writes, by file name: an unchanged file as it was read, a
        changed one in full; optional files only when they have rows (or were there)."""
        out: dict[str, bytes] = {}
        if self._meta_source and (self.meta, self.options) == self._meta_source[1:]:
            out[META_FILE] = self._meta_source[0]
        else:
            out[META_FILE] = self.meta_bytes()
        for name, schema in SCHEMAS.items():
            source = self._sources.get(name)
            unchanged = source is not None and source.rows == _frozen(self.rows[name])
            if name in self._world_builtin and unchanged:
                continue  # the built-in world: left out, as the folder had it
            if unchanged and source is not None and source.data:
                out[schema.file] = source.data
            elif source is not None or self.rows[name] or not schema.optional:
                out[schema.file] = self.table_bytes(name)
        return out

    def save(self, folder: str | Path) -> list[Path]:
        """Write the scenario folder (created if needed), problems and all — a draft — but
        never text a spreadsheet would run (:meth:`unsafe_cells`: raises InputError)."""
        unsafe = self.unsafe_cells()
        if unsafe:
            raise InputError(unsafe)
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        files = self.files()
        for name, data in files.items():
            path = folder / name
            path.write_bytes(data)
            written.append(path)
        self.folder = folder
        self._meta_source = (files[META_FILE], dict(self.meta), dict(self.options))
        for name, schema in SCHEMAS.items():
            if schema.file in files:
                self._sources[name] = _Source(files[schema.file], _frozen(self.rows[name]))
                self._world_builtin.discard(name)
        return written


# -- the map's questions --------------------------------------------------------------------
@lru_cache(maxsize=1)
def builtin_world() -> World:
    """The built-in world (data/world/), read once."""
    areas, edges = (read_table(s, paths.world_dir() / s.file)[0] for s in WORLD_TABLES)
    return World.from_rows(areas.rows, edges.rows)


def waypoints(world: World, path: Sequence[str]) -> list[str]:
    """The fewest waypoints (``via``) that make the route's shortest path the path drawn:
    ``world.path(path[0], path[-1], via) == path``. ``path`` runs over adjacent areas."""
    if len(path) < 2:
        return []
    via: list[str] = []
    anchor = 0
    for i in range(1, len(path)):
        if world.path(path[anchor], path[i]) != list(path[anchor : i + 1]):
            via.append(path[i - 1])
            anchor = i - 1
    if world.path(path[0], path[-1], via) != list(path):
        return list(path[1:-1])  # ties broken another way: every area then
    return via


def locate(world: World, lon: float, lat: float) -> tuple[str, bool]:
    """The sea area at a point (and True), or the nearest one (and False) for a point on
    land: a base on the coast lies in the sea area of its nearest water."""
    best, best_d = "", math.inf
    for area in world.areas.values():
        ring = area.polygon
        for shift in (-360.0, 0.0, 360.0):
            x = lon + shift
            if _inside(ring, x, lat):
                return area.id, True
            d = _distance(ring, x, lat)
            if d < best_d:
                best, best_d = area.id, d
    return best, False


def _inside(ring: Sequence[tuple[float, float]], x: float, y: float) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in itertools.pairwise([*ring, ring[0]]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _distance(ring: Sequence[tuple[float, float]], x: float, y: float) -> float:
    """Degrees from a point to a ring's outline (longitude shrunk by the latitude)."""
    scale = max(math.cos(math.radians(y)), 0.05)
    best = math.inf
    for (x1, y1), (x2, y2) in itertools.pairwise([*ring, ring[0]]):
        ax, bx, px = x1 * scale, x2 * scale, x * scale
        dx, dy = bx - ax, y2 - y1
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (y - y1) * dy) / length))
        best = min(best, math.hypot(px - (ax + t * dx), y - (y1 + t * dy)))
    return best


# -- helpers ---------------------------------------------------------------------------------
def _drawable_route(world: World, route: Row, places: Sequence[Row]) -> bool:
    """Can the map draw this route: both ends among ``places`` and joined by sea?"""
    area = {b["id"]: b["sea_area"] for b in places}
    if route["origin"] not in area or route["destination"] not in area:
        return False
    if not all(v in world for v in route["via"]):
        return False
    try:
        world.path(area[route["origin"]], area[route["destination"]], route["via"])
    except NoSeaPath:
        return False
    return True


def _read_bytes(path: Path, limit: int, file: str, problems: list[Problem]) -> bytes | None:
    try:
        with path.open("rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        problems.append(Problem(file, 0, "", f"cannot be read: {exc.strerror or exc}"))
        return None
    if len(data) > limit:
        problems.append(Problem(file, 0, "", f"is more than {limit:,} bytes"))
        return None
    return data


def _records(schema: TableSchema, data: bytes, problems: list[Problem]) -> list[list[str]] | None:
    """A file's rows as text cells in the schema's column order, or None (and why) when
    they cannot be shown as such."""
    file = schema.file
    text, found = decode(data, file)
    if text is None:
        problems += found
        return None
    if not text.strip():
        return []
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        records = list(itertools.islice(reader, MAX_ROWS + 2))
    except csv.Error as exc:
        problems.append(Problem(file, reader.line_num, "", f"cannot be read as CSV: {exc}"))
        return None
    if len(records) > MAX_ROWS + 1:
        problems.append(Problem(file, 0, "", f"has more than {MAX_ROWS:,} rows"))
        return None
    header = [h.strip() for h in records[0]]
    unknown = [h for h in header if h not in schema.names]
    twice = {h for h in header if header.count(h) > 1}
    if unknown or twice:
        for name in unknown:
            problems.append(
                Problem(
                    file,
                    1,
                    name,
                    "is not a column of this file (the editor would lose it); valid: "
                    + ", ".join(schema.names),
                )
            )
        for name in sorted(twice):
            problems.append(Problem(file, 1, name, "appears twice in the header"))
        return None
    where = [header.index(n) if n in header else None for n in schema.names]
    rows: list[list[str]] = []
    for line, record in enumerate(records[1:], start=2):
        if not record or all(not c.strip() for c in record):
            continue
        if len(record) > len(header):
            problems.append(too_many_cells(file, line, len(record), len(header)))
            continue
        rows.append([record[i] if i is not None and i < len(record) else "" for i in where])
    return rows if not any(p.file == file for p in problems) else None


def _meta_text(data: bytes) -> tuple[dict[str, str], dict[str, str]] | Problem:
    """scenario.toml's settings as text (what the editor's form shows); its own problems
    are the validator's to name, once it is checked again."""
    try:
        raw = tomllib.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError, ValueError) as exc:
        return Problem(META_FILE, 0, "", f"cannot be read: {exc}; fix it in a text editor first")
    meta = {key: "" for key, *_ in META_KEYS}
    for key, value in raw.items():
        if key != "options":
            meta[key] = _as_text(value)
    options = raw.get("options", {})
    if not isinstance(options, dict):
        return Problem(META_FILE, 0, "options", "must be a [options] table")
    return meta, {name: _as_text(value) for name, value in options.items()}


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _option_value(name: str, text: str) -> Any:
    """An option's text as the TOML value it stands for (by the option's default's kind);
    text that is not one is written as text, for the loader to name."""
    option = RULE_OPTIONS.get(name)
    if option is None:
        return text
    if isinstance(option.default, bool):
        low = text.strip().lower()
        return {"true": True, "yes": True, "false": False, "no": False}.get(low, text)
    if isinstance(option.default, int) and INT_RE.fullmatch(text.strip()):
        return int(text)
    return text


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)


def _toml_key(name: str) -> str:
    return (
        name if name.replace("_", "").replace("-", "").isalnum() and name.isascii() else _toml(name)
    )


def _index(table: str, column: str) -> int:
    return SCHEMAS[table].names.index(column)


def _frozen(rows: Iterable[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(r) for r in rows)


def _ref_values(col: Column, text: str) -> list[str]:
    if col.kind == "idlist":
        return [p.strip() for p in text.split(";")]
    return [text.strip()]


def _renamed(col: Column, text: str, old: str, new: str) -> str:
    if col.kind == "idlist":
        return ";".join(new if p.strip() == old else p for p in text.split(";"))
    return new


def _is_id(text: str) -> bool:
    return ID_RE.match(text) is not None


def _fresh(stem: str, taken: set[str]) -> str:
    stem = "".join(c if c.isalnum() or c == "_" else "_" for c in stem.lower()) or "item"
    if not stem[0].isalpha():
        stem = f"x_{stem}"
    if stem not in taken:
        return stem
    for n in itertools.count(2):
        if f"{stem}_{n}" not in taken:
            return f"{stem}_{n}"
    raise AssertionError("unreachable")  # pragma: no cover


def coordinate(value: float) -> str:
    """A longitude or latitude as a scenario writes it: at most two decimals."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _short(text: str) -> str:
    return text if len(text) <= 30 else text[:29] + "…"


#: one record of each table, for messages and the Undo menu
SINGULAR = {
    "sea_areas": "sea area",
    "adjacency": "link",
    "nations": "nation",
    "bases": "base",
    "routes": "route",
    "units": "unit",
    "lsp": "LSP row",
    "lsp_supply": "LSP supply row",
    "air": "Air Points row",
    "air_ranges": "air range",
    "garrisons": "garrison",
    "flags": "flags row",
    "cards": "card",
    "shipyards": "shipyard",
    "production": "production row",
    "ships": "ship",
    "air_groups": "air group",
}


def _singular(table: str) -> str:
    return SINGULAR.get(table, table)


def _plural(table: str, count: int) -> str:
    word = _singular(table)
    return word if count == 1 else word + "s"
