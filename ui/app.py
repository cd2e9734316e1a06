"""``seacontrol``: the desktop app. Opens the built-in 1942 scenario (or a game file given
on the command line) on the sea chart."""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from campaign import __version__
from campaign.gamefile import GameFileError

if TYPE_CHECKING:
    from .mainwindow import MainWindow


def _install_error_dialog(app: QApplication) -> None:
    """No traceback ever reaches the user: an unexpected error becomes a dialog that says
    what happened and that the game is safe (every step is already on disk)."""

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        detail = "".join(traceback.format_exception(kind, value, tb))
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            "Something went wrong",
            f"Sea Control met an unexpected problem: {value}\n\n"
            "Your game is safe: every order and every resolved step is saved "
            "as it happens. If this keeps happening, send the details below "
            "to the developers.",
        )
        box.setDetailedText(detail)
        box.exec()

    sys.excepthook = hook
    del app


def start(argv: list[str] | None = None) -> tuple[QApplication, MainWindow]:
    """Read the command line, make the application and show the main window on the game:
    everything up to the event loop (what ``bench/app_bench.py`` times)."""
    parser = argparse.ArgumentParser(prog="seacontrol", description=__doc__)
    parser.add_argument("game", nargs="?", help="a game file to open")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    args = parser.parse_args(argv)
    QCoreApplication.setOrganizationName("SeaControl")
    QCoreApplication.setApplicationName("Sea Control")
    QApplication.setHighDpiScaleFactorRoundingPolicy(
        Qt.HighDpiScaleFactorRoundingPolicy.PassThrough
    )
    app = QApplication(sys.argv[:1])
    _install_error_dialog(app)
    from .mainwindow import MainWindow

    window = MainWindow()
    if not window.offer_recovery():
        if args.game:
            try:
                window.session.open(Path(args.game))
            except GameFileError as exc:
                window.error("The game cannot be opened", str(exc))
                window.session.new_game()
        else:
            window.session.new_game()
    window.show()
    window.chart.fit_world()
    return app, window


def main(argv: list[str] | None = None) -> int:
    app, _window = start(argv)
    return int(app.exec())


if __name__ == "__main__":
    sys.exit(main())
