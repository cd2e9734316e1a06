"""What every rule set played in tactical turns shares (:class:`TurnBattle`).

A module of its own so that the compiled rule sets (:mod:`campaign.tactical.compiled`)
compile it with them: a class compiled by mypyc is a native class, with its attributes in
C slots, only when every class it derives from is compiled too.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from ..dice import Dice


class TurnBattle(ABC):
    """What a rule set played in tactical turns shares: the turn counter (also the dice's
    ``turn``), the log, ``narrate`` and ``finished``. A subclass calls
    ``super().__init__(dice)``, plays one turn in :meth:`play_turn` and sets ``_finished``
    when the battle is over."""

    rule_set: str = ""
    phases: tuple[str, ...] = ()

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.turn = 0
        self.log: list[str] = []
        self.narrate = True  # see TacticalBattle.narrate
        self._finished = False

    @property
    def finished(self) -> bool:
        return self._finished

    def step(self) -> list[str]:
        """Play one tactical turn; returns what happened, in words (nothing unnarrated)."""
        if self._finished:
            return []
        self.turn += 1
        self.dice.turn = self.turn
        lines = self.play_turn()
        if not self.narrate:
            return []
        self.log.extend(lines)
        return lines

    def check_unbegun(self) -> None:
        """For a rematch: only a battle not yet begun has its opening to give."""
        if self.turn:
            raise ValueError("a battle already begun cannot be fought again from its opening")

    @abstractmethod
    def play_turn(self) -> list[str]:
        """One turn of the rule set's sequence of play, its lines in words."""
