"""Atlantic Star turns: whose turn it is, the order inside a turn, chartering and refreshing."""

from __future__ import annotations

import pytest

from companion.contract.errors import RuleError

from atlantic_star_support import TEST_VP, Table


def test_turns_go_round_in_seat_order_and_count_rounds():
    t = Table("Ann", "Bob", "Cy", "Di")
    seen = []
    for _ in range(5):
        seen.append(t.turn)
        t.charter(t.turn)
    assert seen == ["Ann", "Bob", "Cy", "Di", "Ann"]
    assert t.summary["round"] == 2


def test_acting_out_of_turn_is_refused_with_whose_turn_it_is():
    t = Table("Ann", "Bob")
    before = t.state
    with pytest.raises(RuleError, match="It is Ann's turn, not Bob's"):
        t.charter("Bob")
    with pytest.raises(RuleError, match="It is Ann's turn"):
        t.refresh("bob")
    assert t.state is before


def test_player_names_are_matched_without_case():
    t = Table("Ann", "Bob").charter("ann")
    assert t.turn == "Bob"


def test_an_unknown_player_is_refused_with_the_names():
    with pytest.raises(RuleError, match="the players are Ann, Bob"):
        Table("Ann", "Bob").charter("Zed")


def test_a_player_without_plaques_is_skipped():
    t = Table("Ann", "Bob", "Cy", "Di", "Ed", "Flo", vp=TEST_VP)
    skipped = set()
    while not t.state["finished"]:
        left = {p["name"]: p["plaques_left"] for p in t.summary["players"]}
        assert left[t.turn] > 0
        skipped |= {p for p, n in left.items() if n == 0}
        t.auto()
    assert skipped  # someone did finish early and was passed over


def test_charter_pays_the_space_and_grows_the_hand():
    t = Table("Ann", "Bob", "Cy", "Di")
    t.charter("Ann", 3000).charter("Bob", 2000).charter("Cy", 1000).charter("Di", 0)
    assert [p["money"] for p in t.summary["players"]] == [15000, 16000, 17000, 18000]
    assert [p["hand"] for p in t.summary["players"]] == [1, 1, 1, 1]


def test_charter_slides_the_dearer_cards_one_space_cheaper():
    t = Table("Ann", "Bob", options={"agency": ["A", "B", "C", "D"]})
    t.charter("Ann", 1000, new="E")
    assert [a["card"] for a in t.summary["agency"]] == ["E", "A", "B", "D"]
    t.charter("Bob", 0)  # the new 3,000 card is unnamed
    assert [a["card"] for a in t.summary["agency"]] == [None, "E", "A", "B"]


def test_charter_of_an_unknown_space_is_refused():
    with pytest.raises(RuleError, match="the spaces are 3000, 2000, 1000 or 0"):
        Table("Ann", "Bob").charter("Ann", 1500)


def test_charter_the_player_cannot_pay_is_refused():
    t = Table("Ann", "Bob", "Cy", "Di")
    for _ in range(4):
        t.refresh("Ann")
    t.charter("Ann", 2000)  # 18,000 - 4 x 2,000 - 2,000 = 8,000
    for _ in range(3):
        t.charter(t.turn)
    t.refresh("Ann").refresh("Ann").refresh("Ann").refresh("Ann")  # 0 left
    with pytest.raises(RuleError, match="Ann has 0 marks and cannot pay 3,000 marks"):
        t.charter("Ann", 3000)
    t.charter("Ann", 0)  # the free ship is always affordable


def test_refresh_costs_2000_repeatable_and_forgets_the_names():
    t = Table("Ann", "Bob", options={"agency": ["A", "B", "C", "D"]})
    t.refresh("Ann").refresh("Ann", cards=["E", "F", "G", "H"])
    assert t.summary["players"][0]["money"] == 32000
    assert [a["card"] for a in t.summary["agency"]] == ["E", "F", "G", "H"]
    t.refresh("Ann")
    assert [a["card"] for a in t.summary["agency"]] == [None] * 4
    assert t.turn == "Ann"  # a refresh does not end the turn


def test_refresh_without_money_is_refused():
    t = Table("Ann", "Bob", "Cy", "Di")
    for _ in range(9):
        t.refresh("Ann")
    with pytest.raises(RuleError, match="Ann has 0 marks and cannot pay 2,000 marks"):
        t.refresh("Ann")


def test_refresh_names_all_four_or_none():
    with pytest.raises(RuleError, match="all 4"):
        Table("Ann", "Bob").refresh("Ann", cards=["E", "F"])


def test_what_the_player_may_still_do():
    t = Table("Ann", "Bob")
    # no voyage yet: nothing to borrow against, so no loan is offered (issue 24)
    assert t.summary["may"] == ["refresh", "charter", "voyage"]
    t.refresh("Ann")
    assert t.summary["may"] == ["refresh", "charter", "voyage"]


def test_a_loan_is_offered_only_when_one_is_possible():
    """Issue 24: "next: loan, ..." appeared with no voyage yet, and with every sea full."""
    t = Table("Ann", "Bob").fill_hands(6)
    t.voyage("Ann", "pacific", value=20, cls=1)
    t.voyage("Bob", "pacific", value=15, cls=1)
    assert t.summary["turn"] == "Ann" and t.summary["may"][0] == "loan"
    t.state["seas"]["pacific"]["ranking"] += [dict(t.state["seas"]["pacific"]["ranking"][0], owner="x")] * 4
    assert "loan" not in t.summary["may"]  # all 6 plaques in that sea: no more loans there


def test_hand_limit_seven_cards_allow_only_atlantic_or_pacific():
    t = Table("Ann", "Bob").fill_hands(7)
    for sea in ("baltic", "mediterranean"):
        with pytest.raises(RuleError, match="at most 2 may stay in hand. With 7 cards: Atlantic or Pacific"):
            t.voyage("Ann", sea, value=10, cls=1)
    t.voyage("Ann", "atlantic", value=20, cls=1)
    assert t.state["hand"]["Ann"] == 2
    t.voyage("Bob", "pacific", value=20, cls=2)
    assert t.state["hand"]["Bob"] == 1


def test_a_charter_that_would_leave_no_voyage_possible_is_refused():
    t = Table("Ann", "Bob").fill_hands(8)
    with pytest.raises(RuleError, match="would hold 9 cards"):
        t.charter("Ann")
    t.voyage("Ann", "pacific", value=20, cls=1)  # staging is the way on


def test_the_limit_counts_only_seas_still_open_to_the_player():
    # 6 players: one plaque per sea. Once only the Baltic (3 legs) is open, 5 cards is the most.
    t = Table("Ann", "Bob", "Cy", "Di", "Ed", "Flo", vp=TEST_VP)
    plan = ["pacific", "atlantic", "mediterranean"]
    while plan:
        if t.turn != "Ann":
            t.auto()
        elif t.state["hand"]["Ann"] == t.legs(plan[0]):
            t.stage("Ann", plan.pop(0), 12)
        else:
            t.charter("Ann")
    while t.state["hand"]["Ann"] < 5:
        t.charter("Ann") if t.turn == "Ann" else t.auto()
    while t.turn != "Ann":
        t.auto()
    with pytest.raises(RuleError, match="Ann would hold 6 cards"):
        t.charter("Ann")
    t.voyage("Ann", "baltic", value=9)
    assert t.state["hand"]["Ann"] == 2
    assert t.state["finished"]  # Ann was the last with plaques: the others were skipped
