"""Issue 13's readings of 002, each checked in play on the mini scenario with scripted dice
(see docs/rules-notes.md for the passages)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from campaign.engine import Campaign
from campaign.gamefile import GameFile
from campaign.scenario import load_scenario
from tests.test_engine import give, scripted
from tests.test_scenario import with_options


@pytest.fixture
def game(tmp_path: Path, mini_dir: Path) -> Path:
    path = tmp_path / "g.seacontrol"
    GameFile.create(path, load_scenario(mini_dir)).close()
    return path


def _blue_carriers_in_the_east(**tf: Any) -> dict[str, Any]:
    return {
        "nation": "blue",
        "turn": 1,
        "task_forces": [
            {"id": "cv", "name": "Carrier Group", "base": "blue_port", "units": ["blue_cv1"]}
            | {"lsp": 1}
            | tf
        ],
        "operations": [
            {"id": "sweep", "kind": "sea_control", "area": "east_sea", "task_forces": ["cv"]}
        ],
    }


RED_BATTLESHIPS = {
    "nation": "red",
    "turn": 1,
    "task_forces": [
        {"id": "bb", "name": "Red Fleet", "base": "red_port", "units": ["red_bb1"], "lsp": 1}
    ],
}


def test_a_force_sunk_to_the_last_unit_does_not_win_by_losing_less(game: Path) -> None:
    """Blue's carrier group (CV 11) is damaged (loses 11 CV); Red's battleships (CV 5) are
    sunk (lose 5). Red lost less combat value but has nothing left afloat: Blue wins and
    holds the area (the literal comparison is the option annihilated_can_win)."""
    with Campaign.open(game) as c:
        give(c, _blue_carriers_in_the_east(), RED_BATTLESHIPS)
        # step 8: Blue (CV 11, +1 2:1, +2 air) rolls 1 → column 4 → 2 steps: Red sunk;
        # Red (CV 5, -1 outnumbered, -2 air, +1 own fleet base) rolls 6 → column 4 → 1 step
        c.resolve(dice=scripted({8: [1, 6]}))
        result = next(e for e in c.events() if e.kind == "battle_result")
        assert result.data["cv_lost"] == {"allies": 11, "axis": 5}
        assert result.data["winner"] == "allies"
        assert "sunk to the last unit" in result.text
        assert any(e.kind == "sea_control" for e in c.events())


def game_with_options(tmp_path: Path, folder: Path, options: str) -> Path:
    """A new game of the scenario in ``folder`` with this ``[options]`` table."""
    with_options(folder, options)
    path = tmp_path / "options.seacontrol"
    GameFile.create(path, load_scenario(folder)).close()
    return path


def test_the_literal_reading_lets_the_sunk_force_win(tmp_path: Path, mini_copy: Path) -> None:
    path = game_with_options(tmp_path, mini_copy, "annihilated_can_win = true\n")
    with Campaign.open(path) as c:
        give(c, _blue_carriers_in_the_east(), RED_BATTLESHIPS)
        c.resolve(dice=scripted({8: [1, 6]}))
        result = next(e for e in c.events() if e.kind == "battle_result")
        assert result.data["winner"] == "axis"
