"""How often a page may post (issue 21, item 8).

A player taps a move every few seconds, a fast one a few lines of track in a row; a stuck
button, a script or someone holding a player's link can post hundreds a second, and every
post takes the session's write lock. So each player's posts go through a bucket: a burst of
:data:`POST_BURST`, then :data:`POST_RATE` a second; a post past that is answered 429 on the
player's page ("Too many taps ..."), nothing recorded. The bucket is keyed by the player
(the right token only: a wrong one is a 404, slowed down per address by ``site.Guesses``).
"""

from __future__ import annotations

import threading
import time

from companion.contract.language import N_

POST_BURST = 10  # posts a player may make at once
POST_RATE = 3.0  # posts a second after that
TOO_MANY = N_("Too many taps at once: wait a moment, then choose again.")  # said in the page's language


class Rate:
    """A token bucket per key: ``burst`` at once, then ``rate`` a second."""

    def __init__(self, burst: int = POST_BURST, rate: float = POST_RATE, clock=time.monotonic):
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}
        self.lock = threading.Lock()

    def allow(self, key: str) -> bool:
        now = self.clock()
        with self.lock:
            level, then = self.buckets.get(key, (float(self.burst), now))
            level = min(float(self.burst), level + (now - then) * self.rate)
            if level < 1.0:
                self.buckets[key] = (level, now)
                return False
            if len(self.buckets) > 10_000:  # keys are players of one session: never this many
                self.buckets.clear()
            self.buckets[key] = (level - 1.0, now)
            return True
