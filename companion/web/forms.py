"""A move's form on a player's page, made from its declaration, and what a post of it says.

Each parameter of a move is asked for by its kind (companion.contract.declare.Kind): one button
per option when the move has that one choice (a city to pass, a space of the agency), boxes to
tick for a parameter taking several (the ships bought together), a list to pick from, a
number field, several number fields (``Kind.fields``: a round's points per player), or a board
to tap (``Kind.tap``: the Trans board). Every form is a plain HTML form that works without
JavaScript; its hidden ``form`` field is the page's token for that move (see
:meth:`companion.web.site.Site.move_token`).

The board to tap is drawn at a fixed size on the page (:data:`TAP_WIDTH` CSS pixels wide, so
that the point a tap posts, ``tap.x`` and ``tap.y``, is exact): the server knows which part of
the board is shown (the page's ``z`` and ``c``, in its address) and so which point was tapped.
The one target within reach of it is chosen; several close together are offered to pick from,
each as a button of its own. Zooming and panning are plain links.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from companion.contract.declare import Flag, Number, short_help
from companion.contract.language import N_, _
from companion.contract.view import TAP_SHAPE, TAP_ZOOMS

TAP_WIDTH = 336  # CSS px: a 360-px phone with the page's margins
REACH = 22  # CSS px: a target this close to a tap is hit (a 44-px target, as WCAG and Apple ask)
ZOOMS = TAP_ZOOMS
PICK = 6  # the most targets a picker offers
GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"  # transparent pixel
TAKE_BACK = "(take back)"  # the hidden move name of "take my last move back" (no game's move has it)
RECORD = N_("Record")  # a move's button when its game names none (declare.Move's verb): shown, translated, here


def _q(value: Any) -> str:
    return escape(str(value), quote=True)


class PageView:
    """What a player's page address asks of its board: how close (``z``), around which point
    (``c``, in the drawing's units) and a tap to choose from (``pick``). Anything unreadable is
    left out: the page then shows the game's own choice."""

    __slots__ = ("z", "c", "pick")

    def __init__(self, z: int | None = None, c: tuple[float, float] | None = None,
                 pick: tuple[float, float] | None = None):
        self.z, self.c, self.pick = z, c, pick

    @classmethod
    def from_query(cls, query) -> "PageView":
        def point(text: str | None) -> tuple[float, float] | None:
            try:
                x, y = (float(v) for v in str(text).split(",", 1))
            except (TypeError, ValueError):
                return None
            return (x, y) if all(math.isfinite(v) and abs(v) < 1e5 for v in (x, y)) else None

        try:
            z = int(query.get("z", ""))
        except (TypeError, ValueError):
            z = None
        return cls(z if z in ZOOMS else None, point(query.get("c")), point(query.get("pick")))

    def key(self) -> str:
        return self.query()

    def query(self, **changes) -> str:
        z = changes.get("z", self.z)
        c = changes.get("c", self.c)
        pick = changes.get("pick", self.pick)
        parts = []
        if z is not None:
            parts.append(f"z={z}")
        if c is not None:
            parts.append(f"c={c[0]:.1f},{c[1]:.1f}")
        if pick is not None:
            parts.append(f"pick={pick[0]:.1f},{pick[1]:.1f}")
        return "?" + "&".join(parts) if parts else ""


# -- the board to tap: what part of it is shown, and what a tap hits ----------------------------------

def frame(tap, view: PageView) -> tuple[float, float, float, float, int, int, int]:
    """(x, y, width, height) of the part of the drawing shown, its size on the page in CSS
    pixels, and the zoom: the whole drawing at zoom 1, else a part around the point asked for
    (or the drawing's focus), kept inside the drawing."""
    z = view.z if view.z is not None else (tap.zoom if tap.zoom in ZOOMS else 1)
    if z == 1:
        return 0.0, 0.0, float(tap.width), float(tap.height), TAP_WIDTH, round(TAP_WIDTH * tap.height / tap.width), 1
    vw = tap.width / z
    vh = min(float(tap.height), vw * TAP_SHAPE)
    cx, cy = view.c or tap.focus or (tap.width / 2, tap.height / 2)
    vx = min(max(cx - vw / 2, 0.0), tap.width - vw)
    vy = min(max(cy - vh / 2, 0.0), tap.height - vh)
    return vx, vy, vw, vh, TAP_WIDTH, round(TAP_WIDTH * vh / vw), z


def _distance(point: tuple[float, float], where: tuple) -> float:
    px, py = point
    if len(where) == 2:
        return math.hypot(px - where[0], py - where[1])
    x1, y1, x2, y2 = where
    dx, dy = x2 - x1, y2 - y1
    length = dx * dx + dy * dy
    t = 0.0 if not length else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / length))
    return math.hypot(px - (x1 + t * dx), py - (y1 + t * dy))


def tapped_point(tap, view: PageView, x: str, y: str) -> tuple[float, float] | None:
    """The point of the drawing a tap at (x, y) CSS pixels of the shown part hit, or None."""
    try:
        px, py = float(x), float(y)
    except (TypeError, ValueError):
        return None
    vx, vy, vw, vh, wpx, hpx, _z = frame(tap, view)
    if not (-1 <= px <= wpx + 1 and -1 <= py <= hpx + 1):
        return None
    return vx + px * vw / wpx, vy + py * vh / hpx


def hits(tap, view: PageView, point: tuple[float, float]) -> tuple[str | None, list[tuple[str, str]]]:
    """What a tap at ``point`` chose: (the value, []) when one target is within reach and
    clearly the nearest, else (None, the nearest few to pick from)."""
    _vx, _vy, vw, _vh, wpx, _hpx, _z = frame(tap, view)
    per_px = vw / wpx
    reach = REACH * per_px
    near = sorted(((_distance(point, where), value, note) for value, note, where in tap.targets),
                  key=lambda item: item[0])
    within = [n for n in near if n[0] <= reach]
    mine = [n for n in within if n[1] in tap.quick]
    if len(mine) == 1 and len(within) > 1:  # the player's own city is the usual choice among crowded ones
        return mine[0][1], []
    if within and (len(within) == 1 or within[1][0] - within[0][0] >= reach / 2):
        return within[0][1], []
    around = [n for n in near if n[0] <= 3 * reach][:PICK]
    return None, [(value, note) for _d, value, note in around]


# -- drawing a form ------------------------------------------------------------------------------------

def title_of(move) -> str:
    """A move's heading on a page: what the game named it for the phones, else the first words
    of its help (each looked up in the catalogue: a game marks them, the page speaks them)."""
    if isinstance(move.phone, str):
        return _(move.phone)
    return short_help(_(move.help)).split(":")[0].rstrip(".") if move.help else move.name


def _hidden(token: str, move_name: str, extra: dict | None = None) -> str:
    fields = {"form": token, "move": move_name, **(extra or {})}
    return "".join(f'<input type="hidden" name="{_q(k)}" value="{_q(v)}">' for k, v in fields.items())


def _label(p) -> str:
    text = _(p.help or p.label)
    return escape(text[:1].upper() + text[1:])


def _option_text(value: str, note: str) -> str:
    return escape(f"{value} · {note}" if note else str(value))


def open_params(move) -> list:
    """The parameters a page asks for: not the actor (the page's own player), not those left
    to the laptop (``Param.page`` False)."""
    return [p for p in move.params if p.name != move.actor and p.page]


def move_form(at, move, choices: dict, token: str, action: str, view: PageView | None = None) -> str:
    """The form of ``move`` on its player's page (see the module's docstring)."""
    view = view or PageView()
    params = open_params(move)
    hidden = _hidden(token, move.name)
    title = escape(title_of(move))
    sub = ""
    for p in params:
        offered = choices.get(p.name) or []
        tap = p.kind.tap(at, p, offered) if offered else None
        if tap is not None:
            return (f'<section class="wide notice move">{_heading(title)}{sub}'
                    f'{tap_form(tap, p, move, offered, hidden, action, view)}</section>')
    chooser = _one_choice(at, params, choices)
    if chooser is not None:  # one button per option of the move's one choice, the other fields above them
        p = chooser
        others = "".join(_field(at, q, choices.get(q.name) or []) for q in params if q is not p)
        buttons = "".join(f'<button type="submit" name="{_q(p.name)}" value="{_q(v)}">{_option_text(v, n)}</button>'
                          for v, n in choices[p.name])
        body = f'{others}<p>{_label(p)}</p><div class="choices">{buttons}</div>'
    else:
        body = "".join(_field(at, p, choices.get(p.name) or []) for p in params)
        body += f'<button type="submit" class="go">{escape(_(move.verb))}</button>'
    return (f'<section class="wide notice move">{_heading(title)}{sub}'
            f'<form method="post" action="{_q(action)}">{hidden}{body}</form></section>')


BUTTONS = 12  # a choice of more options than this is a list to pick from, not buttons


def single(p, at) -> bool:
    """A parameter a page asks one value of (a parameter taking several, one at a time on a page:
    its kind's ``limit`` 1)."""
    return not p.many or p.kind.limit(at, p) == 1


def _one_choice(at, params, choices):
    """The parameter asked for with one button per option: the move's one required choice
    from a short list, the others (if any) optional fields."""
    listed = [p for p in params if choices.get(p.name) and single(p, at) and not p.kind.fields(at, p)
              and not isinstance(p.kind, Flag)]
    if len(listed) != 1 or len(choices[listed[0].name]) > BUTTONS:
        return None
    chosen = listed[0]
    if any(q.required for q in params if q is not chosen):
        return None
    return chosen


def _heading(title: str) -> str:
    return f"<h2>{title}</h2>"


def _field(at, p, offered: list[tuple[str, str]]) -> str:
    name = _q(p.name)
    label = _label(p)
    required = " required" if p.required and not isinstance(p.kind, Flag) else ""
    fields = p.kind.fields(at, p)
    if fields:
        # points with decimals are typed as text, so a German phone's "12,5" reaches the reader
        typed = ('type="text" inputmode="decimal" autocomplete="off"' if getattr(p.kind, "decimals", False)
                 else 'type="number" inputmode="numeric"')
        step = "" if getattr(p.kind, "decimals", False) else ' step="1"'
        inputs = "".join(f'<label class="num">{escape(str(text))} <input {typed} '
                         f'name="{name}.{_q(key)}"{step}></label>' for key, text in fields)
        return f'<fieldset><legend>{label}</legend>{inputs}</fieldset>'
    if isinstance(p.kind, Flag):
        return f'<label class="tick"><input type="checkbox" name="{name}" value="yes"> {label}</label>'
    if offered and not single(p, at):
        most = p.kind.limit(at, p)
        limit = " " + _("(at most {count})").format(count=most) if most else ""
        boxes = "".join(f'<label class="tick"><input type="checkbox" name="{name}" value="{_q(v)}"> '
                        f'{_option_text(v, n)}</label>' for v, n in offered)
        return f'<fieldset><legend>{label}{escape(limit)}</legend>{boxes}</fieldset>'
    if offered:
        none = escape(_("(none)"))
        blank = "" if p.required else f'<option value="">{none}</option>'
        opts = "".join(f'<option value="{_q(v)}">{_option_text(v, n)}</option>' for v, n in offered)
        return f'<label>{label} <select name="{name}"{required}>{blank}{opts}</select></label>'
    if p.kind.number:
        low, high = p.kind.bounds(at) if isinstance(p.kind, Number) else (None, None)
        bounds = (f' min="{low}"' if low is not None else "") + (f' max="{high}"' if high is not None else "")
        return (f'<label>{label} <input type="number" inputmode="numeric" name="{name}" step="1"{bounds}'
                f'{required}></label>')
    suggest = ' inputmode="decimal"' if getattr(p.kind, "decimals", False) else ""
    try:
        options = p.kind.options(at, p) or []
    except Exception:  # noqa: BLE001 - a suggestion list is a help, never a reason to fail the page
        options = []
    if options:
        listed = f"list-{p.name}"
        suggest += (f' list="{_q(listed)}"><datalist id="{_q(listed)}">'
                   + "".join(f'<option value="{_q(v)}">{escape(n)}</option>' for v, n in options[:200])
                   + "</datalist")
    return f'<label>{label} <input type="text" name="{name}" autocomplete="off"{required}{suggest}></label>'


def tap_form(tap, p, move, offered, hidden: str, action: str, view: PageView) -> str:
    """The board to tap, its zoom and pan links, the choices near a tap (a picker), the
    player's quick choices, and a list of every choice (for those who cannot tap a drawing)."""
    vx, vy, vw, vh, wpx, hpx, z = frame(tap, view)
    here = (vx + vw / 2, vy + vh / 2)
    kept = {"z": str(z), "c": f"{here[0]:.1f},{here[1]:.1f}"}
    hidden_view = "".join(f'<input type="hidden" name="{k}" value="{_q(v)}">' for k, v in kept.items())
    title = f"<p>{escape(tap.title)}</p>" if tap.title else ""
    svg = (f'<svg class="tapboard-svg" viewBox="{vx:.1f} {vy:.1f} {vw:.1f} {vh:.1f}" width="{wpx}" height="{hpx}" '
           f'aria-hidden="true">{tap.markup}</svg>')
    alt = _q(_("Tap {label}").format(label=tap.label))
    board = (f'<form method="post" action="{_q(action)}" class="tapboard">{hidden}{hidden_view}{svg}'
             f'<input type="image" name="tap" src="{GIF}" width="{wpx}" height="{hpx}" alt="{alt}"></form>')
    picker = ""
    if view.pick is not None:
        _value, near = hits(tap, view, view.pick)
        if near:
            which, nearest = escape(_("Which one?")), escape(_("The nearest to your tap:"))
            buttons = "".join(f'<button type="submit" name="{_q(p.name)}" value="{_q(v)}">{_option_text(v, n)}</button>'
                              for v, n in near)
            picker = (f'<form method="post" action="{_q(action)}" class="picker">{hidden}{hidden_view}'
                      f'<p><strong>{which}</strong> {nearest}</p>'
                      f'<div class="choices">{buttons}</div>'
                      f'</form>')
        else:
            far = _("Nothing you may choose is near that tap: tap closer to a highlighted mark.")
            picker = f'<p class="warn">{escape(far)}</p>'
    quick = ""
    if tap.quick:
        yours = escape(_("Or one of your cities:"))
        buttons = "".join(f'<button type="submit" name="{_q(p.name)}" value="{_q(v)}">{escape(v)}</button>'
                          for v in tap.quick)
        quick = (f'<form method="post" action="{_q(action)}">{hidden}{hidden_view}'
                 f'<p>{yours}</p>'
                 f'<div class="choices">{buttons}</div></form>')
    from_list = escape(_("Or pick it from the list:"))
    listing = "".join(f'<option value="{_q(v)}">{_option_text(v, n)}</option>' for v, n in offered)
    every = (f'<form method="post" action="{_q(action)}" class="every">{hidden}{hidden_view}'
             f'<label>{from_list} <select name="{_q(p.name)}" required>{listing}'
             f'</select></label><button type="submit" class="go">{escape(_(move.verb))}</button></form>')
    return title + picker + zoom_links(tap, view, (vx, vy, vw, vh, z)) + board + quick + every


def zoom_links(tap, view: PageView, shown) -> str:
    """Closer, farther, the whole board, and the four ways to pan: plain links (no script)."""
    vx, vy, vw, vh, z = shown
    cx, cy = vx + vw / 2, vy + vh / 2
    links = []
    i = ZOOMS.index(z) if z in ZOOMS else 0
    if i + 1 < len(ZOOMS):
        links.append((view.query(z=ZOOMS[i + 1], c=(cx, cy), pick=None), N_("Closer"), "＋"))
    if i > 0:
        links.append((view.query(z=ZOOMS[i - 1], c=(cx, cy), pick=None), N_("Farther"), "－"))
        links.append((view.query(z=1, c=None, pick=None), N_("The whole board"), "⤢"))
        steps = ((N_("West"), -vw / 2, 0, "◀"), (N_("North"), 0, -vh / 2, "▲"), (N_("South"), 0, vh / 2, "▼"),
                 (N_("East"), vw / 2, 0, "▶"))
        for name, dx, dy, mark in steps:
            nx = min(max(cx + dx, vw / 2), tap.width - vw / 2)
            ny = min(max(cy + dy, vh / 2), tap.height - vh / 2)
            if (round(nx, 1), round(ny, 1)) != (round(cx, 1), round(cy, 1)):
                links.append((view.query(z=z, c=(nx, ny), pick=None), name, mark))
    steps = {"West", "North", "South", "East"}  # a pan is its arrow (its name is said, not shown)
    items = "".join(f'<a href="{_q(href or "?")}" aria-label="{_q(_(name))}">{mark}'
                    f'{"" if name in steps else f"<span>{escape(_(name))}</span>"}</a>'
                    for href, name, mark in links)
    label = _q(_("Zoom and move the board"))
    return f'<nav class="zoom" aria-label="{label}">{items}</nav>'


def take_back_form(said: str, token: str, action: str) -> str:
    """"Take my last move back", while nobody has moved since."""
    hidden = _hidden(token, TAKE_BACK)
    heading, button = escape(_("Your last move")), escape(_("Take it back"))
    until = escape(_("Until someone else moves; after that only the laptop can undo it."))
    return (f'<section class="wide move"><h2>{heading}</h2><p>{escape(said)}</p>'
            f'<form method="post" action="{_q(action)}">{hidden}'
            f'<button type="submit">{button}</button></form>'
            f'<p class="sub">{until}</p></section>')


# -- reading a post --------------------------------------------------------------------------------------

class Unreadable(Exception):
    """A post that does not fit the form its page drew (a value not offered, a field missing)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


def read_post(at, move, choices: dict, given: dict[str, list[str]], view: PageView,
              player: str | None = None) -> dict | str:
    """The move's arguments from a post of its form: a dict, or a page address to go to instead
    (a tap that needs picking from, as ``?...``). What the page's form posts is turned into
    values here (a tap on the board into the value it hit, the one-button form's ``choice``),
    then read by the one reader (:func:`companion.contract.reader.read_move`), exactly as a
    typed command's values are: the same kinds, counts and refusals in the game's own words.
    The actor is ``player`` (the page's own, never a posted value); a parameter the page does
    not ask for (``Param.page`` False) keeps its default. A move the table makes (no actor:
    scrapping a ship) is made on a page only with what the page offers its player (their own
    ships): that is who may choose what, not how a value reads. Refuses with
    :class:`Unreadable` (a tap off the board, a field left empty, a table's move with a value
    not offered) or the reader's CompanionError."""
    from companion.contract import reader

    fixed: dict = {p.name: (p.default if not p.many else list(p.default or []))
                   for p in move.params if not p.page and p.name != move.actor}
    if move.actor:
        fixed[move.actor] = player
    params = open_params(move)
    values: dict[str, list[str]] = {k: list(v) for k, v in given.items()}
    for p in params:
        offered = choices.get(p.name) or []
        posted = [v.strip() for v in given.get(p.name, []) if v.strip()]
        if not posted and len(params) == 1 and given.get("choice"):  # the form of issue 8's one-button choice
            values[p.name] = [v.strip() for v in given["choice"]]
        elif not posted and offered and "tap.x" in given:
            tap = p.kind.tap(at, p, offered)
            if tap is not None:
                point = tapped_point(tap, view, given["tap.x"][0], (given.get("tap.y") or [""])[0])
                if point is None:
                    raise Unreadable(_("That tap was off the board: tap the board again."))
                value, _near = hits(tap, view, point)
                if value is None:
                    return view.query(pick=point)
                values[p.name] = [value]
    if move.actor is None:  # the table's move made on a page: its player chooses only among what the page offers
        for p in params:
            offered = {str(v) for v, _ in choices.get(p.name) or []}
            if offered and any(v.strip() and v.strip() not in offered for v in values.get(p.name, [])):
                raise Unreadable(_("That is not one of the choices this page offers you now: use its buttons."))
    try:
        return reader.read_move(move, at, values, fixed=fixed)
    except reader.Missing as exc:  # what to tick, choose or fill in on this page, and then tap (issue 31)
        raise Unreadable(what_to_give(at, move, exc.param, choices)) from None


def what_to_give(at, move, param, choices: dict) -> str:
    """A form sent without a value it needs, said as the page shows it: what to tick, choose or
    fill in, and the button to tap then ("Tick the ships you buy (one or more), then tap “Buy”.")."""
    from companion.contract.language import language

    what = (_(param.help) if param.help else "").strip().rstrip(".") or (_(param.label) if param.label else "")
    if language() == "en":  # mid-sentence in English; a German noun keeps its capital
        what = what[:1].lower() + what[1:]
    verb = _(move.verb)
    if choices.get(param.name) and not single(param, at):
        return _("Tick {what} (one or more), then tap “{verb}”.").format(what=what, verb=verb)
    if choices.get(param.name):
        return _("Choose {what}, then tap “{verb}”.").format(what=what, verb=verb)
    return _("Fill in {what}, then tap “{verb}”.").format(what=what, verb=verb)
