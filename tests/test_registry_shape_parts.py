"""The parts of the load check on their own: the arity read off a function, and the typo
detector's shortcut, which must give the answers the full edit distance gives."""

from __future__ import annotations

import functools
import random
import string

import pytest

from companion.contract.api import MOVES_PARTS, RENAMED, RULES, VIEWS_PARTS
from companion.core import registry
from companion.core.shape import arity, takes
from long_mode import scaled


def full_distance(a: str, b: str) -> int:
    """Damerau-Levenshtein (optimal string alignment) by its definition, recursively: the
    reference the registry's table must agree with."""

    @functools.lru_cache(maxsize=None)
    def d(i: int, j: int) -> int:
        if not i or not j:
            return i or j
        best = min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] != b[j - 1]))
        if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
            best = min(best, d(i - 2, j - 2) + 1)
        return best

    return d(len(a), len(b))


def full_closest(name: str, candidates: list[str], cutoff: float) -> str | None:
    best, found = cutoff, None
    for c in candidates:
        longest = max(len(name), len(c))
        if abs(len(name) - len(c)) > longest * (1 - cutoff):
            continue
        score = 1 - full_distance(name.lower(), c.lower()) / longest
        if score >= best and name != c:
            best, found = score, c
    return found


def typos(word: str, rng: random.Random, count: int) -> list[str]:
    out = []
    for _ in range(count):
        w = list(word)
        for _ in range(rng.randint(0, 4)):
            i = rng.randrange(len(w))
            op = rng.randint(0, 3)
            if op == 0:
                w[i] = rng.choice(string.ascii_letters + "_")
            elif op == 1 and len(w) > 1:
                del w[i]
            elif op == 2:
                w.insert(i, rng.choice(string.ascii_lowercase))
            elif i + 1 < len(w):
                w[i], w[i + 1] = w[i + 1], w[i]
        out.append("".join(w))
    return out


PARTS = [*MOVES_PARTS, *VIEWS_PARTS, *RENAMED]
RULE_NAMES = [r for r in RULES if not r.startswith("on_")]


def test_the_typo_detector_answers_as_the_full_distance_does():
    # 10 typos of every name by default (370 names), 40 in the long run (1,480): the reference
    # below is the slow recursive definition, and the typos' kinds are all met with 10.
    rng = random.Random(27)
    names = [n for word in [*PARTS, *RULE_NAMES] for n in typos(word, rng, scaled(10, 40))]
    names += ["status_json", "board", "next", "SETUP_moves", "render", "MAP", "views", "command_names"]
    for name in names:
        assert registry.closest(name, PARTS, 0.75) == full_closest(name, PARTS, 0.75), name
        assert registry.closest(name, RULE_NAMES, 0.8) == full_closest(name, RULE_NAMES, 0.8), name


def test_the_distance_is_the_full_one_without_a_limit():
    rng = random.Random(11)
    words = [n for word in PARTS for n in typos(word, rng, 5)]
    for _ in range(scaled(500, 2000)):
        a, b = rng.choice(words), rng.choice(words)
        assert registry._distance(a, b) == full_distance(a, b)


@pytest.mark.parametrize("name, meant", [("render_stauts", "render_status"), ("COMMAND", "COMMANDS"),
                                         ("stauts_view", "status_view"), ("MOVE", "MOVES")])
def test_known_typos(name, meant):
    assert registry.closest(name, PARTS, 0.75) == meant


class Host:
    def method(self, at, player):
        return True

    @staticmethod
    def static(at):
        return True


def _kwonly(at, *, strict):
    return at


def _kwonly_default(at, *, strict=False):
    return at


def _varargs(*args):
    return args


@pytest.mark.parametrize("fn, fewest, most", [
    (lambda at, player: True, 2, 2),
    (lambda at, player=None: True, 1, 2),
    (Host().method, 2, 2),
    (Host.static, 1, 1),
    (_varargs, 0, float("inf")),
    (_kwonly_default, 1, 1),
    (_kwonly, float("inf"), 0),  # a keyword-only parameter without a default: no positional call fits
])
def test_the_arity_read_off_a_function(fn, fewest, most):
    assert arity(fn) == (fewest, most)


def test_a_callable_whose_arity_cannot_be_read_is_trusted():
    assert arity(functools.partial(lambda a, b: a, 1)) is None
    assert takes(functools.partial(lambda a, b: a, 1), 2)
    assert takes(type("Check", (), {"__call__": lambda self, at: True})(), 2)
    assert not takes(lambda at: True, 2)
