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

from companion.contract.language import N_, _, language, ngettext
from companion.contract.view import COLOURS, PLAYER_COLOURS, Bar, Cmd, Em, Line
from companion.contract.written import number
from companion.web.languages import switch

STYLE = """
:root{color-scheme:light dark;--fg:#111;--bg:#fafafa;--muted:#595959;--card:#fff;--line:#ddd}
@media (prefers-color-scheme:dark){:root{--fg:#eee;--bg:#161616;--muted:#b5b5b5;--card:#222;--line:#444}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:17px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);overflow-wrap:anywhere}
header{padding:10px 12px;border-bottom:4px solid var(--me,var(--line))}
h1{font-size:1.3em;margin:0}
h2{font-size:1.05em;margin:0 0 6px}
main{padding:8px;display:grid;gap:10px;grid-template-columns:repeat(auto-fit,minmax(min(300px,100%),1fr))}
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px;min-width:0}
section.wide{grid-column:1/-1}
table{border-collapse:collapse;width:100%}
.scroll{overflow-x:auto;max-width:100%}
code{font-family:ui-monospace,monospace;font-size:.95em;overflow-wrap:anywhere}
td,th{text-align:left;padding:3px 4px;border-bottom:1px solid var(--line);vertical-align:top}
td,th{overflow-wrap:normal}
table{font-variant-numeric:tabular-nums}
th{font-weight:600;color:var(--muted)}
dl{margin:0;display:grid;grid-template-columns:auto 1fr;gap:2px 10px}
dt{color:var(--muted)}dd{margin:0}
.sub{color:var(--muted);margin:4px 0 0}
.notice{background:#fff3c4;color:#111;border-color:#b08a10}
.notice .sub{color:#4a4a4a}
.error{background:#ffd9d4;color:#111;border-color:#d07060}
.warn{font-weight:600}
button,.zoom a{font:inherit;min-height:44px;min-width:44px;padding:8px 14px;margin:4px 6px 4px 0;border-radius:8px;border:1px solid #767676;background:#f0f0f0;color:#111;cursor:pointer}
button.go{background:#1f5fbf;color:#fff;border-color:#1f5fbf;font-weight:600}
.choices{display:flex;flex-wrap:wrap}
fieldset{border:1px solid #b08a10;border-radius:8px;margin:6px 0;padding:6px 8px;min-width:0}
label{display:block;margin:6px 0}
label.num{display:inline-block;margin:4px 10px 4px 0}
label.num input{width:5.5em}
label.tick{display:flex;gap:8px;align-items:center;min-height:44px;margin:0}
label.tick input{width:22px;height:22px}
input,select{font:inherit;min-height:44px;padding:4px 8px;border:1px solid #767676;border-radius:6px;max-width:100%;background:#fff;color:#111}
input[type=checkbox]{min-height:0}
svg{max-width:100%;height:auto}
section svg.board{display:block;width:100%;max-width:1100px;margin:auto}
.tapboard{position:relative;width:338px;max-width:none;margin:6px 0;border:1px solid #b08a10;border-radius:6px;background:var(--card);color:var(--fg);overflow:hidden}
.tapboard svg.tapboard-svg{display:block;max-width:none}
.tapboard input[type=image]{position:absolute;left:0;top:0;margin:0;padding:0;border:0;min-height:0;max-width:none;background:none}
.zoom{display:flex;flex-wrap:wrap;align-items:center}
.zoom a{display:inline-flex;align-items:center;justify-content:center;text-decoration:none;padding:6px 10px}
.zoom a span{font-size:.85em;margin-left:.3em}
.sw{display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:.3em;vertical-align:-.05em;border:1px solid #555}
.dot{display:inline-block;vertical-align:middle}
.scores td,.scores th{white-space:nowrap}
.scores th{color:var(--fg);font-weight:600}
.scores td.bar{width:45%}
.scores svg.bar{width:100%;height:.8em;display:block}
.now{font-size:1.05em}
details.more{grid-column:1/-1}
details.more>summary{min-height:44px;display:flex;align-items:center;padding:0 10px;border:1px solid var(--line);border-radius:10px;background:var(--card);cursor:pointer;font-weight:600}
details.more>section{margin-top:10px}
footer{padding:10px 12px;color:var(--muted);font-size:.85em}
nav.lang{float:right;margin:-10px -6px 0 8px;font-size:.85em;color:var(--muted)}
nav.lang a,nav.lang span{display:inline-block;min-height:44px;padding:12px 6px 0}
nav.lang a{color:inherit}
@media (max-width:400px){table{font-size:.94em}td,th{padding:3px 3px}}
.winner p{font-size:1.8em;font-weight:700;margin:0}
@media (min-width:900px) and (min-height:500px){
body.tv{font-size:clamp(17px,calc(1vw + .6vh),48px)}
body.tv header{padding:.4em 1em}
body.tv main{grid-template-columns:minmax(14em,26vw) 1fr 1fr;gap:1vw;padding:1vw}
body.tv main>section.scores{grid-column:1;grid-row:1/span 40;align-self:start}
body.tv main>section:not(.scores){grid-column:2/-1}
body.tv main>section:not(.scores):not(.wide){grid-column:auto}
body.tv h1{font-size:1.6em}
body.tv .scores tr{display:grid;grid-template-columns:1fr auto;border-bottom:1px solid var(--line)}
body.tv .scores td,body.tv .scores th{font-size:max(4.4vh,1em);line-height:1.15;padding:.1em .3em 0;border:0}
body.tv .scores td.bar{grid-column:1/-1;width:auto;font-size:max(2vh,.6em);padding-bottom:.3em}
body.tv .scores svg.dot{width:.7em;height:.7em}
body.tv .scores .sub{font-size:.8em}
body.tv section svg.board{max-width:none;max-height:calc(100vh - 10em)}
}
""".strip() + "\n" + "".join(f".p{i}{{background:{c}}}" for i, c in enumerate(PLAYER_COLOURS)) \
    + "".join(f".c-{name}{{background:{c}}}" for name, c in COLOURS.items())

# The live page (issue 21, item 4; companion.web.live). The page opens a stream of server-sent
# events at /p/TOKEN/live (or /t/TOKEN/live) with the version it shows; whenever its page
# changes, the server sends the new page on it (`event: page`), and the script makes the old
# body into the new one in place, changing only what differs (issue 31: a button found, or
# under a finger, stays the same element with the same value, where the whole body used to be
# replaced and a tap could land on nothing): the scroll and a pinch zoom stay, nothing is added
# to the history, and what a
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
    "pending=null,timer=null,sending=false,tapAt=null,posted=0,bv='';",
    # the part of the board this page shows (its zoom and centre, and a tap's picker) is kept by every page pushed
    "function views(){var sp=new URLSearchParams(location.search);bv='';",
    "['z','c','pick'].forEach(function(k){if(sp.get(k))bv+='&'+k+'='+encodeURIComponent(sp.get(k))});",
    # the page's language: its stream and its fetches speak it too (a fetch sends no cookie)
    "if(h.lang)bv+='&lang='+encodeURIComponent(h.lang)}views();",
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
    # what makes two elements the same one on the old page and the new (a button by what it
    # sends, a form by the move it makes, a board's line by its name), so that the new page is
    # made by changing the old in place: a button found, or under a finger, stays that button
    "function id(e){if(e.nodeType!==1)return '#'+e.nodeType;var t=e.nodeName,a=function(k){return e.getAttribute(k)||''};",
    "if(t==='FORM'){var k=e.querySelector('input[name=move]');return t+a('action')+'|'+(k?k.value:'')+'|'+a('class')}",
    "if(t==='BUTTON'||t==='OPTION'||(t==='INPUT'&&/^(checkbox|radio|submit)$/.test(e.type)))return t+a('name')+'='+a('value');",
    "return t+'|'+(a('id')||a('data-v')||a('name')||a('class'))}",
    "function same(o,n){if(o.nodeType===3||o.nodeType===8){if(o.data!==n.data)o.data=n.data;return}",
    "[].slice.call(o.attributes).forEach(function(x){if(!n.hasAttribute(x.name))o.removeAttribute(x.name)});",
    "[].forEach.call(n.attributes,function(x){if(o.getAttribute(x.name)!==x.value)o.setAttribute(x.name,x.value)});",
    "if(o.nodeName!=='SCRIPT')kids(o,n)}",
    "function kids(o,n){var at=o.firstChild;[].slice.call(n.childNodes).forEach(function(c){var want=id(c),m=at;",
    "while(m&&id(m)!==want)m=m.nextSibling;if(m){if(m!==at)o.insertBefore(m,at);else at=at.nextSibling;",
    # a part drawn the same as the one shown (the board's drawing: most of a page) is left as it
    # is: the browser's own comparison, not a walk node by node in the script
    "if(m.nodeType!==1||!m.isEqualNode(c))same(m,c)}",
    "else o.insertBefore(c,at)});while(at){var g=at;at=at.nextSibling;o.removeChild(g)}}",
    "function apply(x){var n=new DOMParser().parseFromString(x,'text/html');if(!n.body)return;carry(n);",
    "d.title=n.title;h.setAttribute('data-v',n.documentElement.getAttribute('data-v')||'');",
    "[].slice.call(n.body.querySelectorAll('script')).forEach(function(c){c.remove()});",
    "var mine=[].filter.call(d.body.childNodes,function(c){return c.nodeName==='SCRIPT'});",
    "mine.forEach(function(c){c.remove()});kids(d.body,n.body);mine.forEach(function(c){d.body.appendChild(c)})}",
    "function show(){if(pending===null)return;if(wait()){if(!timer)timer=setTimeout(function(){timer=null;show()},300);",
    "return}var x=pending;pending=null;if(x.indexOf(' data-v=\"'+v()+'\"')<0)apply(x)}",  # (not the page shown)
    # the page fetched (after a drop): kept only if the stream has said nothing newer meanwhile
    "function update(){if(busy)return;busy=true;var at=said;",
    "fetch(page+(bv?'?'+bv.slice(1):''),{cache:'no-store',credentials:'omit'}).then(function(r){",
    "if(r.status===404){location.replace(page);return null}if(!r.ok)throw r.status;return r.text()})",
    ".then(function(x){busy=false;if(x!==null&&said===at){pending=x;show()}})",
    ".catch(function(){busy=false;later()})}",
    "function later(){if(retry)return;retry=setTimeout(function(){retry=null;update();open()},gap);",
    "gap=Math.min(gap*2,15000)}",
    "function open(){if(es)es.close();es=null;if(d.hidden)return;heard=Date.now();",
    "es=new EventSource(page+'/live?v='+encodeURIComponent(v())+bv);",
    "es.addEventListener('page',function(e){heard=Date.now();said++;gap=1000;pending=e.data;show()});",
    "es.addEventListener('ping',function(e){heard=Date.now();gap=1000;if(e.data!==v()&&pending===null)update()});",
    "es.onerror=function(){if(es)es.close();es=null;later()}}",
    "function now(){gap=1000;if(retry){clearTimeout(retry);retry=null}update();open()}",
    "d.addEventListener('pointerdown',function(){downAt=Date.now()},true);",
    "function up(){downAt=0;setTimeout(show,250)}",
    "d.addEventListener('pointerup',up,true);d.addEventListener('pointercancel',up,true);",
    "d.addEventListener('focusout',function(){setTimeout(show,250)});",
    # a move posted from this page changes the page in place too, as every other page changes for
    # it (issue 31): the post is sent by fetch and its answer, this page as it now is, applied
    # like a pushed page; a post that leads elsewhere, or that cannot be sent, goes as a form goes
    "function post(e){var f=e.target,b=e.submitter,a=(b&&b.getAttribute('formaction'))||(f&&f.getAttribute('action'))||'';",
    "if(e.defaultPrevented||!f||f.nodeName!=='FORM'||(f.getAttribute('method')||'').toLowerCase()!=='post'",
    "||a.indexOf(page+'/')!==0||f.hasAttribute('data-native')){leftAt=Date.now();return}",
    "e.preventDefault();if(sending)return;sending=true;h.setAttribute('aria-busy','true');",
    "var at=said,leaving=false,body=new URLSearchParams(new FormData(f));",
    # a board tapped (an image button) sends where, as a browser's own submit does: NAME.x, NAME.y
    "if(b&&b.type==='image'){var q=b.name?b.name+'.':'',xy=tapAt&&tapAt[0]===b?tapAt:[b,0,0];",
    "body.append(q+'x',Math.round(xy[1]));body.append(q+'y',Math.round(xy[2]))}else if(b&&b.name)body.append(b.name,b.value);",
    "fetch(a,{method:'POST',body:body,cache:'no-store',credentials:'same-origin'}).then(function(r){",
    "if(r.status===404){leaving=true;location.replace(page);return null}var u=new URL(r.url);",
    "if(r.redirected&&u.pathname!==location.pathname){leaving=true;location.assign(r.url);return null}",
    # the same page showing another part of the board (or a picker): its address and its stream follow
    "var moved=r.redirected,other=moved&&u.search!==location.search;",
    "return r.text().then(function(x){if(other){history.replaceState(null,'',u.pathname+u.search);views();",
    "said++;pending=null;apply(x);open();return null}return moved&&said!==at?null:x})})",
    # done: the page says so (aria-busy gone, data-posted counts the posts answered in place)
    ".then(function(x){sending=false;if(x){said++;pending=null;apply(x)}",
    "if(!leaving){h.removeAttribute('aria-busy');h.setAttribute('data-posted',++posted)}})",
    ".catch(function(){sending=false;f.setAttribute('data-native','');if(b&&f.requestSubmit)f.requestSubmit(b);else f.submit()})}",
    "d.addEventListener('click',function(e){var t=e.target;if(t&&t.type==='image')tapAt=[t,e.offsetX,e.offsetY]},true);",
    "d.addEventListener('submit',post);",
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


def _swatch(style: str) -> str:
    """A view's colour style names (companion.contract.view) as a swatch before the text: a
    player's seat (``p0``..), a city's or a flag's colour (``c-red``), from the page's one
    style sheet. The text itself keeps the page's colour, so it reads whatever the colour."""
    for piece in style.split("+"):
        kind, _sep, value = piece.partition(":")
        if kind == "player" and value.isdigit():
            return f'<span class="sw p{int(value) % len(PLAYER_COLOURS)}" aria-hidden="true"></span>'
        if kind == "colour" and value in COLOURS:
            return f'<span class="sw c-{value}" aria-hidden="true"></span>'
    return ""


def part(value) -> str:
    """One part of a line or a cell, escaped: a command as code, a styled text as strong."""
    if isinstance(value, Cmd):
        return f"<code>{escape(value)}</code>"
    if isinstance(value, Em):
        tag = "strong" if "strong" in value.style or "warn" in value.style or "error" in value.style else "span"
        return f"{_swatch(value.style)}<{tag}>{escape(value)}</{tag}>"
    if isinstance(value, Bar):
        return escape(number(value.value))
    if isinstance(value, float):
        return escape(number(value))
    if isinstance(value, dict):  # {"text", "colour"}: a coloured dot before the text
        colour = value.get("colour")
        return (dot(colour) if colour else "") + escape(str(value.get("text", "")))
    return escape("" if value is None else str(value))


cell = part


def line_html(line: Line) -> str:
    cls = f' class="{escape(line.style)}"' if line.style in ("muted", "warn", "error") else ""
    return f"<p{cls}>{''.join(part(p) for p in line.parts)}</p>"


def blocks(view, viewer: str | None = None) -> list[str]:
    """A view (companion.contract.view) as sections of HTML for ``viewer`` (None: the table):
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
            empty = escape(str(b.empty or _("Nothing yet.")))
            return title + f'<p class="sub">{empty}</p>'
        # an empty heading (a column of positions, of row names) is a plain cell: a screen reader's
        # heading must say something
        head = "".join(f"<th scope=\"col\">{part(h)}</th>" if str(h) else "<td></td>" for h in b.head)
        rows = "".join("<tr>" + "".join(f"<td>{part(c)}</td>" for c in row) + "</tr>" for row in b.rows)
        return title + (f'<div class="scroll" tabindex="0"><table><thead><tr>{head}</tr></thead><tbody>{rows}'
                        "</tbody></table></div>")
    if kind == "items":
        if not b.items:
            empty = escape(str(b.empty or _("None.")))
            return title + f'<p class="sub">{empty}</p>'
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


def seat_colour(seats, name: str) -> str:
    """A player's colour: by their seat in the session (the order `new` was given), the same on
    every page, in the terminal and in reports, whatever order the game plays in."""
    seats = list(seats)
    return PLAYER_COLOURS[seats.index(name) % len(PLAYER_COLOURS)] if name in seats else "#888888"


def score_bars(status: dict, goal: float | None, seats=None, big: bool = False) -> str:
    """The scores, each with a bar toward the end condition (``goal``), else toward the leader;
    each player in their seat's colour (``seats``: the session's players)."""
    players = status.get("players") or []
    seats = list(seats) if seats is not None else [p.get("name") for p in players]
    scores = [p.get("score") if isinstance(p.get("score"), (int, float)) else 0 for p in players]
    top = goal if goal else max([abs(s) for s in scores] + [1])
    width = 160
    rows = []
    for p, score in zip(players, scores):
        colour = seat_colour(seats, p.get("name"))
        frac = max(0.0, min(1.0, score / top)) if top else 0.0
        bar = (f'<svg class="bar" width="{width}" height="16" viewBox="0 0 {width} 16" preserveAspectRatio="none" '
               f'aria-hidden="true"><rect x="0" y="2" width="{width}" height="12" fill="#8883" rx="4"/>'
               f'<rect x="0" y="2" width="{frac * width:.1f}" height="12" fill="{colour}" rx="4"/></svg>')
        winner = "\u00a0★" if p.get("name") in (status.get("winners") or []) else ""
        shown = "?" if p.get("score") is None else p.get("score")
        shown = number(shown) if isinstance(shown, float) else shown
        rows.append(f"<tr><th scope=\"row\">{dot(colour)}{escape(str(p.get('name')))}{winner}</th>"
                    f"<td>{escape(str(shown))}</td><td class=\"bar\">{bar}</td></tr>")
    aim = (_("The bars fill up toward {goal}.").format(goal=number(goal)) if goal
           else _("The bars compare with the leader."))
    scores = escape(_("Scores"))
    return (f'<section class="scores"><h2>{scores}</h2><table><tbody>{"".join(rows)}</tbody></table>'
            f'<p class="sub">{escape(aim)}</p></section>')


def more(forms: list[str]) -> str:
    """Moves rarely made, folded away under "More" (opens without a script: details)."""
    summary = escape(_("More moves ({count})").format(count=len(forms)))
    return (f'<details class="more wide"><summary>{summary}</summary>'
            f'{"".join(forms)}</details>')


def waiting(turn: list[str], player: str) -> str:
    """What a player's page says when it offers them nothing to do now."""
    others = [p for p in turn if p != player]
    if others:
        text = ngettext("Nothing for you to do now: it is {who}'s turn.",
                        "Nothing for you to do now: it is {who}'s turn.", len(others)).format(who=both(others))
    else:
        text = _("Nothing for you to do on this page now: the game goes on at the table.")
    return f'<section class="wide now"><p>{escape(text)}</p></section>'


def both(names: list[str]) -> str:
    """Names as a sentence lists them: ``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``."""
    if len(names) < 2:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def head(title: str, version: str | None = None) -> str:
    """Every page's opening, up to its ``<body>``: the viewer's language, no referrer, no
    favicon request (it would count as a wrong guess), the pages' one style."""
    v = f' data-v="{escape(version)}"' if version is not None else ""
    return (
        "<!doctype html>\n"
        f'<html lang="{language()}"{v}><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        '<link rel="icon" href="data:,">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
    )


def page(*, title: str, heading: str, lines: list[str], version: str, sections: list[str], tv: bool = False,
         colour: str | None = None) -> str:
    """A whole page: ``tv`` for the table page (on a wide screen its type grows with the screen
    and the scores take a column of their own); ``colour`` is the page's player's (the line
    under its heading)."""
    sub = "".join(f'<p class="sub">{escape(line)}</p>' for line in lines if line)
    mark = f'{dot(colour, 18)}' if colour else ""
    body = ' class="tv"' if tv else ""
    follows, reload = escape(_("This page follows the game by itself.")), escape(_("Reload it to see the latest moves."))
    return (
        head(title, version)
        + f"<body{body}><header>{switch()}<h1>{mark}{escape(heading)}</h1>{sub}</header>"
        f"<main>{''.join(sections)}</main>"
        f"<footer>{follows} <noscript>{reload}</noscript></footer>"
        f"<script>{SCRIPT}</script></body></html>"
    )


def winner(text: str) -> str:
    """The result, first and large on the table's page (a TV across the room)."""
    return f'<section class="wide winner"><p>{escape(text)}</p></section>'


def message(text: str, kind: str = "notice") -> str:
    return f'<section class="wide {kind}"><p>{escape(text)}</p></section>'


def error_page(title: str, text: str) -> str:
    """A page of its own for an answer that is not a game's page (a wrong link, a request this
    server does not take, a bug of ours): a heading and one line of what to do, in the pages'
    own style (the same hash in the Content-Security-Policy), with a language, a title and a
    ``main`` landmark, so that a screen reader reads it as it reads any page (issue 29: the 404
    page tripped three axe-core rules, the 500 answer was plain text). It says nothing of the
    address asked for: every wrong token gets the same bytes."""
    return (
        head(f"{title} · Tabletop Companion")
        + f"<body><header><h1>{escape(title)}</h1></header>"
        f"<main><p>{escape(text)}</p></main>"
        "<footer>Tabletop Companion</footer></body></html>"
    )


# The answers that are not a game's page: (title, what to do), drawn in the viewer's language.
ERRORS = {
    "not found": (N_("Not found"), N_("This link opens nothing here: it may be mistyped, or replaced by new links. "
                                      "Open the link or scan the code that `serve` shows on the laptop now.")),
    "bad host": (N_("Wrong address"), N_("This server answers only at its own address: open the link `serve` "
                                         "showed.")),
    "server error": (N_("Something went wrong"), N_("Something went wrong inside companion: nothing more was "
                                                    "recorded. Reload the page; the laptop's errors.log says what "
                                                    "happened.")),
    "head too large": (N_("Request too large"), N_("This request's head is larger than any page of this server "
                                                   "needs: open the link again.")),
}


def error(kind: str) -> str:
    """The page of one of :data:`ERRORS` (every wrong link gets the same bytes in a language)."""
    title, text = ERRORS[kind]
    return error_page(_(title), _(text))


def not_allowed(allowed: list[str]) -> str:
    """The page of a method a route does not take (``allowed``: the ones it does)."""
    return error_page(_("Not allowed"), _("This address is not asked that way ({allowed} only): open the link "
                                          "`serve` showed, and choose with the page's own buttons.")
                      .format(allowed=both(allowed)))


def join_page(title: str, players: list[str], taken: list[str], action: str, table: str, said: str = "") -> str:
    """The page the table's one code opens (issue 31, item 1): who is this phone? One button per
    player whose seat is free, the taken ones named, and the table's own screen (the TV). It
    shows no card and nothing private: only the players' names, which the table page shows too.
    No script: it follows nothing, a reload shows the seats as they are."""
    free = [p for p in players if p not in taken]
    parts = [f'<section class="wide error"><p>{escape(said)}</p></section>'] if said else []
    if free:
        buttons = "".join(f'<button class="go" type="submit" name="seat" value="{escape(p)}">{escape(p)}</button>'
                          for p in free)
        ask, why = _("Who are you?"), _("Tap your name: this phone then opens your own page, which only you see.")
        parts.append(f'<section class="wide"><h2>{escape(ask)}</h2><p class="sub">{escape(why)}</p>'
                     f'<form method="post" action="{escape(action)}"><div class="choices">{buttons}</div></form></section>')
    else:
        full = _("Every seat is taken. If one was taken by mistake, the laptop frees it for you.")
        parts.append(f'<section class="wide"><p>{escape(full)}</p></section>')
    if taken:
        names = _("Taken: {names}.").format(names=", ".join(taken))
        parts.append(f'<section class="wide"><p class="sub">{escape(names)}</p></section>')
    tv = _("This screen is the table's (the TV): show the game for everyone")
    parts.append(f'<section class="wide"><p><a href="{escape(table)}">{escape(tv)}</a></p></section>')
    heading = _("{title}: join the table").format(title=title)
    return (
        head(heading)
        + f"<body><header>{switch()}<h1>{escape(heading)}</h1></header>"
        f"<main>{''.join(parts)}</main>"
        "<footer>Tabletop Companion</footer></body></html>"
    )
