"""The core: sessions and their event logs, the data folder, dealing, printed-data packs, the
errors people see, the app object, and the registry that finds games by entry point.

It knows no game and no terminal: nothing here imports ``companion.games.<game>`` or
``companion.terminal``.
"""
