"""This laptop's identity in a data folder (issue 30): a stable random id, made once per data
folder per machine, and a name people read (the host name until someone sets another).

Why: a data folder shared by a sync engine (Syncthing, Nextcloud, Dropbox) is written by several
laptops. Each laptop appends a session's events only to its own journal of that session
(companion.core.journals), named by this id, so no file has two writers. The id must therefore
stay with the machine and never travel with the folder: it lives in ``<data>/.local/device.json``,
the folder of machine-local files that the sync leaves alone (``.local/`` is what sync setup
excludes). Copying a data folder to another machine by hand copies the id too; deleting
``.local/device.json`` there makes a new one (its old journals stay, read as another laptop's).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from companion.core.files import SCHEMA_KEY, atomic_write_text, make_private_folder, schema_version

# 10 lowercase hex digits: never a session id (8 letters and digits), safe in any file name
DEVICE_PATTERN = re.compile(r"[0-9a-f]{10}")
DEVICE_FILE = "device.json"
NAME_LIMIT = 60


def local_folder(store: Any) -> Path:
    """The folder of this machine's own files in the data folder (never synced)."""
    return Path(store.root) / ".local"


def device_path(store: Any) -> Path:
    return local_folder(store) / DEVICE_FILE


def _read(store: Any) -> dict | None:
    """The device's record, or None when absent or not one (a new one is then made: the old
    journals stay, read as another laptop's)."""
    from companion.contract.errors import CompanionError
    from companion.core.files import read_json_file

    path = device_path(store)
    try:
        if path.is_symlink():
            return None
        table = (read_json_file(path, "device") or {}).get("device") or {}
    except (CompanionError, OSError):
        return None
    doc = table.get("1") if isinstance(table, dict) else None
    if not isinstance(doc, dict) or not isinstance(doc.get("id"), str) or not DEVICE_PATTERN.fullmatch(doc["id"]):
        return None
    return dict(doc)


def _text(doc: dict) -> str:
    """The record's file: TinyDB's layout, as every file of the data folder."""
    stamped = {SCHEMA_KEY: {"kind": "device", "version": schema_version("device")}, "device": {"1": doc}}
    return json.dumps(stamped, ensure_ascii=False)


def _write(store: Any, doc: dict) -> None:
    make_private_folder(local_folder(store))
    atomic_write_text(device_path(store), _text(doc))


def _create(store: Any, doc: dict) -> dict:
    """The device's record made for the first time: ``doc``, or the one another companion of
    this machine made meanwhile. Several companions' first actions on a new data folder start
    together (a script, the phones' server, the shell): each used to write its own id, and
    one's cleaning of leftover temporary files removed the others' before they were renamed
    ("Could not write .local/device.json"). Made only if absent (files.create_text), the first
    record stays and the others read its id; a damaged one is replaced, as before."""
    from companion.core.files import create_text

    if create_text(device_path(store), _text(doc)):
        return doc
    made = _read(store)
    if made is not None:
        return made
    _write(store, doc)
    return doc


def device(store: Any) -> dict:
    """This machine's {"id", "name"} in ``store``'s data folder, made on first use (kept in
    memory on the Store once read: an action asks for it once)."""
    kept = getattr(store, "_device", None)
    if kept is not None:
        return kept
    doc = _read(store)
    if doc is None:
        import secrets  # (once per data folder and machine: no start pays for it)

        doc = _create(store, {"id": secrets.token_hex(5), "name": default_name()})
    if not isinstance(doc.get("name"), str) or not doc["name"].strip():
        doc["name"] = default_name()
    with_kept(store, doc)
    return doc


def with_kept(store: Any, doc: dict) -> None:
    try:
        store._device = doc
    except AttributeError:  # pragma: no cover - a store without attributes
        pass


def device_id(store: Any) -> str:
    """This machine's id in ``store``'s data folder (10 hex digits; read or created in
    ``<data>/.local/device.json``)."""
    return device(store)["id"]


def device_name(store: Any) -> str:
    """The name people read for this laptop: the host name unless set (:func:`set_device_name`)."""
    return device(store)["name"]


def set_device_name(store: Any, name: str) -> str:
    """Name this laptop (new journals carry the name; ones already written keep theirs)."""
    cleaned = " ".join(str(name).split())[:NAME_LIMIT]
    if not cleaned:
        from companion.contract.errors import CompanionError
        from companion.contract.language import _

        raise CompanionError(_("Give the laptop a name of at least one letter."))
    doc = dict(device(store), name=cleaned)
    _write(store, doc)
    with_kept(store, doc)
    return cleaned


def default_name() -> str:
    import socket

    try:
        name = socket.gethostname().strip()
    except OSError:  # pragma: no cover
        name = ""
    return (name or "this laptop")[:NAME_LIMIT]
