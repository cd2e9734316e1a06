"""The report, calculator and odds panels and the exports, driven offscreen through their
widgets (pytest-qt), on the 1942 game after the sample orders' first turn."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QMessageBox

from campaign import calculator
from campaign.events import visible
from campaign.orders import load_orders
from campaign.turn import STEPS
from ui import export
from ui.calculator import CalculatorPanel
from ui.oddschart import OddsChart, OddsPanel
from ui.report import ReportPanel
from ui.session import GameSession

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data" / "scenarios" / "1942" / "sample-orders"


@pytest.fixture
def session(qapp: object) -> GameSession:
    """The 1942 game with every sample order given and turn 1 resolved."""
    s = GameSession()
    s.new_game()
    for path in sorted(SAMPLES.glob("*.json")):
        problems = s.set_orders(path.stem, load_orders(path.read_text("utf-8"), path.stem))
        assert problems == [], problems
    s.resolve(10)
    yield s
    s.close()


@pytest.fixture
def report(qtbot: object, session: GameSession) -> ReportPanel:
    panel = ReportPanel(session)
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.resize(1100, 700)
    panel.show()
    return panel


# -- the report ------------------------------------------------------------------------------
def test_report_shows_every_step_heading_and_the_turns_events(report: ReportPanel) -> None:
    assert report.turn == 1
    text = report.events_view.toPlainText()
    for step in STEPS:
        assert f"Step {step.number} — {step.name}" in text
    shown = report.shown_events()
    assert shown and all(e.turn == 1 for e in shown)
    assert len(shown) == len(report.session.events(None, 1))
    assert "Nagasaki" in text  # an event's own words
    assert "(nothing to report)" in text  # step 2 has no production this turn
    assert report.dice_table.rowCount() == len(report.session.require().dice_log())
    assert "✓" in report.chain_label.text()
    assert report.session.require().dice_head() in report.chain_label.text()


def test_filters_narrow_the_list(report: ReportPanel) -> None:
    everything = len(report.shown_events())
    report.step_box.setCurrentIndex(report.step_box.findData("9"))
    merchant = report.shown_events()
    assert 0 < len(merchant) < everything
    assert {e.step for e in merchant} == {9}
    assert "Step 8" not in report.events_view.toPlainText()
    report.kind_box.setCurrentIndex(report.kind_box.findData("merchant_combat"))
    combats = report.shown_events()
    assert combats and {e.kind for e in combats} == {"merchant_combat"}
    report.set_filters()
    report.nation_box.setCurrentIndex(report.nation_box.findData("japan"))
    assert {e.nation for e in report.shown_events()} == {"japan"}
    report.set_filters()
    report.search.setText("Nagasaki")
    found = report.shown_events()
    assert found and all("nagasaki" in e.text.lower() for e in found)
    assert f"{len(found)} of {everything} events" == report.count_label.text()
    report.set_filters()
    assert len(report.shown_events()) == everything


def test_team_view_needs_confirmation_and_hides_other_teams_events(
    report: ReportPanel, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    japan_tf = [e for e in report.shown_events() if e.kind == "task_force_formed"]
    assert any(e.nation == "japan" for e in japan_tf)  # Game Control sees them
    # the explicit action asks first; refusing keeps Game Control's view
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Cancel)
    assert report.set_viewer("germany") is False
    assert report.viewer == ""
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    germany = next(a for a in report.view_menu.actions() if a.text() == "Germany team")
    with qtbot.waitSignal(report.viewerChanged) as blocker:  # type: ignore[attr-defined]
        germany.trigger()
    assert blocker.args == ["germany"]
    shown = report.shown_events()
    assert shown
    assert all(not e.visible_to or "germany" in e.visible_to for e in shown)
    assert shown == visible(report.session.events(None, 1), "germany")
    # Japan's task forces: only their counters on the map, not their names or units
    japanese = [e for e in shown if e.kind == "task_force_formed" and e.nation == "japan"]
    assert japanese and all(set(e.data) == {"base", "area"} for e in japanese)
    assert not any("Kido Butai" in e.text for e in shown)
    # the filter boxes offer nothing the team cannot see
    kinds = {report.kind_box.itemData(i) for i in range(report.kind_box.count())}
    assert "lsp_consumed" not in kinds  # Germany consumed no LSP; Japan's is Japan's
    assert "seen by" not in report.events_view.toPlainText()
    # no individual rolls: the chain head and count only, and it says so
    assert report.dice_table.rowCount() == 0
    assert report.dice_stack.currentWidget() is report.dice_hidden
    assert "Game Control only" in report.dice_hidden.text()
    assert report.session.require().dice_head() in report.chain_label.text()
    # and back, again through the method the menu calls
    assert report.set_viewer("", confirm=False)
    assert len(report.shown_events()) == len(report.session.events(None, 1))


def test_report_follows_the_session(report: ReportPanel, session: GameSession) -> None:
    assert [report.turn_box.itemData(i) for i in range(report.turn_box.count())] == [2, 1]
    report.set_turn(2)
    assert {e.kind for e in report.shown_events()} == {"turn_started"}
    report.set_turn(None)
    session.close()
    assert report.shown_events() == []
    assert "No game is open" in report.events_view.toPlainText()


# -- the calculator --------------------------------------------------------------------------
def test_calculator_merchant_example_one(qtbot: object) -> None:
    """002 Example One: 4 German flotillas (CV 12) v 2 Escort Forces (CV 4), rolls 1 and 2."""
    panel = CalculatorPanel()
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.m_attacker.setCurrentIndex(panel.m_attacker.findData("german-sub"))
    panel.m_attackers.setValue(4)
    panel.m_attack_cv.setValue(12)
    panel.m_escort_cv.setValue(4)
    panel.m_attack_roll.setValue(1)
    panel.m_escort_roll.setValue(2)
    r = panel.merchant_result
    assert r is not None
    assert (r["odds_column"], r["difference"], r["colour"]) == ("3:1", -1, "Blue")
    assert (r["tonnage_lost"], r["escort_steps"], r["raider_steps"]) == (8, 2, 0)
    assert "BLUE" in panel.m_labels["colour"].text()
    assert panel.m_labels["tonnage"].text().startswith("8 ")
    assert panel._colour_marks.used == {(3, 7)}  # row "-1", column "3:1"


def test_calculator_naval_dice_follow_the_cv(qtbot: object) -> None:
    panel = CalculatorPanel()
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.naval_cv.setValue(45)
    assert len(panel.naval_dice) == 3
    for box, roll in zip(panel.naval_dice, (4, 6, 3), strict=True):
        box.setValue(roll)
    panel.naval_drm.setValue(1)
    expected = calculator.calc_naval(45, [4, 6, 3], 1)
    assert panel.naval_result == expected
    assert panel.naval_table.rowCount() == 3
    assert panel.naval_table.item(2, 1).text() == "5"  # the last die rolls on CV row 5
    assert f"{expected['steps']} steps" in panel.naval_total.text()
    assert len(panel._damage_marks.used) == 3
    panel.naval_cv.setValue(20)
    assert len(panel.naval_dice) == 1
    panel.naval_cv.setValue(0)
    assert panel.naval_dice == [] and "no steps" in panel.naval_total.text()


# -- the odds chart --------------------------------------------------------------------------
def test_odds_chart_paints_and_the_panel_updates(qtbot: object) -> None:
    panel = OddsPanel()
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.resize(1000, 560)
    panel.show()
    assert panel.chart.kind == "naval"
    assert not panel.chart.grab().isNull()
    bars = panel.chart.bars()
    assert bars and any("wins" in b.tooltip for b in bars)
    before = panel.odds
    panel.side_a.cv.setValue(60)
    assert panel.odds is not before and panel.odds.a.cv == 60
    panel.tabs.setCurrentIndex(1)
    assert panel.chart.kind == "merchant"
    panel.chart.grab()
    tips = [b.tooltip for b in panel.chart.bars()]
    assert "Blue: 1/3 = 33.33%" in tips  # 12 v 4 German subs: column 3:1
    centre = panel.chart.bars()[0].rect.center()
    assert panel.chart.tooltip_at(QPointF(centre)) == panel.chart.bars()[0].tooltip
    panel.escort_cv.setValue(40)  # below 1:3: no combat
    panel.chart.grab()
    assert panel.chart.bars() == []


def test_odds_chart_is_readable_small(qtbot: object) -> None:
    chart = OddsChart()
    qtbot.addWidget(chart)  # type: ignore[attr-defined]
    chart.resize(chart.minimumSize())
    assert not chart.grab().isNull()  # nothing to show: a message, no error
    panel = OddsPanel()
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.side_a.cv.setValue(400)
    chart.set_naval(panel.odds)  # type: ignore[arg-type]
    assert not chart.grab().isNull()


# -- exports ---------------------------------------------------------------------------------
def read_csv(path: Path) -> list[list[str]]:
    raw = path.read_bytes()
    assert b"\r\n" not in raw
    return list(csv.reader(raw.decode("utf-8").splitlines()))


def test_report_csv_as_game_control_and_as_a_team(session: GameSession, tmp_path: Path) -> None:
    rows = read_csv(export.export_report_csv(session, tmp_path / "gc.csv"))
    assert tuple(rows[0]) == (*export.REPORT_HEADER, "seen_by")
    assert len(rows) - 1 == len(session.events(None, 1))
    team = read_csv(export.export_report_csv(session, tmp_path / "de.csv", "germany", 1))
    assert tuple(team[0]) == export.REPORT_HEADER
    assert len(team) - 1 == len(visible(session.events(None, 1), "germany"))
    japanese = [r for r in team[1:] if r[4] == "task_force_formed" and r[3] == "japan"]
    assert japanese and all(r[5].startswith("A task force counter of Japan") for r in japanese)
    assert {r[2] for r in team[1:]} <= {s.name for s in STEPS} | {export.BETWEEN_TURNS}


def test_routes_csv_is_the_annex_b_chart(session: GameSession, tmp_path: Path) -> None:
    rows = read_csv(export.export_routes_csv(session, tmp_path / "routes.csv"))
    assert tuple(rows[0]) == export.ROUTES_HEADER
    board = session.board()
    assert len(rows) - 1 == len(board.route_rows)
    first = rows[1]
    line = board.route(next(r for r in board.route_rows if board.route(r).serial == 1))
    assert first[:4] == ["1", line.name, "UK & Commonwealth", str(line.tonnage)]
    assert first[5] == str(line.effective_lift)
    assert first[4].startswith(line.length.label)
    assert first[6] and first[7]  # the Atlantic route had escorts and U-boats in turn 1
    # a team sees no other team's escorts
    team = read_csv(export.export_routes_csv(session, tmp_path / "de.csv", viewer="germany"))
    assert team[1][6] == ""  # the Allied escorts on the Atlantic are not Germany's to know
    assert team[1][7]  # its own U-boats are
    assert team[1][3] == team[1][5] == "not known"  # nor the UK's tonnage on the route


@pytest.mark.parametrize("viewer", [None, "germany"])
def test_report_pdf(session: GameSession, tmp_path: Path, viewer: str | None) -> None:
    path = export.export_report_pdf(session, tmp_path / "report.pdf", viewer)
    data = path.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 2000


def test_routes_pdf(session: GameSession, tmp_path: Path) -> None:
    path = export.export_routes_pdf(session, tmp_path / "routes.pdf")
    assert path.read_bytes().startswith(b"%PDF")


def test_report_html_ends_with_the_dice_anchor(session: GameSession) -> None:
    body = export.report_html(session, "germany")
    assert session.require().dice_head() in body
    assert body.rindex(session.require().dice_head()) > body.rindex("Step 10")
    assert "seen by" not in body


def test_every_document_opens_from_the_help_menu(qtbot: object) -> None:
    from ui.helpdocs import DOCUMENTS, DocumentWindow
    from ui.mainwindow import MainWindow

    window = MainWindow(ask_losses=False)
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    titles = [a.text() for a in window.menuBar().actions() if a.text() == "&Help"]
    assert titles
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    labels = [a.text() for a in help_menu.actions()]  # type: ignore[union-attr]
    for label, file in DOCUMENTS.items():
        assert label in labels
        doc = DocumentWindow(label, file)
        qtbot.addWidget(doc)  # type: ignore[attr-defined]
        text = doc.browser.toPlainText()
        assert len(text) > 500 and "cannot be read" not in text, file
    window.show_document("Readings of the &rules", "rules-notes.md")
    assert window.documents and window.documents[-1].isVisible()


def test_the_user_guide_shows_its_pictures(qtbot: object) -> None:
    import re

    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QImage, QTextDocument

    from campaign import paths
    from ui.helpdocs import DocumentWindow

    doc = DocumentWindow("User guide", "user-guide.md")
    qtbot.addWidget(doc)  # type: ignore[attr-defined]
    text = (paths.docs_dir() / "user-guide.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(pictures) >= 8
    for picture in pictures:
        data = doc.browser.loadResource(QTextDocument.ResourceType.ImageResource, QUrl(picture))
        assert not QImage.fromData(data).isNull(), picture  # found and readable


def test_each_menu_letter_opens_one_thing(qtbot: object) -> None:
    """Alt+V then a letter must reach one item: two items sharing a mnemonic make the
    keyboard stop at the first (View → 't' opened the theatres, not the team view)."""
    import re

    from PySide6.QtWidgets import QMenu

    from ui.mainwindow import MainWindow

    window = MainWindow(ask_losses=False)
    qtbot.addWidget(window)  # type: ignore[attr-defined]

    def letters(menu: QMenu) -> None:
        seen: dict[str, str] = {}
        for action in menu.actions():
            found = re.search(r"&([^&])", action.text().replace("&&", ""))
            if found:
                letter = found.group(1).lower()
                assert letter not in seen, f"{seen[letter]!r} and {action.text()!r} share &{letter}"
                seen[letter] = action.text()
            if action.menu() is not None:
                letters(action.menu())  # type: ignore[arg-type]

    bar = window.menuBar()
    top = [a.text() for a in bar.actions()]
    tops = [re.search(r"&(.)", t).group(1).lower() for t in top if "&" in t]  # type: ignore[union-attr]
    assert len(tops) == len(set(tops)), top
    for action in bar.actions():
        letters(action.menu())  # type: ignore[arg-type]
