"""Printed sheets' speed: team packs and hand-off sheets for the 1942 game after a turn
played with every nation's sample orders.

Run: ``python bench/print_bench.py``. Target: all nine teams' packs in under 10 s on this
machine (Game Control prints them between turns while the teams wait), a hand-off sheet
in under 1 s; the app shows a progress bar past one second.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from campaign import handoff, paths, teampack
from campaign.engine import Campaign
from campaign.gamefile import GameFile
from campaign.orders import load_orders
from campaign.scenario import load_scenario


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "war.seacontrol"
        GameFile.create(path, load_scenario(paths.scenario_dir("1942"))).close()
        with Campaign.open(path) as c:
            for f in sorted((paths.scenario_dir("1942") / "sample-orders").glob("*.json")):
                c.set_orders(f.stem, load_orders(f.read_text(encoding="utf-8"), f.stem))
            c.resolve(seed=1942)
            teams = c.board().teams()
            runs = []
            for i in range(3):
                t0 = time.perf_counter()
                teampack.write_packs(c, Path(tmp) / f"packs{i}", teams, join="http://h:8765")
                runs.append(time.perf_counter() - t0)
            one = []
            for _ in range(5):
                t0 = time.perf_counter()
                teampack.team_pack(c, "uk", join="http://h:8765")
                one.append(time.perf_counter() - t0)
            sheets = []
            for table in handoff.TABLES:
                t0 = time.perf_counter()
                sheet = handoff.handoff_sheet(c, table)
                handoff.write_sheet(c, sheet, Path(tmp) / "handoff")
                sheets.append(time.perf_counter() - t0)
            size = sum(p.stat().st_size for p in (Path(tmp) / "packs0").iterdir())
    print(f"team packs, {len(teams)} teams: median {statistics.median(runs):.2f} s (runs {runs})")
    print(f"  gathering one pack (UK): median {statistics.median(one) * 1000:.0f} ms")
    print(f"  files: {size / 1024:.0f} KiB in all")
    print(f"hand-off sheets (land, economic): {', '.join(f'{s:.2f} s' for s in sheets)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
