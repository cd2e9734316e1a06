"""Team secrecy in the app (issue 12 item 7): with Japan's orders and scenario rows full of
canaries and turn 1 resolved to step 9 (task force counters and flags on the map), nothing
a team of the other side gets from the app holds one — its report and routes chart as CSV
and PDF (the PDF's text read back), and the chart and details in its team view: counters,
tooltips and every card — except the names of the Japanese units it fought."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QTableWidget

from campaign.engine import Campaign
from tests.test_team_secrecy import CANARY, canary_1942, fought_units, game_with_fleet_train
from ui import export
from ui.details import DetailsPanel
from ui.mapview import PUBLIC, SeaChart
from ui.orders import OrdersEditor
from ui.session import GameSession

VIEWERS = ("usa", "uk", "netherlands", "vichy_france")


@pytest.fixture(scope="module")
def canary_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return canary_1942(tmp_path_factory.mktemp("ui-war"), to_step=9)


@pytest.fixture
def session(
    qapp: object, canary_game: tuple[Path, dict[str, str]], tmp_path: Path
) -> Iterator[GameSession]:
    s = GameSession()
    s.open(canary_game[0])
    yield s
    s.close()


def pdf_text(path: Path) -> str:
    """The words of a PDF, one space between them (pypdf separates them with tabs)."""
    text = " ".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)
    return re.sub(r"\s+", " ", text)


def canaries(texts: dict[str, str], allowed: set[str]) -> set[tuple[str, str]]:
    return {
        (where, hit.group(0))
        for where, text in texts.items()
        for hit in CANARY.finditer(text)
        if hit.group(0) not in allowed
    }


def allowed_for(game: Path, names: dict[str, str], viewer: str) -> set[str]:
    with Campaign.open(game) as c:
        return {names[u] for u in fought_units(c.events(), viewer) if u in names}


def exports(session: GameSession, viewer: str | None, folder: Path) -> dict[str, str]:
    out = {
        "report.csv": export.export_report_csv(session, folder / "r.csv", viewer, 1).read_text(),
        "routes.csv": export.export_routes_csv(session, folder / "c.csv", viewer).read_text(),
        "report.pdf": pdf_text(export.export_report_pdf(session, folder / "r.pdf", viewer, 1)),
        "routes.pdf": pdf_text(export.export_routes_pdf(session, folder / "c.pdf", viewer)),
    }
    return out


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_teams_exports_hold_no_japanese_secret(
    session: GameSession,
    canary_game: tuple[Path, dict[str, str]],
    viewer: str,
    tmp_path: Path,
) -> None:
    game, names = canary_game
    texts = exports(session, viewer, tmp_path)
    assert "Turn 1 report" in texts["report.pdf"]  # the PDF's text is read back
    assert not canaries(texts, allowed_for(game, names, viewer))


def test_game_controls_exports_do_hold_the_canaries(session: GameSession, tmp_path: Path) -> None:
    # the same search finds them where they may be: the tests above can fail
    texts = exports(session, None, tmp_path)
    found = {hit for _where, hit in canaries(texts, set())}
    assert "Qzx" in found  # the task forces' names (operations are named by them)
    assert "Qzx task force" in texts["report.pdf"]
    rows = list(csv.reader(texts["routes.csv"].splitlines()))
    assert any(r[1] == "Qzx route 0" for r in rows)


def everything_on_screen(chart: SeaChart, details: DetailsPanel) -> dict[str, str]:
    """Every counter's text, every tooltip and every details card of the chart now."""
    out: dict[str, str] = {}
    items = [("base", b) for b in chart.bases] + [("route", r) for r in chart.routes]
    items += [("task_force", k) for k in chart.counters] + [("area", a) for a in chart.areas]
    for kind, key in items:
        out[f"tooltip {kind} {key}"] = chart.tooltip(kind, key)
        details.show_item(kind, key)
        out[f"details {kind} {key}"] = details.text()
    for key, counter in chart.counters.items():
        out[f"counter {key}"] = counter.text() if counter.isVisible() else ""
    for key, label in chart.base_labels.items():
        out[f"label {key}"] = label.text
    return out


def tables_of(editor: OrdersEditor) -> dict[str, str]:
    """Every cell of every table of the orders editor (its routes chart among them)."""
    out: dict[str, str] = {}
    for table in editor.findChildren(QTableWidget):
        heads = [table.horizontalHeaderItem(c) for c in range(table.columnCount())]
        name = ",".join(h.text() for h in heads if h is not None)
        for r in range(table.rowCount()):
            cells = [table.item(r, c) for c in range(table.columnCount())]
            out[f"table {name} row {r}"] = " | ".join(i.text() for i in cells if i is not None)
    return out


def routes_rows(editor: OrdersEditor) -> dict[str, dict[str, str]]:
    """The orders editor's routes chart: route id → column heading → text."""
    table = editor.routes
    heads = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    rows = {}
    for r in range(table.rowCount()):
        first = table.item(r, 0)
        assert first is not None
        rid = first.data(Qt.ItemDataRole.UserRole)
        rows[rid] = {h: table.item(r, c).text() for c, h in enumerate(heads)}
    return rows


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_teams_chart_and_details_hold_no_japanese_secret(
    qtbot: object,
    session: GameSession,
    canary_game: tuple[Path, dict[str, str]],
    viewer: str,
) -> None:
    game, names = canary_game
    chart = SeaChart(session)
    details = DetailsPanel(session)
    qtbot.addWidget(chart)  # type: ignore[attr-defined]
    qtbot.addWidget(details)  # type: ignore[attr-defined]
    chart.set_team(viewer)
    details.set_team(viewer)
    # Japan's counters are on the map (step 5 is done), as counters only
    japanese = [k for k in chart.counters if k.startswith(f"{PUBLIC}:japan:")]
    assert japanese and all(chart.counters[k].text() == "TF" for k in japanese)
    assert not [k for k in chart.counters if k.startswith("japan:")]
    seen = everything_on_screen(chart, details)
    editor = OrdersEditor(session, QUndoStack())
    qtbot.addWidget(editor)  # type: ignore[attr-defined]
    editor.set_team(viewer)
    seen |= tables_of(editor)
    assert not canaries(seen, allowed_for(game, names, viewer))
    # the routes chart counts the team's own escorts and attackers only, and the tonnage
    # of its own routes only
    with Campaign.open(game) as c:
        own_raids = {r.route for r in c.orders(1)[viewer].raids} if viewer in c.orders(1) else set()
        nation_of = {r: c.board().route_nation(r) for r in c.board().route_ids()}
    for rid, row in routes_rows(editor).items():
        if rid not in own_raids:
            assert row["Attackers"] == "0", (viewer, rid, row)
        if nation_of[rid] != viewer:
            assert row["Tonnage"] == "not known", (viewer, rid, row)
    assert routes_rows(editor)
    # Game Control's chart on the same game shows them: the search can fail
    chart.set_team(None)
    details.set_team(None)
    editor.set_team(None)
    editor.nation.setCurrentIndex(editor.nation.findData("japan"))
    assert canaries(everything_on_screen(chart, details) | tables_of(editor), set())
    assert any(row["Attackers"] != "0" for row in routes_rows(editor).values())


def test_another_sides_fleet_train_is_named_by_whose_it_is(
    qtbot: object, tmp_path: Path, mini_dir: Path
) -> None:
    """A fleet train is on the map (where, whose); the name its team typed is its side's:
    not on the other side's chart labels, tooltips, details or search — even with the
    train's sea area contested, so its supply route's state names the place."""
    path = game_with_fleet_train(
        tmp_path, mini_dir, "ft_supply", "Qzxtrainname Squadron", contested=True
    )
    session = GameSession()
    session.open(path)
    try:
        chart = SeaChart(session)
        details = DetailsPanel(session)
        qtbot.addWidget(chart)  # type: ignore[attr-defined]
        qtbot.addWidget(details)  # type: ignore[attr-defined]
        for viewer, shown in (("red", False), ("blue", True), (None, True)):
            chart.set_team(viewer)
            details.set_team(viewer)
            seen = everything_on_screen(chart, details)
            assert bool(canaries(seen, set())) is shown, viewer
            assert chart.find_place("Qzxtrainname") is shown, viewer
        chart.set_team("red")
        assert chart.base_labels["ft_supply"].text == "Fleet train of Blueland"
    finally:
        session.close()
