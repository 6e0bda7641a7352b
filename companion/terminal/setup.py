"""`data setup GAME`, and a printed value asked for at the moment a command needs it.

A group that has just opened the box goes through every printed value the game still lacks in
one pass: one question at a time, each with what needs it, where on the box, the cards or the
board it is printed (the pack's "where", restating its sources), a progress line ("3 of 29"),
and the public suggestion, when the pack has a whole one, offered as the default to confirm
with Enter (saying where it comes from). Enter on a question without a suggestion skips it
(`skip` skips one with a suggestion): it is asked again when a command needs it, or at the next
`data setup`. A game may add its own questions after the pack's (``SETUP`` in its moves
module: Transatlantic's ship cards, one after another as they come out).

The same question is what the shell asks when a command meets a value nobody knows
(:func:`ask_missing`): the answer is kept as the players' own value (`data show`, `data unset`)
and the command goes on. Nothing here ever invents a value: a suggestion becomes one only when
the players confirm it, and a value with a gap in it is shown as a hint, never offered.
"""

from __future__ import annotations

from companion.contract.language import N_, _, ngettext  # noqa: F401

import json
from typing import Any

import click

from companion.core import datapack
from companion.core.app import App
from companion.contract.errors import CompanionError

SKIP = ("skip", "-")
NEEDED = N_("this command needs it")  # why a value is asked in the middle of a command
_SKIPPED = object()  # an answer that leaves the value unknown


def pending(app: App, game: str) -> list[str]:
    """The keys still unknown, in the pack's order, a value with a whole suggestion asked whole
    (`double_kinds`, not its water and mountain parts)."""
    values = datapack.merged(game, app.store.user_values(game))
    out: list[str] = []
    for key in datapack.missing(game, values):
        if _in_catalogue(game, key):  # a ship card's optional values: the card is typed whole, once
            continue
        found = datapack.suggestion_for(game, key)
        whole = found[0] if found else key
        if whole not in out:
            out.append(whole)
    return out


def _in_catalogue(game: str, key: str) -> bool:
    """Whether ``key`` lies inside an entry of a catalogue the players fill card by card (an
    object keyed by names in the schema: Transatlantic's ships), not a value of the box."""
    node = datapack.schema_of(game)
    for part in key.split(".")[:-1]:
        node = _resolve(game, node)
        props = node.get("properties") or {}
        if part in props:
            node = props[part]
        elif isinstance(node.get("additionalProperties"), dict):
            return True
        else:
            return False
    return False


def _resolve(game: str, node: dict | None) -> dict:
    """A schema node with its references followed and its "or null" branch left out; a plain
    enum of names reads as a string. Where branches remain (a line as [[x, y], [x, y]] or as
    "JUNCTION-JUNCTION"), the one a person types is taken: the text."""
    root = datapack.schema_of(game)
    node = dict(node or {})
    for _try in range(8):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            target: Any = root
            for part in ref[2:].split("/"):
                target = (target or {}).get(part) if isinstance(target, dict) else None
            node = {**{k: v for k, v in node.items() if k != "$ref"}, **(target or {})}
            continue
        branches = [b for b in node.get("anyOf", []) + node.get("oneOf", []) if b.get("type") != "null"]
        if branches and "type" not in node and "enum" not in node:
            typed = [b for b in branches if b.get("type") == "string" or "enum" in b] or branches
            node = {**{k: v for k, v in node.items() if k not in ("anyOf", "oneOf")}, **typed[0]}
            continue
        break
    if "type" not in node and isinstance(node.get("enum"), list):
        values = node["enum"]
        node["type"] = "integer" if values and all(isinstance(v, int) for v in values) else "string"
    kind = node.get("type")
    if isinstance(kind, list):
        node["type"] = next((t for t in kind if t != "null"), None)
    return node


def _schema(game: str, key: str) -> dict:
    return _resolve(game, datapack.schema_at(game, key))


def read(game: str, key: str, text: str) -> Any:
    """What was typed, as the value's shape wants it: JSON as `data set` takes it, or plainly
    (`14, 12, 10, 8, 6, 4` or `14 12 10 8 6 4` for numbers, `Oslo, Riga` for names, a word for
    a colour, a number). Refused with one line naming the shape."""
    text = text.strip()
    node = _schema(game, key)
    kind = node.get("type")
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        parsed = _NOT_JSON
    if kind == "integer":
        if isinstance(parsed, int) and not isinstance(parsed, bool):
            return parsed
        raise ValueError(_("{typed} is not a whole number: type it as the card or the board prints it, e.g. 3.").format(
            typed=repr(text)))
    if kind == "string":
        return parsed if isinstance(parsed, str) else text
    if kind == "array":
        if isinstance(parsed, list):
            return parsed
        items = _schema_items(game, node)
        if items.get("type") == "integer":
            words = text.replace(",", " ").split()
            try:
                return [int(w) for w in words]
            except ValueError:
                raise ValueError(_("{typed}: type whole numbers separated by commas or spaces, e.g. {example}.").format(
                    typed=repr(text), example=_example(game, key))) from None
        if text in ("[]", ""):
            return []
        return [part.strip().strip('"') for part in text.split(",") if part.strip()]
    if parsed is _NOT_JSON:
        if kind in (None, "object"):
            raise ValueError(_("Type it as JSON, e.g. {example}.").format(example=_example(game, key)))
        return text
    return parsed


_NOT_JSON = object()


def _schema_items(game: str, node: dict) -> dict:
    return _resolve(game, node.get("items") or {})


def _example(game: str, key: str) -> str:
    try:
        return datapack.example(game, key)
    except CompanionError:
        return "..."


def short(value: Any, width: int = 60) -> str:
    """A value in a few words: numbers and names as a list, a long list counted."""
    if isinstance(value, dict):
        return ", ".join(f"{k}: {short(v, 30)}" for k, v in value.items())
    if isinstance(value, list):
        if len(value) > 8 or any(isinstance(v, (list, dict)) for v in value):
            if value and isinstance(value[0], (list, str)):
                return ngettext("{n} line", "{n} lines", len(value)).format(n=len(value))
            return ngettext("{n} value", "{n} values", len(value)).format(n=len(value))
        text = ", ".join("?" if v is None else str(v) for v in value)
    else:
        text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= width else text[: width - 1] + "…"


def _say(text: str) -> None:
    from companion.terminal.render import wrap

    click.echo(wrap(text, indent="  "))


def _say_notes(game: str, key: str) -> None:
    """The pack's notes on a value before its question: what needs it and where to look."""
    need = datapack.need_text(game, key)
    if need:
        _say(_("Needed for: {need}.").format(need=need))
    where = datapack.where_text(game, key)
    if where:
        _say(_("Where: {where}.").format(where=where))


def ask(app: App, game: str, key: str, progress: str = "", why: str = "") -> bool:
    """Ask the players for one printed value and keep their answer; False when they skip it.

    The question says what needs the value and where it is printed; a whole suggestion is the
    default (Enter confirms it), a partial one is shown as a hint; the answer is checked as
    `data set` checks it (the schema, the rulebook's stated values, the game's own check) and
    asked again until it fits. Ctrl-C stops, keeping nothing of this question."""
    label = datapack.title(game, key) or key
    head = f"{progress} · " if progress else ""
    _say(f"{head}{game} {key}" + (f": {label}" if label != key else "") + (f" ({_(why)})" if why else ""))
    _say_notes(game, key)
    means = datapack.means_text(game, key)
    if means:
        _say(_("What it means: {means}.").format(means=means))
    for stated_key, fact in datapack.stated(game).items():
        if stated_key.startswith(key + "."):
            _say(_("The rulebook states {what}: {value}.").format(what=fact["what"], value=fact["value"]))
    found = datapack.suggestion_for(game, key)
    suggestion = found[1] if found and found[0] == key else None
    hint = datapack.suggestions(game).get(key)
    if suggestion is not None:
        source = suggestion.get("source") or suggestion.get("note") or _("a public source")
        if "check" in source.casefold():
            _say(_("Suggested: {value}. From: {source}.").format(value=short(suggestion["value"]),
                                                                 source=source.rstrip(".")))
        else:
            _say(_("Suggested: {value}. From: {source}. Check it against your own copy.").format(
                value=short(suggestion["value"]), source=source.rstrip(".")))
        prompt = _("Enter confirms the suggestion; type your own value, or skip: ")
    else:
        if hint and hint.get("value") is not None:  # a hint with gaps: read, never filled in
            if hint.get("note"):
                _say(_("Suggested in part: {value} ({note}): read the rest off your copy.").format(
                    value=short(hint["value"]), note=hint["note"]))
            else:
                _say(_("Suggested in part: {value}: read the rest off your copy.").format(value=short(hint["value"])))
        shape = _example(game, key)
        if len(shape) > 1 and shape[0] == shape[-1] == '"':  # a word is typed without JSON's quotes
            shape = shape[1:-1]
        prompt = _("Type it (e.g. {example}), or Enter to skip: ").format(example=shape)

    def parse(text: str) -> Any:
        if text.casefold() in SKIP or (not text and suggestion is None):
            return _SKIPPED
        value = suggestion["value"] if not text else read(game, key, text)
        datapack.validate(game, key, value, app.store.user_values(game))
        return value

    kept = _ask_and_keep(app, game, prompt, lambda text: _keyed(parse(text), lambda value: {key: value}))
    if kept is None:
        return False
    value = kept[key]
    _say(_("Kept: {key} = {value} (`data show {game} {key}`; `data unset {game} {key}` forgets it).").format(
        key=key, value=short(value), game=game))
    return True


def _keyed(answer: Any, keys: Any) -> Any:
    """A parsed answer as {key: value} to keep, or the skip as it is."""
    return answer if answer is _SKIPPED else keys(answer)


def _ask_and_keep(app: App, game: str, prompt: str, parse) -> dict | None:
    """Ask until ``parse`` takes the answer ({key: value}, or the skip); keep each value, checked
    again under the folder's lock (another shell may have set a value it depends on meanwhile).
    None, said once, when the players skip it."""
    kept = app.ask_until(prompt, parse, optional=True)
    if kept is _SKIPPED:
        _say(_("Skipped: it is asked again when it is needed."))
        return None
    with app.store.writing():
        for key, value in kept.items():
            datapack.validate(game, key, value, app.store.user_values(game))
            app.store.set_user_value(game, key, value)
    return kept


COUNTS_AT_ONCE = 3  # this many counts of one list (a deck's cards) or more are asked as one question


def grouped(game: str, keys: list[str]) -> list[str | tuple[str, str, list[str]]]:
    """``keys`` in their order, the counts of one list's entries (`special_cards.NAME.copies`:
    whole numbers under one list, :data:`COUNTS_AT_ONCE` or more) gathered into one question
    ``(list, leaf, [names])`` where the first of them stood (issue 31: 18 questions were one
    count each)."""
    runs: dict[tuple[str, str], list[str]] = {}
    for key in keys:
        parts = key.split(".")
        if len(parts) == 3 and _schema(game, key).get("type") == "integer":
            runs.setdefault((parts[0], parts[2]), []).append(parts[1])
    out: list = []
    for key in keys:
        parts = key.split(".")
        names = runs.get((parts[0], parts[2])) if len(parts) == 3 else None
        if names is None or len(names) < COUNTS_AT_ONCE:
            out.append(key)
        elif parts[1] == names[0]:
            out.append((parts[0], parts[2], names))
    return out


def ask_counts(app: App, game: str, group: str, leaf: str, names: list[str], progress: str = "") -> bool:
    """How many of each of ``names`` (the entries of ``group``, each count at ``leaf``) in one
    question: Enter keeps one of each, ``NAME=N`` the ones that differ; checked as `data set`
    checks each; False when skipped."""
    import re

    head = f"{progress} · " if progress else ""
    _say(f"{head}{game} {group}.*.{leaf}")
    _say(ngettext("How many of each: one question for this {n} kind.",
                  "How many of each: one question for all {n} kinds.", len(names)).format(n=len(names)))
    _say_notes(game, f"{group}.{names[0]}.{leaf}")
    _say(_("The kinds: {names}.").format(names=", ".join(names)))
    example = " ".join(f"{n}={c}" for n, c in zip(names[-2:], (2, 0)))
    prompt = _("Enter: one of each; or type only those that differ as NAME=N (e.g. {example}), or skip: ").format(
        example=example)

    def parse(text: str) -> Any:
        if text.casefold() in SKIP:
            return _SKIPPED
        counts = {name: 1 for name in names}
        for token in (t for t in re.split(r"[,\s]+", text) if t):
            name, sep, typed = token.partition("=")
            if not sep or name not in counts:
                raise ValueError(_("{token} is not NAME=N with a NAME of those listed: type e.g. {example}.").format(
                    token=repr(token), example=example))
            counts[name] = read(game, f"{group}.{name}.{leaf}", typed)
        for name, count in counts.items():
            datapack.validate(game, f"{group}.{name}.{leaf}", count, app.store.user_values(game))
        return counts

    kept = _ask_and_keep(app, game, prompt, lambda text: _keyed(
        parse(text), lambda counts: {f"{group}.{name}.{leaf}": count for name, count in counts.items()}))
    if kept is None:
        return False
    counts = dict(zip(names, kept.values()))
    differ = [f"{n}={c}" for n, c in counts.items() if c != 1]
    _say((_("Kept: one of each, but {differ} (`data show {game} {group}`).").format(differ=", ".join(differ), game=game,
                                                                                  group=group) if differ else
          _("Kept: one of each (`data show {game} {group}`).").format(game=game, group=group)))
    return True


def ask_missing(app: App, game: str, key: str) -> bool:
    """In the shell, a command needs ``key`` and nobody knows it: ask for it now (its enclosing
    value when that is what the pack suggests whole). True when it was given: the command
    goes on."""
    if not app.can_ask() or game not in datapack.pack_names():
        return False
    found = datapack.suggestion_for(game, key)
    whole = found[0] if found else key
    try:
        datapack.known_key(game, whole)
    except CompanionError:
        return False
    parts = [k for k in pending(app, game) if k.startswith(whole + ".")]
    if parts and whole not in pending(app, game):  # a table asked part by part (a chart: winner, missing)
        return all([ask(app, game, k, progress=_("{n} of {total}").format(n=n, total=len(parts)), why=NEEDED)
                    for n, k in enumerate(parts, 1)])
    return ask(app, game, whole, why=NEEDED)


def run(app: App, game: str) -> None:
    """`data setup GAME`: every value still unknown, one at a time, then the game's own."""
    from companion.core import registry

    values = pending(app, game)
    keys = grouped(game, values)  # one question per value, a deck's counts one for all (issue 31)
    extra = None
    if game in registry.known():
        try:
            extra = registry.parts(game).get("SETUP")
        except CompanionError:
            extra = None
    if not keys and extra is None:
        click.echo(_("Every printed value of {game} is known: nothing to set up (`data show {game}`).").format(game=game))
        return
    if keys:
        _say(ngettext("{n} printed value of {game} is not known yet. Each is asked once: Enter confirms a "
                      "suggestion or skips a question without one, `skip` skips any; Ctrl-C stops (what was kept "
                      "stays kept).",
                      "{n} printed values of {game} are not known yet. Each is asked once: Enter confirms a "
                      "suggestion or skips a question without one, `skip` skips any; Ctrl-C stops (what was kept "
                      "stays kept).", len(values)).format(n=len(values), game=game))
    kept = 0
    try:
        for n, key in enumerate(keys, 1):
            click.echo("")
            progress = _("{n} of {total}").format(n=n, total=len(keys))
            kept += (ask_counts(app, game, *key, progress=progress) if isinstance(key, tuple)
                     else ask(app, game, key, progress=progress))
        if extra is not None:
            from companion.contract.declare import At

            click.echo("")
            extra(At(host=app))
    except (KeyboardInterrupt, EOFError):  # what was kept stays kept: a set-up can stop anywhere
        click.echo("")
        _say(ngettext("Set-up stopped after {n} value kept; they stay kept, and `data setup {game}` goes on "
                      "with the rest.",
                      "Set-up stopped after {n} values kept; they stay kept, and `data setup {game}` goes on "
                      "with the rest.", kept).format(n=kept, game=game))
        return
    left = pending(app, game)
    click.echo("")
    if keys:
        if left:
            _say(_("Kept {kept} of {total}. {left} still unknown: each is asked when a command needs it, or type "
                   "`data setup {game}` again.").format(kept=kept, total=len(keys), left=len(left), game=game))
        else:
            _say(_("Kept {kept} of {total}. Every printed value is known now.").format(kept=kept, total=len(keys)))


def first_clause(text: str) -> str:
    """A note up to its first ";" or ". " (the listing after `new` is one line a group), in any
    language: a break inside parentheses cuts before them, so no "(" is left open."""
    depth, opened = 0, 0
    for i, char in enumerate(text):
        if char == "(":
            opened = i if depth == 0 else opened
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif char == ";" or text.startswith(". ", i):
            return (text[:opened] if depth else text[:i]).strip()
    return text.strip()


def asked_later(app: App, game: str, keys: list[str] | None = None) -> list[str]:
    """What `new` and `serve` say of the values still unknown (issue 31): which ones, grouped by
    what they are, and what asks for them (the move that first needs one: on the phone that
    makes it, or in the shell), so that a "no" to the set-up stops nobody later."""
    from companion.contract.language import _, ngettext

    keys = pending(app, game) if keys is None else keys
    if not keys:
        return []
    groups: dict[str, list[str]] = {}
    for key in keys:
        groups.setdefault(key.split(".")[0], []).append(key)
    lines = [ngettext("{n} printed value of {game} is not known yet: the phone whose move first needs it asks "
                      "for it then (the shell asks at the laptop).",
                      "{n} printed values of {game} are not known yet: the phone whose move first needs one "
                      "asks for it then (the shell asks at the laptop).", len(keys)).format(n=len(keys), game=game)]
    for group, members in groups.items():
        need = first_clause(datapack.need_text(game, members[0]))
        lines.append("  - " + (_("{group} ({n}): needed for {what}").format(group=group, n=len(members), what=need)
                               if need else _("{group} ({n})").format(group=group, n=len(members))))
    return lines


def offer(app: App, game: str) -> None:
    """After `new GAME` in the shell: when printed values are missing, offer the set-up."""
    if not app.can_ask() or game not in datapack.pack_names():
        return
    keys = pending(app, game)
    if not keys:
        return

    def yes_no(text: str) -> bool:
        from companion.contract.language import pgettext
        from companion.terminal.groups import is_yes

        if is_yes(text):
            return True
        if text.strip().casefold() in ("", "n", "no", pgettext("answer", "n"), pgettext("answer", "no")):
            return False
        raise ValueError(pgettext("answer", "Type y or n."))  # j or n in German (is_yes)

    for line in asked_later(app, game, keys):
        _say(line)  # a group's line too, wrapped under its dash (issue 31: between words at 60 columns)
    try:
        wanted = app.ask_until(ngettext("{n} printed value is not known yet: set it up now? [y/N] (each is asked "
                                        "when needed otherwise) ",
                                        "{n} printed values are not known yet: set them up now? [y/N] (each is "
                                        "asked when needed otherwise) ", len(keys)).format(n=len(keys)),
                               yes_no, optional=True)
    except (KeyboardInterrupt, EOFError):  # the session is made already: only the set-up is left out
        click.echo("")
        return
    if wanted:
        run(app, game)
