"""The ``seacontrol`` command's entry point, kept light on purpose (as
:mod:`campaign.launch`): the worker processes of a long odds preview import the program's
main module when they start, and pointing the installed script at :mod:`ui.app` made
each of them import Qt and the whole app."""

from __future__ import annotations


def app() -> int:
    """Open the desktop app with the process's arguments; its exit status."""
    from .app import main

    return main()
