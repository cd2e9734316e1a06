"""The event log: everything that happens in a game is an :class:`Event`.

Reports, the app's turn view and the tests all read events. Each event says who may see it
(fog of war): ``visible_to`` is empty for a public event, ``("umpire",)`` for Game Control
only, or the nations that know of it. A secret event may carry a :class:`Cover`: the public
form everyone else reads instead ("A Japanese naval operation in the Natuna Sea is not
opposed", where Japan reads its operation's name). :func:`visible` is the one filter every
team output goes through; ``docs/team-views.md`` says who learns what, and why.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

UMPIRE = "umpire"
#: the key under which an event's public form travels in the game file's ``data`` column
#: (the events table keeps its columns: no migration, and older files read unchanged)
COVER_KEY = "public"


@dataclass(frozen=True, slots=True)
class Cover:
    """The public form of a secret event: what every team outside its ``visible_to`` reads.

    It says only what the rules make public — a counter or a flag placed on the map, an
    operation's result in a sea area — never a name or id a team typed."""

    text: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Event:
    turn: int
    step: int
    kind: str
    text: str  # one sentence an umpire or a team reads
    nation: str = ""  # the nation it is chiefly about ("" for none)
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: tuple[str, ...] = ()  # () = everyone
    #: what everyone outside ``visible_to`` reads instead (None: they read nothing)
    cover: Cover | None = None

    def row(self) -> dict[str, Any]:
        """The game file's ``events`` row."""
        data = dict(self.data)
        if self.cover is not None:
            data[COVER_KEY] = {"text": self.cover.text, "data": self.cover.data}
        return {
            "turn": self.turn,
            "step": self.step,
            "kind": self.kind,
            "nation": self.nation or None,
            "text": self.text,
            "visible": ",".join(self.visible_to),
            "data": json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False),
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Event:
        visible = row.get("visible") or ""
        data = json.loads(row.get("data") or "{}")
        public = data.pop(COVER_KEY, None)
        return cls(
            int(row["turn"]),
            int(row["step"]),
            str(row["kind"]),
            str(row.get("text") or ""),
            str(row.get("nation") or ""),
            data,
            tuple(v for v in visible.split(",") if v),
            Cover(str(public["text"]), dict(public.get("data") or {})) if public else None,
        )

    def seen_by(self, viewer: str) -> Event | None:
        """This event as the team ``viewer`` reads it: whole, its public form, or nothing."""
        if not self.visible_to or viewer in self.visible_to:
            return self
        if self.cover is None:
            return None
        return Event(
            self.turn, self.step, self.kind, self.cover.text, self.nation, dict(self.cover.data)
        )


#: events about the game file rather than the play (docs/game-file.md): what its seal
#: found. A reopened turn never sets them aside.
FILE_EVENTS = ("file_sealed", "file_altered", "seal_key_changed")


def in_force(events: Iterable[Event]) -> list[Event]:
    """The events of the game as it now stands: a reopened turn (Turn → Reopen) sets aside
    everything that happened from that turn's start until the reopening — but for the
    reopenings themselves and what the file's seal found (:data:`FILE_EVENTS`). The log
    keeps them (it is append-only, for the audit); reports, views and the map read these."""
    kept: list[Event] = []
    for e in events:
        if e.kind == "turn_reopened":
            kept = [
                k
                for k in kept
                if k.turn < e.turn or k.kind == "turn_reopened" or k.kind in FILE_EVENTS
            ]
        kept.append(e)
    return kept


def visible(events: Iterable[Event], viewer: str | None) -> list[Event]:
    """The events ``viewer`` may see: all of them, whole, for Game Control (``None`` or
    "umpire"); for a team, public events and those naming its nation, and the public form
    (:class:`Cover`) of the secret events that have one."""
    if viewer is None or viewer == UMPIRE:
        return list(events)
    return [seen for e in events if (seen := e.seen_by(viewer)) is not None]
