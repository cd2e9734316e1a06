"""Step 7 of 002's "Turn sequence": *Play Advantage Cards* (002 "Advantage Cards"), and
the card effects steps 8 and 9 spend."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

from .context import Turn
from .events import UMPIRE
from .record import CardEffect


def play_cards(t: Turn) -> None:
    """7. *Play Advantage Cards.* Each card once, for one of its five uses; cards may be
    played on behalf of allies. Effects are kept for steps 8 and 9."""
    board = t.board
    effects = t.record.cards
    for nation in t.nations():
        for play in t.orders[nation].cards:
            value = board.card_value(play.card)
            t.state.cards_played.append(play.card)
            effect = CardEffect(
                play.card,
                nation,
                play.use,
                value,
                play.beneficiary or nation,
                play.task_force,
                play.route,
                play.text,
            )
            effects.append(effect)
            title = board.cards[play.card]["title"]
            words = {
                "extra_flag": "an extra Naval Operations Flag",
                "range": "+1 sea area of range for "
                f"'{t.task_force_name(effect.beneficiary, play.task_force)}'",
                "die_bonus": f"+{value} to a combat die roll",
                "column_shift": "one column shift",
                "other": f"Game Control is asked: {play.text}",
            }[play.use]
            t.emit(
                "card_played",
                f"Advantage Card '{title}' played: {words}.",
                nation,
                # the ally a card is played for knows of it (002: *Advantage Cards may also
                # be played on behalf of Allies*); no other team does
                (*sorted({nation, effect.beneficiary}), UMPIRE),
                **{k: v for k, v in asdict(effect).items() if k != "used"},
            )


def card_bonus(
    t: Turn,
    use: str,
    *,
    task_forces: Sequence[tuple[str, str]] = (),
    route: str = "",
    nations: set[str] | None = None,
    peek: bool = False,
) -> int:
    """Sum of unused card values of ``use`` aimed at one of ``task_forces`` ((nation, id))
    or at ``route`` and benefiting ``nations``; marks them used ("for a single attack")."""
    total = 0
    for effect in t.cards_aimed(use, task_forces, route):
        if effect.used:
            continue
        if nations is not None and effect.beneficiary not in nations:
            continue
        effect.used = effect.used or not peek
        total += effect.value if use == "die_bonus" else 1
    return total
