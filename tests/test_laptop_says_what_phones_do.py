"""The laptop says what the phones do (issue 31, item 7): while a server serves the session the
shell's bar says the phones are playing and lists nothing to type; every move a phone made,
the round that ended and scored itself included, is a line of its own in the shell."""

from __future__ import annotations

import json

from pty_support import Shell
from serve_support import PLAYERS, play_trans_round, post_move, site_and_client


def test_the_bar_says_the_phones_are_playing_and_nothing_to_type():
    from companion.terminal.shell import toolbar_text

    status = {"session": "abc", "game": "trans-europa", "title": "Trans Europa", "round": 1,
              "players": [{"name": "Dee", "score": 0}, {"name": "Ann", "score": 0}]}
    typed = toolbar_text(status, next_action="build NAME PATH as the rails go down", turn=["Dee"])
    assert "next: build NAME PATH" in typed
    phones = toolbar_text(status, next_action="build NAME PATH as the rails go down", turn=["Dee"], phones=True)
    assert phones.splitlines()[1] == "The phones are playing: it is Dee's turn; nothing to type here."
    assert "next:" not in phones and "build NAME" not in phones


def test_in_the_shell_serving_turns_the_bar_to_the_phones(run, home):
    run(["new", "trans-europa", "--players", ",".join(PLAYERS)], expect=0)
    run(["round", "start"], expect=0)
    with Shell(home, columns=100, rows=30) as shell:
        assert "The phones are playing" not in shell.text()
        shell.type("serve --port 0")
        shell.wait_for("The phones are playing")
        assert "next:" not in shell.text()
        shell.type("serve --stop")
        shell.wait_for("next:")


def test_a_round_the_board_ended_is_a_line_of_its_own_on_the_laptop(run, home):
    run(["new", "trans-amerika", "--players", ",".join(PLAYERS)], expect=0)
    run(["round", "start"], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    site, client, links = site_and_client(home, sid, PLAYERS)
    told: list[str] = []
    site.notify = told.append

    def act(player, move, value):
        fields = {"junction": value} if move == "start" else {"path": value} if move == "build" else {}
        assert post_move(client, links[player], move, fields).status_code == 303

    play_trans_round(home, sid, act, PLAYERS)
    last = told[-1].split("\n")
    assert len(last) == 2 and last[0].startswith("From ") and "round" in last[1].casefold(), told[-1]
    assert all(len(t.split("\n")) == 1 for t in told[:-1])  # one line a move
