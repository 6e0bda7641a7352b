"""The phones' pages (`companion serve`): a private page per player and a live table page.

Nothing here is imported by `companion --version` or by any other command: the web stack
(Starlette, uvicorn, segno) is loaded only when `serve` runs.
"""
