"""The shape of the house: no import circles, and each part imports only what it may.

Every module under companion/ is parsed with ``ast`` (nothing is imported), counting imports
inside functions too, since a circle through a lazy import is still a circle: it only fails
later, at the worst moment. A failure names both files.
"""

from __future__ import annotations

import ast
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


GRAPH = {m: imports_of(m) for m in MODULES}


def where(a: str, b: str) -> str:
    return f"{MODULES[a].relative_to(ROOT)}:{GRAPH[a][b]} imports {MODULES[b].relative_to(ROOT)}"


def test_there_are_modules_to_check():
    assert "companion.core.session" in MODULES and "companion.terminal.cli" in MODULES
    assert GRAPH["companion.terminal.cli"], "the parser found no imports at all"


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
        for w in GRAPH[v]:
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

    for v in GRAPH:
        if v not in index:
            visit(v)
    messages = []
    for component in circles:
        members = set(component)
        edges = [where(a, b) for a in sorted(component) for b in GRAPH[a] if b in members]
        messages.append("circle: " + "; ".join(edges))
    assert not messages, "\n".join(messages)


# The contract: what a game is (api), its declarations (declare), its screens as data (view),
# and the Click pieces its hand-written commands share (kit).
CONTRACT = {"api", "declare", "view", "kit"}


def part(module: str) -> str:
    bits = module.split(".")
    if len(bits) >= 3 and bits[1] == "games" and bits[2] not in CONTRACT:
        return "game:" + bits[2]
    return ".".join(bits[:2]) if len(bits) > 1 else module


# What each part may import (besides itself). A game may also use its own package. The core
# may read the contract (games/api.py: Setup, State), which names no game. A game never imports
# the terminal: it builds views (games/view.py), and the terminal's renderer draws them, so no
# game writes a terminal code or wraps a line itself.
ALLOWED = {
    "companion.core": {"companion.core", "companion.games.api", "companion"},
    "companion.games": {"companion.core", "companion.games", "companion.terminal.render", "companion"},
    "game": {"companion.core", "companion.games.api", "companion.games.declare", "companion.games.view",
             "companion.games.kit", "companion"},
    "companion.record": {"companion.core", "companion.record", "companion.games.kit", "companion.games.api",
                         "companion.games.view", "companion.terminal.render", "companion"},
}


def allowed(source: str, target: str) -> bool:
    src, dst = part(source), part(target)
    if src == dst:
        return True
    rule = ALLOWED.get("game" if src.startswith("game:") else src)
    if rule is None:  # the terminal and the package root may import anything (but no circle)
        return not dst.startswith("game:")
    inside = any(target == r or (r != "companion" and target.startswith(r + ".")) for r in rule)
    return inside and not dst.startswith("game:")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_stay_in_their_part(module):
    """The core imports neither a game nor the terminal; a game imports the core and the
    contract, never another game, cli.py or shell.py; nothing but a game names a game."""
    bad = [where(module, target) for target in GRAPH[module] if not allowed(module, target)]
    assert not bad, "forbidden import: " + "; ".join(bad)


def test_version_imports_no_game():
    import subprocess
    import sys

    code = ("import sys, runpy; sys.argv = ['companion', '--version']\n"
            "try:\n    runpy.run_module('companion', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "bad = sorted(m for m in sys.modules if m.startswith('companion.games') or m in "
            "('tinydb', 'prompt_toolkit', 'rich', 'importlib.metadata'))\nprint('LOADED', bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "LOADED []" in out, out
