"""The catalogues' helpers for tests and translators (issue 28).

    python tests/catalogue_support.py missing companion/terminal > /tmp/new.po

prints, as .po entries with empty translations, the messages marked in those files (or folders)
that no German part holds yet: append them to the part of that floor
(companion/locale/de/<part>.po), fill in each msgstr, and run tests/test_language.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def extracted(where: Path | None = None) -> list[dict]:
    """The messages marked under ``where`` (default: the whole package), in file order, as
    Babel's extractor (`pybabel extract -F babel.cfg`) finds them."""
    from babel.messages.extract import extract_from_dir, extract_from_file

    where = where or ROOT / "companion"
    if where.is_file():
        found = ((where.name, *rest) for rest in extract_from_file("python", str(where), keywords=KEYWORDS))
    else:
        found = extract_from_dir(str(where), method_map=[("**.py", "python")], keywords=KEYWORDS)
    out, seen = [], set()
    for _file, _line, message, _comments, context in found:
        msgid = message[0] if isinstance(message, tuple) else message
        plural = message[1] if isinstance(message, tuple) else None
        if (context, msgid) not in seen:
            seen.add((context, msgid))
            out.append({"msgid": msgid, "msgid_plural": plural, "msgctxt": context})
    return out


def german_keys() -> set:
    sys.path.insert(0, str(ROOT))
    from companion.contract import catalogue

    keys = set()
    for part in (ROOT / "companion" / "locale" / "de").glob("*.po"):
        keys |= {catalogue.key_of(e) for e in catalogue.read_po(part) if e["msgid"]}
    return keys


def q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def missing(paths: list[str]) -> str:
    have = german_keys()
    out = []
    for path in paths:
        for m in extracted(Path(path).resolve()):
            key = m["msgid"] if not m["msgctxt"] else m["msgctxt"] + "\x04" + m["msgid"]
            if key in have:
                continue
            have.add(key)
            entry = f"msgctxt {q(m['msgctxt'])}\n" if m["msgctxt"] else ""
            entry += f"msgid {q(m['msgid'])}\n"
            if m["msgid_plural"]:
                entry += f"msgid_plural {q(m['msgid_plural'])}\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"
            else:
                entry += 'msgstr ""\n'
            out.append(entry)
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "missing":
        print(missing(sys.argv[2:]))
    else:
        print(__doc__)
