"""The games: ``base`` is the contract every game keeps, ``kit`` the pieces its commands share,
and each game is a package of its own (rules, commands, screens and helpers).

Games are found through the entry point group ``companion.games`` (``companion.core.registry``),
the built-in ones exactly like plugins, so nothing here lists them.
"""
