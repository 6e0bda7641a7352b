"""Tricks speaks the players' language: its messages are looked up in its own catalogue
(``locale/de/LC_MESSAGES/tricks.po``, shipped inside the package) for the language of whoever is
looking, then in the companion's, then left in English.

The companion makes a move's refusal, what a move says and every screen while the viewer's
language is set, so ``_()`` called there speaks it: a German phone reads German beside an English
laptop. A text kept in a constant is marked with ``N_`` and translated where it is shown.
"""

from pathlib import Path

from companion.contract.language import N_, Messages

_messages = Messages(Path(__file__).resolve().parent / "locale", "tricks")
_ = _messages.gettext
ngettext = _messages.ngettext

__all__ = ["N_", "_", "ngettext"]
