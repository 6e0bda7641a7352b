"""The `companion` command's entry point (and `python -m companion`'s): the root group, started
with the cycle collector held off until the command begins its own work (see
companion.terminal.collector: a third of what a `status` spent beyond a bare Click app)."""

from __future__ import annotations

import gc

from companion.terminal import collector


def main() -> None:
    """Console-script entry point."""
    collector.hold()
    try:
        from companion.terminal.cli import main as run

        run()
    finally:
        collector.begun()
        gc.freeze()  # the process ends: nothing it made needs walking at exit
