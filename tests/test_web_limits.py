"""How often and how much a page may post (issue 21, item 8).

A player's posts go through a bucket (10 at once, then 3 a second); past it the page says
"Too many taps" (429) and nothing is recorded. A body over 2 KiB is refused unread (413),
whether its length is given or it comes in chunks; a body that trickles in is cut off with
its connection (tests/test_web_connections.py)."""

from __future__ import annotations

import json
import re

from serve_support import hands, new_trans, site_and_client

from companion.web import limits


def journal_length(run) -> int:
    return len(json.loads(run(["log", "--json"], expect=0).stdout))


def test_the_bucket_allows_a_burst_then_a_steady_rate():
    now = [100.0]
    rate = limits.Rate(burst=3, rate=2.0, clock=lambda: now[0])
    assert [rate.allow("Ann") for _ in range(4)] == [True, True, True, False]
    assert rate.allow("Bob")  # another player has their own bucket
    now[0] += 0.5  # one more after half a second at 2 a second
    assert rate.allow("Ann") and not rate.allow("Ann")
    now[0] += 60
    assert [rate.allow("Ann") for _ in range(4)] == [True, True, True, False]  # never more than the burst


def test_a_player_posting_too_fast_is_told_and_nothing_is_recorded(run, home):
    sid = new_trans(run, special="pass-three")
    site, client, links = site_and_client(home, sid)
    now = [0.0]
    site.posts.clock = lambda: now[0]
    url = f"/p/{links['Ann']}/choose"
    ann = hands(home, sid)["Ann"]
    before = journal_length(run)
    for _ in range(limits.POST_BURST):
        assert client.post(url, data={"form": "0" * 32, "choice": ann[0]}).status_code == 403  # refused, counted
    form = re.search(r'name="form" value="([^"]+)"', client.get(f"/p/{links['Ann']}").text).group(1)
    too_many = client.post(url, data={"form": form, "choice": ann[0]}, follow_redirects=False)
    assert too_many.status_code == 429 and limits.TOO_MANY in too_many.text
    assert too_many.headers["retry-after"] == "1" and 'name="city"' in too_many.text  # still her page
    assert journal_length(run) == before
    bob = hands(home, sid)["Bob"]
    bob_form = re.search(r'name="form" value="([^"]+)"', client.get(f"/p/{links['Bob']}").text).group(1)
    assert client.post(f"/p/{links['Bob']}/choose", data={"form": bob_form, "choice": bob[0]},
                       follow_redirects=False).status_code == 303  # Bob is not slowed by Ann
    now[0] += 1.0
    form = re.search(r'name="form" value="([^"]+)"', client.get(f"/p/{links['Ann']}").text).group(1)
    assert client.post(url, data={"form": form, "choice": ann[0]}, follow_redirects=False).status_code == 303
    assert journal_length(run) == before + 2


def test_wrong_tokens_are_not_rate_limited_but_404(run, home):
    sid = new_trans(run, special="pass-three")
    site, client, links = site_and_client(home, sid)
    site.posts.clock = lambda: 0.0
    for _ in range(limits.POST_BURST + 2):
        assert client.post("/p/not-a-token/choose", data={"form": "x"}).status_code == 404
    assert site.posts.buckets == {}


def test_a_large_body_is_refused_unread_with_or_without_its_length(run, home):
    sid = new_trans(run, special="pass-three")
    _site, client, links = site_and_client(home, sid)
    url = f"/p/{links['Ann']}/choose"
    before = journal_length(run)
    assert client.post(url, content=b"form=" + b"x" * 5000,
                       headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 413

    def chunks():
        for _ in range(10):
            yield b"x" * 1024

    assert client.post(url, content=chunks(),
                       headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 413
    assert journal_length(run) == before
