"""Start-up, side by side with a bare Click app of one command that prints one line.

Targets (issue 27): `companion --version` at most 1.1x the bare app, and `companion status`
at most 1.3x on every built-in game: a score sheet of 20 rounds, a Trans Amerika round with 80
rails typed, a Transatlantic game and an Atlantic Star game in mid-play (issue 11's targets
were 1.15x and 1.5x, on the score sheet alone). The commands are timed interleaved (one run
of each in turn, many rounds), so a busy moment on a shared machine hits them all alike;
medians. Each game has its own data folder, so each `status` reads its own session.

    python benchmarks/bench_startup.py [--runs 41] [--only scoresheet ...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE = '''import click


@click.command()
def main():
    click.echo("one line")


main()
'''

# The Transatlantic catalogue and the Atlantic Star victory points typed here are BENCHMARK
# values (the printed ones are unknown): they only put a game in mid-play.
TRANSATLANTIC = """\
ship add ARIEL --year 1865 --flag none --kind sail
ship add SIRIUS --year 1860 --flag none --kind sail
ship add DEVONIA --year 1877 --flag red --price 50
ship add NUBIAN --year 1875 --flag white --price 30
ship add GERMANIC --year 1874 --flag white --price 40
ship add HAMMONIA --year 1882 --flag blue --price 70
ship add ABYSSINIA --year 1870 --flag red --price 30
ship add UMBRIA --year 1884 --flag red --price 90
ship add "CITY OF NEW YORK" --year 1888 --flag black --price 100
ship add COLUMBIA --year 1889 --flag blue --price 80
data set transatlantic market.surcharges '[0, 10, 20, 30, 40, 50]'
new transatlantic --players Ann,Bob,Cy --start Bob
own Bob SIRIUS
own Ann ARIEL
reveal DEVONIA NUBIAN GERMANIC HAMMONIA ABYSSINIA UMBRIA
buy Ann GERMANIC
reveal "CITY OF NEW YORK" COLUMBIA
buy Cy NUBIAN
buy Bob ABYSSINIA
next
vp Ann 2 --note "trade houses"
next
"""


def atlantic_star() -> str:
    """Four players past the Pacific and the Atlantic, the Mediterranean under way."""
    players = ["Ann", "Bob", "Cy", "Di"]

    def charters(rounds: int) -> str:
        return "".join(f"charter {p} 0\n" for _ in range(rounds) for p in players)

    # the 6th places of the 1- and 5-star classes are the rulebook's (4 and 0), the rest made up
    vp = {"1": 4, "2": 1, "3": 1, "4": 0, "5": 0}
    return ("".join(f"data set atlantic-star vp.{c} '[6, 5, 4, 3, 2, {last}]'\n" for c, last in vp.items())
            + "new atlantic-star --players Ann,Bob,Cy,Di\n"
            "charter Ann 3000\nrefresh Bob\ncharter Bob 2000\ncharter Cy 1000\ncharter Di 0\n" + charters(5)
            + "voyage Ann pacific --value 35 --class 5\nvoyage Bob pac --cards 9,9,9,9,9,9\n"
            "voyage Cy pacific --value 30\nvoyage Di pacific --value 28\n" + charters(5)
            + "voyage Ann atlantic --value 20 --class 1\nvoyage Bob atlantic --value 27\n"
            "voyage Cy atlantic --value 40\nvoyage Di atlantic --cards 5,5,5,5,X\n" + charters(2))


GAMES = {  # the label of each game's `status` line
    "scoresheet": "companion status (20 rounds)",
    "trans-amerika": "companion status (Trans, 80 rails)",
    "transatlantic": "companion status (Transatlantic)",
    "atlantic-star": "companion status (Atlantic Star)",
}


def prepare(game: str, home: Path, companion: str, env: dict) -> None:
    """A data folder holding one session of ``game`` in play, its caches warm."""
    if game == "trans-amerika":  # built in this process, through the rules (as bench_shell does)
        from bench_shell import table_with_80_rails

        os.environ["COMPANION_HOME"] = str(home)
        table_with_80_rails(home)
    else:
        lines = {
            "scoresheet": "new scoresheet --players Ann,Bob,Cy\n" + "".join(
                f"add Ann={r} Bob={2 * r % 7} Cy={r % 3}\n" for r in range(20)),
            "transatlantic": TRANSATLANTIC,
            "atlantic-star": atlantic_star(),
        }[game]
        subprocess.run([companion], input=lines, text=True, check=True, capture_output=True, env=env)
    subprocess.run([companion, "status"], check=True, capture_output=True, env=env)  # warm the caches


def interleaved(commands: dict[str, tuple[list[str], dict]], runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv, env) in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True, env=env)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=31)
    parser.add_argument("--companion", help="another installation's `companion` to time (e.g. an older release)")
    parser.add_argument("--only", action="append", choices=sorted(GAMES),
                        help="time `status` on this game only (may be repeated; every game by default)")
    args = parser.parse_args()
    companion = args.companion or shutil.which("companion") or sys.exit("install the project first (pip install .)")
    games = [game for game in GAMES if not args.only or game in args.only]
    with tempfile.TemporaryDirectory() as tmp:
        bare = Path(tmp) / "bare.py"
        bare.write_text(BARE)
        # bytecode written and kept, as an installed companion has it (a PYTHONDONTWRITEBYTECODE
        # left in the environment would compile every module at every start)
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        envs = {game: dict(base, COMPANION_HOME=str(Path(tmp) / game)) for game in games}
        for game in games:
            prepare(game, Path(tmp) / game, companion, envs[game])
        commands = {
            "bare Click app": ([sys.executable, str(bare)], envs[games[0]]),
            "companion --version": ([companion, "--version"], envs[games[0]]),
        }
        commands.update({GAMES[game]: ([companion, "status"], envs[game]) for game in games})
        result = interleaved(commands, args.runs)
    base = result["bare Click app"]
    for name, seconds in result.items():
        print(f"{name:<36} median {seconds * 1000:6.1f} ms   {seconds / base:4.2f}x")
    print(f"{args.runs} interleaved runs, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("targets: --version <= 1.1x, status <= 1.3x on every game")


if __name__ == "__main__":
    main()
