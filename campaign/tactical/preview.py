"""The dice of an odds preview: :class:`PreviewDice`.

They live in the tactical package, beside the rule sets that roll them, so that the
compiled rule sets (:mod:`campaign.tactical.compiled`) compile them too: a preview battle
rolls a few hundred dice, and an interpreted ``rolls`` would cost a fifth of a compiled
battle.
"""

from __future__ import annotations

from ..dice import DiceLog, NotLoggedDice, preview_draws


class PreviewDice(NotLoggedDice):
    """Seeded dice that keep no log: for odds previews, whose thousands of imaginary
    battles are not part of the game (nothing they roll is ever shown as a roll).

    Speed matters more here than a cryptographic chain, so the draws come from a seeded
    Mersenne Twister (:func:`campaign.dice.preview_draws`); a face is
    ``int(draw * sides) + 1``, whose bias (one part in 2**50) no preview can show.
    """

    source = "preview"

    def __init__(self, seed: int | str) -> None:
        super().__init__(DiceLog())
        self.seed = str(seed)
        self._random = preview_draws(self.seed)

    def _value(self, purpose: str, sides: int) -> int:
        return int(self._random() * sides) + 1

    def roll(self, purpose: str, sides: int = 6, reason: str = "") -> int:
        """One die, not logged (defined here rather than inherited, so that the compiled
        rule sets roll it compiled too)."""
        if sides < 2:
            raise ValueError("a die has at least 2 sides")
        return self._value(purpose, sides)

    def rolls(self, count: int, purpose: str, sides: int = 6) -> list[int]:
        """``count`` dice in one go, without naming each (the hot path of a preview)."""
        if sides < 2:
            raise ValueError("a die has at least 2 sides")
        draw = self._random
        return [int(draw() * sides) + 1 for _ in range(count)]
