"""The contract: the bottom floor every other part of the companion stands on.

A game is written against these modules and nothing else of the house: ``api`` (what a game is:
its facts, rules and parts), ``declare`` (its moves and screens as data, the kinds of their
values), ``reader`` (the one reader of those values, typed or posted), ``view`` (its screens as
data, and the exit filter that makes everything a viewer sees from ``view(state, viewer)``),
``errors`` (the refusals meant for people), ``text`` and ``numbers`` (names and points as people
type them).

Nothing here imports the core, a game, the terminal or the web: they all import this.
"""
