"""Atlantic Star through the session layer: start player, undo and redo, values frozen at the end."""

from __future__ import annotations

import pytest

from companion.core import session as sessions
from companion.contract.errors import MissingValue
from companion.core.store import Store

from atlantic_star_support import TEST_VP


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "data")


def charter(player):
    return {"type": "charter", "player": player, "space": 0}


def test_start_player_and_no_dealing_seed(store):
    s = sessions.create(store, "atlantic-star", ["Ann", "Bob", "Cy"], {}, start="bob")
    assert s.players == ["Bob", "Cy", "Ann"]
    assert "seed" not in s.meta  # the players shuffle the real cards
    assert s.status()["turn"] == "Bob"
    assert s.meta["data"]["vp"] is None


def test_undo_of_a_voyage_restores_the_ranking_and_the_turn(store):
    sid = sessions.create(store, "atlantic-star", ["Ann", "Bob"], {}).id
    for _ in range(3):
        sessions.record(store, sid, charter("Ann"))
        sessions.record(store, sid, charter("Bob"))
    sessions.record(store, sid, {"type": "voyage", "player": "Ann", "sea": "baltic", "value": 20, "class": 2})
    _, after, _ = sessions.record(store, sid, {"type": "voyage", "player": "Bob", "sea": "baltic", "value": 25})
    status = sessions.load(store, sid).status(after)
    assert [(x["owner"], x["value"]) for x in status["seas"]["baltic"]["ranking"]] == [
        ("Bob", 25), ("Ann", 20), ("operator", 17), ("operator", 13),
    ]
    assert status["turn"] == "Ann"

    session, replay, moved = sessions.step(store, sid, "undo")
    assert moved["event"]["player"] == "Bob"
    status = session.status(replay)
    assert [(x["owner"], x["value"]) for x in status["seas"]["baltic"]["ranking"]] == [
        ("Ann", 20), ("operator", 17), ("operator", 13),
    ]
    assert status["turn"] == "Bob"
    assert [p["hand"] for p in status["players"]] == [0, 3]
    assert [p["plaques_left"] for p in status["players"]] == [7, 8]

    session, replay, _ = sessions.step(store, sid, "redo")
    assert session.status(replay)["turn"] == "Ann"


def test_undo_of_a_loan_restores_money_place_and_the_loan_step(store):
    sid = sessions.create(store, "atlantic-star", ["Ann", "Bob"], {}).id
    for _ in range(3):
        sessions.record(store, sid, charter("Ann"))
        sessions.record(store, sid, charter("Bob"))
    sessions.record(store, sid, {"type": "voyage", "player": "Ann", "sea": "baltic", "value": 20, "class": 2})
    sessions.record(store, sid, charter("Bob"))
    sessions.record(store, sid, {"type": "loan", "player": "Ann", "sea": "baltic", "amount": 5000})
    session, replay, _ = sessions.step(store, sid, "undo")
    status = session.status(replay)
    assert status["players"][0]["money"] == 36000
    assert status["seas"]["baltic"]["ranking"][0] == {"owner": "Ann", "value": 20, "loan": 0}
    assert status["may"][0] == "loan"


def play_to_the_last_voyage(store, sid):
    plan = [("pacific", 5), ("atlantic", 4), ("mediterranean", 3), ("baltic", 2)]
    legs = {"pacific": 6, "atlantic": 5, "mediterranean": 4, "baltic": 3}
    for n, (sea, cls) in enumerate(plan):
        for k in range(2):
            for _ in range(legs[sea]):
                sessions.record(store, sid, charter("Ann"))
                sessions.record(store, sid, charter("Bob"))
            sessions.record(store, sid, {"type": "voyage", "player": "Ann", "sea": sea, "value": 10 + k, "class": cls})
            if (n, k) != (3, 1):
                sessions.record(store, sid, {"type": "voyage", "player": "Bob", "sea": sea, "value": 12 - k})


def test_the_table_supplied_during_play_is_frozen_into_the_last_voyage(store):
    sid = sessions.create(store, "atlantic-star", ["Ann", "Bob"], {}).id
    play_to_the_last_voyage(store, sid)
    last = {"type": "voyage", "player": "Bob", "sea": "baltic", "value": 9}
    with pytest.raises(MissingValue, match="data set atlantic-star vp.2"):
        sessions.record(store, sid, last)
    assert not sessions.load(store, sid).status()["finished"]  # nothing was recorded

    for cls, row in TEST_VP.items():  # the players read the table off their board
        store.set_user_value("atlantic-star", f"vp.{cls}", row)
    _, replay, event = sessions.record(store, sid, last)
    assert set(event["_data"]) == {"vp.2", "vp.3", "vp.4", "vp.5"}
    status = sessions.load(store, sid).status()
    assert status["finished"] and status["winners"]
    assert all(isinstance(p["score"], int) for p in status["players"])
    # a later change of the players' values does not rescore the finished session
    store.set_user_value("atlantic-star", "vp.5", [0, 0, 0, 0, 0, 0])
    assert sessions.load(store, sid).status() == status
