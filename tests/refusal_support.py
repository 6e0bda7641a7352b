"""The check every rules test makes of a refusal (issue 15): one line, exit 1, nothing changed."""

from __future__ import annotations


def refused(run, status, args, text):
    """A refusal: one line, exit 1, and `status --json` the same before and after."""
    before = status()
    result = run(args, expect=1)
    assert text in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert status() == before
    return result.stderr
