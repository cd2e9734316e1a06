"""Game Control's edit mode: corrections to the game as it stands, each with a reason.

In a live megagame the umpires keep the map, and the map is sometimes wrong: a counter on
the wrong port, a loss the table missed, a base the land game has just taken, a flag the
briefing awarded late, a card a team played by mistake. 002 leaves such things to *the
discretion of Game Control*; this module lets Control set them right without ever hiding
that it did.

* An edit is a small typed value (:class:`MoveUnit`, :class:`SetUnitState`, …). It is
  checked against the board and refused with :class:`EditError` when it cannot be (a port
  that does not exist, a sunk unit sailing, a negative count), saying what would be valid.
* Applied, it becomes one ``control_edit`` event in the log: the reason, the words, and
  the exact state values before and after (:class:`Change`, addressed by their path in the
  state's JSON). The teams it concerns see it, with Game Control; nobody else does.
* An undo is an event too (``control_undo``): it puts the before-values back and names the
  edit it undoes, so the log stays append-only. It is refused if the values have changed
  since (a later step or edit moved the unit again): Control then makes a new edit.

Operations Flags come from the scenario's ``flags.csv``; Control's change for a turn is
kept in the game state (``GameState.flag_overrides``, read by :meth:`Board.flags`), so the
order check and step 6 answer with it, reopening a turn keeps or drops it with the rest of
that turn's state, and the scenario itself stays as it was given
(docs/rules-notes.md, "Game Control's edits").
"""

from __future__ import annotations

import copy
import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .board import Board
from .context import Turn
from .dice import ScriptedDice
from .events import UMPIRE, Event
from .scenario import Scenario
from .schemas import AIR_KINDS
from .state import AirUnit, GameState

EDIT, UNDO, RULING, CARD_PLAYED = "control_edit", "control_undo", "card_ruling", "card_played"
UNIT_STATES = ("ready", "damaged", "sunk")
#: the largest count an edit accepts (points, garrisons, flags): a typing slip, not a game
MOST = 10_000


class EditError(ValueError):
    """An edit Game Control asked for that cannot be made; the message says why and what
    would be valid."""


# -- the edits -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Applied:
    """What an edit did, in words, and the nations it concerns (who may see it)."""

    text: str
    nations: tuple[str, ...]


class Edit(ABC):
    """One correction Game Control can make. Subclasses are frozen dataclasses whose
    :meth:`apply` checks the edit on ``board`` and changes ``board.state`` in place."""

    action: ClassVar[str]
    label: ClassVar[str]

    @abstractmethod
    def apply(self, board: Board) -> Applied:
        """Check the edit on ``board`` and make it (raises EditError if refused)."""

    def to_data(self) -> dict[str, Any]:
        return {"action": self.action, **dataclasses.asdict(self)}  # type: ignore[call-overload]


@dataclass(frozen=True)
class MoveUnit(Edit):
    """Put a unit in another port (a counter on the wrong card, an escape the table
    missed)."""

    action: ClassVar[str] = "move_unit"
    label: ClassVar[str] = "Move a unit"
    unit: str
    to: str

    def apply(self, board: Board) -> Applied:
        unit = _unit(board, self.unit)
        place = _place(board, self.to)
        if unit.state == "sunk":
            raise EditError(f"{unit.name} is sunk; set its state to damaged or ready first")
        if unit.base == place:
            raise EditError(f"{unit.name} is already at {board.place_name(place)}")
        holder = board.holder(place)
        if _hostile(board, unit.nation, holder):
            raise EditError(
                f"{board.place_name(place)} is held by {board.name_of(holder)}, an enemy of "
                f"{board.name_of(unit.nation)}; change its holder first"
            )
        origin = unit.base
        unit.base = place
        return Applied(
            f"{unit.name} ({board.name_of(unit.nation)}) moved "
            f"{board.place_name(origin)} → {board.place_name(place)}",
            (unit.nation,),
        )


@dataclass(frozen=True)
class SetUnitState(Edit):
    """Damage, repair, sink or raise a unit (002 "Damage": ready → damaged → sunk).

    A carrier group that is damaged or sunk can no longer carry its Air Point: damaged,
    the Air Point goes where it goes in play (another carrier at the base, or ashore); sunk
    straight from ready, the Air Point aboard is lost with it (docs/rules-notes.md)."""

    action: ClassVar[str] = "unit_state"
    label: ClassVar[str] = "Damage, repair or sink a unit"
    unit: str
    state: str

    def apply(self, board: Board) -> Applied:
        unit = _unit(board, self.unit)
        if self.state not in UNIT_STATES:
            raise EditError(f"'{self.state}' is not a unit state; valid: {', '.join(UNIT_STATES)}")
        if unit.state == self.state:
            raise EditError(f"{unit.name} is already {self.state}")
        before = unit.state
        unit.state = self.state
        note = ""
        if unit.carries_air and self.state != "ready":
            unit.carries_air = False
            if self.state == "damaged":
                turn = Turn(board.scenario, board.state, {}, ScriptedDice([]))
                turn.land_carrier_air(unit)  # as in play: another carrier there, or ashore
                note = "; " + "; ".join(e.text.rstrip(".") for e in turn.events)
            else:
                note = "; the Air Point aboard is lost with it"
        return Applied(
            f"{unit.name} ({board.name_of(unit.nation)}) {before} → {self.state}{note}",
            (unit.nation,),
        )


@dataclass(frozen=True)
class SetCarrierAir(Edit):
    """Put a carrier group's Air Point aboard or take it off (002: *Damaged Carrier units
    cannot carry their air unit*: only a ready carrier takes one aboard)."""

    action: ClassVar[str] = "carrier_air"
    label: ClassVar[str] = "Air Point aboard a carrier"
    unit: str
    aboard: bool

    def apply(self, board: Board) -> Applied:
        unit = _unit(board, self.unit)
        if unit.type not in ("fleet_carrier", "escort_carrier"):
            raise EditError(f"{unit.name} is not a carrier group; only carriers carry air")
        if unit.carries_air == self.aboard:
            raise EditError(
                f"{unit.name}'s Air Point is already {'aboard' if self.aboard else 'off'}"
            )
        if self.aboard and unit.state != "ready":
            raise EditError(f"{unit.name} is {unit.state}: only a ready carrier carries air")
        unit.carries_air = self.aboard
        words = "takes an Air Point aboard" if self.aboard else "loses its Air Point"
        return Applied(f"{unit.name} ({board.name_of(unit.nation)}) {words}", (unit.nation,))


@dataclass(frozen=True)
class SetHolder(Edit):
    """Give a base, port or island to another nation (a capture decided by the land game,
    or a mistake). Units, garrisons and Air Points there stay until Control moves them."""

    action: ClassVar[str] = "holder"
    label: ClassVar[str] = "Change a base's holder"
    base: str
    nation: str

    def apply(self, board: Board) -> Applied:
        place = _place(board, self.base)
        nation = _nation(board, self.nation)
        before = board.holder(place)
        if before == nation:
            raise EditError(f"{board.place_name(place)} is already held by {board.name_of(nation)}")
        board.state.holders[place] = nation
        left = [
            u
            for u in board.state.units.values()
            if u.base == place and u.state != "sunk" and _hostile(board, u.nation, nation)
        ]
        note = (
            f"; {len(left)} unit{'s' if len(left) != 1 else ''} of "
            f"{', '.join(sorted({board.name_of(u.nation) for u in left}))} still in port there"
            if left
            else ""
        )
        return Applied(
            f"{board.place_name(place)} passes from {board.name_of(before)} to "
            f"{board.name_of(nation)}{note}",
            tuple(dict.fromkeys((before, nation, *(u.nation for u in left)))),
        )


@dataclass(frozen=True)
class SetRouteTonnage(Edit):
    """Set the tonnage points on a merchant route (Annex B's chart). ``from_pool``: the
    difference comes from (or goes back to) the nation's unallocated tonnage, as an
    allocation would; otherwise the nation's total changes (a loss miscounted)."""

    action: ClassVar[str] = "route_tonnage"
    label: ClassVar[str] = "Route tonnage"
    route: str
    points: int
    from_pool: bool = False

    def apply(self, board: Board) -> Applied:
        if self.route not in board.route_rows:
            raise EditError(_unknown("merchant route", self.route, board.route_ids()))
        _count(self.points, "tonnage points")
        nation = board.route_nation(self.route)
        before = board.state.routes.get(self.route, 0)
        if before == self.points:
            raise EditError(f"'{board.route(self.route).name}' already has {before} points")
        note = ""
        if self.from_pool:
            pool = board.state.tonnage.get(nation, 0)
            if pool < self.points - before:
                raise EditError(
                    f"{board.name_of(nation)} has only {pool} unallocated tonnage points "
                    f"(this needs {self.points - before})"
                )
            board.state.tonnage[nation] = pool - (self.points - before)
            note = " (from unallocated tonnage)"
        board.state.routes[self.route] = self.points
        return Applied(
            f"'{board.route(self.route).name}': {before} → {self.points} tonnage points{note}",
            (nation,),
        )


@dataclass(frozen=True)
class SetPool(Edit):
    """Set a nation's tonnage points on no route (its unallocated tonnage)."""

    action: ClassVar[str] = "pool"
    label: ClassVar[str] = "Unallocated tonnage"
    nation: str
    points: int

    def apply(self, board: Board) -> Applied:
        nation = _nation(board, self.nation)
        _count(self.points, "tonnage points")
        before = board.state.tonnage.get(nation, 0)
        if before == self.points:
            raise EditError(f"{board.name_of(nation)} already has {before} unallocated points")
        board.state.tonnage[nation] = self.points
        return Applied(
            f"{board.name_of(nation)}'s unallocated tonnage: {before} → {self.points} points",
            (nation,),
        )


@dataclass(frozen=True)
class SetFlags(Edit):
    """Set a nation's Naval and Military Operations Flags for a turn (002 "Naval
    Operations Flags": *The exact number of flags awarded are given in the team
    briefing*). ``turn`` 0: the current turn."""

    action: ClassVar[str] = "flags"
    label: ClassVar[str] = "Operations Flags"
    nation: str
    naval: int
    military: int
    turn: int = 0

    def apply(self, board: Board) -> Applied:
        nation = _nation(board, self.nation)
        state = board.state
        turn = self.turn or state.turn
        last = board.scenario.meta.last_turn
        if not state.turn <= turn <= last:
            raise EditError(f"flags can be set for turns {state.turn} to {last}, not {turn}")
        if turn == state.turn and state.step >= 6:
            raise EditError(
                f"the flags of turn {turn} were placed in step 6; reopen the turn to change them"
            )
        _count(self.naval, "Naval Operations Flags", 99)
        _count(self.military, "Military Operations Flags", 99)
        before = board.flags(nation, turn)
        if before == (self.naval, self.military):
            raise EditError(
                f"{board.name_of(nation)} already has {self.naval} naval and {self.military} "
                f"military flags on turn {turn}"
            )
        overrides = state.flag_overrides.setdefault(str(turn), {})
        overrides[nation] = [self.naval, self.military]
        given = Board(board.scenario, dataclasses.replace(state, flag_overrides={}))
        if given.flags(nation, turn) == (self.naval, self.military):
            del overrides[nation]  # back to the briefing's number: no correction kept
        if not overrides:
            del state.flag_overrides[str(turn)]
        return Applied(
            f"{board.name_of(nation)}'s Operations Flags on turn {turn}: naval {before[0]} → "
            f"{self.naval}, military {before[1]} → {self.military}",
            (nation,),
        )


@dataclass(frozen=True)
class SetCard(Edit):
    """Give a played Advantage Card back to its team (``in_hand``), or take one away
    (002: *Each card may only be played ONCE and after use is discarded*). A card given
    back whose effect this turn is not yet spent loses that effect."""

    action: ClassVar[str] = "card"
    label: ClassVar[str] = "Advantage Card left"
    card: str
    in_hand: bool

    def apply(self, board: Board) -> Applied:
        if self.card not in board.cards:
            raise EditError(_unknown("Advantage Card", self.card, list(board.cards)))
        row = board.cards[self.card]
        nation = str(row["nation"])
        state = board.state
        played = self.card in state.cards_played
        title = f"'{row['title']}' ({board.name_of(nation)})"
        if self.in_hand and not played:
            raise EditError(f"Advantage Card {title} has not been played")
        if not self.in_hand and played:
            raise EditError(f"Advantage Card {title} is already played")
        if not self.in_hand:
            state.cards_played.append(self.card)
            return Applied(f"Advantage Card {title} removed (discarded)", (nation,))
        state.cards_played.remove(self.card)
        effects = state.turn_record.cards
        pending = [e for e in effects if e.card == self.card and not e.used]
        state.turn_record.cards = [e for e in effects if e not in pending]
        note = "; its effect this turn is cancelled" if pending else ""
        return Applied(f"Advantage Card {title} given back{note}", (nation,))


@dataclass(frozen=True)
class SetGarrison(Edit):
    """Set the garrisons a nation has at a place (002 "Minor Invasions": *a garrison
    counter*)."""

    action: ClassVar[str] = "garrison"
    label: ClassVar[str] = "Garrisons"
    base: str
    nation: str
    garrisons: int

    def apply(self, board: Board) -> Applied:
        place = _place(board, self.base)
        nation = _nation(board, self.nation)
        _count(self.garrisons, "garrisons", 99)
        here = board.state.garrisons.get(place, {})
        before = here.get(nation, 0)
        if before == self.garrisons:
            raise EditError(
                f"{board.name_of(nation)} already has {before} garrison(s) at "
                f"{board.place_name(place)}"
            )
        here = board.state.garrisons.setdefault(place, {})
        if self.garrisons:
            here[nation] = self.garrisons
        else:
            here.pop(nation, None)
            if not here:
                del board.state.garrisons[place]
        return Applied(
            f"{board.name_of(nation)}'s garrisons at {board.place_name(place)}: "
            f"{before} → {self.garrisons}",
            (nation,),
        )


@dataclass(frozen=True)
class SetLSP(Edit):
    """Set the Logistics Support Points a nation has at a base."""

    action: ClassVar[str] = "lsp"
    label: ClassVar[str] = "Logistics Support Points"
    base: str
    nation: str
    points: int

    def apply(self, board: Board) -> Applied:
        place = _place(board, self.base)
        nation = _nation(board, self.nation)
        _count(self.points, "LSP")
        before = board.state.lsp_at(place, nation)
        if before == self.points:
            raise EditError(
                f"{board.name_of(nation)} already has {before} LSP at {board.place_name(place)}"
            )
        board.state.add_lsp(place, nation, self.points - before)
        return Applied(
            f"{board.name_of(nation)}'s LSP at {board.place_name(place)}: {before} → {self.points}",
            (nation,),
        )


@dataclass(frozen=True)
class SetAirPoints(Edit):
    """Set the Air Points of a land-based air unit (0 removes it)."""

    action: ClassVar[str] = "air_points"
    label: ClassVar[str] = "Air Points"
    air: str
    points: int

    def apply(self, board: Board) -> Applied:
        air = board.state.air.get(self.air)
        if air is None:
            raise EditError(_unknown("land-based air unit", self.air, list(board.state.air)))
        _count(self.points, "Air Points", 99)
        if air.points == self.points:
            raise EditError(f"{board.air_name(air.id)} already has {air.points} Air Points")
        text = f"{board.air_name(air.id)} ({board.name_of(air.nation)}): {air.points} → "
        if self.points:
            air.points = self.points
        else:
            del board.state.air[air.id]
        return Applied(f"{text}{self.points} Air Points", (air.nation,))


@dataclass(frozen=True)
class AddAirPoints(Edit):
    """Add land-based Air Points of a nation at a place (air the land game sends, or a
    carrier's air flown ashore)."""

    action: ClassVar[str] = "add_air"
    label: ClassVar[str] = "Add Air Points"
    nation: str
    base: str
    kind: str
    points: int

    def apply(self, board: Board) -> Applied:
        nation = _nation(board, self.nation)
        place = _place(board, self.base)
        if self.kind not in AIR_KINDS:
            raise EditError(f"'{self.kind}' is not a kind of air; valid: {', '.join(AIR_KINDS)}")
        _count(self.points, "Air Points", 99)
        if not self.points:
            raise EditError("add at least 1 Air Point")
        if _hostile(board, nation, board.holder(place)):
            raise EditError(
                f"{board.place_name(place)} is held by {board.name_of(board.holder(place))}, "
                f"an enemy of {board.name_of(nation)}"
            )
        air_id = f"{nation}_{self.kind}_air_{place}"
        existing = board.state.air.get(air_id)
        if existing:
            existing.points += self.points
        else:
            board.state.air[air_id] = AirUnit(air_id, nation, place, self.kind, self.points)
        return Applied(
            f"{self.points} {self.kind} Air Point{'s' if self.points != 1 else ''} of "
            f"{board.name_of(nation)} added at {board.place_name(place)}",
            (nation,),
        )


@dataclass(frozen=True)
class MoveAir(Edit):
    """Put a land-based air unit at another place."""

    action: ClassVar[str] = "move_air"
    label: ClassVar[str] = "Move Air Points"
    air: str
    to: str

    def apply(self, board: Board) -> Applied:
        air = board.state.air.get(self.air)
        if air is None:
            raise EditError(_unknown("land-based air unit", self.air, list(board.state.air)))
        place = _place(board, self.to)
        if air.base == place:
            raise EditError(f"{board.air_name(air.id)} is already there")
        if _hostile(board, air.nation, board.holder(place)):
            raise EditError(
                f"{board.place_name(place)} is held by {board.name_of(board.holder(place))}, "
                f"an enemy of {board.name_of(air.nation)}"
            )
        text = f"{board.air_name(air.id)} ({board.name_of(air.nation)}) moved to "
        air.base = place
        return Applied(f"{text}{board.place_name(place)}", (air.nation,))


@dataclass(frozen=True)
class SetContested(Edit):
    """Mark a sea area contested (or not) for a side's merchant routes (002 "Economic Route
    Chart": *uncontested, at the start*)."""

    action: ClassVar[str] = "contested"
    label: ClassVar[str] = "Contested sea area"
    side: str
    area: str
    contested: bool

    def apply(self, board: Board) -> Applied:
        sides = sorted({board.side_key(n) for n in board.nations})
        if self.side not in sides:
            raise EditError(f"'{self.side}' is not a side; valid: {', '.join(sides)}")
        if self.area not in board.world.areas:
            raise EditError(_unknown("sea area", self.area, list(board.world.areas)))
        areas = board.state.contested.get(self.side, [])
        if (self.area in areas) == self.contested:
            raise EditError(
                f"{board.area_name(self.area)} is already "
                f"{'contested' if self.contested else 'uncontested'} for {board.name_of(self.side)}"
            )
        # a new list, not the old one changed: a board keeps a set of each list it has read
        # (Board.contested_for)
        if self.contested:
            changed = sorted([*areas, self.area])
        else:
            changed = [a for a in areas if a != self.area]
        if changed:
            board.state.contested[self.side] = changed
        else:
            board.state.contested.pop(self.side, None)
        nations = tuple(n for n in board.nations if board.side_key(n) == self.side)
        words = "contested" if self.contested else "no longer contested"
        return Applied(
            f"{board.area_name(self.area)} is {words} for {board.name_of(self.side)}'s merchant "
            "routes",
            nations,
        )


#: every kind of edit by its action name (the CLI's and the event data's word)
EDITS: dict[str, type[Edit]] = {
    e.action: e
    for e in (
        MoveUnit,
        SetUnitState,
        SetCarrierAir,
        SetHolder,
        SetRouteTonnage,
        SetPool,
        SetFlags,
        SetCard,
        SetGarrison,
        SetLSP,
        SetAirPoints,
        AddAirPoints,
        MoveAir,
        SetContested,
    )
}


def edit_from_data(data: dict[str, Any]) -> Edit:
    """An edit from its :meth:`Edit.to_data` (the app and the JSON of the log)."""
    kind = EDITS.get(str(data.get("action", "")))
    if kind is None:
        raise EditError(f"'{data.get('action')}' is not an edit; valid: {', '.join(EDITS)}")
    fields = {f.name for f in dataclasses.fields(kind)}  # type: ignore[arg-type]
    try:
        return kind(**{k: v for k, v in data.items() if k in fields})
    except TypeError as exc:
        raise EditError(f"{kind.label}: {exc}") from None


# -- changes -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Change:
    """One value of the state's JSON changed by an edit: its path, and the values before
    and after (an empty tuple: the key was absent)."""

    path: tuple[str, ...]
    before: tuple[Any, ...]
    after: tuple[Any, ...]

    def to_data(self) -> list[Any]:
        return [list(self.path), list(self.before), list(self.after)]

    @classmethod
    def from_data(cls, data: Sequence[Any]) -> Change:
        path, before, after = data
        return cls(tuple(path), tuple(before), tuple(after))

    def inverse(self) -> Change:
        return Change(self.path, self.after, self.before)


def _diff(before: Any, after: Any, path: tuple[str, ...] = ()) -> list[Change]:
    """The leaf values that differ between two JSON trees (dictionaries are walked, every
    other value is a leaf)."""
    if isinstance(before, dict) and isinstance(after, dict):
        out: list[Change] = []
        for key in sorted(set(before) | set(after)):
            here = (*path, key)
            if key not in after:
                out.append(Change(here, (before[key],), ()))
            elif key not in before:
                out.append(Change(here, (), (after[key],)))
            else:
                out += _diff(before[key], after[key], here)
        return out
    return [] if before == after else [Change(path, (before,), (after,))]


def _get(data: dict[str, Any], path: tuple[str, ...]) -> tuple[Any, ...]:
    node: Any = data
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return ()
        node = node[key]
    return (node,)


def _put(data: dict[str, Any], path: tuple[str, ...], value: tuple[Any, ...]) -> None:
    node = data
    for key in path[:-1]:
        node = node.setdefault(key, {})
    if value:
        node[path[-1]] = copy.deepcopy(value[0])
    else:
        node.pop(path[-1], None)


def _undo_value(change: Change, now: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The value a path takes when ``change`` is undone, or None if it has moved on since
    in a way the undo would overwrite. A list of names (the cards played) is undone by
    taking out what the edit added and putting back what it took, whatever else joined."""
    if now == change.after:
        return change.before
    lists = [v for v in (*change.before, *change.after, *now) if isinstance(v, list)]
    if len(lists) == 3 and all(isinstance(x, str) for v in lists for x in v):
        before, after, current = (list(v[0]) for v in (change.before, change.after, now))
        added = [x for x in after if x not in before]
        removed = [x for x in before if x not in after]
        if all(x in current for x in added) and not any(x in current for x in removed):
            return ([x for x in current if x not in added] + removed,)
    return None


# -- making and undoing edits --------------------------------------------------------------
def next_number(events: Iterable[Event]) -> int:
    """The number the next edit or undo takes (1, 2, … over the whole game)."""
    return 1 + sum(1 for e in events if e.kind in (EDIT, UNDO))


def apply_edit(
    scenario: Scenario, state: GameState, events: Sequence[Event], edit: Edit, reason: str
) -> tuple[GameState, Event]:
    """The state after ``edit`` and the event that records it (nothing is saved here)."""
    reason = reason.strip()
    if not reason:
        raise EditError("say why: every Control edit needs a reason (the teams will read it)")
    after = copy.deepcopy(state)
    done = edit.apply(Board(scenario, after))
    changes = _diff(_data(state), _data(after))
    if not changes:  # pragma: no cover - every edit refuses a change to nothing itself
        raise EditError(f"{edit.label}: this changes nothing")
    number = next_number(events)
    event = Event(
        state.turn,
        state.step,
        EDIT,
        f"Game Control (edit {number}): {done.text}. Reason: {reason}",
        done.nations[0] if done.nations else "",
        {
            "edit": number,
            "action": edit.action,
            "args": edit.to_data(),
            "changes": [c.to_data() for c in changes],
            "reason": reason,
        },
        (*done.nations, UMPIRE),
    )
    return after, event


def undo_edit(
    scenario: Scenario, state: GameState, events: Sequence[Event], number: int, reason: str = ""
) -> tuple[GameState, Event]:
    """The state with edit ``number`` undone and the event that records the undo."""
    edits = {int(e.data.get("edit", 0)): e for e in events if e.kind == EDIT}
    original = edits.get(number)
    if original is None:
        listed = ", ".join(str(n) for n in sorted(edits)) or "none yet"
        raise EditError(f"there is no Control edit {number} to undo (edits: {listed})")
    undone = [e for e in events if e.kind == UNDO and e.data.get("undoes") == number]
    if undone:
        raise EditError(
            f"edit {number} was already undone (edit {undone[0].data.get('edit')}); "
            "make the edit again to redo it"
        )
    data = _data(state)
    changes = [Change.from_data(c) for c in original.data.get("changes", [])]
    for change in changes:
        value = _undo_value(change, _get(data, change.path))
        if value is None:
            raise EditError(
                f"edit {number} cannot be undone: {_path_words(change.path)} has changed "
                f"since (now {_value_words(_get(data, change.path))}, the edit left "
                f"{_value_words(change.after)}); make a new edit instead"
            )
        _put(data, change.path, value)
    after = GameState.from_json(json.dumps(data))
    reason = reason.strip() or "undone"
    new = next_number(events)
    what = original.text.split(": ", 1)[-1].split(". Reason:", 1)[0]
    event = Event(
        state.turn,
        state.step,
        UNDO,
        f"Game Control (edit {new}) undoes edit {number} ({what}). Reason: {reason}",
        original.nation,
        {
            "edit": new,
            "undoes": number,
            "changes": [c.inverse().to_data() for c in changes],
            "reason": reason,
        },
        original.visible_to,
    )
    return after, event


def _data(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(state.to_json())
    return data


#: a state path in words, for the message that refuses an undo
_PATH_WORDS = {
    "units": "unit {1}'s {2}",
    "air": "land-based air {1}",
    "holders": "the holder of {1}",
    "routes": "the tonnage of route {1}",
    "tonnage": "{1}'s unallocated tonnage",
    "lsp": "{2}'s LSP at {1}",
    "garrisons": "{2}'s garrisons at {1}",
    "cards_played": "the cards played",
    "flag_overrides": "the Operations Flags",
    "contested": "the contested sea areas",
    "turn_record": "this turn's record",
}


def _path_words(path: tuple[str, ...]) -> str:
    template = _PATH_WORDS.get(path[0], "{0}")
    padded = (*path, "", "", "")
    return template.format(*padded).strip()


def _value_words(value: tuple[Any, ...]) -> str:
    return "nothing" if not value else json.dumps(value[0], ensure_ascii=False)


# -- the audit view ------------------------------------------------------------------------
@dataclass(frozen=True)
class AuditEntry:
    """One line of Control's audit: an edit, an undo or a ruling on a card."""

    kind: str  # "edit" | "undo" | "ruling"
    number: int  # the edit's number (0 for a ruling)
    turn: int
    step: int
    text: str
    reason: str
    seen_by: tuple[str, ...]
    undoes: int = 0  # an undo: the edit it undoes
    undone_by: int = 0  # an edit: the undo that undid it (0: standing)

    def to_data(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def audit(events: Iterable[Event]) -> list[AuditEntry]:
    """Every Control edit, undo and card ruling, in the order they were made."""
    events = list(events)
    undone = {int(e.data["undoes"]): int(e.data["edit"]) for e in events if e.kind == UNDO}
    out = []
    for e in events:
        if e.kind == EDIT:
            number = int(e.data["edit"])
            out.append(
                AuditEntry(
                    "edit",
                    number,
                    e.turn,
                    e.step,
                    e.text,
                    str(e.data.get("reason", "")),
                    e.visible_to,
                    undone_by=undone.get(number, 0),
                )
            )
        elif e.kind == UNDO:
            out.append(
                AuditEntry(
                    "undo",
                    int(e.data["edit"]),
                    e.turn,
                    e.step,
                    e.text,
                    str(e.data.get("reason", "")),
                    e.visible_to,
                    undoes=int(e.data["undoes"]),
                )
            )
        elif e.kind == RULING:
            out.append(
                AuditEntry(
                    "ruling", 0, e.turn, e.step, e.text, str(e.data.get("ruling", "")), e.visible_to
                )
            )
    return out


def awaiting_ruling(events: Iterable[Event]) -> list[Event]:
    """Advantage Cards played for *some other advantage outside the rules at the discretion
    of Game Control* (002 "Advantage Cards") that Control has not ruled on yet."""
    events = list(events)
    out: list[Event] = []
    for i, e in enumerate(events):
        if e.kind != CARD_PLAYED or e.data.get("use") != "other":
            continue
        card = e.data.get("card")
        if not any(later.kind == RULING and later.data.get("card") == card for later in events[i:]):
            out.append(e)
    return out


def _unit(board: Board, unit_id: str) -> Any:
    unit = board.state.units.get(unit_id)
    if unit is None:
        raise EditError(_unknown("unit", unit_id, list(board.state.units)))
    return unit


def _place(board: Board, place: str) -> str:
    if place not in board.bases:
        raise EditError(_unknown("base, port or island", place, list(board.bases)))
    return place


def _nation(board: Board, nation: str) -> str:
    if nation not in board.nations:
        raise EditError(_unknown("nation", nation, list(board.nations)))
    return nation


def _hostile(board: Board, nation: str, holder: str) -> bool:
    """Held by the other side (a neutral's port is not hostile: ships may be interned)."""
    side, theirs = board.side(nation), board.side(holder)
    return holder != nation and "neutral" not in (side, theirs) and side != theirs


def _count(value: int, what: str, most: int = MOST) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise EditError(f"{what} must be a whole number from 0 to {most}, not {value!r}")


def _unknown(what: str, value: str, valid: Sequence[str]) -> str:
    """'no unit "x"; valid: a, b, c …' — the first few valid ids, closest first."""
    import difflib

    close = difflib.get_close_matches(value, valid, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    listed = ", ".join(list(valid)[:8]) + (" …" if len(valid) > 8 else "")
    return f"there is no {what} '{value}'{hint} (valid: {listed})"
