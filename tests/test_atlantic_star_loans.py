"""Atlantic Star loans: when they are allowed, their limits, and the re-ranking they cause."""

from __future__ import annotations

import pytest

from companion.contract.errors import RuleError

from atlantic_star_support import GAME, TEST_VP, Table

SIX = ("Me", "Oliver", "Cy", "Di", "Ed", "Flo")  # no operators with 6 players


def rulebook_table(vp=None) -> Table:
    """The rulebook's example: Mediterranean, 5-star class, 19 staged first, then Oliver's 23,
    then 15 and 11; back to Oliver's turn."""
    t = Table(*SIX, vp=vp).fill_hands(4)
    t.voyage("Me", "mediterranean", value=19, cls=5)
    t.voyage("Oliver", "mediterranean", value=23)
    t.voyage("Cy", "mediterranean", value=15)
    t.voyage("Di", "mediterranean", value=11)
    t.charter("Ed").charter("Flo").charter("Me")
    assert t.turn == "Oliver"
    return t


def test_rulebook_loan_example():
    t = rulebook_table()
    assert t.ranking("mediterranean") == [("Oliver", 23), ("Me", 19), ("Cy", 15), ("Di", 11)]
    t.loan("Oliver", "med", 8000)
    # 23 - 8 = 15: third, behind 19 and the 15 staged earlier
    assert t.ranking("mediterranean") == [("Me", 19), ("Cy", 15), ("Oliver", 15), ("Di", 11)]
    oliver = t.summary["players"][1]
    assert oliver["money"] == 18000 + 8000
    assert [(x["place"], x["value"], x["loan"]) for x in oliver["places"]] == [(3, 15, 8000)]
    assert t.summary["seas"]["mediterranean"]["ranking"][2] == {"owner": "Oliver", "value": 15, "loan": 8000}


def test_a_loan_does_not_end_the_turn_but_is_only_the_first_thing():
    t = rulebook_table().loan("Oliver", "mediterranean", 1000)
    assert t.turn == "Oliver"
    assert t.summary["may"] == ["refresh", "charter", "voyage"]
    with pytest.raises(RuleError, match="Oliver has taken a loan this turn already: one loan per turn"):
        t.loan("Oliver", "mediterranean", 1000)
    t.refresh("Oliver").charter("Oliver")
    assert t.turn == "Cy"


def test_a_loan_after_a_refresh_is_refused():
    t = rulebook_table().refresh("Oliver")
    with pytest.raises(RuleError, match="A loan comes first in a turn: Oliver has already refreshed"):
        t.loan("Oliver", "mediterranean", 1000)


def test_a_loan_out_of_turn_is_refused():
    with pytest.raises(RuleError, match="It is Oliver's turn, not Cy's"):
        rulebook_table().loan("Cy", "mediterranean", 1000)


def test_one_loan_per_voyage():
    t = rulebook_table().loan("Oliver", "mediterranean", 2000).charter("Oliver")
    while t.turn != "Oliver":
        t.charter(t.turn)
    with pytest.raises(RuleError, match="Oliver's Mediterranean voyage 1 has a loan already: one loan per voyage"):
        t.loan("Oliver", "mediterranean", 2000)


@pytest.mark.parametrize("amount, message", [
    (11000, r"at most 10,000 marks on that voyage \(at most 10,000 marks per voyage\), not 11,000"),
    (2500, "Loans come in whole thousands: 2,500 is not, e.g. 2,000"),
    (0, "A loan is a whole number of marks"),
    (-1000, "A loan is a whole number of marks"),
])
def test_loan_limits(amount, message):
    t = rulebook_table()
    with pytest.raises(RuleError, match=message):
        t.loan("Oliver", "mediterranean", amount)


def test_a_loan_is_at_most_1000_per_point_of_the_voyage():
    t = Table(*SIX).fill_hands(3)
    t.voyage("Me", "baltic", value=6, cls=1)
    for p in SIX[1:]:
        t.charter(p)
    with pytest.raises(RuleError, match=r"at most 6,000 marks on that voyage \(at most 1,000 per point of the voyage's value 6\)"):
        t.loan("Me", "baltic", 7000)
    t.loan("Me", "baltic", 6000)
    assert t.ranking("baltic") == [("Me", 0)]


def test_no_loan_without_a_voyage_in_that_sea():
    with pytest.raises(RuleError, match="Oliver has no voyage in the Baltic to borrow against"):
        rulebook_table().loan("Oliver", "baltic", 1000)


def test_an_unknown_sea_is_refused():
    with pytest.raises(RuleError, match="There is no sea called 'north'"):
        rulebook_table().loan("Oliver", "north", 1000)


def test_no_loan_once_the_sea_has_all_six_plaques():
    t = rulebook_table()
    t.charter("Oliver").charter("Cy").charter("Di")
    t.voyage("Ed", "mediterranean", value=9).voyage("Flo", "mediterranean", value=8)
    t.charter("Me")
    with pytest.raises(RuleError, match="The Mediterranean has all 6 plaques: no more loans"):
        t.loan("Oliver", "mediterranean", 1000)


def test_a_lowered_plaque_goes_below_equal_values_and_below_an_operator():
    t = Table("Ann", "Bob", "Cy", "Di").fill_hands(3)
    t.voyage("Ann", "baltic", value=20, cls=1)
    t.voyage("Bob", "baltic", value=14)
    t.charter("Cy").charter("Di")
    assert t.ranking("baltic") == [("Ann", 20), ("operator", 17), ("Bob", 14), ("operator", 13)]
    t.loan("Ann", "baltic", 3000)  # 17: equal to the operator, goes below it
    assert t.ranking("baltic") == [("operator", 17), ("Ann", 17), ("Bob", 14), ("operator", 13)]
    t.charter("Ann")
    t.loan("Bob", "baltic", 1000)  # 13: equal to the operator, below it
    assert t.ranking("baltic") == [("operator", 17), ("Ann", 17), ("operator", 13), ("Bob", 13)]


def test_two_voyages_in_a_sea_choose_with_voyage():
    t = Table("Ann", "Bob", "Cy").fill_hands(3)
    t.voyage("Ann", "baltic", value=10, cls=1)
    t.charter("Bob").charter("Cy")
    for _ in range(3):
        t.charter("Ann").charter("Bob").charter("Cy")
    t.voyage("Ann", "baltic", value=14)
    t.charter("Bob").charter("Cy")
    with pytest.raises(RuleError, match="Ann has 2 Baltic voyages without a loan: pick one with --voyage 1 or --voyage 2"):
        t.loan("Ann", "baltic", 1000)
    with pytest.raises(RuleError, match="Ann has no Baltic voyage 3: give --voyage 1 or 2"):
        t.loan("Ann", "baltic", 1000, voyage=3)
    t.loan("Ann", "baltic", 5000, voyage=2)  # 14 -> 9
    assert t.ranking("baltic") == [("Ann", 10), ("Ann", 9)]
    t.charter("Ann")
    t.voyage("Bob", "pacific", value=20, cls=2).voyage("Cy", "pacific", value=21)
    t.loan("Ann", "baltic", 2000)  # the one without a loan: voyage 1, 10 -> 8
    assert t.ranking("baltic") == [("Ann", 9), ("Ann", 8)]
    assert [(x["voyage"], x["loan"]) for x in t.summary["players"][0]["places"]] == [(2, 5000), (1, 2000)]


def test_preview_shows_place_and_points_before_and_after_without_recording():
    t = rulebook_table(vp=TEST_VP)
    before = t.state
    event = {"type": "loan", "player": "Oliver", "sea": "med", "amount": 8000}
    preview = GAME.preview_loan(t.state, event, t.data)
    assert t.state is before and t.ranking("mediterranean")[0] == ("Oliver", 23)
    assert (preview["before"]["place"], preview["before"]["value"], preview["before"]["points"]) == (1, 23, 20)
    assert (preview["after"]["place"], preview["after"]["value"], preview["after"]["points"]) == (3, 15, 10)
    assert preview["after"]["loan"] == 8000


def test_preview_without_the_table_still_shows_places():
    t = rulebook_table()
    event = {"type": "loan", "player": "Oliver", "sea": "med", "amount": 8000}
    preview = GAME.preview_loan(t.state, event, t.data)
    assert (preview["before"]["place"], preview["after"]["place"]) == (1, 3)
    assert preview["after"]["points"] is None


def test_preview_refuses_what_the_loan_would_refuse():
    t = rulebook_table()
    with pytest.raises(RuleError, match="whole thousands"):
        GAME.preview_loan(t.state, {"type": "loan", "player": "Oliver", "sea": "med", "amount": 500}, t.data)
