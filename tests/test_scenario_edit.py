"""The scenario editor's model (campaign/scenario_edit.py), without Qt: the draft's
problems are the loader's, renames carry through, every edit undoes exactly, and an
unchanged scenario is written back byte for byte."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from campaign import paths
from campaign.csvdata import InputError
from campaign.scenario import load_scenario
from campaign.scenario_edit import (
    Draft,
    Edit,
    InsertRow,
    SetCell,
    builtin_world,
    locate,
    waypoints,
)

from .helpers import read_rows, write_rows


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def snapshot(draft: Draft) -> dict[str, list[list[str]]]:
    return {name: [list(r) for r in rows] for name, rows in draft.rows.items()}


def test_the_built_in_scenario_opens_clean_and_saves_byte_for_byte(tmp_path: Path) -> None:
    source = paths.scenario_dir("1942")
    draft = Draft.open(source)
    assert draft.check().problems == []
    assert draft.check().startable
    draft.save(tmp_path / "out")
    assert files_of(tmp_path / "out") == files_of(source)


def test_an_edit_undone_saves_byte_for_byte_and_a_kept_edit_changes_one_file(
    tmp_path: Path,
) -> None:
    source = paths.scenario_dir("1942")
    draft = Draft.open(source)
    row = draft.find("units", "usa_cv_lexington_saratoga")
    assert row is not None
    undo = draft.apply(draft.cell_edit("units", row, "state", "damaged"))
    draft.apply(undo)
    draft.save(tmp_path / "same")
    assert files_of(tmp_path / "same") == files_of(source)
    draft.apply(draft.cell_edit("units", row, "name", "Lady Lex & Sara"))
    draft.save(tmp_path / "changed")
    changed = files_of(tmp_path / "changed")
    assert [n for n in changed if changed[n] != files_of(source)[n]] == ["units.csv"]
    assert load_scenario(tmp_path / "changed").by_id("units")["usa_cv_lexington_saratoga"][
        "name"
    ] == ("Lady Lex & Sara")


def test_the_drafts_problems_are_the_loaders_with_file_row_and_field(
    mini_copy: Path, tmp_path: Path
) -> None:
    draft = Draft.open(mini_copy)
    assert draft.check().problems == []
    base = draft.find("units", draft.ids("units")[0])
    assert base is not None
    draft.apply(draft.cell_edit("units", base, "base", "atlantis"))
    draft.apply(draft.cell_edit("bases", 1, "lat", "north"))
    draft.apply(draft.meta_edit("first_turn", "soon"))
    found = draft.check()
    assert not found.startable
    draft.save(tmp_path / "broken")
    with pytest.raises(InputError) as exc:
        load_scenario(tmp_path / "broken")
    assert sorted(found.problems) == sorted(exc.value.problems)
    where = {(p.file, p.row, p.field) for p in found.problems}
    assert ("units.csv", base + 2, "base") in where
    assert ("bases.csv", 3, "lat") in where
    assert ("scenario.toml", 0, "first_turn") in where


def test_renaming_a_base_renames_every_reference_and_undo_puts_them_back(mini_copy: Path) -> None:
    draft = Draft.open(mini_copy)
    before = snapshot(draft)
    refs = draft.references("bases", "blue_port")
    assert {r.table for r in refs} >= {"units", "routes", "lsp", "air"}
    row = draft.find("bases", "blue_port")
    assert row is not None
    edit = draft.cell_edit("bases", row, "id", "blue_haven")
    assert edit.label.startswith("Rename base 'blue_port' to 'blue_haven'")
    undo = draft.apply(edit)
    assert draft.references("bases", "blue_port") == []
    assert len(draft.references("bases", "blue_haven")) == len(refs)
    assert draft.check().problems == []
    draft.apply(undo)
    assert snapshot(draft) == before


def test_a_route_waypoint_follows_a_renamed_sea_area(mini_copy: Path) -> None:
    draft = Draft.open(mini_copy)
    row = draft.find("routes", "red_inner")
    assert row is not None
    draft.apply(draft.cell_edit("routes", row, "via", "east_sea;inner_sea"))
    area = draft.find("sea_areas", "inner_sea")
    assert area is not None
    draft.apply(draft.cell_edit("sea_areas", area, "id", "inner_basin"))
    assert draft.cell("routes", row, "via") == "east_sea;inner_basin"
    assert draft.check().problems == []


def test_renaming_to_a_taken_id_changes_the_cell_alone(mini_copy: Path) -> None:
    draft = Draft.open(mini_copy)
    row = draft.find("bases", "blue_port")
    assert row is not None
    edit = draft.cell_edit("bases", row, "id", "red_port")
    assert len(edit.ops) == 1
    draft.apply(edit)
    messages = [str(p) for p in draft.check().problems]
    assert any("bases.csv" in m and "duplicate" in m for m in messages)


def test_deleting_lists_what_refers_to_the_rows(mini_copy: Path) -> None:
    draft = Draft.open(mini_copy)
    row = draft.find("bases", "red_port")
    assert row is not None
    refs = draft.referrers("bases", [row])
    described = [draft.describe(r) for r in refs]
    assert any(d.startswith("units.csv") and d.endswith(": base") for d in described)
    assert any(d.startswith("routes.csv") and d.endswith(": origin") for d in described)
    draft.apply(draft.delete_edit("bases", [row]))
    messages = [str(p) for p in draft.check().problems]
    assert any("'red_port' is not a base in bases.csv" in m for m in messages)


def test_add_and_duplicate_make_fresh_ids_and_undo_exactly(mini_copy: Path) -> None:
    draft = Draft.open(mini_copy)
    before = snapshot(draft)
    undo_add = draft.apply(draft.add_edit("bases", {"name": "Gull Rock"}))
    added = draft.record("bases", len(draft.rows["bases"]) - 1)
    assert added["id"] == "base" and added["name"] == "Gull Rock"
    assert added["nation"] == "blue" and added["kind"] == "fleet_base"
    undo_dup = draft.apply(draft.duplicate_edit("bases", [0, 1]))
    assert draft.ids("bases")[2:4] == ["blue_port_copy", "blue_isle_copy"]
    assert len(set(draft.ids("bases"))) == len(draft.ids("bases"))
    draft.apply(undo_dup)
    draft.apply(undo_add)
    assert snapshot(draft) == before


def test_an_edit_and_its_undo_are_inverse_whatever_the_operations(mini_copy: Path) -> None:
    draft = Draft.open(mini_copy)
    before = snapshot(draft)
    edit = Edit(
        "mixed",
        (
            InsertRow("units", 0, ("x", "blue", "escort", "X", "blue_port", "ready", "no", "")),
            SetCell("units", 1, "name", "changed"),
            *draft.delete_edit("bases", [0, 2]).ops,
        ),
    )
    undo = draft.apply(edit)
    redo = draft.apply(undo)
    after = snapshot(draft)
    draft.apply(redo)
    draft.apply(draft.apply(Edit("again", undo.ops)))
    assert snapshot(draft) != before
    draft.apply(undo)
    assert snapshot(draft) == before
    assert after == before


def test_a_new_scenario_is_written_without_the_built_in_world(tmp_path: Path) -> None:
    draft = Draft.new()
    assert len(draft.rows["sea_areas"]) == len(builtin_world())
    draft.save(tmp_path / "new")
    names = set(files_of(tmp_path / "new"))
    assert "sea_areas.csv" not in names and "adjacency.csv" not in names
    assert {"scenario.toml", "nations.csv", "bases.csv", "units.csv"} <= names
    assert "ships.csv" not in names  # optional and empty
    assert Draft.open(tmp_path / "new").check().problems == draft.check().problems


def test_formula_text_is_not_saved_even_in_a_draft(mini_copy: Path, tmp_path: Path) -> None:
    draft = Draft.open(mini_copy)
    draft.apply(draft.cell_edit("bases", 0, "name", '=HYPERLINK("http://x")'))
    with pytest.raises(InputError) as exc:
        draft.save(tmp_path / "out")
    assert "bases.csv, row 2, field 'name'" in str(exc.value)
    assert not (tmp_path / "out").exists()


def test_a_file_the_editor_cannot_show_is_refused_with_its_reason(mini_copy: Path) -> None:
    header, rows = read_rows(mini_copy / "units.csv")
    write_rows(mini_copy / "units.csv", [*header, "crew"], [[*r, "5"] for r in rows])
    (mini_copy / "cards.csv").write_bytes("id,nation\n\xe9".encode("latin-1"))
    with pytest.raises(InputError) as exc:
        Draft.open(mini_copy)
    text = str(exc.value)
    assert "units.csv, row 1, field 'crew': is not a column of this file" in text
    assert "cards.csv" in text and "UTF-8" in text


def test_a_row_the_loader_refuses_is_kept_to_be_fixed(mini_copy: Path) -> None:
    header, rows = read_rows(mini_copy / "units.csv")
    rows[0][header.index("type")] = "battlewagon"
    write_rows(mini_copy / "units.csv", header, rows)
    draft = Draft.open(mini_copy)
    assert draft.cell("units", 0, "type") == "battlewagon"
    problem = draft.check().errors[0]
    assert (problem.file, problem.row, problem.field) == ("units.csv", 2, "type")
    draft.apply(draft.cell_edit("units", 0, "type", "fleet_carrier"))
    assert draft.check().startable


def test_waypoints_make_the_shortest_path_the_one_drawn() -> None:
    world = builtin_world()
    plain = world.path("north_sea", "eastern_mediterranean")
    assert waypoints(world, plain) == []
    detour = (
        world.path("western_approaches", "cape_basin") + world.path("cape_basin", "arabian_sea")[1:]
    )
    via = waypoints(world, detour)
    assert via and world.path(detour[0], detour[-1], via) == detour


def test_locate_finds_the_area_at_a_point_or_the_nearest_to_a_coast() -> None:
    world = builtin_world()
    assert locate(world, -157.95, 21.35) == ("hawaiian_islands", True)
    area, inside = locate(world, -3.2, 55.9)  # Edinburgh, on land by the North Sea
    assert (area, inside) == ("north_sea", False)


def test_the_settings_form_edits_scenario_toml(mini_copy: Path, tmp_path: Path) -> None:
    draft = Draft.open(mini_copy)
    assert draft.options == {"single_task_force_landings": "true"}
    draft.apply(draft.meta_edit("options.fleet_train_lsp", "3"))
    draft.apply(draft.meta_edit("name", 'Mini "two"'))
    draft.save(tmp_path / "out")
    meta = load_scenario(tmp_path / "out").meta
    assert meta.options == {"single_task_force_landings": True, "fleet_train_lsp": 3}
    assert meta.name == 'Mini "two"'
    draft.apply(draft.meta_edit("options.fleet_train_lsp", "many"))
    problem = draft.check().errors[0]
    assert (problem.file, problem.field) == ("scenario.toml", "options.fleet_train_lsp")


def test_a_copy_of_a_scenario_keeps_its_own_world(mini_copy: Path, tmp_path: Path) -> None:
    draft = Draft.open(mini_copy)
    assert len(draft.world()) == 4
    draft.save(tmp_path / "again")
    assert files_of(tmp_path / "again") == files_of(mini_copy)
    shutil.rmtree(tmp_path / "again")


def test_a_pasted_block_sets_cells_and_adds_records_with_fresh_ids(mini_copy: Path) -> None:
    draft = Draft.open(mini_copy)
    before = snapshot(draft)
    last = len(draft.rows["bases"]) - 1
    edit = draft.paste_edit("bases", last, 1, [["Rock of Ages", "red"], ["Gull Isle"], ["Tern"]])
    undo = draft.apply(edit)
    assert draft.cell("bases", last, "name") == "Rock of Ages"
    assert draft.ids("bases")[-2:] == ["base", "base_2"]
    assert [draft.cell("bases", r, "name") for r in (last + 1, last + 2)] == ["Gull Isle", "Tern"]
    draft.apply(undo)
    assert snapshot(draft) == before
    too_wide = draft.paste_edit("lsp", 0, 2, [["7", "extra", "cells"]])
    assert too_wide.ops == (SetCell("lsp", 0, "points", "7"),)
    cleared = draft.clear_edit("units", [(0, "notes"), (0, "notes"), (1, "notes")])
    assert [op.row for op in cleared.ops if isinstance(op, SetCell)] == [0]
