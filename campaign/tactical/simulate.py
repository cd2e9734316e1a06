"""Odds of a tactical battle by running it many times with seeded dice.

The tactical rule sets are too rich to enumerate, so their odds are sampled: battle *i*
uses the dice seeded ``f"{seed}/{i}"``, so a preview is reproducible. Every figure comes
with its standard error (√(p(1−p)/n) for a probability, s/√n for a mean) so the reader sees
how sure it is; ``on_progress`` is called with the figures so far, so a window can show
first results early and a progress bar.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..dice import PreviewDice
from . import RULE_SETS, BattleSetup, run


def available() -> list[str]:
    """The rule sets there are (each module registers itself when imported)."""
    import campaign.tactical as package

    for info in pkgutil.iter_modules(package.__path__):
        if info.name not in ("outcome", "simulate"):
            importlib.import_module(f"campaign.tactical.{info.name}")
    return sorted(RULE_SETS)


@dataclass
class TacticalOdds:
    rule_set: str
    runs: int = 0
    sunk: Counter[str] = field(default_factory=Counter)  # ship id → battles it was sunk in
    hit: Counter[str] = field(default_factory=Counter)  # … damaged, crippled or sunk
    winners: Counter[str] = field(default_factory=Counter)
    ships_sunk: dict[str, Counter[int]] = field(default_factory=dict)  # side → n → battles
    names: dict[str, str] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)  # ship id → "a" / "b"
    side_names: dict[str, str] = field(default_factory=dict)  # "a" / "b" → the side's name

    def p(self, count: int) -> tuple[float, float]:
        """A probability and its standard error."""
        if not self.runs:
            return 0.0, 0.0
        p = count / self.runs
        return p, math.sqrt(p * (1 - p) / self.runs)

    def to_dict(self) -> dict[str, Any]:
        ships = {}
        for sid, name in self.names.items():
            p, se = self.p(self.sunk[sid])
            ph, seh = self.p(self.hit[sid])
            ships[sid] = {
                "name": name,
                "side": self.sides[sid],
                "p_sunk": round(p, 4),
                "se_sunk": round(se, 4),
                "p_hit": round(ph, 4),
                "se_hit": round(seh, 4),
            }
        return {
            "rule_set": self.rule_set,
            "runs": self.runs,
            "winner": {
                k: dict(zip(("p", "se"), map(lambda x: round(x, 4), self.p(v)), strict=True))
                for k, v in sorted(self.winners.items())
            },
            "ships_sunk": {
                side: {str(n): round(c / self.runs, 4) for n, c in sorted(d.items())}
                for side, d in self.ships_sunk.items()
            },
            "ships": ships,
        }

    def format(self) -> str:
        lines = [f"{self.rule_set}: {self.runs} battles"]
        for side in ("a", "b", ""):
            if self.winners.get(side):
                p, se = self.p(self.winners[side])
                label = f"{self.side_names.get(side, side)} wins" if side else "no decision"
                lines.append(f"  {label + ':':<32} {p:6.1%} ± {se:.1%}")
        lines.append("  ship                          sunk            damaged or worse")
        for sid, name in self.names.items():
            p, se = self.p(self.sunk[sid])
            ph, seh = self.p(self.hit[sid])
            lines.append(f"  {name[:28]:<28} {p:6.1%} ± {se:4.1%}   {ph:6.1%} ± {seh:4.1%}")
        return "\n".join(lines)


def simulate(
    rule_set: str,
    setup: BattleSetup,
    runs: int,
    seed: str = "odds",
    on_progress: Callable[[TacticalOdds], None] | None = None,
    every: int = 50,
) -> TacticalOdds:
    """Fight ``runs`` battles; the odds of each ship being sunk or hit, and of each side
    winning. Raises KeyError for an unknown rule set."""
    if rule_set not in RULE_SETS:
        available()
    factory = RULE_SETS[rule_set]
    odds = TacticalOdds(rule_set)
    for side_key, side in (("a", setup.a), ("b", setup.b)):
        odds.side_names[side_key] = side.name
        odds.ships_sunk[side_key] = Counter()
        for ship in side.ships:
            odds.names[ship.id] = ship.name
            odds.sides[ship.id] = side_key
    for i in range(runs):
        battle = factory(setup, PreviewDice(f"{seed}/{i}"))
        battle.narrate = False
        result = run(battle)
        odds.runs += 1
        odds.winners[result.winner] += 1
        per_side: Counter[str] = Counter()
        for sid, ship in result.ships.items():
            if ship.state == "sunk":
                odds.sunk[sid] += 1
                per_side[odds.sides.get(sid, "?")] += 1
            if ship.state != "undamaged":
                odds.hit[sid] += 1
        for side_key in ("a", "b"):
            odds.ships_sunk[side_key][per_side[side_key]] += 1
        if on_progress and (odds.runs % every == 0 or odds.runs == runs):
            on_progress(odds)
    return odds
