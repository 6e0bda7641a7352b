"""The shape of the house: no import circles, and each part imports only what it may.

Every module under companion/ is parsed with ``ast`` (nothing is imported), counting imports
inside functions too, since a circle through a lazy import is still a circle: it only fails
later, at the worst moment. A failure names both files.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def resolve(name: str) -> str | None:
    """The companion module an import names (``companion.games.trans`` -> its __init__)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str) -> dict[str, int]:
    """Companion modules imported by ``module`` anywhere in it -> the first line doing so."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    # imports only type checkers run make no circle at run time
    typing_only = {id(sub) for node in ast.walk(tree) if isinstance(node, ast.If) and _is_type_checking(node.test)
                   for sub in ast.walk(node)}
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # `from companion.core import session` imports companion.core.session
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        for name in names:
            target = resolve(name) if name.startswith("companion") else None
            if target and target != module:
                found.setdefault(target, node.lineno)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


@functools.cache
def graph() -> dict[str, dict[str, int]]:
    """Every module's companion imports, parsed when a test first asks (issue 29, item 7: at
    import, every xdist worker parsed the 130 modules while collecting, whichever tests it ran)."""
    return {m: imports_of(m) for m in MODULES}


def where(a: str, b: str) -> str:
    return f"{MODULES[a].relative_to(ROOT)}:{graph()[a][b]} imports {MODULES[b].relative_to(ROOT)}"


def test_there_are_modules_to_check():
    assert "companion.core.session" in MODULES and "companion.terminal.cli" in MODULES
    assert graph()["companion.terminal.cli"], "the parser found no imports at all"


def test_no_import_circles():
    """Tarjan's strongly connected components: any component of two or more is a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph()[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(component)

    for v in graph():
        if v not in index:
            visit(v)
    messages = []
    for component in circles:
        members = set(component)
        edges = [where(a, b) for a in sorted(component) for b in graph()[a] if b in members]
        messages.append("circle: " + "; ".join(edges))
    assert not messages, "\n".join(messages)


# Inside companion/games/, what is not a game: the Click pieces hand-written commands share
# (kit) and the old names of the contract's modules, kept for plugins written before issue 27.
GAMES_SHARED = {"api", "declare", "view", "kit"}
# The old names of modules that moved to the contract (the bottom floor) in issue 27: each is
# the very same module under its new name, and nothing inside the house imports the old one.
MOVED = {"companion.games.api": "companion.contract.api", "companion.games.declare": "companion.contract.declare",
         "companion.games.view": "companion.contract.view", "companion.core.errors": "companion.contract.errors",
         "companion.core.text": "companion.contract.text", "companion.core.numbers": "companion.contract.numbers"}


def part(module: str) -> str:
    bits = module.split(".")
    if len(bits) >= 3 and bits[1] == "games" and bits[2] not in GAMES_SHARED:
        return "game:" + bits[2]
    return ".".join(bits[:2]) if len(bits) > 1 else module


# What each part may import (besides itself), floor by floor. The contract (what a game is, its
# declarations, its screens as data, the refusals meant for people) is the bottom floor and
# imports nothing else of the house. The core builds on it and knows no game and no surface. A
# game uses the contract, the core and the Click pieces in games/kit.py; it never imports another
# game, the terminal or the web: it builds views, and each surface draws them. The record (the
# group's history) is a library under the surfaces: the terminal's history commands and the
# phones' pages read it, it draws no screen itself.
ALLOWED = {
    "companion.contract": {"companion"},
    "companion.core": {"companion.contract", "companion"},
    "companion.games": {"companion.contract", "companion.core", "companion"},
    "game": {"companion.contract", "companion.core", "companion.games.kit", "companion"},
    "companion.record": {"companion.contract", "companion.core", "companion.record", "companion"},
}


def allowed(source: str, target: str) -> bool:
    src, dst = part(source), part(target)
    if src == dst:
        return True
    rule = ALLOWED.get("game" if src.startswith("game:") else src)
    if rule is None:  # the terminal and the package root may import anything (but no circle)
        return not dst.startswith("game:")
    inside = any(target == r or (r != "companion" and target.startswith(r + ".")) for r in rule)
    if target == "companion" and src != "companion":  # the package root holds only the version
        inside = True
    return inside and not dst.startswith("game:")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_stay_in_their_part(module):
    """The core imports neither a game nor the terminal; a game imports the core and the
    contract, never another game, cli.py or shell.py; nothing but a game names a game."""
    bad = [where(module, target) for target in graph()[module] if not allowed(module, target)]
    assert not bad, "forbidden import: " + "; ".join(bad)


def test_contract_is_the_bottom_floor():
    """Issue 27: the contract imports no other floor, and the core imports no game."""
    for module, targets in graph().items():
        if module.startswith("companion.contract"):
            assert all(t.startswith("companion.contract") or t == "companion" for t in targets), module
        if module.startswith("companion.core"):
            assert not any(t.startswith("companion.games") for t in targets if t not in MOVED), module


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m not in MOVED))
def test_the_house_uses_the_contract_by_its_new_names(module):
    old = [where(module, t) for t in graph()[module] if t in MOVED]
    assert not old, "imports a moved module by its old name: " + "; ".join(old)


@pytest.mark.parametrize("old, new", sorted(MOVED.items()))
def test_old_names_are_the_same_modules(old, new):
    """A plugin written before issue 27 imports companion.games.api and friends: the very same
    module, so its classes are the contract's own (isinstance and issubclass hold)."""
    import importlib

    assert importlib.import_module(old) is importlib.import_module(new)


def test_version_imports_no_game():
    import subprocess
    import sys

    code = ("import sys, runpy; sys.argv = ['companion', '--version']\n"
            "try:\n    runpy.run_module('companion', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "bad = sorted(m for m in sys.modules if m.startswith('companion.games') or m in "
            "('tinydb', 'prompt_toolkit', 'rich', 'importlib.metadata'))\nprint('LOADED', bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "LOADED []" in out, out
