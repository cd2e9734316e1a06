"""A belief state: the game as one team may believe it to be, built from its team view.

The computer opponent never reads Game Control's state. What its team knows in full — its
own forces and, with ``allies_share_forces``, its allies' — is copied from the
:class:`~campaign.teamview.TeamView`; what is public (who holds each place, the routes on
the map, the contested sea areas) likewise. What it cannot know is *estimated*, from what
every player has at the table and what the team has seen:

* **enemy units**: the scenario's starting order of battle (002 "Starting Naval Balance":
  the rules give every navy's units in January 1942), less the units the team saw sunk,
  damaged where it last saw them damaged; an enemy unit first met in combat (a new ship) is
  put at its nation's fleet base nearest the sea area where it was seen. A unit whose
  starting base has fallen withdraws to its nation's nearest fleet base. Enemy production,
  transfers and repairs are not known and not guessed.
* **enemy LSP**: one at each enemy fleet base where the belief puts heavy units or
  carriers — the cautious assumption that any squadron may intervene.
* **enemy tonnage**: each enemy route carries its tonnage on the scenario's chart (Annex B
  gives the routes and their usual loads); a route created during play, 5 points.
* **enemy garrisons and Air Points**: the scenario's at each place its nation still
  holds; a place the enemy took during play, one garrison.

The belief is a :class:`~campaign.state.GameState`, so the engine's own board, order check
and turn resolve on it unchanged. Nothing here reads anything but the view and the
scenario: a fact the team cannot see changes nothing (tests/test_opponent.py plants one).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..board import Board
from ..options import option
from ..production import with_production
from ..scenario import Scenario
from ..state import AirUnit, FleetTrain, GameState, Unit
from ..teamview import TeamView, UnitView

#: tonnage the belief gives an enemy route created during play (its tonnage is secret)
NEW_ROUTE_TONNAGE = 5
#: LSP the belief gives an enemy fleet base holding heavy units or carriers
ENEMY_LSP = 1
BATTLE_TYPES = ("heavy", "fleet_carrier")


def known_nations(scenario: Scenario, view: TeamView) -> set[str]:
    """Nations whose forces the team knows in full: its own, and its allies' when allies
    share their forces (rule option ``allies_share_forces``)."""
    known = {view.nation}
    if option(scenario.meta.options, "allies_share_forces"):
        known |= set(view.allies)
    return known


def _unit(u: UnitView) -> Unit:
    return Unit(u.id, u.nation, u.type, u.name, u.base, u.state, u.carries_air)


def belief_state(scenario: Scenario, view: TeamView) -> GameState:
    """The game as ``view``'s team may believe it to be (module docstring)."""
    known = known_nations(scenario, view)
    state = GameState(turn=view.turn, step=view.step)
    state.holders = {b.id: b.holder for b in view.bases if b.kind != "fleet_train"}
    state.contested = {side: list(areas) for side, areas in view.contested}
    scenario_routes = scenario.by_id("routes")
    for r in view.routes:
        if r.id not in scenario_routes:
            state.extra_routes[r.id] = {
                "id": r.id,
                "serial": r.serial,
                "name": r.name,
                "nation": r.nation,
                "origin": r.origin,
                "destination": r.destination,
                "via": list(r.path),
                "tonnage": 0,
                "notes": "",
            }
        if r.tonnage is not None:
            state.routes[r.id] = r.tonnage
        elif r.nation not in known:
            start = scenario_routes.get(r.id)
            state.routes[r.id] = int(start["tonnage"]) if start else NEW_ROUTE_TONNAGE
    state.tonnage = {view.nation: view.tonnage.unallocated}
    for b in view.bases:
        if b.kind == "fleet_train":
            supply = f"{b.id}_supply"
            route = view.route(supply)
            state.fleet_trains[b.id] = FleetTrain(
                b.id,
                b.holder,
                b.name,
                b.sea_area,
                route.origin if route else "",
                supply,
                max(view.turn - 1, 1),
            )
    for u in (*view.units, *view.allied_units):
        state.units[u.id] = _unit(u)
    for a in (*view.air, *view.allied_air):
        state.air[a.id] = AirUnit(a.id, a.nation, a.base, a.kind, a.points)
    for g in (*view.garrisons, *view.allied_garrisons):
        state.garrisons.setdefault(g.base, {})[g.nation] = g.garrisons
    for base, points in view.lsp:
        state.add_lsp(base, view.nation, points)
    own_cards = {c.id for c in view.cards}
    state.cards_played = sorted(
        c["id"]
        for c in scenario.rows("cards")
        if c["nation"] == view.nation and c["id"] not in own_cards
    )
    state.flag_overrides = {str(view.turn): {view.nation: [view.flags.naval, view.flags.military]}}
    _estimate_enemy(scenario, view, state, known)
    return state


def _estimate_enemy(scenario: Scenario, view: TeamView, state: GameState, known: set[str]) -> None:
    board = Board(scenario, state)
    seen = {s.id: s for s in view.sightings}
    for row in scenario.rows("units"):
        if row["nation"] in known:
            continue
        sighting = seen.get(row["id"])
        condition = str(row["state"])
        if sighting is not None:
            if sighting.last_known == "sunk":
                continue
            condition = "damaged" if sighting.last_known == "damaged" else condition
        base = _refuge(board, str(row["nation"]), str(row["base"]))
        if base is None:
            continue
        carrier = row["type"] in ("fleet_carrier", "escort_carrier")
        state.units[row["id"]] = Unit(
            row["id"],
            row["nation"],
            row["type"],
            row["name"],
            base,
            condition,
            bool(row["carries_air"]) and carrier and condition == "ready",
        )
    for s in view.sightings:
        if s.id in state.units or s.nation in known or s.last_known == "sunk":
            continue
        base = _nearest_base_to_area(board, s.nation, s.sea_area)
        if base is None:
            continue
        carrier = s.type in ("fleet_carrier", "escort_carrier")
        condition = "damaged" if s.last_known == "damaged" else "ready"
        state.units[s.id] = Unit(
            s.id, s.nation, s.type, s.name, base, condition, carrier and condition == "ready"
        )
    manned = {u.base for u in state.units.values() if u.type in BATTLE_TYPES and u.state != "sunk"}
    for base in board.fleet_bases():
        holder = board.holder(base)
        if holder in known:
            continue
        if base in manned:
            state.add_lsp(base, holder, ENEMY_LSP)
    starting = {(r["base"], r["nation"]): r["garrisons"] for r in scenario.rows("garrisons")}
    for place in board.bases:
        holder = board.holder(place)
        if holder in known:
            continue
        count = starting.get((place, holder))
        if count is None and board.bases[place].get("holder") != holder:
            count = 1  # taken during play: its garrison is the landing's survivors
        if count:
            state.garrisons.setdefault(place, {})[holder] = int(count)
    for row in scenario.rows("air"):
        if row["nation"] in known or board.holder(str(row["base"])) != row["nation"]:
            continue
        state.air[row["id"]] = AirUnit(
            row["id"], row["nation"], row["base"], row["kind"], row["points"]
        )


def _refuge(board: Board, nation: str, base: str) -> str | None:
    """Where a unit of ``nation`` that started at ``base`` is believed to be: there while
    its side holds it, else at its nation's nearest fleet base (None: it holds none)."""
    if base in board.bases and board.friendly(nation, board.holder(base)):
        return base
    row = board.bases.get(base)
    if row is None:
        return None
    try:
        return board.nearest_fleet_base(nation, (row["lon"], row["lat"]))
    except LookupError:
        return None


def _nearest_base_to_area(board: Board, nation: str, area: str) -> str | None:
    bases = board.fleet_bases_of(nation)
    if not bases or area not in board.world:
        return None
    return min(bases, key=lambda b: (board.distance(b, area), b))


def orders_state(scenario: Scenario, belief: GameState, known: Iterable[str]) -> GameState:
    """The belief as this turn's orders see it (:func:`campaign.production.with_production`):
    the known nations' ships step 2 commissions are at their fleet bases; an enemy's new
    ships are not known."""
    projected = with_production(scenario, belief)
    if projected is belief:
        return belief
    mine = set(known)
    for uid in [u for u in projected.units if u not in belief.units]:
        if projected.units[uid].nation not in mine:
            del projected.units[uid]
    return projected
