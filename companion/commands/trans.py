"""Commands of Trans Europa / Trans Amerika: `new`, `round start|end`, `hand`, `pass`, and `status`.

Thin over ``companion.games.trans``: the deal is built by ``make_round_start`` inside
``app.record`` (under the write lock, from the freshest state, with the session's seed), and the
rules validate every event. What is said on screen never names a city of a hand that is still
secret: only `hand NAME` shows one player's cities, on a private screen in the shell.
"""

from __future__ import annotations

import click

from companion.commands.common import new_command, parse_pairs, pass_app, session_option
from companion.errors import CompanionError
from companion.games.base import player_name
from companion.games.trans import PRESTIGE_GOAL, SPECIAL_IDS, make_round_start
from companion.render import bar, table, winners_line

GAME = ("trans-europa", "trans-amerika")


# -- new -----------------------------------------------------------------------------------------

def _new(game_id: str) -> click.Command:
    @new_command(game_id)
    @click.option("--variant", type=click.Choice(["special-cards"]),
                  help="Play with the special cards: one is turned over before every round.")
    @click.option("--scoring", type=click.Choice(["prestige", "classic"]), default="prestige", show_default=True,
                  help="prestige: climb to 13 (this edition); classic: start at 13, lose your missing rails.")
    def new(variant: str | None, scoring: str) -> dict:
        """2 to 6 players; the start player passes to the left every round."""
        return {"variant": variant, "scoring": scoring}

    return new


new_europa = _new("trans-europa")
new_amerika = _new("trans-amerika")


# -- rounds --------------------------------------------------------------------------------------

@click.group("round")
def round_group() -> None:
    """Start a round (the deal) or end it (the scoring): `round start`, `round end ...`."""


@round_group.command("start")
@click.option("--physical", is_flag=True, help="The cities are dealt at the table, not by the app.")
@click.option("--special", type=click.Choice(SPECIAL_IDS), metavar="CARD",
              help="The special card you turned over at the table (one of: " + ", ".join(SPECIAL_IDS) + ").")
@session_option
@pass_app
def round_start(app, physical: bool, special: str | None) -> None:
    """Deal the next round: one city of each colour to everyone, and the special card if any."""

    def deal(session, replay):
        meta = session.meta
        return make_round_start(replay.state, replay.data, meta["seed"], meta.get("entropy", ""), session.id,
                                special=special, physical=physical)

    s, replay, _ = app.record(deal, GAME, "round start")
    status = s.status(replay)
    click.echo(f"Round {status['round']} started: {status['start_player']} starts.")
    card = special_lines(status)
    if card:
        click.echo("\n".join(card))
    if physical:
        click.echo("Deal the cities at the table. To keep them on record, each player may type "
                   "`hand NAME --set CITY,CITY,...`.")
    else:
        click.echo("Cities dealt: each player looks at their own with `hand NAME`.")
    if status["pending"]:
        click.echo("Now: " + status["pending"])


def _ask_missing(app, s, winners: tuple[str, ...], missing: dict[str, int], rails_out: bool) -> None:
    """In the shell, ask for the missing rails of every non-winner left out (script mode refuses)."""
    if not app.can_ask():
        return
    players = s.players
    named = set()
    for name in list(winners) + list(missing):
        try:
            named.add(player_name(players, name))
        except CompanionError:
            return  # the rules will refuse the unknown name in one line
    if not winners and not rails_out:
        return
    for p in players:
        if p in named:
            continue
        answer = app.ask(f"Missing rails for {p}: ").strip()
        if not answer:
            continue
        try:
            missing[p] = int(answer)
        except ValueError:
            raise click.UsageError(f"{answer!r} is not a whole number: type {p}'s missing rails, e.g. 3") from None


@round_group.command("end")
@click.option("--winner", "winners", multiple=True, metavar="NAME",
              help="A player who connected all their cities (twice for two winners).")
@click.option("--rails-out", is_flag=True, help="The rails ran out and nobody connected.")
@click.option("--missing", multiple=True, metavar="NAME=N",
              help="Rails a player still needed (a double line counts 2); one for every non-winner.")
@session_option
@pass_app
def round_end(app, winners: tuple[str, ...], rails_out: bool, missing: tuple[str, ...]) -> None:
    """Score the round: `round end --winner Ann --missing Bob=2 --missing Cy=5`."""
    counts = parse_pairs(missing, "NAME=N")
    s = app.session(GAME, "round end")
    _ask_missing(app, s, winners, counts, rails_out)
    event = {"type": "round-end", "winners": list(winners), "missing": counts}
    if rails_out:
        event["rails_out"] = True
    s, replay, _ = app.record(event, GAME, "round end")
    status = s.status(replay)
    last = status["history"][-1]
    parts = []
    for p in status["players"]:
        name = p["name"]
        why = "connected" if name in last["winners"] else f"{last['missing'][name]} missing"
        parts.append(f"{name} {last['points'][name]:+d} ({why})")
    head = "The rails ran out. " if last["rails_out"] else ""
    click.echo(f"{head}Round {last['round']} scored: " + ", ".join(parts) + ".")
    click.echo("Totals: " + ", ".join(f"{p['name']} {p['score']}" for p in status["players"]) + ".")
    hands = s.game.public_hands(replay.state) or {}
    if any(hands.values()):
        click.echo("The hands were: " + "; ".join(f"{p}: {', '.join(c)}" for p, c in hands.items() if c) + ".")
    if status["finished"]:
        click.echo(winners_line(status))
    else:
        click.echo(f"Next: `round start` ({status['start_player']} starts).")


# -- hands and passing ---------------------------------------------------------------------------

def hand_text(game, state, data, player: str) -> str:
    """A player's cities with their colours, and what the player still has to do."""
    colour = {c["name"]: c["colour"] for c in data.get("cities") or []}
    cities = game.hand_of(state, player)
    order = list(data.get("colours") or [])
    rows = sorted(cities, key=lambda c: order.index(colour[c]) if colour.get(c) in order else len(order))
    when = f"round {state['round']}" + ("" if state["round_open"] else ", over")
    lines = [f"{player}'s cities ({when}):"]
    lines += [f"  {colour.get(c, ''):<10} {c}" for c in rows]
    pending = state.get("pending") or {}
    if pending.get("kind") == "pass-three" and player in pending.get("chosen", {}):
        lines.append(f"  chosen to pass left: {pending['chosen'][player]}")
    if player in game.waiting(state):
        lines.append("Your choice is due: " + game.pending_text(state))
    return "\n".join(lines)


@click.command()
@click.argument("name")
@click.argument("more", nargs=-1, required=False)
@click.option("--set", "cities", metavar="CITY,...", help="Record the hand dealt at the table (physical rounds).")
@click.option("--return", "returned", metavar="CITY", help="Put this city back (the 'return-any' special card).")
@session_option
@pass_app
def hand(app, name: str, more: tuple[str, ...], cities: str | None, returned: str | None) -> None:
    """Show NAME's cities privately; or record them (--set), or put one back (--return)."""
    if cities is not None and returned is not None:
        raise click.UsageError("Give --set or --return, not both.")
    if more:  # `hand Ann --set New York,Dallas` arrives split at the space: join it again
        if cities is None and returned is None:
            raise click.UsageError(f"`hand` takes one player name, not {name} {' '.join(more)}: "
                                   "quote a name or city with spaces.")
        if cities is not None:
            cities = " ".join((cities, *more))
        else:
            returned = " ".join((returned, *more))
    if cities is not None:
        given = [c.strip() for c in cities.split(",") if c.strip()]
        s, replay, event = app.record({"type": "hand-set", "player": name, "cities": given}, GAME, "hand")
        who = player_name(s.players, name)
        click.echo(f"{who}'s hand recorded ({len(given)} cities).")
        return
    if returned is not None:
        s, replay, _ = app.record({"type": "hand-return", "player": name, "city": returned}, GAME, "hand")
        who = player_name(s.players, name)
        click.echo(f"{who} put a city back and plays with {len(s.game.hand_of(replay.state, who))}.")
        pending = s.game.pending_text(replay.state)
        click.echo(("Now: " + pending) if pending else "Everyone has chosen: the round can be played.")
        return
    s = app.session(GAME, "hand")
    replay = s.replay()
    state = replay.state
    player = player_name(s.players, name)
    text = hand_text(s.game, state, replay.data, player)
    if state["round_open"] and app.show_private is not None:
        app.show_private(player, text)  # the shell: alternate screen, nothing left behind
    else:
        click.echo(text)


@click.command("pass")
@click.argument("name")
@click.argument("city", nargs=-1, required=True)
@session_option
@pass_app
def pass_card(app, name: str, city: tuple[str, ...]) -> None:
    """Pass CITY to the left neighbour, as a pass special card asks: `pass Ann Dallas`."""
    s, replay, _ = app.record({"type": "pass", "player": name, "city": " ".join(city)}, GAME, "pass")
    who = player_name(s.players, name)
    pending = s.game.pending_text(replay.state)
    click.echo(f"{who}'s choice is recorded.")
    click.echo(("Now: " + pending) if pending else "All cards are passed: the round can be played.")


# -- screens -------------------------------------------------------------------------------------

def special_lines(status: dict) -> list[str]:
    """The special card in force, what it means this round, and what the digital deck is."""
    card = status.get("special")
    if not card:
        return []
    lines = [f"Special card: {card['title']} ({card['id']}): {status['special_text']}."]
    deck = status.get("special_deck")
    if deck and card["id"] and status.get("special_from") != "table":
        note = f"Special-card deck: {deck['left']} of {deck['size']} cards left"
        if deck.get("one_per_variant"):
            note += (" (one card per printed variant: how many copies of each the box has is not known; "
                     "`companion data check` lists them)")
        lines.append(note + ".")
    return lines


def render_status(app, session, replay) -> str:
    status = session.status(replay)
    classic = status["scoring"] == "classic"
    rnd = status["round"]
    state = "open" if status["round_open"] else ("over" if rnd else "not started")
    head = [f"Session {session.id}", status["title"], f"{status['scoring']} scoring"]
    if status["variant"]:
        head.append("special cards")
    head.append(f"round {rnd} ({state})" if rnd else "no round yet")
    out = [" · ".join(head)]
    if not status["finished"]:
        verb = "starts" if status["round_open"] else "starts the next round"
        out.append(f"Start player: {status['start_player']} {verb}.")
    if status["round_open"]:
        out += special_lines(status)
        for p, cities in (status.get("revealed") or {}).items():
            out.append(f"  shown: {p}: {', '.join(cities)}")
        if status["pending"]:
            out.append("Waiting: " + status["pending"])
    headers = ["player"] + [f"R{h['round']}" for h in status["history"]] + ["total", "points left" if classic
                                                                           else f"toward {PRESTIGE_GOAL}"]
    rows = []
    for p in status["players"]:
        track = bar(p["score"], PRESTIGE_GOAL, width=PRESTIGE_GOAL)  # one mark per point
        rows.append([p["name"], *(f"{v:+d}" for v in p["rounds"]), p["score"], track])
    out.append(table(headers, rows, right=range(1, len(headers) - 1)))
    if status["finished"]:
        out.append(winners_line(status))
        out.append("Every hand is public now: `hand NAME`; `verify` shows the seed and checks every deal.")
    elif status["round_open"]:
        out.append("Next: `round end --winner NAME --missing NAME=N ...` (or `--rails-out`).")
    else:
        out.append("Next: `round start`" + (" (or `round start --physical`)." if rnd == 0 else "."))
    return "\n".join(out)


def render_map(app, map_id: str) -> str:
    """`board trans-amerika`: the printed board with its cities, without a session."""
    from companion import board, boardview
    from companion.render import to_text

    return to_text(boardview.draw(board.load(map_id)), color=bool(app.interactive))


def render_board(app, session, replay) -> str:
    """`board` in a session: the board with the values the session froze (double kinds ...)."""
    from companion import board, boardview
    from companion.render import to_text

    drawing = boardview.draw(board.Board.from_values(replay.data, session.meta["game"]))
    return to_text(drawing, color=bool(app.interactive))
