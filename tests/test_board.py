"""The questions several parts of the program ask live once, in Board: a task force's reach
(with range cards, an ally's too), a route's state, who escorts and attacks a route."""

from __future__ import annotations

import pytest

from campaign.board import CONTESTED, CUT, WORKING, Board
from campaign.orders import CardPlay, Escort, Operation, Orders, Raid, TaskForce
from campaign.record import SurfaceRaid
from campaign.rules import check_orders
from campaign.scenario import Scenario, load_scenario
from campaign.state import initial_state


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
