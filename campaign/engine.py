"""The engine's public API: one :class:`Campaign` object per open game.

The desktop app, the command line and the tests all drive the rules through it::

    campaign = Campaign.open("game.seacontrol")
    campaign.set_orders("japan", load_orders(text))   # checked against the rules
    campaign.resolve(to_step=10, seed=1942)            # step by step, saved after each
    print(campaign.report(nation="japan"))

Every step is saved in one transaction with its events and dice, so a game interrupted
between steps carries on where it stopped, and the same scenario, orders and seed give the
same game file byte for byte.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .board import Board
from .dice import GENESIS, Dice, DiceLog, Roll, ScriptedDice, SeededDice, verify_chain
from .events import UMPIRE, Event, in_force, visible
from .gamefile import GameFile
from .losses import LossPolicy, SpreadLosses
from .orders import Choices, OrderProblem, Orders, OrdersError, load_orders
from .production import with_production
from .rules import check_choices, check_orders, check_turn
from .scenario import Scenario
from .state import GameState

if TYPE_CHECKING:  # Control's edits, the team views, the steps' rules and the tactical
    # rule sets (a battle fought out) load when first used
    from .control import AuditEntry, Edit
    from .operations import BattleChoice, BattlePreview
    from .tactical import BattleSetup, TacticalBattle
    from .teamview import TeamView

#: builds the dice for one step: (turn, step, log) → Dice
DiceFactory = Callable[[int, int, DiceLog], Dice]


def seeded(seed: int | str) -> DiceFactory:
    """Seeded dice, one stream per step: a step's rolls depend only on the seed, the turn
    and the step, so resolving a turn in one go or step by step gives the same game."""

    def make(turn: int, step: int, log: DiceLog) -> Dice:
        return SeededDice(f"{seed}/{turn}/{step}", log)

    return make


class Campaign:
    """An open game and the rules acting on it."""

    def __init__(self, game: GameFile, losses: LossPolicy | None = None) -> None:
        self.game = game
        self.losses: LossPolicy = losses or SpreadLosses()
        self._log: tuple[tuple[int, int], list[Event]] | None = None
        #: nation → the text of its orders last read and the orders it gave (read-only:
        #: the orders are frozen, and nothing changes their choices or tonnage maps)
        self._orders_read: dict[str, tuple[str, Orders]] = {}

    @classmethod
    def open(
        cls, path: str | Path, losses: LossPolicy | None = None, altered_ok: bool = False
    ) -> Campaign:
        """Open a game (a file changed outside Sea Control only with ``altered_ok``:
        :attr:`GameFile.integrity` then says what was found)."""
        return cls(GameFile.open(path, altered_ok=altered_ok), losses)

    def close(self) -> None:
        self.game.close()

    def __enter__(self) -> Campaign:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self.game.scenario

    @property
    def state(self) -> GameState:
        return self.game.state()

    def board(self) -> Board:
        return Board(self.scenario, self.state)

    def orders(self, turn: int | None = None) -> dict[str, Orders]:
        """Every nation's stored orders for ``turn`` (default: the current turn)."""
        turn = turn if turn is not None else self.state.turn
        return {n: self._read_orders(n, text) for n, text in self.game.orders(turn).items()}

    def _read_orders(self, nation: str, text: str) -> Orders:
        """``nation``'s orders from their stored text, parsed again only when the text has
        changed since this nation's were last read: an order check asks for every nation's
        orders (cards for allies, shared ranges), and parsing all nine was most of a
        check's time, paid at each change a team seat or the orders editor checks."""
        kept = self._orders_read.get(nation)
        if kept is not None and kept[0] == text:
            return kept[1]
        orders = load_orders(text, nation)
        self._orders_read[nation] = (text, orders)
        return orders

    def events(self, nation: str | None = None, turn: int | None = None) -> list[Event]:
        """The event log as the game now stands (:func:`~campaign.events.in_force`: not
        what a reopened turn set aside), as ``nation`` may see it (``None``: Game Control
        sees all)."""
        everything = self._in_force()
        return visible([e for e in everything if turn is None or e.turn == turn], nation)

    def _in_force(self) -> list[Event]:
        """The events in force, parsed once per change of the log (reports, views, the
        map's marks and team packs ask for them turn by turn, many times over)."""
        mark = self.game.log_mark()
        if self._log is None or self._log[0] != mark:
            self._log = (mark, in_force(self.game.log()))
        return self._log[1]

    def set_aside(self) -> list[Event]:
        """Events a reopened turn set aside (kept in the log for the audit)."""
        everything = self.game.log()
        kept = {id(e) for e in in_force(everything)}
        return [e for e in everything if id(e) not in kept]

    def dice_log(self) -> list[Roll]:
        return [Roll(**{k: r[k] for k in Roll.__dataclass_fields__}) for r in self.game.dice_rows()]

    def dice_head(self) -> str:
        rolls = self.game.dice_rows()
        return str(rolls[-1]["hash"]) if rolls else GENESIS

    def chain_head(self) -> str:
        """The game file's chain head (:mod:`campaign.seal`): the hash every printed report
        and pack carries as its anchor, covering every record of the file."""
        return self.game.chain_head()[1]

    def chain_link(self) -> int:
        """How many writes the chain holds (printed beside its head)."""
        return self.game.chain_head()[0]

    def verify_dice(self) -> list[str]:
        """Problems with the dice log (an edited, removed or reordered roll)."""
        return verify_chain(self.dice_log())

    # -- orders ----------------------------------------------------------------------------
    def orders_board(self, state: GameState | None = None) -> Board:
        """The board as this turn's orders see it: the ships step 2 will commission are
        already at their fleet bases (so orders may name them). ``state``: the game's
        state if the caller has just read it (else it is read)."""
        state = state if state is not None else self.state
        return Board(self.scenario, with_production(self.scenario, state))

    def check(self, orders: Orders) -> list[OrderProblem]:
        """The rules ``orders`` break, given the other nations' stored orders."""
        return self._check(self.state, orders)

    def _check(self, state: GameState, orders: Orders) -> list[OrderProblem]:
        """:meth:`check` on the state the caller has read (one read of the game file's
        state for the whole check, not one for the board and one for the turn). The check
        only reads it (the ships due are laid on a projection, :func:`with_production`):
        ``resolve`` plays the turn on the very object it checked."""
        return check_orders(self.orders_board(state), orders, self.orders(state.turn))

    def set_orders(self, nation: str, orders: Orders) -> None:
        """Store a nation's orders for this turn; refused whole if any rule is broken."""
        state = self.state
        if state.step != 0:
            raise OrdersError(
                [
                    OrderProblem(
                        nation,
                        "orders",
                        "002 Turn sequence",
                        f"turn {state.turn} is already being resolved "
                        f"(step {state.step} done); reopen the turn to "
                        "change orders",
                    )
                ]
            )
        if orders.nation != nation:
            raise OrdersError(
                [
                    OrderProblem(
                        nation, "nation", "orders format", f"the orders are for '{orders.nation}'"
                    )
                ]
            )
        problems = self._check(state, orders)
        if problems:
            raise OrdersError(problems)
        self.game.set_orders(state.turn, nation, orders.to_json())

    def set_choices(self, nation: str, choices: Choices) -> None:
        """Store the choices ``nation``'s owner gives ahead for this turn (which units take
        losses, which are repaired, where a damaged carrier's Air Point goes), kept with its
        orders. They may be given until the turn's last step is resolved; before step 1 the
        whole orders are checked again, later the choices alone."""
        state = self.state
        stored = self.orders().get(nation) or Orders(nation, state.turn)
        orders = replace(stored, choices=choices)
        if state.step == 0:
            self.set_orders(nation, orders)
            return
        problems = check_choices(self.board(), orders)
        if problems:
            raise OrdersError(problems)
        self.game.set_orders(state.turn, nation, orders.to_json())

    def clear_orders(self, nation: str) -> None:
        self.game.set_orders(self.state.turn, nation, None)

    # -- resolution ------------------------------------------------------------------------
    def resolve(
        self,
        to_step: int = 10,
        seed: int | str | None = None,
        dice: DiceFactory | None = None,
        on_step: Callable[[int, list[Event]], None] | None = None,
        fight: Callable[[BattleChoice], str | None] | None = None,
        watch: Callable[[TacticalBattle, BattleSetup], None] | None = None,
    ) -> list[Event]:
        """Resolve the current turn's steps up to ``to_step`` (10: the whole turn, and the
        next turn begins). Orders are checked together first; if any nation's break a rule
        nothing is applied and :class:`OrdersError` lists every problem."""
        from .turn import STEPS, Turn, end_turn, older_objects_set_aside

        with older_objects_set_aside():
            if not 1 <= to_step <= len(STEPS):
                raise ValueError(f"steps run from 1 to {len(STEPS)}")
            if dice is None:
                if seed is None:
                    seed = self.game.meta("seed") or self.scenario.meta.id
                if not self.game.meta("seed"):
                    self.game.set_meta("seed", str(seed))
                dice = seeded(seed)
            state = self.state
            last = self.scenario.meta.last_turn
            if state.turn > last:
                raise OrdersError(
                    [
                        OrderProblem(
                            "",
                            "resolve",
                            "scenario.toml last_turn",
                            f"the scenario ended with turn {last}",
                        )
                    ]
                )
            orders = self.orders(state.turn)
            if state.step == 0:
                problems = check_turn(self.orders_board(state), orders)
                if problems:
                    raise OrdersError(problems)
            events: list[Event] = []
            while state.step < to_step:
                number = state.step + 1
                log = DiceLog(self.dice_log())
                before = len(log.rolls)
                turn = Turn(
                    self.scenario,
                    state,
                    orders,
                    dice(state.turn, number, log),
                    self.losses,
                    fight=fight,
                    watch=watch,
                )
                turn.dice.turn, turn.dice.step = state.turn, number
                state.step = number
                STEPS[number - 1].run(turn)
                if number == len(STEPS):
                    end_turn(turn)
                new_rolls = log.rolls[before:]
                self.game.save(state, [e.row() for e in turn.events], [r.row() for r in new_rolls])
                events += turn.events
                if on_step:
                    on_step(number, turn.events)
                if number == len(STEPS):
                    break
            return events

    def preview_battles(self) -> list[BattlePreview]:
        """The naval battles step 8 will fight, as things stand (orders given so far), each
        side as the damage table sees it — for exact odds before the dice are rolled.

        Steps before 8 are played on a copy (they roll no dice); nothing is saved."""
        from .operations import preview_battles
        from .turn import STEPS, Turn

        state = copy.deepcopy(self.state)
        if state.step >= 8:
            return []
        turn = Turn(self.scenario, state, self.orders(state.turn), ScriptedDice([]))
        for step in STEPS[state.step : 7]:
            state.step = step.number
            step.run(turn)
        return preview_battles(turn)

    def reopen_turn(self, turn: int) -> GameState:
        """Undo back to the start of ``turn``; its orders are kept to be changed or resolved
        again, later turns' orders are dropped."""
        return self.game.reopen_turn(turn)

    def rule_on_card(self, card: str, ruling: str) -> Event:
        """Record Game Control's ruling on a card played for *some other advantage outside
        the rules at the discretion of Game Control* (002 "Advantage Cards")."""
        played = [
            e
            for e in self.events()
            if e.kind == "card_played"
            and e.data.get("card") == card
            and e.data.get("use") == "other"
        ]
        if not played:
            raise ValueError(f"no card '{card}' has been played for Game Control to rule on")
        if not ruling.strip():
            raise ValueError("a ruling needs words")
        asked = played[-1]
        state = self.state
        for effect in state.turn_record.cards:
            if effect.card == card and effect.use == "other":
                effect.ruling = ruling.strip()
        event = Event(
            state.turn,
            state.step,
            "card_ruling",
            f"Game Control rules on '{asked.data.get('text', '')}': {ruling.strip()}",
            asked.nation,
            {"card": card, "ruling": ruling.strip(), "asked_on_turn": asked.turn},
            (asked.nation, UMPIRE),
        )
        self.game.save(state, [event.row()])
        return event

    # -- Game Control's edits (campaign/control.py) -----------------------------------------
    def control_edit(self, edit: Edit, reason: str) -> Event:
        """Correct the game as it stands; saved with its ``control_edit`` event, which the
        teams concerned see. Raises :class:`~campaign.control.EditError` if it cannot be."""
        from . import control

        state, event = control.apply_edit(self.scenario, self.state, self.events(), edit, reason)
        self.game.save(state, [event.row()])
        return event

    def undo_control_edit(self, number: int, reason: str = "") -> Event:
        """Undo Control's edit ``number`` with an event of its own (the log only grows)."""
        from . import control

        state, event = control.undo_edit(self.scenario, self.state, self.events(), number, reason)
        self.game.save(state, [event.row()])
        return event

    def control_audit(self) -> list[AuditEntry]:
        """Every Control edit, undo and card ruling, oldest first."""
        from . import control

        return control.audit(self.events())

    def cards_awaiting_ruling(self) -> list[Event]:
        """Advantage Cards played for 'some other advantage' not yet ruled on."""
        from . import control

        return control.awaiting_ruling(self.events())

    # -- reports ---------------------------------------------------------------------------
    def team_view(self, nation: str) -> TeamView:
        """The game as ``nation``'s team may know it: the one view every team output is
        made from (docs/team-views.md). Its own orders for this turn, if stored, give its
        task forces and flags before they are resolved."""
        orders = self.orders().get(nation)
        everything = self._in_force()
        from .teamview import team_view

        return team_view(self.scenario, self.state, everything, nation, orders)

    def report(self, nation: str | None = None, turn: int | None = None) -> str:
        """The turn's events in words, for Game Control or for one team (fog of war)."""
        from .reports import turn_report

        return turn_report(self, nation, turn)
