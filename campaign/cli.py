"""``seacontrol-cli``: the command line, built on the same API as the app.

Exit codes: 0 done, 1 invalid input (the messages say what and where), 2 usage.
Every command that prints data takes ``--json``.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from . import __version__, calculator, paths
from .cli_ai import add_commands as add_ai_commands
from .cli_control import ControlCliError, add_commands
from .cli_seats import SeatsCliError
from .cli_seats import add_commands as add_seat_commands
from .csvdata import INT_RE, InputError, Problem
from .dice import SeededDice
from .engine import Campaign
from .gamefile import GameFile, GameFileError, opened
from .merchant_warfare import DEFAULT_SHORT_ROW, SHORT_ROW_READINGS
from .naval_combat import CombatSide
from .odds import merchant_odds, naval_odds
from .orders import LIMITS as ORDERS_LIMITS
from .orders import Choices, OrderProblem, OrdersError, load_orders, parse_orders
from .reports import format_situation, format_team_view, situation
from .scenario import Scenario, load_scenario, write_scenario
from .sequence import SEQUENCE
from .snapshot import scenario_from_game
from .tactical import RULE_SETS, BattleSetup, SetupError, find_setup, ignored_conditions
from .tactical import run as run_battle
from .tactical.outcome import in_rule_set_terms
from .tactical.simulate import available, rules_note, simulate
from .untrusted import MAX_DIGITS, JsonInputError, bad_character, read_json, shown, terminal_safe

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
TACTICAL = ("carrier", "fastplay", "surface", "airstrike")


class CliError(Exception):
    """Invalid input found by a command: printed, exit code 1."""


def _say(*parts: object, file: TextIO | None = None) -> None:
    """Print text for a person. Names, notes and event texts come from files that may be
    shared or tampered with, so every control character but tab and newline is written
    out (``\\x1b``): an escape sequence in a game file cannot clear, recolour or retitle
    the reader's terminal (:func:`campaign.untrusted.terminal_safe`)."""
    print(terminal_safe(" ".join(str(p) for p in parts)), file=file or sys.stdout)


#: what JSON leaves as it is but a terminal would act on: C1 controls (an 8-bit CSI),
#: DEL, bidirectional controls and lone surrogates (which cannot even be printed)
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _print_json(data: Any) -> None:
    """JSON on standard output; strings keep their values, but characters a terminal would
    act on are written as ``\\uXXXX`` escapes (still the same JSON)."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    print(_JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


def _scenario_arg(value: str | None) -> Scenario:
    """A scenario folder, or the name of a built-in scenario (default 1942)."""
    if value is None:
        return load_scenario(paths.scenario_dir("1942"))
    folder = Path(value)
    if not folder.exists() and value in paths.builtin_scenarios():
        folder = paths.scenario_dir(value)
    if not folder.is_dir():
        raise CliError(
            f"{value}: not a scenario folder or a built-in scenario "
            f"(built-in: {', '.join(paths.builtin_scenarios())})"
        )
    return load_scenario(folder)


def _problems_json(problems: Sequence[Problem]) -> list[dict[str, Any]]:
    return [
        {
            "file": p.file,
            "row": p.row,
            "field": p.field,
            "severity": p.severity,
            "message": p.message,
        }
        for p in problems
    ]


# -- commands --------------------------------------------------------------------------
def cmd_new(args: argparse.Namespace) -> int:
    scenario = _scenario_arg(args.scenario)
    return _create_game(scenario, args)


def cmd_import(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        raise CliError(f"{folder}: not a folder")
    return _create_game(load_scenario(folder), args)


def _create_game(scenario: Scenario, args: argparse.Namespace) -> int:
    out = Path(args.output)
    if out.exists() and not args.force:
        raise CliError(f"{out} already exists; choose another name or add --force to replace it")
    GameFile.create(out, scenario, name=args.name).close()
    if args.json:
        _print_json(
            {"game": str(out), "scenario": scenario.meta.id, "turn": scenario.meta.first_turn}
        )
    else:
        _say(
            f"Created {out}: {scenario.meta.name}, turn {scenario.meta.first_turn} "
            f"({scenario.meta.period_of(scenario.meta.first_turn)})"
        )
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    target = Path(args.path)
    seal: dict[str, Any] = {}
    problems: list[str] = []
    if target.is_dir():
        if args.anchor:
            raise CliError("--anchor checks a game file's chain; a scenario folder has none")
        scenario = load_scenario(target)
        kind = "scenario"
    elif target.is_file():
        with GameFile.open(target, altered_ok=True) as game:
            scenario = game.scenario
            found = game.integrity
            problems = list(found.problems) + game.check()
            if args.anchor:
                problems += _anchor_problems(args.anchor, game.chain())
            seal = {"status": found.status, "link": found.link, "head": found.head}
            seal["key_id"] = found.key_id
        kind = "game file"
    else:
        raise CliError(f"{target}: no such scenario folder or game file")
    counts = {name: len(rows) for name, rows in scenario.tables.items()}
    if args.json:
        data: dict[str, Any] = {"valid": not problems, "kind": kind, "counts": counts}
        data["problems"] = _problems_json(scenario.warnings)
        if seal:
            data |= {"seal": seal, "file_problems": problems}
        _print_json(data)
        return EXIT_INVALID if problems else EXIT_OK
    for warning in scenario.warnings:
        _say(warning)
    if problems:
        _say(f"INVALID: {target} has been damaged or changed outside Sea Control:", file=sys.stderr)
        for problem in problems:
            _say(f"  {problem}", file=sys.stderr)
        return EXIT_INVALID
    if seal and not found.verified:
        _say(f"WARNING: {found.summary()}")
    elif seal:
        _say(f"Seal verified by this machine's key; chain head {found.head} (link {found.link}).")
    _say(
        f"OK: {target} is a valid {kind} — {counts['sea_areas']} sea areas, "
        f"{counts['bases']} bases, {counts['units']} units, {counts['routes']} routes, "
        f"{counts['nations']} nations"
    )
    return EXIT_OK


def _anchor_problems(anchor: str, chain: list[str]) -> list[str]:
    """A chain head printed earlier (16 hex digits or more) must be one of the file's."""
    text = anchor.strip().lower().rstrip(".")
    if len(text) < 16 or any(ch not in "0123456789abcdef" for ch in text):
        raise CliError("--anchor takes a chain head as printed: 16 to 64 hex digits")
    if any(head.startswith(text) for head in chain):
        return []
    return [
        f"the chain head {text} printed earlier is not in this file's chain: the file does not "
        "descend from the one that report or pack was made from (cut short, or rewritten)"
    ]


def cmd_reseal(args: argparse.Namespace) -> int:
    """Game Control accepts a file changed outside Sea Control, or sealed elsewhere."""
    reason = args.reason.strip()
    if not reason or bad_character(reason):
        raise CliError("--reason takes a few words of plain text: why the file is accepted")
    with GameFile.open(args.game, altered_ok=True) as game:
        before = game.integrity
        if before.verified:
            raise CliError(f"{args.game} is sealed by this machine and matches: nothing to accept")
        after = game.reseal(reason)
    if args.json:
        _print_json(
            {
                "was": before.status,
                "problems": list(before.problems),
                "link": after.link,
                "head": after.head,
            }
        )
    else:
        _say(f"Was: {before.summary()}")
        _say(f"Sealed again by this machine: chain head {after.head} (link {after.link}).")
        _say("The log every team sees records it.")
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    with opened(args.game) as game:
        try:
            events = game.log()
            data = situation(game.scenario, game.state(), args.nation, events)
        except KeyError:
            valid = ", ".join(n["id"] for n in game.scenario.rows("nations"))
            raise CliError(f"unknown nation '{args.nation}'; valid: {valid}") from None
    if args.json:
        _print_json(data)
    else:
        _say(format_situation(data))
    return EXIT_OK


def cmd_view(args: argparse.Namespace) -> int:
    with Campaign.open(args.game) as campaign:
        if args.nation not in campaign.scenario.by_id("nations"):
            valid = ", ".join(campaign.board().teams())
            raise CliError(f"unknown nation '{args.nation}'; valid: {valid}")
        view = campaign.team_view(args.nation)
        text = format_team_view(view, campaign.scenario)
    if args.json:
        _print_json(view.to_data())
    else:
        print(text)
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    notes: list[str] = []
    with opened(args.game) as game:
        scenario = game.scenario
        if args.position:  # the game as it stands, at the start of its current turn
            scenario, notes = scenario_from_game(scenario, game.turn_start(game.state().turn))
        written = write_scenario(scenario, args.folder)
    if args.json:
        _print_json(
            {"folder": str(args.folder), "files": [p.name for p in written], "notes": notes}
        )
    else:
        for note in notes:
            _say(f"Note: {note}")
        _say(f"Exported {len(written)} files to {args.folder}")
    return EXIT_OK


def _find_base(scenario: Scenario, text: str) -> dict[str, Any]:
    bases = scenario.rows("bases")
    key = text.strip().lower()
    for b in bases:
        if key in (b["id"], b["name"].lower()):
            return b
    starts = [b for b in bases if b["name"].lower().startswith(key)]
    if len(starts) == 1:
        return starts[0]
    raise CliError(f"'{text}' is not a base, port or island of the scenario")


def cmd_graph(args: argparse.Namespace) -> int:
    scenario = _scenario_arg(args.scenario)
    world = scenario.world
    edges = scenario.rows("adjacency")
    data: dict[str, Any] = {
        "sea_areas": len(world),
        "edges": len(edges),
        "straits": sum(1 for e in edges if e["kind"] == "strait"),
        "connected": world.is_connected(),
        "components": len(world.components()),
    }
    if args.between:
        a, b = (_find_base(scenario, x) for x in args.between)
        path = world.path(a["sea_area"], b["sea_area"])
        data["between"] = {
            "from": a["id"],
            "to": b["id"],
            "distance": len(path) - 1,
            "path": path,
        }
    if args.json:
        _print_json(data)
        return EXIT_OK
    _say(
        f"Sea areas: {data['sea_areas']}; edges: {data['edges']} ({data['straits']} straits); "
        f"connected: {'yes' if data['connected'] else 'no'}"
    )
    if args.between:
        info = data["between"]
        names = " → ".join(world.areas[p].name for p in info["path"])
        _say(f"{a['name']} to {b['name']}: {info['distance']} sea areas ({names})")
    return EXIT_OK


def _order_problems_json(problems: Sequence[OrderProblem]) -> list[dict[str, str]]:
    return [
        {"nation": p.nation, "order": p.order, "rule": p.rule, "message": p.message}
        for p in problems
    ]


def cmd_orders(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise CliError(f"{path}: no such orders file")
    try:
        with path.open("rb") as f:
            text = f.read(ORDERS_LIMITS.max_bytes + 1)  # a bigger file is refused unread
    except OSError as exc:
        raise CliError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    with Campaign.open(args.game) as campaign:
        if args.nation not in campaign.scenario.by_id("nations"):
            valid = ", ".join(campaign.board().teams())
            raise CliError(f"unknown nation '{args.nation}'; valid: {valid}")
        orders = load_orders(text, args.nation)
        if args.check:
            problems = campaign.check(orders)
            if problems:
                raise OrdersError(problems)
        else:
            campaign.set_orders(args.nation, orders)
        turn = campaign.state.turn
    counts = {
        "task_forces": len(orders.task_forces),
        "operations": len(orders.operations),
        "escorts": len(orders.escorts),
        "raids": len(orders.raids),
        "supplies": len(orders.supplies),
        "transfers": len(orders.transfers),
        "cards": len(orders.cards),
    }
    if args.json:
        _print_json(
            {
                "nation": args.nation,
                "turn": turn,
                "accepted": True,
                "stored": not args.check,
                "counts": counts,
            }
        )
    else:
        verb = "are valid" if args.check else "accepted"
        detail = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in counts.items() if n)
        _say(f"Orders for {args.nation}, turn {turn}, {verb}: {detail or 'nothing to do'}")
    return EXIT_OK


def cmd_resolve(args: argparse.Namespace) -> int:
    with Campaign.open(args.game) as campaign:
        start = campaign.state
        if not campaign.orders(start.turn) and start.step == 0 and not args.allow_empty:
            raise CliError(
                f"no orders are stored for turn {start.turn}; give them with "
                "'seacontrol-cli orders' or add --allow-empty to resolve anyway"
            )
        if args.choices:
            for nation, choices in _read_choices(args.choices, campaign).items():
                campaign.set_choices(nation, choices)
        fight = None
        if args.fight:
            _tactical(args.fight)
            fight = lambda _choice: args.fight  # noqa: E731 - every battle, one rule set
        events = campaign.resolve(to_step=args.to_step or 10, seed=args.seed, fight=fight)
        end = campaign.state
        head = campaign.dice_head()
        chain = campaign.game.chain_head()
    if args.json:
        _print_json(
            {
                "turn": start.turn,
                "from_step": start.step,
                "state": {"turn": end.turn, "step": end.step},
                "dice_head": head,
                "chain_head": chain[1],
                "chain_link": chain[0],
                "events": [{"step": e.step, "kind": e.kind, "text": e.text} for e in events],
            }
        )
        return EXIT_OK
    last = 10 if end.step == 0 else end.step
    for number in range(start.step + 1, last + 1):
        _say(f"Step {number} — {SEQUENCE[number - 1].name}")
        texts = [e.text for e in events if e.step == number and e.turn == start.turn]
        for text in texts or ["(nothing to report)"]:
            _say(f"  • {text}")
    for event in events:
        if event.turn != start.turn:
            _say(f"  • {event.text}")
    where = (
        f"turn {end.turn} awaits orders"
        if end.step == 0
        else f"turn {end.turn}, step {end.step} done"
    )
    _say(f"Resolved; {where}. Dice chain head {head}")
    _say(f"Game file chain head {chain[1]} (link {chain[0]})")
    return EXIT_OK


def _read_choices(path: str, campaign: Campaign) -> dict[str, Choices]:
    """A choices file: ``{"usa": {"losses": [...], "repairs": [...], "carrier_air": {...}},
    …}`` — each nation's section read as an orders file's ``choices``."""
    try:
        with Path(path).open("rb") as f:
            raw = f.read(ORDERS_LIMITS.max_bytes + 1)  # read as an orders file is
        data, found = read_json(raw, ORDERS_LIMITS)
    except OSError as exc:
        raise CliError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except JsonInputError as exc:
        raise CliError(f"{path}: not a JSON choices file ({exc})") from None
    if found:
        raise CliError(f"{path}: " + "; ".join(f"{where}: {message}" for where, message in found))
    if not isinstance(data, dict):
        raise CliError(f"{path}: a choices file is an object of nation → choices")
    nations = campaign.scenario.by_id("nations")
    out = {}
    for nation, section in data.items():
        if nation not in nations:
            raise CliError(f"{path}: unknown nation '{nation}'; valid: " + ", ".join(nations))
        out[nation] = parse_orders({"nation": nation, "choices": section}, nation).choices
    return out


def cmd_report(args: argparse.Namespace) -> int:
    with Campaign.open(args.game) as campaign:
        nations = campaign.scenario.by_id("nations")
        if args.nation and args.nation not in nations:
            raise CliError(
                f"unknown nation '{args.nation}'; valid: " + ", ".join(campaign.board().teams())
            )
        if args.json:
            events = campaign.events(args.nation, args.turn)
            _print_json(
                {
                    "nation": args.nation,
                    "turn": args.turn,
                    "dice_head": campaign.dice_head(),
                    "dice_chain_ok": not campaign.verify_dice(),
                    "chain_head": campaign.chain_head(),
                    "chain_link": campaign.chain_link(),
                    "seal": campaign.game.integrity.status,
                    "events": [
                        {
                            "turn": e.turn,
                            "step": e.step,
                            "kind": e.kind,
                            "nation": e.nation,
                            "text": e.text,
                            "data": e.data,
                        }
                        for e in events
                    ],
                }
            )
        else:
            _say(campaign.report(args.nation, args.turn))
            problems = campaign.verify_dice()
            if problems:
                _say("\nWARNING — the dice log has been tampered with:", file=sys.stderr)
                for p in problems:
                    _say(f"  {p}", file=sys.stderr)
                return EXIT_INVALID
            if not campaign.game.integrity.verified:
                _say(f"\nWARNING — {campaign.game.integrity.summary()}", file=sys.stderr)
    return EXIT_OK


def _rolls(text: str) -> list[int]:
    parts = [x.strip() for x in text.split(",") if x.strip()]
    if not parts or not all(INT_RE.fullmatch(x) and len(x) <= 3 for x in parts):
        raise CliError(f"--roll takes whole numbers separated by commas, not {shown(text)}")
    return [int(x) for x in parts]


def cmd_calc(args: argparse.Namespace) -> int:
    try:
        if args.table == "naval":
            if args.cv is None or args.roll is None:
                raise CliError("calc naval needs --cv and --roll")
            result = calculator.calc_naval(args.cv, _rolls(args.roll), args.drm, args.shift)
            text = calculator.format_naval(result)
        else:
            needed = (
                "attack_cv",
                "escort_cv",
                "attack_roll",
                "escort_roll",
                "attacker",
                "attackers",
            )
            missing = [n for n in needed if getattr(args, n) is None]
            if missing:
                raise CliError(
                    "calc merchant needs " + ", ".join("--" + m.replace("_", "-") for m in missing)
                )
            result = calculator.calc_merchant(
                args.attack_cv,
                args.escort_cv,
                args.attack_roll,
                args.escort_roll,
                args.attacker,
                args.attackers,
                shift=args.shift,
                bonus=args.bonus,
                escort_bonus=args.escort_bonus,
                short_row=args.short_row,
            )
            text = calculator.format_merchant(result)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        _print_json(result)
    else:
        _say(text)
    return EXIT_OK


def _tactical(name: str) -> None:
    if name not in available():
        raise CliError(
            f"the '{name}' rule set is not available in this version; available: "
            + ", ".join(available())
        )


def _note_ignored(rule_set: str, setup: BattleSetup) -> None:
    ignored = ignored_conditions(rule_set, setup)
    if ignored:
        _say(
            f"Note: the {rule_set} rules do not read these conditions of the set-up: "
            f"{', '.join(ignored)} (docs/battle-setups.md lists what each rule set reads).",
            file=sys.stderr,
        )


def _load_setup(rule_set: str, name: str) -> BattleSetup:
    """A set-up file (or built-in battle) checked whole for ``rule_set`` and put in its
    terms; every problem is reported as invalid input, with its field."""
    try:
        return in_rule_set_terms(rule_set, BattleSetup.load(find_setup(name), rule_set))
    except SetupError as exc:
        raise InputError(exc.problems) from None
    except ValueError as exc:
        raise CliError(str(exc)) from None


def cmd_battle(args: argparse.Namespace) -> int:
    _tactical(args.rule_set)
    setup = _load_setup(args.rule_set, args.setup)
    _note_ignored(args.rule_set, setup)
    battle = RULE_SETS[args.rule_set](setup, SeededDice(args.seed))
    result = run_battle(battle)
    ships = {
        sid: {"name": s.name, "state": s.state, "damage": s.damage}
        for sid, s in result.ships.items()
    }
    if args.json:
        _print_json(
            {
                "rule_set": args.rule_set,
                "title": setup.title,
                "seed": args.seed,
                "turns": result.turns,
                "winner": result.winner,
                "ships": ships,
                "air_groups": {
                    g: {"name": a.name, "aircraft": a.aircraft, "lost": a.lost}
                    for g, a in result.air_groups.items()
                },
                "log": result.log,
            }
        )
        return EXIT_OK
    _say(f"{setup.title} — {args.rule_set} rules, seed {args.seed}")
    for line in result.log:
        _say(f"  {line}")
    winner = {"a": setup.a.name, "b": setup.b.name}.get(result.winner, "no decision")
    _say(f"After {result.turns} turn(s): {winner}.")
    for side in (setup.a, setup.b):
        _say(f"{side.name}:")
        for ship in side.ships:
            final = result.ships[ship.id]
            _say(
                f"  {final.name:<28} {final.state}"
                + (f" ({final.damage} damage)" if final.damage else "")
            )
    return EXIT_OK


def cmd_odds(args: argparse.Namespace) -> int:
    if args.kind in TACTICAL:
        _tactical(args.kind)
        if not args.setup:
            raise CliError(f"odds {args.kind} needs --setup FILE")
        setup = _load_setup(args.kind, args.setup)
        _note_ignored(args.kind, setup)
        try:
            odds = simulate(args.kind, setup, args.runs, seed=args.seed or "odds", workers=None)
        except ValueError as exc:  # e.g. a set-up's campaign_units not understood
            raise CliError(f"{args.setup}: {exc}") from None
        if args.json:
            _print_json(odds.to_dict())
        else:
            _say(odds.format())
        note = rules_note(args.runs)  # a long preview fought with the plain rules: why
        if note:
            _say(f"Note: {note}", file=sys.stderr)
        return EXIT_OK
    try:
        if args.kind == "naval":
            if args.cv is None or args.enemy_cv is None:
                raise CliError("odds naval needs --cv and --enemy-cv")
            a = CombatSide(
                "side",
                args.cv,
                args.air,
                args.at_base,
                args.lsp,
                args.units,
                args.no_landing_craft,
                args.bonus,
                args.shift,
            )
            b = CombatSide(
                "enemy",
                args.enemy_cv,
                args.enemy_air,
                args.enemy_at_base,
                args.enemy_lsp,
                args.enemy_units,
                False,
                args.enemy_bonus,
                args.enemy_shift,
            )
            result: Any = naval_odds(a, b)
        else:
            if args.attack_cv is None or args.escort_cv is None or args.attacker is None:
                raise CliError("odds merchant needs --attack-cv, --escort-cv and --attacker")
            combat = calculator.merchant_combat(
                args.attack_cv,
                args.escort_cv,
                args.attacker,
                args.attackers or 1,
                shift=args.shift,
                bonus=args.bonus,
                escort_bonus=args.escort_bonus,
            )
            result = merchant_odds(combat, args.short_row)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        _print_json(result.to_dict())
    else:
        _say(result.format())
    return EXIT_OK


# -- the parser --------------------------------------------------------------------------
#: battles one odds command may fight (a million would take hours)
MAX_RUNS = 100_000


def _whole(text: str) -> int:
    """A whole number argument, in ASCII digits (``int()`` would read '٣' as 3) and of a
    sensible size."""
    if not INT_RE.fullmatch(text.strip()) or len(text.strip().lstrip("+-")) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number in digits 0-9")
    return int(text)


def _runs(text: str) -> int:
    runs = _whole(text)
    if not 1 <= runs <= MAX_RUNS:
        raise argparse.ArgumentTypeError(f"{runs} battles: give 1 to {MAX_RUNS:,}")
    return runs


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="seacontrol-cli",
        description="Sea Control: the naval campaign of The Last War, 1942–1945.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(
        name: str, func: Callable[[argparse.Namespace], int], help: str
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.add_argument("--json", action="store_true", help="print the data as JSON")
        p.set_defaults(func=func)
        return p

    def new_file(p: argparse.ArgumentParser) -> None:
        """The new game file's options (``new`` and ``import``)."""
        p.add_argument("-o", "--output", required=True, help="the game file to write")
        p.add_argument("--name", help="the game's name (default: the scenario's)")
        p.add_argument("--force", action="store_true", help="replace an existing file")

    p = add("new", cmd_new, "start a new game from a scenario (default: the built-in 1942)")
    p.add_argument("scenario", nargs="?", help="scenario folder or built-in name (1942)")
    new_file(p)

    p = add("validate", cmd_validate, "check a scenario folder or a game file (and its seal)")
    p.add_argument("path")
    p.add_argument(
        "--anchor",
        metavar="HEAD",
        help="a chain head printed on an earlier report or team pack: the file must hold it",
    )

    p = add("reseal", cmd_reseal, "Game Control: accept a game file changed outside Sea Control")
    p.add_argument("game")
    p.add_argument("--reason", required=True, help="why it is accepted (the log records it)")

    p = add("show", cmd_show, "print the situation per nation")
    p.add_argument("game")
    p.add_argument("--nation", help="only this nation (its id, e.g. uk)")

    p = add("view", cmd_view, "the game as one team may know it (its team view)")
    p.add_argument("game")
    p.add_argument("nation", help="the team's nation id, e.g. japan")

    p = add("export", cmd_export, "write a game's scenario as CSV files into a folder")
    p.add_argument("game")
    p.add_argument("folder")
    p.add_argument(
        "--position",
        action="store_true",
        help="the game's position at the start of its current turn, as a new scenario",
    )

    p = add("import", cmd_import, "make a new game from a scenario folder")
    p.add_argument("folder")
    new_file(p)

    p = add("orders", cmd_orders, "check a nation's orders (JSON) and store them in the game")
    p.add_argument("game")
    p.add_argument("nation", help="the nation's id, e.g. japan")
    p.add_argument("file", help="the orders file (docs/orders-format.md)")
    p.add_argument("--check", action="store_true", help="only check them; store nothing")

    p = add("resolve", cmd_resolve, "resolve the turn's steps (the whole turn by default)")
    p.add_argument("game")
    p.add_argument(
        "--choices",
        metavar="FILE",
        help="the owners' choices for this turn: JSON {nation: {losses, repairs, carrier_air}}",
    )
    p.add_argument("--seed", help="the dice seed (stored in the game; default: the game's)")
    p.add_argument(
        "--to-step", type=_whole, choices=range(1, 11), metavar="N", help="stop after step N (1-10)"
    )
    p.add_argument(
        "--allow-empty", action="store_true", help="resolve even if no nation has given orders"
    )
    p.add_argument(
        "--fight",
        metavar="RULESET",
        choices=TACTICAL,
        help="fight step 8's battles out with a tactical rule set instead of the damage table",
    )

    p = add("report", cmd_report, "the turn's events, for Game Control or one team")
    p.add_argument("game")
    p.add_argument("--nation", help="a team's view (fog of war); default: Game Control")
    p.add_argument("--turn", type=_whole, help="which turn (default: the last resolved)")

    add_seat_commands(add)  # the room: seats, serve, clock
    add_commands(add)  # Game Control's table: edit, audit, rule, pack, handoff
    add_ai_commands(add)  # the computer opponent: ai, play

    p = add("calc", cmd_calc, "the umpire's calculator: a table by hand with given dice")
    p.add_argument("table", choices=("naval", "merchant"))
    p.add_argument("--cv", type=_whole, help="naval: the firing side's combat value")
    p.add_argument("--roll", help="naval: the d6 rolls, e.g. 4 or 6,3 (one per 20 CV)")
    p.add_argument("--drm", type=_whole, default=0, help="naval: the total die modifier")
    _merchant_args(p)

    p = add("battle", cmd_battle, "fight a tactical battle from a set-up file")
    p.add_argument(
        "rule_set",
        choices=TACTICAL,
        metavar="RULESET",
        help="carrier (003), fastplay (000), surface (004) or airstrike (001)",
    )
    p.add_argument(
        "--setup",
        required=True,
        help="the battle set-up: a JSON file, or a built-in battle by name (midway, "
        "fastplay-example, surface-example, airstrike-example)",
    )
    p.add_argument("--seed", default="1942", help="the dice seed")

    p = add(
        "odds",
        cmd_odds,
        "odds of a combat: exact for naval and merchant, sampled for a tactical rule set",
    )
    p.add_argument(
        "kind",
        choices=("naval", "merchant", *TACTICAL),
        metavar="KIND",
        help="naval, merchant, or a tactical rule set (carrier, fastplay, surface, airstrike)",
    )
    p.add_argument(
        "--setup", help="tactical: the battle set-up (a JSON file or a built-in battle's name)"
    )
    p.add_argument(
        "--runs",
        type=_runs,
        default=1000,
        help=f"tactical: battles to run (1 to {MAX_RUNS:,})",
    )
    p.add_argument("--seed", help="tactical: the dice seed")
    p.add_argument("--cv", type=_whole, help="naval: your combat value")
    p.add_argument("--enemy-cv", type=_whole, help="naval: the enemy's combat value")
    p.add_argument("--air", type=_whole, default=0, help="naval: your air points")
    p.add_argument("--enemy-air", type=_whole, default=0)
    p.add_argument("--lsp", type=_whole, default=1, help="naval: LSP allocated (default 1)")
    p.add_argument("--enemy-lsp", type=_whole, default=1)
    p.add_argument("--units", type=_whole, default=1, help="naval: units in the force")
    p.add_argument("--enemy-units", type=_whole, default=1)
    p.add_argument("--at-base", action="store_true", help="naval: in your fleet base's area")
    p.add_argument("--enemy-at-base", action="store_true")
    p.add_argument(
        "--no-landing-craft",
        action="store_true",
        help="naval: a minor invasion without landing craft (-2)",
    )
    p.add_argument("--enemy-bonus", type=_whole, default=0)
    p.add_argument("--enemy-shift", type=_whole, default=0)
    _merchant_args(p, odds=True)

    p = add("graph", cmd_graph, "the sea-area graph: size, connectivity, distances")
    p.add_argument("scenario", nargs="?", help="scenario folder or built-in name (1942)")
    p.add_argument(
        "--between",
        nargs=2,
        metavar=("BASE", "BASE"),
        help="sea-area distance between two bases (ids or names)",
    )
    return parser


def _merchant_args(p: argparse.ArgumentParser, odds: bool = False) -> None:
    p.add_argument("--attack-cv", type=_whole, help="merchant: the interdictors' CV")
    p.add_argument("--escort-cv", type=_whole, help="merchant: the escorts' CV")
    if not odds:
        p.add_argument("--attack-roll", type=_whole, help="merchant: the interdictor's d6")
        p.add_argument("--escort-roll", type=_whole, help="merchant: the escort's d6")
    p.add_argument(
        "--attacker",
        choices=calculator.ATTACKERS,
        help="merchant: what attacks (German subs differ from all others)",
    )
    p.add_argument("--attackers", type=_whole, help="merchant: how many interdicting units")
    p.add_argument(
        "--shift",
        type=_whole,
        default=0,
        help="column shift in the attacker's favour (naval: yours)",
    )
    p.add_argument("--bonus", type=_whole, default=0, help="Advantage Card die bonus (yours)")
    p.add_argument("--escort-bonus", type=_whole, default=0, help="merchant: the escort's bonus")
    p.add_argument(
        "--short-row",
        default=DEFAULT_SHORT_ROW,
        choices=sorted(SHORT_ROW_READINGS),
        help="reading of the colour table's short row (docs/rules-notes.md)",
    )


@functools.cache
def _parser() -> argparse.ArgumentParser:
    """The parser, built once a process (building it costs more than most commands: a
    program that runs ``main`` many times, or a test, pays it once)."""
    return build_parser()


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except InputError as exc:
        if getattr(args, "json", False):
            _print_json({"valid": False, "problems": _problems_json(exc.problems)})
        else:
            _say(f"Invalid input — {exc}", file=sys.stderr)
        return EXIT_INVALID
    except OrdersError as exc:
        if getattr(args, "json", False):
            _print_json({"accepted": False, "problems": _order_problems_json(exc.problems)})
        else:
            _say(f"Orders refused — {exc}", file=sys.stderr)
        return EXIT_INVALID
    except (CliError, ControlCliError, SeatsCliError, GameFileError) as exc:
        if getattr(args, "json", False):
            _print_json({"error": str(exc)})
        else:
            _say(f"Error: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
