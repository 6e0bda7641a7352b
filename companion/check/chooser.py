"""Random legal moves, chosen from what the game's kinds offer a phone.

A phone sees the moves :func:`companion.contract.declare.offers` gives its player and, for each
parameter, what :meth:`Kind.offered` lists (or a field to fill); it posts its choice and the
page reads it by the kinds (``companion.web.forms.read_post``), then records it through
``record_move``. The chooser does the same, for every player and for the table, with a seeded
random choice at each point; the moves no phone makes (a score sheet's ``finish``, a Trans
round's end typed on the laptop) are tried too, from the same kinds, and the rules judge them.

``shift`` makes the twin run's choice: each private parameter takes the option after the one
the same draw would take, so the twin differs from its run in its secrets only.
"""

from __future__ import annotations

import random
from typing import Any

from companion.contract.declare import At, Flag, Move, Number, may_make, offered, record_move
from companion.contract.errors import CompanionError

FREE_HIGH = 12  # a number field with no upper bound gets a value up to this far above its lowest


class Choice:
    """One move to try: the move, who makes it (None: the table), the fields as a page posts
    them, and, once read, the arguments."""

    def __init__(self, move: Move, actor: str | None, given: dict[str, list[str]]):
        self.move, self.actor, self.given = move, actor, given
        self.args: dict = {}

    def words(self) -> str:
        """The move as one would type it (`bid Ann 1`), for a failure's line."""
        shown = [self.actor] if self.actor else []
        for p in self.move.params:
            if p.name == self.move.actor or p.name not in self.args:
                continue
            value = self.args[p.name]
            if value in (None, False, [], {}):
                continue
            if value is True:
                shown.append(p.flags[0] if p.flags else p.name)
            elif isinstance(value, dict):
                shown += [f"{k}={v}" for k, v in value.items()]
            elif isinstance(value, list):
                shown += [str(v) for v in value]
            else:
                shown.append(str(value))
        return " ".join([self.move.name, *shown])


def candidates(session, replay, host, moves: list[Move]) -> list[tuple[Move, str | None]]:
    """Every (move, who) worth trying now: a player's move when the game lets that player make
    it (``may_make``, as a phone asks), a move of the table when its own rule lets some page
    offer it or, with no rule of its own, always (the rules judge it)."""
    players = list(session.players)
    found = []
    for move in moves:
        if move.actor:
            found += [(move, p) for p in players if may_make(move, At(session, replay, p, host=host), p)]
        elif move.allowed is None or any(move.allowed(At(session, replay, p, host=host), p) for p in players):
            found.append((move, None))
    return found


def _field(p, at: At, offer: list[tuple[str, str]], rng: random.Random, shift: int) -> list[str]:
    """What a page posts for parameter ``p``: a random one of what it offers (the next one
    for a private parameter of the twin), a random number in a number field, or nothing."""
    if isinstance(p.kind, Flag):
        return ["yes"] if rng.random() < 0.25 else []
    if not p.required and rng.random() < 0.4:
        return []
    if offer:
        values = [str(v) for v, _ in offer]
        if p.many and (p.kind.limit(at, p) or 2) > 1:
            most = min(len(values), p.kind.limit(at, p) or len(values))
            picked = sorted(rng.sample(range(len(values)), rng.randint(1, most)))
        else:
            picked = [rng.randrange(len(values))]
        if p.private and shift:
            picked = sorted({(i + shift) % len(values) for i in picked})
        return [values[i] for i in picked]
    if isinstance(p.kind, Number):
        low, high = p.kind.bounds(at)
        low = 0 if low is None else low
        high = low + FREE_HIGH if high is None else high
        return [str(rng.randint(low, max(low, high)))] if high >= low else []
    if p.kind.number or p.kind.signed or p.kind.metavar == "N":
        return [str(rng.randint(0, FREE_HIGH))]
    try:
        hints = p.kind.options(at, p) or []
    except CompanionError:
        hints = []
    if hints:
        return [str(rng.choice(hints)[0])]
    return ["check"] if p.required else []


def draw(session, replay, host, move: Move, actor: str | None, rng: random.Random, shift: int = 0) -> Choice:
    """The fields a page of ``actor`` (the table's view for a move of the table) would post."""
    at = At(session, replay, actor, host=host)
    offers = offered(move, at, actor or "")
    given: dict[str, list[str]] = {"move": [move.name]}
    for p in move.params:
        if p.name == move.actor or not p.page:
            continue
        fields = p.kind.fields(at, p)
        if fields:
            for key, _label in fields:
                if rng.random() < 0.8:
                    given[f"{p.name}.{key}"] = [str(rng.randint(0, FREE_HIGH))]
            continue
        given[p.name] = _field(p, at, offers.get(p.name) or [], rng, shift)
    return Choice(move, actor, given)


def read(session, replay, host, choice: Choice) -> dict:
    """The arguments of ``choice``, read from its fields by the kinds as a page reads a post
    (a CompanionError, or the page's Unreadable, refuses them)."""
    from companion.web import forms

    move = choice.move
    at = At(session, replay, choice.actor, host=host)
    choices = offered(move, at, choice.actor or "")
    args = forms.read_post(At(session, replay, choice.actor, host=host), move, choices, choice.given, forms.PageView())
    if isinstance(args, str):
        raise CompanionError("a tap between several choices")
    return {**args, **({move.actor: choice.actor} if move.actor else {})}


class Refused(Exception):
    """The move was not recorded: the kinds or the rules refused it, or it was a preview."""


def make(host, choice: Choice) -> list:
    """Record ``choice`` as a phone does (its ``prepare``, ``record_move``, then the move that
    follows it by itself); the outcomes recorded. Refused: nothing was recorded."""
    from companion.web.forms import Unreadable

    session, replay = host.loaded()
    try:
        choice.args = read(session, replay, host, choice)
        move = choice.move
        args = dict(choice.args)
        if move.prepare is not None:
            prepared = At(session, replay, None, args, host)
            if move.prepare(prepared) is not None:
                raise Refused("a preview")
            args = prepared.args
        done = [record_move(host, move, args)]
    except (CompanionError, Unreadable) as exc:
        raise Refused(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - a question nobody can answer (click's usage errors)
        if hasattr(exc, "format_message") and not isinstance(exc, (TypeError, ValueError)):
            raise Refused(exc.format_message()) from None
        raise
    if move.then is not None:
        then, args_of = move.then
        more = args_of(done[0])
        if more is not None:
            try:
                if then.prepare is not None:
                    prepared = At(done[0].session, done[0].replay, None, more, host)
                    then.prepare(prepared)
                    more = prepared.args
                done.append(record_move(host, then, more))
            except CompanionError:
                pass
            except Exception as exc:  # noqa: BLE001 - as the page does: a question nobody can answer
                if not hasattr(exc, "format_message"):
                    raise
    return done
