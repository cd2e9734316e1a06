"""The situation of a game, per nation: the data the command line and the app print.

:func:`situation` returns plain data (what ``--json`` prints); :func:`format_situation`
turns it into text for a terminal or a printed handout.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from .events import Event
from .scenario import Scenario
from .schemas import UNIT_TYPES
from .sequence import SEQUENCE
from .state import GameState

if TYPE_CHECKING:  # the team views load when a report first needs one
    from .engine import Campaign
    from .teamview import TeamView

UNIT_TYPE_NAMES = {
    "fleet_carrier": "Fleet Carrier Group",
    "escort_carrier": "Escort Carrier Group",
    "heavy": "Heavy Ship Group",
    "light_cruiser": "Light Cruiser Force",
    "escort": "Escort Force",
    "submarine": "Submarine flotilla",
    "landing_craft": "Landing Craft Group",
}


def situation(
    scenario: Scenario,
    state: GameState,
    nation: str | None = None,
    events: Iterable[Event] = (),
) -> dict[str, Any]:
    """Per nation: units by type, state and base; tonnage; LSP; routes with effective lift.

    Each nation's block is made from its :class:`~campaign.teamview.TeamView` (its own
    forces), so a team's ``show`` holds nothing its view does not. Without ``nation``
    (Game Control), every nation with anything to report (countries that only hold ports
    are left out). Raises KeyError for an unknown nation.
    """
    if nation is not None and nation not in scenario.by_id("nations"):
        raise KeyError(nation)
    events = list(events)
    chosen = [nation] if nation else [n["id"] for n in scenario.rows("nations")]
    out: dict[str, Any] = {
        "scenario": scenario.meta.id,
        "turn": state.turn,
        "period": scenario.meta.period_of(state.turn),
        "nations": [],
    }
    from .teamview import team_view

    for nid in chosen:
        block = _own_forces(team_view(scenario, state, events, nid))
        idle = not (block["bases"] or block["routes"] or block["tonnage"]["total"] or block["lsp"])
        if nation is None and idle:
            continue  # a country that only holds ports: nothing to report
        out["nations"].append(block)
    return out


def _own_forces(view: TeamView) -> dict[str, Any]:
    """A nation's own forces, from its team view."""
    units = [u for u in view.units if u.state != "sunk"]
    by_type = Counter(u.type for u in units)
    by_base: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for u in sorted(units, key=lambda u: (UNIT_TYPES.index(u.type), u.name)):
        by_base[u.base].append(
            {
                "id": u.id,
                "type": u.type,
                "name": u.name,
                "state": u.state,
                "carries_air": u.carries_air,
            }
        )
    bases = {b.id: b for b in view.bases}
    routes = [
        {
            "serial": r.serial,
            "id": r.id,
            "name": r.name,
            "tonnage": r.tonnage,
            "length": r.length,
            "moves": len(r.path) - 1,
            "effective_lift": r.effective_lift,
            "path": list(r.path),
        }
        for r in view.routes
        if r.nation == view.nation
    ]
    return {
        "id": view.nation,
        "name": view.name,
        "side": view.side,
        "units_by_type": {t: by_type[t] for t in UNIT_TYPES},
        "units_damaged": sum(1 for u in units if u.state == "damaged"),
        "bases": [
            {
                "base": b,
                "name": bases[b].name,
                "sea_area": bases[b].sea_area,
                "units": by_base[b],
            }
            for b in sorted(by_base, key=lambda b: bases[b].name)
        ],
        "tonnage": asdict(view.tonnage),
        "lsp": dict(view.lsp),
        "routes": routes,
    }


def format_situation(data: dict[str, Any]) -> str:
    """The situation as text, one block per nation."""
    lines = [f"Sea Control — scenario {data['scenario']}, turn {data['turn']} ({data['period']})"]
    for n in data["nations"]:
        lines.append("")
        lines.append(f"== {n['name']} ({n['side']}) ==")
        counts = ", ".join(f"{UNIT_TYPE_NAMES[t]} {c}" for t, c in n["units_by_type"].items() if c)
        lines.append(
            f"Units: {counts or 'none'}"
            + (f"; {n['units_damaged']} damaged" if n["units_damaged"] else "")
        )
        for b in n["bases"]:
            lines.append(f"  {b['name']} [{b['sea_area']}]")
            for u in b["units"]:
                mark = " (damaged)" if u["state"] == "damaged" else ""
                air = " +Air" if u["carries_air"] else ""
                lines.append(f"    {UNIT_TYPE_NAMES[u['type']]}: {u['name']}{air}{mark}")
        t = n["tonnage"]
        lines.append(
            f"Tonnage points: {t['total']} ({t['on_routes']} on routes, "
            f"{t['unallocated']} unallocated)"
        )
        lsp = ", ".join(f"{base} {pts}" for base, pts in sorted(n["lsp"].items()))
        lines.append(f"LSP: {lsp or 'none'}")
        if n["routes"]:
            lines.append(
                "Merchant routes:  #  route                              tonnage  length  lift"
            )
            for r in n["routes"]:
                lines.append(
                    f"                 {r['serial']:>2}  {r['name'][:34]:<34} {r['tonnage']:>7}"
                    f"  {r['length']:<6} {r['effective_lift']:>5}"
                )
    return "\n".join(lines)


def turn_report(campaign: Campaign, nation: str | None = None, turn: int | None = None) -> str:
    """A turn's events in words, step by step, as Game Control or one team sees them.

    The game file's chain head is printed so every team holds an anchor against which the
    file can be checked later (``seacontrol-cli validate GAME --anchor HEAD``), and the dice
    log's head beside it (docs/game-file.md).
    """
    state = campaign.state
    if turn is None:
        turn = state.turn if state.step else max(state.turn - 1, campaign.scenario.meta.first_turn)
    events = campaign.events(nation, turn)
    nations = campaign.scenario.by_id("nations")
    who = "Game Control (everything)" if nation is None else f"{nations[nation]['name']} team"
    lines = [
        f"Sea Control — turn {turn} ({campaign.scenario.meta.period_of(turn)}) — {who}",
        f"Dice log: {len(campaign.dice_log())} rolls; chain head {campaign.dice_head()}",
        f"Game file: chain head {campaign.chain_head()} (link {campaign.chain_link()})",
    ]
    by_step: dict[int, list[str]] = defaultdict(list)
    for event in events:
        by_step[event.step].append(event.text)
    for step in SEQUENCE:
        texts = by_step.get(step.number, [])
        lines.append("")
        lines.append(f"Step {step.number} — {step.name}")
        lines += [f"  • {text}" for text in texts] or ["  (nothing to report)"]
    for extra in sorted(k for k in by_step if k == 0 or k > len(SEQUENCE)):
        lines += ["", "Between turns"] + [f"  • {text}" for text in by_step[extra]]
    lines += _score_and_reasons(campaign, nation, turn)
    return "\n".join(lines)


def _score_and_reasons(campaign: Campaign, nation: str | None, turn: int) -> list[str]:
    """The solo score after ``turn`` (a team reads its own side's figures: the enemy's rest
    on tonnage it may not know) and, in a team's report, the reasons its orders gave."""
    from .board import Board
    from .orders import live_reasons
    from .score import format_score, game_score

    score = game_score(campaign)
    side = None
    if nation is not None:
        side = Board(campaign.scenario, campaign.state).side(nation)
    lines = ["", "Solo score"]
    last = campaign.scenario.meta.last_turn
    final = campaign.state.turn > last and turn >= last
    if side in ("allies", "axis") or nation is None:
        lines += [f"  {line}" for line in format_score(score, turn, side, final)]
    else:
        lines.append("  (a neutral is not scored)")
    if nation is not None:
        stored = campaign.orders(turn).get(nation)
        reasons = live_reasons(stored) if stored is not None else []
        if reasons:
            lines += ["", "Why these orders"]
            lines += [f"  • {r.text}" for r in reasons]
    return lines


def format_team_view(view: TeamView, scenario: Scenario) -> str:
    """A team view as text: the team's own forces (as ``show``), then what it knows of its
    allies and of the others — the map this turn, the routes, the enemy units it fought.
    (``scenario``: the board's names of sea areas, which every team has.)"""
    names = {b.id: b.name for b in view.bases}
    areas = {a.id: a.name for a in scenario.world.areas.values()}
    own = {
        "scenario": view.scenario,
        "turn": view.turn,
        "period": view.period,
        "nations": [_own_forces(view)],
    }
    lines = [format_situation(own).splitlines()[0] + f" — {view.name} team's view"]
    lines += format_situation(own).splitlines()[1:]
    cards = ", ".join(f"{c.title} ({c.type}, {c.value})" for c in view.cards)
    lines.append(f"Advantage Cards in hand: {cards or 'none'}")
    f = view.flags
    lines.append(
        f"Operations Flags this turn: {f.naval} naval ({f.naval_used} placed), "
        f"{f.military} military ({f.military_used} placed)"
    )
    if view.task_forces:
        lines.append("Task forces this turn:")
        for tf in view.task_forces:
            op = f" — operation '{tf.operation}'" if tf.operation else ""
            lines.append(
                f"  '{tf.name}' at {names.get(tf.base, tf.base)}: {len(tf.units)} unit(s), "
                f"CV {tf.cv}, {tf.lsp} LSP{op}"
            )
    if view.allied_units:
        lines.append("")
        lines.append("Allied forces (shared by allies):")
        for nation in sorted({u.nation for u in view.allied_units}):
            here = Counter(
                names.get(u.base, u.base)
                for u in view.allied_units
                if u.nation == nation and u.state != "sunk"
            )
            where = ", ".join(f"{place} {n}" for place, n in sorted(here.items()))
            lines.append(f"  {view.name_of(nation)}: {sum(here.values())} unit(s) — {where}")
    lines.append("")
    lines.append("On the map this turn:")
    counters = Counter((c.nation, names.get(c.base, c.base)) for c in view.counters)
    lines += [
        f"  Task force counter of {view.name_of(nation)} at {place}" + (f" ×{n}" if n > 1 else "")
        for (nation, place), n in sorted(counters.items())
    ] or ["  (no other nation's task force counters)"]
    lines += [
        f"  Naval Operations Flag of {view.name_of(flag.nation)} in "
        f"{areas.get(flag.sea_area, flag.sea_area)}"
        for flag in view.flags_on_map
        if flag.nation != view.nation
    ]
    mine = dict(view.contested).get(view.side if view.side != "neutral" else view.nation, ())
    lines.append(
        f"Sea areas contested for {view.name_of(view.side)} merchant routes: "
        + (", ".join(areas.get(a, a) for a in mine) or "none")
    )
    others = [r for r in view.routes if r.nation != view.nation]
    if others:
        lines.append("")
        lines.append("Other nations' merchant routes (tonnage not known):")
        for r in others:
            lines.append(
                f"  {r.serial:>3}  {r.name[:40]:<40} {view.name_of(r.nation)[:18]:<18} {r.state}"
            )
    if view.sightings:
        lines.append("")
        lines.append("Enemy units met in combat (as last seen):")
        for s in view.sightings:
            lines.append(
                f"  {s.name} ({view.name_of(s.nation)}, {UNIT_TYPE_NAMES[s.type]}) — turn "
                f"{s.turn}"
                + (f", {areas.get(s.sea_area, s.sea_area)}" if s.sea_area else "")
                + f": {s.last_known}"
            )
    return "\n".join(lines)
