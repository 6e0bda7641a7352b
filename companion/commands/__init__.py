"""Where every command lives, so the root group can import a command only when it is used.

Start-up stays fast (``companion --version`` imports none of these), and each game's commands
stay in one module of their own. Engineers adding a game add its lines here.
"""

from __future__ import annotations

# top-level command name -> "module:attribute"
COMMANDS: dict[str, str] = {
    # generic
    "games": "companion.commands.generic:games",
    "new": "companion.commands.generic:new",
    "sessions": "companion.commands.generic:sessions_cmd",
    "use": "companion.commands.generic:use",
    "status": "companion.commands.generic:status",
    "log": "companion.commands.generic:log",
    "undo": "companion.commands.generic:undo",
    "redo": "companion.commands.generic:redo",
    "verify": "companion.commands.generic:verify",
    "board": "companion.commands.generic:board",
    "data": "companion.commands.data:data",
    "shell": "companion.commands.generic:shell",
    "help": "companion.commands.generic:help_cmd",
    # score sheet
    "add": "companion.commands.scoresheet:add",
    "finish": "companion.commands.scoresheet:finish",
    # Trans Europa / Trans Amerika
    "round": "companion.commands.trans:round_group",
    "hand": "companion.commands.trans:hand",
    "pass": "companion.commands.trans:pass_card",
    "rails": "companion.commands.rails:rails",
    "start": "companion.commands.trans:start_marker",
    "build": "companion.commands.trans:build",
    # Atlantic Star
    "agency": "companion.commands.atlantic_star:agency",
    "charter": "companion.commands.atlantic_star:charter",
    "refresh": "companion.commands.atlantic_star:refresh",
    "voyage": "companion.commands.atlantic_star:voyage",
    "loan": "companion.commands.atlantic_star:loan",
    # Transatlantic
    "ship": "companion.commands.transatlantic:ship_group",
    "ships": "companion.commands.transatlantic:ships",
    "own": "companion.commands.transatlantic:own",
    "reveal": "companion.commands.transatlantic:reveal",
    "stack-empty": "companion.commands.transatlantic:stack_empty",
    "market": "companion.commands.transatlantic:market",
    "buy": "companion.commands.transatlantic:buy",
    "next": "companion.commands.transatlantic:next_turn",
    "scrap": "companion.commands.transatlantic:scrap",
    "vp": "companion.commands.transatlantic:vp",
    "final": "companion.commands.transatlantic:final",
    # history and exchange
    "players": "companion.commands.history:players",
    "player": "companion.commands.history:player_group",
    "stats": "companion.commands.history:stats",
    "export": "companion.commands.history:export",
    "import": "companion.commands.history:import_cmd",
    "report": "companion.commands.history:report",
}

# game id -> "module:attribute" of its `new GAME` command
NEW: dict[str, str] = {
    "trans-europa": "companion.commands.trans:new_europa",
    "trans-amerika": "companion.commands.trans:new_amerika",
    "transatlantic": "companion.commands.transatlantic:new",
    "atlantic-star": "companion.commands.atlantic_star:new",
    "scoresheet": "companion.commands.scoresheet:new",
}

# game id -> module with the game's screens: render_status(app, session, replay) -> str,
# and optionally render_board(app, session, replay) -> str and words(session, replay) -> list
UI: dict[str, str] = {
    "trans-europa": "companion.commands.trans",
    "trans-amerika": "companion.commands.trans",
    "transatlantic": "companion.commands.transatlantic",
    "atlantic-star": "companion.commands.atlantic_star",
    "scoresheet": "companion.commands.scoresheet",
}
