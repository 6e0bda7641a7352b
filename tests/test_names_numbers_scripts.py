"""Issue 12: one bound for every number, no terminal escapes, script lines, names that stay
typeable."""

from __future__ import annotations

import json
import subprocess
import sys
import os

import pytest
from journal_support import edit_entry



def one_line(result, *words, code=1):
    assert result.exit_code == code, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for w in words:
        assert w in lines[0], lines[0]


# -- item 5: one bound for every number ------------------------------------------------------

@pytest.mark.parametrize("value", ["100000000000000000000000", "1e300", "-1e300", "1000000000000001", "9" * 5000,
                                   "[1, 2, 1e23]", "NaN", "Infinity"])
def test_data_set_takes_no_number_import_would_refuse(run, home, value):
    before = sorted(p.name for p in home.rglob("*")) if home.exists() else []
    result = run(["data", "set", "atlantic-star", "refresh_cost", "--", value])
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (home / "userdata.json").exists()
    run(["data", "set", "atlantic-star", "refresh_cost", "1000000000000000"], expect=0)  # the bound itself


def test_a_set_value_exports_and_imports_again(run, home, tmp_path):
    run(["data", "set", "atlantic-star", "refresh_cost", "1000000000000000"], expect=0)
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=1000000000000000"], expect=0)
    run(["add", "Ann=1000000000000001"], expect=1)
    out = tmp_path / "all.json"
    run(["export", "-o", str(out)], expect=0)
    run(["--data-dir", str(tmp_path / "other"), "import", str(out)], expect=0)


def test_the_ship_catalogue_has_the_same_bound(run):
    result = run(["ship", "add", "Bigship", "--year", "1900", "--flag", "blue", "--price", "100000000000000000000"])
    assert result.exit_code != 0 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# -- item 13: no terminal escapes --------------------------------------------------------------

HOSTILE = ["A\x1b[31mB", "Bel\x07l", "Ann\u202eB", "Iso\u2066late", "Ze\x00d", "Li\u2028ne"]


@pytest.mark.parametrize("name", HOSTILE)
def test_names_with_control_characters_are_refused_on_every_way_in(run, name, tmp_path):
    result = run(["new", "scoresheet", "--players", f"{name},Bob"])
    assert result.exit_code != 0
    assert not any(c in result.stderr for c in "\x1b\x07\u202e\u2066\u2028")
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    result = run(["player", "rename", "Ann", name])
    assert result.exit_code == 1 and "\x1b" not in result.stderr and "\u202e" not in result.stderr
    result = run(["new", "atlantic-star", "--players", "Ann,Bob,Cy", "--agency", f"{name},B,C,D"])
    assert result.exit_code != 0 and "\x1b" not in result.stderr and "\u202e" not in result.stderr
    result = run(["ship", "add", name, "--year", "1900", "--flag", "blue", "--price", "5"])
    assert result.exit_code != 0 and "\x1b" not in result.stderr and "\u202e" not in result.stderr


def test_an_import_with_a_hostile_name_is_refused(run, home, tmp_path):
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["add", "Ann=2"], expect=0)
    out = tmp_path / "x.json"
    run(["export", "-o", str(out)], expect=0)
    doc = json.loads(out.read_text())
    doc["sessions"][0]["meta"]["players"][0] = "An\u202en"
    doc["sessions"][0]["meta"]["id"] = "zzzzzzzz"
    out.write_text(json.dumps(doc))
    result = run(["import", str(out)])
    assert result.exit_code == 1 and "\u202e" not in result.stderr


def test_output_never_prints_a_control_character_from_data(run, home):
    """A session file edited by hand: its names reach no terminal as escapes."""
    sid = run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0).stdout.split()[2].rstrip(":")
    run(["add", "Ann=2"], expect=0)
    path = home / "sessions" / f"{sid}.json"
    doc = json.loads(path.read_text())
    doc["meta"]["1"]["players"][0] = "A\x1b]0;pwned\x07\u202en"
    path.write_text(json.dumps(doc))
    edit_entry(home, sid, 1, lambda e: e["event"].update(scores={"A\x1b]0;pwned\x07\u202en": 2}))
    for args in (["status"], ["status", "--json"], ["log"], ["sessions"], ["players"], ["report"],
                 ["export", "--format", "csv"], ["add", "Zed=1"]):
        result = run(args)
        text = result.stdout + result.stderr
        assert not any(c in text for c in "\x1b\x07\u202e"), (args, text)


# -- item 15: script lines -----------------------------------------------------------------------

def script_bytes(home, data: bytes):
    return subprocess.run([sys.executable, "-m", "companion"], input=data, capture_output=True, timeout=60,
                          env=dict(os.environ, COMPANION_HOME=str(home)))


def test_a_long_line_is_refused_at_once(home):
    import time

    start = time.monotonic()
    done = script_bytes(home, b"new scoresheet --players Ann,Bob\nadd Ann=1 " + b"x" * 1_000_000 + b"\n")
    assert done.returncode == 1 and time.monotonic() - start < 20
    assert done.stderr.decode().strip() == "line 2: the line is longer than 10,000 characters: split it into several commands."


def test_invalid_utf8_and_nul_are_refused_with_the_line_number(home):
    done = script_bytes(home, b"new scoresheet --players Ann,Bob\nadd Ann=1\nadd Bob=\xff\xfe\nadd Ann=5\n")
    assert done.returncode == 1 and done.stderr.decode().startswith("line 3: the line is not UTF-8")
    assert len(done.stderr.decode().strip().splitlines()) == 1
    done = script_bytes(home, b"add Ann=1\x00\n")
    assert done.returncode == 1 and done.stderr.decode().startswith("line 1: the line holds a NUL")
    status = json.loads(subprocess.run([sys.executable, "-m", "companion", "status", "--json"], capture_output=True,
                                       env=dict(os.environ, COMPANION_HOME=str(home))).stdout)
    assert [p["score"] for p in status["players"]] == [1, 0], "the lines before ran, the bad one and after did not"


def test_data_dir_inside_a_script_line_is_refused(script, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    code, out, err = script(f"new scoresheet --players Ann,Bob\n--data-dir {elsewhere} status\n")
    assert code == 1 and "line 2: --data-dir cannot change inside a script" in err
    code, out, err = script(f"status --data-dir={elsewhere}\n")
    assert code == 1 and "--data-dir" in err
    assert not elsewhere.exists()


# -- item 16: names stay typeable ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["-x", "--help", "-1"])
def test_a_name_starting_with_a_dash_is_refused(run, name):
    result = run(["new", "scoresheet", f"--players=Ann,{name}"])
    one_line(result, "starts with '-'")
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    one_line(run(["player", "rename", "--", "Ann", name]), "starts with '-'")


def test_nfc_and_nfd_are_one_name(run, status):
    nfc, nfd = "Zo\u00eb", "Zoe\u0308"
    one_line(run(["new", "scoresheet", "--players", f"{nfc},{nfd}"]), "given twice")
    run(["new", "scoresheet", "--players", f"{nfd},Bob"], expect=0)
    assert status()["players"][0]["name"] == nfc, "stored in NFC"
    run(["add", f"{nfd}=3"], expect=0)
    run(["add", f"{nfc}=4"], expect=0)
    assert status()["players"][0]["score"] == 7


def test_after_a_rename_a_session_in_play_takes_either_name(run, status, home):
    run(["new", "scoresheet", "--players", "Ann,Dee"], expect=0)
    run(["add", "Ann=1"], expect=0)
    run(["player", "rename", "Dee", "Deb"], expect=0)
    run(["add", "Deb=5"], expect=0)
    run(["add", "dee=2"], expect=0)
    assert [p["score"] for p in status()["players"]] == [1, 7]
    log = json.loads(run(["log", "--json"], expect=0).stdout)
    assert log[1]["event"]["scores"] == {"Dee": 5}, "the event keeps the seated name"
    run(["player", "rename", "Deb", "Dora"], expect=0)
    run(["add", "Dora=1"], expect=0)
    assert [p["score"] for p in status()["players"]] == [1, 8]
    one_line(run(["add", "Deb=1"]), "no player called 'Deb'")
