"""Commands of Trans Europa / Trans Amerika: `new`, `round start|end`, `hand`, `pass`, `start`,
`build`, `status` and `board`.

Thin over ``companion.games.trans.rules``: the deal is built by ``make_round_start`` inside
``app.record`` (under the write lock, from the freshest state, with the session's seed), and the
rules validate every event. What is said on screen never names a city of a hand that is still
secret: only `hand NAME` (and `rails NAME`) show one player's cities, on a private screen in
the shell. Start markers and rails are public, as on the table.
"""

from __future__ import annotations

import click

from companion.games.kit import new_command, parse_pairs, pass_app, session_option
from companion.games.trans.rails import GAME, draw_text, rails, render_map, render_route, wants_colour, with_supplied  # noqa: F401
from companion.core.errors import CompanionError, MissingValue, RuleError
from companion.core.session import with_frozen
from companion.games.api import player_name
from companion.games.trans.rules import PRESTIGE_GOAL, SPECIAL_IDS, make_round_start
from companion.games.trans.specials import MAX_PER_ROUND, SINGLE_CARDS, clash, single_kinds
from companion.games.trans.track import largest_missing, trans_board
from companion.games.trans import single as singles
from companion.terminal.render import bar, keep_whole, table, whole, winners_line, wrap



def ask_colour(app, key: str) -> None:
    """In the shell: which of this board's colours a special card's colour means (kept for later).

    The question is said on a line of its own and the prompt is short, so neither is broken
    mid-word at 80 columns; a colour the board lacks, or a blank answer, is answered in one
    line and asked again; Ctrl-C stops, recording nothing."""
    named = key.split(".", 1)[1]
    session = app.session(GAME, "round start")
    colours = list(session.replay().data["colours"])

    def parse(text: str) -> str:
        answer = text.strip().lower()
        if answer not in colours:
            said = f"{text!r} is not one of this board's colours" if text else "Type one of this board's colours"
            raise ValueError(f"{said}: {', '.join(colours)}.")
        return answer

    click.echo(wrap(f"The card names {named}: which of this board's colours is it?"))
    answer = app.ask_until(f"Colour ({', '.join(colours)}): ", parse)
    with app.store.writing():
        app.store.set_user_value(session.meta["game"], key, answer)
    click.echo(wrap(f"Kept: the card's {named} is this board's {answer} (`data show {session.meta['game']}`)."))


def and_list(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


# -- new -----------------------------------------------------------------------------------------

def _new(game_id: str) -> click.Command:
    @new_command(game_id)
    @click.option("--variant", type=click.Choice(["special-cards"]),
                  help="Play with the special cards: one is turned over before every round.")
    @click.option("--specials-per-round", "per_round", type=int, metavar="N",
                  help=f"With --variant special-cards: turn over N cards a round, played together "
                       f"(1 to {MAX_PER_ROUND}; default 1).")
    @click.option("--scoring", type=click.Choice(["prestige", "classic"]), default="prestige", show_default=True,
                  help="prestige: climb to 13 (this edition); classic: start at 13, lose your missing rails.")
    @click.option("--deal", "deal", metavar="balanced=K",
                  help="House rule: redeal (verifiably) until every hand's empty-board minimum is within K rails "
                       "of the others'.")
    @click.option("--no-rail-count", "no_rail_count", is_flag=True,
                  help="The players' pages (`serve`) do not show each player's missing-rail count.")
    def new(variant: str | None, per_round: int | None, scoring: str, deal: str | None, no_rail_count: bool) -> dict:
        """2 to 6 players; the start player passes to the left every round."""
        options = {"variant": variant, "scoring": scoring, "order": "rulebook"}
        if per_round is not None:  # the rules check it (1 to MAX_PER_ROUND, with the variant)
            options["specials_per_round"] = per_round
        if deal is not None:
            options["balanced"] = _balanced(deal)
        if no_rail_count:
            options["rail_count"] = False
        return options

    return new


def _balanced(text: str) -> int:
    """`balanced=2` -> 2, or a usage error saying how to write it."""
    kind, sep, number = text.partition("=")
    if kind.strip().lower() != "balanced" or not sep:
        raise click.UsageError(f"--deal {text!r} is unknown: write --deal balanced=K, e.g. --deal balanced=2")
    try:
        value = int(number.strip())
    except ValueError:
        raise click.UsageError(f"--deal balanced={number.strip()}: K must be a whole number of rails, "
                               "e.g. --deal balanced=2") from None
    if value < 0:
        raise click.UsageError("--deal balanced=K: K is a number of rails, 0 or more, e.g. --deal balanced=2")
    return value


new_europa = _new("trans-europa")
new_amerika = _new("trans-amerika")


# -- rounds --------------------------------------------------------------------------------------

@click.group("round")
def round_group() -> None:
    """Start a round (the deal) or end it (the scoring): `round start`, `round end ...`."""


@round_group.command("start")
@click.option("--physical", is_flag=True, help="The cities are dealt at the table, not by the app.")
@click.option("--special", "specials", type=click.Choice(SPECIAL_IDS), metavar="CARD", multiple=True,
              help="The special card you turned over at the table; repeat it for several cards played "
                   "together (one of: " + ", ".join(SPECIAL_IDS) + ").")
@click.option("--unbalanced", is_flag=True,
              help="With --deal balanced=K: deal this round once, plainly (when no balanced deal is found).")
@session_option
@pass_app
def round_start(app, physical: bool, specials: tuple[str, ...], unbalanced: bool) -> None:
    """Deal the next round: one city of each colour to everyone, and the special card(s) if any."""

    def deal(session, replay):
        meta = session.meta
        if session.revealed and (not physical or (replay.state.get("variant") == "special-cards" and not specials)):
            per_round = replay.state.get("specials_per_round") or 1
            what = "the card you turn over" if per_round == 1 else f"each of the {per_round} cards you turn over"
            card = f" and `--special CARD` for {what}" if replay.state.get("variant") == "special-cards" else ""
            raise CompanionError(
                f"The deal seed of session {session.id} was shown (`verify`), so anyone may know what it deals: "
                f"no new deal comes from it. Deal at the table with `round start --physical`{card}."
            )

        def make(data):
            return make_round_start(replay.state, data, meta["seed"], meta.get("entropy", ""), session.id,
                                    special=list(specials), physical=physical, unbalanced=unbalanced)

        event, frozen = with_supplied(app, session, replay.data, make)
        if frozen:
            event["_data"] = frozen
        return event

    while True:
        try:
            s, replay, _ = app.record(deal, GAME, "round start")
            break
        except MissingValue as missing:
            if not app.can_ask() or not missing.key.startswith("colour_aliases."):
                raise
            ask_colour(app, missing.key)
    status = s.status(replay)
    click.echo(f"Round {status['round']} started: {status['start_player']} starts.")
    card = special_lines(status)
    if card:
        click.echo(wrap("\n".join(card)))
    balance = status.get("balance")
    if balance:
        tried = f"{balance['deals']} deals made" if balance["deals"] > 1 else "the first deal kept"
        click.echo(wrap(f"Balanced deal (house rule, within {status['balanced']} rails): every hand needs "
                        f"{balance['easiest']} to {balance['hardest']} rails on the empty board ({tried}; "
                        "`verify` re-derives every one)."))
    if physical:
        click.echo(wrap("Deal the cities at the table. To keep them on record, each player may type "
                        "`hand NAME --set CITY,CITY,...`."))
    else:
        click.echo("Cities dealt: each player looks at their own with `hand NAME`.")
    if status["pending"]:
        click.echo(now_line(app, status["pending"]))
    else:
        click.echo(wrap(f"Start markers, if you record the board: `start NAME JUNCTION` "
                        f"({status['start_player']} first)."))


def _ask_missing(app, s, winners: tuple[str, ...], missing: dict[str, int], rails_out: bool) -> None:
    """In the shell, ask for the missing rails of every non-winner left out (script mode refuses).

    Each question says what it accepts and comes back until the answer fits: a typo never drops
    the round end, and an answer is never run as a command. Ctrl-C cancels the round end.
    """
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
    replay = s.replay()
    box = replay.data.get("rails")
    top = box if isinstance(box, int) and box > 0 else None
    if top and replay.state.get("rulebook_order"):  # the round end refuses more than the board allows
        try:
            top = min(top, largest_missing(replay.data, s.meta["game"]))
        except CompanionError:
            pass
    accepts = f"1-{top}" if top else "1 or more"

    def count(p: str):
        def parse(text: str) -> int:
            if not text.isdigit() or not 1 <= int(text) <= (top or int(text)):
                raise ValueError(f"{repr(text) + ' is not ' if text else 'Type '}{p}'s missing rails: a whole number "
                                 f"{'from 1 to ' + str(top) if top else 'of 1 or more'} (a double line counts 2).")
            return int(text)
        return parse

    for p in players:
        if p not in named:
            missing[p] = app.ask_until(f"Missing rails for {p} ({accepts}): ", count(p))


@round_group.command("end")
@click.option("--winner", "winners", multiple=True, metavar="NAME",
              help="A player who connected all their cities (twice for two winners).")
@click.option("--rails-out", is_flag=True, help="The rails ran out and nobody connected.")
@click.option("--missing", multiple=True, metavar="NAME=N",
              help="Rails a player still needed (a double line counts 2); one for every non-winner.")
@click.option("--auto", is_flag=True,
              help="Count everyone's missing rails exactly on the recorded board (`start` and `build`).")
@session_option
@pass_app
def round_end(app, winners: tuple[str, ...], rails_out: bool, missing: tuple[str, ...], auto: bool) -> None:
    """Score the round: `round end --auto`, or `round end --winner Ann --missing Bob=2 --missing Cy=5`."""
    counts = parse_pairs(missing, "NAME=N")
    if auto and counts:
        raise click.UsageError("--auto counts the missing rails on the board: drop --missing.")
    s = app.session(GAME, "round end")
    notes: list[str] = []
    if auto:
        if app.can_ask():
            singles.ask_before_round_end(app, s, winners, rails_out)

        def event(session, replay):
            def count(data):
                return session.game.auto_result(replay.state, data, winners, rails_out)

            # the lines counting single the players said since the session began count too
            values, laid = singles.with_supplied(app.store, session.meta["game"], replay.data)
            result, frozen = with_supplied(app, session, values, count)
            frozen = {**laid, **frozen}
            made = {"type": "round-end", "auto": True, "winners": result["winners"], "missing": result["missing"]}
            if result["rails_out"]:
                made["rails_out"] = True
            if frozen:
                made["_data"] = frozen
            used = with_frozen(replay.data, made)
            notes[:] = [singles.round_end_note(session.game, replay.state, used, result["missing"])]
            return made
    else:
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
    # every line fits the screen, a player's result and a city never broken inside (issue 15 walk)
    click.echo(wrap(f"{head}Round {last['round']} scored: " + ", ".join(whole(x) for x in parts) + "."))
    if last.get("auto"):
        counted = [c["id"] for c in status["specials"] if c["id"] in SINGLE_CARDS]
        card = f" (the {' and '.join(counted)} card{'s' if len(counted) > 1 else ''} counted)" if counted else ""
        click.echo(wrap(f"Missing rails counted exactly on the recorded board, {status['rails_built']} rails "
                        f"built{card}."))
        for note in notes:
            if note:
                click.echo(wrap(note))
    click.echo(wrap("Totals: " + ", ".join(whole(f"{p['name']} {p['score']}") for p in status["players"]) + "."))
    hands = s.game.public_hands(replay.state) or {}
    if any(hands.values()):
        click.echo(wrap("The hands were: " + "; ".join(f"{p}: {', '.join(whole(x) for x in c)}"
                                                      for p, c in hands.items() if c) + "."))
    if status["finished"]:
        click.echo(winners_line(status))
    else:
        click.echo(f"Next: `round start` ({status['start_player']} starts).")


# -- hands and passing ---------------------------------------------------------------------------

def hand_text(game, state, data, player: str, due: bool = True) -> str:
    """A player's cities with their colours, and what the player still has to do (``due``: not
    on the screen where the choice is being made, whose question says it), fitted to the screen."""
    colour = {c["name"]: c["colour"] for c in data.get("cities") or []}
    cities = game.hand_of(state, player)
    order = list(data.get("colours") or [])
    rows = sorted(cities, key=lambda c: order.index(colour[c]) if colour.get(c) in order else len(order))
    when = f"round {state['round']}" + ("" if state["round_open"] else ", over")
    lines = [f"{player}'s cities ({when}):"]
    lines += [f"  {colour.get(c, ''):<10} {whole(c)}" for c in rows]
    pending = state.get("pending") or {}
    if pending.get("kind") == "pass-three" and player in pending.get("chosen", {}):
        lines.append(f"  chosen to pass left: {whole(pending['chosen'][player])}")
    handed = game.handed_on(state, player)
    if handed:  # swap-hands: the cities this player memorized and passed on (seed 000)
        left, passed = handed
        lines.append(f"You handed your cities to {left}, who plays them (you know them too):")
        lines += [f"  {colour.get(c, ''):<10} {whole(c)}"
                  for c in sorted(passed, key=lambda c: order.index(colour[c]) if colour.get(c) in order else len(order))]
    if due and player in game.waiting(state):
        lines.append("Your choice is due: " + game.pending_text(state))
    return wrap("\n".join(lines))


@click.command()
@click.argument("name")
@click.argument("more", nargs=-1, required=False)
@click.option("--set", "cities", metavar="CITY,...", help="Record the hand dealt at the table (physical rounds).")
@click.option("--return", "returned", metavar="CITY", is_flag=False, flag_value="",
              help="Put this city back (the 'return-any' special card); in the shell `--return` alone "
                   "asks on the private screen.")
@click.option("--print", "plain", is_flag=True, help="Print the hand plainly, not on the private screen.")
@session_option
@pass_app
def hand(app, name: str, more: tuple[str, ...], cities: str | None, returned: str | None, plain: bool) -> None:
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
            returned = " ".join((returned, *more)).strip()
    if cities is not None:
        given = [c.strip() for c in cities.split(",") if c.strip()]
        s, replay, event = record_private(app, {"type": "hand-set", "player": name, "cities": given}, "hand",
                                          given, f"hand {name} --set CITY,...")
        who = player_name(s.players, name)
        click.echo(f"{who}'s hand recorded ({len(given)} cities).")
        return
    if returned is not None:
        if not returned:
            returned = choose_city(app, name, "hand-return", "City to put back")
        s, replay, _ = record_private(app, {"type": "hand-return", "player": name, "city": returned}, "hand",
                                      [returned], f"hand {name} --return")
        who = player_name(s.players, name)
        click.echo(f"{who} put a city back and plays with {len(s.game.hand_of(replay.state, who))}.")
        pending = s.game.pending_text(replay.state)
        click.echo(now_line(app, pending, "Everyone has chosen: the round can be played."))
        return
    s = app.session(GAME, "hand")
    replay = s.replay()
    state = replay.state
    player = player_name(s.players, name)
    text = hand_text(s.game, state, replay.data, player)
    if state["round_open"] and app.show_private is not None and not plain:
        app.show_private(player, text)  # the shell or a terminal: alternate screen, nothing left behind
    else:
        click.echo(text)


def shell_words(app, pending: str) -> str:
    """What is due, worded for where it is typed: in the shell a choice is made on the private
    screen (`pass Ann`), never typed on the shared one."""
    if app.choose_private is None:
        return pending
    return pending.replace("pass NAME CITY", "pass NAME").replace("hand NAME --return CITY", "hand NAME --return") \
        .replace(" CITY", "")


def now_line(app, pending: str, otherwise: str = "") -> str:
    """`Now: ...` what is due, fitted to the screen with its command to type on one line, or
    ``otherwise`` once nothing is due."""
    if not pending:
        return wrap(otherwise)
    return wrap("Now: " + keep_whole(shell_words(app, pending), CHOICE_COMMANDS))


# the commands a choice is typed with, kept on one line when a line is wrapped
CHOICE_COMMANDS = ("pass NAME CITY", "pass NAME", "hand NAME --return CITY", "hand NAME --return")


def choose_city(app, name: str, kind: str, question: str) -> str:
    """The city ``name`` chooses, asked on the private screen until the rules accept it.

    The check is a dry run of the very event that will be recorded, on the current state, so a
    refusal ("not in your hand", "not red") is said on the private screen only.
    """
    if app.choose_private is None:
        what = "pass NAME CITY" if kind == "pass" else "hand NAME --return CITY"
        raise click.UsageError(f"Name the city: {what} (in the shell, on a terminal, the city is chosen on "
                               "the private screen).")
    s = app.session(GAME, "pass" if kind == "pass" else "hand")
    replay = s.replay()
    player = player_name(s.players, name)
    due = ("return",) if kind == "hand-return" else ("pass-colour", "pass-three")
    pending = replay.state.get("pending") or {}
    if pending.get("kind") not in due or player not in s.game.waiting(replay.state):
        # nothing for this player to choose now (no card asks, already chosen, another's turn):
        # the rules say why on the shared screen, and nobody is asked a question they cannot answer
        s.game.apply(replay.state, {"type": kind, "player": player, "city": ""}, replay.data)
        due_now = shell_words(app, s.game.pending_text(replay.state))
        raise CompanionError(f"{player} has nothing to choose now: {due_now}")
    text = hand_text(s.game, replay.state, replay.data, player, due=False)

    def parse(answer: str) -> str:
        if not answer:
            raise CompanionError("Type one of your cities.")
        s.game.apply(replay.state, {"type": kind, "player": player, "city": answer}, replay.data)
        return answer

    return app.choose_private(player, text, f"{question} (one of your cities): ", parse)


def record_private(app, event: dict, command: str, secrets: list[str], again: str):
    """Record an event that carries a private card. In the shell, a refusal naming that card is
    replaced by one that neither confirms nor denies what is in anyone's hand."""
    try:
        return app.record(event, GAME, command)
    except RuleError as exc:
        if not app.interactive or not any(c.strip() and c.strip().casefold() in exc.message.casefold()
                                          for c in secrets):
            raise
        raise CompanionError(f"That choice was refused and nothing was recorded. Type `{again}` to choose "
                             "on the private screen, where the reason is shown.") from None


@click.command("pass")
@click.argument("name")
@click.argument("city", nargs=-1, required=False)
@session_option
@pass_app
def pass_card(app, name: str, city: tuple[str, ...]) -> None:
    """Pass a city to the left neighbour, as a pass special card asks: in the shell `pass Ann`
    asks Ann on the private screen; in a script `pass Ann Dallas`."""
    chosen = " ".join(city) or choose_city(app, name, "pass", "City to pass")
    s, replay, _ = record_private(app, {"type": "pass", "player": name, "city": chosen}, "pass", [chosen],
                                  f"pass {name}")
    who = player_name(s.players, name)
    pending = s.game.pending_text(replay.state)
    click.echo(f"{who}'s choice is recorded.")
    click.echo(now_line(app, pending, "All cards are passed: the round can be played."))


# -- the board: start markers and rails ------------------------------------------------------------

@click.command("start")
@click.argument("name")
@click.argument("junction", nargs=-1, required=True)
@session_option
@pass_app
def start_marker(app, name: str, junction: tuple[str, ...]) -> None:
    """Place NAME's start marker on a free junction: `start Ann Paris` or `start Ann E6`."""
    text = " ".join(junction)

    def place(session, replay):
        board = trans_board(replay.data, session.meta["game"])
        return {"type": "marker", "player": player_name(session.players, name),
                "junction": board.name(board.junction(text))}

    s, replay, event = app.record(place, GAME, "start")
    who = player_name(s.players, name)
    status = s.status(replay)
    click.echo(f"{who}'s start marker is on {event['junction']}.")
    players = [p["name"] for p in status["players"]]
    first = players.index(status["start_player"])
    waiting = [p for p in players[first:] + players[:first]
               if next(q for q in status["players"] if q["name"] == p)["start"] is None]
    if waiting:
        click.echo(wrap(f"Next: `start {waiting[0]} JUNCTION`"
                        + (f" (then {and_list(waiting[1:])})." if waiting[1:] else ".")))
    else:
        click.echo(wrap(f"Every start marker is down: {status['start_player']} builds first, "
                        "e.g. `build NAME JUNCTION-JUNCTION-...`."))


def _paths(board, words: tuple[str, ...]) -> list[str]:
    """The typed paths, each as junction names joined by '-' in the order typed.

    Several paths are separated by commas (`Paris-E6,Lyon-F8`). Words are joined with spaces
    first, so `San Diego-D11` needs no quotes; if that does not read, each word is tried as a
    path of its own (`Paris-E6 Lyon-F8`).
    """
    def read(texts, whole: bool) -> list[str]:
        out = []
        for text in texts:
            for part in text.split(","):
                if part.strip():
                    nodes = board.path_junctions(part)
                    if not whole and len(nodes) < 2:
                        raise RuleError(f"{part.strip()!r} is not a path")
                    out.append("-".join(board.name(n) for n in nodes))
        return out

    try:
        return read([" ".join(words)], True)
    except CompanionError:
        if len(words) < 2:
            raise
        try:
            return read(words, False)
        except CompanionError:
            pass
        raise


@click.command()
@click.argument("name")
@click.argument("path", nargs=-1, required=True)
@session_option
@pass_app
def build(app, name: str, path: tuple[str, ...]) -> None:
    """Record NAME's rails, as junctions joined by '-': `build Ann Paris-E7-E6` (commas for more)."""
    before: dict = {}

    def make(session, replay):
        board = trans_board(replay.data, session.meta["game"])
        before.update(connected=list(replay.state["track"]["connected"]), rails=len(replay.state["track"]["rails"]))
        made = {"type": "build", "player": player_name(session.players, name), "paths": _paths(board, path)}
        _, laid = singles.with_supplied(app.store, session.meta["game"], replay.data)
        if laid:  # the ferry and the tunnel, said since the session began, count 1 of a turn
            made["_data"] = laid
        return made

    s, replay, event = app.record(make, GAME, "build")
    who = player_name(s.players, name)
    status = s.status(replay)
    placed = status["rails_built"] - before["rails"]
    left = f", {status['rails_left']} left in the box" if status["rails_left"] is not None else ""
    click.echo(wrap(f"{who} built {placed} rail{'s' if placed != 1 else ''}: "
                    f"{', '.join(whole(p) for p in event['paths'])} ({status['rails_built']} on the board{left})."))
    warning = allowance_warning(status)
    if warning:
        click.echo(wrap(warning))
    for line in ending_lines(status, before["connected"]):
        click.echo(wrap(line))


def allowance_warning(status: dict) -> str:
    """A turn that placed more than it allows: said, never refused (the table may know better)."""
    turn = status.get("turn")
    if not turn or turn["used"] <= turn["allowed"]:
        return ""
    cards = [c["id"] for c in status.get("specials") or []]
    why = (" under the three-rails card" if "three-rails" in cards
           else f" on lap {turn['lap']} of the 3-2-1 card" if "rhythm-321" in cards else "")
    return (f"Warning: that makes {turn['used']} rails' worth in {turn['player']}'s turn (a double line counts 2); "
            f"a turn allows {turn['allowed']}{why}. Recorded anyway: `undo` takes it back.")


def ending_lines(status: dict, connected_before: list[str]) -> list[str]:
    """What a build changed about the round: someone connected, the rails ran out."""
    new = [p for p in status["connected"] if p not in connected_before]
    lines = []
    if new:
        joined = status["connected"]
        verb = "has" if len(new) == 1 else "have"
        lines.append(f"{and_list(new)} {verb} connected {'their' if len(new) > 1 else 'all their'} cities.")
        if status["finishing"]:
            who = status["finishing"]
            lines.append(f"The round ends after {who}'s turn: {who} connected them with the turn's first rail, "
                         f"so {who} may place the rest of this turn (`build {who} ...`), then `round end --auto`.")
        else:
            winners = f"{joined[0]} wins it" if len(joined) == 1 else f"{and_list(joined)} both win it"
            lines.append(f"The round has ended: {winners}. Score it with `round end --auto`.")
    elif status["rails_out"]:
        lines.append("Every rail is on the board and nobody connected: the round has ended. "
                     "Score it with `round end --auto`.")
    return lines


# -- screens -------------------------------------------------------------------------------------

def special_lines(status: dict) -> list[str]:
    """The special card(s) in force, what each means this round, and what the digital deck is.

    Several cards: one line each, in the rulebook's order, the order their effects apply in."""
    card = status.get("special")
    if not card:
        return []
    cards = status.get("specials") or [dict(card, text=status["special_text"])]
    if len(cards) == 1:
        lines = [f"Special card: {card['title']} ({card['id']}): {status['special_text']}."]
    else:
        lines = [f"Special cards ({len(cards)}, applied in the rulebook's order):"]
        lines += [f"  {c['title']} ({c['id']}): {c['text']}." for c in cards]
    # the cities a reveal card shows, right under the cards (`round start` says them too)
    lines += [f"  shown: {p}: {', '.join(whole(c) for c in cities)}"
              for p, cities in (status.get("revealed") or {}).items()]
    aside = status.get("special_set_aside") or []
    if aside:
        lines.append(f"Set aside (they cannot be played with the cards above): {', '.join(aside)}.")
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
        if status["pending"]:
            out.append("Waiting: " + keep_whole(status["pending"], CHOICE_COMMANDS))
        out += board_lines(status)
    headers = ["player"] + [f"R{h['round']}" for h in status["history"]] + ["total", "points left" if classic
                                                                           else f"toward {PRESTIGE_GOAL}"]
    rows = []
    for p in status["players"]:
        track = bar(p["score"], PRESTIGE_GOAL, width=PRESTIGE_GOAL)  # one mark per point
        rows.append([p["name"], *(f"{v:+d}" for v in p["rounds"]), p["score"], track])
    out.append(table(headers, rows, right=range(1, len(headers) - 1), droppable=range(1, len(headers) - 2)))
    if status["finished"]:
        out.append(winners_line(status))
        out.append("Every hand is public now: `hand NAME`; `verify` shows the seed and checks every deal.")
    elif status["round_open"]:
        if not status["pending"]:  # a pending choice is said above ("Waiting")
            out.append(next_line(status))
    else:
        out.append("Next: `round start`" + (" (or `round start --physical`)." if rnd == 0 else "."))
    return "\n".join(out)


def board_lines(status: dict) -> list[str]:
    """The recorded board in words: markers, rails, whose turn, who connected."""
    players = status["players"]
    if not status["rails_built"] and not any(p["start"] for p in players):
        return []
    markers = ", ".join(f"{p['name']} {p['start'] or '-'}" for p in players)
    left = f", {status['rails_left']} left in the box" if status["rails_left"] is not None else ""
    lines = [f"Start markers: {markers}. Rails: {status['rails_built']} on the board{left}."]
    shared = {tuple(p["network"]) for p in players if len(p["network"]) > 1}
    if shared:
        lines.append("Shared networks: " + "; ".join(and_list(list(n)) for n in sorted(shared)) + ".")
    turn = status.get("turn")
    if turn and not status["round_over"]:
        lines.append(f"Turn {turn['number']} (lap {turn['lap']}): {turn['player']}, {turn['used']} of "
                     f"{turn['allowed']} rails' worth placed.")
    if status["connected"]:
        lines.append(f"Connected: {and_list(status['connected'])}.")
    return lines


def next_line(status: dict) -> str:
    """What to type next in an open round."""
    if status["round_over"]:
        return "Next: `round end --auto` (the missing rails are counted on the board)."
    if status["finishing"]:
        who = status["finishing"]
        return f"Next: {who} finishes the turn (`build {who} ...`), then `round end --auto`."
    waiting = [p["name"] for p in status["players"] if p["start"] is None]
    if status["rails_built"] or (not waiting and not status["pending"]):
        return "Next: `build NAME PATH` as the rails go down, or `round end --winner NAME --missing NAME=N ...`."
    if len(waiting) < len(status["players"]):
        return f"Next: `start NAME JUNCTION` for {and_list(waiting)}, then `build NAME PATH`."
    return "Next: `round end --winner NAME --missing NAME=N ...` (or `--rails-out`)."


def next_action(status: dict) -> str:
    """The shell toolbar's "next": what `status` says comes next, without the backquotes."""
    if status["finished"]:
        return ""
    if not status["round_open"]:
        return "round start"
    if status["pending"]:
        return status["pending"].replace("pass NAME CITY", "pass NAME").replace(" --return CITY", " --return") \
            .replace(" CITY", "")
    return next_line(status).removeprefix("Next: ").replace("`", "").rstrip(".")


def render_board(app, session, replay) -> str:
    """`board` in a session: every start marker and rail in its player's colour, the networks."""
    from companion.games.trans import boardview

    status = session.status(replay)
    board = trans_board(replay.data, session.meta["game"])
    state = replay.state
    track = state["track"]
    names = [p["name"] for p in status["players"]]
    style = {p: boardview.player_style(i) for i, p in enumerate(names)}
    rails = {tuple(r["line"]): style[r["by"]] for r in track["rails"]}
    markers = {m[0]: style[p] for p, m in track["markers"].items()}
    if status["round"]:
        left = f", {status['rails_left']} left in the box" if status["rails_left"] is not None else ""
        when = "" if status["round_open"] else " (over)"
        notes = [(f"Round {status['round']}{when}: {status['rails_built']} rails on the board{left}.", ""),
                 ("In each player's colour: ◆ the start marker (a city's letters reversed), ━━━ ╱ ╲ the rails.", "")]
    else:
        notes = [("No round yet: `round start`, then `start NAME JUNCTION` and `build NAME PATH`.", "")]
    for p in status["players"]:
        if not status["round"]:
            break
        others = [q for q in p["network"] if q != p["name"]]
        parts = [f"start {p['start']}" if p["start"] else "no start marker",
                 f"{p['rails']} rail{'s' if p['rails'] != 1 else ''} built",
                 "network shared with " + and_list([whole(q) for q in others]) if others else "own network"]
        if p["connected"]:
            parts.append("cities connected")
        notes.append((f"  ◆ ━━━ {whole(p['name'])}: " + "; ".join(parts), style[p["name"]]))
    return draw_text(boardview.draw(board, rails=rails, markers=markers, notes=notes), wants_colour(app))


# -- what the game declares (companion.games.api.Game) ------------------------------------------
def complete(session, replay, words: list[str], current: str) -> list[tuple[str, str]] | None:
    """Completion from context: players where a player goes, free junctions for `start`, the
    free neighbours of the last junction typed for `build` (with their cost), the deck's card
    ids for `--special`. A city of a hand is never offered (`pass NAME` offers nothing)."""
    state = replay.state
    players = [(p, "") for p in session.players]
    command, args = words[0], [w for w in words[1:] if not w.startswith("-")]
    last = words[-1] if len(words) > 1 else ""
    if command == "round":
        if last == "--special":  # the cards that can still join those already typed
            typed = [w for prev, w in zip(words, words[1:]) if prev == "--special"]
            return [(card, "special card") for card in SPECIAL_IDS
                    if card not in typed and not any(clash(card, t) for t in typed)]
        if last == "--winner":
            return players
        if last == "--missing":
            return [(f"{p}=", "missing rails") for p in session.players]
        return None
    if command in ("hand", "pass"):
        return players if len(args) == 0 else []
    if command == "rails":
        return (players + [("amerika", "map"), ("europa", "map")]) if len(args) == 0 else []
    if command not in ("start", "build"):
        return None
    if len(args) == 0:
        return players
    board = trans_board(replay.data, session.meta["game"])
    track = state["track"]
    if command == "start":
        if len(args) > 1:
            return []
        taken = {m[0] for m in track["markers"].values()}
        return [(board.name(n), "") for n in range(len(board.xy)) if n not in taken]
    try:
        player = player_name(session.players, args[0])
    except CompanionError:
        return []
    return build_choices(board, state, player, current, words[-1] if len(args) > 1 else "")


def build_choices(board, state: dict, player: str, current: str, before: str = "") -> list[tuple[str, str]]:
    """For `build NAME PATH`: after `Madrid-`, the free lines out of Madrid with their cost;
    before any hyphen, the junctions of NAME's network (a rail must touch it)."""
    track = state["track"]
    built = {tuple(r["line"]) for r in track["rails"]}
    cost = board.costs(single_kinds(state))
    head, dash, _ = current.rpartition("-")
    if not dash:
        marker = track["markers"].get(player)
        nodes = sorted(board.network(marker[0], built)) if marker else range(len(board.xy))
        return [(board.name(n), "") for n in nodes]
    last = head.rpartition("-")[2]
    try:
        at = board.junction(last)
    except CompanionError:  # `San Diego-`: the shell split the name at its space
        try:
            at = board.junction(f"{before.rpartition('-')[2]} {last}")
        except CompanionError:
            return []
    out = []
    for n in board.adj[at]:
        e = (at, n) if at < n else (n, at)
        if e not in built:
            rails = cost.get(e, 1)
            out.append((f"{head}-{board.name(n)}", f"{rails} rail{'s' if rails != 1 else ''}"))
    return out


def carries_private(words: list[str]) -> bool:
    """`pass NAME CITY`, `hand NAME --set ...` and `hand NAME --return CITY` name private cards:
    the shell never writes them to its history."""
    if words[:1] == ["pass"]:
        return len(words) > 2
    if words[:1] == ["hand"]:
        return any(w.startswith(("--set", "--return")) for w in words[1:]) and not words[-1] == "--return"
    if words[:1] == ["rails"]:  # `rails amerika --hand ...`: likely the typist's own cities
        return any(w.startswith("--hand") for w in words[1:])
    return False


COMMANDS = {"round": round_group, "hand": hand, "pass": pass_card, "rails": rails, "start": start_marker,
            "build": build}
NEW = {"trans-europa": new_europa, "trans-amerika": new_amerika}
MAPS = ("amerika", "europa")
