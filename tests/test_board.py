"""The questions several parts of the program ask live once, in Board: a task force's reach
(with range cards, an ally's too), a route's state, who escorts and attacks a route."""

from __future__ import annotations

import gc
import weakref

import pytest

from campaign import paths
from campaign.board import CONTESTED, CUT, WORKING, Board
from campaign.dice import DiceLog
from campaign.engine import seeded
from campaign.orders import CardPlay, Escort, Operation, Orders, Raid, TaskForce, load_orders
from campaign.production import production_due, with_production
from campaign.record import SurfaceRaid
from campaign.rules import check_orders
from campaign.scenario import Scenario, load_scenario
from campaign.scenario_edit import Draft
from campaign.state import FleetTrain, GameState, initial_state
from campaign.turn import STEPS, Turn, older_objects_set_aside


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario()


def _us_task_force() -> TaskForce:
    return TaskForce("tf8", "TF 8", "pearl_harbour", ("usa_cv_enterprise_yorktown",), lsp=1)


def _area_at(board: Board, base: str, moves: int) -> str:
    start = board.area_of(base)
    return min(a for a in board.world.areas if board.world.distance(start, a) == moves)


def test_an_allys_range_card_extends_the_reach_everywhere_it_is_asked(
    scenario: Scenario,
) -> None:
    board = Board(scenario, initial_state(scenario))
    tf = _us_task_force()
    far = _area_at(board, tf.base, board.naval_range() + 1)
    usa = Orders(
        "usa", 1, task_forces=(tf,), operations=(Operation("op", "sea_control", far, ("tf8",)),)
    )
    assert board.task_force_reach("usa", "tf8", [usa]) == board.naval_range()
    refused = check_orders(board, usa, {})
    assert any("its range is 4" in p.message for p in refused)
    # the UK plays a card to extend the American task force's range
    uk = Orders("uk", 1, cards=(CardPlay(_uk_card(scenario), "range", "tf8", beneficiary="usa"),))
    assert board.task_force_reach("usa", "tf8", [usa, uk]) == board.naval_range() + 1
    assert check_orders(board, usa, {"uk": uk}) == []
    assert far in board.areas_within(tf.base, board.task_force_reach("usa", "tf8", [usa, uk]))
    # a card the UK plays for its own task force of the same id does not help the Americans
    uk_own = Orders("uk", 1, cards=(CardPlay(_uk_card(scenario), "range", "tf8"),))
    assert board.task_force_reach("usa", "tf8", [usa, uk_own]) == board.naval_range()


def _uk_card(scenario: Scenario) -> str:
    return next(str(c["id"]) for c in scenario.rows("cards") if c["nation"] == "uk")


def test_route_status_working_contested_and_cut(scenario: Scenario) -> None:
    state = initial_state(scenario)
    board = Board(scenario, state)
    route = "usa_west_hawaii"
    assert board.route_status(route).state == WORKING
    row = board.route_rows[route]
    # contested at one of its ends: not working
    state.contested = {"allies": [board.area_of(str(row["destination"]))]}
    status = Board(scenario, state).route_status(route)
    assert status.state == CONTESTED and not status.working
    assert Board(scenario, state).route_working(route) == (False, status.why)
    # contested only along the way: it still works, and says where it passes
    middle = [
        a
        for a in board.route(route).path
        if a not in {board.area_of(str(row["origin"])), board.area_of(str(row["destination"]))}
    ]
    if middle:
        state.contested = {"allies": [middle[0]]}
        status = Board(scenario, state).route_status(route)
        assert status.working and status.passes_contested == (middle[0],)
    # an end held by the enemy: cut
    state.contested = {}
    state.holders[str(row["destination"])] = "japan"
    status = Board(scenario, state).route_status(route)
    assert status.state == CUT and "held by Japan" in status.why


def test_route_status_follows_the_contested_areas_one_board_is_asked_about(
    scenario: Scenario,
) -> None:
    """One board asked again and again while the contested areas change: through Game
    Control's edit (which replaces its side's list), a list replaced, and a list changed in
    place. Every answer is the one a new board gives; the side's set is made once a list."""
    from campaign.control import SetContested

    state = initial_state(scenario)
    board = Board(scenario, state)
    route = "usa_west_hawaii"
    end = board.area_of(str(board.route_rows[route]["destination"]))

    def same_as_a_new_board() -> str:
        status = board.route_status(route)
        assert status == Board(scenario, state).route_status(route)
        assert board.contested_for("usa") == set(state.contested.get("allies", ()))
        return status.state

    # a sea area no route of the Allies' ends in, and off this route's path
    other = next(
        a
        for a in board.world.areas
        if a not in board.route(route).path
        and all(
            board.area_of(str(r[k])) != a
            for r in board.route_rows.values()
            for k in ("origin", "destination")
        )
    )
    assert same_as_a_new_board() == WORKING
    SetContested("allies", end, True).apply(board)
    assert same_as_a_new_board() == CONTESTED
    assert board.contested_for("usa") is board.contested_for("uk")  # kept, not made again
    SetContested("allies", other, True).apply(board)  # the side's list replaced by the edit
    SetContested("allies", end, False).apply(board)
    assert state.contested == {"allies": [other]} and same_as_a_new_board() == WORKING
    SetContested("allies", other, False).apply(board)
    assert "allies" not in state.contested and same_as_a_new_board() == WORKING
    state.contested = {"allies": [end]}  # replaced
    assert same_as_a_new_board() == CONTESTED
    state.contested = {"allies": [other]}
    assert same_as_a_new_board() == WORKING
    state.contested["allies"].append(end)  # changed in place
    assert same_as_a_new_board() == CONTESTED
    state.contested["allies"].remove(end)
    assert same_as_a_new_board() == WORKING
    assert board.contested_for("japan") == set()  # the Axis: nothing contested


def test_escorts_and_attackers_of_a_route(scenario: Scenario) -> None:
    board = Board(scenario, initial_state(scenario))
    route = "usa_west_hawaii"
    area = board.route(route).path[0]
    orders = {
        "usa": Orders("usa", 1, escorts=(Escort(route, ("usa_dd_pacific",)),)),
        "japan": Orders("japan", 1, raids=(Raid(route, area, ("japan_ss_6th_fleet",)),)),
    }
    escorts = board.escorts(route, orders)
    assert [(e.nation, e.units) for e in escorts] == [("usa", ("usa_dd_pacific",))]
    raid = SurfaceRaid("japan", route, area, ("japan_bb_1",))
    attackers = board.attackers(route, orders, [raid])
    assert [(a.nation, a.area, a.surface) for a in attackers] == [
        ("japan", area, False),
        ("japan", area, True),
    ]
    assert board.escorts("uk_gibraltar", orders) == []


def test_every_routes_escorts_and_attackers_at_once_match_one_route_at_a_time(
    scenario: Scenario,
) -> None:
    """Step 9 reads each route's escorts and attackers from one pass over the orders: the
    same forces, in the same order, as asking route by route."""
    board = Board(scenario, initial_state(scenario))
    hawaii, gibraltar = "usa_west_hawaii", "uk_gibraltar"
    area = board.route(hawaii).path[0]
    orders = {
        "usa": Orders(
            "usa",
            1,
            escorts=(
                Escort(hawaii, ("usa_dd_pacific",)),
                Escort(gibraltar, ("usa_dd_atlantic",)),
                Escort(hawaii, ("usa_ca_pacific",)),
            ),
        ),
        "uk": Orders("uk", 1, escorts=(Escort(hawaii, ("uk_dd_1",)),)),
        "japan": Orders("japan", 1, raids=(Raid(hawaii, area, ("japan_ss_6th_fleet",)),)),
        "germany": Orders("germany", 1, raids=(Raid(gibraltar, area, ("germany_ss_1",)),)),
    }
    raids = [SurfaceRaid("japan", hawaii, area, ("japan_bb_1",))]
    escorts = board.escorts_by_route(orders)
    attackers = board.attackers_by_route(orders, raids)
    for route in board.route_ids():
        assert escorts.get(route, []) == board.escorts(route, orders)
        assert attackers.get(route, []) == board.attackers(route, orders, raids)
    assert [e.units for e in escorts[hawaii]] == [
        ("usa_dd_pacific",),
        ("usa_ca_pacific",),
        ("uk_dd_1",),
    ]
    assert [a.surface for a in attackers[hawaii]] == [False, True]


def _train_and_its_route(state: GameState, origin: str, area: str) -> None:
    state.fleet_trains["ft"] = FleetTrain("ft", "usa", "Train", area, origin, "ft_supply", 1)
    state.extra_routes["ft_supply"] = {
        "id": "ft_supply",
        "serial": 99,
        "name": "Train supply",
        "nation": "usa",
        "origin": origin,
        "destination": "ft",
        "via": [],
        "tonnage": 0,
        "notes": "",
    }


def test_a_routes_path_follows_its_fleet_train_and_its_status_the_holder(
    scenario: Scenario,
) -> None:
    """Paths are kept between calls (World.path, by the sea areas they join): a fleet train
    that moves takes its supply route's path along, and a base changing hands cuts a route
    though its path was asked for before."""
    state = initial_state(scenario)
    board = Board(scenario, state)
    origin = "pearl_harbour"
    first, second = board.area_of(origin), _area_at(board, origin, 3)
    _train_and_its_route(state, origin, first)
    assert Board(scenario, state).route("ft_supply").path == (first,)
    state.fleet_trains["ft"].area = second
    moved = Board(scenario, state).route("ft_supply").path
    assert moved[0] == first and moved[-1] == second and len(moved) == 4
    route = "usa_west_hawaii"
    before = Board(scenario, state)
    assert before.route(route).path and before.route_status(route).working
    state.holders[str(before.route_rows[route]["destination"])] = "japan"
    after = Board(scenario, state)
    assert after.route(route).path == before.route(route).path
    assert after.route_status(route).state == CUT


def test_a_turn_with_a_fleet_train_lays_it_over_the_places_once_a_step_at_most(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn makes a board for each question or two: every unit hit makes one to name the
    unit's nation. A board used to lay the fleet trains over the places when it was made,
    copying every place, so a big world's turn with a fleet train grew with its places
    times its hits (the 100x world's turn, 97 ms without a train, took 137 with one). It
    lays them when first asked for a place."""
    state = initial_state(scenario)
    _train_and_its_route(state, "pearl_harbour", Board(scenario, state).area_of("pearl_harbour"))
    samples = paths.scenario_dir("1942") / "sample-orders"
    orders = {
        n: load_orders((samples / f"{n}.json").read_text(encoding="utf-8"), n)
        for n in Board(scenario, state).teams()
        if (samples / f"{n}.json").is_file()
    }
    made: list[Board] = []
    laid: list[str] = []
    make, lay = Board.__init__, Board._rows
    monkeypatch.setattr(Board, "__init__", lambda b, *a: made.append(b) or make(b, *a))
    monkeypatch.setattr(Board, "_rows", lambda b, table: laid.append(table) or lay(b, table))
    dice = seeded(1)
    for step in STEPS:
        turn = Turn(scenario, state, orders, dice(state.turn, step.number, DiceLog()))
        state.step = step.number
        step.run(turn)
    assert len(made) > 3 * len(STEPS)  # boards made for a question or two each
    assert 0 < laid.count("bases") <= len(STEPS)
    # nor does a board copy the places' sea areas, the train among them, until asked: a
    # step asks once, or once a nation (step 4 weighs each nation's routes on a board)
    copied = [b for b in made if "bases" in vars(b) or "place_areas" in vars(b)]
    assert 0 < len(copied) <= len(STEPS) + len(orders)
    # nor make the trains' rows (a big world has as many trains as copies, and as many
    # boards as hits): only the boards asked about a place made them
    rows_made = [b for b in made if "_train_rows" in vars(b)]
    assert 0 < len(rows_made) < len(made) // 2
    assert Board(scenario, state).place_name("ft") == "Train"  # and still laid when asked
    # a board knows the trains where they were when it was made, first asked or not
    home = Board(scenario, state).area_of("ft")
    moved_to = _area_at(Board(scenario, state), "pearl_harbour", 2)
    board = Board(scenario, state)
    state.fleet_trains["ft"].area = moved_to
    assert board.area_of("ft") == home and board.bases["ft"]["sea_area"] == home
    assert Board(scenario, state).area_of("ft") == moved_to


def test_routes_by_area_are_those_whose_path_passes_it_in_the_order_given(
    scenario: Scenario,
) -> None:
    """``routes_by_area`` indexes the routes asked about by the sea areas of their paths
    (for callers that look for routes near a place): every area gives the routes whose
    path has it, in the order given; a fleet train's supply route follows the train."""
    state = initial_state(scenario)
    origin = "pearl_harbour"
    _train_and_its_route(state, origin, Board(scenario, state).area_of(origin))
    state.fleet_trains["ft"].area = _area_at(Board(scenario, state), origin, 3)
    board = Board(scenario, state)
    assert len(board.route_path("ft_supply")) == 4
    routes = board.route_ids()
    for given in (routes, routes[::-1], routes[::3]):
        index = board.routes_by_area(given)
        for area in board.world.areas:
            expected = tuple(r for r in given if area in board.route_path(r))
            assert index.get(area, ()) == expected, area
        assert set(index) == {a for r in given for a in board.route_path(r)}
    assert "ft_supply" in board.routes_by_area(routes)[_area_at(board, origin, 3)]


def test_an_air_units_areas_are_those_it_reaches(scenario: Scenario) -> None:
    """``air_areas`` answers ``air_in_range`` for every area at once, by the air ranges of
    the turn (air_ranges.csv: the US land-based range grows from 0 to 1 in turn 13)."""
    found: dict[int, set[str]] = {}
    for turn in (1, 13):
        state = initial_state(scenario)
        state.turn = turn
        board = Board(scenario, state)
        for air in state.air:
            reached = {a for a in board.world.areas if board.air_in_range(air, a)}
            assert board.air_areas(air) == reached, (turn, air)
        found[turn] = board.air_areas("usa_air_hawaii")
    assert found[1] < found[13]
    assert board.air_areas("no_such_air") == set()


def test_a_nations_routes_and_its_tonnage_count_the_routes_made_in_play(
    scenario: Scenario,
) -> None:
    state = initial_state(scenario)
    _train_and_its_route(state, "pearl_harbour", "hawaiian_islands")
    state.routes["ft_supply"] = 3
    board = Board(scenario, state)
    for nation in board.nations:
        mine = [r["id"] for r in scenario.rows("routes") if r["nation"] == nation]
        mine += ["ft_supply"] if nation == "usa" else []
        assert list(board.routes_of(nation)) == mine
        allocated = sum(t for r, t in state.routes.items() if r in mine)
        expected = allocated + state.tonnage.get(nation, 0)
        assert state.total_tonnage(nation, board.routes_of(nation)) == expected
    assert "ft_supply" in board.route_ids()
    assert board.route_name_for("ft_supply", "usa") == "Train supply"
    assert board.route_nation("ft_supply") == "usa"


def test_a_created_route_that_reuses_a_scenario_routes_id_is_counted_once(
    scenario: Scenario,
) -> None:
    """A game file edited by hand may hold a created route under a scenario route's id:
    the created row wins (as in ``route_rows``), its tonnage counted once, for its nation."""
    route = "usa_west_hawaii"
    row = scenario.by_id("routes")[route]
    for nation in ("usa", "uk"):
        state = initial_state(scenario)
        state.extra_routes[route] = {**row, "nation": nation}
        board = Board(scenario, state)
        for n in ("usa", "uk"):
            owned = [r for r in board.route_rows if board.route_nation(r) == n]
            expected = sum(state.routes.get(r, 0) for r in owned) + state.tonnage.get(n, 0)
            assert state.total_tonnage(n, board.routes_of(n)) == expected
            assert (route in board.routes_of(n)) == (n == nation)


def test_sea_areas_are_named_from_the_world_the_board_draws(scenario: Scenario) -> None:
    """The scenario editor's map is a scenario whose world is drawn from the draft, its
    sea-area table left empty: its areas are named all the same."""
    draft = Draft.from_scenario(scenario)
    drawable = draft.drawable(draft.check())
    assert not drawable.rows("sea_areas")
    board = Board(drawable, initial_state(drawable))
    names = {r["id"]: r["name"] for r in scenario.rows("sea_areas")}
    assert all(board.area_name(a) == names[a] for a in drawable.world.areas)


def test_a_board_names_its_places_as_they_were_when_it_was_made(
    scenario: Scenario,
) -> None:
    """A step that sets up a fleet train goes on naming places with the board it began
    with; a new board knows the train by its name, kind and holder."""
    state = initial_state(scenario)
    before = Board(scenario, state)
    _train_and_its_route(state, "pearl_harbour", "hawaiian_islands")
    assert before.place_name("pearl_harbour") == "Pearl Harbour"
    assert before.place_name("ft") == "ft"
    after = Board(scenario, state)
    assert after.place_name("ft") == "Train"
    assert after.holder("ft") == "usa"
    assert after.public_place_name("ft") == "Fleet train of United States"
    assert after.area_of("ft") == "hawaiian_islands"


def test_the_orders_projection_leaves_the_state_as_it_was(scenario: Scenario) -> None:
    """The board the orders are checked on has the ships step 2 will commission; the state
    itself gains none (the projection shares all but its units with it)."""
    state = initial_state(scenario)
    state.turn = min(row["turn"] for row in scenario.rows("production"))
    before = state.to_json()
    projected = with_production(scenario, state)
    due = {row["id"] for row, base in production_due(Board(scenario, state)) if base}
    assert due and due <= set(projected.units) and not due & set(state.units)
    assert state.to_json() == before


def test_with_no_ship_due_the_orders_see_the_state_itself(scenario: Scenario) -> None:
    """No projection is made (nor its copy of every unit) for a turn before any ship is
    due, nor once step 2 has run."""
    state = initial_state(scenario)
    state.turn = min(row["turn"] for row in scenario.rows("production")) - 1
    assert not production_due(Board(scenario, state))
    assert with_production(scenario, state) is state
    state.turn += 1
    assert with_production(scenario, state) is not state
    state.step = 2
    assert with_production(scenario, state) is state


def test_a_turn_sets_older_objects_aside_and_gives_them_back() -> None:
    """The collector is paused during a turn and what existed before it set aside:
    afterwards nothing is left frozen, the collector runs again, and garbage made during
    the turn is collected."""
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    with older_objects_set_aside():
        assert gc.get_freeze_count() > 0 and not gc.isenabled()
        cycle: list[object] = []
        cycle.append(cycle)
        watch = weakref.ref(_Node(cycle))
        kept = _Node("kept")
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    # what the turn made joins the oldest generation unwalked: no young collection starts
    assert gc.get_count()[0] < 10
    assert any(o is kept for o in gc.get_objects(generation=2))
    gc.collect()
    assert watch() is None
    gc.disable()
    try:
        with older_objects_set_aside():
            pass
        assert not gc.isenabled()  # a collector paused by someone else stays paused
    finally:
        gc.enable()


class _Node:
    def __init__(self, payload: object) -> None:
        self.me = self
        self.payload = payload


def test_fleet_bases_by_holder_are_each_nations_fleet_bases_from_one_pass(
    scenario: Scenario,
) -> None:
    """Step 2 asks for the fleet bases of each nation with a ship due: one pass over the
    places now gives every nation's (``fleet_bases_by_holder``), in the places' order, as
    ``fleet_bases_of`` gives one nation's. ``is_fleet_base`` reads the places' kind and
    from-turn columns: for every place it answers as the places' rows say — a fleet base
    from its first turn (Saigon from turn 4), a fleet train while it can support the
    fleet, a captured base for its new holder."""
    state = initial_state(scenario)
    _train_and_its_route(state, "pearl_harbour", Board(scenario, state).area_of("pearl_harbour"))
    state.holders["scapa_flow"] = "germany"
    for turn in (1, 4):
        state.turn = turn
        board = Board(scenario, state)
        usable: list[str] = []  # the places' rows read plainly, in their order
        for place, row in board.bases.items():
            if row["kind"] == "fleet_train":
                usable_here = board.fleet_train_support(place)[0]
            else:
                start = row["from_turn"]
                usable_here = row["kind"] == "fleet_base" and (start is None or turn >= start)
            assert board.is_fleet_base(place) == usable_here, (place, turn)
            if usable_here:
                usable.append(place)
        assert board.is_fleet_base("saigon") == (turn >= 4)
        assert board.fleet_bases() == usable
        held = board.fleet_bases_by_holder()
        assert "scapa_flow" in held["germany"] and "ft" in held["usa"]
        for nation in board.nations:
            expected = [p for p in usable if board.holder(p) == nation]
            assert board.fleet_bases_of(nation) == expected, nation
            assert held.get(nation, []) == expected, nation
        assert not board.is_fleet_base("no such place")


def test_every_ship_due_joins_its_nations_fleet_base_nearest_its_yard(
    scenario: Scenario,
) -> None:
    """Step 2 indexes every nation's fleet bases in one pass and asks each ship's yard for
    the nearest: at turn 6 of the 1942 world, with a base captured and one nation's bases
    all lost, every ship due (of several nations) joins where ``nearest_fleet_base`` for
    its nation would put it, and the nation without a base waits (None)."""
    state = initial_state(scenario)
    state.turn = 6
    state.holders["scapa_flow"] = "germany"  # a base changes hands
    board = Board(scenario, state)
    italian = board.fleet_bases_of("italy")
    for base in italian:
        state.holders[base] = "uk"  # Italy holds no fleet base
    board = Board(scenario, state)
    due = production_due(board)
    nations = {row["nation"] for row, _ in due}
    assert {"usa", "uk", "japan", "germany", "italy"} <= nations
    for row, base in due:
        yard = board.shipyards[row["shipyard"]]
        if row["nation"] == "italy":
            assert base is None
        else:
            assert base == board.nearest_fleet_base(row["nation"], (yard["lon"], yard["lat"]))
