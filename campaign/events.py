"""The event log: everything that happens in a game is an :class:`Event`.

Reports, the app's turn view and the tests all read events. Each event says who may see it
(fog of war): ``visible_to`` is empty for a public event, ``("umpire",)`` for Game Control
only, or the nations that know of it. :func:`visible` is the one filter every team output
goes through.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

UMPIRE = "umpire"


@dataclass(frozen=True)
class Event:
    turn: int
    step: int
    kind: str
    text: str  # one sentence an umpire or a team reads
    nation: str = ""  # the nation it is chiefly about ("" for none)
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: tuple[str, ...] = ()  # () = everyone

    def row(self) -> dict[str, Any]:
        """The game file's ``events`` row."""
        return {
            "turn": self.turn,
            "step": self.step,
            "kind": self.kind,
            "nation": self.nation or None,
            "text": self.text,
            "visible": ",".join(self.visible_to),
            "data": json.dumps(
                self.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False
            ),
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Event:
        visible = row.get("visible") or ""
        return cls(
            int(row["turn"]),
            int(row["step"]),
            str(row["kind"]),
            str(row.get("text") or ""),
            str(row.get("nation") or ""),
            json.loads(row.get("data") or "{}"),
            tuple(v for v in visible.split(",") if v),
        )


def visible(events: Iterable[Event], viewer: str | None) -> list[Event]:
    """The events ``viewer`` may see: all of them for Game Control (``None`` or "umpire"),
    else public events and those naming the nation."""
    if viewer is None or viewer == UMPIRE:
        return list(events)
    return [e for e in events if not e.visible_to or viewer in e.visible_to]
