"""Printed game data: the packs shipped in data/ plus the values the players typed themselves.

A pack is one JSON file per game or edition::

    {
      "game": "atlantic-star",          # the game id the pack serves
      "title": "Atlantic Star",
      "pack_version": 1,
      "values": {...},                  # every printed value the rules need; null = unknown
      "sources": {"dotted.key": "where the value came from", ...},
      "needs": {"dotted.key": "what needs it, shown by `data check`", ...},
      "where": {"dotted.key": "where on the box, cards or board it is printed (`data setup`)", ...},
      "means": {"dotted.key": "what it means, place by place (`data setup`)", ...},  # optional
      "suggestions": {"dotted.key": {"value", "source"}}  # optional: public, to confirm, never a value
      "examples": {"dotted.key": "an example of the shape to type", ...},
      "schema": {...},                  # JSON Schema of "values"; unknown values may be null
      "renamed": {"old.key": "new.key"} # optional: a value that moved; the players' old key reads on
    }

The players' own values live in the data folder (see store.py) and override the pack; a
session freezes the merged values when it starts, so later `data set` never rescores it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
import threading
from typing import Any, Iterator

from companion.contract.language import _
from companion.contract.api import json_copy
from companion.contract.errors import CompanionError, MissingValue
from companion.core.json_read import loads


def _pack_dir():
    """Where the shipped packs are: the installed companion.data package, else the source tree.

    Returns a Path or an importlib.resources Traversable (companion.data has no __init__.py,
    so it may be a namespace package whose files() is not a plain path). The folders on disk
    are looked at first: importing importlib.resources costs a tenth of a `status` (issue 27).
    """
    package = Path(__file__).resolve().parent.parent
    # installed (`pip install .`: companion/data), else the source tree of an editable install
    for folder in (package / "data", package.parent / "data" if (package.parent / "pyproject.toml").is_file() else None):
        try:
            if folder is not None and any(p.name.endswith(".json") for p in folder.iterdir()):
                return folder
        except OSError:
            pass
    try:
        from importlib.resources import files

        found = files("companion.data")
        if any(p.name.endswith(".json") for p in found.iterdir()):
            return found
    except (ModuleNotFoundError, TypeError, FileNotFoundError, NotADirectoryError):
        pass
    return Path(__file__).resolve().parent.parent.parent / "data"


def _shipped() -> list[str]:
    folder = _pack_dir()
    try:
        return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))
    except (FileNotFoundError, NotADirectoryError):
        return []


def _plugin_pack(game: str):
    """A plugin game's own pack (its ``pack_file``, "package:file.json"), or None.

    Asked only for ids that have no shipped pack, so the built-in games never pay for it.
    """
    from companion.core import registry

    if game not in registry.known():
        return None
    try:
        ref = registry.get(game).pack_file
    except CompanionError:
        return None  # a broken plugin: `games` reports it
    if ":" not in ref:
        return None
    from importlib.resources import files

    package, _, name = ref.partition(":")
    return files(package).joinpath(name)


def pack_names() -> list[str]:
    """The games with printed values: the shipped packs, then the plugins' own."""
    from companion.core import registry

    shipped = _shipped()
    return shipped + [g for g in registry.known() if g not in shipped and _plugin_pack(g) is not None]


def has_pack(game: str) -> bool:
    return game in _shipped() or _plugin_pack(game) is not None


@lru_cache(maxsize=None)
def _load(game: str) -> dict:
    if game in _shipped():
        return loads(_pack_dir().joinpath(f"{game}.json").read_text(encoding="utf-8"))
    source = _plugin_pack(game)
    if source is None:
        raise CompanionError(
            _("No printed data for {game}: the games with data are {join}.").format(game=repr(game), join=', '.join(pack_names()))
        )
    try:
        return loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CompanionError(_("The data pack of {game} ({source}) cannot be read: {reason}.").format(game=repr(game), source=source, reason=exc)) from None


def pack(game: str) -> dict:
    """The shipped pack of ``game`` (a copy: callers may change it)."""
    return json_copy(_load(game))


def suggestions(game: str) -> dict:
    """The pack's public suggestions (key -> {"value", "source"}), a copy of that part alone."""
    return json_copy(_load(game).get("suggestions") or {})


def split_key(key: str) -> list[str]:
    parts = key.split(".")
    if not key or any(not p for p in parts):
        raise CompanionError(_("{key} is not a data key: write it as dotted names, e.g. vp.5").format(key=repr(key)))
    return parts


def get_path(values: Any, key: str) -> Any:
    node = values
    for part in split_key(key):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise KeyError(key)
    return node


def set_path(values: Any, key: str, value: Any) -> None:
    parts = split_key(key)
    node = values
    for part in parts[:-1]:
        if isinstance(node, dict):
            if node.get(part) is None:  # filling in part of a value still unknown
                node[part] = {}
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise KeyError(key)
    last = parts[-1]
    if isinstance(node, list) and last.isdigit() and int(last) < len(node):
        node[int(last)] = value
    elif isinstance(node, dict):
        node[last] = value
    else:
        raise KeyError(key)


def renamed(game: str) -> dict[str, str]:
    """Keys the pack renamed (old -> new): the players' values under an old key still count."""
    return dict(_load(game).get("renamed") or {})


def current_key(game: str, key: str) -> str:
    """``key`` under the name the pack uses now (``disputed_single`` -> ``single_lines.others``)."""
    return renamed(game).get(key, key)


def by_current_keys(game: str, user_values: dict[str, Any]) -> dict[str, Any]:
    """The players' values keyed by the pack's current names; a value under the new name wins
    over one still kept under the old name (an older data folder)."""
    names = renamed(game)
    out = {names[k]: v for k, v in user_values.items() if k in names}
    out.update({k: v for k, v in user_values.items() if k not in names})
    return out


def merged(game: str, user_values: dict[str, Any]) -> dict:
    """The pack's values with the players' own values laid over them."""
    values = json_copy(_load(game)["values"])  # the values alone: the rest of the pack is text
    for key, value in sorted(by_current_keys(game, user_values).items()):
        try:
            set_path(values, key, value)
        except KeyError:
            continue  # a key the pack no longer has: ignored, still listed by `data show`
    return values


def known_key(game: str, key: str) -> bool:
    """Whether ``key`` names a value (or a part of one) that the pack describes."""
    try:
        get_path(_load(game)["values"], key)  # read only: no copy of the pack
        return True
    except KeyError:
        pass
    # a key inside a null value (e.g. vp.5 while vp is null) is known when the schema has it
    return schema_at(game, key) is not None


def schema_of(game: str) -> dict:
    """The pack's whole schema, as loaded (not a copy: read it, never change it)."""
    return _load(game).get("schema") or {}


def schema_at(game: str, key: str) -> dict | None:
    """The part of the pack's schema that describes the value at ``key``, or None."""
    node = _load(game).get("schema", {})
    for part in split_key(key):
        props = node.get("properties") or {}
        if part in props:
            node = props[part]
            continue
        if isinstance(node.get("additionalProperties"), dict):  # an object keyed by name (ships)
            node = node["additionalProperties"]
            continue
        inner = [s for s in node.get("anyOf", []) + node.get("oneOf", []) if s.get("type") != "null"]
        for sub in inner:
            if part in (sub.get("properties") or {}):
                node = sub["properties"][part]
                break
        else:
            return None
    return node


def title(game: str, key: str) -> str:
    """The name the pack's schema gives the value at ``key`` (its "title": the rulebook's own
    words, e.g. "the ferry through the English Channel"), or "" when it gives none."""
    node = schema_at(game, key) or {}
    return str(node.get("title") or "")


def validate(game: str, key: str, value: Any, user_values: dict[str, Any]) -> None:
    """Refuse a value whose shape the pack's schema does not allow, naming what is wrong."""
    if not known_key(game, key):
        raise CompanionError(
            _("{game} has no printed value {key}: `companion data show {game}` lists them.")
              .format(game=game, key=repr(key))
        )
    trial = by_current_keys(game, user_values)
    trial[key] = value
    values = merged(game, trial)
    check_stated(game, values)
    schema = schema_of(game)
    if not schema:
        return
    import json

    import jsonschema  # imported here: only `data set` pays for it

    from jsonschema.exceptions import best_match

    checked = _still_to_check(schema, values)
    error = best_match(jsonschema.Draft202012Validator(checked).iter_errors(values))
    if error is None:
        _known_valid(schema, values, checked)
    if error is not None:
        while error.context:  # inside anyOf/oneOf: the branch that got furthest explains best,
            # never the "or null" branch (null only means "not known yet")
            branch = [e for e in error.context if e.schema.get("type") != "null"] or error.context
            error = best_match(branch)
        where = ".".join(str(p) for p in error.absolute_path) or key
        raise CompanionError(_("{dumps} does not fit {where}: {message}.").format(dumps=json.dumps(value), where=where, message=error.message))
    _game_check(game, values, key)


# The values a schema check found valid, part by part (issue 29): `data set` checks the whole
# merged values (a Trans board is thousands of items), though one value changed; a part (a
# top-level property) seen valid before under the same schema is left out of the next check.
# Only for a schema whose top level is a plain object of properties with no references: its
# errors are then the errors of each part, so leaving out a valid part changes no refusal.
_VALID_KEPT = 512
_valid: dict[bytes, None] = {}
_valid_lock = threading.Lock()
_PLAIN_TOP = {"$schema", "type", "required", "properties", "title", "description"}


def _part_digest(name: str, schema: Any, value: Any) -> bytes | None:
    """The part's digest with its schema; None for a value JSON would not tell apart (a tuple
    is written as a list, but the schema's "array" is a list only): such a part is checked."""
    import hashlib
    import json

    if not _json_only(value):
        return None
    text = json.dumps([name, schema, value], sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=20).digest()


def _json_only(value: Any) -> bool:
    """Whether ``value`` is made of JSON's own kinds only (dict with text keys, list, text,
    numbers, true/false, null), as read from a file."""
    kind = type(value)
    if kind is dict:
        return all(type(k) is str and _json_only(v) for k, v in value.items())
    if kind is list:
        return all(_json_only(v) for v in value)
    return value is None or kind in (str, int, float, bool)


def _plain(schema: dict) -> bool:
    """Whether ``schema``'s top level is a plain object of properties without references. Told
    once per schema object (the pack's as loaded, never changed: :func:`schema_of`, held with
    the answer so that its id stays its own): `data set` asked twice a value, and encoding a
    Trans schema whole each time cost a third of what the check left to do (issue 29)."""
    held = _plain_kept.get(id(schema))
    if held is not None and held[0] is schema:
        return held[1]
    import json

    plain = (set(schema) <= _PLAIN_TOP and isinstance(schema.get("properties"), dict)
             and not any(k in json.dumps(schema) for k in ('"$ref"', '"$dynamicRef"', '"$id"', '"$anchor"')))
    with _valid_lock:
        if len(_plain_kept) >= 16:
            _plain_kept.clear()
        _plain_kept[id(schema)] = (schema, plain)
    return plain


_plain_kept: dict[int, tuple[dict, bool]] = {}


def _still_to_check(schema: dict, values: Any) -> dict:
    """The schema with the parts already known valid left out (the whole schema otherwise)."""
    if not isinstance(values, dict) or not _plain(schema):
        return schema
    props = schema["properties"]
    left = {name: sub for name, sub in props.items()
            if name not in values or (_part_digest(name, sub, values[name]) or b"") not in _valid}
    return schema if len(left) == len(props) else {**schema, "properties": left}


def _known_valid(schema: dict, values: Any, checked: dict) -> None:
    """Remember the parts of ``values`` that ``checked`` found valid (a bounded number)."""
    if not isinstance(values, dict) or not _plain(schema):
        return
    digests = [d for name, sub in checked["properties"].items() if name in values
               for d in [_part_digest(name, sub, values[name])] if d is not None]
    with _valid_lock:  # the server's questions are kept from its worker threads
        for digest in digests:
            _valid.pop(digest, None)
            _valid[digest] = None
        while len(_valid) > _VALID_KEPT:
            del _valid[next(iter(_valid))]


def _game_check(game: str, values: dict, key: str) -> None:
    """What the schema cannot say, the game may: a line its board does not have (Trans)."""
    from companion.core import registry

    if game not in registry.known():
        return
    try:
        check = registry.get(game).check_values
    except CompanionError:  # a broken plugin: `games` reports it; its schema check stands
        return
    check(values, key)


def stated(game: str) -> dict[str, dict]:
    """The values the rulebook itself states inside a value nobody knows whole (Atlantic Star's
    1-star 6th place is 4): dotted key -> {"value", "what", "source"} from the pack's "stated"."""
    return json_copy(_load(game).get("stated") or {})


def check_stated(game: str, values: dict) -> None:
    """Refuse values that contradict what the rulebook states, quoting the rule."""
    for key, fact in stated(game).items():
        try:
            given = get_path(values, key)
        except KeyError:
            continue
        if given is not None and given != fact["value"]:
            raise CompanionError(_("{what} is {value}, not {given}: {source}. Check that value on your board.").format(
                what=fact["what"].capitalize(), value=fact["value"], given=given, source=fact["source"]))



def _object_schema(schema: dict | None) -> dict:
    """The object branch of a schema (inside anyOf/oneOf with null), or {}."""
    if not schema:
        return {}
    if "properties" in schema:
        return schema
    for sub in schema.get("anyOf", []) + schema.get("oneOf", []):
        if "properties" in sub:
            return sub
    return {}


def unknowns(values: Any, prefix: str = "", schema: dict | None = None) -> Iterator[str]:
    """Dotted keys of every value still null (or absent where the schema names it)."""
    if values is None:
        props = _object_schema(schema).get("properties")
        if props and prefix and all("properties" not in _object_schema(p) for p in props.values()):
            # an unknown table supplied part by part: report the parts (vp.1 ... vp.5)
            for k in props:
                yield f"{prefix}.{k}"
        else:
            yield prefix
    elif isinstance(values, dict):
        props = _object_schema(schema).get("properties") or {}
        for k in list(values) + [k for k in props if k not in values]:
            yield from unknowns(values.get(k), f"{prefix}.{k}" if prefix else str(k), props.get(k))
    # lists of values are leaves: a list with some nulls is reported by its key
    elif isinstance(values, list) and any(v is None for v in values):
        yield prefix


def missing(game: str, values: dict) -> list[str]:
    """Every value of ``game`` still unknown, given the merged ``values``."""
    return list(unknowns(values, "", schema_of(game)))  # read only: no copy of the pack


def _nearest(game: str, section: str, key: str) -> str:
    """The pack's note in ``section`` for ``key`` or its nearest enclosing key ("" if none)."""
    notes = _load(game).get(section, {})
    parts = key.split(".")
    for i in range(len(parts), 0, -1):
        k = ".".join(parts[:i])
        if k in notes:
            return notes[k]
    return ""


def _told(game: str, section: str, key: str) -> str:
    """The pack's note for ``key`` in the reader's language: "needs", "where" and "means" are
    the companion's own words about a value (the pack is data, so they stay English in data/ and
    their German is in locale/de/packs.po); its "sources" name printed things and stay as written."""
    note = _nearest(game, section, key)
    return _(note) if note else ""


def need_text(game: str, key: str) -> str:
    """What needs the value at ``key`` (shown by `data check`), in the reader's language."""
    return _told(game, "needs", key)


def source_text(game: str, key: str) -> str:
    """Where the pack's value at ``key`` came from (shown by `data show`)."""
    return _nearest(game, "sources", key)


def set_command(game: str, key: str) -> str:
    """The command that supplies ``key``, as `data check`, `data show` and refusals print it.

    Its placeholders (N, W, P1 ..., S1 ..., COLOUR, CITY, JUNCTION-JUNCTION, 1st ... 6th) are
    typed over with real values and the command then works as shown: numbers are never quoted,
    names always are (a test fills every template and runs it)."""
    return f"companion data set {game} {key} '{example(game, key)}'"


def example(game: str, key: str) -> str:
    """An example of the value's shape for messages; `vp.*` in a pack serves vp.1 ... vp.5."""
    examples = _load(game).get("examples", {})
    parent = key.rsplit(".", 1)[0] + ".*" if "." in key else None
    return examples.get(key) or (examples.get(parent) if parent else None) or "..."


def _template(game: str, key: str) -> str:
    """The pack's template for a value the rules miss, which works once its placeholders are
    typed over (MissingValue's example)."""
    try:
        return example(game, key) if game in pack_names() else "..."
    except CompanionError:
        return "..."


def suggestion_for(game: str, key: str) -> tuple[str, dict] | None:
    """The pack's whole suggestion for ``key`` or the value enclosing it, as (its key, the
    suggestion {value, source, note}), or None: a suggestion with gaps is a hint, not a value."""
    try:
        offered = _load(game).get("suggestions") or {}
    except CompanionError:
        return None
    parts = key.split(".")
    for i in range(len(parts), 0, -1):
        k = ".".join(parts[:i])
        hint = offered.get(k)
        if hint and not has_gaps(hint.get("value")):
            return k, json_copy(hint)
    return None


def has_gaps(value: Any) -> bool:
    """A value with an unknown (None) anywhere in it."""
    if value is None:
        return True
    if isinstance(value, list):
        return any(has_gaps(v) for v in value)
    if isinstance(value, dict):
        return any(has_gaps(v) for v in value.values())
    return False


def where_text(game: str, key: str) -> str:
    """Where on the box, the cards or the board the value at ``key`` is printed (the pack's
    "where", restating its sources), or "", in the reader's language."""
    return _told(game, "where", key)


def means_text(game: str, key: str) -> str:
    """What the value at ``key`` means, each place of it (the pack's "means": a chart's W and
    P1, P2 ...), or "": said with its question (`data setup`, a phone's), in the reader's language."""
    return _told(game, "means", key)


def _suggested(game: str, key: str) -> str | None:
    found = suggestion_for(game, key) if game in pack_names() else None
    return found[0] if found else None


MissingValue.template = _template
MissingValue.suggested = _suggested
