"""A printed value asked on the phone that needs it (issue 31, item 2).

A move tapped on a phone may need a printed value nobody has told the companion yet (the board
colour a special card's "orange" means, a victory-point row): the laptop's shell asks it at that
moment (`terminal/setup.ask_missing`); a phone now asks it too, instead of naming a `data set`
command. The question is the same: what needs it, where it is printed, the public suggestion
(one tap confirms it), one button per choice when the choices are few, else a field. The answer
is read and checked as `data set` reads and checks it (`setup.read`, `datapack.validate`) and
kept as the players' own value, where `data show` and `data unset` find it; then the player taps
the move again.

Only the value the server asked that player for may be posted: the form carries a keyed hash
of (session, player, game, key), so a page cannot set any other printed value.
"""

from __future__ import annotations

import hmac
import json
from html import escape

from companion.contract.errors import CompanionError
from companion.contract.language import _

BUTTONS = 12  # more choices than this are typed, not tapped


def asked_key(app, game: str, key: str) -> str | None:
    """The key to ask for when a move needs ``key``: the whole value a suggestion covers, or
    the first part still unknown of a table asked part by part (as the shell asks); None when
    the pack does not know it (a game's own check, nothing a phone can answer)."""
    from companion.core import datapack
    from companion.terminal import setup

    if game not in datapack.pack_names():
        return None
    found = datapack.suggestion_for(game, key)
    whole = found[0] if found else key
    try:
        datapack.known_key(game, whole)
    except CompanionError:
        return None
    pending = setup.pending(app, game)
    parts = [k for k in pending if k.startswith(whole + ".")]
    if parts and whole not in pending:
        return parts[0]
    return whole


def seal(secret: bytes, sid: str, player: str, game: str, key: str) -> str:
    return hmac.new(secret, f"value|{sid}|{player}|{game}|{key}".encode(), "sha256").hexdigest()[:32]


def question(app, secret: bytes, sid: str, player: str, game: str, key: str, move_title: str,
             action: str, said: str = "", again: bool = False) -> str:
    """The question's section on ``player``'s page (HTML; every text escaped); ``again``: a
    value the players gave that clashes with another, asked again (``said`` says how)."""
    from companion.core import datapack
    from companion.terminal import setup

    label = datapack.title(game, key) or key
    head = _("A printed value is needed: {label}").format(label=label)
    lines = [(_("“{move}” needs it, and what was given for it does not fit. Read it off your copy of the game "
                "again; it is kept for every later game.") if again else
              _("“{move}” needs it, and nobody has told the companion yet. Read it off your copy of the game; "
                "it is kept for every later game.")).format(move=move_title)]
    need = datapack.need_text(game, key)
    if need:
        lines.append(_("Needed for: {what}.").format(what=need))
    where = datapack.where_text(game, key)
    if where:
        lines.append(_("Where to look: {where}.").format(where=where))
    means = datapack.means_text(game, key)
    if means:
        lines.append(_("What it means: {means}.").format(means=means))
    found = datapack.suggestion_for(game, key)
    suggestion = found[1] if found and found[0] == key else None
    hidden = (f'<input type="hidden" name="game" value="{escape(game)}">'
              f'<input type="hidden" name="for" value="{escape(move_title)}">'
              f'<input type="hidden" name="key" value="{escape(key)}">'
              f'<input type="hidden" name="seal" value="{seal(secret, sid, player, game, key)}">')
    body = ""
    if suggestion is not None:
        source = suggestion.get("source") or suggestion.get("note") or _("a public source")
        lines.append(_("Suggested: {value} (from: {source}). Check it against your own copy.").format(
            value=setup.short(suggestion["value"]), source=source.rstrip(".")))
        body += (f'<button type="submit" class="go" name="value" value="{escape(json.dumps(suggestion["value"]))}">'
                 f'{escape(_("Yes, my copy says {value}").format(value=setup.short(suggestion["value"])))}</button>')
    node = setup._schema(game, key)
    choices = node.get("enum") if isinstance(node.get("enum"), list) else None
    if choices and len(choices) <= BUTTONS:
        body += '<div class="choices">' + "".join(
            f'<button type="submit" name="value" value="{escape(json.dumps(c))}">{escape(str(c))}</button>'
            for c in choices) + "</div>"
    else:
        example = setup._example(game, key)
        if len(example) > 1 and example[0] == example[-1] == '"':
            example = example[1:-1]
        body += (f'<label>{escape(_("Type it (e.g. {example})").format(example=example))} '
                 f'<input type="text" name="typed" autocomplete="off"></label>'
                 f'<button type="submit" class="go">{escape(_("Keep it"))}</button>')
    error = f'<p class="warn">{escape(said)}</p>' if said else ""
    text = "".join(f'<p class="sub">{escape(line)}</p>' for line in lines)
    return (f'<section class="wide notice question"><h2>{escape(head)}</h2>{error}{text}'
            f'<form method="post" action="{escape(action)}">{hidden}{body}</form></section>')


def keep(app, secret: bytes, sid: str, player: str, given: dict) -> tuple[str, str, str, bool]:
    """Keep the value posted by ``player``'s page: (game, key, '' or why it was refused, whether
    the question was one this server asked). Read and checked as `data set` reads and checks
    it; nothing is kept when refused."""
    from companion.core import datapack
    from companion.terminal import setup

    game = (given.get("game") or [""])[0]
    key = (given.get("key") or [""])[0]
    sealed = (given.get("seal") or [""])[0]
    if not hmac.compare_digest(sealed.encode(), seal(secret, sid, player, game, key).encode()):
        return game, key, _("This question is not one this laptop asked you: tap the move again."), False
    typed = (given.get("typed") or [""])[0].strip()
    chosen = (given.get("value") or [""])[0]
    try:
        if typed:
            value = setup.read(game, key, typed)
        elif chosen:
            value = json.loads(chosen)
        else:
            return game, key, _("Type the value, or tap one of the buttons."), True
        with app.store.writing():
            datapack.validate(game, key, value, app.store.user_values(game))
            app.store.set_user_value(game, key, value)
    except (ValueError, CompanionError) as exc:
        return game, key, getattr(exc, "message", None) or str(exc), True
    return game, key, "", True
