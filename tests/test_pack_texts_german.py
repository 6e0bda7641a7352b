"""The printed-value packs' own words in the players' language (issue 28): a pack's "needs",
"where" and "means" notes are the companion's texts about a value (what needs it, where it is
printed, what each place of it means), kept English in data/ and given in German by
companion/locale/de/packs.po wherever they are shown: `data check`, the set-up's questions and
its listing after `new`, and the question on a phone. A pack's "sources" are never translated."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

from companion.contract import catalogue
from companion.contract.language import using
from companion.core import datapack

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ("needs", "where", "means")


def notes() -> list[tuple[str, str, str, str]]:
    """(game, section, key, text) of every note of every shipped pack."""
    out = []
    for path in sorted((ROOT / "data").glob("*.json")):
        pack = json.loads(path.read_text(encoding="utf-8"))
        for section in SECTIONS:
            out += [(path.stem, section, key, text) for key, text in (pack.get(section) or {}).items()]
    return out


@functools.cache
def german() -> dict[str, str]:
    """The German of every msgid of the catalogue's parts, read once per process (the tests
    only read it; the parametrized test asked for it once per note)."""
    table = {}
    for part in sorted((ROOT / "companion" / "locale" / "de").glob("*.po")):
        for entry in catalogue.read_po(part):
            if entry["msgid"] and not entry.get("msgctxt") and not entry["fuzzy"]:
                table.setdefault(entry["msgid"], entry.get("msgstr", ""))
    return table


def test_every_note_of_every_pack_has_its_german():
    table = german()
    assert len(notes()) > 60  # the four packs' notes are all read
    missing = sorted({text for _g, _s, _k, text in notes() if not table.get(text)})
    assert not missing, f"{len(missing)} pack notes lack their German in companion/locale/de/packs.po, e.g. {missing[:3]}"


def test_the_listings_cut_finds_the_same_first_clause_in_german():
    """`new`'s listing shows a need up to its first ";" or ". " (setup.asked_later): the German
    keeps those breaks where the English has them (no "1. bis 6." to cut a sentence short)."""
    table = german()
    for text in {t for _g, section, _k, t in notes() if section == "needs"}:
        said = table[text]
        assert (said.count(";"), said.count(". ")) == (text.count(";"), text.count(". ")), said


@pytest.mark.parametrize("game, section, key, text", notes(), ids=[f"{g}:{s}:{k}" for g, s, k, _t in notes()])
def test_each_note_is_told_in_the_readers_language(game, section, key, text):
    told = {"needs": datapack.need_text, "where": datapack.where_text, "means": datapack.means_text}[section]
    assert told(game, key) == text  # English as the pack says it
    with using("de"):
        assert told(game, key) == german()[text] != text


def test_data_check_says_what_needs_a_value_in_german(run):
    out = run(["--lang", "de", "data", "check", "trans-amerika"], expect=0).stdout
    flat = " ".join(out.split())
    assert ("trans-amerika colour_aliases.brown: unbekannt — Sonderkarten, die eine Farbe nennen "
            "(return-, reveal- und pass-Karten); COLOUR ist eine der Farben dieses Spielplans") in flat
    assert "special cards that name" not in flat
    assert "companion data set trans-amerika colour_aliases.brown '\"COLOUR\"'" in out  # the command stays
    english = " ".join(run(["--lang", "en", "data", "check", "trans-amerika"], expect=0).stdout.split())
    assert "colour_aliases.brown: unknown — special cards that name a colour" in english


def test_the_listing_after_new_and_a_setup_question_speak_german(home):
    from companion.core.app import App
    from companion.terminal import setup

    app = App(home)
    with using("de"):
        listing = " ".join(setup.asked_later(app, "atlantic-star"))
        assert "vp (5): gebraucht für die Siegpunkte der 1-Sterne-Klasse, Platz 1 bis 6" in listing
        assert "Platz 1 bis 6 Die" not in listing and "victory points" not in listing
        listing = " ".join(setup.asked_later(app, "trans-amerika"))
        assert "colour_aliases (5): gebraucht für Sonderkarten, die eine Farbe nennen (return-, reveal- und pass-Karten)" in listing


def test_a_phones_question_says_what_and_where_in_german(run, home):
    from serve_support import site_and_client
    from companion.web import questions

    run(["new", "atlantic-star", "--players", "Ann,Bob", "--agency", "Rhea,Oceana,Titan,Ceres"], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    site, _client, _links = site_and_client(home, sid, ["Ann", "Bob"])
    with using("de"):
        page = questions.question(site.reader, site.secret, sid, "Ann", "atlantic-star", "vp.2", "Stage a voyage",
                                  "/p/{token}/value")
    text = re.sub(r"\s+", " ", page)
    assert "Gebraucht für: die Siegpunkte der 2-Sterne-Klasse, Platz 1 bis 6." in text
    assert "Wo er steht: der Spielplan: die Siegpunkte neben jedem Platz (Platz 1 bis 6) jeder Klasse" in text
    assert "victory points of the" not in text and "the game board" not in text


def test_the_listing_never_leaves_a_parenthesis_open_in_either_language(home):
    """A need cut at a ";" inside parentheses (the ferry's "(counted as drawn ...; none ...)")
    is cut before them instead."""
    from companion.core.app import App
    from companion.terminal import setup

    app = App(home)
    for lang in ("en", "de"):
        with using(lang):
            for game in datapack.pack_names():
                for line in setup.asked_later(app, game):
                    assert line.count("(") == line.count(")"), line
    with using("de"):
        ferry = [line for line in setup.asked_later(app, "trans-europa") if "single_lines" in line]
    assert ferry == ["  - single_lines (3): gebraucht für Zählungen, deren Weg die Fähre durch den Ärmelkanal "
                     "nehmen kann, laut Spielregel eine einfache Linie"]
    assert setup.first_clause("a (b; c) d; e") == "a" and setup.first_clause("a. b") == "a" and setup.first_clause("2.5 m") == "2.5 m"
    assert setup.first_clause("x (y) z. w") == "x (y) z" and setup.first_clause("plain") == "plain"
