"""Merchant warfare: 002 "Calculating Losses" — escorts against interdictors on a route.

*Combat is from the point of view of the interdictor. Take Escort CV and Interdicting CV as
combat odds. If the interdictor has odds of less than 1:3 then there is no combat. Roll 1d6
per side, subtract escort score from interdictor's score.* Column shifts: air supremacy
(3:1 or better) in the area, 2 columns in favour; outclassed by a surface raider, 2 columns
against (Heavy outclasses Light Cruiser, Light Cruiser outclasses Escort). Advantage Cards
count as the die-roll bonus shown on the card. The colour found gives raider, escort and
tonnage losses, all in steps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .board import Board, RouteForce
from .cards import card_bonus
from .context import Turn, count, unit_casualty
from .events import UMPIRE, Cover
from .forces import air_points, attack_cv, carries_air, defence_cv, land_air_cv, surface_rank
from .losses import Casualty, LossRequest
from .options import RULE_OPTIONS, option
from .record import RouteResult
from .state import GameState, Unit

#: odds columns, interdictor : escort — "1:3 or less" … "4:1 or more"
ODDS_COLUMNS: tuple[Fraction, ...] = (
    Fraction(1, 3),
    Fraction(1, 2),
    Fraction(2, 3),
    Fraction(1),
    Fraction(3, 2),
    Fraction(2),
    Fraction(5, 2),
    Fraction(3),
    Fraction(4),
)
ODDS_LABELS = ("1:3 or less", "1:2", "2:3", "1:1", "3:2", "2:1", "5:2", "3:1", "4:1 or more")

#: dice-difference rows: (lowest, highest) difference, None for open-ended
DICE_ROWS: tuple[tuple[int | None, int | None], ...] = (
    (None, -6),
    (-5, -4),
    (-3, -2),
    (-1, -1),
    (0, 0),
    (1, 1),
    (2, 3),
    (4, 5),
    (6, None),
)
ROW_LABELS = (
    "-6 or less",
    "-5 / -4",
    "-3 / -2",
    "-1",
    "0",
    "+1",
    "+2 / +3",
    "+4 / +5",
    "+6 or more",
)

#: The colour table transcribed from the seed, row by row. The "-3 / -2" row has only 8
#: cells for 9 columns in the seed ("R R O O  Y Y B B", with a double space after the
#: second O); :data:`SHORT_ROW_READINGS` are the ways to read it (rule option
#: ``colour_short_row``; docs/rules-notes.md).
_COLOUR_TEXT = """
R R R R O O O Y Y
R R R O O O Y Y B
R R O O Y Y B B
R O O Y Y Y B B G
O O Y Y Y B B G G
O Y Y Y B B G G G
Y Y B B B G G G G
Y B B B G G G G G
B B B G G G G G G
"""
SHORT_ROW = 2  # index of the "-3 / -2" row

#: readings of the short row: the missing cell at the double space (column 3:2) as Orange
#: or as Yellow, or the last cell ("4:1 or more") repeating the one before it.
SHORT_ROW_READINGS: dict[str, tuple[str, ...]] = {
    "gap_orange": ("R", "R", "O", "O", "O", "Y", "Y", "B", "B"),
    "gap_yellow": ("R", "R", "O", "O", "Y", "Y", "Y", "B", "B"),
    "last_repeated": ("R", "R", "O", "O", "Y", "Y", "B", "B", "B"),
}
DEFAULT_SHORT_ROW = str(RULE_OPTIONS["colour_short_row"].default)

COLOURS = {"R": "Red", "O": "Orange", "Y": "Yellow", "B": "Blue", "G": "Green"}


def seed_rows() -> list[tuple[str, ...]]:
    """The colour table's rows exactly as the seed prints them (one row is short)."""
    return [tuple(line.split()) for line in _COLOUR_TEXT.strip().splitlines()]


@lru_cache(maxsize=8)
def colour_table(short_row: str = DEFAULT_SHORT_ROW) -> tuple[tuple[str, ...], ...]:
    """The full 9×9 colour table with the short row read as ``short_row``."""
    if short_row not in SHORT_ROW_READINGS:
        raise ValueError(
            f"unknown colour_short_row {short_row!r}; valid: {', '.join(SHORT_ROW_READINGS)}"
        )
    rows = seed_rows()
    rows[SHORT_ROW] = SHORT_ROW_READINGS[short_row]
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class ColourResult:
    """One line of the results table (002, after the colour table)."""

    colour: str
    raider_surface_pct: int  # raider step losses as % of enemy (escort) CV, surface raiders
    raider_sub_pct: int  # … submarines
    escort_pct: int  # escort step losses as % of enemy (raider) CV
    german_sub_rate: Fraction  # merchant tonnage losses per interdicting German sub unit
    other_rate: Fraction  # … per interdicting unit of any other kind


#: "Red (bad) 40% 20% 10% Nil Nil; Orange 30% 10% 20% 1 per 2 interdicting units (round
#: down) / Nil; Yellow 20% 10% 20% 1 per interdicting unit / 1 per 2 (round down); Blue 10%
#: 10% 20% 2 per unit / 1 per unit; Green (Good) 10% NIL 30% 3 per unit / 2 per unit."
RESULTS: dict[str, ColourResult] = {
    "R": ColourResult("Red", 40, 20, 10, Fraction(0), Fraction(0)),
    "O": ColourResult("Orange", 30, 10, 20, Fraction(1, 2), Fraction(0)),
    "Y": ColourResult("Yellow", 20, 10, 20, Fraction(1), Fraction(1, 2)),
    "B": ColourResult("Blue", 10, 10, 20, Fraction(2), Fraction(1)),
    "G": ColourResult("Green", 10, 0, 30, Fraction(3), Fraction(2)),
}


#: each odds column as (numerator, denominator), for comparing ratios in whole numbers
_COLUMN_TERMS: tuple[tuple[int, int], ...] = tuple(
    (c.numerator, c.denominator) for c in ODDS_COLUMNS
)


def odds_column(attack_cv: int, escort_cv: int) -> int | None:
    """Index of the odds column, or None when there is no combat (odds below 1:3).

    An unescorted route (escort CV 0) is attacked at "4:1 or more" (002 example 3).
    """
    if attack_cv <= 0:
        return None
    if escort_cv <= 0:
        return len(ODDS_COLUMNS) - 1
    # the highest column the ratio reaches, in whole numbers: attack / escort >= n / d
    # is attack * d >= n * escort (Fractions compared column by column cost most of an
    # exact merchant odds preview, which resolves 11 differences of the dice)
    for i in range(len(_COLUMN_TERMS) - 1, -1, -1):
        numerator, denominator = _COLUMN_TERMS[i]
        if attack_cv * denominator >= numerator * escort_cv:
            return i
    return None


def dice_row(difference: int) -> int:
    """Index of the dice-difference row for interdictor's score minus escort's."""
    for i, (low, high) in enumerate(DICE_ROWS):
        if (low is None or difference >= low) and (high is None or difference <= high):
            return i
    raise AssertionError("DICE_ROWS cover every integer")  # pragma: no cover


@dataclass(frozen=True, slots=True)
class MerchantCombat:
    """Inputs of one merchant-warfare combat on a route."""

    attack_cv: int
    escort_cv: int
    german_sub_units: int = 0  # interdicting German submarine flotillas
    other_units: int = 0  # every other interdicting unit
    surface_raider: bool = False  # the raiders include surface units (Surface % applies)
    shift: int = 0  # net column shift, + in the interdictor's favour
    attack_bonus: int = 0  # Advantage Card die bonus for the interdictor
    escort_bonus: int = 0  # … for the escort


@dataclass(frozen=True, slots=True)
class MerchantResult:
    combat: bool
    base_column: int | None = None
    column: int | None = None
    attack_roll: int = 0
    escort_roll: int = 0
    difference: int = 0
    row: int | None = None
    colour: str = ""
    raider_steps: int = 0
    escort_steps: int = 0
    tonnage_lost: int = 0

    @property
    def cell(self) -> str:
        if not self.combat or self.row is None or self.column is None:
            return "no combat (odds below 1:3)"
        return (
            f"row {ROW_LABELS[self.row]}, column {ODDS_LABELS[self.column]}: {COLOURS[self.colour]}"
        )


def _per_unit(units: int, rate: Fraction) -> int:
    """Merchant tonnage lost to ``units`` interdicting units at ``rate`` a unit, rounded
    down (*"1 per 2 interdicting units (round down)"*): in whole numbers, as floor
    division gives it, without making a Fraction."""
    return units * rate.numerator // rate.denominator


def resolve(
    c: MerchantCombat, attack_roll: int, escort_roll: int, short_row: str = DEFAULT_SHORT_ROW
) -> MerchantResult:
    """Resolve one merchant combat with the two d6 rolls."""
    base = odds_column(c.attack_cv, c.escort_cv)
    if base is None:
        return MerchantResult(False, attack_roll=attack_roll, escort_roll=escort_roll)
    column = min(max(base + c.shift, 0), len(ODDS_COLUMNS) - 1)
    difference = (attack_roll + c.attack_bonus) - (escort_roll + c.escort_bonus)
    row = dice_row(difference)
    colour = colour_table(short_row)[row][column]
    res = RESULTS[colour]
    raider_pct = res.raider_surface_pct if c.surface_raider else res.raider_sub_pct
    tonnage = _per_unit(c.german_sub_units, res.german_sub_rate) + _per_unit(
        c.other_units, res.other_rate
    )
    return MerchantResult(
        True,
        base,
        column,
        attack_roll,
        escort_roll,
        difference,
        row,
        colour,
        raider_steps=c.escort_cv * raider_pct // 100,
        escort_steps=c.attack_cv * res.escort_pct // 100 if c.escort_cv > 0 else 0,
        tonnage_lost=tonnage,
    )


def distribution(
    c: MerchantCombat, short_row: str = DEFAULT_SHORT_ROW
) -> dict[tuple[str, int, int, int], Fraction]:
    """Exact probability of every (colour, raider steps, escort steps, tonnage) result."""
    out: dict[tuple[str, int, int, int], Fraction] = {}
    for a in range(1, 7):
        for e in range(1, 7):
            r = resolve(c, a, e, short_row)
            key = (r.colour or "none", r.raider_steps, r.escort_steps, r.tonnage_lost)
            out[key] = out.get(key, Fraction(0)) + Fraction(1, 36)
    return out


# -- step 9 ---------------------------------------------------------------------------
def merchant_warfare(t: Turn) -> None:
    """9. *Calculate effects of Merchant Warfare* (002 "Calculating Losses"): on each route,
    in the chart's order, the raiders in each sea area fight the route's escorts; then a
    route that does not work is reported."""
    board = t.board
    short_row = str(option(t.options, "colour_short_row"))
    orders = {n: t.orders[n] for n in t.nations()}
    attackers = board.attackers_by_route(orders, t.record.surface_raids)
    escorts_of = board.escorts_by_route(orders)
    for route_id in board.route_ids():
        status = board.route_status(route_id)
        t.record.routes[route_id] = RouteResult(status.working, status.why)
        by_area: dict[str, list[RouteForce]] = {}
        for raid in attackers.get(route_id, ()):
            by_area.setdefault(raid.area, []).append(raid)
        escorts = escorts_of.get(route_id, [])
        for area in sorted(by_area):
            # the raiders read the route's public name (a created route's name is its team's)
            _merchant_combat(
                t,
                board,
                route_id,
                board.public_route_name(route_id),
                area,
                by_area[area],
                escorts,
                short_row,
            )
        if not status.working:
            # a route's ends and contested areas are on the map: every team may know it
            row = board.route_rows[route_id]
            nation = str(row["nation"])
            t.emit(
                "route_cut",
                f"'{row['name']}' does not work: {status.why}.",
                nation,
                (nation, UMPIRE),
                cover=Cover(
                    f"'{board.public_route_name(route_id)}' does not work: {status.why}.",
                    {"route": route_id, "reason": status.why},
                ),
                route=route_id,
                reason=status.why,
            )


def combat_values(
    state: GameState,
    raid_units: Sequence[Unit],
    raid_air: Sequence[tuple[str, int]],
    escort_units: Sequence[Unit],
    escort_air: Sequence[tuple[str, int]],
    surface_units: Sequence[Unit] = (),
) -> tuple[int, int, int, list[str]]:
    """(raiders' CV, escorts' CV, column shift, its reasons) of a merchant combat (002
    "Calculating Losses", "Column shifts"): Commerce Attack against Commerce Defence, with
    the land-based Air Points in range (``raid_air`` / ``escort_air``: (air id, points));
    *Air Supremacy (3 : 1 or better) in area = 2 column shift in favour*; *Outclassed by
    surface raider = 2 column shift disadvantage* (``surface_units``: the surface raiders).
    Step 9 and the computer opponent's estimates both ask this."""
    a_cv = sum(attack_cv(u) for u in raid_units) + sum(
        land_air_cv(state.air[a].kind, p, "attack") for a, p in raid_air
    )
    e_cv = sum(defence_cv(u) for u in escort_units) + sum(
        land_air_cv(state.air[a].kind, p, "defence") for a, p in escort_air
    )
    raid_air_points = sum(p for _, p in raid_air) + air_points(raid_units)
    escort_air_points = sum(p for _, p in escort_air) + sum(
        1 for u in escort_units if carries_air(u)
    )
    shift = 0
    reasons = []
    if raid_air_points and raid_air_points >= 3 * escort_air_points:
        shift += 2
        reasons.append("raiders' air supremacy +2")
    elif escort_air_points and escort_air_points >= 3 * raid_air_points:
        shift -= 2
        reasons.append("escorts' air supremacy −2")
    if surface_units and surface_rank(surface_units) > surface_rank(escort_units):
        shift += 2
        reasons.append("escorts outclassed by surface raider +2")
    return a_cv, e_cv, shift, reasons


def _merchant_combat(
    t: Turn,
    board: Board,
    route_id: str,
    route_name: str,
    area: str,
    raiders: list[RouteForce],
    escorts: list[RouteForce],
    short_row: str,
) -> None:
    state = t.state
    owner = board.route_nation(route_id)
    units = state.units
    raid_units = [unit for r in raiders for u in r.units if (unit := units[u]).state != "sunk"]
    escort_units = [unit for e in escorts for u in e.units if (unit := units[u]).state != "sunk"]
    raid_air = [(a, p) for r in raiders for a, p in r.air if board.air_in_range(a, area)]
    escort_air = [(a, p) for e in escorts for a, p in e.air if board.air_in_range(a, area)]
    surface_units = [units[x] for r in raiders if r.surface for x in r.units]
    a_cv, e_cv, shift, reasons = combat_values(
        state, raid_units, raid_air, escort_units, escort_air, surface_units
    )
    surface = any(r.surface for r in raiders)
    raid_nations = {r.nation for r in raiders}
    escort_nations = {e.nation for e in escorts} | {owner}
    german = sum(1 for u in raid_units if u.type == "submarine" and u.nation == "germany")
    others = len(raid_units) - german + sum(p for _, p in raid_air)
    everyone = (*tuple(sorted(raid_nations | escort_nations)), UMPIRE)
    if odds_column(a_cv, e_cv) is None:
        t.emit(
            "merchant_no_combat",
            f"'{route_name}', {board.area_name(area)}: raiders CV "
            f"{a_cv} against escorts CV {e_cv} — below 1:3, no combat.",
            owner,
            everyone,
            route=route_id,
            area=area,
            attack_cv=a_cv,
            escort_cv=e_cv,
        )
        return
    # Cards are spent only on a combat that happens ("for a single attack").
    # 002: *Advantage Cards count as die roll bonus shown on card* (a shift only with the
    # rule option merchant_card_shifts)
    if option(t.options, "merchant_card_shifts"):
        shift += card_bonus(t, "column_shift", route=route_id, nations=raid_nations)
        shift -= card_bonus(t, "column_shift", route=route_id, nations=escort_nations)
    a_bonus = card_bonus(t, "die_bonus", route=route_id, nations=raid_nations)
    e_bonus = card_bonus(t, "die_bonus", route=route_id, nations=escort_nations)
    combat = MerchantCombat(a_cv, e_cv, german, others, surface, shift, a_bonus, e_bonus)
    a_roll = t.dice.roll(f"merchant warfare '{route_name}': interdictor")
    e_roll = t.dice.roll(f"merchant warfare '{route_name}': escort")
    result = resolve(combat, a_roll, e_roll, short_row)
    lost = min(result.tonnage_lost, state.routes.get(route_id, 0))
    state.routes[route_id] = state.routes.get(route_id, 0) - lost
    context = f"merchant warfare on '{route_name}'"
    escort_loss = _losses(
        t,
        board,
        f"escorts of '{route_name}'",
        escort_units,
        escort_air,
        "defence",
        result.escort_steps,
        context,
    )
    raider_loss = _losses(
        t,
        board,
        f"raiders of '{route_name}'",
        raid_units,
        raid_air,
        "attack",
        result.raider_steps,
        context,
    )
    t.emit(
        "merchant_combat",
        f"'{route_name}', {board.area_name(area)}: raiders CV {a_cv} vs escorts CV {e_cv} "
        f"({ODDS_LABELS[result.base_column or 0]}"
        + (f", shifted to {ODDS_LABELS[result.column or 0]}" if shift else "")
        + f"); dice {a_roll}{'+' + str(a_bonus) if a_bonus else ''} − {e_roll}"
        f"{'+' + str(e_bonus) if e_bonus else ''} = {result.difference:+d}: "
        f"{COLOURS[result.colour]}. Merchants lose {lost} tonnage; "
        f"{_loss_words('escorts', result.escort_steps, escort_loss, board)}; "
        f"{_loss_words('raiders', result.raider_steps, raider_loss, board)}.",
        owner,
        everyone,
        route=route_id,
        area=area,
        attack_cv=a_cv,
        escort_cv=e_cv,
        shift=shift,
        shift_reasons=reasons,
        attack_roll=a_roll,
        escort_roll=e_roll,
        attack_bonus=a_bonus,
        escort_bonus=e_bonus,
        column=ODDS_LABELS[result.column or 0],
        row=ROW_LABELS[result.row or 0],
        colour=COLOURS[result.colour],
        tonnage_lost=lost,
        escort_steps=result.escort_steps,
        raider_steps=result.raider_steps,
        escort_steps_taken=len(escort_loss),
        raider_steps_taken=len(raider_loss),
        raiders=[u.id for u in raid_units],
        escorts=[u.id for u in escort_units],
    )
    for chosen in (escort_loss, raider_loss):
        for cid, steps in Counter(chosen).items():
            if cid in state.units:
                t.hit_unit(state.units[cid], context, everyone, steps)
            else:
                for _ in range(steps):
                    _lose_air_point(t, board, cid.split(":")[1], context, everyone)


def _losses(
    t: Turn,
    board: Board,
    side: str,
    units: list[Unit],
    air: list[tuple[str, int]],
    use: str,
    steps: int,
    context: str,
) -> list[str]:
    """The owner's choice of who takes ``steps`` steps: the side's units (a step each:
    ready → damaged → sunk) and its land-based Air Points, each removed by one step (002
    "Minor Invasions": *Garrison counters and Air points do not take step losses, they are
    removed at the first step*). Steps beyond what the side has are lost on nobody."""
    if not steps:  # nothing to choose: no candidate is weighed
        return []
    cv = defence_cv if use == "defence" else attack_cv
    candidates = [unit_casualty(u, cv) for u in units]
    candidates += [
        Casualty(
            f"air:{air_id}:{i + 1}",
            t.state.air[air_id].nation,
            "air",
            f"Air Point of {board.air_name(air_id)}",
            cv_now=land_air_cv(t.state.air[air_id].kind, 1, use),
        )
        for air_id, points in air
        for i in range(points)
    ]
    if not candidates:
        return []
    request = LossRequest(
        side,
        tuple(sorted({c.nation for c in candidates})),
        steps,
        tuple(candidates),
        context,
    )
    return t.take_losses(request)


def _loss_words(side: str, due: int, chosen: list[str], board: Board) -> str:
    """ "escorts lose 1 step (Blue Escorts)", "escorts: 2 steps due, no escort to take
    them" — what was really lost, not only what the table gave."""
    if not due:
        return f"{side} lose nothing"
    if not chosen:
        return f"{side}: {count(due, 'step')} due, nobody there to take them"
    names: dict[str, int] = {}
    for cid in chosen:
        name = (
            board.unit_name(cid)
            if cid in board.state.units
            else (f"Air Point of {board.air_name(cid.split(':')[1])}")
        )
        names[name] = names.get(name, 0) + 1
    who = ", ".join(f"{n}" + (f" ×{k}" if k > 1 else "") for n, k in names.items())
    short = f" ({count(due - len(chosen), 'step')} more than they had)" if due > len(chosen) else ""
    return f"{side} lose {count(len(chosen), 'step')} ({who}){short}"


def _lose_air_point(
    t: Turn, board: Board, air_id: str, context: str, witnesses: tuple[str, ...]
) -> None:
    """An Air Point lost: its owner, the nations of the combat and Game Control know."""
    air = t.state.air[air_id]
    air.points -= 1
    t.emit(
        "air_lost",
        f"An Air Point of {board.air_name(air_id)} ({board.name_of(air.nation)}) is lost — "
        f"{context}.",
        air.nation,
        (*sorted({air.nation, *witnesses} - {UMPIRE}), UMPIRE),
        air=air_id,
        context=context,
    )
