"""`rails MAP ...`: exact missing rails on a Trans board, without a session; `rails NAME` in one;
and the map drawing. `rails` is a hand-written command (its forms share one name and need no
event); what it prints is a view (companion.contract.view), drawn by the terminal's renderer.

Thin over ``companion.games.trans.board`` (names, paths), ``companion.games.trans.steiner`` (the exact counts) and
``companion.games.trans.boardview`` (the drawing). Without a session the board is the shipped pack with the
players' own values laid over it (``data set trans-amerika double_kinds ...``), as a new session
would see it. In a Trans session, `rails NAME` counts on the recorded board (start markers and
rails) with the values the session froze, through the rules' ``missing_tree``.

The command is declared here and does its counting in ``companion.games.trans.counting``,
imported when it runs: the moves module names the command, and every Trans `status` imports
the moves (the exit hides their private parameters), never needing a count (issue 27).
"""

from __future__ import annotations

import click

from companion.contract.language import N_, _
from companion.games.kit import json_option, pass_app, session_option
from companion.contract.errors import CompanionError


@click.command(help=N_("Exact missing rails: `rails amerika --hand Dallas,Omaha,...`, `--all-hands --stats`, or "
                        "`rails NAME`.\n\nThe fewest rails joining the cities (to each other, or to the network at "
                        "--start), where built rails are free and a double line costs 2: an exact minimum, not an "
                        "estimate. In a Trans session, `rails NAME` counts NAME's cities on the recorded board, "
                        "privately."))
@click.argument("map_name", metavar="MAP|NAME")
@click.option("--hand", metavar="CITY,CITY,...", help=N_("The cities to connect, e.g. --hand Dallas,Omaha,Boston."))
@click.option("--built", multiple=True, metavar="PATH",
              help=N_("Rails already on the board, as junctions joined by '-' (Dallas-K10-K9); repeat the "
                      "option or separate paths with commas. They cost nothing."))
@click.option("--start", "start", metavar="JUNCTION",
              help=N_("Your start marker: the cities must join the network of rails connected to it."))
@click.option("--single", type=click.Choice(["water", "mountain"]), multiple=True,
              help=N_("The special card in force: those double lines count 1 (needs double_kinds)."))
@click.option("--all-hands", is_flag=True, help=N_("Every possible hand (one city per colour) on the empty board."))
@click.option("--stats", is_flag=True,
              help=N_("With --all-hands: the number of hands, mean, spread, easiest and hardest."))
@click.option("--players", type=click.IntRange(2, 6), metavar="N",
              help=N_("With --all-hands: the hands of an N-player game (2 or 3 leave the dashed cards out)."))
@click.option("--draw", is_flag=True, help=N_("With --hand or NAME: also draw the board with the rails found."))
@click.option("--print", "plain", is_flag=True,
              help=N_("With NAME: print it plainly (for a printer or a file), not on the private screen."))
@json_option
@session_option
@pass_app
def rails(app, map_name, hand, built, start, single, all_hands, stats, players, draw, as_json, plain=False) -> None:
    """Exact missing rails: `rails amerika --hand Dallas,Omaha,...`, `--all-hands --stats`, or `rails NAME`.

    The fewest rails joining the cities (to each other, or to the network at --start), where
    built rails are free and a double line costs 2: an exact minimum, not an estimate. In a
    Trans session, `rails NAME` counts NAME's cities on the recorded board, privately.
    """
    from companion.games.trans import counting

    if not hand and not all_hands and not _is_map(map_name):
        for flag, given in (("--built", built), ("--start", start), ("--single", single), ("--stats", stats),
                            ("--players", players)):
            if given:
                raise click.UsageError(_("{flag} goes with `rails MAP --hand ...`: `rails NAME` "
                                         "counts on the session's recorded board, with its "
                                         "special card.").format(flag=flag))
        counting._player_rails(app, map_name, draw, as_json, plain)
        return
    if hand and all_hands:
        raise click.UsageError(_("Give either --hand CITY,... or --all-hands, not both."))
    if not hand and not all_hands:
        raise click.UsageError(_("Say which cities: rails {map_name} --hand Dallas,Omaha,... (or "
                                 "rails {map_name} --all-hands --stats)").format(map_name=map_name))
    if all_hands:
        for flag, given in (("--built", built), ("--start", start), ("--draw", draw)):
            if given:
                raise click.UsageError(_("{flag} goes with --hand: --all-hands counts on the "
                                         "empty board.").format(flag=flag))
        counting._all_hands(app, map_name, single, stats, players, as_json)
        return
    if stats or players:
        raise click.UsageError(_("{value} goes with --all-hands, not with --hand.").format(
                                   value='--stats' if stats else '--players'))
    counting._one_hand(app, map_name, hand, built, start, single, draw, as_json)


def _is_map(name: str) -> bool:
    from companion.games.trans import board as boards

    try:
        boards.resolve_map(name)
        return True
    except CompanionError:
        return False
