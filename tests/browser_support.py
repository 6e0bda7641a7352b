"""Headless Chromium from the operating system's packages, driven by Selenium.

One test process keeps the browsers its tests asked for and hands them out again (issue 29:
starting a Chromium took 3 s of each browser test): :func:`quit_chrome` gives a browser back
with one fresh tab, its cookies and cache cleared, and a later :func:`chrome` or :func:`phone`
of the same kind takes it. The browsers are quit when the process ends.

The browser tests skip, saying why, where Chromium or its driver is missing (install them with
`apt-get install -y chromium chromium-driver`). Nothing is downloaded: the driver is the
system's, so Selenium Manager is never asked for one.
"""

from __future__ import annotations

import atexit
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


IDLE_AT_MOST = 4  # browsers kept between tests, per test process (the oldest is quit first)
_idle: list[tuple[tuple, object]] = []  # (kind, browser), the last given back last
_launched: list = []  # every browser this process started and has not quit
atexit.register(lambda: quit_all())


def _launch(kind: tuple, extra) -> object:
    """A headless Chromium of ``kind`` with its own throw-away profile, ``extra(options)``
    adding what the caller needs: one given back earlier when there is one, else a new one;
    or a skip with the reason."""
    for n in range(len(_idle) - 1, -1, -1):
        if _idle[n][0] == kind:
            return _idle.pop(n)[1]
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
    extra(options)
    web = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    web._companion_profile, web._companion_kind = profile, kind
    _launched.append(web)
    return web


def quit_all() -> None:
    """Quit every browser this process started (the tests are over)."""
    _idle.clear()
    for web in list(_launched):
        _quit(web)


def chrome(width: int = 412, height: int = 915):
    """A headless Chromium of ``width`` x ``height`` (a desktop window) with no page open, or
    a skip."""
    web = _launch(("desktop",), lambda options: options.add_argument(f"--window-size={width},{height}"))
    if web.get_window_size() != {"width": width, "height": height}:
        web.set_window_size(width, height)
    return web


PHONE = (390, 844)  # CSS pixels: the phones of the issues' tests


def phone(width: int = PHONE[0], height: int = PHONE[1], scripts: bool = True, ratio: float = 3.0):
    """A headless Chromium emulating a touch phone of ``width`` x ``height`` CSS pixels (a
    phone's user agent, touch events, 3 device pixels per CSS pixel), or a skip. Without
    ``scripts`` it runs no JavaScript: a page stays as it was drawn. ``ratio``: device pixels
    per CSS pixel (a TV: 1)."""
    def extra(options) -> None:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": ratio, "touch": True},
            "userAgent": ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                          "Chrome/126.0 Mobile Safari/537.36")})
        if not scripts:
            options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})

    return _launch(("phone", width, height, scripts, ratio), extra)


def tap(web, element, x: float | None = None, y: float | None = None) -> None:
    """A finger's tap on ``element`` at (x, y) CSS pixels from its top-left corner (its middle
    when not given), as a touch screen sends it."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    web.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    box = web.execute_script("var r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]",
                             element)
    px = box[0] + (box[2] / 2 if x is None else x)
    py = box[1] + (box[3] / 2 if y is None else y)
    actions = ActionBuilder(web, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to_location(int(round(px)), int(round(py))).pointer_down().pause(0.05).pointer_up()
    actions.perform()


def quit_chrome(web) -> None:
    """Done with ``web``: it is kept for the next test that asks for one of its kind, with one
    blank tab (the test's tabs closed, and with them what it set through the DevTools: touch,
    the network's state, scripts off), no cookies and an empty cache; quit when that fails or
    when more are kept than :data:`IDLE_AT_MOST`."""
    from selenium.common.exceptions import WebDriverException

    try:
        old = list(web.window_handles)
        web.switch_to.new_window("tab")
        for handle in old:
            web.switch_to.window(handle)
            web.close()
        web.switch_to.window(web.window_handles[0])
        web.execute_cdp_cmd("Network.clearBrowserCookies", {})
        web.execute_cdp_cmd("Network.clearBrowserCache", {})
    except WebDriverException:
        _quit(web)
        return
    _idle.append((web._companion_kind, web))
    while len(_idle) > IDLE_AT_MOST:
        _quit(_idle.pop(0)[1])


def _quit(web) -> None:
    if web in _launched:
        _launched.remove(web)
    try:
        web.quit()
    except Exception:  # noqa: BLE001 - a browser already gone: nothing left to quit
        pass
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
    """One line of piped `serve`: ("table", None, URL), ("player", NAME, URL) or the table's
    code's ("join", None, URL, issue 31)."""
    kind, rest = line.rstrip("\n").split(" ", 1)
    if kind in ("table", "join"):
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
