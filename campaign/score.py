"""The solo score: who is winning the naval war, in points, turn by turn.

The naval rules are one table of a larger megagame and set no victory conditions (002
*The Naval Rules are, in reality, two very nearly separate games – one about naval
operations to achieve specific objectives, the other about allocating resources to the
merchant global warfare battle*). A solo player, and the computer opponent's look-ahead,
need a measure, so the score counts what the naval game decides, for each side (Allies,
Axis; neutrals are not scored):

* **tonnage delivered** — the effective lift of the side's working routes this turn, as a
  share of the lift it had at the start of the game (``score_delivered`` points for a
  whole turn's starting lift);
* **tonnage sunk** — merchant tonnage the side's raiders sank, in per cent of the enemy
  side's tonnage at the start (``score_tonnage_sunk`` points per per cent);
* **combat value lost** — Fleet Operations CV the enemy lost to damage and sinking (a
  step's CV: damaged units fight at half), in per cent of the enemy side's Fleet CV at the
  start (``score_fleet_cv`` points per per cent);
* **bases and islands taken** — places whose holder passed from the enemy side to this
  side (``score_base`` points each);
* **sea areas held** — sea areas where the side's operations won this turn, contested for
  the enemy next turn (``score_sea_area`` points each);
* **invasions made** — landings that succeeded, minor or major (``score_invasion`` each).

A side's turn points minus the enemy's are its **net score** (the two sides' net scores add
up to nothing); the side with the higher total at the end wins. The weights are rule
options of the scenario (``[options]`` in scenario.toml) an umpire may change; the
defaults and the reasoning are in docs/computer-opponent.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .board import Board
from .events import Event
from .options import option
from .scenario import Scenario
from .state import GameState, Unit, initial_state
from .units import unit_values

if TYPE_CHECKING:
    from .engine import Campaign

SIDES = ("allies", "axis")

#: the rule options holding the weights, and what each weighs
WEIGHTS = {
    "score_delivered": "delivered",
    "score_tonnage_sunk": "tonnage_sunk",
    "score_fleet_cv": "fleet_cv",
    "score_base": "bases",
    "score_sea_area": "sea_areas",
    "score_invasion": "invasions",
}


def enemy_of(side: str) -> str:
    return "axis" if side == "allies" else "allies"


@dataclass(frozen=True)
class SideScore:
    """What one side achieved in one turn, and its points for it."""

    side: str
    delivered: float  # share of its starting lift delivered (1.0: all of it)
    tonnage_sunk: int  # enemy tonnage points sunk
    fleet_cv: int  # enemy Fleet CV lost (damage and sinking)
    bases: int  # places taken from the enemy
    sea_areas: int  # sea areas won by operations
    invasions: int  # landings that succeeded
    points: float

    def to_data(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "delivered": round(self.delivered, 4),
            "tonnage_sunk": self.tonnage_sunk,
            "fleet_cv": self.fleet_cv,
            "bases": self.bases,
            "sea_areas": self.sea_areas,
            "invasions": self.invasions,
            "points": round(self.points, 2),
        }


@dataclass(frozen=True)
class TurnScore:
    turn: int
    sides: Mapping[str, SideScore] = field(default_factory=dict)

    def net(self, side: str) -> float:
        """The side's points minus the enemy's."""
        return self.sides[side].points - self.sides[enemy_of(side)].points

    def to_data(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "sides": {s: v.to_data() for s, v in self.sides.items()},
            "net": {s: round(self.net(s), 2) for s in SIDES},
        }


@dataclass(frozen=True)
class Baseline:
    """Each side's starting lift, tonnage and Fleet CV (the game's first turn): what the
    per cent figures are of, so a small navy's losses weigh as much as a large one's."""

    lift: Mapping[str, int]
    tonnage: Mapping[str, int]
    fleet_cv: Mapping[str, int]

    @classmethod
    def of(cls, scenario: Scenario) -> Baseline:
        state = initial_state(scenario)
        board = Board(scenario, state)
        lift = dict.fromkeys(SIDES, 0)
        tonnage = dict.fromkeys(SIDES, 0)
        cv = dict.fromkeys(SIDES, 0)
        for r in board.route_ids():
            side = board.side(board.route_nation(r))
            if side in lift:
                lift[side] += board.route(r).effective_lift
        for n in board.nations:
            side = board.side(n)
            if side in tonnage:
                tonnage[side] += state.total_tonnage(n, board.routes_of(n))
        for u in state.units.values():
            side = board.side(u.nation)
            if side in cv:
                cv[side] += _cv(u, u.state)
        return cls(lift, tonnage, cv)


def _cv(unit: Unit, state: str) -> int:
    """A unit's own Fleet CV in ``state`` (its carried Air Point is not a ship's)."""
    if state == "sunk":
        return 0
    return unit_values(unit.type, unit.nation, state == "damaged").fleet


def _weights(options: Mapping[str, Any]) -> dict[str, float]:
    return {key: float(option(options, name)) for name, key in WEIGHTS.items()}


def turn_score(
    scenario: Scenario,
    before: GameState,
    after: GameState,
    events: Iterable[Event],
    baseline: Baseline | None = None,
) -> TurnScore:
    """The score of the turn that began with ``before`` and ended with ``after`` (the
    next turn's start), from Game Control's events of that turn."""
    baseline = baseline or Baseline.of(scenario)
    weights = _weights(scenario.meta.options)
    start, end = Board(scenario, before), Board(scenario, after)
    delivered = dict.fromkeys(SIDES, 0)
    for r in start.route_ids():
        side = start.side(start.route_nation(r))
        if side in delivered and start.route_status(r).working and r in end.route_rows:
            delivered[side] += end.route(r).effective_lift
    sunk = dict.fromkeys(SIDES, 0)
    cv_lost = dict.fromkeys(SIDES, 0)  # by the side that lost it
    invasions = dict.fromkeys(SIDES, 0)
    condition = {u.id: u.state for u in before.units.values()}
    for e in events:
        if e.kind == "merchant_combat":
            route = str(e.data.get("route", ""))
            owner = start.side(start.route_nation(route)) if route in start.route_rows else ""
            if owner in SIDES:
                sunk[enemy_of(owner)] += int(e.data.get("tonnage_lost", 0))
        elif e.kind in ("unit_damaged", "unit_sunk", "unit_repaired"):
            uid = str(e.data.get("unit", ""))
            unit = after.units.get(uid) or before.units.get(uid)
            if unit is None:
                continue
            was = condition.get(uid, "ready")
            now = {"unit_damaged": "damaged", "unit_sunk": "sunk"}.get(e.kind, "ready")
            side = start.side(unit.nation)
            if side in cv_lost and now != "ready":
                cv_lost[side] += max(_cv(unit, was) - _cv(unit, now), 0)
            condition[uid] = now
        elif e.kind in ("landing_succeeded", "major_landing"):
            side = start.side(e.nation)
            if side in invasions:
                invasions[side] += 1
    taken = dict.fromkeys(SIDES, 0)
    for place in end.bases:
        if place not in start.bases:
            continue
        old, new = start.side(start.holder(place)), end.side(end.holder(place))
        if new in taken and old == enemy_of(new):
            taken[new] += 1
    out = {}
    for side in SIDES:
        foe = enemy_of(side)
        share = delivered[side] / baseline.lift[side] if baseline.lift[side] else 0.0
        areas = len(after.contested.get(foe, []))
        points = (
            weights["delivered"] * share
            + weights["tonnage_sunk"] * 100 * sunk[side] / max(baseline.tonnage[foe], 1)
            + weights["fleet_cv"] * 100 * cv_lost[foe] / max(baseline.fleet_cv[foe], 1)
            + weights["bases"] * taken[side]
            + weights["sea_areas"] * areas
            + weights["invasions"] * invasions[side]
        )
        out[side] = SideScore(
            side, share, sunk[side], cv_lost[foe], taken[side], areas, invasions[side], points
        )
    return TurnScore(before.turn, out)


@dataclass(frozen=True)
class GameScore:
    """Every resolved turn's score, and the totals."""

    turns: Sequence[TurnScore]

    def total(self, side: str) -> float:
        return sum(t.net(side) for t in self.turns)

    def leader(self) -> str:
        """The side ahead ("" while level)."""
        allies = self.total("allies")
        return "allies" if allies > 0 else "axis" if allies < 0 else ""

    def to_data(self) -> dict[str, Any]:
        return {
            "turns": [t.to_data() for t in self.turns],
            "total": {s: round(self.total(s), 2) for s in SIDES},
            "leader": self.leader(),
        }


def game_score(campaign: Campaign) -> GameScore:
    """The score of every turn ``campaign`` has resolved (Game Control's measure: it reads
    the whole game; a team's report shows the figures, which name no hidden unit)."""
    game = campaign.game
    scenario = campaign.scenario
    baseline = Baseline.of(scenario)
    turns = sorted(game.turns())
    everything = game.log()
    out = []
    for turn in turns:
        after_turn = turn + 1
        if after_turn not in turns:
            continue
        events = [e for e in everything if e.turn == turn]
        out.append(
            turn_score(
                scenario, game.turn_start(turn), game.turn_start(after_turn), events, baseline
            )
        )
    return GameScore(out)


def format_score(
    score: GameScore, upto: int | None = None, side: str | None = None, final: bool = False
) -> list[str]:
    """The score in words for a turn report: each side's points for the turn, then the net
    score so far; ``side``: that side's figures and total only (a team's report);
    ``final``: the game is over (its last turn resolved)."""
    turns = [t for t in score.turns if upto is None or t.turn <= upto]
    if not turns:
        return ["No turn resolved yet."]
    last = turns[-1]
    lines = []
    if side is not None:
        s = last.sides[side]
        total = sum(t.sides[side].points for t in turns)
        return [
            f"{side.capitalize()}: {s.points:.1f} points in turn {last.turn} (delivered "
            f"{s.delivered:.0%} of the starting lift, sank {s.tonnage_sunk} tonnage, enemy "
            f"Fleet CV lost {s.fleet_cv}, places taken {s.bases}, sea areas won "
            f"{s.sea_areas}, landings {s.invasions}); {total:.1f} points in all"
        ]
    for side in SIDES:
        s = last.sides[side]
        lines.append(
            f"{side.capitalize()}: {s.points:.1f} points this turn (delivered "
            f"{s.delivered:.0%} of the starting lift, sank {s.tonnage_sunk} tonnage, enemy "
            f"Fleet CV lost {s.fleet_cv}, places taken {s.bases}, sea areas won "
            f"{s.sea_areas}, landings {s.invasions})"
        )
    total = sum(t.net("allies") for t in turns)
    lead = "Allies" if total > 0 else "Axis" if total < 0 else "nobody"
    if final:
        winner = "Allies win" if total > 0 else "Axis win" if total < 0 else "a draw"
        lines.append(
            f"Final score after turn {last.turn}: Allies {total:+.1f}, Axis {-total:+.1f} — "
            f"{winner}"
        )
    else:
        lines.append(
            f"Net score after turn {last.turn}: Allies {total:+.1f}, Axis {-total:+.1f} — "
            f"{lead} ahead"
        )
    return lines
