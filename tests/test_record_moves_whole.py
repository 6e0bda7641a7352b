"""The record moves whole (issue 29): `import` brings the titles (their ways of play and
BoardGameGeek ids) and the players' renames with the sessions, merged with what the folder
already has, and an export written before titles travelled still brings them."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from companion.core import completion
from companion.core.store import Store


def at(folder, *args):
    return ["--data-dir", str(folder), *args]


def bgg_ids(run, folder) -> dict[str, str]:
    xml = run(at(folder, "export", "--format", "bgg"), expect=0).stdout
    return {item.get("name"): item.get("objectid") for item in ET.fromstring(xml).iter("item")}


def titles(run, folder) -> dict[str, dict]:
    doc = json.loads(run(at(folder, "games", "--json"), expect=0).stdout)
    return {t["title"]: t for t in doc["titles"]}


def laptop_a(run, tmp_path):
    a = tmp_path / "a"
    run(at(a, "played", "Carcassonne", "--players", "Ann=52,Björn=47", "--bgg-id", "822"), expect=0)
    run(at(a, "played", "Pandemic", "--players", "Ann,Björn", "--coop", "--won", "--bgg-id", "30549"), expect=0)
    run(at(a, "played", "Golf", "--players", "Ann=70,Björn=68.5", "--lowest-wins",
           "--tie-breaker", "fewest putts"), expect=0)
    run(at(a, "played", "Azul", "--players", "Ann=60,Björn=55"), expect=0)
    run(at(a, "played", "Azul", "--players", "Ann=61,Björn=50", "--bgg-id", "230802"), expect=0)  # a late id
    run(at(a, "player", "rename", "Björn", "Bjørn"), expect=0)
    out = tmp_path / "all.json"
    run(at(a, "export", "--format", "json", "-o", str(out)), expect=0)
    return a, out


def test_import_brings_titles_ids_and_renames(run, tmp_path):
    a, file = laptop_a(run, tmp_path)
    b = tmp_path / "b"
    said = run(at(b, "import", str(file)), expect=0).stdout
    assert "4 titles added or completed" in said
    assert bgg_ids(run, b) == {"Carcassonne": "822", "Pandemic": "30549", "Golf": "0", "Azul": "230802"}
    csv = run(at(b, "export", "--format", "csv"), expect=0).stdout.splitlines()
    assert {line.split(",")[12]: line.split(",")[13] for line in csv[1:]} == \
        {"Carcassonne": "822", "Pandemic": "30549", "Golf": "", "Azul": "230802"}
    got = titles(run, b)
    assert got == titles(run, a)
    assert got["Golf"]["lowest_wins"] and got["Golf"]["tie_break"] == "fewest putts" and got["Pandemic"]["coop"]
    assert [t for t, _ in completion.titles(Store(b), "ca")] == ["Carcassonne"]
    # the next play of a title starts from its ways of play, as on the first laptop
    played = json.loads(run(at(b, "played", "golf", "--players", "Ann=80,Cy=75", "--json"), expect=0).stdout)
    assert played["winners"] == ["Cy"] and played["lowest_wins"]
    # the rename came too
    names = {p["name"] for p in json.loads(run(at(b, "players", "--json"), expect=0).stdout)}
    assert "Bjørn" in names and "Björn" not in names


def test_an_old_export_without_titles_brings_them_from_its_sessions(run, tmp_path):
    a, file = laptop_a(run, tmp_path)
    doc = json.loads(file.read_text(encoding="utf-8"))
    del doc["titles"]  # as written before issue 29
    file.write_text(json.dumps(doc), encoding="utf-8")
    b = tmp_path / "b"
    run(at(b, "import", str(file)), expect=0)
    assert bgg_ids(run, b) == {"Carcassonne": "822", "Pandemic": "30549", "Golf": "0", "Azul": "230802"}
    assert titles(run, b)["Golf"]["tie_break"] == "fewest putts"


def test_the_same_title_in_both_folders_is_one_entry_and_a_conflict_is_one_line(run, tmp_path):
    a, file = laptop_a(run, tmp_path)
    b = tmp_path / "b"
    run(at(b, "played", "CARCASSONNE", "--players", "Ann=1,Cy=2", "--bgg-id", "823"), expect=0)
    run(at(b, "played", "azul", "--players", "Ann=1,Cy=2"), expect=0)
    said = run(at(b, "import", str(file)), expect=0).stdout
    conflicts = [line for line in said.splitlines() if line.startswith("kept:")]
    assert conflicts == ["kept: CARCASSONNE's BoardGameGeek id 823 (the file says 822) as this data folder has it"]
    got = titles(run, b)
    assert sorted(got) == ["CARCASSONNE", "Golf", "Pandemic", "azul"]  # one entry each, this folder's spelling
    assert got["CARCASSONNE"]["bgg_id"] == 823 and got["azul"]["bgg_id"] == 230802  # the id only the file knew
    again = run(at(b, "import", str(file)), expect=0).stdout  # nothing new: only the same line again
    assert "titles added" not in again and again.count("kept:") == 1


def test_a_damaged_title_in_the_file_refuses_the_import(run, tmp_path):
    a, file = laptop_a(run, tmp_path)
    doc = json.loads(file.read_text(encoding="utf-8"))
    doc["titles"][0]["bgg_id"] = "822; rm -rf"
    file.write_text(json.dumps(doc), encoding="utf-8")
    b = tmp_path / "b"
    result = run(at(b, "import", str(file)), expect=1)
    assert "the titles" in result.output and len(result.output.strip().splitlines()) == 1
    assert not (b / "titles.json").exists() and not (b / "sessions").exists()


# -- the pages' BG Stats link is report's ---------------------------------------------------------


def page_link(text: str) -> str:
    import html
    import re

    found = re.search(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"', text)
    assert found, "Add to BG Stats on the page"
    return html.unescape(found.group(1))


def test_the_pages_link_is_reports_after_a_rename_and_a_late_id(run, home):
    from serve_support import site_and_client

    run(["new", "scoresheet", "--players", "Ann,Björn", "--title", "Azul"], expect=0)
    sid = json.loads(run(["status", "--json"], expect=0).stdout)["session"]
    run(["add", "Ann=3", "Björn=1"], expect=0)
    run(["finish"], expect=0)
    site, client, links = site_and_client(home, sid, ["Ann", "Björn"])
    client.get(f"/t/{links['table']}")  # drawn once before the changes: nothing stale is kept
    run(["player", "rename", "Björn", "Bjørn"], expect=0)
    run(["played", "Azul", "--players", "Ann=60,Bjørn=55", "--bgg-id", "230802"], expect=0)
    wanted = run(["export", sid, "--format", "bgstats-link"], expect=0).stdout.strip()
    assert "Bj%C3%B8rn" in wanted and "230802" in wanted
    for path in (f"/t/{links['table']}", f"/p/{links['Ann']}", f"/p/{links['Björn']}"):
        assert page_link(client.get(path).text) == wanted, path
