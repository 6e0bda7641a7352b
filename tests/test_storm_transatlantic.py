"""A storm of random commands on a Transatlantic game (see test_storm_scoresheet).

Valid lines are built from the current state: reveals of ships the session has not met,
purchases of what is on the market, `own`, `scrap` of an owned ship, points during play, the
final entries, `next` and `stack-empty`, and new catalogue cards. Every ship value, surcharge
and sheet VP here is a TEST value: the printed ones are unknown.
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from long_mode import scaled
from storm_support import STORM_SETTINGS, Storm, weighted

PLAYERS = ["Ann", "Bob", "Zoë"]
# name, year, flag, price, kind: TEST values, not the printed cards
CATALOGUE = [
    ("ARIEL", 1865, "none", None, "sail"), ("SIRIUS", 1860, "none", None, "sail"),
    ("THERMOPYLÆ", 1868, "none", None, "sail"), ("DEVONIA", 1877, "red", 50, "steam"),
    ("NUBIAN", 1875, "white", 30, "steam"), ("GERMANIC", 1874, "white", 40, "steam"),
    ("HAMMONIA", 1882, "blue", 70, "steam"), ("ABYSSINIA", 1870, "red", 30, "steam"),
    ("UMBRIA", 1884, "red", 90, "steam"), ("CITY OF NEW YORK", 1888, "black", 100, "steam"),
    ("COLUMBIA", 1889, "blue", 80, "steam"), ("KAISER WILHELM", 1897, "black", 120, "steam"),
    ("ÉTOILE", 1880, "green", 60, "steam"), ("HQ RED", 1890, "red", 60, "hq"), ("HQ BLUE", 1891, "blue", 65, "hq"),
]
SHIPS = [c[0] for c in CATALOGUE]
FLAGS = ["white", "blue", "red", "black", "green"]


class TransatlanticStorm(Storm):
    GAME = "transatlantic"
    SETUP = [["new", "transatlantic", "--players", ",".join(PLAYERS), "--start", "Bob"]]
    OPENING = "own Bob SIRIUS\nown Ann ARIEL\nreveal DEVONIA NUBIAN GERMANIC HAMMONIA ABYSSINIA UMBRIA\n"
    NAMES = PLAYERS + ["zoë", "ZOË", "hammonia", "City of New York", "étoile", "HQ RED", "red", "none"]
    ANSWERS = ["steam", "hq", "sail", "1880", "red", "none", "70", "purple", "-3", "x"]

    def prepare(self):
        for name, year, flag, price, kind in CATALOGUE:
            self.must(["ship", "add", name, "--year", str(year), "--flag", flag, "--kind", kind]
                      + (["--price", str(price)] if price is not None else []))
        self.must(["data", "set", "transatlantic", "market.surcharges", "[0, 10, 20, 30, 40, 50]"])

    def valid(self):
        s = self.state
        anyone = st.sampled_from(PLAYERS + ["ann", "BOB"])
        unmet = [n for n in SHIPS if n not in s["ships"]]
        on_market = [n for n in s["market"] if n]
        owned = [n for p in PLAYERS for n in s["owned"][p] if n not in s["scrapped"]]
        empty = s["market"].count(None)
        choices = [(2, st.just(["next"])), (1, st.just(["stack-empty"])),
                   (1, st.tuples(anyone, st.integers(-3, 12), st.sampled_from(["", "trade houses", "FLEET ⚓"])).map(
                       lambda t: ["vp", t[0], str(t[1])] + (["--note", t[2]] if t[2] else []))),
                   (1, st.tuples(anyone, st.integers(0, 400), st.lists(st.sampled_from(FLAGS), max_size=3, unique=True),
                                 st.integers(0, 4), st.integers(0, 3)).map(
                       lambda t: ["final", t[0], "--cash", str(t[1]), "--sheet", ",".join(f"{f}=3" for f in t[2]),
                                  "--rows", str(t[3]), "--next-row", str(0 if t[3] == 4 else t[4])])),
                   (1, st.tuples(st.sampled_from(["CAMPANIA", "Lucania", "Ōsaka Maru"]), st.integers(1850, 1900),
                                 st.sampled_from(FLAGS + ["none"]), st.integers(10, 150)).map(
                       lambda t: ["ship", "add", t[0], "--year", str(t[1]), "--flag", t[2], "--price", str(t[3])]))]
        if unmet and empty:
            choices.append((4, st.lists(st.sampled_from(unmet), min_size=1, max_size=min(empty, 3), unique=True).map(
                lambda names: ["reveal", *names])))
        if unmet:
            choices.append((1, st.tuples(anyone, st.sampled_from(unmet)).map(lambda t: ["own", *t])))
        if on_market:
            choices.append((4, st.tuples(anyone, st.lists(st.sampled_from(on_market), min_size=1, max_size=2,
                                                          unique=True)).map(lambda t: ["buy", t[0], *t[1]])))
        if owned:
            choices.append((1, st.tuples(st.sampled_from(owned), st.integers(0, 5)).map(
                lambda t: ["scrap", t[0], "--sheet-vp", str(t[1])])))
        return weighted(*choices)

    def hostile(self):
        s = self.state
        first = next((n for n in s["market"] if n), "NUBIAN")
        return [
            ["buy", "Ann"], ["buy", "Ann", "TITANIC"], ["buy", "Ann", first, first], ["buy", "Zed", first],
            ["buy", "Ann", first, "SIRIUS", "ARIEL"], ["buy", "Ann", "HQ RED", "HQ BLUE"], ["buy", "Ann", ""],
            ["reveal"], ["reveal", "TITANIC"], ["reveal", "SIRIUS"], ["reveal", *SHIPS[3:10]], ["reveal", ""],
            ["reveal", "   "], ["own", "Zed", "ARIEL"], ["own", "Ann", "TITANIC"], ["own", "Ann", "ARIEL"],
            ["scrap", "TITANIC", "--sheet-vp", "1"], ["scrap", first, "--sheet-vp", "1"], ["scrap", "ARIEL"],
            ["scrap", "ARIEL", "--sheet-vp", "-1"], ["scrap", "ARIEL", "--sheet-vp", "9" * 30],
            ["scrap", "HQ RED", "--sheet-vp", "1"], ["vp", "Ann"], ["vp", "Ann", "x"], ["vp", "Ann", "9" * 30],
            ["vp", "Zed", "3"], ["vp", "Ann", "3.5"], ["final", "Ann"], ["final", "Ann", "--cash", "-5", "--rows", "1",
                                                                      "--next-row", "0"],
            ["final", "Ann", "--cash", "10", "--rows", "99", "--next-row", "0"],
            ["final", "Ann", "--cash", "10", "--rows", "4", "--next-row", "3"],
            ["final", "Ann", "--cash", "10", "--rows", "1", "--next-row", "0", "--sheet", "purple=3"],
            ["final", "Ann", "--cash", "10", "--rows", "1", "--next-row", "0", "--sheet", "blue=x"],
            ["final", "Ann", "--cash", "10", "--rows", "1", "--next-row", "0", "--sheet", "blue=1,blue=2"],
            ["final", "Ann", "--cash", "9" * 30, "--rows", "1", "--next-row", "0"],
            ["ship", "add", "X", "--year", "-1", "--flag", "red", "--price", "5"],
            ["ship", "add", "X", "--year", "1880", "--flag", "purple", "--price", "5"],
            ["ship", "add", "X", "--year", "1880", "--flag", "red"], ["ship", "add", "", "--year", "1", "--flag", "red"],
            ["ship", "add", "S.S. DOT", "--year", "1880", "--flag", "red", "--price", "5"],
            ["ship", "add", "X", "--year", "1880", "--flag", "red", "--price", "5", "--kind", "boat"],
            ["ship", "add", "X", "--year", "1880", "--flag", "red", "--price", "-5"],
            ["ship", "add", "X", "--year", "1880", "--flag", "red", "--price", "5", "--speed", "-2"],
            ["ship", "add", "X", "--year", "1880", "--flag", "red", "--price", "5", "--speed", "nan"],
            ["ship", "add", "X", "--year", "1880", "--flag", "red", "--price", "5", "--speed", "inf"],
            ["ship", "add", "X", "--year", "1880", "--flag", "red", "--price", "9" * 30],
            ["ship", "add", "X" * 500, "--year", "1880", "--flag", "red", "--price", "5"],
            ["ship", "show", "TITANIC"], ["ship", "show", ""], ["stack-empty", "now"], ["next", "Ann"],
            ["data", "set", "transatlantic", "market.surcharges", "[1, 2]"],
            ["data", "set", "transatlantic", "market.surcharges", "[-1, 0, 0, 0, 0, 0]"],
            ["data", "set", "transatlantic", "flags", "[]"], ["data", "set", "transatlantic", "flags", '"red"'],
            ["data", "set", "transatlantic", "ships.TITANIC", "{}"],
        ]

    def reads(self):
        return [["market"], ["market", "--json"], ["ships"], ["ships", "--json"], ["ship", "show", "hammonia"],
                ["ship", "show", "City of New York", "--json"], ["board"], ["data", "show", "transatlantic"],
                ["help", "final"]]

    def asking(self):
        return [["reveal", "CAMPANIA"], ["reveal", "Ōsaka Maru"], ["final", "Ann"], ["final", "Zoë", "--cash", "3"],
                ["own", "Ann", "NEW SHIP"]]


TestTransatlanticStorm = TransatlanticStorm.TestCase
TestTransatlanticStorm.settings = settings(STORM_SETTINGS, max_examples=scaled(2, 20))


def test_ctrl_d_at_a_question_stops_the_command():
    """The shell asks for an unknown ship's card; the input ends (Ctrl-D): stopped, not a crash."""
    storm = TransatlanticStorm()
    try:
        assert storm.step("reveal CAMPANIA", "shell") == 1
        assert "CAMPANIA" not in storm.status()["market"]
    finally:
        storm.teardown()
