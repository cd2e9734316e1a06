"""The install's build hook: the tactical rule sets compiled while the program is installed.

``pip install`` (editable or not) builds the program's wheel with hatchling, which runs
this hook first (``pyproject.toml``: ``[tool.hatch.build.targets.wheel.hooks.custom]``).
It runs ``python -m campaign.tactical.compiled`` on the sources being installed, so that
the first odds preview already fights with the compiled rule sets instead of the plain
rules while a background build runs (``campaign/tactical/compiled.py``). The build goes
where the program looks for it, the user's cache folder, named for the sources and the
Python and mypy versions; nothing is added to the wheel, and a build already there for
these sources is found at once.

Installing never fails for it: where this machine cannot compile (no C compiler, no
Python headers, no Xcode tools on macOS, Windows) nothing is tried, and where a build
fails (no room, a compiler error) the program tries again in the background; either way
the hook says so as a warning, which pip shows with ``pip install -v``. A build that
takes longer than :data:`TIMEOUT` is stopped with its compiler processes.
``SEACONTROL_COMPILE=never`` skips it, as it stops the background build.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: the switch the program reads too (campaign.tactical.compiled.SWITCH)
SWITCH = "SEACONTROL_COMPILE"
#: at most this long (s): a build takes about a minute; a stuck one must not stall pip
TIMEOUT = 900.0
#: the build's exit status when this machine cannot compile (campaign.tactical.compiled.CANNOT)
CANNOT = 3

#: runs the build: (command, folder, environment) → (exit status, what it printed)
Runner = Callable[[list[str], Path, dict[str, str]], tuple[int, str]]


def _run(command: list[str], root: Path, env: dict[str, str]) -> tuple[int, str]:
    """Run the build in a process group of its own (the compiler runs in processes of its
    own): stopped as a whole, with SIGTERM, should it take longer than :data:`TIMEOUT`.
    Returns its exit status and what it printed."""
    with subprocess.Popen(
        command,
        cwd=root,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        start_new_session=True,
    ) as process:
        try:
            said, _ = process.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            stop = getattr(os, "killpg", None)
            if stop is not None:
                stop(process.pid, signal.SIGTERM)  # the build cleans up (see its --install)
            else:
                process.terminate()
            try:
                process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
            raise
    return process.returncode, said


def compile_rule_sets(
    root: Path, environ: Mapping[str, str], run: Runner | None = None
) -> tuple[bool, str]:
    """Build the compiled rule sets of the sources under ``root`` (the project's folder).
    Returns whether they are built, and what to tell the person installing. Never raises:
    an install does not fail for want of a faster preview. (``run``: what runs the
    build, for the tests; by default :func:`_run`.)"""
    if environ.get(SWITCH, "").strip().lower() == "never":
        return False, f"Tactical rule sets not compiled ({SWITCH}=never)."
    # the sources being installed first; pip's build environment (which holds mypy) kept
    path = [str(root), *filter(None, [environ.get("PYTHONPATH", "")])]
    env = {**environ, "PYTHONPATH": os.pathsep.join(path)}
    command = [sys.executable, "-m", "campaign.tactical.compiled", "--install"]
    try:
        status, said = (run or _run)(command, root, env)
    except subprocess.TimeoutExpired:
        return False, (
            f"Tactical rule sets not compiled: stopped after {TIMEOUT:.0f} s. The program "
            "will try again in the background."
        )
    except Exception as exc:  # whatever it was: an install never fails for it
        return False, (
            f"Tactical rule sets not compiled now ({exc}). The program will try again in "
            "the background."
        )
    said = " ".join(said.split())
    if status == CANNOT:
        return False, (
            f"Tactical rule sets not compiled: {said} Previews fight with the plain rules."
        )
    if status != 0:
        return False, (
            f"{said or 'Tactical rule sets not compiled.'} The program will try again in the "
            "background."
        )
    return True, said


class CompileRuleSets(BuildHookInterface):
    """Compiles the tactical rule sets before the wheel is built (see the module)."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        built, message = compile_rule_sets(Path(self.root), os.environ)
        if built:
            self.app.display_info(message)
        else:
            self.app.display_warning(message)
