"""The access log writes the route's name and the status, never a path (issue 22, S3).

Before: the log rewrote only paths starting `/p/` or `/t/`, so `//p/TOKEN`, `/P/TOKEN`,
`/./p/TOKEN` and `/x/TOKEN` (sent as they are, `curl --path-as-is`) put the real token in
`web/access.log`. Now nothing of a request's address is written at all."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

from live_support import Served, get, new_trans, raw

ROUTES = {"table page", "table version", "table live", "player page", "player version", "player live",
          "player move", "unknown"}
LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d (\S+) (GET|HEAD|POST|PUT|DELETE|PATCH|OPTIONS|other) "
                  r"(.+) (\d{3}) \d+\.\dms$")


def test_no_spelling_of_an_address_puts_a_token_in_the_log(home):
    new_trans(home)
    with Served(home) as srv:
        ann, table = srv.token("Ann"), srv.token(None)
        misshaped = [f"//p/{ann}", f"/P/{ann}", f"/./p/{ann}", f"/x/{ann}", f"/p/{ann}/../{ann}",
                     f"/p/%{ann.encode().hex()[:2]}{ann[1:]}", f"/%2Fp%2F{ann}", f"/p/{ann}/", f"/p/{ann}//v",
                     f"/t/{table}/x", f"/p/{ann}?again={ann}", f"/?{ann}", f"/{ann}", f"/p/{ann};{ann}",
                     f"http://{srv.host}:{srv.port}/p/{ann}", f"/p/{ann}%00", f"/p/{ann}/live?v={ann}"]
        # all at once: past the tenth wrong address from one place each answer is slowed (up to
        # 5 s), and one after the other they took 20 s
        with ThreadPoolExecutor(len(misshaped) + 3) as pool:
            # (a live page's stream, the last, answers and then stays open: its line is written
            # when it ends, with the server; the test does not wait 10 s for it to end first)
            waits = [pool.submit(get, srv.host, srv.port, path, timeout=1.0 if "/live" in path else 10.0)
                     for path in misshaped]
            waits += [pool.submit(raw, srv.host, srv.port,  # a method is any word: the token itself, say
                                  f"{method} /p/{ann} HTTP/1.1\r\nHost: {srv.host}:{srv.port}\r\n"
                                  f"Connection: close\r\n\r\n".encode()) for method in (ann, "TRACE", "PROPFIND")]
            for wait in waits:
                wait.result()
        get(srv.host, srv.port, f"/p/{ann}", headers={"Referer": f"http://x/p/{ann}", "User-Agent": ann})
        assert get(srv.host, srv.port, f"/p/{ann}")[0] == 200
        assert get(srv.host, srv.port, f"/t/{table}/v")[0] == 200
    text = (home / ".local" / "web" / "access.log").read_text()
    for token in [*(srv.token(p) for p in srv.players), table]:
        assert token not in text
    lines = text.splitlines()
    assert len(lines) >= len(misshaped) + 4
    for line in lines:
        found = LINE.match(line)
        assert found and found.group(3) in ROUTES, line
    assert "GET player page 200" in text and "GET table version 200" in text
    assert "GET unknown 404" in text and "other player page" in text
    assert "/" not in "".join(LINE.match(line).group(3) for line in lines)


def test_errors_log_holds_no_token_either(home):
    new_trans(home)
    with Served(home) as srv:
        for path in (f"//p/{srv.token('Ann')}", f"/x/{srv.token('Bob')}"):
            assert get(srv.host, srv.port, path)[0] == 404
    errors = home / ".local" / "errors.log"
    assert not errors.exists() or all(srv.token(p) not in errors.read_text() for p in srv.players)
