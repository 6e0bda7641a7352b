"""`companion check [GAME...]`: the conformance check any game's author can run.

The work is :mod:`companion.check` (imported only when the command runs); this is its command
line: which games, how many seeds and moves, one line per failure, a summary line per game,
and an exit status that says whether anything failed.
"""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import os

import click

from companion.games.kit import echo_json, json_option

SEEDS, MOVES = 2, 40  # by default: a few seconds a game
LONG_SEEDS, LONG_MOVES = 6, 300  # with COMPANION_LONG_TESTS=1: longer runs (a Trans game needs more to reach its end: --moves)


def defaults() -> tuple[int, int]:
    return (LONG_SEEDS, LONG_MOVES) if os.environ.get("COMPANION_LONG_TESTS") == "1" else (SEEDS, MOVES)


@click.command(help=N_("Check installed games against the contract, plugins included (no GAME: every one).\n"
    "\n"
    "Plays each game's declared PLAYTHROUGH, then random legal moves from what its kinds offer\n"
    "a phone, several seeds. After every move the journal must replay to the state kept, and\n"
    "undo then redo must give it back. Beside every random run goes a twin with other secrets\n"
    "(another deal, other private values): whatever the table, `status --json`, `log` or another\n"
    "player's page and stream shows must be the same bytes in both, or it shows a secret. One\n"
    "line per failure (the game, the move, the surface, what it shows), a summary per game;\n"
    "the exit status is 1 when anything failed. Nothing is written to your data folder."))
@click.argument("game_ids", metavar="[GAME]...", nargs=-1)
@click.option("--seeds", type=click.IntRange(0, 1000), default=None, metavar="N",
              help=N_("Random runs per game (default {seeds}; {long} with COMPANION_LONG_TESTS=1)."))
@click.option("--moves", type=click.IntRange(1, 100_000), default=None, metavar="N",
              help=N_("Moves per random run at most, if the game has not ended before (default {moves}; "
                      "{long} with COMPANION_LONG_TESTS=1)."))
@json_option
def check(game_ids: tuple[str, ...], seeds: int | None, moves: int | None, as_json: bool) -> None:
    from companion.check import runner
    from companion.contract.errors import CompanionError
    from companion.core import registry

    installed = registry.available()
    unknown = [g for g in game_ids if g not in installed]
    if unknown:
        failed = next((line for line in registry.problems() if line.split(" ", 1)[0] == unknown[0]), None)
        if failed is not None:
            raise CompanionError(_("Not loaded: {problem}").format(problem=failed))
        raise CompanionError(_("No game {game} is installed: `companion games` lists them ({names}).").format(
            game=repr(unknown[0]), names=", ".join(installed)))
    default_seeds, default_moves = defaults()
    reports = []
    for game_id in game_ids or installed:
        report = runner.check(game_id, default_seeds if seeds is None else seeds,
                              default_moves if moves is None else moves)
        reports.append(report)
        if as_json:
            continue
        for failure in report.failures[:runner.SHOWN_PER_GAME]:
            click.echo(failure.line())
        if len(report.failures) > runner.SHOWN_PER_GAME:
            more = len(report.failures) - runner.SHOWN_PER_GAME
            click.echo(ngettext("{game}: ... and {n} more failure", "{game}: ... and {n} more failures", more).format(
                game=game_id, n=more))
        click.echo(report.summary())
    problems = [] if game_ids else registry.problems()  # a game that did not load fails a check of all
    if as_json:
        echo_json({"games": [r.as_json() for r in reports], "not_loaded": problems}, "check")
    else:
        for line in problems:
            click.echo(_("Not loaded: {problem}").format(problem=line))
    if problems or any(r.failures for r in reports):
        click.get_current_context().exit(1)


# the defaults in the options' helps, filled in after translation (speech.help_text)
for _param in check.params:
    if _param.name == "seeds":
        _param.help_values = {"seeds": SEEDS, "long": LONG_SEEDS}
    elif _param.name == "moves":
        _param.help_values = {"moves": MOVES, "long": LONG_MOVES}

from companion.terminal.speech import speak_helps  # noqa: E402 - the helps above read through it

speak_helps()
