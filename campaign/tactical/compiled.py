"""The rule sets compiled, for bulk sampling: the same source, compiled by mypyc.

An odds preview fights thousands of battles by the rule set modules (``carrier.py``,
``fastplay.py``, ``surface.py``, ``airstrike.py``). Those modules are typed Python, so
`mypyc <https://mypyc.readthedocs.io>`_ (installed with mypy) compiles them to C extension
modules that run the very same rules about three times as fast (a Midway battle: 12.0
million instructions by the sources, 4.0 million compiled). Nothing is written twice: the
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
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

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
    platform, and mypy's version."""
    digest = hashlib.sha256()
    try:
        mypy = metadata.version("mypy")
    except metadata.PackageNotFoundError:
        mypy = "none"
    digest.update(f"{sys.version}|{platform.machine()}|{mypy}".encode())
    package = Path(campaign.__file__).resolve().parent
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


def main() -> int:
    """``python -m campaign.tactical.compiled``: build (or say where the build is)."""
    try:
        out = build()
    except BuildError as exc:
        print(f"Not built: {exc}", file=sys.stderr)
        return 1
    print(f"The compiled rule sets are in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
