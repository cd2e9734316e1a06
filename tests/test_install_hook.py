"""The install's build hook (tools/hatch_build.py): the tactical rule sets compiled while the
program is installed, and an install that never fails for it."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import time
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
    """Stands in for the hook's runner: records each call, answers with ``answer``."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.calls: list[tuple[list[str], Path, dict[str, str]]] = []

    def __call__(self, command: list[str], root: Path, env: dict[str, str]) -> tuple[int, str]:
        self.calls.append((command, root, env))
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


def test_the_wheel_build_runs_the_hook_with_the_compilers_the_program_depends_on() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    custom = project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]
    assert (ROOT / custom["path"]).resolve() == HOOK
    runtime = [d for d in project["project"]["dependencies"] if d.startswith(("mypy", "setup"))]
    assert sorted(custom["dependencies"]) == sorted(runtime)
    assert len(runtime) == 2
    assert (hook.SWITCH, hook.CANNOT) == (compiled.SWITCH, compiled.CANNOT)


def test_it_compiles_the_sources_being_installed_in_pips_build_environment(
    tmp_path: Path,
) -> None:
    said = "The compiled rule sets are in /somewhere/0d926c7bd86ff0dde9a4\n"
    runs = Runs((0, said))
    built, message = hook.compile_rule_sets(
        tmp_path, {"PYTHONPATH": "/pip-build-env/site", "HOME": "/home/u"}, runs
    )
    assert (built, message) == (True, said.strip())
    [(command, root, env)] = runs.calls
    assert command == [sys.executable, "-m", "campaign.tactical.compiled", "--install"]
    assert root == tmp_path
    # the sources being installed come first; pip's build environment (mypy) is kept
    assert env["PYTHONPATH"] == os.pathsep.join([str(tmp_path), "/pip-build-env/site"])
    assert env["HOME"] == "/home/u"  # the cache folder the program reads
    runs = Runs((0, said))
    hook.compile_rule_sets(tmp_path, {}, runs)
    assert runs.calls[0][2]["PYTHONPATH"] == str(tmp_path)


def test_the_switch_turns_it_off() -> None:
    runs = Runs((0, ""))
    built, message = hook.compile_rule_sets(ROOT, {"SEACONTROL_COMPILE": " Never "}, runs)
    assert not built and not runs.calls
    assert message == "Tactical rule sets not compiled (SEACONTROL_COMPILE=never)."


@pytest.mark.parametrize(
    "answer, said, then",
    [
        (
            (3, "Not built: no C compiler is installed (cc not found).\n"),
            "Tactical rule sets not compiled: Not built: no C compiler is installed",
            "Previews fight with the plain rules.",
        ),
        (
            (1, "Not built: mypyc could not compile the rule sets: no space\n"),
            "Not built: mypyc could not compile the rule sets: no space",
            "The program will try again in the background.",
        ),
        ((1, ""), "Tactical rule sets not compiled.", "try again in the background."),
        (
            FileNotFoundError(2, "No such file or directory"),
            "not compiled now ([Errno 2] No such file",
            "try again in the background.",
        ),
        (
            subprocess.TimeoutExpired(["python"], 900.0),
            "not compiled: stopped after 900 s.",
            "try again in the background.",
        ),
        (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad"), "can't decode", "background."),
    ],
)
def test_an_install_never_fails_for_it(answer: Any, said: str, then: str) -> None:
    built, message = hook.compile_rule_sets(ROOT, {}, Runs(answer))
    assert not built
    assert said in message and message.endswith(then)


def test_a_build_that_takes_too_long_is_stopped_with_its_compiler_processes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The build's own processes (the C compiler's) are stopped with it, not left running."""
    if not hasattr(os, "killpg") or not Path("/proc/self/stat").exists():
        pytest.skip("process groups are POSIX's; the check reads Linux's /proc")
    monkeypatch.setattr(hook, "TIMEOUT", 1.0)
    child = tmp_path / "child.pid"
    command = [
        sys.executable,
        "-c",
        "import pathlib, subprocess, sys, time\n"
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"pathlib.Path({str(child)!r}).write_text(str(p.pid))\n"
        "time.sleep(60)\n",
    ]
    with pytest.raises(subprocess.TimeoutExpired):
        hook._run(command, tmp_path, dict(os.environ))
    pid = int(child.read_text())
    for _ in range(50):  # SIGTERM reaches it at once; it is reaped soon after
        if not _running(pid):
            break
        time.sleep(0.1)
    else:
        pytest.fail("the build's own process was left running")


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (not ended, nor ended and waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


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
    step.initialize("editable", {"artifacts": [], "force_include": {}})
    assert asked == [tmp_path]
    assert app.shown == [("info" if built else "warning", "what came of it")]


@pytest.mark.slow
@pytest.mark.timeout(1800)  # a build of new sources takes a minute or two
def test_run_for_real_it_builds_the_sources_it_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As pip runs it, on a copy of the sources (as pip builds a wheel from an sdist):
    the copy's build command runs, not the installed program's, and says where the build
    of these sources is (made here if there is none, as tests/test_tactical_compiled.py
    does)."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler: the compiled rule sets cannot be built here")
    built = compiled.build()
    copy = tmp_path / "project"
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "campaign", copy / "campaign", ignore=skip)
    command = copy / "campaign" / "tactical" / "compiled.py"  # not one the build is made of
    command.write_text(
        command.read_text(encoding="utf-8").replace(
            'print(f"The compiled rule sets are in {out}")',
            'print(f"The compiled rule sets are in {out} (the copy)")',
        ),
        encoding="utf-8",
    )
    environ = _as_pip_runs_it(SEACONTROL_COMPILED=str(built.parent))
    assert hook.compile_rule_sets(copy, environ) == (
        True,
        f"The compiled rule sets are in {built} (the copy)",
    )


def test_run_for_real_where_nothing_can_compile_it_tries_nothing(tmp_path: Path) -> None:
    environ = _as_pip_runs_it(
        PATH=str(tmp_path), CC="nocc", SEACONTROL_COMPILED=str(tmp_path / "builds")
    )
    built, message = hook.compile_rule_sets(ROOT, environ)
    assert (built, message) == (
        False,
        "Tactical rule sets not compiled: Not built: no C compiler is installed (nocc not "
        "found). Previews fight with the plain rules.",
    )
    assert not (tmp_path / "builds").exists()


def _as_pip_runs_it(**settings: str) -> dict[str, str]:
    """This process's environment with ``settings``, as pip would run the hook in it: no
    PYTHONPATH of the tests', and the suite's switch off the background build let go."""
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", compiled.SWITCH)}
    return {**environ, **settings}
