"""`data set` checks the merged values against the pack's schema, leaving out the parts found
valid before under the same schema (issue 29): every refusal reads as it did when the whole
values were checked, a part given another value is checked again, and only so many are kept.
"""

from __future__ import annotations

import pytest
from kept_support import emptied

from companion.contract.errors import CompanionError
from companion.core import datapack

DASHED = ["Glasgow", "Oslo", "Dublin", "Brest", "Paris", "Wien", "Kyiv", "Riga", "Roma", "Sofia"]
BAD = [
    ("trans-europa", "dashed", 5),
    ("trans-europa", "colours", ["red"]),
    ("trans-europa", "double_kinds", "water"),
    ("trans-europa", "board.rows", ["oxo"]),
    ("trans-europa", "cities.0.xy", [1]),
    ("trans-amerika", "dashed", [1, 2]),
    ("atlantic-star", "vp", "many"),
]


@pytest.fixture
def nothing_kept():
    with emptied(datapack._valid):
        yield


def refusal(game, key, value, user_values=None):
    with pytest.raises(CompanionError) as refused:
        datapack.validate(game, key, value, user_values or {})
    return str(refused.value)


def test_every_refusal_reads_as_when_the_whole_values_were_checked(nothing_kept):
    whole = {}
    for game, key, value in BAD:
        datapack._valid.clear()
        whole[game, key] = refusal(game, key, value)
    # the parts known valid now: every game checked once with a good value
    datapack.validate("trans-europa", "dashed", DASHED, {})
    datapack.validate("trans-amerika", "double_kinds", None, {})
    datapack.validate("atlantic-star", "vp", None, {})
    assert datapack._valid
    for game, key, value in BAD:
        assert refusal(game, key, value) == whole[game, key], key


def test_a_part_given_another_value_is_checked_again(nothing_kept):
    datapack.validate("trans-europa", "dashed", DASHED, {})
    kept = len(datapack._valid)
    assert "does not fit dashed" in refusal("trans-europa", "dashed", DASHED[:-1] + [7])
    # the players' own values already set are checked with the one typed
    said = refusal("trans-europa", "dashed", DASHED, {"colours": ["red"]})
    assert "does not fit colours" in said
    datapack.validate("trans-europa", "dashed", DASHED, {})
    assert len(datapack._valid) == kept, "a refused value is never kept as valid"


def test_a_schema_with_references_is_checked_whole(nothing_kept):
    schema = {"type": "object", "$defs": {"n": {"type": "integer"}},
              "properties": {"a": {"$ref": "#/$defs/n"}, "b": {"type": "string"}}}
    datapack._known_valid(schema, {"a": 1, "b": "x"}, schema)
    assert not datapack._valid
    assert datapack._still_to_check(schema, {"a": 1, "b": "x"}) is schema
    plain = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}
    datapack._known_valid(plain, {"a": 1, "b": "x"}, plain)
    assert datapack._still_to_check(plain, {"a": 1, "b": "y"})["properties"] == {"b": {"type": "string"}}
    assert datapack._still_to_check(plain, {"a": True, "b": "x"})["properties"] == {"a": {"type": "integer"}}


def test_only_so_many_parts_are_kept(nothing_kept):
    plain = {"type": "object", "properties": {"a": {"type": "integer"}}}
    for n in range(datapack._VALID_KEPT + 10):
        datapack._known_valid(plain, {"a": n}, plain)
    assert len(datapack._valid) == datapack._VALID_KEPT
    assert datapack._still_to_check(plain, {"a": 0}) is plain, "the oldest is forgotten"
    assert datapack._still_to_check(plain, {"a": datapack._VALID_KEPT + 9})["properties"] == {}


def test_a_value_json_would_not_tell_apart_is_always_checked(nothing_kept):
    plain = {"type": "object", "properties": {"a": {"type": "array"}}}
    datapack._known_valid(plain, {"a": [1, 2]}, plain)
    assert datapack._still_to_check(plain, {"a": [1, 2]})["properties"] == {}
    # a tuple is written as the same list, but it is not an array to the schema
    assert datapack._still_to_check(plain, {"a": (1, 2)}) is plain
    datapack._known_valid(plain, {"a": {"k": (1,)}}, plain)
    assert datapack._still_to_check(plain, {"a": {"k": (1,)}}) is plain
