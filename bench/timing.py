"""The benches' shared stopwatch: a function timed over several runs, and a line with its
median, minimum and maximum against the target."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def measure(func: Callable[[], object], runs: int) -> list[float]:
    """Milliseconds each of ``runs`` calls of ``func`` took."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(label: str, times: list[float], target: float, width: int = 34) -> None:
    """One line: the median against ``target`` (ms), with the spread beside it."""
    median = statistics.median(times)
    verdict = "ok" if median < target else "OVER TARGET"
    print(
        f"{label:<{width}} median {median:7.2f} ms   min {min(times):7.2f}   "
        f"max {max(times):7.2f}   target < {target:.0f} ms  {verdict}"
    )
