"""The sea-area graph: distances in moves, paths through waypoints, route length classes."""

from __future__ import annotations

import random
from fractions import Fraction

import networkx as nx
import pytest

from campaign.scenario import load_scenario
from campaign.world import LengthClass, SeaArea, World, length_class, parse_polygon


def line_world(n: int) -> World:
    areas = [SeaArea(f"a{i}", f"A{i}", i, 0, ((i, 0), (i + 1, 0), (i, 1))) for i in range(n)]
    edges = [(f"a{i}", f"a{i + 1}", {"kind": "sea"}) for i in range(n - 1)]
    return World(areas, edges)


# 002 "Supply Effectiveness": same sea area → double; 1 to 6 sea areas → standard; 7+ → half.
@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        (0, LengthClass.SHORT),
        (1, LengthClass.MED),
        (6, LengthClass.MED),
        (7, LengthClass.LONG),
        (30, LengthClass.LONG),
    ],
)
def test_length_class_boundaries(moves: int, expected: LengthClass) -> None:
    assert length_class(moves) is expected


def test_effective_lift_follows_annex_b() -> None:
    # Annex B: 40 = 20 Short (x2); 50 = 50 Med (x1); 5 = 10 Long (x1/2)
    assert LengthClass.SHORT.effective(20) == 40
    assert LengthClass.MED.effective(50) == 50
    assert LengthClass.LONG.effective(10) == 5
    assert LengthClass.LONG.effective(7) == 3  # half of an odd tonnage rounds down
    assert LengthClass.LONG.multiplier == Fraction(1, 2)


def test_negative_moves_are_impossible() -> None:
    with pytest.raises(ValueError):
        length_class(-1)


def test_distances_and_ranges_in_moves() -> None:
    world = line_world(6)
    assert world.distance("a0", "a0") == 0
    assert world.distance("a0", "a4") == 4
    assert world.within("a2", 1) == {"a1", "a2", "a3"}
    assert world.is_connected()


def test_paths_go_through_waypoints_in_order() -> None:
    world = line_world(6)
    assert world.path("a1", "a1") == ["a1"]
    assert world.path("a1", "a3") == ["a1", "a2", "a3"]
    assert world.path("a2", "a1", via=["a4"]) == ["a2", "a3", "a4", "a3", "a2", "a1"]


def test_unknown_and_unreachable_areas() -> None:
    world = World(line_world(3).areas.values(), [("a0", "a1", {"kind": "sea"})])
    with pytest.raises(KeyError):
        world.distance("a0", "nowhere")
    with pytest.raises(ValueError, match="no sea path"):
        world.distance("a0", "a2")
    assert not world.is_connected()
    assert [len(c) for c in world.components()] == [2, 1]


@pytest.mark.parametrize(
    ("text", "words"),
    [("1,2 3,4", "at least 3"), ("1,2 3;4 5,6", "not a lon,lat"), ("1,2 3,4 5,99", "outside")],
)
def test_bad_polygons(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_polygon(text)


# -- the graph searched without networkx, answer for answer -----------------------------------
def _tangled_world(seed: int) -> World:
    """A random graph with many equally short paths, in a random edge order."""
    rng = random.Random(seed)
    n = 40
    areas = [SeaArea(f"a{i}", f"A{i}", 0, 0, ((0, 0), (1, 0), (0, 1))) for i in range(n)]
    pairs = {tuple(sorted(rng.sample(range(n), 2))) for _ in range(90)}
    pairs |= {(i, i + 1) for i in range(n - 1)}  # connected
    edges = [(f"a{a}", f"a{b}", {"kind": "sea"}) for a, b in pairs]
    rng.shuffle(edges)
    return World(areas, [(b, a, d) if rng.random() < 0.5 else (a, b, d) for a, b, d in edges])


@pytest.mark.parametrize("seed", range(5))
def test_paths_and_distances_are_networkxs(seed: int) -> None:
    """Every shortest path is the one networkx's shortest_path picks among equals (the
    paths games were played with), and every distance its distance."""
    world = _tangled_world(seed)
    graph = world.graph
    for a in world.areas:
        lengths = nx.single_source_shortest_path_length(graph, a)
        for b in world.areas:
            assert world.path(a, b) == nx.shortest_path(graph, a, b)
            assert world.distance(a, b) == lengths[b]


def test_the_1942_world_searched_as_networkx_searches_it() -> None:
    world = load_scenario().world
    graph = world.graph
    areas = sorted(world.areas)
    for a in areas[::3]:
        for b in areas[::7]:
            assert world.path(a, b) == nx.shortest_path(graph, a, b)
    assert world.components() == sorted(nx.connected_components(graph), key=len, reverse=True)
    edges = {frozenset((a, b)): d for a, b, d in world.edges()}
    assert edges == {frozenset((a, b)): d for a, b, d in graph.edges(data=True)}


def test_components_of_a_broken_world() -> None:
    world = line_world(4)
    world = World(
        [*world.areas.values(), SeaArea("x", "X", 0, 0, ((0, 0), (1, 0), (0, 1)))],
        world.edges(),
    )
    assert world.components() == [{"a0", "a1", "a2", "a3"}, {"x"}]
    assert not world.is_connected()
    with pytest.raises(ValueError, match="no sea path"):
        world.path("a0", "x")


def test_a_route_the_map_cannot_draw_is_left_off_not_raised() -> None:
    """The scenario editor's map leaves out a route whose ends no sea joins (the graph's
    own NoSeaPath, a ValueError, since the graph no longer comes from networkx)."""
    from campaign.scenario_edit import _drawable_route

    world = World(
        [*line_world(3).areas.values(), SeaArea("x", "X", 0, 0, ((0, 0), (1, 0), (0, 1)))],
        line_world(3).edges(),
    )
    places = [
        {"id": "p", "sea_area": "a0"},
        {"id": "q", "sea_area": "x"},
        {"id": "r", "sea_area": "a2"},
    ]
    assert not _drawable_route(world, {"origin": "p", "destination": "q", "via": []}, places)
    assert _drawable_route(world, {"origin": "p", "destination": "r", "via": []}, places)
