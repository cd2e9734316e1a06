"""The rule sets compiled by mypyc (campaign.tactical.compiled) fight the very battles the
sources fight: every rule set's benchmark set-up, battle for battle, with the same dice."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign.tactical import BattleSetup, compiled
from campaign.tactical import simulate as sampling
from campaign.tactical.simulate import available, simulate

BATTLES = Path(__file__).resolve().parent.parent / "data" / "battles"
#: rule set → its benchmark set-up and the battles compared
SETS = {
    "carrier": ("midway.json", 200),
    "fastplay": ("fastplay-example.json", 120),
    "surface": ("surface-example.json", 200),
    "airstrike": ("airstrike-example.json", 400),
}


#: building takes a minute or two, longer on a busy machine (the suite's limit is 300 s)
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


@pytest.fixture(scope="module")
def built() -> Iterator[Path]:
    """The build of the present sources, where the program keeps it (built here if there is
    none: a minute or two, once for these sources — the next run of the suite finds it)."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler: the compiled rule sets cannot be built here")
    folder = compiled.build()
    assert compiled.ready() == folder and compiled.build() == folder  # built once
    yield folder


def test_a_build_is_found_only_for_the_sources_it_was_built_from(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SEACONTROL_COMPILED", str(built.parent))
    assert compiled.ready() == built
    monkeypatch.setenv("SEACONTROL_COMPILED", str(tmp_path))
    assert compiled.ready() is None  # another place: nothing built there
    assert built.name == compiled.key() and len(set(compiled.key() for _ in range(2))) == 1


def test_a_worker_imports_the_compiled_modules_and_can_drop_them(built: Path) -> None:
    script = (
        "import sys; from pathlib import Path; from campaign.tactical import compiled, RULE_SETS\n"
        "import campaign.tactical.carrier as pure\n"
        "assert compiled.use(Path(sys.argv[1]))\n"
        "import campaign.tactical.carrier as fast\n"
        "print(pure.__file__.endswith('.py'), fast.__file__.endswith('.py'),"
        " RULE_SETS['carrier'].__module__ == fast.__name__)\n"
        "compiled.drop(Path(sys.argv[1]))\n"
        "import campaign.tactical.carrier as again\n"
        "print(again.__file__.endswith('.py'), RULE_SETS['carrier'] is again.carrier_battle)"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(built)], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["True", "False", "True", "True", "True"]


@pytest.mark.parametrize("rule_set", sorted(SETS))
def test_compiled_rule_sets_fight_the_very_same_battles(
    built: Path, rule_set: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    available()
    monkeypatch.setenv("SEACONTROL_COMPILED", str(built.parent))
    sampling.shutdown_pool()  # new workers, which take up the build
    try:
        file, battles = SETS[rule_set]
        setup = BattleSetup.load(BATTLES / file)
        here = simulate(rule_set, setup, battles, seed="compiled", workers=1)
        pooled = simulate(rule_set, setup, battles, seed="compiled", workers=2, every=20)
        assert pooled.to_dict() == here.to_dict()
        used = {sampling._pool(2).submit(sampling._rules_in_use).result() for _ in range(8)} - {
            None
        }
        assert used == {str(built)}  # every worker that fought used the build
    finally:
        sampling.shutdown_pool()


def test_workers_started_before_a_build_take_it_up_at_their_next_preview(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build finished in the background while the pool runs (here: the build's place
    named after the first preview) is used from the next preview on, with the same odds."""
    available()
    sampling.shutdown_pool()
    try:
        monkeypatch.setenv("SEACONTROL_COMPILED", str(tmp_path))  # nothing built there
        setup = BattleSetup.load(BATTLES / "midway.json")
        before = simulate("carrier", setup, 120, seed="later", workers=2, every=20)
        pool = sampling._pool(2)
        assert {pool.submit(sampling._rules_in_use).result() for _ in range(8)} == {""}
        monkeypatch.setenv("SEACONTROL_COMPILED", str(built.parent))
        after = simulate("carrier", setup, 120, seed="later", workers=2, every=20)
        assert after.to_dict() == before.to_dict()
        used = {pool.submit(sampling._rules_in_use).result() for _ in range(8)}
        assert str(built) in used and used <= {str(built), ""}
    finally:
        sampling.shutdown_pool()
