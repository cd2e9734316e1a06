"""The indexes a turn keeps so that its questions do not grow with the world times the
events (places by sea area, units by base, Advantage Cards by target, range cards by task
force, the interventions' candidate areas), each held to the plain reading it replaced."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Sequence

import pytest

from campaign import operations, paths
from campaign.board import Board
from campaign.cards import card_bonus
from campaign.context import Turn
from campaign.dice import DiceLog
from campaign.engine import seeded
from campaign.logistics import _air_at, strategic_transfers
from campaign.operations import plan_operations
from campaign.orders import (
    AirTransfer,
    CardPlay,
    Orders,
    load_orders,
    range_cards_by_task_force,
)
from campaign.record import CardEffect
from campaign.scenario import Scenario, load_scenario
from campaign.state import AirUnit, FleetTrain, GameState, Unit, initial_state

SAMPLES = paths.scenario_dir("1942") / "sample-orders"


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario()


def sample_orders() -> dict[str, Orders]:
    return {
        f.stem: load_orders(f.read_text(encoding="utf-8"), f.stem) for f in SAMPLES.glob("*.json")
    }


def turn_of(scenario: Scenario, state: GameState, orders: dict[str, Orders], step: int) -> Turn:
    return Turn(scenario, state, orders, seeded(1)(state.turn, step, DiceLog()))


def test_places_in_an_area_are_the_places_whose_sea_area_it_is(scenario: Scenario) -> None:
    state = initial_state(scenario)
    area = str(scenario.rows("bases")[0]["sea_area"])
    state.fleet_trains["ft"] = FleetTrain("ft", "usa", "Train", area, "pearl_harbour", "r", 1)
    board = Board(scenario, state)
    for a in board.world.areas:
        assert board.places_in(a) == tuple(b for b in board.bases if board.area_of(b) == a)
    assert "ft" in board.places_in(area)
    assert board.places_in("no_such_area") == ()


def test_units_at_a_base_follow_the_units_as_a_step_moves_and_adds_them(
    scenario: Scenario,
) -> None:
    state = initial_state(scenario)
    t = turn_of(scenario, state, {}, 8)
    bases = sorted({u.base for u in state.units.values()})

    def plain(base: str) -> list[Unit]:
        return [u for u in state.units.values() if u.base == base]

    def all_agree() -> None:
        for base in [*bases, "nowhere"]:
            assert t.units_at(base) == plain(base), base

    all_agree()
    rng = random.Random(4)
    units = list(state.units.values())
    for _ in range(60):  # moved there and back again, as captures and transfers move them
        unit = rng.choice(units)
        t.move_unit(unit, rng.choice(bases))
        all_agree()
    # a unit set down in the table by a step (a ship commissioned) is found too
    new = Unit("usa_new", "usa", "destroyer", "New", bases[0])
    state.units[new.id] = new
    all_agree()
    assert t.units_at(bases[0])[-1] is new
    # and one put in another's place in the table: the one in the table, not the old one
    old = units[0]
    state.units[old.id] = Unit(old.id, old.nation, old.type, old.name, old.base, "damaged")
    all_agree()


def test_air_at_a_place_follows_the_air_points_a_step_adds_moves_and_removes(
    scenario: Scenario,
) -> None:
    state = initial_state(scenario)
    t = turn_of(scenario, state, {}, 8)
    places = [*sorted({a.base for a in state.air.values()}), "midway", "nowhere"]

    def all_agree() -> None:
        for place in places:
            assert t.air_at(place) == [a for a in state.air.values() if a.base == place], place

    all_agree()
    rng = random.Random(7)
    for i in range(80):  # as landings, captures and carriers' losses change them
        act = rng.random()
        if act < 0.3 and state.air:
            t.remove_air(rng.choice(list(state.air.values())))
        elif act < 0.6:
            t.add_air(AirUnit(f"new{i}", "usa", rng.choice(places), "land", 1))
        elif state.air:
            t.move_air(rng.choice(list(state.air.values())), rng.choice(places))
        all_agree()
    # changed by another step, not through the turn: found all the same when the count moves
    state.air["other"] = AirUnit("other", "uk", places[0], "land", 2)
    all_agree()


@pytest.mark.parametrize("seed", range(4))
def test_air_flown_in_step_3_joins_as_the_plain_reading_joins(
    scenario: Scenario, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Air Points flown to a place join the first there (by id) of their nation and kind,
    or split off: the same Air Points end where they ended when every flight read every
    Air Point (Turn.air_at replaced by the plain reading)."""
    rng = random.Random(seed)
    state = initial_state(scenario)
    mine = [a for a in state.air.values() if a.nation in ("usa", "uk")]
    places = sorted({a.base for a in mine})
    for place in places:  # two of a kind where they fly: the first by id is joined
        for name in ("z", "a"):
            for nation, kind in sorted({(a.nation, a.kind) for a in mine}):
                air_id = f"{nation}_{kind}_{name}_{place}"
                state.air[air_id] = AirUnit(air_id, nation, place, kind, 1)
    flights = {
        nation: tuple(
            AirTransfer(a.id, rng.choice(places), rng.choice((0, 0, 1)))
            for a in rng.sample(mine, len(mine))
            if a.nation == nation
        )
        for nation in ("usa", "uk")
    }
    orders = {n: Orders(n, 1, air_transfers=f) for n, f in flights.items()}

    t = turn_of(scenario, state, orders, 3)
    for place in [*places, "nowhere"]:
        for nation, kind in {(a.nation, a.kind) for a in mine}:
            for exclude in ("", f"{nation}_{kind}_a_{place}"):
                first = next(
                    (
                        a
                        for a in sorted(state.air.values(), key=lambda a: a.id)
                        if a.id != exclude and (a.nation, a.kind, a.base) == (nation, kind, place)
                    ),
                    None,
                )
                assert _air_at(t, nation, kind, place, exclude) is first

    def flown() -> str:
        work = copy.deepcopy(state)
        strategic_transfers(turn_of(scenario, work, orders, 3))
        return work.to_json()

    indexed = flown()
    monkeypatch.setattr(
        Turn, "air_at", lambda self, place: [a for a in self.state.air.values() if a.base == place]
    )
    assert flown() == indexed
    assert indexed != state.to_json()


def test_ships_in_a_captured_port_fall_back_to_their_nations_nearest_fleet_base(
    scenario: Scenario,
) -> None:
    """002 (a capture): enemy units in port fall back to their nation's nearest fleet base,
    or are lost with the place when their nation holds none; Air Points there are
    removed. Each nation's base is weighed once for all its ships."""
    state = initial_state(scenario)
    board = Board(scenario, state)
    place = "midway"
    spot = (board.bases[place]["lon"], board.bases[place]["lat"])
    expected = board.nearest_fleet_base("usa", spot)
    ships = [u for u in state.units.values() if u.nation == "usa"][:3]
    dutch = next(u for u in state.units.values() if u.nation == "netherlands")
    for unit in (*ships, dutch):
        unit.base = place
    for base in board.fleet_bases_of("netherlands"):
        state.holders[base] = "japan"
    state.air["usa_midway_air"] = AirUnit("usa_midway_air", "usa", place, "land", 2)
    t = turn_of(scenario, state, {}, 8)
    asked: list[str] = []
    nearest = Board.nearest_fleet_base

    def counted(b: Board, nation: str, at: tuple[float, float]) -> str:
        asked.append(nation)
        return nearest(b, nation, at)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Board, "nearest_fleet_base", counted)
        operations._capture(t, Board(scenario, state), place, "japan", 1)
    assert sorted(asked) == ["netherlands", "usa"]
    assert all(u.base == expected and u.state != "sunk" for u in ships)
    assert dutch.state == "sunk" and dutch.base == place
    assert "usa_midway_air" not in state.air and t.units_at(place) == [dutch]
    assert state.holders[place] == "japan"
    moved = [e for e in t.events if e.kind == "unit_transferred"]
    assert [e.data["unit"] for e in moved] == [u.id for u in ships]
    assert [e.data["unit"] for e in t.events if e.kind == "unit_sunk"] == [dutch.id]


def _plain_card_bonus(
    effects: list[CardEffect],
    use: str,
    task_forces: Sequence[tuple[str, str]],
    route: str,
    nations: set[str] | None,
    peek: bool,
) -> int:
    """card_bonus as it read the list before the index (the reference)."""
    total = 0
    for effect in effects:
        if effect.use != use or effect.used:
            continue
        if nations is not None and effect.beneficiary not in nations:
            continue
        aimed = (effect.beneficiary, effect.task_force)
        if (effect.task_force and aimed in task_forces) or (route and effect.route == route):
            effect.used = effect.used or not peek
            total += effect.value if use == "die_bonus" else 1
    return total


@pytest.mark.parametrize("seed", range(6))
def test_card_bonus_from_the_index_is_the_plain_reading(scenario: Scenario, seed: int) -> None:
    rng = random.Random(seed)
    uses, nations = ("die_bonus", "column_shift", "range"), ("usa", "uk", "japan")
    tfs, routes = ("tf1", "tf2", "tf3"), ("r1", "r2")
    effects = [
        CardEffect(
            f"c{i}",
            rng.choice(nations),
            rng.choice(uses),
            rng.randint(1, 3),
            rng.choice(nations),
            task_force=rng.choice(("", *tfs)),
            route=rng.choice(("", "", *routes)),
        )
        for i in range(40)
    ]
    state = initial_state(scenario)
    state.turn_record.cards = effects
    reference = copy.deepcopy(effects)
    t = turn_of(scenario, state, {}, 8)
    for _ in range(80):
        use = rng.choice(uses)
        aimed = [(rng.choice(nations), rng.choice(tfs)) for _ in range(rng.randint(0, 3))]
        route = rng.choice(("", *routes))
        who = rng.choice((None, {rng.choice(nations)}, set(nations)))
        peek = rng.random() < 0.3
        got = card_bonus(t, use, task_forces=aimed, route=route, nations=who, peek=peek)
        assert got == _plain_card_bonus(reference, use, aimed, route, who, peek)
        assert [e.used for e in effects] == [e.used for e in reference]
        if rng.random() < 0.1:  # a card played after the index was made
            more = CardEffect("late", "usa", use, 2, "usa", task_force="tf1")
            effects.append(more)
            reference.append(copy.deepcopy(more))


def test_range_cards_of_every_task_force_at_once(scenario: Scenario) -> None:
    orders = sample_orders()
    rng = random.Random(2)
    extra = tuple(
        CardPlay(
            f"card{i}",
            "range",
            task_force=rng.choice(("tf11", "r_cover", "x")),
            beneficiary=rng.choice(("", "usa", "uk", "japan")),
        )
        for i in range(12)
    )
    orders["usa"] = dataclasses.replace(orders["usa"], cards=extra)
    everyone = list(orders.values())
    counted = range_cards_by_task_force(everyone)
    board = Board(scenario, initial_state(scenario))
    for nation, mine in orders.items():
        for tf in (*mine.task_forces, *(t for o in everyone for t in o.task_forces)):
            plain = sum(
                1
                for o in everyone
                for card in o.cards
                if card.use == "range"
                and card.task_force == tf.id
                and (card.beneficiary or o.nation) == nation
            )
            assert counted[(nation, tf.id)] == plain
            assert board.task_force_reach(nation, tf.id, everyone) == board.naval_range(plain)
            assert board.reach_with(counted, nation, tf.id) == board.naval_range(plain)
    assert sum(counted.values()) == sum(1 for o in everyone for c in o.cards if c.use == "range")


def test_interventions_weigh_only_the_areas_in_reach_and_miss_none(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A task force standing by without areas named intervenes against the nearest enemy
    operation in its reach: looking only at the areas in its reach (many operations) finds
    what asking every operation's area (a few) finds (the 1942 sample orders: two
    squadrons intervene)."""
    state = initial_state(scenario)
    orders = sample_orders()

    def plans(few: int) -> list[tuple[str, list[tuple[str, str]]]]:
        monkeypatch.setattr(operations, "_FEW_OPERATION_AREAS", few)
        found, _ = plan_operations(turn_of(scenario, copy.deepcopy(state), orders, 8))
        return [(p.area, list(p.interveners)) for p in found]

    each_asked = plans(10**9)
    assert any(interveners for _, interveners in each_asked)
    assert plans(0) == each_asked
