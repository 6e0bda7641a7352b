"""A storm of random commands on a score sheet (the engine is in storm_support.py)."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st
from storm_support import MODES, STORM_SETTINGS, Storm, weighted


# -- the score sheet ----------------------------------------------------------------------------

PLAYERS = ["Ann", "Bob", "Zoë Lee"]


class ScoreSheetStorm(Storm):
    GAME = "scoresheet"
    SETUP = [["new", "scoresheet", "--players", ",".join(PLAYERS), "--target", "400"]]
    NAMES = PLAYERS + ["ann", "ZOË LEE", "Zoe Lee", "Zoë"]

    def valid(self):
        name = st.sampled_from(PLAYERS + ["ann", "BOB", " Bob "])
        pair = st.tuples(name, st.integers(-20, 60)).map(lambda t: f"{t[0]}={t[1]}")
        add = st.lists(pair, min_size=1, max_size=3, unique_by=lambda s: s.split("=")[0].strip().casefold())
        return weighted((8, add.map(lambda pairs: ["add", *pairs])), (1, st.just(["finish"])))

    def hostile(self):
        return [["add"], ["add", "Zed=1"], ["add", "Ann=1", "ann=2"], ["add", "Ann=1", "Ann=2"], ["add", "Ann"],
                ["add", "=3"], ["add", "Ann=x"], ["add", "Ann=3.5"], ["add", "Ann=1e3"], ["add", "Zoë=1"],
                ["add", "Ann=" + "9" * 400], ["add", "'Zoë Lee'=1"], ["add", "--lowest-wins"], ["finish", "Ann"]]


TestScoreSheetStorm = ScoreSheetStorm.TestCase
TestScoreSheetStorm.settings = STORM_SETTINGS


# -- lines the storms found: each is refused in one line and changes nothing --------------------

FOUND = [
    ("new", MODES), ("round", MODES), ("data", MODES), ("player", MODES),  # used to print a whole help
    ("--", ("script", "shell")), ("--session zz", ("script", "shell")),  # used to start a shell or
    ("shell", ("script", "shell")),                                       # script inside this one
    ("add Ann=" + "9" * 30, MODES), ("add Ann=-1000000000000001", MODES),  # used to break `stats`
]


@pytest.mark.parametrize("line, mode", [(line, mode) for line, modes in FOUND for mode in modes])
def test_lines_the_storm_found(line, mode):
    storm = ScoreSheetStorm()
    try:
        assert storm.step(line, mode) != 0
    finally:
        storm.teardown()
