"""The rule sets compiled, for bulk sampling: the same source, compiled by mypyc.

An odds preview fights thousands of battles by the rule set modules (``carrier.py``,
``fastplay.py``, ``surface.py``, ``airstrike.py``). Those modules are typed Python, so
`mypyc <https://mypyc.readthedocs.io>`_ (part of mypy, a dependency of the program)
compiles them to C extension modules that run the very same rules four to five times as
fast (a Midway battle, one core: about 600-800 battles a second by the sources, 2,800-3,300
compiled). Nothing is written twice: the
compiled modules are built from the sources as they are, so they fight the same battle for
the same dice (a test checks every rule set battle for battle).

What the compiler can make fast, and the sources keep to:

* A class is a native class (attributes in C slots, methods called directly) only when
  every class it derives from is compiled too: what the rule sets share is in modules of
  their own that are compiled with them (``turns.py``: the turn; ``preview.py``: the
  preview's dice, whose rolls would otherwise run interpreted, a fifth of a battle).
* Module constants are ``Final`` (read as constants, not looked up in the module's
  dictionary each time).
* Classes made in a battle are plain classes with their own ``__init__``: a dataclass's
  generated ``__init__`` is interpreted Python even in a compiled module.
* Hot loops use plain loops over typed values rather than ``min``/``max``/``sum``/
  ``sorted`` with a key (each a look-up of the builtin and a call per element), and the
  dice's purposes avoid format specs (an f-string with one becomes a ``str.format`` call
  per part).

* :func:`build` compiles them (a C compiler and Python's headers are needed; about a
  minute) into a folder of their own, never beside the sources: an edited ``carrier.py``
  is never shadowed by a stale build. ``python -m campaign.tactical.compiled`` builds.
* The folder's name is a digest of the sources compiled, those they take their types
  from, and the Python and mypy versions (:func:`key`), so an edit makes the build out of
  date: :func:`ready` then finds none and the sources are used.
* Only the worker processes of a preview use a build (:func:`use`, from
  :mod:`campaign.tactical.simulate`); the program itself, its narrated battles and the
  tests of the rules run the sources.
* Installing the program builds them (``tools/hatch_build.py``, the install's build hook,
  runs ``python -m campaign.tactical.compiled --install`` on the sources being
  installed; an install never fails for it), so where this machine can compile, the
  first preview already fights with them.
* Where there is no build (none could be made at install, or the sources were edited
  since), the app's Fight-it-out odds tab (when first made) and every
  preview (:func:`campaign.tactical.simulate.simulate`) start one in the background
  (:func:`build_soon`: a process of its own at a low priority, which outlives the program
  that started it), so a user never has to build by hand: previews fight with the sources
  until the build is done, and the workers take it up at their next preview. The
  environment variable ``SEACONTROL_COMPILE=never`` turns this off. A machine that cannot
  compile (no C compiler, no Python headers: :func:`cannot_build`) keeps to the sources,
  and :func:`describe` says so; a build that failed is not tried again for these sources.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import importlib.util
import os
import platform
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # Windows: no background builds (see cannot_build)
    fcntl = None  # type: ignore[assignment]

import campaign
import campaign.tactical as tactical

#: the modules compiled: what the rule sets share (the turn, the preview's dice), then the
#: rule sets (each registers its rule set when imported)
MODULES = ("turns", "preview", "carrier", "fastplay", "surface", "airstrike")
#: what the compiled modules are built from (under ``campaign/``): the rule sets and what
#: they take their types from
SOURCES = (
    *(f"tactical/{name}.py" for name in MODULES),
    "tactical/__init__.py",
    "dice.py",
)
#: where builds go, unless ``SEACONTROL_COMPILED`` names another folder
CACHE = Path.home() / ".cache" / "seacontrol" / "compiled"
#: the file a finished build writes last: a folder without it is not a build
DONE = "BUILT"
#: ``SEACONTROL_COMPILE``: "never" stops :func:`build_soon` (anything else: builds)
SWITCH = "SEACONTROL_COMPILE"
#: beside a build's folder: a background build's output (``<key>.log``), the lock it holds
#: while it runs (``<key>.lock``) and, should it fail, why (``<key>.failed``)
LOG, LOCK, FAILED = ".log", ".lock", ".failed"
#: what compiles: mypyc's setuptools helper, each module on its own (two at a time)
_BUILD = """
import sys
from mypyc.build import mypycify
from setuptools import setup
temp, out, *paths = sys.argv[1:]
setup(
    name="seacontrol-compiled",
    packages=[],
    py_modules=[],
    ext_modules=mypycify(paths, target_dir=temp, separate=True),
    script_args=["-q", "build_ext", "--build-lib", out, "--build-temp", temp, "--parallel", "2"],
)
"""


class BuildError(RuntimeError):
    """The rule sets could not be compiled (no compiler, no mypy …): the message says why."""


def _root() -> Path:
    """The folder that holds the ``campaign`` package."""
    return Path(campaign.__file__).resolve().parent.parent


def key() -> str:
    """A digest of what a build depends on: :data:`SOURCES`, Python's version and
    platform, and mypy's minor version (the one the program's dependencies allow: the
    install's build hook compiles with the newest release of it, which the program's own
    mypy, installed earlier, may not be; a compiled module does not use mypy when it runs).
    (Worked out again only when a source's size or time of change is not what it was:
    every preview, and each look at a build, asks.)"""
    package = Path(campaign.__file__).resolve().parent
    stamps = []
    for name in SOURCES:
        found = (package / name).stat()
        stamps.append((found.st_mtime_ns, found.st_size))
    return _key(package, tuple(stamps))


@functools.lru_cache(maxsize=4)
def _key(package: Path, stamps: tuple[tuple[int, int], ...]) -> str:
    from importlib import metadata  # (here: a worker process never asks, nor imports it)

    digest = hashlib.sha256()
    try:
        mypy = ".".join(metadata.version("mypy").split(".")[:2])
    except metadata.PackageNotFoundError:
        mypy = "none"
    digest.update(f"{sys.version}|{platform.machine()}|{mypy}".encode())
    for name in SOURCES:
        digest.update(name.encode())
        digest.update((package / name).read_bytes())
    return digest.hexdigest()[:20]


def folder() -> Path:
    """Where the build of the present sources lives (or would)."""
    base = Path(os.environ.get("SEACONTROL_COMPILED") or CACHE)
    return base / key()


def ready() -> Path | None:
    """The build of the present sources, or None (never built, or the sources changed)."""
    out = folder()
    return out if (out / DONE).is_file() else None


def build() -> Path:
    """Compile the rule set modules (if the present sources have no build yet); returns the
    build's folder. :class:`BuildError` says what went wrong."""
    done = ready()
    if done is not None:
        return done
    out = folder()  # named for the sources as they are now, which the compiler reads
    out.parent.mkdir(parents=True, exist_ok=True)
    sources = [f"campaign/tactical/{name}.py" for name in MODULES]
    with (
        tempfile.TemporaryDirectory(prefix="seacontrol-build-") as temp,
        tempfile.TemporaryDirectory(prefix=".building-", dir=out.parent) as beside,
    ):
        staging = Path(beside) / "out"  # beside the build's place: moved in at one stroke
        try:
            finished = subprocess.run(
                [sys.executable, "-c", _BUILD, str(Path(temp) / "c"), str(staging), *sources],
                cwd=_root(),
                # mypy's cache in the build's own temporary folder, never beside the sources
                # (an installed program's folder may not be writable)
                env=dict(os.environ, MYPY_CACHE_DIR=str(Path(temp) / "mypy-cache")),
                capture_output=True,
                text=True,
                check=False,
            )
        except OSError as exc:
            raise BuildError(f"cannot run the compiler: {exc}") from None
        if finished.returncode != 0:
            tail = (finished.stderr or finished.stdout).strip().splitlines()[-5:]
            raise BuildError("mypyc could not compile the rule sets: " + " / ".join(tail))
        (staging / DONE).write_text(out.name + "\n", encoding="utf-8")
        if not (out / DONE).is_file():  # else another build of these sources came first
            shutil.rmtree(out, ignore_errors=True)  # an unfinished one
            with contextlib.suppress(OSError):  # one that came first in the meantime
                os.rename(staging, out)
    if ready() != out:
        raise BuildError(f"the build could not be put in {out}")
    return out


def use(build_folder: Path) -> bool:
    """In a worker process: fight with the build's rule set modules from now on (each
    registers its compiled rule set in :data:`campaign.tactical.RULE_SETS` as it is
    imported, in place of the source's). False if the build lacks a module."""
    package = build_folder / "campaign" / "tactical"
    built = {p.name for p in package.iterdir()} if package.is_dir() else set()
    if not all(any(name + end in built for end in EXTENSION_SUFFIXES) for name in MODULES):
        return False
    tactical.__path__.insert(0, str(package))
    _reimport()
    return True


def drop(build_folder: Path) -> None:
    """Undo :func:`use`: the sources' rule set modules again (and their rule sets)."""
    package = str(build_folder / "campaign" / "tactical")
    while package in tactical.__path__:
        tactical.__path__.remove(package)
    _reimport()


def _reimport() -> None:
    """Import the rule set modules afresh, from the first place on the package's path."""
    for name in MODULES:
        sys.modules.pop(f"{tactical.__name__}.{name}", None)
    for name in MODULES:
        importlib.import_module(f"{tactical.__name__}.{name}")


# -- building in the background ------------------------------------------------------------


@functools.cache
def cannot_build() -> str:
    """Why this machine cannot compile the rule sets by itself ("" if it can): mypyc and
    setuptools installed (they come with the program), a C compiler and Python's C headers
    (a system's packages: ``gcc`` and ``python3-dev`` on Debian; Xcode's command line
    tools on macOS). Looked at once a process."""
    if fcntl is None:
        return "the program compiles them by itself on Linux and macOS only"
    for module, package in (("mypyc", "mypy"), ("setuptools", "setuptools")):
        if importlib.util.find_spec(module) is None:
            return f"{package} is not installed"
    if sys.platform == "darwin":
        # /usr/bin/cc is there without the tools, and offers to install them in a window
        try:
            tools = subprocess.run(["xcode-select", "-p"], capture_output=True, check=False)
        except OSError:
            return "Xcode's command line tools are not installed (xcode-select not found)"
        if tools.returncode != 0:
            return "Xcode's command line tools are not installed (xcode-select --install)"
    named = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not named or (shutil.which(named[0]) is None and shutil.which("cc") is None):
        return f"no C compiler is installed ({named[0] if named else 'cc'} not found)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"Python's C headers are not installed ({headers} not found)"
    return ""


def _beside(end: str) -> Path:
    """The file ``<key><end>`` beside the present sources' build folder."""
    out = folder()
    return out.parent / (out.name + end)


#: this process's background build, while it may still run
_STARTED: list[subprocess.Popen[bytes]] = []
#: why this process could not start a background build ("" if nothing stopped it)
_NOT_STARTED: list[str] = []


def building() -> bool:
    """True while a background build of the present sources runs: one this process
    started, or another's (which holds the lock)."""
    if any(p.poll() is None for p in _STARTED):
        return True  # (it may not have taken its lock yet)
    if fcntl is None:
        return False
    try:
        with open(_beside(LOCK), "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(lock, fcntl.LOCK_UN)
    except OSError:
        return False
    return False


def failed() -> str:
    """Why the last background build of the present sources failed ("" if none did)."""
    try:
        return _beside(FAILED).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def _turned_off() -> bool:
    return os.environ.get(SWITCH, "").strip().lower() == "never"


def build_soon() -> bool:
    """Start building the present sources in the background, unless they are built,
    being built, failed before, turned off (:data:`SWITCH`) or this machine cannot build
    (:func:`cannot_build`). True if a build was started. Cheap to call before every
    preview."""
    # (built, the usual case once installed: one look at the build, no lock file opened)
    if _turned_off() or ready() is not None or cannot_build() or building() or failed():
        return False
    log = _beside(LOG)
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", __name__, "--background"],
                cwd=_root(),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # carries on if the program that started it ends
            )
    except OSError as exc:
        _NOT_STARTED[:] = [f"{exc.strerror or exc} ({exc.filename or log.parent})"]
        return False
    _NOT_STARTED.clear()
    _STARTED[:] = [process]
    # reaped when it ends (else it stays a defunct entry while the program runs)
    threading.Thread(target=process.wait, daemon=True).start()
    return True


def describe() -> str:
    """A sentence on what long previews fight with: the compiled rule sets, or the
    sources, and why."""
    if ready() is not None:
        return "Long previews fight with the compiled rule sets."
    by_hand = f"{sys.executable} -m {__name__}"
    if _turned_off():
        return f"Previews fight with the plain rules ({SWITCH}=never)."
    if building():
        return (
            "The rule sets are being compiled for faster previews (about a minute, once): "
            "until then, previews fight with the plain rules."
        )
    why = failed()
    if why:
        return (
            f"Previews fight with the plain rules: compiling them failed ({why}; the "
            f"compiler's output is in {_beside(LOG)}). To try again: {by_hand}"
        )
    why = cannot_build()
    if why:
        return (
            f"Previews fight with the plain rules: the program cannot compile them here "
            f"({why}). To compile them by hand: {by_hand}"
        )
    if _NOT_STARTED:
        return (
            f"Previews fight with the plain rules: compiling them could not start "
            f"({_NOT_STARTED[0]}). To compile them by hand: {by_hand}"
        )
    return "The rule sets will be compiled for faster previews when a long preview is run."


#: builds of other sources kept after a build (the newest): older ones go
KEEP_OTHERS = 3


#: a build's staging folder (``.building-*``, beside the builds) older than this (s) was
#: left by a build that was killed: a build takes a minute or two
STALE_STAGING = 24 * 3600.0


def _prune() -> None:
    """Remove the builds of other sources but the :data:`KEEP_OTHERS` newest (each edit of
    the rule sets, or a new Python or mypy, makes a new one), with their files beside
    them, and the staging folders of builds killed on the way (a day old)."""
    here = folder()
    others = [p for p in here.parent.iterdir() if p.is_dir() and p != here and (p / DONE).is_file()]
    others.sort(key=lambda p: (p / DONE).stat().st_mtime, reverse=True)
    for old in others[KEEP_OTHERS:]:
        shutil.rmtree(old, ignore_errors=True)
        for end in (LOG, LOCK, FAILED):
            with contextlib.suppress(OSError):
                (old.parent / (old.name + end)).unlink()
    now = time.time()
    for staging in here.parent.glob(".building-*"):
        with contextlib.suppress(OSError):
            if now - staging.stat().st_mtime > STALE_STAGING:
                shutil.rmtree(staging, ignore_errors=True)


def _build_in_background() -> int:
    """The background build: at a low priority, holding the lock; a failure is written
    down (:func:`failed`) so that it is not tried again for these sources."""
    assert fcntl is not None
    with contextlib.suppress(OSError):
        os.nice(10)  # the program's own work, previews included, comes first
    if os.getsid(0) == os.getpid():  # a session of its own (as build_soon starts it)
        with contextlib.suppress(OSError):
            # Linux schedules a new session as a group of its own, weighed against the
            # others by the group's nice, not its processes': the build's group is lowered
            # too (only for a session of its own: the group is the whole session's)
            Path("/proc/self/autogroup").write_text("10")
    _beside(LOCK).parent.mkdir(parents=True, exist_ok=True)
    lock: IO[str]
    with open(_beside(LOCK), "a") as lock:
        # waits for another build of these sources to end (it is then found built, or
        # failed), or for a look at the lock (building()) to let go of it
        fcntl.flock(lock, fcntl.LOCK_EX)
        if failed():
            return 1
        try:
            out = build()
        except Exception as exc:  # whatever it was, written down: not tried again
            why = str(exc) if isinstance(exc, BuildError) else f"{type(exc).__name__}: {exc}"
            _beside(FAILED).write_text(f"{why}\n", encoding="utf-8")
            print(f"Not built: {why}", file=sys.stderr)
            return 1
    return _finished(out)


def _finished(out: Path) -> int:
    """After a build (in the background, at install or by hand): the builds of other
    sources pruned, and where this one is said."""
    with contextlib.suppress(OSError):
        _prune()
    print(f"The compiled rule sets are in {out}")
    return 0


#: ``python -m campaign.tactical.compiled --install``'s exit status when this machine cannot
#: compile (:func:`cannot_build`): nothing was tried
CANNOT = 3


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(f"Not built: stopped (signal {signum})")


def main(argv: list[str] | None = None) -> int:
    """``python -m campaign.tactical.compiled``: build (or say where the build is).
    ``--background``: as :func:`build_soon` runs it. ``--install``: as the install's build
    hook runs it (``tools/hatch_build.py``): nothing is tried where this machine cannot
    compile (:data:`CANNOT`, with the reason), and a build stopped by SIGTERM cleans up
    after itself."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--background"]:
        return _build_in_background()
    if args == ["--install"]:
        why = cannot_build()
        if why:
            print(f"Not built: {why}.", file=sys.stderr)
            return CANNOT
        # (the hook stops a build that takes too long: the temporary folders go with it)
        signal.signal(signal.SIGTERM, _stopped)
    try:
        out = build()
    except (BuildError, OSError) as exc:
        print(f"Not built: {exc}", file=sys.stderr)
        return 1
    with contextlib.suppress(OSError):
        _beside(FAILED).unlink()  # built by hand: a failure before no longer stands
    return _finished(out)


if __name__ == "__main__":
    sys.exit(main())
