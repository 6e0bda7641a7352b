"""A move made on a phone keeps what its ``prepare`` found (found by `companion check`, issue 27).

Before: the page ran the move's ``prepare`` on a copy of its arguments, so what it found for the
event was lost. Transatlantic's `own` finds the ship's card there: a ship typed with `ship add`
after `new` (so not frozen into the session) was refused on a phone ("The ship ARIEL is not in
the catalogue yet") although `own Ann ARIEL` typed at the laptop records it."""

from __future__ import annotations

import json

from serve_support import post_move, site_and_client


def test_owning_a_ship_typed_after_new_from_a_phone(run, home):
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    run(["ship", "add", "ARIEL", "--year", "1865", "--flag", "none", "--kind", "sail"], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    _site, client, links = site_and_client(home, sid, ["Ann", "Bob"])
    answer = post_move(client, links["Ann"], "own", {"ship": "ARIEL"})
    assert answer.status_code == 303, answer.text
    players = json.loads(run(["status", "--json"], expect=0).stdout)["players"]
    assert "ARIEL" in next(p for p in players if p["name"] == "Ann")["ships"]
