"""Odds of a coming battle fought out with a tactical rule set: many seeded runs, each
figure with its standard error, a progress bar, and the first figures after a few dozen
battles."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QApplication,
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

from campaign.tactical import BattleSetup
from campaign.tactical.simulate import TacticalOdds, available, simulate


class TacticalOddsPanel(QWidget):
    """``source()`` gives the coming battle's set-up (None: no battle is coming)."""

    def __init__(
        self, source: Callable[[str], BattleSetup | None], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.source = source
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("Fight it out with"))
        self.rule_set = QComboBox()
        for name in available():
            self.rule_set.addItem(name, name)
        row.addWidget(self.rule_set)
        self.runs = QSpinBox()
        self.runs.setRange(50, 20000)
        self.runs.setValue(1000)
        self.runs.setSingleStep(500)
        self.runs.setSuffix(" battles")
        row.addWidget(self.runs)
        self.go = QPushButton("Run")
        row.addWidget(self.go)
        row.addStretch(1)
        layout.addLayout(row)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        layout.addWidget(self.progress)
        self.table = QTextBrowser()
        layout.addWidget(self.table, 1)
        self.go.clicked.connect(self.run)
        self.odds: TacticalOdds | None = None

    def run(self) -> None:
        name = str(self.rule_set.currentData() or "")
        try:
            setup = self.source(name)
        except ValueError as exc:
            self.table.setHtml(f"<p>This battle cannot be fought out: {exc}</p>")
            return
        if setup is None:
            self.table.setHtml("<p>No battle is coming in step 8 with the orders given.</p>")
            return
        runs = self.runs.value()
        self.progress.setRange(0, runs)
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.go.setEnabled(False)

        def show(odds: TacticalOdds) -> None:
            self.progress.setValue(odds.runs)
            self.show_odds(odds)
            QApplication.processEvents()

        try:
            self.odds = simulate(name, setup, runs, seed="preview", on_progress=show, every=50)
        finally:
            self.go.setEnabled(True)
            self.progress.setVisible(False)

    def show_odds(self, odds: TacticalOdds) -> None:
        rows = []
        for sid, name in odds.names.items():
            p, se = odds.p(odds.sunk[sid])
            ph, seh = odds.p(odds.hit[sid])
            side = odds.side_names.get(odds.sides[sid], "")
            rows.append(
                f"<tr><td>{name}</td><td>{side}</td><td align=right>{p:.1%} "
                f"± {se:.1%}</td><td align=right>{ph:.1%} ± {seh:.1%}</td></tr>"
            )
        wins = " · ".join(
            f"{odds.side_names.get(k, 'no decision') if k else 'no decision'}: "
            f"{odds.p(v)[0]:.1%} ± {odds.p(v)[1]:.1%}"
            for k, v in sorted(odds.winners.items())
        )
        self.table.setHtml(
            f"<p><b>{odds.runs} battles</b> ({odds.rule_set} rules). Wins — {wins}</p>"
            "<table cellpadding=3><tr><th align=left>Ship</th><th align=left>Side</th>"
            "<th>Sunk</th><th>Damaged or worse</th></tr>" + "".join(rows) + "</table>"
        )
