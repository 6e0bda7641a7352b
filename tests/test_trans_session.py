"""Trans through real sessions on a temporary data folder: undo across rounds, verify, frozen values."""

from __future__ import annotations

import pytest

from companion.core import dealing
from companion.core import session
from companion.contract.errors import MissingValue
from companion.core.store import Store
from companion.games.trans.rules import make_round_start


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "data")


def start_round(special=None, physical=False):
    """The event-building function the command layer passes to ``session.record``."""
    def make(sess, replay):
        m = sess.meta
        return make_round_start(replay.state, replay.data, m["seed"], m["entropy"], sess.id,
                                special=special, physical=physical)
    return make


def end_round(winners=(), **missing):
    return {"type": "round-end", "winners": list(winners), "missing": missing}


def state(store, sid):
    return session.load(store, sid).replay().state


def test_undo_and_redo_across_a_round_boundary(store):
    s = session.create(store, "trans-amerika", ["Ann", "Bob", "Cy"], {}, start="Bob", entropy="our words")
    sid = s.id
    assert s.players == ["Bob", "Cy", "Ann"]
    session.record(store, sid, start_round())
    round1 = state(store, sid)
    assert round1["hands"] and all(len(h) == 5 for h in round1["hands"].values())
    session.record(store, sid, end_round(["Cy"], Bob=2, Ann=5))
    session.record(store, sid, start_round())
    assert state(store, sid)["round"] == 2

    session.step(store, sid, "undo")  # back before round 2's deal
    st = state(store, sid)
    assert st["round"] == 1 and not st["round_open"] and st["scores"] == {"Bob": 2, "Cy": 4, "Ann": 0}
    session.step(store, sid, "undo")  # round 1 open again, same hands
    st = state(store, sid)
    assert st["round_open"] and st["hands"] == round1["hands"] and st["scores"] == {"Bob": 0, "Cy": 0, "Ann": 0}
    session.step(store, sid, "redo")
    assert state(store, sid)["scores"]["Cy"] == 4
    # a new deal after the undo is the seed's deal for round 2, the same as the undone one
    undone = session.load(store, sid).replay().undone[0]["event"]
    _, _, event = session.record(store, sid, start_round())
    assert event["stacks"] == undone["stacks"]


def play_to_the_end(store, sid):
    players = session.load(store, sid).players
    while not state(store, sid)["finished"]:
        session.record(store, sid, start_round())
        session.record(store, sid, end_round([players[0]], **{p: 1 for p in players[1:]}))


def test_verify_after_a_game_re_derives_every_deal(store):
    s = session.create(store, "trans-europa", ["Ann", "Bob", "Cy", "Dee"], {"variant": "special-cards",
                       "scoring": "classic"}, entropy="dice: 3 5 1")
    sid = s.id
    for card in ("water-single", "three-rails"):  # two rounds the players turned over themselves
        session.record(store, sid, start_round(special=card))
        session.record(store, sid, end_round(["Ann"], Bob=4, Cy=5, Dee=6))
    session.record(store, sid, start_round(physical=True, special="build-anywhere"))
    session.record(store, sid, end_round(["Ann"], Bob=4, Cy=5, Dee=6))
    sess = session.load(store, sid)
    assert state(store, sid)["finished"] and state(store, sid)["winners"] == ["Ann"]
    meta = sess.meta
    assert dealing.commitment(meta["seed"]) == meta["commitment"]
    replay = sess.replay()
    deals = [d for entry in replay.events for d in dealing.deals_in(entry["event"])]
    assert len(deals) == 10  # 2 dealt rounds x 5 colour stacks
    assert all(dealing.check(d, meta["seed"], meta["entropy"]) for d in deals)
    assert not any(dealing.check(d, "00" * 32, meta["entropy"]) for d in deals)
    # redoing every round start from the state before it gives the recorded event exactly
    for n, entry in enumerate(replay.events):
        event = entry["event"]
        if event["type"] == "round-start":
            before = sess.replay(upto=n).state
            redo = make_round_start(before, replay.data, meta["seed"], meta["entropy"], sid,
                                    special=event["special"] if event["special_from"] == "table" else None,
                                    physical=event["physical"])
            assert redo == {k: v for k, v in event.items() if not k.startswith("_")}


def test_verify_re_derives_the_special_card_draws(store):
    s = session.create(store, "trans-amerika", ["Ann", "Bob"], {"variant": "special-cards", "scoring": "classic"})
    with store.writing():
        for colour, ours in {"brown": "red", "white": "blue", "pink": "green", "turquoise": "yellow"}.items():
            store.set_user_value("trans-amerika", f"colour_aliases.{colour}", ours)
    drawn = []
    for _ in range(19):
        _, replay, event = session.record(store, s.id, start_round())
        drawn.append(event["special"])
        st = replay.state
        game = session.load(store, s.id).game
        while st["pending"]:
            p = game.waiting(st)[0]
            colour = (st["pending"] or {}).get("colour")
            city = next(c for c in game.hand_of(st, p)
                        if colour is None or c in [x["name"] for x in replay.data["cities"] if x["colour"] == colour])
            etype = "hand-return" if st["pending"]["kind"] == "return" else "pass"
            _, replay, _ = session.record(store, s.id, {"type": etype, "player": p, "city": city})
            st = replay.state
        session.record(store, s.id, end_round(["Ann", "Bob"]))
    sess = session.load(store, s.id)
    shuffles = [e["event"]["special_shuffle"] for e in sess.replay().events if "special_shuffle" in e["event"]]
    assert len(shuffles) == 2
    assert all(dealing.check(d, sess.meta["seed"], sess.meta["entropy"]) for d in shuffles)
    assert drawn[:18] == shuffles[0]["order"] and drawn[18] == shuffles[1]["order"][0]


def test_a_value_supplied_after_new_is_frozen_into_the_event(store):
    s = session.create(store, "trans-amerika", ["Ann", "Bob", "Cy"], {})
    with pytest.raises(MissingValue, match="colour_aliases.white"):
        session.record(store, s.id, start_round(special="return-white"))
    assert session.load(store, s.id).replay().events == []  # nothing was recorded
    with store.writing():
        store.set_user_value("trans-amerika", "colour_aliases.white", "blue")
    _, replay, event = session.record(store, s.id, start_round(special="return-white"))
    assert event["_data"] == {"colour_aliases.white": "blue"}
    assert all(len(h) == 4 for h in replay.state["hands"].values())
    assert session.load(store, s.id).replay().state["hands"] == replay.state["hands"]


def test_status_json_hides_hands_until_the_game_is_over(store):
    s = session.create(store, "trans-amerika", ["Ann", "Bob"], {})
    session.record(store, s.id, start_round())
    status = session.load(store, s.id).status()
    hands = state(store, s.id)["hands"]
    assert "hands" not in status
    assert not any(city in repr(status) for hand in hands.values() for city in hand)
    assert status["commitment"] and "seed" not in status
    session.record(store, s.id, end_round(["Ann"], Bob=1))
    play_to_the_end(store, s.id)
    status = session.load(store, s.id).status()
    assert status["finished"] and status["winners"] == ["Ann"] and set(status["hands"]) == {"Ann", "Bob"}
