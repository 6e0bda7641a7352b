"""`serve`: the phones' pages for the session at hand (see docs/phones.md).

On a terminal it draws the table link's QR code, then each player's on a private screen, one
player at a time. Piped, it prints `table URL`, then one `player NAME URL` line per player, so
scripts and tests can read them (the first word says whose link it is, the URL is the last:
a player may be called "table", or have a space in their name). In the shell the server runs
on a thread and the prompt stays usable; elsewhere it runs until Ctrl-C (or `serve --stop`
from another window).
"""

from __future__ import annotations

import io
import os
import signal
import sys

import click

from companion.contract.errors import CompanionError
from companion.contract.language import N_, _, ngettext
from companion.games.kit import pass_app, session_option


QUIET = 4  # modules of light around a code, as the QR standard asks (ISO/IEC 18004)
DARK, LIGHT = 16, 231  # xterm's 256 colours: black and white, fixed (a theme remaps only the first 16)
HALF = "\u2580"  # ▀: the upper half of a cell in the foreground colour, the lower in the background's


ALPHANUMERIC = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")


def qr_content(url: str):
    """What a code holds for ``url``: its scheme, host and port in capitals, in the QR code's
    alphanumeric mode (5.5 bits a character; scheme and host are case-insensitive, as the QR
    standard's own examples write them), the path and its token as they are (byte mode). A LAN
    link then fits a smaller code."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    head = f"{scheme}{sep}{host}".upper()
    if not sep or not slash or not set(head) <= ALPHANUMERIC:
        return url
    return [head, slash + path]  # two segments, each in the mode segno finds for it


def qr_matrix(url: str):
    """The code's modules (rows of 1 = dark), its quiet zone included. Error correction L: a
    screen shows it crisply, and a LAN link (up to `http://192.168.100.200:65535/p/` and its
    token) then fits version 3: 37 modules with the quiet zone, 19 rows of half blocks, which
    an 80x24 private screen holds with its link and its prompt."""
    import segno

    code = segno.make(qr_content(url), error="l", boost_error=False, micro=False)
    return [list(row) for row in code.matrix_iter(scale=1, border=QUIET)]


def qr_text(url: str, colour: bool | None = None) -> str:
    """A QR code for a terminal, in half blocks, two modules a cell: dark on light in explicit
    colours (black and white of the 256-colour palette, which no theme changes), so it reads
    the same on a light and on a dark terminal, with its 4-module quiet zone. Under NO_COLOR
    (``colour`` False) it is drawn in the terminal's own colours, dark modules as glyphs: right
    on a light background only (`serve --links --qr-dir DIR` writes images instead)."""
    rows = qr_matrix(url)
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    if colour is None:
        colour = not os.environ.get("NO_COLOR")
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2]):
        if not colour:
            lines.append("".join(" ▀▄█"[(t and 1) + (b and 2)] for t, b in zip(top, bottom)))
            continue
        out, last = [], None
        for t, b in zip(top, bottom):
            pair = (DARK if t else LIGHT, DARK if b else LIGHT)
            if pair != last:
                out.append(f"\x1b[38;5;{pair[0]};48;5;{pair[1]}m")
                last = pair
            out.append(HALF)
        lines.append("".join(out) + "\x1b[0m")
    return "\n".join(lines)


def echo_code(text: str) -> None:
    """Print a code with its colours (the command's output stream would show them as escapes)."""
    stream = sys.stdout
    write = getattr(stream, "write_drawn", None)
    if write is None:
        stream.write(text + "\n")
    else:
        write(text + "\n")
    stream.flush()


def file_name(sid: str, who: str, taken: set[str], fmt: str) -> str:
    """`SID-NAME.svg`, the name kept to letters, digits, dash and underscore (and made unique)."""
    import re
    import unicodedata

    plain = unicodedata.normalize("NFKD", who).encode("ascii", "ignore").decode()
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", plain).strip("_") or "player"
    name, n = f"{sid}-{stem}.{fmt}", 2
    while name.lower() in taken:
        name, n = f"{sid}-{stem}-{n}.{fmt}", n + 1
    taken.add(name.lower())
    return name


def write_codes(app, folder: str, fmt: str, force: bool, sid: str, base: str, names: list[str],
                links: dict[str, str]) -> list[str]:
    """Each link's QR code as a PNG or SVG file in ``folder`` (dark on light, with its quiet
    zone), for a printer or a second screen: written owner-only, since each holds its player's
    link; never inside the data folder, never over a file without --force."""
    from pathlib import Path

    import segno

    from companion.terminal.history import check_output, write_output_stream

    where = Path(folder).expanduser()
    if not where.is_dir():
        raise CompanionError(_("{folder} is not a folder: create it first, or give another with --qr-dir DIR.")
                             .format(folder=folder))
    taken: set[str] = set()
    from companion.web import tokens

    table = f"{base}/t/{links[tokens.TABLE]}"
    # the table's code first (issue 31): the one every phone scans to choose its seat
    wanted = [("join", f"{table}/join"), ("table", table)] + [(n, f"{base}/p/{links[n]}") for n in names]
    targets = [(who, url, check_output(app, where / file_name(sid, who, taken, fmt), force)) for who, url in wanted]
    written = []
    for who, url, target in targets:
        buf = io.BytesIO()
        segno.make(qr_content(url), error="m", boost_error=False).save(buf, kind=fmt, scale=10 if fmt == "png" else 8,
                                                           border=QUIET, dark="#000", light="#fff")
        data = buf.getvalue()
        write_output_stream(app, target, lambda fh, data=data: fh.write(data), force, binary=True)
        written.append(str(target))
    return written


def on_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def shell_notifier():
    """How the server thread tells the shell what a phone recorded ("Ann has chosen", "From
    Bob's phone: Bob built Paris-F6") without breaking the prompt line: through the prompt's
    own event loop (prompt_toolkit's run_in_terminal) when a prompt is up."""
    try:
        from prompt_toolkit.application import run_in_terminal
        from prompt_toolkit.application.current import get_app_session, set_app
    except ImportError:  # pragma: no cover - prompt_toolkit is a dependency
        return lambda text: click.echo(text)
    session = get_app_session()
    from companion.terminal.render import wrap

    def notify(text: str) -> None:
        text = wrap(text)  # between words at the terminal's width (issue 31)
        app = getattr(session, "app", None)
        if app is None or not app.is_running or app.loop is None:
            click.echo(text)
            return

        def show() -> None:
            with set_app(app):
                run_in_terminal(lambda: print(text), in_executor=False)

        app.loop.call_soon_threadsafe(show)

    return notify


def show_links(app, base: str, names: list[str], links: dict[str, str], codes: dict | None = None,
               each: bool = False) -> None:
    """The links as `serve` shows them: piped, one line each (the table's, each player's, then
    the table's code's); on a screen, the table's one code, which every phone scans to choose
    its seat (issue 31), and with ``each`` (`--player-codes`) each player's code in turn."""
    from companion.terminal.render import wrap
    from companion.web import tokens

    table = f"{base}/t/{links[tokens.TABLE]}"
    join = f"{table}/join"
    if codes is not None:  # --qr-dir: each code in a file, none on the screen
        written = write_codes(app, links=links, base=base, names=names, **codes)
        click.echo(_("The table page: {link}").format(link=table) if on_terminal() or app.interactive
                   else f"table {table}")
        if not on_terminal() and not app.interactive:
            click.echo(f"join {join}")
        click.echo(wrap(ngettext("Wrote {count} QR code, owner-only: each holds a private link, so give each "
                                 "player only their own.",
                                 "Wrote {count} QR codes, owner-only: each holds a private link, so give each "
                                 "player only their own.", len(written)).format(count=len(written)), indent=""))
        said = [_("The table's code, which every phone scans to choose who it is:"),
                _("The table page's, for the TV:")] + [_("{name}'s own:").format(name=name) for name in names]
        for label, path in zip(said, written):  # each file's name on a line of its own, whole, to copy
            click.echo(wrap(label, indent=""))
            click.echo(f"  {path}")
        return
    if not on_terminal() and not app.interactive:
        click.echo(f"table {table}")
        for name in names:
            click.echo(f"player {name} {base}/p/{links[name]}")
        click.echo(f"join {join}")
        sys.stdout.flush()
        return
    click.echo(wrap(_("The table's code: every phone scans it and chooses who it is (the TV chooses \"the table\"):"),
                    indent=""))
    echo_code(qr_text(join))
    click.echo(join)
    if not each:
        click.echo(wrap(_("A seat once chosen stays taken: `serve --free NAME` frees it. Each player's own code: "
                          "`serve --links --player-codes`."), indent=""))
        return
    try:
        for i, name in enumerate(names):
            link = f"{base}/p/{links[name]}"
            # 24 rows at most: "Only Ann looks." and a blank line (the private screen writes them),
            # the code (19 rows with its quiet zone), the link with who is next, a blank line and the prompt
            said = (_("{name}'s page: {link} (next: {next})").format(name=name, link=link, next=names[i + 1])
                    if i + 1 < len(names) else _("{name}'s page: {link}").format(name=name, link=link))
            text = f"{qr_text(link)}\n{wrap(said, indent='')}"  # the link on a line of its own when too wide
            if app.show_private is not None:
                app.show_private(name, text)
            else:
                private_screen(name, text)
    except (KeyboardInterrupt, click.Abort, EOFError):
        click.echo(wrap(_("The players' codes are put away; the server goes on: `serve --links --player-codes` "
                          "shows them again."), indent=""))
        return
    click.echo(wrap(_("Every player has their link: `serve --links` shows them again, "
                      "`serve --new-links` replaces them all."), indent=""))


def said_values(app, s, say) -> None:
    """The printed values the phones will ask for, and when (issue 31)."""
    from companion.core import datapack
    from companion.terminal import setup

    game = s.meta["game"]
    if game not in datapack.pack_names():
        return
    try:
        lines = setup.asked_later(app, game)
    except CompanionError:
        return
    for line in lines:
        say(line)


def free_seats(app, names: tuple[str, ...]) -> None:
    """`serve --free NAME`: free seats of the session at hand (the served one when a server
    runs), read by the running server at the next choice, so it works while serving."""
    from companion.contract.language import _
    from companion.web import seats, server

    here = server.running(app.data_dir)
    note = server.noted(app.data_dir) if here is None else None
    sid = here.sid if here is not None else (note["session"] if note is not None else None)
    if sid is None:
        s = app.session()
    else:
        from companion.core import session as sessions

        s = sessions.load(app.store, sid)
    for name in names:
        if name not in s.players:
            raise CompanionError(_("{name} is not a player of session {sid}: the players are {players}.").format(
                name=name, sid=s.id, players=", ".join(s.players)))
    for name in names:
        if seats.free(app.store.root, s.id, name):
            click.echo(_("{name}'s seat is free: a phone scanning the table's code can choose it again.").format(
                name=name))
        else:
            click.echo(_("{name}'s seat was not taken: nothing to free.").format(name=name))


def private_screen(owner: str, text: str) -> None:
    """One player's code on a screen of its own, gone again before the next player looks."""
    click.prompt(_("Pass the laptop to {owner}: only {owner} looks now. Press Enter").format(owner=owner),
                 default="", show_default=False, prompt_suffix=" ")
    sys.stdout.write("\x1b[?1049h\x1b[2J\x1b[H" + _("Only {owner} looks.").format(owner=owner) + "\n\n" + text
                     + "\n\n")
    sys.stdout.flush()
    try:
        click.prompt(_("Press Enter to hide it"), default="", show_default=False, prompt_suffix=" ")
    finally:
        sys.stdout.write("\x1b[2J\x1b[?1049l")
        sys.stdout.flush()


@click.command("serve", help=N_("Every player's private page and a live table page, on the group's phones."))
@click.option("--lan", is_flag=True, help=N_("Listen on this computer's local network address, for the phones "
                                          "on the same Wi-Fi (default: this computer only)."))
@click.option("--port", type=click.IntRange(0, 65535), default=None, metavar="N",
              help=N_("The port to listen on (default 8765)."))
@click.option("--stop", is_flag=True, help=N_("Stop the server."))
@click.option("--links", "again", is_flag=True, help=N_("Show the links and QR codes again."))
@click.option("--new-links", is_flag=True, help=N_("Replace every link (the old ones stop working at once)."))
@click.option("--player-codes", "each", is_flag=True, help=N_("Also show each player's own code, one player at a "
                                                             "time (the table's one code is enough)."))
@click.option("--free", "free", metavar="NAME", multiple=True,
              help=N_("Free NAME's seat, so that a phone can choose it again (works while the server runs)."))
@click.option("--qr-dir", metavar="DIR", help=N_("Write each link's QR code into the folder DIR as a file (for a "
                                              "printer or a second screen) instead of showing the codes here."))
@click.option("--qr-format", type=click.Choice(["svg", "png"]), default="svg", show_default=True,
              help=N_("With --qr-dir: the files' format."))
@click.option("--force", is_flag=True, help=N_("With --qr-dir: replace files of the same names."))
@session_option
@pass_app
def serve(app, lan: bool, port: int | None, stop: bool, again: bool, new_links: bool, each: bool,
          free: tuple[str, ...], qr_dir: str | None, qr_format: str, force: bool) -> None:
    # (its help, above, is marked for the catalogue: a docstring would be read in English only)
    from companion.web import seats, server, tokens

    def codes(sid: str) -> dict | None:
        return None if qr_dir is None else {"folder": qr_dir, "fmt": qr_format, "force": force, "sid": sid}

    if sum((stop, again)) > 1 or (stop and (new_links or lan or port is not None or qr_dir)):
        raise click.UsageError(_("Give --stop alone, or --links / --new-links."))
    if qr_dir is None and (force or qr_format != "svg"):
        raise click.UsageError(_("--qr-format and --force go with --qr-dir DIR."))
    if free:
        if stop or again or new_links or lan or port is not None or qr_dir or each:
            raise click.UsageError(_("Give --free NAME alone."))
        free_seats(app, free)
        return
    here = server.running(app.data_dir)
    if stop:
        if here is not None:
            here.stop()
            click.echo(_("The server is stopped: the pages stop updating."))
            return
        note = server.noted(app.data_dir)
        if note is None:
            raise CompanionError(_("No server is running: `serve` starts one."))
        os.kill(int(note["pid"]), signal.SIGTERM)
        click.echo(_("The server is stopping: the pages stop updating."))
        return
    running = here
    if running is None and (again or new_links):
        note = server.noted(app.data_dir)
        if note is not None:
            base, sid = note["base"], note["session"]
        elif again:
            raise CompanionError(_("No server is running: `serve` starts one and shows the links."))
        else:
            base, sid = None, None
    elif running is not None:
        base, sid = running.base, running.sid
    else:
        base, sid = None, None
    if base is not None:  # --links / --new-links (or `serve` again) for the server running
        from companion.core import session as sessions

        s = sessions.load(app.store, sid)
        links = tokens.links(app.store.root, sid, s.players, renew=new_links)
        if new_links:
            seats.free(app.store.root, sid)
            click.echo(_("Every link is new: the old pages now show 'Not found'."))
        elif not again:
            click.echo(_("The server already runs for session {sid}: here are its links.").format(sid=sid))
        show_links(app, base, s.players, links, codes(sid), each)
        return
    s = app.session()
    sid = s.id
    before = tokens.known(app.store.root, sid)
    links = tokens.links(app.store.root, sid, s.players, renew=new_links)
    if new_links:
        seats.free(app.store.root, sid)
    same = not new_links and all(before.get(k) == v for k, v in links.items())
    host = server.lan_address() if lan else "127.0.0.1"
    sock = server.bind(host, server.DEFAULT_PORT if port is None else port)
    base = f"http://{host}:{sock.getsockname()[1]}"
    from companion.web.site import Site

    notify = shell_notifier() if app.interactive else (lambda text: click.echo(text, err=not on_terminal()))
    site = Site(app.store.root, sid, notify=notify)
    if lan:
        serving = _("Serving session {sid} ({game}) on the local network at {host}: phones on the same Wi-Fi "
                    "can open the links.")
    else:
        serving = _("Serving session {sid} ({game}) on this computer only (add --lan for the phones).")
    from companion.terminal.render import wrap

    # on a screen, between words at its width (issue 31: "(add --lan for th\ne phones)")
    say = (lambda text: click.echo(wrap(text, indent=""))) if (on_terminal() or app.interactive) else (
        lambda text: click.echo(text, err=True))
    say(serving.format(sid=sid, game=_(s.game.title), host=host))
    server.remember(app.store.root, base, sid)  # before the links: a script reading them may ask at once
    if app.interactive:  # started first: nothing typed while the codes are shown can stop it
        server.start_background(site, sock, base)
    if same and (on_terminal() or app.interactive):
        taken = seats.taken(app.store.root, sid)
        say(_("The links are the same as before: the phones only need a reload."))
        if taken:
            say(_("Seats taken: {names}.").format(names=", ".join(taken)))
        if not each and qr_dir is None and taken and set(taken) >= set(s.players):
            say(_("Every seat is taken: `serve --links` shows the table's code again."))
        else:
            show_links(app, base, s.players, links, codes(sid), each)
    else:
        show_links(app, base, s.players, links, codes(sid), each)
    said_values(app, s, say)
    if app.interactive:
        say(_("The server runs in the background: keep playing here; `serve --stop` ends it."))
        return
    try:
        say(_("Ctrl-C (or `serve --stop` in another window) stops it."))
        server.run_foreground(site, sock, base)
    except KeyboardInterrupt:
        pass
    say(_("The server is stopped."))
