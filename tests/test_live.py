"""The live channel (issue 21, item 4): every open page's stream is told, whenever what that
page shows changes, by a move from a phone, the shell or another process on the data folder.

Against a real `companion serve` in its own process, the streams read as a browser's EventSource
reads them (tests/live_support.py). The latencies are measured in benchmarks/bench_serve.py;
these tests only wait (up to 10 s) for what must come."""

from __future__ import annotations

import re
import time
import urllib.parse

import pytest

from live_support import PLAYERS, Served, Stream, companion, get, new_trans
from serve_support import hands

from companion.web import tokens


def version(srv: Served, who) -> str:
    status, _, body = get(srv.host, srv.port, srv.path(who) + "/v")
    assert status == 200
    return body.decode()


def page(srv: Served, who) -> str:
    status, _, body = get(srv.host, srv.port, srv.path(who))
    assert status == 200
    return body.decode()


def test_every_open_page_is_told_when_another_process_records(home):
    new_trans(home)
    with Served(home) as srv:
        viewers = [None, "Ann", "Bob"]
        streams = {who: Stream(srv.host, srv.port, srv.path(who)) for who in viewers}
        try:
            for who, s in streams.items():
                assert s.status == 200 and s.headers["content-type"].startswith("text/event-stream")
                assert s.headers["cache-control"] == "no-store"
                assert s.event()["retry"] == "1000"  # the browser's own reconnection delay
                assert s.data() == version(srv, who)  # the page said it shows "": told at once
            before = {who: version(srv, who) for who in viewers}
            companion(home, "start", "Ann", "E6")  # another process than the server's
            for who, s in streams.items():
                told, html = s.page()
                assert told != before[who] and told == version(srv, who)
                assert html == page(srv, who)  # the very page a reload gets, its token in its forms
        finally:
            for s in streams.values():
                s.close()


def test_a_page_showing_the_current_version_hears_nothing_until_its_page_changes(home):
    new_trans(home)
    with Served(home) as srv:
        now = version(srv, "Ann")
        s = Stream(srv.host, srv.port, srv.path("Ann"), since=now)
        try:
            assert "retry" in s.event()
            companion(home, "note", "the bank is open")  # recorded, but Ann's page shows no notes:
            with pytest.raises(TimeoutError):  # one quiet second for both (issue 29, item 7: one each)
                s.data(timeout=1.0)  # nothing to tell: the page is current (a heartbeat comes every 15 s),
                # and after the note her page is the same bytes, so the same version
            companion(home, "start", "Ann", "E6")
            assert s.data() != now
        finally:
            s.close()


def test_a_phone_back_from_a_lost_wifi_is_told_the_current_version_at_once(home):
    """The phone's stream died with the Wi-Fi; meanwhile two actions were recorded. The page
    opens its stream again with the version it shows, and hears at once that it is old."""
    new_trans(home)
    with Served(home) as srv:
        shown = version(srv, "Bob")
        companion(home, "start", "Ann", "E6")
        companion(home, "note", "Bob was away")
        s = Stream(srv.host, srv.port, srv.path("Bob"), since=shown)
        try:
            told = s.data(timeout=5)
            assert told != shown and told == version(srv, "Bob")
            assert f'data-v="{told}"' in page(srv, "Bob")  # the page fetched now is that version
        finally:
            s.close()


def test_a_move_made_on_a_phone_reaches_every_other_page(home):
    sid = new_trans(home, special="pass-three")
    with Served(home) as srv:
        streams = {who: Stream(srv.host, srv.port, srv.path(who)) for who in [None, "Bob", "Cy"]}
        try:
            first = {who: s.data() for who, s in streams.items()}
            html = page(srv, "Ann")
            form = re.search(r'name="form" value="([^"]+)"', html).group(1)
            body = urllib.parse.urlencode({"form": form, "move": "pass", "choice": hands(home, sid)["Ann"][0]})
            assert post(srv, "Ann", body)[0] == 303
            for who, s in streams.items():
                assert s.data() != first[who]
            assert "Waiting for Bob" in page(srv, None)
        finally:
            for s in streams.values():
                s.close()


def post(srv: Served, who: str, body: str) -> tuple[int, dict, bytes]:
    from live_support import parse, raw

    data = (f"POST {srv.path(who)}/choose HTTP/1.1\r\nHost: {srv.host}:{srv.port}\r\nConnection: close\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n{body}")
    return parse(raw(srv.host, srv.port, data.encode()))


def test_a_stream_needs_its_own_pages_token(home):
    new_trans(home)
    with Served(home) as srv:
        unknown = get(srv.host, srv.port, "/no/such/page")
        assert unknown[0] == 404
        for path in (f"/p/{srv.token(None)}/live", f"/t/{srv.token('Ann')}/live", "/p/wrong/live",
                     f"/p/{srv.token('Ann')[:-1]}/live", "/t//live"):
            status, _, body = get(srv.host, srv.port, path)
            assert status == 404 and body == unknown[2], path
        assert get(srv.host, srv.port, f"/p/{srv.token('Ann')}/live", method="POST")[0] == 405


def test_each_page_keeps_at_most_four_streams_and_the_oldest_goes_first(home):
    new_trans(home)
    with Served(home) as srv:
        opened = []
        try:
            for _ in range(5):
                s = Stream(srv.host, srv.port, srv.path("Ann"))
                s.data()  # open and told: it is in the server's list
                opened.append(s)
            assert opened[0].closed(timeout=5)
            companion(home, "start", "Ann", "E6")
            for s in opened[1:]:
                s.data()  # the four newest are told
            other = Stream(srv.host, srv.port, srv.path("Bob"))  # another page is not affected
            other.data()
            other.close()
        finally:
            for s in opened:
                s.close()


def test_new_links_end_the_old_pages_streams(home):
    new_trans(home)
    with Served(home) as srv:
        s = Stream(srv.host, srv.port, srv.path("Ann"))
        try:
            s.data()
            companion(home, "serve", "--new-links")
            assert s.closed(timeout=5)
            assert get(srv.host, srv.port, srv.path("Ann"))[0] == 404  # the page's script then shows that
        finally:
            s.close()


def test_stopping_the_server_ends_its_streams_at_once(home):
    new_trans(home)
    srv = Served(home)
    streams = [Stream(srv.host, srv.port, srv.path(who)) for who in [None, *PLAYERS]]
    for s in streams:
        s.data()
    started = time.monotonic()
    srv.stop()
    assert srv.proc.returncode is not None and time.monotonic() - started < 5
    assert all(s.closed(timeout=2) for s in streams)
    for s in streams:
        s.close()


def test_a_quiet_stream_hears_a_heartbeat_and_ends_after_its_lifetime(home, run):
    """In this process: the server's own loop on a thread, its live channel made quick."""
    site, links, port, running = in_process_server(home, run)
    site.live.heartbeat, site.live.lifetime = 0.3, 1.5
    try:
        s = Stream("127.0.0.1", port, f"/p/{links['Ann']}")
        told = s.data()
        assert s.ping(timeout=2) == told  # the heartbeat: the version the page shows
        assert s.closed(timeout=3)  # the lifetime: the page opens a new stream by itself
        assert site.live.open_count() == 0
        s.close()
    finally:
        running.stop()


def json_session(run) -> str:
    import json

    run(["new", "trans-europa", "--players", ",".join(PLAYERS)], expect=0)
    run(["round", "start"], expect=0)
    return json.loads(run(["status", "--json"], expect=0).stdout)["session"]


def test_the_pages_stream_route_is_logged_by_its_name(home):
    new_trans(home)
    with Served(home) as srv:
        s = Stream(srv.host, srv.port, srv.path("Ann"))
        s.data()
        s.close()
        time.sleep(0.3)
    log = (home / ".local" / "web" / "access.log").read_text()
    assert "GET player live 200" in log and srv.token("Ann") not in log


def in_process_server(home, run):
    from companion.web import server, tokens
    from companion.web.site import Site

    sid = json_session(run)
    links = tokens.links(home, sid, PLAYERS)
    site = Site(home, sid)
    sock = server.bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    return site, links, port, server.start_background(site, sock, f"http://127.0.0.1:{port}")


@pytest.mark.parametrize("inotify", [True, False], ids=["inotify", "poll"])
def test_another_process_is_noticed_with_inotify_and_without(home, run, monkeypatch, inotify):
    import sys

    from companion.web import watch

    if inotify and not sys.platform.startswith("linux"):
        pytest.skip("inotify is Linux's")
    if not inotify:
        monkeypatch.setattr(watch, "watch", lambda files: None)  # a system without it: the poll does the work
    site, links, port, running = in_process_server(home, run)
    try:
        s = Stream("127.0.0.1", port, f"/t/{links[tokens.TABLE]}")
        first = s.data()
        assert site.live.watching == ("inotify" if inotify else "poll")
        companion(home, "start", "Ann", "E6")
        assert s.data() != first
        s.close()
    finally:
        running.stop()


def test_a_move_typed_in_the_shell_that_serves_reaches_the_pages(home, run):
    """The shell runs the server on a thread of its own process (`serve` typed at the prompt);
    a line typed there afterwards reaches the open pages the same way."""
    from companion.core.app import App
    from companion.terminal.cli import run_line

    site, links, port, running = in_process_server(home, run)
    try:
        streams = [Stream("127.0.0.1", port, f"/t/{links[tokens.TABLE]}"), Stream("127.0.0.1", port, f"/p/{links['Bob']}")]
        first = [s.data() for s in streams]
        assert run_line(App(home), "start Ann E6") == (0, None)  # in the server's own process
        assert all(s.data() != before for s, before in zip(streams, first))
        for s in streams:
            s.close()
    finally:
        running.stop()
