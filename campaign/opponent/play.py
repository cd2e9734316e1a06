"""The computer at the table: its orders for a nation of an open game, and turns played
with the computer giving some nations' orders (the command line's ``ai`` and ``play``,
the app's *Computer plays…* and *Suggest orders*)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..engine import Campaign
from ..orders import Orders
from ..score import GameScore, game_score
from . import computer_orders
from .scope import Scope


@dataclass(frozen=True)
class Seat:
    """How the computer plays one nation: its level and posture (None: the nation's
    historical default)."""

    level: str = "admiral"
    posture: str | None = None


def advise(
    campaign: Campaign,
    nation: str,
    level: str = "admiral",
    posture: str | None = None,
    progress: Callable[[str], None] | None = None,
    scope: Scope | None = None,
    keep: Orders | None = None,
) -> Orders:
    """The computer's orders for ``nation`` this turn, from its team view alone (with the
    orders its allies have stored, as allies would tell each other); with ``scope``, only
    for the forces handed to it, merged into ``keep`` (the person's draft)."""
    view = campaign.team_view(nation)
    stored = campaign.orders()
    allied = {n: o for n, o in stored.items() if n in view.allies}
    return computer_orders(campaign.scenario, view, level, posture, allied, progress, scope, keep)


def computer_nations(campaign: Campaign, names: Iterable[str]) -> list[str]:
    """The nations named (``all``: every nation that plays), in the scenario's order;
    ValueError names an unknown one and the valid ones."""
    teams = campaign.board().teams()
    wanted = [n.strip() for n in names if n.strip()]
    if "all" in wanted:
        return teams
    unknown = [n for n in wanted if n not in teams]
    if unknown:
        raise ValueError(
            f"unknown nation {', '.join(repr(n) for n in unknown)}; valid: "
            + ", ".join(teams)
            + ", or all"
        )
    return [n for n in teams if n in wanted]


def play_turns(
    campaign: Campaign,
    seats: Mapping[str, Seat],
    turns: int,
    seed: int | str | None = None,
    on_turn: Callable[[int], None] | None = None,
    progress: Callable[[str], None] | None = None,
) -> GameScore:
    """Play ``turns`` turns: each turn the computer gives the orders of the nations in
    ``seats`` (the others keep the orders stored for them) and the turn is resolved.
    Stops early at the scenario's last turn. Returns the game's score so far."""
    for _ in range(turns):
        state = campaign.state
        if state.turn > campaign.scenario.meta.last_turn:
            break
        if state.step == 0:
            for nation, seat in seats.items():
                campaign.set_orders(
                    nation, advise(campaign, nation, seat.level, seat.posture, progress)
                )
        campaign.resolve(seed=seed)
        if on_turn:
            on_turn(state.turn)
    return game_score(campaign)
