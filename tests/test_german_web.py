"""The phones' and the TV's pages in the players' own languages (issue 28): each page follows
its own browser's Accept-Language, its switch (``?lang=``, remembered in a cookie for that page
only) wins over it, streams draw in their page's language, refusals speak the phone's, the
laptop is told in its own, numbers are written 68,5 in German and a decimal comma typed on a
phone is read; `serve`'s lines speak German; and, in the pseudo-language, no English of the
pages' own reaches a page (the games' screens inside them are their own areas')."""

from __future__ import annotations

import json
import re
from html import unescape

from pseudo_support import leaks
from serve_support import forms_on, new_trans, post_move, site_and_client

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
SHEET = ["Ann", "Bob", "Cy"]


def sheet(run, home):
    """A score sheet where each phone enters its own points, a round with half points in it."""
    run(["new", "scoresheet", "--players", ",".join(SHEET)], expect=0)
    run(["add", "Ann=68.5", "Bob=7", "Cy=3"], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    return site_and_client(home, sid, SHEET)


def lang_of(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


def what_it_posts(html: str) -> list:
    """What a page's forms send, without their tokens: the move, the fields, the buttons."""
    return [(f["action"], f["hidden"].get("move"), f["fields"], f["buttons"], f["options"], f["boxes"])
            for f in forms_on(html)]


def test_each_page_speaks_its_own_browsers_language_at_the_same_time(run, home):
    site, client, links = sheet(run, home)
    table = client.get(f"/t/{links['table']}", headers=GERMAN).text
    ann = client.get(f"/p/{links['Ann']}", headers=ENGLISH).text
    bob = client.get(f"/p/{links['Bob']}", headers=GERMAN).text
    assert (lang_of(table), lang_of(ann), lang_of(bob)) == ("de", "en", "de")
    for german in (table, bob):
        assert "<h2>Punktestand</h2>" in german and "<td>68,5</td>" in german
        assert "Diese Seite folgt dem Spiel von selbst." in german and "Die Balken messen sich am Führenden." in german
        assert "This page follows" not in german and "68.5" not in german
    assert "Punkteblock: der Tisch" in table  # the score sheet is a Punkteblock in German
    assert "<h2>Scores</h2>" in ann and "<td>68.5</td>" in ann and "This page follows the game by itself." in ann
    # the same page asked again in the other language is drawn apart, never mixed up by the cache
    assert lang_of(client.get(f"/p/{links['Ann']}", headers=GERMAN).text) == "de"
    assert lang_of(client.get(f"/p/{links['Ann']}", headers=ENGLISH).text) == "en"
    assert lang_of(client.get(f"/p/{links['Ann']}").text) == "en"  # no header: English


def test_the_switch_wins_over_the_browser_and_is_remembered_for_that_page_only(run, home):
    site, client, links = sheet(run, home)
    german = client.get(f"/p/{links['Ann']}", headers=GERMAN).text
    assert '<a href="?lang=en" lang="en" hreflang="en">English</a>' in german
    assert '<span lang="de" aria-current="true">Deutsch</span>' in german
    switched = client.get(f"/p/{links['Ann']}?lang=en", headers=GERMAN)
    assert lang_of(switched.text) == "en" and '<a href="?lang=de" lang="de" hreflang="de">Deutsch</a>' in switched.text
    cookie = switched.headers["set-cookie"]
    assert f"Path=/p/{links['Ann']}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    # remembered for Ann's page (its address, its stream and its posts), not for Bob's
    assert lang_of(client.get(f"/p/{links['Ann']}", headers=GERMAN).text) == "en"
    assert lang_of(client.get(f"/p/{links['Bob']}", headers=GERMAN).text) == "de"
    assert "set-cookie" not in client.get(f"/p/{links['Bob']}", headers=GERMAN).headers
    assert "set-cookie" not in client.get("/p/not-a-token-at-all-here?lang=de").headers  # a wrong link: nothing kept
    assert "set-cookie" not in client.get(f"/t/{links['Bob']}?lang=de").headers
    # the language changes the words around the forms, never what they post
    english = client.get(f"/p/{links['Ann']}?lang=en").text
    assert what_it_posts(english) == what_it_posts(german) and forms_on(german)
    # an unknown language is English; the table's switch is the table's own
    assert lang_of(client.get(f"/p/{links['Cy']}?lang=fr", headers=GERMAN).text) == "de"
    assert lang_of(client.get(f"/t/{links['table']}?lang=de").text) == "de"


def test_a_refusal_speaks_the_phones_language_and_the_laptop_is_told_in_its_own(run, home):
    site, client, links = sheet(run, home)
    told = []
    site.notify = told.append
    client.cookies.clear()
    refused = client.post(f"/p/{links['Ann']}/choose", headers=GERMAN,
                          data={"form": "0.0.0", "move": "score", "points": "3"})
    assert refused.status_code == 403 and lang_of(refused.text) == "de"
    assert "Dieses Formular hat der Laptop nicht für dich gezeichnet: lade die Seite neu und wähle noch einmal." \
        in refused.text
    # a decimal comma typed on a German phone is read: twelve and a half points
    html = client.get(f"/p/{links['Ann']}", headers=GERMAN).text
    assert 'inputmode="decimal"' in html and 'type="number"' not in html
    form = [f for f in forms_on(html) if f["hidden"].get("move") == "score"][0]
    done = client.post(form["action"].replace("{token}", links["Ann"]), headers=GERMAN,
                       data={**form["hidden"], "points": "12,5"}, follow_redirects=False)
    assert done.status_code == 303
    last = json.loads(run(["log", "--json"], expect=0).stdout)[-1]["event"]
    assert last["type"] == "score" and last["points"] == 12.5, last
    assert told == ["From Ann's phone: Ann entered their points."]  # the laptop speaks its own language (English)
    assert post_move(client, links["Bob"], "score", {"points": "2,5"}).status_code == 303  # an English phone: read too
    assert post_move(client, links["Cy"], "score", {"points": "1"}).status_code == 303
    table = client.get(f"/t/{links['table']}", headers=GERMAN).text
    assert "<td>81</td>" in table and "<td>9,5</td>" in table


def test_the_error_pages_speak_the_browsers_language(run, home):
    site, client, links = sheet(run, home)
    missing = client.get("/p/not-a-token-at-all-here", headers=GERMAN)
    assert missing.status_code == 404 and lang_of(missing.text) == "de"
    assert "<h1>Nicht gefunden</h1>" in missing.text and "`serve`" in missing.text
    assert client.get("/p/not-a-token-at-all-here", headers=GERMAN).text == missing.text  # the same bytes
    wrong = client.put(f"/t/{links['table']}", headers=GERMAN)
    assert wrong.status_code == 405 and "(nur GET und HEAD)" in wrong.text
    english = client.get("/p/not-a-token-at-all-here", headers=ENGLISH)
    assert "<h1>Not found</h1>" in english.text and lang_of(english.text) == "en"
    too_large = client.post(f"/p/{links['Ann']}/choose", headers={**GERMAN, "content-type": "text/plain"},
                            content=b"x")
    assert too_large.status_code == 400 and "Wähle mit den Knöpfen auf dieser Seite." in too_large.text


# -- the pseudo-language: no English of the pages' own -------------------------------------------------

OWN = re.compile(r"<header>.*?</header>|<footer>.*?</footer>|<section class=\"scores\">.*?</section>"
                 r"|<section class=\"wide now\">.*?</section>|<section class=\"wide error\">.*?</section>"
                 r"|<summary>.*?</summary>|<nav class=\"zoom\".*?</nav>|<section class=\"wide move\">.*?</section>"
                 r"|<form[^>]*class=\"(?:every|picker)\".*?</label>|<title>.*?</title>", re.S)


def own_words(html: str) -> str:
    """The text the pages draw themselves (their header, footer, scores, refusals, waiting line,
    take-back, zoom and list labels, labels said to a screen reader), not a game's screen."""
    values = r"<svg\b.*?</svg>|<select\b.*?</select>|<div class=\"choices\">.*?</div>"  # the cities to choose
    html = re.sub(r'(<section class="wide move"><h2>[^<]*</h2>)<p>.*?</p>', r"\1", html)  # the move said: the game's
    parts = OWN.findall(re.sub(values, "", html, flags=re.S))
    labels = re.findall(r'<(?:nav|a) [^>]*aria-label="([^"]*)"', html)
    return unescape(re.sub(r"<[^>]+>", " ", " ".join(parts + labels)))


def test_no_english_of_the_pages_own_in_the_pseudo_language(run, home):
    sid = new_trans(run, special=None)  # every phone places its start marker on the board to tap
    site, client, links = site_and_client(home, sid)
    names = ["Ann", "Bob", "Cy", "Dan", "Trans", "Europa", "Deutsch", "English", "GET", "HEAD", "POST", "Tabletop",
             "Companion", sid]  # the session's id is drawn as it is: random letters, read as a word once
    shown = {}
    for who in ["table", "Ann", "Bob"]:
        shown[who] = client.get(f"/{'t' if who == 'table' else 'p'}/{links[who]}?lang=xx").text
    shown["closer"] = client.get(f"/p/{links['Ann']}?lang=xx&z=4&pick=249.0,174.0").text  # zoomed, a tap to pick from
    shown["404"] = client.get("/p/not-a-token-at-all-here?lang=xx").text
    shown["405"] = client.delete(f"/p/{links['Ann']}?lang=xx").text
    shown["stale"] = client.post(f"/p/{links['Ann']}/choose", data={"form": "0.0.0", "move": "start"}).text
    shown["odd"] = client.post(f"/p/{links['Ann']}/choose", content=b"x", headers={"content-type": "text/plain"}).text
    assert post_move(client, links["Ann"], "start", {"junction": "Berlin"}).status_code == 303
    shown["taken back"] = client.get(f"/p/{links['Ann']}").text  # the take-back form
    shown["off"] = post_move(client, links["Bob"], "start", {"tap.x": "9999", "tap.y": "1"}).text
    for p, city in (("Bob", "Wien"), ("Cy", "Madrid"), ("Dan", "Roma")):
        assert post_move(client, links[p], "start", {"junction": city}).status_code == 303
    shown["waiting"] = client.get(f"/p/{links['Dan']}?lang=xx").text  # whose turn it is
    pieces = ("Farther", "The whole board", "Which one?", "That tap was off", "Take it back", "Nothing for you")
    for who, html in shown.items():
        assert lang_of(html) == "xx", who
        assert leaks(own_words(html), allowed=names) == [], (who, own_words(html))
    with_english = {who: client.get(f"/p/{links[who]}?lang=en").text for who in ("Ann", "Dan")}
    english = " ".join([*with_english.values(), client.get(f"/p/{links['Ann']}?lang=en&z=4&pick=249.0,174.0").text])
    found = {piece for piece in pieces if piece in english}
    assert found >= {"Farther", "The whole board", "Take it back", "Nothing for you"}, found  # what was looked at


def test_the_table_page_says_the_winners_and_the_waiting_in_german(run, home):
    from companion.contract.language import using
    from companion.web import pages, views

    with using("de"):
        assert views.result_lines({"finished": True, "winners": ["Ann"]}) == ["Das Spiel ist vorbei: Ann gewinnt."]
        assert views.result_lines({"finished": True, "winners": ["Ann", "Bob", "Cy"]}) == [
            "Das Spiel ist vorbei: Ann, Bob und Cy gewinnen."]
        assert "Gerade nichts für dich zu tun: Bob und Cy sind am Zug." in pages.waiting(["Bob", "Cy"], "Ann")
        assert "Gerade nichts für dich zu tun: Bob ist am Zug." in pages.waiting(["Bob"], "Ann")
        assert "Weitere Züge (2)" in pages.more(["", ""])
        assert "Die Balken füllen sich bis 68,5." in pages.score_bars({"players": []}, 68.5)
    with using("en"):
        assert views.result_lines({"finished": True, "winners": ["Ann", "Bob"]}) == ["The game is over: Ann and Bob win."]
        assert "it is Bob and Cy&#x27;s turn." in pages.waiting(["Bob", "Cy"], "Ann")


def test_serve_speaks_german_on_the_laptop(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    stopped = run(["--lang", "de", "serve", "--stop"], expect=1)
    assert "Es läuft kein Server: `serve` startet einen." in stopped.output + (stopped.stderr or "")
    usage = run(["--lang", "de", "serve", "--force"], expect=2)
    assert "--qr-format und --force gehören zu --qr-dir DIR." in usage.output + (usage.stderr or "")


def test_a_german_laptop_is_told_in_german_of_an_english_phones_move(run, home, monkeypatch):
    from companion.contract import language

    site, client, links = sheet(run, home)
    told = []
    site.notify = told.append
    monkeypatch.setattr(language, "_process", "de")  # the laptop speaks German (`language de`)
    html = client.get(f"/p/{links['Ann']}", headers=ENGLISH).text
    assert lang_of(html) == "en" and "Scores" in html  # the phone's own language, whatever the laptop's
    assert post_move(client, links["Ann"], "score", {"points": "4"}).status_code == 303
    assert told and told[-1].startswith("Vom Handy von Ann: "), told


def test_serve_in_the_pseudo_language_keeps_its_links_lines_and_says_the_rest_through_the_catalogue(run, home,
                                                                                                   tmp_path):
    from browser_support import link_line, stop
    from click.testing import CliRunner
    from warm_support import answering, serve_process

    from companion.terminal.cli import cli

    def said(*args: str):  # the other commands in this process (their language read as a process's)
        return CliRunner().invoke(cli, list(args), env={"LANGUAGE": "xx"})

    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    ids = [p.name[:8] for p in (home / "sessions").glob("*.json")]  # an id is said as it is: random letters
    proc = serve_process(home, "--port", "0", env={"LANGUAGE": "xx"})  # the server a process of its own
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
        assert [link_line(line)[:2] for line in lines] == [("table", None), ("player", "Ann"), ("player", "Bob"),
                                                           ("join", None)]
        again = said("serve", "--links")
        assert again.stdout.splitlines() == [line.rstrip("\n") for line in lines]  # what scripts read: as it was
        codes = said("serve", "--links", "--qr-dir", str(tmp_path))
        named = [line for line in codes.stdout.splitlines() if not line.startswith(("table ", "join ", "  "))]
        assert named, (codes.exit_code, codes.stdout, codes.stderr)
        assert leaks(" ".join(named), allowed=["QR", "Ann", "Bob", *ids]) == [], named  # each file named with its player
        answering(lines[0].split()[1])  # serving: it has said all it says before
        stopping = said("serve", "--stop")
        assert stopping.exit_code == 0 and stopping.stdout.strip() and leaks(stopping.stdout, allowed=ids) == [], stopping.stdout
        proc.wait(timeout=30)
        told = proc.stderr.read()
        assert "Score sheet" in told or "Šçöŕé" in told  # the session's line: its game named
        assert leaks(told, allowed=["Score", "sheet", "Ctrl", *ids]) == [], told
    finally:
        stop(proc)
    for args in (["serve", "--stop"], ["serve", "--force"]):
        refused = said(*args)
        wrapper = ["Error", "shows", "how", "write"]  # the terminal's words around a usage error: its own area
        assert refused.exit_code in (1, 2) and leaks(refused.stderr, allowed=[*wrapper, *ids]) == [], refused.stderr
