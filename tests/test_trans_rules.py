"""Trans scoring and the end of the game: the charts, winners, rails running out, classic scoring."""

from __future__ import annotations

import pytest

from companion.core import datapack
from companion.contract.errors import MissingValue, RuleError
from companion.contract.api import Setup
from companion.games.trans.rules import TransAmerika, TransEuropa, chart_points, make_round_start

SEED = "5e" * 32


def new(players=("Ann", "Bob", "Cy", "Dee"), game=TransAmerika, **options):
    g = game()
    data = datapack.pack(g.id)["values"]
    return g, g.initial(Setup(g.id, tuple(players), options), data), data


def begin(g, s, data, special=None):
    return g.apply(s, make_round_start(s, data, SEED, "", "sess", special=special), data)


def end(g, s, data, winners=(), rails_out=False, **missing):
    event = {"type": "round-end", "winners": list(winners), "missing": missing}
    if rails_out:
        event["rails_out"] = True
    return g.apply(s, event, data)


def scores(s):
    return dict(s["scores"])


def test_normal_chart_exactly_as_printed():
    g, s, data = new()
    chart = data["charts"]["normal"]
    assert chart["winner"] == 4
    assert [chart_points(chart, n) for n in range(1, 10)] == [3, 2, 1, 1, 0, 0, 0, 0, 0]


def test_round_scored_on_the_normal_chart():
    g, s, data = new(("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"))
    s = end(g, begin(g, s, data), data, winners=["Ann"], Bob=1, Cy=2, Dee=3, Eve=4, Fay=5)
    assert scores(s) == {"Ann": 4, "Bob": 3, "Cy": 2, "Dee": 1, "Eve": 1, "Fay": 0}
    assert s["history"][0]["points"]["Ann"] == 4
    assert g.summary(s)["players"][1]["rounds"] == [3]


def test_two_winners_in_one_round():
    g, s, data = new()
    s = end(g, begin(g, s, data), data, winners=["Ann", "cy"], Bob=2, Dee=9)
    assert scores(s) == {"Ann": 4, "Bob": 2, "Cy": 4, "Dee": 0}
    assert s["history"][0]["winners"] == ["Ann", "Cy"]


def test_rails_running_out():
    g, s, data = new()
    s = end(g, begin(g, s, data), data, rails_out=True, Ann=1, Bob=2, Cy=4, Dee=6)
    assert scores(s) == {"Ann": 3, "Bob": 2, "Cy": 1, "Dee": 0}
    assert s["history"][0]["rails_out"] is True and not s["round_open"]


def test_rails_out_refuses_any_winner():
    g, s, data = new()
    s = begin(g, s, data)
    with pytest.raises(RuleError, match="rails-out"):
        end(g, s, data, winners=["Ann", "Bob"], rails_out=True, Cy=1, Dee=1)
    with pytest.raises(RuleError, match="rails-out"):
        end(g, s, data, winners=["Ann"], rails_out=True, Bob=1, Cy=1, Dee=1)


@pytest.mark.parametrize("missing, message", [
    ({"Ann": 1, "Bob": 1, "Cy": 1, "Dee": 1}, "connected"),  # a winner with a count
    ({"Bob": 1, "Cy": 1}, "--missing Dee=N"),  # a count lacking
    ({"Bob": 0, "Cy": 1, "Dee": 1}, "at least 1"),
    ({"Bob": -2, "Cy": 1, "Dee": 1}, "at least 1"),
    ({"Bob": 2.5, "Cy": 1, "Dee": 1}, "whole number"),
    ({"Bob": "2", "Cy": 1, "Dee": 1}, "whole number"),
    ({"Bob": True, "Cy": 1, "Dee": 1}, "whole number"),
    ({"Bob": 1, "Cy": 1, "Dee": 1, "Zed": 1}, "no player called 'Zed'"),
])
def test_round_end_refusals(missing, message):
    g, s, data = new()
    s = begin(g, s, data)
    with pytest.raises(RuleError, match=message):
        g.apply(s, {"type": "round-end", "winners": ["Ann"], "missing": missing}, data)


def test_round_end_needs_a_winner_or_rails_out_and_an_open_round():
    g, s, data = new()
    with pytest.raises(RuleError, match="No round is open"):
        end(g, s, data, winners=["Ann"], Bob=1, Cy=1, Dee=1)
    s = begin(g, s, data)
    with pytest.raises(RuleError, match="--winner NAME"):
        end(g, s, data, Ann=1, Bob=1, Cy=1, Dee=1)
    with pytest.raises(RuleError, match="twice"):
        end(g, s, data, winners=["Ann", "ann"], Bob=1, Cy=1, Dee=1)
    with pytest.raises(RuleError, match="no player called 'Zed'"):
        end(g, s, data, winners=["Zed"], Bob=1, Cy=1, Dee=1)


def test_round_start_refused_while_a_round_is_open():
    g, s, data = new()
    s = begin(g, s, data)
    with pytest.raises(RuleError, match="still open"):
        begin(g, s, data)
    stale = make_round_start(g.initial(Setup(g.id, ("Ann", "Bob", "Cy", "Dee")), data), data, SEED, "", "sess")
    with pytest.raises(RuleError, match="still open"):
        g.apply(s, stale, data)


def test_start_player_passes_left_every_round():
    g, s, data = new(("Ann", "Bob", "Cy"))
    seen = []
    for _ in range(4):
        s = begin(g, s, data)
        seen.append(g.summary(s)["start_player"])
        s = end(g, s, data, winners=["Cy"], Ann=9, Bob=9)
    assert seen == ["Ann", "Bob", "Cy", "Ann"]
    assert [h["start_player"] for h in s["history"]] == seen
    assert g.summary(s)["start_player"] == "Bob"  # the next round's


def test_game_ends_on_13_with_a_shared_win():
    g, s, data = new(("Ann", "Bob", "Cy"))
    for _ in range(3):
        s = end(g, begin(g, s, data), data, winners=["Ann", "Bob"], Cy=5)
    assert scores(s) == {"Ann": 12, "Bob": 12, "Cy": 0} and not s["finished"]
    s = end(g, begin(g, s, data), data, winners=["Ann", "Bob"], Cy=1)
    assert s["finished"] and s["winners"] == ["Ann", "Bob"]
    summary = g.summary(s)
    assert summary["finished"] and summary["winners"] == ["Ann", "Bob"]
    assert set(summary["hands"]) == {"Ann", "Bob", "Cy"}
    with pytest.raises(RuleError, match="game is over"):
        begin(g, s, data)
    with pytest.raises(RuleError, match="game is over"):
        make_round_start(s, data, SEED, "", "sess")


def test_furthest_past_13_wins():
    g, s, data = new(("Ann", "Bob"))
    for _ in range(3):
        s = end(g, begin(g, s, data), data, winners=["Ann"], Bob=1)
    assert scores(s) == {"Ann": 12, "Bob": 9}
    s = end(g, begin(g, s, data), data, winners=["Bob"], Ann=1)  # Ann 15, Bob 13
    assert s["finished"] and s["winners"] == ["Ann"]


def test_classic_scoring_starts_at_13_and_ends_at_0():
    g, s, data = new(("Ann", "Bob", "Cy"), scoring="classic")
    assert scores(s) == {"Ann": 13, "Bob": 13, "Cy": 13}
    s = end(g, begin(g, s, data), data, winners=["Ann"], Bob=6, Cy=3)
    assert scores(s) == {"Ann": 13, "Bob": 7, "Cy": 10} and not s["finished"]
    s = end(g, begin(g, s, data), data, rails_out=True, Ann=2, Bob=7, Cy=1)
    assert scores(s) == {"Ann": 11, "Bob": 0, "Cy": 9}
    assert s["finished"] and s["winners"] == ["Ann"]
    assert g.summary(s)["scoring"] == "classic"


def test_classic_tie_on_most_points_left_shares_the_win():
    g, s, data = new(("Ann", "Bob", "Cy"), scoring="classic")
    s = end(g, begin(g, s, data), data, winners=["Ann", "Bob"], Cy=20)
    assert scores(s)["Cy"] == -7
    assert s["finished"] and s["winners"] == ["Ann", "Bob"]


def test_options_are_checked():
    with pytest.raises(RuleError, match="--scoring"):
        new(scoring="golf")
    with pytest.raises(RuleError, match="--variant"):
        new(variant="everything")
    with pytest.raises(RuleError, match="2 to 6"):
        new(("Ann",))


def test_generous_and_demanding_charts_are_asked_for_then_used():
    g, s, data = new(("Ann", "Bob", "Cy"))
    s = begin(g, s, data, special="generous")
    with pytest.raises(MissingValue) as caught:
        end(g, s, data, winners=["Ann"], Bob=1, Cy=9)
    assert caught.value.key == "charts.generous"
    assert "companion data set trans-amerika charts.generous" in str(caught.value)
    supplied = dict(data, charts=dict(data["charts"], generous={"winner": 6, "missing": [5, 1]}))
    s = end(g, s, supplied, winners=["Ann"], Bob=1, Cy=9)
    assert scores(s) == {"Ann": 6, "Bob": 5, "Cy": 1}  # the last entry holds for any larger count
    s = begin(g, s, supplied, special="demanding")
    with pytest.raises(MissingValue, match="charts.demanding"):
        end(g, s, supplied, winners=["Ann"], Bob=1, Cy=9)
    half = dict(data, charts=dict(data["charts"], demanding={"winner": 3}))
    with pytest.raises(MissingValue, match="charts.demanding.missing"):
        end(g, s, half, winners=["Ann"], Bob=1, Cy=9)


def test_summary_keys_and_no_hands_while_open():
    g, s, data = new(game=TransEuropa)
    s = begin(g, s, data)
    summary = g.summary(s)
    for key in ("players", "round", "finished", "winners", "map", "scoring", "start_player", "special", "revealed"):
        assert key in summary
    assert summary["map"] == "europa" and summary["scoring"] == "prestige"
    assert summary["special"] is None and summary["revealed"] == {}
    assert "hands" not in summary
    text = repr(summary)
    assert not any(city in text for hand in s["hands"].values() for city in hand)
    assert [p["cities"] for p in summary["players"]] == [5, 5, 5, 5]


def test_hands_are_read_one_player_at_a_time():
    g, s, data = new()
    with pytest.raises(RuleError, match="round start"):
        g.hand_of(s, "Ann")
    s = begin(g, s, data)
    assert g.hand_of(s, "ann") == s["hands"]["Ann"]
    assert g.public_hands(s) is None
    with pytest.raises(RuleError, match="no player called"):
        g.hand_of(s, "Zed")
    s = end(g, s, data, winners=["Ann"], Bob=1, Cy=1, Dee=1)
    assert g.public_hands(s)["Bob"] == g.hand_of(s, "Bob")


def test_describe_keeps_cities_secret():
    g, s, data = new()
    event = make_round_start(s, data, SEED, "", "sess", special="pass-three")
    line = g.describe(event)
    assert line.startswith("round 1 started") and "pass-three" in line
    assert not any(c["name"] in line for c in data["cities"])
    assert g.describe({"type": "pass", "player": "Ann", "city": "Dallas"}) == "Ann passed a city"
    end_line = g.describe({"type": "round-end", "winners": ["Ann"], "missing": {"Bob": 2}})
    assert end_line == "round ended: Ann connected; Bob 2 missing"
