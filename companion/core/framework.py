"""The framework's own step: one event folded into a session's state and context.

The framework's events (a note, an abandoned game, a play logged whole) change its context
(`Replay.ctx`: result, abandoned, played, notes); every other event goes through the game's rules.
This is the one place that decides which, so a replay, a record and `check` fold alike."""

from __future__ import annotations

from typing import Any

from companion.contract.language import _
from companion.contract.errors import ABANDONED, ABANDONED_ALREADY, OVER_NOTHING_TO_LOG, RuleError, game_over
from companion.contract.api import Event, State


GENERIC_EVENTS = ("note", "abandon", "played")
NOTE_MAX = 500


def new_context() -> dict:
    """The context before anything happened: ``result`` is the game's own (``{"winners"}`` once it
    is over), ``abandoned`` ``{"reason"}``, ``played`` ``{"scores", "winners"}``."""
    return {"result": None, "abandoned": None, "played": None, "notes": 0}


def context_finished(ctx: dict) -> bool:
    return ctx.get("result") is not None or ctx.get("played") is not None


def apply_event(game, seats: list[str] | tuple[str, ...], state: State, ctx: dict, event: Event, data: dict) -> State:
    """One event folded into ``state`` and ``ctx`` in place: a note, an abandon or a played game
    by the framework, anything else by the game's rules. The one step every replay, every
    recorded action and every page uses. Refusals raise RuleError (the caller throws the
    working state away)."""
    etype = event.get("type")
    if etype in GENERIC_EVENTS:
        _apply_generic(seats, ctx, event)
        return state
    if ctx.get("abandoned"):
        raise RuleError(_(ABANDONED))
    if context_finished(ctx):
        raise RuleError(game_over())
    state = game.advance(state, event, data)
    result = game.result(state)
    ctx["result"] = None if result is None else {"winners": [w for w in (result.get("winners") or [])]}
    return state


def _apply_generic(seats, ctx: dict, event: Event) -> None:
    etype = event["type"]
    if etype == "note":
        text = event.get("text")
        if not isinstance(text, str) or not text.strip():
            raise RuleError(_("A note needs some words: note \"Bob had to leave early\""))
        if len(text) > NOTE_MAX:
            raise RuleError(_("A note is one line of at most {NOTE_MAX} characters: this one has {count}.")
                              .format(NOTE_MAX=NOTE_MAX, count=len(text)))
        if not text.isprintable():
            at = next(i for i, c in enumerate(text) if not c.isprintable())
            what = {"\x1b": _("an escape (ESC)"), "\n": _("a line break"), "\r": _("a line break"),
                    "\t": _("a tab")}.get(text[at]) or _("the control character U+{code}").format(
                code=f"{ord(text[at]):04X}")

            raise RuleError(_("A note is one line of plain text: character {at} is {what}. Type it again without it.")
                              .format(at=at + 1, what=what))
        ctx["notes"] = ctx.get("notes", 0) + 1  # the journal keeps the words
        return
    if ctx.get("abandoned"):
        raise RuleError(_(ABANDONED_ALREADY))
    if context_finished(ctx):
        raise RuleError(_(OVER_NOTHING_TO_LOG))
    reason = event.get("reason")
    if etype == "abandon":
        if reason is not None and (not isinstance(reason, str) or len(reason) > NOTE_MAX or not reason.isprintable()):
            raise RuleError(_("The reason is one line of at most {NOTE_MAX} characters.").format(NOTE_MAX=NOTE_MAX))
        ctx["abandoned"] = {"reason": reason or ""}
        return
    # played: the final result of a game played away from the companion
    ctx["played"] = check_played(seats, event)


PLAYED_KEYS = ("scores", "winners", "ranks", "teams", "team_scores", "coop", "won", "minutes", "tie_break")
TIE_BREAK_MAX = 100


def is_points(value: Any) -> bool:
    """A score as people write it: a whole or a decimal number, negative too (never a bool,
    NaN or an infinity)."""
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and value == value and abs(value) != float("inf"))


def check_played(seats, event: Event) -> dict:
    """The result a `played` event logs, checked: the context's ``played``.

    The event of release 0.1 holds ``scores`` (whole numbers, every seat) and ``winners``,
    and still means exactly that. Since issue 23 it may also hold decimal and negative
    scores, ``ranks`` (a rank-only play, or the order beyond the winners), ``teams`` (lists of
    names, each seat in one; a team shares its result) with ``team_scores``, ``coop`` with
    ``won`` (everyone wins or loses together), ``minutes`` (its length) and ``tie_break``
    (what settled a tie for first)."""
    seats = list(seats)
    names = seats or list(event.get("scores") or event.get("ranks") or ())
    scores = event.get("scores")
    ranks = event.get("ranks")
    winners = event.get("winners")
    out: dict = {}
    if scores is not None:
        if not isinstance(scores, dict) or not all(is_points(v) for v in scores.values()):
            raise RuleError(_("A played game needs every player's final score as a number: --players Ann=52,Bob=47.5"))
        if seats and list(scores) != seats:
            raise RuleError(_("A played game needs the final score of each player: {join}.").format(join=', '.join(seats)))
    if ranks is not None:
        if (not isinstance(ranks, dict) or (seats and list(ranks) != seats)
                or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= len(names)
                           for v in ranks.values())):
            raise RuleError(_("A rank-only play needs each player's place, 1 to {count}: --ranks Ann=1,Bob=2")
                              .format(count=len(names)))
        if 1 not in ranks.values():
            raise RuleError(_("Someone has to finish first: give rank 1 to the winners, e.g. --ranks Ann=1,Bob=2"))
    coop = event.get("coop")
    if coop is not None and not isinstance(coop, bool):
        raise RuleError(_("A co-operative play says whether the players won together: --won or --lost."))
    if not isinstance(winners, list) or any(w not in names for w in winners) or len(set(winners)) != len(winners):
        raise RuleError(_("A played game needs its winners among its players."))
    if coop:
        won = event.get("won")
        if not isinstance(won, bool):
            raise RuleError(_("A co-operative play needs its result: --won or --lost."))
        if winners != (names if won else []):
            raise RuleError(_("In a co-operative play everyone wins or loses together."))
        out.update(coop=True, won=won)
    elif not winners:
        raise RuleError(_("A played game needs its winners among its players."))
    teams = event.get("teams")
    if teams is not None:
        if (not isinstance(teams, list) or len(teams) < 2 and not coop
                or not all(isinstance(t, list) and t and all(isinstance(p, str) for p in t) for t in teams)
                or sorted(p for t in teams for p in t) != sorted(names)):
            raise RuleError(_("Teams name every player once, in two teams or more: --teams \"Ann+Bob,Cy+Dee\""))
        for team in teams:  # a team shares its result: all its members win, or none
            if len({p in winners for p in team}) > 1:
                raise RuleError(_("{names} are one team: they win or lose together.").format(names=and_list(team)))
            if ranks is not None and len({ranks[p] for p in team}) > 1:
                raise RuleError(_("{names} are one team: they share one rank.").format(names=and_list(team)))

        team_scores = event.get("team_scores")
        if team_scores is not None:
            if not isinstance(team_scores, list) or len(team_scores) != len(teams) \
                    or not all(is_points(v) or v is None for v in team_scores):
                raise RuleError(_("A team's score is a number: --teams \"Ann+Bob=52,Cy+Dee=47\""))
            out["team_scores"] = list(team_scores)
        out["teams"] = [list(t) for t in teams]
    minutes = event.get("minutes")
    if minutes is not None:
        if not isinstance(minutes, int) or isinstance(minutes, bool) or not 0 <= minutes <= 100_000:
            raise RuleError(_("A play's length is whole minutes: --length 45m or --length 1h30m"))
        out["minutes"] = minutes
    tie = event.get("tie_break")
    if tie is not None:
        if not isinstance(tie, str) or not tie.strip() or len(tie) > TIE_BREAK_MAX or not tie.isprintable():
            raise RuleError(_("The tie-breaker is one line of at most {TIE_BREAK_MAX} characters.")
                              .format(TIE_BREAK_MAX=TIE_BREAK_MAX))
        out["tie_break"] = tie
    played = {"scores": dict(scores) if scores is not None else {}, "winners": list(winners)}
    if ranks is not None:
        played["ranks"] = dict(ranks)
    played.update(out)
    return played


def describe_event(game, event: Event, state: State | None = None) -> str:
    """An event in words, for `log`, the shell's "Meanwhile" line and the reports: the
    framework's own events in its words, every other by the game's rules (given ``state``, a
    viewer's view, when the game's ``describe`` takes it: companion.contract.exit)."""
    etype = event.get("type")
    if etype == "note":
        return _("Note: {text}").format(text=event.get("text", ""))
    if etype == "abandon":
        reason = event.get("reason")
        return _("Abandoned: {reason}").format(reason=reason) if reason else _("Abandoned (no result)")
    if etype == "played":
        return _played_words(event)
    return game.describe(event) if state is None else game.describe(event, state)


def _played_words(event: Event) -> str:
    """A logged play in words: `Played: Ann 52, Bob 47.5; won by Ann` (each clause a message)."""
    from companion.contract.language import language
    from companion.contract.written import number

    scores = event.get("scores") or {}
    ranks = event.get("ranks") or {}
    won = event.get("winners") or []
    teams = event.get("teams") or []
    german = language() != "en"  # English as it always was (47.5, 70.0); else the viewer's 47,5
    if scores:
        parts = [f"{p} {number(v) if german and is_points(v) else v}" for p, v in scores.items()]
    elif ranks:
        parts = [f"{p} #{r}" for p, r in ranks.items()]
    else:
        parts = [str(p) for p in won or []]
    clauses = [_("Played: {results}").format(results=", ".join(parts))]
    if teams:
        clauses.append(_("teams {teams}").format(teams=", ".join("+".join(t) for t in teams)))
    if event.get("coop"):
        return "; ".join(clauses + [_("won together") if event.get("won") else _("lost together")])
    if won and (scores or ranks):
        clauses.append(_("won by {names}").format(names=", ".join(won)))
    elif won:
        clauses = [_("Played: won by {names}").format(names=", ".join(won))]
    words = "; ".join(clauses)
    if event.get("tie_break"):
        words = _("{words} (tie settled by {rule})").format(words=words, rule=event["tie_break"])
    return words



def and_list(names) -> str:
    """``Ann and Bob`` (``Ann und Bob``): names joined as the viewer says it."""
    return _(" and ").join(names)
