"""Transatlantic through the session layer: frozen values, undo and redo of a purchase.

Ship values and surcharges are TEST values (the printed ones are unknown here).
"""

from __future__ import annotations

import pytest

from companion.core import session as sessions
from companion.contract.errors import MissingValue
from companion.core.store import Store

from transatlantic_support import SHIPS as ALL_SHIPS
from transatlantic_support import SURCHARGES

# the six steamships of a full market (TEST values)
SHIPS = {n: ALL_SHIPS[n] for n in ("DEVONIA", "NUBIAN", "GERMANIC", "HAMMONIA", "ABYSSINIA", "UMBRIA")}


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "home")
    with store.writing():
        for name, values in SHIPS.items():
            store.set_user_value("transatlantic", f"ships.{name}", values)
    return store


def start(store, surcharges=True):
    if surcharges:
        with store.writing():
            store.set_user_value("transatlantic", "market.surcharges", SURCHARGES)
    s = sessions.create(store, "transatlantic", ["Ann", "Bob", "Cy"], {}, start="Bob")
    sessions.record(store, s.id, {"type": "reveal", "ships": list(SHIPS)})
    return s.id


def test_undo_of_a_purchase_restores_market_docks_and_ownership(store):
    sid = start(store)
    before = sessions.load(store, sid).status()
    sessions.record(store, sid, {"type": "buy", "player": "Ann", "ships": ["NUBIAN", "HAMMONIA"]})
    after = sessions.load(store, sid).status()
    assert after["docks"] == ["DEVONIA"]
    assert after["players"][2]["ships"] == ["NUBIAN", "HAMMONIA"]  # seats: Bob, Cy, Ann
    sessions.step(store, sid, "undo")
    undone = sessions.load(store, sid).status()
    assert undone["market"] == ["DEVONIA", "NUBIAN", "GERMANIC", "HAMMONIA", "ABYSSINIA", "UMBRIA"]
    assert undone["docks"] == [] and undone["players"][2]["ships"] == []
    assert undone == before
    sessions.step(store, sid, "redo")
    assert sessions.load(store, sid).status() == after


def test_the_session_keeps_the_catalogue_it_started_with(store):
    sid = start(store)
    with store.writing():
        store.set_user_value("transatlantic", "ships.HAMMONIA", {**SHIPS["HAMMONIA"], "price": 999})
    _, replay, _ = sessions.record(store, sid, {"type": "buy", "player": "Ann", "ships": ["HAMMONIA"]})
    assert replay.state["last_buy"]["total"] == 70 + 30


def test_surcharges_typed_after_new_are_frozen_into_the_purchase(store):
    sid = start(store, surcharges=False)
    with pytest.raises(MissingValue, match="data set transatlantic market.surcharges"):
        sessions.record(store, sid, {"type": "buy", "player": "Ann", "ships": ["NUBIAN"]})
    with store.writing():
        store.set_user_value("transatlantic", "market.surcharges", SURCHARGES)
    _, replay, event = sessions.record(store, sid, {"type": "buy", "player": "Ann", "ships": ["NUBIAN"]})
    assert event["_data"] == {"market.surcharges": SURCHARGES}
    assert replay.state["last_buy"]["total"] == 40
    # a later change of the players' values does not rescore the recorded purchase
    with store.writing():
        store.set_user_value("transatlantic", "market.surcharges", [5] * 6)
    assert sessions.load(store, sid).replay().state["last_buy"]["total"] == 40


def test_the_start_player_sits_first(store):
    sid = start(store)
    status = sessions.load(store, sid).status()
    assert [p["name"] for p in status["players"]] == ["Bob", "Cy", "Ann"]
    assert status["start"] == "Bob"
