"""The team seats' web server (campaign/seatserver.py): who may see what, orders stored as
they arrive with the app's own checks, Control's lock and the record of submissions, the
limits, and the game file shared with another program."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from campaign import paths, seatforms, seats
from campaign.engine import Campaign
from campaign.gamefile import GameFile, opened
from campaign.orders import OrdersError, load_orders
from campaign.scenario import load_scenario
from campaign.seatserver import COOKIE, SeatApp, SeatDesk, SeatLimits

SAMPLES = paths.scenario_dir("1942") / "sample-orders"
#: the canaries written below, exactly (not any word that starts "qzx": a random token on a
#: page, a session code, can)
CANARY = re.compile(r"(?:qzxnotes|Qzxtf|Qzxnext)_[a-z_]+\d*")
NOW = 1_780_000_000.0  # a fixed moment for the desk's clock


def _canaried_orders(nation: str) -> dict[str, Any]:
    """The nation's sample orders with a canary in every name and note it wrote."""
    data = json.loads((SAMPLES / f"{nation}.json").read_text(encoding="utf-8"))
    data["notes"] = f"qzxnotes_{nation}"
    for i, tf in enumerate(data.get("task_forces", [])):
        tf["name"] = f"Qzxtf_{nation}{i}"
    return data


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 1942 game after its first turn (played with canaried sample orders), each team
    with orders for turn 2 carrying a canary of its own; seat codes made."""
    path = tmp_path_factory.mktemp("seats") / "war.seacontrol"
    GameFile.create(path, load_scenario(paths.scenario_dir("1942"))).close()
    with Campaign.open(path) as c:
        teams = c.board().teams()
        for n in teams:
            c.set_orders(n, load_orders(json.dumps(_canaried_orders(n)), n))
        c.resolve(seed=1942)
        board = c.orders_board()
        for n in teams:
            unit = next(
                u
                for u in sorted(board.state.units.values(), key=lambda u: u.id)
                if u.nation == n and u.state == "ready" and board.is_fleet_base(u.base)
            )
            tf = {"id": "next", "name": f"Qzxnext_{n}", "base": unit.base, "units": [unit.id]}
            tf["stance"] = "stay"
            c.set_orders(n, load_orders(json.dumps({"nation": n, "task_forces": [tf]}), n))
        seats.seat_codes(c.game, teams)
    return path


def named(game: Path, nation: str, name: str) -> str:
    """The nation's stored orders for turn 2 with its task force renamed ``name``."""
    with opened(game) as g:
        data = json.loads(g.orders(2)[nation])
    data["task_forces"][0]["name"] = name
    return json.dumps(data)


def stored_name(game: Path, nation: str) -> str:
    with opened(game) as g:
        return str(json.loads(g.orders(2)[nation])["task_forces"][0]["name"])


@pytest.fixture
def game(played: Path, tmp_path: Path) -> Path:
    target = tmp_path / "war.seacontrol"
    shutil.copy(played, target)
    return target


@pytest.fixture
def desk(game: Path) -> Iterator[SeatDesk]:
    d = SeatDesk(game, now=lambda: NOW)
    yield d
    d.close()


def _codes(path: Path) -> dict[str, str]:
    with opened(path) as g:
        return seats.stored_codes(g)


def client_for(app: SeatApp) -> TestClient:
    return TestClient(app.asgi, base_url="http://seats.test", follow_redirects=False)


def joined(app: SeatApp, code: str) -> tuple[TestClient, str]:
    """A client joined with ``code``, and its form token."""
    client = client_for(app)
    response = client.post("/join", data={"code": code})
    assert response.status_code == 303 and response.headers["location"] == "/team"
    return client, client.get("/api/session").json()["csrf"]


def _team_routes(app: SeatApp) -> list[tuple[str, str]]:
    """Every (method, path) the server answers."""
    out = []
    for route in app.routes:
        assert isinstance(route, Route)
        for method in sorted(route.methods or ()):
            if method != "HEAD":
                out.append((method, route.path))
    return out


def _ask(client: TestClient, method: str, path: str, csrf: str, other: str) -> str:
    """Ask ``path`` as a team would, naming another team wherever a request could."""
    query = {"nation": other, "team": other, "turn": "1", "code": other}
    if method == "GET":
        response = client.get(path, params=query)
    elif path == "/api/orders":
        body = json.dumps(_canaried_orders(other))
        response = client.post(
            path, params={**query, "check": "1"}, content=body, headers={"x-seat-token": csrf}
        )
    elif path == "/team/orders":
        body = json.dumps({"nation": other})
        response = client.post(
            path, params=query, data={"csrf": csrf, "orders": body, "action": "check"}
        )
    elif path == "/team/orders/build":
        form = {"csrf": csrf, "action": "tf_add", "name": other, "base": other, "units": other}
        response = client.post(path, params=query, data={**form, "nation": other})
        assert response.status_code == 422, response.text
    elif path == "/leave":
        return ""  # asked last, by the caller
    else:
        response = client.post(path, params=query, data={"code": "", "nation": other})
    return response.text


def test_no_team_learns_another_teams_secrets_from_any_address(game: Path, desk: SeatDesk) -> None:
    """Every endpoint, asked with every team's code (naming every other team in the
    request), shows nothing of another team but what that team's own view and report
    show: no other team's code, orders or notes; every canary a page carries is one the
    team's TeamView or report (``report --nation``) carries too."""
    app = SeatApp(desk)
    codes = _codes(game)
    routes = _team_routes(app)
    assert len(routes) >= 15
    with Campaign.open(game) as c:
        allowed = {
            n: set(CANARY.findall(c.team_view(n).to_json() + c.report(n) + c.report(n, 2)))
            for n in codes
        }
    for nation, code in codes.items():
        client, csrf = joined(app, code)
        others = [n for n in codes if n != nation]
        texts = [_ask(client, m, p, csrf, other) for m, p in routes for other in others[:2]]
        texts += [_ask(client, m, p, csrf, others[-1]) for m, p in routes]
        seen = "\n".join(texts)
        assert f"Qzxnext_{nation}" in seen  # the team's own pages were served
        for other in others:
            assert codes[other] not in seen, (nation, other)
            assert f"qzxnext_{other}" not in seen.lower(), (nation, other)
        assert set(CANARY.findall(seen)) <= allowed[nation] | {f"Qzxnext_{nation}"}, nation


def test_nothing_but_the_join_page_and_static_files_without_a_code(
    game: Path, desk: SeatDesk
) -> None:
    app = SeatApp(desk)
    names = [str(r["name"]) for r in desk.c.scenario.rows("nations")]
    for forged in ("", "x" * 43, "not-a-session"):
        client = client_for(app)
        if forged:
            client.cookies.set(COOKIE, forged)
        for method, path in _team_routes(app):
            response = client.request(method, path, data={"code": "", "csrf": ""})
            if path in app.public_paths:
                assert response.status_code in (200, 401), path
                continue
            assert response.status_code in (303, 401), (method, path)
            if response.status_code == 303:
                assert response.headers["location"] in ("/", "/?ended=1")
            assert not any(name in response.text for name in names), path
    assert client_for(app).get("/static/seats.css").status_code == 200


def test_a_wrong_code_opens_nothing_and_an_address_is_slowed_after_ten(
    game: Path, desk: SeatDesk
) -> None:
    moment = [0.0]
    app = SeatApp(desk, monotonic=lambda: moment[0])
    client = client_for(app)
    codes = _codes(game)
    real = next(iter(codes.values()))
    wrong = real[:-1] + ("A" if real[-1] != "A" else "B")
    for _ in range(10):
        response = client.post("/join", data={"code": wrong})
        assert response.status_code == 401 and "opens no seat" in response.text
    refused = client.post("/join", data={"code": real})  # even the right code must wait
    assert refused.status_code == 429 and "wait a minute" in refused.text
    assert int(refused.headers["retry-after"]) >= 1
    moment[0] += 60
    assert client.post("/join", data={"code": real}).status_code == 303


def test_codes_are_read_whatever_the_case_and_dashes(game: Path, desk: SeatDesk) -> None:
    app = SeatApp(desk)
    nation, code = next(iter(_codes(game).items()))
    client, _ = joined(app, code.lower().replace("-", " "))
    assert client.get("/api/session").json()["nation"] == nation


def test_a_reissued_code_closes_the_old_sessions_at_once(game: Path, desk: SeatDesk) -> None:
    app = SeatApp(desk)
    codes = _codes(game)
    client, _ = joined(app, codes["japan"])
    other, _ = joined(app, codes["usa"])
    assert client.get("/api/view").status_code == 200
    with opened(game) as g:  # Control, from another program
        new = seats.reissue(g, "japan")
    assert client.get("/api/view").status_code == 401
    page = client.get("/team/orders")
    assert page.status_code == 303 and page.headers["location"] == "/?ended=1"
    assert client_for(app).post("/join", data={"code": codes["japan"]}).status_code == 401
    assert other.get("/api/view").status_code == 200  # another team keeps its seat
    again, _ = joined(app, new)
    assert again.get("/api/session").json()["nation"] == "japan"


def test_orders_submitted_are_stored_at_once_with_who_and_when(game: Path, desk: SeatDesk) -> None:
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["japan"])
    body = named(game, "japan", "Changed at the table")
    response = client.post("/api/orders", content=body, headers={"x-seat-token": csrf})
    assert response.status_code == 200
    data = response.json()
    assert data["accepted"] and data["stored"]
    assert data["orders"]["task_forces"][0]["name"] == "Changed at the table"
    assert data["submission"]["count"] == 1 and data["submission"]["turn"] == 2
    assert stored_name(game, "japan") == "Changed at the table"  # another connection sees it
    with opened(game) as g:
        sent = seats.submissions(g, 2)
    assert set(sent) == {"japan"} and sent["japan"].count == 1
    assert sent["japan"].last.startswith("2026-05-28T")  # the desk's clock (NOW)
    again = named(game, "japan", "Changed again")
    form = client.post("/team/orders", data={"csrf": csrf, "orders": again, "action": "submit"})
    assert form.status_code == 200 and "submitted and stored" in form.text
    assert stored_name(game, "japan") == "Changed again"
    with opened(game) as g:
        assert seats.submissions(g, 2)["japan"].count == 2


def test_refused_orders_carry_the_clis_own_messages_and_store_nothing(
    game: Path, desk: SeatDesk
) -> None:
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["japan"])
    bad = {
        "nation": "japan",
        "task_forces": [{"id": "tf1", "name": "X", "base": "truk", "units": ["usa_cv_enterprise"]}],
        "transfers": [{"unit": "nowhere_unit", "to": "truk"}],
    }
    body = json.dumps(bad)
    with Campaign.open(game) as c, pytest.raises(OrdersError) as refused:
        c.set_orders("japan", load_orders(body, "japan"))
    expected = [str(p) for p in refused.value.problems]
    assert len(expected) >= 2
    response = client.post("/api/orders", content=body, headers={"x-seat-token": csrf})
    assert response.status_code == 422
    assert [p["text"] for p in response.json()["problems"]] == expected
    page = client.post("/team/orders", data={"csrf": csrf, "orders": body, "action": "submit"})
    assert page.status_code == 422
    for p in refused.value.problems:
        assert p.message.replace("'", "&#x27;") in page.text
    assert stored_name(game, "japan") == "Qzxnext_japan"
    with opened(game) as g:
        assert seats.submissions(g, 2) == {}


def test_checking_stores_nothing(game: Path, desk: SeatDesk) -> None:
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["japan"])
    body = named(game, "japan", "Just looking")
    data = client.post("/api/orders?check=1", content=body, headers={"x-seat-token": csrf}).json()
    assert data["accepted"] and not data["stored"]
    page = client.post("/team/orders", data={"csrf": csrf, "orders": body, "action": "check"})
    assert "valid (not submitted yet)" in page.text
    assert stored_name(game, "japan") == "Qzxnext_japan"
    with opened(game) as g:
        assert seats.submissions(g, 2) == {}


def test_locked_orders_are_refused_with_the_time_of_the_lock(game: Path, desk: SeatDesk) -> None:
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["uk"])
    with opened(game) as g:
        seats.set_lock(g, 2, True)
        at = seats.lock_of(g, 2)
    assert at is not None
    body = named(game, "uk", "Too late")
    data = client.post("/api/orders", content=body, headers={"x-seat-token": csrf}).json()
    assert not data["accepted"]
    assert data["problems"][0]["message"].startswith(
        f"Game Control locked turn 2's orders at {at.at}"
    )
    assert "id='locked'" in client.get("/team/orders").text
    with opened(game) as g:
        seats.set_lock(g, 2, False)
    data = client.post("/api/orders", content=body, headers={"x-seat-token": csrf}).json()
    assert data["stored"]


def test_a_lock_holds_its_own_turn_only(game: Path) -> None:
    with opened(game) as g:
        seats.set_lock(g, 1, True)
        assert seats.lock_of(g, 2) is None and seats.lock_of(g, 1) is not None


def test_forms_without_the_sessions_token_or_from_another_site_are_refused(
    game: Path, desk: SeatDesk
) -> None:
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["japan"])
    body = named(game, "japan", "Forged")
    assert client.post("/api/orders", content=body).status_code == 403
    assert (
        client.post("/api/orders", content=body, headers={"x-seat-token": "x"}).status_code == 403
    )
    form = {"csrf": "wrong", "orders": body, "action": "submit"}
    assert client.post("/team/orders", data=form).status_code == 403
    elsewhere = {"x-seat-token": csrf, "origin": "http://evil.example"}
    assert client.post("/api/orders", content=body, headers=elsewhere).status_code == 403
    with opened(game) as g:
        assert seats.submissions(g, 2) == {}


def test_request_bodies_are_bounded(game: Path, desk: SeatDesk) -> None:
    limits = SeatLimits(orders_json=2000, orders_form=3000, small_body=100, builder_form=500)
    app = SeatApp(desk, limits)
    client, csrf = joined(app, _codes(game)["japan"])
    big = json.dumps({"nation": "japan", "notes": "x" * 2500})
    response = client.post("/api/orders", content=big, headers={"x-seat-token": csrf})
    assert response.status_code == 413
    form = client.post("/team/orders", data={"csrf": csrf, "orders": "y" * 4000})
    assert form.status_code == 413
    assert client_for(app).post("/join", data={"code": "z" * 500}).status_code == 413
    built = {"csrf": csrf, "action": "tf_add", "name": "n" * 600}
    assert client.post("/team/orders/build", data=built).status_code == 413


def test_each_client_is_held_to_its_rate(game: Path, desk: SeatDesk) -> None:
    moment = [0.0]
    app = SeatApp(desk, SeatLimits(rate=1.0, burst=5), monotonic=lambda: moment[0])
    client, _ = joined(app, _codes(game)["japan"])  # its first request: /api/session
    answers = [client.get("/api/clock").status_code for _ in range(5)]
    assert answers == [200] * 4 + [429]
    other, _ = joined(app, _codes(game)["usa"])  # another client keeps its own
    assert other.get("/api/clock").status_code == 200
    moment[0] += 1.0
    assert client.get("/api/clock").status_code == 200


def test_sessions_are_bounded_per_team_and_in_all(game: Path, desk: SeatDesk) -> None:
    app = SeatApp(desk, SeatLimits(sessions=6, sessions_per_team=3))
    codes = _codes(game)
    first, _ = joined(app, codes["japan"])
    for _ in range(3):
        joined(app, codes["japan"])
    assert first.get("/api/view").status_code == 401  # the oldest of four went
    for n in ("usa", "uk", "germany"):
        joined(app, codes[n])
    assert len(app.sessions) == 6


def test_a_submission_waits_for_another_program_writing_the_file(
    game: Path, desk: SeatDesk
) -> None:
    """The desktop app (another connection) holds the write lock for a moment: the seat's
    submission waits for it, then is stored."""
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["japan"])
    other = sqlite3.connect(game, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.5, lambda: other.execute("COMMIT"))
    release.start()
    body = named(game, "japan", "After the app")
    data = client.post("/api/orders", content=body, headers={"x-seat-token": csrf}).json()
    release.join()
    other.close()
    assert data["stored"]


def test_a_file_held_too_long_is_answered_busy_and_nothing_is_stored(
    game: Path, desk: SeatDesk, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seats, "BUSY_TIMEOUT_MS", 50)
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["japan"])
    other = sqlite3.connect(game, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        body = named(game, "japan", "Blocked")
        response = client.post("/api/orders", content=body, headers={"x-seat-token": csrf})
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert response.status_code == 503 and "nothing was stored" in response.text
    with opened(game) as g:
        assert seats.submissions(g, 2) == {}


def test_a_teams_pages_show_its_view(game: Path, desk: SeatDesk) -> None:
    app = SeatApp(desk)
    client, _ = joined(app, _codes(game)["japan"])
    view = desk.run(lambda: desk.view("japan"))
    assert client.get("/api/view").json() == json.loads(view.to_json())
    chart = client.get("/team").text
    assert "<svg" in chart and chart.count("class='sea") >= 100
    units = client.get("/team/units").text
    assert all(u.id in units for u in view.units)
    report = client.get("/api/report").json()
    assert report["text"] == desk.run(lambda: desk.c.report("japan")) and report["turn"] == 1
    assert "Dice log" in client.get("/team/report?turn=1").text
    headers = client.get("/team").headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["cache-control"] == "no-store"


def test_leaving_ends_the_session(game: Path, desk: SeatDesk) -> None:
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["japan"])
    assert client.post("/leave", data={"csrf": csrf}).status_code == 303
    assert client.get("/api/view").status_code == 401


# -- the order builder ----------------------------------------------------------------------------
def _free_unit(desk: SeatDesk, nation: str) -> tuple[str, str]:
    """A ready unit of ``nation`` at one of its fleet bases not yet in its orders: (unit, base)."""
    view = desk.run(lambda: desk.view(nation))
    bases = seatforms.fleet_bases(view)
    used = seatforms.in_orders(desk.run(lambda: desk.draft(nation)))
    unit = next(
        u for u in view.units if u.base in bases and u.state == "ready" and u.id not in used
    )
    return unit.id, unit.base


def stored(game: Path, nation: str) -> dict[str, Any]:
    with opened(game) as g:
        return dict(json.loads(g.orders(2)[nation]))


def build(client: TestClient, csrf: str, **fields: Any) -> Any:
    return client.post("/team/orders/build", data={"csrf": csrf, **fields})


def test_a_team_forms_a_task_force_and_sends_it_on_sea_control_without_json(
    game: Path, desk: SeatDesk
) -> None:
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["japan"])
    page = client.get("/team/orders").text
    assert "id='builder'" in page and "id='tf_add'" in page and "id='orders'" in page
    unit, base = _free_unit(desk, "japan")
    formed = build(
        client,
        csrf,
        action="tf_add",
        name="Built Force",
        base=base,
        units=[unit],
        lsp="1",
        stance="intervene",
    )
    assert formed.status_code == 303
    assert formed.headers["location"] == "/team/orders?done=tf_add#result"
    tf = next(t for t in stored(game, "japan")["task_forces"] if t["name"] == "Built Force")
    assert tf["base"] == base and tf["units"] == [unit] and tf["lsp"] == 1
    assert stored_name(game, "japan") == "Qzxnext_japan"  # the draft kept what was there
    assert "Task force formed: orders stored." in client.get(formed.headers["location"]).text
    area = desk.run(lambda: desk.view("japan").base(base)).sea_area  # type: ignore[union-attr]
    sent = build(
        client, csrf, action="op_add", kind="sea_control", area=area, task_forces=[tf["id"]]
    )
    assert sent.status_code == 303, sent.text
    (op,) = stored(game, "japan")["operations"]
    assert (op["kind"], op["area"], op["task_forces"]) == ("sea_control", area, [tf["id"]])
    with opened(game) as g:
        assert seats.submissions(g, 2)["japan"].count == 2
    assert build(client, csrf, action="tf_remove", task_force=tf["id"]).status_code == 303
    left = stored(game, "japan")
    assert [t["name"] for t in left["task_forces"]] == ["Qzxnext_japan"]
    assert "operations" not in left  # the operation went with its only task force


def test_a_bad_choice_in_the_builder_shows_the_problem_in_the_apps_words(
    game: Path, desk: SeatDesk
) -> None:
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["japan"])
    unit, base = _free_unit(desk, "japan")
    refused = build(
        client, csrf, action="tf_add", name="Too Much", base=base, units=[unit], lsp="9999"
    )
    assert refused.status_code == 422
    (problem,) = re.findall(r"<li>(.*?)</li>", refused.text)
    assert "allocate 9999 LSP" in problem and "(002 Logistic Support Points)" in problem
    assert "nothing was stored" in refused.text
    assert [t["name"] for t in stored(game, "japan")["task_forces"]] == ["Qzxnext_japan"]
    with opened(game) as g:
        assert seats.submissions(g, 2) == {}


def test_the_builder_offers_and_takes_only_the_teams_own_forces(game: Path, desk: SeatDesk) -> None:
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["japan"])
    theirs, their_base = _free_unit(desk, "usa")
    assert theirs not in client.get("/team/orders").text
    unit, base = _free_unit(desk, "japan")
    for fields in (
        {"action": "tf_add", "name": "X", "base": base, "units": [unit, theirs]},
        {"action": "tf_add", "name": "X", "base": their_base, "units": [theirs]},
        {"action": "escort_add", "route": "us_can_uk", "units": [unit]},
        {"action": "tf_remove", "task_force": "nothing_here"},
        {"action": "op_add", "kind": "sea_control", "area": "java_sea", "task_forces": ["x"]},
        {"action": "drop_everything"},
    ):
        response = build(client, csrf, **fields)
        assert response.status_code == 422, fields
        assert "nothing was stored" in response.text
    assert build(client, "wrong", action="tf_remove", task_force="next").status_code == 403
    assert stored_name(game, "japan") == "Qzxnext_japan"
    with opened(game) as g:
        assert seats.submissions(g, 2) == {}


def test_the_builder_sets_tonnage_and_escorts_a_route(game: Path, desk: SeatDesk) -> None:
    app = SeatApp(desk)
    client, csrf = joined(app, _codes(game)["japan"])
    view = desk.run(lambda: desk.view("japan"))
    route = next(r for r in view.routes if r.nation == "japan" and r.tonnage)
    assert route.tonnage is not None
    set_to = build(client, csrf, action="tonnage", **{f"t_{route.id}": str(route.tonnage)})
    assert set_to.status_code == 303, set_to.text
    assert stored(game, "japan")["tonnage"] == {route.id: route.tonnage}
    unit = next(u for u in view.units if u.type == "escort" and u.state != "sunk")
    escorted = build(client, csrf, action="escort_add", route=route.id, units=[unit.id])
    assert escorted.status_code == 303
    assert stored(game, "japan")["escorts"] == [{"route": route.id, "units": [unit.id]}]
    assert build(client, csrf, action="escort_remove", route=route.id).status_code == 303
    assert "escorts" not in stored(game, "japan")
    assert build(client, csrf, action="tonnage").status_code == 303  # blank: as now
    assert "tonnage" not in stored(game, "japan")
