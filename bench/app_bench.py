"""The desktop app's speed: start-up to a painted map, and "resolve turn" to the report on
screen (offscreen Qt on this machine).

Run: ``python bench/app_bench.py [--runs N]``.

*Start-up* is a whole new process, timed from just before it is started to the first
painted frame of the map: the interpreter, the imports, the 1942 game made and opened, the
main window shown (``ui.app.start``, what ``seacontrol`` runs before its event loop).
Median of ``N`` runs, each way:

* *with a bytecode cache* — every module's compiled form kept from an earlier start (what
  a user has from the second start on);
* *without* — the program's own modules compiled from source on every start (a fresh
  checkout, or ``PYTHONDONTWRITEBYTECODE`` set); the libraries keep theirs.

The CPU time of the process is printed beside it: on a busy machine it is the steadier
figure. Target (issue 14): 0.8 s to a painted map. The resolve figure is the 1942 turn with
every nation's sample orders, from "Resolve turn" to the report painted.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
STARTUP_S = 0.8

#: the child: the app's own start-up, then the map painted once; prints the clock then
STARTUP = r"""
import sys, time
from ui.app import start  # first, as the seacontrol command does
from PySide6.QtCore import QStandardPaths
QStandardPaths.setTestModeEnabled(True)
app, window = start()
app.processEvents()
window.chart.viewport().repaint()
print(time.time())
window.session.close()
"""


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def startup(runs: int, cache: Path, compiled: bool) -> tuple[list[float], list[float]]:
    """(seconds to a painted map, CPU seconds of the process) of ``runs`` new processes."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONPYCACHEPREFIX=str(cache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = [sys.executable, "-c", STARTUP]
    subprocess.run(command, capture_output=True, cwd=ROOT, env=env, check=True)  # fills cache
    if not compiled:
        shutil.rmtree(cache / str(ROOT).lstrip("/"), ignore_errors=True)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    wall, cpu = [], []
    for _ in range(runs):
        before = _child_cpu()
        start = time.time()
        out = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=True)
        wall.append(float(out.stdout.strip().splitlines()[-1]) - start)
        cpu.append(_child_cpu() - before)
    return wall, cpu


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
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for compiled in (True, False):
            wall, cpu = startup(args.runs, Path(tmp) / "pycache", compiled)
            median = statistics.median(wall)
            print(
                f"start-up to a painted map, {'with' if compiled else 'without'} a bytecode "
                f"cache: {median:.2f} s (CPU {statistics.median(cpu):.2f} s)   target "
                f"{STARTUP_S} s: " + ("ok" if median <= STARTUP_S else "OVER TARGET")
            )
        times = resolve_to_report(max(3, args.runs // 2))
    print(
        f"'Resolve turn' to the report on screen (1942, sample orders): "
        f"{statistics.median(times) * 1000:.0f} ms median"
    )


if __name__ == "__main__":
    main()
