"""The umpire's calculator for paper games: the seed's tables by hand, with the dice given.

Naval fire — 002 "Damage Calculations": *Total the Combat Value available and roll 1d6,
plus die rolls for losses inflicted. For CV of more than 20, roll 1d6 for each multiple of
20 or part thereof.* :func:`calc_naval` shows, for each die, the CV row it rolls on (20 per
die, the part left over on its own row — :func:`campaign.naval_combat.dice_for`), the roll,
the modified roll, the table cell and the steps; then the total. The DRM is the sum of the
modifiers the umpire has worked out (outnumbering, air, fleet base, LSP, invasion, cards).

Merchant warfare — 002 "Calculating Losses": *Take Escort CV and Interdicting CV as combat
odds. If the interdictor has odds of less than 1:3 then there is no combat. Roll 1d6 per
side, subtract escort score from interdictor's score.* :func:`calc_merchant` finds the odds
column, the dice row, the colour and the losses.

Column shifts (002): *Air Supremacy (3 : 1 or better) in area = 2 column shift in favour.
Outclassed by surface raider = 2 column shift disadvantage. (Heavy Unit outclasses Light
Cruiser Unit, Light Cruiser Unit outclasses Escort unit).* The calculator does not know the
escort's make-up, so the net shift is the caller's ``shift`` (+ in the interdictor's
favour): a ``surface-heavy`` raider against a Light Cruiser escort, or a ``surface-light``
raider against an Escort Force escort, outclasses it — the escort is at the disadvantage,
so that is ``shift=+2`` (:data:`OUTCLASSED_SHIFT`, :data:`OUTCLASSES`).

An unescorted route (escort CV 0) is attacked at "4:1 or more" (002 Example 3) and, there
being no escorts, loses no escort steps (:func:`campaign.odds.escort_steps_lost`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from campaign import merchant_warfare as mw
from campaign import naval_combat as nc
from campaign.merchant_warfare import DEFAULT_SHORT_ROW, MerchantCombat
from campaign.odds import escort_steps_lost

FACES = 6

#: attacker kinds for :func:`calc_merchant`
ATTACKERS: dict[str, str] = {
    "german-sub": "German submarine flotillas",
    "sub": "submarines (not German)",
    "surface-heavy": "surface raiders (Heavy units)",
    "surface-light": "surface raiders (Light Cruiser units)",
}

#: the escort each surface raider outclasses (002 "Column shifts")
OUTCLASSES: dict[str, str] = {
    "surface-heavy": "a Light Cruiser escort",
    "surface-light": "an Escort Force escort",
}
#: columns in the interdictor's favour when its surface raider outclasses the escort
OUTCLASSED_SHIFT = 2


def column_label(modified_roll: int) -> str:
    """The damage-table column a modified roll falls in: ``"-2 or less"``, ``"5"``, ``"12 +"``."""
    if modified_roll <= nc.MIN_COLUMN:
        return f"{nc.MIN_COLUMN} or less"
    if modified_roll >= nc.MAX_COLUMN:
        return f"{nc.MAX_COLUMN} +"
    return str(modified_roll)


def _check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    return value


def _check_roll(name: str, value: object) -> int:
    roll = _check_int(name, value)
    if not 1 <= roll <= FACES:
        raise ValueError(f"{name} must be a d6 roll (1–6), not {roll}")
    return roll


def calc_naval(cv: int, rolls: list[int], drm: int = 0, shift: int = 0) -> dict[str, Any]:
    """One side's fire with typed-in dice (002 "Damage Calculations").

    ``rolls`` are the d6 faces, one per die of :func:`campaign.naval_combat.dice_for`
    (``cv`` 45 → 3 dice: rows 20, 20 and 5); ``drm`` the sum of the modifiers. Returns the
    CV, the DRM, each die (``die``, ``cv`` row, ``roll``, ``modified``, ``column`` label,
    ``steps``) and the total ``steps``. ``shift``: Advantage Card column shifts, which move
    the column the modified roll is read in (``column`` is the column read). Raises
    ValueError on a roll outside 1–6 or the wrong number of rolls for the CV.
    """
    cv = _check_int("CV", cv)
    drm = _check_int("DRM", drm)
    shift = _check_int("column shift", shift)
    if cv < 0:
        raise ValueError(f"CV cannot be negative ({cv})")
    chunks = nc.dice_for(cv)
    rolls = list(rolls)
    if len(rolls) != len(chunks):
        rows = " + ".join(str(c) for c in chunks) or "no dice"
        raise ValueError(
            f"CV {cv} needs {len(chunks)} {'die' if len(chunks) == 1 else 'dice'}"
            f" (one per 20 CV or part thereof: {rows}), but {len(rolls)}"
            f" {'roll was' if len(rolls) == 1 else 'rolls were'} given"
        )
    dice = []
    for i, (chunk, value) in enumerate(zip(chunks, rolls, strict=True), start=1):
        roll = _check_roll(f"die {i}", value)
        modified = roll + drm
        dice.append(
            {
                "die": i,
                "cv": chunk,
                "roll": roll,
                "modified": modified,
                "column": column_label(nc.column_of(modified, shift)),
                "column_read": nc.column_of(modified, shift),
                "steps": nc.damage(chunk, modified, shift),
            }
        )
    return {
        "cv": cv,
        "drm": drm,
        "shift": shift,
        "dice": dice,
        "steps": sum(d["steps"] for d in dice),
    }


def format_naval(result: dict[str, Any]) -> str:
    """:func:`calc_naval`'s result as a small table for the terminal."""
    shift = result.get("shift", 0)
    lines = [
        f"Naval fire: CV {result['cv']}, DRM {result['drm']:+d}"
        + (f", column shift {shift:+d}" if shift else "")
    ]
    if not result["dice"]:
        lines.append("  no dice: CV 0 inflicts no steps")
    else:
        lines.append("  die  CV row  roll  modified  column       steps")
        for d in result["dice"]:
            lines.append(
                f"  {d['die']:>3}  {d['cv']:>6}  {d['roll']:>4}  {d['modified']:>8}"
                f"  {d['column']:<11}  {d['steps']:>5}"
            )
    lines.append(f"  total: {result['steps']} step{'' if result['steps'] == 1 else 's'} of loss")
    return "\n".join(lines)


def _steps(n: int) -> str:
    return f"{n} step{'' if n == 1 else 's'}"


def _rate_text(rate: Fraction, per: str) -> str:
    if rate == 0:
        return "nil"
    if rate.denominator == 1:
        return f"{rate.numerator} per {per}"
    return f"1 per {rate.denominator} {per}s (round down)"


def merchant_combat(
    attack_cv: int,
    escort_cv: int,
    attacker: str,
    attackers: int,
    shift: int = 0,
    bonus: int = 0,
    escort_bonus: int = 0,
) -> MerchantCombat:
    """The combat's inputs from the calculator's terms, checked (ValueError says what is
    wrong)."""
    if attacker not in ATTACKERS:
        raise ValueError(f"unknown attacker {attacker!r}; valid: {', '.join(ATTACKERS)}")
    attack_cv = _check_int("interdictor CV", attack_cv)
    escort_cv = _check_int("escort CV", escort_cv)
    attackers = _check_int("number of attackers", attackers)
    for name, value in (("shift", shift), ("bonus", bonus), ("escort bonus", escort_bonus)):
        _check_int(name, value)
    if attack_cv < 1:
        raise ValueError(f"the interdictor's CV must be at least 1, not {attack_cv}")
    if escort_cv < 0:
        raise ValueError(f"escort CV cannot be negative ({escort_cv})")
    if attackers < 1:
        raise ValueError(f"there must be at least 1 interdicting unit, not {attackers}")
    german = attacker == "german-sub"
    surface = attacker.startswith("surface-")
    combat = MerchantCombat(
        attack_cv=attack_cv,
        escort_cv=escort_cv,
        german_sub_units=attackers if german else 0,
        other_units=0 if german else attackers,
        surface_raider=surface,
        shift=shift,
        attack_bonus=bonus,
        escort_bonus=escort_bonus,
    )
    return combat


def calc_merchant(
    attack_cv: int,
    escort_cv: int,
    attack_roll: int,
    escort_roll: int,
    attacker: str,
    attackers: int,
    shift: int = 0,
    bonus: int = 0,
    escort_bonus: int = 0,
    short_row: str = DEFAULT_SHORT_ROW,
) -> dict[str, Any]:
    """One merchant-warfare combat with typed-in dice (002 "Calculating Losses").

    ``attacker``: ``german-sub`` (German submarine flotillas: German-subs tonnage rate,
    Subs raider %), ``sub`` (any other submarines: other rate, Subs %), ``surface-heavy`` /
    ``surface-light`` (surface raiders: other rate, Surface %); ``attackers`` the number of
    interdicting units. ``shift`` is the net column shift in the interdictor's favour
    (air supremacy +2; a surface raider outclassing the escort +2 — see the module
    docstring); ``bonus`` / ``escort_bonus`` the Advantage Card die bonuses.
    """
    combat = merchant_combat(attack_cv, escort_cv, attacker, attackers, shift, bonus, escort_bonus)
    attack_roll = _check_roll("interdictor's roll", attack_roll)
    escort_roll = _check_roll("escort's roll", escort_roll)
    mw.colour_table(short_row)  # refuses an unknown reading with the valid ones listed
    german = attacker == "german-sub"
    surface = attacker.startswith("surface-")
    r = mw.resolve(combat, attack_roll, escort_roll, short_row)
    escort_steps = escort_steps_lost(combat, r.escort_steps)
    out: dict[str, Any] = {
        "attacker": attacker,
        "attackers": attackers,
        "attack_cv": attack_cv,
        "escort_cv": escort_cv,
        "attack_roll": attack_roll,
        "escort_roll": escort_roll,
        "bonus": bonus,
        "escort_bonus": escort_bonus,
        "shift": shift,
        "short_row": short_row,
        "combat": r.combat,
        "base_odds_column": None,
        "odds_column": None,
        "difference": None,
        "row": None,
        "colour": None,
        "raider_steps": 0,
        "escort_steps": 0,
        "tonnage_lost": 0,
        "cell": r.cell,
        "description": "no combat: the interdictor's odds are below 1:3",
    }
    if not r.combat or r.row is None or r.column is None or r.base_column is None:
        return out
    res = mw.RESULTS[r.colour]
    raider_pct = res.raider_surface_pct if surface else res.raider_sub_pct
    rate = res.german_sub_rate if german else res.other_rate
    unit = "flotilla" if german else "unit"
    out.update(
        base_odds_column=mw.ODDS_LABELS[r.base_column],
        odds_column=mw.ODDS_LABELS[r.column],
        difference=r.difference,
        row=mw.ROW_LABELS[r.row],
        colour=res.colour,
        raider_steps=r.raider_steps,
        escort_steps=escort_steps,
        tonnage_lost=r.tonnage_lost,
        raider_pct=raider_pct,
        escort_pct=res.escort_pct,
        tonnage_rate=_rate_text(rate, unit),
        description=(
            f"{res.colour} (row {mw.ROW_LABELS[r.row]}, column {mw.ODDS_LABELS[r.column]}):"
            + (
                f" merchants lose {_rate_text(rate, unit)} x {attackers} = {r.tonnage_lost}"
                " tonnage;"
                if rate
                else " merchants lose nothing;"
            )
            + (
                f" escorts lose {res.escort_pct}% of {attack_cv} = {_steps(escort_steps)};"
                if escort_cv
                else " no escorts;"
            )
            + f" raiders lose {raider_pct}% of {escort_cv} = {_steps(r.raider_steps)}"
            " (all rounded down)"
        ),
    )
    return out


def format_merchant(result: dict[str, Any]) -> str:
    """:func:`calc_merchant`'s result for the terminal."""
    r = result
    lines = [
        f"Merchant warfare: {r['attackers']} x {ATTACKERS[r['attacker']]}, CV {r['attack_cv']}"
        f" v escort CV {r['escort_cv']}"
    ]
    if not r["combat"]:
        lines.append("  no combat: the interdictor's odds are below 1:3")
        return "\n".join(lines)
    odds = r["odds_column"]
    if r["shift"]:
        odds = f"{r['base_odds_column']}, shift {r['shift']:+d} -> column {odds}"
    lines += [
        f"  odds        {odds}",
        f"  dice        interdictor {r['attack_roll']}"
        + (f"{r['bonus']:+d}" if r["bonus"] else "")
        + f" - escort {r['escort_roll']}"
        + (f"{r['escort_bonus']:+d}" if r["escort_bonus"] else "")
        + f" = {r['difference']:+d} -> row {r['row']}",
        f"  result      {r['colour'].upper()}",
        f"  merchants   lose {r['tonnage_lost']} tonnage ({r['tonnage_rate']})",
        f"  escorts     lose {_steps(r['escort_steps'])} ({r['escort_pct']}% of {r['attack_cv']})"
        if r["escort_cv"]
        else "  escorts     none on the route",
        f"  raiders     lose {_steps(r['raider_steps'])} ({r['raider_pct']}% of {r['escort_cv']})",
    ]
    if r["attacker"] in OUTCLASSES and not r["shift"]:
        lines.append(
            f"  note: a {r['attacker']} raider outclasses {OUTCLASSES[r['attacker']]}"
            f" — if so, use shift +{OUTCLASSED_SHIFT}"
        )
    return "\n".join(lines)
