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

from companion.games.view import COLOURS, PLAYER_COLOURS, Bar, Cmd, Em, Line

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
.scroll{overflow-x:auto}
code{font-family:ui-monospace,monospace;font-size:.95em}
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
""".strip() + "\n" + "".join(f".p{i}{{color:{c}}}" for i, c in enumerate(PLAYER_COLOURS)) \
    + "".join(f".c-{name}{{color:{c}}}" for name, c in COLOURS.items())

# The live page (issue 21, item 4; companion.web.live). The page opens a stream of server-sent
# events at /p/TOKEN/live (or /t/TOKEN/live) with the version it shows; whenever its page
# changes, the server sends the new page on it (`event: page`), and the script swaps the new
# body in place: the scroll and a pinch zoom stay, nothing is added to the history, and what a
# player had started to fill in or tick in a form is carried over to the same form of the new
# page (never the form token). Not while a finger is on the screen (up to 3 s), a text field
# has the focus or a form is being sent: then just after. A stream that drops (the Wi-Fi gone,
# the laptop asleep, the server restarted) is opened again after 1 s, then longer, up to 15 s,
# and at once when the phone is back online or the page is looked at again; each time the page
# also fetches itself (a page whose link was replaced answers 404, and the page then shows
# that), and the new stream sends the current page if the one shown is old. A stream silent
# for 40 s (the server pings every 15 s) counts as dropped. A hidden page (a tab in the
# background, a phone's locked screen) lets its stream go, and catches up when looked at
# again: a browser keeps only 6 connections to one server, and a stream holds one. Without
# JavaScript none of this runs, and the page is complete as it is.
SCRIPT = "".join((
    "(function(){",
    "var d=document,h=d.documentElement,m=location.pathname.match(/^\\/[pt]\\/[^\\/]+/);",
    "if(!m||!window.EventSource||!window.fetch||!window.DOMParser)return;",
    "var page=m[0],es=null,busy=false,heard=0,said=0,gap=1000,retry=null,downAt=0,leftAt=0,",
    "pending=null,timer=null;",
    "function v(){return h.getAttribute('data-v')||''}",
    "function wait(){var a=d.activeElement;",
    "return (downAt&&Date.now()-downAt<3000)||(leftAt&&Date.now()-leftAt<10000)",
    "||(!!a&&(a.tagName==='TEXTAREA'||(a.tagName==='INPUT'",
    "&&/^(text|number|search|tel|email|url|password)$/.test(a.type))))}",
    # a form's fields as the player left them, by the move the form makes
    "function key(f){var k=f.querySelector('input[name=move]');return f.getAttribute('action')+'|'+(k?k.value:'')}",
    "function carry(n){var was={};[].forEach.call(d.forms,function(f){was[key(f)]=f});",
    "[].forEach.call(n.forms,function(f){var o=was[key(f)];if(!o)return;",
    "[].forEach.call(f.elements,function(e){if(!e.name||e.type==='hidden'||e.type==='submit'||e.type==='button')return;",
    "var same=[].filter.call(o.elements,function(x){return x.name===e.name&&x.type===e.type",
    "&&(e.type!=='checkbox'&&e.type!=='radio'||x.value===e.value)})[0];if(!same)return;",
    "if(e.type==='checkbox'||e.type==='radio'){if(same.checked!==same.defaultChecked)e.checked=same.checked}",
    "else if(e.tagName==='SELECT'){if(same.value&&[].some.call(e.options,function(p){return p.value===same.value}))",
    "e.value=same.value}else if(same.value!==same.defaultValue)e.value=same.value})})}",
    "function apply(x){var n=new DOMParser().parseFromString(x,'text/html');if(!n.body)return;carry(n);",
    "d.title=n.title;h.setAttribute('data-v',n.documentElement.getAttribute('data-v')||'');",
    "var keep=[].filter.call(n.body.childNodes,function(c){return c.nodeName!=='SCRIPT'});",
    "var mine=[].filter.call(d.body.childNodes,function(c){return c.nodeName==='SCRIPT'});",
    "d.body.replaceChildren.apply(d.body,keep.concat(mine))}",
    "function show(){if(pending===null)return;if(wait()){if(!timer)timer=setTimeout(function(){timer=null;show()},300);",
    "return}var x=pending;pending=null;if(x.indexOf(' data-v=\"'+v()+'\"')<0)apply(x)}",  # (not the page shown)
    # the page fetched (after a drop): kept only if the stream has said nothing newer meanwhile
    "function update(){if(busy)return;busy=true;var at=said;",
    "fetch(page,{cache:'no-store',credentials:'omit'}).then(function(r){",
    "if(r.status===404){location.replace(page);return null}if(!r.ok)throw r.status;return r.text()})",
    ".then(function(x){busy=false;if(x!==null&&said===at){pending=x;show()}})",
    ".catch(function(){busy=false;later()})}",
    "function later(){if(retry)return;retry=setTimeout(function(){retry=null;update();open()},gap);",
    "gap=Math.min(gap*2,15000)}",
    "function open(){if(es)es.close();es=null;if(d.hidden)return;heard=Date.now();",
    "es=new EventSource(page+'/live?v='+encodeURIComponent(v()));",
    "es.addEventListener('page',function(e){heard=Date.now();said++;gap=1000;pending=e.data;show()});",
    "es.addEventListener('ping',function(e){heard=Date.now();gap=1000;if(e.data!==v()&&pending===null)update()});",
    "es.onerror=function(){if(es)es.close();es=null;later()}}",
    "function now(){gap=1000;if(retry){clearTimeout(retry);retry=null}update();open()}",
    "d.addEventListener('pointerdown',function(){downAt=Date.now()},true);",
    "function up(){downAt=0;setTimeout(show,250)}",
    "d.addEventListener('pointerup',up,true);d.addEventListener('pointercancel',up,true);",
    "d.addEventListener('focusout',function(){setTimeout(show,250)});",
    "d.addEventListener('submit',function(){leftAt=Date.now()});",
    "d.addEventListener('visibilitychange',function(){if(!d.hidden)now();else if(es){es.close();es=null}});",
    "window.addEventListener('online',now);",
    "window.addEventListener('pageshow',function(e){leftAt=0;if(e.persisted)now()});",
    "setInterval(function(){if(es&&Date.now()-heard>40000)now()},5000);open()})();",
))


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


def _style_attr(style: str) -> str:
    """A view's style names (companion.games.view) as a class: a player's seat (``p0``..), a
    city's or a flag's colour (``c-red``); the classes are in the page's one style sheet."""
    for piece in style.split("+"):
        kind, _, value = piece.partition(":")
        if kind == "player" and value.isdigit():
            return f' class="p{int(value) % len(PLAYER_COLOURS)}"'
        if kind == "colour" and value in COLOURS:
            return f' class="c-{value}"'
    return ""


def part(value) -> str:
    """One part of a line or a cell, escaped: a command as code, a styled text as strong."""
    if isinstance(value, Cmd):
        return f"<code>{escape(value)}</code>"
    if isinstance(value, Em):
        tag = "strong" if "strong" in value.style or "warn" in value.style or "error" in value.style else "span"
        return f"<{tag}{_style_attr(value.style)}>{escape(value)}</{tag}>"
    if isinstance(value, Bar):
        return escape(f"{value.value:g}")
    if isinstance(value, dict):  # {"text", "colour"}: a coloured dot before the text
        colour = value.get("colour")
        return (dot(colour) if colour else "") + escape(str(value.get("text", "")))
    return escape("" if value is None else str(value))


cell = part


def line_html(line: Line) -> str:
    cls = f' class="{escape(line.style)}"' if line.style in ("muted", "warn", "error") else ""
    return f"<p{cls}>{''.join(part(p) for p in line.parts)}</p>"


def blocks(view, viewer: str | None = None) -> list[str]:
    """A view (companion.games.view) as sections of HTML for ``viewer`` (None: the table):
    every name escaped here, so no game can forget to; another player's private blocks left
    out; consecutive lines in one section."""
    out: list[str] = []
    lines: list[str] = []

    def flush() -> None:
        if lines:
            out.append(f"<section class=\"wide\">{''.join(lines)}</section>")
            lines.clear()

    for b in view:
        kind = getattr(b, "kind", None)
        if kind == "line":
            lines.append(line_html(b))
            continue
        flush()
        if kind == "private":
            if viewer is not None and b.owner == viewer:
                inner = blocks(b.blocks, viewer)
                out += [s.replace("<section", '<section data-private="yes"', 1) for s in inner]
        elif kind == "section":
            if b.where == "terminal":
                continue
            inner = "".join(_inner(x, viewer) for x in b.blocks)
            wide = ' class="wide"' if b.wide else ""
            title = f"<h2>{escape(b.title)}</h2>" if b.title else ""
            if inner:
                out.append(f"<section{wide}>{title}{inner}</section>")
        else:
            html = _inner(b, viewer)
            if html:
                wide = ' class="wide"' if kind in ("svg", "art") or getattr(b, "wide", False) else ""
                out.append(f"<section{wide}>{html}</section>")
    flush()
    return out


def _inner(b, viewer) -> str:
    kind = getattr(b, "kind", None)
    title = f"<h2>{escape(str(b.title))}</h2>" if getattr(b, "title", None) else ""
    if kind == "line":
        return line_html(b)
    if kind == "facts":
        return title + "<dl>" + "".join(f"<dt>{part(k)}</dt><dd>{_value(v)}</dd>" for k, v in b.items) + "</dl>"
    if kind == "table":
        if not b.rows:
            return title + f'<p class="sub">{escape(str(b.empty or "Nothing yet."))}</p>'
        head = "".join(f"<th scope=\"col\">{part(h)}</th>" for h in b.head)
        rows = "".join("<tr>" + "".join(f"<td>{part(c)}</td>" for c in row) + "</tr>" for row in b.rows)
        return title + f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>'
    if kind == "items":
        if not b.items:
            return title + f'<p class="sub">{escape(str(b.empty or "None."))}</p>'
        return title + "<ul>" + "".join(f"<li>{_value(i)}</li>" for i in b.items) + "</ul>"
    if kind == "svg":
        return title + str(b.markup or "")
    if kind == "art":
        return ""  # a terminal drawing: pages draw their own (svg)
    if kind == "private":
        return "".join(_inner(x, viewer) for x in b.blocks) if viewer is not None and b.owner == viewer else ""
    if kind == "section":
        return "".join(_inner(x, viewer) for x in b.blocks) if b.where != "terminal" else ""
    return ""


def _value(v) -> str:
    if isinstance(v, Line):
        return "".join(part(p) for p in v.parts)
    if isinstance(v, (list, tuple)):
        return "".join(part(p) for p in v)
    return part(v)


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


def move_form(action: str, form_token: str, move, choices: dict) -> str:
    """A move this player may make now, as a form that works without JavaScript: one button
    per option of its one open parameter (a city to pass), else a field per parameter."""
    from companion.games.declare import short_help

    title = escape(short_help(move.help).split(":")[0].rstrip(".") if move.help else move.name)
    hidden = (f'<input type="hidden" name="form" value="{escape(form_token, quote=True)}">'
              f'<input type="hidden" name="move" value="{escape(move.name, quote=True)}">')
    open_params = [p for p in move.params if p.name != move.actor]
    if len(open_params) == 1 and choices.get(open_params[0].name):
        p = open_params[0]
        buttons = "".join(  # posted as `choice` (Site.choose reads it as this parameter)
            f'<button type="submit" name="choice" value="{escape(str(v), quote=True)}">'
            f"{escape(str(v))}</button>" for v, _note in choices[p.name])
        body = f"<p>{escape(p.help or p.label)}</p>{buttons}"
    else:
        fields = []
        for p in open_params:
            options = choices.get(p.name) or []
            label = escape(p.help or p.label)
            if options:
                opts = "".join(f'<option value="{escape(str(v), quote=True)}">{escape(str(v))}</option>'
                               for v, _ in options)
                fields.append(f'<label>{label} <select name="{escape(p.name, quote=True)}">{opts}</select></label>')
            else:
                kind = "number" if p.kind.number else "text"
                fields.append(f'<label>{label} <input type="{kind}" name="{escape(p.name, quote=True)}"></label>')
        body = "".join(fields) + '<button type="submit">Record</button>'
    return (f'<section class="wide notice"><h2>{title}</h2>'
            f'<form method="post" action="{escape(action, quote=True)}">{hidden}{body}</form></section>')


def message(text: str, kind: str = "notice") -> str:
    return f'<section class="wide {kind}"><p>{escape(text)}</p></section>'


NOT_FOUND = ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head>"
             "<body><p>Not found.</p></body></html>")
