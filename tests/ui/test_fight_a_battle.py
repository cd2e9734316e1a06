"""Battles outside the campaign: Battle → Fight a battle… (built-in set-ups, a set-up file,
seeded or typed dice), their odds in the fight-it-out tab, stopping a long run, and a
typed-in roll the umpire does not enter."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDialog

from campaign.dice import DiceError, ManualDice
from campaign.tactical import RULE_SETS, BattleSetup, builtin_battles
from campaign.tactical.simulate import TacticalOdds, available
from ui.battle import BattleWindow
from ui.battlesetup import TYPED, FightDialog
from ui.mainwindow import MainWindow
from ui.tacticalodds import TacticalOddsPanel

MIDWAY = str(builtin_battles()["midway"])


def test_the_dialog_offers_the_built_in_battles_and_their_own_rules(qtbot: object) -> None:
    dialog = FightDialog()
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    combo = dialog.battle.combo
    assert combo.count() == len(builtin_battles()) >= 4
    for name, path in builtin_battles().items():
        combo.setCurrentIndex(combo.findData(str(path)))
        expected = BattleSetup.load(path).rule_set
        assert dialog.rule_set.currentData() == expected, name
    combo.setCurrentIndex(combo.findData(MIDWAY))
    assert "Midway" in combo.currentText()
    dialog.accept()
    assert dialog.chosen is not None and dialog.chosen.title.startswith("Midway")


def test_a_bad_set_up_file_is_refused_in_words(qtbot: object, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    dialog = FightDialog()
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    dialog.battle.add_file(str(bad))
    dialog.accept()
    assert dialog.chosen is None and "bad.json" in dialog.problem.text()
    assert "not valid JSON" in dialog.problem.text()


def test_fight_midway_from_the_menu(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    def choose(self: QDialog) -> int:
        if isinstance(self, FightDialog):
            self.battle.combo.setCurrentIndex(self.battle.combo.findData(MIDWAY))
            self.seed.setText("7")
            self.accept()
            return int(QDialog.DialogCode.Accepted)
        assert isinstance(self, BattleWindow)
        self.end_button.click()
        fought.append(self)
        return int(QDialog.DialogCode.Accepted)

    fought: list[BattleWindow] = []
    monkeypatch.setattr(QDialog, "exec", choose)
    window.fight_battle()
    assert len(fought) == 1 and fought[0].battle.finished
    assert fought[0].battle.rule_set == "carrier"
    assert fought[0].outcome.text() == ""  # not a campaign battle: nothing to apply


def _finished(qtbot: object, panel: TacticalOddsPanel) -> None:
    """Wait for the panel's sampling to end (a bound, not a timing: a run takes well under
    a second here)."""
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)  # type: ignore[attr-defined]


def test_odds_of_a_built_in_battle_and_stopping_a_long_run(
    window: MainWindow, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    panel = window.tactical_odds
    combo = panel.battle.combo
    surface = str(builtin_battles()["surface-example"])
    combo.setCurrentIndex(combo.findData(surface))
    assert panel.rule_set.currentData() == "surface"
    panel.runs.setValue(100)
    panel.go.click()
    _finished(qtbot, panel)
    assert panel.odds is not None and panel.odds.runs == 100
    text = panel.table.toPlainText()
    assert "damage table" not in text and "Renown" in text  # no campaign battle: no table
    # a long run stopped after its first figures keeps them
    shown = panel.show_odds

    def press_stop(odds: object) -> None:
        shown(odds)  # type: ignore[arg-type]
        if panel.running:
            panel.run_or_stop()  # the Stop button, pressed while the figures come in

    monkeypatch.setattr(panel, "show_odds", press_stop)
    panel.runs.setValue(5000)
    panel.run()
    _finished(qtbot, panel)
    assert panel.odds is not None and 50 <= panel.odds.runs < 5000
    assert f"Stopped after {panel.odds.runs} of 5000 battles" in panel.table.toPlainText()
    assert panel.go.text() == "Run" and not panel.running


def test_sampling_runs_off_the_gui_thread_with_progress(
    window: MainWindow, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The battles are fought off the GUI thread: sampling that waits for a gate only a
    timer on the GUI thread's event loop opens still finishes (on the GUI thread it would
    wait for ever), and the progress bar follows the battles."""
    import ui.tacticalodds as module

    gate = threading.Event()
    real = module.simulate
    threads: list[threading.Thread] = []

    def gated(*args: Any, **kwargs: Any) -> TacticalOdds:
        threads.append(threading.current_thread())
        if not gate.wait(60):
            raise ValueError("the GUI thread's event loop never ran the timer")
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "simulate", gated)
    panel = window.tactical_odds
    panel.battle.combo.setCurrentIndex(
        panel.battle.combo.findData(str(builtin_battles()["surface-example"]))
    )
    panel.runs.setValue(100)
    seen: list[int] = []
    panel.progress.valueChanged.connect(seen.append)
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(gate.set)
    panel.run()
    assert panel.running and panel.go.text() == "Stop"  # run() came back at once
    timer.start(0)
    _finished(qtbot, panel)
    assert gate.is_set() and threads and threads[0] is not threading.main_thread()
    assert panel.odds is not None and panel.odds.runs == 100
    assert 50 in seen and 100 in seen
    assert "100 battles" in panel.table.toPlainText()


def test_sampling_that_fails_ends_the_run_and_says_why(
    window: MainWindow, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ui.tacticalodds as module

    def broken(*args: Any, **kwargs: Any) -> TacticalOdds:
        raise RuntimeError("no worker process could be started")

    monkeypatch.setattr(module, "simulate", broken)
    panel = window.tactical_odds
    panel.battle.combo.setCurrentIndex(panel.battle.combo.findData(MIDWAY))
    panel.run()
    _finished(qtbot, panel)
    assert "no worker process could be started" in panel.table.toPlainText()
    assert panel.go.text() == "Run" and not panel.progress.isVisible()


def test_a_typed_roll_not_entered_stops_the_battle_and_says_so(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    available()
    setup = BattleSetup.load(MIDWAY)

    def refuse(purpose: str, sides: int) -> int:
        raise DiceError(f"the roll for {purpose!r} was not entered")

    battle = RULE_SETS["carrier"](setup, ManualDice(refuse))
    stopped = BattleWindow(battle, setup)
    monkeypatch.setattr(QDialog, "reject", lambda self: None)
    stopped.end_button.click()
    assert isinstance(stopped.stopped, DiceError)
    # from step 8, the same error reaches resolve(), which leaves the game as it was
    monkeypatch.setattr(QDialog, "exec", lambda self: self.end_button.click() or 0)
    with pytest.raises(DiceError):
        window.show_battle(RULE_SETS["carrier"](setup, ManualDice(refuse)), setup)
    # and fought alone, the umpire is told
    errors: list[str] = []
    monkeypatch.setattr(window, "error", lambda title, text: errors.append(title))

    def typed(self: QDialog) -> int:
        if isinstance(self, FightDialog):
            self.battle.combo.setCurrentIndex(self.battle.combo.findData(MIDWAY))
            self.dice.setCurrentIndex(self.dice.findData(TYPED))
            self.accept()
            return int(QDialog.DialogCode.Accepted)
        assert isinstance(self, BattleWindow)
        self.end_button.click()
        return 0

    monkeypatch.setattr(QDialog, "exec", typed)
    monkeypatch.setattr("ui.mainwindow.ask_die", lambda parent: refuse)
    window.fight_battle()
    assert errors == ["The battle was stopped"]


def test_a_long_preview_with_the_plain_rules_says_why_under_the_figures(
    window: MainWindow, qtbot: object, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import ui.tacticalodds as module
    from campaign.tactical import compiled

    monkeypatch.setenv("SEACONTROL_COMPILED", str(tmp_path))
    # two cores or more (a machine with one fights every preview in its own process)
    monkeypatch.setattr("campaign.tactical.simulate.os.cpu_count", lambda: 2)
    real = module.simulate

    def quick(rule_set: str, setup: Any, runs: int, **options: Any) -> TacticalOdds:
        return real(rule_set, setup, 20, workers=1)

    monkeypatch.setattr(module, "simulate", quick)
    panel = window.tactical_odds
    panel.battle.combo.setCurrentIndex(panel.battle.combo.findData(MIDWAY))
    panel.runs.setValue(2000)
    panel.run()
    _finished(qtbot, panel)
    assert not panel.rules_note.isHidden()
    assert panel.rules_note.text() == compiled.describe()
    assert "plain rules (SEACONTROL_COMPILE=never)" in panel.rules_note.text()
    (tmp_path / compiled.key()).mkdir()
    (tmp_path / compiled.key() / compiled.DONE).write_text("built")
    panel.run()
    _finished(qtbot, panel)
    assert panel.rules_note.isHidden()  # compiled: nothing to say


def test_the_fight_it_out_tab_starts_compiling_the_rule_sets(
    window: MainWindow, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Previews are about to be run when the tab is first made: the rule sets are compiled
    in the background then (once the panel is on screen), if they are not yet."""
    from campaign.tactical import compiled

    asked: list[bool] = []
    monkeypatch.setattr(compiled, "build_soon", lambda: asked.append(True) or False)
    assert window._tactical_odds is None  # (made when first shown)
    window.tactical_odds  # noqa: B018 (made here)
    qtbot.waitUntil(lambda: asked == [True], timeout=5000)  # type: ignore[attr-defined]
