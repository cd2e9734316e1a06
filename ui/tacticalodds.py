"""Odds of a coming battle fought out with a tactical rule set, set beside the campaign's
damage table: many seeded runs, each figure with its standard error, a progress bar, and
the first figures after a few dozen battles.

The comparison is in the campaign's own terms: the steps each side loses (the table's exact
distribution against the fought-out battles' step losses, by the documented rule of
:mod:`campaign.tactical.outcome`) and who wins; then each unit's steps and each ship's
chance of being sunk or damaged."""

from __future__ import annotations

import copy
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape

from PySide6.QtCore import QCoreApplication, QThread, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from campaign.odds import NavalOdds
from campaign.state import Unit
from campaign.tactical import BattleSetup, compiled, title_of
from campaign.tactical.outcome import in_rule_set_terms
from campaign.tactical.simulate import TacticalOdds, available, rules_note, simulate

from .battlesetup import BattleChooser
from .style import MUTED


class _Stopped(Exception):
    """The user pressed Stop: the figures so far stand."""


class Sampler(QThread):
    """Fights a preview's battles off the GUI thread (and, for a long preview, in a pool of
    processes: :func:`campaign.tactical.simulate.simulate`), so the map stays responsive.
    ``progress(odds)`` brings a copy of the figures so far to the GUI thread; ``done(odds,
    stopped, error)`` the last figures (None if none came before an error), whether Stop
    ended the run, and what went wrong ("" if nothing)."""

    progress = Signal(object)
    done = Signal(object, bool, str)

    def __init__(
        self,
        rule_set: str,
        setup: BattleSetup,
        runs: int,
        units: Mapping[str, list[Unit]] | None,
    ) -> None:
        super().__init__()
        self.rule_set, self.setup, self.runs, self.units = rule_set, setup, runs, units
        self.stopping = threading.Event()

    def run(self) -> None:
        last: list[TacticalOdds] = []

        def show(odds: TacticalOdds) -> None:
            snapshot = copy.deepcopy(odds)  # the GUI thread reads it while this one counts
            last[:] = [snapshot]
            self.progress.emit(snapshot)
            if self.stopping.is_set():
                raise _Stopped

        try:
            odds = simulate(
                self.rule_set,
                self.setup,
                self.runs,
                seed="preview",
                on_progress=show,
                every=50,
                units=self.units,
                workers=None,  # a long preview: a worker process a core
            )
        except _Stopped:
            self.done.emit(last[0], True, "")
        except Exception as exc:  # the thread must end with done, whatever went wrong
            self.done.emit(last[0] if last else None, False, str(exc) or type(exc).__name__)
        else:
            self.done.emit(odds, False, "")


@dataclass
class ComingBattle:
    """A battle step 8 will fight: as ships for the rule set, as campaign units, and the
    damage table's exact odds (None when the table does not apply)."""

    setup: BattleSetup
    units: dict[str, list[Unit]] = field(default_factory=dict)  # "a" / "b" → units
    table: NavalOdds | None = None


class TacticalOddsPanel(QWidget):
    """``source(rule_set)`` gives the coming battle (None: no battle is coming; ValueError:
    it cannot be fought out, with the reason)."""

    def __init__(
        self, source: Callable[[str], ComingBattle | None], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.source = source
        layout = QVBoxLayout(self)
        row = QHBoxLayout()  # one row: the results need the height of a short dock
        self.battle = BattleChooser(self, coming="Coming battle (step 8)")
        self.battle.combo.setMinimumContentsLength(16)
        self.battle.combo.setToolTip("The battle to fight out: the coming one, or a set-up")
        self.battle.open_button.setText("Open…")
        self.battle.open_button.setToolTip("Open a battle set-up file")
        row.addWidget(self.battle, 3)
        row.addWidget(QLabel("with"))
        self.rule_set = QComboBox()
        for name in available():
            self.rule_set.addItem(title_of(name), name)
        self.rule_set.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.rule_set.setMinimumContentsLength(14)
        row.addWidget(self.rule_set, 2)
        self.battle.combo.currentIndexChanged.connect(
            lambda _i: self.battle.suggest_rules(self.rule_set)
        )
        self.runs = QSpinBox()
        self.runs.setRange(50, 20000)
        self.runs.setValue(1000)
        self.runs.setSingleStep(500)
        self.runs.setSuffix(" battles")
        row.addWidget(self.runs)
        self.go = QPushButton("Run")
        self.go.setToolTip(
            "Fight the battle this many times (a coming battle's odds are set beside the "
            "damage table's); press again to stop"
        )
        row.addWidget(self.go)
        layout.addLayout(row)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        layout.addWidget(self.progress)
        self.table = QTextBrowser()
        layout.addWidget(self.table, 1)
        #: after a long preview fought with the plain rules: why, and whether the compiled
        #: ones are on their way (campaign.tactical.compiled)
        self.rules_note = QLabel()
        self.rules_note.setWordWrap(True)
        self.rules_note.setStyleSheet(f"color: {MUTED.name()}")
        self.rules_note.setVisible(False)
        layout.addWidget(self.rules_note)
        self.go.clicked.connect(self.run_or_stop)
        self.odds: TacticalOdds | None = None
        self.coming: ComingBattle | None = None
        self.running = False
        self._sampler: Sampler | None = None
        self._threads: set[Sampler] = set()
        app = QCoreApplication.instance()
        if app is not None:  # a run still going when the program quits is stopped first
            app.aboutToQuit.connect(lambda: self.stop(wait=True))
        # previews are about to be run: the rule sets compiled in the background, if they
        # are not yet (once the panel is on screen; nothing if built, being built or off)
        QTimer.singleShot(0, compiled.build_soon)

    def run_or_stop(self) -> None:
        if self.running:
            self.stop()
        else:
            self.run()

    def _coming(self, rule_set: str) -> ComingBattle | None:
        """The battle chosen: a set-up file, or the coming campaign battle (from source)."""
        setup = self.battle.setup()
        if setup is None:
            return self.source(rule_set)
        return ComingBattle(in_rule_set_terms(rule_set, setup))

    def run(self) -> None:
        name = str(self.rule_set.currentData() or "")
        try:
            coming = self._coming(name)
        except ValueError as exc:
            self.table.setHtml(f"<p>This battle cannot be fought out: {escape(str(exc))}</p>")
            return
        if coming is None:
            self.table.setHtml("<p>No battle is coming in step 8 with the orders given.</p>")
            return
        self.coming = coming
        runs = self.runs.value()
        self.progress.setRange(0, runs)
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.go.setText("Stop")
        self.running = True
        sampler = Sampler(name, coming.setup, runs, coming.units or None)
        sampler.progress.connect(self._progress)
        sampler.done.connect(self._done)
        sampler.finished.connect(self._ended)
        self._sampler = sampler
        self._threads.add(sampler)  # kept until its thread has ended
        sampler.start()

    def _progress(self, odds: TacticalOdds) -> None:
        if self.sender() is not self._sampler:
            return  # a run stopped before this came in
        self.progress.setValue(odds.runs)
        self.show_odds(odds)

    def _done(self, odds: TacticalOdds | None, stopped: bool, error: str) -> None:
        if self.sender() is not self._sampler:
            return
        if error:
            self.table.setHtml(f"<p>This battle cannot be fought out: {escape(error)}</p>")
        elif odds is not None:
            self.odds = odds
            self.show_odds(odds)
            if stopped:
                wanted = self.progress.maximum()
                self.table.append(f"<p><i>Stopped after {odds.runs} of {wanted} battles.</i></p>")
        note = rules_note(self.progress.maximum())
        self.rules_note.setText(note)
        self.rules_note.setVisible(bool(note))
        self._sampler = None
        self.running = False
        self.go.setText("Run")
        self.progress.setVisible(False)

    def _ended(self) -> None:
        self._threads.discard(self.sender())

    def stop(self, wait: bool = False) -> None:
        """Stop the run (its figures so far stand); ``wait``: until every sampling thread
        has ended (before the program quits)."""
        if self._sampler is not None:
            self._sampler.stopping.set()
        if wait:
            for sampler in list(self._threads):
                sampler.stopping.set()
                sampler.wait()

    def show_odds(self, odds: TacticalOdds) -> None:
        table = self.coming.table if self.coming else None
        parts = [
            f"<p><b>{odds.runs} battles</b> fought out: <b>{escape(title_of(odds.rule_set))}</b>"
            + (", beside the campaign's damage table (exact)." if table else ".")
            + " Figures after ± are standard errors.</p>"
        ]
        parts.append(_wins_html(odds, table))
        if odds.has_steps:
            parts.append(_steps_html(odds, table, self.coming.units if self.coming else {}))
        parts.append(_ships_html(odds))
        self.table.setHtml("".join(parts))


def _pct(p: float, se: float | None = None) -> str:
    return f"{p:.1%}" if se is None else f"{p:.1%} ± {se:.1%}"


_TABLE = "<table cellpadding=3 cellspacing=0 border=1 style='border-collapse:collapse'>"


def _wins_html(odds: TacticalOdds, table: NavalOdds | None) -> str:
    head = "<tr><th align=left>Who wins</th>"
    if table:
        head += "<th>damage table</th>"
    head += "<th>fought out</th>"
    campaign = bool(odds.campaign_winners)
    if campaign:
        head += "<th>fought out, campaign rule</th>"
    rows = [head + "</tr>"]
    table_p = {"a": table.p_a_wins, "b": table.p_b_wins} if table else {}
    for key in ("a", "b", ""):
        label = escape(odds.side_names.get(key, "")) if key else "no decision / draw"
        row = f"<tr><td>{label}</td>"
        if table:
            row += f"<td align=right>{_pct(float(table_p[key])) if key else '—'}</td>"
        row += f"<td align=right>{_pct(*odds.p(odds.winners.get(key, 0)))}</td>"
        if campaign:
            cell = _pct(*odds.p(odds.campaign_winners.get(key, 0))) if key else "—"
            row += f"<td align=right>{cell}</td>"
        rows.append(row + "</tr>")
    note = (
        "<p style='color:#555'>The table and the campaign rule decide as step 8 does: most "
        "combat value lost loses, a force sunk to the last unit cannot win, still level "
        "the defender holds; the tactical rules by their own victory rule.</p>"
        if table
        else ""
    )
    return _TABLE + "".join(rows) + "</table>" + note


def _most_steps(units: list[Unit]) -> int:
    return sum(2 if u.state == "ready" else 1 for u in units if u.state != "sunk")


def _steps_html(
    odds: TacticalOdds, table: NavalOdds | None, units: Mapping[str, list[Unit]]
) -> str:
    """One table: for each number of steps either side may lose, the table's exact chance
    and the fought-out chance of each side losing that many (rows all zero are left out)."""
    exact: dict[str, dict[int, Fraction]] = {"a": {}, "b": {}}
    most: dict[str, int] = {}
    steps_of = {key: odds.side_steps.get(key, Counter()) for key in "ab"}
    for key in ("a", "b"):
        counts = steps_of[key]
        most[key] = _most_steps(units[key]) if units.get(key) else max(counts, default=0)
        if table:
            dist = table.b_on_a if key == "a" else table.a_on_b  # steps this side loses
            for steps, p in dist.items():
                k = min(steps, most[key])  # the table can deal more steps than there are
                exact[key][k] = exact[key].get(k, Fraction(0)) + p
    columns = 2 if table else 1
    head = "<tr><th rowspan=2 align=left>Steps lost</th>" + "".join(
        f"<th colspan={columns}>{escape(odds.side_names.get(key, key))} "
        f"({most[key]} steps in all)</th>"
        for key in "ab"
    )
    sub = ("<th>damage table</th><th>fought out</th>" if table else "<th>fought out</th>") * 2
    rows = [head + "</tr><tr>" + sub + "</tr>"]
    for k in range(max(most.values(), default=0) + 1):
        shown = [(exact[key].get(k, Fraction(0)), steps_of[key].get(k, 0)) for key in "ab"]
        if not any(p or n for p, n in shown):
            continue
        row = f"<tr><td>{k}</td>"
        for p, n in shown:
            if table:
                row += f"<td align=right>{_pct(float(p))}</td>"
            row += f"<td align=right>{_pct(*odds.p(n))}</td>"
        rows.append(row + "</tr>")
    row = "<tr><td><i>mean</i></td>"
    for key in "ab":
        if table:
            row += f"<td align=right>{float(sum(k * p for k, p in exact[key].items())):.2f}</td>"
        mean, se = odds.mean(steps_of[key])
        row += f"<td align=right>{mean:.2f} ± {se:.2f}</td>"
    rows.append(row + "</tr>")
    parts = ["<p><b>Campaign steps lost</b></p>", _TABLE + "".join(rows) + "</table>"]
    unit_rows = ["<tr><th align=left>Unit</th><th>no step</th><th>1 step</th><th>2 steps</th></tr>"]
    for key in "ab":
        unit_rows.append(_side_row(odds, key, 4))
        for unit, counts in odds.unit_steps.items():
            if odds.unit_sides[unit] != key:
                continue
            cells = "".join(
                f"<td align=right>{_pct(*odds.p(counts.get(k, 0)))}</td>" for k in (0, 1, 2)
            )
            name = escape(odds.unit_names.get(unit, unit))
            unit_rows.append(f"<tr><td>{name}</td>{cells}</tr>")
    parts.append(
        "<p>Each unit, fought out (the table leaves the choice of units to their owner):</p>"
        + _TABLE
        + "".join(unit_rows)
        + "</table>"
    )
    return "".join(parts)


def _side_row(odds: TacticalOdds, key: str, columns: int) -> str:
    name = escape(odds.side_names.get(key, key))
    return f"<tr><td colspan={columns} style='background:#e8edf2'><b>{name}</b></td></tr>"


def _ships_html(odds: TacticalOdds) -> str:
    rows = []
    for key in "ab":
        rows.append(_side_row(odds, key, 3))
        for sid, name in odds.names.items():
            if odds.sides[sid] != key:
                continue
            rows.append(
                f"<tr><td>{escape(name)}</td>"
                f"<td align=right>{_pct(*odds.p(odds.sunk[sid]))}</td>"
                f"<td align=right>{_pct(*odds.p(odds.hit[sid]))}</td></tr>"
            )
    return (
        "<p><b>Ships</b></p>"
        + _TABLE
        + "<tr><th align=left>Ship</th><th>Sunk</th><th>Damaged or worse</th></tr>"
        + "".join(rows)
        + "</table>"
    )
