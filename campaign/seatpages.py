"""The team seats' pages, as HTML: the join page and a team's map, units, report and orders.

Every page is made from what :mod:`campaign.seatserver` hands it: a team's
:class:`~campaign.teamview.TeamView`, its report text (the same as ``report --nation``),
its own stored orders. Nothing here reads the game. Every piece of text is escaped; pages
carry no inline script or style (the server's Content-Security-Policy forbids them), so the
only script is :data:`SCRIPT`, which polls the phase clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from .orders import OrderProblem
from .reports import UNIT_TYPE_NAMES
from .teamview import TeamView, UnitView
from .world import World

#: the chart's western edge (as the app's map: the Atlantic and Europe on the left)
SEAM = -30.0
NORTH, SOUTH = 80.0, -60.0
#: SVG units per degree
SCALE = 4.0

NAV = (
    ("map", "/team", "Map"),
    ("units", "/team/units", "Units"),
    ("report", "/team/report", "Report"),
    ("orders", "/team/orders", "Orders"),
)
ASSIGNMENT_WORDS = {
    "in_port": "In port",
    "transferred": "Transferred",
    "escort": "Escort",
    "task_force": "Task force",
    "raid": "Raiding",
}

STYLE = """
body{font-family:system-ui,sans-serif;margin:0;color:#1b2733;background:#f4f6f8}
header{background:#1f3a52;color:#fff;padding:.6em 1em;display:flex;flex-wrap:wrap;
 align-items:center;gap:1em}
header h1{font-size:1.2em;margin:0;flex:1}
header a{color:#fff}
nav a{margin-right:.8em}
nav a.here{font-weight:bold;text-decoration:none}
main{padding:1em;max-width:1200px}
table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{border:1px solid #c5ced6;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#e3e9ee}
pre{white-space:pre-wrap;background:#fff;border:1px solid #c5ced6;padding:1em}
textarea{width:100%;min-height:28em;font-family:monospace;font-size:.9em}
.clock{font-family:monospace;font-size:1.3em;padding:.1em .5em;border-radius:.3em;
 background:#2d5373}
.clock:empty{display:none}
.clock.over{background:#a61b1b}
.clock.flash{animation:flash 1s 6}
@keyframes flash{50%{background:#ffd33d;color:#000}}
.ok{background:#e3f4e1;border:1px solid #5c9e55;padding:.5em 1em}
.bad{background:#fbe5e3;border:1px solid #b3433a;padding:.5em 1em}
.note{color:#506070}
svg.map{width:100%;height:auto;background:#b9c6cf;border:1px solid #8a9aa6}
.sea{fill:#d6e5ee;stroke:#7f99ad;stroke-width:.4}
.sea.contested{fill:#f3d9b1}
.base{stroke:#222;stroke-width:.5}
.base.own{fill:#1f6fb2}.base.ally{fill:#6fa8dc}.base.enemy{fill:#c0392b}
.base.neutral{fill:#999}
.tf{fill:#ffd33d;stroke:#222;stroke-width:.6}
.counter{fill:#fff;stroke:#c0392b;stroke-width:.8}
.flag{fill:#c0392b}.flag.own{fill:#1f6fb2}
.units{font-size:9px;font-weight:bold;fill:#102030}
form.join{max-width:24em;margin:3em auto;background:#fff;padding:2em;border:1px solid #c5ced6}
form.join input{font-size:1.4em;width:100%;letter-spacing:.1em;font-family:monospace}
button{font-size:1em;padding:.4em 1em;margin:.5em .5em 0 0}
form.build{background:#fff;border:1px solid #c5ced6;padding:.5em 1em;margin:.5em 0 1em}
form.build label{display:inline-block;margin:.3em .8em .3em 0}
form.build fieldset label{display:block}
form.remove button{margin:0;padding:.1em .6em}
"""

SCRIPT = """
(function () {
  var box = document.getElementById('clock');
  if (!box || !window.fetch) { return; }
  var left = null, running = false, stamp = 0, phase = '';
  function shown(s) {
    if (s > 0) { var w = Math.ceil(s); return pad(Math.floor(w / 60)) + ':' + pad(w % 60); }
    var o = Math.floor(-s); return (o ? '+' : '') + pad(Math.floor(o / 60)) + ':' + pad(o % 60);
  }
  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function now() { return Date.now() / 1000; }
  function draw() {
    if (left === null) { return; }
    var s = running ? left - (now() - stamp) : left;
    var before = box.getAttribute('data-left');
    [120, 0].forEach(function (mark) {
      if (before !== null && parseFloat(before) > mark && s <= mark) {
        box.classList.remove('flash'); void box.offsetWidth; box.classList.add('flash');
      }
    });
    box.setAttribute('data-left', s);
    box.classList.toggle('over', s <= 0);
    box.textContent = phase + ' ' + shown(s) + (running ? '' : ' (paused)');
  }
  function poll() {
    fetch('/api/clock', {credentials: 'same-origin'}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (c) {
      if (!c) { return; }
      if (!c.set) { left = null; box.textContent = ''; return; }
      left = c.remaining; running = c.running; phase = c.phase; stamp = now(); draw();
    }).catch(function () {});
  }
  poll(); setInterval(poll, 5000); setInterval(draw, 1000);
})();
(function () {
  function follow(id, show) {
    var pick = document.getElementById(id);
    if (!pick) { return; }
    function update() { show(pick.value); }
    pick.addEventListener('change', update); update();
  }
  follow('tf-base', function (base) {
    document.querySelectorAll('fieldset[data-base]').forEach(function (box) {
      box.hidden = box.getAttribute('data-base') !== base;
      if (box.hidden) {
        box.querySelectorAll('input').forEach(function (i) { i.checked = false; });
      }
    });
  });
  follow('op-kind', function (kind) {
    document.querySelectorAll('fieldset.invasion').forEach(function (box) {
      box.hidden = kind.indexOf('invasion') < 0;
    });
    document.querySelectorAll('fieldset.raid').forEach(function (box) {
      box.hidden = kind !== 'surface_raid';
    });
  });
})();
"""


@dataclass(frozen=True)
class SeatStatus:
    """What a team's orders page says about its seat this turn."""

    turn: int
    step: int
    locked_at: str  # "" while open
    submitted: str  # last submission's time, "" for none
    submissions: int


def when(iso: str) -> str:
    """An ISO time as people read it: ``14:03:09 (2026-05-02)``."""
    return f"{iso[11:19]} ({iso[:10]})" if len(iso) >= 19 and iso[10] == "T" else iso


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def page(title: str, body: str, head: str = "") -> str:
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{_e(title)}</title><link rel='stylesheet' href='/static/seats.css'>"
        f"{head}</head><body>{body}<script src='/static/seats.js'></script></body></html>"
    )


def join_page(code: str = "", message: str = "", status: str = "") -> str:
    """The one page served without a code: type (or bring in the QR code's link) the
    team's seat code."""
    note = f"<p class='bad'>{_e(message)}</p>" if message else ""
    note += f"<p class='ok'>{_e(status)}</p>" if status else ""
    return page(
        "Sea Control - join your seat",
        "<form class='join' method='post' action='/join'>"
        "<h1>Sea Control</h1><p>Type your team's seat code (it is in your team pack).</p>"
        f"{note}<label for='code'>Seat code</label>"
        f"<input id='code' name='code' autocomplete='off' autocapitalize='characters' "
        f"spellcheck='false' maxlength='20' value='{_e(code)}' required>"
        "<button id='join' type='submit'>Join</button></form>",
    )


def _header(view: TeamView, here: str, clock_text: str, csrf: str) -> str:
    links = "".join(
        f"<a href='{href}' class='{'here' if key == here else ''}'>{label}</a>"
        for key, href, label in NAV
    )
    return (
        f"<header><h1>{_e(view.name)} - turn {view.turn} ({_e(view.period)})</h1>"
        f"<span id='clock' class='clock'>{_e(clock_text)}</span>"
        f"<nav>{links}</nav><form method='post' action='/leave'>"
        f"<input type='hidden' name='csrf' value='{_e(csrf)}'>"
        "<button id='leave' type='submit'>Leave</button></form></header>"
    )


def team_page(view: TeamView, here: str, clock_text: str, content: str, csrf: str) -> str:
    return page(
        f"{view.name} - Sea Control",
        _header(view, here, clock_text, csrf) + f"<main>{content}</main>",
    )


def _table(headings: Sequence[str], rows: Iterable[Sequence[object]], empty: str) -> str:
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    if not body:
        return f"<p class='note'>{_e(empty)}</p>"
    head = "".join(f"<th>{_e(h)}</th>" for h in headings)
    return f"<table><tr>{head}</tr>{body}</table>"


def _air_table(view: TeamView) -> str:
    """A team's land-based air units: where each is and its Air Points."""
    return _table(
        ("Air unit", "Kind", "Where", "Air Points"),
        ((a.id, a.kind, _place(view, a.base), a.points) for a in view.air),
        "No land-based Air Points.",
    )


def _place(view: TeamView, base: str) -> str:
    found = view.base(base)
    return found.name if found else base


def _unit_rows(view: TeamView, units: Iterable[UnitView]) -> list[tuple[object, ...]]:
    return [
        (
            u.name,
            u.id,
            view.name_of(u.nation),
            UNIT_TYPE_NAMES.get(u.type, u.type),
            _place(view, u.base),
            u.state,
            ASSIGNMENT_WORDS.get(u.assignment, u.assignment),
        )
        for u in units
    ]


UNIT_HEADINGS = ("Unit", "Id", "Nation", "Type", "Where", "State", "This turn")


def units_content(view: TeamView) -> str:
    """The team's forces, its allies' and the enemy units it has fought."""
    parts = ["<h2>Your units</h2>", _table(UNIT_HEADINGS, _unit_rows(view, view.units), "None.")]
    parts += [
        "<h2>Your task forces this turn</h2>",
        _table(
            ("Task force", "Id", "Base", "Units", "Fleet CV", "LSP", "Operation"),
            (
                (
                    tf.name,
                    tf.id,
                    _place(view, tf.base),
                    ", ".join(tf.units),
                    tf.cv,
                    tf.lsp,
                    tf.operation or tf.stance,
                )
                for tf in view.task_forces
            ),
            "No task force formed yet.",
        ),
        "<h2>Land-based air, garrisons and supplies</h2>",
        _air_table(view),
        _table(
            ("Place", "Garrisons"),
            ((_place(view, g.base), g.garrisons) for g in view.garrisons),
            "No garrisons.",
        ),
        _table(("Base", "LSP"), ((_place(view, b), n) for b, n in view.lsp), "No LSP at any base."),
        f"<p>Merchant tonnage: {view.tonnage.total} points ({view.tonnage.on_routes} on routes, "
        f"{view.tonnage.unallocated} unallocated). Operations Flags: naval "
        f"{view.flags.naval - view.flags.naval_used} of {view.flags.naval} left, military "
        f"{view.flags.military - view.flags.military_used} of {view.flags.military} left.</p>",
        "<h2>Your merchant routes</h2>",
        _table(
            ("Route", "Id", "From", "To", "Length", "Tonnage", "Lift", "State"),
            (
                (
                    r.name,
                    r.id,
                    _place(view, r.origin),
                    _place(view, r.destination),
                    r.length,
                    r.tonnage,
                    r.effective_lift,
                    r.state,
                )
                for r in view.routes
                if r.nation == view.nation
            ),
            "No merchant routes.",
        ),
        "<h2>Advantage Cards in hand</h2>",
        _table(
            ("Card", "Id", "Type", "Value"),
            ((c.title, c.id, c.type, c.value) for c in view.cards),
            "No cards left.",
        ),
        "<h2>Allied units</h2>",
        _table(UNIT_HEADINGS, _unit_rows(view, view.allied_units), "None shared."),
        "<h2>Enemy units fought</h2>",
        _table(
            ("Unit", "Nation", "Type", "Turn", "Sea area", "Last known"),
            (
                (
                    s.name,
                    view.name_of(s.nation),
                    UNIT_TYPE_NAMES.get(s.type, s.type),
                    s.turn,
                    s.sea_area,
                    s.last_known,
                )
                for s in view.sightings
            ),
            "None yet.",
        ),
    ]
    return "".join(parts)


def report_content(text: str, turns: Sequence[int], shown: int) -> str:
    links = " ".join(
        f"<a href='/team/report?turn={t}'>{'<b>' if t == shown else ''}Turn {t}"
        f"{'</b>' if t == shown else ''}</a>"
        for t in turns
    )
    return f"<p>{links}</p><pre id='report'>{_e(text)}</pre>"


def orders_content(
    view: TeamView,
    status: SeatStatus,
    text: str,
    csrf: str,
    result: str = "",
    problems: Sequence[str] = (),
    builder: str = "",
) -> str:
    """The orders page: the order ``builder``'s forms (:mod:`campaign.seatforms`), then the
    orders editor, the team's orders as JSON (docs/orders-format.md), checked or
    submitted; ``problems`` in the app's words (:func:`campaign.rules.problem_in_words`)."""
    if status.locked_at:
        state = f"<p class='bad' id='locked'>Game Control locked turn {status.turn}'s orders at "
        state += f"{_e(when(status.locked_at))}; nothing more can be submitted.</p>"
    elif status.step:
        state = f"<p class='bad'>Turn {status.turn} is being resolved; orders are closed.</p>"
    else:
        state = ""
    sent = (
        f"Last submitted {_e(when(status.submitted))} ({status.submissions} time"
        f"{'s' if status.submissions != 1 else ''})."
        if status.submitted
        else "Not submitted yet this turn."
    )
    outcome = ""
    if result:
        cls = "bad" if problems else "ok"
        items = "".join(f"<li>{_e(p)}</li>" for p in problems)
        outcome = f"<div id='result' class='{cls}'><p>{_e(result)}</p>"
        outcome += f"<ul id='problems'>{items}</ul></div>" if items else "</div>"
    reference = orders_reference(view)
    return (
        f"<h2>Orders for turn {status.turn}</h2>{state}<p id='sent'>{sent}</p>{outcome}"
        f"{builder}<h3>Orders as JSON</h3>"
        "<form method='post' action='/team/orders'>"
        f"<input type='hidden' name='csrf' value='{_e(csrf)}'>"
        "<p class='note'>Your orders as JSON (the orders format: supplies, transfers, tonnage, "
        "new_routes, escorts, task_forces, raids, operations, cards). Check them as often as "
        "you like; Submit stores them for Game Control, replacing what you sent before.</p>"
        f"<textarea id='orders' name='orders' spellcheck='false'>{_e(text)}</textarea>"
        "<button id='check' name='action' value='check' type='submit'>Check</button>"
        "<button id='submit' name='action' value='submit' type='submit'>Submit</button>"
        f"</form>{reference}"
    )


#: the shape of each kind of order (docs/orders-format.md), shown beside the editor
EXAMPLES = """{
  "nation": "japan",
  "supplies": [{"route": "japan_truk", "lsp": 2}],
  "transfers": [{"unit": "jpn_bb_kongo_haruna", "to": "truk"}],
  "air_transfers": [{"air": "jpn_air_truk", "to": "rabaul", "points": 1}],
  "tonnage": {"japan_korea": 10, "japan_truk": 5},
  "new_routes": [{"id": "japan_rabaul", "name": "Japan - Rabaul", "origin": "yokohama",
                  "destination": "rabaul", "via": [], "tonnage": 3}],
  "escorts": [{"route": "japan_truk", "units": ["jpn_es_1"], "air": []}],
  "task_forces": [{"id": "kido_butai", "name": "Kido Butai", "base": "truk",
                   "units": ["jpn_cv_akagi_kaga"], "lsp": 2, "stance": "intervene"}],
  "raids": [{"route": "us_can_uk", "area": "north_atlantic", "units": ["jpn_ss_1"]}],
  "operations": [{"id": "sweep", "kind": "sea_control", "area": "java_sea",
                  "task_forces": ["kido_butai"]}],
  "cards": [{"card": "jpn_jn25", "use": "extra_flag"}]
}"""


def orders_reference(view: TeamView) -> str:
    """What a team's orders name, by id: its units, fleet bases it may sail from, routes
    (its own, and the others on the map), land-based air and cards; and the orders' shape."""
    friends = {view.nation, *view.allies}
    parts = [
        "<details><summary>How orders are written (every section is optional)</summary>"
        f"<pre>{_e(EXAMPLES)}</pre></details>",
        "<h3>Your units</h3>",
        _table(
            ("Unit id", "Unit", "Where", "State"),
            (
                (u.id, u.name, f"{_place(view, u.base)} ({u.base})", u.state)
                for u in view.units
                if u.state != "sunk"
            ),
            "No units.",
        ),
        "<h3>Fleet bases of your side</h3>",
        _table(
            ("Base id", "Base", "Sea area", "Held by"),
            (
                (b.id, b.name, b.sea_area, view.name_of(b.holder))
                for b in view.bases
                if b.fleet_base and b.holder in friends
            ),
            "None.",
        ),
        "<h3>Merchant routes</h3>",
        _table(
            ("Route id", "Route", "Whose", "Sea areas", "State", "Tonnage"),
            (
                (
                    r.id,
                    r.name,
                    view.name_of(r.nation),
                    " ".join(r.path),
                    r.state,
                    "" if r.tonnage is None else r.tonnage,
                )
                for r in view.routes
            ),
            "None.",
        ),
        "<h3>Land-based air and Advantage Cards</h3>",
        _air_table(view),
        _table(
            ("Card id", "Card", "Type", "Value"),
            ((c.id, c.title, c.type, c.value) for c in view.cards),
            "No cards left.",
        ),
    ]
    return "".join(parts)


# -- the map ---------------------------------------------------------------------------------
def _x(lon: float) -> float:
    return ((lon - SEAM) % 360.0) * SCALE


def _y(lat: float) -> float:
    return (NORTH - max(SOUTH, min(NORTH, lat))) * SCALE


def _ring(points: Sequence[tuple[float, float]]) -> str:
    """An area's outline kept in one piece (no jump across the chart's seam)."""
    lons = [float(points[0][0])]
    for lon, _ in points[1:]:
        lons.append(lon + 360.0 * round((lons[-1] - lon) / 360.0))
    mid = (min(lons) + max(lons)) / 2.0
    shift = ((mid - SEAM) % 360.0 + SEAM) - mid
    return " ".join(
        f"{(lon + shift - SEAM) * SCALE:.1f},{_y(lat):.1f}"
        for lon, (_, lat) in zip(lons, points, strict=True)
    )


def sea_layer(world: World) -> str:
    """The sea areas, the same for every team (made once)."""
    return "".join(
        f"<polygon class='sea' data-area='{_e(a.id)}' points='{_ring(a.polygon)}'>"
        f"<title>{_e(a.name)}</title></polygon>"
        for a in sorted(world.areas.values(), key=lambda a: a.id)
        if a.polygon
    )


def map_content(
    view: TeamView, world: World, sea: str, places: Mapping[str, tuple[float, float]]
) -> str:
    """The team's chart: the sea areas (those contested against its side shaded), every base
    by who holds it, its own and allied forces at each, its task forces, and the enemy
    counters and flags it can see on the map."""
    width, height = 360 * SCALE, (NORTH - SOUTH) * SCALE
    contested = {a for side, areas in view.contested for a in areas if side == view.side}
    shapes = [sea]
    for area in sorted(contested):
        if area in world.areas and world.areas[area].polygon:
            shapes.append(
                f"<polygon class='sea contested' points='{_ring(world.areas[area].polygon)}'>"
                f"<title>{_e(world.areas[area].name)} (contested)</title></polygon>"
            )
    friends = {view.nation, *view.allies}
    for b in view.bases:
        if b.id not in places:
            continue
        lon, lat = places[b.id]
        relation = (
            "own"
            if b.holder == view.nation
            else "ally"
            if b.holder in friends
            else "neutral"
            if not b.holder or b.holder not in {n.id for n in view.nations}
            else "enemy"
        )
        known = view.known_units_at(b.id)
        words = f"{b.name}: held by {view.name_of(b.holder)}"
        if known:
            words += "; " + ", ".join(u.name for u in known)
        radius = 4.0 if b.fleet_base else 2.5
        shapes.append(
            f"<circle class='base {relation}' data-base='{_e(b.id)}' cx='{_x(lon):.1f}' "
            f"cy='{_y(lat):.1f}' r='{radius}'><title>{_e(words)}</title></circle>"
        )
        if known:
            shapes.append(
                f"<text class='units' x='{_x(lon) + 4:.1f}' y='{_y(lat) + 3:.1f}'>"
                f"{len(known)}</text>"
            )
    for tf in view.task_forces:
        if tf.base in places:
            lon, lat = places[tf.base]
            x, y = _x(lon), _y(lat) - 5
            shapes.append(
                f"<polygon class='tf' points='{x:.1f},{y - 3:.1f} {x + 3:.1f},{y:.1f} "
                f"{x:.1f},{y + 3:.1f} {x - 3:.1f},{y:.1f}'><title>{_e(tf.name)}: "
                f"{_e(', '.join(tf.units))} (Fleet CV {tf.cv})</title></polygon>"
            )
    for c in view.counters:
        if c.base in places:
            lon, lat = places[c.base]
            shapes.append(
                f"<rect class='counter' x='{_x(lon) - 2:.1f}' y='{_y(lat) + 3:.1f}' width='4' "
                f"height='4'><title>Task force of {_e(view.name_of(c.nation))}</title></rect>"
            )
    for f in view.flags_on_map:
        spot = world.areas.get(f.sea_area)
        if spot is None:
            continue
        x, y = _x(spot.lon), _y(spot.lat)
        own = " own" if f.nation == view.nation else ""
        shapes.append(
            f"<polygon class='flag{own}' points='{x:.1f},{y:.1f} {x:.1f},{y - 8:.1f} "
            f"{x + 6:.1f},{y - 6:.1f} {x:.1f},{y - 4:.1f}'><title>Naval Operations Flag of "
            f"{_e(view.name_of(f.nation))} in {_e(spot.name)}</title></polygon>"
        )
    svg = (
        f"<svg class='map' id='map' viewBox='0 0 {width:.0f} {height:.0f}' "
        f"xmlns='http://www.w3.org/2000/svg' role='img' aria-label='Sea chart'>"
        f"{''.join(shapes)}</svg>"
    )
    legend = (
        "<p class='note'>Bases: dark blue yours, light blue allied, red enemy, grey neutral "
        "(the figure: your and allied units there). Yellow diamonds: your task forces; white "
        "squares: enemy task forces on the map; flags: Naval Operations Flags. Orange sea "
        "areas are contested for your side's routes. Point at anything for its name.</p>"
    )
    return svg + legend


def orders_problems_text(problems: Sequence[OrderProblem]) -> str:
    return f"{len(problems)} problem{'s' if len(problems) != 1 else ''} with the orders"


def seat_clock_text(shown: str, phase: str, running: bool) -> str:
    return f"{phase} {shown}{'' if running else ' (paused)'}"
