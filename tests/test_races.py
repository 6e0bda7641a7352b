"""An import or a delete racing an action on the same session loses nothing (issue 22, D1 and D2).

The second adversarial test found two races. `import` of an export that continues a session,
at the same moment as an action on it, lost one side's acknowledged writes (2 of 30 trials):
import held only the folder's lock and the action only the session's, and both replaced the
whole file. `delete --yes` at the same moment as an action left the session both in
`sessions/` and in `bin/` (2 of 40), both commands saying they were done. Now every write
takes the session's own lock first, and the folder's lock inside it where it touches the index.

Each trial starts two real commands at one instant (tests/race_support.py: two processes, each
after a random delay of up to a few milliseconds) on a fresh copy of a data folder, then checks
that every write acknowledged (exit status 0) is in the files, that a refusal is one line, and
that the session is in exactly one place. The action raced is, in turn, a note, an add, an
undo and a finish (which also updates the index). 12 trials per race by default, 1,000 with
COMPANION_LONG_TESTS=1 (tests/long_mode.py); pytest's summary prints the counts.
"""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner
from long_mode import report_races, scaled
from race_support import Racer, fresh_copy, journal_of, one_line

from companion.core import session as sessions
from companion.core.store import Store
from companion.terminal.cli import cli

TRIALS = scaled(12, 1000)  # each of the four kinds of action raced 3 times by default
EVENTS = 60  # the session raced on: long enough that an import takes a while to check it
IMPORTED = 5  # the notes the other laptop's export adds


def actions(n: int) -> list[tuple[str, list[str]]]:
    """The action of trial ``n`` (four kinds in turn), as a command line after `--session ID`."""
    kinds = [("note", ["note", f"LOCAL-{n}"]), ("add", ["add", f"Ann={1000 + n}", "Bob=0"]),
             ("undo", ["undo"]), ("finish", ["finish"])]
    return [kinds[n % len(kinds)]]


def holds(journal: list[dict], kind: str, n: int, before: int) -> bool:
    """Whether ``journal`` holds the action of trial ``n`` (of ``kind``) after its first ``before`` entries."""
    for entry in journal[before:]:
        event = entry.get("event") or {}
        if kind == "note" and event.get("type") == "note" and event.get("text") == f"LOCAL-{n}":
            return True
        if kind == "add" and event.get("type") == "add" and (event.get("scores") or {}).get("Ann") == 1000 + n:
            return True
        if kind == "undo" and entry.get("kind") == "undo":
            return True
        if kind == "finish" and event.get("type") == "finish":
            return True
    return False


def cli_run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def a_session(home) -> str:
    """A score sheet of EVENTS rounds in data folder ``home``; its id."""
    cli_run("--data-dir", str(home), "new", "scoresheet", "--players", "Ann,Bob")
    store = Store(home)
    sid = store.current()
    for i in range(EVENTS):
        sessions.record(store, sid, {"type": "add", "scores": {"Ann": 1, "Bob": i}})
    return sid


def test_an_import_racing_an_action_keeps_every_acknowledged_write(tmp_path):
    """D1: the import is a fast-forward decided under the session's lock: it brings the other
    laptop's entries after everything this folder holds, or it refuses as a conflict (the
    action came first, so the histories differ) in one line. Never both silently."""
    base = tmp_path / "base"
    sid = a_session(base)
    other = fresh_copy(base, tmp_path / "other")
    shutil.rmtree(other / ".local", ignore_errors=True)  # another laptop (issue 30: its own device id)
    store = Store(other)
    for i in range(IMPORTED):
        sessions.record(store, sid, {"type": "note", "text": f"imported-{i}"})
    export = tmp_path / "other.json"
    assert cli_run("--data-dir", str(other), "export", "-o", str(export)).exit_code == 0
    imported = json.loads(export.read_text())["sessions"][0]["journal"][EVENTS:]
    assert len(imported) == IMPORTED

    acknowledged = kept = refused = 0
    lost: list[str] = []
    with Racer(seed=20260122, spread=0.006) as racer:
        for n in range(TRIALS):
            kind, line = actions(n)[0]
            home = fresh_copy(base, tmp_path / "trial")
            importing = ["--data-dir", home, "import", export]
            acting = ["--data-dir", home, "--session", sid, *line]
            pair = (importing, acting) if n % 2 else (acting, importing)
            first, second = racer.race(*pair)
            imp, act = (first, second) if n % 2 else (second, first)
            journal = journal_of(home / "sessions" / f"{sid}.json")
            sessions.load(Store(home), sid).replay()  # it still replays
            if act["code"] == 0:
                acknowledged += 1
                if holds(journal, kind, n, EVENTS):
                    kept += 1
                else:
                    lost.append(f"trial {n}: the acknowledged {kind} is gone ({act['out'].strip()[:60]})")
            else:
                lost.append(f"trial {n}: the {kind} was refused: {act['err'].strip()[:120]}")
            brought = [e for e in imported if e in journal]
            if imp["code"] == 0:
                acknowledged += 1
                assert "1 continued" in imp["out"], imp
                if len(brought) == IMPORTED and journal[EVENTS:EVENTS + IMPORTED] == imported:
                    kept += 1
                else:
                    lost.append(f"trial {n}: the import said continued, but {IMPORTED - len(brought)} of its "
                                f"{IMPORTED} entries are not there (raced with {kind})")
            elif one_line(imp) and "has diverged" in imp["err"]:
                refused += 1  # the action came first: the histories differ, and the import says so
                if brought:
                    lost.append(f"trial {n}: a refused import left {len(brought)} entries behind")
                if not holds(journal, kind, n, EVENTS):
                    lost.append(f"trial {n}: the import refused after the {kind}, which is gone")
            else:
                lost.append(f"trial {n}: the import failed: {imp['err'].strip()[:160]}")
        overlapped = racer.overlapped
    shutil.rmtree(tmp_path / "trial", ignore_errors=True)
    report_races("import racing an action (D1)", TRIALS, 4, overlapped, acknowledged, kept, refused)
    assert not lost, f"{len(lost)} of {TRIALS} trials lost writes: " + "; ".join(lost[:5])


def test_a_delete_racing_an_action_leaves_the_session_in_one_place(tmp_path):
    """D2: `delete` takes the session's lock (then the folder's): an action waiting for it
    finds the session gone and says so in one line; an action before it is in the bin with the
    session. The session is never both in the record and in the bin, and `restore` brings it
    back whole."""
    base = tmp_path / "base"
    sid = a_session(base)
    acknowledged = kept = refused = 0
    lost: list[str] = []
    with Racer(seed=20260222, spread=0.004) as racer:
        for n in range(TRIALS):
            kind, line = actions(n)[0]
            home = fresh_copy(base, tmp_path / "trial")
            deleting = ["--data-dir", home, "delete", sid, "--yes"]
            acting = ["--data-dir", home, "--session", sid, *line]
            pair = (deleting, acting) if n % 2 else (acting, deleting)
            first, second = racer.race(*pair)
            gone, act = (first, second) if n % 2 else (second, first)
            # since issue 30 the bin is a per-device log: the file stays, the log says deleted
            here = home / "sessions" / f"{sid}.json"
            in_bin = sid in Store(home).deleted_ids()
            if not here.exists():
                lost.append(f"trial {n}: the session's file is gone (raced with {kind})")
            if gone["code"] == 0:
                acknowledged += 1
                index = json.loads((home / ".local" / "index.json").read_text())
                listed = any(e.get("id") == sid for e in (index.get("sessions") or {}).values())
                if in_bin and not listed:
                    kept += 1
                else:
                    lost.append(f"trial {n}: delete said done, but the session is "
                                f"{'still listed' if listed else 'in the record'} (raced with {kind})")
            else:
                lost.append(f"trial {n}: delete failed: {gone['err'].strip()[:160]}")
            journal = journal_of(here)
            if act["code"] == 0:
                acknowledged += 1
                if holds(journal, kind, n, EVENTS):
                    kept += 1
                else:
                    lost.append(f"trial {n}: the acknowledged {kind} is gone")
            elif one_line(act) and any(w in act["err"] for w in ("does not exist", "is gone", "No session starts")):
                refused += 1  # the delete came first
                if holds(journal, kind, n, EVENTS):
                    lost.append(f"trial {n}: the {kind} was refused, but it is in the file")
            else:
                lost.append(f"trial {n}: the {kind} failed: {act['err'].strip()[:160]}")
            if in_bin:
                back = cli_run("--data-dir", str(home), "restore", sid)
                if back.exit_code != 0 or journal_of(here) != journal:
                    lost.append(f"trial {n}: restore did not bring the session back whole: {back.output[:120]}")
        overlapped = racer.overlapped
    shutil.rmtree(tmp_path / "trial", ignore_errors=True)
    report_races("delete racing an action (D2)", TRIALS, 4, overlapped, acknowledged, kept, refused)
    assert not lost, f"{len(lost)} of {TRIALS} trials went wrong: " + "; ".join(lost[:5])


def test_an_import_continuing_hundreds_of_sessions_holds_all_their_locks(tmp_path):
    """Each lock held is an open file: the process raises its own limit when it may, and says
    in one line what to do when the system allows fewer (never "too many open files"): 70
    sessions under a limit of 100 open files by default (the companion checks from 64 locks
    on), 150 in the long run."""
    import resource
    import subprocess
    import sys

    count, files = scaled(70, 150), 100

    here, there = tmp_path / "here", tmp_path / "there"
    store = Store(here)
    ids = [sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None},
                           make_current=False).id for _ in range(count)]
    shutil.copytree(here, there)
    far = Store(there)
    for sid in ids:
        sessions.record(far, sid, {"type": "add", "scores": {"Ann": 1}})
    export = tmp_path / "e.json"
    assert cli_run("--data-dir", str(there), "export", "-o", str(export)).exit_code == 0

    def limited(soft: int, hard: int):
        def limit():
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        return subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(here), "import", str(export)],
                              capture_output=True, text=True, preexec_fn=limit, timeout=300, cwd=tmp_path)

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    refused = limited(files, files)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1, refused.stderr
    assert f"lock {count} sessions at once" in refused.stderr and "ulimit -n" in refused.stderr
    assert "Too many open files" not in refused.stderr
    if hard == resource.RLIM_INFINITY or hard >= 1024:
        done = limited(files, hard)
        assert done.returncode == 0 and f"{count} continued" in done.stdout, done.stderr
        assert all(len(sessions.load(Store(here), sid).journal) == 1 for sid in ids)
