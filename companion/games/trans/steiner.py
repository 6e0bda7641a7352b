"""Missing rails, exactly: minimum Steiner trees on a Trans board.

A player's missing rails are the fewest rails that would join all their cities to their
network, where rails already on the board are free (any network touched is shared) and a
double line costs 2. That is a minimum Steiner tree with at most 5 cities plus the network as
one terminal, and with so few terminals it can be computed exactly: Dreyfus-Wagner (in the
Erickson-Monma-Veinott form, a shortest-path relaxation per terminal subset) instead of the
heuristics public implementations use, which overcount and start table arguments.

Two entry points:

* :func:`missing_rails` - one player, any board state: the cost and one optimal set of rails.
  Built rails are contracted away first (their junctions become one), so every remaining line
  costs at least 1 and the optimal tree can be read back from the tables without pointers.
* :func:`all_hands` - every hand of the empty board at once. Hands share their sub-hands, so
  the subset tables are keyed by *cities* and computed once for all 16,807 hands; the largest
  subsets never need a relaxation because all-pairs distances (one search per junction, once
  per board) give the last step directly.

Pure Python on purpose: boards have ~200 junctions, and lists combined with ``map`` keep the
inner loops in C (see benchmarks/bench_steiner.py for the figures).
"""

from __future__ import annotations

from array import array
import math
from dataclasses import dataclass, field
from itertools import product
from operator import add
import threading
from typing import Callable, Iterable, Sequence

from companion.games.trans.board import Board, City, Edge

INF = 10**9


@dataclass(frozen=True)
class Tree:
    """One player's missing rails: the count and one optimal set of lines to build."""

    cost: int
    edges: tuple[Edge, ...]  # lines still to build, as board junction pairs (built ones excluded)


# -- shortest paths ------------------------------------------------------------------------
def _search(adj: list[list[tuple[int, int]]], dist: list[int]) -> list[int]:
    """Dijkstra from every junction at once, each starting at ``dist[v]`` (INF = not a start).

    ``dist`` is changed in place and returned. Lines cost 1 or 2 (never 0 here: free rails are
    contracted away before), so a bucket queue indexed by distance replaces a heap.
    """
    buckets: list[list[int]] = []
    for v, d in enumerate(dist):
        if d < INF:
            while len(buckets) <= d:
                buckets.append([])
            buckets[d].append(v)
    d = 0
    while d < len(buckets):
        for v in buckets[d]:
            if dist[v] != d:
                continue
            for u, w in adj[v]:
                nd = d + w
                if nd < dist[u]:
                    dist[u] = nd
                    while len(buckets) <= nd:
                        buckets.append([])
                    buckets[nd].append(u)
        d += 1
    return dist


def _from(adj: list[list[tuple[int, int]]], source: int) -> list[int]:
    dist = [INF] * len(adj)
    dist[source] = 0
    return _search(adj, dist)


# -- one player ----------------------------------------------------------------------------
@dataclass
class _Graph:
    """The board with free rails contracted: each group of junctions joined by built rails
    (and the player's whole network) is one node; parallel lines keep the cheapest."""

    comp: list[int]  # board junction -> node
    adj: list[list[tuple[int, int]]]  # node -> [(node, cost)]
    line: dict[tuple[int, int], Edge]  # (node, node) -> the board line it stands for


def _contract(board: Board, cost: dict[Edge, int], built: Iterable[Edge], network: Iterable[int]) -> _Graph:
    parent = list(range(len(board.xy)))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def union(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra

    free = set()
    for a, b in built:
        e = (a, b) if a < b else (b, a)
        free.add(e)
        union(a, b)
    net = list(network)
    for n in net[1:]:
        union(net[0], n)
    ids: dict[int, int] = {}
    comp = [ids.setdefault(find(v), len(ids)) for v in range(len(board.xy))]
    best: dict[tuple[int, int], tuple[int, Edge]] = {}
    for e, w in cost.items():
        if e in free:
            continue
        a, b = comp[e[0]], comp[e[1]]
        if a == b:
            continue
        key = (a, b) if a < b else (b, a)
        if key not in best or w < best[key][0]:
            best[key] = (w, e)
    adj: list[list[tuple[int, int]]] = [[] for _ in ids]
    line: dict[tuple[int, int], Edge] = {}
    for (a, b), (w, e) in best.items():
        adj[a].append((b, w))
        adj[b].append((a, w))
        line[(a, b)] = line[(b, a)] = e
    return _Graph(comp, adj, line)


def _splits(S: int) -> list[int]:
    """The proper subsets A of S holding S's lowest terminal (each split {A, S-A} once)."""
    low = S & -S
    rest = S ^ low
    out = []
    sub = rest
    while True:
        if sub != rest:
            out.append(sub | low)
        if sub == 0:
            break
        sub = (sub - 1) & rest
    return out


def steiner(adj: list[list[tuple[int, int]]], terminals: Sequence[int], root: int):
    """Exact minimum Steiner tree joining ``terminals`` and ``root`` (Dreyfus-Wagner, EMV form).

    Returns ``(cost, tables)``; ``tables`` lets :func:`_read_tree` recover one optimal tree.
    ``dp[S][v]`` is the cheapest tree joining the terminals in S and the node v.
    """
    k = len(terminals)
    full = (1 << k) - 1
    to_root = _from(adj, root)
    if k == 0:
        return 0, (to_root, {}, None)
    dp: dict[int, list[int]] = {}
    for i, t in enumerate(terminals):
        dp[1 << i] = _from(adj, t)
    if k == 1:
        return to_root[terminals[0]], (to_root, dp, None)
    last_g = None
    for S in range(3, full + 1):
        if S & (S - 1) == 0:
            continue
        g = None
        for A in _splits(S):
            pair = map(add, dp[A], dp[S ^ A])
            g = list(pair) if g is None else list(map(min, g, pair))
        if S == full:
            last_g = g
        else:
            dp[S] = _search(adj, g)
    cost = min(map(add, last_g, to_root))
    return cost, (to_root, dp, last_g)


def _read_tree(adj, terminals, root, tables) -> set[tuple[int, int]]:
    """One optimal tree's node pairs, re-derived from the tables (no pointers were stored)."""
    to_root, dp, last_g = tables
    k = len(terminals)
    full = (1 << k) - 1
    out: set[tuple[int, int]] = set()

    def walk(dist: list[int], v: int) -> None:
        # down the distances of one search to its source (distance 0)
        while dist[v] > 0:
            for u, w in adj[v]:
                if dist[u] + w == dist[v]:
                    out.add((u, v))
                    v = u
                    break

    def grow(S: int, v: int) -> None:
        while True:
            if S & (S - 1) == 0:
                walk(dp[S], v)
                return
            val = dp[S][v]
            for A in _splits(S):
                if dp[A][v] + dp[S ^ A][v] == val:
                    grow(A, v)
                    grow(S ^ A, v)
                    return
            for u, w in adj[v]:
                if dp[S][u] + w == val:
                    out.add((u, v))
                    v = u
                    break

    if k == 0:
        return out
    if k == 1:
        walk(dp[1], root)
        return out
    # the root's leg: from the cheapest meeting point v down to the root, then split at v
    v = min(range(len(adj)), key=lambda n: last_g[n] + to_root[n])
    walk(to_root, v)
    for A in _splits(full):
        if dp[A][v] + dp[full ^ A][v] == last_g[v]:
            grow(A, v)
            grow(full ^ A, v)
            break
    return out


def missing_rails(
    board: Board,
    cities: Iterable[int | str | City],
    network: Iterable[int] = (),
    built: Iterable[Edge] = (),
    single: Iterable[str] = (),
    disputed: int = 2,
) -> Tree:
    """The fewest rails joining ``cities`` to ``network`` (junctions), built lines free.

    Without a network (no start marker yet, or a hand on the empty board) the cities only
    have to be joined to each other. ``single`` names the double lines that count 1 under a
    special card (``water``, ``mountain``); it needs the players' ``double_kinds`` and raises
    MissingValue naming the `data set` command otherwise. ``disputed`` is the cost of the
    double lines the public encodings disagree on (Europa has two).
    """
    built = list(built)
    network = list(network)
    nodes = [_node(board, c) for c in cities]
    single = tuple(sorted(single))
    key = (id(board), tuple(nodes), tuple(network), tuple(sorted(built)), single, disputed)
    kept = _ANSWERS.get(key)
    if kept is not None and kept[0] is board:
        return kept[1]
    tree = _missing(board, nodes, network, built, single, disputed)
    with _ANSWERS_LOCK:  # the pages are drawn in worker threads
        _ANSWERS[key] = (board, tree)
        while len(_ANSWERS) > ANSWERS_KEPT:
            _ANSWERS.pop(next(iter(_ANSWERS)))
    return tree


# The last answers (issue 31: every phone's page says each player's missing rails, and a page is
# drawn again after every move anywhere, most of which leave a player's network and hand as they
# were): keyed on everything the answer depends on; the board kept with it, so that its id is its own.
ANSWERS_KEPT = 256
_ANSWERS: dict[tuple, tuple[Board, Tree]] = {}
_ANSWERS_LOCK = threading.Lock()


def _missing(board: Board, nodes: list[int], network: list[int], built: list[Edge], single, disputed: int) -> Tree:
    cost = board.costs(single, disputed)
    g = _contract(board, cost, built, network)
    if network:
        root = g.comp[network[0]]
    elif nodes:
        root = g.comp[nodes[-1]]
    else:
        return Tree(0, ())
    terminals = sorted({g.comp[n] for n in nodes} - {root})
    total, tables = steiner(g.adj, terminals, root)
    if total >= INF:
        raise ValueError("the board is not connected")  # never on a real board
    pairs = _read_tree(g.adj, terminals, root, tables)
    edges = tuple(sorted({g.line[p] for p in pairs}))
    return Tree(total, edges)


def _node(board: Board, city: int | str | City) -> int:
    if isinstance(city, City):
        return city.node
    if isinstance(city, int):
        return city
    return board.junction(city)


# -- every hand ----------------------------------------------------------------------------
@dataclass
class HandStats:
    """Missing rails over every hand of the empty board (one city per colour)."""

    hands: int
    mean: float
    stdev: float  # of the whole population of hands
    minimum: int
    maximum: int
    easiest: list[tuple[str, ...]]  # hands needing the minimum (city names, colour order)
    hardest: list[tuple[str, ...]]
    easiest_count: int
    hardest_count: int
    histogram: dict[int, int] = field(default_factory=dict)  # rails -> number of hands


def all_pairs(adj: list[list[tuple[int, int]]]) -> list[list[int]]:
    """Distances between every two junctions: one bucket search per junction."""
    return [_from(adj, s) for s in range(len(adj))]


def hand_costs(
    board: Board,
    players: int | None = None,
    single: Iterable[str] = (),
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[list[City]], dict[tuple[int, ...], int]]:
    """The empty-board minimum of every hand, keyed by the index of each colour's city.

    Subset tables are keyed by cities, not by hand, so the 8^4 city subsets of the first four
    colours are relaxed once and shared by every hand containing them; the full four-city
    subset is only merged, and its last step to each fifth-colour city is an all-pairs lookup.
    """
    by_colour = board.hands_colours(players)
    cost = board.costs(single)
    key = _hands_key(board, cost, by_colour)
    kept = _known_hands(key, by_colour)
    if kept is not None:
        if progress is not None and kept:
            progress(len(kept), len(kept))  # known: every hand counted at once
        return by_colour, kept
    g = _contract(board, cost, (), ())
    adj = g.adj
    dist = all_pairs(adj)
    head, last = by_colour[:-1], by_colour[-1]
    last_rows = [dist[g.comp[c.node]] for c in last]
    m = len(head)

    # a subset = a tuple with, per head colour, a city index or -1 (colour not in it)
    tables: dict[tuple[int, ...], list[int]] = {}
    total = math.prod(len(cs) for cs in by_colour)
    done = 0
    out: dict[tuple[int, ...], int] = {}

    def merged(sub: tuple[int, ...]) -> list[int]:
        members = [i for i in range(m) if sub[i] >= 0]
        first, others = members[0], members[1:]
        pairs = []
        # every split {A, S-A} once: A holds the first member and a proper part of the others
        for mask in range((1 << len(others)) - 1):
            a = [-1] * m
            a[first] = sub[first]
            b = list(sub)
            b[first] = -1
            for j, i in enumerate(others):
                if mask >> j & 1:
                    a[i] = sub[i]
                    b[i] = -1
            pairs.append(map(add, tables[tuple(a)], tables[tuple(b)]))
        # the least of every split at once, node by node (one pass, not one list per split:
        # issue 29, a third less CPU for every hand counted)
        return list(pairs[0]) if len(pairs) == 1 else list(map(min, *pairs))

    # subsets in order of size, so every part a split needs already exists
    choices = [range(-1, len(cs)) for cs in head]
    subsets = sorted(product(*choices), key=lambda s: sum(1 for i in s if i >= 0))
    for sub in subsets:
        size = sum(1 for i in sub if i >= 0)
        if size == 0:
            continue
        if size == 1:
            i = next(i for i in range(m) if sub[i] >= 0)
            tables[sub] = dist[g.comp[head[i][sub[i]].node]]
            continue
        gsub = merged(sub)
        if size < m:
            tables[sub] = _search(adj, gsub)
            continue
        for j, row in enumerate(last_rows):
            out[sub + (j,)] = min(map(add, gsub, row))
        done += len(last_rows)
        if progress is not None:
            progress(done, total)
    _keep_hands(key, by_colour, out)
    return by_colour, out


# -- the counts of every hand, kept ----------------------------------------------------------
# A board's all-hands counts depend only on its lines' costs (the special card's kinds laid
# over them) and on the junctions of each colour's cities (the players decide which cards are
# in): the key below is exactly those, so a board rewritten by `data set` with other values is
# a new key, never a stale answer. A shell or a server asked again answers at once instead of
# relaxing 16,807 hands anew. Each entry keeps only the counts, in the order of the hands
# (about 34 KB for Amerika), and a few boards are kept.
_HANDS_KEPT = 16
_hands_kept: dict[tuple, array] = {}
_hands_lock = threading.Lock()


def _hands_key(board: Board, cost: dict[Edge, int], by_colour: list[list[City]]) -> tuple:
    return (len(board.xy), tuple(sorted(cost.items())), tuple(tuple(c.node for c in cs) for cs in by_colour))


def _hand_order(by_colour: list[list[City]]):
    """Every hand as indices of each colour's city, in the order hand_costs finds them."""
    return product(*(range(len(cs)) for cs in by_colour))


def _keep_hands(key: tuple, by_colour: list[list[City]], out: dict[tuple[int, ...], int]) -> None:
    values = array("L", (out[h] for h in _hand_order(by_colour)))
    with _hands_lock:
        _hands_kept.pop(key, None)
        _hands_kept[key] = values
        while len(_hands_kept) > _HANDS_KEPT:
            del _hands_kept[next(iter(_hands_kept))]  # the least recently used


def _known_hands(key: tuple, by_colour: list[list[City]]) -> dict[tuple[int, ...], int] | None:
    with _hands_lock:
        values = _hands_kept.pop(key, None)
        if values is None:
            return None
        _hands_kept[key] = values  # now the most recently used
    return dict(zip(_hand_order(by_colour), values))


def all_hands(
    board: Board,
    players: int | None = None,
    single: Iterable[str] = (),
    progress: Callable[[int, int], None] | None = None,
    show: int = 3,
) -> HandStats:
    """Statistics of the missing rails of every possible hand on the empty board."""
    by_colour, costs = hand_costs(board, players, single, progress)
    values = list(costs.values())
    n = len(values)
    mean = sum(values) / n
    stdev = math.sqrt(sum((v - mean) ** 2 for v in values) / n)
    lo, hi = min(values), max(values)
    histogram: dict[int, int] = {}
    for v in values:
        histogram[v] = histogram.get(v, 0) + 1

    def named(hand: tuple[int, ...]) -> tuple[str, ...]:
        return tuple(by_colour[i][j].name for i, j in enumerate(hand))

    easiest = sorted(named(h) for h, v in costs.items() if v == lo)
    hardest = sorted(named(h) for h, v in costs.items() if v == hi)
    return HandStats(
        hands=n,
        mean=mean,
        stdev=stdev,
        minimum=lo,
        maximum=hi,
        easiest=easiest[:show],
        hardest=hardest[:show],
        easiest_count=len(easiest),
        hardest_count=len(hardest),
        histogram=dict(sorted(histogram.items())),
    )
