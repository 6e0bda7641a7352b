"""Hostile import files are refused whole, in one line, and the data folder is left as it was."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from companion.record import import_limits


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, dict]:
    """A real export: a finished score sheet, one in play, and a dealt Trans Europa session; made
    once for the module (the tests only read it): its data folder and the export."""
    from click.testing import CliRunner

    from companion.terminal.cli import cli
    from shared_install import typed

    lines = ["new scoresheet --players Ann,Bob", "add Ann=3 Bob=1", "finish", "new scoresheet --players Cy,Dee",
             "add Cy=2", "new trans-europa --players Ann,Bob,Cy,Dee --entropy x", "round start"]
    folder = typed(tmp_path_factory.mktemp("exported") / "home", *(line.split() for line in lines))
    result = CliRunner().invoke(cli, ["--data-dir", str(folder), "export"])
    assert result.exit_code == 0, result.output
    return folder, json.loads(result.stdout)


@pytest.fixture
def valid(exported) -> dict:
    """The export, the test's own copy to change."""
    return copy.deepcopy(exported[1])


@pytest.fixture
def target(run, tmp_path) -> Path:
    """Another data folder, already holding a session of its own."""
    folder = tmp_path / "laptop"
    run(["--data-dir", str(folder), "new", "scoresheet", "--players", "Eve,Fay"], expect=0)
    return folder


def folder_bytes(root: Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file() and not p.name.endswith(".lock")}


def refused(run, target: Path, tmp_path: Path, content: str | bytes, message: str) -> None:
    path = tmp_path / "hostile.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    before = folder_bytes(target)
    result = run(["--data-dir", str(target), "import", str(path)], expect=1)
    assert result.stderr.startswith("Error: hostile.json: "), result.stderr
    assert result.stderr.endswith("; nothing was imported.\n"), result.stderr
    assert result.stderr.count("\n") == 1
    assert message in result.stderr, result.stderr
    assert folder_bytes(target) == before


def sheet(doc):  # the finished score sheet
    return doc["sessions"][0]


def dealt(doc):
    return doc["sessions"][2]


MUTATIONS = {
    "wrong format": (lambda d: d.update(format="something-else"), "not a companion export"),
    "newer version": (lambda d: d.update(version=99), "written by a newer companion"),
    "version of the wrong type": (lambda d: d.update(version="1"), "no valid format version"),
    "unknown top key": (lambda d: d.update(extra=1), "keys this companion does not know (extra)"),
    "sessions not a list": (lambda d: d.update(sessions={"a": 1}), "the sessions must be a list"),
    "session not an object": (lambda d: d["sessions"].append("x"), "session 4 must be an object"),
    "session without journal": (lambda d: sheet(d).pop("journal"), "exactly the keys journal and meta"),
    "meta missing key": (lambda d: sheet(d)["meta"].pop("created"), "lacks created"),
    "meta unknown key": (lambda d: sheet(d)["meta"].update(owner="me"), "does not know (owner)"),
    "id like a path": (lambda d: sheet(d)["meta"].update(id="../../x1"), "an id is 8 letters a-z or digits"),
    "id with a slash": (lambda d: sheet(d)["meta"].update(id="ab/cdefg"), "an id is 8 letters"),
    "id in capitals": (lambda d: sheet(d)["meta"].update(id="ABCDEFGH"), "an id is 8 letters"),
    "id too long": (lambda d: sheet(d)["meta"].update(id="abcdefghi"), "an id is 8 letters"),
    "id not a text": (lambda d: sheet(d)["meta"].update(id=12345678), "an id is 8 letters"),
    "duplicate ids": (lambda d: d["sessions"].append(copy.deepcopy(sheet(d))), "appears twice"),
    "unknown game": (lambda d: sheet(d)["meta"].update(game="chess"), "a game this companion does not know"),
    "players not a list": (lambda d: sheet(d)["meta"].update(players="Ann,Bob"), "players must be a list"),
    "player not a name": (lambda d: sheet(d)["meta"].update(players=["Ann", 7]), "players must be names"),
    "player name too long": (lambda d: sheet(d)["meta"].update(players=["Ann", "B" * 500]), "longer than 20"),
    "player twice": (lambda d: sheet(d)["meta"].update(players=["Ann", "ann"]), "given twice"),
    "too many players": (lambda d: sheet(d)["meta"].update(players=[f"P{i}" for i in range(40)]), "takes 1 to 6"),
    "options not an object": (lambda d: sheet(d)["meta"].update(options=[]), "options must be an object"),
    "created not a date": (lambda d: sheet(d)["meta"].update(created="yesterday"), "start is not a date"),
    "seed does not match": (lambda d: dealt(d)["meta"].update(seed="0" * 64), "does not match its commitment"),
    "seed missing": (lambda d: dealt(d)["meta"].pop("seed"), "deals cards but has no seed"),
    "journal not a list": (lambda d: sheet(d).update(journal={}), "journal must be a list"),
    "journal kind unknown": (lambda d: sheet(d)["journal"][0].update(kind="boom"), "not do, undo, redo or reveal"),
    "journal extra key": (lambda d: sheet(d)["journal"][0].update(x=1), "exactly the keys at, event, kind"),
    "journal time": (lambda d: sheet(d)["journal"][0].update(at=5), "time must be a text"),
    "event without type": (lambda d: sheet(d)["journal"][0]["event"].pop("type"), "event has no type"),
    "event of a wrong shape": (lambda d: sheet(d)["journal"][0]["event"].update(scores=[1, 2]),
                               "journal entry 1 (add) holds an event whose fields the rules of scoresheet cannot read"),
    "event the rules refuse": (lambda d: sheet(d)["journal"][0]["event"].update(scores={"Zed": 1}),
                               "cannot be replayed by this companion"),
    "score not a number": (lambda d: sheet(d)["journal"][0]["event"].update(scores={"Ann": "12"}),
                           "cannot be replayed"),
    "enormous text": (lambda d: sheet(d)["meta"]["options"].update(note="x" * 200_000), "is a text of 200,000 characters (at most 100,000)"),
    "enormous number": (lambda d: sheet(d)["meta"]["options"].update(n=10**30), "beyond what any game counts"),
    "deep nesting": (lambda d: sheet(d)["meta"]["options"].update(n=json.loads("[" * 100 + "]" * 100)),
                     "nested more than 64 levels"),
    "aliases not an object": (lambda d: d.update(aliases=["x"]), "the aliases must be an object"),
    "alias to a bad name": (lambda d: d.update(aliases={"ann": "A,B"}), "may not contain commas"),
    "alias that seats one player twice": (lambda d: d.update(aliases={"bob": "Ann"}), "one player"),
}


@pytest.mark.parametrize("case", list(MUTATIONS))
def test_a_hostile_file_is_refused_whole(run, valid, target, tmp_path, case):
    mutate, message = MUTATIONS[case]
    doc = valid
    mutate(doc)
    refused(run, target, tmp_path, json.dumps(doc), message)


@pytest.mark.parametrize("content, message", [
    ("", "not valid JSON"),
    ("not json at all", "not valid JSON (line 1"),
    ("[1, 2, 3]", "not a companion export"),
    (b"\xff\xfe\x00garbage", "not UTF-8 text"),
    ('{"format": "tabletop-companion", "version": 1, "version": 1, "sessions": []}', "appears twice in one object"),
    ('{"format": "tabletop-companion", "version": 1, "sessions": [NaN]}', "NaN is not a number JSON allows"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_files_that_are_not_exports_are_refused(run, target, tmp_path, content, message):
    refused(run, target, tmp_path, content, message)


def test_a_file_over_the_size_limit_is_refused_before_reading(run, valid, target, tmp_path, monkeypatch):
    monkeypatch.setattr(import_limits, "MAX_FILE_BYTES", 1000)
    refused(run, target, tmp_path, json.dumps(valid), "larger than 1000 bytes")


def test_one_bad_session_keeps_the_good_ones_out_too(run, valid, target, tmp_path):
    doc = copy.deepcopy(valid)
    doc["sessions"][-1]["journal"][0]["event"]["type"] = "teleport"
    refused(run, target, tmp_path, json.dumps(doc), "teleport")


def test_the_valid_file_itself_imports(run, valid, target, tmp_path):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(valid))
    out = run(["--data-dir", str(target), "import", str(path)], expect=0).stdout
    assert "Imported 3 sessions from ok.json." in out


def test_an_export_with_a_secret_seed_says_so(run, exported, home):
    import shutil

    shutil.copytree(exported[0], home)  # the data folder the export was made of
    result = run(["export"], expect=0)
    assert "still in play: the file holds their secret deal seeds" in result.stderr
