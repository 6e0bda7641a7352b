"""A player may be called "table" (issue 22, W3).

Before: the table page's token and the players' were kept in one table keyed by name, so a
player called "table" got the table page's token, their own link was 404, and piped `serve`
printed two `table URL` lines. Now the table's token is kept apart from the players'."""

from __future__ import annotations

import json

import pytest

from live_support import Served, get, new_trans
from serve_support import hands

PLAYERS = ["Ann", "table", "Cy Lee", "Dan"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One server of a table with a player called "table", for the two tests that only read its
    pages and links (issue 29, item 7: a server each before): (data folder, session, server)."""
    home = tmp_path_factory.mktemp("table-name") / "home"
    sid = new_trans(home, PLAYERS)
    with Served(home, PLAYERS) as srv:
        yield home, sid, srv


def test_a_player_called_table_has_a_page_of_their_own(served):
    home, sid, srv = served
    assert set(srv.players) == set(PLAYERS)
    assert srv.token(None) != srv.token("table")
    mine = get(srv.host, srv.port, srv.path("table"))
    assert mine[0] == 200
    for other, cities in hands(home, sid).items():
        for city in cities:
            assert (city.encode() in mine[2]) == (other == "table"), (other, city)
    table = get(srv.host, srv.port, srv.path(None))
    assert table[0] == 200 and b"the table</title>" in table[2]
    assert get(srv.host, srv.port, f"/p/{srv.token(None)}")[0] == 404  # the table's token is no player's
    assert get(srv.host, srv.port, f"/t/{srv.token('table')}")[0] == 404  # and the player's is not the table's
    assert get(srv.host, srv.port, srv.path("Cy Lee"))[0] == 200  # a name with a space


def test_piped_serve_says_whose_each_link_is(served):
    from live_support import companion

    home, _sid, srv = served
    lines = companion(home, "serve", "--links").stdout.splitlines()
    assert lines[0] == f"table {srv.table}"
    assert lines[1:5] == [f"player {p} {srv.players[p]}" for p in PLAYERS]
    assert "/t/" in lines[0] and all("/p/" in line for line in lines[1:5])


def test_links_kept_the_old_way_still_open_the_table_page(home):
    """A tokens file of before (the table's token under "table" among the players'): the table
    keeps its link; a player called "table", whose link never worked, gets one of their own."""
    from companion.web import tokens

    sid = new_trans(home, PLAYERS)
    path = tokens.tokens_path(home)
    tokens.server_secret(home)
    data = json.loads(path.read_text())
    data["sessions"] = {sid: {"table": "T" * 24, "Ann": "A" * 24, "Dan": "D" * 24}}
    path.write_text(json.dumps(data))
    links = tokens.links(home, sid, PLAYERS)
    assert links[tokens.TABLE] == "T" * 24 and links["Ann"] == "A" * 24 and links["Dan"] == "D" * 24
    assert links["table"] not in ("T" * 24, "A" * 24) and len(links["table"]) == 24
    stored = json.loads(path.read_text())["sessions"][sid]
    assert stored == {"table": "T" * 24, "players": {p: links[p] for p in PLAYERS}}
    assert tokens.find(tokens.known(home, sid), "T" * 24) == tokens.TABLE
    assert tokens.find(tokens.known(home, sid), links["table"]) == "table"
