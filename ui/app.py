"""``seacontrol``: the desktop app. Opens the built-in 1942 scenario (or a game file given
on the command line) on the sea chart."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

# The engine and sqlite-utils first (pure Python, no Qt; the game file would load
# sqlite-utils when the first game is made, after Qt): once loaded, PySide6 reads the
# source of every module an import statement names, to see whether it uses PySide6 (for
# its ``__feature__`` switches) — tens of milliseconds over the engine, sqlite-utils and
# the standard library at start-up
import sqlite_utils  # noqa: F401

import campaign.engine
import campaign.reports  # noqa: F401
from campaign import __version__
from campaign.gamefile import GameFileError

# isort: split
from PySide6.QtCore import QByteArray, QCoreApplication, QSettings, Qt
from PySide6.QtWidgets import QApplication, QMessageBox

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


#: the X11 libraries Qt's xcb platform plugin needs beyond the Python wheel (Debian names)
XCB_LIBRARIES = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
}


def display_problem(env: Mapping[str, str] | None = None) -> str | None:
    """Why the window could not open here, in words with the fix, before Qt tries (Qt's own
    message for a missing library is a plugin error that names none of these); None: go."""
    env = os.environ if env is None else env
    if not sys.platform.startswith("linux"):
        return None
    platform = env.get("QT_QPA_PLATFORM", "")
    if platform and not platform.startswith("xcb"):
        return None  # offscreen, wayland, vnc…: Qt's own choice
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return (
            "Sea Control needs a desktop to open its window, and none was found (DISPLAY is "
            "not set). Run it from a desktop session, or with QT_QPA_PLATFORM=offscreen for "
            "a window nobody sees; the command line (seacontrol-cli) needs no display."
        )
    if env.get("WAYLAND_DISPLAY") and not platform:
        return None
    import ctypes.util  # here, not at start-up: start() never asks

    missing = [pkg for lib, pkg in XCB_LIBRARIES.items() if ctypes.util.find_library(lib) is None]
    if missing:
        return (
            "Qt needs system libraries that are not installed: "
            + ", ".join(missing)
            + ". On Debian or Ubuntu: sudo apt-get install "
            + " ".join(missing)
        )
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="seacontrol", description=__doc__)
    parser.add_argument("game", nargs="?", help="a game file to open")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    args = parser.parse_args(argv)
    problem = display_problem()
    if problem:
        print(f"seacontrol: {problem}", file=sys.stderr)
        return 2
    app, _window = start(args.game)
    return int(app.exec())


def start(game: str | None = None) -> tuple[QApplication, MainWindow]:
    """Make the application and show the main window on ``game`` (or a new game, or the
    game a stopped program left): everything before the event loop, what
    ``bench/app_bench.py`` times."""
    QCoreApplication.setOrganizationName("SeaControl")
    QCoreApplication.setApplicationName("Sea Control")
    QApplication.setHighDpiScaleFactorRoundingPolicy(
        Qt.HighDpiScaleFactorRoundingPolicy.PassThrough
    )
    app = QApplication(sys.argv[:1])
    _install_error_dialog(app)
    from .mainwindow import MainWindow

    window = MainWindow()
    geometry = QSettings().value("geometry")
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)  # where and how big the user left it
    if not window.offer_recovery():
        if game:
            try:
                window.session.open(Path(game))
            except GameFileError as exc:
                window.error("The game cannot be opened", str(exc))
                window.session.new_game()
        else:
            window.session.new_game()
    window.show()
    window.chart.fit_world()
    return app, window


if __name__ == "__main__":
    sys.exit(main())
