"""Ratings that add, not redo (issue 29): `stats --ratings` after a new play rates that play
on top of the cached ratings (openskill's update is sequential), and an undo, a removal, a
result changed or an older play imported rates again from the last checkpoint before it.
Every case gives exactly the numbers of rating the whole history again (the cache's floats
compared, not the rounded rows); how many plays were rated is counted, never timed."""

from __future__ import annotations

import json
import random

import pytest

from companion.record import ratings as skill
from companion.record.players import Roster

PLAYS = 500  # two and a half checkpoints of 200 plays (the program keeps one every 2,000)
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def entry(n: int, rng: random.Random, day: int | None = None) -> dict:
    names = rng.sample(NAMES, rng.randint(2, 5))
    scores = {p: rng.randint(0, 30) for p in names}
    top = max(scores.values())
    from datetime import datetime, timedelta, timezone

    # one play every five hours, in the order of n (``day``: at that day instead)
    at = (datetime(2020, 1, 1, tzinfo=timezone.utc) + (timedelta(hours=5 * n) if day is None else timedelta(days=day))
          ).isoformat()
    summary = {"finished_at": at, "round": 3, "scores": scores, "winners": [p for p, v in scores.items() if v == top]}
    e = {"id": f"s{n:07d}", "game": ["scoresheet", "trans-europa", "transatlantic"][n % 3], "players": names,
         "created": at, "finished": at, "summary": summary}
    if n % 37 == 0:  # co-operative plays and teams are in the history too
        summary["coop"] = True
    if n % 29 == 0 and len(names) >= 4:
        summary["teams"] = [names[:2], names[2:4]] + [[p] for p in names[4:]]
    return e


@pytest.fixture(autouse=True)
def checkpoints(monkeypatch):
    monkeypatch.setattr(skill, "CHECKPOINT", 200, raising=False)


@pytest.fixture
def history():
    rng = random.Random(29)
    return [entry(n, rng) for n in range(PLAYS)]


@pytest.fixture
def rated(monkeypatch):
    """The ids of the plays made into rating plays, as they are made."""
    made: list[str] = []
    real = skill.Play.__init__

    def counting(self, e, show):
        made.append(e["id"])
        real(self, e, show)

    monkeypatch.setattr(skill.Play, "__init__", counting)
    return made


def tables(path) -> dict:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return {"overall": doc["overall"], "games": doc["games"]}


def same_as_everything_again(entries, roster, cache, tmp_path, result) -> None:
    fresh = tmp_path / "fresh.json"
    fresh.unlink(missing_ok=True)
    assert skill.compute(entries, roster, cache=fresh) == result
    assert tables(cache) == tables(fresh)  # every float, exactly


def test_a_new_play_is_rated_alone_on_top_of_the_cache(history, rated, tmp_path):
    roster, cache = Roster({}, history), tmp_path / "ratings.json"
    skill.compute(history, roster, cache=cache)
    assert len(rated) > PLAYS * 0.9
    for n in range(3):  # one play after another, as a club's evening goes
        rated.clear()
        history.append(entry(PLAYS + n, random.Random(n), day=4000 + n))
        result = skill.compute(history, Roster({}, history), cache=cache)
        assert rated == [f"s{PLAYS + n:07d}"]
        same_as_everything_again(history, Roster({}, history), cache, tmp_path, result)


@pytest.mark.parametrize("change", ["undone", "finished again", "removed", "imported older", "abandoned"])
def test_a_change_further_back_rates_again_from_the_checkpoint_before_it(history, rated, tmp_path, change):
    roster, cache = Roster({}, history), tmp_path / "ratings.json"
    skill.compute(history, roster, cache=cache)
    at = 432  # after the second checkpoint (400 plays)
    if change == "undone":
        history[at] = dict(history[at], finished=None, summary=None)
    elif change == "finished again":
        changed = json.loads(json.dumps(history[at]))
        changed["summary"]["scores"] = {p: 1 for p in changed["players"]}
        changed["summary"]["winners"] = changed["players"][:1]
        changed["finished"] = changed["summary"]["finished_at"] = "2026-06-01T23:59:00+00:00"
        history[at] = changed
    elif change == "removed":
        del history[at]
    elif change == "imported older":
        older = entry(PLAYS + 7, random.Random(7))
        older["finished"] = older["summary"]["finished_at"] = history[at]["finished"].replace(":00+", ":01+")
        history.append(older)
    else:
        history[at] = dict(history[at], finished=None, summary={"abandoned_at": "2026-06-01T00:00:00+00:00",
                                                                 "reason": ""})
    rated.clear()
    result = skill.compute(history, Roster({}, history), cache=cache)
    assert 0 < len(rated) < PLAYS - 300, "only the plays since the checkpoint are rated again"
    same_as_everything_again(history, Roster({}, history), cache, tmp_path, result)
    rated.clear()  # and then a new play adds on top again
    history.append(entry(PLAYS + 8, random.Random(8), day=5000))
    result = skill.compute(history, Roster({}, history), cache=cache)
    assert rated == [f"s{PLAYS + 8:07d}"]
    same_as_everything_again(history, Roster({}, history), cache, tmp_path, result)


def test_a_rename_or_a_new_spelling_is_shown_as_a_full_rating_would(history, rated, tmp_path):
    cache = tmp_path / "ratings.json"
    skill.compute(history, Roster({}, history), cache=cache)
    # a newer spelling of a name (no alias): shown in every table, rated on top
    later = entry(PLAYS, random.Random(1), day=6000)
    later["players"] = ["ANN", "Bob"]
    later["summary"]["scores"], later["summary"]["winners"] = {"ANN": 3, "Bob": 1}, ["ANN"]
    history.append(later)
    rated.clear()
    result = skill.compute(history, Roster({}, history), cache=cache)
    assert rated == [later["id"]]
    assert "ANN" in {r["name"] for t in result["games"].values() for r in t}
    same_as_everything_again(history, Roster({}, history), cache, tmp_path, result)
    # a rename changes who is who: everything is rated again
    rated.clear()
    renamed = Roster({"bob": "Robert"}, history)
    result = skill.compute(history, renamed, cache=cache)
    assert len(rated) > PLAYS * 0.9
    same_as_everything_again(history, renamed, cache, tmp_path, result)


def test_a_damaged_cache_is_rated_again_in_full(history, tmp_path):
    roster, cache = Roster({}, history), tmp_path / "ratings.json"
    skill.compute(history, roster, cache=cache)
    doc = json.loads(cache.read_text(encoding="utf-8"))
    for damage in ({"checkpoints": [{"n": 200, "last": ["x", "g", []], "overall": {"ann": ["Ann", "x", 1, 1]},
                                     "games": {}}]},
                   {"ids": 5}, {"finished": "only one"}, {"last": [1]}, {"checkpoints": [{"n": 10 ** 6}]}):
        cache.write_text(json.dumps({**doc, **damage, "fingerprint": None}), encoding="utf-8")
        history[432] = dict(history[432], finished=None, summary=None)  # a change: the checkpoints are needed
        result = skill.compute(history, Roster({}, history), cache=cache)
        same_as_everything_again(history, Roster({}, history), cache, tmp_path, result)
