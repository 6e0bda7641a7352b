"""The players' ship catalogue: each card typed once (`ship add`) and kept for every later game.

A session freezes the values it meets (``companion.games.transatlantic.rules``); here is where a
ship's values are found before a move names it: as the session knows it, else in the
catalogue as the players know it today (a card typed after `new`), else, in the shell, asked
for card value by card value. The values then travel inside the event, so a replay never
depends on the catalogue as it is later.
"""

from __future__ import annotations

from typing import Any

from companion.contract.errors import CompanionError, Malformed, RuleError
from companion.contract.language import _
from companion.games.transatlantic.rules import GAME, KINDS, check_flag, check_ship, ship_key, unknown_ship


def values(store) -> dict:
    """The printed values as the players know them today (the pack and their own)."""
    from companion.core import datapack  # (only where a card is looked up: a `status` needs none)

    return datapack.merged(GAME, store.user_values(GAME))


def ships(store) -> dict[str, dict]:
    return values(store).get("ships") or {}


def find(store, name: str) -> dict:
    """A card of the catalogue by its name in any case, or the refusal naming `ship add`."""
    key = ship_key(name)
    ship = ships(store).get(key)
    if ship is None:
        raise CompanionError(unknown_ship(key))
    return {**ship, "name": key}


def typed_on(store, name: str) -> str | None:
    """The day the players typed a card (None: it came with the pack)."""
    entry = store.user_entries(GAME).get(f"ships.{name}")
    return entry["set_at"][:10] if entry else None


def store_ship(store, ship: dict) -> bool:
    """Check a card against the rules and the pack's schema, then remember it; True if it
    replaced one."""
    if "." in ship["name"]:
        raise CompanionError(_("Write the ship's name without dots (e.g. {name}).").format(
            name=ship["name"].replace(".", "")))
    with store.writing():
        known = values(store)
        ship = check_ship(ship, known.get("flags"))
        cards = dict(known.get("ships") or {})
        replaced = ship["name"] in cards
        cards[ship["name"]] = ship
        from companion.core import datapack

        datapack.validate(GAME, "ships", cards, store.user_values(GAME))
        store.set_user_value(GAME, f"ships.{ship['name']}", ship)
    return replaced


def none_flag(text: str | None) -> str | None:
    """A flag as typed, None for a ship without one (`none`, `-` or nothing)."""
    return None if text is None or text.strip().lower() in ("", "none", "-") else text


def ship_values(at, name: str) -> dict:
    """A ship's values for an event: as the session knows it, else the catalogue; in the shell
    a card nobody has typed yet is asked for (and remembered)."""
    key = ship_key(name)
    if not key:
        raise Malformed(_("A ship name is empty: write it like NUBIAN or 'CITY OF NEW YORK'."))
    known = (at.full["ships"].get(key) or (at.data.get("ships") or {}).get(key)
             or ships(at.host.store).get(key))
    if known is None:
        if not at.can_ask():
            raise CompanionError(unknown_ship(key))
        known = ask_card(at, key)
    return {**known, "name": key}


def ask_card(at, name: str) -> dict:
    """In the shell, a ship nobody has typed yet: ask for its card's values and remember them.

    Every question says what it accepts and is asked again until the answer fits; Ctrl-C stops,
    recording nothing.
    """
    from companion.games.transatlantic import views

    store = at.host.store
    at.tell(views.card_questions(name))

    def answer(question: str, required: bool, parse) -> Any:
        def check(text: str):
            if not text:
                if required:
                    raise ValueError(_("This value is on the card and needed: type it."))
                return None
            return parse(text)

        return at.ask_until(question, check)

    def kind(text: str) -> str:
        if text.lower() not in KINDS:
            raise ValueError(_("Type steam, sail or hq."))
        return text.lower()

    def whole(text: str) -> int:
        if not text.isdigit():
            raise ValueError(_("Type a whole number."))
        return int(text)

    flags = values(store).get("flags")

    def flag(text: str) -> str | None:
        if none_flag(text) is None:
            return None
        try:
            return check_flag(text, flags)
        except RuleError as exc:
            raise ValueError(str(exc)) from None

    ship = {"name": name, "kind": answer(_("Kind: steam, sail or hq (Enter = steam): "), False, kind) or "steam"}
    ship["year"] = answer(_("Year of construction (a whole number, e.g. 1870): "), True, whole)
    ship["flag"] = answer(_("Flag colour ({flags} or none): ").format(flags=", ".join(flags)) if flags
                          else _("Flag colour (or none): "), True, flag)
    ship["price"] = answer(_("Basic price (red field) in £ (a whole number): "), ship["kind"] != "sail", whole)
    store_ship(store, ship)
    card = ships(store)[name]
    at.tell(views.card_added(card))
    return card
