"""One exit per viewer on the pages (issue 27, item 1): the table's page, each player's page and
their live streams show a secret bid to its bidder only, until everyone has bid.

The third example (companion-tricks) is installed as a real distribution. The pages are drawn
by the site's own Starlette app (the phones' posts go through it as a browser's would), and the
live streams by a real `companion serve` in its own process. Two tables that differ only in
Ann's bid give the same bytes on every page but Ann's, once ids, tokens and versions are set
aside.
"""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from serve_support import forms_on, post_move, site_and_client
from tricks_support import PLAYERS, install, on_path, same_but_ids


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory):
    yield from on_path(install(tmp_path_factory.mktemp("tricks-pages")))


def new_table(home) -> str:
    from companion.terminal.cli import cli

    result = CliRunner().invoke(cli, ["--data-dir", str(home), "new", "tricks", "--players", ",".join(PLAYERS)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, ["--data-dir", str(home), "status", "--json"], catch_exceptions=False)
    return json.loads(result.stdout)["session"]


def phones(home, bid: int):
    """A table where Ann bid ``bid`` from her phone: (client, links, sid, what the laptop was told)."""
    sid = new_table(home)
    site, client, links = site_and_client(home, sid, PLAYERS)
    answer = post_move(client, links["Ann"], "bid", {"bid": str(bid)})
    assert answer.status_code == 303, answer.text
    return client, links, sid, site


def pages(client, links) -> dict:
    return {who: client.get(f"/{'t' if who == 'table' else 'p'}/{links[who]}").text for who in ("table", *PLAYERS)}


def test_every_page_but_anns_is_the_same_whatever_ann_bid(site_dir, tmp_path):
    zero = phones(tmp_path / "zero", 0)
    one = phones(tmp_path / "one", 1)
    seen = {n: pages(w[0], w[1]) for n, w in (("zero", zero), ("one", one))}
    for who in ("table", "Bob", "Cy"):
        a = same_but_ids(seen["zero"][who], zero[2], zero[1].values())
        b = same_but_ids(seen["one"][who], one[2], one[1].values())
        assert a == b, who
    assert "Ann (1 tricks)" in seen["one"]["Ann"]  # her own page shows her bid
    assert "Ann (0 tricks)" in seen["zero"]["Ann"]


def test_the_tv_never_shows_a_bid_while_bids_come_in(site_dir, tmp_path):
    """design-review-3: "Bids in: Ann (1 tricks)" on the TV page, and the score bars drawn from
    the whole state."""
    client, links, _sid, _site = phones(tmp_path, 1)
    tv = client.get(f"/t/{links['table']}").text
    assert "Bids in: Ann; waiting for Bob, Cy." in tv
    assert "(1 tricks)" not in tv and "<tr><td>Ann</td><td>-</td>" in tv
    assert "<tr><td>Ann</td><td>1</td>" in client.get(f"/p/{links['Ann']}").text  # her own page
    bob = client.get(f"/p/{links['Bob']}").text
    assert "Bids in: Ann; waiting for Bob, Cy." in bob and "(1 tricks)" not in bob


def test_the_laptop_is_told_a_phone_bid_without_the_bid(site_dir, tmp_path):
    sid = new_table(tmp_path)
    site, client, links = site_and_client(tmp_path, sid, PLAYERS)
    form = [f for f in forms_on(client.get(f"/p/{links['Ann']}").text) if f["hidden"].get("move") == "bid"][0]
    told, code, _ = site.choose("Ann", {**{k: [v] for k, v in form["hidden"].items()}, "bid": ["1"]})
    assert code == 303 and told == "Ann has chosen."


def test_once_all_have_bid_every_page_shows_every_bid(site_dir, tmp_path):
    client, links, _sid, _site = phones(tmp_path, 1)
    for who in ("Bob", "Cy"):
        assert post_move(client, links[who], "bid", {"bid": "0"}).status_code == 303
    for who, html in pages(client, links).items():
        assert "Bids in" not in html, who
        assert "<tr><td>Ann</td><td>1</td>" in html and "<tr><td>Bob</td><td>0</td>" in html, who


def test_the_bgstats_link_and_a_report_in_play_show_the_tables_view(site_dir, tmp_path, monkeypatch):
    """An export of a game still in play (csv, a report) is the table's: no secret bid; the BG
    Stats link of the finished game has its scores."""
    from companion.core.store import Store
    from companion.core import session as sessions
    from companion.record import bgstats, exchange, report
    from companion.record.stats import Roster

    client, links, sid, _site = phones(tmp_path, 1)
    store = Store(tmp_path)
    s = sessions.load(store, sid)
    facts = report.session_facts(s, s.replay(), Roster({}, sessions.index(store)))
    assert [w for _n, _t, w in facts["log"]] == ["Ann has bid in round 1 (secret until everyone has bid)"]
    assert "bid" not in json.dumps(facts["status"]["players"]).replace('"bid": null', "")
    text, _ = exchange.export(store, "csv")
    assert "Ann" in text
    for rnd, taken in ((1, {"Ann": 1, "Bob": 0, "Cy": 0}), (2, {"Ann": 2, "Bob": 0, "Cy": 0}),
                       (3, {"Ann": 3, "Bob": 0, "Cy": 0})):
        for who in PLAYERS:
            if not (rnd == 1 and who == "Ann"):
                assert post_move(client, links[who], "bid", {"bid": str(taken[who])}).status_code == 303
        for who in PLAYERS:
            assert post_move(client, links[who], "tricks", {"tricks": str(taken[who])}).status_code == 303
    s = sessions.load(store, sid)
    replay = s.replay()
    assert replay.finished
    play = bgstats.play(s, replay)
    assert {p["name"]: p.get("score") for p in play["players"]} == {"Ann": 36, "Bob": 30, "Cy": 30}
    assert "Add this play to BG Stats" in client.get(f"/t/{links['table']}").text


def test_a_live_stream_sends_no_other_players_bid(site_dir, home):
    """A real `companion serve`: Bob's and the table's streams, told of Ann's phone bid, send
    pages without it; once all have bid, they send it."""
    from live_support import Served, Stream

    new_table(home)
    env_path = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(site_dir) + (os.pathsep + env_path if env_path else "")
    try:
        with Served(home, PLAYERS) as srv:
            streams = {who: Stream(srv.host, srv.port, srv.path(who)) for who in (None, "Bob", "Ann")}
            try:
                first = {who: s.page() for who, s in streams.items()}
                post_raw(srv, "Ann", {"bid": "1"})
                after = {who: s.page()[1] for who, s in streams.items()}
                assert "Ann (1 tricks)" in after["Ann"]
                for who in (None, "Bob"):
                    assert "Bids in: Ann; waiting for Bob, Cy." in after[who]
                    assert "(1 tricks)" not in after[who] and "bid 1" not in after[who]
                    assert after[who] != first[who][1]
                post_raw(srv, "Bob", {"bid": "0"})
                for s in streams.values():
                    s.page()
                post_raw(srv, "Cy", {"bid": "0"})
                for who, s in streams.items():
                    html = s.page()[1]
                    assert "Bids in" not in html and "<tr><td>Ann</td><td>1</td>" in html, who
            finally:
                for s in streams.values():
                    s.close()
    finally:
        if env_path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = env_path


def post_raw(srv, who: str, fields: dict) -> None:
    """A phone's tap on ``who``'s page of a real server: its form as drawn, with ``fields``."""
    import urllib.parse

    from live_support import get, parse, raw
    from serve_support import forms_on

    _status, _headers, body = get(srv.host, srv.port, srv.path(who))
    form = [f for f in forms_on(body.decode()) if f["hidden"].get("move") == "bid"][0]
    data = urllib.parse.urlencode({**form["hidden"], **fields})
    request = (f"POST {srv.path(who)}/choose HTTP/1.1\r\nHost: {srv.host}:{srv.port}\r\nConnection: close\r\n"
               f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(data)}\r\n\r\n{data}")
    assert parse(raw(srv.host, srv.port, request.encode()))[0] == 303
