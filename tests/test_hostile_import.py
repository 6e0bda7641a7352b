"""`import FILE` against hostile files holding sessions of every game.

tests/test_exchange_hostile.py refuses one crafted problem at a time in a score-sheet export.
Here the export holds a session of every game (a finished score sheet, Atlantic Star,
Trans Amerika with a deal and a start marker, Transatlantic with ships), and hypothesis
damages it anywhere: keys dropped or renamed, values of the wrong type, enormous numbers and
texts, ids and names that look like paths, deep nesting, entries repeated. Whatever the
damage, the import either

* is refused whole: exit 1, one line `Error: hostile.json: ...; nothing was imported.`, and
  the data folder byte for byte as before (nothing written anywhere else either); or
* is harmless and imports: then every command that reads the history (`sessions`, `stats`,
  `players`, `export` in every format, `status`, `log` and `report` of each session) still
  works, with no unexpected error logged.

At the end, the cases these tests found (each fixed): an unhashable journal kind, start
dates at the edge of the calendar, files that never end (a device, a named pipe), and outputs
that are not regular files (`export -o` or `--html` onto a named pipe or a device).

Printed values used here (victory points, ship cards, surcharges) are TEST values.
"""

from __future__ import annotations

import copy
import json
import os
import re
import resource
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.record import import_limits
from companion.terminal.cli import cli

ROOT = Path(__file__).resolve().parents[1]

SOURCE_LINES = [
    "new scoresheet --players Ann,'Zoë Lee'", "add Ann=3 'Zoë Lee=5'", "finish",
    # test rows; the 6th places of the 1- and 5-star classes are the rulebook's 4 and 0 (issue 15)
    *[f"data set atlantic-star vp.{c} '[6, 5, 4, 3, 2, { {1: 4, 5: 0}.get(c, 1)}]'" for c in range(1, 6)],
    "new atlantic-star --players Ann,Bob --agency Rhea,Oceana", "charter Ann 0", "charter Bob 1000",
    "charter Ann 0", "charter Bob 0", "charter Ann 0", "charter Bob 0", "voyage Ann baltic --value 12 --class 3",
    "new trans-amerika --players Ann,Bob,Cy --entropy hostile", "round start", "start Ann Seattle",
    "ship add ARIEL --year 1865 --flag none --kind sail", "ship add NUBIAN --year 1875 --flag white --price 30",
    "ship add HAMMONIA --year 1882 --flag blue --price 70",
    "data set transatlantic market.surcharges '[0, 10, 20, 30, 40, 50]'",
    "new transatlantic --players Ann,Bob", "own Ann ARIEL", "reveal NUBIAN HAMMONIA", "buy Bob NUBIAN",
    "vp Ann 2 --note 'trade houses'",
]


def cli_run(home: Path, *args: str, input: str | None = None):
    result = CliRunner().invoke(cli, ["--data-dir", str(home), *args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> dict:
    """A json export of four sessions, one of every game (built once for the module)."""
    home = tmp_path_factory.mktemp("source") / "home"
    result = cli_run(home, input="\n".join(SOURCE_LINES) + "\n")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(cli_run(home, "export").stdout)
    assert sorted(s["meta"]["game"] for s in doc["sessions"]) == [
        "atlantic-star", "scoresheet", "trans-amerika", "transatlantic"]
    return doc


@pytest.fixture(scope="module")
def laptop(tmp_path_factory) -> Path:
    """The data folder imported into, already holding a game of its own (copied for each import)."""
    home = tmp_path_factory.mktemp("laptop") / "home"
    assert cli_run(home, "new", "scoresheet", "--players", "Eve,Fay").exit_code == 0
    assert cli_run(home, "add", "Eve=4").exit_code == 0
    return home


def folder(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.name.endswith(".lock")}


# What Python says, never the companion (issue 22: "Exceeds the limit (4300 digits) ... use
# sys.set_int_max_str_digits()", an exception's name in parentheses)
PYTHON_WORDS = re.compile(r"\b[A-Z][A-Za-z]*(Error|Exception)\b|sys\.|set_int_max_str_digits|NoneType|<class|"
                          r"\bdict\b|\bstr\b|offset-naive|Traceback")


def attempt(laptop: Path, place: Path, content: bytes) -> str:
    """Import ``content`` into a fresh copy of the laptop's folder; check it is refused whole or
    harmless. Returns "refused" or "imported"."""
    home = place / "home"
    shutil.rmtree(place, ignore_errors=True)
    shutil.copytree(laptop, home)
    hostile = place / "hostile.json"
    hostile.write_bytes(content)
    before = folder(place)
    result = cli_run(home, "import", str(hostile))
    assert "Traceback" not in result.stdout + result.stderr
    assert not (home / ".local" / "errors.log").exists(), (home / ".local" / "errors.log").read_text()
    if result.exit_code:
        assert result.exit_code == 1, result.stderr
        assert result.stderr.startswith("Error: hostile.json: "), result.stderr
        assert result.stderr.endswith("; nothing was imported.\n") and result.stderr.count("\n") == 1, result.stderr
        assert not PYTHON_WORDS.search(result.stderr), f"a Python message reached the user: {result.stderr}"
        assert folder(place) == before, "a refused import wrote something"
        return "refused"
    doc = json.loads(content)
    reads = [["sessions"], ["sessions", "--json"], ["stats"], ["stats", "--json"], ["players"], ["export"],
             ["export", "--format", "csv"], ["export", "--format", "bgg"]]
    for session in doc["sessions"]:
        sid = session["meta"]["id"]
        reads += [["status", "--json", "--session", sid], ["status", "--session", sid], ["log", "--session", sid],
                  ["report", sid], ["stats", "--game", session["meta"]["game"]]]
    for args in reads:
        read = cli_run(home, *args)
        assert read.exit_code == 0, (args, read.stderr)
        assert not (home / ".local" / "errors.log").exists(), (args, (home / ".local" / "errors.log").read_text())
    return "imported"


# -- damage anywhere -----------------------------------------------------------------------------

DEEP = json.loads("[" * 80 + "]" * 80)
BAD_VALUES = [
    None, True, False, 0, -1, 7, 10**30, -(10**30), 2**63, 1.5, 1e308, float("nan"), "", " ", "x" * 150_000,
    "../x", "a/b", "..", "/etc/passwd", "C:\\x", "\u202eevil", "Zoë", "名前", "0" * 8, "abcdefgh",
    "9999-12-31T23:59:59+00:00", [], {}, [None], {"type": "add"}, DEEP, {"a": DEEP},
]


def paths(node, prefix=()):
    """Every place in a JSON document, as a tuple of keys and indexes."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


@st.composite
def damaged(draw, doc: dict) -> bytes:
    doc = copy.deepcopy(doc)
    places = [p for p in paths(doc) if p]
    for _ in range(draw(st.integers(1, 3))):
        place = draw(st.sampled_from(places))
        parent = doc
        try:
            for key in place[:-1]:
                parent = parent[key]
            last = place[-1]
            parent[last]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier damage removed it
        if not isinstance(parent, (dict, list)):
            continue  # an earlier damage put a text there
        how = draw(st.sampled_from(["replace", "replace", "replace", "drop", "rename", "repeat"]))
        if how == "drop":
            del parent[last]
        elif how == "rename" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["Type", "id ", "", "meta", "journal", "extra"]))] = parent.pop(last)
        elif how == "repeat" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        else:
            parent[last] = copy.deepcopy(draw(st.sampled_from(BAD_VALUES)))
    return json.dumps(doc, ensure_ascii=draw(st.booleans())).encode("utf-8")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_damage_anywhere_is_refused_whole_or_harmless(export, laptop, tmp_path, data):
    content = data.draw(damaged(export))
    attempt(laptop, tmp_path / "attempt", content)


def test_the_undamaged_export_imports_and_reads(export, laptop, tmp_path):
    assert attempt(laptop, tmp_path / "attempt", json.dumps(export).encode()) == "imported"


# -- ids that look like paths, duplicate ids --------------------------------------------------------

@pytest.mark.parametrize("sid", ["../x", "..", "a/b", "/", ".", "", "../../../../tmp/abcdefgh", "abc/../d",
                                 "abcdefg\n", "abcd efg", "C:\\abcde", "ＡＢＣＤＥＦＧＨ", "١٢٣٤٥٦٧٨",
                                 "abcdefg.", ".abcdefg", "abc*defg", "nul", None, 12345678, ["abcdefgh"]])
@pytest.mark.parametrize("game", ["atlantic-star", "trans-amerika", "transatlantic"])
def test_an_id_that_is_not_an_id_is_refused(export, laptop, tmp_path, sid, game):
    doc = copy.deepcopy(export)
    next(s for s in doc["sessions"] if s["meta"]["game"] == game)["meta"]["id"] = sid
    assert attempt(laptop, tmp_path / "attempt", json.dumps(doc).encode()) == "refused"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["attempt"]  # nothing written beside it either


def test_one_id_for_two_games_is_refused(export, laptop, tmp_path):
    doc = copy.deepcopy(export)
    first, second = doc["sessions"][1], doc["sessions"][2]
    second["meta"]["id"] = first["meta"]["id"]
    assert first["meta"]["game"] != second["meta"]["game"]
    assert attempt(laptop, tmp_path / "attempt", json.dumps(doc).encode()) == "refused"


def test_an_id_already_here_with_other_content_is_refused(export, laptop, tmp_path):
    doc = copy.deepcopy(export)
    here = json.loads(cli_run(laptop, "status", "--json").stdout)["session"]
    doc["sessions"][3]["meta"]["id"] = here  # a Transatlantic game under the id of the laptop's score sheet
    assert attempt(laptop, tmp_path / "attempt", json.dumps(doc).encode()) == "refused"


# -- enormous files, within the size limit ------------------------------------------------------------

@pytest.mark.parametrize("limit, grow", [
    ("MAX_JOURNAL", lambda d: d["sessions"][0]["journal"].extend(d["sessions"][0]["journal"][:1] * 60)),
    ("MAX_SESSIONS", lambda d: d["sessions"].extend(
        {"meta": dict(s["meta"], id=f"zz{n:06d}"), "journal": s["journal"]} for n, s in enumerate(d["sessions"] * 15))),
    ("MAX_SESSION_CHARS", lambda d: d["sessions"][2]["meta"]["options"].update(note="x" * 90_000)),
    ("MAX_STRING", lambda d: d["sessions"][1]["journal"][0]["event"].update(player="A" * 5_000)),
])
def test_limits_refuse_enormous_files(export, laptop, tmp_path, monkeypatch, limit, grow):
    monkeypatch.setattr(import_limits, limit, 50 if limit != "MAX_SESSION_CHARS" else 60_000)
    doc = copy.deepcopy(export)
    grow(doc)
    assert attempt(laptop, tmp_path / "attempt", json.dumps(doc).encode()) == "refused"


# -- found by these tests, and fixed -----------------------------------------------------------------

@pytest.mark.parametrize("created", ["9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00"])
def test_a_start_date_at_the_end_of_time(export, laptop, tmp_path, created):
    doc = copy.deepcopy(export)
    doc["sessions"][0]["meta"]["created"] = created
    attempt(laptop, tmp_path / "attempt", json.dumps(doc).encode())


@pytest.mark.parametrize("kind", [[], {}, ["do"]])
def test_an_unhashable_journal_kind(export, laptop, tmp_path, kind):
    doc = copy.deepcopy(export)
    doc["sessions"][0]["journal"][0]["kind"] = kind
    assert attempt(laptop, tmp_path / "attempt", json.dumps(doc).encode()) == "refused"


def _limited():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # 1 GB: a runaway read fails fast


@pytest.mark.parametrize("kind", ["device", "pipe"])
def test_a_file_that_never_ends_is_refused(tmp_path, kind):
    source = Path("/dev/zero")
    if kind == "pipe":
        source = tmp_path / "pipe.json"
        os.mkfifo(source)
    home = tmp_path / "home"
    result = subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(home), "import", str(source)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60, preexec_fn=_limited)
    # (a read that never ends is stopped by the 1 GB limit, a wait on the pipe by the timeout: a
    # generous one, as a busy machine took over 2 s to start and end the refusing process)
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert "Something went wrong" not in result.stderr
    assert not (home / ".local" / "errors.log").exists()


@pytest.mark.parametrize("args", [["export", "-o"], ["export", "--format", "csv", "-o"], ["report", "--html"],
                                  ["stats", "--html"]])
def test_an_output_that_is_not_a_regular_file_is_left_alone(laptop, tmp_path, args):
    home = tmp_path / "home"
    shutil.copytree(laptop, home)
    pipe = tmp_path / "out"
    os.mkfifo(pipe)
    result = cli_run(home, *args, str(pipe))
    assert stat.S_ISFIFO(pipe.stat().st_mode), "the named pipe was replaced by a regular file"
    assert result.exit_code == 1 and result.stderr.count("\n") == 1, result.stderr


def test_a_board_line_only_the_table_screen_reads_is_refused_at_import(export, laptop, tmp_path):
    """Found by the random damage above (issue 27): a Trans session whose frozen board names a
    double line that is not one was imported, and `status` then refused to show it. The import
    now draws the table's screen as `status` does, so it refuses such a file whole."""
    doc = copy.deepcopy(export)
    trans = next(s for s in doc["sessions"] if s["meta"]["game"].startswith("trans-"))
    trans["meta"]["data"]["board"]["double_edges"][0] = [[1, 0]]
    assert attempt(laptop, tmp_path / "attempt", json.dumps(doc).encode()) == "refused"
