"""The install's build hook: the tactical rule sets compiled while the program is installed.

``pip install`` (editable or not) builds the program's wheel with hatchling, which runs
this hook first (``pyproject.toml``: ``[tool.hatch.build.targets.wheel.hooks.custom]``).
It runs ``python -m campaign.tactical.compiled`` on the sources being installed, so that
the first odds preview already fights with the compiled rule sets instead of the plain
rules while a background build runs (``campaign/tactical/compiled.py``). The build goes
where the program looks for it, the user's cache folder, named for the sources and the
Python and mypy versions; nothing is added to the wheel, and a build already there for
these sources is found at once.

Installing never fails for it: where the rule sets cannot be compiled (no C compiler, no
Python headers, no room), the hook warns (``pip install -v`` shows it) and the program
builds them later in the background, or keeps to the plain rules and says why.
``SEACONTROL_COMPILE=never`` skips it, as it stops the background build.
"""

from __future__ import annotations

import os
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

Runner = Callable[..., subprocess.CompletedProcess[str]]


def compile_rule_sets(
    root: Path, environ: Mapping[str, str], run: Runner = subprocess.run
) -> tuple[bool, str]:
    """Build the compiled rule sets of the sources under ``root`` (the project's folder).
    Returns whether they are built, and what to tell the person installing. Never raises:
    an install does not fail for want of a faster preview."""
    if environ.get(SWITCH, "").strip().lower() == "never":
        return False, f"Tactical rule sets not compiled ({SWITCH}=never)."
    # the sources being installed first; pip's build environment (which holds mypy) kept
    path = [str(root), *filter(None, [environ.get("PYTHONPATH", "")])]
    try:
        done = run(
            [sys.executable, "-m", "campaign.tactical.compiled"],
            cwd=root,
            env={**environ, "PYTHONPATH": os.pathsep.join(path)},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return False, f"Tactical rule sets not compiled now ({exc}). The program will try later."
    said = " ".join((done.stdout + done.stderr).split())
    if done.returncode != 0:
        return False, f"{said or 'Tactical rule sets not compiled.'} The program will try later."
    return True, said


class CompileRuleSets(BuildHookInterface):
    """Compiles the tactical rule sets before the wheel is built (see the module)."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        built, message = compile_rule_sets(Path(self.root), os.environ)
        if built:
            self.app.display_info(message)
        else:
            self.app.display_warning(message)
