"""The game file's seal: tamper evidence over every record the file holds.

A game file is shared between umpires, teams and machines, and anyone holding it can edit
it with the ``sqlite3`` tool. Three things make such an edit show (docs/game-file.md):

* **the content digest** — a SHA-256 over a canonical text of every row of every table
  (the scenario's tables, the state, the turn starts, orders and choices, events with their
  visibility, dice, meta with the seed and the seat codes), one digest per table and one
  over them all;
* **the chain** — every write Sea Control commits appends a *link*: its number, the
  content digest after the write, and a *head* hashing the link before it with the two.
  The head of the last link is the *chain head* every report and team pack prints, so a
  person can later check that the file in hand still descends from what they were shown;
* **the seal** — an HMAC of the last link's number and head under a key that is not in
  the file but in the user's configuration folder (:func:`key_path`, created owner-only).
  Without the key, a file whose records, chain and digests were all recomputed (a re-hash)
  or whose last writes were cut off (a deleted tail) still fails the seal.

This module is pure: it hashes rows and links it is given; :mod:`campaign.gamefile` reads
and writes them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the head before the first link
GENESIS = "0" * 64
#: an environment variable naming another key file (a key shared by Game Control's machines,
#: or a throw-away one for tests)
KEY_ENV = "SEACONTROL_KEY"
KEY_NAME = "seal.key"

#: what a file's integrity can be found to be (:class:`Integrity`)
SEALED = "sealed"  # sealed with this machine's key, and everything matches
FOREIGN = "foreign"  # consistent, sealed with a key this machine does not hold
UNKEYED = "unkeyed"  # consistent, sealed where no key could be made (no HMAC)
ALTERED = "altered"  # something does not match: changed outside Sea Control


# -- the key --------------------------------------------------------------------------------
def config_dir() -> Path:
    """The user's configuration folder for Sea Control (not the recovery folder, which
    the app may empty)."""
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
        return Path(base) / "Sea Control"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Sea Control"
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "seacontrol"


def key_path() -> Path:
    """Where this machine's seal key is (``$SEACONTROL_KEY`` names another file)."""
    named = os.environ.get(KEY_ENV)
    return Path(named) if named else config_dir() / KEY_NAME


_KEYS: dict[Path, bytes | None] = {}


def machine_key() -> bytes | None:
    """This machine's seal key, made on first use (32 random bytes, written as hex to a
    file only its owner may read). None when it can be neither read nor made — games are
    then sealed without a key and say so."""
    path = key_path()
    if path not in _KEYS:
        _KEYS[path] = _read_or_make(path)
    return _KEYS[path]


def _read_or_make(path: Path) -> bytes | None:
    for _ in range(2):
        try:
            text = path.read_text("ascii").strip()
        except FileNotFoundError:
            try:
                path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:  # another program made it first: read that one
                continue
            except OSError:
                return None
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(secrets.token_hex(32) + "\n")
            continue
        except (OSError, UnicodeDecodeError):
            return None
        if len(text) != 64 or any(ch not in "0123456789abcdef" for ch in text):
            return None  # a damaged key is never replaced: the games it sealed need it
        _owner_only(path)
        return bytes.fromhex(text)
    return None  # pragma: no cover - made and vanished again at once


def _owner_only(path: Path) -> None:
    """A key others can read is no key: tighten it to the owner (as ``ssh`` would ask)."""
    if os.name != "posix":
        return
    try:
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            path.chmod(0o600)
    except OSError:
        pass


def key_id(key: bytes | None) -> str:
    """A name for a key that gives nothing of it away ("" for no key)."""
    if key is None:
        return ""
    return hashlib.sha256(b"seacontrol-key-id:" + key).hexdigest()[:16]


# -- digests --------------------------------------------------------------------------------
def _cell(value: object) -> object:
    if isinstance(value, bytes):
        return {"blob": value.hex()}
    raise TypeError(f"a cell of type {type(value).__name__}")


_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), default=_cell).encode


def row_text(row: Sequence[Any]) -> bytes:
    """One row in its canonical form: JSON with every non-ASCII character escaped (the
    same bytes on every Python version), types kept apart (``3``, ``3.0``, ``"3"``)."""
    return _ENCODE(list(row)).encode("ascii") + b"\n"


class TableDigest:
    """The running SHA-256 of one table's rows in key order; rows appended later (events,
    dice) extend it without reading the table again."""

    def __init__(self, table: str, columns: Sequence[str]) -> None:
        self._hash = hashlib.sha256(row_text([table, *columns]))
        self.last: int | None = None  # the highest key fed (append-only tables)

    def feed(self, rows: Iterable[Sequence[Any]]) -> None:
        self._hash.update(b"".join(map(row_text, rows)))

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def content_digest(tables: dict[str, str]) -> str:
    """The digest over every table's digest."""
    return hashlib.sha256(tables_text(tables).encode("ascii")).hexdigest()


def tables_text(tables: dict[str, str]) -> str:
    return json.dumps(dict(sorted(tables.items())), separators=(",", ":"))


def next_head(head: str, link: int, digest: str) -> str:
    """The chain head after appending ``link`` with content ``digest`` to ``head``."""
    return hashlib.sha256(f"seacontrol-chain:{link}:{head}:{digest}".encode()).hexdigest()


def mac(key: bytes, link: int, head: str) -> str:
    """The keyed seal over the last link."""
    return hmac.new(key, f"seacontrol-seal:{link}:{head}".encode(), hashlib.sha256).hexdigest()


# -- checking ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Link:
    link: int
    digest: str
    head: str


@dataclass(frozen=True)
class Seal:
    """The file's one ``seal`` row."""

    link: int
    head: str
    key_id: str
    mac: str
    tables: dict[str, str]  # table → digest, as sealed


@dataclass(frozen=True)
class Integrity:
    """What checking a file's records against its chain and seal found."""

    status: str  # SEALED | FOREIGN | UNKEYED | ALTERED
    link: int = 0
    head: str = GENESIS
    key_id: str = ""
    problems: tuple[str, ...] = ()

    @property
    def altered(self) -> bool:
        return self.status == ALTERED

    @property
    def verified(self) -> bool:
        return self.status == SEALED

    def summary(self) -> str:
        """One paragraph for a person: what was found and what to do."""
        if self.status == SEALED:
            return f"Seal verified: chain head {self.head} (link {self.link})."
        if self.status == ALTERED:
            return (
                "The game file was changed outside Sea Control: "
                + "; ".join(self.problems)
                + ". Open a backup, or (Game Control) accept it as it is with "
                "'seacontrol-cli reseal GAME --reason TEXT', which records the finding "
                "in the log every team sees."
            )
        where = (
            f"another machine's key ({self.key_id})"
            if self.status == FOREIGN
            else "no key (the machine that saved it could not make one)"
        )
        return (
            f"The seal was made with {where}, so this machine cannot check it: the records "
            f"match the chain, but the chain itself could have been recomputed. Compare the "
            f"chain head {self.head} (link {self.link}) with the one printed on the last "
            "report or team pack."
        )


def verify(
    links: Sequence[Link], seal: Seal | None, tables: dict[str, str], key: bytes | None
) -> Integrity:
    """Check the records' digests (``tables``, just computed) against the chain and the
    seal, and the seal against this machine's ``key``."""
    problems: list[str] = []
    if not links or seal is None:
        return Integrity(ALTERED, problems=("its chain or seal is missing",))
    head = GENESIS
    for number, link in enumerate(links, start=1):
        if link.link != number:
            problems.append(f"link {number} of the chain is missing")
            break
        head = next_head(head, link.link, link.digest)
        if head != link.head:
            problems.append(f"link {link.link} of the chain does not follow the one before")
            break
    last = links[-1]
    if (seal.link, seal.head) != (last.link, last.head):
        problems.append(
            f"the seal is for link {seal.link} but the chain ends at link {last.link}"
            " (links were added or cut off)"
        )
    if content_digest(seal.tables) != last.digest:
        problems.append("the seal's table digests do not match the chain")
    changed = sorted(
        t for t in tables.keys() | seal.tables.keys() if tables.get(t) != seal.tables.get(t)
    )
    if changed:
        problems.append("records were changed in " + ", ".join(changed))
    if problems:
        return Integrity(ALTERED, last.link, last.head, seal.key_id, tuple(problems))
    if seal.key_id and key is not None and seal.key_id == key_id(key):
        if not hmac.compare_digest(seal.mac, mac(key, last.link, last.head)):
            return Integrity(
                ALTERED,
                last.link,
                last.head,
                seal.key_id,
                ("the seal does not match (the file was re-hashed or cut short)",),
            )
        return Integrity(SEALED, last.link, last.head, seal.key_id)
    return Integrity(FOREIGN if seal.key_id else UNKEYED, last.link, last.head, seal.key_id)
