"""Completion, documented and from the data (issue 23): `companion completion bash|zsh|fish`
prints the script; session ids (with their game and day), players, games and titles complete
from the data folder in the login shell (a real bash and fish, through Click's protocol) and
in the companion's own shell."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = str(Path(sys.executable).parent)


def evening(run):
    run(["played", "Carcassonne", "--players", "Ann=52,Bob=47", "--played-on", "2026-03-01"], expect=0)
    run(["played", "Pandemic", "--coop", "--players", "Ann,Zoë", "--won"], expect=0)
    run(["new", "scoresheet", "--players", "Ann,Cy"], expect=0)
    return [r["id"] for r in json.loads(run(["sessions", "--json"], expect=0).stdout)]


def shell_env(home) -> dict:
    return {**os.environ, "PATH": BIN + os.pathsep + os.environ.get("PATH", ""), "COMPANION_HOME": str(home)}


@functools.lru_cache(maxsize=None)
def bash_script() -> str:
    """What `companion completion bash` prints (the same text whoever asks: made once, in this
    process; tests/test_completion_data.py's first test checks the command itself)."""
    from click.testing import CliRunner

    from companion.terminal.cli import cli

    result = CliRunner().invoke(cli, ["completion", "bash"])
    assert result.exit_code == 0, result.output
    return result.stdout


def bash_complete(home, words: list[str]) -> list[str]:
    """What a real bash offers for ``words`` (the last one being typed), through the function
    `companion completion bash` defines, exactly as Tab calls it (the script's text defined in
    the shell, as `eval "$(companion completion bash)"` defines it; each Tab a `companion`)."""
    line = " ".join(w.replace(" ", "\\ ") for w in words)
    quoted = "'" + line.replace("'", "'\\''") + "'"
    script = (f"{bash_script()}\n"
              f"COMP_LINE={quoted}\nCOMP_POINT=${{#COMP_LINE}}\n"
              '_companion_completion companion\nprintf "%s\\n" "${COMPREPLY[@]}"\n')
    out = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True, text=True,
                         env=shell_env(home), timeout=60)
    assert out.returncode == 0, out.stderr
    return [line for line in out.stdout.splitlines() if line]


def test_completion_prints_each_shells_script(run):
    for shell, marker in (("bash", "_companion_completion"), ("zsh", "#compdef companion"),
                          ("fish", "complete --no-files --command companion")):
        out = run(["completion", shell], expect=0).stdout
        assert marker in out and "_COMPANION_COMPLETE" in out
    assert run(["completion", "tcsh"], expect=2).exit_code == 2


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_from_the_data_folder(run, home):
    sids = evening(run)
    assert set(bash_complete(home, ["companion", "use", ""])) == set(sids)
    assert bash_complete(home, ["companion", "report", sids[0][:3]]) == [sids[0]]
    assert bash_complete(home, ["companion", "--session", sids[1][:4]]) == [sids[1]]
    assert set(bash_complete(home, ["companion", "stats", "--player", ""])) == {"Ann", "Bob", "Zoë", "Cy"}
    assert bash_complete(home, ["companion", "sessions", "--player", "z"]) == ["Zoë"]
    assert set(bash_complete(home, ["companion", "played", "Ca"])) == {"Carcassonne"}
    games = bash_complete(home, ["companion", "stats", "--game", ""])
    assert {"scoresheet", "atlantic-star", "transatlantic", "Carcassonne", "Pandemic"} <= set(games)
    assert bash_complete(home, ["companion", "new", "scoresheet", "--title", "P"]) == ["Pandemic"]
    assert set(bash_complete(home, ["companion", "player", "rename", "A"])) == {"Ann"}
    assert "sessions" in bash_complete(home, ["companion", "sess"]), "the static words as before"
    # a game's own move: its parameter's values, from the session at hand
    assert {"Ann=", "Cy="} <= set(bash_complete(home, ["companion", "add", ""]))


def test_a_script_installed_from_an_older_version_still_gets_its_answers(run, home):
    """Click's protocol (`bash_complete`, COMP_WORDS) still answers as Click's script expects;
    the companion's own scripts ask under other names (issue 29)."""
    sids = evening(run)
    env = {**shell_env(home), "_COMPANION_COMPLETE": "bash_complete", "COMP_WORDS": "companion use ", "COMP_CWORD": "2"}
    out = subprocess.run(["companion"], capture_output=True, text=True, env=env, timeout=60)
    assert set(out.stdout.split()) == {f"plain,{sid}" for sid in sids}


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_with_no_data_folder_offers_nothing_and_fails_nothing(tmp_path):
    assert bash_complete(tmp_path / "nowhere", ["companion", "use", ""]) == []


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_session_ids_with_their_game_and_day(run, home):
    sids = evening(run)
    out = subprocess.run(["fish", "--no-config", "-c",
                          'companion completion fish | source; complete -C "companion use "'],
                         capture_output=True, text=True, env=shell_env(home), timeout=60)
    assert out.returncode == 0, out.stderr
    found = dict(line.split("\t", 1) for line in out.stdout.splitlines() if "\t" in line)
    assert set(found) == set(sids)
    assert found[sids[0]] == "Carcassonne · 2026-03-01 · Ann, Bob"  # whole: past its comma (issue 29)


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_loads_the_script(run, home):
    out = subprocess.run(["zsh", "-f", "-c", 'autoload -U compinit && compinit -u && eval "$(companion completion zsh)" '
                                             '&& whence -w _companion_completion'],
                         capture_output=True, text=True, env=shell_env(home), timeout=60)
    assert out.returncode == 0 and "function" in out.stdout, out.stderr


def test_the_companions_shell_completes_from_the_same_data(run, home):
    from prompt_toolkit.document import Document

    from companion.core.app import App
    from companion.terminal.cli import cli
    from companion.terminal.shell import CommandCompleter, SessionView

    sids = evening(run)
    app = App(home)
    complete = CommandCompleter(app, SessionView(app), cli)

    def offered(text: str) -> dict[str, str]:
        return {c.text: c.display_meta_text for c in complete.get_completions(Document(text), None)}

    sessions = offered("use ")
    assert set(sessions) == set(sids)
    assert sessions[sids[0]] == "Carcassonne · 2026-03-01 · Ann, Bob"
    assert set(offered("stats --player ")) == {"Ann", "Bob", "Zoë", "Cy"}
    assert set(offered("played Pa")) == {"Pandemic"}
    assert "Carcassonne" in offered("sessions --game ")
    assert set(offered("new scoresheet --title C")) == {"Carcassonne"}
    assert set(offered("export ")) == set(sids)


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_command_names_complete_from_a_cache_kept_while_the_games_are_the_same(run, home):
    """A Tab on a command's name would import every game's commands (about 100 ms); the names
    and their help are kept in cache/commands.json, used while the companion and the installed
    games are the ones it was made from, and made again when they change."""
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    first = bash_complete(home, ["companion", "st"])
    assert {"start", "stats", "status"} <= set(first)  # Trans's start, the record's stats, status
    cache = home / ".local" / "cache" / "commands.json"
    doc = json.loads(cache.read_text())
    assert ["status", next(h for n, h in doc["commands"] if n == "status")] in doc["commands"]
    doc["commands"].append(["stroll", "a command only this cache names"])
    cache.write_text(json.dumps(doc))
    assert "stroll" in bash_complete(home, ["companion", "st"])  # the cache was used, no game imported
    assert bash_complete(home, ["companion", "--da"]) == ["--data-dir"]  # options as Click completes them
    env = {"COMPANION_GAMES": "scoresheet"}
    out = subprocess.run(["bash", "--norc", "--noprofile", "-c",
                          'eval "$(companion completion bash)"\nCOMP_LINE="companion st"\nCOMP_POINT=12\n'
                          '_companion_completion companion\nprintf "%s\\n" "${COMPREPLY[@]}"\n'],
                         capture_output=True, text=True, env={**shell_env(home), **env}, timeout=60)
    names = out.stdout.split()
    assert "stroll" not in names and "stats" in names and "start" not in names  # made again: Trans left out
