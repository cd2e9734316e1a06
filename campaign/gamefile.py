"""The game file: one SQLite file, written through sqlite-utils, one transaction a change.

Layout (schema version :data:`SCHEMA_VERSION`, marked with ``PRAGMA application_id``):

* ``meta`` — key/value: the game's name, the scenario's ``scenario.toml``, the program
  version that wrote it, the seed, the seat codes;
* ``sc_<table>`` — the scenario's tables (``sc_units`` …), typed, in file order, so a game
  can be exported back to the scenario folder it came from;
* ``current`` — one row: the game state now (canonical JSON);
* ``turn_starts`` — the state at the start of every turn, so any earlier turn can be
  reopened;
* ``orders`` — each nation's orders (and choices) for each turn;
* ``events`` and ``dice`` — the append-only event log and dice log;
* ``chain`` and ``seal`` — tamper evidence over all of the above (:mod:`campaign.seal`).

The file is kept in rollback-journal mode with ``synchronous=FULL`` so a game is always
exactly one file, and an interrupted save leaves the state from before it. Save As and
backups go through SQLite's backup API into a temporary file that then replaces the
target; a live file is never copied. New files are readable by their owner only; a file
replaced keeps its mode.

A file is opened only if it is exactly what this program writes (docs/game-file.md): an
SQLite file whose length is whole pages, holding our tables with our columns and nothing
else (no trigger or view could run inside the program), whose records match its seal, and
whose scenario and state pass the checks any file from outside would.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import json
import os
import re
import sqlite3
import stat
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from . import seal as sealing
from .csvdata import (
    InputError,
    Problem,
    Row,
    Table,
    duplicate_keys,
    format_cell,
    parse_cell,
    value_ok,
)
from .dice import Roll, verify_chain
from .events import Event
from .orders import LIMITS as ORDERS_LIMITS
from .scenario import Scenario, parse_meta, scenario_from_tables
from .schemas import TABLES, TableSchema, table_name
from .seal import Integrity, Link, Seal, TableDigest
from .state import GameState, initial_state, read_state
from .untrusted import JsonInputError, kind_of, read_json, shown

if TYPE_CHECKING:
    import sqlite_utils

#: "SeaC" — marks a SQLite file as a Sea Control game.
APPLICATION_ID = 0x53656143
SCHEMA_VERSION = 3
SUFFIX = ".seacontrol"
#: seconds to wait for another program's transaction before saying the file is in use
BUSY_TIMEOUT = 5.0
#: a temporary file of ours older than this (seconds), and held by no program, is left
#: over from a program that was stopped mid-write
STALE_TEMP_SECONDS = 600
#: the oldest version this program opens (and migrates)
OLDEST_VERSION = 1


class GameFileError(Exception):
    """A game file that cannot be opened or written, said in words for the user."""


def _add_land_map(db: sqlite_utils.Database) -> None:
    """1 → 2: bases say whether a Land Combat map covers them (002 "Amphibious
    Operations"); games begun before keep the default reading (an empty cell)."""
    db.execute("ALTER TABLE sc_bases ADD COLUMN land_map INTEGER")


def _add_seal(db: sqlite_utils.Database) -> None:
    """2 → 3: the chain and the seal (docs/game-file.md). The file is sealed as it is when
    first opened by this program, and the log says so (:meth:`GameFile._seal_notes`)."""
    _create_seal_tables(db)


#: Migrations from version N to N+1, each run in its own transaction (with the file sealed
#: again afterwards). Version 0 is a file created by sqlite but never given our schema
#: (impossible from this program).
MIGRATIONS: dict[int, Callable[[sqlite_utils.Database], None]] = {1: _add_land_map, 2: _add_seal}
#: what came later than version 1: table → version, (table, column) → version
ADDED_TABLES = {"chain": 3, "seal": 3}
ADDED_COLUMNS = {("sc_bases", "land_map"): 2}
#: how each table's rows are ordered for the seal (its primary key); the logs only grow
ROW_ORDER = {"meta": "[key]", "current": "id", "turn_starts": "turn", "events": "seq"}
ROW_ORDER |= {"orders": "turn, nation", "dice": "seq", "chain": "link", "seal": "id"}
APPEND_ONLY = ("events", "dice")
REQUIRED_META = ("name", "scenario_toml", "program_version")
UNSEALED = ("chain", "seal")  # the seal's own tables: they check themselves


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
            value = str(value).split(";") if value else []
        elif col.kind == "bool" and isinstance(value, int):
            value = bool(value)
        row[col.name] = value
    return row


def _database(conn: sqlite3.Connection | None = None) -> sqlite_utils.Database:
    """sqlite-utils over ``conn`` (None: a database in memory), with no plugins: whatever
    the machine has installed does not run inside a game file's connection (and looking
    for them cost a tenth of the app's start-up). sqlite-utils is imported here, when a
    game file is first opened or made: a command that opens none (the odds, the
    calculator) never loads it."""
    import sqlite_utils

    if conn is None:
        return sqlite_utils.Database(memory=True, execute_plugins=False)
    return sqlite_utils.Database(conn, execute_plugins=False)


def _connect(path: Path) -> sqlite_utils.Database:
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT)
    db = _database(conn)
    db.execute("PRAGMA synchronous=FULL")
    return db


#: what opening a file can raise besides SQLite's own errors: a file damaged in its schema
#: makes SQLite's message quote the damaged bytes, which Python cannot decode as text
_OPEN_ERRORS = (sqlite3.Error, UnicodeDecodeError)


def _file_error(path: Path, exc: sqlite3.Error | UnicodeDecodeError) -> GameFileError:
    """What SQLite said about ``path``, in words for the user."""
    if isinstance(exc, UnicodeDecodeError):
        return GameFileError(
            f"{path} is damaged (its table definitions are not readable text). Open a "
            "backup or an autosave instead."
        )
    text = str(exc)
    if "locked" in text or "busy" in text:
        return GameFileError(
            f"{path} is in use by another program (it holds the file locked); try again "
            "when that program has finished, or close it. Nothing was changed."
        )
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return GameFileError(f"{path} cannot be opened or written ({text}); nothing was changed.")
    if "not a database" in text:
        return GameFileError(f"{path}: not a Sea Control game file (not an SQLite database)")
    if "full" in text:
        return GameFileError(f"{path}: the disk is full; nothing was changed.")
    return GameFileError(f"{path} is damaged ({text}). Open a backup or an autosave instead.")


class _Digests:
    """The seal's digest of every table, kept up to date as the file is written."""

    def __init__(self, db: sqlite_utils.Database, tables: Iterable[str]) -> None:
        self.db = db
        self.tables: dict[str, TableDigest] = {}
        for name in tables:
            self.read(name)

    def read(self, name: str) -> None:
        order = ROW_ORDER.get(name, "row_order")
        cursor = self.db.conn.execute(f"SELECT * FROM [{name}] ORDER BY {order}")
        digest = TableDigest(name, [c[0] for c in cursor.description])
        self.tables[name] = digest
        self._feed(name, cursor.fetchall())

    def refresh(self, names: Iterable[str]) -> None:
        """Read again the tables a write touched (the logs: only their new rows)."""
        for name in set(names):
            if name in APPEND_ONLY:
                after = self.tables[name].last or 0
                sql = f"SELECT * FROM [{name}] WHERE seq > ? ORDER BY seq"
                self._feed(name, self.db.conn.execute(sql, [after]).fetchall())
            else:
                self.read(name)

    def _feed(self, name: str, rows: list[Any]) -> None:
        digest = self.tables[name]
        digest.feed(rows)
        if rows and name in APPEND_ONLY:
            digest.last = rows[-1][0]

    def hexdigests(self) -> dict[str, str]:
        return {name: d.hexdigest() for name, d in self.tables.items()}


class GameFile:
    """An open game file. Use :meth:`create` or :meth:`open`, and :meth:`close` it.

    ``integrity`` says what checking the file's seal found when it was opened (and, after
    each write, that this machine sealed it)."""

    def __init__(
        self, path: Path, db: sqlite_utils.Database, scenario: Scenario | None = None
    ) -> None:
        self.path = path
        self.db = db
        self._scenario = scenario
        self.integrity = Integrity(sealing.UNKEYED)
        self._digests = _Digests(db, ())
        self._checked_state: str | None = None  # the last state text read or written whole
        self._seen = 0  # SQLite's data_version when this one last read or wrote the file
        self._reason = ""  # Game Control's words when accepting an altered file

    @property
    def scenario(self) -> Scenario:
        """The scenario inside the file (read, and checked, when it was opened)."""
        if self._scenario is None:
            raise GameFileError(f"{self.path}: its scenario has not been read")
        return self._scenario

    # -- making and opening ------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path, scenario: Scenario, name: str | None = None) -> GameFile:
        """A new game from ``scenario``, written to a temporary file that then becomes
        ``path`` (an existing file there is replaced only once the new one is complete, and
        its mode kept; a new file is readable by its owner only). It is returned open on
        ``path``, playing ``scenario`` itself: what was written is not read back and
        checked again (the file holds exactly its rows, and :meth:`open` reads them so)."""
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
                game = cls(tmp, db, scenario)
                game.integrity = Integrity(
                    sealing.SEALED, key_id=sealing.key_id(sealing.machine_key())
                )
                game._digests = _Digests(db, _sealed_tables(db))
                game.integrity = game._seal(())
            db.close()
            _replace(tmp, path)
        except BaseException:
            _remove(tmp)
            raise
        try:
            game.db = game._digests.db = _connect(path)
            game.db.execute("PRAGMA journal_mode=DELETE")
        except sqlite3.Error as exc:
            raise _file_error(path, exc) from None
        game.path = path
        game._checked_state = text
        game._seen = game._data_version()
        return game

    @classmethod
    def open(cls, path: str | Path, altered_ok: bool = False) -> GameFile:
        """Open a game file, checking that it is ours, of a version we read, laid out as we
        write it, intact, and as sealed (:mod:`campaign.seal`).

        A file changed outside Sea Control is refused unless ``altered_ok`` (the app shows
        it with a warning; :attr:`integrity` says what was found, and the first write logs
        it). A file from a newer program is refused and left untouched; an older one is
        migrated, each step in its own transaction.
        """
        path = Path(path)
        if not path.is_file():
            raise GameFileError(f"{path}: no such game file")
        _clean_stale_temps(path)
        if not Path(f"{path}-journal").exists():  # else SQLite first rolls back a hot journal
            _check_length(path)
        try:
            db = _connect(path)
        except _OPEN_ERRORS as exc:
            raise _file_error(path, exc) from None
        try:
            return cls._checked(path, db, altered_ok)
        except _OPEN_ERRORS as exc:
            db.close()
            raise _file_error(path, exc) from None
        except BaseException:
            db.close()
            raise

    @classmethod
    def _checked(cls, path: Path, db: sqlite_utils.Database, altered_ok: bool) -> GameFile:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise GameFileError(f"{path}: not a Sea Control game file")
        if version > SCHEMA_VERSION:
            raise GameFileError(
                f"{path} was written by a newer Sea Control (game file version {version}); "
                f"this program reads versions up to {SCHEMA_VERSION}. Install a newer Sea "
                "Control to open it. The file has not been changed."
            )
        _check_length(path)
        check = db.execute("PRAGMA integrity_check").fetchall()
        if check != [("ok",)]:
            detail = "; ".join(str(r[0]) for r in check[:5])
            raise GameFileError(
                f"{path} is damaged ({detail}). Open a backup or an autosave instead."
            )
        _check_schema(db, path, version)
        game = cls(path, db)
        game._digests = _Digests(db, _sealed_tables(db))
        game.integrity = game._verify() if version >= 3 else Integrity(sealing.ALTERED)
        if game.integrity.altered and version >= 3 and not altered_ok:
            raise GameFileError(f"{path}: {game.integrity.summary()}")
        game._seen = game._data_version()
        try:
            game._read_all(version)
        except GameFileError as exc:
            if game.integrity.altered and game.integrity.problems:
                raise GameFileError(
                    f"{exc}\n(The seal found it changed outside Sea Control: "
                    + "; ".join(game.integrity.problems)
                    + ".)"
                ) from None
            raise
        return game

    def _read_all(self, version: int) -> None:
        """Migrate an older file, then read its scenario and state (checked) and every
        other record, as the program reads them: even one this machine sealed last, whose
        damaged record (a program's fault, or a hand holding this machine's key) would
        otherwise break a report or a team's view in the middle of the game."""
        self.db.execute("PRAGMA journal_mode=DELETE")
        while version < SCHEMA_VERSION:
            with self._writing(migrating=version + 1):
                MIGRATIONS[version](self.db)
                self.db.execute(f"PRAGMA user_version={version + 1}")
            version += 1
        try:
            self._scenario = _load_scenario(self.db)
        except InputError as exc:
            raise GameFileError(f"{self.path}: the scenario inside is invalid:\n{exc}") from None
        self.state()
        if problems := self.unreadable(again=False):
            raise GameFileError(f"{self.path} is damaged: " + "; ".join(problems[:8]))

    def _verify(self) -> Integrity:
        links = [
            Link(int(r[0]), str(r[1]), str(r[2]))
            for r in self.db.execute("SELECT link, digest, head FROM chain ORDER BY link")
        ]
        rows = self.db.execute("SELECT id, link, head, key_id, mac, tables FROM seal").fetchall()
        found = None
        if len(rows) == 1 and rows[0][0] == 1:  # one seal, and only one
            try:
                tables = json.loads(rows[0][5])
                if isinstance(tables, dict):
                    _id, link, head, kid, mac, _tables = rows[0]
                    found = Seal(int(link), str(head), str(kid), str(mac), tables)
            except (TypeError, ValueError):
                found = None
        return sealing.verify(links, found, self._digests.hexdigests(), sealing.machine_key())

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> GameFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.meta("name", self.scenario.meta.name)

    def state(self) -> GameState:
        """The game state now."""
        row = self.db.execute("SELECT state FROM current WHERE id = 1").fetchone()
        if row is None:
            raise GameFileError(f"{self.path} is damaged: it holds no current state")
        return self._read_state(row[0], "the current state")

    def turn_start(self, turn: int) -> GameState:
        """The state at the start of ``turn`` (KeyError if that turn was never reached)."""
        row = self.db.execute("SELECT state FROM turn_starts WHERE turn = ?", [turn]).fetchone()
        if row is None:
            raise KeyError(turn)
        return self._read_state(row[0], f"the state at the start of turn {turn}")

    def _read_state(self, text: object, what: str) -> GameState:
        if isinstance(text, str) and text == self._checked_state:
            return GameState.from_json(text)
        if not isinstance(text, str):
            raise GameFileError(f"{self.path} is damaged: {what} is not text")
        try:
            state = read_state(text, self.scenario)
        except ValueError as exc:
            raise GameFileError(f"{self.path} is damaged: {what} {exc}") from None
        self._checked_state = text
        return state

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

    def log_mark(self) -> tuple[int, int]:
        """(rows, last seq) of the event log: changes whenever an event is written, so a
        reader can keep the parsed log until it does."""
        rows, last = self.db.execute(
            "SELECT count(*), coalesce(max(seq), 0) FROM events"
        ).fetchone()
        return int(rows), int(last)

    def log(self) -> list[Event]:
        """The whole event log, oldest first, as events (a row that cannot be read is
        said in words)."""
        out = []
        for row in self.events():
            try:
                out.append(Event.from_row(row))
            except (TypeError, ValueError, KeyError, AttributeError, RecursionError):
                seq = row.get("seq")
                raise GameFileError(f"{self.path} is damaged: event {seq} cannot be read") from None
        return out

    def chain_head(self) -> tuple[int, str]:
        """The last link's number and head: what reports and team packs print."""
        return self.integrity.link, self.integrity.head

    def chain(self) -> list[str]:
        """Every head of the chain, oldest first (a printed head can be looked up)."""
        return [str(r[0]) for r in self.db.execute("SELECT head FROM chain ORDER BY link")]

    def check(self) -> list[str]:
        """Everything ``validate`` looks at beyond what opening checks: every record read
        as the program would read it (:meth:`unreadable`), and the dice chain."""
        problems = self.unreadable()
        try:
            rolls = [Roll(**{k: r[k] for k in Roll.__dataclass_fields__}) for r in self.dice_rows()]
            problems += [f"dice log: {p}" for p in verify_chain(rolls)]
        except (TypeError, KeyError):
            problems.append("the dice log cannot be read")
        return problems

    def unreadable(self, again: bool = True) -> list[str]:
        """Records the program could not read: the meta it needs, every turn's starting
        state, every orders record, every event (``again``: the current state read with
        suspicion again, not taken as checked when this file was opened)."""
        problems = [f"its meta table has no '{k}'" for k in REQUIRED_META if not self.meta(k)]
        if again:
            self._checked_state = None
        try:
            self.state()
        except GameFileError as exc:
            problems.append(str(exc).removeprefix(f"{self.path} is damaged: "))
        for turn in self.turns():
            try:
                self.turn_start(turn)
            except GameFileError as exc:
                problems.append(str(exc).removeprefix(f"{self.path} is damaged: "))
        for turn, nation, data in self.db.execute("SELECT turn, nation, data FROM orders"):
            where = f"the orders of {shown(nation)} for turn {shown(turn)}"
            try:
                value, found = read_json(str(data), ORDERS_LIMITS)
            except JsonInputError as exc:
                problems.append(f"{where}: {exc}")
                continue
            if found or not isinstance(value, dict):
                problems.append(f"{where} are not an orders object within the limits")
        try:
            self.log()
        except GameFileError as exc:
            problems.append(str(exc).removeprefix(f"{self.path} is damaged: "))
        return problems

    # -- writing -----------------------------------------------------------------------
    @contextlib.contextmanager
    def _writing(self, *tables: str, migrating: int = 0) -> Iterator[None]:
        """One transaction that ends by sealing what it wrote (``tables``: those it
        touched). It takes the file's write lock first, and if another program wrote the
        file since this one last read or sealed it (the seat server beside the app, a
        ``seacontrol-cli`` command, a hand with ``sqlite3``), the file is read afresh and its
        seal checked as found before this write seals it again. A file in use by another
        program is reported in words."""
        try:
            with self._transaction():
                if not migrating:
                    self._catch_up()
                yield
                if migrating and migrating < 3:
                    sealed = None
                else:
                    if migrating:  # a migration may touch any table
                        self._digests = _Digests(self.db, _sealed_tables(self.db))
                    sealed = self._seal(tables)
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                self._digests = _Digests(self.db, _sealed_tables(self.db))
            if isinstance(exc, sqlite3.Error):
                raise _file_error(self.path, exc) from None
            raise
        if sealed is not None:
            self.integrity = sealed
        self._seen = self._data_version()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (the write lock taken before anything is read),
        or a savepoint inside a caller's own transaction."""
        conn = self.db.conn
        if conn.in_transaction:
            with self.db.atomic():
                yield
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.rollback()
            raise

    def _data_version(self) -> int:
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    def _catch_up(self) -> None:
        """Another connection committed to the file (SQLite's ``data_version`` moved), or a
        caller's transaction holding this one's last write was rolled back (the chain does
        not end where this one left it): read every table again and check the seal."""
        tail = self.db.execute("SELECT link, head FROM chain ORDER BY link DESC LIMIT 1")
        ends = tail.fetchone()
        known = (self.integrity.link, self.integrity.head)
        if self._data_version() == self._seen and (ends is None or tuple(ends) == known):
            return
        self._digests = _Digests(self.db, _sealed_tables(self.db))
        self.integrity = self._verify()

    def _seal(self, tables: Sequence[str]) -> Integrity:
        """Append a link for the file as it now is and seal it with this machine's key;
        first log what the seal found before, if it was not this machine's."""
        key = sealing.machine_key()
        notes = self._seal_notes(sealing.key_id(key))
        if notes:
            where = self.db.execute("SELECT turn, step FROM current WHERE id = 1").fetchone()
            turn, step = where if where is not None else (0, 0)
            rows = [Event(turn, step, kind, text, data=data).row() for kind, text, data in notes]
            self.db.table("events").insert_all(rows)
            tables = (*tables, "events")
        self._digests.refresh(tables)
        digests = self._digests.hexdigests()
        link = self.integrity.link + 1
        head = sealing.next_head(self.integrity.head, link, sealing.content_digest(digests))
        self.db.table("chain").insert(
            {"link": link, "digest": sealing.content_digest(digests), "head": head}
        )
        kid = sealing.key_id(key)
        self.db.table("seal").upsert(
            {
                "id": 1,
                "link": link,
                "head": head,
                "key_id": kid,
                "mac": sealing.mac(key, link, head) if key is not None else "",
                "tables": sealing.tables_text(digests),
            },
            pk="id",
        )
        return Integrity(sealing.SEALED if key is not None else sealing.UNKEYED, link, head, kid)

    def _seal_notes(self, kid: str) -> list[tuple[str, str, dict[str, Any]]]:
        """Events for the log when this machine seals a file it did not seal last: every
        team's report then shows that the file was altered, first sealed, or carried on
        with another key."""
        found = self.integrity
        reason = f" Game Control: {self._reason}" if self._reason else ""
        if found.altered and found.link == 0:
            text = (
                "The game file is sealed for the first time: it was written by an earlier "
                "Sea Control, or its seal was removed; nothing before this point was sealed."
            )
            return [("file_sealed", text + reason, {})]
        if found.altered:
            text = (
                "The game file was found changed outside Sea Control ("
                + "; ".join(found.problems)
                + "), and play carried on from it as it was."
            )
            return [("file_altered", text + reason, {"problems": list(found.problems)})]
        if found.key_id != kid:
            old, new = found.key_id or "none", kid or "none"
            text = (
                f"The game file was last sealed with another key ({old}); from here on it "
                f"is sealed with this machine's ({new})."
            )
            return [("seal_key_changed", text + reason, {"from": old, "to": new})]
        return []

    def reseal(self, reason: str) -> Integrity:
        """Accept the file as it is (Game Control's decision, in ``reason``): the log
        records what the seal found and the file is sealed here again."""
        self._reason = reason
        try:
            with self._writing():
                pass
        finally:
            self._reason = ""
        return self.integrity

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
        touched = ("current", "events", "dice", *(("turn_starts",) if state.step == 0 else ()))
        with self._writing(*touched):
            self.db.table("current").update(
                1, {"turn": state.turn, "step": state.step, "state": text}
            )
            if state.step == 0:
                self.db.table("turn_starts").upsert({"turn": state.turn, "state": text}, pk="turn")
            if events:
                self.db.table("events").insert_all(list(events))
            if dice:
                self.db.table("dice").insert_all(list(dice))
        self._checked_state = text

    def reopen_turn(self, turn: int) -> GameState:
        """Make the start of ``turn`` the current state again (undo of whole turns).

        Later turn starts and later turns' orders are dropped (this turn's are kept, to be
        changed or resolved again); the event and dice logs are append-only, so an event
        records the reopening and the rolls made since stay on record.
        """
        start = self.turn_start(turn)
        text = start.to_json()
        with self._writing("current", "turn_starts", "orders", "events"):
            self.db.table("current").update(1, {"turn": start.turn, "step": 0, "state": text})
            self.db.execute("DELETE FROM turn_starts WHERE turn > ?", [turn])
            self.db.execute("DELETE FROM orders WHERE turn > ?", [turn])
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
        self._checked_state = text
        return start

    def orders(self, turn: int) -> dict[str, str]:
        """Nation → the orders JSON stored for ``turn``."""
        rows = self.db.query(
            "SELECT nation, data FROM orders WHERE turn = ? ORDER BY nation", [turn]
        )
        return {r["nation"]: r["data"] for r in rows}

    def set_orders(self, turn: int, nation: str, data: str | None) -> None:
        """Store (or with ``None`` remove) a nation's orders for ``turn``, in one transaction."""
        with self._writing("orders"):
            self.db.execute("DELETE FROM orders WHERE turn = ? AND nation = ?", [turn, nation])
            if data is not None:
                self.db.table("orders").insert({"turn": turn, "nation": nation, "data": data})

    def dice_rows(self) -> list[dict[str, Any]]:
        return list(self.db.query("SELECT * FROM dice ORDER BY seq"))

    def meta(self, key: str, default: str = "") -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return str(row[0]) if row else default

    def set_meta(self, key: str, value: str) -> None:
        with self._writing("meta"):
            self.db.table("meta").upsert({"key": key, "value": value}, pk="key")

    def save_as(self, target: str | Path) -> None:
        """Copy this game to ``target`` through the backup API; future saves go there."""
        target = Path(target)
        self.backup(target)
        self.db.close()
        self.path = target
        self.db = _connect(target)
        self._digests.db = self.db

    def backup(self, target: str | Path) -> None:
        """Write a consistent copy of this game to ``target`` (replaced only when complete,
        keeping its mode; a new file is readable by its owner only)."""
        target = Path(target)
        tmp = _temp_beside(target)
        try:
            dest = sqlite3.connect(str(tmp))
            with dest:
                self.db.conn.backup(dest)
            dest.execute("PRAGMA journal_mode=DELETE")
            dest.close()
            _fsync(tmp)
            _replace(tmp, target)
        except BaseException:
            _remove(tmp)
            raise


# -- the layout -------------------------------------------------------------------------------
def _create_schema(db: sqlite_utils.Database, version: int = SCHEMA_VERSION) -> None:
    """The tables of a game file of ``version`` (older ones: to know them when opened)."""
    db.table("meta").create({"key": str, "value": str}, pk="key")
    for schema in TABLES:
        name = f"sc_{table_name(schema)}"
        columns: dict[str, Any] = {"row_order": int}
        columns.update(
            {
                c.name: _sql_type(c.kind)
                for c in schema.columns
                if ADDED_COLUMNS.get((name, c.name), 1) <= version
            }
        )
        db.table(name).create(columns, pk="row_order")
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
    if ADDED_TABLES["seal"] <= version:
        _create_seal_tables(db)


def _create_seal_tables(db: sqlite_utils.Database) -> None:
    db.table("chain").create({"link": int, "digest": str, "head": str}, pk="link")
    db.table("seal").create(
        {"id": int, "link": int, "head": str, "key_id": str, "mac": str, "tables": str},
        pk="id",
    )


def _sealed_tables(db: sqlite_utils.Database) -> list[str]:
    names = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    return [n for (n,) in names if n not in UNSEALED]


#: what a schema is compared by: (type, name, table, its SQL without quotes, case or spaces)
SchemaItem = tuple[str, str, str, str]


def _schema_of(db: sqlite_utils.Database) -> frozenset[SchemaItem]:
    rows = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    return frozenset((str(t), str(n), str(tb), _bare_sql(s)) for t, n, tb, s in rows)


def _bare_sql(sql: object) -> str:
    """SQL as compared: quotes, brackets, spaces and case left out (older sqlite-utils
    quoted names differently; ``ALTER TABLE`` writes its column its own way)."""
    return re.sub(r'[\s"\[\]`]+', "", str(sql or "")).lower()


@functools.cache
def _accepted_schemas(version: int) -> tuple[frozenset[SchemaItem], ...]:
    """The layouts a file of ``version`` may have: written new at that version, or written
    at an older one and migrated."""
    out = []
    for start in range(OLDEST_VERSION, version + 1):
        db = _database()
        _create_schema(db, start)
        for step in range(start, version):
            MIGRATIONS[step](db)
        out.append(_schema_of(db))
        db.close()
    return tuple(out)


def _check_schema(db: sqlite_utils.Database, path: Path, version: int) -> None:
    """Refuse a file whose tables are not exactly ours: nothing missing, no column more or
    less, and no trigger, view or index of anyone else's (a trigger would run inside this
    program: issue 12 found one that emptied the event log on every save)."""
    found = _schema_of(db)
    if version < OLDEST_VERSION:
        if not any(t == "table" for t, *_ in found):
            raise GameFileError(
                f"{path} carries Sea Control's mark but holds no game (no tables at all)"
            )
        raise GameFileError(f"{path}: game file version {version} is not one Sea Control wrote")
    accepted = _accepted_schemas(version)
    if found in accepted:
        return
    expected = min(accepted, key=lambda a: len(a ^ found))
    want = {(t, n): sql for t, n, _tb, sql in expected}
    have = {(t, n): sql for t, n, _tb, sql in found}
    faults = [
        f"{_a(t)} {shown(n)} of another program" for t, n in sorted(have.keys() - want.keys())
    ]
    faults += [f"no {t} '{n}'" for t, n in sorted(want.keys() - have.keys())]
    for t, n in sorted(want.keys() & have.keys()):
        if want[t, n] != have[t, n]:
            faults.append(
                f"the {t} '{n}' is not laid out as Sea Control writes it"
                + (_columns(db, n, version) if t == "table" else "")
            )
    raise GameFileError(
        f"{path} is not a game file as Sea Control writes it: {'; '.join(faults[:8])}. "
        "It is not opened: a game file holds Sea Control's own tables and nothing else."
    )


def _a(kind: str) -> str:
    return f"an {kind}" if kind[:1] in "aeiou" else f"a {kind}"


def _columns(db: sqlite_utils.Database, table: str, version: int) -> str:
    """`` (no column x; a column y of another program)`` — when a table's columns differ."""
    have = [str(r[1]) for r in db.execute(f"PRAGMA table_xinfo([{table}])")]
    want = _expected_columns(version).get(table, [])
    parts = []
    if missing := [c for c in want if c not in have]:
        parts.append("no column " + ", ".join(missing))
    if extra := [shown(c) for c in have if c not in want]:
        parts.append("a column " + ", ".join(extra) + " of another program")
    return f" ({'; '.join(parts)})" if parts else ""


@functools.cache
def _expected_columns(version: int) -> dict[str, list[str]]:
    db = _database()
    _create_schema(db, version)
    return {t.name: list(t.columns_dict) for t in db.tables}


def _check_length(path: Path) -> None:
    """A file of SQLite pages: cut short or added to, it is damaged, even where SQLite's
    own checks read what is left without complaint."""
    with path.open("rb") as f:
        header = f.read(100)
    size = path.stat().st_size
    if size == 0 or not header.startswith(b"SQLite format 3\0"):
        raise GameFileError(f"{path}: not a Sea Control game file (not an SQLite database)")
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    if len(header) < 100 or page < 512 or page & (page - 1):
        raise GameFileError(f"{path} is damaged (its header is not an SQLite header)")
    if size % page:
        raise GameFileError(
            f"{path} is damaged: it is {size:,} bytes long, not a whole number of its "
            f"{page:,}-byte pages (cut short, or added to). Open a backup instead."
        )
    pages = int.from_bytes(header[28:32], "big")
    if header[24:28] == header[92:96] and pages * page != size:
        raise GameFileError(
            f"{path} is damaged: its header says {pages:,} pages, the file holds "
            f"{size // page:,} (cut short, or added to). Open a backup instead."
        )


def _load_scenario(db: sqlite_utils.Database) -> Scenario:
    meta_row = db.execute("SELECT value FROM meta WHERE key = 'scenario_toml'").fetchone()
    if meta_row is None:
        raise InputError([Problem("meta", 0, "scenario_toml", "is missing")])
    meta, problems = parse_meta(str(meta_row[0]).encode("utf-8", "surrogatepass"), "scenario.toml")
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
        problems += duplicate_keys(schema, table, f"sc_{name}")
        tables[name] = table
    return scenario_from_tables(meta, tables, problems)


def _recheck(schema: TableSchema, row: Row, name: str, order: int) -> list[Problem]:
    """Check cells read from the file as strictly as cells read from a CSV (a typed value
    that is plainly fine is not turned into text and parsed again: a tenth of the cost).
    A cell of the wrong type that reads well as text (``'3'`` in a column of numbers) is
    kept as the value it reads as."""
    problems = []
    for col in schema.columns:
        value = row[col.name]
        if value_ok(col, value):
            continue
        try:
            if col.kind == "bool" and value is not None:
                raise TypeError("a yes or no is kept as 1 or 0")
            text = format_cell(col, value)
        except (TypeError, ValueError, OverflowError):
            message: str | None = f"holds {kind_of(value)}, not a value of kind {col.kind}"
        else:
            row[col.name], message = parse_cell(col, text)
        if message:
            problems.append(Problem(f"sc_{name}", order + 2, col.name, message))
    return problems


def _temp_beside(path: Path) -> Path:
    """An empty file beside ``path`` for a new copy to be written to, readable by its owner
    only from the start (a team's secrets are never world-readable, even for a moment);
    stale ones left by stopped programs are cleared first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _clean_stale_temps(path)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    return Path(name)


def _replace(tmp: Path, target: Path) -> None:
    """``tmp`` becomes ``target``, with the mode ``target`` had (owner only if new)."""
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o600
    os.chmod(tmp, mode)
    os.replace(tmp, target)


def _remove(path: Path) -> None:
    for p in (path, Path(f"{path}-journal")):
        with contextlib.suppress(OSError):
            p.unlink()


def _clean_stale_temps(path: Path) -> None:
    """Remove the temporary files a stopped program left beside ``path`` (a killed
    ``import``, ``new`` or Save): ours by their names, untouched for
    :data:`STALE_TEMP_SECONDS`, and held by no program."""
    folder = path.parent
    names = {glob.escape(f".{path.name}."), f".*{SUFFIX}."}
    found = {Path(p) for n in names for p in glob.glob(str(folder / f"{n}*.tmp"))}
    found |= {
        Path(p[: -len("-journal")])
        for n in names
        for p in glob.glob(str(folder / f"{n}*.tmp-journal"))
    }
    now = time.time()
    for tmp in found:
        try:
            newest = max(p.stat().st_mtime for p in (tmp, Path(f"{tmp}-journal")) if p.exists())
        except (OSError, ValueError):
            continue
        if now - newest > STALE_TEMP_SECONDS and not _held(tmp):
            _remove(tmp)


def _held(path: Path) -> bool:
    """Is a program writing ``path`` (holding SQLite's lock on it)?"""
    if not path.exists():
        return False
    try:
        conn = sqlite3.connect(str(path), timeout=0)
    except sqlite3.Error:
        return False
    try:
        conn.execute("BEGIN EXCLUSIVE")
        conn.rollback()
    except sqlite3.OperationalError as exc:
        return "locked" in str(exc) or "busy" in str(exc)
    except _OPEN_ERRORS:
        return False
    finally:
        conn.close()
    return False


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
