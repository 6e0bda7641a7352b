"""What the product keeps in a process (a cache, a memo), emptied for one test and given back
after it, so that a test of the cache starts from nothing and the other tests of the process
keep what they had."""

from __future__ import annotations

import contextlib


@contextlib.contextmanager
def emptied(kept: dict):
    saved = dict(kept)
    kept.clear()
    try:
        yield
    finally:
        kept.clear()
        kept.update(saved)
