"""The scenario format document describes exactly the columns the program reads."""

from __future__ import annotations

import re
from pathlib import Path

from campaign.schemas import TABLES

DOC = Path(__file__).resolve().parent.parent / "docs" / "scenario-format.md"


def sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)
    return {p.split()[0]: p for p in parts[1:]}


def test_every_file_and_column_is_documented_in_order() -> None:
    docs = sections()
    for schema in TABLES:
        assert schema.file in docs, f"docs/scenario-format.md has no section {schema.file}"
        section = docs[schema.file]
        named = re.findall(r"^\| ([a-z_, ]+) \|", section, flags=re.M)
        documented = [n.strip() for cell in named for n in cell.split(",") if n.strip()]
        documented = [n for n in documented if n != "column"]
        assert documented == list(schema.names), schema.file


def test_every_tactical_reading_is_in_the_rules_notes() -> None:
    """Each rule set's RULE_NOTES are copied into docs/rules-notes.md; a reading changed in
    the code must be changed in the document too."""
    import importlib

    notes = (DOC.parent / "rules-notes.md").read_text(encoding="utf-8")
    for name in ("airstrike", "carrier", "fastplay", "surface"):
        module = importlib.import_module(f"campaign.tactical.{name}")
        for line in module.RULE_NOTES:
            assert f"- {line}" in notes, f"{name}: {line[:60]}… (run tools/sync_rules_notes.py)"


def test_every_battle_condition_is_read_declared_and_documented() -> None:
    """Each rule set declares the conditions it reads (CONDITIONS), reads no others, and
    docs/battle-setups.md lists them under the rule set's heading."""
    import importlib
    import re

    from campaign.tactical import COMMON_CONDITIONS
    from campaign.tactical.simulate import available

    doc = (DOC.parent / "battle-setups.md").read_text(encoding="utf-8")
    sections = re.split(r"^### ", doc, flags=re.M)
    read = re.compile(r"""(?:cond|conditions)(?:\.get\(|\[)\s*["']([a-z_]+)["']""")
    for name in available():
        module = importlib.import_module(f"campaign.tactical.{name}")
        declared = {**COMMON_CONDITIONS, **module.CONDITIONS}
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        found = set(read.findall(source))
        assert found, f"{name}: the pattern finds no condition read (it no longer matches)"
        assert found <= set(declared), name
        section = next(s for s in sections if s.startswith(f"`{name}`"))
        for key in module.CONDITIONS:
            assert f"| `{key}` |" in section, f"{name}: {key} not in docs/battle-setups.md"
    common = next(s for s in sections if s.startswith("Any rule set"))
    assert all(f"| `{key}` |" in common for key in COMMON_CONDITIONS)


def test_the_built_in_set_ups_use_only_their_rule_sets_conditions() -> None:
    from campaign.tactical import BattleSetup, builtin_battles, ignored_conditions
    from campaign.tactical.simulate import available

    available()
    for name, path in builtin_battles().items():
        setup = BattleSetup.load(path)
        assert ignored_conditions(setup.rule_set, setup) == [], name


def test_every_rule_option_is_documented() -> None:
    from campaign.options import RULE_OPTIONS

    formats = DOC.read_text(encoding="utf-8")
    notes = (DOC.parent / "rules-notes.md").read_text(encoding="utf-8")
    for name in RULE_OPTIONS:
        assert f"| `{name}` |" in formats, name
        assert f"`{name}`" in notes, name


def test_every_battle_condition_has_a_check_and_its_allowed_values_are_documented() -> None:
    """A set-up is checked before a battle (issue 12): each condition a rule set reads has
    a check (CHECKS), and docs/battle-setups.md says what the check allows."""
    import importlib
    import re

    from campaign.tactical import COMMON_CHECKS, COMMON_CONDITIONS
    from campaign.tactical.simulate import available

    doc = (DOC.parent / "battle-setups.md").read_text(encoding="utf-8")
    sections = re.split(r"^### ", doc, flags=re.M)
    assert set(COMMON_CHECKS) == set(COMMON_CONDITIONS)
    common = next(s for s in sections if s.startswith("Any rule set"))
    for key, spec in COMMON_CHECKS.items():
        assert f"| `{key}` |" in common and f"| {spec.describe} |" in common, key
    for name in available():
        module = importlib.import_module(f"campaign.tactical.{name}")
        assert set(module.CHECKS) == set(module.CONDITIONS), name
        section = next(s for s in sections if s.startswith(f"`{name}`"))
        for key, spec in module.CHECKS.items():
            row = next(line for line in section.splitlines() if line.startswith(f"| `{key}` |"))
            assert row.endswith(f"| {spec.describe} |"), f"{name}: {key}"
