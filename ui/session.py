"""The app's one door to the engine: a :class:`GameSession` holds the open game.

Widgets never call the engine directly: they ask the session, which calls
:class:`campaign.engine.Campaign`, keeps the game safe on disk, and announces what changed
with Qt signals so each view redraws only what it shows.

Files: the game is played in a *working copy* kept in the recovery folder; every order
and every resolved step is written there at once (that is the autosave). *Save* copies the
working copy to the game's own file through SQLite's backup API. If the program dies, the
working copy is still there and is offered back at the next start. Each working copy is
held with a lock file (:class:`QLockFile`) while a session has it open, so a second Sea
Control never offers — or discards — a copy a live one is playing in.
"""

from __future__ import annotations

import json
import os
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLockFile, QObject, QSettings, QStandardPaths, Signal

from campaign import paths
from campaign.board import Board
from campaign.dice import DiceLog, ManualDice
from campaign.engine import Campaign, DiceFactory, seeded
from campaign.events import Event
from campaign.gamefile import SUFFIX, GameFile, GameFileError
from campaign.losses import LossPolicy, SpreadLosses
from campaign.orders import OrderProblem, Orders, OrdersError
from campaign.rules import problem_in_words
from campaign.scenario import Scenario, load_scenario
from campaign.seal import Integrity
from campaign.state import GameState

if TYPE_CHECKING:  # Control's edits load when Control first makes one, the rules of the
    # steps when a turn is resolved, the tactical rule sets when a battle is fought out
    from campaign.control import Edit
    from campaign.operations import BattleChoice
    from campaign.tactical import BattleSetup, TacticalBattle
    from campaign.teamview import TeamView

MAX_RECENT = 8


def recovery_dir() -> Path:
    """Where working copies live (one per open game)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    folder = Path(base or tempfile.gettempdir()) / "recovery"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class GameSession(QObject):
    """The open game, its file, and signals for everything that changes."""

    gameChanged = Signal()  # a different game was opened (or none)
    stateChanged = Signal()  # the state moved (a step resolved, a turn reopened)
    ordersChanged = Signal(str)  # a nation's orders were stored
    eventsAdded = Signal(list)  # new events (list[Event]) from a resolved step
    dirtyChanged = Signal(bool)
    stepResolved = Signal(int)  # the step number just resolved
    ordersArrived = Signal(list)  # nations whose orders another program stored (the seats)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.campaign: Campaign | None = None
        self.path: Path | None = None  # the game's own file (None: never saved)
        self.working: Path | None = None  # the working copy
        self.dirty = False
        self.seed = "1942"
        self.manual_dice: Callable[[str, int], int] | None = None  # set: umpire rolls
        self.losses: LossPolicy = SpreadLosses()
        #: how each step-8 battle is resolved: a tactical rule set's name, or None for the
        #: damage table (set by the window to ask Game Control)
        self.fight: Callable[[BattleChoice], str | None] | None = None
        #: shown each battle fought out, to step through it (the battle window)
        self.watch: Callable[[TacticalBattle, BattleSetup], None] | None = None
        self._state: GameState | None = None
        self._lock: QLockFile | None = None  # held on the working copy while it is open
        #: what the game file's seal was found to be when the game was opened (the window
        #: shows a bar unless this machine's seal was verified: docs/game-file.md)
        self.seal_found: Integrity | None = None

    # -- what is open ------------------------------------------------------------------------
    @property
    def is_open(self) -> bool:
        return self.campaign is not None

    def require(self) -> Campaign:
        if self.campaign is None:
            raise RuntimeError("no game is open")
        return self.campaign

    @property
    def scenario(self) -> Scenario:
        return self.require().scenario

    @property
    def state(self) -> GameState:
        if self._state is None:
            self._state = self.require().state
        return self._state

    def board(self) -> Board:
        return Board(self.scenario, self.state)

    def orders_board(self) -> Board:
        """The board as this turn's orders see it (ships arriving in step 2 included)."""
        return self.require().orders_board()

    @property
    def title(self) -> str:
        if not self.is_open:
            return "Sea Control"
        name = self.path.stem if self.path else f"{self.require().game.name} (not saved)"
        state = self.state
        when = self.scenario.meta.period_of(state.turn)
        step = "orders" if state.step == 0 else f"step {state.step} done"
        return (
            f"{name}{' *' if self.dirty else ''} — turn {state.turn} ({when}), {step} — Sea Control"
        )

    # -- opening and saving --------------------------------------------------------------------
    def new_game(self, scenario: Scenario | None = None, name: str | None = None) -> None:
        """A new game from ``scenario`` (default: the built-in 1942), not yet saved."""
        scenario = scenario or load_scenario(paths.scenario_dir("1942"))
        working = self._new_working_copy()
        game = GameFile.create(working, scenario, name=name)  # opened, its scenario read back
        # not "changed" until something is done in it: a fresh game is made again in a click
        self._attach(working, None, dirty=False, game=game)

    def open(self, path: str | Path) -> None:
        """Open a saved game: its working copy is made with the backup API. A file changed
        outside Sea Control is opened too (:attr:`seal_found` says what was found, and the
        first change made logs it for every team); one that is not a game, too new,
        damaged or unreadable is refused."""
        path = Path(path)
        source = GameFile.open(path, altered_ok=True)
        working = self._new_working_copy()
        try:
            source.backup(working)
        finally:
            source.close()
        self._attach(working, path, dirty=False)
        self._remember(path)

    def recover(self, working: Path) -> None:
        """Carry on with a working copy left by a program that stopped."""
        meta = _read_meta(working)
        target = Path(meta["path"]) if meta.get("path") else None
        self._attach(working, target, dirty=True)

    def save(self) -> bool:
        """Save to the game's own file; False if it has none yet (ask for Save As)."""
        if self.path is None:
            return False
        self.save_as(self.path)
        return True

    def save_as(self, path: str | Path) -> None:
        path = Path(path)
        if path.suffix != SUFFIX:
            path = path.with_suffix(SUFFIX)
        self.require().game.backup(path)
        self.path = path
        _write_meta(self.working, path)
        self._remember(path)
        self._set_dirty(False)
        self.gameChanged.emit()

    def close(self) -> None:
        """Close the game; its working copy is removed (everything worth keeping is saved
        or was refused by the user)."""
        if self.campaign is not None:
            self.campaign.close()
        if self.working is not None:
            _remove_copy(self.working)
        if self._lock is not None:
            self._lock.unlock()
        self.campaign, self.path, self.working, self._state = None, None, None, None
        self._lock, self.seal_found = None, None
        self._set_dirty(False)
        self.gameChanged.emit()

    def recoverable(self) -> list[Path]:
        """Working copies left behind by a program that stopped without closing them (a
        copy a live Sea Control holds is in play there, and never offered)."""
        found = sorted(p for p in recovery_dir().glob(f"*{SUFFIX}") if p != self.working)
        return [p for p in found if not _held(p)]

    def recent(self) -> list[str]:
        value = QSettings().value("recent", [])
        items = value if isinstance(value, list) else [value] if value else []
        return [str(p) for p in items if Path(str(p)).is_file()]

    # -- orders and the turn ---------------------------------------------------------------------
    def orders(self, nation: str) -> Orders | None:
        return self.require().orders().get(nation)

    def all_orders(self) -> dict[str, Orders]:
        return self.require().orders()

    def check(self, orders: Orders) -> list[OrderProblem]:
        return self.require().check(orders)

    def set_orders(self, nation: str, orders: Orders) -> list[OrderProblem]:
        """Store orders; returns the problems instead if the rules refuse them."""
        try:
            self.require().set_orders(nation, orders)
        except OrdersError as exc:
            return exc.problems
        self._set_dirty(True)
        self.ordersChanged.emit(nation)
        return []

    def orders_arrived(self, nations: list[str]) -> None:
        """Orders stored in this game by another program (the team seats): the views of
        those nations' orders are out of date."""
        self._set_dirty(True)
        self.ordersArrived.emit(nations)
        for nation in nations:
            self.ordersChanged.emit(nation)

    def problem_text(self, problem: OrderProblem, orders: Orders | None = None) -> str:
        """A problem in words, its order named as a person names it (not the file's
        ``task_forces[0]``); ``orders`` are those checked (default: the stored ones)."""
        orders = orders or self.all_orders().get(problem.nation)
        return problem_in_words(self.board(), orders, problem)

    def clear_orders(self, nation: str) -> None:
        self.require().clear_orders(nation)
        self._set_dirty(True)
        self.ordersChanged.emit(nation)

    def dice_factory(self) -> DiceFactory:
        if self.manual_dice is None:
            return seeded(self.seed)
        ask = self.manual_dice

        def make(turn: int, step: int, log: DiceLog) -> ManualDice:
            return ManualDice(ask, log)

        return make

    def resolve(self, to_step: int | None = None) -> list[Event]:
        """Resolve the next step (or up to ``to_step``); raises OrdersError if refused."""
        campaign = self.require()
        state = campaign.state
        target = to_step if to_step is not None else state.step + 1
        events: list[Event] = []

        def each(number: int, new: list[Event]) -> None:
            self._state = None
            self.eventsAdded.emit(new)
            self.stepResolved.emit(number)

        campaign.losses = self.losses
        events = campaign.resolve(
            to_step=target,
            dice=self.dice_factory(),
            on_step=each,
            fight=self.fight,
            watch=self.watch,
        )
        self._state = None
        self._set_dirty(True)
        self.stateChanged.emit()
        return events

    def reopen_turn(self, turn: int) -> None:
        self.require().reopen_turn(turn)
        self._state = None
        self._set_dirty(True)
        self.stateChanged.emit()

    def events(self, nation: str | None = None, turn: int | None = None) -> list[Event]:
        return self.require().events(nation, turn)

    def team_view(self, nation: str) -> TeamView:
        """The game as ``nation``'s team may know it: what every team output shows."""
        return self.require().team_view(nation)

    # -- Game Control's edits ------------------------------------------------------------------
    def control_edit(self, edit: Edit, reason: str) -> Event:
        """Make a Control edit (raises :class:`campaign.control.EditError` if refused)."""
        return self._changed(self.require().control_edit(edit, reason))

    def undo_control_edit(self, number: int, reason: str = "") -> Event:
        return self._changed(self.require().undo_control_edit(number, reason))

    def rule_on_card(self, card: str, ruling: str) -> Event:
        return self._changed(self.require().rule_on_card(card, ruling))

    def _changed(self, event: Event) -> Event:
        self._state = None
        self._set_dirty(True)
        self.eventsAdded.emit([event])
        self.stateChanged.emit()
        return event

    # -- internals -----------------------------------------------------------------------------
    def _new_working_copy(self) -> Path:
        return recovery_dir() / f"{uuid.uuid4().hex}{SUFFIX}"

    def _attach(
        self, working: Path, path: Path | None, dirty: bool, game: GameFile | None = None
    ) -> None:
        """Carry on with the game in ``working`` (``game``: already open there)."""
        lock = _lock(working)
        if lock is None:
            if game is not None:
                game.close()
            raise GameFileError(f"{working} is open in another Sea Control window")
        try:
            if game is not None:
                campaign = Campaign(game, self.losses)
            else:
                campaign = Campaign.open(working, self.losses, altered_ok=True)
        except BaseException:
            lock.unlock()
            raise
        old = (self.campaign, self.working, self._lock)
        self.campaign, self._lock, self.seal_found = campaign, lock, campaign.game.integrity
        self.working, self.path, self._state = working, path, None
        _write_meta(working, path)
        seed = self.campaign.game.meta("seed")
        self.seed = seed or self.scenario.meta.id
        if old[0] is not None:
            old[0].close()
            if old[1] is not None and old[1] != working:
                _remove_copy(old[1])
        if old[2] is not None:
            old[2].unlock()
        self._set_dirty(dirty)
        self.gameChanged.emit()

    def _set_dirty(self, dirty: bool) -> None:
        if dirty != self.dirty:
            self.dirty = dirty
            self.dirtyChanged.emit(dirty)

    def _remember(self, path: Path) -> None:
        items = [str(path)] + [p for p in self.recent() if p != str(path)]
        QSettings().setValue("recent", items[:MAX_RECENT])


def _meta_path(working: Path) -> Path:
    return working.with_suffix(".json")


def _lock(working: Path) -> QLockFile | None:
    """``working``'s lock, held; None if a live program holds it. A lock is stale only when
    the program that took it is gone, never by its age (a game may be open for days)."""
    lock = QLockFile(str(working.with_suffix(".lock")))
    lock.setStaleLockTime(0)
    return lock if lock.tryLock(0) else None


def _held(working: Path) -> bool:
    """Does a live program hold ``working``?"""
    lock = _lock(working)
    if lock is None:
        return True
    lock.unlock()
    return False


def _remove_copy(working: Path) -> None:
    for p in (working, _meta_path(working)):
        if p.exists():
            p.unlink()


def _write_meta(working: Path | None, path: Path | None) -> None:
    if working is None:
        return
    data = {"path": str(path) if path else "", "pid": os.getpid()}
    _meta_path(working).write_text(json.dumps(data), encoding="utf-8")


def _read_meta(working: Path) -> dict[str, str]:
    try:
        return dict(json.loads(_meta_path(working).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return {}


def discard_recovery(working: Path) -> bool:
    """Delete a working copy left behind; False (and nothing deleted) if a live program
    holds it."""
    lock = _lock(working)
    if lock is None:
        return False
    try:
        _remove_copy(working)
    finally:
        lock.unlock()
    return True
