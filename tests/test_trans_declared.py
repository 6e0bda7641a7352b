"""Trans on the declared contract (issue 20): its playthroughs, its one privacy rule, and the
replay that no longer walks every network after each rail but must give the same answers."""

from __future__ import annotations

import json
import random
import shlex

import pytest

from companion.core import datapack
from companion.core import session as sessions
from companion.core.store import Store
from companion.contract.text import strings_in
from companion.contract.api import Setup
from companion.games.trans.moves import PLAYTHROUGH
from companion.games.trans.rules import TransAmerika, make_round_start
from companion.games.trans.track import _board_cache, trans_board


@pytest.mark.parametrize("game", sorted(PLAYTHROUGH))
def test_each_playthrough_plays_and_replays_to_what_was_recorded(game, run, home):
    for line in PLAYTHROUGH[game]:
        run(shlex.split(line), expect=0)
    store = Store(home)
    recorded = run(["status", "--json"], expect=0).stdout
    s = sessions.load(store, store.current())
    assert s.replay(again=True).state == s.replay().state
    assert json.loads(recorded)["round"] >= 1


def test_the_table_sees_no_hand_and_each_player_only_their_own():
    g = TransAmerika()
    data = datapack.pack(g.id)["values"]
    s = g.initial(Setup(g.id, ("Ann", "Bob", "Cy"), {}), data)
    s = g.apply(s, make_round_start(s, data, "5e" * 32, "", "sess", special="pass-three"), data)
    s = g.apply(s, {"type": "pass", "player": "Ann", "city": s["hands"]["Ann"][0]}, data)
    hands = {p: set(c) for p, c in s["hands"].items()}
    leftover = {c for cs in s["leftover"].values() for c in cs}

    def seen(player):
        found: set = set()
        strings_in(g.view(s, player), found)
        return found

    assert not seen(None) & (set().union(*hands.values()) | leftover)
    for p, mine in hands.items():
        assert mine <= seen(p) and not (set().union(*hands.values()) - mine) & seen(p)
    assert g.view(s, "Ann")["pending"]["chosen"] == {"Ann": s["pending"]["chosen"]["Ann"]}
    assert g.view(s, "Bob")["pending"]["chosen"] == {"Ann": None}  # who chose is public, not what
    assert g.waiting(g.view(s, None)) == g.waiting(s)


def test_networks_kept_per_rail_are_the_networks_walked_on_the_board():
    """The component labels the track keeps are updated by each rail; the networks they give
    are exactly the ones a walk of the built rails gives, whoever built what, in any order."""
    g = TransAmerika()
    data = datapack.pack(g.id)["values"]
    board = trans_board(data, g.id)
    rng = random.Random(7)
    players = ("Ann", "Bob", "Cy", "Dee")
    for _ in range(5):
        s = g.initial(Setup(g.id, players, {}), data)
        s = g.apply(s, make_round_start(s, data, "5e" * 32, "", "sess", special="build-anywhere", physical=True),
                    data)
        for p, node in zip(players, rng.sample(range(len(board.xy)), 4)):
            s = g.apply(s, {"type": "marker", "player": p, "junction": board.name(node)}, data)
        lines = rng.sample(sorted(board.cost), 60)
        for n, (a, b) in enumerate(lines):
            p = players[n % 4]
            s = g.apply(s, {"type": "build", "player": p, "paths": [f"{board.coord[a]}-{board.coord[b]}"]}, data)
            built = [tuple(r["line"]) for r in s["track"]["rails"]]
            for q in players:
                walked = sorted(board.network(s["track"]["markers"][q][0], built))
                assert g.network(s, board, q) == walked


def test_a_build_given_from_its_far_end_is_laid_from_the_network_outwards():
    """Without build-anywhere every rail must touch the builder's network: two lines named
    far one first are laid in the order that keeps them joined, as a walk would find."""
    g = TransAmerika()
    data = datapack.pack(g.id)["values"]
    board = trans_board(data, g.id)
    rng = random.Random(11)
    players = ("Ann", "Bob")
    s = g.initial(Setup(g.id, players, {}), data)
    s = g.apply(s, make_round_start(s, data, "5e" * 32, "", "sess", physical=True), data)
    for p, where in zip(players, ("E6", "M8")):
        s = g.apply(s, {"type": "marker", "player": p, "junction": where}, data)
    for n in range(30):
        p = players[n % 2]
        built = {tuple(r["line"]) for r in s["track"]["rails"]}
        mine = g.network(s, board, p)
        first = [(a, b) for a in mine for b in board.adj[a] if b not in mine
                 and ((a, b) if a < b else (b, a)) not in built]
        if not first:
            continue
        a, b = rng.choice(first)
        beyond = [c for c in board.adj[b] if c not in mine and c != a
                  and ((b, c) if b < c else (c, b)) not in built]
        paths = [f"{board.coord[a]}-{board.coord[b]}"]
        if beyond:
            paths.insert(0, f"{board.coord[b]}-{board.coord[rng.choice(beyond)]}")  # the far line first
        s = g.apply(s, {"type": "build", "player": p, "paths": paths}, data)
        rails = [tuple(r["line"]) for r in s["track"]["rails"]]
        for q in players:
            assert g.network(s, board, q) == sorted(board.network(s["track"]["markers"][q][0], rails))


def test_the_board_of_the_same_values_is_found_without_encoding_them_again():
    data = datapack.pack("trans-europa")["values"]
    assert _board_cache(data, "trans-europa") is _board_cache(dict(data), "trans-europa")
    other = json.loads(json.dumps(data))  # equal values, other objects: the same board all the same
    assert _board_cache(other, "trans-europa") is _board_cache(data, "trans-europa")
    changed = dict(data, single_lines={**data["single_lines"], "ferry": "none"})
    assert _board_cache(changed, "trans-europa") is not _board_cache(data, "trans-europa")
