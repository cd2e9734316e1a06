"""Render PNG screenshots of the app's main views on the 1942 game (offscreen Qt).

Run: ``python tools/screenshots.py OUT_DIR [--scale 2]``. Writes the main window at
1366×768 (the laptop size the app must be readable at) before and after a resolved turn,
the orders editor's tabs, the report, the odds, the calculator and the scenario editor,
and, with ``--scale 2``, the same at twice the pixel density (high-DPI screens). Look at
them.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.ui.walk

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument(
        "--guide",
        type=Path,
        help="also write the user guide's pictures (docs/images) from these screenshots",
    )
    args = parser.parse_args()
    if args.scale != 1.0:
        os.environ["QT_SCALE_FACTOR"] = str(args.scale)
    from PySide6.QtCore import QCoreApplication, QStandardPaths
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName("SeaControlScreens")
    QCoreApplication.setApplicationName("screens")
    QStandardPaths.setTestModeEnabled(True)
    app = QApplication(sys.argv[:1])
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from campaign import paths
    from campaign.orders import load_orders
    from ui.mainwindow import MainWindow

    args.out.mkdir(parents=True, exist_ok=True)
    w = MainWindow(ask_losses=False)
    w.session.new_game()
    w.resize(1366, 768)
    w.show()
    w.chart.fit_world()
    app.processEvents()

    def shot(name: str, widget: object = None) -> None:
        app.processEvents()
        target = widget or w
        target.grab().save(str(args.out / f"{name}.png"))  # type: ignore[attr-defined]

    shot("01-main-1942")
    samples = paths.scenario_dir("1942") / "sample-orders"
    for f in sorted(samples.glob("*.json")):
        w.session.set_orders(f.stem, load_orders(f.read_text(encoding="utf-8"), f.stem))
    w.orders.nation.setCurrentIndex(w.orders.nation.findData("japan"))
    for i in range(w.orders.tabs.count()):
        w.orders.tabs.setCurrentIndex(i)
        shot(f"02-orders-{i}-{w.orders.tabs.tabText(i).split()[0].lower()}")
    w.chart.zoom_to("Pacific")
    shot("03-pacific")
    w.bottom_tabs.setCurrentIndex(1)
    shot("04-odds")
    w.bottom_tabs.setCurrentWidget(w.tactical_odds_tab)
    panel = w.tactical_odds
    panel.rule_set.setCurrentIndex(panel.rule_set.findData("carrier"))
    panel.runs.setValue(300)
    panel.run()
    shot("04b-fight-it-out-odds")
    w.resolve(10)
    w.bottom_tabs.setCurrentWidget(w.report)
    shot("05-after-turn-report")
    tabs = w.bottom_tabs
    tabs.setCurrentIndex(
        next(i for i in range(tabs.count()) if tabs.tabText(i) == "Umpire's calculator")
    )
    shot("06-calculator")
    w.chart.zoom_to("Mediterranean")
    shot("07-mediterranean")
    w.set_control_mode(True)
    w.control.choose("unit_state", unit="usa_cv_wasp_hornet", state="damaged")
    w.control.reason.setText("collision in Norfolk harbour, reported late")
    w.control.apply()
    w.control.choose("route_tonnage", route="us_can_uk")
    shot("08-control-edit-mode")
    from ui.printouts import HandoffDialog, TeamPacksDialog

    for name, dialog in (
        ("09-team-packs", TeamPacksDialog(w.session, w)),
        ("10-hand-off-sheets", HandoffDialog(w.session, w)),
    ):
        dialog.show()
        shot(name, dialog)
        dialog.close()
    # the scenario editor on a copy of 1942: a unit's base and range, a problem at its cell
    editor = w.scenario_editor.open_editor()
    editor.resize(1366, 768)
    editor.open_builtin("1942")
    akagi = editor.draft.find("units", "jpn_cv_akagi_kaga") or 0
    editor.edit_cell("units", akagi + 1, "base", "kuree")
    editor.check_now()
    editor.show_kind("units")
    editor.pages["units"].select(akagi, 4)
    shot("11-scenario-editor", editor)
    editor.undo.undo()
    editor.set_tool("route")
    chart = editor.chart
    chart.find_place("truk")
    world = editor.draft.world()
    bases = editor.map_session.board().bases
    path = world.path(str(bases["truk"]["sea_area"]), str(bases["sydney"]["sea_area"]))
    clicks = [chart.base_points["truk"]] + [chart.label_points[a] for a in path[1:3]]
    for point in clicks:
        QTest.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, pos=chart.mapFromScene(point))
    shot("12-scenario-editor-route-tool", editor)
    editor.close()
    w.session.close()
    w.close()
    walk_through_a_turn(app, args.out)
    if args.guide:
        write_guide_pictures(args.out, args.guide)
    print(f"screenshots in {args.out}")
    return 0


#: screenshot → the user guide's picture (docs/user-guide.md shows them)
GUIDE_PICTURES = {
    "01-main-1942": "window",
    "02-orders-0-forces": "orders",
    "04-odds": "odds",
    "22-dialog-battleChoice": "battle-question",
    "23-dialog-stepLosses": "step-losses",
    "30-after-turn-marks-and-legend": "after-the-turn",
    "31-details-in-port-pearl-harbour": "in-port-card",
    "32-team-view-japan": "team-view",
    "08-control-edit-mode": "control-edits",
}


def write_guide_pictures(shots: Path, folder: Path) -> None:
    """The guide's pictures: JPEG, at most 1,000 px wide (small enough to ship)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    folder.mkdir(parents=True, exist_ok=True)
    for shot, name in GUIDE_PICTURES.items():
        image = QImage(str(shots / f"{shot}.png"))
        if image.width() > 1000:
            image = image.scaledToWidth(1000, Qt.TransformationMode.SmoothTransformation)
        image.save(str(folder / f"{name}.jpg"), "JPG", 82)


def walk_through_a_turn(app: object, out: Path) -> None:
    """The moments of issue 15's walk (tests/ui/test_a_whole_turn.py), photographed: an
    orders file opened from the panel, the battle question and the step-losses dialog as
    they come, the chart after the turn with its marks and legend, a base's In Port card
    after a click, and Japan's team view."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QDialog

    from campaign import paths
    from tests.ui.walk import Person
    from ui.mainwindow import MainWindow

    samples = paths.scenario_dir("1942") / "sample-orders"
    shots: set[str] = set()

    def photograph(dialog: QDialog) -> None:
        kind = dialog.objectName() or type(dialog).__name__
        if kind not in shots:
            shots.add(kind)
            app.processEvents()  # type: ignore[attr-defined]
            dialog.grab().save(str(out / f"2{len(shots)}-dialog-{kind}.png"))

    person = Person(on_dialog=photograph)
    person.start()
    w = MainWindow()
    w.session.new_game()
    w.resize(1366, 768)
    w.show()
    for i in range(w.orders.nation.count()):
        w.orders.nation.setCurrentIndex(i)
        person.files.append(str(samples / f"{w.orders.nation.itemData(i)}.json"))
        w.orders.open_button.click()
    for _ in range(10):
        w.turnbar.next_button.click()
    w.chart.zoom_to("Pacific")
    app.processEvents()  # type: ignore[attr-defined]
    w.grab().save(str(out / "30-after-turn-marks-and-legend.png"))
    point = w.chart.mapFromScene(w.chart.base_points["pearl_harbour"])
    QTest.mouseClick(w.chart.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(point))
    app.processEvents()  # type: ignore[attr-defined]
    w.grab().save(str(out / "31-details-in-port-pearl-harbour.png"))
    w.set_viewer("japan")
    app.processEvents()  # type: ignore[attr-defined]
    w.grab().save(str(out / "32-team-view-japan.png"))
    person.stop()
    w.session.close()


if __name__ == "__main__":
    sys.exit(main())
