"""Any game by name (issue 23): a score sheet's title, remembered with its options and its
BoardGameGeek id, counted as its own game in stats, ratings, report, players and the exports."""

from __future__ import annotations

import csv
import io
import json

from companion.core import titles
from companion.core.store import Store


def status(run, *extra):
    return json.loads(run(["status", "--json", *extra], expect=0).stdout)


def test_new_scoresheet_takes_a_title_and_remembers_its_options(run, home):
    out = run(["new", "scoresheet", "--title", "Golf", "--players", "Ann,Bob", "--lowest-wins", "--bgg-id", "1234"],
              expect=0).stdout
    assert "Golf with Ann, Bob" in out
    s = status(run)
    assert s["title"] == "Golf" and s["game"] == "scoresheet" and s["lowest_wins"] is True
    # the next time, in other capitals and without the options: the same game, as remembered
    run(["new", "scoresheet", "--title", "golf", "--players", "Cy,Dee"], expect=0)
    s = status(run)
    assert s["title"] == "Golf" and s["lowest_wins"] is True
    record = titles.find(Store(home), "GOLF")
    assert record == {"title": "Golf", "lowest_wins": True, "bgg_id": 1234}
    # an option said again replaces the remembered one
    run(["new", "scoresheet", "--title", "Golf", "--players", "Cy,Dee", "--highest-wins"], expect=0)
    assert status(run)["lowest_wins"] is False
    assert titles.find(Store(home), "golf")["lowest_wins"] is False


def test_played_accepts_any_title_and_a_game_id_still_means_that_game(run, home):
    out = run(["played", "Carcassonne", "--players", "Ann=52,Bob=47"], expect=0).stdout
    assert "Carcassonne" in out and "Ann wins" in out
    run(["played", "atlantic-star", "--players", "Ann=10,Bob=3"], expect=0)
    run(["played", "Atlantic Star", "--players", "Ann=1,Bob=3"], expect=0)  # a game's own title is that game
    rows = json.loads(run(["sessions", "--json"], expect=0).stdout)
    assert [(r["game"], r["title"]) for r in rows] == [("scoresheet", "Carcassonne"),
                                                      ("atlantic-star", "Atlantic Star"),
                                                      ("atlantic-star", "Atlantic Star")]


def test_a_title_that_is_a_known_game_or_a_typo_of_one_is_refused(run, home):
    err = run(["new", "scoresheet", "--title", "Transatlantic", "--players", "Ann,Bob"], expect=1).stderr
    assert "a game the companion knows" in err and "`new transatlantic`" in err
    err = run(["played", "transatlantik", "--players", "Ann=1,Bob=2"], expect=1).stderr
    assert "did you mean transatlantic?" in err and "played scoresheet --title" in err
    # said on purpose, it is a title
    run(["played", "scoresheet", "--title", "transatlantik", "--players", "Ann=1,Bob=2"], expect=0)
    assert titles.find(Store(home), "transatlantik") is not None


def test_a_refused_command_remembers_no_title(run, home):
    run(["played", "Hanabi", "--players", "Ann,Bob", "--lost"], expect=1)  # --lost without --coop
    run(["new", "scoresheet", "--title", "Azul", "--players", "Ann,ann"], expect=1)
    assert titles.load(Store(home)) == {}
    assert not (home / "titles.json").exists()


def test_each_title_is_its_own_game_in_stats_ratings_players_report_and_exports(run, home):
    run(["played", "Carcassonne", "--players", "Ann=52,Bob=47", "--bgg-id", "822"], expect=0)
    run(["played", "Carcassonne", "--players", "Ann=30,Bob=41"], expect=0)
    run(["played", "Azul", "--players", "Ann=60,Bob=70"], expect=0)
    stats = json.loads(run(["stats", "--json"], expect=0).stdout)
    games = {g["game"]: g for g in stats["games"]}
    assert set(games) == {"Carcassonne", "Azul"}
    assert games["Carcassonne"]["sessions"] == 2 and games["Carcassonne"]["title"] == "Carcassonne"
    ann = next(p for p in stats["players"] if p["name"] == "Ann")
    assert set(ann["games"]) == {"Carcassonne", "Azul"} and ann["games"]["Carcassonne"]["wins"] == 1
    text = run(["stats"], expect=0).stdout
    assert "Carcassonne" in text and "Azul" in text and "Score sheet" not in text
    assert json.loads(run(["stats", "--game", "carcassonne", "--json"], expect=0).stdout)["sessions"] == 2
    ratings = json.loads(run(["stats", "--ratings", "--json"], expect=0).stdout)
    assert set(ratings["games"]) == {"Carcassonne", "Azul"}
    sid = json.loads(run(["sessions", "--json", "--game", "Azul"], expect=0).stdout)[0]["id"]
    assert "Azul" in run(["report", sid], expect=0).stdout
    rows = list(csv.DictReader(io.StringIO(run(["export", "--format", "csv"], expect=0).stdout)))
    assert {(r["game"], r["title"], r["bgg_id"]) for r in rows} == {("scoresheet", "Carcassonne", "822"),
                                                                   ("scoresheet", "Azul", "")}
    assert len(json.loads(run(["export", "--game", "Carcassonne", "--format", "json"], expect=0).stdout)["sessions"]) == 2


def test_titles_are_completed_and_listed_by_games_json(run, home):
    run(["played", "Carcassonne", "--players", "Ann=1,Bob=2", "--bgg-id", "822"], expect=0)
    run(["played", "Pandemic", "--coop", "--players", "Ann,Bob", "--won"], expect=0)
    from companion.core import completion

    assert [v for v, _ in completion.titles(Store(home), "c")] == ["Carcassonne"]
    assert ("Pandemic", "co-op") in completion.games(Store(home), "p")
    listed = json.loads(run(["games", "--json"], expect=0).stdout)
    assert {t["title"]: t["bgg_id"] for t in listed["titles"]} == {"Carcassonne": 822, "Pandemic": None}
    assert {g["id"] for g in listed["games"]} >= {"scoresheet", "atlantic-star", "transatlantic"}


def test_the_built_in_games_carry_their_bgg_id_where_a_source_confirms_it(run):
    from companion.core import datapack

    assert datapack.pack("atlantic-star")["values"]["bgg_id"] == 2570
    assert datapack.pack("trans-amerika")["values"]["bgg_id"] == 2842
    assert datapack.pack("transatlantic")["values"]["bgg_id"] == 163805
    europa = datapack.pack("trans-europa")
    assert europa["values"]["bgg_id"] is None and europa["sources"]["bgg_id"].startswith("not known")
    for game in ("atlantic-star", "trans-amerika", "transatlantic", "trans-europa"):
        assert "bgg_id" in datapack.pack(game)["sources"]
    # players may supply one, and the exports use it
    run(["data", "set", "trans-europa", "bgg_id", "12345"], expect=0)
    assert "12345" in run(["data", "show", "trans-europa", "bgg_id"], expect=0).stdout
    run(["data", "set", "atlantic-star", "bgg_id", "0"], expect=1)  # an id is a number from 1
