"""`verify`: the seed matches the commitment and every deal is re-derived from it."""

from __future__ import annotations

import hashlib
import json

import pytest
from journal_support import edit_first, entries

from companion.core import session as sessions
from companion.core.store import Store


def play_two_rounds(run):
    out = run(["new", "trans-amerika", "--players", "Ann,Bob,Cy,Dee", "--entropy", "pizza"], expect=0).stdout
    commitment = out.split("seed):")[1].split()[0]
    run(["round", "start"], expect=0)
    run(["round", "end", "--winner", "Ann", "--missing", "Bob=1", "--missing", "Cy=2", "--missing", "Dee=3"], expect=0)
    run(["round", "start"], expect=0)
    return commitment


def test_verify_refuses_before_the_end_without_reveal(run, status):
    play_two_rounds(run)
    err = run(["verify"], expect=1).stderr
    assert "is not over" in err and "--reveal" in err
    assert status()["seed_revealed"] is False


def test_reveal_is_recorded_and_shown(run, status):
    commitment = play_two_rounds(run)
    out = run(["verify", "--reveal"], expect=0).stdout
    seed = out.split("Seed:")[1].split()[0]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
    assert "All" in out and "deals match the seed" in out
    assert status()["seed_revealed"] is True
    assert "seed was revealed" in run(["status"], expect=0).stdout
    # once revealed, verify needs no flag any more and nothing more is recorded
    run(["verify"], expect=0)


def test_a_changed_deal_is_reported(run, status, home):
    play_two_rounds(run)
    run(["verify", "--reveal"], expect=0)
    sid = status()["session"]

    def first_deal(x):
        if isinstance(x, dict):
            if {"context", "deck", "order"} <= x.keys():
                return x
            for v in x.values():
                found = first_deal(v)
                if found:
                    return found
        if isinstance(x, list):
            for v in x:
                found = first_deal(v)
                if found:
                    return found
        return None

    def swap(entry):  # swap two cards in the first recorded deal
        deal = first_deal(entry["event"])
        deal["order"][0], deal["order"][1] = deal["order"][1], deal["order"][0]

    edit_first(home, sid, lambda entry: '"order"' in json.dumps(entry), swap)
    result = run(["verify"], expect=1)
    assert "DOES NOT MATCH" in result.stdout
    assert "1 of" in result.stderr and "do not match the seed" in result.stderr


def finished_amerika(run, home):
    store = Store(home)
    s = sessions.create(store, "trans-amerika", ["Ann", "Bob", "Cy", "Dee"], {"variant": None, "scoring": "prestige"})
    for _ in range(4):
        run(["round", "start"], expect=0)
        run(["round", "end", "--winner", "Ann", "--missing", "Bob=9", "--missing", "Cy=9", "--missing", "Dee=9"], expect=0)
    return store, s


def test_verify_after_a_finished_game_needs_no_reveal(run, home):
    store, s = finished_amerika(run, home)
    assert sessions.load(store, s.id).replay().state["finished"]
    out = run(["verify", s.id[:4]], expect=0).stdout
    assert "matches the seed" in out and "All" in out


def test_a_seed_shown_at_the_end_never_deals_again(run, home, status):
    """Issue 12: `verify` at the end, `undo` reopens the game: `round start` is refused."""
    store, s = finished_amerika(run, home)
    run(["verify"], expect=0)
    assert status()["seed_revealed"] is True
    run(["undo"], expect=0)  # the last round's end: correcting a result is still allowed
    run(["undo"], expect=0)  # and the last round's deal
    assert status()["finished"] is False and status()["seed_revealed"] is True
    assert "seed was revealed" in run(["status"], expect=0).stdout
    before = entries(home, s.id)
    err = run(["round", "start"], expect=1).stderr
    assert "was shown" in err and "--physical" in err and len(err.strip().splitlines()) == 1
    assert entries(home, s.id) == before
    run(["round", "start", "--physical"], expect=0)  # the table deals its own cards


def test_a_reveal_before_the_end_stops_deals_too(run, status):
    play_two_rounds(run)
    run(["round", "end", "--winner", "Ann", "--missing", "Bob=1", "--missing", "Cy=2", "--missing", "Dee=3"], expect=0)
    run(["verify", "--reveal"], expect=0)
    assert "was shown" in run(["round", "start"], expect=1).stderr


def rewrite_context(home, sid, change) -> None:
    edit_first(home, sid, lambda entry: bool((entry.get("event") or {}).get("stacks")),
               lambda entry: change(next(iter(entry["event"]["stacks"].values()))))


@pytest.mark.parametrize("context", ["{sid}/1/cities-\u0441yan", "{sid}/1/pick-17", "other000/1/{deck}", "{sid}/2/{deck}"])
def test_verify_and_replay_refuse_a_deal_under_another_context(run, home, context):
    """Issue 12: a deal re-made from the seed under a look-alike or chosen context is refused."""
    from companion.core import dealing

    store, s = finished_amerika(run, home)
    seed, entropy = s.meta["seed"], s.meta.get("entropy", "")

    def remake(deal):
        deck = deal["context"].split("/", 2)[2]
        ctx = context.format(sid=s.id, deck=deck)
        deal.update(dealing.record(deal["deck"], seed, entropy, ctx))  # a genuine deal from the seed

    rewrite_context(home, s.id, remake)
    result = run(["status", "--session", s.id])
    assert result.exit_code == 1 and "cannot be replayed" in result.stderr and "context" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    result = run(["verify", s.id])
    assert result.exit_code == 1


def test_verify_names_the_expected_context(run, home):
    store, s = finished_amerika(run, home)
    out = run(["verify"], expect=0).stdout
    assert f"{s.id}/1/cities-" in out and "wrong context" not in out


def test_an_abandoned_game_is_over_for_verify(run, status):
    """An abandoned game has ended (no result): anyone may check its deals without `--reveal`;
    the seed shown is recorded, so if `undo` takes the abandon back no new deal comes from it."""
    play_two_rounds(run)
    run(["abandon", "--reason", "the train left"], expect=0)
    out = run(["verify"], expect=0).stdout
    assert "matches the seed" in out and "All" in out
    assert status()["seed_revealed"] is True
    run(["undo"], expect=0)
    assert "was shown" in run(["round", "start"], expect=1).stderr
