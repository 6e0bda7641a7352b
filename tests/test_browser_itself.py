"""The tests' Chromium loads only the pages the tests open (issue 29, item 7).

Chromium 156 loads its address bar's drop-downs as WebUI pages of their own in every window,
headless too, and they took more CPU than the companion's pages: tests/browser_support.py turns
them off by name. A Chromium that renames them would bring them back without a word; here a
window opened beside the first lists its targets, and none is the browser's own UI.
"""

from __future__ import annotations

import browser_support


def test_a_window_loads_no_page_of_the_browsers_own():
    web = browser_support.phone()
    try:
        web.get("data:text/html,<p>first</p>")
        browser_support.new_tab(web, "window")
        web.get("data:text/html,<p>second</p>")
        targets = web.execute_cdp_cmd("Target.getTargets", {})["targetInfos"]
        assert sorted(t["url"] for t in targets if t["type"] == "page") == [
            "data:text/html,<p>first</p>", "data:text/html,<p>second</p>"]
        assert [t["url"] for t in targets if t["type"] == "browser_ui"] == []
    finally:
        browser_support.quit_chrome(web)
