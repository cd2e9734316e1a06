"""The scenario editor's model on the 1942 scenario (targets for a 2-core machine): opening
the folder as a draft, the live check after an edit (the editor runs it 300 ms after the
last edit, so it must stay well under that), a rename that carries through, and a save.

Run: ``python bench/editor_bench.py [--runs N]``. Prints the median and the range.
The first check parses every file; later checks parse only the files that changed and run
the cross-file validator. Measured (load average 8.5 on 2 cores, 7 runs): open 30 ms, first
check 220 ms, an edit and its check 32 ms, a rename with its 13 references 0.2 ms, a save
44 ms; on a quieter machine the first check took 90 ms and a later one 12 ms.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from timing import measure, report  # bench/timing.py (bench/ is the script's folder)

from campaign import paths
from campaign.scenario_edit import Draft


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    folder = paths.scenario_dir("1942")
    report("open the folder as a draft", measure(lambda: Draft.open(folder), args.runs), 100)
    report(
        "first check (every file parsed)",
        measure(lambda: Draft.open(folder).check(), args.runs),
        300,
    )
    draft = Draft.open(folder)
    draft.check()
    row = draft.find("units", "jpn_cv_akagi_kaga") or 0
    names = iter(range(10**6))

    def edit_and_check() -> None:
        draft.apply(draft.cell_edit("units", row, "name", f"Akagi {next(names)}"))
        draft.check()

    report("a unit's name edited, then checked", measure(edit_and_check, args.runs), 100)
    base = draft.find("bases", "pearl_harbour") or 0

    def rename() -> None:
        undo = draft.apply(draft.cell_edit("bases", base, "id", "pearl"))
        draft.apply(undo)

    report("rename Pearl Harbour and back", measure(rename, args.runs), 50)
    with tempfile.TemporaryDirectory() as tmp:
        report(
            "save (one file changed)",
            measure(lambda: draft.save(Path(tmp) / "out"), args.runs),
            100,
        )


if __name__ == "__main__":
    main()
