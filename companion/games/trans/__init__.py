"""Trans Europa and Trans Amerika: deals and special cards (rules), the rails on the board
(track, board, junctions, steiner, boardview), the moves declared once (moves, with `rails` in
rails and its counting in counting) and the screens as views (views, screens)."""

from companion.games.trans.rules import TransAmerika, TransEuropa

__all__ = ["TransAmerika", "TransEuropa"]
