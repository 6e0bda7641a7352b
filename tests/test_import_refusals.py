"""Imports normalise or refuse, and every refusal says where and what is allowed (issue 22, C2, U1, U2).

A journal time without a time zone was imported, and then `export --format csv` and `--format
bgg` failed for the whole folder ("can't compare offset-naive and offset-aware datetimes").
The companion writes every time with its zone (UTC), so a time without one was made or changed
elsewhere, and guessing its zone could move a game to another day: such a file is refused, in
one line naming the entry (docs/history.md). A time without a zone already in a data folder (a
hand edit) is read as UTC, so no command fails on it.

Every refusal of an import names the session, the entry or field, and what is allowed; no
Python message (a 6,000-digit number gave Python's own "Exceeds the limit (4300 digits) ...
use sys.set_int_max_str_digits()") and no exception's name reaches the user.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from journal_support import edit_entry


@pytest.fixture
def valid(run, home) -> dict:
    """A real export: a finished score sheet and one in play."""
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=3", "Bob=1"], expect=0)
    run(["note", "a good game"], expect=0)
    run(["finish"], expect=0)
    run(["new", "scoresheet", "--players", "Cy,Dee"], expect=0)
    run(["add", "Cy=2"], expect=0)
    return json.loads(run(["export"], expect=0).stdout)


def folder_bytes(root: Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and not p.name.endswith(".lock")}


PYTHON = re.compile(r"\b[A-Z][A-Za-z]*(Error|Exception)\b|sys\.|set_int_max_str_digits|NoneType|<class|\bdict\b|"
                    r"\bstr\b|\bint\b|offset-naive|Traceback")


def refusal(run, tmp_path, content: str | bytes) -> str:
    """The one line `import` answers with, checked: one line, the folder byte for byte."""
    target = tmp_path / "laptop"
    run(["--data-dir", str(target), "new", "scoresheet", "--players", "Eve,Fay"], expect=0)
    path = tmp_path / "v.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    before = folder_bytes(target)
    result = run(["--data-dir", str(target), "import", str(path)], expect=1)
    line = result.stderr
    assert line.startswith("Error: v.json: ") and line.endswith("; nothing was imported.\n"), line
    assert line.count("\n") == 1 and len(line) < 400, line
    assert not PYTHON.search(line), f"a Python message reached the user: {line}"
    assert folder_bytes(target) == before
    return line


def sheet(doc):
    return doc["sessions"][0]


def naive_entry(doc):
    """The report's case: the session in play gets a copy of its last entry, its time without a zone."""
    journal = doc["sessions"][1]["journal"]
    journal.append(dict(copy.deepcopy(journal[-1]), at="2030-01-01T00:00:00"))


CASES = {
    "a journal time without a zone": (naive_entry, ["journal entry 2's time", "'2030-01-01T00:00:00'",
                                                    "no time zone", "2026-03-01T19:30:00+00:00"]),
    "a start without a zone": (lambda d: sheet(d)["meta"].update(created="2026-01-01T10:00:00"),
                               ["'s start", "no time zone", "+00:00"]),
    "a time that is no time": (lambda d: sheet(d)["journal"][0].update(at="yesterday"),
                               ["journal entry 1's time", "'yesterday'", "2026-03-01T19:30:00+00:00"]),
    "an enormous number in an event": (lambda d: sheet(d)["journal"][0]["event"]["scores"].update(Ann=10**30),
                                       ["journal entry 1's event.scores.Ann", "at most 1,000,000,000,000,000"]),
    "an enormous float": (lambda d: sheet(d)["meta"]["options"].update(target=1e300),
                          ["meta.options.target", "at most 1,000,000,000,000,000"]),
    "an enormous text": (lambda d: sheet(d)["meta"]["options"].update(note="x" * 200_000),
                         ["meta.options.note", "200,000 characters", "at most 100,000"]),
    "a name of 5,000 letters": (lambda d: sheet(d)["meta"].update(players=["Ann", "B" * 5000]),
                                ["longer than 20 characters"]),
    "a name with ESC": (lambda d: sheet(d)["meta"].update(players=["Ann", "B\x1bob"]),
                        ["control characters"]),
    "an event of the wrong shape": (lambda d: sheet(d)["journal"][0]["event"].update(scores=[1, 2]),
                                    ["journal entry 1", "(add)", "scoresheet"]),
    "a commitment on a game that deals nothing": (lambda d: sheet(d)["meta"].update(commitment="ab" * 32),
                                                  ["commitment", "deals no cards"]),
    "a play date that is no date": (lambda d: sheet(d)["meta"].update(played_on="last Tuesday"),
                                    ["played_on", "YYYY-MM-DD"]),
    "a location that is no text": (lambda d: sheet(d)["meta"].update(location=["home"]),
                                   ["location", "a text"]),
    "players as a text": (lambda d: sheet(d)["meta"].update(players="Ann,Bob"),
                          ["players must be a list, not a text"]),
    "a key nobody knows": (lambda d: sheet(d)["meta"].update(owner="me"), ["(owner)", "created"]),
    "another format": (lambda d: d.update(format="something-else"), ["'something-else'", "tabletop-companion"]),
    "no format": (lambda d: d.pop("format"), ["no format", "tabletop-companion"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_refusal_names_the_entry_the_field_and_what_is_allowed(run, valid, tmp_path, case):
    change, said = CASES[case]
    doc = copy.deepcopy(valid)
    change(doc)
    line = refusal(run, tmp_path, json.dumps(doc, ensure_ascii=False))
    changed = [s for s, was in zip(doc["sessions"], valid["sessions"]) if s != was]
    sid = changed[0]["meta"]["id"] if changed else ""
    if case not in ("another format", "no format"):
        assert f"session {sid}" in line, line
    for words in said:
        assert words in line, (words, line)


def test_a_number_of_6000_digits_gets_our_words(run, valid, tmp_path):
    text = json.dumps(valid).replace('"Ann": 3', '"Ann": ' + "9" * 6000, 1)
    assert "9" * 6000 in text
    line = refusal(run, tmp_path, text)
    assert "6,000 digits" in line and "line" in line and "at most 1,000,000,000,000,000" in line


@pytest.mark.parametrize("content, said", [("[1, 2]", "a list"), ('"export"', "a text"), ("12", "a whole number")])
def test_a_file_that_is_not_one_object_says_what_it_holds(run, tmp_path, content, said):
    line = refusal(run, tmp_path, content)
    assert said in line and "export --format json" in line


def test_every_history_command_works_after_a_refused_naive_time(run, valid, tmp_path):
    """The report's case: the import is refused, so `export` keeps working."""
    doc = copy.deepcopy(valid)
    naive_entry(doc)
    refusal(run, tmp_path, json.dumps(doc))
    for fmt in ("csv", "bgg", "json"):
        run(["--data-dir", str(tmp_path / "laptop"), "export", "--format", fmt], expect=0)


def test_a_naive_time_already_in_the_folder_is_read_as_utc(run, home, status):
    """A hand edit left a time without a zone in a session file: every history command still
    answers (before: `export --format csv/bgg` failed with a TypeError)."""
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=3", "Bob=1"], expect=0)
    run(["add", "Ann=1", "Bob=1"], expect=0)
    sid = status()["session"]
    # the start keeps its zone, as in the report
    edit_entry(home, sid, 2, lambda entry: entry.update(at="2030-01-01T00:00:00"))
    for args in (["export", "--format", "csv"], ["export", "--format", "bgg"], ["stats"], ["report"],
                 ["sessions"], ["log"], ["status"]):
        run(args, expect=0)
    csv = run(["export", "--format", "csv"], expect=0).stdout
    assert sid in csv


ATLANTIC_STAR = [
    # test rows (TEST values; the 6th places of the 1- and 5-star classes are the rulebook's 4 and 0)
    *[f"data set atlantic-star vp.{c} '[6, 5, 4, 3, 2, { {1: 4, 5: 0}.get(c, 1)}]'" for c in range(1, 6)],
    "new atlantic-star --players Ann,Bob --agency Rhea,Oceana", "charter Ann 0", "charter Bob 1000",
    "charter Ann 0", "charter Bob 0", "charter Ann 0", "charter Bob 0", "voyage Ann baltic --value 12 --class 3",
]


def test_printed_values_the_rules_cannot_score_are_refused(run, tmp_path):
    """Found by the hostile-import storm (tests/test_hostile_import.py) while this was built: an
    Atlantic Star session whose frozen victory points held a text imported, and then every
    `export --format csv` failed (TypeError in the rules' summary). The import now asks the
    rules for the summary too, as `status`, `stats` and the exports will."""
    source = tmp_path / "source"
    result = run(["--data-dir", str(source)], input="\n".join(ATLANTIC_STAR) + "\n")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(run(["--data-dir", str(source), "export"], expect=0).stdout)
    meta = sheet(doc)["meta"]
    assert meta["game"] == "atlantic-star"
    meta["data"]["vp"]["3"] = ["six"] * 6  # (Ann's voyage is 3rd in a class-3 sea)
    line = refusal(run, tmp_path, json.dumps(doc))
    assert f"session {meta['id']}'s printed values (meta.data)" in line and "atlantic-star" in line


# -- U3 and U4 (issue 22): refusals that say what is wrong ---------------------------------------

def test_a_short_note_with_an_escape_is_refused_for_the_escape_not_its_length(run):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    refused = run(["note", "ab\x1bcdefgh"], expect=1).stderr
    assert "character 3 is an escape (ESC)" in refused and "500" not in refused
    assert "at most 500 characters: this one has 501" in run(["note", "x" * 501], expect=1).stderr
    assert "a line break" in run(["note", "one\ntwo"], expect=1).stderr
    assert run(["log", "--json"], expect=0).stdout.count('"note"') == 0  # nothing recorded


def test_sessions_lists_the_folder_when_settings_json_is_damaged(run, home):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    (home / ".local" / "settings.json").write_text("{bad")
    listed = run(["sessions"], expect=0)
    assert "Ann, Bob" in listed.stdout and "settings.json is not valid JSON" in listed.stderr
    assert (home / ".local" / "settings.json").read_text() == "{bad"  # left as it was
