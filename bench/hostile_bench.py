"""How fast hostile files are refused, and how long the largest legal battles take.

Run: ``python bench/hostile_bench.py``. Targets (issue 12): an absurd file is refused in
well under a second, however big — 20 MB of notes in orders, arrays nested 10,000 deep, a
5,000-digit number, a battle of ten million aircraft (before the checks: 14 s and 0.9 GB),
a 21 MB ``units.csv`` — and a set-up at the documented limits (docs/battle-setups.md,
"Limits") is fought in seconds, not minutes.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from campaign.cli import main  # noqa: E402
from campaign.dice import SeededDice  # noqa: E402
from campaign.tactical import (  # noqa: E402
    MAX_BATTLE_AIRCRAFT,
    MAX_SHIPS,
    RULE_SETS,
    BattleSetup,
    run,
    surface,
)
from campaign.tactical.outcome import in_rule_set_terms  # noqa: E402
from campaign.tactical.simulate import available  # noqa: E402

MINI = ROOT / "tests" / "fixtures" / "mini"


def quiet(args: list[str]) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(args)


def timed(label: str, action: Callable[[], object]) -> None:
    start = time.perf_counter()
    result = action()
    print(f"  {label:<58} {time.perf_counter() - start:7.3f} s  ({result})")


def ship(side: str, i: int, kind: str, groups: list[dict[str, object]]) -> dict[str, object]:
    return {
        "id": f"{side}{i}",
        "name": f"Ship {side}{i}",
        "nation": "usa" if side == "a" else "japan",
        "type": kind,
        "tonnage": 30_000,
        "completed": 1940,
        "speed": 30,
        "guns": {"14in": 8, "5in": 8} if kind == "battleship" else {"5in": 8},
        "aa": 20,
        "belt": 5,
        "deck": 3,
        "turret": 5,
        "torpedo_tubes": 8 if kind == "destroyer" else 0,
        "air_groups": groups,
    }


def carriers(per_side: int, conditions: dict[str, object]) -> dict[str, object]:
    """``per_side`` carriers a side with as many aircraft as a battle may have."""
    each = MAX_BATTLE_AIRCRAFT // (2 * per_side * 3)
    sides = {}
    for side in "ab":
        ships = [
            ship(
                side,
                i,
                "carrier",
                [
                    {"id": f"{side}{i}{k}", "kind": k, "aircraft": each, "model": "SBD"}
                    for k in ("fighter", "dive_bomber", "torpedo_bomber")
                ],
            )
            for i in range(per_side)
        ]
        sides[side] = {"name": side, "nation": ships[0]["nation"], "ships": ships}
    return {"title": "limits", "a": sides["a"], "b": sides["b"], "conditions": conditions}


def line(kind: str, per_side: int, conditions: dict[str, object]) -> dict[str, object]:
    sides = {}
    for side in "ab":
        ships = [ship(side, i, kind, []) for i in range(per_side)]
        sides[side] = {"name": side, "nation": ships[0]["nation"], "ships": ships}
    return {"title": "limits", "a": sides["a"], "b": sides["b"], "conditions": conditions}


def fight(folder: Path, rule_set: str, data: dict[str, object]) -> str:
    path = folder / "setup.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    setup = in_rule_set_terms(rule_set, BattleSetup.load(path, rule_set))
    battle = RULE_SETS[rule_set](setup, SeededDice("bench"))
    battle.narrate = False
    return f"{run(battle).turns} turns"


def main_bench() -> None:
    available()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        game = folder / "mini.seacontrol"
        quiet(["new", str(MINI), "-o", str(game)])
        orders = folder / "orders.json"

        def check_orders(data: bytes) -> Callable[[], int]:
            def go() -> int:
                orders.write_bytes(data)
                return quiet(["orders", str(game), "blue", str(orders), "--check"])

            return go

        print("Refusing hostile files (exit code in brackets):")
        notes = json.dumps({"nation": "blue", "notes": "x" * 20 * 1024 * 1024}).encode()
        timed("orders: 20 MB of notes", check_orders(notes))
        timed("orders: an array nested 10,000 deep", check_orders(b"[" * 10_000 + b"]" * 10_000))
        digits = b'{"nation": "blue", "turn": ' + b"9" * 5000 + b"}"
        timed("orders: a 5,000-digit turn", check_orders(digits))

        midway = json.loads((ROOT / "data" / "battles" / "midway.json").read_text("utf-8"))
        midway["a"]["ships"][0]["air_groups"][0]["aircraft"] = 10_000_000
        absurd = folder / "absurd.json"
        absurd.write_text(json.dumps(midway), encoding="utf-8")
        timed(
            "battle carrier: ten million aircraft",
            lambda: quiet(["battle", "carrier", "--setup", str(absurd)]),
        )
        timed(
            "odds carrier --runs 1000: ten million aircraft",
            lambda: quiet(["odds", "carrier", "--setup", str(absurd), "--runs", "1000"]),
        )

        scenario = folder / "scenario"
        shutil.copytree(MINI, scenario)
        with (scenario / "units.csv").open("ab") as f:
            f.write(b"#" * (21 * 1024 * 1024))
        timed("validate: a 21 MB units.csv", lambda: quiet(["validate", str(scenario)]))

        print(
            f"Battles at the limits ({MAX_BATTLE_AIRCRAFT:,} aircraft, {MAX_SHIPS} ships a side):"
        )
        timed(
            "carrier: 2 x 5 carriers, groups of 1 strength point",
            lambda: fight(folder, "carrier", carriers(5, {"group_strength": 1, "turn_limit": 200})),
        )
        timed(
            "fastplay: 2 x 5 carriers, 200 turns",
            lambda: fight(folder, "fastplay", carriers(5, {"turn_limit": 200})),
        )
        timed(
            "airstrike: 2 x 5 carriers, 20 strikes",
            lambda: fight(folder, "airstrike", carriers(5, {"strikes": 20})),
        )
        timed(
            f"fastplay: 2 x {MAX_SHIPS} battleships at 24 inches",
            lambda: fight(folder, "fastplay", line("battleship", MAX_SHIPS, {"start_range": 24})),
        )
        most = surface.MAX_SHIPS_A_SIDE
        for kind in ("battleship", "destroyer"):

            def fight_line(kind: str = kind) -> str:
                return fight(folder, "surface", line(kind, most, {"visibility": 300}))

            timed(f"surface: 2 x {most} {kind}s, 45 moves", fight_line)
        timed(
            f"surface: 2 x {most} destroyers, 200 moves",
            lambda: fight(
                folder, "surface", line("destroyer", most, {"visibility": 300, "turn_limit": 200})
            ),
        )


if __name__ == "__main__":
    main_bench()
