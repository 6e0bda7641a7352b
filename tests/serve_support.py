"""Shared by the serve tests: a Trans session dealt with a pass special card, and its site."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PLAYERS = ["Ann", "Bob", "Cy", "Dan"]


def new_trans(run, special: str | None = "pass-three", extra=()) -> str:
    variant = ["--variant", "special-cards"] if special else []
    run(["new", "trans-europa", "--players", ",".join(PLAYERS), *variant, *extra], expect=0)
    run(["round", "start", *(["--special", special] if special else [])], expect=0)
    return json.loads(run(["status", "--json"], expect=0).stdout)["session"]


def hands(home: Path, sid: str) -> dict[str, list[str]]:
    """Every hand, read straight from the rules (the tests' own view, never a page's)."""
    from companion.core import session as sessions
    from companion.core.store import Store

    s = sessions.load(Store(home), sid)
    return {p: list(c) for p, c in s.replay().state["hands"].items()}


def site_and_client(home: Path, sid: str, players=PLAYERS):
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
        warnings.simplefilter("ignore", UserWarning)  # StarletteDeprecationWarning
        from starlette.testclient import TestClient

    from companion.web import tokens
    from companion.web.site import Site

    made = tokens.links(home, sid, list(players))
    links = {"table": made[tokens.TABLE], **{p: made[p] for p in players}}  # no player here is called "table"
    site = Site(home, sid)
    return site, TestClient(site.app, base_url="http://127.0.0.1"), links
