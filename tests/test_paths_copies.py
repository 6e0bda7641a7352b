"""What an action no longer makes again and again (issue 29, round 2): a dry run's copy of the
state (contract/api.state_copy) and the data folder's paths a Store hands out (session_path,
journal_paths), kept while the folder's listing stands. Each must give what was given before,
and a kept path must follow the folder when another laptop's journal arrives in it."""

from __future__ import annotations

import copy
import random
import shutil

import pytest

from companion.contract.api import Setup, state_copy
from companion.core import datapack
from companion.core import session as sessions
from companion.core.errors import StoreError
from companion.core.store import Store
from companion.games.trans.rules import TransAmerika, make_round_start
from companion.games.trans.track import trans_board


def _shares_nothing(a, b) -> bool:
    """No dict or list of ``a`` is one of ``b``'s."""
    def containers(v, out):
        if isinstance(v, (dict, list, set)):
            out.add(id(v))
            for x in (v.values() if isinstance(v, dict) else v):
                containers(x, out)
        elif isinstance(v, tuple):
            for x in v:
                containers(x, out)
        return out
    return not containers(a, set()) & containers(b, set())


def test_a_plain_state_is_copied_whole_and_equal():
    state = {"a": [1, 2.5, {"b": None, "c": [True, "x"]}], "d": {}, "e": []}
    copied = state_copy(state)
    assert copied == state == copy.deepcopy(state) and _shares_nothing(copied, state)
    copied["a"][2]["c"].append("y")
    assert state["a"][2]["c"] == [True, "x"]


@pytest.mark.parametrize("odd", [{1, 2}, (1, [2]), type("Piece", (), {})(), type("Rows", (list,), {})([1])])
def test_a_state_holding_anything_else_is_copied_by_deepcopy(odd):
    state = {"plain": [1, {"x": 2}], "odd": odd}
    copied = state_copy(state)
    assert type(copied["odd"]) is type(odd) and copied["plain"] == state["plain"]
    assert copied["plain"] is not state["plain"]
    if isinstance(odd, (set, list)) or not isinstance(odd, tuple):
        assert copied["odd"] is not odd  # deepcopy's copy, not the same object


def test_a_dry_run_leaves_the_state_as_it_was_and_gives_what_a_copied_advance_gives():
    g = TransAmerika()
    data = datapack.pack(g.id)["values"]
    board = trans_board(data, g.id)
    rng = random.Random(3)
    players = ("Ann", "Bob", "Cy")
    s = g.initial(Setup(g.id, players, {}), data)
    s = g.apply(s, make_round_start(s, data, "5e" * 32, "", "sess", special="build-anywhere", physical=True), data)
    for p, node in zip(players, rng.sample(range(len(board.xy)), 3)):
        s = g.apply(s, {"type": "marker", "player": p, "junction": board.name(node)}, data)
    for n, (a, b) in enumerate(rng.sample(sorted(board.cost), 12)):
        event = {"type": "build", "player": players[n % 3], "paths": [f"{board.coord[a]}-{board.coord[b]}"]}
        before = copy.deepcopy(s)
        after = g.apply(s, event, data)
        assert s == before and _shares_nothing(after, s)
        assert after == g.advance(copy.deepcopy(s), copy.deepcopy(event), data)
        s = after


def _scoresheet(root):
    store = Store(root)
    s = sessions.create(store, "scoresheet", ["Ann", "Bob"], {"lowest_wins": False, "target": None})
    return store, s.id


def test_a_journal_arriving_is_seen_by_a_store_that_handed_out_the_paths_before(tmp_path):
    writer, sid = _scoresheet(tmp_path / "home")
    reader = Store(tmp_path / "home")
    assert reader.journal_paths(sid) == []
    assert reader.session_path(sid) is reader.session_path(sid)  # made once
    sessions.record(writer, sid, {"type": "add", "scores": {"Ann": 1, "Bob": 2}})
    (mine,) = reader.journal_paths(sid)
    assert mine.parent == reader.sessions_dir and mine.name.startswith(f"{sid}.")
    arrived = mine.with_name(f"{sid}.{'ab' * 5}.jsonl")  # another laptop's journal, synced in
    shutil.copy(mine, arrived)
    assert sorted(reader.journal_paths(sid)) == sorted([mine, arrived])
    paths = reader.journal_paths(sid)
    paths.clear()  # a caller's own list: what the Store keeps is not changed
    assert len(reader.journal_paths(sid)) == 2


def test_paths_follow_the_folder_and_a_bad_id_is_still_refused(tmp_path):
    store, sid = _scoresheet(tmp_path / "home")
    assert store.session_path(sid) == tmp_path / "home" / "sessions" / f"{sid}.json"
    store.root = tmp_path / "other"
    assert store.sessions_dir == tmp_path / "other" / "sessions"
    assert store.session_path(sid) == tmp_path / "other" / "sessions" / f"{sid}.json"
    for bad in ("../x", "", "toolongid1"):
        with pytest.raises(StoreError):
            store.session_path(bad)
    for n in range(200):  # only the last few are kept: the ids of `stats` over thousands
        assert store.session_path(f"s{n:07d}").name == f"s{n:07d}.json"
    assert len(store._paths[2]) <= 64


def test_a_store_writing_again_makes_its_folders_private_and_there_again(tmp_path):
    """A Store's writes check the folders each time (three stats): a folder opened to others
    since the last write is made the owner's again, and a removed one is made again."""
    import os

    store, sid = _scoresheet(tmp_path / "home")
    os.chmod(store.sessions_dir, 0o755)
    sessions.record(store, sid, {"type": "add", "scores": {"Ann": 1, "Bob": 2}})
    assert os.stat(store.sessions_dir).st_mode & 0o777 == 0o700
    shutil.rmtree(store.local_dir)
    with store.writing():
        assert store.local_dir.is_dir() and (store.root / ".stignore").is_file()
    assert os.stat(store.local_dir).st_mode & 0o777 == 0o700
    assert store.local_path("index.json") is store.local_path("index.json")
    assert store.local_path("index.json") == tmp_path / "home" / ".local" / "index.json"


def test_a_schema_is_told_plain_once_per_object_and_another_object_is_told_again():
    from companion.core import datapack

    schema = datapack.schema_of("trans-europa")
    assert datapack._plain(schema) is True and datapack._plain(schema) is True
    assert datapack._plain_kept[id(schema)][0] is schema
    referring = {**schema, "properties": {**schema["properties"], "x": {"$ref": "#/properties/dashed"}}}
    assert datapack._plain(referring) is False  # a new object: told anew, not taken for the pack's
    assert datapack._plain({"type": "object", "properties": {}, "$defs": {}}) is False
    for n in range(40):  # a few schemas kept, never more
        datapack._plain({"type": "object", "properties": {"n": {"const": n}}})
    assert len(datapack._plain_kept) <= 16


def test_the_leftovers_of_killed_writes_are_the_names_the_glob_matched(tmp_path):
    """clean_leftovers tells `.NAME.*.tmp` by the name's ends: exactly what the glob pattern
    matched, for names holding the glob's own signs too; other files stay."""
    import fnmatch
    import glob

    from companion.core.files import atomic_write_text, clean_leftovers

    for name in ("index.json", "a[1]*?.json"):
        folder = tmp_path / f"f{len(name)}"
        folder.mkdir()
        candidates = [f".{name}.x1.tmp", f".{name}..tmp", f".{name}.tmp", f"{name}.x.tmp", f".{name}.x.tmpx",
                      f".{name}.a.b.tmp", f".other.x.tmp", f".{name}.x.TMP", name]
        for c in candidates:
            (folder / c).write_text("x")
        (folder / f".{name}.dir.tmp").mkdir()  # a folder of that name is left alone
        clean_leftovers(folder / name)
        pattern = f".{glob.escape(name)}.*.tmp"
        assert sorted(p.name for p in folder.iterdir()) == sorted(
            [c for c in candidates if not fnmatch.fnmatchcase(c, pattern)] + [f".{name}.dir.tmp"])
    atomic_write_text(tmp_path / "new" / "deeper" / "x.json", "{}")  # a folder missing is made
    assert (tmp_path / "new" / "deeper" / "x.json").read_text() == "{}"
    clean_leftovers(tmp_path / "gone" / "x.json")  # no folder: nothing to do, nothing said


def test_a_map_board_is_the_board_of_the_merged_values(tmp_path):
    from companion.core import datapack
    from companion.core.app import App
    from companion.games.trans.counting import map_board

    app = App(tmp_path / "home")
    board = map_board(app, "amerika")
    assert board is trans_board(datapack.merged("trans-amerika", {}), "trans-amerika")
    assert map_board(app, "amerika") is board
