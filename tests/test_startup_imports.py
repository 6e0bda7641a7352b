"""What a `status` imports (issue 27: the same behaviour, a faster start).

Start-up is measured side by side in benchmarks/bench_startup.py, never timed here; these tests
keep out, by module name, what a `status` has no use for: other games, the record, the server,
the entry-point scan, importlib.resources (the packs are read from their folder), wcwidth
(every character a screen draws with is counted without it), and the standard modules a
`status` used to import for one line (string, copy, hashlib, difflib, dataclasses), and json
(a `status` reads its JSON by companion.core.json_read).
"""

from __future__ import annotations

import subprocess
import sys

NOT_FOR_STATUS = (
    "companion.games.trans", "companion.games.transatlantic", "companion.games.atlantic_star",
    "companion.games.scoresheet", "companion.record", "companion.web", "companion.core.dealing",
    "companion.core.datapack", "companion.terminal.shell", "importlib.metadata", "importlib.resources",
    "wcwidth", "string", "copy", "hashlib", "difflib", "dataclasses", "prompt_toolkit", "starlette", "tinydb",
    "json",
)


def imported_by(*args: str) -> list[str]:
    """The modules `companion ARGS` imported, in a fresh interpreter (the data folder is the
    test's own, through COMPANION_HOME), its caches warm: the first run writes the list of
    games found through the entry points (cache/games.json) for this way of starting, the
    second is the one looked at, as every start after the first is."""
    code = ("import sys, runpy; sys.argv = ['companion', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('companion', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print('LOADED', ' '.join(sorted(sys.modules)))")
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True).stdout
    return out.split("LOADED ", 1)[1].split()


def unneeded(loaded: list[str], allowed: tuple[str, ...] = ()) -> list[str]:
    return [m for m in loaded if any(m == n or m.startswith(n + ".") for n in NOT_FOR_STATUS)
            and not any(m == a or m.startswith(a + ".") for a in allowed)]


def test_status_on_a_score_sheet_imports_only_what_it_shows(script):
    rounds = "".join(f"add Ann={r} Bob={2 * r % 7} Cy={r % 3}\n" for r in range(20))
    code, _, err = script("new scoresheet --players Ann,Bob,Cy\n" + rounds)
    assert (code, err) == (0, "")
    loaded = imported_by("status")
    assert "companion.games.scoresheet.views" in loaded  # it did show the sheet
    assert unneeded(loaded, allowed=("companion.games.scoresheet",)) == []


def test_a_transatlantic_screen_is_measured_without_wcwidth(script):
    # TEST values for the ships (the printed cards are unknown); the market line draws "·" and "→"
    code, _, err = script(
        "ship add ARIEL --year 1865 --flag none --kind sail\n"
        "ship add SIRIUS --year 1860 --flag none --kind sail\n"
        "ship add NUBIAN --year 1875 --flag white --price 30\n"
        "ship add GERMANIC --year 1874 --flag white --price 40\n"
        "data set transatlantic market.surcharges '[0, 10, 20, 30, 40, 50]'\n"
        "new transatlantic --players Ann,Bob --start Bob\n"
        "own Bob SIRIUS\nown Ann ARIEL\nreveal NUBIAN GERMANIC\nbuy Ann GERMANIC\n")
    assert (code, err) == (0, "")
    loaded = imported_by("status")
    assert "companion.games.transatlantic.views" in loaded
    assert unneeded(loaded, allowed=("companion.games.transatlantic", "companion.core.datapack")) == []
