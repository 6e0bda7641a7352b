"""Laptops sharing a data folder through a sync engine that copies whole files (issue 30).

A :class:`Laptop` is a data folder with its own companion commands (``--data-dir``, run in this
process through Click's runner). :class:`Engine` copies the shared files between laptops the way
Syncthing, Nextcloud or Dropbox do: a file changed on one side replaces the other side's whole
(written to a temporary name, then renamed in), and a file changed on both sides since they last
met is kept as the newer one, the other renamed to a conflict copy. Machine-local files (the
device id in ``.local/``, caches, locks, the index, settings, logs) are never copied."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from companion.terminal.cli import cli

# what stays on one laptop (issue 30: the other helper's .stignore lists these too)
LOCAL = (".local", "cache", "locks", "index.json", "settings.json", ".lock", "errors.log", "shell-history", "web")


class Laptop:
    def __init__(self, root: Path, name: str):
        self.root = Path(root)
        self.name = name
        self.runner = CliRunner()
        from companion.core.device import set_device_name
        from companion.core.store import Store

        set_device_name(Store(self.root), name)

    def run(self, *args: str, expect: int | None = None, input: str | None = None):
        result = self.runner.invoke(cli, ["--data-dir", str(self.root), *args], input=input, catch_exceptions=True)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert "Traceback" not in result.output + (result.stderr or "")
        if expect is not None:
            assert result.exit_code == expect, (args, result.output, result.stderr)
        return result

    def json(self, *args: str):
        return json.loads(self.run(*args, "--json", expect=0).stdout)

    @property
    def device(self) -> str:
        from companion.core.device import device_id
        from companion.core.store import Store

        return device_id(Store(self.root))

    def shared(self) -> dict[str, bytes]:
        out = {}
        if not self.root.exists():
            return out
        for path in sorted(self.root.rglob("*")):
            rel = path.relative_to(self.root)
            if not path.is_file() or rel.parts[0] in LOCAL or path.name.startswith("."):
                continue
            out[str(rel)] = path.read_bytes()
        return out


class Engine:
    """A sync engine between laptops: :meth:`sync` brings two laptops' shared files together."""

    def __init__(self):
        self.met: dict[tuple[str, str, str], bytes | None] = {}  # (a, b, file) -> bytes when they last agreed
        self.conflicts = 0

    def sync(self, a: Laptop, b: Laptop) -> None:
        fa, fb = a.shared(), b.shared()
        for rel in sorted(set(fa) | set(fb)):
            key = (min(a.name, b.name), max(a.name, b.name), rel)
            base = self.met.get(key)
            xa, xb = fa.get(rel), fb.get(rel)
            if xa == xb:
                self.met[key] = xa
                continue
            if xa is None or xb is None:  # new on one side (deletions are not part of these trials)
                src, dst, data = (a, b, xa) if xb is None else (b, a, xb)
                put(dst.root / rel, data)
                self.met[key] = data
                continue
            if base == xb:  # changed on a only
                put(b.root / rel, xa)
            elif base == xa:
                put(a.root / rel, xb)
            else:  # changed on both: the newer wins, the other is a conflict copy on both
                ta, tb = (a.root / rel).stat().st_mtime_ns, (b.root / rel).stat().st_mtime_ns
                winner, loser, loser_name = (xa, xb, b.name) if (ta, a.name) >= (tb, b.name) else (xb, xa, a.name)
                copy = conflict_name(rel, loser_name)
                for side in (a, b):
                    put(side.root / rel, winner)
                    put(side.root / copy, loser)
                self.conflicts += 1
        # whatever was written, both now agree
        for rel, data in a.shared().items():
            self.met[(min(a.name, b.name), max(a.name, b.name), rel)] = data


def conflict_name(rel: str, who: str) -> str:
    """Syncthing's name for a conflict copy: ``NAME.sync-conflict-DATE-TIME-DEVICE.EXT``."""
    path = Path(rel)
    last = path.suffix
    head = path.name[: -len(last)] if last else path.name
    return str(path.with_name(f"{head}.sync-conflict-20261204-230000-{who.upper()[:7]}{last}"))


def put(path: Path, data: bytes) -> None:
    """Write a whole file as a sync engine does: a temporary name in the folder, then a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".syncthing.{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def copy_folder(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst)
