"""`companion sync status` and `sync setup`: the data folder in a synced folder (issue 30).

The `sync` group is companion.terminal.sync (with `sync resolve`, the session half); these two
commands join it. `sync status` says what this laptop knows of the folder it shares: its own name, the other
laptops whose files are in it and when each last wrote, what waits for a person or for the next
write (forks of a session, conflict copies a sync engine made), and what lies in the folder
outside the layout. `sync setup [FOLDER]` prepares a data folder for sharing: an old folder's
machine files moved into ``.local/``, Syncthing's ``.stignore`` written, this laptop's id made.
The session half (`sync resolve`, the forks) is the per-device journals' (docs/forks.md).
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import click

from companion.core import layout, shared_log
from companion.games.kit import echo_json, pass_app

# The shared lists kept as per-device logs (companion.core.shared_log) and their old single files.
LISTS = {"players": "players.json", "titles": "titles.json", "values": "userdata.json"}
# Every name the top of a data folder may hold: the record, the lists, this laptop's folder.
LAYOUT = {"sessions", "bin", "trash", layout.LOCAL, ".stignore", ".stfolder", ".stversions", *LISTS, *LISTS.values()}
DEVICE_IN_NAME = 10  # a device id's length (companion.core.device: 10 hex digits)


def waiting_forks(store) -> list[dict]:
    """The sessions two laptops continued from one point, waiting for `sync resolve`, as
    {"session", "fork"}: the fork is companion.core.journals' (merged from the devices'
    journals and kept in the session's index entry, which `sessions` brings up to date when a
    journal arrives), {"after_moves", "branches": [{"device", "name", "moves"}]}."""
    from companion.core import session as sessions

    return [{"session": e["id"], "fork": e["fork"]} for e in sessions.index(store) if e.get("fork")]


def _iso(ns: int) -> str:
    return datetime.fromtimestamp(ns / 1e9, timezone.utc).isoformat(timespec="seconds")


def laptops(store) -> dict[str, dict]:
    """device id -> {"name", "last"}: every laptop with a file in the folder, and the time of
    its latest write (a sync keeps the writer's modification time, so it is the writer's)."""
    seen = shared_log.writers(store, [*LISTS, "trash"])
    try:
        with os.scandir(store.sessions_dir) as found:  # per-device journals: <id>.<device>.<...>
            for item in found:
                parts = item.name.split(".")
                if (len(parts) >= 3 and len(parts[1]) == DEVICE_IN_NAME and all(c in "0123456789abcdef" for c in parts[1])
                        and not shared_log.CONFLICT.fullmatch(item.name)):
                    when = _iso(item.stat(follow_symlinks=False).st_mtime_ns)
                    held = seen.setdefault(parts[1], {"name": parts[1], "last": ""})
                    held["last"] = max(held["last"], when)
                    if held["name"] == parts[1]:  # a laptop known only by its journals: their header names it
                        held["name"] = _journal_name(item.path) or parts[1]
    except OSError:
        pass
    return seen


def _journal_name(path: str) -> str | None:
    """The laptop's name in a journal's first line (companion.core.journals.header), if readable."""
    import json

    try:
        with open(path, encoding="utf-8") as f:
            first = json.loads(f.readline(4096))
    except (OSError, ValueError):
        return None
    name = first.get("name") if isinstance(first, dict) else None
    return name if isinstance(name, str) and name.strip() else None


def conflict_copies(store) -> list[str]:
    """Every conflict copy a sync engine left in the shared part of the folder (relative paths)."""
    out = []
    root = Path(store.root)
    for folder, dirs, names in os.walk(root):
        if Path(folder) == root:
            dirs[:] = [d for d in dirs if d != layout.LOCAL]
        out += [str((Path(folder) / n).relative_to(root)) for n in names if shared_log.CONFLICT.fullmatch(n)]
    return sorted(out)


def outside_layout(store) -> list[str]:
    """The names at the top of the folder that are not part of its layout (an old companion's
    machine files a newer one could not move, a file put there by hand)."""
    try:
        names = os.listdir(store.root)
    except OSError:
        return []
    return sorted(n for n in names if n not in LAYOUT and not shared_log.CONFLICT.fullmatch(n)
                  and not (n.startswith(".") and n.endswith((".tmp", ".old"))))


def stignore_in_step(root: Path) -> bool:
    try:
        text = (Path(root) / ".stignore").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return layout.stignore_text(text) == text


def status_of(store) -> dict:
    from companion.core.device import device

    me = device(store)
    others = laptops(store)
    others.pop(me["id"], None)
    return {
        "folder": str(store.root),
        "device": {"id": me["id"], "name": me["name"]},
        "laptops": [{"id": d, "name": v["name"], "last_wrote": v["last"] or None}
                    for d, v in sorted(others.items(), key=lambda kv: (kv[1]["last"], kv[0]), reverse=True)],
        "forks": waiting_forks(store),
        "conflict_copies": conflict_copies(store),
        "not_in_layout": outside_layout(store),
        "stignore": stignore_in_step(store.root),
    }


@click.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@pass_app
def status(app, as_json: bool) -> None:
    """This laptop's name, the other laptops seen in the folder and when each last wrote, and what waits."""
    from companion.contract.language import _, ngettext

    store = app.store
    store.local_path("index.json")  # an old folder's machine files moved first (as every command does)
    found = status_of(store)
    if as_json:
        echo_json(found, "sync-status")
        return
    me = found["device"]
    click.echo(_("This laptop: {name} ({id}), data folder {folder}").format(
        name=me["name"], id=me["id"], folder=found["folder"]))
    if found["laptops"]:
        click.echo(_("Other laptops seen in this folder:"))
        for other in found["laptops"]:
            when = (other["last_wrote"] or "?").replace("T", " ")[:16]
            click.echo(_("  {name} ({id}): last wrote {when} UTC").format(name=other["name"], id=other["id"], when=when))
    else:
        click.echo(_("No other laptop has written to this folder yet."))
    forks = found["forks"]
    if forks:
        click.echo(ngettext("{n} session continued on two laptops waits: `sync resolve ID` keeps one branch or both.",
                            "{n} sessions continued on two laptops wait: `sync resolve ID` keeps one branch or both.",
                            len(forks)).format(n=len(forks)))
        from companion.core.forks import moves_on

        for fork in forks:
            branches = "; ".join(moves_on(b["moves"], b["name"]) for b in fork["fork"]["branches"])
            click.echo(_("  {id}, after move {move}: {branches}").format(
                id=fork["session"], move=fork["fork"]["after_moves"], branches=branches))
    copies = found["conflict_copies"]
    if copies:
        click.echo(ngettext("{n} conflict copy made by the sync engine is read, and merged at this laptop's next write:",
                            "{n} conflict copies made by the sync engine are read, and merged at this laptop's next "
                            "write:", len(copies)).format(n=len(copies)))
        for name in copies:
            click.echo(f"  {name}")
    if not forks and not copies:
        click.echo(_("Nothing waits: no fork, no conflict copy."))
    if found["not_in_layout"]:
        click.echo(_("Not part of the companion's layout (left alone): {names}").format(
            names=", ".join(found["not_in_layout"])))
    if not found["stignore"]:
        click.echo(_("The .stignore Syncthing needs is missing or old: `sync setup` writes it."))


@click.command("setup")
@click.argument("folder", required=False, type=click.Path(file_okay=False, path_type=Path))
@pass_app
def setup(app, folder: Path | None) -> None:
    """Prepare FOLDER (by default the data folder) for sharing: .stignore written, an old folder moved to the new layout."""
    from companion.contract.errors import CompanionError
    from companion.contract.language import _
    from companion.core.device import device
    from companion.core.store import Store

    store = app.store if folder is None else Store(folder)
    if store.root.exists() and not store.root.is_dir():
        raise CompanionError(_("{folder} is a file, not a folder: give the folder to share.").format(folder=store.root))
    moved = layout.migrate(store.root) if store.root.is_dir() else []
    store.ensure()
    layout.write_stignore(store.root)  # (brought up to date: ensure writes it only with a new layout)
    me = device(store)
    with store.writing():  # conflict copies of the shared lists: taken into this laptop's logs
        for name, old in LISTS.items():
            if shared_log.files(store, name)[1] or shared_log.legacy_copies(store, old):
                _absorb(store, name, old)
    if moved:
        click.echo(_("Moved this laptop's own files into {local}: {names} (nothing else was touched).").format(
            local=store.local_dir, names=", ".join(moved)))
    click.echo(_("{folder} is ready to share; this laptop is {name} ({id}).").format(
        folder=store.root, name=me["name"], id=me["id"]))
    click.echo(_("{path} holds Syncthing's rules: it leaves .local/, the locks and files being written on each "
                 "laptop.").format(path=store.root / ".stignore"))
    click.echo(_("Share this folder with Syncthing; in Dropbox, Nextcloud or iCloud Drive exclude its .local folder "
                 "(docs/club-record.md says how)."))


def _absorb(store, name: str, old: str) -> None:
    """Take one list's conflict copies into this laptop's log (an empty write of it does)."""
    from companion.core import titles
    from companion.core.store import _legacy_aliases, _legacy_values

    legacy = {"players": _legacy_aliases, "titles": titles._legacy, "values": _legacy_values}[name]
    shared_log.write(store, name, {}, old, legacy)
