"""Teams, co-op, and scores as people write them (issue 23): decimal and negative points, a
rank-only play, a tie the rules settle; stats count team wins per player and keep co-op win
rates apart; openskill rates teams."""

from __future__ import annotations

import json

import pytest


def status(run, *extra):
    return json.loads(run(["status", "--json", *extra], expect=0).stdout)


def stats(run, *extra):
    return json.loads(run(["stats", "--json", *extra], expect=0).stdout)


def test_a_score_sheet_of_teams_adds_up_each_team_and_the_team_wins_together(run):
    out = run(["new", "scoresheet", "--teams", "Ann+Bob,Cy+Dee", "--target", "20"], expect=0).stdout
    assert "with Ann, Bob, Cy, Dee" in out  # the teams name the players
    out = run(["add", "Ann=7.5", "Bob=4", "Cy=-2", "Dee=6"], expect=0).stdout
    assert "Ann+Bob 11.5" in out and "Cy+Dee 4" in out
    out = run(["add", "Ann=0.1", "Bob=8.4", "Cy=1"], expect=0).stdout  # 11.5 + 8.5 = 20: the target
    s = status(run)
    assert s["finished"] and s["winners"] == ["Ann", "Bob"] and s["team_scores"] == [20, 5]
    assert "the team of Ann, Bob wins" in out


def test_finish_with_a_tie_breaker_names_the_winner(run):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy", "--tie-breaker", "most tiles"], expect=0)
    run(["add", "Ann=5", "Bob=5", "Cy=2"], expect=0)
    err = run(["finish"], expect=1).stderr
    assert "Ann and Bob tie" in err and "most tiles" in err and "finish --winner" in err
    run(["finish", "--winner", "Cy"], expect=1)  # not among the tied
    run(["finish", "--winner", "bob"], expect=0)
    s = status(run)
    assert s["winners"] == ["Bob"] and s["tie_break"] == "most tiles"
    report = run(["report"], expect=0).stdout
    assert "Won by Bob (tie settled by most tiles)." in report
    ranks = {p["name"]: p["rank"] for p in json.loads(run(["export", "--format", "bgstats"], expect=0).stdout)["players"]}
    assert ranks == {"Bob": 1, "Ann": 2, "Cy": 3}, "the tie settled: Ann is second, not a shared first"


def test_a_co_op_sheet_is_won_or_lost_together(run):
    run(["new", "scoresheet", "--players", "Ann,Bob", "--coop"], expect=0)
    assert "finish --won" in run(["status"], expect=0).stdout
    run(["finish"], expect=1)
    assert "won together" in run(["finish", "--won"], expect=0).stdout
    s = status(run)
    assert s["coop"] and s["won"] and s["winners"] == ["Ann", "Bob"]
    run(["undo"], expect=0)
    assert "lost together" in run(["finish", "--lost"], expect=0).stdout
    assert status(run)["winners"] == []


def test_a_game_without_points_names_its_winners(run):
    run(["new", "scoresheet", "--players", "Ann,Bob", "--no-points"], expect=0)
    assert "no points" in run(["add", "Ann=3"], expect=1).stderr
    run(["finish", "--winner", "Ann"], expect=0)
    assert status(run)["winners"] == ["Ann"]


def test_played_with_teams_coop_ranks_and_decimal_points(run):
    run(["played", "Codenames", "--teams", "Ann+Bob=1,Cy+Dee=0"], expect=0)
    run(["played", "Spades", "--teams", "Ann+Cy,Bob+Dee", "--players", "Ann=120,Bob=80,Cy=-30.5,Dee=40"], expect=0)
    run(["played", "Pandemic", "--coop", "--players", "Ann,Bob,Cy", "--won"], expect=0)
    run(["played", "Pandemic", "--players", "Ann,Bob", "--lost"], expect=0)  # remembered as co-op
    run(["played", "Azul", "--ranks", "Ann=2,Bob=1,Cy=2"], expect=0)
    rows = {r["id"]: r for r in json.loads(run(["sessions", "--json"], expect=0).stdout)}
    summaries = [r["summary"] for r in rows.values()]
    assert summaries[0]["teams"] == [["Ann", "Bob"], ["Cy", "Dee"]] and summaries[0]["winners"] == ["Ann", "Bob"]
    assert summaries[1]["team_scores"] == [89.5, 120] and summaries[1]["winners"] == ["Bob", "Dee"]
    assert summaries[2]["coop"] and summaries[2]["won"] and summaries[3]["won"] is False
    assert summaries[4]["ranks"] == {"Ann": 2, "Bob": 1, "Cy": 2} and summaries[4]["winners"] == ["Bob"]
    s = stats(run)
    by = {p["name"]: p for p in s["players"]}
    # team wins count for each member; co-op plays are apart from the competitive win rates
    assert (by["Ann"]["sessions"], by["Ann"]["wins"]) == (3, 1)
    assert (by["Bob"]["sessions"], by["Bob"]["wins"]) == (3, 3)
    assert by["Ann"]["coop"] == {"sessions": 2, "wins": 1, "win_rate": 0.5, "games": {"Pandemic": {"sessions": 2, "wins": 1}}}
    assert "coop" not in by["Dee"] and s["coop_sessions"] == 2 and s["sessions"] == 3
    pandemic = next(g for g in s["games"] if g["game"] == "Pandemic")
    assert pandemic["coop"] == {"sessions": 2, "wins": 1, "win_rate": 0.5} and pandemic["sessions"] == 0
    # teammates are no opponents
    assert "Bob" not in s["head_to_head"]["Ann"] or s["head_to_head"]["Ann"]["Bob"]["wins"] + \
        s["head_to_head"]["Ann"]["Bob"]["losses"] + s["head_to_head"]["Ann"]["Bob"]["draws"] == 2
    text = run(["stats"], expect=0).stdout
    assert "2 co-operative, counted apart" in text and "Co-operative games" in text


def test_ratings_rate_teams_as_openskill_does(run):
    from openskill.models.weng_lin.plackett_luce import PlackettLuce

    run(["played", "Codenames", "--teams", "Ann+Bob=1,Cy+Dee=0", "--played-on", "2026-01-01"], expect=0)
    run(["played", "Codenames", "--teams", "Ann+Cy=1,Bob+Dee=0", "--played-on", "2026-01-02"], expect=0)
    run(["played", "Pandemic", "--coop", "--players", "Ann,Bob", "--won", "--played-on", "2026-01-03"], expect=0)
    got = json.loads(run(["stats", "--ratings", "--json"], expect=0).stdout)
    assert set(got["games"]) == {"Codenames"}, "a co-operative play rates nobody"
    model = PlackettLuce()
    r = {p: model.rating() for p in ("Ann", "Bob", "Cy", "Dee")}
    for winners, losers in ((("Ann", "Bob"), ("Cy", "Dee")), (("Ann", "Cy"), ("Bob", "Dee"))):
        a, b = model.rate([[r[p] for p in winners], [r[p] for p in losers]], ranks=[1, 2])
        for p, new in zip(winners + losers, a + b):
            r[p] = new
    rows = {row["name"]: row for row in got["games"]["Codenames"]}
    for p, rating in r.items():
        assert rows[p]["mu"] == round(rating.mu, 2) and rows[p]["sigma"] == round(rating.sigma, 2)
        assert rows[p]["plays"] == 2
    # the cache of an unchanged history gives the same numbers
    assert json.loads(run(["stats", "--ratings", "--json"], expect=0).stdout) == got


@pytest.mark.parametrize("args, message", [
    (["--players", "Ann=2.5.1,Bob=1"], "is not a number"),
    (["--players", "Ann=1,Bob"], "is not NAME=SCORE"),
    (["--ranks", "Ann=0,Bob=1"], "NAME=RANK"),
    (["--ranks", "Ann=2,Bob=2"], "rank 1"),
    (["--ranks", "Ann=1,Bob=3"], "place, 1 to 2"),
    (["--players", "Ann,Bob", "--won"], "add --coop"),
    (["--coop", "--players", "Ann,Bob"], "--won or --lost"),
    (["--teams", "Ann+Bob,Cy", "--players", "Ann=1,Bob=2,Dee=3"], "no player called 'Cy'"),
    (["--teams", "Ann+Bob,Cy+Dee", "--players", "Ann=1,Bob=2,Cy=3"], "no player called 'Dee'"),
    (["--players", "Ann,Bob"], "Say who won"),
    (["--players", "Ann=1,Bob=2", "--length", "soon"], "is not a length"),
    (["--players", "Ann=1,Bob=2", "--roles", "Cy=red"], "no player called 'Cy'"),
])
def test_played_refusals_say_what_to_type_and_record_nothing(run, args, message):
    result = run(["played", "Some game", *args])
    assert result.exit_code in (1, 2)
    assert message in result.stderr, result.stderr
    assert json.loads(run(["sessions", "--json"], expect=0).stdout) == []


def test_old_played_events_replay_unchanged_and_new_shapes_are_checked():
    from companion.contract.errors import RuleError
    from companion.core.session import check_played

    old = {"type": "played", "scores": {"Ann": 5, "Bob": 3}, "winners": ["Ann"]}
    assert check_played(["Ann", "Bob"], old) == {"scores": {"Ann": 5, "Bob": 3}, "winners": ["Ann"]}
    new = {"type": "played", "scores": {"Ann": 2.5, "Bob": -1}, "winners": ["Ann"], "minutes": 45,
           "teams": [["Ann"], ["Bob"]], "tie_break": "money"}
    assert check_played(["Ann", "Bob"], new)["teams"] == [["Ann"], ["Bob"]]
    for bad in ({"scores": {"Ann": float("nan"), "Bob": 1}, "winners": ["Ann"]},
                {"scores": {"Ann": 1, "Bob": 1}, "winners": ["Cy"]},
                {"coop": True, "won": True, "winners": ["Ann"]},
                {"ranks": {"Ann": 1, "Bob": 7}, "winners": ["Ann"]},
                {"teams": [["Ann", "Bob"]], "scores": {"Ann": 1, "Bob": 1}, "winners": ["Ann"]},
                {"scores": {"Ann": 1, "Bob": 2}, "winners": ["Ann"], "minutes": -3}):
        with pytest.raises(RuleError):
            check_played(["Ann", "Bob"], {"type": "played", **bad})
