"""Choosing a battle to fight outside the campaign: a built-in set-up (Midway and the rule
sets' worked examples) or a set-up file, the rule set, and the dice."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from campaign.tactical import BattleSetup, builtin_battles, title_of
from campaign.tactical.simulate import available

#: the dice choices: seeded (reproducible from the seed) or rolled and typed in
SEEDED, TYPED = "seeded", "typed"


class BattleChooser(QWidget):
    """A combo of the built-in battles plus any set-up file opened, with "Open a set-up
    file…". ``setup()`` reads the chosen one (ValueError says what is wrong with a file)."""

    def __init__(self, parent: QWidget | None = None, coming: str = "") -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.combo = QComboBox()
        self.combo.setMinimumContentsLength(28)
        if coming:
            self.combo.addItem(coming, "")
        for name, path in builtin_battles().items():
            self.combo.addItem(_title(path) or name, str(path))
        row.addWidget(self.combo, 1)
        self.open_button = QPushButton("Open a set-up file…")
        self.open_button.clicked.connect(self.open_file)
        row.addWidget(self.open_button)

    def path(self) -> str:
        """The chosen set-up file ("" for the coming campaign battle)."""
        return str(self.combo.currentData() or "")

    def setup(self) -> BattleSetup | None:
        path = self.path()
        return BattleSetup.load(path) if path else None

    def suggest_rules(self, combo: QComboBox) -> None:
        """Set ``combo`` (rule-set names as item data) to the chosen set-up's own rule set,
        where it names one."""
        try:
            setup = self.setup()
        except ValueError:
            return
        if setup is not None and setup.rule_set:
            index = combo.findData(setup.rule_set)
            if index >= 0:
                combo.setCurrentIndex(index)

    def add_file(self, path: str) -> None:
        index = self.combo.findData(path)
        if index < 0:
            self.combo.addItem(_title(Path(path)) or Path(path).name, path)
            index = self.combo.count() - 1
        self.combo.setCurrentIndex(index)

    def open_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Open a battle set-up", "", "Battle set-ups (*.json);;All files (*)"
        )
        if path:
            self.add_file(path)


def _title(path: Path) -> str:
    try:
        return BattleSetup.load(path).title
    except ValueError:
        return ""


class FightDialog(QDialog):
    """Battle, rule set (the set-up's own by default) and dice for a battle fought alone."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Fight a battle")
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Fight a battle out of the campaign: Midway as the carrier rules set it up, "
            "a rule set's worked example, or a set-up file of your own."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.battle = BattleChooser(self)
        form.addRow("Battle", self.battle)
        self.rule_set = QComboBox()
        for name in available():
            self.rule_set.addItem(title_of(name), name)
        form.addRow("Rules", self.rule_set)
        self.dice = QComboBox()
        self.dice.addItem("Seeded dice (the same seed fights the same battle)", SEEDED)
        self.dice.addItem("I roll real dice and type them in", TYPED)
        form.addRow("Dice", self.dice)
        self.seed = QLineEdit("1942")
        form.addRow("Seed", self.seed)
        layout.addLayout(form)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #a33b3b")
        self.problem.setWordWrap(True)
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        if ok is not None:
            ok.setText("Fight")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.battle.combo.currentIndexChanged.connect(
            lambda _i: self.battle.suggest_rules(self.rule_set)
        )
        self.dice.currentIndexChanged.connect(
            lambda _i: self.seed.setEnabled(self.dice.currentData() == SEEDED)
        )
        midway = self.battle.combo.findData(str(builtin_battles().get("midway", "")))
        self.battle.combo.setCurrentIndex(max(0, midway))  # the seed's own built-in battle
        self.battle.suggest_rules(self.rule_set)
        self.chosen: BattleSetup | None = None

    def accept(self) -> None:
        try:
            self.chosen = self.battle.setup()
        except ValueError as exc:
            self.problem.setText(str(exc))
            return
        if self.chosen is None:
            self.problem.setText("Choose a battle.")
            return
        super().accept()
