"""The battle window: ship cards, the log, a turn at a time or to the end."""

from __future__ import annotations

from campaign.dice import SeededDice
from campaign.tactical import RULE_SETS, BattleSetup, builtin_battles
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
        window.tables[i].item(r, 1).text().split()[0]
        for i in (0, 1)
        for r in range(window.tables[i].rowCount())
    }
    assert states <= {"undamaged", "damaged", "crippled", "sunk"} and states != {"undamaged"}


def test_phases_turn_headings_and_what_the_battle_means_for_the_campaign(qtbot: object) -> None:
    from campaign.state import Unit
    from campaign.tactical.outcome import campaign_winner, step_losses, unit_rosters

    available()
    setup = BattleSetup.load("data/battles/midway.json")
    units = {
        "a": [
            Unit("jpn_cv_akagi_kaga", "japan", "fleet_carrier", "Akagi & Kaga", "truk"),
            Unit("jpn_cv_hiryu_soryu", "japan", "fleet_carrier", "Hiryu & Soryu", "truk"),
        ],
        "b": [
            Unit("usa_cv_enterprise_yorktown", "usa", "fleet_carrier", "Enterprise & Yorktown", ""),
            Unit("usa_cv_wasp_hornet", "usa", "fleet_carrier", "Wasp & Hornet", ""),
        ],
    }
    battle = RULE_SETS["carrier"](setup, SeededDice(11))
    window = BattleWindow(battle, setup, units=units)
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    assert "1-2 Land Planes" in window.phases.text()
    assert "13-14 Repair Damage" in window.phases.text()
    window.next_button.click()
    assert "Tactical turn 1" in window.log.toPlainText()
    assert window.outcome.text() == ""  # nothing to apply until the battle is over
    window.end_button.click()
    text = window.outcome.text()
    losses = step_losses(battle.result(), units["a"] + units["b"], unit_rosters(setup))
    for loss in losses:  # every unit, with the steps step 8 will apply
        name = next(u.name for u in units["a"] + units["b"] if u.id == loss.unit)
        steps = f"{loss.steps} step" if loss.steps else "no step"
        assert f"{name.replace('&', '&amp;')}: {steps}" in text
    winner = campaign_winner(units["a"], units["b"], losses)
    assert f"Winner: <b>{(setup.a if winner == 'a' else setup.b).name}</b>" in text


def test_every_rule_set_says_what_a_tactical_turn_plays() -> None:
    for name in available():
        phases = RULE_SETS[name](BattleSetup.load(EXAMPLES[name]), SeededDice(1)).phases
        assert phases and all(isinstance(p, str) and p for p in phases), name


#: rule set → its built-in example set-up
EXAMPLES = {BattleSetup.load(p).rule_set: p for p in builtin_battles().values()}


def test_a_whole_battle_of_every_rule_set_plays_in_the_window(qtbot: object) -> None:
    for name in available():
        setup = BattleSetup.load(EXAMPLES[name])
        battle = RULE_SETS[name](setup, SeededDice(2))
        window = BattleWindow(battle, setup)
        qtbot.addWidget(window)  # type: ignore[attr-defined]
        window.end_button.click()
        assert battle.finished, name
        assert "Tactical turn 1" in window.log.toPlainText(), name
        assert window.close_button.text() == "Close", name  # a battle of its own
        shown = window.tables[0].rowCount() + window.tables[1].rowCount()
        assert shown == len(setup.a.ships) + len(setup.b.ships), name


def test_conditions_the_rules_do_not_read_are_shown(qtbot: object) -> None:
    setup = BattleSetup.load(EXAMPLES["carrier"])
    setup.conditions["turn_limt"] = 5  # misspelt
    battle = RULE_SETS["carrier"](setup, SeededDice(1))
    window = BattleWindow(battle, setup)
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    assert "do not read the set-up's turn_limt" in window.phases.text()
