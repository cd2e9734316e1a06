"""The dice of an odds preview: :class:`PreviewDice`.

They live in the tactical package, beside the rule sets that roll them, so that the
compiled rule sets (:mod:`campaign.tactical.compiled`) compile them too: a preview battle
rolls a few hundred dice, and an interpreted ``rolls`` would cost a fifth of a compiled
battle.
"""

from __future__ import annotations

from typing import Final

from ..dice import DiceLog, NotLoggedDice, preview_draws

#: six-sided dice read from one draw: the base-6 digits of ``int(draw * 6**10)``
SIXES_A_DRAW: Final = 10
SIX_POWER: Final = 6**SIXES_A_DRAW


class PreviewDice(NotLoggedDice):
    """Seeded dice that keep no log: for odds previews, whose thousands of imaginary
    battles are not part of the game (nothing they roll is ever shown as a roll).

    Speed matters more here than a cryptographic chain, so the draws come from a seeded
    Mersenne Twister (:func:`campaign.dice.preview_draws`). Six-sided dice, nearly every
    die a battle rolls, are read ten from a draw: the draw's 53 random bits make
    ``int(draw * 6**10)`` a number whose ten base-6 digits are ten dice, each face as likely
    as another to within a few parts in a billion (6**10 values share 2**53 draws), which no
    preview can show (a draw is a call into the generator and a float made, and a Midway
    battle rolls about 630 dice). Other dice take a draw each: ``int(draw * sides) + 1``.
    """

    source = "preview"

    def __init__(self, seed: int | str) -> None:
        super().__init__(DiceLog())
        self.seed = str(seed)
        self._random = preview_draws(self.seed)
        self._bank = 0  # the six-sided dice of the last draw not yet read, as base-6 digits
        self._left = 0  # how many

    def _value(self, purpose: str, sides: int) -> int:
        if sides == 6:
            return self._sixes(1)[0]
        draw: float = self._random()  # typed, so that compiled it is a C double
        return int(draw * sides) + 1

    def roll(self, purpose: str, sides: int = 6, reason: str = "") -> int:
        """One die, not logged (defined here rather than inherited, so that the compiled
        rule sets roll it compiled too)."""
        if sides < 2:
            raise ValueError("a die has at least 2 sides")
        return self._value(purpose, sides)

    def rolls(self, count: int, purpose: str, sides: int = 6) -> list[int]:
        """``count`` dice in one go, without naming each (the hot path of a preview)."""
        if sides == 6:
            return self._sixes(count)
        if sides < 2:
            raise ValueError("a die has at least 2 sides")
        return [self._value(purpose, sides) for _die in range(count)]

    def _sixes(self, count: int) -> list[int]:
        """``count`` six-sided dice, read from the draws ten at a time."""
        out: list[int] = []
        bank, left = self._bank, self._left  # in locals: compiled, plain C integers
        for _die in range(count):  # (named: mypyc boxes a loop's "_" as an object)
            if not left:
                draw: float = self._random()
                bank, left = int(draw * SIX_POWER), SIXES_A_DRAW
            out.append(bank % 6 + 1)
            bank //= 6
            left -= 1
        self._bank, self._left = bank, left
        return out
