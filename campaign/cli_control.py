"""``seacontrol-cli`` commands for Game Control's table: edits, the audit, card rulings, team
packs and hand-off sheets. Registered by :func:`add_commands` from :mod:`campaign.cli`.

Ids may be given as ids or as names (``"Blue Harbour"``, or a name's unique beginning);
the engine refuses what is still unknown, naming the likely spelling.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from . import control, handoff
from .control import EditError
from .engine import Campaign
from .events import Event
from .seats import DEFAULT_PORT, join_base

AddCommand = Callable[[str, Callable[[argparse.Namespace], int], str], argparse.ArgumentParser]

EXIT_OK = 0


class ControlCliError(Exception):
    """Invalid input to one of these commands (printed by :func:`campaign.cli.main`)."""


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _resolve(text: str, names: Mapping[str, Any]) -> str:
    """An id from an id, a name (any case) or a name's unique beginning; else ``text``
    unchanged, for the engine to refuse with its suggestions."""
    if text in names:
        return text
    key = text.strip().lower()
    exact = [i for i, n in names.items() if str(n).lower() == key]
    if len(exact) == 1:
        return exact[0]
    starts = [i for i, n in names.items() if str(n).lower().startswith(key)]
    return starts[0] if len(starts) == 1 else text


def _yes(text: str) -> bool:
    word = text.strip().lower()
    if word in ("yes", "y", "true", "on", "1"):
        return True
    if word in ("no", "n", "false", "off", "0"):
        return False
    raise ControlCliError(f"'{text}' must be yes or no")


# -- edit ------------------------------------------------------------------------------------
def _build_edit(c: Campaign, args: argparse.Namespace) -> control.Edit:
    """The edit the command line asks for, with names turned into ids."""
    state, board = c.state, c.board()
    units = {u.id: u.name for u in state.units.values()}
    bases = {b: row["name"] for b, row in board.bases.items()}
    nations = {n: row["name"] for n, row in board.nations.items()}
    routes = {r: row["name"] for r, row in board.route_rows.items()}
    areas = {a.id: a.name for a in board.world.areas.values()}
    cards = {k: row["title"] for k, row in board.cards.items()}
    a = args.action
    if a == "move":
        return control.MoveUnit(_resolve(args.unit, units), _resolve(args.to, bases))
    if a in ("damage", "repair", "sink"):
        target = {"damage": "damaged", "repair": "ready", "sink": "sunk"}[a]
        return control.SetUnitState(_resolve(args.unit, units), target)
    if a == "state":
        return control.SetUnitState(_resolve(args.unit, units), args.state)
    if a == "carrier-air":
        return control.SetCarrierAir(_resolve(args.unit, units), _yes(args.aboard))
    if a == "holder":
        return control.SetHolder(_resolve(args.base, bases), _resolve(args.nation, nations))
    if a == "tonnage":
        return control.SetRouteTonnage(_resolve(args.route, routes), args.points, args.from_pool)
    if a == "pool":
        return control.SetPool(_resolve(args.nation, nations), args.points)
    if a == "flags":
        return control.SetFlags(
            _resolve(args.nation, nations), args.naval, args.military, args.turn or 0
        )
    if a == "card":
        return control.SetCard(_resolve(args.card, cards), args.to == "restore")
    if a == "garrison":
        return control.SetGarrison(
            _resolve(args.base, bases), _resolve(args.nation, nations), args.garrisons
        )
    if a == "lsp":
        return control.SetLSP(
            _resolve(args.base, bases), _resolve(args.nation, nations), args.points
        )
    if a == "air":
        return control.SetAirPoints(args.air, args.points)
    if a == "add-air":
        return control.AddAirPoints(
            _resolve(args.nation, nations), _resolve(args.base, bases), args.kind, args.points
        )
    if a == "move-air":
        return control.MoveAir(args.air, _resolve(args.to, bases))
    if a == "contested":
        return control.SetContested(args.side, _resolve(args.area, areas), _yes(args.contested))
    raise ControlCliError(f"unknown edit '{a}'")  # pragma: no cover - argparse chose it


def _event_json(event: Event) -> dict[str, Any]:
    return {
        "edit": event.data.get("edit"),
        "kind": event.kind,
        "turn": event.turn,
        "step": event.step,
        "text": event.text,
        "reason": event.data.get("reason"),
        "undoes": event.data.get("undoes"),
        "seen_by": list(event.visible_to),
        "changes": event.data.get("changes", []),
    }


def cmd_edit(args: argparse.Namespace) -> int:
    with Campaign.open(args.game) as c:
        try:
            if args.action == "undo":
                event = c.undo_control_edit(args.number, args.reason or "")
            else:
                event = c.control_edit(_build_edit(c, args), args.reason)
        except EditError as exc:
            raise ControlCliError(str(exc)) from None
    if getattr(args, "json", False):
        _print_json(_event_json(event))
    else:
        print(event.text)
    return EXIT_OK


# -- audit and rulings ---------------------------------------------------------------------------
def cmd_audit(args: argparse.Namespace) -> int:
    with Campaign.open(args.game) as c:
        entries = c.control_audit()
        pending = c.cards_awaiting_ruling()
        names = {n: str(r["name"]) for n, r in c.scenario.by_id("nations").items()}
    if args.json:
        _print_json(
            {
                "entries": [e.to_data() for e in entries],
                "awaiting_ruling": [_pending_json(e) for e in pending],
            }
        )
        return EXIT_OK
    if not entries:
        print("No Control edits or rulings yet.")
    for e in entries:
        mark = f" [undone by edit {e.undone_by}]" if e.undone_by else ""
        seen = ", ".join("Game Control" if v == "umpire" else names.get(v, v) for v in e.seen_by)
        print(f"Turn {e.turn}, step {e.step}: {e.text}{mark}  (seen by {seen})")
    for p in pending:
        print(
            f"Awaiting a ruling: {names.get(p.nation, p.nation)}'s card '{p.data.get('card')}' "
            f"(turn {p.turn}): {p.data.get('text') or '(no request written)'}"
        )
    return EXIT_OK


def _pending_json(event: Event) -> dict[str, Any]:
    return {
        "card": event.data.get("card"),
        "nation": event.nation,
        "turn": event.turn,
        "asked": event.data.get("text", ""),
    }


def cmd_rule(args: argparse.Namespace) -> int:
    with Campaign.open(args.game) as c:
        if args.pending or not args.card:
            pending = c.cards_awaiting_ruling()
            if args.json:
                _print_json([_pending_json(e) for e in pending])
            else:
                for e in pending:
                    print(f"{e.data.get('card')} ({e.nation}, turn {e.turn}): {e.data.get('text')}")
                if not pending:
                    print("No card awaits a ruling.")
            return EXIT_OK
        if not args.ruling:
            raise ControlCliError("give the ruling in words after the card")
        try:
            event = c.rule_on_card(args.card, args.ruling)
        except ValueError as exc:
            raise ControlCliError(str(exc)) from None
    if args.json:
        _print_json({"card": args.card, "text": event.text, "seen_by": list(event.visible_to)})
    else:
        print(event.text)
    return EXIT_OK


# -- team packs and hand-off sheets --------------------------------------------------------------
def cmd_pack(args: argparse.Namespace) -> int:
    from . import teampack  # the PDF library loads when a pack is printed

    out = Path(args.output)
    with Campaign.open(args.game) as c:
        teams = c.board().teams()
        chosen = args.nation or teams
        unknown = [n for n in chosen if n not in teams]
        if unknown:
            raise ControlCliError(f"unknown team {', '.join(unknown)}; valid: " + ", ".join(teams))
        try:
            written = teampack.write_packs(
                c,
                out,
                chosen,
                turn=args.turn,
                paper=args.paper,
                join=join_base(args.host, args.port),
            )
        except teampack.PackError as exc:
            raise ControlCliError(str(exc)) from None
    if args.json:
        _print_json({"folder": str(out), "files": [p.name for p in written]})
    else:
        for path in written:
            print(f"Wrote {path}")
    return EXIT_OK


def cmd_handoff(args: argparse.Namespace) -> int:
    out = Path(args.output)
    with Campaign.open(args.game) as c:
        try:
            sheet = handoff.handoff_sheet(c, args.table, args.turn)
        except handoff.HandoffError as exc:
            raise ControlCliError(str(exc)) from None
        written = handoff.write_sheet(c, sheet, out, args.paper)
    if args.json:
        _print_json({"files": [p.name for p in written], **sheet.to_data()})
    else:
        for path in written:
            print(f"Wrote {path}")
        print(f"{len(sheet.rows)} line(s) for the {sheet.table_name} (turn {sheet.turn}).")
    return EXIT_OK


# -- the parser ----------------------------------------------------------------------------------
def add_commands(add: AddCommand) -> None:
    """Add ``edit``, ``audit``, ``rule``, ``pack`` and ``handoff`` to the command line."""
    p = add(
        "edit",
        cmd_edit,
        "Game Control's edit mode: correct the game as it stands (every edit has a reason, "
        "is an event the teams concerned see, and can be undone)",
    )
    p.add_argument("game")
    actions = p.add_subparsers(dest="action", required=True, metavar="EDIT")

    def action(name: str, help: str, reason: bool = True) -> argparse.ArgumentParser:
        a = actions.add_parser(name, help=help, description=help)
        a.add_argument(
            "--reason", required=reason, help="why (the teams concerned read it)" if reason else ""
        )
        a.add_argument(
            "--json", action="store_true", default=argparse.SUPPRESS, help="print as JSON"
        )
        return a

    a = action("move", "put a unit in another port")
    a.add_argument("unit", help="the unit's id or name")
    a.add_argument("to", help="the base, port or island")
    for name, words in (
        ("damage", "damage a ready unit"),
        ("repair", "repair a damaged unit"),
        ("sink", "sink a unit"),
    ):
        action(name, words).add_argument("unit")
    a = action("state", "set a unit's state")
    a.add_argument("unit")
    a.add_argument("state", choices=control.UNIT_STATES)
    a = action("carrier-air", "a carrier group's Air Point aboard (yes) or not (no)")
    a.add_argument("unit")
    a.add_argument("aboard", metavar="yes|no")
    a = action("holder", "give a base, port or island to a nation")
    a.add_argument("base")
    a.add_argument("nation")
    a = action("tonnage", "set a merchant route's tonnage points")
    a.add_argument("route")
    a.add_argument("points", type=int)
    a.add_argument(
        "--from-pool",
        action="store_true",
        help="take the difference from (or give it back to) the nation's unallocated tonnage",
    )
    a = action("pool", "set a nation's unallocated tonnage points")
    a.add_argument("nation")
    a.add_argument("points", type=int)
    a = action("flags", "set a nation's Operations Flags for a turn")
    a.add_argument("nation")
    a.add_argument("naval", type=int)
    a.add_argument("military", type=int)
    a.add_argument("--turn", type=int, help="which turn (default: the current one)")
    a = action("card", "give a played Advantage Card back, or take one away")
    a.add_argument("card", help="the card's id or title")
    a.add_argument("to", choices=("restore", "remove"))
    a = action("garrison", "set a nation's garrisons at a place")
    a.add_argument("base")
    a.add_argument("nation")
    a.add_argument("garrisons", type=int)
    a = action("lsp", "set a nation's Logistics Support Points at a base")
    a.add_argument("base")
    a.add_argument("nation")
    a.add_argument("points", type=int)
    a = action("air", "set a land-based air unit's Air Points (0 removes it)")
    a.add_argument("air", help="the air unit's id (seacontrol-cli show --json lists them)")
    a.add_argument("points", type=int)
    a = action("add-air", "add land-based Air Points of a nation at a place")
    a.add_argument("nation")
    a.add_argument("base")
    a.add_argument("kind", choices=("land", "strategic"))
    a.add_argument("points", type=int)
    a = action("move-air", "put a land-based air unit at another place")
    a.add_argument("air")
    a.add_argument("to")
    a = action("contested", "mark a sea area contested (yes) or not (no) for a side's routes")
    a.add_argument("side", choices=("allies", "axis"))
    a.add_argument("area", help="the sea area's id or name")
    a.add_argument("contested", metavar="yes|no")
    a = action("undo", "undo an edit by its number (the audit lists them)", reason=False)
    a.add_argument("number", type=int)

    p = add("audit", cmd_audit, "every Control edit, undo and card ruling, and cards awaiting one")
    p.add_argument("game")

    p = add(
        "rule",
        cmd_rule,
        "record Game Control's ruling on an Advantage Card played for 'some other advantage' "
        "(without a card: list the cards awaiting a ruling)",
    )
    p.add_argument("game")
    p.add_argument("card", nargs="?", help="the card's id")
    p.add_argument("ruling", nargs="?", help="the ruling, in words the team will read")
    p.add_argument("--pending", action="store_true", help="list the cards awaiting a ruling")

    p = add(
        "pack",
        cmd_pack,
        "team packs: one PDF per team with its report, task force and In Port cards, route "
        "chart, order sheet and seat code",
    )
    p.add_argument("game")
    p.add_argument("-o", "--output", required=True, help="the folder to write into")
    p.add_argument(
        "--nation", action="append", help="only this team (repeat for several; default: all)"
    )
    p.add_argument("--turn", type=int, help="the turn whose orders the pack asks for")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    p.add_argument("--host", help="the seats server's address (default: this machine's)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="the seats port")

    p = add(
        "handoff",
        cmd_handoff,
        "hand-off sheets for the other Control tables: the land game (major landings, Military "
        "flags) or the economic game (cargo and LSP delivered, tonnage lost), as CSV and PDF",
    )
    p.add_argument("game")
    p.add_argument("--table", required=True, choices=handoff.TABLES)
    p.add_argument("--turn", type=int, help="which turn (default: the last resolved)")
    p.add_argument("-o", "--output", required=True, help="the folder to write into")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
