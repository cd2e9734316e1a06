"""``seacontrol-cli`` commands for the room: team seats (``seats``, ``serve``) and the phase
clock (``clock``). Registered by :func:`add_commands` from :mod:`campaign.cli`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

from . import clock, seats
from .board import Board
from .gamefile import GameFile, opened
from .seatpages import when
from .seats import DEFAULT_PORT, join_base, join_url, lan_address
from .untrusted import terminal_safe

AddCommand = Callable[[str, Callable[[argparse.Namespace], int], str], argparse.ArgumentParser]

EXIT_OK = 0
#: a moment's clock for the commands (the tests give their own)
NOW: Callable[[], float] = time.time


class SeatsCliError(Exception):
    """Invalid input to one of these commands (printed by :func:`campaign.cli.main`)."""


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _say(text: str) -> None:
    print(terminal_safe(text))


# -- seats ---------------------------------------------------------------------------------------
def seat_rows(game: GameFile) -> list[dict[str, Any]]:
    """Each team's seat: its code and its submissions this turn (what Control reads)."""
    state = game.state()
    teams = Board(game.scenario, state).teams()
    names = game.scenario.by_id("nations")
    codes = seats.seat_codes(game, teams)
    sent = seats.submissions(game, state.turn)
    rows = []
    for n in teams:
        mine = sent.get(n)
        rows.append(
            {
                "nation": n,
                "name": str(names[n]["name"]),
                "code": codes[n],
                "submitted": mine.last if mine else None,
                "submissions": mine.count if mine else 0,
            }
        )
    return rows


def cmd_seats(args: argparse.Namespace) -> int:
    with opened(args.game) as game:
        state = game.state()
        teams = Board(game.scenario, state).teams()
        if args.reissue:
            if args.reissue not in teams:
                raise SeatsCliError(f"unknown team '{args.reissue}'; valid: " + ", ".join(teams))
            seats.reissue(game, args.reissue)
        if args.lock or args.unlock:
            seats.set_lock(game, state.turn, bool(args.lock))
        rows = seat_rows(game)
        lock = seats.lock_of(game, state.turn)
    if args.json:
        if args.status:
            _print_json({"turn": state.turn, "locked": lock.at if lock else None, "teams": rows})
        else:
            _print_json([{k: r[k] for k in ("nation", "name", "code")} for r in rows])
        return EXIT_OK
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        line = f"{r['name']:<{width}}  {r['code']}"
        if args.status:
            line += (
                f"  submitted {when(r['submitted'])} ({r['submissions']}x)"
                if r["submitted"]
                else "  not submitted"
            )
        _say(line)
    if args.status or args.lock or args.unlock:
        _say(
            f"Turn {state.turn}'s orders locked at {when(lock.at)}."
            if lock
            else f"Turn {state.turn}'s orders are open."
        )
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    from .seatserver import SeatServer  # the web framework only for this command

    try:
        server = SeatServer(args.game, args.host, args.port)
    except OSError as exc:
        raise SeatsCliError(
            f"cannot listen on {args.host}:{args.port} ({exc.strerror or exc}); "
            "choose another --port, or stop the program using it"
        ) from None
    shown_host = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    base = join_base(shown_host, server.port)
    with opened(args.game) as game:
        rows = seat_rows(game)
    if args.json:
        _print_json(
            {
                "url": base,
                "teams": [{**r, "join": join_url(base, r["code"])} for r in rows],
            }
        )
    else:
        _say(f"Team seats for {args.game} at {base}/ (Ctrl+C stops them)")
        if args.host == "127.0.0.1":
            _say("Only this computer can reach them; add --host 0.0.0.0 for the room's network.")
        width = max(len(r["name"]) for r in rows)
        for r in rows:
            _say(f"  {r['name']:<{width}}  {r['code']}  {join_url(base, r['code'])}")
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: uvicorn closed the seats first
        server.serve_forever()
    _say("Team seats closed.")
    return EXIT_OK


# -- the phase clock -----------------------------------------------------------------------------
def _clock_change(args: argparse.Namespace) -> Callable[[clock.Clock], clock.Clock]:
    now = NOW()
    action = args.action
    if action == "start":
        return lambda c: clock.start(c, now)
    if action == "pause":
        return lambda c: clock.pause(c, now)
    if action == "skip":
        return lambda c: clock.skip(c, now)
    if action == "restart":
        return lambda c: clock.restart_phase(c, now)
    if action == "extend":
        minutes = args.minutes
        return lambda c: clock.extend(c, minutes)
    if action == "set-phases":
        phases = [clock.parse_phase(text) for text in args.phases]
        return lambda _c: clock.set_phases(phases)
    raise SeatsCliError(f"unknown clock action '{action}'")  # pragma: no cover - argparse


def cmd_clock(args: argparse.Namespace) -> int:
    with opened(args.game) as game:
        try:
            if args.action == "status":
                current = clock.load(game)
            else:
                current = clock.change(game, _clock_change(args))
        except clock.ClockError as exc:
            raise SeatsCliError(str(exc)) from None
        except seats.GameFileBusy as exc:
            raise SeatsCliError(f"{exc}; try again") from None
    status = clock.status(current, NOW())
    if args.json:
        _print_json(
            {
                **status.to_data(),
                "phases": [{"name": p.name, "minutes": p.seconds / 60} for p in current.phases],
            }
        )
        return EXIT_OK
    state = "running" if status.running else "paused"
    left = "over by " + clock.shown_time(status.remaining)[1:] if status.over else "left"
    shown = clock.shown_time(status.remaining) if not status.over else ""
    _say(
        f"{status.phase} (phase {status.index + 1} of {status.count}, round {status.round}): "
        f"{shown + ' ' if shown else ''}{left}, {state}. Next: {status.next_phase}."
    )
    if args.action == "set-phases":
        _say("Phases: " + ", ".join(f"{p.name} {p.seconds / 60:g} min" for p in current.phases))
    return EXIT_OK


# -- the parser ----------------------------------------------------------------------------------
def add_commands(add: AddCommand) -> None:
    """Add ``seats``, ``serve`` and ``clock`` to the command line."""
    p = add(
        "seats",
        cmd_seats,
        "each team's seat code (made the first time they are asked for); who has submitted "
        "orders; lock or unlock the turn's orders",
    )
    p.add_argument("game")
    p.add_argument("--reissue", metavar="NATION", help="give this team a new code first")
    p.add_argument(
        "--status", action="store_true", help="also when each team last submitted its orders"
    )
    lock = p.add_mutually_exclusive_group()
    lock.add_argument(
        "--lock", action="store_true", help="lock this turn's orders (no more submissions)"
    )
    lock.add_argument("--unlock", action="store_true", help="open this turn's orders again")

    p = add(
        "serve",
        cmd_serve,
        "open the team seats: a web server where each team joins with its seat code, sees its "
        "team view and submits its orders",
    )
    p.add_argument("game")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: "
        "every network this computer is on)",
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")

    p = add("clock", cmd_clock, "the phase clock: start, pause, extend, skip; its phases")
    p.add_argument("game")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, words in (
        ("status", "the phase and the time left"),
        ("start", "run the clock (from where it was paused)"),
        ("pause", "pause the clock"),
        ("skip", "on to the next phase, with its full time"),
        ("restart", "the current phase from its full time again"),
    ):
        a = actions.add_parser(name, help=words, description=words)
        a.add_argument(
            "--json", action="store_true", default=argparse.SUPPRESS, help="print as JSON"
        )
    a = actions.add_parser("extend", help="add minutes to the current phase (negative: take away)")
    a.add_argument("minutes", type=float)
    a.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    a = actions.add_parser(
        "set-phases",
        help="the turn's phases, e.g. Orders=15 'Control resolution=10' Briefing=5 (the clock "
        "stops at the first)",
    )
    a.add_argument("phases", nargs="+", metavar="NAME=MINUTES")
    a.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
