"""Tab puts values with spaces, commas, quotes and letters from any script on the line so that
the shell reads them back whole, in a real interactive bash, zsh and fish (issue 29: bash gave
``Mölkky Ünïcödé 李雷`` unquoted, three words; fish cut ``Catan, Big Box`` at its comma).

Each case types a line and a Tab into the shell in a pseudo-terminal, then runs the line the
shell made through printf (tests/login_shell_support.py): the words the companion would get."""

from __future__ import annotations

import shutil

import pytest

from login_shell_support import LoginShell

PLAYS = [("Mölkky Ünïcödé 李雷", "Ann=12,Bob=3"), ("Catan, Big Box", "Ann=1,Bob=2"),
         ("Dune: Imperium", "O'Brien=3,Ann=2"), ('Say "Hi"', "Björn Ø=1,Ann=2"), ("Cost $5 & `x`", "Ann=2,Bob=1")]

CASES = [
    ("companion played Mö", ["played", "Mölkky Ünïcödé 李雷"]),  # spaces and letters beyond ASCII
    ("companion played Cat", ["played", "Catan, Big Box"]),  # a comma
    ("companion stats --player O", ["stats", "--player", "O'Brien"]),  # a single quote
    ("companion played Sa", ["played", 'Say "Hi"']),  # double quotes
    ("companion played Co", ["played", "Cost $5 & `x`"]),  # what a shell would expand or run
    ('companion played "Dune: I', ["played", "Dune: Imperium"]),  # begun in quotes, past bash's ":" break
    ("companion stats --player 'Bj", ["stats", "--player", "Björn Ø"]),  # begun in single quotes
    ("companion played Mölkky\\ Ü", ["played", "Mölkky Ünïcödé 李雷"]),  # begun with a backslash
    ("companion stats --player=Bj", ["stats", "--player=Björn Ø"]),  # an option's value after "="
]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_tab_puts_each_value_on_the_line_whole(shell, run, home, tmp_path):
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    for title, players in PLAYS:
        run(["played", title, "--players", players], expect=0)
    login = LoginShell(shell, home, tmp_path)
    try:
        got = {typed: login.tab(typed) for typed, _ in CASES}
    finally:
        login.close()
    assert got == {typed: words for typed, words in CASES}
