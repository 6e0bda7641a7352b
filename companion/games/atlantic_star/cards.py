"""The players' Atlantic Star ship cards: each card typed once, its entry for every sea, and kept.

A ship card prints what the ship earns on a leg of each sea: its points there, M on a mail ship
(1 point, the bonus kept), or nothing (X: no points there, and no bonus). Players used to add
these up for every voyage and type "5,M,3,2"; now a card is typed once (`data setup
atlantic-star`, or at the moment a voyage first names it) and a voyage names its cards. The
companion reads each card's entry for the voyage's sea and writes those entries into the event,
so a replay never depends on the catalogue as it is later. Nothing is invented: a card nobody
has typed is asked for (in the shell at once, on a phone as a printed value it needs).
"""

from __future__ import annotations

from companion.contract.errors import CompanionError, Malformed, MissingValue
from companion.contract.language import _
from companion.core import datapack
from companion.games.atlantic_star.rules import GAME, MAIL, VOID


def card_key(name: str) -> str:
    """A card's key in the catalogue: its name in upper case, spaces tidied (typed any case)."""
    return " ".join(str(name).split()).upper()


def seas(store=None) -> list[str]:
    """The seas in the board's order, the order a card's entries are typed in."""
    return list(datapack.merged(GAME, store.user_values(GAME) if store is not None else {}).get("seas") or {})


def entries(text: str, count: int) -> list[str]:
    """A card as typed, one entry per sea ("5, M, X, 3"), or ValueError saying what to type."""
    out = [part.strip().upper() for part in str(text).replace(";", ",").split(",") if part.strip()]
    if len(out) == 1 and " " in out[0]:
        out = out[0].split()
    if len(out) != count or not all(e in (MAIL, VOID) or (e.isdigit() and int(e) >= 1) for e in out):
        raise ValueError(_("Type {count} entries, one per sea in the board's order, each a number of points, "
                           "M (mail ship) or X (no points there), e.g. {example}.").format(
            count=count, example=",".join(["5", "X", "3", "2", "4", "1"][:count])))
    return [str(int(e)) if e.isdigit() else e for e in out]


def catalogue(store) -> dict[str, list]:
    """Every card the players have typed (their own values over the pack's, which has none)."""
    return datapack.merged(GAME, store.user_values(GAME)).get("ships") or {}


def keep(store, name: str, card: list[str]) -> None:
    """Check a card against the pack's schema and remember it for every later game."""
    key = card_key(name)
    if not key or "." in key:
        raise CompanionError(_("Write the ship's name without dots (e.g. {name}).").format(
            name=key.replace(".", "") or "RHEA"))
    with store.writing():
        datapack.validate(GAME, f"ships.{key}", card, store.user_values(GAME))
        store.set_user_value(GAME, f"ships.{key}", card)


def missing(name: str) -> MissingValue:
    """The refusal for a card nobody has typed yet (a phone asks it; a script is told how)."""
    return MissingValue(GAME, f"ships.{card_key(name)}", what=_("the ship card {name}: its entry for each sea").format(
        name=card_key(name)))


def known(at, name: str) -> list | None:
    """A card as the session froze it, else as the players' catalogue knows it today."""
    key = card_key(name)
    frozen = (at.data.get("ships") or {}).get(key)
    if frozen is not None:
        return frozen
    store = getattr(at.host, "store", None)
    return catalogue(store).get(key) if store is not None else None


def ask(at, name: str) -> list[str]:
    """In the shell, a card nobody has typed yet: its entries asked once, checked, and kept."""
    store = at.host.store
    order = seas(store)
    at_seas = ", ".join(s.title() for s in order)
    card = at.ask_until(_("Ship card {name}: its entry for each sea ({seas}), a number, M or X: ").format(
        name=card_key(name), seas=at_seas), lambda text: entries(text, len(order)))
    keep(store, name, card)
    return card


def legs(at, names: list[str], sea: str) -> list[str]:
    """The voyage's entries, leg by leg, read off the named cards for ``sea``; in the shell a card
    nobody has typed yet is asked for, elsewhere it is the printed value the move needs."""
    if not names or not all(str(n).strip() for n in names):
        raise Malformed(_("Name the ship cards, one per leg, separated by commas (e.g. --ships Rhea,Oceana,Titan)."))
    order = list(at.data.get("seas") or seas(getattr(at.host, "store", None)))
    if sea not in order:
        return []  # the rules refuse the sea, after checking whose turn it is
    out = []
    for name in names:
        card = known(at, name)
        if card is None:
            if not at.can_ask():
                raise missing(name)
            card = ask(at, name)
        if not isinstance(card, list) or len(card) != len(order):
            raise CompanionError(_("The ship card {name} has {got} entries, not one per sea ({count}): type it again "
                                   "with `data set {game} ships.{name}`.").format(
                name=card_key(name), got=len(card) if isinstance(card, list) else 0, count=len(order), game=GAME))
        out.append(str(card[order.index(sea)]).upper())
    return out
