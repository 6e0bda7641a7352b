"""axe-core in the headless Chromium of tests/browser_support.py: an accessibility check of a
page as a browser shows it (axe-core comes bundled with the axe-selenium-python test
dependency: nothing is fetched at test time)."""

from __future__ import annotations


def violations(web, context: str | None = None, options: dict | None = None) -> list[dict]:
    """axe-core's violations on the page ``web`` shows now: [{id, impact, help, nodes}]."""
    from axe_selenium_python import Axe

    axe = Axe(web)
    axe.inject()
    found = axe.run(context=context, options=options)
    return found["violations"]


def summary(found: list[dict]) -> str:
    """One line per violation: rule, impact, how many nodes, and the first node's HTML."""
    return "\n".join(f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}: "
                     f"{v['nodes'][0]['html'][:120] if v['nodes'] else ''}" for v in found)
