"""Step 8's question for each naval battle: resolve it on the campaign's damage table, or
fight it out with a tactical rule set — asked with both sides' units, combat values and
the damage table's exact odds in view, so Game Control decides knowing what is at stake."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from campaign.odds import percent
from campaign.operations import BattleChoice
from campaign.tactical import title_of

DAMAGE_TABLE = "On the campaign's damage table"


class BattleChoiceDialog(QDialog):
    """How one battle is resolved: :attr:`rule_set` is None (damage table) or a tactical
    rule set's name once accepted."""

    def __init__(
        self,
        battle: BattleChoice,
        rule_sets: list[str],
        manual_dice: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("battleChoice")
        self.setWindowTitle(f"Naval battle in {battle.area_name}")
        self.rule_sets = rule_sets
        layout = QVBoxLayout(self)
        title = QLabel(f"<h3>Battle in {escape(battle.area_name)}</h3>")
        layout.addWidget(title)
        layout.addWidget(self._sides(battle))
        if battle.preview is not None:
            layout.addWidget(self._odds(battle))
        box = QGroupBox("How is it resolved?")
        choices = QVBoxLayout(box)
        self.group = QButtonGroup(self)
        for i, label in enumerate(
            [DAMAGE_TABLE, *(f"Fight it out — {title_of(r)}" for r in rule_sets)]
        ):
            button = QRadioButton(label.replace("&", "&&"))  # "Ellard & Hammond"
            button.setChecked(i == 0)
            self.group.addButton(button, i)
            choices.addWidget(button)
        if manual_dice:
            note = QLabel(
                "You are typing in the dice: a battle fought out asks for every roll, often "
                "several hundred."
            )
            note.setWordWrap(True)
            choices.addWidget(note)
        layout.addWidget(box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Resolve")
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)

    @property
    def rule_set(self) -> str | None:
        """The tactical rule set chosen, or None for the damage table."""
        index = self.group.checkedId()
        return self.rule_sets[index - 1] if index > 0 else None

    def choose(self, index: int) -> None:
        """Tick choice ``index`` (0: the damage table, then each rule set in order)."""
        button = self.group.button(index)
        if button is not None:
            button.setChecked(True)

    def _sides(self, battle: BattleChoice) -> QWidget:
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        preview = battle.preview
        sides = [(battle.side_a, battle.units_a), (battle.side_b, battle.units_b)]
        combat = [preview.a, preview.b] if preview is not None else [None, None]
        for column, ((name, units), side) in enumerate(zip(sides, combat, strict=True)):
            head = f"<b>{escape(name)}</b>"
            if side is not None:
                head += f"<br>combat value {side.cv}, {side.air_points} Air Point(s)"
                if side.fleet_base:
                    head += f"<br>fleet base in the area: {escape(side.fleet_base)}"
                cards = [
                    words
                    for value, words in (
                        (side.die_bonus, f"die {side.die_bonus:+d}"),
                        (side.column_shift, f"column shift {side.column_shift:+d}"),
                    )
                    if value
                ]
                if cards:
                    head += f"<br>Advantage Cards: {', '.join(cards)}"
            label = QLabel(head)
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
            grid.addWidget(label, 0, column)
            listing = QLabel("<br>".join(escape(u) for u in units[:14]) + _more(units, 14))
            listing.setTextFormat(Qt.TextFormat.RichText)
            listing.setWordWrap(True)
            listing.setAlignment(Qt.AlignmentFlag.AlignTop)
            grid.addWidget(listing, 1, column)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        return box

    def _odds(self, battle: BattleChoice) -> QWidget:
        assert battle.preview is not None
        odds = battle.preview.odds()
        a, b = battle.preview.a.name, battle.preview.b.name
        text = (
            "<b>On the damage table</b> (exact odds): "
            f"{escape(a)} wins {percent(float(odds.p_a_wins)).strip()}, "
            f"{escape(b)} wins {percent(float(odds.p_b_wins)).strip()}; "
            f"mean steps lost: {escape(a)} {odds.b_fire.mean:.1f}, "
            f"{escape(b)} {odds.a_fire.mean:.1f}."
        )
        label = QLabel(text)
        label.setObjectName("battleOdds")
        label.setWordWrap(True)
        return label


def _more(items: list[str], shown: int) -> str:
    return f"<br>… and {len(items) - shown} more" if len(items) > shown else ""
