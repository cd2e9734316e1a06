"""``seacontrol-cli``: the command line, built on the same API as the app.

Exit codes: 0 done, 1 invalid input (the messages say what and where), 2 usage.
Every command that prints data takes ``--json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import __version__, paths
from .csvdata import InputError, Problem
from .gamefile import GameFile, GameFileError, opened
from .reports import format_situation, situation
from .scenario import Scenario, load_scenario, write_scenario

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class CliError(Exception):
    """Invalid input found by a command: printed, exit code 1."""


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


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
        print(
            f"Created {out}: {scenario.meta.name}, turn {scenario.meta.first_turn} "
            f"({scenario.meta.period_of(scenario.meta.first_turn)})"
        )
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    target = Path(args.path)
    if target.is_dir():
        scenario = load_scenario(target)
        kind = "scenario"
    elif target.is_file():
        with opened(target) as game:
            scenario = game.scenario
            game.state()
        kind = "game file"
    else:
        raise CliError(f"{target}: no such scenario folder or game file")
    counts = {name: len(rows) for name, rows in scenario.tables.items()}
    if args.json:
        _print_json(
            {
                "valid": True,
                "kind": kind,
                "counts": counts,
                "problems": _problems_json(scenario.warnings),
            }
        )
    else:
        for warning in scenario.warnings:
            print(warning)
        print(
            f"OK: {target} is a valid {kind} — {counts['sea_areas']} sea areas, "
            f"{counts['bases']} bases, {counts['units']} units, {counts['routes']} routes, "
            f"{counts['nations']} nations"
        )
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    with opened(args.game) as game:
        try:
            data = situation(game.scenario, game.state(), args.nation)
        except KeyError:
            valid = ", ".join(n["id"] for n in game.scenario.rows("nations"))
            raise CliError(f"unknown nation '{args.nation}'; valid: {valid}") from None
    if args.json:
        _print_json(data)
    else:
        print(format_situation(data))
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    with opened(args.game) as game:
        written = write_scenario(game.scenario, args.folder)
    if args.json:
        _print_json({"folder": str(args.folder), "files": [p.name for p in written]})
    else:
        print(f"Exported {len(written)} files to {args.folder}")
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
    print(
        f"Sea areas: {data['sea_areas']}; edges: {data['edges']} ({data['straits']} straits); "
        f"connected: {'yes' if data['connected'] else 'no'}"
    )
    if args.between:
        info = data["between"]
        names = " → ".join(world.areas[p].name for p in info["path"])
        print(f"{a['name']} to {b['name']}: {info['distance']} sea areas ({names})")
    return EXIT_OK


# -- the parser --------------------------------------------------------------------------
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

    p = add("new", cmd_new, "start a new game from a scenario (default: the built-in 1942)")
    p.add_argument("scenario", nargs="?", help="scenario folder or built-in name (1942)")
    p.add_argument("-o", "--output", required=True, help="the game file to write")
    p.add_argument("--name", help="the game's name (default: the scenario's)")
    p.add_argument("--force", action="store_true", help="replace an existing file")

    p = add("validate", cmd_validate, "check a scenario folder or a game file")
    p.add_argument("path")

    p = add("show", cmd_show, "print the situation per nation")
    p.add_argument("game")
    p.add_argument("--nation", help="only this nation (its id, e.g. uk)")

    p = add("export", cmd_export, "write a game's scenario as CSV files into a folder")
    p.add_argument("game")
    p.add_argument("folder")

    p = add("import", cmd_import, "make a new game from a scenario folder")
    p.add_argument("folder")
    p.add_argument("-o", "--output", required=True, help="the game file to write")
    p.add_argument("--name", help="the game's name")
    p.add_argument("--force", action="store_true", help="replace an existing file")

    p = add("graph", cmd_graph, "the sea-area graph: size, connectivity, distances")
    p.add_argument("scenario", nargs="?", help="scenario folder or built-in name (1942)")
    p.add_argument(
        "--between",
        nargs=2,
        metavar=("BASE", "BASE"),
        help="sea-area distance between two bases (ids or names)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except InputError as exc:
        if getattr(args, "json", False):
            _print_json({"valid": False, "problems": _problems_json(exc.problems)})
        else:
            print(f"Invalid input — {exc}", file=sys.stderr)
        return EXIT_INVALID
    except (CliError, GameFileError) as exc:
        if getattr(args, "json", False):
            _print_json({"error": str(exc)})
        else:
            print(f"Error: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
