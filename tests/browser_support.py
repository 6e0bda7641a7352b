"""Headless Chromium from the operating system's packages, driven by Selenium.

The browser tests skip, saying why, where Chromium or its driver is missing (install them with
`apt-get install -y chromium chromium-driver`). Nothing is downloaded: the driver is the
system's, so Selenium Manager is never asked for one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

import pytest

CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--no-first-run", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars")


def find_browser() -> tuple[str, str] | str:
    """(chromium, chromedriver) paths, or why they cannot be used."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not browser or not driver:
        return "Chromium or chromedriver is missing: apt-get install -y chromium chromium-driver"
    return browser, driver


def chrome(width: int = 412, height: int = 915):
    """A fresh headless Chromium (its own throw-away profile), or a skip with the reason."""
    found = find_browser()
    if isinstance(found, str):
        pytest.skip(f"browser tests skipped: {found}")
    browser, driver = found
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="companion-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    web = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    web._companion_profile = profile
    return web


def quit_chrome(web) -> None:
    try:
        web.quit()
    finally:
        shutil.rmtree(getattr(web, "_companion_profile", ""), ignore_errors=True)


def body_text(web) -> str:
    """The page's visible text; '' while it is being replaced (the page reloads itself)."""
    from selenium.common.exceptions import WebDriverException

    try:
        return web.execute_script("return document.body ? document.body.innerText : ''") or ""
    except WebDriverException:
        return ""


def link_line(line: str) -> tuple[str, str | None, str]:
    """One line of piped `serve`: ("table", None, URL) or ("player", NAME, URL)."""
    kind, rest = line.rstrip("\n").split(" ", 1)
    if kind == "table":
        return kind, None, rest
    if kind != "player":  # the form before issue 22 (W3): `NAME URL`
        name, url = line.rstrip("\n").rsplit(" ", 1)
        return "player", name, url
    name, url = rest.rsplit(" ", 1)
    return kind, name, url


def serve(home, players):
    """`companion serve --port 0` in its own process: (process, {who: url}), the table's link
    under "table" (a test with a player called "table" reads :func:`link_line` itself)."""
    env = dict(os.environ, COMPANION_HOME=str(home))
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    links = {}
    for _ in range(1 + len(players)):
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(proc.stderr.read())
        kind, name, url = link_line(line)
        links["table" if kind == "table" else name] = url
    return proc, links


def stop(proc) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
