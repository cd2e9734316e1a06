"""Solo play in the app (issue 9): a new solo game, the computer's seats, Suggest orders,
the Score tab."""

from __future__ import annotations

from typing import Any

from ui.solo import Solo


def solo(window: Any) -> Solo:
    assert isinstance(window.solo, Solo)
    return window.solo


def test_a_new_solo_game_has_the_computer_give_the_enemy_s_orders(window: Any) -> None:
    s = solo(window)
    s.start_solo_game("allies", "novice")
    stored = window.session.all_orders()
    board = window.session.board()
    computer = {n for n in board.teams() if board.side(n) != "allies"}
    assert set(stored) == computer
    assert s.seats() == dict.fromkeys(sorted(computer), "novice")
    assert window.report.viewer == "usa"
    assert window.orders.current_nation == "usa"
    assert "Solo score" in s.score.toPlainText()
    assert "The computer plays" in s.score.toPlainText()


def test_the_computer_gives_its_orders_again_when_the_turn_begins(window: Any) -> None:
    s = solo(window)
    s.start_solo_game("axis", "novice")
    window.session.resolve(to_step=10)
    assert window.session.state.turn == 2
    stored = window.session.all_orders()
    assert set(stored) == set(s.seats())
    text = s.score.toPlainText()
    assert "turn 1" in text and "Axis:" in text and "Allies:" not in text


def test_suggest_orders_fills_the_panel_for_editing_and_undo_takes_it_back(
    window: Any,
) -> None:
    editor = window.orders
    editor.nation.setCurrentIndex(editor.nation.findData("uk"))
    solo(window).suggest()
    draft = editor.draft("uk")
    assert draft.escorts and draft.reasons
    assert window.session.orders("uk") == draft  # it passes the rules, so it is stored
    window.undo.undo()
    assert not editor.draft("uk").escorts


def test_computer_plays_can_be_chosen_per_nation(window: Any) -> None:
    s = solo(window)
    s.set_seats({"japan": "captain"})
    s.give_orders()
    assert set(window.session.all_orders()) == {"japan"}
    s.set_seats({"japan": "captain", "atlantis": "admiral", "uk": "grandmaster"})
    assert s.seats() == {"japan": "captain"}  # unknown nations and levels are ignored


def test_the_computer_commands_the_atlantic_escorts_of_the_person_s_nation(
    window: Any,
) -> None:
    from campaign.opponent import Scope
    from ui.solo import theatre_areas

    areas = theatre_areas(window.session.scenario.world, "Atlantic")
    assert "north_atlantic" in areas and "coral_sea" not in areas
    editor = window.orders
    editor.nation.setCurrentIndex(editor.nation.findData("uk"))
    solo(window).hand("uk", Scope(areas=areas, parts=frozenset({"escorts"}), name="x"))
    draft = editor.draft("uk")
    assert draft.escorts and not draft.task_forces and not draft.raids
    board = window.session.board()
    for e in draft.escorts:
        for u in e.units:
            assert board.area_of(board.state.units[u].base) in areas
    assert window.undo.undoText() == "Computer commands x"


def test_forces_handed_over_every_turn_are_commanded_again_next_turn(window: Any) -> None:
    from ui.solo import theatre_areas

    s = solo(window)
    s.set_standing({"uk": {"theatre": "Atlantic", "parts": ["escorts"], "level": "captain"}})
    window.session.resolve(to_step=10)
    assert window.session.state.turn == 2
    uk = window.session.orders("uk")
    assert uk is not None and uk.escorts and not uk.task_forces
    areas = theatre_areas(window.session.scenario.world, "Atlantic")
    board = window.session.orders_board()  # ships commissioned this turn are there
    for e in uk.escorts:
        for u in e.units:
            assert board.area_of(board.state.units[u].base) in areas
    assert "commands escorts of merchant routes in the Atlantic" in s.score.toPlainText()
    window.orders.nation.setCurrentIndex(window.orders.nation.findData("uk"))
    s.take_back()
    assert s.standing() == {}
