"""Errors meant for people.

Rules and storage code raise these; the command layer turns each into one line on stderr
starting with ``Error:`` and exit status 1. Nothing here imports Click, so the rules stay pure.
"""

from __future__ import annotations

from companion.contract.language import N_, _



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


class ValueConflict(RuleError):
    """Printed values the players gave do not fit together (two of a card's colours, or two
    cards' colours, on one board colour): the laptop is told the `data set` command that fixes
    ``key``; a phone, which has no command line, asks ``key`` again with ``phone`` (what is wrong,
    in a player's words) above its buttons (issue 31)."""

    def __init__(self, message: str, game: str, key: str, phone: str):
        super().__init__(message)
        self.game = game
        self.key = key
        self.phone = phone


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
        accept = MissingValue.suggested(game, key) if MissingValue.suggested is not None else None
        offer = accept and accept not in (f" ({what})" if what else "")
        if what and offer:
            said = _("The printed value {key} ({what}) is not known yet: confirm the public suggestion with "
                     "`companion data accept {game} {accept}` (check it against your board first), or read it off "
                     "your copy and type `companion data set {game} {key} '{example}'`, or go through every value "
                     "still unknown with `companion data setup {game}`")
        elif what:
            said = _("The printed value {key} ({what}) is not known yet: read it off your copy and type "
                     "`companion data set {game} {key} '{example}'`, or go through every value still unknown with "
                     "`companion data setup {game}`")
        elif offer:
            said = _("The printed value {key} is not known yet: confirm the public suggestion with "
                     "`companion data accept {game} {accept}` (check it against your board first), or read it off "
                     "your copy and type `companion data set {game} {key} '{example}'`, or go through every value "
                     "still unknown with `companion data setup {game}`")
        else:
            said = _("The printed value {key} is not known yet: read it off your copy and type "
                     "`companion data set {game} {key} '{example}'`, or go through every value still unknown with "
                     "`companion data setup {game}`")
        said = said.format(key=key, what=what, game=game, accept=accept, example=example)
        super().__init__(said + ("; " + also if also else "") + ".")


# The refusals every game shares, worded once (issue 27): a game, the framework and the phones'
# pages say the same thing in the same words. `where` names the device that can undo, when the
# refusal is read on another (a phone: "on the laptop").
def game_over(where: str = "") -> str:
    """The refusal of anything but `undo` once the game is over."""
    if where:
        return _("The game is over: only `undo` ({where}) can change it now.").format(where=where)
    return _("The game is over: only `undo` can change it now.")


# (translated where they are raised: `_(ABANDONED)`, in the viewer's language)
ABANDONED = N_("This game was abandoned: `undo` takes that back, or start another with `new`.")
ABANDONED_ALREADY = N_("This game was abandoned already: `undo` takes that back.")
OVER_NOTHING_TO_LOG = N_("The game is over: there is nothing to abandon or to log here.")

