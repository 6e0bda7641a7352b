"""Headless Chromium from the operating system's packages, driven by Selenium.

One kind of browser, and as few of them as the tests need at once (issue 29, item 7): every
:func:`phone` and :func:`chrome` is a plain headless Chromium whose tab is made a phone, a
desktop window or a TV through the DevTools (the size in CSS pixels, the device pixels per CSS
pixel, touch, the user agent, the languages the browser asks for, scripts on or off), as
Chromium's own device mode does. Launching a Chromium took about 0.7 s of CPU, and each kind of
browser used to be a Chromium of its own (a phone, a phone without scripts, a German phone, a
TV): now one test process starts one, or two or three when a test drives them side by side,
and keeps them. :func:`quit_chrome` gives a browser back with one blank tab (the test's first),
its cookies and cache cleared, and the next :func:`chrome` or :func:`phone` takes it; :func:`new_tab` opens a
tab set up as the current one. The browsers are quit when the process ends.

The browser tests skip, saying why, where Chromium or its driver is missing (install them with
`apt-get install -y chromium chromium-driver`). Nothing is downloaded: the driver is the
system's, so Selenium Manager is never asked for one.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from dataclasses import dataclass, replace

import pytest

from process_support import ended

# --headless=new draws as a windowed Chromium does; the rest spare work no test looks at (the
# network's background fetches, updates, sync, crash reports, the translation and media-router
# services, extensions, audio). Every one is a switch of Chromium's own (chrome://flags lists
# none of them: see https://peter.sh/experiments/chromium-command-line-switches/). The three
# WebUIOmnibox features are the address bar's drop-downs, which Chromium 156 loads as pages of
# their own (chrome://omnibox-popup.top-chrome) in a renderer of their own for every window, even
# headless: they took more CPU than the companion's pages (3.3 s against 2.5 s in the German page
# tests). tests/test_browser_itself.py checks that a window loads no such page.
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--no-first-run", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars", "--disable-extensions",
                  "--disable-default-apps", "--disable-breakpad", "--disable-domain-reliability",
                  "--disable-client-side-phishing-detection", "--mute-audio", "--no-default-browser-check",
                  "--password-store=basic",
                  "--disable-features=Translate,OptimizationHints,MediaRouter,"
                  "WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup")
WINDOW = (1920, 1080)  # the browser's window: the largest page a test asks for fits it


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


PHONE = (390, 844)  # CSS pixels: the phones of the issues' tests
PHONE_AGENT = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
               "Chrome/126.0 Mobile Safari/537.36")
LANGUAGES = {"en": "en-US,en", "de": "de-DE,de"}  # what a browser set to that language asks for


@dataclass(frozen=True)
class Device:
    """What a tab is: ``width`` x ``height`` CSS pixels at ``ratio`` device pixels each, a
    phone (its user agent, touch, the page's viewport honoured) or a desktop window, scripts
    on or off, and the language its user reads (the Accept-Language it sends)."""
    width: int
    height: int
    ratio: float = 1.0
    mobile: bool = False
    scripts: bool = True
    lang: str = "en"


_parking: list = []  # the address of this process's parking page, once it is served


def parking() -> str:
    """A page with nothing on it, served by this test process on 127.0.0.1, where a kept tab
    waits for the next test (:func:`quit_chrome`). Leaving a companion page for it ends the
    page's stream and timers, as about:blank did; but the next test's page, on 127.0.0.1 as
    this one is, then opens in the tab's renderer, where after about:blank Chromium started a
    renderer of its own: 43 against 170 ms of CPU (issue 29, item 7)."""
    if not _parking:
        import http.server
        import threading

        class Parked(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the standard library's name
                body = b"<!doctype html><html lang='en'><title>parked</title></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):  # nothing on the test's output
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Parked)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, name="parking page", daemon=True).start()
        _parking.append(f"http://127.0.0.1:{server.server_address[1]}/parked")
    return _parking[0]


IDLE_AT_MOST = 1  # browsers kept between tests, per test process: an idle Chromium takes ~8 ms of CPU a second
_idle: list = []  # the browsers given back, the last given back last
_launched: list = []  # every browser this process started and has not quit
atexit.register(lambda: quit_all())


def _launch() -> object:
    """A headless Chromium with its own throw-away profile: one given back earlier when there
    is one, else a new one; or a skip with the reason."""
    if _idle:
        web = _idle.pop()
        web._companion_first = web.current_window_handle
        return web
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
    options.add_argument(f"--window-size={WINDOW[0]},{WINDOW[1]}")
    options.add_argument(f"--user-data-dir={profile}")
    web = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    web._companion_profile = profile
    web._companion_agent = web.execute_script("return navigator.userAgent")
    web._companion_devices = {}  # window handle: the Device its tab was made
    web._companion_touched = False  # a DevTools command other than the device's was sent: no tab is kept
    device_commands = web.execute_cdp_cmd

    def execute_cdp_cmd(cmd: str, cmd_args: dict):
        if not cmd.startswith(("Emulation.", "Network.clearBrowser", "Target.get")):
            web._companion_touched = True
        return device_commands(cmd, cmd_args)

    web.execute_cdp_cmd = execute_cdp_cmd
    _launched.append(web)
    web._companion_first = web.current_window_handle  # the tab :func:`quit_chrome` keeps
    return web


def quit_all() -> None:
    """Quit every browser this process started (the tests are over)."""
    _idle.clear()
    for web in list(_launched):
        _quit(web)


def emulate(web, device: Device) -> None:
    """Make ``web``'s current tab ``device`` (kept by the tab until it is closed; a tab opened
    by :func:`new_tab` is made the same)."""
    web.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": device.width, "height": device.height, "deviceScaleFactor": device.ratio, "mobile": device.mobile,
        "screenWidth": device.width, "screenHeight": device.height})
    web.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": device.mobile, "maxTouchPoints": 5})
    accept = LANGUAGES[device.lang]
    web.execute_cdp_cmd("Emulation.setUserAgentOverride", {
        "userAgent": PHONE_AGENT if device.mobile else web._companion_agent, "acceptLanguage": accept})
    web.execute_cdp_cmd("Emulation.setLocaleOverride", {"locale": accept.split(",")[0]})
    web.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": not device.scripts})
    web._companion_devices[web.current_window_handle] = device


def device_of(web) -> Device:
    """What ``web``'s current tab was made by :func:`emulate`."""
    return web._companion_devices[web.current_window_handle]


def new_tab(web, kind: str = "tab") -> None:
    """Open a tab (or with ``kind`` "window" a window: shown beside the others, never in the
    background) in ``web``, made the device its current tab is, and switch to it."""
    device = device_of(web)
    web.switch_to.new_window(kind)
    emulate(web, device)


def drawn(web, timeout: float = 15.0) -> None:
    """Wait until the page ``web`` shows is loaded and its fonts are in: what it draws now is
    what a person sees."""
    web.set_script_timeout(timeout)
    web.execute_async_script("var done = arguments[arguments.length - 1];"
                             "(document.fonts ? document.fonts.ready : Promise.resolve()).then(function () {"
                             " requestAnimationFrame(function () { done(document.readyState); }); });")


def chrome(width: int = 412, height: int = 915, lang: str = "en"):
    """A headless Chromium whose tab is a desktop window of ``width`` x ``height`` with no page
    open, or a skip."""
    web = _launch()
    emulate(web, Device(width, height, lang=lang))
    return web


def phone(width: int = PHONE[0], height: int = PHONE[1], scripts: bool = True, ratio: float = 3.0,
          lang: str = "en"):
    """A headless Chromium whose tab emulates a touch phone of ``width`` x ``height`` CSS pixels
    (a phone's user agent, touch events, ``ratio`` device pixels per CSS pixel: a TV is 1), or a
    skip. Without ``scripts`` it runs no JavaScript: a page stays as it was drawn. ``lang``: the
    language its user reads ("en", "de")."""
    web = _launch()
    emulate(web, Device(width, height, ratio, mobile=True, scripts=scripts, lang=lang))
    return web


class Window:
    """One window of a browser standing for one device (a phone, the TV) beside the browser's
    other windows: three phones at one table in one Chromium instead of three (each window its
    own size, touch, language and scripts; the one cookie a page sets is for its own address).
    Every call on it acts in its window, as a driver of its own would."""

    def __init__(self, web, device: Device, first: bool = False):
        if not first:
            web.switch_to.new_window("window")
        emulate(web, device)
        self.web, self.handle = web, web.current_window_handle
        web._companion_window = self.handle

    def __getattr__(self, name: str):
        if self.web._companion_window != self.handle:
            self.web.switch_to.window(self.handle)
            self.web._companion_window = self.handle
        return getattr(self.web, name)


def windows(web, *devices: Device) -> list[Window]:
    """A :class:`Window` of ``web`` for each of ``devices`` (the first in its current tab)."""
    return [Window(web, device, first=not n) for n, device in enumerate(devices)]


def screenshot(web, path, whole: bool = False, ratio: float | None = None) -> None:
    """Save what ``web`` shows to ``path`` (PNG): the screen, or with ``whole`` the whole page
    (as tall as it is, up to 4,000 CSS pixels), at ``ratio`` device pixels per CSS pixel (the
    tab's own when not given); the tab is the same device afterwards."""
    device = device_of(web)
    height = device.height
    if whole:
        height = min(int(web.execute_script("return document.documentElement.scrollHeight")), 4000)
    shown = replace(device, height=height, ratio=device.ratio if ratio is None else ratio)
    if shown != device:
        web.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": shown.width, "height": shown.height, "deviceScaleFactor": shown.ratio, "mobile": shown.mobile})
    try:
        web.save_screenshot(str(path))
    finally:
        if shown != device:
            emulate(web, device)


# Run in the page: calls the function body arguments[0] with the arguments arguments[1] every
# 25 ms until it returns something true or arguments[2] seconds have passed, then answers that.
_UNTIL = """
var done = arguments[arguments.length - 1], test = new Function(arguments[0]), args = arguments[1];
var end = Date.now() + arguments[2] * 1000, timer = null;
function check() {
  var got = null;
  try { got = test.apply(null, args); } catch (e) { got = null; }
  if (got || Date.now() > end) { if (timer !== null) clearInterval(timer); done(got || null); return true; }
  return false;
}
if (!check()) timer = setInterval(check, 25);
"""


def until(web, script: str, *args, timeout: float = 30.0):
    """What the function body ``script`` (given ``args`` as ``arguments``) returns once it is
    true in ``web``'s page, or None after ``timeout`` seconds. The page checks it itself every
    25 ms: one round trip through the driver instead of one a poll (a round trip is ~3.5 ms of
    CPU between the driver, the browser and the page), and again every 3 s. A page replaced
    meanwhile (a link, a post answered by another page) is asked again."""
    import time

    from selenium.common.exceptions import NoSuchWindowException, WebDriverException

    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ask = min(left, 3.0)  # seconds the page checks before answering, so a page gone mid-way costs little
        try:
            web.set_script_timeout(ask + 5)
            got = web.execute_async_script(_UNTIL, script, list(args), ask)
        except NoSuchWindowException:
            raise
        except WebDriverException:  # the page was replaced under the script (or never answered): ask again
            time.sleep(0.02)
            continue
        if got:
            return got


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
    """Done with ``web``: it is kept for the next test that asks for a browser, with one blank
    tab (the test's first tab, its page replaced by the :func:`parking` page, which ends the
    page's stream and timers; the test's other tabs closed), no cookies and an empty cache; quit when that
    fails or when more are kept than :data:`IDLE_AT_MOST`. The next test makes the tab its
    device again (:func:`emulate`). A tab given a DevTools command other than the device's
    (the network's state, say) is closed too, and a fresh tab opened instead, as every test's
    tabs used to be (issue 29, item 7: opening a tab took ~0.1 s of CPU, a blank page ~0.03 s)."""
    from selenium.common.exceptions import WebDriverException

    try:
        old = list(web.window_handles)
        kept = web._companion_first if web._companion_first in old and not web._companion_touched else None
        if kept is None:
            web.switch_to.new_window("tab")
        for handle in old:
            if handle != kept:
                web.switch_to.window(handle)
                web.close()
        web.switch_to.window(kept or web.window_handles[0])
        if kept is not None:
            web.get(parking())
        web.execute_cdp_cmd("Network.clearBrowserCookies", {})
        web.execute_cdp_cmd("Network.clearBrowserCache", {})
        web._companion_devices.clear()
        web._companion_window = None
        web._companion_touched = False
    except WebDriverException:
        _quit(web)
        return
    _idle.append(web)
    while len(_idle) > IDLE_AT_MOST:
        _quit(_idle.pop(0))


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
    """`companion serve --port 0` in its own process (forked from a warm one that imported the
    web server once: tests/warm_support.py serve_process): (process, {who: url}), the table's
    link under "table" (a test with a player called "table" reads :func:`link_line` itself)."""
    from warm_support import serve_process

    proc = serve_process(home, "--port", "0")
    links = {}
    for _ in range(1 + len(players)):
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(proc.stderr.read())
        kind, name, url = link_line(line)
        links["table" if kind == "table" else name] = url
    return proc, links


def stop(proc) -> None:
    ended(proc)


SHOTS = os.environ.get("COMPANION_SHOTS")  # a folder: the tests' screenshots are kept there for people


def shot(web, name: str, whole: bool = False, ratio: float | None = None) -> None:
    """With ``COMPANION_SHOTS=DIR``, :func:`screenshot` of ``web`` to DIR/``name``.png, for a
    person to look at; else nothing (issue 29: a screenshot costs ~0.1 s of CPU, and none of
    these is read by a test). The documentation's own are docs/screenshots.py's."""
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        screenshot(web, os.path.join(SHOTS, f"{name}.png"), whole=whole, ratio=ratio)

