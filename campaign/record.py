"""The turn record: what a turn's steps decide that later steps (and reports) need.

Step 3 records who moved strategically, step 5 where every unit was allocated, step 6 the
flags used, step 7 the Advantage Cards in play, step 8 the surface raids that reached
their routes and the sea areas contested next turn, step 9 each route's state. It is part
of the game state (so a turn interrupted between steps carries on), typed here and
versioned with the state's format (:data:`campaign.state.STATE_FORMAT`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: where a unit is this turn (002 step 5: *a. merchant shipping protection or b. task
#: forces or c. attacking merchant shipping*; left out, it is *In Port*)
IN_PORT, TRANSFERRED, ESCORT, TASK_FORCE, RAID = (
    "in_port",
    "transferred",
    "escort",
    "task_force",
    "raid",
)
ASSIGNMENT_KINDS = (IN_PORT, TRANSFERRED, ESCORT, TASK_FORCE, RAID)


@dataclass(frozen=True, slots=True)
class Assignment:
    """Where one unit was allocated in step 5 (or moved in step 3)."""

    kind: str
    route: str = ""  # escort / raid: the route
    nation: str = ""  # task force: its nation
    task_force: str = ""  # task force: its id

    @property
    def on_port_card(self) -> bool:
        """On an In Port card this turn (left out of every allocation, or moved
        strategically: *Place strategically moved unit counters on an 'In Port' Card*)."""
        return self.kind in (IN_PORT, TRANSFERRED)


#: a unit allocated nowhere (one object: an allocation is frozen, so units allocated alike
#: share one, which a big world's turn makes thousands of)
_LEFT_IN_PORT = Assignment(IN_PORT)


@dataclass(frozen=True, slots=True)
class FlagUse:
    """A nation's Operations Flags this turn (step 6)."""

    naval: int
    military: int
    naval_used: int
    military_used: int


@dataclass(slots=True)
class CardEffect:
    """An Advantage Card played in step 7, kept until steps 8 and 9 use it."""

    card: str
    nation: str
    use: str
    value: int
    beneficiary: str
    task_force: str = ""
    route: str = ""
    text: str = ""
    used: bool = False
    ruling: str = ""


@dataclass(frozen=True, slots=True)
class SurfaceRaid:
    """A surface raid that won through in step 8 and attacks its route in step 9."""

    nation: str
    route: str
    area: str
    units: tuple[str, ...]
    air: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class RouteResult:
    """A route's state as step 9 found it."""

    working: bool
    why: str


@dataclass
class TurnRecord:
    transferred: list[str] = field(default_factory=list)
    assignments: dict[str, Assignment] = field(default_factory=dict)
    flags: dict[str, FlagUse] = field(default_factory=dict)
    cards: list[CardEffect] = field(default_factory=list)
    surface_raids: list[SurfaceRaid] = field(default_factory=list)
    routes: dict[str, RouteResult] = field(default_factory=dict)
    #: side key → sea areas where its merchant routes are contested next turn
    contested_next: dict[str, list[str]] = field(default_factory=dict)

    def where(self, unit: str) -> Assignment:
        """Where ``unit`` was allocated this turn (In Port if nowhere)."""
        return self.assignments.get(unit, _LEFT_IN_PORT)

    def to_data(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> TurnRecord:
        """From the state's JSON (the current format)."""
        return cls(
            transferred=list(data.get("transferred", [])),
            assignments={u: Assignment(**a) for u, a in data.get("assignments", {}).items()},
            flags={n: FlagUse(**f) for n, f in data.get("flags", {}).items()},
            cards=[CardEffect(**c) for c in data.get("cards", [])],
            surface_raids=[
                SurfaceRaid(
                    r["nation"],
                    r["route"],
                    r["area"],
                    tuple(r["units"]),
                    tuple((str(a), int(p)) for a, p in r.get("air", [])),
                )
                for r in data.get("surface_raids", [])
            ],
            routes={r: RouteResult(**s) for r, s in data.get("routes", {}).items()},
            contested_next={k: list(v) for k, v in data.get("contested_next", {}).items()},
        )

    @classmethod
    def from_format_1(cls, data: dict[str, Any]) -> TurnRecord:
        """From state format 1, where the record was an untyped dictionary and a unit's
        allocation a string ("escort:ROUTE", "tf:NATION:ID", "raid:ROUTE", "transferred")."""
        assignments = {}
        for unit, text in data.get("assignments", {}).items():
            kind, _, rest = str(text).partition(":")
            if kind == "escort":
                assignments[unit] = Assignment(ESCORT, route=rest)
            elif kind == "raid":
                assignments[unit] = Assignment(RAID, route=rest)
            elif kind == "tf":
                nation, _, tf = rest.partition(":")
                assignments[unit] = Assignment(TASK_FORCE, nation=nation, task_force=tf)
            else:
                assignments[unit] = Assignment(TRANSFERRED if kind == TRANSFERRED else IN_PORT)
        new = dict(data)
        new["assignments"] = {}
        record = cls.from_data(new)
        record.assignments = assignments
        return record
