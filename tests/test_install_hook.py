"""The install's build hook (tools/hatch_build.py): the tactical rule sets compiled while the
program is installed, and an install that never fails for it."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from campaign.tactical import compiled

ROOT = Path(__file__).resolve().parent.parent
HOOK = ROOT / "tools" / "hatch_build.py"


def load_hook() -> ModuleType:
    """tools/hatch_build.py as hatchling loads it: a file, not a package's module."""
    spec = importlib.util.spec_from_file_location("seacontrol_hatch_build", HOOK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hook = load_hook()


class Runs:
    """Stands in for subprocess.run: records each call, answers with ``answer``."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.calls: list[tuple[list[str], dict[str, Any]]] = []

    def __call__(self, command: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
        self.calls.append((command, options))
        if isinstance(self.answer, BaseException):
            raise self.answer
        return subprocess.CompletedProcess(command, *self.answer)


def test_the_wheel_build_runs_the_hook_with_the_compilers_the_program_depends_on() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    custom = project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]
    assert (ROOT / custom["path"]).resolve() == HOOK
    # the build's name holds mypy's version: the hook's mypy must be the one installed with
    # the program, else the build it makes is never found
    runtime = [d for d in project["project"]["dependencies"] if d.startswith(("mypy", "setup"))]
    assert sorted(custom["dependencies"]) == sorted(runtime)
    assert len(runtime) == 2


def test_it_compiles_the_sources_being_installed_in_pips_build_environment(
    tmp_path: Path,
) -> None:
    said = "The compiled rule sets are in /somewhere/0d926c7bd86ff0dde9a4\n"
    runs = Runs((0, said, ""))
    built, message = hook.compile_rule_sets(
        tmp_path, {"PYTHONPATH": "/pip-build-env/site", "HOME": "/home/u"}, runs
    )
    assert (built, message) == (True, said.strip())
    [(command, options)] = runs.calls
    assert command == [sys.executable, "-m", "campaign.tactical.compiled"]
    assert options["cwd"] == tmp_path
    # the sources being installed come first; pip's build environment (mypy) is kept
    assert options["env"]["PYTHONPATH"] == os.pathsep.join([str(tmp_path), "/pip-build-env/site"])
    assert options["env"]["HOME"] == "/home/u"  # the cache folder the program reads
    assert options["check"] is False and options["timeout"] == hook.TIMEOUT
    assert options["stdin"] == subprocess.DEVNULL
    runs = Runs((0, said, ""))
    hook.compile_rule_sets(tmp_path, {}, runs)
    assert runs.calls[0][1]["env"]["PYTHONPATH"] == str(tmp_path)


def test_the_switch_turns_it_off() -> None:
    runs = Runs((0, "", ""))
    built, message = hook.compile_rule_sets(ROOT, {"SEACONTROL_COMPILE": " Never "}, runs)
    assert not built and not runs.calls
    assert message == "Tactical rule sets not compiled (SEACONTROL_COMPILE=never)."


@pytest.mark.parametrize(
    "answer, said",
    [
        ((1, "", "Not built: mypyc could not compile the rule sets: cc not found\n"), "cc not"),
        ((1, "", ""), "Tactical rule sets not compiled."),
        (FileNotFoundError(2, "No such file or directory"), "No such file"),
        (subprocess.TimeoutExpired(["python"], 900.0), "timed out"),
    ],
)
def test_an_install_never_fails_for_it(answer: Any, said: str) -> None:
    built, message = hook.compile_rule_sets(ROOT, {}, Runs(answer))
    assert not built
    assert said in message and message.endswith("The program will try later.")


class App:
    def __init__(self) -> None:
        self.shown: list[tuple[str, str]] = []

    def display_info(self, message: str) -> None:
        self.shown.append(("info", message))

    def display_warning(self, message: str) -> None:
        self.shown.append(("warning", message))


@pytest.mark.parametrize("built", [True, False])
def test_the_hook_tells_pip_what_came_of_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, built: bool
) -> None:
    asked: list[Path] = []

    def compile_rule_sets(root: Path, environ: Any) -> tuple[bool, str]:
        asked.append(root)
        return built, "what came of it"

    monkeypatch.setattr(hook, "compile_rule_sets", compile_rule_sets)
    app = App()
    step = hook.CompileRuleSets(str(tmp_path), {}, None, None, str(tmp_path), "wheel", app=app)
    build_data: dict[str, Any] = {"artifacts": [], "force_include": {}}
    step.initialize("editable", build_data)
    assert asked == [tmp_path]
    assert app.shown == [("info" if built else "warning", "what came of it")]
    assert build_data == {"artifacts": [], "force_include": {}}  # nothing added to the wheel


@pytest.mark.slow
@pytest.mark.timeout(1800)  # a build of new sources takes a minute or two
def test_run_for_real_from_another_folder_it_finds_the_build_of_these_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As pip runs it: the command runs, finds the sources given, and says where their
    build is (made here if there is none, as tests/test_tactical_compiled.py does)."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler: the compiled rule sets cannot be built here")
    built = compiled.build()
    monkeypatch.chdir(tmp_path)
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", compiled.SWITCH)}
    environ["SEACONTROL_COMPILED"] = str(built.parent)
    assert hook.compile_rule_sets(ROOT, environ) == (
        True,
        f"The compiled rule sets are in {built}",
    )
