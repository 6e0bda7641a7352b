"""The players' language (issue 28): how it is chosen, and the catalogues kept complete.

Every message marked in the package (``_``, ``N_``, ``ngettext``, ``pgettext``) is extracted with
Babel's own extractor, and must be in the German catalogue, translated, not fuzzy, and with the
placeholders of the original; GNU msgfmt checks each part when it is installed (CI installs it).
"""

from __future__ import annotations

import datetime
import gettext
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.contract import catalogue, language, written
from companion.contract.language import from_accept_language, from_environment, known, using
from catalogue_support import extracted

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "companion" / "locale"
PARTS = sorted((LOCALE / "de").glob("*.po"))


def german() -> dict:
    entries = {}
    for part in PARTS:
        for entry in catalogue.read_po(part):
            if entry["msgid"]:
                entries.setdefault(catalogue.key_of(entry), []).append((part.name, entry))
    return entries


PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sd]")


def test_every_message_is_in_the_german_catalogue_translated_with_its_placeholders():
    table = german()
    missing, empty, fuzzy, holes = [], [], [], []
    for m in extracted():
        key = m["msgid"] if not m["msgctxt"] else m["msgctxt"] + "\x04" + m["msgid"]
        if key not in table:
            missing.append(m["msgid"])
            continue
        _part, entry = table[key][0]
        if entry["fuzzy"]:
            fuzzy.append(m["msgid"])
        forms = [v for k, v in entry.items() if isinstance(k, tuple)] or [entry.get("msgstr", "")]
        if not all(forms):
            empty.append(m["msgid"])
        wanted = set(PLACEHOLDER.findall(m["msgid"])) | set(PLACEHOLDER.findall(m["msgid_plural"] or ""))
        for form in forms:
            if form and not set(PLACEHOLDER.findall(form)) <= wanted:
                holes.append((m["msgid"], form))
            # every placeholder of the singular is in it (a plural's count may be left out in
            # "one game", as English leaves it in "1 game")
            if form and not set(PLACEHOLDER.findall(m["msgid"])) - {"{n}", "{count}"} <= set(PLACEHOLDER.findall(form)):
                holes.append((m["msgid"], form))
    assert not missing, f"{len(missing)} messages are not in companion/locale/de/*.po, e.g. {missing[:5]}"
    assert not empty, f"untranslated: {empty[:5]}"
    assert not fuzzy, f"fuzzy: {fuzzy[:5]}"
    assert not holes, f"placeholders differ: {holes[:5]}"


def test_a_message_in_two_parts_is_translated_the_same_in_both():
    """Short words ("none", " and ") are met on several floors, each part may hold them; two
    translations of one English text would make one of them wrong (use pgettext's context)."""

    def said(entry):
        return tuple(v for k, v in sorted(entry.items(), key=str) if k == "msgstr" or isinstance(k, tuple))

    differ = {k: [(p, said(e)) for p, e in v] for k, v in german().items() if len({said(e) for _, e in v}) > 1}
    assert not differ


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed (apt-get install gettext)")
@pytest.mark.parametrize("part", PARTS, ids=[p.name for p in PARTS])
def test_msgfmt_checks_each_part(part, tmp_path):
    result = subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "x.mo"), str(part)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_compiled_catalogue_says_what_the_sources_say(tmp_path):
    target = tmp_path / "companion.mo"
    catalogue.compile_po(PARTS, target)
    compiled = gettext.GNUTranslations(io.BytesIO(target.read_bytes()))
    table = language._from_sources(PARTS).table
    for key, value in table.items():
        if isinstance(key, tuple):
            assert compiled.ngettext(key[0], key[0] + "s", 1 if key[1] == 0 else 2) == value or key[1] > 1
        elif key:
            assert compiled.gettext(key) == value


def test_a_language_is_known_by_any_of_its_spellings():
    assert known("de_DE.UTF-8") == known("de-AT") == known("DE") == "de"
    assert known("fr_FR") is None and known("") is None and known(None) is None


def test_the_locale_variables_are_read_in_posix_order():
    assert from_environment({"LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"}) == "de"
    assert from_environment({"LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8"}) == "de"
    assert from_environment({"LC_MESSAGES": "de_CH", "LANG": "en_GB"}) == "de"
    assert from_environment({"LANG": "fr_FR.UTF-8"}) == "en"  # unknown: English
    assert from_environment({"LANG": "C"}) == "en"
    assert from_environment({}) is None


def test_a_browser_gets_the_best_of_ours_by_weight():
    assert from_accept_language("fr-FR,de;q=0.9,en;q=0.8") == "de"
    assert from_accept_language("en-GB,en;q=0.9,de;q=0.8") == "en"
    assert from_accept_language("de-CH") == "de"
    assert from_accept_language("ja,fr") == "en"
    assert from_accept_language(None) == "en"
    assert from_accept_language("de;q=0, en;q=0.1") == "en"
    assert from_accept_language("xx") == "en"  # the test language is never offered to a browser


def test_each_viewer_speaks_its_own_language_at_once():
    with using("de"):
        assert language._("Usage:") == "Aufruf:"
        with using("en"):
            assert language._("Usage:") == "Usage:"
        assert language.ngettext("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments.", 2) \
            == "Option {name!r} braucht {nargs} Werte."
    assert language._("Usage:") == "Usage:"


def test_the_pseudo_language_keeps_placeholders_markup_and_commands():
    text = language.pseudo("{name} builds <b>2</b> rails: type `status` &amp; go")
    assert "{name}" in text and "<b>" in text and "`status`" in text and "&amp;" in text
    assert "rails" not in text and text.endswith("·") and len(text) > len("{name} builds <b>2</b> rails: type `status` &amp; go")


@pytest.mark.parametrize("value", [0, 1, 68.5, -3.25, 1234, 1234567.5, 0.1, 10**12])
def test_numbers_are_written_as_babel_writes_them(value):
    from babel.numbers import format_decimal

    for lang, locale in (("de", "de_DE"), ("en", "en_GB")):
        with using(lang):
            assert written.number(value, grouped=True) == format_decimal(value, locale=locale)
            assert written.number(value) == format_decimal(value, locale=locale, group_separator=False)


@pytest.mark.parametrize("day", [datetime.date(2026, 12, 4), datetime.date(2027, 3, 1), datetime.date(2025, 5, 31)])
def test_dates_are_written_as_babel_writes_them(day):
    from babel.dates import format_date

    with using("de"):
        assert written.long_date(day) == format_date(day, format="long", locale="de_DE")
    with using("en"):
        assert written.long_date(day) == format_date(day, format="long", locale="en_GB")


def test_a_decimal_comma_is_read_and_a_thousands_comma_is_refused_with_both_forms():
    from companion.contract.errors import RuleError
    from companion.contract.numbers import parse_points

    assert parse_points("12,5") == 12.5 and parse_points("-0,5") == -0.5 and parse_points("68.5") == 68.5
    with pytest.raises(RuleError, match="1500 or 1.5: type 1500, or 1.5"):
        parse_points("1,500")
    with using("de"):
        assert parse_points("12,5") == 12.5
        with pytest.raises(RuleError, match="1500 eingeben, oder 1,5"):
            parse_points("1.500")


def run(*args, env=None, cwd=None):
    """`companion ARGS` in a process of its own with these locale variables (forked from
    tests/pty_fork.py's helper, which chose no language: each child chooses its own)."""
    import os

    from pty_fork import run as forked

    full = {**os.environ, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8", **(env or {})}
    return forked(list(args), full, cwd=cwd)


def test_the_terminal_chooses_lang_then_setting_then_locale_variables(tmp_path):
    data = str(tmp_path / "data")
    assert "Aufruf:" in run("--data-dir", data, "--help", env={"LANG": "de_DE.UTF-8"}).stdout
    assert "Usage:" in run("--data-dir", data, "--help").stdout
    assert "Aufruf:" in run("--lang", "de", "--data-dir", data, "--help").stdout
    assert "Usage:" in run("--lang", "en", "--data-dir", data, "--help", env={"LANG": "de_DE.UTF-8"}).stdout
    assert run("--data-dir", data, "language", "de").returncode == 0
    assert "Aufruf:" in run("--data-dir", data, "--help").stdout  # the data folder's setting
    assert "Usage:" in run("--data-dir", data, "--lang", "en", "--help").stdout  # --lang wins
    assert run("--data-dir", data, "language", "auto").returncode == 0
    assert "Usage:" in run("--data-dir", data, "--help").stdout
    assert "Aufruf:" in run("--data-dir", data, "--help", env={"LANGUAGE": "fr:de"}).stdout
    assert "Usage:" in run("--data-dir", data, "--help", env={"LANG": "fr_FR.UTF-8"}).stdout  # unknown: English


def test_json_is_english_whatever_the_terminal_speaks(tmp_path):
    """`--json` is read by programs: its words stay English in a German terminal (issue 28)."""
    import json as json_module
    import os

    from pty_fork import run as forked  # each a process of its own, forked from tests/pty_fork.py's helper

    def run(*args):
        return forked(list(args), {**os.environ, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"})

    data = str(tmp_path / "data")
    assert run("--lang", "de", "--data-dir", data, "new", "scoresheet", "--players", "Ann,Bob").returncode == 0
    assert "Summen" in run("--lang", "de", "--data-dir", data, "add", "Ann=3,5", "Bob=2").stdout
    entries = json_module.loads(run("--lang", "de", "--data-dir", data, "log", "--json").stdout)
    assert entries[0]["words"] == "round scored: Ann +3.5, Bob +2"
    assert "Runde gewertet: Ann +3,5, Bob +2" in run("--lang", "de", "--data-dir", data, "log").stdout
