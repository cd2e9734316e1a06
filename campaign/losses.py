"""Step losses and who takes them.

002 "Damage": *Losses are in steps. So a loss of one converts an undamaged to a damaged or a
damage to a sunk. Owner chooses which ship losses to take from their Task Force.* Garrison
counters and Air Points *do not take step losses, they are removed at the first step*
(002 "Minor Invasions"); a manpower or tank point landed is removed by one step likewise.

The owner's choice is a hook: a :class:`LossPolicy` is asked with a :class:`LossRequest`
and answers with one candidate id per step. In the app a person answers; in automation
:class:`SpreadLosses` does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

#: the order in which the default policy prefers to hit unit types (cheapest first)
TYPE_ORDER = (
    "landing_craft",
    "escort",
    "submarine",
    "light_cruiser",
    "escort_carrier",
    "heavy",
    "fleet_carrier",
)


@dataclass(frozen=True, slots=True)
class Casualty:
    """Something that can take a step of loss."""

    id: str
    nation: str
    kind: str  # unit | garrison | air | manpower | tank
    name: str
    type: str = ""  # the unit type, for units
    steps_left: int = 1  # a ready unit 2, a damaged unit 1, others 1
    cv_now: int = 0  # CV it contributes now
    cv_after_step: int = 0  # CV it contributes after its next step of loss
    cv_after_two: int = 0  # … after two steps (units only)


@dataclass(frozen=True, slots=True)
class LossRequest:
    """Ask the owner to take ``steps`` steps of loss from ``candidates``."""

    side: str  # e.g. "Axis side, battle in the Coral Sea"
    nations: tuple[str, ...]
    steps: int
    candidates: tuple[Casualty, ...]
    context: str = ""  # what the combat was
    protect: tuple[str, ...] = ()  # kinds the owner wants to keep if possible (troops)

    @property
    def capacity(self) -> int:
        return sum(c.steps_left for c in self.candidates)

    @property
    def due(self) -> int:
        """Steps that must be taken: the loss, or everything if the loss is larger."""
        return min(self.steps, self.capacity)


class LossPolicy(Protocol):
    def allocate(self, request: LossRequest) -> Sequence[str]:
        """One candidate id per step (a unit may be named twice: damaged, then sunk)."""
        ...


class LossAllocationError(ValueError):
    pass


def check_allocation(request: LossRequest, chosen: Sequence[str]) -> None:
    """Raise :class:`LossAllocationError` unless ``chosen`` takes exactly the steps due."""
    if len(chosen) != request.due:
        raise LossAllocationError(
            f"{request.side}: {request.due} step(s) must be taken, {len(chosen)} were chosen"
        )
    limits = {c.id: c.steps_left for c in request.candidates}
    for cid, n in Counter(chosen).items():
        if cid not in limits:
            raise LossAllocationError(f"{request.side}: '{cid}' is not in this combat")
        if n > limits[cid]:
            raise LossAllocationError(
                f"{request.side}: '{cid}' can take {limits[cid]} step(s), not {n}"
            )


class SpreadLosses:
    """The default owner: keep as much combat value as possible, spread the damage.

    Steps go first to damaging ready units, the one losing least CV first (then the
    cheaper type, then the id, for a fixed order); garrisons and air go at their first
    step; troops kinds in ``protect`` are hit last; damaged units are sunk only when
    nothing else is left, least valuable first.
    """

    def allocate(self, request: LossRequest) -> list[str]:
        chosen: list[str] = []
        protected = [c for c in request.candidates if c.kind in request.protect]
        others = [c for c in request.candidates if c.kind not in request.protect]

        def cost(c: Casualty) -> tuple[int, int, str]:
            rank = TYPE_ORDER.index(c.type) if c.type in TYPE_ORDER else -1
            return (c.cv_now - c.cv_after_step, rank, c.id)

        def sinks(c: Casualty) -> bool:
            """A unit already damaged: its one step left sinks it."""
            return c.kind == "unit" and c.steps_left == 1

        def sinking_cost(c: Casualty) -> tuple[int, tuple[int, int, str]]:
            lost = c.cv_now - c.cv_after_step if sinks(c) else c.cv_after_step - c.cv_after_two
            return (lost, cost(c))

        for group in (others, protected):
            # first damage what is ready (and remove garrisons, air and troops) …
            for c in sorted((c for c in group if not sinks(c)), key=cost):
                if len(chosen) == request.due:
                    return chosen
                chosen.append(c.id)
            # … then sink: the damaged units and those just damaged, least valuable first
            last = [c for c in group if sinks(c) or (c.kind == "unit" and c.steps_left > 1)]
            for c in sorted(last, key=sinking_cost):
                if len(chosen) == request.due:
                    return chosen
                chosen.append(c.id)
        return chosen


class PreferredLosses:
    """An owner who said ahead which units take the steps (``choices.losses``): one step per
    entry, in order, for each entry that is a candidate with a step left; the rest as
    :class:`SpreadLosses` would take them."""

    def __init__(self, preferred: Sequence[str]) -> None:
        self.preferred = list(preferred)

    def allocate(self, request: LossRequest) -> list[str]:
        left = {c.id: c.steps_left for c in request.candidates}
        chosen: list[str] = []
        for cid in self.preferred:
            if len(chosen) == request.due:
                return chosen
            if left.get(cid, 0) > 0:
                chosen.append(cid)
                left[cid] -= 1
        if len(chosen) < request.due:
            rest = tuple(
                c if left[c.id] == c.steps_left else _after_a_step(c)
                for c in request.candidates
                if left[c.id] > 0
            )
            more = replace(request, steps=request.due - len(chosen), candidates=rest)
            chosen += SpreadLosses().allocate(more)
        return chosen


def _after_a_step(c: Casualty) -> Casualty:
    """A ready unit as a candidate once it has taken one step (it is damaged)."""
    return replace(
        c, steps_left=c.steps_left - 1, cv_now=c.cv_after_step, cv_after_step=c.cv_after_two
    )


class ScriptedLosses:
    """Tests: answer each request with the next scripted list; fail if none is left."""

    def __init__(self, answers: Sequence[Sequence[str]]) -> None:
        self.answers = [list(a) for a in answers]
        self.requests: list[LossRequest] = []

    def allocate(self, request: LossRequest) -> list[str]:
        self.requests.append(request)
        if not self.answers:
            raise LossAllocationError(f"unexpected loss request: {request.side}")
        return self.answers.pop(0)
