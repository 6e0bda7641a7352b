"""Nothing a page shows or is told depends on another player's secret (issue 22, S1).

Before: every page, and the version its script polled, carried the session file's size, which
grows with the length of the city a player put back or passed (Plymouth +122 bytes, Berlin
+120). Now a page's version is a keyed hash of that page: two sessions with the same deal
whose players put back (or pass) different cities give every other page, its version and what
its stream is told, byte for byte the same."""

from __future__ import annotations

import shutil

import pytest

from live_support import Served, Stream, companion, get, new_trans
from serve_support import hands, site_and_client

PLAYERS = ["Ann", "Bob", "Cy", "Dan"]


def two_tables(home, tmp_path, special: str):
    """The same session, dealt and linked, in two data folders (the second a copy)."""
    sid = new_trans(home, PLAYERS, special=special)
    site_and_client(home, sid)  # the links and the server's key, made before the copy
    twin = tmp_path / "twin"
    shutil.copytree(home, twin)
    return sid, twin


def two_of(cities: list[str]) -> tuple[str, str]:
    """Two of a hand's cities whose names differ in length (the size channel's signal)."""
    for a in cities:
        for b in cities:
            if len(a) != len(b):
                return a, b
    pytest.skip("every city of this hand has a name of the same length")


def pages_of(home, sid, viewers) -> dict:
    site, client, links = site_and_client(home, sid)
    out = {}
    for who in viewers:
        path = f"/t/{links['table']}" if who is None else f"/p/{links[who]}"
        page = client.get(path)
        assert page.status_code == 200
        out[who] = (page.content, client.get(path + "/v").content, site.version_of(site.whose(path.split("/")[2])))
    return out


def test_putting_back_another_city_changes_no_other_page_by_a_byte(home, tmp_path):
    sid, twin = two_tables(home, tmp_path, "return-any")
    first, second = two_of(hands(home, sid)["Bob"])
    companion(home, "hand", "Bob", "--return", first)
    companion(twin, "hand", "Bob", "--return", second)
    assert hands(home, sid)["Bob"] != hands(twin, sid)["Bob"]
    others = [None, "Ann", "Cy", "Dan"]
    here, there = pages_of(home, sid, others), pages_of(twin, sid, others)
    for who in others:
        assert here[who] == there[who], who  # the page, its /v and the version its stream is told
    assert pages_of(home, sid, ["Bob"])["Bob"][0] != pages_of(twin, sid, ["Bob"])["Bob"][0]  # Bob's own differs


def test_passing_another_city_changes_no_uninvolved_page_by_a_byte(home, tmp_path):
    sid, twin = two_tables(home, tmp_path, "pass-three")
    first, second = two_of(hands(home, sid)["Ann"])
    companion(home, "pass", "Ann", first)
    companion(twin, "pass", "Ann", second)
    others = [None, "Cy", "Dan"]  # Ann passes left, to Bob
    here, there = pages_of(home, sid, others), pages_of(twin, sid, others)
    for who in others:
        assert here[who] == there[who], who


def test_what_the_streams_are_told_is_the_same_in_both_sessions(home, tmp_path):
    sid, twin = two_tables(home, tmp_path, "return-any")
    first, second = two_of(hands(home, sid)["Bob"])
    told = []
    for folder, city in ((home, first), (twin, second)):
        with Served(folder, PLAYERS) as srv:
            streams = {who: Stream(srv.host, srv.port, srv.path(who)) for who in (None, "Ann", "Cy")}
            try:
                before = {who: s.data() for who, s in streams.items()}
                companion(folder, "hand", "Bob", "--return", city)
                told.append({who: (before[who], s.data()) for who, s in streams.items()})
                # the version is 24 hex digits of a keyed hash: no size, no time in it
                assert all(len(v) == 24 for pair in told[-1].values() for v in pair)
                status, _, body = get(srv.host, srv.port, srv.path("Cy"))
                assert status == 200 and f'data-v="{told[-1]["Cy"][1]}"'.encode() in body
            finally:
                for s in streams.values():
                    s.close()
    assert told[0] == told[1]


def test_a_version_is_the_same_for_the_same_page_and_names_nothing_of_the_file(run, home):
    from serve_support import new_trans as new_trans_here

    sid = new_trans_here(run)
    site, client, links = site_and_client(home, sid)
    size = (home / "sessions" / f"{sid}.json").stat().st_size
    v = client.get(f"/t/{links['table']}/v").text
    ann = client.get(f"/p/{links['Ann']}/v").text
    assert f"{size:x}" not in v and str(size) not in v
    run(["note", "a note the pages do not show"], expect=0)
    assert client.get(f"/t/{links['table']}/v").text == v  # the file changed; the table page did not
    # Ann's page did not change either: her form's token goes stale only with her own moves
    # or a change to what her form offers (a note is neither), so her form stays good.
    assert client.get(f"/p/{links['Ann']}/v").text == ann
    hand = hands(home, sid)["Ann"]
    run(["pass", "Ann", hand[0]], expect=0)
    assert client.get(f"/p/{links['Ann']}/v").text != ann  # her own move: a new page, a new token
