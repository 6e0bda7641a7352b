"""`data show/set/unset/check` over a pack laid out like the shipped ones."""

from __future__ import annotations

import json

import pytest

from companion.core import datapack

PACK = {
    "game": "demo",
    "title": "Demo",
    "pack_version": 1,
    "values": {"start_money": 150, "surcharges": None, "vp": None, "names": ["a", "b"]},
    "sources": {"start_money": "rulebook p. 2"},
    "needs": {"surcharges": "prices in the market", "vp": "final scores"},
    "examples": {"surcharges": "[0, 10, 20, 30, 40, 50]", "vp.5": "[1, 2, 3, 4, 5, 6]"},
    "schema": {
        "type": "object",
        "properties": {
            "start_money": {"type": "integer"},
            "surcharges": {"type": ["array", "null"], "items": {"type": "integer", "minimum": 0},
                           "minItems": 6, "maxItems": 6},
            "vp": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {
                str(k): {"type": ["array", "null"], "items": {"type": "integer"}, "minItems": 6, "maxItems": 6}
                for k in range(1, 6)}, "additionalProperties": False}]},
            "names": {"type": "array", "items": {"type": "string"}},
        },
    },
}


@pytest.fixture(autouse=True)
def demo_pack(tmp_path, monkeypatch):
    folder = tmp_path / "packs"
    folder.mkdir()
    (folder / "demo.json").write_text(json.dumps(PACK))
    monkeypatch.setattr(datapack, "_pack_dir", lambda: folder)
    datapack._load.cache_clear()
    yield
    datapack._load.cache_clear()


def test_check_lists_unknowns_with_the_command_to_type(run):
    out = run(["data", "check", "demo"], expect=0).stdout
    assert "demo surcharges: unknown — prices in the market" in out
    assert "companion data set demo surcharges '[0, 10, 20, 30, 40, 50]'" in out
    assert "demo vp.5: unknown — final scores" in out
    assert "companion data set demo vp.5 '[1, 2, 3, 4, 5, 6]'" in out


def test_set_validates_and_show_tells_the_origin(run):
    err = run(["data", "set", "demo", "surcharges", "[1,2,3]"], expect=1).stderr
    assert err.startswith("Error: [1, 2, 3] does not fit surcharges")
    assert "not a JSON value" in run(["data", "set", "demo", "surcharges", "1,2"], expect=1).stderr
    assert "has no printed value 'nosuch'" in run(["data", "set", "demo", "nosuch", "1"], expect=1).stderr
    run(["data", "set", "demo", "surcharges", "[0,5,10,15,20,25]"], expect=0)
    out = run(["data", "show", "demo", "surcharges"], expect=0).stdout
    assert json.loads(out[: out.index("source:")]) == [0, 5, 10, 15, 20, 25]
    assert "source: supplied by you on " in out
    assert "rulebook p. 2" in run(["data", "show", "demo", "start_money"], expect=0).stdout
    table = run(["data", "show", "demo"], expect=0).stdout
    assert "surcharges" in table and "supplied by you" in table and "rulebook p. 2" in table
    assert "surcharges" not in run(["data", "check", "demo"], expect=0).stdout


def test_one_class_at_a_time_inside_an_unknown_value(run):
    run(["data", "set", "demo", "vp.5", "[10, 8, 6, 4, 2, 0]"], expect=0)
    assert "does not fit vp.4" in run(["data", "set", "demo", "vp.4", "[1]"], expect=1).stderr
    out = run(["data", "check", "demo"], expect=0).stdout
    assert "demo vp.1: unknown" in out and "vp.5" not in out
    assert "10," in run(["data", "show", "demo", "vp.5"], expect=0).stdout


def test_unset_forgets_only_your_value(run):
    run(["data", "set", "demo", "start_money", "200"], expect=0)
    run(["data", "unset", "demo", "start_money"], expect=0)
    assert run(["data", "show", "demo", "start_money"], expect=0).stdout.startswith("150")
    assert "no value of your own" in run(["data", "unset", "demo", "start_money"], expect=1).stderr


def test_unknown_game_is_refused_with_the_list(run):
    err = run(["data", "show", "nosuch"], expect=1).stderr
    assert "no printed data for 'nosuch'" in err and "demo" in err


def test_unknowns_and_paths():
    assert list(datapack.unknowns({"a": None, "b": {"c": None, "d": 1}, "e": [1, None]})) == ["a", "b.c", "e"]
    values = {"vp": None}
    datapack.set_path(values, "vp.5", [1])
    assert values == {"vp": {"5": [1]}}
    assert datapack.get_path({"a": [5, 6]}, "a.1") == 6
