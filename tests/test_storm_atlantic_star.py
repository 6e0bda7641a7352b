"""A storm of random commands on an Atlantic Star game near its end (see test_storm_scoresheet).

The storm starts with three Baltic voyages to go and the 4-star victory points unknown, so
it reaches the scoring, the missing printed value (refused in a script, asked for in the
shell), the end of the game and undo across it. The victory-point rows typed here are
INVENTED FOR THE TESTS: the printed table is unknown.
"""

from __future__ import annotations

import json

from hypothesis import settings
from hypothesis import strategies as st
from long_mode import scaled
from storm_support import STORM_SETTINGS, Storm, weighted

PLAYERS = ["Ann", "Bob", "Zoë", "Mary Jo"]
TEST_VP = {"1": [11, 9, 7, 5, 4, 4], "3": [13, 11, 9, 7, 5, 3], "5": [20, 15, 10, 6, 2, 0]}  # test values
TEST_VP4 = "[16, 13, 10, 7, 4, 1]"  # test value, typed during the storm
PRICES = ["3000", "2000", "1000", "0"]


def charters(rounds: int) -> str:
    return "".join(f"charter '{p}' 0\n" for _ in range(rounds) for p in PLAYERS)


# A four-player game up to its last three voyages (the moves of test_atlantic_star_script).
OPENING = (
    "charter Ann 3000\nrefresh Bob\ncharter Bob 2000\ncharter Zoë 1000\ncharter 'Mary Jo' 0\n"
    + charters(5)
    + "voyage Ann pacific --value 35 --class 5\nvoyage Bob pac --cards 9,9,9,9,9,9\n"
    "voyage Zoë pacific --value 30\nvoyage 'Mary Jo' pacific --value 28\n"
    + charters(5)
    + "voyage Ann atlantic --value 20 --class 1\nvoyage Bob atlantic --value 27\n"
    "voyage Zoë atlantic --value 40\nvoyage 'Mary Jo' atlantic --cards 5,5,5,5,X\n"
    + charters(4)
    + "voyage Ann med --value 30 --class 3\nvoyage Bob med --value 25\nvoyage Zoë med --value 10\n"
    "charter 'Mary Jo' 0\nloan Ann med 8000\ncharter Ann 0\ncharter Bob 0\ncharter Zoë 0\n"
    "voyage 'Mary Jo' med --value 18\n"
    + charters(2)
    + "voyage Ann baltic --value 25 --class 4\n"
)


class AtlanticStarStorm(Storm):
    GAME = "atlantic-star"
    SETUP = [["new", "atlantic-star", "--players", ",".join(PLAYERS), "--agency", "Rhea,Oceana,Titan,Ceres"]]
    OPENING = OPENING
    NAMES = PLAYERS + ["ann", "MARY JO", "Zoe", "baltic", "med", "pac", "atlantic", "Rhea"]
    ANSWERS = ["16 13 10 7 4 1", TEST_VP4, "1 2 3", "x", "-5 0 0 0 0 0"]

    def prepare(self):
        for cls, row in TEST_VP.items():
            self.must(["data", "set", "atlantic-star", f"vp.{cls}", json.dumps(row)])

    def turn(self) -> tuple[str, dict]:
        state = self.state
        return (state["turn"] or {}).get("player") or "Ann", state

    def valid(self):
        player, state = self.turn()
        me = st.sampled_from([player, player.upper(), player.lower()])
        seas = [sea for sea, left in state["plaques"].get(player, {}).items() if left] or ["baltic"]
        sea = st.sampled_from(seas).flatmap(lambda s: st.sampled_from([s, s[:3], s.title()]))
        used = {info["class"] for info in state["seas"].values() if info["class"]}
        free = [str(c) for c in range(1, 6) if c not in used] or ["1"]

        def voyage(args):
            who, where, value, stars = args
            first = state["seas"].get(where.lower(), {}).get("class") is None
            return ["voyage", who, where, "--value", str(value)] + (["--class", stars] if first else [])

        cards = st.lists(st.sampled_from(["1", "5", "9", "M", "X", "m"]), min_size=3, max_size=3).map(",".join)
        name = st.sampled_from(["Rhea", "Oceana", "Titan", "Ceres", "Queen Mary", "Ærø"])
        return weighted(
            (3, st.tuples(me, st.sampled_from(PRICES)).map(lambda t: ["charter", *t])),
            (1, st.tuples(me, st.sampled_from(PRICES), name, name).map(
                lambda t: ["charter", t[0], t[1], "--card", t[2], "--new", t[3]])),
            (1, me.map(lambda p: ["refresh", p])),
            (1, st.tuples(me, st.lists(name, min_size=4, max_size=4).map(",".join)).map(
                lambda t: ["refresh", t[0], "--cards", t[1]])),
            (4, st.tuples(me, sea, st.integers(3, 40), st.sampled_from(free)).map(voyage)),
            (2, st.tuples(me, cards).map(lambda t: ["voyage", t[0], "baltic", "--cards", t[1]])),
            (2, st.tuples(me, st.sampled_from(["baltic", "med", "pacific", "atlantic"]),
                          st.sampled_from(["1000", "2000", "8,000", "10000"]), st.booleans()).map(
                lambda t: ["loan", *t[:3]] + (["--preview"] if t[3] else []))),
            (2, st.just(["data", "set", "atlantic-star", "vp.4", TEST_VP4])),
        )

    def hostile(self):
        p = self.turn()[0]
        return [
            ["charter", p, "500"], ["charter", p, "-1000"], ["charter", p, "3,000,000"], ["charter", "Zed", "0"],
            ["charter", p], ["charter", p, "0", "--card", ""], ["voyage", p, "arctic", "--value", "10"],
            ["voyage", p, "", "--value", "10"], ["voyage", p, "baltic"],
            ["voyage", p, "baltic", "--value", "10", "--cards", "1,2,3"], ["voyage", p, "baltic", "--cards", "10,10,10"],
            ["voyage", p, "baltic", "--cards", ""], ["voyage", p, "baltic", "--cards", "1,2"],
            ["voyage", p, "baltic", "--value", "-4"], ["voyage", p, "baltic", "--value", "10", "--class", "0"],
            ["voyage", p, "baltic", "--value", "10", "--class", "6"], ["voyage", p, "pacific", "--value", "9" * 30],
            ["voyage", p, "baltic", "--value", "10", "--class", "99999999999999999999"],
            ["loan", p, "baltic", "1500"], ["loan", p, "baltic", "9" * 30], ["loan", p, "baltic", "-1000"],
            ["loan", p, "baltic", "1000", "--voyage", "3"], ["loan", p, "baltic", "1000", "--voyage", "-1"],
            ["loan", p, "baltic", "ten"], ["loan", p, "baltic", "9" * 30, "--preview"],
            ["loan", "Zed", "baltic", "1000", "--preview"], ["loan", p, "arctic", "1000", "--preview"],
            ["refresh", p, "--cards", "A,B,C,D,E"], ["refresh", "Zed"], ["agency", "extra"],
            ["data", "set", "atlantic-star", "vp.4", "[1, 2]"], ["data", "set", "atlantic-star", "vp.9", TEST_VP4],
            ["data", "set", "atlantic-star", "vp.4", "'x'"], ["data", "set", "atlantic-star", "vp.4", "[1e400,1,1,1,1,1]"],
            ["data", "set", "atlantic-star", "vp.4", "[NaN, 1, 1, 1, 1, 1]"], ["data", "set", "atlantic-star", "vp.4", "["],
            ["data", "set", "atlantic-star", "vp.4", '["a", "b", "c", "d", "e", "f"]'],
            ["data", "set", "atlantic-star", "vp", "{}"], ["data", "set", "atlantic-star", "seas", "null"],
            ["data", "set", "atlantic-star", "", "1"], ["data", "set", "atlantic-star", "vp..4", "1"],
            ["data", "unset", "atlantic-star", "no.such.key"],
        ]

    def reads(self):
        p = self.turn()[0]
        return [["agency"], ["agency", "--json"], ["board"], ["data", "show", "atlantic-star"],
                ["data", "show", "atlantic-star", "vp.4"], ["help", "voyage"], ["new", "atlantic-star", "--help"],
                ["loan", p, "baltic", "1000", "--help"]]

    def asking(self):
        p, state = self.turn()
        seas = [sea for sea, left in state["plaques"].get(p, {}).items() if left] or ["baltic"]
        return [["voyage", p, sea, "--value", "12"] for sea in seas]


TestAtlanticStarStorm = AtlanticStarStorm.TestCase
TestAtlanticStarStorm.settings = settings(STORM_SETTINGS, max_examples=scaled(2, 10))  # ~90 events: undoing them all takes a while
