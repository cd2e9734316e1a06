"""The game's state between steps: where every unit is, what is held, what is left.

Plain dataclasses, serialised to canonical JSON (sorted keys, no spaces) so that the same
game gives the same bytes. :func:`initial_state` builds turn 1 from a scenario.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from .record import TurnRecord
from .scenario import Scenario
from .untrusted import JsonInputError, JsonLimits, conforms, field_name, read_json, shown

#: how much of a stored state is read: a 1942 game's state is some 40 KB
STATE_LIMITS = JsonLimits(
    max_bytes=32 * 1024 * 1024, max_depth=16, max_items=100_000, max_text=100_000
)

#: 2: the turn record is typed (campaign/record.py); format 1 files are read and converted
STATE_FORMAT = 2


@dataclass(slots=True)
class Unit:
    """A naval unit on the map: 002 "Units" and "Damage"."""

    id: str
    nation: str
    type: str
    name: str
    base: str
    state: str = "ready"  # ready | damaged | sunk
    carries_air: bool = False

    def in_state(self, state: str) -> Unit:
        """A copy of this unit in ``state``, without the Air Point a carrier carries:
        what a step of loss leaves of it (002 "Damage"), for weighing a loss before it is
        taken. (Made field by field: ``dataclasses.replace`` costs seven times as much,
        and a turn weighs thousands.)"""
        return Unit(self.id, self.nation, self.type, self.name, self.base, state, False)


@dataclass(slots=True)
class AirUnit:
    """Land-based Air Points at a place."""

    id: str
    nation: str
    base: str
    kind: str
    points: int


@dataclass(slots=True)
class FleetTrain:
    """A fleet train on the map: 002 *a Mobile Fleet Base* in a sea area, supplied by its own
    merchant route (``route``) from the mainland fleet base ``origin``."""

    id: str
    nation: str
    name: str
    area: str
    origin: str
    route: str
    since: int  # the turn it was set up


@dataclass
class GameState:
    """Everything that changes during a game (the scenario holds what does not)."""

    turn: int
    step: int = 0  # the last step of the turn completed; 0 = orders not yet resolved
    units: dict[str, Unit] = field(default_factory=dict)
    lsp: dict[str, dict[str, int]] = field(default_factory=dict)  # base → nation → points
    tonnage: dict[str, int] = field(default_factory=dict)  # nation → points on no route
    routes: dict[str, int] = field(default_factory=dict)  # route → points allocated
    holders: dict[str, str] = field(default_factory=dict)  # base → nation
    garrisons: dict[str, dict[str, int]] = field(default_factory=dict)  # base → nation → n
    air: dict[str, AirUnit] = field(default_factory=dict)
    cards_played: list[str] = field(default_factory=list)
    #: routes created during play (step 4): id → the routes.csv columns
    extra_routes: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: sea areas where each side's merchant routes are contested (from the last step 8);
    #: a side's list is replaced, not changed in place (a Board keeps a set of each list it
    #: has read: Board.contested_for)
    contested: dict[str, list[str]] = field(default_factory=dict)
    #: what this turn's steps decided, for the later steps and the reports
    turn_record: TurnRecord = field(default_factory=TurnRecord)
    #: fleet trains set up during play (002 "Bases"), by id
    fleet_trains: dict[str, FleetTrain] = field(default_factory=dict)
    #: Game Control's changes to the Operations Flags of flags.csv: turn (as text) →
    #: nation → [naval, military] (campaign/control.py; read by Board.flags)
    flag_overrides: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    def to_json(self) -> str:
        data = asdict(self)
        if not data["fleet_trains"]:
            del data["fleet_trains"]  # a game without fleet trains keeps its bytes
        if not data["flag_overrides"]:
            del data["flag_overrides"]  # a game Control never corrected keeps its bytes
        data["format"] = STATE_FORMAT
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        """A state this program wrote (:func:`read_state` reads one from anywhere else)."""
        return cls.from_data(json.loads(text))

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> GameState:
        data = _interned(dict(data))
        fmt = data.pop("format", None)
        if fmt not in (1, STATE_FORMAT):
            raise ValueError(f"game state format {fmt!r}; this program reads {STATE_FORMAT}")
        data["units"] = {k: Unit(**v) for k, v in data["units"].items()}
        data["air"] = {k: AirUnit(**v) for k, v in data["air"].items()}
        data["fleet_trains"] = {k: FleetTrain(**v) for k, v in data.get("fleet_trains", {}).items()}
        record = data.get("turn_record") or {}
        data["turn_record"] = (
            TurnRecord.from_format_1(record) if fmt == 1 else TurnRecord.from_data(record)
        )
        return cls(**data)

    # -- questions the reports and the engine ask ----------------------------------------
    def units_of(self, nation: str) -> list[Unit]:
        return [u for u in self.units.values() if u.nation == nation]

    def lsp_of(self, nation: str) -> dict[str, int]:
        """Base → LSP of ``nation`` there (bases with none left out)."""
        return {b: n[nation] for b, n in self.lsp.items() if n.get(nation)}

    def lsp_at(self, base: str, nation: str) -> int:
        return self.lsp.get(base, {}).get(nation, 0)

    def add_lsp(self, base: str, nation: str, points: int) -> None:
        here = self.lsp.setdefault(base, {})
        here[nation] = here.get(nation, 0) + points
        if here[nation] == 0:
            del here[nation]
        if not here:
            del self.lsp[base]

    def total_tonnage(self, nation: str, routes: Iterable[str]) -> int:
        """All of ``nation``'s tonnage points: on its routes (``routes``, as
        :meth:`campaign.board.Board.routes_of` gives them) and unallocated."""
        allocated = self.routes
        on_routes = sum(allocated.get(r, 0) for r in routes)
        return on_routes + self.tonnage.get(nation, 0)


def _interned(data: Any) -> Any:
    """The JSON ``data`` with every key and text one string object per value
    (:func:`sys.intern`), as the scenario's ids are (campaign/scenario.py): the state's
    look-ups by id then find their keys by identity."""
    if type(data) is dict:
        return {(sys.intern(k) if type(k) is str else k): _interned(v) for k, v in data.items()}
    if type(data) is list:
        return [_interned(v) for v in data]
    if type(data) is str and len(data) <= _INTERNED_LENGTH:
        return sys.intern(data)
    return data


#: texts longer than this (a note, a reason) are left as they are: not names
_INTERNED_LENGTH = 64


def read_state(text: str, scenario: Scenario) -> GameState:
    """A stored state read with suspicion (a game file may have been edited by hand): JSON
    within :data:`STATE_LIMITS`, no key given twice, every field of its type, every unit,
    air unit and fleet train kept under its own id and of a nation of the scenario, the
    step one of the turn's. ValueError says what is wrong."""
    try:
        data, found = read_json(text, STATE_LIMITS)
    except JsonInputError as exc:
        raise ValueError(str(exc)) from None
    if found:
        raise ValueError("; ".join(f"{where} {message}" for where, message in found[:5]))
    if not isinstance(data, dict):
        raise ValueError("is not a JSON object")
    try:
        state = GameState.from_data(data)
    except (TypeError, KeyError, ValueError, AttributeError) as exc:
        raise ValueError(f"does not hold a game state's fields ({shown(str(exc), 80)})") from None
    problems = [f"{where} {message}" for where, message in conforms(state, GameState, "")]
    nations = scenario.by_id("nations")
    keyed: dict[str, dict[str, Any]] = {
        "units": state.units,
        "air": state.air,
        "fleet_trains": state.fleet_trains,
    }
    for name, items in keyed.items():
        for key, item in items.items():
            if getattr(item, "id", key) != key:
                problems.append(f"{name}.{field_name(key)} holds the id {shown(item.id)}")
            if getattr(item, "nation", "") not in nations:
                problems.append(f"{name}.{field_name(key)} is of no nation of the scenario")
    if not problems and not 0 <= state.step <= 10:
        problems.append(f"step {state.step} is not a step of the turn (0 to 10)")
    if problems:
        raise ValueError("; ".join(problems[:5]))
    return state


def initial_state(scenario: Scenario) -> GameState:
    """The position at the start of the scenario's first turn."""
    units = {
        r["id"]: Unit(
            r["id"], r["nation"], r["type"], r["name"], r["base"], r["state"], r["carries_air"]
        )
        for r in scenario.rows("units")
    }
    lsp: dict[str, dict[str, int]] = defaultdict(dict)
    for r in scenario.rows("lsp"):
        lsp[r["base"]][r["nation"]] = r["points"]
    routes = {r["id"]: r["tonnage"] for r in scenario.rows("routes")}
    on_routes: dict[str, int] = defaultdict(int)
    for r in scenario.rows("routes"):
        on_routes[r["nation"]] += r["tonnage"]
    tonnage = {n["id"]: n["tonnage"] - on_routes[n["id"]] for n in scenario.rows("nations")}
    garrisons: dict[str, dict[str, int]] = defaultdict(dict)
    for r in scenario.rows("garrisons"):
        garrisons[r["base"]][r["nation"]] = r["garrisons"]
    air = {
        r["id"]: AirUnit(r["id"], r["nation"], r["base"], r["kind"], r["points"])
        for r in scenario.rows("air")
    }
    return GameState(
        turn=scenario.meta.first_turn,
        units=units,
        lsp=dict(lsp),
        tonnage=tonnage,
        routes=routes,
        holders={b["id"]: b["holder"] for b in scenario.rows("bases")},
        garrisons=dict(garrisons),
        air=air,
    )
