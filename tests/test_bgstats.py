"""Sending a play to BG Stats (issue 23): `export --format bgstats` writes the play's JSON and
`export --format bgstats-link` its link; `report` and the phones' game-over page offer "Add to
BG Stats" as a link and a QR code.

The JSON Schema below is written from the example of BG Stats' support page "Push plays to BG
Stats from other apps or websites" (the link `https://app.bgstatsapp.com/createPlay.html?data=`
with an url-encoded JSON of this shape): every key the example shows, with its type, and no
other key (additionalProperties false), so a field the companion made up would fail here."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from urllib.parse import unquote, urlsplit

import jsonschema
import pytest

PLAYER = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "winner"],
    "properties": {
        "name": {"type": "string", "minLength": 1},             # "Eerko"
        "score": {"type": "number"},                            # 47.3
        "rank": {"type": "integer", "minimum": 1},              # 1
        "winner": {"type": "boolean"},                          # true
        "startPlayer": {"type": "boolean"},                     # true
        "role": {"type": "string"},                             # ""
        "sourcePlayerId": {"type": "string", "minLength": 1},   # "23432"
    },
}
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["sourceName", "sourcePlayId", "playDate", "game", "players"],
    "properties": {
        "sourceName": {"type": "string", "minLength": 1},                  # "App name"
        "sourcePlayId": {"type": "string", "minLength": 1},                # "2222427"
        "playDate": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$"},  # "2020-10-23 19:16:58"
        "durationMin": {"type": "integer", "minimum": 0},                  # 36
        "location": {"type": "string"},                                    # "Home"
        "comments": {"type": "string"},                                    # "Such a close play!"
        "board": {"type": "string"},                                       # ""
        "game": {
            "type": "object",
            "additionalProperties": False,
            "required": ["name", "highestWins", "noPoints", "sourceGameId"],
            "properties": {
                "bggId": {"type": "integer", "minimum": 1},                # 132531
                "highestWins": {"type": "boolean"},                        # true
                "name": {"type": "string", "minLength": 1},                # "Roll for the Galaxy"
                "noPoints": {"type": "boolean"},                           # false
                "sourceGameId": {"type": "string", "minLength": 1},        # "21df231"
            },
        },
        "players": {"type": "array", "minItems": 1, "items": PLAYER},
    },
}
VALID = jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker())


def bgstats(run, *args) -> dict:
    play = json.loads(run(["export", *args, "--format", "bgstats"], expect=0).stdout)
    VALID.validate(play)
    return play


def from_link(link: str) -> dict:
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    query = parts.query
    assert query.startswith("data=") and "&" not in query
    assert re.fullmatch(r"[A-Za-z0-9\-_.!~*'()%]+", query[5:]), "encoded as encodeURIComponent does"
    play = json.loads(unquote(query[5:]))
    VALID.validate(play)
    return play


def test_the_schema_takes_the_documented_example():
    example = {"board": "", "durationMin": 36, "comments": "Such a close play!",
               "game": {"bggId": 132531, "highestWins": True, "name": "Roll for the Galaxy", "noPoints": False,
                        "sourceGameId": "21df231"},
               "location": "Home", "playDate": "2020-10-23 19:16:58",
               "players": [{"startPlayer": True, "name": "Eerko", "rank": 1, "role": "", "score": 47.3,
                            "sourcePlayerId": "23432", "winner": True},
                           {"startPlayer": False, "name": "Suzan", "rank": 2, "role": "", "score": 36.3,
                            "sourcePlayerId": "23433", "winner": False}],
               "sourceName": "App name", "sourcePlayId": "2222427"}
    VALID.validate(example)
    with pytest.raises(jsonschema.ValidationError):
        VALID.validate({**example, "teams": []})


def test_a_live_play_gives_every_field(run):
    run(["new", "scoresheet", "--title", "Roll for the Galaxy", "--bgg-id", "132531", "--players", "Eerko,Suzan",
         "--start", "Suzan", "--location", "Home", "--roles", "Eerko=blue"], expect=0)
    run(["add", "Eerko=47.3", "Suzan=36.3"], expect=0)
    run(["note", "Such a close play!"], expect=0)
    run(["finish"], expect=0)
    play = bgstats(run)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    assert play["sourceName"] == "Tabletop Companion" and play["sourcePlayId"] == sid
    assert play["game"] == {"name": "Roll for the Galaxy", "bggId": 132531, "highestWins": True, "noPoints": False,
                            "sourceGameId": "Roll for the Galaxy"}
    assert play["location"] == "Home" and play["comments"] == "Such a close play!"
    assert isinstance(play["durationMin"], int)
    assert play["players"] == [
        {"name": "Suzan", "score": 36.3, "rank": 2, "winner": False, "startPlayer": True, "sourcePlayerId": "suzan"},
        {"name": "Eerko", "score": 47.3, "rank": 1, "winner": True, "role": "blue", "sourcePlayerId": "eerko"},
    ]
    link = run(["export", "--format", "bgstats-link"], expect=0).stdout.strip()
    assert from_link(link) == play


@pytest.mark.parametrize("args, check", [
    (["atlantic-star", "--players", "Ann=30,Bob=25", "--played-on", "2026-03-01T19:30"],
     lambda p: p["game"]["bggId"] == 2570 and p["playDate"] == "2026-03-01 19:30:00"),
    (["Golf", "--lowest-wins", "--players", "Ann=70,Bob=75", "--played-on", "2026-03-01"],
     lambda p: not p["game"]["highestWins"] and p["playDate"] == "2026-03-01 00:00:00"
     and [x["rank"] for x in p["players"]] == [1, 2] and "bggId" not in p["game"]),
    (["Pandemic", "--coop", "--players", "Ann,Bob", "--won", "--length", "50m"],
     lambda p: p["game"]["noPoints"] and all(x["winner"] for x in p["players"]) and p["durationMin"] == 50
     and "won together" in p["comments"] and not any("rank" in x or "score" in x for x in p["players"])),
    (["Codenames", "--teams", "Ann+Bob=1,Cy+Dee=0"],
     lambda p: [x["winner"] for x in p["players"]] == [True, True, False, False]
     and [x["rank"] for x in p["players"]] == [1, 1, 2, 2] and "Teams: Ann+Bob, Cy+Dee" in p["comments"]),
    (["Azul", "--ranks", "Ann=2,Bob=1"], lambda p: p["game"]["noPoints"] and [x["rank"] for x in p["players"]] == [2, 1]),
])
def test_logged_plays_of_every_kind(run, args, check):
    run(["played", *args], expect=0)
    sid = json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["id"]
    play = bgstats(run, sid)
    assert check(play), play
    assert from_link(run(["export", sid, "--format", "bgstats-link"], expect=0).stdout.strip()) == play


def test_a_play_not_over_is_refused_in_one_line(run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    assert "still in play" in run(["export", "--format", "bgstats"], expect=1).stderr
    run(["abandon"], expect=0)
    assert "abandoned" in run(["export", "--format", "bgstats-link"], expect=1).stderr
    assert "one play" in run(["export", "--format", "bgstats", "--game", "scoresheet"], expect=1).stderr


def test_names_follow_renames(run):
    run(["played", "Azul", "--players", "Bbo=3,Cy=1"], expect=0)
    run(["player", "rename", "Bbo", "Bob"], expect=0)
    sid = json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["id"]
    assert [p["name"] for p in bgstats(run, sid)["players"]] == ["Bob", "Cy"]


def test_report_offers_the_link_and_its_html_the_qr_code(run, tmp_path, monkeypatch):
    run(["played", "Azul", "--players", "Ann=3,Bob=1"], expect=0)
    sid = json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["id"]
    out = run(["report", sid], expect=0).stdout
    link = next(line for line in out.splitlines() if line.startswith("https://app.bgstatsapp.com/"))
    assert from_link(link)["sourcePlayId"] == sid and "Add to BG Stats" in out
    page = tmp_path / "r.html"
    run(["report", sid, "--html", str(page)], expect=0)
    html = page.read_text(encoding="utf-8")
    assert "Add to BG Stats" in html and "<svg" in html.split("Add to BG Stats")[1]
    assert html.count('href="https://app.bgstatsapp.com/createPlay.html?data=') == 1
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    assert "BG Stats" not in run(["report"], expect=0).stdout, "only once the game is over"


def pgm(rows: list[str]) -> bytes:
    """A picture of the terminal QR code as the terminal shows it (each character two modules
    high: the drawn halves dark, the rest light), 8 pixels a module."""
    dark = {" ": (0, 0), "▀": (1, 0), "▄": (0, 1), "█": (1, 1)}
    plain = [re.sub(r"\x1b\[[0-9;]*m", "", row) for row in rows]
    grid = []
    for row in plain:
        top = [dark[c][0] for c in row]
        bottom = [dark[c][1] for c in row]
        grid += [top, bottom]
    scale = 8
    width, height = len(grid[0]) * scale, len(grid) * scale
    body = bytearray()
    for line in grid:
        pixels = bytes(0 if v else 255 for v in line for _ in range(scale))
        body += pixels * scale
    return f"P5 {width} {height} 255\n".encode() + bytes(body)


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg is not installed")
def test_the_terminal_qr_code_scans_to_the_link(run, tmp_path):
    from companion.record import bgstats

    run(["played", "Azul", "--players", "Ann=3,Bob=1"], expect=0)
    sid = json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["id"]
    link = run(["export", sid, "--format", "bgstats-link"], expect=0).stdout.strip()
    rows = bgstats.qr_rows(link)
    assert all(row.startswith("\x1b[30;47m") for row in rows), "black on white, whatever the terminal's colours"
    picture = tmp_path / "qr.pgm"
    picture.write_bytes(pgm(rows))
    found = subprocess.run(["zbarimg", "-q", "--raw", str(picture)], capture_output=True, text=True, timeout=60)
    assert found.returncode == 0 and found.stdout.strip() == link
    # a wide enough terminal shows it under the report; a narrow one says where it is
    wide = run(["report", sid], expect=0)
    assert "The QR code" in wide.stdout  # piped: no colour, so it points to the page


def test_on_a_terminal_report_draws_the_code_when_it_fits(tmp_path, home, run):
    from pty_support import run_command

    from companion.record import bgstats

    run(["played", "Azul", "--players", "A=3,B=1"], expect=0)  # the table set up in-process; the report in a pty
    sid = json.loads(run(["sessions", "--json"], expect=0).stdout)[0]["id"]
    link = run(["export", sid, "--format", "bgstats-link"], expect=0).stdout.strip()
    need = bgstats.qr_width(link)
    wide = run_command(["report", sid], home, columns=need + 2, rows=200)
    assert "▀" in wide.raw or "▄" in wide.raw
    narrow = run_command(["report", sid], home, columns=need - 1, rows=200)
    assert f"The QR code needs {need} columns" in " ".join(narrow.lines)


def test_the_phone_pages_offer_it_once_the_game_is_over(run, home):
    from serve_support import site_and_client

    run(["new", "scoresheet", "--players", "Ann,Bob", "--title", "Azul"], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    run(["add", "Ann=3", "Bob=1"], expect=0)
    site, client, links = site_and_client(home, sid, ["Ann", "Bob"])
    assert "BG Stats" not in client.get(f"/t/{links['table']}").text
    run(["finish"], expect=0)
    table = client.get(f"/t/{links['table']}").text
    phone = client.get(f"/p/{links['Ann']}").text
    for text in (table, phone):
        found = re.search(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"', text)
        assert found, "Add to BG Stats on the page"
        import html

        assert from_link(html.unescape(found.group(1)))["sourcePlayId"] == sid
    assert "<svg" in table.split("Add to BG Stats")[1], "the table's page (a TV) shows the QR code"
