"""Trans city deals: fair, one city per colour, dashed cards out with 2-3 players, physical hands."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from companion.core import datapack
from companion.core import dealing
from companion.contract.errors import MissingValue, RuleError
from companion.contract.api import Setup
from companion.games.trans.rules import TransAmerika, TransEuropa, make_round_start

SEED = "a7" * 32
AMERIKA_DASHED = {
    "Buffalo", "Duluth", "San Diego", "Seattle", "Boston", "Richmond", "Atlanta", "Houston",
    "Denver", "Kansas City",
}
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def new(n=4, game=TransAmerika, **options):
    g = game()
    data = datapack.pack(g.id)["values"]
    return g, g.initial(Setup(g.id, NAMES[:n], options), data), data


def colour_of(data):
    return {c["name"]: c["colour"] for c in data["cities"]}


def deal(g, s, data, seed=SEED, sid="sess", **kw):
    return g.apply(s, make_round_start(s, data, seed, "table words", sid, **kw), data)


def test_everyone_gets_one_city_of_each_colour():
    g, s, data = new(6)
    s = deal(g, s, data)
    colours = colour_of(data)
    dealt = [c for hand in s["hands"].values() for c in hand]
    assert len(dealt) == len(set(dealt)) == 30
    for hand in s["hands"].values():
        assert sorted(colours[c] for c in hand) == sorted(data["colours"])
    for colour, rest in s["leftover"].items():
        assert len(rest) == 1 and colours[rest[0]] == colour and rest[0] not in dealt


def test_the_deal_is_the_seed_s_and_recorded_verifiably():
    g, s, data = new(4)
    one = make_round_start(s, data, SEED, "words", "sess")
    assert one == make_round_start(s, data, SEED, "words", "sess")
    assert one != make_round_start(s, data, "b8" * 32, "words", "sess")
    assert one != make_round_start(s, data, SEED, "other words", "sess")
    records = list(dealing.deals_in(one))
    assert len(records) == 5
    assert all(dealing.check(r, SEED, "words") for r in records)
    assert {r["context"] for r in records} == {f"sess/1/cities-{c}" for c in data["colours"]}


def test_a_tampered_deal_is_refused():
    g, s, data = new(4)
    event = make_round_start(s, data, SEED, "", "sess")
    colour = data["colours"][0]
    bad = copy.deepcopy(event)
    bad["stacks"][colour]["order"][0] = "Paris"
    with pytest.raises(RuleError, match=f"{colour} stack"):
        g.apply(s, bad, data)
    bad = copy.deepcopy(event)
    del bad["stacks"][colour]
    with pytest.raises(RuleError, match="one stack for each colour"):
        g.apply(s, bad, data)


@pytest.mark.parametrize("n", [2, 3])
def test_two_or_three_players_never_get_a_dashed_card(n):
    g, s, data = new(n)
    for i in range(200):
        dealt = deal(g, s, data, sid=f"s{i}")
        held = {c for hand in dealt["hands"].values() for c in hand}
        left = {c for rest in dealt["leftover"].values() for c in rest}
        assert not (held | left) & AMERIKA_DASHED
        assert all(len(rest) == 5 - n for rest in dealt["leftover"].values())


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_many_seeded_deals_reach_every_city_and_never_repeat_a_colour(n):
    g, s, data = new(n)
    colours = colour_of(data)
    seen: Counter = Counter()
    for i in range(300):
        dealt = deal(g, s, data, sid=f"many{i}")
        for hand in dealt["hands"].values():
            assert len({colours[c] for c in hand}) == len(hand) == 5
            seen.update(hand)
    expected = set(colours) - (AMERIKA_DASHED if n <= 3 else set())
    assert set(seen) == expected
    # fair: every card in play is dealt about equally often (loose bound, no flakiness)
    assert max(seen.values()) < 2 * min(seen.values())


def test_europa_asks_for_its_dashed_cards_with_two_or_three_players():
    g, s, data = new(3, TransEuropa)
    with pytest.raises(MissingValue) as caught:
        deal(g, s, data)
    assert caught.value.key == "dashed"
    assert "companion data set trans-europa dashed" in str(caught.value)
    by_colour = {}
    for c in data["cities"]:
        by_colour.setdefault(c["colour"], []).append(c["name"])
    dashed = [n for names in by_colour.values() for n in names[:2]]
    s2 = deal(g, s, dict(data, dashed=dashed))
    assert not {c for h in s2["hands"].values() for c in h} & set(dashed)
    with pytest.raises(RuleError, match="2 of each colour"):
        deal(g, s, dict(data, dashed=dashed[:9] + [by_colour[data["colours"][0]][3]]))
    g4, s4, _ = new(4, TransEuropa)
    assert len(deal(g4, s4, data)["hands"]) == 4  # with 4 or more all 35 are in play


# -- special cards and their effect on the deal ----------------------------------------------

ALIASES = {"brown": "red", "white": "blue", "pink": "green", "turquoise": "yellow"}  # a test edition


def aliased(data):
    return dict(data, colour_aliases=dict(data["colour_aliases"], **ALIASES))


@pytest.mark.parametrize("card", ["generous", "demanding", "three-rails", "water-single", "mountain-single",
                                  "rhythm-321", "build-anywhere"])
def test_cards_that_leave_the_deal_alone(card):
    g, s, data = new(4)
    plain = deal(g, s, data)
    s = deal(g, s, data, special=card)
    assert s["hands"] == plain["hands"] and s["pending"] is None
    summary = g.summary(s)
    assert summary["special"] == {"id": card, "title": data["special_cards"][card]["title"]}
    assert summary["special_text"]


def test_rhythm_card_says_the_rails_of_each_lap():
    g, s, data = new(4)
    s = deal(g, s, data, special="rhythm-321")
    assert g.special_text(s).startswith("rails per turn by lap: lap 1: 3, lap 2: 2, lap 3: 1, lap 4: 3")


@pytest.mark.parametrize("card, named", [("return-white", "white"), ("return-turquoise", "turquoise")])
def test_return_a_named_colour(card, named):
    g, s, data = new(4)
    with pytest.raises(MissingValue) as caught:
        deal(g, s, data, special=card)
    assert caught.value.key == f"colour_aliases.{named}"
    data = aliased(data)
    colours = colour_of(data)
    s = deal(g, s, data, special=card)
    gone = ALIASES[named]
    for hand in s["hands"].values():
        assert len(hand) == 4 and gone not in {colours[c] for c in hand}
    assert len(s["leftover"][gone]) == 7
    assert gone in g.special_text(s)


def test_return_any_waits_for_each_player_s_choice():
    g, s, data = new(3)
    s = deal(g, s, data, special="return-any")
    assert g.waiting(s) == ["Ann", "Bob", "Cy"]
    ann = s["hands"]["Ann"][2]
    with pytest.raises(RuleError, match="not in Ann's hand"):
        g.apply(s, {"type": "hand-return", "player": "Ann", "city": s["hands"]["Bob"][0]}, data)
    s = g.apply(s, {"type": "hand-return", "player": "ann", "city": ann.upper()}, data)
    assert ann not in s["hands"]["Ann"] and len(s["hands"]["Ann"]) == 4
    with pytest.raises(RuleError, match="already"):
        g.apply(s, {"type": "hand-return", "player": "Ann", "city": s["hands"]["Ann"][0]}, data)
    with pytest.raises(RuleError, match="Bob, Cy must still put a city back"):
        g.apply(s, {"type": "round-end", "winners": ["Ann"], "missing": {"Bob": 1, "Cy": 1}}, data)
    for p in ("Cy", "Bob"):
        s = g.apply(s, {"type": "hand-return", "player": p, "city": s["hands"][p][0]}, data)
    assert g.waiting(s) == [] and all(len(h) == 4 for h in s["hands"].values())
    s = g.apply(s, {"type": "round-end", "winners": ["Ann"], "missing": {"Bob": 1, "Cy": 1}}, data)
    assert not s["round_open"]


@pytest.mark.parametrize("card, named", [("reveal-pink-orange", ("pink", "orange")),
                                         ("reveal-pink-brown", ("pink", "brown")),
                                         ("reveal-brown-orange", ("brown", "orange"))])
def test_reveal_two_named_colours(card, named):
    g, s, data = new(4)
    with pytest.raises(MissingValue):
        deal(g, s, data, special=card)
    data = aliased(data)
    colours = colour_of(data)
    s = deal(g, s, data, special=card)
    shown = {ALIASES.get(c, c) for c in named}
    revealed = g.summary(s)["revealed"]
    assert set(revealed) == {"Ann", "Bob", "Cy", "Dee"}
    for p, cities in revealed.items():
        assert {colours[c] for c in cities} == shown and set(cities) <= set(s["hands"][p])


def test_a_card_naming_one_board_colour_twice_is_refused():
    g, s, data = new(4)
    data = dict(data, colour_aliases=dict(data["colour_aliases"], pink="orange"))
    with pytest.raises(RuleError, match="both orange"):
        deal(g, s, data, special="reveal-pink-orange")


@pytest.mark.parametrize("card", ["pass-pink", "pass-brown", "pass-orange"])
def test_pass_a_colour_along_the_table(card):
    g, s, data = new(3)
    data = aliased(data)
    colours = colour_of(data)
    s = deal(g, s, data)
    s = g.apply(s, {"type": "round-end", "winners": ["Ann"], "missing": {"Bob": 1, "Cy": 1}}, data)
    s = deal(g, s, data, special=card)  # round 2: Bob starts
    colour = s["special_colours"][0]
    assert colour == ALIASES.get(card[5:], card[5:])
    assert len(s["hands"]["Bob"]) == 6 and len(s["leftover"][colour]) == 1
    assert g.waiting(s) == ["Bob"]
    assert "Bob passes one of their two" in g.pending_text(s)
    with pytest.raises(RuleError, match="It is Bob's turn"):
        g.apply(s, {"type": "pass", "player": "Cy", "city": s["hands"]["Cy"][0]}, data)
    other = next(c for c in s["hands"]["Bob"] if colours[c] != colour)
    with pytest.raises(RuleError, match=f"is not {colour}"):
        g.apply(s, {"type": "pass", "player": "Bob", "city": other}, data)
    for p, nxt in (("Bob", "Cy"), ("Cy", "Ann"), ("Ann", None)):
        two = [c for c in s["hands"][p] if colours[c] == colour]
        assert len(two) == 2
        s = g.apply(s, {"type": "pass", "player": p, "city": two[1]}, data)
        if nxt:
            assert two[1] in s["hands"][nxt]
    assert "puts" not in g.pending_text(s) and s["pending"] is None
    assert two[1] in s["leftover"][colour] and len(s["leftover"][colour]) == 2
    for hand in s["hands"].values():
        assert sorted(colours[c] for c in hand) == sorted(data["colours"])


def test_pass_three_cards_left_all_at_once():
    g, s, data = new(4)
    s = deal(g, s, data, special="pass-three")
    before = {p: list(h) for p, h in s["hands"].items()}
    given = {}
    for lap in (1, 2, 3):
        assert g.waiting(s) == ["Ann", "Bob", "Cy", "Dee"]
        assert g.pending_text(s).startswith(f"pass {lap} of 3")
        for p in ("Ann", "Bob", "Cy", "Dee"):
            city = s["hands"][p][-1] if lap == 1 else s["hands"][p][0]
            given.setdefault(p, []).append(city)
            s = g.apply(s, {"type": "pass", "player": p, "city": city}, data)
            if p == "Ann" and s["pending"]:
                with pytest.raises(RuleError, match="already chosen"):
                    g.apply(s, {"type": "pass", "player": "Ann", "city": s["hands"]["Ann"][1]}, data)
    assert s["pending"] is None
    assert Counter(c for h in s["hands"].values() for c in h) == Counter(c for h in before.values() for c in h)
    assert all(len(h) == 5 for h in s["hands"].values())
    assert given["Ann"][0] in s["hands"]["Bob"] or given["Ann"][0] in given["Bob"]
    with pytest.raises(RuleError, match="No passing is due"):
        g.apply(s, {"type": "pass", "player": "Ann", "city": s["hands"]["Ann"][0]}, data)


def test_swap_hands_gives_each_hand_to_the_left_neighbour():
    g, s, data = new(4)
    plain = deal(g, s, data)
    s = deal(g, s, data, special="swap-hands")
    assert s["hands"] == {"Bob": plain["hands"]["Ann"], "Cy": plain["hands"]["Bob"],
                          "Dee": plain["hands"]["Cy"], "Ann": plain["hands"]["Dee"]}


def test_unknown_special_card_refused():
    g, s, data = new(4)
    with pytest.raises(RuleError, match="no special card 'joker'.*generous"):
        make_round_start(s, data, SEED, "", "sess", special="joker")


def test_variant_draws_its_own_deck_and_reshuffles_when_used_up():
    # classic scoring with both players connecting every round: the game never ends
    g, s, data = new(2, variant="special-cards", scoring="classic")
    data = aliased(data)
    drawn, shuffles = [], 0
    for r in range(20):
        event = make_round_start(s, data, SEED, "", "sess")
        shuffles += "special_shuffle" in event
        if "special_shuffle" in event:
            assert dealing.check(event["special_shuffle"], SEED, "")
        s = g.apply(s, event, data)
        drawn.append(s["special"])
        summary = g.summary(s)
        assert summary["special"]["id"] == s["special"]
        assert summary["special_deck"]["size"] == 18 and summary["special_deck"]["one_per_variant"]
        for p in g.waiting(s):  # finish whatever the card asks before the round ends
            if s["pending"]["kind"] == "return":
                s = g.apply(s, {"type": "hand-return", "player": p, "city": s["hands"][p][0]}, data)
        while s["pending"]:
            p = g.waiting(s)[0]
            kind = s["pending"]["kind"]
            colour = s["pending"].get("colour")
            city = next(c for c in s["hands"][p] if kind == "pass-three" or colour_of(data)[c] == colour)
            s = g.apply(s, {"type": "pass", "player": p, "city": city}, data)
        s = g.apply(s, {"type": "round-end", "winners": ["Ann", "Bob"], "missing": {}}, data)
    assert sorted(drawn[:18]) == sorted(data["special_cards"])
    assert shuffles == 2


def test_a_drawn_card_must_be_the_deck_s_next():
    g, s, data = new(2, variant="special-cards")
    event = make_round_start(s, data, SEED, "", "sess")
    bad = copy.deepcopy(event)
    bad["special"] = next(c for c in bad["special_shuffle"]["order"] if c != event["special"])
    with pytest.raises(RuleError, match="next special card"):
        g.apply(s, bad, data)


def test_known_copies_build_the_full_deck():
    g, s, data = new(2, variant="special-cards")
    cards = {k: dict(v, copies=1) for k, v in data["special_cards"].items()}
    cards["three-rails"]["copies"] = 2
    data = dict(data, special_cards=cards)
    event = make_round_start(s, data, SEED, "", "sess")
    assert len(event["special_shuffle"]["deck"]) == 19
    assert event["special_shuffle"]["deck"].count("three-rails") == 2


def test_table_card_without_the_variant_and_no_card_otherwise():
    g, s, data = new(2)
    assert make_round_start(s, data, SEED, "", "sess")["special"] is None
    s = deal(g, s, data, special="build-anywhere")
    assert s["special"] == "build-anywhere"


# -- physical deals ----------------------------------------------------------------------------

def test_physical_round_takes_validated_hands_from_the_table():
    g, s, data = new(3)
    s = deal(g, s, data, physical=True)
    assert s["hands"] == {} and g.summary(s)["physical"] is True
    with pytest.raises(RuleError, match="not recorded"):
        g.hand_of(s, "Ann")
    ann = ["Portland", "Helena", "Omaha", "Dallas", "New York"]
    s = g.apply(s, {"type": "hand-set", "player": "Ann", "cities": ann}, data)
    assert g.hand_of(s, "Ann") == ann
    cases = [
        (["Portland", "Helena", "Omaha", "Dallas"], "5 cities"),
        (["Portland", "Medford", "Omaha", "Dallas", "Boston"], "both green"),
        (["Paris", "Helena", "Omaha", "Dallas", "New York"], "no city 'Paris'"),
        (["Sacramento", "Chicago", "Omaha", "Phoenix", "Winston"], "already recorded in another player's hand"),
        (["Sacramento", "Chicago", "Denver", "Phoenix", "Winston"], "dashed-border"),
    ]
    for cities, message in cases:
        with pytest.raises(RuleError, match=message):
            g.apply(s, {"type": "hand-set", "player": "Bob", "cities": cities}, data)
    with pytest.raises(RuleError, match="Did you mean Phoenix"):
        g.apply(s, {"type": "hand-set", "player": "Bob", "cities": ["Phenix"]}, data)
    s = g.apply(s, {"type": "hand-set", "player": "Ann", "cities": "portland,helena,omaha,el paso,new york"}, data)
    assert "El Paso" in g.hand_of(s, "Ann")
    with pytest.raises(RuleError, match="physical round"):
        g.apply(s, {"type": "pass", "player": "Ann", "city": "Helena"}, data)
    s = g.apply(s, {"type": "round-end", "winners": ["Cy"], "missing": {"Ann": 2, "Bob": 3}}, data)
    assert g.public_hands(s) == {"Ann": ["Portland", "Helena", "Omaha", "El Paso", "New York"]}


def test_physical_hand_follows_the_card():
    g, s, data = new(4, TransEuropa)
    data = aliased(data)
    s = deal(g, s, data, physical=True, special="return-white")  # white is blue here
    with pytest.raises(RuleError, match="4 cities"):
        g.apply(s, {"type": "hand-set", "player": "Ann",
                    "cities": ["Oslo", "Paris", "Kyiv", "Dublin", "Roma"]}, data)
    with pytest.raises(RuleError, match="leave Roma out"):
        g.apply(s, {"type": "hand-set", "player": "Ann", "cities": ["Oslo", "Paris", "Kyiv", "Roma"]}, data)
    s = g.apply(s, {"type": "hand-set", "player": "Ann", "cities": ["oslo", "zurich", "Kyiv", "Dublin"]}, data)
    assert g.hand_of(s, "Ann") == ["Oslo", "Zürich", "Kyiv", "Dublin"]


def test_hands_are_not_set_in_a_dealt_round():
    g, s, data = new(4)
    s = deal(g, s, data)
    with pytest.raises(RuleError, match="The app dealt this round"):
        g.apply(s, {"type": "hand-set", "player": "Ann", "cities": s["hands"]["Ann"]}, data)
    with pytest.raises(RuleError, match="No round is open"):
        g.apply(new(4)[1], {"type": "hand-set", "player": "Ann", "cities": []}, data)
