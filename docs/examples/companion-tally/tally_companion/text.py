"""Tally speaks the players' language: its messages are looked up in its own catalogue
(``locale/de/LC_MESSAGES/tally.po``, shipped inside the package) for the language of whoever is
looking, then in the companion's, then left in English (docs/writing-a-game.md, "The players'
language")."""

from pathlib import Path

from companion.contract.language import N_, Messages

_messages = Messages(Path(__file__).resolve().parent / "locale", "tally")
_ = _messages.gettext
ngettext = _messages.ngettext

__all__ = ["N_", "_", "ngettext"]
