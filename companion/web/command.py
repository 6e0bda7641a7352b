"""`serve`: the phones' pages for the session at hand (see docs/phones.md).

On a terminal it draws the table link's QR code, then each player's on a private screen, one
player at a time. Piped, it prints `table URL` and one `NAME URL` line per player, so scripts
and tests can read them. In the shell the server runs on a thread and the prompt stays usable;
elsewhere it runs until Ctrl-C (or `serve --stop` from another window).
"""

from __future__ import annotations

import io
import os
import signal
import sys

import click

from companion.core.errors import CompanionError
from companion.games.kit import pass_app, session_option


def qr_text(url: str) -> str:
    """A QR code drawn with half blocks: a link of ~60 characters fits 80x24 and scans at arm's length."""
    import segno

    buf = io.StringIO()
    segno.make(url, error="m", boost_error=False).terminal(out=buf, compact=True, border=2)
    return buf.getvalue().rstrip("\n")


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

    def notify(text: str) -> None:
        app = getattr(session, "app", None)
        if app is None or not app.is_running or app.loop is None:
            click.echo(text)
            return

        def show() -> None:
            with set_app(app):
                run_in_terminal(lambda: print(text), in_executor=False)

        app.loop.call_soon_threadsafe(show)

    return notify


def show_links(app, base: str, names: list[str], links: dict[str, str]) -> None:
    table = f"{base}/t/{links['table']}"
    if not on_terminal() and not app.interactive:
        click.echo(f"table {table}")
        for name in names:
            click.echo(f"{name} {base}/p/{links[name]}")
        sys.stdout.flush()
        return
    click.echo("The table page, for a screen everyone sees:")
    click.echo(qr_text(table))
    click.echo(table)
    for i, name in enumerate(names):
        after = f" Next: {names[i + 1]}." if i + 1 < len(names) else ""
        # 24 rows at most: "Only Ann looks." and a blank line (the private screen writes them),
        # the code (19 rows), the link with who is next, a blank line and the prompt
        text = f"{qr_text(base + '/p/' + links[name])}\nYour private page: {base}/p/{links[name]}{after}"
        if app.show_private is not None:
            app.show_private(name, text)
        else:
            private_screen(name, text)
    click.echo("Every player has their link: `serve --links` shows them again, "
               "`serve --new-links` replaces them all.")


def private_screen(owner: str, text: str) -> None:
    """One player's code on a screen of its own, gone again before the next player looks."""
    click.prompt(f"Pass the laptop to {owner}: only {owner} looks now. Press Enter", default="",
                 show_default=False, prompt_suffix=" ")
    sys.stdout.write("\x1b[?1049h\x1b[2J\x1b[H" + f"Only {owner} looks.\n\n" + text + "\n\n")
    sys.stdout.flush()
    try:
        click.prompt("Press Enter to hide it", default="", show_default=False, prompt_suffix=" ")
    finally:
        sys.stdout.write("\x1b[2J\x1b[?1049l")
        sys.stdout.flush()


@click.command("serve")
@click.option("--lan", is_flag=True, help="Listen on this computer's local network address, for the phones "
                                          "on the same Wi-Fi (default: this computer only).")
@click.option("--port", type=click.IntRange(0, 65535), default=None, metavar="N",
              help="The port to listen on (default 8765).")
@click.option("--stop", is_flag=True, help="Stop the server.")
@click.option("--links", "again", is_flag=True, help="Show the links and QR codes again.")
@click.option("--new-links", is_flag=True, help="Replace every link (the old ones stop working at once).")
@session_option
@pass_app
def serve(app, lan: bool, port: int | None, stop: bool, again: bool, new_links: bool) -> None:
    """Every player's private page and a live table page, on the group's phones."""
    from companion.web import server, tokens

    if sum((stop, again)) > 1 or (stop and (new_links or lan or port is not None)):
        raise click.UsageError("Give --stop alone, or --links / --new-links.")
    here = server.running(app.data_dir)
    if stop:
        if here is not None:
            here.stop()
            click.echo("The server is stopped: the pages stop updating.")
            return
        note = server.noted(app.data_dir)
        if note is None:
            raise CompanionError("No server is running: `serve` starts one.")
        os.kill(int(note["pid"]), signal.SIGTERM)
        click.echo("The server is stopping: the pages stop updating.")
        return
    running = here
    if running is None and (again or new_links):
        note = server.noted(app.data_dir)
        if note is not None:
            base, sid = note["base"], note["session"]
        elif again:
            raise CompanionError("No server is running: `serve` starts one and shows the links.")
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
            click.echo("Every link is new: the old pages now show 'Not found'.")
        elif not again:
            click.echo(f"The server already runs for session {sid}: here are its links.")
        show_links(app, base, s.players, links)
        return
    s = app.session()
    sid = s.id
    links = tokens.links(app.store.root, sid, s.players, renew=new_links)
    host = server.lan_address() if lan else "127.0.0.1"
    sock = server.bind(host, server.DEFAULT_PORT if port is None else port)
    base = f"http://{host}:{sock.getsockname()[1]}"
    from companion.web.site import Site

    notify = shell_notifier() if app.interactive else (lambda text: click.echo(text, err=not on_terminal()))
    site = Site(app.store.root, sid, notify=notify)
    where = (f"on the local network at {host}: phones on the same Wi-Fi can open the links" if lan
             else "on this computer only (add --lan for the phones)")
    say = (lambda text: click.echo(text)) if (on_terminal() or app.interactive) else (lambda text: click.echo(text, err=True))
    say(f"Serving session {sid} ({s.game.title}) {where}.")
    server.remember(app.store.root, base, sid)  # before the links: a script reading them may ask at once
    show_links(app, base, s.players, links)
    if app.interactive:
        server.start_background(site, sock, base)
        say("The server runs in the background: keep playing here; `serve --stop` ends it.")
        return
    try:
        say("Ctrl-C (or `serve --stop` in another window) stops it.")
        server.run_foreground(site, sock, base)
    except KeyboardInterrupt:
        pass
    say("The server is stopped.")
