"""The battle window: ship cards, the log, a turn at a time or to the end."""

from __future__ import annotations

from campaign.dice import SeededDice
from campaign.tactical import RULE_SETS, BattleSetup
from campaign.tactical.simulate import available
from ui.battle import BattleWindow


def test_step_through_midway_then_fight_to_the_end(qtbot: object) -> None:
    available()
    setup = BattleSetup.load("data/battles/midway.json")
    battle = RULE_SETS["carrier"](setup, SeededDice(5))
    window = BattleWindow(battle, setup)
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    assert window.tables[0].rowCount() == 4 and window.tables[1].rowCount() == 3
    assert window.tables[0].item(0, 0).text() == "Akagi"
    window.next_button.click()
    assert window.turns == 1 and window.log.toPlainText()
    window.end_button.click()
    assert battle.finished and not window.next_button.isEnabled()
    assert "the battle is over" in window.heading.text()
    states = {
        window.tables[i].item(r, 5).text().split()[0]
        for i in (0, 1)
        for r in range(window.tables[i].rowCount())
    }
    assert states <= {"undamaged", "damaged", "crippled", "sunk"} and states != {"undamaged"}
