"""Hand edits of a session's recorded entries wherever they live (issue 30): the session file's
own journal (sessions recorded before issue 30, and `played`), or this laptop's journal of it
(``sessions/ID.DEVICE.jsonl``, one entry a line after a header line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable


def journal_files(home: Path, sid: str) -> list[Path]:
    return sorted((home / "sessions").glob(f"{sid}.*.jsonl"))


def entries(home: Path, sid: str) -> list[dict]:
    """Every recorded entry of the session, the file's first, then each journal's, in order."""
    doc = json.loads((home / "sessions" / f"{sid}.json").read_text())
    out = [doc["journal"][k] for k in sorted(doc.get("journal", {}), key=int)]
    for path in journal_files(home, sid):
        out += [json.loads(line) for line in path.read_text().splitlines()[1:]]
    return out


def edit_entry(home: Path, sid: str, n: int, change: Callable[[dict], None]) -> None:
    """Change the ``n``-th recorded entry of the session (1-based, as :func:`entries` orders them)
    in place, in whichever file holds it."""
    path = home / "sessions" / f"{sid}.json"
    doc = json.loads(path.read_text())
    own = doc.get("journal", {})
    if n <= len(own):
        change(own[str(n)])
        path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
        return
    n -= len(own)
    for journal in journal_files(home, sid):
        lines = journal.read_text().splitlines()
        if n < len(lines):
            entry = json.loads(lines[n])
            change(entry)
            lines[n] = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
            journal.write_text("\n".join(lines) + "\n")
            return
        n -= len(lines) - 1
    raise IndexError("no such entry")


def edit_first(home: Path, sid: str, matches: Callable[[dict], bool], change: Callable[[dict], None]) -> None:
    """Change the first recorded entry for which ``matches`` holds, in whichever file holds it."""
    for n, entry in enumerate(entries(home, sid), 1):
        if matches(entry):
            edit_entry(home, sid, n, change)
            return
    raise LookupError("no entry matches")


def record_bytes(path: Path) -> bytes:
    """A data folder's file as a record: its bytes; the index's without its "sources" (the
    signatures of the files each entry was checked against, issue 30), a record of checks that a
    read keeps up to date and an action forgets (companion.core.index.before_append), no change
    of the record. Tests that say "nothing was changed" compare these."""
    data = path.read_bytes()
    if path.name == "index.json":
        doc = json.loads(data)
        doc.pop("sources", None)
        return json.dumps(doc).encode()
    return data
