"""The desktop app's speed: start-up to an interactive map, and "resolve turn" to the
report on screen (offscreen Qt on this machine).

Run: ``python bench/app_bench.py``. Targets: start-up under 2 s (measured as a whole new
process: interpreter, imports, the 1942 game and the first painted frame of the map); the
resolve figure is for the 1942 turn with every nation's sample orders.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

STARTUP = r"""
import time, sys
t0 = time.perf_counter()
from PySide6.QtCore import QCoreApplication, QStandardPaths
from PySide6.QtWidgets import QApplication
QCoreApplication.setOrganizationName("SeaControlBench")
QCoreApplication.setApplicationName("bench")
QStandardPaths.setTestModeEnabled(True)
app = QApplication([])
from ui.mainwindow import MainWindow
w = MainWindow(ask_losses=False)
w.session.new_game()
w.show()
w.chart.fit_world()
app.processEvents()
w.chart.viewport().repaint()
app.processEvents()
print(time.perf_counter() - t0)
w.session.close()
"""


def startup(runs: int) -> tuple[list[float], list[float]]:
    inside, whole = [], []
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", STARTUP],
            capture_output=True,
            text=True,
            cwd=root,
            env=env,
            check=True,
        )
        whole.append(time.perf_counter() - start)
        inside.append(float(out.stdout.strip().splitlines()[-1]))
    return inside, whole


def resolve_to_report(runs: int) -> list[float]:
    from PySide6.QtCore import QCoreApplication, QStandardPaths
    from PySide6.QtWidgets import QApplication

    from campaign import paths
    from campaign.orders import load_orders
    from ui.mainwindow import MainWindow

    QCoreApplication.setOrganizationName("SeaControlBench")
    QCoreApplication.setApplicationName("bench")
    QStandardPaths.setTestModeEnabled(True)
    app = QApplication.instance() or QApplication([])
    times = []
    samples = paths.scenario_dir("1942") / "sample-orders"
    for _ in range(runs):
        w = MainWindow(ask_losses=False)
        w.session.new_game()
        w.show()
        for f in sorted(samples.glob("*.json")):
            w.session.set_orders(f.stem, load_orders(f.read_text(encoding="utf-8"), f.stem))
        app.processEvents()
        start = time.perf_counter()
        w.resolve(10)
        app.processEvents()
        w.report.repaint()
        times.append(time.perf_counter() - start)
        w.session.close()
        w.deleteLater()
        app.processEvents()
    return times


def main() -> None:
    inside, whole = startup(3)
    print(
        f"start-up to an interactive map: {statistics.median(whole):.2f} s for a new process "
        f"({statistics.median(inside):.2f} s after the interpreter started)   target < 2 s: "
        + ("ok" if statistics.median(whole) < 2 else "OVER TARGET")
    )
    with tempfile.TemporaryDirectory():
        times = resolve_to_report(3)
    print(
        f"'Resolve turn' to the report on screen (1942, sample orders): "
        f"{statistics.median(times) * 1000:.0f} ms median"
    )


if __name__ == "__main__":
    main()
