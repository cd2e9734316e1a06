"""``seacontrol-cli`` commands for the computer opponent: ``ai`` (one nation's orders) and
``play`` (turns with the computer giving some nations' orders). Registered by
:func:`add_commands` from :mod:`campaign.cli` (docs/computer-opponent.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .cli_control import AddCommand, ControlCliError
from .engine import Campaign
from .opponent import LEVELS, POSTURES
from .opponent.play import Seat, advise, computer_nations, play_turns
from .opponent.scope import PARTS, Scope
from .orders import live_reasons, orders_to_data
from .score import format_score
from .untrusted import terminal_safe

EXIT_OK = 0


class AiCliError(ControlCliError):
    """Invalid input to ``ai`` or ``play`` (printed by :func:`campaign.cli.main`)."""


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _say(text: str) -> None:
    print(terminal_safe(text))


def _nation(campaign: Campaign, nation: str) -> str:
    try:
        return computer_nations(campaign, [nation])[0]
    except (ValueError, IndexError) as exc:
        raise AiCliError(str(exc) or f"unknown nation '{nation}'") from None


def cmd_ai(args: argparse.Namespace) -> int:
    with Campaign.open(args.game) as campaign:
        if campaign.state.step != 0:
            raise AiCliError(
                f"turn {campaign.state.turn} is already being resolved (step "
                f"{campaign.state.step} done): orders are given before step 1"
            )
        nation = _nation(campaign, args.nation)
        scope = _scope(campaign, args)
        keep = campaign.orders().get(nation) if scope is not None else None
        orders = advise(campaign, nation, args.level, args.posture, None, scope, keep)
        if not args.check:
            campaign.set_orders(nation, orders)
        turn = campaign.state.turn
    if args.json:
        _print_json(
            {
                "nation": nation,
                "turn": turn,
                "level": args.level,
                "posture": args.posture,
                "stored": not args.check,
                "orders": orders_to_data(orders),
            }
        )
        return EXIT_OK
    verb = "computed (not stored)" if args.check else "stored"
    _say(f"Computer orders for {nation}, turn {turn} ({args.level}), {verb}:")
    for reason in live_reasons(orders):
        _say(f"  • {reason.text}")
    if not orders.reasons:
        _say("  (nothing to do this turn)")
    return EXIT_OK


def _scope(campaign: Campaign, args: argparse.Namespace) -> Scope | None:
    """The forces handed over by ``--only`` and ``--areas`` (None: the whole nation)."""
    parts = [p.strip() for p in (args.only or "").split(",") if p.strip()]
    areas = [a.strip() for a in (args.areas or "").split(",") if a.strip()]
    bad = [p for p in parts if p not in PARTS]
    if bad:
        raise AiCliError(f"unknown kind of orders {', '.join(bad)}; valid: {', '.join(PARTS)}")
    unknown = [a for a in areas if a not in campaign.scenario.world]
    if unknown:
        raise AiCliError(f"unknown sea area {', '.join(unknown)} (see seacontrol-cli graph)")
    if not parts and not areas:
        return None
    return Scope(frozenset(areas), frozenset(), frozenset(parts), ", ".join(parts or ["all"]))


def cmd_play(args: argparse.Namespace) -> int:
    with Campaign.open(args.game) as campaign:
        try:
            nations = computer_nations(campaign, args.computer.split(","))
        except ValueError as exc:
            raise AiCliError(str(exc)) from None
        seats = {n: Seat(args.level, args.posture) for n in nations}
        start = campaign.state.turn

        def told(turn: int) -> None:
            if not args.json:
                print(f"Turn {turn} resolved.", file=sys.stderr)

        score = play_turns(campaign, seats, args.turns, args.seed, on_turn=told)
        end = campaign.state.turn
        over = end > campaign.scenario.meta.last_turn
    if args.json:
        _print_json(
            {
                "computer": nations,
                "from_turn": start,
                "to_turn": end,
                "game_over": over,
                "score": score.to_data(),
            }
        )
        return EXIT_OK
    _say(f"Played turns {start}–{end - 1}; the computer gave the orders of {', '.join(nations)}.")
    for line in format_score(score, final=over):
        _say(line)
    return EXIT_OK


def _turns(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 200:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of turns from 1 to 200")
    return int(text)


def add_commands(add: AddCommand) -> None:
    """Add ``ai`` and ``play`` to the command line."""
    p = add("ai", cmd_ai, "the computer's orders for one nation this turn (stored unless --check)")
    p.add_argument("game")
    p.add_argument("nation", help="the nation's id, e.g. japan")
    _strength(p)
    p.add_argument("--check", action="store_true", help="print the orders; store nothing")
    p.add_argument(
        "--only",
        metavar="KINDS",
        help="hand over only these kinds of orders: " + ", ".join(PARTS) + " (the rest of "
        "the nation's stored orders stay as they are)",
    )
    p.add_argument(
        "--areas",
        metavar="AREAS",
        help="hand over only the forces based in these sea areas (ids, comma-separated)",
    )

    p = add("play", cmd_play, "play turns with the computer giving some nations' orders")
    p.add_argument("game")
    p.add_argument(
        "--computer",
        required=True,
        metavar="NATION[,NATION…]|all",
        help="the nations the computer plays (the others keep their stored orders)",
    )
    p.add_argument("--turns", type=_turns, default=1, help="turns to play (default 1)")
    p.add_argument("--seed", help="the dice seed (stored in the game; default: the game's)")
    _strength(p)


def _strength(p: argparse.ArgumentParser) -> None:
    p.add_argument("--level", choices=sorted(LEVELS), default="admiral", help="how hard it thinks")
    p.add_argument(
        "--posture",
        choices=sorted(POSTURES),
        help="what the navy is for (default: the nation's historical posture)",
    )
