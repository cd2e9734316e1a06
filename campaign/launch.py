"""The ``seacontrol-cli`` command's entry point, kept light on purpose.

A long odds preview is fought by worker processes, started the way :mod:`multiprocessing`
starts them on every platform it supports here (a fork server, or a new interpreter): each
imports the program's main module when it starts, which for an installed command is the
script that imports its entry point. Pointing the script at the command line's own module
made every worker import the whole command line (a third of a second each, at the start
of every preview); this module imports it only when the command runs.
"""

from __future__ import annotations


def cli() -> int:
    """Run ``seacontrol-cli`` with the process's arguments; its exit status."""
    from .cli import main

    return main()
