"""Errors meant for people.

Rules and storage code raise these; the command layer turns each into one line on stderr
starting with ``Error:`` and exit status 1. Nothing here imports Click, so the rules stay pure.
"""

from __future__ import annotations


class CompanionError(Exception):
    """A refusal the user can act on: the message says what is wrong and what to type instead."""

    exit_code = 1

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class Malformed(CompanionError):
    """What was typed cannot be read (``Ann=three``): a usage error, exit status 2, with the
    command's help named, as Click says of its own arguments."""

    exit_code = 2


class RuleError(CompanionError):
    """The game's rules forbid this action; nothing was recorded."""


class StoreError(CompanionError):
    """A file in the data folder cannot be read or written safely; it was left untouched."""


class BusyError(StoreError):
    """Another companion is writing to the data folder and did not finish in time."""


class MissingValue(CompanionError):
    """A printed value the rules need is not known yet; the players must read it off their copy."""

    # the pack's template for a key ("[1st, 2nd, ...]"), set by companion.core.datapack when it
    # is imported (the errors import nothing of the companion)
    template = None
    # the pack's suggestion to confirm for a key: (game, key) -> the key `data accept` takes, or
    # None; also set by companion.core.datapack
    suggested = None

    def __init__(self, game: str, key: str, what: str = "", example: str = "...", also: str = ""):
        if example == "..." and MissingValue.template is not None:
            example = MissingValue.template(game, key)
        self.game = game
        self.key = key
        need = f" ({what})" if what else ""
        accept = MissingValue.suggested(game, key) if MissingValue.suggested is not None else None
        offer = (f"confirm the public suggestion with `companion data accept {game} {accept}` (check it against "
                 "your board first), or " if accept and accept not in need else "")
        super().__init__(
            f"The printed value {key}{need} is not known yet: {offer}read it off your copy and type "
            f"`companion data set {game} {key} '{example}'`, or go through every value still unknown with "
            f"`companion data setup {game}`{'; ' + also if also else ''}."
        )


# The refusals every game shares, worded once (issue 27): a game, the framework and the phones'
# pages say the same thing in the same words. `where` names the device that can undo, when the
# refusal is read on another (a phone: "on the laptop").
def game_over(where: str = "") -> str:
    """The refusal of anything but `undo` once the game is over."""
    return f"The game is over: only `undo`{f' ({where})' if where else ''} can change it now."


ABANDONED = "This game was abandoned: `undo` takes that back, or start another with `new`."
ABANDONED_ALREADY = "This game was abandoned already: `undo` takes that back."
OVER_NOTHING_TO_LOG = "The game is over: there is nothing to abandon or to log here."
