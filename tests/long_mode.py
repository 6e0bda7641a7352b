"""Short runs by default, full length in the long CI run (issue 12).

`.ci/run` sets COMPANION_LONG_TESTS=1: the random storms take more and longer runs, the
crash tests kill writers at least 1,000 times across all games, and the races of issue 22
(tests/test_races.py) run 1,000 trials each; the property tests take all their examples and
`companion check` its default 40 random moves a seed (issue 29, item 7: 10 by default). Every
kill test reports how many actions were acknowledged and how many were kept, every race its
trials and writes; conftest prints the totals at the end.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

LONG = os.environ.get("COMPANION_LONG_TESTS") == "1"


def scaled(short: int, long: int) -> int:
    return long if LONG else short


def report_path() -> Path:
    """Where kill tests leave their counts (one JSON line each), for the summary at the end."""
    return Path(os.environ.get("COMPANION_KILL_REPORT") or Path(tempfile.gettempdir()) / "companion-kill-report.jsonl")


def report_kills(test: str, kills: int, acknowledged: int, kept: int) -> None:
    with open(report_path(), "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"test": test, "kills": kills, "acknowledged": acknowledged, "kept": kept}) + "\n")


def report_races(test: str, trials: int, variants: int, overlapped: int, acknowledged: int, kept: int,
                 refused: int) -> None:
    """A race test's counts: trials run, kinds of action raced, trials whose two commands ran
    at the same time for a while, writes acknowledged (exit 0), those found afterwards, and
    those refused in one line (a conflict, a session gone)."""
    with open(report_path(), "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"race": test, "trials": trials, "variants": variants, "overlapped": overlapped,
                             "acknowledged": acknowledged, "kept": kept, "refused": refused}) + "\n")


def _rows() -> list[dict]:
    try:
        return [json.loads(line) for line in report_path().read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, ValueError):
        return []


def race_summary() -> list[str]:
    rows = [r for r in _rows() if "race" in r]
    if not rows:
        return []
    lines = [f"  {r['race']}: {r['trials']} trials ({r['variants']} kinds of action, {r['overlapped']} overlapping "
             f"in time), {r['acknowledged']} writes acknowledged, {r['kept']} kept, {r['refused']} refused in one line"
             for r in rows]
    total = {k: sum(r[k] for r in rows) for k in ("trials", "overlapped", "acknowledged", "kept", "refused")}
    lines.append(f"  all: {total['trials']} trials ({total['overlapped']} overlapping), {total['acknowledged']} writes "
                 f"acknowledged, {total['kept']} kept, {total['refused']} refused ({'long' if LONG else 'short'} run)")
    return lines


def report_line(section: str, text: str) -> None:
    """One line of figures for the summary at the end, under ``section`` (the full-disk runs)."""
    with open(report_path(), "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"section": section, "line": text}) + "\n")


def other_summaries() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for r in _rows():
        if "section" in r:
            out.setdefault(r["section"], []).append(f"  {r['line']}")
    return out


def kill_summary() -> list[str]:
    rows = [r for r in _rows() if "kills" in r]
    if not rows:
        return []
    lines = [f"  {r['test']}: {r['kills']} kill -9s, {r['acknowledged']} actions acknowledged, {r['kept']} kept"
             for r in rows]
    total = {k: sum(r[k] for r in rows) for k in ("kills", "acknowledged", "kept")}
    lines.append(f"  all: {total['kills']} kill -9s, {total['acknowledged']} actions acknowledged, "
                 f"{total['kept']} kept ({'long' if LONG else 'short'} run)")
    return lines
