"""Connections the server does not wait for, and a Host it does not answer (issue 22, S2, S6).

Before: 200 idle TCP connections (or 250 slow ones) made `serve` answer every phone 503, and
they were still open after 120 s; a request for `Host: evil.example` was served. Every test
here runs a real `companion serve` on 127.0.0.1 and ends within about 15 s."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.request

import pytest

from live_support import Served, companion, get, new_trans, parse, raw
from companion.web import connections

REQUEST_TIMEOUT = connections.REQUEST_TIMEOUT
SHORT = 2  # seconds: the bound the tests that wait for it set (COMPANION_REQUEST_SECONDS), but the first


@pytest.fixture
def short_timeout(monkeypatch) -> float:
    """The servers this test starts close a connection that has not asked after :data:`SHORT`
    seconds, the shorter bound a setting may choose (issue 29, item 7: each test here waited the
    whole 5 s); the first test keeps the real default."""
    monkeypatch.setenv(connections.REQUEST_TIMEOUT_SETTING, str(SHORT))
    return float(SHORT)


def enough_files(n: int) -> None:
    """This test process needs ``n`` sockets open at once; raise its limit or skip."""
    try:
        import resource
    except ImportError:
        pytest.skip("no file limit to raise here")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < n + 100:
        if hard != resource.RLIM_INFINITY and hard < n + 100:
            pytest.skip(f"this system allows {hard} open files, the test needs {n + 100}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (n + 100, hard))


def timed_page(url: str) -> tuple[int, float]:
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=10) as r:
        r.read()
        return r.status, time.monotonic() - started


def closed_by_server(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        return s.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def closed_unanswered(held: list[socket.socket], enough: int, deadline: float) -> int:
    """How many of ``held`` the server closes without an answer, watched until ``enough`` of
    them are or ``deadline`` (the answered ones, slowed up to 5 s each, are not waited for)."""
    import select

    dropped, watched = 0, list(held)
    while watched and dropped < enough and time.monotonic() < deadline:
        ready, _, _ = select.select(watched, [], [], 0.25)
        for s in ready:
            watched.remove(s)
            with contextlib.suppress(OSError):  # reset: not counted, as an answer is not
                if not s.recv(100):
                    dropped += 1
    return dropped


def test_a_thousand_idle_connections_do_not_shut_the_phones_out_and_are_closed(home):
    enough_files(1000)
    new_trans(home)
    with Served(home) as srv:
        idle = []
        try:
            for _ in range(1000):
                idle.append(socket.create_connection((srv.host, srv.port), timeout=5))
            opened = time.monotonic()
            answers = []
            deadline = opened + REQUEST_TIMEOUT + 5
            while time.monotonic() < deadline and not all(closed_by_server(s) for s in idle):  # while they
                answers.append(timed_page(srv.players["Ann"]))  # are open (the phones asking all along)
                time.sleep(0.25)
            assert all(status == 200 for status, _ in answers) and len(answers) >= 2
            # the promise is within a second (measured in benchmarks/bench_serve.py); here,
            # on a machine perhaps busy, within the time the idle ones could have held it
            assert max(took for _, took in answers) < REQUEST_TIMEOUT, answers
            assert sum(closed_by_server(s) for s in idle) == 1000  # none kept: after 5 s, or pushed out sooner
            print(f"1,000 idle: {len(answers)} pages asked, slowest {max(t for _, t in answers) * 1000:.0f} ms; "
                  f"all closed {time.monotonic() - opened:.1f} s after they opened")
        finally:
            for s in idle:
                s.close()


def test_slow_connections_are_closed_after_a_few_seconds_and_phones_are_served_meanwhile(home, short_timeout):
    """250 slowloris connections, a header line every half second each; and one slow post."""
    bound = short_timeout  # this test's server's
    enough_files(300)
    new_trans(home, special="pass-three")
    entries = len(json.loads(companion(home, "log", "--json").stdout))
    with Served(home) as srv:
        slow = []
        stop = threading.Event()
        try:
            for n in range(250):
                s = socket.create_connection((srv.host, srv.port), timeout=5)
                s.sendall(f"GET /p/{srv.token('Ann')} HTTP/1.1\r\nHost: {srv.host}:{srv.port}\r\n".encode())
                slow.append(s)
            post = socket.create_connection((srv.host, srv.port), timeout=5)
            post.sendall((f"POST {srv.path('Ann')}/choose HTTP/1.1\r\nHost: {srv.host}:{srv.port}\r\n"
                          "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nform=").encode())
            slow.append(post)
            opened = time.monotonic()

            def trickle() -> None:
                n = 0
                while not stop.is_set():
                    for s in slow:
                        with contextlib.suppress(OSError):
                            s.sendall(b"0" if s is post else f"X-Slow-{n}: 1\r\n".encode())
                    n += 1
                    stop.wait(0.5)

            writer = threading.Thread(target=trickle, daemon=True)
            writer.start()
            answers = [timed_page(srv.players["Bob"]) for _ in range(4)]
            assert all(status == 200 and took < bound for status, took in answers), answers  # not held
            deadline = opened + bound + 5
            while time.monotonic() < deadline and not all(closed_by_server(s) for s in slow):
                time.sleep(0.25)
            closed_at = time.monotonic() - opened
            assert all(closed_by_server(s) for s in slow), f"{sum(closed_by_server(s) for s in slow)} closed"
            assert closed_at >= bound - 0.5  # however much they trickled, not before their time
            print(f"250 slow + 1 slow post: pages {[round(t * 1000) for _, t in answers]} ms; all closed at "
                  f"{closed_at:.1f} s")
        finally:
            stop.set()
            for s in slow:
                s.close()
    assert len(json.loads(companion(home, "log", "--json").stdout)) == entries  # the slow post recorded nothing


def test_a_keep_alive_connection_left_idle_is_closed(home, short_timeout):
    bound = short_timeout  # this test's server's
    new_trans(home)
    with Served(home) as srv:
        s = socket.create_connection((srv.host, srv.port), timeout=bound + 5)
        s.sendall(f"GET {srv.path('Ann')} HTTP/1.1\r\nHost: {srv.host}:{srv.port}\r\n\r\n".encode())
        started = time.monotonic()
        got = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
        assert got.startswith(b"HTTP/1.1 200") and bound - 1 <= time.monotonic() - started <= bound + 3
        s.close()


def test_a_request_head_growing_past_8_kib_is_refused_at_once(home):
    new_trans(home)
    with Served(home) as srv:
        with socket.create_connection((srv.host, srv.port), timeout=3) as s:
            s.sendall(f"GET {srv.path('Ann')} HTTP/1.1\r\nHost: {srv.host}:{srv.port}\r\nX-Big: ".encode())
            started = time.monotonic()
            with contextlib.suppress(OSError):
                for _ in range(12):
                    s.sendall(b"x" * 1024)
            answer = b""
            with contextlib.suppress(OSError):
                while chunk := s.recv(65536):
                    answer += chunk
        assert answer.startswith(b"HTTP/1.1 400") and time.monotonic() - started < REQUEST_TIMEOUT
        assert get(srv.host, srv.port, srv.path("Ann"), headers={"X-Fair": "x" * 2000})[0] == 200


def test_a_request_for_another_host_gets_400_even_with_the_right_token(home):
    new_trans(home)
    with Served(home) as srv:
        port = srv.port
        for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1.evil.example:{port}",
                     "localhost.evil.example", "127.0.0.2", "", f"127.0.0.1:{port}x"):
            for path in (srv.path("Ann"), srv.path(None), srv.path("Ann") + "/live", srv.path("Ann") + "/v",
                         "/nothing"):
                status, headers, body = get(srv.host, port, path, headers={"Host": host})
                assert status == 400, (host, path)
                assert srv.token("Ann").encode() not in body and b"Cities" not in body
                assert headers["x-frame-options"] == "DENY"
        for host in (f"127.0.0.1:{port}", "127.0.0.1", f"localhost:{port}", f"LOCALHOST:{port}", "localhost."):
            assert get(srv.host, port, srv.path("Ann"), headers={"Host": host})[0] == 200, host
        # HTTP/1.0 without any Host
        answer = raw(srv.host, port, f"GET {srv.path('Ann')} HTTP/1.0\r\n\r\n".encode())
        assert parse(answer)[0] == 400
    log = (home / ".local" / "web" / "access.log").read_text()
    assert "GET player page 400" in log and "evil" not in log


def test_the_host_names_a_lan_server_answers_to():
    from companion.web import server
    from companion.web.site import host_name

    names = server.own_names("192.168.1.23")
    assert "192.168.1.23" in names and "localhost" not in names
    host = socket.gethostname().lower().split(".")[0]
    assert host in names and f"{host}.local" in names
    assert server.own_names("127.0.0.1") == {"127.0.0.1", "localhost"}
    assert host_name("192.168.1.23:8765") == "192.168.1.23" and host_name("Laptop.Local.") == "laptop.local"
    assert host_name("[::1]:8765") == "::1" and host_name("a:b") is None and host_name("") is None


def test_the_server_settings_are_chosen(home, run):
    """uvicorn's options are set, not left to their defaults (see server.make_server)."""
    import json

    from companion.web import server
    from companion.web.site import Site

    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    sock = server.bind("127.0.0.1", 0)
    try:
        site = Site(home, sid)
        config = server.make_server(site, sock).config
        assert config.limit_concurrency is None  # uvicorn counts idle connections against it: 503 for all
        assert config.timeout_keep_alive == REQUEST_TIMEOUT
        assert config.h11_max_incomplete_event_size == connections.HEAD_LIMIT == 8192
        assert config.backlog == server.BACKLOG and config.ws == "none" and config.lifespan == "off"
        assert not config.access_log and not config.server_header
        assert site.hosts == {"127.0.0.1", "localhost"} and site.guard.max_open >= 32
    finally:
        sock.close()


def test_a_full_server_pushes_out_waiting_connections_before_refusing_one():
    """The guard's rules on their own, with a small server (no sockets: fake transports)."""
    import asyncio

    class Transport:
        def __init__(self):
            self.closing = False

        def is_closing(self):
            return self.closing

        def close(self):
            self.closing = True

        def get_extra_info(self, name):
            return None

    class Protocol:
        def __init__(self):
            self.transport = Transport()

    async def scene():
        import h11

        guard = connections.Guard(max_open=4, max_waiting=2, request_timeout=0.2)
        made = [Protocol() for _ in range(6)]
        guard.opened(made[0])
        guard.sync(made[0], h11.DONE, h11.SEND_RESPONSE)  # made[0] asked: it is being served
        for p in made[1:4]:
            guard.opened(p)
        assert not made[1].transport.closing  # over 2 waiting, but the newest get a moment to be read
        await asyncio.sleep(connections.TRIM_AFTER * 3)
        assert made[1].transport.closing and not made[2].transport.closing  # then the oldest goes
        guard.closed(made[1])
        guard.opened(made[4])
        guard.opened(made[5])  # full (4 open): the oldest waiting one is pushed out for it
        assert made[2].transport.closing and not made[5].transport.closing
        await asyncio.sleep(0.3)  # the request timeout: every waiting connection is closed
        assert all(p.transport.closing for p in made[3:]) and not made[0].transport.closing
        return guard.counts

    counts = asyncio.run(scene())
    assert counts["pushed out"] == 3 and counts["timed out"] == 2 and counts["refused"] == 0  # made[3]: trimmed


def test_a_flood_of_wrong_guesses_does_not_hold_the_server(home):
    """Past the free guesses every 404 waits; at most 64 wait at once, and a guess past that
    gets no answer at all, so the flood cannot fill the server with waiting answers; a server
    stopped meanwhile stops without waiting for them."""
    from companion.web import site as site_module

    new_trans(home)
    with Served(home) as srv:
        for n in range(site_module.FREE_GUESSES + 1):
            assert get(srv.host, srv.port, f"/p/guess{n}")[0] == 404
        started = time.monotonic()
        held = []
        for n in range(site_module.MAX_DELAYED + 20):
            s = socket.create_connection((srv.host, srv.port), timeout=10)
            s.sendall(f"GET /p/more{n} HTTP/1.1\r\nHost: {srv.host}:{srv.port}\r\n\r\n".encode())
            held.append(s)
        status, took = timed_page(srv.players["Ann"])  # a right token is not slowed
        assert status == 200 and took < site_module.MAX_DELAY  # not kept waiting as a wrong guess is
        dropped = closed_unanswered(held, 20, started + 15)
        for s in held:
            s.close()
        assert dropped >= 20  # those past the 64 waiting were closed unanswered
        # stopped while the slowed ones still wait, their askers gone: it stops at once and
        # quietly (before: it waited 2 s, then printed a traceback for each one it cancelled)
        srv.proc.terminate()
        _out, said = srv.proc.communicate(timeout=60)
        assert srv.proc.returncode == 0 and "Traceback" not in said and "Error" not in said, said[-2000:]
        print(f"{len(held)} wrong guesses at once: {dropped} closed unanswered; the right token took {took * 1000:.0f} ms")
