"""Trans Europa and Trans Amerika: deals and special cards (rules), the rails on the board
(track, board, steiner, boardview), and the commands and screens (commands, rails)."""

from companion.games.trans.rules import TransAmerika, TransEuropa

__all__ = ["TransAmerika", "TransEuropa"]
