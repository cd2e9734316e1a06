"""Typed CSV: every cell kind, canonical writing, and messages that say where and what."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign.csvdata import (
    Column,
    InputError,
    Problem,
    TableSchema,
    _number,
    format_cell,
    parse_cell,
    parse_table,
    render_table,
    value_ok,
)

SCHEMA = TableSchema(
    "things.csv",
    (
        Column("id", "id"),
        Column("count", "int", minimum=0, maximum=10),
        Column("size", "decimal", required=False),
        Column("ok", "bool"),
        Column("kind", "enum", choices=("big", "small")),
        Column("via", "idlist", required=False),
        Column("colour", "colour", required=False),
        Column("notes", "text", required=False),
    ),
    key=("id",),
)
HEADER = b"id,count,size,ok,kind,via,colour,notes\n"


@pytest.mark.parametrize(
    ("kind", "raw", "value"),
    [
        ("int", "7", 7),
        ("int", "-3", -3),
        ("decimal", "1.5", 1.5),
        ("decimal", "-12", -12.0),
        ("bool", "yes", True),
        ("bool", "No", False),
        ("idlist", "a;b_2", ["a", "b_2"]),
        ("id", "north_sea", "north_sea"),
        ("colour", "#1F4E79", "#1f4e79"),
    ],
)
def test_cells_parse_to_typed_values(kind: str, raw: str, value: object) -> None:
    assert parse_cell(Column("x", kind), raw) == (value, None)


@pytest.mark.parametrize(
    ("column", "raw", "words"),
    [
        (Column("x", "int"), "7.5", "not a whole number"),
        (Column("x", "int", minimum=0, maximum=10), "11", "from 0 to 10"),
        (Column("x", "decimal"), "abc", "not a number"),
        (Column("x", "decimal"), "nan", "not a finite number"),
        (Column("x", "bool"), "maybe", "not yes or no"),
        (Column("x", "enum", choices=("heavy", "escort")), "heavvy", "did you mean 'heavy'"),
        (Column("x", "id"), "North Sea", "not a valid id"),
        (Column("x", "colour"), "blue", "not a colour"),
        (Column("x", "text"), "  ", "is empty"),
    ],
)
def test_bad_cells_say_what_would_be_valid(column: Column, raw: str, words: str) -> None:
    value, message = parse_cell(column, raw)
    assert value is None
    assert message is not None and words in message


def test_plain_digits_read_as_every_other_whole_number() -> None:
    """Cells of ASCII digits alone are read by a shorter way: the same value or the same
    words as the general reading, at and beyond the column's bounds (whole or not) and the
    most digits."""
    cells = ["0", "7", "007", "10", "11", "99", "100", "999999999999999", "1000000000000000"]
    cells += ["٣", "１２", "²", "-0", "+5", " 8 "]  # not ASCII digits alone: the general way
    for col in (
        Column("x", "int"),
        Column("x", "int", minimum=0, maximum=10),
        Column("x", "int", minimum=8, maximum=99),
        Column("x", "int", minimum=0.5, maximum=9.5),
        Column("x", "int", required=False),
    ):
        for raw in cells:
            general = _number(col, raw.strip())
            got = parse_cell(col, raw)
            assert got == ((None, general[1]) if general[1] else general), (col, raw)
            assert type(got[0]) is type(general[0])


@pytest.mark.parametrize("value", [0, 12, 0.5, -179.25, True, False, ["a", "b"], "x, y"])
def test_format_is_the_inverse_of_parse(value: object) -> None:
    kind = {int: "int", float: "decimal", bool: "bool", list: "idlist", str: "text"}[type(value)]
    col = Column("x", kind)
    assert parse_cell(col, format_cell(col, value))[0] == value


def test_a_canonical_file_round_trips_byte_for_byte() -> None:
    data = HEADER + b'a,1,2.5,yes,big,x;y,#aabbcc,"with, comma"\nb,0,,no,small,,,\n'
    table, problems = parse_table(SCHEMA, data)
    assert problems == []
    assert render_table(SCHEMA, table.rows).encode() == data


def test_every_problem_is_listed_with_row_and_field() -> None:
    data = HEADER + b"a,1,,yes,big,,,\nB,99,x,perhaps,huge,,red,\na,1,,no,small,,,\n"
    _, problems = parse_table(SCHEMA, data)
    fields = {(p.row, p.field) for p in problems}
    assert {(3, "id"), (3, "count"), (3, "size"), (3, "ok"), (3, "kind"), (3, "colour")} <= fields
    assert (4, "id") in fields  # duplicate of row 2
    assert any("duplicate of row 2" in p.message for p in problems)


def test_header_problems_are_reported_without_reading_rows() -> None:
    _, problems = parse_table(SCHEMA, b"id,cuont,ok,kind\na,1,yes,big\n")
    messages = {(p.field, p.message.split(";")[0]) for p in problems}
    assert ("cuont", "is not a column of this file (did you mean 'count'?)") in messages
    assert ("count", "column is missing from the header") in messages
    assert all(p.row == 1 for p in problems)


def test_non_utf8_empty_and_nul_files_are_refused_clearly() -> None:
    _, problems = parse_table(SCHEMA, HEADER + "a,1,,yes,big,,,café\n".encode("latin-1"))
    assert "not UTF-8" in problems[0].message and problems[0].row == 2
    _, problems = parse_table(SCHEMA, b"")
    assert "is empty" in problems[0].message
    _, problems = parse_table(SCHEMA, HEADER + b"a\x00,1\n")
    assert "NUL" in problems[0].message


def test_a_byte_order_mark_from_a_spreadsheet_is_accepted() -> None:
    table, problems = parse_table(SCHEMA, b"\xef\xbb\xbf" + HEADER + b"a,1,,yes,big,,,\n")
    assert problems == [] and table.rows[0]["id"] == "a"


def test_a_row_with_too_many_cells_is_named() -> None:
    _, problems = parse_table(SCHEMA, HEADER + b"a,1,,yes,big,,,,extra\n")
    assert problems[0].row == 2 and "9 cells" in problems[0].message


def test_input_error_lists_problems_in_file_row_order() -> None:
    err = InputError([Problem("b.csv", 3, "x", "bad"), Problem("a.csv", 9, "y", "worse")])
    assert str(err).splitlines()[1].startswith("a.csv, row 9, field 'y'")


_COLUMNS = [
    Column("id", "id"),
    Column("count", "int", minimum=0, maximum=10),
    Column("any", "int", required=False),
    Column("size", "decimal", required=False, minimum=0.5),
    Column("ok", "bool"),
    Column("kind", "enum", choices=("big", "small")),
    Column("via", "idlist", required=False),
    Column("must", "idlist"),
    Column("colour", "colour", required=False),
    Column("notes", "text", required=False),
    Column("name", "text"),
]
_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-20, 20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(["big", "small", "north_sea", "#1f4e79", " big", "a b", "", "  "]),
    st.lists(st.sampled_from(["north_sea", "x1", "Bad", "", "a;b"]), max_size=3),
)


@given(st.sampled_from(_COLUMNS), _VALUES)
def test_a_quick_yes_is_always_a_yes_of_the_parser(col: Column, value: object) -> None:
    """value_ok (the game file's fast re-check) never passes what parse_cell refuses."""
    if value_ok(col, value):
        assert parse_cell(col, format_cell(col, value))[1] is None


def test_the_quick_check_says_yes_to_ordinary_values() -> None:
    assert value_ok(Column("n", "int", minimum=0), 3) and not value_ok(Column("n", "int"), True)
    assert value_ok(Column("k", "enum", choices=("big",)), "big")
    assert value_ok(Column("v", "idlist"), ["north_sea", "x1"])
    assert not value_ok(Column("v", "idlist"), [])  # required: ask the parser
    assert value_ok(Column("t", "text", required=False), None)
    assert not value_ok(Column("t", "int"), None)  # a required cell left empty: ask
