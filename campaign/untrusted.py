"""Text from outside the program, read with suspicion: bounds and plain characters.

Every file the program reads — a scenario's CSV files, ``scenario.toml``, a nation's
orders, a battle set-up — may come from a careless spreadsheet or a hostile hand, and is
shared between the teams of a megagame. The rules here are what a careful maintainer of a
file format holds every such file to (docs/scenario-format.md, "Hostile input"):

* **digits are ASCII.** Python's ``int()`` and ``float()`` read any script's digits
  (``int("٣") == 3``); a spreadsheet, the other tools and a person reading the file do not.
  A number is written with ``0``–``9`` only (:func:`foreign_digit`).
* **numbers are bounded.** No figure of the game has more than :data:`MAX_DIGITS` digits;
  a longer one is refused as absurdly large before Python is asked to convert it (Python
  refuses integers of more than 4,300 digits with an error of its own).
* **text is plain.** No control characters but tab and line ends, no bidirectional
  overrides (which make text read differently from what it is), no lone surrogates (which
  cannot be stored as UTF-8) — :func:`bad_character`.
* **text is not a spreadsheet formula.** A cell starting with ``=``, ``+``, ``-``, ``@``,
  tab or carriage return is run as a formula by a spreadsheet (:func:`formula_risk`).
* **JSON is bounded** in size, depth, list length and text length, numbers included, and
  an object does not name a key twice (:func:`read_json`) — Python's own reader gives a
  RecursionError for a deeply nested array and reads NaN, which JSON does not allow.

Messages quote what was found with :func:`shown`: short, and with control characters
written out, so a message never carries the hostile text itself.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import re
import types
import typing
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Union

#: digits of the longest whole number read anywhere (a figure of 10^15 is absurd already)
MAX_DIGITS = 15
#: bidirectional embeddings, overrides and isolates: text that displays in another order
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: every character :func:`bad_character` may refuse (tab and line ends included)
_SUSPECT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff" + "".join(BIDI_CONTROLS) + "]")
#: what starts a formula in a spreadsheet (OWASP "CSV injection")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def foreign_digit(text: str) -> str | None:
    """A message for the first digit of ``text`` that is not ASCII ``0``–``9``, else None."""
    if text.isascii():  # the common case, answered without a look at each character
        return None
    for ch in text:
        if ch.isdigit() and not ("0" <= ch <= "9"):
            return f"'{ch}' ({unicodedata.name(ch, 'a digit')}) is not an ASCII digit 0-9"
    return None


def bad_character(text: str, allow: str = "\t\n\r") -> str | None:
    """A message for the first character of ``text`` that has no place in plain text
    (control characters other than ``allow``, bidirectional overrides, lone surrogates),
    else None."""
    if _SUSPECT.search(text) is None:  # the common case: one pass in C over the text
        return None
    for ch in text:
        code = ord(ch)
        if ch in allow:
            continue
        if 0xD800 <= code <= 0xDFFF:
            return f"contains a lone surrogate ({escaped(ch)}): text that cannot be stored as UTF-8"
        if code < 0x20 or 0x7F <= code <= 0x9F:
            return f"contains the control character {escaped(ch)}"
        if ch in BIDI_CONTROLS:
            return f"contains the bidirectional control {escaped(ch)} (text shown out of order)"
    return None


def formula_risk(text: str) -> bool:
    """Would a spreadsheet take this cell for a formula? (It starts with ``=``, ``+``,
    ``-``, ``@``, tab or carriage return, perhaps after spaces.)"""
    return text.startswith(FORMULA_STARTS) or text.lstrip(" ").startswith(FORMULA_STARTS[:4])


def spreadsheet_safe(value: object) -> object:
    """A cell for a CSV file made for people to open (a report, a chart): text that a
    spreadsheet would run as a formula gets a leading ``'``, which spreadsheets read as
    "this is text". Numbers are left as they are. (Scenario files must read back exactly,
    so there such text is refused instead: :func:`campaign.csvdata.text_problem`.)"""
    if isinstance(value, str) and formula_risk(value):
        return "'" + value
    return value


def escaped(text: str) -> str:
    """``text`` with every control, bidirectional control and surrogate written out
    (``\\x1b``, ``\\u202e``): safe in a message, a log or a terminal."""
    return "".join(_escape_char(ch) for ch in text)


def _escape_char(ch: str) -> str:
    code = ord(ch)
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return f"\\x{code:02x}"
    if ch in BIDI_CONTROLS or 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return ch


def shown(value: object, limit: int = 40) -> str:
    """``value`` quoted for a message: at most ``limit`` characters (a 1 MB name is not
    repeated back), controls written out."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) > limit:
        return f"'{escaped(text[:limit])}…' ({len(text)} characters)"
    return f"'{escaped(text)}'"


def field_name(key: str, limit: int = 60) -> str:
    """A key from a file as the name of a field in a message: short, controls written out."""
    return escaped(key[:limit]) + ("…" if len(key) > limit else "")


#: what :func:`terminal_safe` writes out: the characters :func:`_escape_char` changes,
#: but tab and newline
_TERMINAL_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff" + "".join(sorted(BIDI_CONTROLS)) + "]"
)


def terminal_safe(text: str) -> str:
    """Text from a file made safe to print on a terminal: every control character but
    tab and newline written out, so an escape sequence in a shared file cannot clear,
    recolour or retitle the reader's terminal, and a lone surrogate cannot stop the print.
    (One pass of a regular expression: the CLI prints everything through here.)"""
    return _TERMINAL_UNSAFE.sub(lambda m: _escape_char(m.group()), text)


# -- JSON ---------------------------------------------------------------------------------
def kind_of(value: Any) -> str:
    """What a JSON value is, in words, for a message: ``a number (7)``, ``text ('x')``…"""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"text ({shown(value)})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a value out of bounds"


@dataclass(frozen=True)
class JsonLimits:
    """How much of a JSON file is read: bytes, nesting, items in a list, characters in a
    text. Each file format chooses its own (orders, battle set-ups)."""

    max_bytes: int
    max_depth: int
    max_items: int
    max_text: int


class JsonInputError(Exception):
    """A JSON file that cannot be read at all: ``where`` (line and column) and why."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class _Refused:
    """A value the JSON reader keeps aside to report with its path: a number too large,
    NaN or Infinity."""

    text: str
    why: str


class _Keys(dict[str, Any]):
    """A JSON object that named a key more than once (the last value counts in Python;
    another reader might take the first)."""

    repeated: list[str]


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    repeated: list[str] = []
    for key, value in pairs:
        if key in out and key not in repeated:
            repeated.append(key)
        out[key] = value
    if not repeated:
        return out
    keyed = _Keys(out)
    keyed.repeated = repeated
    return keyed


def _int(text: str) -> int | _Refused:
    if len(text.lstrip("-")) > MAX_DIGITS:
        return _Refused(text, f"is absurdly large ({len(text.lstrip('-'))} digits)")
    return int(text)


def _float(text: str) -> float | _Refused:
    value = float(text)
    if not math.isfinite(value) or len(text) > 64:
        return _Refused(text, f"{shown(text)} is absurdly large")
    return value


def _constant(text: str) -> _Refused:
    return _Refused(text, f"{text} is not a number JSON allows")


_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def read_json(data: bytes | str, limits: JsonLimits) -> tuple[Any, list[tuple[str, str]]]:
    """Decode a JSON file within ``limits``.

    Raises :class:`JsonInputError` when the file cannot be read at all (too big, not
    UTF-8, nested too deeply, not JSON). Otherwise returns the data and the problems found
    in it as (path, message): texts too long or not plain, numbers too large, NaN, lists
    too long, repeated keys. A path is written ``task_forces[0].name``."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        raise JsonInputError(
            "the file", f"is {size:,} bytes; at most {limits.max_bytes:,} are read"
        )
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise JsonInputError(f"line {line}", "is not UTF-8 text") from None
    else:
        text = data.removeprefix("\ufeff")
    _check_depth(text, limits.max_depth)
    try:
        value = json.loads(
            text,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
            object_pairs_hook=_object,
        )
    except json.JSONDecodeError as exc:
        raise JsonInputError(
            f"line {exc.lineno}, column {exc.colno}", f"not valid JSON: {exc.msg}"
        ) from None
    except RecursionError:  # pragma: no cover - _check_depth refuses such files first
        raise JsonInputError("the file", f"nests more than {limits.max_depth} deep") from None
    return value, list(_walk(value, limits))


def _check_depth(text: str, max_depth: int) -> None:
    """Refuse nesting deeper than ``max_depth`` before Python's reader recurses into it
    (texts are blanked first: a bracket in a name is not nesting; JSON texts hold no
    newline, so line numbers stay true)."""
    bare = _STRING.sub('""', text)
    depth = 0
    for match in _BRACKET.finditer(bare):
        if match.group() in "[{":
            depth += 1
            if depth > max_depth:
                line = bare.count("\n", 0, match.start()) + 1
                raise JsonInputError(
                    f"line {line}", f"is nested more than {max_depth} deep; nothing is read"
                )
        else:
            depth -= 1


def json_path(base: str, key: str | int) -> str:
    """``task_forces`` + 0 → ``task_forces[0]``; ``task_forces[0]`` + ``name`` →
    ``task_forces[0].name``."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if base else key


def within(path: str, parents: Iterable[str]) -> bool:
    """Is ``path`` one of ``parents`` or inside one (``a.ships[0].id`` is inside ``a.ships``)?
    A value refused whole is not refused again for its parts."""
    return any(path == p or path.startswith((p + ".", p + "[")) for p in parents)


def _walk(root: Any, limits: JsonLimits) -> Iterator[tuple[str, str]]:
    stack: list[tuple[str, Any]] = [("", root)]
    while stack:
        path, value = stack.pop()
        where = path or "the file"
        if isinstance(value, str):
            if len(value) > limits.max_text:
                yield where, f"is {len(value):,} characters long; at most {limits.max_text:,}"
            else:
                bad = bad_character(value)
                if bad:
                    yield where, bad
        elif isinstance(value, _Refused):
            yield where, value.why
        elif isinstance(value, list):
            if len(value) > limits.max_items:
                yield where, f"has {len(value):,} items; at most {limits.max_items:,}"
            items = value[: limits.max_items]
            stack.extend((json_path(path, i), v) for i, v in reversed(list(enumerate(items))))
        elif isinstance(value, dict):
            for key in getattr(value, "repeated", ()):
                yield json_path(path, key), "is given twice in one object"
            if len(value) > limits.max_items:
                yield where, f"has {len(value):,} keys; at most {limits.max_items:,}"
            pairs = list(value.items())[: limits.max_items]
            for key, item in reversed(pairs):
                bad = bad_character(key, allow="")
                if bad or len(key) > 200:
                    yield json_path(path, field_name(key)), bad or "is too long a key"
                    continue
                stack.append((json_path(path, key), item))


# -- typed data ---------------------------------------------------------------------------------
@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def conforms(value: Any, hint: Any, where: str) -> Iterator[tuple[str, str]]:
    """Where ``value`` — built from JSON by a dataclass's constructors, which check
    nothing — is not of the type its annotation ``hint`` says: ``(path, message)``.

    Reads the annotations themselves (dataclasses, ``int``, ``str``, ``bool``, ``float``,
    ``list[X]``, ``dict[K, V]``, ``tuple[X, ...]``, ``X | None``), so a field added to the
    state is checked without a word here."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, hint):
            yield where, f"is {kind_of(value)}, not {hint.__name__}"
            return
        hints = _hints(hint)
        for f in dataclasses.fields(hint):
            yield from conforms(getattr(value, f.name), hints[f.name], json_path(where, f.name))
    elif origin in (Union, types.UnionType):
        if not any(next(conforms(value, a, where), None) is None for a in args):
            yield where, f"is {kind_of(value)}"
    elif origin is dict:
        if not isinstance(value, dict):
            yield where, f"is {kind_of(value)}, not an object"
            return
        for key, item in value.items():
            if next(conforms(key, args[0], where), None) is not None:
                yield json_path(where, field_name(str(key))), "is not a key of the right kind"
            yield from conforms(item, args[1], json_path(where, field_name(str(key))))
    elif origin in (list, tuple):
        if not isinstance(value, origin):
            yield where, f"is {kind_of(value)}, not a list"
            return
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(value) != len(args):
                yield where, f"has {len(value)} items, not {len(args)}"
                return
            for i, (item, arg) in enumerate(zip(value, args, strict=True)):
                yield from conforms(item, arg, json_path(where, i))
            return
        for i, item in enumerate(value):
            yield from conforms(item, args[0], json_path(where, i))
    elif hint is bool:
        if not isinstance(value, bool):
            yield where, f"is {kind_of(value)}, not true or false"
    elif hint is int:
        if not isinstance(value, int) or isinstance(value, bool):
            yield where, f"is {kind_of(value)}, not a whole number"
    elif hint is float:
        if not isinstance(value, int | float) or isinstance(value, bool):
            yield where, f"is {kind_of(value)}, not a number"
    elif hint is str and not isinstance(value, str):
        yield where, f"is {kind_of(value)}, not text"
