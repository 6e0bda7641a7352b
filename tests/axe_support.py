"""axe-core in the headless Chromium of tests/browser_support.py: an accessibility check of a
page as a browser shows it. axe-core 4.14.1 is vendored as a test fixture
(tests/fixtures/axe-core/, from the npm registry, MPL-2.0): nothing is fetched at test time."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parent / "fixtures" / "axe-core" / "axe.min.js"
VERSION = "4.14.1"


def violations(web, context: str | None = None, options: dict | None = None) -> list[dict]:
    """axe-core's violations on the page ``web`` shows now: [{id, impact, help, nodes}]."""
    web.execute_script(AXE.read_text(encoding="utf-8"))
    found = web.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(arguments[0] || document, arguments[1] || {})"
        ".then(r => done(r.violations), e => done({error: String(e)}));",
        context, options or {})
    if isinstance(found, dict) and "error" in found:
        raise RuntimeError(f"axe-core failed on the page: {found['error']}")
    return found


def summary(found: list[dict]) -> str:
    """One line per violation: rule, impact, how many nodes, and the first node's HTML."""
    return "\n".join(f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}: "
                     f"{v['nodes'][0]['html'][:120] if v['nodes'] else ''}" for v in found)
