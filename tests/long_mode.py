"""Short runs by default, full length in the long CI run (issue 12).

`.ci/run` sets COMPANION_LONG_TESTS=1: the random storms take more and longer runs, and the
crash tests kill writers at least 1,000 times across all games. Every kill test reports how
many actions were acknowledged and how many were kept; conftest prints the totals at the end.
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


def kill_summary() -> list[str]:
    try:
        rows = [json.loads(line) for line in report_path().read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, ValueError):
        return []
    if not rows:
        return []
    lines = [f"  {r['test']}: {r['kills']} kill -9s, {r['acknowledged']} actions acknowledged, {r['kept']} kept"
             for r in rows]
    total = {k: sum(r[k] for r in rows) for k in ("kills", "acknowledged", "kept")}
    lines.append(f"  all: {total['kills']} kill -9s, {total['acknowledged']} actions acknowledged, "
                 f"{total['kept']} kept ({'long' if LONG else 'short'} run)")
    return lines
