"""The generic commands: games, new, sessions, use, --session, status, board, verify, script mode."""

from __future__ import annotations

import json

from companion.core.store import Store


def new(run, players="Ann,Bob", *extra) -> str:
    out = run(["new", "scoresheet", "--players", players, *extra], expect=0).stdout
    return out.split()[2].rstrip(":")


def test_games_lists_ids_with_descriptions(run):
    out = run(["games"], expect=0).stdout
    assert "scoresheet" in out and "generic score sheet" in out


def test_version_and_module_entry_point(run):
    import subprocess
    import sys

    assert run(["--version"], expect=0).stdout.startswith("companion ")
    result = subprocess.run([sys.executable, "-m", "companion", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("companion ")


def test_sessions_lists_filters_and_marks_the_current_one(run):
    a = new(run, "Ann,Bob")
    b = new(run, "Cy,Dee")
    rows = json.loads(run(["sessions", "--json"], expect=0).stdout)
    assert [r["id"] for r in rows] == [a, b]
    assert [r["current"] for r in rows] == [False, True]
    assert [r["id"] for r in json.loads(run(["sessions", "--json", "--player", "ann"], expect=0).stdout)] == [a]
    assert json.loads(run(["sessions", "--json", "--game", "trans-europa"], expect=0).stdout) == []
    table = run(["sessions"], expect=0).stdout
    assert a in table and b in table and "Cy, Dee" in table


def test_no_sessions_yet(run):
    assert "No sessions yet" in run(["sessions"], expect=0).stdout
    err = run(["status"], expect=1).stderr
    assert err.startswith("Error: No current session") and "`new GAME" in err


def test_use_and_prefixes_and_session_option(run, status):
    a = new(run, "Ann,Bob")
    b = new(run, "Cy,Dee")
    assert status()["session"] == b
    assert f"Now using session {a}" in run(["use", a[:4]], expect=0).stdout
    assert status()["session"] == a
    run(["add", "--session", b, "Cy=4"], expect=0)
    run(["--session", b[:5], "add", "Dee=1"], expect=0)
    assert status()["session"] == a, "--session acts once, without switching"
    assert [p["score"] for p in status("--session", b)["players"]] == [4, 1]
    assert "No session starts with 'zz9'" in run(["use", "zz9"], expect=1).stderr


def test_an_ambiguous_prefix_is_refused(run, home):
    new(run)
    new(run)
    ids = Store(home).session_ids()
    common = ""
    for x, y in zip(*ids):
        if x != y:
            break
        common += x
    if common:  # two random ids rarely share a first letter; check when they do
        assert "matches several sessions" in run(["use", common], expect=1).stderr
    assert "Give a session id" in run(["use", ""], expect=1).stderr


def test_status_contract(run, status):
    new(run, "Ann,Bob")
    s = status()
    for key in ("session", "game", "players", "round", "finished", "winners"):
        assert key in s
    assert all({"name", "score"} <= p.keys() for p in s["players"])


def test_verify_and_board_refuse_games_without_them(run):
    new(run)
    assert "deals no cards" in run(["verify"], expect=1).stderr
    assert "has no board" in run(["board"], expect=1).stderr
    assert "no map 'nowhere'" in run(["board", "nowhere"], expect=1).stderr


def test_a_command_of_another_game_is_refused(run):
    new(run)
    err = run(["charter", "Ann", "3000"], expect=None)
    if err.exit_code == 1:  # the Atlantic Star commands are installed
        assert "is an Atlantic Star command" in err.stderr


def test_script_mode_runs_lines_and_stops_at_the_first_failure(script, status):
    code, out, err = script(
        "# an evening\n\nnew scoresheet --players Ann,Bob\ncompanion add Ann=3\nadd Bob=x\nadd Ann=100\n"
    )
    assert code == 1
    assert err.strip() == "line 5: 'Bob=x': 'x' is not a number; write it like Bob=2.5 (`companion add --help` shows how to write it)"
    assert [p["score"] for p in status()["players"]] == [3, 0]


def test_script_mode_reports_refusals_and_quotes(script):
    code, out, err = script('new scoresheet --players "Ann Lee,Bob"\nadd "Ann Lee=2"\nadd Zed=1\n')
    assert code == 1 and err.startswith("line 3: There is no player called 'Zed'")
    code, out, err = script('add "Ann=2\n')
    assert code == 1 and "line 1:" in err and "quotation" in err


def test_script_mode_success_exits_zero(script):
    code, out, err = script("new scoresheet --players Ann,Bob\nadd Ann=1\nfinish\n")
    assert code == 0 and "Ann wins" in out and err == ""


def test_index_recovers_a_session_file_it_does_not_list(run, home):
    a = new(run)
    index = json.loads((home / ".local" / "index.json").read_text())
    index["sessions"] = {}
    (home / ".local" / "index.json").write_text(json.dumps(index))
    assert [r["id"] for r in json.loads(run(["sessions", "--json"], expect=0).stdout)] == [a]


def test_a_reader_that_stops_early_is_not_an_error(home):
    """`companion rails amerika --all-hands | head -1`: nothing is logged or shown."""
    import os
    import subprocess
    import sys

    # the two players' 3,125 hands: about 190 KB, far more than a pipe holds (64 KB), so the write
    # really breaks (and a fifth of the full board's computing)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "rails", "amerika", "--all-hands", "--players", "2"],
                            stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "COMPANION_HOME": str(home)})
    proc.stdout.readline()
    proc.stdout.close()  # like `head -1` leaving
    err = proc.stderr.read().decode()
    proc.wait(timeout=30)
    assert "Traceback" not in err and "Something went wrong" not in err
    assert not (home / ".local" / "errors.log").exists()


def test_a_name_with_a_space_typed_without_quotes_gets_the_hint(run):
    """`player rename Bartholomew Jones Bart` splits the name at the space: the one line says
    to quote it, and changes nothing."""
    run(["new", "scoresheet", "--players", "Ann,Bartholomew Jones"], expect=0)
    err = run(["player", "rename", "Bartholomew", "Jones", "Bart"], expect=2).stderr
    assert "Got unexpected extra argument (Bart)" in err
    assert 'a name with a space goes in quotes, e.g. "Bartholomew Jones"' in err
    assert len(err.strip().splitlines()) == 1
