"""Tricks for Tabletop Companion: the third example of docs/writing-a-game.md (a secret that becomes public)."""
