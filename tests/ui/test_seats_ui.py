"""*Game → Open team seats…* and *Game → Phase clock…*: the seats served from the app's own
game, a team's submission showing up in the app, Control's lock and reissue; the clock
window's alerts and buttons."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlencode, urlsplit

from PySide6.QtWidgets import QPushButton

from campaign import clock, seats
from ui.clockwindow import ClockWindow


def _submit(url: str, code: str, orders: dict[str, Any]) -> dict[str, Any]:
    """A team's browser: join with ``code`` and submit ``orders``."""
    where = urlsplit(url)
    conn = http.client.HTTPConnection(where.hostname or "", where.port, timeout=60)
    try:
        form = {"content-type": "application/x-www-form-urlencoded"}
        conn.request("POST", "/join", urlencode({"code": code}), form)
        joined = conn.getresponse()
        joined.read()
        cookie = (joined.getheader("set-cookie") or "").split(";")[0]
        conn.request("GET", "/api/session", headers={"cookie": cookie})
        token = json.loads(conn.getresponse().read())["csrf"]
        headers = {"cookie": cookie, "x-seat-token": token}
        conn.request("POST", "/api/orders", json.dumps(orders), headers)
        return dict(json.loads(conn.getresponse().read()))
    finally:
        conn.close()


def _one_unit_orders(window: Any, nation: str, name: str) -> dict[str, Any]:
    board = window.session.orders_board()
    unit = next(
        u
        for u in sorted(board.state.units.values(), key=lambda u: u.id)
        if u.nation == nation and u.state == "ready" and board.is_fleet_base(u.base)
    )
    tf = {"id": "seat", "name": name, "base": unit.base, "units": [unit.id], "stance": "stay"}
    return {"nation": nation, "task_forces": [tf]}


def test_a_teams_submission_reaches_the_apps_game_and_control_can_lock(
    window: Any, qtbot: Any
) -> None:
    window.open_seats()
    dialog = window.seats_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.table.rowCount() == 9 and not dialog.watch.running
    dialog.watch.start("127.0.0.1", 0)  # any free port (the window's own choice is 8765)
    try:
        assert dialog.address.text().startswith("http://127.0.0.1:")
        game = window.session.require().game
        code = seats.seat_codes(game, ["japan"])["japan"]
        assert any(dialog.table.item(r, 1).text() == code for r in range(dialog.table.rowCount()))
        arrived: list[list[str]] = []
        window.session.ordersArrived.connect(arrived.append)
        window.orders.nation.setCurrentIndex(window.orders.nation.findData("japan"))
        answer = _submit(dialog.watch.base, code, _one_unit_orders(window, "japan", "Seat TF"))
        assert answer["stored"], answer
        qtbot.waitUntil(lambda: arrived == [["japan"]], timeout=20_000)
        assert window.session.orders("japan").task_forces[0].name == "Seat TF"
        assert window.orders.draft("japan").task_forces[0].name == "Seat TF"
        assert window.session.dirty  # the working copy holds orders the file has not
        assert dialog.status.text() == "Orders arrived from their seats: Japan."
        row = next(
            r for r in range(dialog.table.rowCount()) if dialog.table.item(r, 1).text() == code
        )
        qtbot.waitUntil(lambda: dialog.table.item(row, 3).text() == "1", timeout=20_000)

        dialog.lock_button.click()
        assert "Locked at" in dialog.lock_label.text()
        late = _submit(dialog.watch.base, code, _one_unit_orders(window, "japan", "Too late"))
        assert not late["accepted"] and "locked" in late["problems"][0]["message"]
        dialog.lock_button.click()
        assert dialog.lock_label.text() == "Open to the teams"

        dialog.table.selectRow(row)
        dialog.reissue_button.click()
        assert dialog.table.item(row, 1).text() != code
        where = urlsplit(dialog.watch.base)
        conn = http.client.HTTPConnection(where.hostname or "", where.port, timeout=60)
        form = {"content-type": "application/x-www-form-urlencoded"}
        conn.request("POST", "/join", urlencode({"code": code}), form)
        assert conn.getresponse().status == 401  # the old code opens nothing
        conn.close()
    finally:
        window.session.close()  # closing the game closes its seats
    assert not dialog.watch.running


def test_the_seats_window_says_when_the_port_is_taken(window: Any) -> None:
    import socket

    from PySide6.QtCore import QSettings

    QSettings().setValue("seats/port", "junk")  # a settings file edited by hand

    window.open_seats()
    dialog = window.seats_dialog
    assert dialog.port.value() == 8765
    with socket.create_server(("127.0.0.1", 0)) as taken:
        dialog.port.setValue(taken.getsockname()[1])
        dialog.toggle()
    assert "cannot listen" in dialog.status.text() and not dialog.watch.running


def test_the_clock_window_alerts_at_two_minutes_and_at_time_up(window: Any, qtbot: Any) -> None:
    moment = [1_000_000.0]
    beeps: list[int] = []
    clocks = ClockWindow(window.session, now=lambda: moment[0], beep=lambda: beeps.append(1))
    qtbot.addWidget(clocks)
    clocks.show()
    game = window.session.require().game
    clock.change(game, lambda _c: clock.set_phases([clock.Phase("Orders", 300)]))
    clocks.tick()
    assert clocks.figures.text() == "05:00" and "paused" in clocks.next.text()
    clocks.start_button.click()
    assert clock.load(game).running
    moment[0] += 179
    clocks.tick()
    assert clocks.alerts == [] and clocks.figures.text() == "02:01"
    moment[0] += 2
    clocks.tick()
    assert clocks.alerts == [120] and beeps == [1] and clocks.flashing
    clocks.grab().save("/tmp/seats-clock-flash.png")
    moment[0] += 60
    clocks.tick()
    assert clocks.alerts == [120]  # once each
    moment[0] += 60
    clocks.tick()
    assert clocks.alerts == [120, 0] and len(beeps) == 2
    assert clocks.figures.text() == "+00:01"
    qtbot.waitUntil(lambda: not clocks.flashing, timeout=10_000)
    plus = next(b for b in clocks.findChildren(QPushButton) if b.text() == "+ 1 min")
    plus.click()  # time given back: no alert for it
    assert clocks.figures.text() == "00:59" and clocks.alerts == [120, 0]
    clocks.buttons["skip"].click()
    assert clocks.phase.text() == "Orders" and "round 2" in clocks.next.text()
    clocks.start_button.click()
    assert not clock.load(game).running
