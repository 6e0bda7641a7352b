"""The baseline the issue asks for: a plain Dreyfus-Wagner over all junctions, hand by hand.

Each hand is solved on its own, as a textbook implementation would: a heap Dijkstra from each
city, then for every subset of the cities (rooted at the last one) the best split at every
junction followed by a Dijkstra relaxation over the whole junction graph. Nothing is shared
between hands. ``bench_steiner.py`` runs it side by side with ``companion.games.trans.steiner.hand_costs``
and checks that both give the same count for every hand.

Run alone: ``python benchmarks/baseline_dreyfus_wagner.py amerika [--sample N]``.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.trans import board as boards  # noqa: E402

INF = float("inf")


def graph(board) -> list[list[tuple[int, int]]]:
    adj: list[list[tuple[int, int]]] = [[] for _ in board.xy]
    for (a, b), w in board.cost.items():
        adj[a].append((b, w))
        adj[b].append((a, w))
    return adj


def dijkstra(adj, dist: list) -> list:
    """Textbook Dijkstra from every node whose starting label is finite."""
    heap = [(d, v) for v, d in enumerate(dist) if d < INF]
    heapq.heapify(heap)
    while heap:
        d, v = heapq.heappop(heap)
        if d > dist[v]:
            continue
        for u, w in adj[v]:
            nd = d + w
            if nd < dist[u]:
                dist[u] = nd
                heapq.heappush(heap, (nd, u))
    return dist


def steiner_cost(adj, terminals: list[int]) -> int:
    """Dreyfus-Wagner: the cheapest tree joining ``terminals`` (rooted at the last one)."""
    n = len(adj)
    *rest, root = terminals
    k = len(rest)
    dp = {}
    for i, t in enumerate(rest):
        dist = [INF] * n
        dist[t] = 0
        dp[1 << i] = dijkstra(adj, dist)
    for S in range(1, 1 << k):
        if S & (S - 1) == 0:
            continue
        best = [INF] * n
        sub = (S - 1) & S
        while sub:
            other = S ^ sub
            if sub < other:  # each split once
                a, b = dp[sub], dp[other]
                for v in range(n):
                    c = a[v] + b[v]
                    if c < best[v]:
                        best[v] = c
            sub = (sub - 1) & S
        dp[S] = dijkstra(adj, best)
    return dp[(1 << k) - 1][root]


def hand_costs(board, players=None, sample: int | None = None, seed: int = 1):
    """Every hand's count (or a fixed random sample of hands), keyed like steiner.hand_costs."""
    by_colour = board.hands_colours(players)
    adj = graph(board)
    hands = list(itertools.product(*(range(len(cs)) for cs in by_colour)))
    if sample is not None and sample < len(hands):
        hands = random.Random(seed).sample(hands, sample)
    out = {}
    for hand in hands:
        nodes = [by_colour[i][j].node for i, j in enumerate(hand)]
        out[hand] = steiner_cost(adj, nodes)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("map", choices=["amerika", "europa"])
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--sample", type=int, default=None, help="time this many random hands only")
    args = ap.parse_args(argv)
    board = boards.load(boards.resolve_map(args.map))
    t = time.perf_counter()
    costs = hand_costs(board, args.players, args.sample)
    dt = time.perf_counter() - t
    values = list(costs.values())
    print(f"{args.map}: {len(values)} hands in {dt:.2f} s "
          f"({1000 * dt / len(values):.2f} ms a hand); min {min(values)}, max {max(values)}")


if __name__ == "__main__":
    main()
