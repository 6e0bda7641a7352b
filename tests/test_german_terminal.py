"""The terminal in German (issue 28): its screens, questions and refusals, and that it fits.

- German sentences where the terminal speaks for itself (a refusal, a plural "1 beendete
  Partie / 2 beendete Partien", points written 68,5, the shell's bar, `--help` of a command and
  the list of commands), and y/N questions taking "j"/"ja";
- the pseudo-language (``LANGUAGE=xx``): no English word of the terminal's own left in the
  screens, refusals and questions it makes (the games' own screens are their packages' part);
- item 4, "it fits": every game's screens (status, board, log, its declared screens, the
  shared lists) in German on a real terminal (a pty read by pyte) at 80 and 60 columns, with
  the shell's bar: no line wider than the terminal, no name broken across two lines.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from companion.contract import language
from companion.contract.language import using
from companion.terminal.cli import cli
from long_mode import LONG
from pseudo_support import leaks
from pty_support import Shell, run_command
from test_terminal_screens import GAMES, SHARED, long_names, played, screens_of  # noqa: F401 (played: a fixture)

PLAYERS = ("Ann", "Bob", "Cy")


def say(home, *args, lang="de", input=None, code=0):
    """``companion ARGS`` in-process in ``lang`` (``xx``: the pseudo-language); (stdout, stderr)."""
    result = CliRunner().invoke(cli, list(args), input=input,
                                env={"COMPANION_HOME": str(home), "LANGUAGE": lang, "LC_ALL": "", "LANG": "C.UTF-8",
                                     "COLUMNS": "80"})
    language._process = None  # the next command chooses again
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.output
    return result.stdout, result.stderr


@pytest.fixture()
def home(tmp_path):
    return tmp_path / "home"


def test_the_record_speaks_german_with_its_plurals_and_decimal_commas(home):
    out, _err = say(home, "played", "scoresheet", "--players", "Ann=68.5,Bob=47")
    assert "Partie" in out and "erfasst" in out and "Ann 68,5, Bob 47; Ann gewinnt." in out
    assert "Statistik: 1 beendete Partie." in say(home, "stats")[0]
    say(home, "played", "scoresheet", "--players", "Ann=12,Bob=30")
    stats = say(home, "stats")[0]
    assert "Statistik: 2 beendete Partien." in stats and "Siegquote" in stats
    listing = say(home, "sessions")[0]
    assert "gespielt" in listing and "gewonnen von Ann" in listing


def test_refusals_and_errors_are_german(home):
    assert say(home, "frobnicate", code=2)[1].startswith("Fehler: Kein Befehl 'frobnicate'.")
    say(home, "new", "scoresheet", "--players", "Ann,Bob")
    assert "Fehler: Partie" in say(home, "verify", code=1)[1] and "teilt keine Karten aus" in say(home, "verify", code=1)[1]
    assert "keinen Spielplan" in say(home, "board", code=1)[1]
    assert "--excel gilt für den csv-Export" in say(home, "export", "--excel", code=1)[1]
    assert "Kein Spiel 'nosuch' ist installiert" in say(home, "check", "nosuch", code=1)[1]
    # piped: `delete` cannot ask, and says what to type
    from companion.core.app import App

    sid = App(home).store.current()
    refused = say(home, "delete", sid, code=1)[1]
    assert f"`delete` verschiebt Partie {sid} (Punkteblock mit Ann, Bob, begonnen" in refused and "--yes" in refused


def test_helps_and_the_list_of_commands_are_german(home):
    top = say(home, "--help")[0]
    assert "Aufruf:" in top and "Partien:" in top and "Verlauf und Austausch:" in top
    assert "Die aktuelle Partie zeigen" in top
    status = say(home, "status", "--help")[0]
    assert "Auf diese Partie statt auf die aktuelle wirken." in status or "Die aktuelle Partie zeigen" in status
    check = say(home, "check", "--help")[0]
    assert "Zufallsläufe pro Spiel (Standard 2;" in check or "Zufallsläufe pro Spiel (Standard 6;" in check
    assert say(home, "help", "played")[0].count("Ann=52,Bob=47") >= 1
    # English keeps its text byte for byte
    assert "Show the current session: round, scores, whose turn" in say(home, "--help", lang="en")[0]


def test_the_shells_bar_speaks_german():
    from companion.terminal.shell import toolbar_text

    status = {"session": "ab12", "game": "scoresheet", "title": "Score sheet", "round": 3,
              "players": [{"name": "Ann", "score": 68.5}, {"name": "Bob", "score": 47}]}
    with using("de"):
        bar = toolbar_text(status, turn=["Ann"], next_action="add")
        assert bar == "Partie ab12 · Punkteblock · Runde 3 · Ann ist dran · vorn Ann (68,5)\nweiter: add"
        over = toolbar_text({**status, "finished": True, "winners": ["Ann", "Bob"]})
        assert over.endswith("vorbei: Ann & Bob haben gewonnen")
    assert toolbar_text(status, turn=["Ann"]) == "session ab12 · Score sheet · round 3 · Ann's turn · leader Ann (68.5)"


def test_yes_no_questions_take_j_and_ja_in_german():
    from companion.terminal.groups import is_yes

    with using("de"):
        assert is_yes("j") and is_yes("Ja") and is_yes("y") and not is_yes("n") and not is_yes("")
        assert is_yes("", default=True)
    with using("en"):
        assert is_yes("yes") and not is_yes("ja")


def test_the_private_screen_and_the_hand_over_speak_german():
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from companion.terminal.private import PrivateScreen

    class Seen(DummyOutput):
        def __init__(self):
            super().__init__()
            self.text = ""

        def write_raw(self, data):
            self.text += data

        def write(self, data):
            self.text += data

    for lang, wanted in (("de", "Nur Ann schaut hin."), ("en", "Only Ann looks.")):
        with using(lang), create_pipe_input() as pipe:
            out = Seen()
            pipe.send_text("\r\r")
            PrivateScreen(out, pipe).show("Ann", "Berlin, Wien", "the cards")
            assert wanted in out.text


@pytest.fixture()
def german():
    """The process speaks German (the shell runs in-process, as `companion --lang de` would)."""
    language.set_language("de")
    yield
    language._process = None


def test_data_setup_asks_in_german(home, capsys, german):
    from shell_support import drive

    drive(home, "data setup atlantic-star\nskip\n\x03")
    out = " ".join(capsys.readouterr().out.split())
    assert "5 gedruckte Werte von atlantic-star sind noch unbekannt. Jeder wird einmal gefragt" in out
    assert "1 von 5 · atlantic-star vp.1" in out and "2 von 5 · atlantic-star vp.2" in out
    assert "Übersprungen: die Frage kommt wieder, wenn der Wert gebraucht wird." in out
    assert "Einrichtung nach 0 gespeicherten Werten abgebrochen" in out


def test_new_offers_the_setup_in_german_and_takes_j_for_yes(home, capsys, german):
    from shell_support import Screen, drive

    screen = Screen()
    drive(home, "new atlantic-star --players Ann,Bob\n\nj\n\x03", output=screen.output(columns=100))
    flat = " ".join(screen.getvalue().split())
    assert "5 gedruckte Werte sind noch unbekannt: jetzt einrichten? [j/N]" in flat
    assert "1 von 5 · atlantic-star vp.1" in " ".join(capsys.readouterr().out.split())


# -- the pseudo-language: the terminal's own words all pass the catalogue ----------------------------


def test_no_english_word_of_the_terminal_bypasses_the_catalogue(home):
    """Every screen, refusal and summary the terminal makes itself, in the pseudo-language."""
    allowed = [*PLAYERS, "Score sheet", "scoresheet", "Carcassonne", "ID", "GAME", "CMD", "FILE", "TEXT", "JSON",
               "NAME", "DATE", "YYYY", "Ctrl", "openskill", "QR",
               "nosuch", "frobnicate", "Dee", *GAMES, "accept", "check", "set", "setup", "show", "unset"]
    shown = []
    shown.append(say(home, "played", "Carcassonne", "--players", "Ann=68.5,Bob=47,Cy=12", lang="xx")[0])
    shown.append(say(home, "played", "scoresheet", "--players", "Ann,Bob", "--coop", "--won", lang="xx")[0])
    shown += [say(home, *args, lang="xx")[0] for args in (["stats"], ["players"], ["sessions"], ["stats", "--ratings"])]
    say(home, "new", "scoresheet", "--players", "Ann,Bob,Cy", lang="xx")
    shown.append(say(home, "log", lang="xx")[0])
    shown.append(say(home, "note", "hello", lang="xx")[0].replace("hello", ""))
    shown.append(say(home, "abandon", "--reason", "late", lang="xx")[0].replace("late", ""))
    from companion.core.app import App

    sid = App(home).store.current()
    allowed.append(sid)
    for args in (["verify"], ["board"], ["export", "--excel"], ["check", "nosuch"], ["delete", sid],
                 ["played", "scoresheet", "--players", "Ann=x"], ["frobnicate"], ["help", "nosuch"]):
        result = CliRunner().invoke(cli, args, env={"COMPANION_HOME": str(home), "LANGUAGE": "xx"})
        language._process = None
        shown.append(result.stderr.split(":", 1)[1])  # after the (pseudo) "Error:"
    for name in ("sessions", "stats", "played", "data", "verify", "language"):
        shown.append(say(home, name, "--help", lang="xx")[0].split("\n", 1)[1])  # Click's own usage line aside
    from companion.terminal.shell import toolbar_text

    with using("xx"):
        shown.append(toolbar_text({"session": "ab12", "game": "scoresheet", "title": "Score sheet", "round": 3,
                                   "players": [{"name": "Ann", "score": 3}, {"name": "Bob", "score": 3}]},
                                  turn=["Ann", "Bob"]))
        shown.append(toolbar_text({"session": "ab12", "game": "scoresheet", "title": "Score sheet",
                                   "abandoned": True, "players": []}))
    allowed += App(home).store.session_ids()  # ids are values
    found = {text: leaks(text, allowed) for text in shown}
    assert not any(found.values()), "\n".join(f"{w}: {t[:300]!r}" for t, w in found.items() if w)


# -- item 4: it fits, in German, on a real terminal -----------------------------------------------

CASES = [(g, tuple(args)) for g in GAMES for args in [*screens_of(g), ["report"]]] \
    + [(GAMES[0], tuple(a)) for a in SHARED]
COLOURS = [False, True] if LONG else [False]


@pytest.mark.parametrize("colour", COLOURS, ids=["NO_COLOR", "colour"][:len(COLOURS)])
@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("game_id, args", CASES, ids=[f"{g}:{' '.join(a)}" for g, a in CASES])
def test_every_screen_fits_in_german(played, game_id, args, columns, colour):  # noqa: F811 (the fixture)
    home = played[game_id]
    shown = run_command(list(args), home, columns=columns, colour=colour, env={"LANGUAGE": "de"})
    # a link alone on its line (the report's BG Stats link) is one word to copy whole: the terminal folds it
    problems = [p for p in shown.problems(long_names(home)) if ": 'https://" not in p]
    assert problems == [], "\n" + shown.text()


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("game_id", GAMES)
def test_the_shells_bar_fits_in_german(played, game_id, columns):  # noqa: F811 (the fixture)
    home = played[game_id]
    with Shell(home, columns=columns, rows=24, colour=False, env={"LANGUAGE": "de"},
               ready=("companion>", " · ")) as shell:
        screen = shell.text()  # the bar on it, once the session is read
        assert "Tabletop Companion" in screen and "`help` zeigt die Befehle" in screen
        assert all(len(row) <= columns for row in screen.splitlines())
        bar = [row for row in screen.splitlines() if " · " in row or row.startswith("weiter:")]
        assert bar and not any(row.startswith(("session ", "next: ")) for row in bar), screen
        assert all(len(row) <= columns - 1 for row in bar)


def test_the_bar_spares_the_id_and_the_title_before_it_cuts_and_never_cuts_a_word():
    from companion.terminal.shell import fit

    line = "Partie 9iuwhe3h · Trans Europa · Runde 0 · gleichauf: Ann & Bob & Cy & Dee (0)"
    assert fit(line, 79) == line
    assert fit(line, 64) == "Trans Europa · Runde 0 · gleichauf: Ann & Bob & Cy & Dee (0)"
    assert fit(line, 59) == "Runde 0 · gleichauf: Ann & Bob & Cy & Dee (0)"
    assert fit(line, 30) == "Runde 0 · gleichauf: Ann…"
    assert fit("weiter: Startmarker setzen mit `start NAME CITY`", 30) == "weiter: Startmarker setzen…"


def test_the_shell_started_with_lang_de_speaks_german_on_every_line(tmp_path):
    """`companion --lang de` in a terminal: every line typed in its shell speaks German (a line
    once chose the language again from its own words and fell back to English)."""
    with Shell(tmp_path / "home", columns=80, rows=24, colour=False, args=("--lang", "de")) as shell:
        screen = shell.type("sessions")
        assert "Noch keine Partien" in screen and "keine Partie · `new GAME --players A,B`" in screen
        screen = shell.type("--lang en sessions")  # that line only
        assert "No sessions yet" in screen
        assert shell.type("players").count("Noch keine Spieler") == 1
        # `--json` speaks English for its own line only, even when Click stops at a usage error
        # before the command runs (the shell once stayed English for the rest of the evening)
        assert "Fehlendes Argument" in shell.type("played --json")
        assert shell.type("players").count("Noch keine Spieler") == 2
