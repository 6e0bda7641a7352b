"""Trans Europa and Trans Amerika in German (issue 28): a whole game of each played in-process
in German, its screens, questions and refusals read in German sentences, and the same games in
the pseudo-language, where any English word of the Trans screens is a text that bypassed the
catalogue.

Each game is the one the game declares for every surface (``PLAYTHROUGH`` in its moves), with
the screens and refusals a table meets on the way: `status`, `board`, `hand`, `rails`, `log`,
and a refusal of each kind the rules give (a junction that does not exist, a marker out of turn,
a round end with nothing open ...).
"""

from __future__ import annotations

import json
import re
import shlex

import pytest

from companion.contract.language import using
from companion.core import datapack
from companion.games.trans.moves import PLAYTHROUGH

try:
    from pseudo_support import leaks
except ImportError:  # tests/ imported as a package
    from tests.pseudo_support import leaks

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture(autouse=True)
def eighty(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")


def printed_names(game: str) -> list[str]:
    """What a Trans screen prints as it is printed on the box: the cities, the maps, the special
    cards' titles (values of the pack, never translated)."""
    from companion.games.trans.rules import TransAmerika, TransEuropa

    values = datapack.pack(game)["values"]
    cards = [c.get("title", "") for c in (values.get("special_cards") or {}).values() if isinstance(c, dict)]
    board = (TransAmerika if game == "trans-amerika" else TransEuropa)().board_of(values)
    return ([c["name"] for c in values["cities"]] + [c.abbr for c in board.cities] + cards
            + ["Trans", "Europa", "Amerika", "amerika", "europa"])


def says(run, lang: str, line: str, expect: int | None = 0) -> str:
    """One command line in ``lang``: what it printed (stdout and stderr together)."""
    with using(lang):
        result = run(shlex.split(line), expect=expect)
    return result.stdout + (result.stderr or "")


def flat(text: str) -> str:
    """A screen's words on one line (the renderer wraps them at 80 columns)."""
    return re.sub(r"\s+", " ", text)


# -- German -----------------------------------------------------------------------------------------

def test_a_whole_trans_amerika_game_in_german(run):
    lines = PLAYTHROUGH["trans-amerika"]
    outputs = [flat(says(run, "de", line)) for line in lines]
    said = {}
    for line, out in zip(lines, outputs):
        said.setdefault(line, out)  # (the first `status`; the last is read below)
    assert "Neue Partie" in said[lines[0]] and "(Ann fängt an)" in said[lines[0]]
    assert "Teilt die Städte am Tisch aus." in said["round start --physical"]
    assert "Hand von Ann festgehalten (5 Städte)." in said[lines[2]]
    assert "Der Startmarker von Ann steht auf San Diego." in said["start Ann San Diego"]
    assert "Als Nächstes: `start Bob JUNCTION` (dann Cy und Dee)." in said["start Ann San Diego"]
    assert "Alle Startmarker liegen: Ann baut zuerst" in said["start Dee Omaha"]
    assert "Ann hat 1 Schiene gebaut: San Diego-D11 (1 auf dem Spielplan" in said["build Ann San Diego-D11"]
    status = said[lines[lines.index("status")]]
    assert "Prestige-Wertung" in status and "Runde 1 (offen)" in status
    assert "Startspieler: Ann fängt an." in status
    assert "Zug 4 (Durchgang 1): Dee, 2 von 2 Schienen gelegt; Ann baut als Nächstes." in status
    assert "Runde 1 gewertet:" in said["round end --auto --winner Ann"]
    assert "Fehlende Schienen genau auf dem festgehaltenen Spielplan gezählt, 4 Schienen gebaut." \
        in said["round end --auto --winner Ann"]
    assert "Als Nächstes: `round start` (Bob fängt an)." in said["round end --auto --winner Ann"]
    assert "bis zu 3 Schienen pro Zug" in said["round start --physical --special three-rails"]
    end = said[lines[-2]]
    assert "Runde 2 gewertet: Ann +1 (3 fehlen)" in end and "Bob +4 (verbunden)" in end
    final = outputs[-1]
    assert "Der Punktestand" not in final and "Startspieler: Cy beginnt die nächste Runde." in final
    # the log in German words (the events' descriptions)
    log = flat(says(run, "de", "log"))
    assert "Startmarker von Ann auf San Diego" in log and "Ann hat San Diego-D11 gebaut" in log
    assert "Runde beendet (auf dem Spielplan gezählt)" in log
    # status --json keeps its English texts: it is read by programs
    with using("de"):
        data = json.loads(run(["status", "--json"], expect=0).stdout)
    assert data["scoring"] == "prestige" and "rails" in data


def test_a_whole_trans_europa_game_in_german_with_its_hands_board_and_rails(run):
    lines = PLAYTHROUGH["trans-europa"]
    for line in lines[:-3]:
        says(run, "de", line)
    hand = flat(says(run, "de", "hand Ann --print"))
    assert "Städte von Ann (Runde 1):" in hand
    assert re.search(r"gelb +Glasgow", hand) and re.search(r"rot +Madrid", hand)  # the cards' colours as words
    rails = flat(says(run, "de", "rails Ann --print"))
    assert "Städte von Ann: Glasgow, Madrid, Paris, Kyiv, Roma." in rails
    assert re.search(r"Ann braucht noch \d+ Schienen, um sie mit dem Netz bei Paris zu verbinden", rails)
    assert "Eine optimale Auswahl:" in rails and "Zum Bauen, als Wege:" in rails
    board = flat(says(run, "de", "board"))
    assert "Runde 1: 2 Schienen auf dem Spielplan" in board and "1 Schiene gebaut" in board
    assert "einfache Linie, 1 Schiene" in board and "Doppellinie, 2 Schienen" in board
    for line in lines[-3:]:
        says(run, "de", line)
    assert "Runde beendet (auf dem Spielplan gezählt): Ann verbunden; Bob: " in flat(says(run, "de", "log"))


def test_the_refusals_and_questions_in_german(run):
    says(run, "de", "new trans-amerika --players Ann,Bob,Cy,Dee --entropy x")
    refused = flat(says(run, "de", "round end --auto", expect=1))
    assert "Keine Runde ist offen: beginne eine mit `round start`." in refused
    says(run, "de", "round start")
    refused = flat(says(run, "de", "start Bob Dallas", expect=1))
    assert "Ann ist dran, einen Startmarker zu setzen (`start Ann JUNCTION`)" in refused
    refused = flat(says(run, "de", "start Ann Atlantis", expect=1))
    assert "Auf dem Spielplan Amerika gibt es keinen Knotenpunkt 'Atlantis'." in refused
    says(run, "de", "start Ann Dallas")
    refused = flat(says(run, "de", "start Bob Dallas", expect=1))
    assert "Dallas trägt schon den Startmarker von Ann: wähle einen freien Knotenpunkt." in refused
    for p, where in (("Bob", "Boston"), ("Cy", "Denver"), ("Dee", "Seattle")):
        says(run, "de", f"start {p} {where}")
    refused = flat(says(run, "de", "build Bob Boston-Dallas", expect=1))
    assert "Boston-Dallas ist keine Linie des Spielplans" in refused
    refused = flat(says(run, "de", "round end --winner Ann --missing Bob=0", expect=1))
    assert "fehlenden Schienen von Bob müssen mindestens 1 sein" in refused
    refused = flat(says(run, "de", "new trans-europa --players Ann,Bob --deal balanced=x", expect=2))
    assert "--deal balanced=x: K muss eine ganze Zahl von Schienen sein" in refused


# -- the pseudo-language: no English word left on any Trans screen ------------------------------------

def clean(text: str) -> str:
    """What a Trans screen says, without the words of the floors below it (the terminal's own
    `Error:` and its pointer to `--help`, which its own part translates)."""
    return re.sub(r"\(`[^`]*` shows how to write it\)", "", text.replace("Error: ", ""))


# values a Trans screen shows as the pack or the player wrote them: the card ids a refusal lists,
# the names of the two lines seed 000 counts single on Europa (the pack's titles) and the command
# that sets them, and the words typed in the refusals below
VALUES = ["generous", "demanding", "ferry", "through", "the", "English", "Channel", "tunnel", "Swiss", "Alps",
          "data", "set", "Atlantis", "nope", "Zed"]


SCREENS = ["status", "board", "log", "hand Ann --print", "rails Ann --print", "board amerika"]


@pytest.mark.parametrize("game", ["trans-amerika", "trans-europa"])
def test_every_trans_screen_and_refusal_in_the_pseudo_language_passes_the_catalogue(run, game):
    allowed = [*PLAYERS, *printed_names("trans-amerika"), *printed_names("trans-europa"), *VALUES]
    found: dict[str, list[str]] = {}

    def check(line: str, expect: int | None = None) -> None:
        text = clean(says(run, "xx", line, expect))
        words = leaks(text, allowed)
        if words:
            found[line] = words

    for i, line in enumerate(PLAYTHROUGH[game]):
        check(line, 0)
        for screen in SCREENS if i else ["status", "board"]:  # (a log of nothing is the terminal's words)
            check(screen)
    city = printed_names(game)[0]
    for refusal in ("start Ann Atlantis", f"start Bob {city}", "build Ann A1-A2",
                    "round end --missing Ann=0 --winner Bob", "round start --special nope", "round start",
                    "rails amerika", "rails amerika --hand Dallas,Dallas", "end-turn Ann",
                    f"new {game} --players A,B --deal balanced=x", "round end --winner Ann --rails-out"):
        check(refusal)
    assert not found, json.dumps(found)
