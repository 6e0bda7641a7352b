"""Atlantic Star scoring: the end of the game, the printed points per place, and the tie-break.

Every victory-point table here is INVENTED FOR THE TESTS (the printed one is unknown).
"""

from __future__ import annotations

import pytest

from companion.contract.errors import MissingValue, RuleError

from atlantic_star_support import TEST_VP, Table

# a flat test table: the same points in every class, so a game can be made to tie
FLAT_VP = {str(c): [6, 5, 4, 3, 2, 1] for c in range(1, 6)}


def two_player_game(plan, vp=None, bob_refreshes=0, stop_before_last=False) -> Table:
    """Ann and Bob stage every sea twice: plan = [(sea, class, (ann, bob), (ann, bob))]."""
    t = Table("Ann", "Bob", vp=vp)
    for _ in range(bob_refreshes):
        t.charter("Ann")
        t.refresh("Bob").charter("Bob")
        t.fill_hands(0)
    last = (len(plan) - 1, 1)
    for i, (sea, cls, *pairs) in enumerate(plan):
        for j, (ann, bob) in enumerate(pairs):
            for _ in range(t.legs(sea) - t.state["hand"]["Ann"]):
                t.charter("Ann").charter("Bob")
            t.voyage("Ann", sea, value=ann, cls=cls)
            if stop_before_last and (i, j) == last:
                return t
            t.voyage("Bob", sea, value=bob, cls=cls)
    return t


FULL_PLAN = [
    ("pacific", 5, (40, 30), (25, 28)),
    ("atlantic", 4, (20, 27), (30, 10)),
    ("mediterranean", 3, (22, 10), (5, 18)),
    ("baltic", 2, (13, 20), (8, 8)),
]

TIE_PLAN = [
    ("pacific", 5, (50, 49), (10, 9)),
    ("atlantic", 4, (49, 50), (9, 10)),
    ("mediterranean", 3, (38, 37), (10, 9)),
    ("baltic", 2, (27, 28), (9, 10)),
]


def test_complete_two_player_game_scores_by_place_and_class():
    t = two_player_game(FULL_PLAN, vp=TEST_VP)
    s = t.summary
    assert t.ranking("pacific") == [
        ("Ann", 40), ("operator", 32), ("Bob", 30), ("operator", 28), ("Bob", 28), ("Ann", 25),
    ]
    assert t.ranking("atlantic") == [
        ("Ann", 30), ("operator", 27), ("Bob", 27), ("operator", 23), ("Ann", 20), ("Bob", 10),
    ]
    assert t.ranking("mediterranean") == [
        ("operator", 22), ("Ann", 22), ("operator", 18), ("Bob", 18), ("Bob", 10), ("Ann", 5),
    ]
    assert t.ranking("baltic") == [
        ("Bob", 20), ("operator", 17), ("operator", 13), ("Ann", 13), ("Ann", 8), ("Bob", 8),
    ]
    # Pacific (5*): Ann 20 + 0, Bob 10 + 2; Atlantic (4*): Ann 16 + 4, Bob 10 + 1;
    # Mediterranean (3*): Ann 11 + 3, Bob 7 + 5; Baltic (2*): Ann 6 + 4, Bob 12 + 2
    assert [(p["name"], p["score"]) for p in s["players"]] == [("Ann", 64), ("Bob", 49)]
    assert s["finished"] and s["winners"] == ["Ann"] and s["turn"] is None
    assert [p["plaques_left"] for p in s["players"]] == [0, 0]
    assert all(len(sea["ranking"]) == 6 for sea in s["seas"].values())


def test_equal_points_go_to_the_player_with_more_money():
    t = two_player_game(TIE_PLAN, vp=FLAT_VP, bob_refreshes=1)
    s = t.summary
    assert [p["score"] for p in s["players"]] == [28, 28]
    assert [p["money"] for p in s["players"]] == [36000, 34000]
    assert s["winners"] == ["Ann"]


def test_equal_points_and_money_share_the_win():
    s = two_player_game(TIE_PLAN, vp=FLAT_VP).summary
    assert [p["score"] for p in s["players"]] == [28, 28]
    assert s["winners"] == ["Ann", "Bob"]


def test_nothing_but_undo_after_the_end():
    t = two_player_game(FULL_PLAN, vp=TEST_VP)
    with pytest.raises(RuleError, match="The game is over"):
        t.charter("Ann")


def test_the_last_voyage_needs_the_victory_points_and_names_the_command():
    t = two_player_game(FULL_PLAN, stop_before_last=True)
    before = t.state
    with pytest.raises(MissingValue, match=r"`companion data set atlantic-star vp\.2 '\[1st, 2nd"):
        t.voyage("Bob", "baltic", value=8)
    assert t.state is before and not before["finished"]


def test_the_missing_class_is_named_one_at_a_time():
    partial = {k: v for k, v in TEST_VP.items() if k != "3"}
    t = two_player_game(FULL_PLAN, vp=partial, stop_before_last=True)
    with pytest.raises(MissingValue, match=r"data set atlantic-star vp\.3 ") as err:
        t.voyage("Bob", "baltic", value=8)
    assert err.value.key == "vp.3"


def test_status_without_the_table_shows_places_and_no_points():
    t = two_player_game(FULL_PLAN, stop_before_last=True)
    s = t.summary
    assert s["vp_missing"] == [2, 3, 4, 5]
    ann = s["players"][0]
    assert ann["score"] is None
    assert [(x["sea"], x["place"], x["points"]) for x in ann["places"]][:2] == [
        ("baltic", 4, None), ("baltic", 5, None),
    ]


def test_provisional_points_from_the_current_places():
    t = Table("Ann", "Bob", vp=TEST_VP).fill_hands(6)
    t.voyage("Ann", "pacific", value=40, cls=5).voyage("Bob", "pacific", value=30)
    s = t.summary
    assert not s["finished"] and s["winners"] == []
    assert [p["score"] for p in s["players"]] == [20, 10]  # 1st and 3rd of the 5-star class
    assert s["vp_missing"] == []


def test_provisional_points_for_the_known_classes_only():
    t = Table("Ann", "Bob", vp={"5": TEST_VP["5"]}).fill_hands(6)
    t.voyage("Ann", "pacific", value=40, cls=5).voyage("Bob", "atlantic", value=20, cls=1)
    assert [p["score"] for p in t.summary["players"]] == [20, None]
    assert t.summary["vp_missing"] == [1]
