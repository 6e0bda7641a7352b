"""The score sheet's target, in its own words (issue 29, item 5): `new scoresheet --help` says
"The game ends after the round in which someone reaches N", and `status` says "ends at N".
The rule matches that word whichever total wins; a co-operative sheet (or one without points)
refuses a target; a tie at the target that a tie-breaker settles ends the rounds and waits for
`finish --winner NAME`, naming who reached the target and who ties."""

from __future__ import annotations

import json

from companion.core.store import Store


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_help_and_status_say_reaches_and_the_lowest_total_ends_at_exactly_the_target(run, status):
    """"--target N: The game ends after the round in which someone reaches N"; status "ends at
    100": with --lowest-wins, Bob at exactly 100 ends it (before, the game went on to 101)."""
    assert "someone reaches N" in flat(run(["new", "scoresheet", "--help"], expect=0).stdout)
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy", "--lowest-wins", "--target", "100"], expect=0)
    run(["add", "Ann=40", "Bob=60", "Cy=26"], expect=0)
    assert "lowest total wins, ends at 100" in flat(run(["status"], expect=0).stdout)
    out = flat(run(["add", "Ann=10", "Bob=40", "Cy=0"], expect=0).stdout)
    assert "Game over: Cy wins." in out
    s = status()
    assert s["finished"] and s["winners"] == ["Cy"] and s["target_rule"] == "reaches"
    assert "The game is over" in run(["add", "Ann=1"], expect=1).stderr


def test_a_co_operative_sheet_or_one_without_points_refuses_a_target(run):
    """A co-operative game is won or lost together (`finish --won`/`--lost`): "ends at 10" on a
    sheet that no total could end is refused at `new`, nothing started."""
    err = flat(run(["new", "scoresheet", "--players", "Ann,Bob", "--coop", "--target", "10"], expect=2).stderr)
    assert "A co-operative game is won or lost together (`finish --won` or `finish --lost`): no total ends it, " \
           "so drop --target 10." in err
    err = flat(run(["new", "scoresheet", "--players", "Ann,Bob", "--no-points", "--target", "10"], expect=2).stderr)
    assert "drop --target 10" in err
    assert json.loads(run(["sessions", "--json"], expect=0).stdout) == []


def test_a_tie_at_the_target_waits_for_the_tie_breaker(run, status):
    """"--tie-breaker TEXT: What the rules settle a tie for first by (most money): the winner is
    then named." Ann and Bob reach 20 tied: no further round decides it, `finish --winner` does."""
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy", "--tie-breaker", "most money", "--target", "20"], expect=0)
    out = flat(run(["add", "Ann=20", "Bob=20", "Cy=3"], expect=0).stdout)
    assert ("Ann and Bob reached the target tied for first, which the rules settle by most money: "
            "`finish --winner NAME` says who won.") in out
    shown = flat(run(["status"], expect=0).stdout)
    assert "The rounds are over: `finish --winner NAME` ends the game" in shown and "In play" not in shown
    before = status()
    assert before["tied"] == ["Ann", "Bob"] and not before["finished"]
    err = flat(run(["add", "Ann=1", "Bob=5"], expect=1).stderr)
    assert err == ("Error: The target ended the game with Ann and Bob tied for first; the rules settle it by "
                   "most money: `finish --winner NAME` says who won (`undo` takes the last round back).")
    assert status() == before
    assert "Bob wins" in run(["finish", "--winner", "Bob"], expect=0).stdout
    assert status()["winners"] == ["Bob"]


def test_a_lowest_wins_tie_names_who_reached_the_target_and_who_ties(run, status):
    """With --lowest-wins Bob reaches the target and Ann and Cy tie for the lowest total: the
    line names both (before: "Ann and Cy tie past the target", though Bob passed it)."""
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy", "--lowest-wins", "--target", "100",
         "--tie-breaker", "fewest hearts"], expect=0)
    out = flat(run(["add", "Ann=40", "Bob=101", "Cy=40"], expect=0).stdout)
    assert ("Bob reached the target; Ann and Cy tie for first (the lowest total), which the rules settle by "
            "fewest hearts: `finish --winner NAME` says who won.") in out
    assert status()["target_reached_by"] == ["Bob"]
    run(["add", "Ann=5", "Cy=1"], expect=1)
    assert "Cy wins" in run(["finish", "--winner", "Cy"], expect=0).stdout


def test_a_sheet_started_before_keeps_the_rule_it_was_played_by(run, status, home):
    """A sheet recorded before issue 29 (no ``target_rule`` in its options) replays as it was
    played: with --lowest-wins its target had to be passed, and `status` says so ("ends past
    100") rather than a word its rule does not match."""
    run(["new", "scoresheet", "--players", "Ann,Bob", "--lowest-wins", "--target", "100",
         "--tie-breaker", "fewest hearts"], expect=0)
    sid = status()["session"]
    path = Store(home).root / "sessions" / f"{sid}.json"
    text = path.read_text()
    assert ',"target_rule":"reaches"' in text
    path.write_text(text.replace(',"target_rule":"reaches"', ""))
    run(["add", "Ann=60", "Bob=100"], expect=0)
    assert not status()["finished"]  # reaching 100 did not end such a sheet
    assert "lowest total wins, ends past 100" in flat(run(["status"], expect=0).stdout)
    run(["add", "Ann=41", "Bob=1"], expect=0)  # both pass it tied: that sheet let the next round decide
    s = status()
    assert s["tied"] == ["Ann", "Bob"] and not s["waits_for_tie"]
    run(["add", "Ann=1"], expect=0)
    assert status()["winners"] == ["Bob"]
    assert json.loads(run(["log", "--json"], expect=0).stdout)


def test_while_the_tie_waits_no_phone_offers_a_round_and_score_is_refused(run, status, home):
    """The tie at the target ends the rounds on the phones too: no page offers the round's
    points, and `score NAME N` (each player's own entry) is refused at once, recording nothing."""
    from serve_support import moves_on, site_and_client

    run(["new", "scoresheet", "--players", "Ann,Bob", "--tie-breaker", "most money", "--target", "20"], expect=0)
    site, client, links = site_and_client(home, status()["session"], ["Ann", "Bob"])
    assert "score" in moves_on(client.get(f"/p/{links['Ann']}").text)
    run(["add", "Ann=20", "Bob=20"], expect=0)
    for p in ("Ann", "Bob"):
        assert not {"add", "score"} & set(moves_on(client.get(f"/p/{links[p]}").text))
    assert "`finish --winner NAME` says who won" in run(["score", "Ann", "3"], expect=1).stderr
    assert status()["entered"] == []
