"""The app and the game file's trust (issue 12): a working copy a live Sea Control holds is
never offered to another, nor discarded by it; a copy left by a program that died is; and
the window shows a bar while the open game's seal was not verified by this machine. (A copy
left by a program that died is offered back: tests/ui/test_app.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from campaign import seal
from campaign.gamefile import GameFileError
from campaign.orders import Orders
from tests.gamefiles import forge, played_game, sql
from ui.mainwindow import MainWindow
from ui.session import GameSession, discard_recovery


def test_a_live_working_copy_is_neither_offered_nor_discarded(qtbot: object) -> None:
    first = GameSession()
    first.new_game()
    assert first.set_orders("usa", Orders("usa", 1)) == []
    working = first.working
    assert working is not None
    second = GameSession()
    assert working not in second.recoverable()
    assert discard_recovery(working) is False and working.exists()
    with pytest.raises(GameFileError, match="open in another Sea Control"):
        second.recover(working)
    first.close()
    assert not working.exists()


def test_a_bar_shows_while_the_seal_is_not_verified(
    window: MainWindow, tmp_path: Path, qtbot: object
) -> None:
    bar = window.seal_bar
    path = played_game(tmp_path / "g.seacontrol", turns=1)
    window.session.open(path)
    assert bar.isHidden()
    sql(path, "UPDATE dice SET value = 7 - value WHERE seq = 1")
    window.session.open(path)
    assert not bar.isHidden() and "changed outside Sea Control" in window.seal_bar.text()
    assert "records were changed in dice" in window.seal_bar.text()
    forge(path, None, key_id="0123456789abcdef")
    window.session.open(path)
    assert not bar.isHidden() and "cannot check it" in window.seal_bar.text()
    window.resize(1366, 768)
    QApplication.processEvents()
    assert bar.height() >= bar.heightForWidth(bar.width()) > 0  # every line of it shows
    window.grab().save(str(tmp_path / "seal-bar.png"))
    window.session.new_game()
    assert bar.isHidden()


def test_an_altered_game_played_on_logs_it_for_every_team(
    window: MainWindow, tmp_path: Path
) -> None:
    path = played_game(tmp_path / "g.seacontrol", turns=1)
    sql(path, "UPDATE events SET visible = '' WHERE visible <> ''")
    window.session.open(path)
    assert window.session.seal_found is not None and window.session.seal_found.altered
    assert window.session.set_orders("blue", Orders("blue", 2)) == []
    texts = [e.text for e in window.session.events("red") if e.kind == "file_altered"]
    assert texts and "records were changed in events" in texts[0]
    window.session.save_as(tmp_path / "kept.seacontrol")
    from campaign.gamefile import GameFile

    with GameFile.open(tmp_path / "kept.seacontrol") as g:
        assert g.integrity.status == seal.SEALED
