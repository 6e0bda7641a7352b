"""Special cards, one or several at once: which cards exist, which cannot be played together,
which are in force, and how the digital deck turns over several.

Seed 000 ends its special-card section with "It is also possible, and quite interesting, to play
with several special cards at the same time." It does not say how two cards combine, so this
module holds what was decided from each card's own text (docs/trans.md lists the same table):

- The effects apply in the order the rulebook lists the cards (``SPECIAL_IDS``): a city
  returned before cities are shown, shown before they are passed, passed before the hands go
  left. Cards that change different things (the chart, the rails a turn, which doubles count 1,
  where rails may go, the hands) simply all hold.
- Two cards cannot be played together when both rule the same thing (the one prestige chart,
  the rails a turn, the 4 cities each return card leaves), or when one may take away what the
  other needs (return-any may take the very city a reveal or pass card asks for). ``CLASHES``
  names every such pair with its reason; every other pair combines.
- With the digital deck, a card that cannot join those already turned over this round (or a
  second copy of one) is set aside and the next card is turned over, as a table would do. It
  stays out until the deck is reshuffled, so the draw is decided by the recorded shuffle alone
  and `verify` re-derives it. The fewest cards that leave nothing else playable are 8 (a chart,
  a rails card, return-any, both doubles cards, pass-three, swap-hands, build-anywhere), so a
  full deck always gives up to ``MAX_PER_ROUND`` = 8 cards that go together.

Kept apart from :mod:`~companion.games.trans.rules` so the track can ask what is in force
without importing the deals.
"""

from __future__ import annotations

from typing import Iterable

from companion.contract.language import N_

# The combined edition's colours the cards name; resolved per board by the rules.
RETURN_COLOUR = ("return-white", "return-turquoise")
REVEAL = ("reveal-pink-orange", "reveal-pink-brown", "reveal-brown-orange")
PASS_COLOUR = ("pass-pink", "pass-brown", "pass-orange")
# In the rulebook's order: the order the effects apply in.
SPECIAL_IDS = (
    "generous", "demanding", "three-rails", "water-single", "mountain-single",
    *RETURN_COLOUR, "return-any", "rhythm-321", *REVEAL, *PASS_COLOUR,
    "pass-three", "swap-hands", "build-anywhere",
)
FOUR_CITIES = (*RETURN_COLOUR, "return-any")
SINGLE_CARDS = {"water-single": "water", "mountain-single": "mountain"}  # card -> doubles that count 1
DEAL_EFFECTS = (*RETURN_COLOUR, "return-any", *REVEAL, *PASS_COLOUR, "pass-three", "swap-hands")
MOVES_HANDS = (*PASS_COLOUR, "pass-three", "swap-hands")  # cards after which a shown city may change hands
MAX_PER_ROUND = 8  # see the module's docstring: a full deck always gives this many that combine

FOUR_LINE = "everyone plays this round with only 4 city cards"
# why two cards cannot be played together, quoting seed 000 (translated where said: rules.check_specials)
_CHART = N_("both cover the same prestige chart (\"Cover the prestige point chart ... with this card\")")
_RAILS = N_("both say how many rails a turn allows (\"up to 3 rails (instead of up to 2)\" against \"up to 3, "
            "... up to 2, ... at most 1\" by lap)")
_FOUR = N_("each leaves every player 4 cities (\"everyone plays this round with only 4 city cards\"): together "
           "they would leave 3")
_REVEAL = N_("return-any may put back the very city the reveal card shows (\"Each player reveals their ... city "
             "card\")")
_PASS = N_("return-any may leave a player without the city the pass card asks for (\"pass one of their two "
           "same-colored cards\")")


def _pairs() -> dict[frozenset[str], str]:
    pairs = {frozenset(("generous", "demanding")): _CHART,
             frozenset(("three-rails", "rhythm-321")): _RAILS}
    for i, a in enumerate(FOUR_CITIES):
        for b in FOUR_CITIES[i + 1:]:
            pairs[frozenset((a, b))] = _FOUR
    for card in REVEAL:
        pairs[frozenset(("return-any", card))] = _REVEAL
    for card in PASS_COLOUR:
        pairs[frozenset(("return-any", card))] = _PASS
    return pairs


CLASHES = _pairs()  # every pair of cards that cannot be played together -> why, from their text


def clash(a: str, b: str) -> str | None:
    """Why cards ``a`` and ``b`` cannot be played together, or None when they combine."""
    return CLASHES.get(frozenset((a, b)))


def first_clash(cards: Iterable[str]) -> tuple[str, str, str] | None:
    """The first pair (in the rulebook's order) of ``cards`` that cannot be played together."""
    ordered = in_rulebook_order(cards)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            why = clash(a, b)
            if why:
                return a, b, why
    return None


def joins(card: str, taken: Iterable[str]) -> bool:
    """Whether ``card`` can join the cards ``taken`` this round: a new card that clashes with none."""
    taken = list(taken)
    return card not in taken and not any(clash(card, t) for t in taken)


def in_rulebook_order(cards: Iterable[str]) -> list[str]:
    rank = {sid: i for i, sid in enumerate(SPECIAL_IDS)}
    return sorted(cards, key=lambda c: rank.get(c, len(rank)))


def in_force(state: dict) -> list[str]:
    """The special cards of the round, in the rulebook's order ([] without any).

    States replayed before several cards existed only know ``special``."""
    cards = state.get("specials")
    if cards is None:
        return [state["special"]] if state.get("special") else []
    return list(cards)


def single_kinds(state: dict) -> list[str]:
    """The kinds of double line that count as single under the cards in force."""
    return [kind for card, kind in SINGLE_CARDS.items() if card in in_force(state)]


def draw(rest: list[str], fresh: list[str] | None, count: int) -> dict:
    """Turn over ``count`` cards that go together: first the ``rest`` of the deck, then, once it
    is used up, the ``fresh`` shuffle (the whole deck again).

    A card already turned over this round, or one that cannot be played with those, is set
    aside. Returns the cards ``taken`` (in the order turned over), those ``set_aside``, whether
    the ``fresh`` shuffle was ``needed`` (even if None was given), how many of it were used
    (``next``), and ``short`` when even a whole fresh deck could not complete the draw.
    """
    taken: list[str] = []
    aside: list[str] = []
    cards = list(rest)
    needed = False
    used_fresh = 0
    i = 0
    while len(taken) < count:
        if i == len(cards):
            if needed or fresh is None:
                return {"taken": taken, "set_aside": aside, "needed": True, "next": used_fresh,
                        "short": needed}
            needed = True
            cards += list(fresh)
        card = cards[i]
        i += 1
        if needed:
            used_fresh += 1
        (taken if joins(card, taken) else aside).append(card)
    return {"taken": taken, "set_aside": aside, "needed": needed, "next": used_fresh, "short": False}
