"""The cycle collector kept out of the `companion` command's start (issue 27).

A start makes some hundred thousand objects that live until the command ends (Click's, the
companion's modules, their classes and functions), and none of them is garbage held in a cycle.
Yet Python's cycle collector walked them again and again while they were made, and once more,
all of them, when the process exited: 36 M instructions of a 254 M `status` on a score sheet,
as much as every module the companion imports for it (BENCHMARKS.md). So the collector is off
from the first import until the command begins its own work; then everything made so far is
frozen (`gc.freeze`: kept out of every later collection, the one at exit too) and the
collector runs as usual for whatever the command does, the shell and the server included.
When the command ends, what it made is frozen as well: the process is about to end, and the
memory goes back to the system with it.

Only the `companion` command (and `python -m companion`) holds it (companion.terminal.start);
a program that imports the companion keeps its collector as it set it.
"""

from __future__ import annotations

import gc

_starting = False


def hold() -> None:
    """The start begins (companion.terminal.start): the collector is off until :func:`begun`."""
    global _starting
    _starting = gc.isenabled()
    gc.disable()


def begun() -> None:
    """The command begins its own work: what the start made is frozen, and the collector is
    on again (if it was on when the start began). Called by the root group's callback, once
    its subcommand is found; nothing when the start was not held."""
    global _starting
    if _starting:
        _starting = False
        gc.freeze()
        gc.enable()
