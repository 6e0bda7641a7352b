"""The group's history on each phone (issue 31, item 8): `/p/TOKEN/history`.

BG Stats keeps a group's plays on every phone; here they live in the laptop's data folder, and
a player reached them only at the laptop (`sessions`, `stats`, `stats --ratings`). This page
shows them from the player's own link: the sessions of this data folder, the player's own
statistics and head-to-head, and the ratings. It is read-only and made by the same functions
those commands use (``companion.record.stats``, ``companion.record.ratings``), so the numbers are
the commands' numbers. It writes nothing: the ratings are worked out without their cache.

Nothing secret of a game in play reaches it: the index a session is listed from holds a result
only once the session is finished (``core.index.index_summary``), and no hand, deal or private
part of any session is read here. The page has no live script: it is a page to read, and the
game's page is one tap away.
"""

from __future__ import annotations

from html import escape

from companion.contract.errors import CompanionError
from companion.contract.language import _, ngettext
from companion.contract.view import Line, Table
from companion.web import pages
from companion.web.languages import switch

SHOWN = 30  # sessions listed, the newest first; the laptop's `sessions` lists them all


def sessions_table(entries: list[dict], roster, sid: str) -> Table:
    """`sessions`, newest first: its result column in its own words (``session_state``)."""
    from companion.record import stats as history
    from companion.terminal.generic import session_state

    days = {e["id"]: history.played_date(e) for e in entries}
    newest = list(reversed(sorted(entries, key=lambda e: days[e["id"]])))  # stable: the latest typed first
    rows = [[(_("{id} (this game)").format(id=e["id"]) if e["id"] == sid else e["id"]), days[e["id"]],
             history.shown_title(history.game_key(e)), ", ".join(roster.show(p) for p in e.get("players") or ()),
             session_state(e, roster)] for e in newest[:SHOWN]]
    title = (_("The sessions of this group") if len(newest) <= SHOWN else
             _("The {shown} latest sessions of this group ({count} in all)").format(
                 shown=SHOWN, count=len(newest)))
    return Table([_("id"), _("played"), _("game"), _("players"), _("result")], rows, title=title,
                 empty=_("No sessions yet."))


def own_stats(stats: dict, name: str) -> list:
    """The player's own row and head-to-head, as `stats --player NAME` counts them."""
    from companion.record import stats as history

    row = next((p for p in stats["players"] if p["name"].casefold() == name.casefold()), None)
    if row is None:
        return [Line(_("{name} has no finished game against others yet: the statistics start with the first.").format(
            name=name))]
    out = [Line(ngettext("{name} won {wins} of {sessions} finished game ({rate} %), longest streak {streak}.",
                         "{name} won {wins} of {sessions} finished games ({rate} %), longest streak {streak}.",
                         row["sessions"]).format(name=row["name"], wins=row["wins"], sessions=row["sessions"],
                                                 rate=round(100 * row["win_rate"]), streak=row["longest_streak"]))]
    games = [[history.shown_title(gid), g["sessions"], g["wins"], "" if g["average"] is None else round(g["average"], 1),
              "" if g["best"] is None else g["best"]] for gid, g in row["games"].items()]
    out.append(Table([_("game"), _("games"), _("wins"), _("average"), _("best")], games,
                     title=_("{name} by game").format(name=row["name"]), right=(1, 2, 3, 4)))
    h2h = next((v for k, v in stats["head_to_head"].items() if k.casefold() == name.casefold()), {})
    out.append(Table([_("against"), _("wins"), _("losses"), _("draws")],
                     [[other, c["wins"], c["losses"], c["draws"]] for other, c in h2h.items()],
                     title=_("Head-to-head"), right=(1, 2, 3), empty=_("Nobody played against yet.")))
    return out


def ratings_tables(ratings: dict) -> list:
    """`stats --ratings`: all games, then one table per game."""
    from companion.record import stats as history

    def table(rows: list[dict], title: str) -> Table:
        return Table([_("player"), _("rating"), _("skill ± uncertainty"), _("plays")],
                     [[r["name"], f"{r['rating']:.1f}", f"{r['mu']:.1f} ± {r['sigma']:.1f}", r["plays"]] for r in rows],
                     title=title, right=(1, 3))

    if not ratings["overall"]:
        return [Line(_("No finished plays of two or more players to rate yet."))]
    out = [Line(_("Ratings: skill − 3 × uncertainty, a cautious estimate; everyone starts at 25 ± 8.3 (rating 0)."),
                style="muted"), table(ratings["overall"], _("Ratings, all games"))]
    out += [table(rows, history.shown_title(gid)) for gid, rows in ratings["games"].items()]
    return out


def view(store, player: str, sid: str) -> list:
    """The history page's blocks for ``player``, from the data folder as the commands read it."""
    from companion.core.index import index
    from companion.record import players as registry
    from companion.record import ratings as skill
    from companion.record import stats as history

    entries = index(store)
    roster = history.ShowOnce(registry.roster(store, entries))
    out: list = [sessions_table(entries, roster, sid)]
    stats = history.compute(entries, roster)
    out += own_stats(stats, roster.show(player))
    try:
        out += ratings_tables(skill.compute(entries, roster))
    except CompanionError as exc:  # never a traceback on a phone: the one line the command says
        out.append(Line(exc.message, style="muted"))
    return out


def page(site, player: str) -> str:
    """The whole page (its links written with ``{token}``, as the player's page is)."""
    back = escape(_("Back to the game"))
    sections = [f'<section class="wide"><p><a href="/p/{{token}}">{back}</a></p></section>']
    sections += pages.blocks(view(site.reader.store, player, site.sid), player)
    title = _("The group's history")
    sub = _("{name} · what the group has played; nothing here changes it").format(name=player)
    return (
        pages.head(title)
        + f'<body><header>{switch()}<h1>{escape(title)}</h1><p class="sub">{escape(sub)}</p></header>'
        f"<main>{''.join(sections)}</main><footer>{escape(_('Reload this page to see the latest games.'))}"
        "</footer></body></html>"
    )


def link() -> str:
    """The section on a player's page that opens the history (its link written with ``{token}``)."""
    return (f'<section class="wide"><p><a href="/p/{{token}}/history">'
            f'{escape(_("The group’s history: sessions, your stats, the ratings"))}</a></p></section>')
