"""Atlantic Star voyages: their value, the checks before staging, classes and the ranking per sea."""

from __future__ import annotations

import pytest

from companion.contract.errors import RuleError
from companion.games.atlantic_star.rules import card_value, sea_name

from atlantic_star_support import Table

SIX = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")  # no operators with 6 players


@pytest.mark.parametrize("cards, legs, value", [
    (["3", "5", "2"], 3, 13),            # 10 points + 3 bonus
    (["M", "M", "M"], 3, 6),             # mail ships keep the bonus
    (["9", "X", "9"], 3, 18),            # an X voids the bonus
    (["X", "X", "X"], 3, 0),
    ([9, 9, 9, 9, 9, 9], 6, 60),         # the most a Pacific voyage can be worth
    (["m", "4", "x", "2"], 4, 7),        # lower case is fine
])
def test_card_values(cards, legs, value):
    assert card_value(cards, legs) == value


@pytest.mark.parametrize("cards, legs, message", [
    (["3", "5"], 3, "3 entries, not 2"),
    (["3", "5", "2", "1"], 3, "3 entries, not 4"),
    (["3", "0", "2"], 3, "type a number of 1 or more"),
    (["3", "Q", "2"], 3, "M for a mail ship or X"),
])
def test_wrong_card_lists_are_refused(cards, legs, message):
    with pytest.raises(RuleError, match=message):
        card_value(cards, legs)


def test_sea_prefixes():
    seas = ["baltic", "mediterranean", "atlantic", "pacific"]
    assert sea_name(seas, "med") == "mediterranean"
    assert sea_name(seas, "P") == "pacific"
    with pytest.raises(RuleError, match="the seas are baltic, mediterranean, atlantic, pacific"):
        sea_name(seas, "north")
    with pytest.raises(RuleError, match="There is no sea"):
        sea_name(seas, "")


def test_voyage_plays_the_legs_ends_the_turn_and_uses_a_plaque():
    t = Table("Ann", "Bob").fill_hands(4)
    t.voyage("Ann", "med", cards=["5", "M", "3", "2"], cls=4)
    ann = t.summary["players"][0]
    assert ann["hand"] == 0 and ann["plaques_left"] == 7
    assert t.turn == "Bob"
    assert t.summary["seas"]["mediterranean"] == {
        "class": 4,
        "ranking": [
            {"owner": "operator", "value": 22, "loan": 0},
            {"owner": "operator", "value": 18, "loan": 0},
            {"owner": "Ann", "value": 15, "loan": 0},
        ],
    }


def test_value_or_cards_exactly_one():
    t = Table("Ann", "Bob").fill_hands(3)
    with pytest.raises(RuleError, match="--value N or leg by leg as --cards LIST"):
        t.voyage("Ann", "baltic", cls=1)
    with pytest.raises(RuleError, match="one of them"):
        t.voyage("Ann", "baltic", value=12, cards=["1", "2", "3"], cls=1)


def test_a_value_beyond_nine_a_leg_is_taken():
    """Seed 003 states no largest number of points per leg (issue 15): 10 on a leg, or a value
    above 10 a leg, is taken (the command notes it as unusual); a negative value is refused."""
    assert card_value(["3", "10", "2"], 3) == 15 + 3
    t = Table("Ann", "Bob").fill_hands(3)
    t.voyage("Ann", "baltic", value=31, cls=1)
    t2 = Table("Ann", "Bob").fill_hands(3)
    with pytest.raises(RuleError, match="not -1"):
        t2.voyage("Ann", "baltic", value=-1, cls=1)


def test_too_few_cards_for_the_sea_is_refused():
    t = Table("Ann", "Bob").fill_hands(3)
    with pytest.raises(RuleError, match="Ann holds 3 cards: a Mediterranean voyage needs 4"):
        t.voyage("Ann", "mediterranean", value=12, cls=1)


def test_no_plaque_left_for_the_sea_is_refused():
    t = Table(*SIX).fill_hands(3)
    t.voyage("Ann", "baltic", value=12, cls=1)
    t.fill_hands(0)
    while t.turn != "Ann":
        t.charter(t.turn)
    for _ in range(3):
        t.charter("Ann")
        while t.turn != "Ann":
            t.charter(t.turn)
    with pytest.raises(RuleError, match="Ann has no Baltic plaque left"):
        t.voyage("Ann", "baltic", value=12)


def test_first_voyage_of_a_sea_must_choose_a_free_class():
    t = Table(*SIX).fill_hands(3)
    with pytest.raises(RuleError, match="first Baltic voyage: choose its class with --class STARS"):
        t.voyage("Ann", "baltic", value=12)
    with pytest.raises(RuleError, match="1 to 5 stars, not 6"):
        t.voyage("Ann", "baltic", value=12, cls=6)
    t.voyage("Ann", "baltic", value=12, cls=5)
    assert t.summary["seas"]["baltic"]["class"] == 5


def test_a_class_already_used_by_another_sea_is_refused():
    t = Table(*SIX).fill_hands(4)
    t.voyage("Ann", "mediterranean", value=12, cls=3)
    with pytest.raises(RuleError, match="The 3-star class belongs to the Mediterranean: choose one of 1, 2, 4, 5"):
        t.voyage("Bob", "baltic", value=9, cls=3)
    t.voyage("Bob", "baltic", value=9, cls=4)


def test_later_voyages_keep_the_class_and_may_not_contradict_it():
    t = Table(*SIX).fill_hands(3)
    t.voyage("Ann", "baltic", value=12, cls=2)
    with pytest.raises(RuleError, match="The Baltic sails in the 2-star class: leave out --class or give 2"):
        t.voyage("Bob", "baltic", value=12, cls=3)
    t.voyage("Bob", "baltic", value=12, cls=2)
    t.voyage("Cy", "baltic", value=12)
    assert t.summary["seas"]["baltic"]["class"] == 2


def test_ranking_highest_first_and_new_ties_go_below():
    t = Table(*SIX).fill_hands(3)
    t.voyage("Ann", "baltic", value=12, cls=1)
    t.voyage("Bob", "baltic", value=15)
    t.voyage("Cy", "baltic", value=12)   # equal to Ann's: below it
    t.voyage("Di", "baltic", value=20)
    t.voyage("Ed", "baltic", value=12)   # equal to both: below both
    assert t.ranking("baltic") == [("Di", 20), ("Bob", 15), ("Ann", 12), ("Cy", 12), ("Ed", 12)]


def test_an_operator_stays_above_a_player_on_equal_value():
    t = Table("Ann", "Bob", "Cy", "Di").fill_hands(3)
    t.voyage("Ann", "baltic", value=17, cls=1)   # equal to the 17 operator
    t.voyage("Bob", "baltic", value=13)          # equal to the 13 operator
    t.voyage("Cy", "baltic", value=18)           # beats the operator
    assert t.ranking("baltic") == [
        ("Cy", 18), ("operator", 17), ("Ann", 17), ("operator", 13), ("Bob", 13),
    ]


def test_two_voyages_in_one_sea_with_two_or_three_players():
    t = Table("Ann", "Bob", "Cy").fill_hands(3)
    t.voyage("Ann", "baltic", value=10, cls=1)
    t.fill_hands(0)
    while t.turn != "Ann":
        t.charter(t.turn)
    for _ in range(3):
        t.charter("Ann")
        while t.turn != "Ann":
            t.auto()
    t.voyage("Ann", "baltic", value=14)
    mine = [x for x in t.summary["players"][0]["places"] if x["sea"] == "baltic"]
    assert [(x["voyage"], x["value"]) for x in mine] == [(2, 14), (1, 10)]
    assert t.summary["players"][0]["plaques_left"] == 6
