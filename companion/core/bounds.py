"""Time bounds that may be set shorter, never longer, than the product's own.

The server's bounds (how long a connection may take to ask, how long a plugin's check may run
on a page) are there to hold a flood or a hung plugin at bay; a longer one would weaken them,
so a setting can only shorten them, down to a floor that still serves a phone on a slow Wi-Fi.
The tests use it to see a bound pass in a second or two instead of its full length (issue 29,
item 7), while one test of each keeps the real default. A value that is not a number is
ignored, and the default holds.
"""

from __future__ import annotations

import math
import os


def shortened(variable: str, default: float, floor: float) -> float:
    """``default``, or the seconds the environment variable ``variable`` sets, clamped between
    ``floor`` and ``default``."""
    said = os.environ.get(variable, "").strip()
    if not said:
        return default
    try:
        seconds = float(said)
    except ValueError:
        return default
    if not math.isfinite(seconds):
        return default
    return min(default, max(floor, seconds))
