"""What the dependencies cost a user: the installed size of the companion's dependency closure,
distribution by distribution, and the start-up of a coloured screen side by side with another
installation (issue 29: rich, with Pygments and markdown-it-py, was kept for one call that made
the colour codes; the codes are now written by `terminal/render.sgr`).

    python benchmarks/bench_dependencies.py                      # this environment's sizes
    python benchmarks/bench_dependencies.py --other OTHER/bin/companion [--runs 21]
    python benchmarks/bench_dependencies.py --widths     # wcwidth's import, 10,000 names' widths

With ``--other`` (e.g. a venv with the release before, `pip install .` of an older checkout),
`companion board` on a Trans Europa session with colour forced (FORCE_COLOR=1: the first
colour code is made, where rich was imported) and `companion --version` are timed for this
installation's `companion` and the other, interleaved, medians; a bare Click app is the anchor.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from bench_startup import BARE, interleaved


def closure(name: str) -> list[metadata.Distribution]:
    """The distribution ``name`` and every one it requires (extras left out), once each."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [name]
    while todo:
        wanted = todo.pop()
        try:
            dist = metadata.distribution(wanted)
        except metadata.PackageNotFoundError:
            continue
        key = re.sub(r"[-_.]+", "-", dist.metadata["Name"]).lower()
        if key in seen:
            continue
        seen[key] = dist
        for req in dist.requires or []:
            if "extra ==" in req:
                continue
            todo.append(re.split(r"[ ;<>=!~\[(]", req, maxsplit=1)[0])
    return list(seen.values())


def size(dist: metadata.Distribution) -> int:
    total = 0
    for f in dist.files or []:
        path = Path(dist.locate_file(f))
        if path.is_file():
            total += path.stat().st_size
    return total


def sizes() -> None:
    rows = sorted(((size(d), d.metadata["Name"], d.version) for d in closure("tabletop-companion")), reverse=True)
    total = sum(s for s, _, _ in rows)
    for s, name, version in rows:
        print(f"{name:<28} {version:<10} {s / 1e6:6.1f} MB")
    print(f"{'all ' + str(len(rows)) + ' distributions':<39} {total / 1e6:6.1f} MB")


def startup(other: str, runs: int) -> None:
    mine = shutil.which("companion") or sys.exit("install the project first (pip install .)")
    with tempfile.TemporaryDirectory() as tmp:
        bare = Path(tmp) / "bare.py"
        bare.write_text(BARE)
        env = dict(os.environ, COMPANION_HOME=str(Path(tmp) / "home"), FORCE_COLOR="1", COLUMNS="120")
        env.pop("NO_COLOR", None)
        subprocess.run([mine, "new", "trans-europa", "--players", "Ann,Bob,Cy"], check=True, capture_output=True,
                       env=env)
        for companion in (mine, other):
            out = subprocess.run([companion, "board"], check=True, capture_output=True, text=True, env=env).stdout
            assert "\x1b[" in out, f"{companion} board drew no colour"
        result = interleaved({
            "bare Click app": [sys.executable, str(bare)],
            "this: companion --version": [mine, "--version"],
            "other: companion --version": [other, "--version"],
            "this: companion board (colour)": [mine, "board"],
            "other: companion board (colour)": [other, "board"],
        }, runs, env)
    base = result["bare Click app"]
    for name, seconds in result.items():
        print(f"{name:<34} median {seconds * 1000:6.1f} ms   {seconds / base:4.2f}x")
    print(f"board: this / other = {result['this: companion board (colour)'] / result['other: companion board (colour)']:.2f}")


def per_code_point(text: str) -> int:
    """The width as counted before issue 29 (East Asian width per code point): the anchor."""
    import unicodedata

    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def widths(runs: int) -> None:
    """Import of wcwidth in a fresh process (median of ``runs``), and 10,000 distinct
    10-letter names measured by `render._width` beside the count per code point."""
    import random
    import statistics
    import time

    from companion.terminal.render import _width

    took = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import wcwidth"], check=True)
        took.append(time.perf_counter() - start)
    floor = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        floor.append(time.perf_counter() - start)
    print(f"{'import wcwidth (fresh process)':<52} median {statistics.median(took) * 1000:6.1f} ms "
          f"(python -c pass {statistics.median(floor) * 1000:.1f} ms)")
    rnd = random.Random(29)
    for label, letters in (("Devanagari", [chr(c) for c in range(0x905, 0x94d)]),
                           ("Latin with accents", [chr(c) for c in range(0xc0, 0x17f)])):
        names = ["".join(rnd.choice(letters) for _ in range(10)) + str(i) for i in range(10_000)]
        for name, fn in (("render._width", _width), ("per code point", per_code_point)):
            times = []
            for _ in range(5):
                start = time.perf_counter()
                for n in names:
                    fn(n)
                times.append(time.perf_counter() - start)
            what = f"10,000 {label} names, {name}"
            print(f"{what:<52} median {statistics.median(times) * 1000:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--other", help="another installation's `companion` to time beside this one")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--widths", action="store_true", help="also time wcwidth's import and the name widths")
    args = parser.parse_args()
    sizes()
    if args.widths:
        print()
        widths(args.runs)
    if args.other:
        print()
        startup(args.other, args.runs)


if __name__ == "__main__":
    main()
