"""Team seats on the local network: each team's browser joins with its seat code, sees its
team view and submits its orders, stored in the game file as they arrive.

Built on Starlette (the ASGI toolkit) served by uvicorn (README "Team seats" says why).
Three parts:

* :class:`SeatDesk` — the game file, opened in one worker thread of its own; every read
  and write goes through it, one at a time, so the seats never race each other. Orders are
  stored through the Campaign API (:meth:`campaign.engine.Campaign.set_orders`: the same
  checks and messages as the app and ``seacontrol-cli orders``) in one ``BEGIN
  IMMEDIATE`` transaction with the record of who submitted and when
  (:func:`campaign.seats.write_transaction`), waiting for the desktop app or the CLI when
  they hold the file.
* :class:`SeatApp` — the pages and the JSON API, the seat sessions, the limits. A seat
  code opens one team: it is checked in constant time (:func:`campaign.seats.nation_for`)
  and traded for a random session cookie; every request then checks that the team's code
  is still the one the session was opened with, so a reissued code closes the old
  sessions at once. Nothing but the join page and the static style and script is served
  without a session, and a team's pages are made from its
  :class:`~campaign.teamview.TeamView` only (the same filter as ``report --nation``).
  Requests are bounded in size, each client (a session, or an address before it joins)
  in rate, wrong codes per address more tightly still, and sessions in number.
* :class:`SeatServer` — uvicorn on a socket bound to 127.0.0.1 unless Game Control names
  another address; run in the foreground (``seacontrol-cli serve``) or in a background
  thread (the app's *Game → Open team seats*).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import clock, seatforms, seatpages, seats
from .engine import Campaign
from .orders import LIMITS as ORDERS_LIMITS
from .orders import OrderProblem, Orders, OrdersError, load_orders, orders_to_data
from .rules import problem_in_words
from .seats import DEFAULT_PORT
from .teamview import TeamView

COOKIE = "seat"
NEED_CODE = "join your team's seat with its seat code first"
T = TypeVar("T")

#: sent with every response: no framing, no sniffing, no referrer to other sites (a join
#: link holds a code), scripts and styles only from this server
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]


@dataclass(frozen=True)
class SeatLimits:
    """What one client may ask of the server."""

    #: bytes of an orders submission: the orders file's own limit as JSON, three times that
    #: as a form (percent-escaped); any other request body
    orders_json: int = ORDERS_LIMITS.max_bytes
    orders_form: int = 3 * ORDERS_LIMITS.max_bytes + 4096
    small_body: int = 4096
    #: bytes and fields of one of the order builder's forms (a box ticked for each unit)
    builder_form: int = 32768
    builder_fields: int = 400
    #: requests a second each client may make on average, and in one burst
    rate: float = 10.0
    burst: float = 60.0
    #: wrong seat codes an address may type a minute
    wrong_codes: int = 10
    #: sessions kept in all and for one team (the oldest go first)
    sessions: int = 512
    sessions_per_team: int = 64
    #: clients whose rate is tracked (the longest idle are forgotten)
    clients: int = 4096
    #: connections served at once (more are answered 503)
    connections: int = 64


# -- bounded bookkeeping ------------------------------------------------------------------------
class Buckets:
    """Token buckets by client key: ``rate`` a second, up to ``burst``; at most ``keys``
    clients tracked (the longest idle forgotten, and a forgotten client starts full)."""

    def __init__(self, rate: float, burst: float, keys: int) -> None:
        self.rate, self.burst, self.keys = rate, burst, keys
        self._b: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def _level(self, key: str, now: float) -> float:
        tokens, stamp = self._b.pop(key, (self.burst, now))
        return min(self.burst, tokens + max(0.0, now - stamp) * self.rate)

    def take(self, key: str, now: float) -> float:
        """Spend one token: 0.0 if there was one, else the seconds until there is."""
        tokens = self._level(key, now)
        wait = 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate
        self._b[key] = (tokens - 1.0 if not wait else tokens, now)
        while len(self._b) > self.keys:
            self._b.popitem(last=False)
        return wait

    def empty(self, key: str, now: float) -> float:
        """Seconds until ``key`` has a token (0.0: it has one now); nothing spent."""
        if key not in self._b:
            return 0.0
        tokens, stamp = self._b[key]
        tokens = min(self.burst, tokens + max(0.0, now - stamp) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def __len__(self) -> int:
        return len(self._b)


@dataclass
class SeatSession:
    """A browser joined to a team's seat: ``token`` is its cookie, ``code_digest`` the
    hash of the code it joined with, ``csrf`` the token its forms carry."""

    token: str
    nation: str
    code_digest: bytes
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(24))


def _key(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Sessions:
    """Seat sessions, bounded in all and per team (the least recently used go first)."""

    def __init__(self, total: int, per_team: int) -> None:
        self.total, self.per_team = total, per_team
        self._s: OrderedDict[str, SeatSession] = OrderedDict()

    def new(self, nation: str, code_digest: bytes) -> SeatSession:
        session = SeatSession(secrets.token_urlsafe(32), nation, code_digest)
        self._s[_key(session.token)] = session
        mine = [k for k, s in self._s.items() if s.nation == nation]
        for k in mine[: max(0, len(mine) - self.per_team)]:
            del self._s[k]
        while len(self._s) > self.total:
            self._s.popitem(last=False)
        return session

    def get(self, token: str | None) -> SeatSession | None:
        if not token or len(token) > 100:
            return None
        key = _key(token)
        session = self._s.get(key)
        if session is not None:
            self._s.move_to_end(key)
        return session

    def drop(self, session: SeatSession) -> None:
        self._s.pop(_key(session.token), None)

    def __len__(self) -> int:
        return len(self._s)

    def __iter__(self) -> Iterator[SeatSession]:
        return iter(list(self._s.values()))


# -- the game file's desk -----------------------------------------------------------------------
@dataclass(frozen=True)
class Submitted:
    """What became of orders sent from a seat."""

    turn: int
    accepted: bool
    stored: bool
    problems: tuple[OrderProblem, ...] = ()
    submission: seats.Submission | None = None
    orders: dict[str, Any] | None = None
    #: each problem as the app shows it (its order named in words)
    words: tuple[str, ...] = ()

    def to_data(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "accepted": self.accepted,
            "stored": self.stored,
            "problems": [
                {**asdict(p), "text": str(p), "words": w}
                for p, w in zip(self.problems, self.words, strict=True)
            ],
            "submission": asdict(self.submission) if self.submission else None,
            "orders": self.orders,
        }


class _Checked(Exception):
    """Raised to roll back orders that were only to be checked."""


class SeatDesk:
    """The game file, open in one worker thread: every call runs there, one at a time
    (:meth:`call` from the server's event loop, or directly in tests)."""

    def __init__(self, path: str | Path, now: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.now = now
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="seat-desk")
        self._c: Campaign | None = None
        self._pool.submit(self._open).result()  # GameFileError if it is not a game
        self.world = self.run(lambda: self.c.scenario.world)
        self.sea_layer = seatpages.sea_layer(self.world)

    def _open(self) -> None:
        self._c = Campaign.open(self.path)
        self._c.game.db.execute(f"PRAGMA busy_timeout = {seats.BUSY_TIMEOUT_MS}")

    @property
    def c(self) -> Campaign:
        if self._c is None:
            raise RuntimeError("the seat desk is closed")
        return self._c

    def run(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` in the desk's thread and wait for it (from any other thread)."""
        return self._pool.submit(fn).result()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in the desk's thread without holding up the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        if self._c is not None:
            self.run(self.c.close)
            self._c = None
        self._pool.shutdown(wait=True)

    # -- run in the desk's thread ---------------------------------------------------------------
    def teams(self) -> list[str]:
        return self.c.board().teams()

    def code_digest(self, nation: str) -> bytes | None:
        code = seats.stored_codes(self.c.game).get(nation)
        return hashlib.sha256(code.encode()).digest() if code else None

    def join(self, code: str) -> tuple[str, bytes] | None:
        """The team a typed code opens, with its code's digest; None for a wrong code."""
        nation = seats.nation_for(self.c.game, code)
        if nation is None or nation not in self.teams():
            return None
        digest = self.code_digest(nation)
        return (nation, digest) if digest else None

    def view(self, nation: str) -> TeamView:
        return self.c.team_view(nation)

    def places(self, view: TeamView) -> dict[str, tuple[float, float]]:
        """Where the bases in ``view`` are drawn: a base's own point (public map data), a
        fleet train at its sea area's label."""
        rows = self.c.scenario.by_id("bases")
        world = self.world
        out: dict[str, tuple[float, float]] = {}
        for b in view.bases:
            if b.id in rows:
                out[b.id] = (float(rows[b.id]["lon"]), float(rows[b.id]["lat"]))
            elif b.sea_area in world.areas:
                area = world.areas[b.sea_area]
                out[b.id] = (area.lon, area.lat)
        return out

    def report_turns(self) -> list[int]:
        state, first = self.c.state, self.c.scenario.meta.first_turn
        last = state.turn if state.step else state.turn - 1
        return list(range(first, max(first, last) + 1))

    def report(self, nation: str, turn: int | None) -> tuple[str, list[int], int]:
        """The team's report (``report --nation``) of ``turn`` (default: the last
        resolved), the turns it may choose from, and the turn shown."""
        turns = self.report_turns()
        shown = turn if turn in turns else turns[-1]
        return self.c.report(nation, shown), turns, shown

    def status(self, nation: str) -> seatpages.SeatStatus:
        state, game = self.c.state, self.c.game
        lock = seats.lock_of(game, state.turn)
        mine = seats.submissions(game, state.turn).get(nation)
        return seatpages.SeatStatus(
            state.turn,
            state.step,
            lock.at if lock else "",
            mine.last if mine else "",
            mine.count if mine else 0,
        )

    def stored_orders(self, nation: str) -> dict[str, Any] | None:
        orders = self.c.orders().get(nation)
        return orders_to_data(orders) if orders else None

    def draft(self, nation: str) -> dict[str, Any]:
        """The team's stored orders as data, or empty orders for the turn to fill in."""
        return self.stored_orders(nation) or seatforms.empty_orders(nation, self.c.state.turn)

    def orders_text(self, nation: str) -> str:
        """The team's stored orders as JSON to edit, or an empty set to fill in."""
        return json.dumps(self.draft(nation), indent=2, ensure_ascii=False)

    def build(self, nation: str, form: dict[str, list[str]]) -> tuple[str, str, Submitted | None]:
        """Make the order builder's change (``form``) on the team's draft and submit the
        result as :meth:`submit` does: the action, the orders as JSON, and what became of
        them (None: the form was refused before the orders were read, the reason in the
        second place)."""
        view = self.view(nation)
        draft = self.draft(nation)
        try:
            action = seatforms.apply_change(view, sorted(self.world.areas), draft, form)
        except seatforms.Refused as exc:
            return "", str(exc), None
        text = json.dumps(draft, indent=2, ensure_ascii=False)
        return action, text, self.submit(nation, text.encode("utf-8"), True)

    def submit(self, nation: str, body: bytes, store: bool) -> Submitted:
        """Check ``nation``'s orders (JSON ``body``) and, if ``store``, store them with the
        record of this submission; refused whole with every problem, as ``seacontrol-cli
        orders`` refuses them. Raises :class:`campaign.seats.GameFileBusy`."""
        c, game = self.c, self.c.game
        turn = 0
        orders: Orders | None = None
        try:
            with seats.write_transaction(game):
                turn = c.state.turn
                lock = seats.lock_of(game, turn)
                if lock is not None:
                    raise OrdersError([locked_problem(nation, lock)])
                orders = load_orders(body, nation)
                c.set_orders(nation, orders)  # the rules' checks; refused whole
                if not store:
                    raise _Checked
                when = datetime.fromtimestamp(self.now()).astimezone()
                submission = seats.record_submission(game, turn, nation, when)
                stored = self.stored_orders(nation)
        except _Checked:
            return Submitted(turn, True, False, orders=orders_to_data(orders) if orders else None)
        except OrdersError as exc:
            board = c.board()
            words = tuple(problem_in_words(board, orders, p) for p in exc.problems)
            return Submitted(turn, False, False, tuple(exc.problems), words=words)
        return Submitted(turn, True, True, (), submission, stored)

    def clock_status(self) -> clock.ClockStatus | None:
        """The phase clock now, or None while Control has not set it."""
        game = self.c.game
        return clock.status(clock.load(game), self.now()) if clock.is_set(game) else None


def locked_problem(nation: str, lock: seats.Lock) -> OrderProblem:
    return OrderProblem(
        nation,
        "orders",
        "Game Control",
        f"Game Control locked turn {lock.turn}'s orders at {lock.at}; "
        "they can no longer be changed",
    )


# -- the web application ------------------------------------------------------------------------
class TooBig(Exception):
    pass


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (:class:`TooBig`) past ``limit`` bytes, whatever its
    Content-Length says."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooBig
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise TooBig
    return bytes(data)


def _form(body: bytes) -> dict[str, str]:
    return {k: v[0] for k, v in _form_lists(body, 8).items() if v}


def _form_lists(body: bytes, fields: int) -> dict[str, list[str]]:
    """A form's fields, each with every value sent (ticked boxes share a name); nothing
    for a form of more than ``fields`` fields or not UTF-8."""
    try:
        text = body.decode("utf-8")
        return parse_qs(text, keep_blank_values=True, max_num_fields=fields)
    except (UnicodeDecodeError, ValueError):
        return {}


class SeatApp:
    """The seats' web application (an ASGI app: :attr:`asgi`)."""

    def __init__(
        self,
        desk: SeatDesk,
        limits: SeatLimits | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.desk = desk
        self.limits = limits or SeatLimits()
        self.monotonic = monotonic
        lim = self.limits
        self.sessions = Sessions(lim.sessions, lim.sessions_per_team)
        self.buckets = Buckets(lim.rate, lim.burst, lim.clients)
        self.wrong = Buckets(lim.wrong_codes / 60.0, float(lim.wrong_codes), lim.clients)
        public = [
            Route("/", self.join_page, methods=["GET"]),
            Route("/join", self.join_page, methods=["GET"]),
            Route("/join", self.join, methods=["POST"]),
            Route("/static/seats.css", self.static_css, methods=["GET"]),
            Route("/static/seats.js", self.static_js, methods=["GET"]),
        ]
        team = [
            Route("/team", self._seat(self.map_page), methods=["GET"]),
            Route("/team/units", self._seat(self.units_page), methods=["GET"]),
            Route("/team/report", self._seat(self.report_page), methods=["GET"]),
            Route("/team/orders", self._seat(self.orders_page), methods=["GET"]),
            Route("/team/orders", self._seat(self.orders_form, post=True), methods=["POST"]),
            Route("/team/orders/build", self._seat(self.build_form, post=True), methods=["POST"]),
            Route("/leave", self._seat(self.leave, post=True), methods=["POST"]),
            Route("/api/session", self._seat(self.api_session), methods=["GET"]),
            Route("/api/view", self._seat(self.api_view), methods=["GET"]),
            Route("/api/report", self._seat(self.api_report), methods=["GET"]),
            Route("/api/orders", self._seat(self.api_orders), methods=["GET"]),
            Route("/api/orders", self._seat(self.api_submit, post=True), methods=["POST"]),
            Route("/api/clock", self._seat(self.api_clock), methods=["GET"]),
        ]
        self.public_paths = {r.path for r in public}
        self.routes = public + team
        self.starlette = Starlette(routes=self.routes)
        self.asgi: ASGIApp = self._guard

    # -- every request ----------------------------------------------------------------------------
    async def _guard(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Rate limits and the size of a body declared too big, before any route; security
        headers on every response."""
        if scope["type"] != "http":
            await self.starlette(scope, receive, send)
            return
        request = Request(scope)
        session = self.sessions.get(request.cookies.get(COOKIE))
        client = request.client.host if request.client else "?"
        key = f"s:{_key(session.token)}" if session else f"a:{client}"
        wait = self.buckets.take(key, self.monotonic())
        refused: Response | None = None
        if wait:
            refused = _plain("Too many requests: slow down.", 429, wait)
        elif request.method == "POST" and not _same_origin(request):
            refused = _plain("Refused: this form was not sent from the seats' own pages.", 403)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *SECURITY_HEADERS]
            await send(message)

        if refused is not None:
            await refused(scope, receive, send_with_headers)
            return
        await self.starlette(scope, receive, send_with_headers)

    async def seat_of(self, request: Request) -> SeatSession | None:
        """The request's session, if its team's code is still the one it joined with."""
        session = self.sessions.get(request.cookies.get(COOKIE))
        if session is None:
            return None
        digest = await self.desk.call(self.desk.code_digest, session.nation)
        if digest is None or not hmac.compare_digest(digest, session.code_digest):
            self.sessions.drop(session)
            return None
        return session

    def _seat(
        self,
        handler: Callable[[Request, SeatSession], Awaitable[Response]],
        post: bool = False,
    ) -> Callable[[Request], Awaitable[Response]]:
        """A team's endpoint: served only to a session whose code still holds (POSTs also
        carry the session's form token)."""

        async def endpoint(request: Request) -> Response:
            session = await self.seat_of(request)
            api = request.url.path.startswith("/api/")
            if session is None:
                if api:
                    return JSONResponse({"error": NEED_CODE}, 401)
                gone = "?ended=1" if request.cookies.get(COOKIE) else ""
                response = RedirectResponse(f"/{gone}", 303)
                response.delete_cookie(COOKIE, path="/")
                return response
            try:
                return await handler(request, session)
            except TooBig:
                return _plain("Refused: the request is too big.", 413)
            except seats.GameFileBusy:
                return _plain(
                    "The game file is busy (Game Control's program is writing it); nothing "
                    "was stored. Try again in a moment.",
                    503,
                    2.0,
                )

        return endpoint

    def _form_ok(self, request: Request, session: SeatSession, form: dict[str, str]) -> bool:
        token = form.get("csrf") or request.headers.get("x-seat-token", "")
        return hmac.compare_digest(token.encode("utf-8", "replace"), session.csrf.encode())

    # -- public ----------------------------------------------------------------------------------
    async def join_page(self, request: Request) -> Response:
        session = await self.seat_of(request)
        if session is not None and request.url.path == "/":
            return RedirectResponse("/team", 303)
        code = seats.normalise(request.query_params.get("code", "")[:40])
        ended = "Your seat was closed (its code was reissued, or you left): join again."
        status = ended if request.query_params.get("ended") else ""
        return _html(seatpages.join_page(code, status=status))

    async def join(self, request: Request) -> Response:
        client = request.client.host if request.client else "?"
        wait = self.wrong.empty(client, self.monotonic())
        if wait:
            return _html(
                seatpages.join_page(
                    message="Too many wrong codes from this device: wait a minute, then try "
                    "again with the code in your team pack."
                ),
                429,
                wait,
            )
        try:
            form = _form(await read_body(request, self.limits.small_body))
        except TooBig:
            return _plain("Refused: the request is too big.", 413)
        code = seats.normalise(form.get("code", "")[:40])
        if not code:
            return _html(
                seatpages.join_page(
                    message="A seat code is ten letters and digits, like ABCD-EFGH-JK: "
                    "check it against your team pack."
                ),
                401,
            )
        found = await self.desk.call(self.desk.join, code)
        if found is None:
            self.wrong.take(client, self.monotonic())
            return _html(
                seatpages.join_page(
                    message="That code opens no seat. Check it against your team pack (or ask "
                    "Game Control: codes can be reissued)."
                ),
                401,
            )
        session = self.sessions.new(*found)
        response = RedirectResponse("/team", 303)
        response.set_cookie(COOKIE, session.token, httponly=True, samesite="strict", path="/")
        return response

    async def static_css(self, request: Request) -> Response:
        return Response(seatpages.STYLE, media_type="text/css", headers=_cache_static())

    async def static_js(self, request: Request) -> Response:
        return Response(
            seatpages.SCRIPT, media_type="application/javascript", headers=_cache_static()
        )

    # -- a team's pages -------------------------------------------------------------------------
    async def _clock_text(self) -> str:
        status = await self.desk.call(self.desk.clock_status)
        if status is None:
            return ""
        return seatpages.seat_clock_text(
            clock.shown_time(status.remaining), status.phase, status.running
        )

    async def _team(
        self, session: SeatSession, here: str, content: Callable[[TeamView], str]
    ) -> Response:
        view = await self.desk.call(self.desk.view, session.nation)
        clock_text = await self._clock_text()
        return _html(seatpages.team_page(view, here, clock_text, content(view), session.csrf))

    async def map_page(self, request: Request, session: SeatSession) -> Response:
        view = await self.desk.call(self.desk.view, session.nation)
        places = await self.desk.call(self.desk.places, view)
        content = seatpages.map_content(view, self.desk.world, self.desk.sea_layer, places)
        clock_text = await self._clock_text()
        return _html(seatpages.team_page(view, "map", clock_text, content, session.csrf))

    async def units_page(self, request: Request, session: SeatSession) -> Response:
        return await self._team(session, "units", seatpages.units_content)

    async def report_page(self, request: Request, session: SeatSession) -> Response:
        text, turns, shown = await self.desk.call(self.desk.report, session.nation, _turn(request))
        return await self._team(
            session, "report", lambda _v: seatpages.report_content(text, turns, shown)
        )

    async def orders_page(self, request: Request, session: SeatSession) -> Response:
        text = await self.desk.call(self.desk.orders_text, session.nation)
        done = seatforms.DONE.get(request.query_params.get("done", ""), "")
        return await self._orders(session, text, built=f"{done}: orders stored." if done else "")

    async def _orders(
        self,
        session: SeatSession,
        text: str,
        done: Submitted | None = None,
        code: int = 200,
        built: str = "",
    ) -> Response:
        status = await self.desk.call(self.desk.status, session.nation)
        result = built
        if done is not None:
            if not done.accepted:
                result = seatpages.orders_problems_text(done.problems) + "; nothing was stored."
            elif done.stored:
                result = f"Orders for turn {done.turn} submitted and stored for Game Control."
            else:
                result = "The orders are valid (not submitted yet)."
        view = await self.desk.call(self.desk.view, session.nation)
        words = done.words if done else ()
        draft = await self.desk.call(self.desk.draft, session.nation)
        forms = seatforms.builder(view, self.desk.world, draft, session.csrf)
        content = seatpages.orders_content(view, status, text, session.csrf, result, words, forms)
        clock_text = await self._clock_text()
        page = seatpages.team_page(view, "orders", clock_text, content, session.csrf)
        return _html(page, code)

    async def orders_form(self, request: Request, session: SeatSession) -> Response:
        form = _form(await read_body(request, self.limits.orders_form))
        if not self._form_ok(request, session, form):
            return _plain("Refused: the form is out of date; reload the orders page.", 403)
        text = form.get("orders", "")
        done = await self.desk.call(
            self.desk.submit, session.nation, text.encode("utf-8"), form.get("action") == "submit"
        )
        return await self._orders(session, text, done, 200 if done.accepted else 422)

    async def build_form(self, request: Request, session: SeatSession) -> Response:
        """One change from the order builder, made on the team's draft and submitted as
        the orders editor submits (then back to the orders page)."""
        lim = self.limits
        form = _form_lists(await read_body(request, lim.builder_form), lim.builder_fields)
        if not self._form_ok(request, session, {k: v[0] for k, v in form.items() if v}):
            return _plain("Refused: the form is out of date; reload the orders page.", 403)
        action, text, done = await self.desk.call(self.desk.build, session.nation, form)
        if done is None:
            status = await self.desk.call(self.desk.status, session.nation)
            refused = OrderProblem(session.nation, "order builder", "the form", text)
            done = Submitted(status.turn, False, False, (refused,), words=(text,))
            text = await self.desk.call(self.desk.orders_text, session.nation)
        if not done.accepted:
            return await self._orders(session, text, done, 422)
        return RedirectResponse(f"/team/orders?done={action}#result", 303)

    async def leave(self, request: Request, session: SeatSession) -> Response:
        form = _form(await read_body(request, self.limits.small_body))
        if not self._form_ok(request, session, form):
            return _plain("Refused: the form is out of date; reload the page.", 403)
        self.sessions.drop(session)
        response = RedirectResponse("/", 303)
        response.delete_cookie(COOKIE, path="/")
        return response

    # -- the JSON API ---------------------------------------------------------------------------
    async def api_session(self, request: Request, session: SeatSession) -> Response:
        view = await self.desk.call(self.desk.view, session.nation)
        return JSONResponse(
            {"nation": view.nation, "name": view.name, "turn": view.turn, "csrf": session.csrf}
        )

    async def api_view(self, request: Request, session: SeatSession) -> Response:
        view = await self.desk.call(self.desk.view, session.nation)
        return _json_text(view.to_json())

    async def api_report(self, request: Request, session: SeatSession) -> Response:
        text, turns, shown = await self.desk.call(self.desk.report, session.nation, _turn(request))
        return JSONResponse({"turn": shown, "turns": turns, "text": text})

    async def api_orders(self, request: Request, session: SeatSession) -> Response:
        status = await self.desk.call(self.desk.status, session.nation)
        orders = await self.desk.call(self.desk.stored_orders, session.nation)
        return JSONResponse({"status": asdict(status), "orders": orders})

    async def api_submit(self, request: Request, session: SeatSession) -> Response:
        if not self._form_ok(request, session, {}):
            return JSONResponse({"error": "send the X-Seat-Token header (GET /api/session)"}, 403)
        body = await read_body(request, self.limits.orders_json)
        store = request.query_params.get("check", "") not in ("1", "yes", "true")
        done = await self.desk.call(self.desk.submit, session.nation, body, store)
        return JSONResponse(done.to_data(), 200 if done.accepted else 422)

    async def api_clock(self, request: Request, session: SeatSession) -> Response:
        status = await self.desk.call(self.desk.clock_status)
        data = {"set": True, **status.to_data()} if status else {"set": False}
        return JSONResponse(data, headers={"cache-control": "no-store"})


def _turn(request: Request) -> int | None:
    text = request.query_params.get("turn", "")
    return int(text) if text.isdigit() and len(text) <= 4 else None


def _same_origin(request: Request) -> bool:
    """A POST's Origin, when the browser names one, is this server ("null" is what a
    browser sends when it will not say)."""
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return True
    return urlsplit(origin).netloc == request.headers.get("host", "")


def _cache_static() -> dict[str, str]:
    return {"cache-control": "public, max-age=3600"}


def _retry(wait: float) -> dict[str, str]:
    return {"retry-after": str(max(1, int(wait + 0.999)))} if wait else {}


def _plain(text: str, status: int, wait: float = 0.0) -> Response:
    return Response(text, status, headers=_retry(wait), media_type="text/plain")


def _html(text: str, status: int = 200, wait: float = 0.0) -> Response:
    return HTMLResponse(text, status, headers={"cache-control": "no-store", **_retry(wait)})


def _json_text(text: str) -> Response:
    return Response(text, media_type="application/json", headers={"cache-control": "no-store"})


# -- the server ----------------------------------------------------------------------------------
class SeatServer:
    """The seats of a game file served on ``host``:``port`` (port 0: any free port)."""

    def __init__(
        self,
        game: str | Path,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        limits: SeatLimits | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.limits = limits or SeatLimits()
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.create_server((host, port), family=family)
        try:
            self.desk = SeatDesk(game, now)
        except BaseException:
            self.sock.close()
            raise
        self.host = host
        self.port = int(self.sock.getsockname()[1])
        self.app = SeatApp(self.desk, self.limits)
        config = uvicorn.Config(
            self.app.asgi,
            log_level="warning",
            access_log=False,
            lifespan="off",
            interface="asgi3",
            server_header=False,
            limit_concurrency=self.limits.connections,
            timeout_keep_alive=5,
        )
        self.server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def serve_forever(self) -> None:
        """Serve in this thread until interrupted (Ctrl+C)."""
        try:
            self.server.run(sockets=[self.sock])
        finally:
            self._close()

    def start(self) -> None:
        """Serve from a background thread; returns once the server is listening."""
        self._thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, name="seats", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and self._thread.is_alive():
            if time.monotonic() > deadline:  # pragma: no cover - a machine far too slow
                break
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop serving (in-flight requests are finished) and close the game file."""
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(15)
            self._thread = None
        self._close()

    def _close(self) -> None:
        self.sock.close()
        self.desk.close()
