"""`stats`: wins, ties, streaks, head-to-head, records and filters, on a hand-built history.

The pure computation gets index entries written out by hand (the index is all `stats` reads);
the command is then checked on real sessions, renames included.
"""

from __future__ import annotations

import json

import pytest

from companion.record import stats as history
from companion.contract.errors import CompanionError
from companion.record.players import Roster


def entry(sid, game, players, created, scores=None, winners=(), rounds=3, minutes=60):
    """One index entry as the store writes it (scores=None: still in play)."""
    hour, minute = divmod(12 * 60 + minutes, 60)
    done = None if scores is None else f"{created}T{hour:02d}:{minute:02d}:00+00:00"
    return {
        "id": sid, "game": game, "players": list(players), "created": f"{created}T12:00:00+00:00",
        "finished": done,
        "summary": None if scores is None else {"finished_at": done, "round": rounds, "scores": scores,
                                                "winners": list(winners)},
    }


HISTORY = [
    # a tie for first: Ann and Cy both win
    entry("s1aaaaaa", "scoresheet", ["Ann", "Bob", "Cy"], "2026-01-05", {"Ann": 10, "Bob": 7, "Cy": 10}, ["Ann", "Cy"]),
    entry("s2aaaaaa", "scoresheet", ["Ann", "Bob", "Cy"], "2026-01-12", {"Ann": 12, "Bob": 5, "Cy": 3}, ["Ann"],
          rounds=5, minutes=90),
    entry("s3aaaaaa", "scoresheet", ["Ann", "Bob"], "2026-02-01", {"Ann": 15, "Bob": 4}, ["Ann"]),
    entry("s4aaaaaa", "trans-europa", ["Ann", "Bob", "Cy"], "2026-02-08", {"Ann": 8, "Bob": 13, "Cy": 13},
          ["Bob", "Cy"], rounds=4, minutes=45),
    # low wins here; "ann" is Ann (names match case-insensitively), "Bobby" a typo for Bob
    entry("s5aaaaaa", "scoresheet", ["ann", "Bobby"], "2026-03-01", {"ann": 3, "Bobby": 9}, ["ann"]),
    entry("s6aaaaaa", "scoresheet", ["Ann", "Bob"], "2026-03-02"),  # in play
]
ALIASES = {"bobby": "Bob"}


def stats(**filters):
    return history.compute(HISTORY, Roster(ALIASES, HISTORY), **filters)


def by_name(result):
    return {p["name"]: p for p in result["players"]}


def test_sessions_wins_ties_and_win_rates():
    s = stats()
    assert s["sessions"] == 5
    p = by_name(s)
    assert set(p) == {"Ann", "Bob", "Cy"}, "ann is Ann; Bobby is shown as Bob"
    assert (p["Ann"]["sessions"], p["Ann"]["wins"], p["Ann"]["win_rate"]) == (5, 4, 0.8)
    assert (p["Bob"]["sessions"], p["Bob"]["wins"]) == (5, 1)
    assert (p["Cy"]["sessions"], p["Cy"]["wins"], p["Cy"]["win_rate"]) == (3, 2, 0.6667)
    assert [x["name"] for x in s["players"]] == ["Ann", "Cy", "Bob"], "ordered by win rate"


def test_current_and_longest_streaks():
    p = by_name(stats())
    # Ann: W W W L W ; Bob: L L L W L ; Cy: W L W
    assert (p["Ann"]["current_streak"], p["Ann"]["longest_streak"]) == (1, 3)
    assert (p["Bob"]["current_streak"], p["Bob"]["longest_streak"]) == (0, 1)
    assert (p["Cy"]["current_streak"], p["Cy"]["longest_streak"]) == (1, 1)


def test_streaks_follow_the_order_sessions_ended_not_the_index_order():
    shuffled = [HISTORY[2], HISTORY[0], HISTORY[4], HISTORY[1], HISTORY[3], HISTORY[5]]
    p = by_name(history.compute(shuffled, Roster(ALIASES, shuffled)))
    assert (p["Ann"]["current_streak"], p["Ann"]["longest_streak"]) == (1, 3)
    assert p["Ann"]["recent"] == [10, 12, 15, 8, 3]


def test_average_and_best_score_per_game():
    p = by_name(stats())
    assert p["Ann"]["games"]["scoresheet"] == {"sessions": 4, "wins": 4, "average": 10.0, "best": 15,
                                               "recent": [10, 12, 15, 3]}
    assert p["Ann"]["games"]["trans-europa"] == {"sessions": 1, "wins": 0, "average": 8.0, "best": 8, "recent": [8]}
    assert p["Bob"]["games"]["scoresheet"] == {"sessions": 4, "wins": 0, "average": 6.25, "best": 9,
                                               "recent": [7, 5, 4, 9]}


def test_head_to_head_counts_everyone_ranked_below():
    h = stats()["head_to_head"]
    assert h["Ann"]["Bob"] == {"wins": 4, "losses": 1, "draws": 0}
    assert h["Bob"]["Ann"] == {"wins": 1, "losses": 4, "draws": 0}
    assert h["Ann"]["Cy"] == {"wins": 1, "losses": 1, "draws": 1}, "the tie for first in s1 is a draw"
    assert h["Bob"]["Cy"] == {"wins": 1, "losses": 1, "draws": 1}


def test_per_game_sessions_lengths_and_record_score():
    games = {g["game"]: g for g in stats()["games"]}
    sheet = games["scoresheet"]
    assert sheet["sessions"] == 4 and sheet["average_rounds"] == 3.5
    assert sheet["average_minutes"] == 67.5
    assert sheet["record"] == {"score": 15, "player": "Ann", "session": "s3aaaaaa", "date": history.local_date(
        HISTORY[2]["created"])}
    trans = games["trans-europa"]
    assert (trans["sessions"], trans["average_rounds"], trans["average_minutes"]) == (1, 4.0, 45.0)
    assert trans["record"]["score"] == 13 and trans["record"]["player"] == "Bob"
    assert trans["title"] == "Trans Europa"


def test_unfinished_sessions_are_listed_never_counted():
    s = stats()
    assert [u["id"] for u in s["unfinished"]] == ["s6aaaaaa"]
    assert s["unfinished"][0]["players"] == ["Ann", "Bob"]
    assert "s6aaaaaa" not in {g["record"]["session"] for g in s["games"]}


def test_low_wins_sessions_rank_the_lowest_first():
    assert history.direction({"a": 3, "b": 9}, ["a"]) == "low"
    assert history.direction({"a": 9, "b": 3}, ["a"]) == "high"
    assert history.direction({"a": 5, "b": 5}, ["a", "b"]) is None
    assert history.ranks(["a", "b", "c", "d"], {"a": 1, "b": 4, "c": 4, "d": 9}, ["a"], lowest=True) == {
        "a": 1, "b": 2, "c": 2, "d": 4}
    # a tie broken by the rules (e.g. the youngest ship): the winner ranks above an equal score
    assert history.ranks(["a", "b"], {"a": 7, "b": 7}, ["b"]) == {"b": 1, "a": 2}
    # no score at all ranks last
    assert history.ranks(["a", "b", "c"], {"a": None, "b": 2, "c": 1}, ["b"]) == {"b": 1, "c": 2, "a": 3}


def test_filter_by_player_shows_their_row_and_their_head_to_head():
    s = stats(player="cy")
    assert s["filters"]["player"] == "Cy"
    assert s["sessions"] == 3
    assert [p["name"] for p in s["players"]] == ["Cy"]
    assert list(s["head_to_head"]) == ["Cy"]
    assert s["head_to_head"]["Cy"]["Ann"] == {"wins": 1, "losses": 1, "draws": 1}


def test_filter_by_a_renamed_players_old_name_finds_the_player():
    s = stats(player="Bobby")
    assert s["filters"]["player"] == "Bob" and s["sessions"] == 5


def test_filter_by_game_and_since():
    assert stats(game="trans-europa")["sessions"] == 1
    s = stats(since="2026-02-01")
    assert s["sessions"] == 3 and [u["id"] for u in s["unfinished"]] == ["s6aaaaaa"]
    assert stats(since="2027-01-01")["sessions"] == 0


@pytest.mark.parametrize("filters, message", [
    ({"player": "Zed"}, "no player called 'Zed': the players are Ann, Bob, Cy"),
    ({"game": "chess"}, "There is no game 'chess'"),
    ({"since": "2026-13-01"}, "not a date: write it as YYYY-MM-DD"),
])
def test_bad_filters_are_refused_with_what_to_type(filters, message):
    with pytest.raises(CompanionError, match=message):
        stats(**filters)


# -- through the command --------------------------------------------------------------------


def play(run, players, *rounds, finish=True, extra=()):
    run(["new", "scoresheet", "--players", players, *extra], expect=0)
    for r in rounds:
        run(["add", *r.split()], expect=0)
    if finish:
        run(["finish"], expect=0)


def test_stats_command_json_text_and_renames(run):
    play(run, "Ann,Bobby", "Ann=5 Bobby=3")
    play(run, "Ann,Bob", "Ann=1 Bob=4")
    play(run, "Ann,Bob", "Ann=6 Bob=2", "Ann=1 Bob=1")
    play(run, "Ann,Bob", "Ann=2", finish=False)
    before = json.loads(run(["stats", "--json"], expect=0).stdout)
    assert {p["name"] for p in before["players"]} == {"Ann", "Bob", "Bobby"}
    run(["player", "merge", "bobby", "bob"], expect=0)
    s = json.loads(run(["stats", "--json"], expect=0).stdout)
    p = {x["name"]: x for x in s["players"]}
    assert set(p) == {"Ann", "Bob"}
    assert (p["Ann"]["sessions"], p["Ann"]["wins"], p["Ann"]["current_streak"], p["Ann"]["longest_streak"]) == (3, 2, 1, 1)
    assert p["Bob"]["recent"] == [3, 4, 3]
    assert len(s["unfinished"]) == 1
    text = run(["stats"], expect=0).stdout
    assert "3 finished sessions" in text and "1 in play, not counted" in text
    assert "█" in text and "67%" in text, "win rates drawn as bars"
    assert "▁" in text or "▄" in text, "recent scores drawn as a sparkline"
    assert "Head to head" in text and "In play (not counted)" in text
    one = run(["stats", "--player", "ann"], expect=0).stdout
    assert "Recent scores per game" in one and "Score sheet (▁ = " in one
    assert "    Bob  " not in one.split("Recent scores per game")[1].split("Head to head")[0], "Ann's lines only"


def test_stats_with_no_history(run):
    assert "No sessions yet" in run(["stats"], expect=0).stdout
    assert json.loads(run(["stats", "--json"], expect=0).stdout)["sessions"] == 0


def test_stats_refusals_are_one_line(run):
    play(run, "Ann,Bob", "Ann=1")
    for args, text in ((["--player", "Zed"], "no player called 'Zed'"), (["--since", "yesterday"], "YYYY-MM-DD"),
                       (["--game", "chess"], "no game 'chess'")):
        result = run(["stats", *args], expect=1)
        assert result.stderr.startswith("Error: ") and text in result.stderr
        assert result.stderr.count("\n") == 1
