"""The rules every file from outside is held to (campaign/untrusted.py), one by one, and
what they guard: a game file's formula-like name never reaches an exported CSV."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from campaign.cli import main
from campaign.csvdata import Column, InputError, parse_cell, value_ok
from campaign.scenario import load_scenario, write_scenario
from campaign.untrusted import (
    JsonInputError,
    JsonLimits,
    bad_character,
    foreign_digit,
    formula_risk,
    read_json,
    shown,
    spreadsheet_safe,
    terminal_safe,
)

MINI = Path(__file__).parent / "fixtures" / "mini"
SMALL = JsonLimits(max_bytes=1000, max_depth=3, max_items=3, max_text=10)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("\u0663", "ARABIC-INDIC DIGIT THREE"),
        ("1\u09e8", "BENGALI DIGIT TWO"),
        ("\uff15", "FULLWIDTH DIGIT FIVE"),
        ("\u00b2", "SUPERSCRIPT TWO"),
        ("123", None),
        ("-4.5e3", None),
    ],
)
def test_only_ascii_digits_are_digits(text: str, found: str | None) -> None:
    message = foreign_digit(text)
    assert (message is None) == (found is None)
    if found:
        assert found in str(message) and "is not an ASCII digit" in str(message)


def test_a_number_column_refuses_what_python_would_read() -> None:
    """int('٣') == 3 and float('١٫٥') fails, but float('١.٥') == 1.5: all refused."""
    assert int("\u0663") == 3 and float("\u0661.\u0665") == 1.5
    whole, decimal = Column("x", "int"), Column("x", "decimal")
    for col, raw in ((whole, "\u0663"), (decimal, "\u0661.\u0665"), (decimal, "1_000")):
        value, message = parse_cell(col, raw)
        assert value is None and message


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a\x1bb", "control character \\x1b"),
        ("a\x9bb", "control character \\x9b"),
        ("a\x7fb", "control character \\x7f"),
        ("a\u202eb", "bidirectional control \\u202e"),
        ("a\u2066b", "bidirectional control \\u2066"),
        ("a\ud800b", "lone surrogate (\\ud800)"),
    ],
)
def test_plain_text_has_no_controls_overrides_or_surrogates(text: str, words: str) -> None:
    assert words in str(bad_character(text))


def test_tab_and_line_ends_are_plain_text() -> None:
    assert bad_character("one\ttwo\r\nthree") is None
    assert bad_character("one\ttwo", allow="") is not None


@pytest.mark.parametrize(
    ("text", "risky"),
    [
        ("=1+1", True),
        ("+44 20", True),
        ("-3", True),
        ("@SUM(A1)", True),
        ("\tx", True),
        ("\rx", True),
        ("   =HYPERLINK()", True),
        ("Akagi", False),
        ("3 = three", False),
        ("", False),
    ],
)
def test_formula_starts(text: str, risky: bool) -> None:
    assert formula_risk(text) is risky
    assert spreadsheet_safe(text) == ("'" + text if risky else text)


def test_numbers_are_never_escaped_for_a_spreadsheet() -> None:
    assert spreadsheet_safe(-3) == -3 and spreadsheet_safe(2.5) == 2.5


def test_a_polygon_may_start_with_a_minus_sign_but_not_a_formula() -> None:
    polygon = Column("polygon", "text", max_length=100, numbers=True)
    assert parse_cell(polygon, "-20,40 0,40 0,60")[1] is None
    assert "formula" in str(parse_cell(polygon, "=20,40 0,40 0,60")[1])
    name = Column("name")
    assert "formula" in str(parse_cell(name, "-20,40")[1])
    assert not value_ok(name, "=HYPERLINK()") and value_ok(name, "Akagi")


def test_shown_values_are_short_and_harmless() -> None:
    assert shown("x" * 1000) == f"'{'x' * 40}…' (1000 characters)"
    assert shown("a\x1b[2Jb") == "'a\\x1b[2Jb'"
    assert terminal_safe("line\nnext\tcol\x1b[31m\x07\x9b\u202e") == (
        "line\nnext\tcol\\x1b[31m\\x07\\x9b\\u202e"
    )


def test_json_limits_are_kept() -> None:
    with pytest.raises(JsonInputError, match="nested more than 3 deep"):
        read_json('{"a": [[[1]]]}', SMALL)
    with pytest.raises(JsonInputError, match="1,000 are read"):
        read_json(" " * 1001, SMALL)
    assert read_json('{"a": "[[[[["}', SMALL) == ({"a": "[[[[["}, [])
    _, found = read_json('{"a": [1, 2, 3, 4], "b": "x' + "y" * 10 + '", "c": 1e999}', SMALL)
    assert dict(found) == {
        "a": "has 4 items; at most 3",
        "b": "is 11 characters long; at most 10",
        "c": "'1e999' is absurdly large",
    }


def test_a_repeated_key_is_named_with_its_path() -> None:
    _, found = read_json('{"a": [{"x": 1, "x": 2}]}', SMALL)
    assert found == [("a[0].x", "is given twice in one object")]


# -- a game file's text on its way out -------------------------------------------------------
def test_a_game_file_with_a_formula_for_a_name_is_refused_not_exported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Someone edits a shared game file so that a unit's name is a spreadsheet formula: the
    game is refused when opened — by its seal, and, where the seal is set aside
    (``validate``, ``reseal``), by the scenario's checks, which hold for its copy in the game
    file too — so ``export`` writes no CSV a spreadsheet would run."""
    game = tmp_path / "game.seacontrol"
    assert main(["new", str(MINI), "-o", str(game)]) == 0
    conn = sqlite3.connect(game)
    conn.execute(
        "UPDATE sc_units SET name = ? WHERE id = 'blue_cv1'", ['=HYPERLINK("http://x","y")']
    )
    conn.commit()
    conn.close()
    capsys.readouterr()
    assert main(["export", str(game), str(tmp_path / "out")]) == 1
    assert "records were changed in sc_units" in capsys.readouterr().err
    assert not (tmp_path / "out" / "units.csv").exists()
    for command in (["validate", str(game)], ["reseal", str(game), "--reason", "a try"]):
        assert main([*command, "--json"]) == 1
        assert "HYPERLINK" in json.dumps(json.loads(capsys.readouterr().out))


def test_a_scenario_made_in_code_is_not_written_with_a_formula(tmp_path: Path) -> None:
    """The loader refuses formula-like text; a scenario changed in code after loading is
    checked again when written, and nothing is written."""
    scenario = load_scenario(MINI)
    scenario.tables["units"][0]["name"] = "=HYPERLINK(1)"
    with pytest.raises(InputError) as refused:
        write_scenario(scenario, tmp_path / "out")
    assert [(p.file, p.row, p.field) for p in refused.value.problems] == [("units.csv", 2, "name")]
    assert not (tmp_path / "out").exists()
