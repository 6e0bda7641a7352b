"""Ending a process the tests started: asked to stop, given time, then killed."""

from __future__ import annotations

import subprocess


def ended(proc: subprocess.Popen, timeout: float = 10, ask: bool = True) -> None:
    """End ``proc``: SIGTERM (unless ``ask`` is False: it ends by itself, e.g. its input closed),
    up to ``timeout`` seconds to exit, then SIGKILL; reaped either way."""
    if ask:
        proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=timeout)
