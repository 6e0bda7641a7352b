"""JSON read as ``json.loads`` reads it, by the same C scanner, without importing the json package.

Importing json costs every start about 5 M instructions (issue 27: its decoder and encoder
compile six regular expressions, two of which its own reading uses), and a `status` only reads
JSON: the session, its snapshot, the games' cache. :func:`loads` and :func:`raw_decode` give what
json's default decoder gives, value for value; whatever json would refuse (a byte-order mark,
no value, text after the value, bytes not in UTF-8, a bad string or number) is handed to json
itself, so the error raised is json's own ``JSONDecodeError`` (a ``ValueError``), word for word
(the C scanner cannot name an error before json.decoder is imported: it raises SystemError).
Writing JSON still imports json, where a file is written.
"""

from __future__ import annotations

from typing import Any

from _json import make_scanner

WHITESPACE = " \t\n\r"  # json's own: r"[ \t\n\r]*"


class _Default:
    """What json's default decoder (``json.JSONDecoder()``) hands its C scanner."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


_scan = make_scanner(_Default())


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``."""
    if isinstance(text, (bytes, bytearray)):
        if text[:1] not in (b"[", b"{") or 0 in text[:4]:  # (json's guess of the encoding is then UTF-8)
            return _json_loads(text)
        text = text.decode("utf-8", "surrogatepass")
    elif not isinstance(text, str) or text.startswith("\ufeff"):
        return _json_loads(text)
    start = len(text) - len(text.lstrip(WHITESPACE))
    try:
        value, end = _scan(text, start)
    except Exception:  # refused: json says why (the scanner's own refusals need json.decoder imported)
        return _json_loads(text)
    if end != len(text) and text[end:].lstrip(WHITESPACE):
        return _json_loads(text)
    return value


def raw_decode(text: str, at: int = 0) -> tuple[Any, int]:
    """``json.JSONDecoder().raw_decode(text, at)``: the value starting at ``at`` and where it ends."""
    try:
        return _scan(text, at)
    except Exception:  # refused: json says why, as in loads
        import json

        return json.JSONDecoder().raw_decode(text, at)


def _json_loads(text):
    import json

    return json.loads(text)
