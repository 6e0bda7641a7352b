"""The private screen: what only one player may see or type, away from the shared screen.

A group at one laptop shares one screen. A hand, a route that names its cities, or the city a
player chooses to pass must never be left on it, nor in the scrollback or the shell's history.
On a terminal this uses the alternate screen (as `less` does): "only Ann looks", then the cards
or the question, then back to the shared screen with nothing left behind. A refused choice is
answered there too, so a wrong guess at someone's hand never shows on the shared screen.

Outside a terminal (piped output, `--print`) a hand is printed plainly, as before, and a choice
must be typed in full (`pass Ann Dallas`): scripts and tests keep the explicit forms.
"""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import os
from typing import Any, Callable

from prompt_toolkit import PromptSession
from prompt_toolkit.history import InMemoryHistory

from companion.terminal.render import wrap
from companion.terminal import keys  # noqa: F401 - one set of default key bindings per process


def on_terminal(output) -> bool:
    """True when ``output`` (a prompt_toolkit output) is a real terminal."""
    try:
        return os.isatty(output.fileno())
    except Exception:  # noqa: BLE001 - dummy and pipe outputs have no terminal
        return False


class PrivateScreen:
    """Shows a text to one player, or asks that player a question, on the alternate screen."""

    def __init__(self, output, input=None):
        self.output = output
        self.input = input

    def _session(self) -> PromptSession:
        # A fresh session each time: its in-memory history dies with it, so Up-arrow at a later
        # question can never bring back a city typed here.
        return PromptSession(input=self.input, output=self.output, history=InMemoryHistory())

    def _enter(self, owner: str, text: str) -> None:
        out = self.output
        out.enter_alternate_screen()
        out.erase_screen()
        out.cursor_goto(0, 0)
        out.write_raw(_("Only {name} looks.").format(name=owner) + "\r\n\r\n" + text.replace("\n", "\r\n") + "\r\n\r\n")
        out.flush()

    def _leave(self) -> None:
        out = self.output
        out.erase_screen()
        out.quit_alternate_screen()
        out.flush()

    def handover(self, owner: str, question: str) -> None:
        """Ask, on the shared screen, for the laptop to go to ``owner`` (``question``: the whole
        sentence, with ``{name}`` for the owner)."""
        self._session().prompt(question.format(name=owner))

    def show(self, owner: str, text: str, shows: str = "") -> None:
        """``text`` to ``owner`` alone; ``shows`` names it for the hand-over ("the cards", "the
        route"; by default "it": a link's QR code is no card)."""
        if shows:  # a game's words (marked in its package), in the viewer's language
            self.handover(owner, _("Pass the laptop to {name}, then press Enter to show {what}. ").replace(
                "{what}", _(shows)))
        else:
            self.handover(owner, _("Pass the laptop to {name}, then press Enter to show it. "))
        self._enter(owner, text)
        plural = shows.endswith("s") and not shows.endswith("ss")  # the English words: "the cards"
        try:
            self._session().prompt(_("Press Enter to hide them again. ") if plural else _("Press Enter to hide it again. "))
        finally:
            self._leave()

    def choose(self, owner: str, text: str, question: str, parse: Callable[[str], Any]) -> Any:
        """Ask ``owner`` privately until ``parse`` accepts the answer; Ctrl-C cancels.

        A refusal is written on the private screen only; the shared screen learns nothing.
        """
        self.handover(owner, _("Pass the laptop to {name}, then press Enter to choose. "))
        self._enter(owner, text)
        try:
            session = self._session()
            while True:
                answer = session.prompt(question).strip()
                try:
                    return parse(answer)
                except Exception as exc:  # noqa: BLE001 - refusals of every kind stay private
                    message = getattr(exc, "message", None) or str(exc)
                    said = wrap(_("{message} (Ctrl-C stops without recording anything.)").format(message=message))  # never mid-word
                    self.output.write_raw(said.replace("\n", "\r\n") + "\r\n")
                    self.output.flush()
        finally:
            self._leave()
