"""The pages as HTML, drawn on the server and complete without JavaScript.

A game describes its pages as plain data ("blocks", below) and this module escapes and draws
them, so no game can forget to escape a player's name. The one exception is a game's own
drawing (``svg`` blocks), which the game builds from its board and escapes itself.

Blocks (dicts with a ``kind`` and an optional ``title``):

- ``facts``: ``items`` = [[label, value], ...];
- ``table``: ``head`` = [column, ...], ``rows`` = [[cell, ...], ...]; a cell is a value or
  ``{"text": ..., "colour": NAME}`` (a coloured dot before the text, NAME from :data:`COLOURS`);
- ``list``: ``items`` = [text, ...];
- ``text``: ``text``;
- ``svg``: ``markup`` (trusted: the game escaped it).

A block with ``"table_only": True`` is drawn on the table page only (a big board the player's
own page draws differently). Styles and the refresh script are inline and fixed, so the
Content-Security-Policy can name their hashes and allow nothing else.
"""

from __future__ import annotations

import base64
import hashlib
from html import escape

# Colours a block may name (city colours, players' colours), as CSS values.
COLOURS = {
    "yellow": "#e8c220", "red": "#d33a2c", "orange": "#f08a24", "green": "#3f9a3f", "blue": "#2f6fd0",
    "white": "#f4f4f4", "pink": "#e879b5", "brown": "#8a5a35", "turquoise": "#2bb5b0", "grey": "#888888",
    "black": "#222222", "purple": "#8048c0",
}
# Players' colours on pages (seat order): bright, and unlike the city colours where possible.
PLAYER_COLOURS = ("#e6194b", "#4363d8", "#3cb44b", "#f58231", "#911eb4", "#42d4f4")

STYLE = """
:root{color-scheme:light dark;--fg:#111;--bg:#fafafa;--muted:#666;--card:#fff;--line:#ddd}
@media (prefers-color-scheme:dark){:root{--fg:#eee;--bg:#161616;--muted:#aaa;--card:#222;--line:#444}}
*{box-sizing:border-box}
body{margin:0;font:17px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:12px 16px;border-bottom:1px solid var(--line)}
h1{font-size:1.3em;margin:0}
h2{font-size:1.05em;margin:0 0 6px}
main{padding:8px 12px;display:grid;gap:12px;grid-template-columns:repeat(auto-fit,minmax(300px,1fr))}
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 12px}
section.wide{grid-column:1/-1}
table{border-collapse:collapse;width:100%}
td,th{text-align:left;padding:3px 6px;border-bottom:1px solid var(--line)}
th{font-weight:600;color:var(--muted)}
dl{margin:0;display:grid;grid-template-columns:auto 1fr;gap:2px 10px}
dt{color:var(--muted)}dd{margin:0}
.sub{color:var(--muted);margin:4px 0 0}
.notice{background:#fff3c4;color:#111;border-color:#e0c060}
.error{background:#ffd9d4;color:#111;border-color:#d07060}
button{font:inherit;padding:10px 14px;margin:4px 6px 4px 0;border-radius:8px;border:1px solid #888;background:#f0f0f0;color:#111}
svg{max-width:100%;height:auto}
section svg.board{display:block;width:100%;max-width:1100px;margin:auto}
.dot{display:inline-block;vertical-align:middle}
footer{padding:10px 16px;color:var(--muted);font-size:.85em}
""".strip()

# Polls the page's version (the session file's mtime) and reloads when it changed: within
# about half a second of an action recorded by any process. A page replaced by
# `serve --new-links` answers 404, and the reload shows that.
SCRIPT = (
    "(function(){var v=document.documentElement.getAttribute('data-v');"
    "var u=location.pathname.replace(/\\/+$/,'')+'/v';"
    "function tick(){fetch(u,{cache:'no-store',credentials:'omit'}).then(function(r){"
    "if(r.status===404){location.replace(location.pathname);return null}return r.text()})"
    ".then(function(x){if(x===null)return;if(x!==v){location.replace(location.pathname)}else{setTimeout(tick,400)}})"
    ".catch(function(){setTimeout(tick,2000)})}setTimeout(tick,400)})();"
)


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


CSP = (
    "default-src 'none'; "
    f"script-src {_hash(SCRIPT)}; style-src {_hash(STYLE)}; img-src data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def dot(colour: str, size: int = 14) -> str:
    fill = COLOURS.get(colour, colour if colour.startswith("#") and len(colour) <= 7 else "#888888")
    r = size // 2
    return (f'<svg class="dot" width="{size}" height="{size}" viewBox="0 0 {size} {size}" aria-hidden="true">'
            f'<circle cx="{r}" cy="{r}" r="{r - 1}" fill="{escape(fill)}" stroke="#555"/></svg> ')


def cell(value) -> str:
    if isinstance(value, dict):
        colour = value.get("colour")
        text = escape(str(value.get("text", "")))
        return (dot(colour) if colour else "") + text
    return escape("" if value is None else str(value))


def block(b: dict) -> str:
    kind = b.get("kind")
    title = f"<h2>{escape(str(b['title']))}</h2>" if b.get("title") else ""
    wide = ' class="wide"' if b.get("wide") or kind == "svg" else ""
    if kind == "facts":
        body = "<dl>" + "".join(f"<dt>{cell(k)}</dt><dd>{cell(v)}</dd>" for k, v in b.get("items") or []) + "</dl>"
    elif kind == "table":
        head = "".join(f"<th>{cell(h)}</th>" for h in b.get("head") or [])
        rows = "".join("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in row) + "</tr>" for row in b.get("rows") or [])
        body = f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
        if not b.get("rows"):
            body = f'<p class="sub">{escape(str(b.get("empty") or "Nothing yet."))}</p>'
    elif kind == "list":
        items = b.get("items") or []
        body = "<ul>" + "".join(f"<li>{cell(i)}</li>" for i in items) + "</ul>" if items else \
            f'<p class="sub">{escape(str(b.get("empty") or "None."))}</p>'
    elif kind == "text":
        body = f"<p>{cell(b.get('text', ''))}</p>"
    elif kind == "svg":
        body = str(b.get("markup") or "")
    else:
        return ""
    return f"<section{wide}>{title}{body}</section>"


def score_bars(status: dict, goal: float | None) -> str:
    """The scores, each with a bar toward the end condition (``goal``), else toward the leader."""
    players = status.get("players") or []
    scores = [p.get("score") if isinstance(p.get("score"), (int, float)) else 0 for p in players]
    top = goal if goal else max([abs(s) for s in scores] + [1])
    width = 160
    rows = []
    for i, (p, score) in enumerate(zip(players, scores)):
        colour = PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
        frac = max(0.0, min(1.0, score / top)) if top else 0.0
        bar = (f'<svg width="{width}" height="16" viewBox="0 0 {width} 16" aria-hidden="true">'
               f'<rect x="0" y="2" width="{width}" height="12" fill="#8883" rx="4"/>'
               f'<rect x="0" y="2" width="{frac * width:.1f}" height="12" fill="{colour}" rx="4"/></svg>')
        winner = " ★" if p.get("name") in (status.get("winners") or []) else ""
        rows.append(f"<tr><td>{dot(colour)}{escape(str(p.get('name')))}{winner}</td>"
                    f"<td>{escape(str(p.get('score')))}</td><td>{bar}</td></tr>")
    aim = f"The bars fill up toward {goal:g}." if goal else "The bars compare with the leader."
    return (f'<section><h2>Scores</h2><table><tbody>{"".join(rows)}</tbody></table>'
            f'<p class="sub">{escape(aim)}</p></section>')


def page(*, title: str, heading: str, lines: list[str], version: str, sections: list[str]) -> str:
    sub = "".join(f'<p class="sub">{escape(line)}</p>' for line in lines if line)
    return (
        "<!doctype html>\n"
        f'<html lang="en" data-v="{escape(version)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        '<link rel="icon" href="data:,">'  # no /favicon.ico request: it would count as a wrong guess
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
        f"<body><header><h1>{escape(heading)}</h1>{sub}</header>"
        f"<main>{''.join(sections)}</main>"
        "<footer>This page follows the game by itself. "
        "<noscript>Reload it to see the latest moves.</noscript></footer>"
        f"<script>{SCRIPT}</script></body></html>"
    )


def choice_form(action: str, form_token: str, offer: dict) -> str:
    """The choice a special card asks of this player: one button per city it may be."""
    buttons = "".join(
        f'<button type="submit" name="choice" value="{escape(str(o), quote=True)}">{escape(str(o))}</button>'
        for o in offer.get("options") or []
    )
    return (f'<section class="wide notice"><h2>{escape(offer.get("title") or "Your choice")}</h2>'
            f"<p>{escape(offer.get('prompt') or '')}</p>"
            f'<form method="post" action="{escape(action, quote=True)}">'
            f'<input type="hidden" name="form" value="{escape(form_token, quote=True)}">{buttons}</form></section>')


def message(text: str, kind: str = "notice") -> str:
    return f'<section class="wide {kind}"><p>{escape(text)}</p></section>'


NOT_FOUND = ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head>"
             "<body><p>Not found.</p></body></html>")
