"""The server's error pages are pages: they pass axe-core and the Nu HTML checker (issue 29).

Before: the 404 page was `<p>Not found.</p>` (axe: `landmark-one-main`, `page-has-heading-one`,
`region`), and a 500 was the plain text "Something went wrong inside companion." (as a document:
no title, no language). Now every answer that is not a game's page (404, 400 for another
address, 405, 431, 500) is one of :func:`companion.web.pages.error_page`'s. The Nu checker reads
them (:func:`error_answers`) in tests/test_report_accessibility.py, in the one run of it that
reads the reports: a run starts a Java of its own (~2 s of CPU)."""

from __future__ import annotations

from axe_support import summary, violations
from browser_support import chrome, quit_chrome
from live_support import Served, new_trans
from long_mode import LONG


def error_answers(home, run, tmp_path) -> dict[str, tuple[int, str]]:
    """Each kind of error answer as the site gives it: {name: (status, html)}."""
    from serve_support import new_trans as new_trans_here
    from serve_support import site_and_client

    sid = new_trans_here(run)
    site, client, links = site_and_client(home, sid)
    out = {}
    answer = client.get("/p/" + "x" * 24)
    out["404"] = (answer.status_code, answer.text)
    answer = client.get(f"/p/{links['Ann']}", headers={"Host": "evil.example"})
    out["400 host"] = (answer.status_code, answer.text)
    answer = client.post(f"/t/{links['table']}")
    out["405"] = (answer.status_code, answer.text)
    answer = client.get(f"/p/{links['Ann']}", headers={"X-Big": "x" * 9000})
    out["431"] = (answer.status_code, answer.text)

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug of ours")

    site.render = broken
    answer = client.get(f"/t/{links['table']}")
    out["500"] = (answer.status_code, answer.text)
    assert answer.headers["content-type"].startswith("text/html")
    return out


def test_each_error_is_a_whole_page_with_its_status(home, run, tmp_path):
    found = error_answers(home, run, tmp_path)
    assert {k: v[0] for k, v in found.items()} == {"404": 404, "400 host": 400, "405": 405, "431": 431, "500": 500}
    for name, (_status, text) in found.items():
        assert text.startswith("<!doctype html>") and '<html lang="en">' in text, name
        assert text.count("<h1>") == 1 and "<main>" in text and "<title>" in text, name
    assert "Something went wrong" in found["500"][1] and "ZeroDivisionError" not in found["500"][1]
    log = (home / ".local" / "errors.log").read_text(encoding="utf-8")
    assert "ZeroDivisionError" in log


# Every error answer is one template with its own words: by default axe reads the 500 (the
# longest words) as a file and the 404 from a real server; each answer with COMPANION_LONG_TESTS=1.
ONE_TEMPLATE = ("500",)


def test_the_error_pages_pass_axe_core(home, run, tmp_path, monkeypatch):
    """Each error answer as a file (the 500 by default), and the 404 of a real server, in one browser."""
    found = error_answers(home, run, tmp_path)
    served = tmp_path / "served"
    monkeypatch.setenv("COMPANION_HOME", str(served))
    new_trans(served)
    web = chrome(412, 915)
    try:
        bad = {}
        for name, (_status, text) in found.items():
            if not (LONG or name in ONE_TEMPLATE):
                continue
            page = tmp_path / f"{name.replace(' ', '-')}.html"
            page.write_text(text, encoding="utf-8")
            web.get(page.as_uri())
            if violations(web):
                bad[name] = summary(violations(web))
        with Served(served) as srv:
            web.get(f"http://{srv.host}:{srv.port}/p/" + "z" * 24)
            assert "Not found" in web.title
            if violations(web):
                bad["a real server's 404"] = summary(violations(web))
        assert not bad, bad
    finally:
        quit_chrome(web)
