"""Shared by the secret-bid tests: the third example (docs/examples/companion-tricks) installed
as a real distribution, and two tables that differ only in Ann's secret bid.

A bid is secret until everyone has bid: anything anyone but Ann sees before then must be the
same bytes whatever Ann bid (the size-channel test's way: two runs that differ only in the
secret), once the session's id, times and the pages' tokens are set aside.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import plugin_support
from plugin_support import pip_install

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "companion-tricks"
PLAYERS = ["Ann", "Bob", "Cy"]


def install(work: Path, source: Path = EXAMPLE) -> Path:
    """pip-install the example (or ``source``) from a copy into a site folder (nothing written
    into the repository): once per run for the same source (tests/shared_install.py), else
    into ``work/site``."""
    from shared_install import installed

    return installed(source, work, _install)


def _install(work: Path, source: Path) -> Path:
    copy = work / source.name
    shutil.copytree(source, copy)
    pip_install(copy, target=work / "site")
    return work / "site"


def on_path(site: Path, package: str = "tricks_companion"):
    """Put ``site`` on this process's path so the registry finds the example (a generator:
    yields once, then takes it off again)."""
    with plugin_support.on_path(site, (package,)):
        yield site


TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?|\b\d\d:\d\d\b")


def same_but_ids(text: str, sid: str, tokens=()) -> str:
    """``text`` with the session's id, its times, the pages' tokens, versions and form tokens
    replaced by placeholders: what is left may not depend on a secret."""
    text = text.replace(sid, "SID")
    for token in tokens:
        text = text.replace(token, "TOKEN")
    text = re.sub(r'name="form" value="[^"]*"', 'name="form" value="FORM"', text)
    text = re.sub(r"\b[0-9a-f]{24}\b", "VERSION", text)
    return TIME.sub("TIME", text)
