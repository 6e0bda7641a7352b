"""One exit per viewer (issue 27, item 1): a bid secret until everyone has bid, on every surface.

The third example of docs/writing-a-game.md (companion-tricks) is installed as a real
distribution and played. Until the round's last bid, nothing anyone but Ann sees may depend on
Ann's bid: the table's `status`, `status --json`, `log`, `log --json`, the line said after a
move on the shared screen, the table's page and Bob's page are the same bytes whether Ann bid 0
or 1. Ann's own page shows it. Once everyone has bid, every surface shows every bid.

The leaks design-review-3 found in a plugin written from the guide are re-created here with the
example written the same natural way (its ``status_view`` prints "Ann (1 tricks)" from
``at.status``, its ``done`` line prints ``outcome.event['bid']`` when it is there, its
``summary`` returns every bid): each test here failed before the exit, and passes now.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tricks_support import PLAYERS, install, on_path, same_but_ids


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    yield from on_path(install(tmp_path_factory.mktemp("tricks")))


def table(home, bid: int):
    """A session in its own data folder where Ann has bid ``bid`` and nobody else has: a
    function running a command there -> its output."""
    from companion.terminal.cli import cli

    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(cli, ["--data-dir", str(home), *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    run("new", "tricks", "--players", ",".join(PLAYERS))
    run.said = run("bid", "Ann", str(bid))  # the line after the move, on the shared screen
    run.sid = json.loads(run("status", "--json"))["session"]
    return run


SURFACES = [("status",), ("status", "--json"), ("log",), ("log", "--json")]


def test_the_table_sees_the_same_bytes_whatever_ann_bid(site, tmp_path):
    zero, one = table(tmp_path / "zero", 0), table(tmp_path / "one", 1)
    assert zero.said == one.said == "Ann has bid.\n"  # was "Ann has bid 1." on the shared screen
    for words in SURFACES:
        assert same_but_ids(zero(*words), zero.sid) == same_but_ids(one(*words), one.sid), words


def test_status_json_has_no_secret_bid(site, tmp_path):
    """design-review-3: the plugin "printed Ann's bid in status --json" while others bid."""
    run = table(tmp_path, 1)
    status = json.loads(run("status", "--json"))
    assert [p["bid"] for p in status["players"]] == [None, None, None]
    assert status["bid_in"] == ["Ann"] and status["bids_open"] is False


def test_the_table_screen_says_who_has_bid_not_what(site, tmp_path):
    """design-review-3: a one-line change to status_view put "Ann (1 tricks)" on the TV."""
    run = table(tmp_path, 1)
    shown = run("status")
    assert "Bids in: Ann; waiting for Bob, Cy." in shown
    assert "(1 tricks)" not in shown


def test_the_log_says_a_bid_was_made_and_hides_it_in_json(site, tmp_path):
    run = table(tmp_path, 1)
    assert "Ann has bid in round 1 (secret until everyone has bid)" in run("log")
    (row,) = json.loads(run("log", "--json"))
    assert row["event"]["bid"] == "hidden for now"
    assert row["words"] == "Ann has bid in round 1 (secret until everyone has bid)"


def test_once_everyone_has_bid_every_surface_shows_every_bid(site, tmp_path):
    run = table(tmp_path, 1)
    assert run("bid", "Bob", "0") == "Bob has bid.\n"
    assert run("bid", "Cy", "0") == "Cy has bid 0.\nAll bids are in: Ann 1, Bob 0, Cy 0.\n"
    assert [p["bid"] for p in json.loads(run("status", "--json"))["players"]] == [1, 0, 0]
    shown = run("status")
    assert "Ann        1" in shown and "Bids in" not in shown
    log = run("log")
    assert "Ann bid 1 in round 1" in log and "Bob bid 0 in round 1" in log
    assert [r["event"]["bid"] for r in json.loads(run("log", "--json"))] == [1, 0, 0]


def test_a_bid_of_an_earlier_round_stays_public(site, tmp_path):
    run = table(tmp_path, 1)
    for line in (["bid", "Bob", "0"], ["bid", "Cy", "0"], ["tricks", "Ann", "1"], ["tricks", "Bob", "0"],
                 ["tricks", "Cy", "0"], ["bid", "Bob", "2"]):
        run(*line)
    log = run("log")
    assert "Ann bid 1 in round 1" in log  # round 1's bids were made public and stay so
    assert "Bob has bid in round 2 (secret until everyone has bid)" in log  # round 2's is secret again
    assert "Bob bid 2" not in log
    assert json.loads(run("log", "--json"))[-1]["event"]["bid"] == "hidden for now"


def test_the_done_line_in_the_shell_says_nothing_of_the_bid(site, home, run, capsys):
    """design-review-3: "Ann has bid 1" appeared on the shared screen 12 bytes after the private
    screen closed. The bid is asked on Ann's private screen; the shared screen says she bid."""
    from shell_support import Screen, drive

    run(["new", "tricks", "--players", ",".join(PLAYERS)], expect=0)
    screen = Screen()
    capsys.readouterr()
    drive(home, "bid Ann\n\n1\nstatus\n", output=screen.output(), private=True)
    out, err = capsys.readouterr()
    shared, private = screen.split()
    assert "Ann has bid." in out
    assert "has bid 1" not in out + shared and "(1 tricks)" not in out + shared
    assert "Only Ann looks." in private
    assert "bid Ann 1" not in (home / ".local" / "shell-history").read_text()
