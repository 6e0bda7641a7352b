"""Commands of Atlantic Star: `new`, `agency`, `charter`, `refresh`, `voyage`, `loan`, and its screens.

Thin over ``companion.games.atlantic_star.rules``: each command builds one event (names resolved to
the seated players and the seas, so the log reads well), records it and says what happened.
Two things are done here rather than in the rules, because they involve the players' data
folder: the victory points the players typed after `new` are carried into the next event (so
`status` shows provisional points as soon as they are known), and in the shell a missing class
of victory points is asked for, with the probable rows shown as a hint to check, never filled in.
"""

from __future__ import annotations

import copy

import click

from companion.core import datapack
from companion.games.kit import echo_json, json_option, new_command, pass_app, session_option, split_names
from companion.games.kit import say as kit_say
from companion.core.errors import CompanionError, MissingValue, RuleError
from companion.games.atlantic_star.rules import GAME as GAME_ID
from companion.games.atlantic_star.rules import (OPERATOR, UNUSUAL_LEG, AtlanticStar, a_voyage, marks, points, sea_name,
                                                unusual)
from companion.games.api import player_name
from companion.terminal.render import table, winners_line

GAME = (GAME_ID,)


def say(text: str, status: dict | None = None) -> None:
    """A message wrapped at spaces (kit.say), never inside a player's name (Bartholomew Jones)."""
    kit_say(text, [p["name"] for p in (status or {}).get("players", [])])
RULES = AtlanticStar()
SHAPE = "[1st, 2nd, 3rd, 4th, 5th, 6th]"


@new_command(GAME_ID)
@click.option("--agency", metavar="A,B,C,D",
              help="Names of the four ships on the agency, from the 3,000 space down (optional).")
def new(agency: str | None) -> dict:
    """2 to 6 players, each with their start money and plaques; the operators for that count."""
    return {"agency": split_names(agency)} if agency else {}


# -- helpers --------------------------------------------------------------------------------


def players_vp(app) -> dict:
    """The victory points as the players know them today (their own values over the pack)."""
    return datapack.merged(GAME_ID, app.store.user_values(GAME_ID)).get("vp") or {}


def effective_vp(app, replay) -> dict:
    """The session's victory points, completed by classes the players typed since (unfinished only)."""
    vp = dict(replay.data.get("vp") or {})
    if not replay.state.get("finished"):
        for cls, row in players_vp(app).items():
            if vp.get(cls) is None and row is not None:
                vp[cls] = row
    return vp


def building(app, event: dict):
    """The function app.record calls under the lock: names resolved, new vp classes carried along."""

    def make(session, replay) -> dict:
        state = replay.state
        out = dict(event)
        out["player"] = player_name(state["players_order"], event["player"])
        if "sea" in event:
            try:
                out["sea"] = sea_name(list(state["seas"]), event["sea"])
            except RuleError:
                pass  # the rules refuse it, after checking whose turn it is
        known = replay.data.get("vp") or {}
        for cls, row in sorted(players_vp(app).items()):
            if row is not None and known.get(cls) is None:
                out.setdefault("_data", {})[f"vp.{cls}"] = row
        return out

    return make


def record(app, event: dict, command: str):
    """Record ``event``; in the shell, ask for a class of victory points the scoring needs."""
    while True:
        try:
            return app.record(building(app, event), GAME, command)
        except MissingValue as missing:
            if not app.can_ask() or not missing.key.startswith("vp."):
                raise
            ask_vp(app, missing.key)


def ask_vp(app, key: str) -> None:
    """Ask the players for one class's victory points, showing the probable row only as a hint."""
    cls = key.split(".")[1]
    say(f"The game is over, and the victory points of the {cls}-star class are not known yet.")
    hint = (datapack.pack(GAME_ID).get("suggestions") or {}).get(key)
    if hint:
        row = ", ".join("?" if v is None else str(v) for v in hint["value"]) if hint.get("value") else ""
        say(f"Suggested: {row + ' — ' if row else ''}{hint['note']}.")

    def parse(answer: str) -> list[int]:
        try:
            row = [int(x) for x in answer.strip("[]").replace(",", " ").split()]
        except ValueError:
            raise ValueError("Six whole numbers, please (e.g. 20 15 10 6 2 0).") from None
        try:
            datapack.validate(GAME_ID, key, row, app.store.user_values(GAME_ID))
        except CompanionError as exc:
            raise ValueError(f"Six whole numbers, please ({exc.message})") from None
        return row

    # the question fits 80 columns with its answer: prompt_toolkit breaks a long one mid-word
    row = app.ask_until("Read them off the board, 1st to 6th place, six whole numbers: ", parse)
    with app.store.writing():
        app.store.set_user_value(GAME_ID, key, row)
    say(f"Kept as your value of {GAME_ID} {key} (`data show {GAME_ID}`).")


def next_line(status: dict) -> str:
    """Whose turn it is and what they may still do, or the result."""
    if status["finished"]:
        return winners_line(status) + " " + scores_text(status)
    may = status["may"]
    return f"{status['turn']}'s turn: {', '.join(may[:-1])} or {may[-1]}."


def complete(session, replay, words: list[str], current: str) -> list[tuple[str, str]] | None:
    """Completion from context: the agency spaces for `charter` (with the ship on each), the
    seas for `voyage` and `loan`, players where a player goes."""
    state = replay.state
    command, args = words[0], [w for w in words[1:] if not w.startswith("-")]
    if command not in ("charter", "voyage", "loan", "refresh"):
        return None
    if not args:
        return [(p, "") for p in session.players]
    if len(args) > 1 or command == "refresh":
        return []
    if command == "charter":
        return [(str(a["price"]), a.get("card") or "") for a in state["agency"]]
    return [(sea, "") for sea in state["seas"]]


def next_action(status: dict) -> str:
    """The shell toolbar's "next": what the player whose turn it is may do."""
    if status["finished"]:
        return ""
    may = status["may"]
    return " or ".join([", ".join(may[:-1]), may[-1]]) if len(may) > 1 else "".join(may)


def scores_text(status: dict) -> str:
    return "Final scores: " + ", ".join(
        f"{p['name']} {p['score']} ({marks(p['money'])})" for p in status["players"]) + "."


def place_text(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def whole(text: str, what: str, example: str) -> int:
    """A whole number typed with or without thousands separators (8000, 8,000)."""
    try:
        return int(text.replace(",", "").replace("_", "").strip())
    except ValueError:
        raise click.UsageError(f"{what} must be a whole number, not {text!r}: e.g. {example}") from None


# -- commands -------------------------------------------------------------------------------


@click.command()
@json_option
@session_option
@pass_app
def agency(app, as_json: bool) -> None:
    """Show the charter agency: the four spaces with their prices and the ships' names if typed."""
    s = app.session(GAME, "agency")
    spaces = s.status()["agency"]
    if as_json:
        echo_json(spaces)
        return
    click.echo(agency_text(spaces))


def agency_text(spaces: list[dict]) -> str:
    return table(["space", "ship"], [[marks(a["price"]), a["card"] or "(not typed)"] for a in spaces],
                 title="Charter agency", right=[0])


@click.command()
@click.argument("name")
@click.argument("space")
@click.option("--card", metavar="TEXT", help="The name of the ship chartered (for the log).")
@click.option("--new", "new_card", metavar="TEXT", help="The name of the ship drawn onto the 3,000 space.")
@session_option
@pass_app
def charter(app, name: str, space: str, card: str | None, new_card: str | None) -> None:
    """Charter the ship on SPACE (3000, 2000, 1000 or 0): NAME pays its price; the turn ends."""
    try:
        value: int | str = whole(space, "SPACE", "charter Ann 1000")
    except click.UsageError:
        value = space  # the rules name the spaces there are
    event = {"type": "charter", "player": name, "space": value}
    if card:
        event["card"] = card
    if new_card:
        event["new"] = new_card
    s, replay, event = record(app, event, "charter")
    status = s.status(replay)
    p = next(x for x in status["players"] if x["name"] == event["player"])
    shipped = f" ({event['card']})" if event.get("card") else ""
    say(f"{p['name']} chartered the ship on the {event['space']:,}-mark space{shipped}: "
        f"{marks(p['money'])} left, {p['hand']} card{'s' if p['hand'] != 1 else ''} in hand.", status)
    say(next_line(status), status)


@click.command()
@click.argument("name")
@click.option("--cards", metavar="A,B,C,D", help="The names of the four new ships, from the 3,000 space down.")
@session_option
@pass_app
def refresh(app, name: str, cards: str | None) -> None:
    """NAME pays 2,000 marks to replace all four agency ships (repeatable while money lasts)."""
    event = {"type": "refresh", "player": name}
    if cards:
        event["cards"] = split_names(cards)
    s, replay, event = record(app, event, "refresh")
    status = s.status(replay)
    p = next(x for x in status["players"] if x["name"] == event["player"])
    say(f"{p['name']} paid for four new agency ships: {marks(p['money'])} left.", status)
    say(next_line(status), status)


@click.command()
@click.argument("name")
@click.argument("sea")
@click.option("--class", "stars", type=int, metavar="STARS",
              help="1 to 5: needed by a sea's first voyage (a class no other sea has).")
@click.option("--value", type=int, metavar="N", help="The voyage's value: the points plus any bonus.")
@click.option("--cards", metavar="LIST",
              help="One entry per leg, e.g. 5,M,X: the ship's points, M = mail ship (1), X = no points (no bonus).")
@session_option
@pass_app
def voyage(app, name: str, sea: str, stars: int | None, value: int | None, cards: str | None) -> None:
    """NAME stages a voyage in SEA (baltic, mediterranean, atlantic, pacific); the turn ends."""
    if (value is None) == (cards is None):
        raise click.UsageError("Give the voyage's value as --value N, or leg by leg as --cards LIST (one of them).")
    event = {"type": "voyage", "player": name, "sea": sea}
    if value is not None:
        event["value"] = value
    else:
        event["cards"] = [c for c in cards.replace(",", " ").split()]
    if stars is not None:
        event["class"] = stars
    s, replay, event = record(app, event, "voyage")
    status = s.status(replay)
    sea_info = status["seas"][event["sea"]]
    me = [x for x in next(p for p in status["players"] if p["name"] == event["player"])["places"]
          if x["sea"] == event["sea"]]
    mine = max(me, key=lambda x: x["voyage"])
    say(f"{event['player']} staged {a_voyage(event['sea'])} worth {mine['value']} in the "
        f"{sea_info['class']}-star class: {place_text(mine['place'])} of {len(sea_info['ranking'])}.", status)
    legs = replay.data["seas"][event["sea"]]["legs"]
    if unusual(event.get("cards"), event.get("value"), legs):
        say(f"Note: above {UNUSUAL_LEG} points per leg is unusual: check the cards (`undo` if mistyped).")
    say(next_line(status), status)


@click.command()
@click.argument("name")
@click.argument("sea")
@click.argument("amount")
@click.option("--voyage", "which", type=int, metavar="N", help="Which of NAME's two voyages in SEA (1 or 2).")
@click.option("--preview", is_flag=True, help="Show the place and victory points before and after; record nothing.")
@session_option
@pass_app
def loan(app, name: str, sea: str, amount: str, which: int | None, preview: bool) -> None:
    """Borrow AMOUNT (whole thousands) against NAME's voyage in SEA, first thing in the turn."""
    event = {"type": "loan", "player": name, "sea": sea, "amount": whole(amount, "AMOUNT", "loan Ann baltic 5000")}
    if which is not None:
        event["voyage"] = which
    if preview:
        s = app.session(GAME, "loan")
        replay = s.replay()
        data = copy.deepcopy(replay.data)
        data["vp"] = effective_vp(app, replay)
        state = dict(replay.state, vp=data["vp"])
        say(preview_text(RULES.preview_loan(state, building(app, event)(s, replay), data)))
        return
    s, replay, event = record(app, event, "loan")
    status = s.status(replay)
    p = next(x for x in status["players"] if x["name"] == event["player"])
    chosen = replay.state["turn"]["loan"]  # a loan never ends the turn: the rules noted the voyage
    plaque = next(x for x in p["places"] if x["sea"] == chosen["sea"] and x["voyage"] == chosen["voyage"])
    say(f"{p['name']} borrowed {marks(event['amount'])} on the {event['sea'].title()} voyage: now worth "
        f"{plaque['value']}, {place_text(plaque['place'])} of {len(status['seas'][event['sea']]['ranking'])}; "
        f"{marks(p['money'])} in hand.", status)
    say(next_line(status), status)


def preview_text(pv: dict) -> str:
    b, a = pv["before"], pv["after"]
    sea = pv["sea"].title()

    def vp(x: dict) -> str:
        return "?" if x["points"] is None else str(x["points"])

    lines = [
        f"Preview, nothing recorded: {pv['player']} borrows {marks(pv['amount'])} on the {sea} voyage "
        f"({b['class']}-star class).",
        f"  value {b['value']} → {a['value']}, place {place_text(b['place'])} → {place_text(a['place'])}, "
        f"victory points {vp(b)} → {vp(a)} (as the places stand now).",
    ]
    if a["points"] is None:
        lines.append(f"  The {b['class']}-star victory points are not known yet: "
                     f"`companion data set {GAME_ID} vp.{b['class']} '{SHAPE}'`.")
    return "\n".join(lines)


# -- screens --------------------------------------------------------------------------------


def _points(vp: dict, player_places: list[dict]) -> int | None:
    pts = [points(vp, x["class"], x["place"]) for x in player_places]
    return None if any(p is None for p in pts) else sum(pts)


def render_status(app, session, replay) -> str:
    status = session.status(replay)
    vp = (replay.data.get("vp") or {}) if status["finished"] else effective_vp(app, replay)
    head = [f"Session {session.id}", "Atlantic Star", f"round {status['round']}"]
    if not status["finished"]:
        head.append(f"{status['turn']}'s turn")
    rows, places = [], []
    for p in status["players"]:
        score = _points(vp, p["places"])
        rows.append([p["name"], marks(p["money"]), p["hand"], p["plaques_left"], "?" if score is None else score])
        if p["places"]:  # below the table, whole: a column of 4 to 8 places was cut to "Baltic 3rd, Me…"
            places.append(f"  {p['name']}: " + ", ".join(f"{x['sea'].title()} {place_text(x['place'])}"
                                                         for x in p["places"]))
    label = "points" if status["finished"] else "points now"
    out = [" · ".join(head),
           table(["player", "money", "hand", "plaques left", label], rows, right=[1, 2, 3, 4])]
    if places:
        out += ["Places:", *places]
    if any(a["card"] for a in status["agency"]):
        out.append("Agency: " + " · ".join(f"{a['price']:,}: {a['card'] or '?'}" for a in status["agency"]))
    missing = sorted({x["class"] for p in status["players"] for x in p["places"]
                      if points(vp, x["class"], 1) is None})
    if missing:
        out.append("Victory points unknown for the " + ", ".join(f"{c}-star" for c in missing) +
                   " class" + ("es" if len(missing) > 1 else "") + ": read them off the board and type "
                   + "; ".join(f"`companion data set {GAME_ID} vp.{c} '{SHAPE}'`" for c in missing) + ".")
    out.append(next_line(status))
    return "\n".join(out)


def render_board(app, session, replay) -> str:
    """`board`: the five classes as columns, each sea in its class with its plaques in order."""
    status = session.status(replay)
    vp = (replay.data.get("vp") or {}) if status["finished"] else effective_vp(app, replay)
    classes = replay.data.get("classes", 5)
    places = replay.state["places"]
    by_class = {info["class"]: (sea, info) for sea, info in status["seas"].items() if info["class"]}
    headers = ["place"] + [f"{c} star{'s' if c > 1 else ''}" for c in range(classes, 0, -1)]
    rows = [[""] + [by_class[c][0].title() if c in by_class else "(empty class)"
                    for c in range(classes, 0, -1)]]
    for n in range(1, places + 1):
        row = [place_text(n)]
        for c in range(classes, 0, -1):
            pts = points(vp, c, n)
            pts_text = f"{pts} VP" if pts is not None else "? VP"
            ranking = by_class[c][1]["ranking"] if c in by_class else []
            if n <= len(ranking):
                x = ranking[n - 1]
                owner = "operator" if x["owner"] == OPERATOR else x["owner"]
                loan_text = f" (loan {x['loan'] // 1000}k)" if x["loan"] else ""
                row.append(f"{owner} {x['value']}{loan_text} · {pts_text}")
            else:
                row.append(f"· {pts_text}" if c in by_class else "")
        rows.append(row)
    seas_free = [sea.title() for sea, info in status["seas"].items() if not info["class"]]
    footer = f"Seas not yet sailed: {', '.join(seas_free)}." if seas_free else "Every sea has its class."
    from companion.terminal.render import screen_width, wrap

    wide = table(headers, rows, width=10_000)
    if max(len(line) for line in wide.splitlines()) <= screen_width():
        return wide + "\n" + footer
    # too narrow for five columns side by side: each class in turn, its places below it
    lines = []
    for col, head in enumerate(headers[1:], 1):
        lines.append(f"{head} · {rows[0][col]}")
        lines += [f"  {row[0]}: {row[col]}" for row in rows[1:] if row[col]]
    return wrap("\n".join(lines + [footer]))



# -- what the game declares (companion.games.api.Game) ------------------------------------------
COMMANDS = {"agency": agency, "charter": charter, "refresh": refresh, "voyage": voyage, "loan": loan}
NEW = {GAME_ID: new}
