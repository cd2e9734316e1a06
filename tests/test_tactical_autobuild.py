"""The rule sets compiled without a user asking (campaign.tactical.compiled.build_soon): a
long preview that finds no build starts one in the background, once; a machine that cannot
compile, a build that failed and ``SEACONTROL_COMPILE=never`` keep to the sources and say
why; a worker fighting with the sources takes a build up at its next preview."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from campaign.tactical import BattleSetup, compiled
from campaign.tactical import simulate as sampling

fcntl = pytest.importorskip("fcntl")  # (the program builds by itself on Linux and macOS)

BATTLES = Path(__file__).resolve().parent.parent / "data" / "battles"


class _Process:
    """A stand-in for the background build's process: running until ``ended``."""

    def __init__(self, command: list[str], **options: Any) -> None:
        self.command, self.options, self.ended = command, options, False
        _Process.started.append(self)

    def poll(self) -> int | None:
        return 0 if self.ended else None

    def wait(self) -> int:
        return 0

    started: ClassVar[list[_Process]] = []


class _NoThread:
    """The thread that reaps the build's process, not started (the stand-in never ends)."""

    def __init__(self, target: Any, daemon: bool) -> None:
        self.target = target

    def start(self) -> None:
        assert self.target.__self__ in _Process.started  # it waits for the build's process


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Builds kept in an empty folder of this test's; background builds allowed; the
    machine able to compile; no process of an earlier test's counted as running."""
    monkeypatch.setenv("SEACONTROL_COMPILED", str(tmp_path))
    monkeypatch.delenv(compiled.SWITCH, raising=False)
    monkeypatch.setattr(compiled, "cannot_build", lambda: "")
    monkeypatch.setattr(compiled, "_STARTED", [])
    monkeypatch.setattr(compiled, "_NOT_STARTED", [])
    monkeypatch.setattr(compiled.threading, "Thread", _NoThread)
    _Process.started = []
    stand_in = SimpleNamespace(Popen=_Process, DEVNULL=subprocess.DEVNULL, STDOUT=subprocess.STDOUT)
    monkeypatch.setattr(compiled, "subprocess", stand_in)
    return tmp_path


def _built(place: Path) -> Path:
    out = place / compiled.key()
    out.mkdir()
    (out / compiled.DONE).write_text(out.name)
    return out


def test_a_long_preview_without_a_build_starts_one_in_the_background_once(
    place: Path,
) -> None:
    assert "will be compiled" in compiled.describe()
    assert compiled.build_soon()
    (process,) = _Process.started
    assert process.command == [sys.executable, "-m", compiled.__name__, "--background"]
    assert process.options["start_new_session"]  # outlives the program that started it
    assert process.options["cwd"] == compiled._root()
    assert (place / f"{compiled.key()}{compiled.LOG}").is_file()  # its output goes there
    assert not compiled.build_soon()  # still running: not a second one
    assert compiled.building() and "being compiled" in compiled.describe()  # (before its lock)
    process.ended = True
    assert compiled.build_soon() and len(_Process.started) == 2  # (it left no build)
    _Process.started[-1].ended = True
    _built(place)
    assert not compiled.build_soon() and len(_Process.started) == 2  # built: nothing to do
    assert compiled.describe() == "Long previews fight with the compiled rule sets."


def test_no_background_build_when_turned_off_impossible_running_or_failed(
    place: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(compiled.SWITCH, "never")
    assert not compiled.build_soon()
    assert "SEACONTROL_COMPILE=never" in compiled.describe()
    monkeypatch.delenv(compiled.SWITCH)
    monkeypatch.setattr(compiled, "cannot_build", lambda: "no C compiler is installed")
    assert not compiled.build_soon()
    assert "cannot compile them here (no C compiler is installed)" in compiled.describe()
    assert f"by hand: {sys.executable} -m campaign.tactical.compiled" in compiled.describe()
    monkeypatch.setattr(compiled, "cannot_build", lambda: "")
    # another process building these sources holds the lock
    with open(place / f"{compiled.key()}{compiled.LOCK}", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert compiled.building() and not compiled.build_soon()
        assert "being compiled" in compiled.describe()
    assert not compiled.building()
    (place / f"{compiled.key()}{compiled.FAILED}").write_text("mypyc: error\n")
    assert compiled.failed() == "mypyc: error" and not compiled.build_soon()
    assert "compiling them failed (mypyc: error" in compiled.describe()
    assert _Process.started == []


def test_a_build_that_cannot_start_says_why(place: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: Any, **options: Any) -> None:
        raise PermissionError(13, "Permission denied", "/home/umpire/.cache")

    monkeypatch.setattr(compiled.subprocess, "Popen", refused)
    assert not compiled.build_soon()
    assert "could not start (Permission denied (/home/umpire/.cache))" in compiled.describe()


def test_the_background_build_holds_the_lock_and_writes_a_failure_down(
    place: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held: list[bool] = []
    monkeypatch.setattr(os, "getsid", lambda pid: -1)  # (not a session of its own: untouched)

    def works() -> Path:
        held.append(compiled.building())
        return _built(place)

    monkeypatch.setattr(compiled, "build", works)
    monkeypatch.setattr(os, "nice", lambda n: 0)  # (the test's own process: not lowered)
    assert compiled.main(["--background"]) == 0 and held == [True]
    assert not compiled.building() and compiled.failed() == ""

    def fails() -> Path:
        raise compiled.BuildError("mypyc could not compile the rule sets: no space")

    monkeypatch.setattr(compiled, "build", fails)
    assert compiled.main(["--background"]) == 1
    assert compiled.failed() == "mypyc could not compile the rule sets: no space"

    def breaks() -> Path:
        raise PermissionError("read-only")

    (place / f"{compiled.key()}{compiled.FAILED}").unlink()
    monkeypatch.setattr(compiled, "build", breaks)
    assert compiled.main(["--background"]) == 1
    assert compiled.failed() == "PermissionError: read-only"


def test_a_second_background_build_waits_for_the_first(place: Path) -> None:
    """In a real process: with the lock held (a build running), ``--background`` waits;
    once it is let go, the sources are found built and nothing is built again."""
    env = dict(os.environ, SEACONTROL_COMPILED=str(place))
    _built(place)
    with open(place / f"{compiled.key()}{compiled.LOCK}", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        second = subprocess.Popen(
            [sys.executable, "-m", compiled.__name__, "--background"],
            cwd=compiled._root(),
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            with pytest.raises(subprocess.TimeoutExpired):
                second.wait(timeout=2)  # (it imports in well under that, then waits)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    out, _ = second.communicate(timeout=60)
    assert second.returncode == 0 and out == f"The compiled rule sets are in {compiled.folder()}\n"
    assert compiled.failed() == ""


def test_a_background_build_keeps_the_newest_builds_of_other_sources(
    place: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "getsid", lambda pid: -1)
    for n in range(5):
        other = place / f"other{n}"
        other.mkdir()
        (other / compiled.DONE).write_text(other.name)
        os.utime(other / compiled.DONE, (1_000_000 + n, 1_000_000 + n))
        (place / f"other{n}{compiled.LOG}").write_text("")
    (place / "unfinished").mkdir()  # not a build (no BUILT): left to whoever writes it
    monkeypatch.setattr(compiled, "build", lambda: _built(place))
    assert compiled.main(["--background"]) == 0
    kept = sorted(p.name for p in place.iterdir())
    builds = [compiled.key(), "other2", "other3", "other4", "unfinished"]
    beside = [f"{compiled.key()}{compiled.LOCK}", *(f"other{n}{compiled.LOG}" for n in (2, 3, 4))]
    assert kept == sorted(builds + beside)


def test_cannot_build_names_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled.cannot_build.cache_clear()
    try:
        first = compiled.cannot_build()
        assert compiled.cannot_build() is first and compiled.cannot_build.cache_info().hits == 1
        compiled.cannot_build.cache_clear()
        monkeypatch.setenv("CC", "no-such-compiler")
        monkeypatch.setattr(compiled.shutil, "which", lambda name: None)
        assert compiled.cannot_build() == "no C compiler is installed (no-such-compiler not found)"
        compiled.cannot_build.cache_clear()
        real = compiled.importlib.util.find_spec
        monkeypatch.setattr(
            compiled.importlib.util,
            "find_spec",
            lambda name, *a: None if name == "mypyc" else real(name, *a),
        )
        assert compiled.cannot_build() == "mypy is not installed"
    finally:
        compiled.cannot_build.cache_clear()


def test_a_long_preview_asks_for_a_build_and_workers_take_one_up_later(
    place: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool's planning asks for a background build when none is ready; a worker that
    fought with the sources uses the build named by a later preview (never one it gave up
    on)."""
    asked: list[bool] = []
    monkeypatch.setattr(compiled, "build_soon", lambda: asked.append(True) or True)
    used: list[str] = []
    monkeypatch.setattr(compiled, "use", lambda folder: used.append(str(folder)) or True)
    monkeypatch.setattr(sampling, "_COMPILED", [])
    monkeypatch.setattr(sampling, "_DROPPED", set())
    monkeypatch.setattr(sampling, "_unpickled", lambda data: data)
    fought: list[tuple[str, int]] = []
    monkeypatch.setattr(
        sampling, "_fight", lambda plan, odds, a, b: fought.append((plan.compiled, b))
    )
    monkeypatch.setattr(sampling.gc, "freeze", lambda: None)
    setup = BattleSetup.load(BATTLES / "midway.json")

    def plan(build: str) -> sampling._Plan:
        return sampling._Plan("carrier", setup, "s", None, compiled=build)

    sampling._fight_batch(plan(""), 0, 1)  # type: ignore[arg-type]
    assert sampling._COMPILED == [""] and used == []
    sampling._fight_batch(plan("/built/one"), 0, 1)  # type: ignore[arg-type]
    assert sampling._COMPILED == ["/built/one"] and used == ["/built/one"]
    sampling._fight_batch(plan("/built/two"), 0, 1)  # type: ignore[arg-type]
    assert used == ["/built/one"]  # a worker keeps the build it has
    sampling._COMPILED[:] = [""]
    sampling._DROPPED.add("/built/two")
    sampling._fight_batch(plan("/built/two"), 0, 1)  # type: ignore[arg-type]
    assert used == ["/built/one"] and sampling._COMPILED == [""]  # given up on: not again
    # a build that cannot be imported is given up on, and the batch fought with the sources

    def damaged(folder: Path) -> bool:
        raise ImportError("bad module")

    dropped: list[str] = []
    monkeypatch.setattr(compiled, "use", damaged)
    monkeypatch.setattr(compiled, "drop", lambda folder: dropped.append(str(folder)))
    sampling._fight_batch(plan("/built/three"), 0, 1)  # type: ignore[arg-type]
    assert sampling._COMPILED == [""] and "/built/three" in sampling._DROPPED
    assert dropped == ["/built/three"] and fought[-1] == ("/built/three", 1)
    # the preview's own planning (the pool itself stood in for)
    monkeypatch.setattr(compiled, "ready", lambda: None)

    class Pool:
        def submit(self, fn: Any, *args: Any) -> Any:
            from concurrent.futures import Future

            done: Future[Any] = Future()
            done.set_result(sampling._blank(plan("")))
            return done

    monkeypatch.setattr(sampling, "_POOL", (2, Pool()))
    monkeypatch.setattr(sampling, "_pool", lambda workers: Pool())
    sampling.simulate("carrier", setup, 400, workers=2)
    assert asked == [True]

    # a pool whose worker died is ended, so that the next preview starts a new one
    class Broken(Pool):
        def submit(self, fn: Any, *args: Any) -> Any:
            from concurrent.futures import Future

            done: Future[Any] = Future()
            done.set_exception(sampling.BrokenProcessPool("a worker died"))
            return done

    ended: list[bool] = []
    monkeypatch.setattr(sampling, "_pool", lambda workers: Broken())
    monkeypatch.setattr(sampling, "shutdown_pool", lambda: ended.append(True))
    with pytest.raises(sampling.BrokenProcessPool):
        sampling.simulate("carrier", setup, 400, workers=2)
    assert ended == [True]


def test_the_key_follows_an_edit_of_the_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is kept while the sources' sizes and times of change stay as they were (it
    is asked for at every preview), and made again from their text when one changes."""
    package = tmp_path / "campaign"
    for name in compiled.SOURCES:
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(f"# {name}\n")
    (package / "__init__.py").write_text("")
    monkeypatch.setattr(compiled.campaign, "__file__", str(package / "__init__.py"))
    first = compiled.key()
    assert compiled.key() == first
    carrier = package / "tactical" / "carrier.py"
    carrier.write_text("# tactical/carrier.py, edited\n")
    edited = compiled.key()
    assert edited != first
    os.utime(carrier, ns=(1, 1))  # touched, the same text: read again, the same key
    assert compiled.key() == edited


def test_the_key_holds_mypys_minor_version_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The install's build hook compiles with the newest mypy of the minor version the
    program allows, which the program's own (installed earlier) may not be: its build is
    found all the same; a new minor version makes a new one."""
    from importlib import metadata

    def key_with(version: str) -> str:
        monkeypatch.setattr(metadata, "version", lambda name: version)
        compiled._key.cache_clear()
        return compiled.key()

    try:
        assert key_with("2.4.0") == key_with("2.4.1") == key_with("2.4.13")
        assert key_with("2.5.0") != key_with("2.4.1")
    finally:
        monkeypatch.undo()
        compiled._key.cache_clear()


def test_the_install_mode_tries_nothing_where_nothing_can_compile(
    place: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(compiled, "cannot_build", lambda: "no C compiler is installed")
    monkeypatch.setattr(compiled, "build", lambda: pytest.fail("a build was tried"))
    assert compiled.main(["--install"]) == compiled.CANNOT
    assert capsys.readouterr().err == "Not built: no C compiler is installed.\n"
    assert not any(place.iterdir())


def test_the_install_mode_builds_and_prunes(
    place: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A build made at install keeps the newest builds of other sources (as a background
    build does) and removes what builds killed on the way left (a day old)."""
    for n in range(5):
        other = place / f"other{n}"
        other.mkdir()
        (other / compiled.DONE).write_text(other.name)
        os.utime(other / compiled.DONE, (1_000_000 + n, 1_000_000 + n))
    killed, running = place / ".building-killed", place / ".building-running"
    for staging in (killed, running):
        (staging / "out").mkdir(parents=True)
    day = compiled.STALE_STAGING
    os.utime(killed, (os.path.getmtime(killed) - day - 60,) * 2)
    monkeypatch.setattr(compiled, "build", lambda: _built(place))
    assert compiled.main(["--install"]) == 0
    assert capsys.readouterr().out == f"The compiled rule sets are in {place / compiled.key()}\n"
    kept = sorted(p.name for p in place.iterdir())
    assert kept == sorted([compiled.key(), "other2", "other3", "other4", running.name])


def test_a_build_that_cannot_write_says_so(
    place: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def build() -> Path:
        raise PermissionError(13, "Permission denied", str(place))

    monkeypatch.setattr(compiled, "build", build)
    for mode in ([], ["--install"]):
        assert compiled.main(mode) == 1
        assert capsys.readouterr().err == f"Not built: [Errno 13] Permission denied: '{place}'\n"
