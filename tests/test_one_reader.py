"""One reader of a move's values (issue 27, item 2): typed words, the shell's answers and a
phone's posted fields are read by ``companion.contract.reader.read_move``, with the same kinds,
counts and refusals, in the game's own words.

Before, the terminal and the phones each had their own rules: a phone posting the one-choice
rail field four times built four rails in one turn ("Ann, 4 of 2 rails' worth placed") without
the warning a typed `build` gives, and a private number on a phone was always refused with
Trans Europa's words ("That is not one of the cities you may choose: use a button on this
page.").

The comparisons read the same values as the terminal reads a command line (the words of the
line) and as a page reads a post (its fields, through ``forms.read_post``), on real sessions
of every built-in game; the four-rails post, the warning and the private number go through the
real site (Starlette's test client) and the real command line.
"""

from __future__ import annotations

import json
import re
import shutil
from html import unescape
from pathlib import Path

import pytest

from serve_support import PLAYERS, forms_on, new_trans, post_move, site_and_client, transatlantic_cards

from companion.contract import reader
from companion.contract.declare import (At, Flag, Move, Number, Numbers, OneOf, Pairs, Param, Player, Text,
                                        offered)
from companion.contract.errors import CompanionError
from companion.core.app import App


# -- reading the same values typed and posted --------------------------------------------------------

def _at(home: Path, viewer: str | None = None) -> At:
    app = App(home)
    s, replay = app.loaded()
    return At(s, replay, viewer, host=app)


def typed(home: Path, move: Move, words: dict[str, list[str]]):
    """What the terminal reads of a command line's words: ('read', args) or ('refused', words)."""
    try:
        return "read", reader.read_move(move, _at(home), words, words=True)
    except CompanionError as exc:
        return "refused", exc.message


def posted(home: Path, move: Move, fields: dict[str, list[str]], player: str = "Ann"):
    """What a page reads of a post of ``move``'s form by ``player``: ('read', args) or ('refused', words)."""
    from companion.web import forms

    at = _at(home, player)
    choices = offered(move, at, player)
    try:
        return "read", forms.read_post(at, move, choices, fields, forms.PageView(), player)
    except forms.Unreadable as exc:
        return "refused", exc.message
    except CompanionError as exc:
        return "refused", exc.message


def try_move(*params: Param) -> Move:
    """A move of the test's own, made by a player on their phone, taking ``params``."""
    return Move("try", [Param("player", Player(), "Who."), *params], lambda at: {"type": "try", **at.args},
                help="A move of the test.", phone=True)


def alike(home: Path, move: Move, words: dict[str, list[str]], fields: dict[str, list[str]], player: str = "Ann"):
    """The words typed (the player named first) and the fields posted by ``player`` read alike."""
    said = typed(home, move, {"player": [player], **words})
    sent = posted(home, move, fields, player)
    assert said == sent, (words, fields)
    return said


def _common_cases():
    """(param, typed words, posted fields, read or refused, the value or the refusal's words)."""
    strict = OneOf(["red", "blue"], "COLOUR", what="a colour", strict=True)
    loose = OneOf(["red", "blue"], "COLOUR")
    return [
        (Param("who", Player()), ["bob"], ["bob"], "read", "Bob"),
        (Param("who", Player()), ["Zed"], ["Zed"], "refused", None),
        (Param("who", Player(), many=True), ["Ann", "cy"], ["Ann", "cy"], "read", ["Ann", "Cy"]),
        (Param("points", Number(0, 10, "points, a whole number")), ["7"], ["7"], "read", 7),
        (Param("points", Number(0, 10, "points, a whole number")), ["11"], ["11"], "refused",
         "'11' is not points: points, a whole number from 0 to 10."),
        (Param("points", Number(0, 10, "points, a whole number")), ["x"], ["x"], "refused",
         "'x' is not points: points, a whole number from 0 to 10."),
        (Param("points", Number(decimals=True)), ["2.5"], ["2.5"], "read", 2.5),
        (Param("dice", Numbers(5, 1, 6, "3,3,3,5,5", "five dice")), ["3,3,3,5,5"], ["3,3,3,5,5"], "read",
         [3, 3, 3, 5, 5]),
        (Param("dice", Numbers(5, 1, 6, "3,3,3,5,5", "five dice")), ["3,3"], ["3,3"], "refused",
         "'3,3' is not five dice: write them like 3,3,3,5,5"),
        (Param("note", Text()), ["a", "long", "road"], ["a long road"], "read", "a long road"),
        (Param("note", Text(5)), ["a", "long", "road"], ["a long road"], "refused",
         "Note is one line of at most 5 characters."),
        (Param("colour", strict), ["RED"], ["RED"], "read", "red"),
        (Param("colour", strict), ["green"], ["green"], "refused", "'green' is not a colour: one of red, blue."),
        (Param("colour", loose), ["green"], ["green"], "read", "green"),
        (Param("scores", Pairs("POINTS")), ["Ann=12", "bob=7"], ["Ann=12 bob=7"], "read", {"Ann": 12, "Bob": 7}),
        (Param("scores", Pairs("POINTS")), ["Ann=x"], ["Ann=x"], "refused",
         "'Ann=x': 'x' is not a whole number; write it like Ann=12"),
        (Param("scores", Pairs("POINTS")), ["Ann=1", "ann=2"], ["Ann=1 ann=2"], "refused",
         "Ann is given twice: give each player once."),
    ]


def test_every_common_kind_reads_alike_typed_and_posted(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy"], expect=0)
    for param, words, fields, how, value in _common_cases():
        move = try_move(param)
        said = alike(home, move, {param.name: words}, {param.name: fields})
        assert said[0] == how, (param, words, said)
        if how == "read":
            assert said[1][param.name] == value, (param, said)
        elif value is not None:
            assert said[1] == value, (param, said)


def test_a_flag_and_a_page_s_number_fields_read_as_typed(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy"], expect=0)
    move = try_move(Param("won", Flag()))
    assert alike(home, move, {"won": ["yes"]}, {"won": ["yes"]}) == ("read", {"player": "Ann", "won": True})
    assert alike(home, move, {}, {}) == ("read", {"player": "Ann", "won": False})
    pairs = try_move(Param("scores", Pairs("POINTS")))
    by_field = posted(home, pairs, {"scores.Ann": ["12"], "scores.Bob": ["7"], "scores.Cy": [""]})
    assert by_field == typed(home, pairs, {"player": ["Ann"], "scores": ["Ann=12", "Bob=7"]})
    assert by_field == ("read", {"player": "Ann", "scores": {"Ann": 12, "Bob": 7}})


def test_a_value_left_out_is_asked_for_or_refused(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy"], expect=0)
    move = try_move(Param("points", Number(0, 10, "points")))
    assert posted(home, move, {"points": [" "]}) == ("refused", "Fill in points, then tap “Record”.")  # issue 31
    asked = reader.read_move(move, _at(home), {"player": ["Ann"]}, words=True, missing=lambda p: 4)
    assert asked == {"player": "Ann", "points": 4}
    optional = try_move(Param("note", Text(), required=False, default="none"))
    assert alike(home, optional, {}, {"note": [""]}) == ("read", {"player": "Ann", "note": "none"})


def test_a_one_choice_field_posted_several_times_is_refused(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy"], expect=0)
    for param, values in ((Param("points", Number(0, 10)), ["1", "2"]),
                          (Param("colour", OneOf(["red", "blue"])), ["red", "blue"]),
                          (Param("note", Text()), ["one", "two"])):
        refused = posted(home, try_move(param), {param.name: values})
        assert refused == ("refused", f"{param.label.capitalize()} takes one value, and 2 were given: give one."), param


def test_the_shell_s_answer_reads_as_a_posted_field(run, home):
    """The shell's question reads its answer as one whole value, as a page reads a field."""
    run(["new", "scoresheet", "--players", "Ann,Bob,Cy"], expect=0)
    for param, _words, fields, _how, _value in _common_cases():
        if param.many:
            continue
        at = _at(home)
        try:
            said = ("read", reader.answer(param, fields[0], at))
        except CompanionError as exc:
            said = ("refused", exc.message)
        sent = posted(home, try_move(param), {param.name: fields})
        assert said == (sent if sent[0] == "refused" else ("read", sent[1][param.name])), param
    rounds = Param("scores", Pairs("POINTS"), many=True)  # a score sheet's `add`: the round's points
    answered = reader.answer(rounds, 'Ann=12 "bob"=7', _at(home))
    assert answered == typed(home, try_move(rounds), {"player": ["Ann"], "scores": ["Ann=12", "bob=7"]})[1]["scores"]
    sent = posted(home, try_move(rounds), {"scores": ['Ann=12 "bob"=7']})
    assert answered == sent[1]["scores"] == {"Ann": 12, "Bob": 7}


# -- the games' own kinds ----------------------------------------------------------------------------

def _kind(game_id: str, move: str, param: str) -> Param:
    from companion.core import registry

    found = next(m for m in registry.parts(game_id).get("MOVES") if m.name == move).param(param)
    return Param(found.name, found.kind, many=found.many)  # the game's own kind, asked on a page


def test_trans_kinds_read_alike(run, home):
    new_trans(run, special=None)
    for who, where in zip(PLAYERS, ("Moskva", "Glasgow", "Stockholm", "Sofia")):
        run(["start", who, where], expect=0)
    junction, path = _kind("trans-europa", "start", "junction"), _kind("trans-europa", "build", "path")
    city, special = _kind("trans-europa", "pass", "city"), _kind("trans-europa", "round start", "specials")
    cases = [
        (junction, ["moskva"], ["moskva"], ("read", "Moskva")),
        (junction, ["Nowhere"], ["Nowhere"], ("refused", None)),
        (path, ["Moskva-P4", "Moskva-Q4"], ["Moskva-P4 Moskva-Q4"], ("read", ["Moskva-P4", "Moskva-Q4"])),
        (path, ["Moskva-P4,Moskva-Q4"], ["Moskva-P4,Moskva-Q4"], ("read", ["Moskva-P4,Moskva-Q4"])),
        (city, ["Paris"], ["Paris"], ("read", "Paris")),
        (special, ["Pass-Three"], ["Pass-Three"], ("read", ["pass-three"])),
        (special, ["nonsense"], ["nonsense"], ("refused", None)),
    ]
    for param, words, fields, (how, value) in cases:
        said = alike(home, try_move(param), {param.name: words}, {param.name: fields})
        assert said[0] == how, (param, words, said)
        if value is not None:
            assert said[1][param.name] == value, (param, said)
    assert posted(home, try_move(path), {"path": ["Moskva-P4", "Moskva-Q4"]}) == (
        "refused", "Path takes one value, and 2 were given: give one.")


def test_transatlantic_ships_read_alike(run, home):
    transatlantic_cards(run)
    run(["new", "transatlantic", "--players", "Ann,Bob,Cy"], expect=0)
    ships, ship = _kind("transatlantic", "buy", "ships"), _kind("transatlantic", "own", "ship")
    assert alike(home, try_move(ships), {"ships": ["NUBIAN", "DEVONIA"]}, {"ships": ["NUBIAN", "DEVONIA"]}) == (
        "read", {"player": "Ann", "ships": ["NUBIAN", "DEVONIA"]})
    assert alike(home, try_move(ship), {"ship": ["ARIEL"]}, {"ship": ["ARIEL"]}) == (
        "read", {"player": "Ann", "ship": "ARIEL"})
    assert posted(home, try_move(ship), {"ship": ["ARIEL", "SIRIUS"]}) == (
        "refused", "Ship takes one value, and 2 were given: give one.")


def test_atlantic_star_kinds_read_alike(run, home):
    run(["new", "atlantic-star", "--players", "Ann,Bob", "--agency", "Rhea,Oceana,Titan,Ceres"], expect=0)
    space, sea = _kind("atlantic-star", "charter", "space"), _kind("atlantic-star", "loan", "sea")
    amount = _kind("atlantic-star", "loan", "amount")
    for param, value, read in ((space, "3,000", 3000), (space, "nowhere", "nowhere"), (sea, "baltic", "baltic"),
                               (amount, "5,000", 5000)):
        assert alike(home, try_move(param), {param.name: [value]}, {param.name: [value]}) == (
            "read", {"player": "Ann", param.name: read})
    assert alike(home, try_move(amount), {"amount": ["lots"]}, {"amount": ["lots"]}) == (
        "refused", "AMOUNT must be a whole number, not 'lots': e.g. loan Ann baltic 5000")


# -- through the real site: the four rails, the warning ------------------------------------------------

def _trans_building(run, home):
    new_trans(run, special=None)
    for who, where in zip(PLAYERS, ("Moskva", "Glasgow", "Stockholm", "Sofia")):
        run(["start", who, where], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    return sid


def _build_form(client, links, who="Ann") -> tuple[dict, list[str]]:
    html = client.get(f"/p/{links[who]}").text
    form = next(f for f in forms_on(html) if f["hidden"].get("move") == "build" and f["options"].get("path"))
    lines = [v for v in form["options"]["path"]]
    return form, lines


def _one_rail_lines(client, links, who="Ann") -> list[str]:
    html = client.get(f"/p/{links[who]}").text
    return re.findall(r'<option value="([^"]+)">[^<]*· 1 rail</option>', html)


def test_the_rail_field_posted_four_times_is_refused(run, home):
    """adversarial-3 D1: four values of the one-choice rail field built four rails in one turn."""
    sid = _trans_building(run, home)
    _site, client, links = site_and_client(home, sid)
    form, lines = _build_form(client, links)
    assert len(lines) >= 4
    before = run(["log", "--json"], expect=0).stdout
    response = client.post(form["action"].replace("{token}", links["Ann"]),
                           data={**form["hidden"], "path": lines[:4]})
    assert response.status_code == 400
    assert "Path takes one value, and 4 were given: give one." in unescape(response.text)
    assert run(["log", "--json"], expect=0).stdout == before  # nothing recorded


def test_a_build_over_the_allowance_warns_the_phone_as_it_warns_the_laptop(run, home, tmp_path):
    sid = _trans_building(run, home)
    site, client, links = site_and_client(home, sid)
    told: list[str] = []
    site.notify = told.append
    lines = _one_rail_lines(client, links)[:3]
    assert len(lines) == 3
    form, _ = _build_form(client, links)
    response = client.post(form["action"].replace("{token}", links["Ann"]),
                           data={**form["hidden"], "path": ",".join(lines)}, follow_redirects=True)
    assert response.status_code == 200
    warning = ("Warning: that makes 3 rails' worth in Ann's turn (a double line counts 2); a turn allows 2. "
               "Recorded anyway: `undo` takes it back.")
    shown = " ".join(unescape(re.sub(r"<[^>]+>", " ", response.text)).split())
    assert warning in shown  # on Ann's page
    assert told and told[0].endswith(warning)  # and on the laptop's screen
    # typed at the laptop, the same build says the same warning
    other = tmp_path / "typed"
    new_trans(lambda args, expect=None: run(["--data-dir", str(other), *args], expect=expect), special=None)
    for who, where in zip(PLAYERS, ("Moskva", "Glasgow", "Stockholm", "Sofia")):
        run(["--data-dir", str(other), "start", who, where], expect=0)
    out = run(["--data-dir", str(other), "build", "Ann", ",".join(lines)], expect=0).stdout
    assert warning in " ".join(out.split())
    # Bob's page is not told; Ann's page forgets it once something else is recorded
    assert warning not in " ".join(unescape(client.get(f"/p/{links['Bob']}").text).split())
    run(["note", "coffee"], expect=0)
    assert warning not in " ".join(unescape(re.sub(r"<[^>]+>", " ", client.get(f"/p/{links['Ann']}").text)).split())


# -- a private number on a phone ----------------------------------------------------------------------

HIDDEN_BID = {
    "pyproject.toml": """[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "companion-hidden-bid"
version = "0.0.1"

[project.entry-points."companion.games"]
hidden-bid = "hiddenbid.rules:HiddenBid"

[tool.setuptools]
packages = ["hiddenbid"]
""",
    "hiddenbid/__init__.py": "",
    "hiddenbid/rules.py": '''from companion.contract.api import Game
from companion.contract.errors import RuleError


class HiddenBid(Game):
    id = "hidden-bid"
    title = "Hidden bid (test)"
    description = "Each player bids a secret number; the highest wins once all have bid."
    min_players = 2
    moves = "hiddenbid.moves"
    views = "hiddenbid.views"

    def initial(self, setup, data):
        return {"players": list(setup.players), "bids": {}}

    def on_bid(self, s, event, data):
        if event["player"] in s["bids"]:
            raise RuleError(f"{event['player']} has bid already.")
        s["bids"][event["player"]] = event["bid"]

    def turn(self, s):
        return [p for p in s["players"] if p not in s["bids"]]

    def result(self, s):
        if len(s["bids"]) < len(s["players"]):
            return None
        top = max(s["bids"].values())
        return {"winners": [p for p in s["players"] if s["bids"][p] == top]}

    def view(self, s, player):
        if len(s["bids"]) == len(s["players"]):
            return s
        return {**s, "bids": {p: b for p, b in s["bids"].items() if p == player}}

    def summary(self, s):
        return {"players": [{"name": p, "score": None, "bid_in": p in s["bids"]} for p in s["players"]],
                "round": None}

    def describe(self, event):
        return f"{event['player']} bid" if event.get("type") == "bid" else super().describe(event)
''',
    "hiddenbid/moves.py": '''from companion.contract.declare import Move, Number, Param, Player
from companion.games.kit import new_command
from hiddenbid.rules import HiddenBid


@new_command(HiddenBid)
def new() -> dict:
    """Each player bids a secret number from 0 to 5."""
    return {}


MOVES = [Move("bid", [Param("player", Player(), "Who bids."),
                      Param("bid", Number(0, 5, "a bid, a whole number"), "Your bid.", private=True)],
              lambda at: {"type": "bid", **at.args}, help="Bid a secret number: `bid Ann 3`.", phone="Your bid",
              done=lambda outcome: [])]
NEW = {"hidden-bid": new}
PLAYTHROUGH = {"hidden-bid": ["new hidden-bid --players Ann,Bob", "bid Ann 3", "bid Bob 1", "status"]}
''',
    "hiddenbid/views.py": '''from companion.contract.view import Line


def status_view(at):
    return [Line("Bids in: " + (", ".join(p["name"] for p in at.status["players"] if p["bid_in"]) or "none") + ".")]
''',
}


@pytest.fixture
def hidden_bid(tmp_path):
    """The test game installed as a real distribution (as pip installs it, from a folder), found by the registry."""
    from plugin_support import install, on_path

    source, site = tmp_path / "hidden-bid", tmp_path / "site"
    for name, text in HIDDEN_BID.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text, encoding="utf-8")
    install(source, target=site)
    with on_path(site, ("hiddenbid",)):
        yield site
    shutil.rmtree(site, ignore_errors=True)


def test_a_private_number_works_on_a_phone(hidden_bid, run, home):
    run(["new", "hidden-bid", "--players", "Ann,Bob"], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    _site, client, links = site_and_client(home, sid, ["Ann", "Bob"])
    refused = post_move(client, links["Ann"], "bid", {"bid": "9"})
    assert refused.status_code == 400
    assert "'9' is not bid: a bid, a whole number from 0 to 5." in unescape(refused.text)
    assert "cities" not in unescape(refused.text)  # never another game's words
    typed_refusal = run(["bid", "Ann", "9"], expect=1).stderr
    assert "'9' is not bid: a bid, a whole number from 0 to 5." in typed_refusal  # the same words typed
    assert post_move(client, links["Ann"], "bid", {"bid": "3"}).status_code == 303
    events = json.loads(run(["log", "--json"], expect=0).stdout)
    assert [(e["event"]["type"], e["event"]["player"]) for e in events] == [("bid", "Ann")]
    assert "3" not in client.get(f"/p/{links['Bob']}").text.split("Bids in:")[1].split("<")[0]
    assert post_move(client, links["Bob"], "bid", {"bid": "1"}).status_code == 303
    assert json.loads(run(["status", "--json"], expect=0).stdout)["winners"] == ["Ann"]


def test_an_option_typed_twice_is_refused_as_a_field_posted_twice(run):
    run(["new", "atlantic-star", "--players", "Ann,Bob", "--agency", "Rhea,Oceana,Titan,Ceres"], expect=0)
    refused = run(["charter", "Ann", "1000", "--new", "Poseidon", "--new", "Titan"], expect=1).stderr
    assert "New takes one value, and 2 were given: give one." in refused
    run(["charter", "Ann", "1000", "--new", "Poseidon"], expect=0)
