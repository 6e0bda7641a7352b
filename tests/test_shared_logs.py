"""One writer per file for the group's shared lists (issue 30, item 2): titles, player renames
and the printed values a group sets are per-device logs (``titles/``, ``players/``,
``values/``, one file per laptop), merged the same way on every laptop; old single files are
read as one laptop's log; a sync engine's conflict copy is read, merged and removed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.core import shared_log
from companion.core.device import device_id
from companion.core.store import Store, resolve_renames
from test_folder_layout import OLD, copy_shared


def at(run, monkeypatch, folder: Path, *args, expect=0):
    monkeypatch.setenv("COMPANION_HOME", str(folder))
    return run(list(args), expect=expect)


def titles(run, monkeypatch, folder):
    return json.loads(at(run, monkeypatch, folder, "games", "--json").stdout)["titles"]


def players(run, monkeypatch, folder):
    return sorted(p["name"] for p in json.loads(at(run, monkeypatch, folder, "players", "--json").stdout))


def value(run, monkeypatch, folder, game, key):
    out = at(run, monkeypatch, folder, "data", "show", game, key).stdout
    return out.split("source:")[0].split()


def swap(a: Path, b: Path) -> None:
    """Both laptops' shared files carried to the other, as a sync obeying .stignore does."""
    copy_shared(a, b)
    copy_shared(b, a)


@pytest.fixture
def laptops(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(OLD, a)
    shutil.copytree(OLD, b)
    return a, b


def test_an_old_folders_single_files_are_read_as_one_laptops_log(run, monkeypatch, laptops):
    a, _b = laptops
    before = {n: (a / n).read_bytes() for n in ("titles.json", "players.json", "userdata.json")}
    shown = {t["title"]: t for t in titles(run, monkeypatch, a)}
    assert shown["Azul"]["bgg_id"] == 230802 and shown["Carcassonne"]["lowest_wins"] is True
    assert "Cyrus" in players(run, monkeypatch, a) and "Cy" not in players(run, monkeypatch, a)
    assert value(run, monkeypatch, a, "atlantic-star", "vp.5")[:2] == ["[", "20,"]
    at(run, monkeypatch, a, "player", "rename", "Cyrus", "Cyril")
    at(run, monkeypatch, a, "data", "unset", "atlantic-star", "vp.5")
    at(run, monkeypatch, a, "new", "scoresheet", "--players", "Ann,Bob", "--title", "azul", "--coop")
    assert {n: (a / n).read_bytes() for n in before} == before  # never written again
    assert "Cyril" in players(run, monkeypatch, a)
    assert "supplied by you" not in at(run, monkeypatch, a, "data", "show", "atlantic-star", "vp.5").stdout
    azul = {t["title"]: t for t in titles(run, monkeypatch, a)}["Azul"]
    assert azul["bgg_id"] == 230802 and azul["coop"] is True  # the spelling first typed kept
    me = device_id(Store(a))
    assert sorted(p.name for p in (a / "players").iterdir()) == [f"{me}.json"]


def test_two_laptops_changing_the_lists_at_once_end_with_the_same_lists(run, monkeypatch, laptops):
    a, b = laptops
    # while apart: both rename the same player, both name options of one title, one sets and
    # the other forgets the same printed value
    at(run, monkeypatch, a, "player", "rename", "Cyrus", "Cyril")
    at(run, monkeypatch, a, "new", "scoresheet", "--players", "Ann,Bob", "--title", "Azul", "--lowest-wins")
    at(run, monkeypatch, a, "data", "set", "trans-europa", "bgg_id", "1111")
    at(run, monkeypatch, b, "new", "scoresheet", "--players", "Ann,Bob", "--title", "Ticket", "--bgg-id", "9209")
    at(run, monkeypatch, b, "player", "rename", "Cyrus", "Cyrano")  # later: it wins
    at(run, monkeypatch, b, "data", "unset", "trans-europa", "bgg_id")
    assert device_id(Store(a)) != device_id(Store(b))
    swap(a, b)
    seen = [(titles(run, monkeypatch, f), players(run, monkeypatch, f),
             at(run, monkeypatch, f, "data", "show", "trans-europa", "bgg_id").stdout) for f in (a, b)]
    assert seen[0] == seen[1]
    shown = {t["title"]: t for t in seen[0][0]}
    assert shown["Azul"]["lowest_wins"] is True and shown["Azul"]["bgg_id"] == 230802  # both kept
    assert shown["Ticket"]["bgg_id"] == 9209
    assert "Cyrano" in seen[0][1] and "Cyril" not in seen[0][1]
    assert "1111" not in seen[0][2]  # forgotten after it was set: the later wins


def test_a_conflict_copy_is_read_then_merged_and_removed(run, monkeypatch, home):
    run(["played", "scoresheet", "--players", "Ann=3,Bob=5"], expect=0)
    run(["player", "rename", "Bob", "Robert"], expect=0)
    [own] = (home / "players").glob("*.json")
    doc = json.loads(own.read_text())
    doc["entries"] = {"1": {"key": "ann", "value": "Annie", "at": "2999-01-01T00:00:00.000000+00:00"}}
    copy = home / "players" / f"{own.stem}.sync-conflict-20261204-230618-ABCDEFG.json"
    copy.write_text(json.dumps(doc))
    legacy = home / "titles (Bob's conflicted copy 2026-12-04).json"  # Dropbox's, of an old file
    legacy.write_text('{"_schema":{"kind":"titles","version":1},"titles":{"1":{"title":"Azul","bgg_id":230802}}}')
    assert sorted(json.loads(run(["players", "--json"], expect=0).stdout)[i]["name"] for i in (0, 1)) == \
        ["Annie", "Robert"]  # read at once
    assert "Azul" in {t["title"] for t in json.loads(run(["games", "--json"], expect=0).stdout)["titles"]}
    run(["player", "rename", "Robert", "Rob"], expect=0)
    run(["played", "scoresheet", "--players", "Ann=1,Rob=2", "--title", "Tiles"], expect=0)
    assert not copy.exists() and not legacy.exists()  # merged into this laptop's file, and removed
    names = sorted(p["name"] for p in json.loads(run(["players", "--json"], expect=0).stdout))
    assert names == ["Annie", "Rob"]
    assert {"Azul", "Tiles"} <= {t["title"] for t in json.loads(run(["games", "--json"], expect=0).stdout)["titles"]}


def test_the_merge_is_the_same_whatever_order_the_files_come_in(tmp_path):
    entries = [shared_log.Entry("k", v, at, dev, n) for n, (v, at, dev) in enumerate([
        ("x", "2026-12-04T10:00:00.000000+00:00", "aaaaaaaaaa"),
        ("y", "2026-12-04T10:00:00.000000+00:00", "bbbbbbbbbb"),  # same time: the higher device
        (None, "2026-12-04T09:00:00.000000+00:00", "cccccccccc"),
    ], 1)]
    for order in (entries, entries[::-1], entries[1:] + entries[:1]):
        assert shared_log.latest(order)["k"].value == "y"


def test_renames_from_two_laptops_are_followed_to_the_end_of_their_chain():
    assert resolve_renames({"ann": "Anna", "anna": "Annie"}) == {"ann": "Annie", "anna": "Annie"}
    # two laptops swapped two names at once: a cycle, settled the same way everywhere
    assert resolve_renames({"ann": "Bea", "bea": "Ann"}) == {"ann": "Ann", "bea": "Ann"}


def listed(run, monkeypatch, folder, *extra):
    return sorted(s["id"] for s in json.loads(at(run, monkeypatch, folder, "sessions", *extra, "--json").stdout))


def test_a_delete_on_one_laptop_and_a_round_on_the_other_keep_the_round_in_the_bin(run, monkeypatch, laptops):
    a, b = laptops
    sid = "078hzhnj"  # in play in the old folder
    at(run, monkeypatch, a, "delete", sid, "--yes")
    at(run, monkeypatch, b, "--session", sid, "add", "Ann=4", "Cy=6")  # while apart
    swap(a, b)
    for folder in (a, b):
        assert sid not in listed(run, monkeypatch, folder) and sid in listed(run, monkeypatch, folder, "--deleted")
    at(run, monkeypatch, a, "restore", sid)
    swap(a, b)
    for folder in (a, b):
        assert sid in listed(run, monkeypatch, folder)
        rounds = json.loads(at(run, monkeypatch, folder, "--session", sid, "status", "--json").stdout)
        assert [p["score"] for p in rounds["players"]] == [9, 15]  # 5+4 and 9+6: the round kept


def test_a_session_deleted_before_issue_30_is_restored_from_bin(run, monkeypatch, laptops):
    a, _b = laptops
    assert listed(run, monkeypatch, a, "--deleted") == ["n27ktzjv"]
    at(run, monkeypatch, a, "restore", "n27ktzjv")
    assert "n27ktzjv" in listed(run, monkeypatch, a) and not (a / "bin" / "n27ktzjv.json").exists()
    at(run, monkeypatch, a, "delete", "n27ktzjv", "--yes")  # deleted again: the file now stays put
    assert (a / "sessions" / "n27ktzjv.json").exists() and listed(run, monkeypatch, a, "--deleted") == ["n27ktzjv"]


def test_a_deletion_brought_by_the_sync_alone_leaves_the_listing(run, monkeypatch, laptops):
    """Found by the Syncthing trials: the index's "all in step" stamp looked at sessions/ only,
    so a deletion another laptop made (a new file in trash/, sessions/ untouched) was not seen
    once this laptop had stamped its index."""
    import time

    a, b = laptops
    at(run, monkeypatch, b, "sessions")
    time.sleep(2.1)  # a folder changed in the last two seconds is never stamped (core/index.py)
    assert "078hzhnj" in listed(run, monkeypatch, b)  # checked and stamped now
    at(run, monkeypatch, a, "delete", "078hzhnj", "--yes")
    copy_shared(a, b)  # the bin's log only: sessions/ is the same on both
    assert "078hzhnj" not in listed(run, monkeypatch, b)
    assert listed(run, monkeypatch, b, "--deleted") == ["078hzhnj", "n27ktzjv"]
