"""Property-based: mutate the real 1942 scenario in every way a person or a spreadsheet
might, and the loader either loads it or refuses it with messages naming the file, row and
field — never a crash, never a half-loaded scenario."""

from __future__ import annotations

import csv
import io
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign import paths
from campaign.csvdata import InputError
from campaign.scenario import META_FILE, Scenario, load_scenario
from campaign.schemas import TABLES

SOURCE = paths.scenario_dir("1942")
FILES = sorted(p.name for p in SOURCE.iterdir())
CSV_FILES = [f for f in FILES if f.endswith(".csv")]

nasty_cells = st.one_of(
    st.just(""),
    st.just("-1"),
    st.just("99999999999999999999"),
    st.just("1e400"),
    st.just("nan"),
    st.just("yes"),
    st.just("#zzzzzz"),
    st.just("scapa_flow"),
    st.just("Scapa Flow"),
    st.just("a;;b"),
    st.just('"'),
    st.just("x,y"),
    st.just("line\nbreak"),
    st.text(max_size=12),
    st.integers(-(10**6), 10**6).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
)


def read(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))


def write(path: Path, rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, str, object]:
    kind = draw(
        st.sampled_from(
            [
                "cell",
                "cell",
                "cell",
                "drop_row",
                "dup_row",
                "drop_column",
                "rename_column",
                "truncate",
                "bytes",
                "delete_file",
                "empty_file",
                "toml",
            ]
        )
    )
    file = draw(st.sampled_from(CSV_FILES))
    if kind == "cell":
        return (
            kind,
            file,
            (draw(st.integers(0, 10**6)), draw(st.integers(0, 50)), draw(nasty_cells)),
        )
    if kind in ("drop_row", "dup_row", "drop_column", "rename_column"):
        return kind, file, draw(st.integers(0, 10**6))
    if kind == "truncate":
        return kind, file, draw(st.floats(0, 1))
    if kind == "bytes":
        return kind, file, draw(st.binary(min_size=1, max_size=8))
    if kind == "toml":
        return (
            kind,
            META_FILE,
            draw(
                st.sampled_from(
                    [
                        "first_turn = 0\n",
                        "last_turn = 'x'\n",
                        "start_period = 9\n",
                        "[[[",
                        "id = 3\n",
                        "\xff",
                    ]
                )
            ),
        )
    return kind, file, None


def apply(folder: Path, kind: str, file: str, arg: object) -> None:
    path = folder / file
    if kind == "toml":
        text = path.read_text(encoding="utf-8")
        key = str(arg).split(" ")[0]
        lines = [ln for ln in text.splitlines() if not ln.startswith(key + " ")]
        path.write_text("\n".join(lines) + "\n" + str(arg), encoding="utf-8")
        return
    if kind == "delete_file":
        path.unlink()
        return
    if kind == "empty_file":
        path.write_bytes(b"")
        return
    if kind == "truncate":
        data = path.read_bytes()
        path.write_bytes(data[: int(len(data) * float(arg))])  # type: ignore[arg-type]
        return
    if kind == "bytes":
        data = path.read_bytes()
        middle = len(data) // 2
        path.write_bytes(data[:middle] + arg + data[middle:])  # type: ignore[operator]
        return
    rows = read(path)
    if len(rows) < 2:
        return
    if kind == "cell":
        r, c, value = arg  # type: ignore[misc]
        row = rows[1 + r % (len(rows) - 1)]
        row[c % len(row)] = value
    elif kind == "drop_row":
        del rows[1 + int(arg) % (len(rows) - 1)]  # type: ignore[call-overload]
    elif kind == "dup_row":
        i = 1 + int(arg) % (len(rows) - 1)  # type: ignore[call-overload]
        rows.insert(i, list(rows[i]))
    elif kind == "drop_column":
        c = int(arg) % len(rows[0])  # type: ignore[call-overload]
        rows = [row[:c] + row[c + 1 :] for row in rows]
    elif kind == "rename_column":
        c = int(arg) % len(rows[0])  # type: ignore[call-overload]
        rows[0][c] = rows[0][c].upper() + "x"
    write(path, rows)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_any_mutation_loads_or_is_refused_with_located_messages(
    mutation: tuple[str, str, object],
) -> None:
    kind, file, arg = mutation
    known = {s.file for s in TABLES} | {META_FILE}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "1942"
        shutil.copytree(SOURCE, folder)
        apply(folder, kind, file, arg)
        try:
            scenario = load_scenario(folder)
        except InputError as exc:
            assert exc.errors, "refused without an error"
            for p in exc.problems:
                assert p.file in known, p
                assert p.message.strip(), p
                assert p.row >= 0
            return
        assert isinstance(scenario, Scenario)
        assert len(scenario.rows("sea_areas")) >= 80


def test_a_row_dropped_from_bases_names_every_reference_to_it(tmp_path: Path) -> None:
    folder = tmp_path / "1942"
    shutil.copytree(SOURCE, folder)
    rows = read(folder / "bases.csv")
    rows = [r for r in rows if r[0] != "truk"]
    write(folder / "bases.csv", rows)
    try:
        load_scenario(folder)
    except InputError as exc:
        named = {(p.file, p.field) for p in exc.errors if "'truk'" in p.message}
        assert ("units.csv", "base") in named and ("lsp.csv", "base") in named
        assert all("'truk' is not a base in bases.csv" in p.message for p in exc.errors)
    else:
        raise AssertionError("a scenario without Truk must be refused")
