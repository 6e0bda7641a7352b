"""What a `status` reads without json and without regular expressions (issue 27 item 7).

A `status` read its JSON through the json package (5 M instructions of imports at every start)
and split its words, its sentences' placeholders, its journals' names and its session ids by
patterns compiled at every start (0.4 M each). It now reads JSON by json's own C scanner
(companion.core.json_read) and these texts by str methods. Each is held here to give what it
replaced, value for value and refusal for refusal, on the texts the companion meets and on
random ones; and a Trans `status` is held to import neither json nor the board's drawing.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest

from companion.contract.view import _fields
from companion.core.files import is_session_id
from companion.core.journals import journal_name
from companion.core.json_read import loads, raw_decode
from companion.terminal.render import _runs

from test_startup_imports import imported_by

DOCUMENTS = [
    '{"_schema": {"kind": "session", "version": 3}, "meta": {"1": {"id": "c95ybxq5", "players": ["Ann", "Bob"]}}}',
    '  [1, 2.5, -3e5, 1E400, true, false, null, "x\\u00e9\\n\\ud83d\\ude00", {}]  \n',
    '{"a": NaN, "b": Infinity, "c": -Infinity, "d": -0, "e": 0.1, "f": 12345678901234567890}',
    '"Zoë · München"', "7", "\t{}\r\n",
]
REFUSED = ["", " ", "[1] x", "\ufeff[1]", "[1,]", '{"a" 1}', '"abc', '"\x01"', "-", "tru", "{'a': 1}",
           "1" * 5000, "[" * 100_000 + "]" * 100_000, '{"a":1}{']
BYTES = [b'["\xc3\xa9", 1]', b'{"a": [1, 2]}', b"\xef\xbb\xbf[1]", b"[\x00\x00\x00", b"x", b"", b"[\xff]",
         b'["\xed\xa0\x80"]']


def outcome(read, text):
    """What ``read(text)`` gives: its value (written out, so NaN equals NaN), or its refusal."""
    try:
        return "value", json.dumps(read(text))
    except (ValueError, RecursionError) as exc:
        return type(exc), str(exc)


@pytest.mark.parametrize("text", DOCUMENTS + REFUSED + BYTES)
def test_json_is_read_as_json_reads_it_and_refused_in_its_words(text):
    assert outcome(loads, text) == outcome(json.loads, text)


@pytest.mark.parametrize("text", DOCUMENTS + REFUSED)
@pytest.mark.parametrize("at", [0, 1, 8])
def test_a_value_inside_a_text_is_read_where_json_reads_it(text, at):
    def theirs(t):
        return json.JSONDecoder().raw_decode(t, at)

    assert outcome(lambda t: raw_decode(t, at), text) == outcome(theirs, text)


def test_random_texts_are_read_and_refused_as_json_does():
    rng = random.Random(27)
    alphabet = '{}[]",:0123456789.-+eE truefalsnul\\u\n\t xNaIfiy'
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert outcome(loads, text) == outcome(json.loads, text), text


def test_a_damaged_file_is_still_named_with_its_line(tmp_path):
    from companion.contract.errors import StoreError
    from companion.core.files import parse_json

    with pytest.raises(StoreError, match=r"is not valid JSON \(line 2\)"):
        parse_json(tmp_path / "s.json", '{"a": 1,\n "b": }', "session")
    with pytest.raises(StoreError, match="a number thousands of digits long"):
        parse_json(tmp_path / "s.json", '{"a": ' + "9" * 5000 + "}", "session")


PLACEHOLDER = re.compile(r"\{(\w+)((?:![rs])?(?::[^{}]*)?)\}")


@pytest.mark.parametrize("text", ["{name} builds {n:+d} rails", "{{a}} {} {a.b} {x!r} {y!s:>4} {z!x}", "é{ü1}",
                                  "{a:{b}}", "Round {n} · {who}", "{", "}{", "{_}"])
def test_a_sentence_is_cut_at_its_placeholders_as_before(text):
    assert _fields(text) == PLACEHOLDER.split(text)


def test_random_sentences_are_cut_as_before():
    rng = random.Random(28)
    for _ in range(20_000):
        text = "".join(rng.choice("{}ab_1!rs:+d é.") for _ in range(rng.randint(0, 14)))
        assert _fields(text) == PLACEHOLDER.split(text), text


def test_words_and_spaces_are_cut_as_before():
    rng = random.Random(29)
    for text in ["", " ", "a", "  Ann  builds\n two ", "St.\u00a0Louis  -  x"]:
        assert _runs(text) == re.findall(r" +|[^ ]+", text)
    for _ in range(20_000):
        text = "".join(rng.choice(" ab\n\t-") for _ in range(rng.randint(0, 12)))
        assert _runs(text) == re.findall(r" +|[^ ]+", text), text


JOURNAL = re.compile(r"(?P<sid>[a-z0-9]{8})\.(?P<dev>[0-9a-f]{10})(?P<copy>.*)\.jsonl")


def test_journal_names_and_session_ids_are_told_as_before():
    names = ["c95ybxq5.fe130c92fc.jsonl", "c95ybxq5.fe130c92fc.sync-conflict-20261205-ABC.jsonl",
             "c95ybxq5.fe130c92fc.jsonl.jsonl", "C95ybxq5.fe130c92fc.jsonl", "c95ybxq5.fe130c92fC.jsonl",
             "c95ybxq5.fe130c92fc.x\n.jsonl", "c95ybxq5.fe130c92fc.json", "c95ybxq5.json", ".jsonl", ""]
    rng = random.Random(30)
    for _ in range(20_000):
        name = list(names[0])
        for _ in range(rng.randint(0, 3)):
            at = rng.randint(0, len(name))
            name.insert(at, rng.choice("az09fG.\n jsonl-")) if rng.random() < .5 else name[at:at + 1].clear()
        names.append("".join(name))
    for name in names:
        m = JOURNAL.fullmatch(name)
        assert journal_name(name) == (m.groupdict() if m else None), name
        assert is_session_id(name[:8]) == bool(re.fullmatch(r"[a-z0-9]{8}", name[:8])), name
    assert not is_session_id(None) and not is_session_id("../../x") and is_session_id("abcd1234")


def test_a_trans_status_imports_neither_json_nor_the_board_drawing(script):
    # (a marker replayed builds the board, which a long round's snapshot spares a `status`)
    code, _, err = script("new trans-amerika --players Ann,Bob,Cy\nround start --physical\n")
    assert (code, err) == (0, "")
    loaded = imported_by("status")
    assert "companion.games.trans.views" in loaded  # it did show the round
    assert [m for m in loaded if m == "json" or m.startswith("json.")] == []
    assert "companion.games.trans.drawing" not in loaded


def test_a_refusal_is_json_s_own_when_json_was_never_imported():
    # the C scanner names its refusals with json.decoder's JSONDecodeError, found only once imported
    code = ("import sys\nfrom companion.core.json_read import loads, raw_decode\nassert 'json' not in sys.modules\n"
            "for text in sys.argv[1:]:\n"
            "    for read in (loads, lambda t: raw_decode(t, 0)):\n"
            "        try:\n            read(text)\n            print('read')\n"
            "        except (ValueError, RecursionError) as exc:\n            print(type(exc).__name__, exc)\n")
    texts = ["{garbage", '["\x01"]', "[1,]", '{"a": 1', "[1] x", "", "\ufeff[1]"]
    fresh = subprocess.run([sys.executable, "-c", code, *texts], capture_output=True, text=True, check=True).stdout

    def said(read, text):
        try:
            read(text)
            return "read"
        except ValueError as exc:
            return f"{type(exc).__name__} {exc}"

    theirs = [said(read, t) for t in texts for read in (json.loads, lambda t: json.JSONDecoder().raw_decode(t, 0))]
    assert fresh.splitlines() == theirs
