"""The score sheet: any other game, scored round by round."""

from companion.games.scoresheet.rules import ScoreSheet

__all__ = ["ScoreSheet"]
