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
from long_mode import LONG

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

def session_ids(home) -> list[str]:
    """The sessions' ids (random letters and digits, sometimes a word of letters only)."""
    from companion.core.store import Store

    return [path.stem for path in Store(home).sessions_dir.glob("*.json")]


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
def test_every_trans_screen_and_refusal_in_the_pseudo_language_passes_the_catalogue(run, home, game):
    allowed = [*PLAYERS, *printed_names("trans-amerika"), *printed_names("trans-europa"), *VALUES]
    found: dict[str, list[str]] = {}

    def check(line: str, expect: int | None = None) -> None:
        text = clean(says(run, "xx", line, expect))
        words = leaks(text, [*allowed, *session_ids(home)])
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


# -- the special cards, the choices they ask for, and every viewer's page ------------------------------

def page_words(view) -> str:
    """Every word of a view a page shows: the blocks' words (view.plain) and their titles, a
    table's head, a private part's name, a board's title and label."""
    from companion.contract.view import plain

    out = [plain(view)]
    for block in view:
        out += [str(getattr(block, name, "") or "") for name in ("title", "label", "shows")]
        out += [str(h) for h in getattr(block, "head", []) or []]
        if getattr(block, "kind", "") in ("section", "private"):
            out.append(page_words(block.blocks))
    return re.sub(r"<[\w.]+ object at 0x[0-9a-f]+>", "", "\n".join(out))  # (a score bar is drawn, not said)


def pages(home, players=PLAYERS) -> dict[str, str]:
    """What the table's page and each player's page show now, as words."""
    from companion.contract.exit import Exit
    from companion.core.session import load
    from companion.core.store import Store
    from companion.games.trans.views import status_view

    store = Store(home)
    s = load(store, store.current())
    replay = s.replay()
    from companion.games.trans import screens

    out = {}
    for viewer in (None, *players):
        at = Exit(s, replay, viewer).at()
        view = status_view(at)
        if viewer is not None:  # the boards a player taps for a start marker and for rails
            view += [screens.marker_tap(at, viewer, []), screens.build_tap(at, viewer)]
        out[str(viewer)] = page_words(view)
    return out


def hands(home) -> dict:
    from companion.core.session import load
    from companion.core.store import Store

    store = Store(home)
    s = load(store, store.current())
    return s.replay().state["hands"]


def test_the_special_cards_and_their_choices_in_german_and_on_every_page(run, home):
    says(run, "de", "new trans-amerika --players Ann,Bob,Cy,Dee --variant special-cards --entropy x")
    started = flat(says(run, "de", "round start --special return-any"))
    assert "Sonderkarte: " in started and "alle spielen mit 4 Städten: jeder legt eine nach Wahl zurück" in started
    assert "Jetzt: Es fehlt noch das Zurücklegen einer Stadt von Ann, Bob, Cy, Dee: hand NAME --return CITY" in started
    with using("de"):
        ann = pages(home)["Ann"]
    assert "Eine Stadt zurücklegen" in ann and "Wähle die Stadt, die du zurücklegst" in ann
    assert "Deine Städte (Runde 1)" in ann and "Fehlende Schienen" in ann
    for p in PLAYERS:
        city = hands(home)[p][0]
        said = flat(says(run, "de", f"hand {p} --return {shlex.quote(city)}"))
        assert f"{p} hat eine Stadt zurückgelegt und spielt mit 4." in said
    assert "Alle haben gewählt: die Runde kann gespielt werden." in said
    refused = flat(says(run, "de", "hand Ann --return Dallas", expect=1))
    assert "Nur die Sonderkarte 'return-any' lässt Spieler eine Stadt zurücklegen." in refused
    says(run, "de", "round end --winner Ann --missing Bob=2 --missing Cy=3 --missing Dee=4")
    started = flat(says(run, "de", "round start --special pass-three"))
    assert "alle geben dreimal eine Stadt nach links weiter" in started
    assert "Weitergabe 1 von 3: es fehlt noch die Wahl einer Stadt zum Weitergeben nach links von Ann, Bob, Cy, " \
           "Dee: pass NAME CITY" in started
    with using("de"):
        bob = pages(home)["Bob"]
    assert "Eine Stadt weitergeben (Weitergabe 1 von 3)" in bob
    said = flat(says(run, "de", f"pass Bob {shlex.quote(hands(home)['Bob'][0])}"))
    assert "Die Wahl von Bob ist festgehalten." in said
    assert "Bob hat schon eine Stadt für Weitergabe 1 von 3 gewählt" in \
        flat(says(run, "de", f"pass Bob {shlex.quote(hands(home)['Bob'][0])}", expect=1))


@pytest.mark.parametrize("cards", [["return-any"], ["pass-three", "rhythm-321"], ["swap-hands", "build-anywhere"],
                                   ["generous", "three-rails"]])
def test_the_special_cards_choices_and_pages_in_the_pseudo_language(run, home, cards):
    allowed = [*PLAYERS, *printed_names("trans-amerika"), *VALUES, *cards]
    found: dict[str, list[str]] = {}

    def check(line: str, expect: int | None = None) -> None:
        words = leaks(clean(says(run, "xx", line, expect)), [*allowed, *session_ids(home)])
        if words:
            found[line] = words

    def check_pages() -> None:
        with using("xx"):
            shown = pages(home)
        for viewer, text in shown.items():
            words = leaks(text, [*allowed, *session_ids(home)])
            if words:
                found[f"page of {viewer}"] = words

    check("new trans-amerika --players Ann,Bob,Cy,Dee --variant special-cards --specials-per-round "
          f"{len(cards)} --entropy x", 0)
    check("round start " + " ".join(f"--special {c}" for c in cards), 0)
    for _ in range(16):  # every choice the cards ask for, each checked on every screen and page
        check("status")
        check_pages()
        from companion.core.session import load
        from companion.core.store import Store

        store = Store(home)
        s = load(store, store.current())
        state = s.replay().state
        if not state["pending"]:
            break
        p = s.game.waiting(state)[0]
        check(f"hand {p} --print")
        city = shlex.quote(state["hands"][p][0])
        check(f"hand {p} --return {city}" if state["pending"]["kind"] == "return" else f"pass {p} {city}", 0)
    for p, where in zip(PLAYERS, ("Dallas", "Boston", "Denver", "Seattle")):
        check(f"start {p} {where}", 0)
    check("build Ann Dallas-K10")
    check("build Ann Dallas-K10")  # refused: the line is taken
    check("end-turn Ann")
    check("status")
    check_pages()
    check("rails Ann --print")
    check("round end --auto")
    check("round end --winner Ann --missing Bob=2 --missing Cy=3 --missing Dee=4")  # refused: the board says
    check("status")
    check_pages()
    check("log")
    assert not found, json.dumps(found)


def test_german_trans_screens_fit_60_columns(run, monkeypatch):
    """German runs longer: every line of the game's screens still fits 60 columns (a deal's
    commitment is one word of 64 characters, copied whole, and a refusal is one line, as in English)."""
    monkeypatch.setenv("COLUMNS", "60")
    lines = [*PLAYTHROUGH["trans-amerika"][:-3], "log", "hand Ann --print", "rails Ann --print",
             "rails amerika --hand Dallas,Omaha,Boston", *PLAYTHROUGH["trans-amerika"][-3:]]
    for line in lines:
        for shown in says(run, "de", line).splitlines():
            if shown.startswith("Error: ") or re.fullmatch(r"  [0-9a-f]{64}", shown):
                continue
            assert len(shown) <= 60, (line, shown)


def test_the_trans_commands_help_in_german(run):
    """--help texts are translated as the terminal writes them: the declared moves', the
    hand-written commands' and `new`'s, each written whole."""
    says(run, "de", "new trans-amerika --players Ann,Bob,Cy,Dee --entropy x")
    assert "Genau die fehlenden Schienen" in flat(says(run, "de", "rails --help"))
    assert "Die Städte von NAME privat zeigen" in flat(says(run, "de", "hand --help"))
    assert "Die Schienen von NAME festhalten" in flat(says(run, "de", "build --help"))
    new = flat(says(run, "de", "new trans-europa --help"))
    assert "Eine Partie Trans Europa beginnen. 2 bis 6 Spieler" in new
    assert "(1 bis 8; Standard 1)" in new


def test_the_shells_next_step_in_german_names_the_command(run, home):
    """The shell's toolbar says what comes next: in German the sentence of `status`, or, while a
    card waits for choices, the command to type (`status --json`'s words are English)."""
    from companion.games.trans.views import next_action

    says(run, "de", "new trans-amerika --players Ann,Bob,Cy,Dee --variant special-cards --entropy x")
    says(run, "de", "round start --special return-any")
    with using("de"):
        data = json.loads(run(["status", "--json"], expect=0).stdout)
        assert next_action(data) == "hand NAME --return"
    assert next_action(data) == "Ann, Bob, Cy, Dee must still put a city back: hand NAME --return"


def test_the_all_hands_statistics_in_german_numbers(run):
    """`rails MAP --all-hands --stats`: thousands and decimals as a German player writes them."""
    # every card's 16,807 hands in the long run; by default the three players' 3,125 (the same
    # sentences and numbers, a fifth of the computing)
    if LONG:
        said = flat(says(run, "de", "rails europa --all-hands --stats"))
        assert "Spielplan Europa, leer: 16.807 Hände (4 bis 6 Spieler, alle Karten)." in said
    else:
        said = flat(says(run, "de", "rails amerika --all-hands --stats --players 3"))
        assert "Spielplan Amerika, leer: 3.125 Hände (2 oder 3 Spieler, ohne gestrichelte Karten)." in said
        assert "Am leichtesten (20 Schienen, 1 Hand): " in said and "Am schwersten (34 Schienen, 2 Hände): " in said
    assert re.search(r"Fehlende Schienen: Mittelwert \d+,\d\d, Standardabweichung \d+,\d\d, Minimum \d+, Maximum \d+\.",
                     said)
    assert re.search(r"Am schwersten \(\d+ Schienen, (1 Hand|\d+ Hände)\): ", said)
    # English keeps 16,807 and 1.23: tests/test_rails_cli.py::test_all_hands_stats (the same figures of
    # amerika, not computed a second time here)
