"""Hostile files through the app's own open paths (issue 12): a scenario folder for a new
game, a battle set-up for Battle → Fight a battle…, and a game whose log would put a
spreadsheet formula into the exported report."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QInputDialog

from campaign.events import Event
from campaign.gamefile import GameFile, opened
from campaign.scenario import load_scenario
from campaign.tactical import builtin_battles
from ui import export
from ui.battlesetup import FightDialog
from ui.mainwindow import MainWindow
from ui.session import GameSession

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "mini"


def test_a_new_game_from_a_hostile_scenario_folder_is_refused_in_words(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "hostile"
    shutil.copytree(MINI, folder)
    units = (folder / "units.csv").read_text("utf-8")
    (folder / "units.csv").write_text(units.replace("Blue Carriers", "=HYPERLINK(1)"), "utf-8")
    (folder / "bases.csv").write_text(
        (folder / "bases.csv").read_text("utf-8").replace(",-9,51,", ",500,51,"), "utf-8"
    )
    monkeypatch.setattr(QInputDialog, "getItem", lambda _w, _t, _l, items, *a: (items[-1], True))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a: str(folder))
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(window, "error", lambda title, text: shown.append((title, text)))
    before = window.session.scenario.meta.id
    window.new_game()
    assert [title for title, _ in shown] == ["The scenario cannot be used"]
    text = shown[0][1]
    assert "units.csv, row 2, field 'name'" in text and "formula" in text
    assert "bases.csv, row 2, field 'lon'" in text
    assert window.session.scenario.meta.id == before  # the game open stays as it was


def test_fight_a_battle_lists_every_problem_of_a_hostile_set_up(
    qtbot: object, tmp_path: Path
) -> None:
    data = json.loads(builtin_battles()["midway"].read_text("utf-8"))
    data["a"]["ships"][0]["damage"] = -3
    data["a"]["ships"][0]["air_groups"][0]["aircraft"] = 10_000_000
    data["conditions"]["group_strength"] = 0
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data), "utf-8")
    dialog = FightDialog()
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    dialog.battle.add_file(str(path))
    dialog.accept()
    problem = dialog.problem.text()
    assert dialog.chosen is None
    for field in (
        "a.ships[0].damage",
        "a.ships[0].air_groups[0].aircraft",
        "conditions.group_strength",
    ):
        assert f"hostile.json, field '{field}'" in problem


def test_fight_a_battle_refuses_conditions_the_chosen_rules_cannot_use(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A set-up written for no rule set is checked for the one chosen in the dialog."""
    data = json.loads(builtin_battles()["midway"].read_text("utf-8"))
    data["rule_set"] = ""
    data["conditions"]["cap_rings"] = 0
    path = tmp_path / "norules.json"
    path.write_text(json.dumps(data), "utf-8")

    def choose(self: FightDialog) -> int:
        self.battle.add_file(str(path))
        self.rule_set.setCurrentIndex(self.rule_set.findData("carrier"))
        self.accept()
        return int(self.result())

    monkeypatch.setattr(FightDialog, "exec", choose)
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(window, "error", lambda title, text: shown.append((title, text)))
    window.fight_battle()
    assert shown and shown[0][0] == "This battle cannot be fought"
    assert "conditions.cap_rings" in shown[0][1]


def test_the_report_csv_neutralises_a_formula_from_the_game_log(
    qapp: object, tmp_path: Path
) -> None:
    """A cell a spreadsheet would run (``=HYPERLINK(…)`` from a shared game file's log) is
    written with a leading quote; the rest of the report is as it was."""
    path = tmp_path / "game.seacontrol"
    GameFile.create(path, load_scenario(MINI)).close()
    formula = '=HYPERLINK("http://example.invalid","Convoy report")'
    with opened(path) as game:
        game.save(game.state(), events=[Event(1, 0, "note", formula).row()])
    session = GameSession()
    session.open(path)
    try:
        out = export.export_report_csv(session, tmp_path / "report.csv")
    finally:
        session.close()
    rows = list(csv.reader(out.open(encoding="utf-8", newline="")))
    texts = [row[5] for row in rows[1:]]
    assert "'" + formula in texts and formula not in texts
    assert rows[1][0] == "1"  # numbers are left as they are
