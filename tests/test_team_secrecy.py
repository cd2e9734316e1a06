"""Team secrecy (issue 12 item 7): canaries in every free-text field of one nation's orders
and scenario rows must never reach a team of the other side — its report (text and JSON),
its ``show`` and ``view`` (text and JSON) and its :class:`~campaign.teamview.TeamView` —
except the names of units that team fought, which combat reveals (docs/team-views.md).
And a team's view does not change when a fact it cannot know changes.

The app's outputs (exports, map, details) are checked in tests/ui/test_team_secrecy_ui.py.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from campaign import paths
from campaign.cli import main
from campaign.engine import Campaign
from campaign.events import Event, visible
from campaign.gamefile import GameFile
from campaign.orders import load_orders
from campaign.scenario import load_scenario, write_scenario
from campaign.state import Unit
from campaign.teampack import team_pack
from campaign.teamview import team_view
from tests.helpers import add_row

#: every canary begins so (no place in the 1942 world does: "Canary Islands" would)
CANARY = re.compile(r"qzx\w*", re.IGNORECASE)
SAMPLES = paths.scenario_dir("1942") / "sample-orders"
NATIONS_1942 = (
    "usa",
    "uk",
    "japan",
    "germany",
    "italy",
    "free_france",
    "netherlands",
    "vichy_france",
    "ussr",
)


# -- planting canaries ---------------------------------------------------------------------
def _rewrite(path: Path, change: Any) -> None:
    """Rewrite a CSV file row by row: ``change(row)`` edits a row (a dict) in place."""
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    if not rows:
        return
    for row in rows:
        change(row)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


def plant_scenario_canaries(folder: Path, nation: str) -> dict[str, str]:
    """A canary in every free-text field of ``nation``'s scenario rows that is not public
    (base names and scenario route names are on the public map and chart). Returns unit id
    → its name's canary (a unit's name is revealed to the enemies that fight it)."""
    unit_names: dict[str, str] = {}
    owned_ships: set[str] = set()

    def units(row: dict[str, str]) -> None:
        if row["nation"] == nation:
            row["name"] = f"Qzxunit{len(unit_names)}"
            row["notes"] = f"qzxnote {row['id']}"
            unit_names[row["id"]] = row["name"]

    def ships(row: dict[str, str]) -> None:
        if row["nation"] == nation:
            owned_ships.add(row["id"])
            row["class"] = f"Qzxclass {row['id']}"
            row["notes"] = f"qzxnote {row['id']}"

    def air_groups(row: dict[str, str]) -> None:
        if row["ship"] in owned_ships:
            row["model"] = f"Qzxmodel {row['id']}"
            row["notes"] = f"qzxnote {row['id']}"

    def of_nation(*fields: str, key: str = "nation") -> Any:
        def change(row: dict[str, str]) -> None:
            if row.get(key) == nation:
                for f in fields:
                    row[f] = f"qzx{f} {row.get('id', '')}"

        return change

    _rewrite(folder / "units.csv", units)
    if (folder / "ships.csv").exists():
        _rewrite(folder / "ships.csv", ships)
        _rewrite(folder / "air_groups.csv", air_groups)
    _rewrite(folder / "air.csv", of_nation("notes"))
    _rewrite(folder / "production.csv", of_nation("name", "notes"))
    _rewrite(folder / "cards.csv", of_nation("title"))
    _rewrite(folder / "routes.csv", of_nation("notes"))
    _rewrite(folder / "shipyards.csv", of_nation("name"))
    _rewrite(folder / "bases.csv", of_nation("notes", key="holder"))
    _rewrite(folder / "nations.csv", of_nation("notes", key="id"))
    return unit_names


def plant_order_canaries(orders: dict[str, Any]) -> dict[str, Any]:
    """The same orders with a canary for every id and name a team types (task forces,
    operations, card texts, a new route's name, notes) — a new route's id stays: it is the
    route's public handle (docs/team-views.md)."""
    orders = copy.deepcopy(orders)
    tf_ids = {tf["id"]: f"qzxtf{i}" for i, tf in enumerate(orders.get("task_forces", []))}
    for i, tf in enumerate(orders.get("task_forces", [])):
        tf["id"] = tf_ids[tf["id"]]
        tf["name"] = f"Qzx task force {i}"
    for i, op in enumerate(orders.get("operations", [])):
        op["id"] = f"qzxop{i}"
        op["task_forces"] = [tf_ids[t] for t in op["task_forces"]]
        if op.get("invasion_force"):
            op["invasion_force"] = tf_ids[op["invasion_force"]]
    for card in orders.get("cards", []):
        if card.get("task_force") in tf_ids:
            card["task_force"] = tf_ids[card["task_force"]]
        if card.get("use") == "other":
            card["text"] = "Qzx request to Game Control"
    for i, route in enumerate(orders.get("new_routes", [])):
        route["name"] = f"Qzx route {i}"
    orders["notes"] = "qzx notes"
    return orders


# -- what a team gets ------------------------------------------------------------------------
def cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0, args
    return capsys.readouterr().out


def team_outputs(
    capsys: pytest.CaptureFixture[str], game: Path, nation: str, turns: Iterable[int]
) -> dict[str, str]:
    """Every output a team can get from the engine and the command line, and its team
    packs."""
    out: dict[str, str] = {}
    with Campaign.open(game) as c:
        out["view JSON"] = c.team_view(nation).to_json()
        for turn in turns:
            out[f"report turn {turn}"] = c.report(nation, turn)
            # the pack Game Control prints for the turn (its report is the turn before's)
            pack = team_pack(c, nation, turn, join="http://h:1")
            out[f"team pack turn {turn}"] = json.dumps(pack.to_data(), ensure_ascii=False)
    g = str(game)
    for turn in turns:
        out[f"report --json turn {turn}"] = cli(
            capsys, "report", g, "--nation", nation, "--turn", str(turn), "--json"
        )
    out["show"] = cli(capsys, "show", g, "--nation", nation)
    out["show --json"] = cli(capsys, "show", g, "--nation", nation, "--json")
    out["view"] = cli(capsys, "view", g, nation)
    out["view --json"] = cli(capsys, "view", g, nation, "--json")
    return out


def fought_units(events: list[Event], nation: str) -> set[str]:
    """Units ``nation`` fought or saw hit in a combat it took part in (Game Control's log):
    combat reveals them (docs/team-views.md)."""
    seen: set[str] = set()
    for e in events:
        if nation not in e.visible_to:
            continue
        if e.kind == "naval_combat":
            seen |= {u for side in e.data["sides"].values() for u in side["units"]}
        elif e.kind == "merchant_combat":
            seen |= set(e.data["raiders"]) | set(e.data["escorts"])
        elif e.kind in ("unit_damaged", "unit_sunk"):
            seen.add(e.data["unit"])
    return seen


def assert_no_canary(
    outputs: dict[str, str], allowed: set[str], viewer: str, planted: Iterable[str]
) -> None:
    found = {
        (where, hit.group(0))
        for where, text in outputs.items()
        for hit in CANARY.finditer(text)
        if hit.group(0) not in allowed
    }
    assert not found, f"{viewer} learns: {sorted(found)[:12]}"
    # the canaries were planted (a test that finds nothing because nothing was there fails)
    assert set(planted)


# -- the 1942 scenario with its sample orders -----------------------------------------------
def canary_1942(folder: Path, to_step: int = 10) -> tuple[Path, dict[str, str]]:
    """A 1942 game with Japan's scenario rows and orders full of canaries (Japan also
    creating a route and asking Game Control something), the sample orders of every other
    nation, turn 1 resolved up to ``to_step``. Returns the game and Japan's unit names."""
    scenario_dir = folder / "1942"
    write_scenario(load_scenario(paths.scenario_dir("1942")), scenario_dir)
    names = plant_scenario_canaries(scenario_dir, "japan")
    game = folder / "war.seacontrol"
    GameFile.create(game, load_scenario(scenario_dir)).close()
    with Campaign.open(game) as c:
        for nation in NATIONS_1942:
            orders = json.loads((SAMPLES / f"{nation}.json").read_text(encoding="utf-8"))
            if nation == "japan":
                orders["new_routes"] = [
                    {
                        "id": "japan_new_line",
                        "name": "",
                        "origin": "nagasaki",
                        "destination": "truk",
                        "tonnage": 0,
                    }
                ]
                orders["cards"].append({"card": "jpn_owada_group", "use": "other", "text": ""})
                orders = plant_order_canaries(orders)
            c.set_orders(nation, load_orders(json.dumps(orders), nation))
        c.resolve(to_step=to_step, seed=1942)
    return game, names


@pytest.fixture(scope="module")
def war_1942(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """Turn 1 of :func:`canary_1942` resolved, and turn 2 with no orders."""
    game, names = canary_1942(tmp_path_factory.mktemp("war"))
    with Campaign.open(game) as c:
        c.resolve(seed=1942)
    return game, names


ALLIES_1942 = ("usa", "uk", "free_france", "netherlands", "ussr", "vichy_france")


@pytest.mark.parametrize("viewer", ALLIES_1942)
def test_no_japanese_secret_reaches_an_other_side_team_in_1942(
    war_1942: tuple[Path, dict[str, str]], viewer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game, names = war_1942
    with Campaign.open(game) as c:
        everything = c.events()
    outputs = team_outputs(capsys, game, viewer, (1, 2))
    allowed = {names[u] for u in fought_units(everything, viewer) if u in names}
    assert_no_canary(outputs, allowed, viewer, names.values())


def test_the_1942_canaries_are_there_for_game_control_and_japan(
    war_1942: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    # the planted canaries do reach Japan's own outputs and Game Control's: the search
    # above would find them if the filter let them through
    game, names = war_1942
    japan = "\n".join(team_outputs(capsys, game, "japan", (1,)).values())
    for canary in (
        "qzxop0",
        "qzxtf0",
        "Qzx task force 0",
        "Qzx route 0",
        "Qzx request to Game Control",
    ):
        assert canary in japan, canary
    with Campaign.open(game) as c:
        umpire = c.report(None, 1)
    # reports name an operation by what, where and whose task forces, not by its id
    assert "Qzx task force 2" in umpire and "qzxop1" not in umpire
    # and Japan's enemies learned the Japanese units they fought, by name
    usa = team_outputs(capsys, game, "usa", (1,))["report turn 1"]
    assert any(name in usa for name in names.values())


def test_every_secret_event_kind_of_1942_has_a_public_form_without_canaries(
    war_1942: tuple[Path, dict[str, str]],
) -> None:
    game, _ = war_1942
    with Campaign.open(game) as c:
        everything = c.events()
    covered = {e.kind for e in everything if e.cover is not None}
    assert {
        "task_force_formed",
        "flag_placed",
        "route_created",
        "task_force_intervenes",
        "operation_unopposed",
        "sea_control",
        "battle_result",
        "landing_succeeded",
    } <= covered
    for e in everything:
        if e.cover is not None:
            text = e.cover.text + json.dumps(e.cover.data)
            assert not CANARY.search(text), (e.kind, e.cover)


# -- cases built for each event kind (the mini scenario) ---------------------------------------
RED_TURNS: dict[int, dict[str, Any]] = {
    1: {
        "nation": "red",
        "turn": 1,
        "new_routes": [
            {"id": "red_line", "name": "", "origin": "red_port", "destination": "red_far"}
        ],
        "task_forces": [
            {"id": "raider", "name": "", "base": "red_port", "units": ["red_bb1"], "lsp": 1}
        ],
        "raids": [{"route": "blue_north", "area": "north_sea", "units": ["red_ss1"]}],
        "operations": [
            {
                "id": "raid",
                "kind": "surface_raid",
                "area": "north_sea",
                "route": "blue_north",
                "task_forces": ["raider"],
            }
        ],
        "cards": [{"card": "red_surprise", "use": "other", "text": ""}],
    },
    2: {
        "nation": "red",
        "turn": 2,
        "task_forces": [
            {"id": "landing", "name": "", "base": "red_port", "units": ["red_bb2"], "lsp": 1}
        ],
        "operations": [
            {
                "id": "isle",
                "kind": "minor_invasion",
                "area": "north_sea",
                "target": "blue_isle",
                "task_forces": ["landing"],
                "invasion_force": "landing",
                "manpower": 1,
            }
        ],
    },
    3: {
        "nation": "red",
        "turn": 3,
        "task_forces": [
            {
                "id": "big",
                "name": "",
                "base": "red_port",
                "units": ["red_cl1", "red_lc1"],
                "lsp": 1,
            },
            {"id": "sweep", "name": "", "base": "red_port", "units": ["red_es1"], "lsp": 1},
        ],
        "operations": [
            {
                "id": "ashore",
                "kind": "major_invasion",
                "area": "west_sea",
                "target": "blue_port",
                "task_forces": ["big"],
                "invasion_force": "big",
                "manpower": 2,
            },
            {"id": "hold", "kind": "sea_control", "area": "east_sea", "task_forces": ["sweep"]},
        ],
    },
}
BLUE_TURNS: dict[int, dict[str, Any]] = {
    1: {
        "nation": "blue",
        "turn": 1,
        "task_forces": [
            {
                "id": "home",
                "name": "Home Fleet",
                "base": "blue_port",
                "units": ["blue_cv1"],
                "lsp": 1,
            }
        ],
        "escorts": [{"route": "blue_north", "units": ["blue_es1"]}],
    },
}


@pytest.fixture(scope="module")
def mini_war(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], set[str]]:
    """Three turns of the mini scenario: Red (canaries everywhere) creates a route, raids
    Blue's route with submarines and a surface raider (Blue's carriers intervene), asks Game
    Control something, invades Blue's isle, makes a major landing and holds a sea area."""
    return play_mini_war(tmp_path_factory.mktemp("mini") / "mini", SEED)


#: the dice seed of the mini war: one whose battles leave a unit damaged and not sunk, so
#: every kind of event a secret nation can cause is exercised
SEED = "secrets-4-"


def play_mini_war(folder: Path, seed: str) -> tuple[Path, dict[str, str], set[str]]:
    from tests.conftest import MINI

    write_scenario(load_scenario(MINI), folder)
    for unit, kind in (
        ("red_bb2", "heavy"),
        ("red_cl1", "light_cruiser"),
        ("red_es1", "escort"),
        ("red_lc1", "landing_craft"),
    ):
        add_row(
            folder,
            "units.csv",
            {
                "id": unit,
                "nation": "red",
                "type": kind,
                "name": unit,
                "base": "red_port",
                "state": "ready",
                "carries_air": "no",
            },
        )
    _rewrite(
        folder / "lsp.csv", lambda row: row.update(points="9") if row["nation"] == "red" else None
    )
    names = plant_scenario_canaries(folder, "red")
    game = folder.parent / "mini.seacontrol"
    GameFile.create(game, load_scenario(folder)).close()
    kinds: set[str] = set()
    with Campaign.open(game) as c:
        for turn in (1, 2, 3):
            for data in (RED_TURNS[turn], BLUE_TURNS.get(turn)):
                if data is None:
                    continue
                orders = plant_order_canaries(data) if data["nation"] == "red" else data
                c.set_orders(data["nation"], load_orders(json.dumps(orders), data["nation"]))
            kinds |= {e.kind for e in c.resolve(seed=f"{seed}{turn}")}
    return game, names, kinds


def test_the_mini_cases_exercise_every_event_kind_of_a_secret_nation(
    mini_war: tuple[Path, dict[str, str], set[str]],
) -> None:
    _, _, kinds = mini_war
    assert {
        "route_created",
        "task_force_formed",
        "raiders_allocated",
        "flag_placed",
        "card_played",
        "task_force_intervenes",
        "naval_combat",
        "battle_result",
        "operation_failed",
        "merchant_combat",
        "unit_damaged",
        "operation_unopposed",
        "landing_succeeded",
        "major_landing",
        "sea_control",
        "lsp_consumed",
        "unit_commissioned",
        "route_cut",
    } <= kinds, kinds


@pytest.mark.parametrize("viewer", ["blue", "grey"])
def test_no_red_secret_reaches_blue_or_a_neutral(
    mini_war: tuple[Path, dict[str, str], set[str]],
    viewer: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    game, names, _ = mini_war
    with Campaign.open(game) as c:
        everything = c.events()
    outputs = team_outputs(capsys, game, viewer, (1, 2, 3))
    allowed = {names[u] for u in fought_units(everything, viewer) if u in names}
    assert_no_canary(outputs, allowed, viewer, names.values())
    if viewer == "blue":
        assert allowed, "Blue fought Red's raiders: their names are known to it"


def test_red_reads_its_own_secrets(
    mini_war: tuple[Path, dict[str, str], set[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    game, _, _ = mini_war
    red = "\n".join(team_outputs(capsys, game, "red", (1, 2, 3)).values())
    for canary in ("qzxop0", "Qzx task force 0", "Qzx route 0", "Qzx request"):
        assert canary in red, canary


# -- hidden facts do not change a view ---------------------------------------------------------
def test_a_view_does_not_change_with_facts_its_team_cannot_know(
    mini_war: tuple[Path, dict[str, str], set[str]],
) -> None:
    game, _, _ = mini_war
    with Campaign.open(game) as c:
        scenario, state, events = c.scenario, c.state, c.events()
    before = team_view(scenario, state, events, "blue").to_json()
    hidden = copy.deepcopy(state)
    # a Red unit planted in a Red port, Red's tonnage on its routes and unallocated, its
    # LSP, its Air Points and garrisons, its cards played, a Red unit repaired in port
    hidden.units["red_planted"] = Unit("red_planted", "red", "heavy", "Planted", "red_port")
    hidden.routes["red_inner"] += 7
    hidden.tonnage["red"] = hidden.tonnage.get("red", 0) + 5
    hidden.add_lsp("red_port", "red", 3)
    hidden.air["red_air1"].points += 2
    hidden.garrisons.setdefault("rock", {})["red"] = 9
    hidden.cards_played.append("red_surprise")
    for unit in hidden.units.values():
        if unit.nation == "red" and unit.state == "damaged":
            unit.state = "ready"
    assert hidden.to_json() != state.to_json()
    assert team_view(scenario, hidden, events, "blue").to_json() == before
    # and the same change is seen by Red itself
    assert (
        team_view(scenario, hidden, events, "red").to_json()
        != team_view(scenario, state, events, "red").to_json()
    )


def test_a_view_does_not_change_with_events_its_team_cannot_see(
    mini_war: tuple[Path, dict[str, str], set[str]],
) -> None:
    game, _, _ = mini_war
    with Campaign.open(game) as c:
        scenario, state, events = c.scenario, c.state, c.events()
    before = team_view(scenario, state, events, "blue").to_json()
    secret = Event(
        3, 5, "task_force_formed", "Task Force 'x' formed", "red", {"units": []}, ("red",)
    )
    assert team_view(scenario, state, [*events, secret], "blue").to_json() == before
    # a public event does reach the view: the test can fail
    public = Event(3, 10, "turn_started", "Turn 4 begins.")
    assert team_view(scenario, state, [*events, public], "blue").to_json() != before


def test_the_view_is_made_of_the_visible_events_only(
    mini_war: tuple[Path, dict[str, str], set[str]],
) -> None:
    game, _, _ = mini_war
    with Campaign.open(game) as c:
        view = c.team_view("blue")
        assert list(view.events) == visible(c.events(), "blue")
        assert view.to_json() == c.team_view("blue").to_json()  # deterministic


def test_allies_share_their_forces_unless_the_scenario_says_not(
    war_1942: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    game, names = war_1942
    with Campaign.open(game) as c:
        scenario, state, events = c.scenario, c.state, c.events()
    germany = team_view(scenario, state, events, "germany")
    # Japan is Germany's ally: its units are in Germany's view, whole
    assert {u.nation for u in germany.allied_units} == {"italy", "japan"}
    assert set(names.values()) <= {u.name for u in germany.allied_units if u.nation == "japan"}
    assert not [u for u in germany.allied_units if u.nation == "usa"]
    # the rule option turns the sharing off
    folder = tmp_path / "alone"
    write_scenario(scenario, folder)
    toml = folder / "scenario.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8") + "\n[options]\nallies_share_forces = false\n",
        encoding="utf-8",
    )
    alone = team_view(load_scenario(folder), state, events, "germany")
    assert alone.allied_units == () and alone.allied_air == () and alone.allied_garrisons == ()
    assert alone.units == germany.units


def game_with_fleet_train(
    folder: Path, mini_dir: Path, train_id: str, name: str, contested: bool = False
) -> Path:
    """The mini scenario's game with Blue's fleet train ``train_id`` called ``name`` set up
    in the North Sea in turn 1 (turn 1 resolved); ``contested``: the train's sea area then
    contested, as a step 8 may leave it (its supply route does not work next turn, and every
    team reads why)."""
    from campaign.gamefile import GameFile
    from campaign.orders import parse_orders
    from campaign.scenario import load_scenario

    path = folder / "train.seacontrol"
    GameFile.create(path, load_scenario(mini_dir)).close()
    train = {
        "id": train_id,
        "name": name,
        "area": "north_sea",
        "origin": "blue_port",
        "tonnage": 10,
        "lsp": 2,
    }
    with Campaign.open(path) as c:
        c.set_orders("blue", parse_orders({"nation": "blue", "turn": 1, "fleet_trains": [train]}))
        c.resolve(seed=1)
        assert train_id in c.state.fleet_trains
        if contested:
            state = c.state
            state.contested = {c.board().side_key("blue"): ["north_sea"]}
            c.game.save(state)
    return path


def test_a_fleet_trains_name_and_supply_stay_with_its_side(
    tmp_path: Path, mini_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fleet train is a base on the map (its sea area and whose it is are public); the
    name its team gave it, its origin and its route's tonnage are not — nor is it named in
    why its supply route does not work while its sea area is contested."""
    path = game_with_fleet_train(
        tmp_path, mini_dir, "ft_qzxtrainid", "Qzxtrainname Squadron", contested=True
    )
    with Campaign.open(path) as c:
        c.resolve(seed=1)
        assert any(e.kind == "route_cut" for e in c.events(None, 2))
    outputs = team_outputs(capsys, path, "red", [1, 2, 3])
    hits = {h.group(0).lower() for text in outputs.values() for h in CANARY.finditer(text)}
    # the train's id is its place's id on the map (orders must name a base to act on it);
    # the name its team typed stays with its side
    assert "qzxtrainname" not in hits
    assert "Fleet train of Blueland" in outputs["view JSON"]
    assert "qzxtrainname" in {
        h.group(0).lower()
        for h in CANARY.finditer(team_outputs(capsys, path, "blue", [1])["view JSON"])
    }


def test_a_task_force_counter_at_a_fleet_train_says_whose_train(
    tmp_path: Path, mini_dir: Path
) -> None:
    """Step 5's public cover of a task force formed at a fleet train: the counter is placed
    at whose train it is, not at the name its team typed."""
    import copy

    from campaign.allocation import allocate_units
    from campaign.context import Turn
    from campaign.dice import ScriptedDice
    from campaign.orders import parse_orders

    path = game_with_fleet_train(tmp_path, mini_dir, "ft_a", "Qzxtrainname")
    with Campaign.open(path) as c:
        tf = {"id": "tf", "name": "Force", "base": "ft_a", "units": ["blue_bb1"]}
        orders = parse_orders({"nation": "blue", "turn": 2, "task_forces": [tf]})
        turn = Turn(c.scenario, copy.deepcopy(c.state), {"blue": orders}, ScriptedDice([]))
    allocate_units(turn)
    [formed] = [e for e in turn.events if e.kind == "task_force_formed"]
    assert "Qzxtrainname" in formed.text  # the team's own words keep its name
    assert formed.cover is not None
    assert formed.cover.text == (
        "A task force counter of Blueland is placed at Fleet train of Blueland (North Sea)."
    )
