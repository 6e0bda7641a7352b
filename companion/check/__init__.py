"""`companion check`: every installed game, plugins included, played and watched for leaks.

What OpenSpiel's ``games_sim_test.py`` does for its games, done for ours by anyone who has the
package (a plugin's author included): each game's declared ``PLAYTHROUGH``, then random legal
play to the end, several seeds, from what the game's kinds offer a phone. After every move the
journal replays to the state that was kept, and undo then redo gives that state back. Beside
each random run goes a twin that differs only in its secrets (another deal seed, another value
of each private parameter): whatever a viewer is shown (the table's screen, page and stream,
`status --json`, `log`, each player's page and stream) must be the same bytes in both runs
whenever that viewer's own ``view(state, viewer)`` is the same, or it shows a secret.

``chooser`` picks the moves, ``surfaces`` draws what each viewer is shown, ``leaks`` names what
differs, ``runner`` plays a game and says what failed (:class:`runner.Failure`).
"""
