"""A page drawn in German beside the same page in English (issue 28: "a page in German renders
as fast as in English").

A Trans Amerika round with six players in mid-play (the largest page: the board, the forms, the
scores), a score sheet of 20 rounds; each page (the table's and a player's) is drawn whole, the
kept pages bypassed, English and German in turn so that both see the same machine, and the
medians compared. The catalogue's first load (its .po parts read, or its compiled .mo) is
measured apart: it happens once per server.

    python benchmarks/bench_page_language.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path


def prepare(home: Path) -> dict[str, str]:
    os.environ["COMPANION_HOME"] = str(home)
    from click.testing import CliRunner

    from companion.terminal.cli import cli

    runner = CliRunner()

    def run(*args: str) -> str:
        return runner.invoke(cli, list(args)).output

    run("new", "trans-amerika", "--players", "Ann,Bob,Cy,Dee,Eve,Flo", "--entropy", "x")
    run("round", "start")
    for p, n in (("Ann", "Boston"), ("Bob", "Seattle"), ("Cy", "Jacksonville"),
                 ("Dee", "San Diego"), ("Eve", "Duluth"), ("Flo", "New York")):
        run("start", p, n)
    run("build", "Ann", "Boston-Q3")
    trans = run("status", "--json")
    run("new", "scoresheet", "--players", "Ann,Bob,Cy,Dee")
    for n in range(20):
        run("add", *(f"{p}={(n * 7 + i * 3) % 23 - 5}.5" for i, p in enumerate(("Ann", "Bob", "Cy", "Dee"))))
    sheet = run("status", "--json")
    import json

    return {"trans-amerika": json.loads(trans)["session"], "scoresheet": json.loads(sheet)["session"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="bench-lang-"))
    sessions = prepare(home)
    from companion.contract import language
    from companion.web import tokens
    from companion.web.site import Site

    language._loaded.clear()
    start = time.perf_counter()
    language.catalogue("de")
    print(f"the German catalogue's first load: {1000 * (time.perf_counter() - start):.1f} ms")
    for game, sid in sessions.items():
        site = Site(home, sid)
        for who in (tokens.TABLE, "Ann"):
            times: dict[str, list[float]] = {"en": [], "de": []}
            for _ in range(args.rounds):
                for lang in ("en", "de"):
                    with language.using(lang):
                        start = time.perf_counter()
                        site._render(who, "v", "", None)
                        times[lang].append(time.perf_counter() - start)
            en, de = statistics.median(times["en"]), statistics.median(times["de"])
            page = "table" if who == tokens.TABLE else "Ann's page"
            print(f"{game:14} {page:11} English {1000 * en:6.1f} ms  German {1000 * de:6.1f} ms  "
                  f"German/English {de / en:.2f}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    main()
