"""The game file: one SQLite file, written through sqlite-utils, one transaction a change.

Layout (schema version :data:`SCHEMA_VERSION`, marked with ``PRAGMA application_id``):

* ``meta`` — key/value: the game's name, the scenario's ``scenario.toml``, the program
  version that wrote it;
* ``sc_<table>`` — the scenario's tables (``sc_units`` …), typed, in file order, so a game
  can be exported back to the scenario folder it came from;
* ``current`` — one row: the game state now (canonical JSON);
* ``turn_starts`` — the state at the start of every turn, so any earlier turn can be
  reopened;
* ``events`` and ``dice`` — the append-only event log and dice log.

The file is kept in rollback-journal mode with ``synchronous=FULL`` so a game is always
exactly one file, and an interrupted save leaves the state from before it. Save As and
backups go through SQLite's backup API into a temporary file that then replaces the
target; a live file is never copied.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import sqlite_utils

from . import __version__
from .csvdata import InputError, Problem, Row, Table, format_cell, parse_cell, value_ok
from .scenario import Scenario, parse_meta, scenario_from_tables
from .schemas import TABLES, TableSchema, table_name
from .state import GameState, initial_state

#: "SeaC" — marks a SQLite file as a Sea Control game.
APPLICATION_ID = 0x53656143
SCHEMA_VERSION = 2
SUFFIX = ".seacontrol"


class GameFileError(Exception):
    """A game file that cannot be opened or written, said in words for the user."""


def _add_land_map(db: sqlite_utils.Database) -> None:
    """1 → 2: bases say whether a Land Combat map covers them (002 "Amphibious
    Operations"); games begun before keep the default reading (an empty cell)."""
    db.execute("ALTER TABLE sc_bases ADD COLUMN land_map INTEGER")


#: Migrations from version N to N+1, each run in its own transaction. Version 0 is a file
#: created by sqlite but never given our schema (impossible from this program).
MIGRATIONS: dict[int, Callable[[sqlite_utils.Database], None]] = {1: _add_land_map}


def _sql_type(kind: str) -> type:
    return {"int": int, "decimal": float, "bool": int}.get(kind, str)


def _to_sql(schema: TableSchema, row: Row, order: int) -> dict[str, Any]:
    out: dict[str, Any] = {"row_order": order}
    for col in schema.columns:
        value = row[col.name]
        if col.kind == "idlist":
            value = ";".join(value) if value else None
        elif col.kind == "bool":
            value = None if value is None else int(value)
        out[col.name] = value
    return out


def _from_sql(schema: TableSchema, record: dict[str, Any]) -> Row:
    row: Row = {}
    for col in schema.columns:
        value = record[col.name]
        if col.kind == "idlist":
            value = value.split(";") if value else []
        elif col.kind == "bool":
            value = None if value is None else bool(value)
        row[col.name] = value
    return row


def _connect(path: Path) -> sqlite_utils.Database:
    conn = sqlite3.connect(str(path))
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA synchronous=FULL")
    return db


class GameFile:
    """An open game file. Use :meth:`create` or :meth:`open`, and :meth:`close` it."""

    def __init__(self, path: Path, db: sqlite_utils.Database, scenario: Scenario) -> None:
        self.path = path
        self.db = db
        self.scenario = scenario

    # -- making and opening ------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path, scenario: Scenario, name: str | None = None) -> GameFile:
        """A new game from ``scenario``, written to a temporary file that then becomes
        ``path`` (an existing file there is replaced only once the new one is complete)."""
        path = Path(path)
        state = initial_state(scenario)
        tmp = _temp_beside(path)
        try:
            db = _connect(tmp)
            db.execute("PRAGMA journal_mode=DELETE")
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            with db.atomic():
                _create_schema(db)
                meta = {
                    "name": name or scenario.meta.name,
                    "scenario_toml": scenario.meta.to_toml(),
                    "program_version": __version__,
                }
                db.table("meta").insert_all(
                    [{"key": k, "value": v} for k, v in meta.items()], pk="key"
                )
                for schema in TABLES:
                    rows = scenario.rows(table_name(schema))
                    db.table(f"sc_{table_name(schema)}").insert_all(
                        [_to_sql(schema, r, i) for i, r in enumerate(rows)]
                    )
                text = state.to_json()
                db.table("current").insert(
                    {"id": 1, "turn": state.turn, "step": state.step, "state": text}
                )
                db.table("turn_starts").insert({"turn": state.turn, "state": text})
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.close()
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        return cls.open(path)

    @classmethod
    def open(cls, path: str | Path) -> GameFile:
        """Open a game file, checking that it is ours, of a version we read, and intact.

        A file from a newer program is refused and left untouched; an older one is
        migrated, each step in its own transaction.
        """
        path = Path(path)
        if not path.is_file():
            raise GameFileError(f"{path}: no such game file")
        try:
            db = _connect(path)
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise GameFileError(f"{path}: not a Sea Control game file ({exc})") from None
        if app_id != APPLICATION_ID:
            db.close()
            raise GameFileError(f"{path}: not a Sea Control game file")
        if version > SCHEMA_VERSION:
            db.close()
            raise GameFileError(
                f"{path} was written by a newer Sea Control (game file version {version}); "
                f"this program reads versions up to {SCHEMA_VERSION}. Install a newer Sea "
                "Control to open it. The file has not been changed."
            )
        check = db.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            db.close()
            detail = "; ".join(str(r[0]) for r in check[:5])
            raise GameFileError(
                f"{path} is damaged ({detail}). Open a backup or an autosave instead."
            )
        db.execute("PRAGMA journal_mode=DELETE")
        while version < SCHEMA_VERSION:
            migrate = MIGRATIONS.get(version)
            if migrate is None:
                db.close()
                raise GameFileError(f"{path}: no migration from game file version {version}")
            with db.atomic():
                migrate(db)
                db.execute(f"PRAGMA user_version={version + 1}")
            version += 1
        try:
            scenario = _load_scenario(db, path)
        except InputError as exc:
            db.close()
            raise GameFileError(f"{path}: the scenario inside is invalid:\n{exc}") from None
        return cls(path, db, scenario)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> GameFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------
    @property
    def name(self) -> str:
        return str(self.db.table("meta").get("name")["value"])

    def state(self) -> GameState:
        """The game state now."""
        row = self.db.execute("SELECT state FROM current WHERE id = 1").fetchone()
        return GameState.from_json(row[0])

    def turn_start(self, turn: int) -> GameState:
        """The state at the start of ``turn`` (KeyError if that turn was never reached)."""
        row = self.db.execute("SELECT state FROM turn_starts WHERE turn = ?", [turn]).fetchone()
        if row is None:
            raise KeyError(turn)
        return GameState.from_json(row[0])

    def turns(self) -> list[int]:
        """Turns whose starting state is kept."""
        return [r[0] for r in self.db.execute("SELECT turn FROM turn_starts ORDER BY turn")]

    def events(self, turn: int | None = None) -> list[dict[str, Any]]:
        sql = "SELECT * FROM events"
        args: list[Any] = []
        if turn is not None:
            sql += " WHERE turn = ?"
            args.append(turn)
        return list(self.db.query(sql + " ORDER BY seq", args))

    # -- writing -----------------------------------------------------------------------
    def save(
        self,
        state: GameState,
        events: Sequence[dict[str, Any]] = (),
        dice: Sequence[dict[str, Any]] = (),
    ) -> None:
        """Write ``state`` (and append ``events`` and ``dice`` rows) in one transaction.

        If ``state`` starts a turn not seen before (step 0), its state is kept as that
        turn's start.
        """
        text = state.to_json()
        with self.db.atomic():
            self.db.table("current").update(
                1, {"turn": state.turn, "step": state.step, "state": text}
            )
            if state.step == 0:
                self.db.table("turn_starts").upsert({"turn": state.turn, "state": text}, pk="turn")
            if events:
                self.db.table("events").insert_all(list(events))
            if dice:
                self.db.table("dice").insert_all(list(dice))

    def reopen_turn(self, turn: int) -> GameState:
        """Make the start of ``turn`` the current state again (undo of whole turns).

        Later turn starts are dropped; the event and dice logs are append-only, so an
        event records the reopening and the rolls made since stay on record.
        """
        start = self.turn_start(turn)
        text = start.to_json()
        with self.db.atomic():
            self.db.table("current").update(1, {"turn": start.turn, "step": 0, "state": text})
            self.db.execute("DELETE FROM turn_starts WHERE turn > ?", [turn])
            self.db.table("events").insert(
                {
                    "turn": turn,
                    "step": 0,
                    "kind": "turn_reopened",
                    "nation": None,
                    "text": f"Turn {turn} reopened from its start.",
                    "visible": "",
                    "data": json.dumps({"turn": turn}),
                }
            )
        return start

    def orders(self, turn: int) -> dict[str, str]:
        """Nation → the orders JSON stored for ``turn``."""
        rows = self.db.query(
            "SELECT nation, data FROM orders WHERE turn = ? ORDER BY nation", [turn]
        )
        return {r["nation"]: r["data"] for r in rows}

    def set_orders(self, turn: int, nation: str, data: str | None) -> None:
        """Store (or with ``None`` remove) a nation's orders for ``turn``, in one transaction."""
        with self.db.atomic():
            self.db.execute("DELETE FROM orders WHERE turn = ? AND nation = ?", [turn, nation])
            if data is not None:
                self.db.table("orders").insert({"turn": turn, "nation": nation, "data": data})

    def dice_rows(self) -> list[dict[str, Any]]:
        return list(self.db.query("SELECT * FROM dice ORDER BY seq"))

    def meta(self, key: str, default: str = "") -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return str(row[0]) if row else default

    def set_meta(self, key: str, value: str) -> None:
        with self.db.atomic():
            self.db.table("meta").upsert({"key": key, "value": value}, pk="key")

    def save_as(self, target: str | Path) -> None:
        """Copy this game to ``target`` through the backup API; future saves go there."""
        target = Path(target)
        self.backup(target)
        self.db.close()
        self.path = target
        self.db = _connect(target)

    def backup(self, target: str | Path) -> None:
        """Write a consistent copy of this game to ``target`` (replaced only when complete)."""
        target = Path(target)
        tmp = _temp_beside(target)
        try:
            dest = sqlite3.connect(str(tmp))
            with dest:
                self.db.conn.backup(dest)
            dest.execute("PRAGMA journal_mode=DELETE")
            dest.close()
            _fsync(tmp)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise


def _create_schema(db: sqlite_utils.Database) -> None:
    db.table("meta").create({"key": str, "value": str}, pk="key")
    for schema in TABLES:
        columns: dict[str, Any] = {"row_order": int}
        columns.update({c.name: _sql_type(c.kind) for c in schema.columns})
        db.table(f"sc_{table_name(schema)}").create(columns, pk="row_order")
    db.table("current").create({"id": int, "turn": int, "step": int, "state": str}, pk="id")
    db.table("turn_starts").create({"turn": int, "state": str}, pk="turn")
    db.table("events").create(
        {
            "seq": int,
            "turn": int,
            "step": int,
            "kind": str,
            "nation": str,
            "text": str,
            "visible": str,
            "data": str,
        },
        pk="seq",
    )
    db.table("orders").create({"turn": int, "nation": str, "data": str}, pk=("turn", "nation"))
    db.table("dice").create(
        {
            "seq": int,
            "turn": int,
            "step": int,
            "purpose": str,
            "sides": int,
            "value": int,
            "source": str,
            "reason": str,
            "prev_hash": str,
            "hash": str,
        },
        pk="seq",
    )


def _load_scenario(db: sqlite_utils.Database, path: Path) -> Scenario:
    meta_row = db.table("meta").get("scenario_toml")
    meta, problems = parse_meta(str(meta_row["value"]).encode("utf-8"), "scenario.toml")
    tables: dict[str, Table] = {}
    for schema in TABLES:
        name = table_name(schema)
        table = Table(schema)
        for record in db.query(f"SELECT * FROM sc_{name} ORDER BY row_order"):
            row = _from_sql(schema, record)
            bad = _recheck(schema, row, name, record["row_order"])
            problems += bad
            if not bad:
                table.rows.append(row)
                table.line_of.append(record["row_order"] + 2)
        tables[name] = table
    return scenario_from_tables(meta, tables, problems)


def _recheck(schema: TableSchema, row: Row, name: str, order: int) -> list[Problem]:
    """Check cells read from the file as strictly as cells read from a CSV (a typed value
    that is plainly fine is not turned into text and parsed again: a tenth of the cost)."""
    problems = []
    for col in schema.columns:
        value = row[col.name]
        if value_ok(col, value):
            continue
        message = parse_cell(col, format_cell(col, value))[1]
        if message:
            problems.append(Problem(f"sc_{name}", order + 2, col.name, message))
    return problems


def _temp_beside(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    os.unlink(name)
    return Path(name)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def opened(path: str | Path) -> Iterator[GameFile]:
    """``with opened(path) as game:`` — open and always close."""
    game = GameFile.open(path)
    try:
        yield game
    finally:
        game.close()
