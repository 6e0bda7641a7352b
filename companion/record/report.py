"""Printable pages: one session's report and the group's statistics, as self-contained HTML.

One file that opens anywhere, years later, without a network: the style is inline, there is
no script, the charts are inline SVG, and a Content-Security-Policy forbids the page to load
anything at all. Names and event words are escaped, so a player called "<b>" is just a name.

The score-by-round series is game-agnostic: it replays the session event by event and reads
each player's score off the game's ``summary`` (the `status --json` contract), keeping the last
state of every round. A game whose round never moves is drawn event by event instead.
"""

from __future__ import annotations

import html
import math
from typing import Any, Sequence

from companion.contract.language import _, language, ngettext
from companion.record import stats as history
from companion.record.players import Roster
from companion.record.shown import as_written, day, day_and_time, percent
from companion.record.shown import short as _num

# The players' colours by seat, the pages' and the terminal's (issue 21: Ann was blue here, red there)
from companion.contract.view import PLAYER_COLOURS as PALETTE  # noqa: E402
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #222; background: #fff;
       max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.4; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
.meta { color: #555; margin-top: 0; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { padding: .25rem .7rem; border-bottom: 1px solid #ddd; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.win { font-weight: bold; } .result { font-size: 1.1rem; }
figure { margin: 1rem 0; } figcaption { color: #555; font-size: .9rem; }
svg text { font-family: system-ui, sans-serif; font-size: 12px; fill: #333; }
ol.log { padding-left: 3rem; } ol.log .t { color: #666; font-variant-numeric: tabular-nums; margin-right: .6rem; }
.swatch { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; vertical-align: -1px; }
@media print { body { margin: 0; } h2 { break-after: avoid; } }
"""


def esc(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def colour(n: int) -> str:
    return PALETTE[n % len(PALETTE)]


def seat_colour(seats: Sequence[str], name: str) -> str:
    """A player's colour: by their seat in the session, the same as on the pages."""
    seats = list(seats)
    return colour(seats.index(name)) if name in seats else "#888888"


def page(title: str, body: str) -> str:
    """A whole HTML document around ``body``."""
    return (
        f"<!DOCTYPE html>\n<html lang=\"{language()}\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{esc(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def h2(text: str) -> str:
    return f"<h2>{esc(text)}</h2>"


def para(text: str, cls: str = "") -> str:
    return f"<p class=\"{cls}\">{esc(text)}</p>" if cls else f"<p>{esc(text)}</p>"


def table_html(headers: Sequence[str], rows: Sequence[Sequence[Any]], numeric: Sequence[int] = (),
               raw: Sequence[int] = ()) -> str:
    """An HTML table; columns in ``numeric`` align right; cells of columns in ``raw`` are HTML."""
    numeric, raw = set(numeric), set(raw)
    right = ' class="n"'
    head = "".join(f"<th{right if i in numeric else ''}>{esc(h)}</th>" for i, h in enumerate(headers))
    body = []
    for row in rows:
        cells = "".join(
            f"<td{right if i in numeric else ''}>{c if i in raw else esc(c)}</td>" for i, c in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(body) + "\n</tbody>\n</table>"


# -- charts ------------------------------------------------------------------------------------


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten) covering lo..hi."""
    if hi == lo:
        lo, hi = lo - 1, hi + 1
    raw = (hi - lo) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(lo / step) * step
    ticks = []
    v = start
    while v < hi + step * 0.999:
        ticks.append(round(v, 10))
        v += step
    return ticks


def line_chart(labels: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], title: str,
               x_title: str = "", y_title: str | None = None, width: int = 720, height: int = 340,
               colours: Sequence[str] | None = None) -> str:
    """An inline SVG line chart: one polyline per series (``colours``: each one's, by default
    in turn from the palette), None leaves a gap."""
    y_title = _("score") if y_title is None else y_title
    left, right, top, bottom = 56, 130, 28, 46
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for _, vs in series for v in vs if history.is_number(v)]
    ticks = nice_ticks(min(values), max(values)) if values else [0, 1]
    lo, hi = ticks[0], ticks[-1]
    n = max(len(labels), 1)

    def x(i: int) -> float:
        return left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v: float) -> float:
        return top + plot_h - (v - lo) * plot_h / ((hi - lo) or 1)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(title)}">',
             f"<title>{esc(title)}</title>",
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    for t in ticks:
        parts.append(f'<line x1="{left}" y1="{y(t):.1f}" x2="{left + plot_w}" y2="{y(t):.1f}" stroke="#e3e3e3"/>')
        label = _num(t)
        parts.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{esc(label)}</text>')
    every = max(1, math.ceil(n / 14))
    for i, label in enumerate(labels):
        if i % every == 0 or i == n - 1:
            parts.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{esc(label)}</text>')
    parts.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#888"/>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#888"/>')
    if x_title:
        parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle">{esc(x_title)}</text>')
    if y_title:
        parts.append(f'<text x="14" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
                     f'transform="rotate(-90 14 {top + plot_h / 2:.1f})">{esc(y_title)}</text>')
    for k, (name, vs) in enumerate(series):
        c = colours[k] if colours is not None and k < len(colours) else colour(k)
        runs: list[list[str]] = [[]]
        for i, v in enumerate(vs):
            if history.is_number(v):
                runs[-1].append(f"{x(i):.1f},{y(v):.1f}")
            elif runs[-1]:
                runs.append([])
        parts.append(f'<g class="series" data-player="{esc(name)}">')
        for run in runs:
            if len(run) > 1:
                parts.append(f'<polyline fill="none" stroke="{c}" stroke-width="3" stroke-linejoin="round" '
                             f'points="{" ".join(run)}"/>')
        for i, v in enumerate(vs):
            if history.is_number(v):
                parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4" fill="{c}">'
                             f"<title>{esc(name)}: {esc(as_written(v))} "
                             f"({esc(labels[i] if i < len(labels) else i)})</title></circle>")
        parts.append("</g>")
        ly = top + 10 + 20 * k
        parts.append(f'<line x1="{left + plot_w + 14}" y1="{ly}" x2="{left + plot_w + 30}" y2="{ly}" '
                     f'stroke="{c}" stroke-width="3"/>')
        parts.append(f'<text x="{left + plot_w + 36}" y="{ly + 4}">{esc(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def bar_chart(items: Sequence[tuple[str, float, str]], title: str, width: int = 720) -> str:
    """Horizontal bars of values 0..1 (win rates), each with its label and text."""
    left, right, row = 150, 90, 26
    height = 20 + row * max(len(items), 1)
    plot_w = width - left - right
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(title)}">',
             f"<title>{esc(title)}</title>",
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    for k, (label, value, text) in enumerate(items):
        yy = 10 + row * k
        w = max(0.0, min(1.0, value)) * plot_w
        parts.append(f'<text x="{left - 8}" y="{yy + 15}" text-anchor="end">{esc(label)}</text>')
        parts.append(f'<rect x="{left}" y="{yy + 3}" width="{plot_w}" height="16" fill="#eeeeee"/>')
        parts.append(f'<rect class="bar" x="{left}" y="{yy + 3}" width="{w:.1f}" height="16" fill="{colour(k)}">'
                     f"<title>{esc(label)}: {esc(text)}</title></rect>")
        parts.append(f'<text x="{left + plot_w + 8}" y="{yy + 15}">{esc(text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


# -- one session -----------------------------------------------------------------------------


def score_series(session) -> tuple[list[str], list[str], list[list[Any]], str]:
    """(x labels, seated names, scores per player per point, x axis title) of a session.

    One point for the start, then the last state of each round; event by event when the
    game's round never changes. Replays only this session.
    """
    from companion.core.session import apply_event, new_context, with_frozen
    from companion.contract.api import json_copy

    game = session.game
    ctx = new_context()
    data = dict(session.meta.get("data") or {})
    state = json_copy(game.initial(session.setup, data))  # one working state: linear (issue 12)
    first = game.summary(game.view(state, None))  # the table's scores at each point, as every surface
    start = {p["name"]: p.get("score") for p in first["players"]}
    names = list(start)
    # each point keeps the scores by name: a game may turn the seats during play (Transatlantic
    # seats the owner of the oldest ship first), and the chart must follow each player
    snaps: list[tuple[Any, dict[str, Any]]] = []
    done, _later = session.fold()
    for entry in done:
        event = entry["event"]
        data = with_frozen(data, event)
        state = apply_event(game, session.players, state, ctx, json_copy(event), data)  # as replay steps
        s = game.summary(game.view(state, None))
        names = [p["name"] for p in s["players"]]
        snaps.append((s.get("round"), {p["name"]: p.get("score") for p in s["players"]}))
    by_round: list[tuple[Any, dict[str, Any]]] = []
    for rnd, scores in snaps:
        if by_round and by_round[-1][0] == rnd:
            by_round[-1] = (rnd, scores)
        else:
            by_round.append((rnd, scores))
    if len(by_round) >= 2 and all(r is not None for r, _ in by_round):
        # "R3": a round on the chart's axis
        labels = [_("start")] + [_("R{round}").format(round=r) for r, _s in by_round]
        points = [start] + [scores for _r, scores in by_round]
        axis = "round"
    else:
        labels = [_("start")] + [str(n) for n in range(1, len(snaps) + 1)]
        points = [start] + [scores for _, scores in snaps]
        axis = "event"
    per_player = [[pt.get(name) for pt in points] for name in names]
    return labels, names, per_player, axis


def _when(text: Any) -> str:
    moment = history.parse_time(text)
    if moment is None:
        return str(text or "")
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return day_and_time(moment)




def axis_words(axis: str) -> str:
    """The chart's x axis in words: a round, or an event."""
    return _("round") if axis == "round" else _("event")


def session_facts(session, replay, roster: Roster) -> dict:
    """Everything a session report shows, computed once for the text and the HTML versions."""
    from companion.contract.exit import Exit
    from companion.core.session import clock, minutes_between

    seen = Exit(session, replay)  # a report of a game in play shows what the table sees
    status = seen.status
    seats = [p["name"] for p in status.get("players", [])]
    shown = {p: roster.show(p) for p in seats}
    scores = {p["name"]: p.get("score") for p in status.get("players", [])}
    winners = list(status.get("winners") or [])
    finished_ = bool(status.get("finished"))
    summary = {k: status.get(k) for k in ("teams", "team_scores", "coop", "won")}
    given = {p["name"]: p["rank"] for p in status.get("players", []) if isinstance(p.get("rank"), int)}
    if given:
        summary["ranks"] = given
    ranks = history.session_ranks(seats, scores, winners, summary, lambda p: p) \
        if finished_ and not status.get("coop") else {}
    labels, names, series, axis = score_series(session)
    # a logged play (`played`) has no course of the scores to draw (issue 29: its chart was
    # "▁ = 0 … █ = 0" over empty bars)
    moved = not status.get("played")
    # a live game lasts from its first action to its last; a logged one as long as --length said
    minutes = status.get("minutes") if status.get("played") else minutes_between(
        next((e.get("at") for e in replay.events), None), status.get("finished_at"))
    log = [(n, clock(session.meta, e.get("at")), seen.words(e["event"])) for n, e in enumerate(replay.events, 1)]
    return {
        "id": session.id, "game": session.meta["game"], "title": status.get("title"), "status": status,
        "seats": seats, "shown": shown, "scores": scores, "winners": winners, "finished": finished_,
        "ranks": ranks, "round": status.get("round"), "started": _when(status.get("created")),
        "ended": _when(status.get("finished_at")) if finished_ else None, "minutes": minutes,
        "labels": labels, "series": [(shown.get(n, n), vs) for n, vs in zip(names, series)], "axis": axis,
        "chart": moved,
        # each player in their seat's colour (the session's order, as on the pages and the board)
        "names": list(names), "colours": {n: seat_colour(session.players, n) for n in [*seats, *names]},
        "log": log, "played_on": status.get("played_on"), "location": status.get("location"),
        "abandoned": status.get("abandon_reason") if status.get("abandoned") else None,
        "teams": [[shown.get(p, p) for p in t] for t in status.get("teams") or []] or None,
        "coop": bool(status.get("coop")), "won": status.get("won"), "tie_break": status.get("tie_break"),
        "roles": {p: str(v) for p, v in (session.meta.get("roles") or {}).items()},
        "bgstats": None,  # the "Add to BG Stats" link of a finished play (set by the caller: it needs the store)
    }


def where_words(facts: dict) -> str:
    """`played on 2026-03-01 at Cy's kitchen`, or "" when neither was given."""
    on, at = facts.get("played_on"), facts.get("location")
    if on and at:
        return _("played on {date} at {place}").format(date=day(on.replace("T", " ")), place=at)
    if on:
        return _("played on {date}").format(date=day(on.replace("T", " ")))
    return _("at {place}").format(place=at) if at else ""


def when_words(facts: dict, html: bool = False) -> str:
    """The report's line of when: started, finished, how long, where. A back-dated play
    (`--played-on`) says when it was played, never when it was typed in (issue 29)."""
    long = facts["finished"] and facts["minutes"] is not None
    if facts.get("played_on"):
        if long:
            return _("{where} ({minutes} min)").format(where=where_words(facts), minutes=facts["minutes"])
        return where_words(facts) if facts["finished"] or not html else \
            _("{where}, still in play").format(where=where_words(facts))
    if facts["finished"] and long:
        when = (_("Started {start}, finished {end} ({minutes} min)") if html else
                _("started {start}, finished {end} ({minutes} min)"))
    elif facts["finished"]:
        when = _("Started {start}, finished {end}") if html else _("started {start}, finished {end}")
    else:
        when = _("Started {start}, still in play") if html else _("started {start}")
    when = when.format(start=facts["started"], end=facts["ended"], minutes=facts["minutes"])
    if where_words(facts):
        when += f" · {where_words(facts)}"
    return when


def result_words(facts: dict) -> str:
    winners = [facts["shown"].get(w, w) for w in facts["winners"]]
    if facts.get("abandoned") is not None:
        if facts["abandoned"]:
            return _("Abandoned ({reason}): no result.").format(reason=facts["abandoned"])
        return _("Abandoned: no result.")
    if not facts["finished"]:
        return _("In play: no winner yet.")
    if facts.get("coop"):
        return _("Won together.") if facts.get("won") else _("Lost together.")
    rule = facts.get("tie_break")
    team = next((t for t in facts.get("teams") or [] if set(t) == set(winners)), None)
    if team is not None:
        if rule:
            return _("Won by the team of {names} (tie settled by {rule}).").format(names=", ".join(team), rule=rule)
        return _("Won by the team of {names}.").format(names=", ".join(team))
    if not winners:
        return _("Finished without a winner.")
    if len(winners) == 1:
        if rule:
            return _("Won by {name} (tie settled by {rule}).").format(name=winners[0], rule=rule)
        return _("Won by {name}.").format(name=winners[0])
    return _("Shared win for {names}.").format(names=", ".join(winners))


def bgstats_html(facts: dict) -> list[str]:
    """"Add to BG Stats": the link (a tap on a phone) and its QR code (a phone scans it off a
    laptop's screen); nothing for a play that is not over."""
    link = facts.get("bgstats")
    if not link:
        return []
    from companion.record import bgstats

    code = bgstats.qr_svg(link)
    if code is None:  # too long for a code: the link alone, and why (issue 29)
        return [h2(_("Add to BG Stats")),
                "<p>" + _("<a href=\"{link}\">Add this play to BG Stats</a> (opens the BG Stats app on a phone "
                          "or a tablet: open this file there).").format(link=esc(link)) + "</p>",
                f"<p>{esc(bgstats.too_long(link))}</p>"]
    return [h2(_("Add to BG Stats")),
            "<p>" + _("<a href=\"{link}\">Add this play to BG Stats</a> (opens the BG Stats app on a phone "
                      "or a tablet), or scan the code with one:").format(link=esc(link)) + "</p>",
            f"<figure>{code}<figcaption>" + esc(_("The play, for BG Stats.")) + "</figcaption></figure>"]



def session_html(facts: dict) -> str:
    """The report page of one session."""
    when = when_words(facts, html=True)
    rows = []
    for seat, name in enumerate(facts["seats"], 1):
        shown = facts["shown"][name]
        label = esc(shown) + (" <small>" + esc(_("(recorded as {name})").format(name=name)) + "</small>"
                              if shown != name else "")
        mark = _("winner") if name in facts["winners"] else ""
        extra = [x for x in (facts["roles"].get(name),
                             next((_("team {names}").format(names="+".join(t)) for t in facts.get("teams") or []
                                   if facts["shown"][name] in t), None)) if x]
        if extra:
            label += f" <small>({esc(', '.join(extra))})</small>"
        cls = ' class="win"' if name in facts["winners"] else ""
        rows.append([seat, f"<span{cls}><span class=\"swatch\" style=\"background:{facts['colours'][name]}\"></span>"
                           f"{label}</span>", as_written(facts["scores"].get(name)), facts["ranks"].get(name, ""), mark])
    by_round = facts["axis"] == "round"
    heading = _("Score by round") if by_round else _("Score by event")
    caption = _("Each player's total after each round.") if by_round else _("Each player's total after each event.")
    chart = [f"<h2>{esc(heading)}</h2>",
             "<figure>\n" + line_chart(facts["labels"], facts["series"],
                                       _("{heading}: {title}").format(heading=heading, title=_(facts["title"])),
                                       x_title=axis_words(facts["axis"]),
                                       colours=[facts["colours"].get(n) for n in facts["names"]])
             + f"\n<figcaption>{esc(caption)}</figcaption>\n</figure>"] \
        if facts.get("chart", True) else []
    log = "\n".join(f"<li><span class=\"t\">{esc(t)}</span>{esc(words)}</li>" for _, t, words in facts["log"])
    meta = _("Session {id}").format(id=facts["id"]) + f" · {when}"
    if facts["round"] is not None:
        meta += " · " + _("round {round}").format(round=facts["round"])
    body = [
        f"<h1>{esc(_(facts['title']))}</h1>",
        f"<p class=\"meta\">{esc(meta)}</p>",
        f"<p class=\"result\">{esc(result_words(facts))}</p>",
        h2(_("Final scores")) if facts["finished"] else h2(_("Scores so far")),
        table_html([_("seat"), _("player"), _("score"), _("rank"), _("result")], rows, numeric=(0, 2, 3), raw=(1,)),
        *chart,
        *bgstats_html(facts),
        h2(_("What happened")),
        f"<ol class=\"log\">\n{log}\n</ol>" if log else para(_("Nothing was recorded.")),
        para(_("Made by Tabletop Companion."), "meta"),
    ]
    return page(_("{title} · session {id}").format(title=_(facts["title"]), id=facts["id"]), "\n".join(body))


# -- statistics --------------------------------------------------------------------------------



def _rate(p: dict) -> str:
    return _("{percent} ({wins}/{sessions})").format(percent=percent(p["win_rate"]), wins=p["wins"],
                                                      sessions=p["sessions"])



def stats_html(stats: dict) -> str:
    """The statistics page: win-rate bars, tables, recent scores, head to head, records."""
    f = stats["filters"]
    scope_text = scope_words(stats["filters"]) or _("all sessions")
    players = [p for p in stats["players"] if p["sessions"]]
    n = stats["sessions"]
    body = ["<h1>" + esc(_("Statistics")) + "</h1>",
            "<p class=\"meta\">" + esc(ngettext("{n} finished session ({scope}); {playing} in play, not counted.",
                                                "{n} finished sessions ({scope}); {playing} in play, not counted.",
                                                n).format(n=n, scope=scope_text, playing=len(stats["unfinished"])))
            + "</p>"]
    if players:
        body.append(h2(_("Win rates")))
        body.append("<figure>\n" + bar_chart([(p["name"], p["win_rate"], _rate(p)) for p in players],
                                             _("Win rate per player")) + "\n</figure>")
        rows = [[p["name"], p["sessions"], p["wins"], percent(p["win_rate"]), p["current_streak"],
                 p["longest_streak"]] for p in players]
        body.append(h2(_("Players")))
        body.append(table_html([_("player"), _("sessions"), _("wins"), _("win rate"), _("streak now"),
                                _("longest streak")], rows, numeric=(1, 2, 3, 4, 5)))
        rows = [[p["name"], history.shown_title(g), v["sessions"], v["wins"], _num(v["average"]), _num(v["best"])]
                for p in players for g, v in p["games"].items()]
        body.append(h2(_("Scores per game")))
        body.append(table_html([_("player"), _("game"), _("sessions"), _("wins"), _("average"), _("best")], rows,
                               numeric=(2, 3, 4, 5)))
        charts = history.recent_by_game(players, f["game"])
        if charts:
            body.append(h2(_("Recent scores")))
        for c in charts:  # one chart per game: scores of different games never share a scale
            width = max(len(vs) for _n, vs in c["rows"])
            series = [(name, [None] * (width - len(vs)) + vs) for name, vs in c["rows"]]
            labels = [str(n - width) if n != width else _("last") for n in range(1, width + 1)]
            caption = ngettext("{title}: each player's scores in their last {n} session of it, oldest left, on "
                               "one scale.", "{title}: each player's scores in their last {n} sessions of it, oldest "
                               "left, on one scale.", width).format(title=history.shown_title(c["game"]), n=width)
            body.append("<figure>\n" + line_chart(labels, series,
                                                  _("{title}: each player's last scores").format(title=history.shown_title(c["game"])),
                                                  x_title=_("sessions ago")) +
                        f"\n<figcaption>{esc(caption)}</figcaption>\n"
                        "</figure>")
    h2h = stats["head_to_head"]
    if h2h:
        body.append(h2(_("Head to head")) + para(_("Wins–losses–draws of the row player against the column player."),
                                                 "meta"))

        names = sorted({n for row in h2h.values() for n in row} | set(h2h), key=str.casefold)
        cols = [n for n in names if any(n in row for row in h2h.values())]
        rows = [[a] + [("–" if a == b else "{wins}–{losses}–{draws}".format(**h2h[a][b]) if b in h2h[a] else "")
                       for b in cols] for a in sorted(h2h, key=str.casefold)]
        body.append(table_html([_("player")] + cols, rows, numeric=range(1, len(cols) + 1)))
    if stats["games"]:
        rows = []
        for g in stats["games"]:
            rec = g["record"]
            rows.append([history.shown_title(g["game"]), g["sessions"], _num(g["average_rounds"]), _num(g["average_minutes"]),
                         record_words(rec) if rec else ""])
        body.append(h2(_("Games")))
        body.append(table_html([_("game"), _("sessions"), _("average rounds"), _("average minutes"),
                                _("record score")], rows, numeric=(1, 2, 3)))
    if stats["unfinished"]:
        rows = [[u["id"], history.shown_title(u["game"]), ", ".join(u["players"]), _when(u["created"])]
                for u in stats["unfinished"]]
        body.append(h2(_("In play (not counted)")))
        body.append(table_html([_("session"), _("game"), _("players"), _("started")], rows))
    if not players and not stats["unfinished"]:
        body.append(para(_("No sessions yet.")))
    body.append(para(_("Made by Tabletop Companion."), "meta"))
    return page(_("Statistics · Tabletop Companion"), "\n".join(body))


def scope_words(f: dict) -> str:
    """What `stats` was asked about (`player Ann, game trans, since 2026-01-01`), or ""."""
    scope = [_("player {name}").format(name=f["player"]) if f["player"] else "",
             _("game {game}").format(game=f["game"]) if f["game"] else "",
             _("since {date}").format(date=day(f["since"])) if f["since"] else ""]
    return ", ".join(s for s in scope if s)


def record_words(rec: dict) -> str:
    """A game's record score: `68 by Ann (2026-03-01, a1b2c3)`."""
    return _("{score} by {name} ({date}, {session})").format(score=as_written(rec["score"]), name=rec["player"],
                                                              date=day(rec["date"]), session=rec["session"])

