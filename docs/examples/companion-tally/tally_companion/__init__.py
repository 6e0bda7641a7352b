"""Tally for Tabletop Companion: the second example of docs/writing-a-game.md."""
