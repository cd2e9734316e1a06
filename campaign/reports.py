"""The situation of a game, per nation: the data the command line and the app print.

:func:`situation` returns plain data (what ``--json`` prints); :func:`format_situation`
turns it into text for a terminal or a printed handout.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any

from .routes import route_chart
from .scenario import Scenario
from .schemas import UNIT_TYPES
from .state import GameState

if TYPE_CHECKING:
    from .engine import Campaign

UNIT_TYPE_NAMES = {
    "fleet_carrier": "Fleet Carrier Group",
    "escort_carrier": "Escort Carrier Group",
    "heavy": "Heavy Ship Group",
    "light_cruiser": "Light Cruiser Force",
    "escort": "Escort Force",
    "submarine": "Submarine flotilla",
    "landing_craft": "Landing Craft Group",
}


def situation(scenario: Scenario, state: GameState, nation: str | None = None) -> dict[str, Any]:
    """Per nation: units by type, state and base; tonnage; LSP; routes with effective lift.

    Without ``nation``, every nation with anything to report (countries that only hold
    ports are left out). Raises KeyError for an unknown nation.
    """
    nations = scenario.by_id("nations")
    if nation is not None and nation not in nations:
        raise KeyError(nation)
    chosen = [nation] if nation else [n["id"] for n in scenario.rows("nations")]
    bases = scenario.by_id("bases")
    chart = route_chart(scenario, state.routes)
    out: dict[str, Any] = {
        "scenario": scenario.meta.id,
        "turn": state.turn,
        "period": scenario.meta.period_of(state.turn),
        "nations": [],
    }
    for nid in chosen:
        units = [u for u in state.units_of(nid) if u.state != "sunk"]
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
        routes: list[dict[str, Any]] = [
            {
                "serial": line.serial,
                "id": line.id,
                "name": line.name,
                "tonnage": line.tonnage,
                "length": line.length.label,
                "moves": line.moves,
                "effective_lift": line.effective_lift,
                "path": list(line.path),
            }
            for line in chart
            if line.nation == nid
        ]
        on_routes = sum(int(r["tonnage"]) for r in routes)
        if nation is None and not (units or routes or state.tonnage.get(nid) or state.lsp_of(nid)):
            continue  # a country that only holds ports: nothing to report
        out["nations"].append(
            {
                "id": nid,
                "name": nations[nid]["name"],
                "side": nations[nid]["side"],
                "units_by_type": {t: by_type[t] for t in UNIT_TYPES},
                "units_damaged": sum(1 for u in units if u.state == "damaged"),
                "bases": [
                    {
                        "base": b,
                        "name": bases[b]["name"],
                        "sea_area": bases[b]["sea_area"],
                        "units": by_base[b],
                    }
                    for b in sorted(by_base, key=lambda b: bases[b]["name"])
                ],
                "tonnage": {
                    "total": on_routes + state.tonnage.get(nid, 0),
                    "on_routes": on_routes,
                    "unallocated": state.tonnage.get(nid, 0),
                },
                "lsp": state.lsp_of(nid),
                "routes": routes,
            }
        )
    return out


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

    The dice log's head hash is printed so every team holds an anchor against which the
    rolls can be checked later (``seacontrol-cli report`` on the same game).
    """
    from .turn import STEPS

    state = campaign.state
    if turn is None:
        turn = state.turn if state.step else max(state.turn - 1, campaign.scenario.meta.first_turn)
    events = campaign.events(nation, turn)
    nations = campaign.scenario.by_id("nations")
    who = "Game Control (everything)" if nation is None else f"{nations[nation]['name']} team"
    lines = [
        f"Sea Control — turn {turn} ({campaign.scenario.meta.period_of(turn)}) — {who}",
        f"Dice log: {len(campaign.dice_log())} rolls; chain head {campaign.dice_head()}",
    ]
    by_step: dict[int, list[str]] = defaultdict(list)
    for event in events:
        by_step[event.step].append(event.text)
    for step in STEPS:
        texts = by_step.get(step.number, [])
        lines.append("")
        lines.append(f"Step {step.number} — {step.name}")
        lines += [f"  • {text}" for text in texts] or ["  (nothing to report)"]
    for extra in sorted(k for k in by_step if k == 0 or k > len(STEPS)):
        lines += ["", "Between turns"] + [f"  • {text}" for text in by_step[extra]]
    return "\n".join(lines)
