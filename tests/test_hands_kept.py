"""The counts of every hand are kept per board (issue 29): asked again, `rails MAP --all-hands`
answers from them; any change of what they depend on (a line's cost, the special card, the
cards in play) counts anew, and only a few boards are kept.
"""

from __future__ import annotations

import json

import pytest
from kept_support import emptied

from companion.games.trans import board as boards
from companion.games.trans import steiner


@pytest.fixture
def fresh():
    """Nothing kept when the test starts; what other tests of this process kept comes back after."""
    with emptied(steiner._hands_kept):
        yield


@pytest.fixture(scope="module")
def counted_once():
    """Amerika's two-player hands counted for real once for the file, with nothing kept before;
    the tests below start from what that count kept instead of counting the same board again."""
    saved = dict(steiner._hands_kept)
    steiner._hands_kept.clear()
    board = boards.load("trans-amerika")
    seen = []
    colours, costs = steiner.hand_costs(board, players=2, progress=lambda d, t: seen.append((d, t)))
    kept = dict(steiner._hands_kept)
    steiner._hands_kept.clear()
    steiner._hands_kept.update(saved)
    return board, colours, costs, kept, seen


@pytest.fixture
def amerika(fresh, counted_once):
    """Only Amerika's two-player counts kept when the test starts: its board and that first answer."""
    board, colours, costs, kept, _ = counted_once
    steiner._hands_kept.update(kept)
    return board, list(colours), dict(costs)


def test_a_board_asked_again_gets_the_same_counts_in_the_same_order_at_once(amerika, counted_once):
    board, first_colours, first = amerika
    assert len(counted_once[4]) > 1, "the first count reports its progress as it goes"
    seen = []
    again_colours, again = steiner.hand_costs(board, players=2, progress=lambda d, t: seen.append((d, t)))
    assert list(again.items()) == list(first.items())
    assert again_colours == first_colours
    assert seen == [(5 ** 5, 5 ** 5)], "a known answer reports every hand counted, once"
    assert len(steiner._hands_kept) == 1
    # what a caller does with its answer never changes the next one
    again.clear()
    assert steiner.hand_costs(board, players=2)[1] == first


def test_another_cost_of_a_line_is_counted_anew(amerika):
    board, _, usual = amerika
    # the same board with every double line single: a board rewritten with other values
    flat = board.replace(cost={e: 1 for e in board.cost})
    _, flat_costs = steiner.hand_costs(flat, players=2)
    assert flat_costs != usual
    assert sum(flat_costs.values()) < sum(usual.values())
    assert len(steiner._hands_kept) == 2
    assert steiner.hand_costs(board, players=2)[1] == usual


def test_other_cards_in_play_are_counted_anew(amerika):
    board, _, two = amerika
    # another city's card left out: same number of hands, other cities, other counts
    cities = [c for c in board.cities]
    swapped = []
    for colour in board.colours:
        mine = [c for c in cities if c.colour == colour]
        out = next(c for c in mine if c.dashed)
        kept_in = next(c for c in mine if not c.dashed)
        for c in mine:
            dashed = c is kept_in or (c.dashed and c is not out)
            swapped.append(boards.City(c.name, c.colour, c.node, dashed, c.abbr))
    other = board.replace(cities=swapped)
    other_colours, other_two = steiner.hand_costs(other, players=2)
    assert [[c.name for c in cs] for cs in other_colours] != [[c.name for c in cs]
                                                               for cs in board.hands_colours(2)]
    assert other_two != two and len(other_two) == len(two) == 5 ** 5
    assert len(steiner._hands_kept) == 2


def test_only_a_few_boards_are_kept(fresh):
    colours = [[boards.City("A", "red", 0, False, "A")]]
    for n in range(steiner._HANDS_KEPT + 5):
        steiner._keep_hands(("board", n), colours, {(0,): n})
    assert len(steiner._hands_kept) == steiner._HANDS_KEPT
    assert steiner._known_hands(("board", 0), colours) is None, "the oldest is forgotten"
    last = steiner._HANDS_KEPT + 4
    assert steiner._known_hands(("board", last), colours) == {(0,): last}
    # one read makes it the most recently used: it outlives the next ones
    steiner._known_hands(("board", 5), colours)
    steiner._keep_hands(("board", "new"), colours, {(0,): 0})
    assert steiner._known_hands(("board", 5), colours) == {(0,): 5}
    assert steiner._known_hands(("board", 6), colours) is None


def test_the_players_values_set_between_two_counts_are_used(run, fresh):
    def stats(*extra):
        result = run(["rails", "europa", "--all-hands", "--stats", "--players", "2", *extra, "--json"], expect=0)
        return json.loads(result.stdout)

    first = ["Glasgow", "Oslo", "Dublin", "Brest", "Paris", "Wien", "Kyiv", "Riga", "Roma", "Sofia"]
    run(["data", "set", "trans-europa", "dashed", json.dumps(first)], expect=0)
    before = stats()
    assert stats() == before
    assert not set(first) & {c for hand in before["easiest"] + before["hardest"] for c in hand}
    # another list of dashed cards, written over the first: the counts are of the new cards
    second = [n for n in first if n not in ("Glasgow", "Sofia")]
    board = boards.load("trans-europa")
    colour = {c.name: c.colour for c in board.cities}
    for gone in ("Glasgow", "Sofia"):
        second.append(next(c.name for c in board.cities if c.colour == colour[gone] and c.name not in first))
    run(["data", "set", "trans-europa", "dashed", json.dumps(second)], expect=0)
    after = stats()
    assert after["hands"] == before["hands"] == 5 ** 5
    assert not set(second) & {c for hand in after["easiest"] + after["hardest"] for c in hand}
    assert after != before
