"""One code for the table (issue 31, item 1): the table's link opens a choosing page; a phone
chooses a seat not yet taken and is sent to that player's own page; a seat taken stays taken
until the laptop frees it (`serve --free NAME`, also while serving); the choosing page shows no
card; a player's own link still works, and takes the seat."""

from __future__ import annotations

import json

from serve_support import PLAYERS, hands, new_trans, site_and_client


def offered(html: str) -> list[str]:
    import re

    return re.findall(r'name="seat" value="([^"]+)"', html)


def test_a_phone_chooses_a_free_seat_and_gets_that_players_page(run, home):
    sid = new_trans(run)
    site, client, links = site_and_client(home, sid)
    page = client.get(f"/t/{links['table']}/join")
    assert page.status_code == 200 and offered(page.text) == PLAYERS
    every_card = {c for cards in hands(home, sid).values() for c in cards}
    assert not any(c in page.text for c in every_card)  # the choosing page shows no card
    assert f'href="/t/{links["table"]}"' in page.text  # the TV chooses the table's page
    chose = client.post(f"/t/{links['table']}/join", data={"seat": "Bob"}, follow_redirects=False)
    assert chose.status_code == 303 and chose.headers["location"] == f"/p/{links['Bob']}"
    assert offered(client.get(f"/t/{links['table']}/join").text) == ["Ann", "Cy", "Dan"]
    again = client.post(f"/t/{links['table']}/join", data={"seat": "Bob"}, follow_redirects=False)
    assert again.status_code == 409 and "already taken" in again.text and links["Bob"] not in again.text
    nobody = client.post(f"/t/{links['table']}/join", data={"seat": "Zed"}, follow_redirects=False)
    assert nobody.status_code == 409 and "Choose your name" in nobody.text
    client.get(f"/p/{links['Cy']}")  # Cy's own code, scanned: the seat is taken too
    assert offered(client.get(f"/t/{links['table']}/join").text) == ["Ann", "Dan"]


def test_a_players_link_opens_no_choosing_page_and_a_wrong_one_is_the_404(run, home):
    sid = new_trans(run)
    site, client, links = site_and_client(home, sid)
    assert client.get(f"/t/{links['Ann']}/join").status_code == 404
    assert client.post(f"/t/{links['Ann']}/join", data={"seat": "Ann"}).status_code == 404
    assert client.get(f"/t/{links['table']}x/join").status_code == 404
    assert client.get(f"/p/{links['table']}/join").status_code == 404


def test_serve_free_frees_a_seat_while_the_server_runs(run, home):
    from test_serve_command import fetch
    import urllib.request

    from warm_support import serve_links, stop_served

    sid = new_trans(run)
    proc, links = serve_links(home)  # forked from the warm web process
    try:
        join = links["table"] + "/join"
        assert fetch(join)[0] == 200
        request = urllib.request.Request(join, data=b"seat=Ann", method="POST")
        with urllib.request.urlopen(request, timeout=5) as r:  # followed to Ann's page
            body = r.read().decode()
            assert r.status == 200 and all(c in body for c in hands(home, sid)["Ann"]), body[-3000:]
        assert "Ann" not in [s for s in offered(fetch(join)[1])]
        assert json.loads((home / ".local" / "web" / "seats.json").read_text()) == {sid: ["Ann"]}
        said = run(["serve", "--free", "Ann"], expect=0).stdout
        assert "Ann's seat is free" in said
        assert offered(fetch(join)[1]) == PLAYERS
        assert "Zed is not a player" in run(["serve", "--free", "Zed"], expect=1).stderr
        assert "nothing to free" in run(["serve", "--free", "Bob"], expect=0).stdout
        run(["serve", "--new-links"], expect=0)  # every link changed: every seat is free again
        assert json.loads((home / ".local" / "web" / "seats.json").read_text()) == {sid: []}
    finally:
        stop_served(home, proc)
    assert oct((home / ".local" / "web" / "seats.json").stat().st_mode & 0o777) == "0o600"


def test_piped_serve_prints_the_tables_code_last(run, home):
    from warm_support import serve_process, stop_served

    new_trans(run)
    proc = serve_process(home, "--port", "0")  # forked from the warm web process
    lines = []
    try:
        lines = [proc.stdout.readline().split() for _ in range(2 + len(PLAYERS))]
        assert [line[0] for line in lines] == ["table"] + ["player"] * len(PLAYERS) + ["join"]
        assert lines[-1][1] == lines[0][1] + "/join"
    finally:
        stop_served(home, proc, lines[0][1] if lines else None)
