"""The work a start no longer repeats (issue 27 item 7: the same behaviour, a faster start).

Start-up is counted side by side in benchmarks/bench_instructions.py, never timed here. These
tests hold what the cuts rest on: a `status` that replayed a session keeps a snapshot of it
that the next start reads, and shows the same; the built-in games, whose names and shapes are not
checked at each load any more, are checked here.
"""

from __future__ import annotations

import pytest

from companion.core import registry
from companion.core import session as sessions
from companion.core.store import Store
from companion.core.recording import READ_SNAPSHOT_AFTER


def _store():
    import os
    from pathlib import Path

    return Store(Path(os.environ["COMPANION_HOME"]))


def _score_sheet(script, rounds: int) -> str:
    lines = "".join(f"add Ann={r} Bob={2 * r % 7} Cy={r % 3}\n" for r in range(rounds))
    code, _, err = script("new scoresheet --players Ann,Bob,Cy\n" + lines)
    assert (code, err) == (0, "")
    store = _store()
    return store.current()


def test_a_status_that_replayed_a_session_keeps_its_snapshot(script, run, status):
    sid = _score_sheet(script, READ_SNAPSHOT_AFTER + 4)
    store = _store()
    store.drop_snapshot(sid)  # as if the actions had been recorded by processes of one action each
    words, before = run(["status"], expect=0).stdout, status()
    assert store.snapshot_path(sid).is_file()
    # the next start reads it, replays nothing, and shows exactly the same
    session, replay = sessions.fresh(store, sid)
    assert replay.fresh == 0
    assert (run(["status"], expect=0).stdout, status()) == (words, before)
    assert replay.state == sessions.load(store, sid).replay().state


def test_a_short_session_keeps_no_snapshot_when_read(script, run):
    sid = _score_sheet(script, READ_SNAPSHOT_AFTER - 6)
    store = _store()
    store.drop_snapshot(sid)
    run(["status"], expect=0)
    assert not store.snapshot_path(sid).exists()


def test_an_action_after_a_read_snapshot_counts_from_it(script, run, status):
    sid = _score_sheet(script, READ_SNAPSHOT_AFTER + 2)
    store = _store()
    store.drop_snapshot(sid)
    run(["status"], expect=0)
    run(["add", "Ann=5", "Bob=1", "Cy=2"], expect=0)
    run(["undo"], expect=0)
    run(["add", "Ann=7", "Bob=0", "Cy=0"], expect=0)
    after = status()
    store.drop_snapshot(sid)
    assert status() == after  # the whole replay agrees with the one from the snapshot
    assert after["round"] == READ_SNAPSHOT_AFTER + 3


def test_a_snapshot_that_cannot_be_written_changes_nothing_shown(script, run, home):
    sid = _score_sheet(script, READ_SNAPSHOT_AFTER + 2)
    store = _store()
    store.drop_snapshot(sid)
    words = run(["status"], expect=0).stdout
    replay_dir = store.snapshot_path(sid).parent
    for path in replay_dir.iterdir():
        path.unlink()
    replay_dir.rmdir()
    replay_dir.write_text("in the way")  # (the tests run as root: a folder's mode would not stop it)
    result = run(["status"], expect=0)
    assert (result.stdout, result.stderr) == (words, "")
    assert replay_dir.read_text() == "in the way"


@pytest.mark.parametrize("game_id", sorted(registry.targets()))
def test_every_built_in_game_is_whole_by_name_and_by_shape(game_id):
    target, dist, version = registry.targets()[game_id]
    if not registry._builtin(target, dist):
        pytest.skip("a plugin is searched at every load")
    # what a plugin is checked for at every load (tests/test_plugin_game.py, `stauts`): a name
    # that looks like a part, and every part's shape; a ContractError names what is wrong
    registry.check(game_id, target, dist, version, whole=True)


SPY = """
import gc, sys
import companion.terminal.cli as cli
from companion.terminal import start

seen = []
real = cli.begun

def spy():
    seen.append(gc.isenabled())
    real()
    seen.append(gc.isenabled())

cli.begun = spy
sys.argv = ["companion", *sys.argv[1:]]
try:
    start.main()
except SystemExit:
    pass
print("SEEN", seen, gc.isenabled(), gc.get_freeze_count() > 0)
"""


@pytest.mark.parametrize("args", [["sessions"], ["status"]])
def test_the_command_starts_without_the_collector_and_works_with_it(args, script):
    import subprocess
    import sys

    _score_sheet(script, 3)
    out = subprocess.run([sys.executable, "-c", SPY, *args], capture_output=True, text=True, check=True).stdout
    # off while the start imported and found the command, on again for its own work
    assert out.split("SEEN ", 1)[1].split() == ["[False,", "True]", "True", "True"]


def test_a_program_that_imports_the_companion_keeps_its_collector(run, script):
    import gc

    _score_sheet(script, 3)
    run(["status"], expect=0)
    assert gc.isenabled()


@pytest.mark.parametrize("game", ["trans-amerika", "trans-europa"])
def test_a_marker_is_named_on_the_pages_as_the_board_names_its_junction(game):
    from companion.core import datapack
    from companion.games.trans.board import Board, junction_labels

    values = datapack.merged(game, {})
    board = Board.from_values(values, game)
    label = junction_labels(values)
    for node in range(len(board.xy)):
        city = board.city_at(node)
        assert label(node) == (city.name if city is not None else board.coord[node])


def test_a_read_overtaken_by_an_action_keeps_no_snapshot_that_would_fork_the_line(script, run, status):
    from companion.core.recording import keep_snapshot

    sid = _score_sheet(script, READ_SNAPSHOT_AFTER + 4)
    store = _store()
    store.drop_snapshot(sid)
    session = sessions.load(store, sid)
    replay = session.replay()  # a `status` read the session...
    sessions.record(_store(), sid, {"type": "add", "scores": {"Ann": 1, "Bob": 2, "Cy": 3}})  # ...another process acts
    keep_snapshot(store, session, replay)  # ...and the read would keep what it replayed
    run(["add", "Ann=4", "Bob=5", "Cy=6"], expect=0)
    after = status()
    assert "fork" not in after and after["round"] == READ_SNAPSHOT_AFTER + 6
    store.drop_snapshot(sid)
    assert status() == after
