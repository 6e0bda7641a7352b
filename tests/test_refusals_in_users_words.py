"""Three refusals that did not say what was wrong in the user's words (issue 29, U1): a damaged
file holding a 6,000-digit number gave Python's own advice ("use sys.set_int_max_str_digits()");
`add` with a 6,000-digit number repeated it twice in a 12 KB refusal; `note "-3+4"` said "No
such option '-3'" without saying that `note -- -3+4` works. Each is now one short line."""

from __future__ import annotations

import json

import pytest

HUGE = "9" * 6000
PYTHON = ("sys.", "set_int_max_str_digits", "Exceeds the limit", "ValueError")


def one_short_line(text: str, longest: int = 400) -> str:
    text = text.strip()
    assert "\n" not in text and len(text) <= longest, text[:500]
    assert not any(word in text for word in PYTHON), text
    return text


@pytest.mark.parametrize("name, kind", [("settings.json", "settings"), ("titles.json", "titles"),
                                        ("index.json", "index")])
def test_a_damaged_file_with_a_huge_number_is_named_in_the_users_words(run, home, name, kind):
    run(["new", "scoresheet", "--players", "Ann,Bob", "--title", "Azul"], expect=0)
    damaged = f'{{"_schema":{{"kind":"{kind}","version":1}},"{kind}":{{"1":{HUGE}}}}}'
    place = home / ".local" if name in ("settings.json", "index.json") else home  # this laptop's own (issue 30)
    (place / name).write_text(damaged)
    commands = {"titles.json": ["games", "--json"], "index.json": ["sessions"], "settings.json": ["status"]}
    err = one_short_line(run(commands[name], expect=1).stderr)
    assert err == (f"Error: {place / name} holds a number thousands of digits long, which no companion file does "
                   "(damaged): restore it from a backup or move it away; it was not changed.")
    assert (place / name).read_text() == damaged


def test_a_huge_number_typed_is_refused_in_one_short_line(run, script):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    beyond = ("Error: A number of over 40 digits is beyond what any game counts (at most 1,000,000,000,000,000 "
              "either way): check what was typed.")
    assert one_short_line(run(["add", f"Ann={HUGE}"], expect=1).stderr) == beyond
    assert one_short_line(run(["score", "Ann", HUGE], expect=1).stderr) == beyond
    assert one_short_line(run(["new", "scoresheet", "--players", "Ann,Bob", "--target", HUGE], expect=1).stderr) == beyond
    # not a number at all, 6,000 characters long: said by its start and its length, not echoed whole
    err = one_short_line(run(["add", f"Ann=x{HUGE}"], expect=2).stderr)
    assert "is not a number" in err and "(6,003 characters)" in err
    code, out, err = script(f"add Ann=x{HUGE}\n")
    assert code == 1 and one_short_line(err).startswith("line 1: ")  # a script stops at a refused line
    assert json.loads(run(["status", "--json"], expect=0).stdout)["round"] == 0


def test_a_note_starting_with_a_dash_says_to_type_it_after_double_dash(run, script):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    err = one_short_line(run(["note", "-3+4"], expect=2).stderr)
    assert err == ("Error: No such option '-3': a value that starts with '-' goes after `--`, which ends the "
                   "options: `note -- -3+4`")
    code, out, err = script('note "Ann -3 +4" "-3 + 4"\n')
    assert code == 1 and "`note 'Ann -3 +4' -- '-3 + 4'`" in err
    assert "Noted" in run(["note", "--", "-3+4"], expect=0).stdout
    # a long option mistyped keeps Click's own suggestion
    assert "Did you mean" in run(["status", "--sesion", "x"], expect=2).stderr
