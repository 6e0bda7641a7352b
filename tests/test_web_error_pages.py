"""Error pages on the phones name the session, never where the data folder is (issue 22, S5).

Before: with the session file damaged, every page said "/home/ann/.local/share/companion/
sessions/ID.json is not valid JSON (line 2): restore it ...": the laptop's user name on every
phone."""

from __future__ import annotations

import re
from pathlib import Path

from serve_support import PLAYERS, new_trans, site_and_client


def damage(home, sid) -> None:
    (home / "sessions" / f"{sid}.json").write_text('{"_default": {"1": \n', encoding="utf-8")


def paths_in(text: str, home) -> list[str]:
    return [p for p in (str(home), str(home.resolve()), "/sessions/", ".json", str(home.parent)) if p in text]


def test_a_damaged_session_file_is_named_as_the_session_on_every_page(run, home):
    sid = new_trans(run, special="pass-three")
    site, client, links = site_and_client(home, sid)
    form = re.search(r'name="form" value="([^"]+)"', client.get(f"/p/{links['Ann']}").text).group(1)
    damage(home, sid)
    for path in [f"/t/{links['table']}"] + [f"/p/{links[p]}" for p in PLAYERS]:
        page = client.get(path)
        assert page.status_code == 200
        assert f"Session {sid} cannot be read just now" in page.text, path
        assert not paths_in(page.text, home), (path, paths_in(page.text, home))
    refused = client.post(f"/p/{links['Ann']}/choose", data={"form": form, "choice": "Berlin"})
    assert refused.status_code >= 400 and not paths_in(refused.text, home)
    assert not paths_in(client.get(f"/p/{links['Ann']}/v").text, home)


def test_any_message_naming_a_file_of_the_folder_is_cut_to_what_is_inside(run, home):
    sid = new_trans(run)
    site, _client, _links = site_and_client(home, sid)
    said = site._scrub(f"<p>Could not write {home}/sessions/{sid}.json: no space; see {home}/errors.log</p>")
    assert str(home) not in said
    assert f"session {sid}'s file" in said and "the data folder/errors.log" in said


def test_a_data_folder_given_as_a_relative_name_leaves_the_page_as_it_is(run, home, monkeypatch):
    """`serve --data-dir d` or `.`: the folder named as given was scrubbed letter by letter (every d
    of the page, its style sheet too, became "the data folder"); the folder's whole path still is."""
    sid = new_trans(run)
    monkeypatch.chdir(home)  # `serve --data-dir .`: every full stop of the page was the folder
    site, _client, _links = site_and_client(Path("."), sid)
    page = f"<p>Round 1 · {home.name} and the board.</p>"
    assert site._scrub(page) == page
    said = site._scrub(f"<p>see {home}/errors.log</p>")
    assert str(home) not in said and "the data folder/errors.log" in said
