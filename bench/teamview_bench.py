"""How long a team's view takes to build, and how big its JSON is: the 1942 game after turn
1 with every nation's sample orders (the game a seat page or the computer opponent reads).

Run: ``python bench/teamview_bench.py``. Target: a team's view in under 100 ms, so the
app's chart and details can rebuild it on every change of state or orders.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from campaign import paths
from campaign.engine import Campaign
from campaign.gamefile import GameFile
from campaign.orders import load_orders
from campaign.scenario import load_scenario

NATIONS = (
    "usa",
    "uk",
    "japan",
    "germany",
    "italy",
    "free_france",
    "netherlands",
    "vichy_france",
    "ussr",
)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "bench.seacontrol"
        GameFile.create(game, load_scenario(paths.scenario_dir("1942"))).close()
        samples = paths.scenario_dir("1942") / "sample-orders"
        with Campaign.open(game) as c:
            for n in NATIONS:
                c.set_orders(n, load_orders((samples / f"{n}.json").read_text("utf-8"), n))
            c.resolve(seed=1942)
            for nation in ("japan", "usa", "germany"):
                times = []
                for _ in range(10):
                    start = time.perf_counter()
                    view = c.team_view(nation)
                    text = view.to_json()
                    times.append(time.perf_counter() - start)
                print(
                    f"{nation:8} view + JSON: median {statistics.median(times) * 1000:6.1f} ms, "
                    f"worst {max(times) * 1000:6.1f} ms; JSON {len(text) / 1024:5.1f} KiB, "
                    f"{len(view.events)} events"
                )


if __name__ == "__main__":
    main()
