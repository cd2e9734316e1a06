"""Copy each tactical rule set's RULE_NOTES into docs/rules-notes.md.

Run: ``python tools/sync_rules_notes.py`` after changing a reading in a rule set. Each rule
set's section (its ``### … (`name`, …`` heading) keeps its heading and introduction; its
bullet list is replaced by the module's notes. ``tests/test_docs.py`` checks they agree.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DOC = ROOT / "docs" / "rules-notes.md"


def sync(text: str, name: str, notes: tuple[str, ...]) -> str:
    lines = text.split("\n")
    head = next(
        i for i, line in enumerate(lines) if line.startswith("### ") and f"`{name}`" in line
    )
    first = next(i for i in range(head + 1, len(lines)) if lines[i].startswith("- "))
    end = first
    while end < len(lines) and lines[end].startswith("- "):
        end += 1
    return "\n".join([*lines[:first], *(f"- {n}" for n in notes), *lines[end:]])


def main() -> int:
    from campaign.tactical.simulate import available

    text = DOC.read_text(encoding="utf-8")
    for name in available():
        module = importlib.import_module(f"campaign.tactical.{name}")
        text = sync(text, name, tuple(module.RULE_NOTES))
    DOC.write_text(text, encoding="utf-8")
    print(f"{DOC.relative_to(ROOT)}: notes of {', '.join(available())} copied")
    return 0


if __name__ == "__main__":
    sys.exit(main())
