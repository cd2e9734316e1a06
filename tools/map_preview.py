"""Render screenshots of the sea chart for the 1942 game, to judge its look by eye.

    QT_QPA_PLATFORM=offscreen python tools/map_preview.py OUTPUT_FOLDER [--orders]

Writes ``world.png`` (fit to the world at 1366×768, the smallest screen the app supports),
``pacific.png``, ``mediterranean.png`` (a closer zoom), ``atlantic.png``, ``north.png``,
``east_indies.png`` and ``world@2x.png`` (a device-pixel-ratio 2 render, as on a high-DPI
laptop). With ``--orders`` the turn-1 sample orders are stored first, so task forces show.
Settings and the game's working copy go to a temporary folder, never the user's.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QRect, QSettings, QStandardPaths
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from campaign import paths  # noqa: E402
from campaign.orders import load_orders  # noqa: E402
from ui.mapview import SeaChart  # noqa: E402
from ui.session import GameSession  # noqa: E402

WIDTH, HEIGHT = 1366, 768


def load_sample_orders(session: GameSession) -> None:
    """Store every nation's turn-1 sample orders (shipped with the 1942 scenario)."""
    folder = paths.scenario_dir("1942") / "sample-orders"
    for file in sorted(folder.glob("*.json")):
        problems = session.set_orders(file.stem, load_orders(file.read_text("utf-8"), file.stem))
        if problems:
            raise SystemExit(f"sample orders for {file.stem} refused: {problems[0]}")


def grab(chart: SeaChart, path: Path, ratio: float = 1.0) -> None:
    """The chart as the screen shows it, at ``ratio`` device pixels per pixel."""
    image = QImage(
        int(WIDTH * ratio), int(HEIGHT * ratio), QImage.Format.Format_ARGB32_Premultiplied
    )
    image.setDevicePixelRatio(ratio)
    painter = QPainter(image)
    chart.render(painter, source=QRect(0, 0, WIDTH, HEIGHT))
    painter.end()
    image.save(str(path))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--orders", action="store_true", help="store the sample orders first")
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = tmp
        os.environ["XDG_CONFIG_HOME"] = tmp
        app = QApplication.instance() or QApplication([])
        QCoreApplication.setOrganizationName("SeaControl")
        QCoreApplication.setApplicationName("SeaControl-preview")
        QStandardPaths.setTestModeEnabled(True)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tmp)
        QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, tmp)
        session = GameSession()
        session.new_game()
        if args.orders:
            load_sample_orders(session)
        chart = SeaChart(session)
        chart.resize(WIDTH, HEIGHT)
        chart.show()
        app.processEvents()

        chart.fit_world()
        grab(chart, args.folder / "world.png")
        grab(chart, args.folder / "world@2x.png", ratio=2.0)
        for theatre, file in (
            ("Pacific", "pacific.png"),
            ("Atlantic", "atlantic.png"),
            ("North Sea & Arctic", "north.png"),
            ("East Indies", "east_indies.png"),
            ("Indian Ocean", "indian.png"),
        ):
            chart.zoom_to(theatre)
            grab(chart, args.folder / file)
        chart.zoom_to("Mediterranean")
        chart.zoom_by(1.6)
        grab(chart, args.folder / "mediterranean.png")
        session.close()
    print("\n".join(sorted(str(p) for p in args.folder.glob("*.png"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
