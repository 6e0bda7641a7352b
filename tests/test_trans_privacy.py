"""While a Trans game is on, nothing public shows a hand: not `status --json`, not `log --json`."""

from __future__ import annotations

import json


def test_log_json_hides_deals_and_recorded_cities_until_the_end(run):
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy,Dee"], expect=0)
    run(["round", "start"], expect=0)
    rows = json.loads(run(["log", "--json"], expect=0).stdout)
    text = json.dumps(rows)
    assert "hidden until the game is over" in text
    cities = [c["name"] for c in __import__("companion.core.datapack", fromlist=["pack"]).pack("trans-amerika")["values"]["cities"]]
    assert not any(f'"{c}"' in text for c in cities), "no city name leaks into the public log"
    status = run(["status", "--json"], expect=0).stdout
    assert not any(f'"{c}"' in status for c in cities)


def test_physical_hands_are_hidden_too(run):
    run(["new", "trans-amerika", "--players", "Ann,Bob,Cy,Dee"], expect=0)
    run(["round", "start", "--physical"], expect=0)
    run(["hand", "Ann", "--set", "Seattle,Denver,Chicago,Dallas,Boston"], expect=0)
    rows = json.loads(run(["log", "--json"], expect=0).stdout)
    assert "Seattle" not in json.dumps(rows)
