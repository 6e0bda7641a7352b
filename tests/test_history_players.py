"""The player registry: `players`, `player rename`, `player merge`, without touching any event."""

from __future__ import annotations

import json

from companion.record.players import Roster
from companion.core.store import Store


def play(run, players, scores, finish=True):
    run(["new", "scoresheet", "--players", players], expect=0)
    run(["add", *scores.split()], expect=0)
    if finish:
        run(["finish"], expect=0)


def listing(run):
    return {r["name"]: r for r in json.loads(run(["players", "--json"], expect=0).stdout)}


def session_files(home):
    return {p.name: p.read_bytes() for p in (home / "sessions").glob("*.json")}


def test_every_seated_name_is_a_player_with_their_sessions(run):
    play(run, "Ann,Bob", "Ann=3 Bob=1")
    play(run, "ann,Cy", "Cy=2", finish=False)
    rows = listing(run)
    assert set(rows) == {"ann", "Bob", "Cy"}, "names match case-insensitively; the latest spelling shows"
    assert (rows["ann"]["sessions"], rows["ann"]["finished"], rows["ann"]["wins"]) == (2, 1, 1)
    assert rows["ann"]["recorded_as"] == ["Ann"]
    assert (rows["Cy"]["sessions"], rows["Cy"]["finished"]) == (1, 0)
    text = run(["players"], expect=0).stdout
    assert text.splitlines()[0].split()[:4] == ["player", "sessions", "finished", "wins"]


def test_no_players_yet(run):
    assert "No players yet" in run(["players"], expect=0).stdout


def test_rename_fixes_a_typo_everywhere_and_leaves_the_events_alone(run, home):
    play(run, "Ann,Bbo", "Ann=3 Bbo=5")
    play(run, "Bbo,Cy", "Bbo=1 Cy=1")
    before = session_files(home)
    out = run(["player", "rename", "bbo", "Bob"], expect=0).stdout
    assert "Bbo is now shown as Bob in 2 sessions" in out
    assert session_files(home) == before, "no session file changes"
    rows = listing(run)
    assert set(rows) == {"Ann", "Bob", "Cy"}
    assert rows["Bob"]["sessions"] == 2 and rows["Bob"]["wins"] == 2 and rows["Bob"]["recorded_as"] == ["Bbo"]
    # the old name still finds the player, and the events keep their names
    assert json.loads(run(["stats", "--json", "--player", "Bbo"], expect=0).stdout)["filters"]["player"] == "Bob"
    assert [p["name"] for p in json.loads(run(["status", "--json"], expect=0).stdout)["players"]] == ["Bbo", "Cy"]


def test_a_rename_applies_to_later_sessions_with_the_old_spelling(run):
    play(run, "Ann,Bbo", "Ann=3")
    run(["player", "rename", "Bbo", "Bob"], expect=0)
    play(run, "bbo,Cy", "Cy=3")
    assert listing(run)["Bob"]["sessions"] == 2


def test_renames_chain_and_can_change_only_the_case(run):
    play(run, "ann,Bob", "ann=3")
    run(["player", "rename", "ann", "Ann"], expect=0)
    run(["player", "rename", "Ann", "Anne"], expect=0)
    rows = listing(run)
    assert set(rows) == {"Anne", "Bob"}
    run(["player", "rename", "anne", "Ann"], expect=0)
    assert set(listing(run)) == {"Ann", "Bob"}


def test_merge_joins_two_histories(run, home):
    play(run, "Ann,Bob", "Ann=3 Bob=1")
    play(run, "Annie,Cy", "Annie=1 Cy=4")
    before = session_files(home)
    out = run(["player", "merge", "Annie", "ann"], expect=0).stdout
    assert "Merged Annie into Ann: 1 session now counts as Ann's" in out
    rows = listing(run)
    assert set(rows) == {"Ann", "Bob", "Cy"}
    assert (rows["Ann"]["sessions"], rows["Ann"]["wins"], rows["Ann"]["recorded_as"]) == (2, 1, ["Annie"])
    assert session_files(home) == before


def test_refusals_change_nothing(run, home):
    play(run, "Ann,Bob", "Ann=3")
    play(run, "Cy,Dee", "Cy=3")
    cases = [
        (["player", "rename", "Zed", "Z"], "no player called 'Zed': the players are Ann, Bob, Cy, Dee"),
        (["player", "rename", "Ann", "Bob"], "Bob is already a player: to join Ann's history to theirs, type "
                                             "`player merge Ann Bob`"),
        (["player", "rename", "Ann", "Ann"], "already called that"),
        (["player", "rename", "Ann", "A,B"], "may not contain commas"),
        (["player", "rename", "Ann", "x" * 21], "longer than 20 characters"),
        (["player", "rename", "Ann", " "], "name is empty"),
        (["player", "merge", "Ann", "Bob"], "Ann and Bob both played in session"),
        (["player", "merge", "Ann", "ann"], "already the same player"),
        (["player", "merge", "Ann", "Zed"], "no player called 'Zed'"),
    ]
    for args, message in cases:
        result = run(args, expect=1)
        assert result.stderr.startswith("Error: ") and message in result.stderr, (args, result.stderr)
        assert result.stderr.count("\n") == 1
    assert not (home / "players.json").exists()


def test_a_merge_that_would_seat_one_player_twice_is_refused_even_through_an_alias(run):
    play(run, "Ann,Bob", "Ann=3")
    play(run, "Cy,Dee", "Cy=3")
    run(["player", "merge", "Cy", "Ann"], expect=0)
    result = run(["player", "merge", "Dee", "Ann"], expect=1)
    assert "Dee and Ann both played in session" in result.stderr


def test_roster_spelling_rules():
    entries = [{"players": ["ann", "Bob"]}, {"players": ["Ann", "BOB"]}]
    r = Roster({}, entries)
    assert r.show("ann") == "Ann" and r.show("bob") == "BOB", "the latest spelling shows"
    r = Roster({"bob": "Robert", "bobby": "Robert"}, entries)
    assert r.show("BOB") == "Robert" and r.show("bobby") == "Robert" and r.key("Robert") == "robert"


def test_the_alias_table_is_a_versioned_file_in_the_data_folder(run, home):
    play(run, "Ann,Bbo", "Ann=3")
    run(["player", "rename", "Bbo", "Bob"], expect=0)
    [log] = (home / "players").glob("*.json")  # this laptop's own log of renames (issue 30)
    doc = json.loads(log.read_text())
    assert doc["_schema"] == {"kind": "log", "version": 1}
    assert [(d["key"], d["value"]) for d in doc["entries"].values()] == [("bbo", "Bob")]
    from companion.record.players import load_aliases

    assert load_aliases(Store(home)) == {"bbo": "Bob"}


def test_the_players_list_fits_80_columns_with_whole_headers_and_names(run):
    """An empty "also recorded as" column cut the headers and names at 80 columns ("first pla…",
    "Bartholom…"); it is shown once a rename or merge gives it something to say."""
    run(["played", "scoresheet", "--players", "Ann=3,Bartholomew Jones=5"], expect=0)
    out = run(["players"], expect=0).stdout
    assert "first played" in out and "last played" in out and "Bartholomew Jones" in out
    assert "…" not in out and "also recorded as" not in out
    assert all(len(line) <= 80 for line in out.splitlines())
    run(["player", "rename", "Ann", "Annie"], expect=0)
    assert "also reco" in run(["players"], expect=0).stdout  # cut at 80 columns, but there
