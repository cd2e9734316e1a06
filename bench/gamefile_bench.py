"""Load and save of the full 1942 game file (targets: under 100 ms each on a 2-core machine).

Run: ``python bench/gamefile_bench.py [--runs N]``. Prints the median and the range.
"Load" is everything opening a game takes: integrity check, reading the scenario back,
validating it, and reading the current state. "Save" is one transaction writing the state
(and a handful of events) with synchronous=FULL.

Measured: load 17 ms before the order-of-battle tables (740 ships); 47-50 ms with them, 60%
of it re-checking every stored cell by turning it back into text and parsing it; 22-30 ms
once plainly good typed values skip that round trip (``csvdata.value_ok``; a property test
keeps it from passing anything the parser refuses).

With the seal (issue 12, docs/game-file.md), on the 182-sea-area world and a machine whose
load average was 9: load 185-250 ms (median 212), of which the seal's digests of every
table take 28-31 ms, the state read with suspicion 15-24 ms, the layout and integrity
checks under 1 ms, and reading and checking the scenario 128-156 ms (that part was
already over the target before the seal); save 16-44 ms (median 36), the digests of what
it wrote and one link of the chain included.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from timing import measure, report  # bench/timing.py (bench/ is the script's folder)

from campaign.gamefile import GameFile
from campaign.scenario import load_scenario


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    scenario_times = measure(load_scenario, max(5, args.runs // 3))
    scenario = load_scenario()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.seacontrol"
        GameFile.create(path, scenario).close()
        size = path.stat().st_size

        def load() -> None:
            game = GameFile.open(path)
            game.state()
            game.close()

        game = GameFile.open(path)
        state = game.state()
        events = [
            {"turn": 1, "step": 8, "kind": "bench", "nation": "uk", "data": "{}"} for _ in range(20)
        ]

        def save() -> None:
            state.step = (state.step + 1) % 10 + 1
            game.save(state, events=events)

        load_times = measure(load, args.runs)
        save_times = measure(save, args.runs)
        game.close()
    print(
        f"1942 game file: {size / 1024:.0f} KiB, {len(scenario.rows('units'))} units, "
        f"{len(scenario.rows('sea_areas'))} sea areas"
    )
    report("read scenario CSV folder", scenario_times, 1000)
    report("load game file", load_times, 100)
    report("save game (1 transaction)", save_times, 100)


if __name__ == "__main__":
    main()
