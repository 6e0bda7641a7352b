"""Exact missing rails: the known 19-rail hand, brute force on boards cut from the real ones,
free built rails, double lines, and every hand of the empty board.

The TransAmerica board below is copied as literals from the cross-checked public encodings
(188 junctions, 509 lines, 109 double lines); the tests never read the reference folder.
"""

from __future__ import annotations

import itertools
import random

import pytest
from long_mode import LONG

from companion.core import datapack
from companion.games.trans import steiner
from companion.games.trans.board import Board
from companion.contract.errors import CompanionError, MissingValue, RuleError

AMERIKA_ROWS = [
    "oooooooooo----------",
    "oooooooooooo---oo---",
    "ooooooooooooo--ooo--",
    "-ooooooooooooooooo--",
    "-ooooooooooooooooo--",
    "--oooooooooooooooo--",
    "--oooooooooooooooo--",
    "---oooooooooooooooo-",
    "----oooooooooooooooo",
    "-----ooooooooooooooo",
    "------oooooooooooooo",
    "--------oooooooooooo",
    "-----------ooooooooo",
]
# every double line as 'x,y x,y', pairs separated by ';'
AMERIKA_DOUBLES = (
    "0,0 1,0;0,0 1,1;0,1 1,1;0,1 1,2;0,2 1,2;1,2 1,3;1,3 2,3;1,3 2,4;1,4 2,4;2,0 2,1;2,1 3,1;"
    "2,4 2,5;2,5 3,5;2,5 3,6;3,1 3,2;3,1 4,1;3,2 4,2;3,4 3,5;3,5 4,5;3,5 4,6;3,6 3,7;3,6 4,6;"
    "3,7 4,7;4,0 4,1;4,0 5,1;4,1 4,2;4,2 5,2;4,8 5,8;5,0 5,1;5,0 6,1;5,2 5,3;5,3 6,3;5,4 5,5;"
    "5,5 6,6;5,6 6,6;5,6 6,7;5,7 6,7;5,7 6,8;5,8 6,8;5,9 6,9;6,0 6,1;6,1 7,1;6,5 6,6;6,5 7,5;"
    "6,8 6,9;6,8 7,8;6,9 7,9;6,9 7,10;6,10 7,10;7,1 7,2;7,2 8,2;7,5 7,6;7,6 8,6;7,6 8,7;7,7 8,7;"
    "7,8 7,9;7,9 8,9;8,2 8,3;8,3 9,3;8,9 8,10;8,9 9,10;9,1 10,1;9,3 9,4;9,4 10,4;10,1 10,2;"
    "10,2 11,2;10,4 10,5;10,5 11,5;11,2 11,3;11,3 12,3;11,3 12,4;11,4 12,4;11,5 11,6;11,5 12,6;"
    "12,4 12,5;12,5 12,6;12,5 13,5;12,5 13,6;13,5 13,6;13,6 14,6;14,5 15,6;14,6 14,7;14,6 15,6;"
    "14,6 15,7;14,7 15,7;14,7 15,8;14,8 15,8;14,8 15,9;14,9 15,9;14,9 15,10;14,10 15,10;15,5 15,6;"
    "15,5 16,6;15,10 15,11;15,11 16,11;15,11 16,12;15,12 16,12;16,3 17,4;16,4 17,4;16,4 17,5;"
    "16,5 17,5;16,5 17,6;16,6 17,6;16,6 17,7;16,7 17,7;16,7 17,8;16,8 17,8;16,8 17,9;16,9 17,9"
)
# name, colour, x, y, dashed
AMERIKA_CITIES = [
    ('Bismarck', 'blue', 7, 1, False),
    ('Buffalo', 'blue', 15, 2, True),
    ('Chicago', 'blue', 13, 3, False),
    ('Cincinnati', 'blue', 15, 5, False),
    ('Duluth', 'blue', 10, 1, True),
    ('Helena', 'blue', 3, 1, False),
    ('Minneapolis', 'blue', 10, 2, False),
    ('Los Angeles', 'green', 5, 9, False),
    ('Medford', 'green', 1, 3, False),
    ('Portland', 'green', 0, 1, False),
    ('Sacramento', 'green', 2, 5, False),
    ('San Diego', 'green', 6, 10, True),
    ('San Francisco', 'green', 2, 6, False),
    ('Seattle', 'green', 0, 0, True),
    ('Boston', 'orange', 17, 2, True),
    ('Charleston', 'orange', 19, 10, False),
    ('Jacksonville', 'orange', 19, 12, False),
    ('New York', 'orange', 17, 4, False),
    ('Richmond', 'orange', 18, 7, True),
    ('Washington', 'orange', 17, 5, False),
    ('Winston', 'orange', 17, 8, False),
    ('Atlanta', 'red', 17, 10, True),
    ('Dallas', 'red', 13, 10, False),
    ('El Paso', 'red', 10, 11, False),
    ('Houston', 'red', 14, 12, True),
    ('Memphis', 'red', 15, 9, False),
    ('New Orleans', 'red', 16, 12, False),
    ('Phoenix', 'red', 7, 9, False),
    ('Denver', 'yellow', 7, 5, True),
    ('Kansas City', 'yellow', 11, 6, True),
    ('Oklahoma City', 'yellow', 11, 8, False),
    ('Omaha', 'yellow', 9, 4, False),
    ('Salt Lake City', 'yellow', 4, 4, False),
    ('Santa Fe', 'yellow', 8, 8, False),
    ('St. Louis', 'yellow', 13, 6, False),
]
COLOURS = ["green", "blue", "yellow", "red", "orange"]
KNOWN_HAND = ["San Diego", "Dallas", "St. Louis", "Cincinnati", "Washington"]


def doubles() -> list:
    return [[[int(n) for n in p.split(",")] for p in pair.split()] for pair in AMERIKA_DOUBLES.split(";")]


def amerika_values(double_kinds=None) -> dict:
    return {
        "board": {"rows": list(AMERIKA_ROWS), "double_edges": doubles(), "disputed_double_edges": []},
        "cities": [{"name": n, "colour": c, "xy": [x, y], "dashed": d} for n, c, x, y, d in AMERIKA_CITIES],
        "colours": COLOURS,
        "dashed": [n for n, c, x, y, d in AMERIKA_CITIES if d],
        "double_kinds": double_kinds,
    }


AMERIKA = Board.from_values(amerika_values(), "trans-amerika")


def window(x0: int, y0: int, w: int, h: int, double_kinds=None) -> Board:
    """A w x h piece of the real board, with its lines, doubles and cities, moved to (0, 0)."""
    values = amerika_values()
    rows = [row[x0:x0 + w] for row in values["board"]["rows"][y0:y0 + h]]
    inside = lambda p: x0 <= p[0] < x0 + w and y0 <= p[1] < y0 + h  # noqa: E731
    move = lambda p: [p[0] - x0, p[1] - y0]  # noqa: E731
    values["board"]["rows"] = rows
    values["board"]["double_edges"] = [[move(a), move(b)] for a, b in values["board"]["double_edges"]
                                       if inside(a) and inside(b)]
    values["cities"] = [dict(c, xy=move(c["xy"])) for c in values["cities"] if inside(c["xy"])]
    values["double_kinds"] = double_kinds
    return Board.from_values(values, "trans-amerika")


# -- independent checks -------------------------------------------------------------------
def joined(edges, required) -> bool:
    """Whether the lines join every required junction into one piece."""
    required = set(required)
    if len(required) <= 1:
        return True
    nbrs: dict[int, set[int]] = {}
    for a, b in edges:
        nbrs.setdefault(a, set()).add(b)
        nbrs.setdefault(b, set()).add(a)
    start = next(iter(required))
    seen, todo = {start}, [start]
    while todo:
        for n in nbrs.get(todo.pop(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return required <= seen


def brute_by_junctions(board, cost, required, built) -> int:
    """Minimum over every set of extra junctions of the spanning tree they induce with the
    required ones (an optimal tree is a minimum spanning tree of its own junctions)."""
    free = set(built)
    w = {e: (0 if e in free else c) for e, c in cost.items()}
    others = [v for v in range(len(board.xy)) if v not in required]
    best = None
    for r in range(len(others) + 1):
        # a tree over required + r junctions has that many lines less one, each costing 1
        # unless already built: no larger set of junctions can beat the best any more
        if best is not None and len(required) + r - 1 - len(free) > best:
            break
        for extra in itertools.combinations(others, r):
            nodes = set(required) | set(extra)
            parent = {v: v for v in nodes}

            def find(v):
                while parent[v] != v:
                    parent[v] = parent[parent[v]]
                    v = parent[v]
                return v

            total, parts = 0, len(nodes)
            for e in sorted((e for e in w if e[0] in nodes and e[1] in nodes), key=w.get):
                ra, rb = find(e[0]), find(e[1])
                if ra != rb:
                    parent[ra] = rb
                    total += w[e]
                    parts -= 1
            if parts == 1 and (best is None or total < best):
                best = total
    return best


def brute_by_lines(board, cost, required, built) -> int:
    """Every set of lines, fewest first, until no larger set can be cheaper."""
    free = set(built)
    lines = [e for e in cost if e not in free]
    best = None
    for r in range(len(lines) + 1):
        if best is not None and r > best:  # every line costs at least 1
            break
        for chosen in itertools.combinations(lines, r):
            if joined(list(chosen) + list(free), required):
                total = sum(cost[e] for e in chosen)
                if best is None or total < best:
                    best = total
    return best


def check_tree(board, tree, cities, network=(), built=(), single=()) -> None:
    """The rails returned cost what is claimed and really join everything."""
    cost = board.costs(single)
    assert sum(cost[e] for e in tree.edges) == tree.cost
    assert not set(tree.edges) & set(built)
    required = set(cities) | set(network)
    assert joined(list(tree.edges) + list(built), required)


# -- the known hand ---------------------------------------------------------------------------
def test_known_hand_needs_19_rails_on_the_empty_board():
    hand = [AMERIKA.city(n).node for n in KNOWN_HAND]
    tree = steiner.missing_rails(AMERIKA, KNOWN_HAND)
    assert tree.cost == 19
    check_tree(AMERIKA, tree, hand)


def test_shipped_pack_is_the_board_these_tests_copy():
    """The pack the app uses holds the same board as the literals here."""
    values = datapack.pack("trans-amerika")["values"]
    shipped = Board.from_values(values, "trans-amerika")
    assert shipped.rows == AMERIKA.rows
    assert shipped.cost == AMERIKA.cost
    assert {(c.name, c.colour, c.node, c.dashed) for c in shipped.cities} == {
        (c.name, c.colour, c.node, c.dashed) for c in AMERIKA.cities
    }
    assert steiner.missing_rails(shipped, KNOWN_HAND).cost == 19


def test_a_single_city_or_none_needs_nothing():
    assert steiner.missing_rails(AMERIKA, ["Dallas"]).cost == 0
    assert steiner.missing_rails(AMERIKA, []).cost == 0


def test_cities_given_as_names_junctions_or_coordinates_agree():
    by_name = steiner.missing_rails(AMERIKA, ["Seattle", "Helena"])
    by_node = steiner.missing_rails(AMERIKA, [AMERIKA.junction("Seattle"), AMERIKA.junction("Helena")])
    by_coord = steiner.missing_rails(AMERIKA, [AMERIKA.coord[AMERIKA.junction("Seattle")], "Helena"])
    assert by_name.cost == by_node.cost == by_coord.cost


# -- brute force on pieces of the real board --------------------------------------------------
def random_case(seed: int, w: int, h: int):
    """A piece of the board with junctions in most places, some terminals, rails and a network."""
    rng = random.Random(seed)
    while True:
        x0, y0 = rng.randrange(0, 20 - w + 1), rng.randrange(0, 13 - h + 1)
        try:
            board = window(x0, y0, w, h)
        except CompanionError:  # a piece of sea: no junctions at all
            continue
        if len(board.xy) >= w * h - 2 and any(c == 2 for c in board.cost.values()):
            break
    nodes = list(range(len(board.xy)))
    cities = rng.sample(nodes, rng.randint(2, 4))
    built = rng.sample(sorted(board.cost), rng.randint(0, 4))
    network = ()
    if rng.random() < 0.6:
        network = board.network(rng.choice(nodes), built)
    return board, cities, network, built


@pytest.mark.parametrize("seed", range(12))
def test_pieces_4x4_agree_with_brute_force_over_junction_sets(seed):
    board, cities, network, built = random_case(seed, 4, 4)
    tree = steiner.missing_rails(board, cities, network, built)
    required = set(cities) | set(network)
    assert tree.cost == brute_by_junctions(board, board.costs(), required, built)
    check_tree(board, tree, cities, network, built)


@pytest.mark.parametrize("seed", range(100, 110))
def test_pieces_3x3_agree_with_brute_force_over_line_sets(seed):
    board, cities, network, built = random_case(seed, 3, 3)
    tree = steiner.missing_rails(board, cities, network, built)
    required = set(cities) | set(network)
    assert tree.cost == brute_by_lines(board, board.costs(), required, built)
    check_tree(board, tree, cities, network, built)


def test_five_cities_and_a_network_on_a_5x5_piece_agree_with_brute_force():
    board = window(12, 4, 5, 5)  # around Chicago, St. Louis and Cincinnati, with double lines
    rng = random.Random(7)
    cities = rng.sample(range(len(board.xy)), 5)
    start = next(v for v in range(len(board.xy)) if v not in cities)
    built = [e for e in sorted(board.cost) if start in e][:2]
    network = board.network(start, built)
    tree = steiner.missing_rails(board, cities, network, built)
    assert tree.cost == brute_by_junctions(board, board.costs(), set(cities) | network, built)
    check_tree(board, tree, cities, network, built)


# -- built rails are free ---------------------------------------------------------------------
def test_rails_already_built_cost_nothing():
    tree = steiner.missing_rails(AMERIKA, KNOWN_HAND)
    assert steiner.missing_rails(AMERIKA, KNOWN_HAND, built=tree.edges).cost == 0
    # any part of an optimal route, built by anyone, saves exactly what it cost
    part = tree.edges[:7]
    saved = sum(AMERIKA.cost[e] for e in part)
    rest = steiner.missing_rails(AMERIKA, KNOWN_HAND, built=part)
    assert rest.cost == 19 - saved
    check_tree(AMERIKA, rest, [AMERIKA.junction(n) for n in KNOWN_HAND], built=part)


def test_the_network_counts_as_one_terminal():
    dallas = AMERIKA.junction("Dallas")
    route = steiner.missing_rails(AMERIKA, ["Dallas", "Memphis"])
    # the network holds Memphis already: only Dallas is left to join
    network = AMERIKA.network(AMERIKA.junction("Memphis"), route.edges)
    assert dallas in network
    assert steiner.missing_rails(AMERIKA, ["Dallas", "Memphis"], network, route.edges).cost == 0
    # a start marker with no rails yet: the marker is a terminal like the cities
    marker = [AMERIKA.junction("Memphis")]
    assert steiner.missing_rails(AMERIKA, ["Dallas"], marker).cost == route.cost


def test_rails_of_another_network_are_shared():
    far = steiner.missing_rails(AMERIKA, ["Seattle", "Jacksonville"])
    theirs = far.edges[2:-2]  # someone else's rails across the middle of the map
    mine = steiner.missing_rails(AMERIKA, ["Seattle", "Jacksonville"], built=theirs)
    assert mine.cost == far.cost - sum(AMERIKA.cost[e] for e in theirs)


# -- double lines --------------------------------------------------------------------------------
def tiny(double_kinds=None) -> Board:
    """Two cities joined only by one double line."""
    return Board.from_values({
        "board": {"rows": ["oo"], "double_edges": [[[0, 0], [1, 0]]], "disputed_double_edges": []},
        "cities": [{"name": "West", "colour": "red", "xy": [0, 0], "dashed": False},
                   {"name": "East", "colour": "blue", "xy": [1, 0], "dashed": False}],
        "colours": ["red", "blue"],
        "double_kinds": double_kinds,
    }, "trans-amerika")


def test_a_double_line_costs_2_and_1_under_its_card():
    kinds = {"water": [[[0, 0], [1, 0]]], "mountain": []}
    assert steiner.missing_rails(tiny(), ["West", "East"]).cost == 2
    assert steiner.missing_rails(tiny(kinds), ["West", "East"], single=["water"]).cost == 1
    assert steiner.missing_rails(tiny(kinds), ["West", "East"], single=["mountain"]).cost == 2
    assert steiner.missing_rails(tiny(kinds), ["West", "East"], single=["water", "mountain"]).cost == 1


def test_the_single_cards_need_double_kinds_and_say_how_to_supply_it():
    with pytest.raises(MissingValue) as err:
        steiner.missing_rails(AMERIKA, KNOWN_HAND, single=["water"])
    assert "data set trans-amerika double_kinds" in str(err.value)
    half = Board.from_values(amerika_values({"water": []}), "trans-amerika")
    with pytest.raises(MissingValue) as err:
        steiner.missing_rails(half, KNOWN_HAND, single=["mountain"])
    assert "data set trans-amerika double_kinds.mountain" in str(err.value)


def test_double_kinds_must_name_double_lines():
    single_line = [[[0, 0], [0, 1]]]  # Seattle-Portland is a single line
    board = Board.from_values(amerika_values({"water": single_line}), "trans-amerika")
    with pytest.raises(RuleError, match="single line"):
        steiner.missing_rails(board, KNOWN_HAND, single=["water"])
    board = Board.from_values(amerika_values({"water": [[[0, 0], [5, 5]]]}), "trans-amerika")
    with pytest.raises(RuleError, match="not a line"):
        steiner.missing_rails(board, KNOWN_HAND, single=["water"])


def test_on_the_real_board_the_single_card_can_only_lower_the_count():
    every_double = [[list(AMERIKA.xy[a]), list(AMERIKA.xy[b])] for (a, b), c in AMERIKA.cost.items() if c == 2]
    board = Board.from_values(amerika_values({"water": every_double, "mountain": []}), "trans-amerika")
    hand = ["Seattle", "Helena", "Salt Lake City", "Phoenix", "New York"]
    usual = steiner.missing_rails(board, hand).cost
    single = steiner.missing_rails(board, hand, single=["water"])
    assert single.cost < usual
    # with every double counted single, the board plays as one without double lines
    flat = amerika_values()
    flat["board"]["double_edges"] = []
    flat_board = Board.from_values(flat, "trans-amerika")
    assert single.cost == steiner.missing_rails(flat_board, hand).cost == len(single.edges)


# -- every hand ---------------------------------------------------------------------------------
@pytest.mark.skipif(not LONG, reason="the full board's 16,807 hands are counted once by default: "
                    "tests/test_rails_cli.py::test_all_hands_stats checks the same figures")
def test_all_hands_on_the_empty_board():
    stats = steiner.all_hands(AMERIKA)
    assert stats.hands == 7 ** 5
    assert stats.minimum == 19 and stats.easiest_count == 1
    assert set(stats.easiest[0]) == set(KNOWN_HAND)
    assert sum(stats.histogram.values()) == stats.hands
    assert stats.minimum <= stats.mean <= stats.maximum
    assert stats.stdev > 0


def test_all_hands_agree_with_one_hand_at_a_time():
    # every card in the long run; by default the three players' 3,125 hands (the same solver,
    # and the counts the next test reads again)
    by_colour, costs = steiner.hand_costs(AMERIKA, players=None if LONG else 3)
    rng = random.Random(3)
    for hand in rng.sample(sorted(costs), 25):
        cities = [by_colour[i][j] for i, j in enumerate(hand)]
        assert steiner.missing_rails(AMERIKA, cities).cost == costs[hand]


def test_two_or_three_players_leave_the_dashed_cards_out():
    stats = steiner.all_hands(AMERIKA, players=3)
    assert stats.hands == 5 ** 5
    dashed = {n for n, c, x, y, d in AMERIKA_CITIES if d}
    assert not dashed & {name for hand in stats.easiest + stats.hardest for name in hand}
    assert stats.minimum > 19  # the 19-rail hand holds San Diego, a dashed card


def test_unknown_dashed_cards_are_asked_for():
    values = amerika_values()
    values["cities"] = [dict(c, dashed=None) for c in values["cities"]]
    values["dashed"] = None
    board = Board.from_values(values, "trans-europa")
    with pytest.raises(MissingValue, match="data set trans-europa dashed"):
        steiner.all_hands(board, players=2)
    # once the players have typed the list, it is used
    values["dashed"] = [n for n, c, x, y, d in AMERIKA_CITIES if d]
    board = Board.from_values(values, "trans-europa")
    assert steiner.all_hands(board, players=2).hands == 5 ** 5


def test_progress_is_reported_up_to_every_hand():
    seen = []
    steiner.hand_costs(AMERIKA, players=2, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (5 ** 5, 5 ** 5)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
