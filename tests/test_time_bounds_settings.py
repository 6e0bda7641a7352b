"""The settings that shorten the server's time bounds shorten them only (issue 29, item 7):
`COMPANION_REQUEST_SECONDS` (a connection's request, 5 s) and `COMPANION_PLUGIN_CHECK_SECONDS`
(a plugin's check on a page, 2 s) can never make a bound longer, nor shorter than its floor,
and a value that is not a number leaves the default."""

from __future__ import annotations

import pytest

from companion.core import bounds, plugins
from companion.web import connections


@pytest.mark.parametrize(("said", "seconds"), [(None, 5.0), ("", 5.0), ("2", 2.0), ("2.9", 2.0), ("0.1", 1.0),
                                               ("-3", 1.0), ("60", 5.0), ("inf", 5.0), ("nan", 5.0),
                                               ("soon", 5.0)])
def test_the_request_bound_is_only_ever_shortened(monkeypatch, said, seconds):
    if said is None:
        monkeypatch.delenv(connections.REQUEST_TIMEOUT_SETTING, raising=False)
    else:
        monkeypatch.setenv(connections.REQUEST_TIMEOUT_SETTING, said)
    assert connections.request_timeout() == seconds


def test_a_plugins_check_bound_is_clamped(monkeypatch):
    for said, seconds in (("0.5", 0.5), ("0", 0.5), ("1.5", 1.5), ("10", plugins.CHECK_SECONDS), ("x", 2.0)):
        monkeypatch.setenv("SOME_BOUND", said)
        assert bounds.shortened("SOME_BOUND", plugins.CHECK_SECONDS, 0.5) == seconds


def test_the_server_takes_the_shorter_request_bound(home, run, monkeypatch):
    import json

    from companion.web import server
    from companion.web.site import Site

    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    monkeypatch.setenv(connections.REQUEST_TIMEOUT_SETTING, "2")
    sock = server.bind("127.0.0.1", 0)
    try:
        site = Site(home, sid)
        config = server.make_server(site, sock).config
        assert config.timeout_keep_alive == 2 and site.guard.request_timeout == 2.0
    finally:
        sock.close()
