"""docs/json.md is the `--json` contract, and stays in step with the outputs (issue 23).

Every output the page describes is run here: a key the page does not list fails, and so does a
key it marks *always* that is missing; every output carries its `format`. The games' own keys
are checked for every installed game that loads (the Trans games too, once they load), from the
first line of its PLAYTHROUGH."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.core import registry

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "json.md"


def page() -> str:
    if not DOC.exists():
        pytest.skip("needs the source tree's docs")
    return DOC.read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The text under the heading that contains ``heading`` (up to the next heading as deep)."""
    text = page()
    found = re.search(rf"^(#+) [^\n]*{re.escape(heading)}[^\n]*\n", text, flags=re.M)
    assert found, f"docs/json.md has no section {heading!r}"
    depth = len(found.group(1))
    rest = text[found.end():]
    stop = re.search(rf"^#{{1,{depth}}} ", rest, flags=re.M)
    return rest[:stop.start()] if stop else rest


def keys(text: str) -> dict[str, str]:
    """key -> when, from the first table of ``text``."""
    out = {}
    for line in text.splitlines():
        row = re.match(r"\| `([a-z_]+)` \| ([^|]+) \|", line)
        if row:
            out[row.group(1)] = row.group(2).strip()
        elif out and not line.startswith("|"):
            break
    assert out, "a section without a table of keys"
    return out


def player_keys(text: str) -> set[str]:
    found = re.search(r"^Each player: (.+?)\.$", text, flags=re.M | re.S)
    return set(re.findall(r"`([a-z_]+)`", found.group(1))) if found else set()


def check(obj: dict, table: dict[str, str], extra: dict[str, str] = (), where: str = "") -> None:
    allowed = {**table, **dict(extra)}
    unknown = set(obj) - set(allowed)
    assert not unknown, f"{where}: keys docs/json.md does not list: {sorted(unknown)}"
    missing = [k for k, when in allowed.items() if when == "always" and k not in obj]
    assert not missing, f"{where}: keys docs/json.md says are always there: {missing}"


def output(run, args: list[str]):
    return json.loads(run([*args, "--json"], expect=0).stdout)


GAMES = registry.available()


@pytest.mark.parametrize("game_id", GAMES)
def test_status_of_every_game_is_described(run, game_id):
    moves = registry.parts(game_id).moves
    first = (getattr(moves, "PLAYTHROUGH", None) or {}).get(game_id, [])[:1]
    if not first:
        pytest.skip(f"{game_id} has no PLAYTHROUGH to start a session from")
    import shlex

    run(shlex.split(first[0]), expect=0)
    status = output(run, ["status"])
    assert status["format"] == "status/1"
    framework = keys(section("`status --json`"))
    game = [h for h in re.findall(r"^### (.+)$", page(), flags=re.M) if f"`{game_id}`" in h]
    assert game, f"docs/json.md lists no keys of {game_id}'s status (a heading naming `{game_id}`)"
    own = section(game[0])
    check(status, framework, keys(own), f"status of {game_id}")
    allowed = {"name", "score", "rank"} | player_keys(own)
    for p in status["players"]:
        assert set(p) <= allowed, f"{game_id}'s players: {sorted(set(p) - allowed)} are not in docs/json.md"


def history(run) -> None:
    """A group's evening: a score sheet with a title and teams, a co-op play, a rank-only one, a
    tie settled by the rules, an abandoned sheet and one in play."""
    run(["new", "scoresheet", "--title", "Codenames", "--teams", "Ann+Bob,Cy+Dee", "--roles", "Ann=red"], expect=0)
    run(["add", "Ann=1", "Bob=1", "Cy=0", "Dee=0.5"], expect=0)
    run(["finish"], expect=0)
    run(["played", "Pandemic", "--coop", "--players", "Ann,Bob", "--won", "--length", "50m",
         "--location", "Cy's", "--played-on", "2026-03-01"], expect=0)
    run(["played", "Azul", "--ranks", "Ann=1,Bob=2"], expect=0)
    run(["played", "atlantic-star", "--players", "Ann=10,Bob=10", "--winner", "Bob"], expect=0)
    run(["new", "scoresheet", "--players", "Ann,Bob"], expect=0)
    run(["abandon", "--reason", "late"], expect=0)
    run(["new", "scoresheet", "--players", "Ann,Cy", "--tie-breaker", "most tiles", "--target", "5"], expect=0)
    run(["add", "Ann=5", "Cy=5"], expect=0)


def test_the_framework_keys_of_status_and_played(run):
    history(run)
    framework = keys(section("`status --json`"))
    sheet = keys(section("`scoresheet`"))
    tied = output(run, ["status"])
    check(tied, framework, sheet, "a tie past the target")
    assert "tied" in tied and "tie_rule" in tied
    for sid in (e["id"] for e in output(run, ["sessions"])):
        status = output(run, ["--session", sid, "status"])
        extra = sheet if status["game"] == "scoresheet" else keys(section("`atlantic-star`"))
        check(status, framework, extra, f"status of {status['title']}")
    logged = output(run, ["played", "Hanabi", "--coop", "--players", "Ann,Bob", "--lost"])
    assert logged["format"] == "played/1"
    check(logged, framework, sheet, "played --json")


def test_lists_and_history_outputs(run):
    history(run)
    item = keys(section("`log --json`"))
    for row in output(run, ["log"]):
        check(row, item, where="log")
        assert row["format"] == "log/1"
    item = keys(section("`sessions --json`"))
    rows = output(run, ["sessions"])
    assert len(rows) == 6
    summary = set(re.findall(r"`([a-z_]+)`", section("`sessions --json`").split("The `summary` of a finished")[1]))
    for row in rows:
        check(row, item, where="sessions")
        assert row["format"] == "sessions/1"
        if isinstance(row["summary"], dict) and row["finished"]:
            assert set(row["summary"]) <= summary, sorted(set(row["summary"]) - summary)
    games = output(run, ["games"])
    check(games, keys(section("`games --json`")), where="games")
    assert games["format"] == "games/1" and {t["title"] for t in games["titles"]} >= {"Codenames", "Pandemic"}
    for row in output(run, ["players"]):
        check(row, keys(section("`players --json`")), where="players")
        assert row["format"] == "players/1"
    stats = output(run, ["stats"])
    check(stats, keys(section("`stats --json`")), where="stats")
    assert stats["format"] == "stats/1" and stats["coop_sessions"] == 1
    ratings = output(run, ["stats", "--ratings"])
    check(ratings, keys(section("`stats --ratings --json`")), where="stats --ratings")
    assert ratings["format"] == "ratings/1"


@pytest.mark.skipif("transatlantic" not in GAMES, reason="Transatlantic is not installed")
def test_transatlantic_screens(run):
    run(["new", "transatlantic", "--players", "Ann,Bob"], expect=0)
    for row in output(run, ["market"]):
        check(row, keys(section("`market --json`")), where="market")
        assert row["format"] == "market/1"
    card = {"name": "NUBIAN", "year": 1875, "flag": "white", "price": 30, "kind": "steam", "income": None, "tonnage": None,
            "speed": None, "passengers": None}
    run(["data", "set", "transatlantic", "ships.NUBIAN", json.dumps(card)], expect=0)
    ship = keys(section("`ships --json`"))
    catalogue = output(run, ["ships"])
    assert catalogue and all(v["format"] == "ships/1" for v in catalogue.values())
    for value in catalogue.values():
        check(value, ship, where="ships")
    one = output(run, ["ship", "show", "nubian"])
    check(one, ship, where="ship show")
    assert one["format"] == "ship-show/1"


@pytest.mark.skipif("atlantic-star" not in GAMES, reason="Atlantic Star is not installed")
def test_atlantic_star_agency(run):
    run(["new", "atlantic-star", "--players", "Ann,Bob", "--agency", "Rhea,Oceana,Titan,Ceres"], expect=0)
    rows = output(run, ["agency"])
    assert rows
    for row in rows:
        check(row, keys(section("`agency --json`")), where="agency")
        assert row["format"] == "agency/1"


@pytest.mark.skipif("trans-amerika" not in GAMES, reason="the Trans games do not load here")
def test_rails_statistics(run):
    # the keys are the same for every number of players: the three players' 3,125 hands, not the
    # full board's 16,807 (their figures: tests/test_rails_cli.py::test_all_hands_stats)
    stats = output(run, ["rails", "amerika", "--all-hands", "--stats", "--players", "3"])
    assert stats["format"] == "rails/1"
    described = set(re.findall(r"`([a-z_]+)`", section("`rails --json`").split("--all-hands --stats")[1]))
    assert set(stats) - {"format"} <= described


def test_every_format_of_the_framework_is_on_the_page():
    from companion.games.kit import JSON_FORMATS

    text = page()
    for name, version in JSON_FORMATS.items():
        assert f"`{name}/{version}`" in text, f"{name}/{version} is not described in docs/json.md"


def test_the_json_export_file_is_described(run, tmp_path):
    """The backup `import` reads is a contract too (issue 29 added `titles`)."""
    run(["played", "Carcassonne", "--players", "Ann=52,Bob=47", "--bgg-id", "822"], expect=0)
    doc = json.loads(run(["export", "--format", "json"], expect=0).stdout)
    check(doc, keys(section("The exports")), where="export --format json")
    assert doc["titles"] == [{"title": "Carcassonne", "bgg_id": 822}]
