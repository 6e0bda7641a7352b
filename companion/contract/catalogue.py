"""A gettext catalogue read from its ``.po`` source or its compiled ``.mo`` (issue 28).

The catalogues are written as ``.po`` files (Babel's ``pybabel extract/update`` keeps them) and
compiled to ``.mo`` when the package is built (setup.py calls :func:`compile_po` with nothing but
the standard library), so ``pip install .`` needs neither Babel nor GNU gettext. A working copy
that was never built reads the ``.po`` itself: the same messages, a few milliseconds slower.

This module imports nothing of the house: setup.py loads it by its path, before the package is
installed.
"""

from __future__ import annotations

import ast
import struct
from pathlib import Path


def read_po(path: str | Path) -> list[dict]:
    """The entries of a ``.po`` file, each {"msgid", "msgid_plural"?, "msgctxt"?, "msgstr" or
    ("msgstr", i)..., "fuzzy"}, the header (msgid "") included."""
    entries: list[dict] = []
    entry: dict = {}
    field = None
    fuzzy = False

    def finish() -> None:
        nonlocal entry, fuzzy
        if "msgid" in entry:
            entry["fuzzy"] = fuzzy
            entries.append(entry)
        entry, fuzzy, = {}, False

    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            finish()
            field = None
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if "msgid" in entry:
                    finish()
                fuzzy = True
            continue
        if line.startswith('"'):
            entry[field] += ast.literal_eval(line)
            continue
        word, _, rest = line.partition(" ")
        if word in ("msgctxt", "msgid") and "msgid" in entry:
            finish()
        field = ("msgstr", int(word[7:-1])) if word.startswith("msgstr[") else word
        entry[field] = ast.literal_eval(rest)
    finish()
    return entries


def key_of(entry: dict) -> str:
    """gettext's key of an entry: its msgid, after its context and EOT when it has one."""
    return entry["msgctxt"] + "\x04" + entry["msgid"] if "msgctxt" in entry else entry["msgid"]


def catalog(entries: list[dict]) -> dict:
    """{key: msgstr}, with a plural's forms as {(key, i): msgstr}: the shape of the standard
    library's ``GNUTranslations._catalog``. Fuzzy and empty translations are left out, as msgfmt
    leaves them out: the English text is better than an unchecked one."""
    out: dict = {}
    for entry in entries:
        if entry["fuzzy"]:
            continue
        key = key_of(entry)
        if "msgid_plural" in entry:
            forms = sorted((k[1], v) for k, v in entry.items() if isinstance(k, tuple))
            if forms and all(v for _, v in forms):
                out.update({(key, i): v for i, v in forms})
        elif entry.get("msgstr"):
            out[key] = entry["msgstr"]
    return out


def compile_po(sources, target: str | Path) -> int:
    """Write the ``.mo`` of the ``.po`` file(s) ``sources`` to ``target`` (GNU's format, as
    msgfmt writes it; the parts of one catalogue become one file, the first header kept);
    returns the number of messages."""
    pairs, seen = [], set()
    entries = []
    for source in ([sources] if isinstance(sources, (str, Path)) else sources):
        entries += read_po(source)
    for entry in entries:
        if key_of(entry) in seen:
            continue
        seen.add(key_of(entry))
        table = catalog([entry])
        if not table and entry["msgid"]:
            continue
        key = key_of(entry).encode()
        if "msgid_plural" in entry:
            msgid = key + b"\x00" + entry["msgid_plural"].encode()
            msgstr = b"\x00".join(table[k].encode() for k in sorted(table, key=lambda k: k[1]))
        else:
            msgid, msgstr = key, table.get(key_of(entry), "").encode()
        pairs.append((msgid, msgstr))
    pairs.sort()
    ids = strs = b""
    offsets = []
    for msgid, msgstr in pairs:
        offsets.append((len(ids), len(msgid), len(strs), len(msgstr)))
        ids += msgid + b"\x00"
        strs += msgstr + b"\x00"
    start = 7 * 4 + 16 * len(pairs)
    table_ids, table_strs = [], []
    for o1, l1, o2, l2 in offsets:
        table_ids += [l1, o1 + start]
        table_strs += [l2, o2 + start + len(ids)]
    out = struct.pack("Iiiiiii", 0x950412DE, 0, len(pairs), 7 * 4, 7 * 4 + len(pairs) * 8, 0, 0)
    out += struct.pack(f"{len(table_ids)}i", *table_ids) + struct.pack(f"{len(table_strs)}i", *table_strs)
    Path(target).write_bytes(out + ids + strs)
    return len(pairs)


def plural_rule(header: str):
    """The ``Plural-Forms`` of a catalogue's header as a function of n (German and English:
    ``n != 1``; any other rule is read by gettext's own parser)."""
    for line in header.splitlines():
        if line.lower().startswith("plural-forms:"):
            expr = line.split("plural=", 1)[-1].strip().rstrip(";")
            if expr.replace(" ", "") in ("(n!=1)", "n!=1"):
                return lambda n: int(n != 1)
            import gettext

            return gettext.c2py(expr)
    return lambda n: int(n != 1)
