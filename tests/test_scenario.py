"""Scenario folders: load whole or refuse with every problem named; round-trip exactly."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from campaign.csvdata import InputError
from campaign.orders import load_orders, parse_orders
from campaign.scenario import load_scenario, parse_meta, write_scenario
from campaign.state import GameState, initial_state
from tests.helpers import add_row, set_cell


def problems_of(folder: Path) -> list[tuple[str, int, str, str]]:
    with pytest.raises(InputError) as info:
        load_scenario(folder)
    return [(p.file, p.row, p.field, p.message) for p in info.value.errors]


def test_the_mini_scenario_loads(mini_dir: Path) -> None:
    scenario = load_scenario(mini_dir)
    assert scenario.meta.id == "mini"
    assert len(scenario.rows("units")) == 5
    assert scenario.warnings == []
    assert scenario.meta.period_of(1) == "Jan/Feb 1942"
    assert scenario.meta.period_of(6) == "Nov/Dec 1942"
    assert scenario.meta.period_of(7) == "Jan/Feb 1943"


def test_rows_with_given_values_in_the_tables_order() -> None:
    scenario = load_scenario()
    table = scenario.rows("lsp_supply")
    for nation, turn in {(r["nation"], r["turn"]) for r in table} | {("usa", 99)}:
        expected = [r for r in table if r["nation"] == nation and r["turn"] == turn]
        assert scenario.rows_with("lsp_supply", nation=nation, turn=turn) == expected
    assert scenario.rows_with("lsp_supply", turn=1) == [r for r in table if r["turn"] == 1]
    assert scenario.rows_with("lsp_supply") == table


def test_ids_by_a_column_in_the_tables_order() -> None:
    scenario = load_scenario()
    routes = scenario.rows("routes")
    groups = scenario.ids_by("routes", "nation")
    assert set(groups) == {r["nation"] for r in routes}
    for nation, ids in groups.items():
        assert ids == tuple(r["id"] for r in routes if r["nation"] == nation)
    assert scenario.ids_by("routes", "nation") is groups  # made once


def test_ids_and_fixed_words_are_one_string_each_wherever_they_are_read(
    tmp_path: Path,
) -> None:
    """An id read from a spreadsheet cell, a game file or a team's orders is the same
    string object as the scenario's own, so a look-up by id finds its key by identity."""
    scenario = load_scenario()
    bases = scenario.by_id("bases")
    for unit in scenario.rows("units"):
        assert unit["base"] is bases[unit["base"]]["id"]
        assert unit["state"] is sys.intern(unit["state"])
    areas = {r["id"]: r for r in scenario.rows("sea_areas")}
    for route in scenario.rows("routes"):
        assert all(v is areas[v]["id"] for v in route["via"])
    state = initial_state(scenario)
    read = GameState.from_json(state.to_json())
    assert read == state
    for key, unit in read.units.items():
        assert key is unit.id is scenario.by_id("units")[key]["id"]
        assert unit.base is bases[unit.base]["id"]
    unit = scenario.rows("units")[0]
    text = f'{{"task_forces": [{{"id": "tf", "name": "TF", "base": "{unit["base"]}", '
    text += f'"units": ["{unit["id"]}"]}}]}}'
    [tf] = load_orders(text, unit["nation"]).task_forces
    assert tf.base is unit["base"] and tf.units[0] is unit["id"]


def test_reading_ids_leaves_the_callers_data_and_its_own_kinds_of_text_alone() -> None:
    """Interning reads what it is given: orders built in code may hold a subclass of str
    (which ``sys.intern`` refuses), and a state's data is copied, never changed."""

    class Name(str):
        pass

    unit = load_scenario().rows("units")[0]
    data = {
        "task_forces": [
            {
                "id": "tf",
                "name": Name("TF"),
                "base": Name(unit["base"]),
                "units": [Name(unit["id"])],
            }
        ]
    }
    [tf] = parse_orders(data, unit["nation"]).task_forces
    assert (tf.name, tf.base, tf.units) == ("TF", unit["base"], (unit["id"],))

    class Keys(dict):  # type: ignore[type-arg]
        pass

    stored = json.loads(initial_state(load_scenario()).to_json(), object_hook=Keys)
    before = json.dumps(stored, sort_keys=True)
    GameState.from_data(stored)
    assert json.dumps(stored, sort_keys=True) == before


def test_export_of_a_canonical_folder_is_identical(mini_dir: Path, tmp_path: Path) -> None:
    write_scenario(load_scenario(mini_dir), tmp_path)
    for path in mini_dir.iterdir():
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name


def test_a_unit_at_a_base_that_does_not_exist(mini_copy: Path) -> None:
    set_cell(mini_copy, "units.csv", 1, "base", "blue_prot")
    [(file, row, field, message)] = problems_of(mini_copy)
    assert (file, row, field) == ("units.csv", 3, "base")
    assert message == "'blue_prot' is not a base in bases.csv (did you mean 'blue_port'?)"


def test_a_unit_at_an_enemy_base(mini_copy: Path) -> None:
    set_cell(mini_copy, "units.csv", 0, "base", "red_port")
    [(file, row, field, message)] = problems_of(mini_copy)
    assert (file, row, field) == ("units.csv", 2, "base")
    assert "held by red, not by blue or its allies" in message


def test_lsp_only_at_fleet_bases(mini_copy: Path) -> None:
    set_cell(mini_copy, "lsp.csv", 0, "base", "blue_isle")
    [(_, row, field, message)] = problems_of(mini_copy)
    assert (row, field) == (2, "base") and "must be at a fleet base" in message


def test_a_damaged_carrier_cannot_carry_air(mini_copy: Path) -> None:
    set_cell(mini_copy, "units.csv", 0, "state", "damaged")
    [(_, _, field, message)] = problems_of(mini_copy)
    assert field == "carries_air" and "damaged carrier" in message


def test_route_tonnage_beyond_the_nation(mini_copy: Path) -> None:
    set_cell(mini_copy, "routes.csv", 1, "tonnage", "17")
    [(file, _, field, message)] = problems_of(mini_copy)
    assert (file, field) == ("routes.csv", "tonnage")
    assert "take 21 tonnage points but nations.csv gives blue only 20" in message


def test_an_edge_between_areas_that_do_not_touch(mini_copy: Path) -> None:
    add_row(mini_copy, "adjacency.csv", {"a": "inner_sea", "b": "west_sea", "kind": "sea"})
    [(file, row, field, message)] = problems_of(mini_copy)
    assert (file, row, field) == ("adjacency.csv", 5, "kind")
    assert "do not touch" in message


def test_a_cut_off_sea_area_and_a_route_that_cannot_sail(mini_copy: Path) -> None:
    (mini_copy / "adjacency.csv").write_text(
        "a,b,kind,name\neast_sea,north_sea,sea,\nnorth_sea,west_sea,sea,\n", encoding="utf-8"
    )
    found = problems_of(mini_copy)
    assert any("not one connected graph" in m and "inner_sea" in m for *_, m in found)
    assert any(f == "routes.csv" and r == 4 and "not joined by sea" in m for f, r, _, m in found)


def test_all_problems_at_once_across_files(mini_copy: Path) -> None:
    set_cell(mini_copy, "units.csv", 2, "type", "battleship")
    set_cell(mini_copy, "bases.csv", 0, "lat", "95")
    set_cell(mini_copy, "flags.csv", 0, "turn", "9")
    (mini_copy / "cards.csv").unlink()
    found = {(f, r, fld) for f, r, fld, _ in problems_of(mini_copy)}
    assert {
        ("units.csv", 4, "type"),
        ("bases.csv", 2, "lat"),
        ("flags.csv", 2, "turn"),
        ("cards.csv", 0, ""),
    } <= found


def test_a_bad_base_row_does_not_cascade_into_unknown_base_messages(mini_copy: Path) -> None:
    set_cell(mini_copy, "bases.csv", 0, "lon", "east")
    found = problems_of(mini_copy)
    assert [(f, fld) for f, _, fld, _ in found] == [("bases.csv", "lon")]


def test_world_files_default_to_the_built_in_world(mini_copy: Path) -> None:
    (mini_copy / "sea_areas.csv").unlink()
    found = problems_of(mini_copy)  # the mini bases name areas the real world lacks
    assert any(f == "bases.csv" and fld == "sea_area" for f, _, fld, _ in found)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (
            'id = "x"\nname = "y"\nfirst_turn = 1\nlast_turn = 2\nstart_year = 1942\n',
            "start_period",
        ),
        (
            'id = "x"\nname = "y"\nfirst_turn = "1"\nlast_turn = 2\nstart_year = 1942\n'
            "start_period = 1\n",
            "first_turn",
        ),
        (
            'id = "x"\nname = "y"\nfirst_turn = 3\nlast_turn = 2\nstart_year = 1942\n'
            "start_period = 1\n",
            "last_turn",
        ),
        (
            'id = "x"\nname = "y"\nfirst_turn = 1\nlast_turn = 2\nstart_year = 1942\n'
            "start_period = 1\ncolour = 3\n",
            "colour",
        ),
    ],
)
def test_scenario_toml_problems_name_the_key(text: str, field: str) -> None:
    meta, problems = parse_meta(text.encode())
    assert meta is None and problems[0].field == field


def test_scenario_toml_that_is_not_toml() -> None:
    meta, problems = parse_meta(b"id = \n")
    assert meta is None and "not valid TOML" in problems[0].message


def with_options(folder: Path, options: str) -> Path:
    """The scenario's ``scenario.toml`` with this ``[options]`` table instead of its own."""
    toml = folder / "scenario.toml"
    text = toml.read_text(encoding="utf-8").split("[options]")[0]
    toml.write_text(f"{text}[options]\n{options}", encoding="utf-8")
    return toml


def test_options_round_trip(mini_copy: Path, tmp_path: Path) -> None:
    toml = with_options(
        mini_copy,
        'colour_short_row = "gap_yellow"\nimprovised_landing = 1\n'
        "single_task_force_landings = true\n",
    )
    scenario = load_scenario(mini_copy)
    assert scenario.meta.options == {
        "colour_short_row": "gap_yellow",
        "improvised_landing": 1,
        "single_task_force_landings": True,
    }
    write_scenario(scenario, tmp_path / "out")
    assert (tmp_path / "out" / "scenario.toml").read_text() == toml.read_text()


def test_unknown_or_badly_typed_options_are_refused_by_name(mini_copy: Path) -> None:
    with_options(
        mini_copy,
        'colour_row_fix = "orange"\ncolour_short_row = "purple"\n'
        'improvised_landing = "two"\nsingle_task_force_landings = 1\n',
    )
    with pytest.raises(InputError) as caught:
        load_scenario(mini_copy)
    text = str(caught.value)
    assert "'options.colour_row_fix': is not a rule option; valid: colour_short_row" in text
    assert "'options.colour_short_row': 'purple' is not one of: gap_orange" in text
    assert "'options.improvised_landing': must be a whole number" in text
    assert "'options.single_task_force_landings': must be true or false" in text
