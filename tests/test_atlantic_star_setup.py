"""Atlantic Star set-up: the data pack, start money, plaques and the package cruise operators."""

from __future__ import annotations

import jsonschema
import pytest

from companion.core import datapack
from companion.contract.errors import CompanionError

from atlantic_star_support import Table

PACK = datapack.pack("atlantic-star")


def test_pack_values_fit_their_schema():
    jsonschema.Draft202012Validator.check_schema(PACK["schema"])
    jsonschema.Draft202012Validator(PACK["schema"]).validate(PACK["values"])


def test_pack_seas_legs_and_prices():
    v = PACK["values"]
    assert {sea: info["legs"] for sea, info in v["seas"].items()} == {
        "baltic": 3, "mediterranean": 4, "atlantic": 5, "pacific": 6,
    }
    assert v["agency_prices"] == [3000, 2000, 1000, 0]
    assert v["refresh_cost"] == 2000
    assert v["loan"] == {"max": 10000, "per_point": 1000, "unit": 1000}


def test_victory_points_are_unknown_and_named_by_data_check():
    assert PACK["values"]["vp"] is None
    assert datapack.missing("atlantic-star", PACK["values"]) == ["vp.1", "vp.2", "vp.3", "vp.4", "vp.5"]
    assert "victory points of the 5-star class" in datapack.need_text("atlantic-star", "vp.5")


def test_probable_rows_are_only_a_suggestion():
    # offered to confirm, never the value
    assert PACK["suggestions"]["vp.1"]["value"] == [14, 12, 10, 8, 6, 4]
    assert PACK["suggestions"]["vp.2"]["value"] == [18, 14, 10, 7, 4, 2]
    assert "14, 12, 10, 8, 6, 4" in datapack.need_text("atlantic-star", "vp.1")
    assert datapack.merged("atlantic-star", {})["vp"] is None


def test_one_class_at_a_time_can_be_supplied():
    datapack.validate("atlantic-star", "vp.5", [20, 15, 10, 6, 2, 0], {})
    merged = datapack.merged("atlantic-star", {"vp.5": [20, 15, 10, 6, 2, 0]})
    assert merged["vp"] == {"5": [20, 15, 10, 6, 2, 0]}


@pytest.mark.parametrize("key, bad", [
    ("vp.5", [20, 15, 10]),               # too few places
    ("vp.5", [20, 15, 10, 6, 2, 0, 0]),   # too many
    ("vp.5", [20, 15, 10, 6, 2, "x"]),    # not a number
    ("vp.6", [20, 15, 10, 6, 2, 0]),      # there are 5 classes
])
def test_wrong_victory_point_rows_are_refused(key, bad):
    with pytest.raises(CompanionError):
        datapack.validate("atlantic-star", key, bad, {})


@pytest.mark.parametrize("n, money, plaques", [
    (2, 36000, 8), (3, 36000, 8), (4, 18000, 4), (5, 18000, 4), (6, 18000, 4),
])
def test_start_money_and_plaques_by_player_count(n, money, plaques):
    names = [f"P{i}" for i in range(n)]
    s = Table(*names).summary
    assert [p["money"] for p in s["players"]] == [money] * n
    assert [p["plaques_left"] for p in s["players"]] == [plaques] * n
    assert [p["hand"] for p in s["players"]] == [0] * n
    assert s["turn"] == "P0" and s["round"] == 1 and not s["finished"]


OPERATORS = {
    2: [[13, 18, 23, 28], [17, 22, 27, 32]],
    3: [],
    4: [[13, 18, 23, 28], [17, 22, 27, 32]],
    5: [[15, 20, 25, 30]],
    6: [],
}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_operator_values_and_counts(n):
    seas = ["baltic", "mediterranean", "atlantic", "pacific"]
    t = Table(*[f"P{i}" for i in range(n)])
    assert [[ops[sea] for sea in seas] for ops in t.state["operators"]] == OPERATORS[n]
    # every sea ends with exactly 6 plaques: the players' plus the operators'
    per_sea = t.state["plaques"]["P0"]["baltic"]
    assert n * per_sea + len(OPERATORS[n]) == 6


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_operators_enter_with_the_first_voyage_of_a_sea(n):
    t = Table(*[f"P{i}" for i in range(n)]).fill_hands(3)
    assert t.ranking("baltic") == []
    t.voyage("P0", "baltic", value=14, cls=3)
    ops = sorted((o["baltic"] for o in t.state["operators"]), reverse=True)
    assert [v for who, v in t.ranking("baltic") if who == "operator"] == ops
    assert len(t.ranking("baltic")) == 1 + len(OPERATORS[n])
    # and only once: a second voyage there brings no more operators
    t.voyage("P1", "baltic", value=9)
    assert len(t.ranking("baltic")) == 2 + len(OPERATORS[n])


def test_agency_names_may_be_given_at_the_start():
    t = Table("Ann", "Bob", options={"agency": ["Rhea", "Oceana", None, "Titan"]})
    assert [(a["price"], a["card"]) for a in t.summary["agency"]] == [
        (3000, "Rhea"), (2000, "Oceana"), (1000, None), (0, "Titan"),
    ]
