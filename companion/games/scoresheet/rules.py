"""A generic score sheet for any game the companion does not know.

Rounds of points per player; optionally the lowest total wins, and optionally the game ends
by itself after the round in which someone reaches a target. Equal best totals all win, unless
the game has a tie-breaker: then the table says who won it (`finish --winner NAME`).

The target's word is "reaches", in the help, `status` ("ends at 100") and the docs, and the rule
matches it whichever total wins (issue 29): a sheet started since records ``target_rule``
"reaches" in its options. A sheet started before keeps the rule it was played by, so its
journal replays as it was: with lowest-wins the target had to be passed ("ends past 100", as in
Hearts), and a tie at the target with a tie-breaker let the next round decide. Since then that
tie ends the rounds: the sheet waits for `finish --winner NAME` (``tied``) and takes no round.

Since issue 23 a sheet may carry the game's name (``title``: "Carcassonne"), decimal and
negative points, teams (the members' points add up to the team's total, and a team wins or
loses together), a co-operative game (everyone wins or loses together: `finish --won` or
`finish --lost`) and a game without points (the winners are named: `finish --winner NAME`).

A round is recorded whole (`add Ann=12 Bob=7`), or each player enters their own points, from
their phone or as `score NAME N` (issue 21): the round is complete, and counts, once everyone
has entered theirs; until then the others' entries are theirs alone (``view``). A session
started with `--scorekeeper NAME` has that player enter every round on their phone instead.
"""

from __future__ import annotations

from companion.contract.errors import RuleError
from companion.contract.language import N_, _
from companion.contract.written import number
from companion.contract.numbers import tidy
from companion.contract.api import Game, Setup, State, best, player_name

TITLE_MAX = 60
TIE_BREAK_MAX = 100


def is_points(value) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and value == value and abs(value) != float("inf"))


class ScoreSheet(Game):
    moves = "companion.games.scoresheet.moves"
    views = "companion.games.scoresheet.views"
    listing = 50
    section = N_("Score sheet")
    id = "scoresheet"
    title = N_("Score sheet")
    description = N_("A generic score sheet for any other game: rounds of points, totals, winners.")
    min_players = 1
    max_players = 6

    def initial(self, setup: Setup, data: dict) -> State:
        options = setup.options
        target = options.get("target")
        if target is not None and not is_points(target):
            raise RuleError(_("The target must be a number, e.g. --target 100"))
        players = list(setup.players)
        teams = options.get("teams")
        if teams is not None:
            teams = self._teams(players, teams)
        title = options.get("title")
        if title is not None and (not isinstance(title, str) or not title.strip() or len(title) > TITLE_MAX
                                  or not title.isprintable()):
            raise RuleError(_("A game's title is one line of at most {most} characters: --title \"Carcassonne\"").format(
                most=TITLE_MAX))
        tie = options.get("tie_break") or ""
        if not isinstance(tie, str) or len(tie) > TIE_BREAK_MAX or not tie.isprintable():
            raise RuleError(_("The tie-breaker is one line of at most {most} characters.").format(most=TIE_BREAK_MAX))
        keeper = options.get("scorekeeper")
        if keeper is not None:
            keeper = player_name(players, str(keeper))
        return {
            "players_order": players,
            "lowest_wins": bool(options.get("lowest_wins")),
            "target": target,
            "rounds": [],
            "totals": {p: 0 for p in players},
            "finished": False,
            "winners": [],
            # issue 23 (absent from sheets started before: read with .get)
            "title": title,
            "teams": teams,
            "coop": bool(options.get("coop")),
            "no_points": bool(options.get("no_points")),
            "tie_break": tie,
            "won": None,
            "tie_settled": None,
            # issue 29: "reaches" (a sheet started since) or "passes" (lowest-wins before it)
            "target_rule": options.get("target_rule") or ("passes" if options.get("lowest_wins") else "reaches"),
            "waits_for_tie": bool(options.get("target_rule")),  # a tie at the target ends the rounds
            # issue 21 (likewise)
            "scorekeeper": keeper,  # who enters every round on their phone (None: each their own)
            "entered": {},  # the round being entered player by player: {player: points}
        }

    @staticmethod
    def _teams(players: list[str], teams) -> list[list[str]]:
        """The teams as seated names: every player in exactly one team, two teams or more."""
        if not isinstance(teams, list) or not all(isinstance(t, list) and t for t in teams):
            raise RuleError(_("Teams name every player once, e.g. --teams \"Ann+Bob,Cy+Dee\"."))
        seated = [[player_name(players, str(p)) for p in team] for team in teams]
        flat = [p for t in seated for p in t]
        if sorted(flat) != sorted(players) or len(set(flat)) != len(flat):
            raise RuleError(_("Teams name every player once, e.g. --teams \"Ann+Bob,Cy+Dee\" (the players are "
                              "{players}).").format(players=", ".join(players)))
        if len(seated) < 2:
            raise RuleError(_("A game of teams needs two teams or more: name every player once, e.g. --teams "
                              "\"Ann+Bob,Cy+Dee\"."))
        return seated

    # -- the rules -------------------------------------------------------------------------
    def _entering(self, s: State) -> list[str]:
        return [p for p in s["players_order"] if p in (s.get("entered") or {})]

    def _half_entered(self, s: State) -> str:
        who = self._entering(s)
        names = ", ".join(who[:-1]) + _(" and ") + who[-1] if len(who) > 1 else who[0]
        return _("Round {round} is being entered player by player ({names} so far)").format(
            round=len(s["rounds"]) + 1, names=names)

    def on_score(self, s: State, event: dict, data: dict) -> None:
        """One player's own points for the round being entered; the round counts once everyone
        has entered theirs."""
        if s.get("no_points"):
            raise RuleError(_("This game has no points: name the winners with `finish --winner NAME`."))
        self._refuse_after_tie(s)
        player = player_name(s["players_order"], str(event.get("player", "")))
        points = event.get("points")
        if not is_points(points):
            raise RuleError(_("{name}'s score must be a number, not {typed}.").format(name=player, typed=repr(points)))
        entered = s.setdefault("entered", {})
        if player in entered:
            raise RuleError(_("{name} has entered {points} for round {round} already: `undo` takes it back.").format(
                name=player, points=number(entered[player]), round=len(s["rounds"]) + 1))
        entered[player] = points
        if len(entered) == len(s["players_order"]):
            s["entered"] = {}
            self.on_add(s, {"scores": entered}, data)

    def on_add(self, s: State, event: dict, data: dict) -> None:
        if s.get("no_points"):
            raise RuleError(_("This game has no points: name the winners with `finish --winner NAME`."))
        if s.get("entered"):
            raise RuleError(_("{entering}: enter the others' with `score NAME POINTS`, or `undo` the entries.").format(
                entering=self._half_entered(s)))
        self._refuse_after_tie(s)
        given = event.get("scores") or {}
        if not given:
            raise RuleError(_("Give at least one score, e.g. add Ann=12 Bob=7"))
        row = {p: 0 for p in s["players_order"]}
        seen = set()
        for name, points in given.items():
            p = player_name(s["players_order"], name)
            if p in seen:
                raise RuleError(_("{name} is given twice in one round: give each player once.").format(name=p))
            if not is_points(points):
                raise RuleError(_("{name}'s score must be a number, not {typed}.").format(name=p, typed=repr(points)))
            seen.add(p)
            row[p] = points
        s["rounds"].append(row)
        for p, pts in row.items():
            s["totals"][p] = tidy(s["totals"][p] + pts)
        if self.reached_target(s):
            top = self._best(s)
            if len(top) > 1 and s.get("tie_break"):
                return  # a tie the rules settle: the table says who won (`finish --winner`)
            self._finish(s, top)

    def _refuse_after_tie(self, s: State) -> None:
        """No round once the target ended the rounds on a tie the rules settle (issue 29)."""
        tied = self.tied_at_target(s)
        if tied and s.get("waits_for_tie"):
            raise RuleError(_("The target ended the game with {tied} tied for first; the rules settle it by {rule}: "
                              "`finish --winner NAME` says who won (`undo` takes the last round back).").format(
                tied=_(" and ").join(tied), rule=s["tie_break"]))

    @staticmethod
    def past_target(s: State) -> list[str]:
        """The sides (players, or teams as "Ann+Bob") whose total has reached the target (or
        passed it, on a sheet that says "passes"); [] without a target, or in a co-operative
        game or one without points (no target ends those)."""
        target = s["target"]
        if target is None or s.get("coop") or s.get("no_points"):
            return []
        passes = (s.get("target_rule") or ("passes" if s["lowest_wins"] else "reaches")) == "passes"
        return [side for side, total in ScoreSheet.side_totals(s).items()
                if (total > target if passes else total >= target)]

    def reached_target(self, s: State) -> bool:
        return bool(self.past_target(s))

    def tied_at_target(self, s: State) -> list[str]:
        """The players tied for first once the target ended the rounds, waiting for the
        tie-breaker (`finish --winner NAME`); [] otherwise."""
        if s["finished"] or not s["rounds"] or not s.get("tie_break") or not self.reached_target(s):
            return []
        top = self._best(s)
        return top if len(top) > 1 else []

    def on_finish(self, s: State, event: dict, data: dict) -> None:
        if s.get("entered"):
            raise RuleError(_("{entering}: enter the others' first, or `undo` the entries.").format(
                entering=self._half_entered(s)))
        named = event.get("winners") or []
        if s.get("coop"):
            won = event.get("won")
            if not isinstance(won, bool):
                raise RuleError(_("A co-operative game ends won or lost together: `finish --won` or `finish --lost`."))
            s["won"] = won
            self._finish(s, list(s["players_order"]) if won else [])
            return
        if "won" in event:
            raise RuleError(_("--won and --lost are for a co-operative game (`new scoresheet --coop`)."))
        if s.get("no_points"):
            if not named:
                raise RuleError(_("This game has no points: name the winners, e.g. `finish --winner Ann`."))
            self._finish(s, self._whole_teams(s, named))
            return
        if not s["rounds"]:
            raise RuleError(_("No round is recorded yet: record one with `add NAME=POINTS ...` first."))
        top = self._best(s)
        if named:
            chosen = self._whole_teams(s, named)
            if not set(chosen) <= set(top) or len(top) < 2:
                shown = _(" and ").join(top)
                raise RuleError(_("--winner settles a tie for first, and the best total is {names}'s: type `finish` "
                                  "alone.").format(names=shown) if len(top) < 2 else
                                _("--winner settles the tie between {names}: name one of them.").format(names=shown))
            s["tie_settled"] = s.get("tie_break") or "the rules"
            self._finish(s, chosen)
            return
        if len(top) > 1 and s.get("tie_break"):
            raise RuleError(_("{names} tie: the rules settle it by {rule}. Type `finish --winner {first}` (or whoever "
                              "won it).").format(names=_(" and ").join(top), rule=s["tie_break"], first=top[0]))
        self._finish(s, top)

    def _whole_teams(self, s: State, named: list) -> list[str]:
        """The winners named, as seated, with their whole teams."""
        chosen = []
        for name in named:
            p = player_name(s["players_order"], str(name))
            for q in self._team_of(s, p):
                if q not in chosen:
                    chosen.append(q)
        return [p for p in s["players_order"] if p in chosen]

    @staticmethod
    def _team_of(s: State, player: str) -> list[str]:
        for team in s.get("teams") or []:
            if player in team:
                return list(team)
        return [player]

    @staticmethod
    def side_totals(s: State) -> dict[str, int | float]:
        """Each side's total: a player's, or a team's (its members' points added up), keyed
        by the team's members joined with "+"."""
        teams = s.get("teams")
        if not teams:
            return dict(s["totals"])
        return {"+".join(t): tidy(sum(s["totals"][p] for p in t)) for t in teams}

    def _best(self, s: State) -> list[str]:
        """The players on the side (or sides) with the best total, in seat order."""
        sides = best(self.side_totals(s), s["lowest_wins"])
        if not s.get("teams"):
            return sides
        members = {p for side in sides for p in side.split("+")}
        return [p for p in s["players_order"] if p in members]

    def _finish(self, s: State, winners: list[str]) -> None:
        s["finished"] = True
        s["winners"] = winners

    def result(self, s: State) -> dict | None:
        return {"winners": list(s["winners"])} if s["finished"] else None

    def turn(self, s: State) -> list[str]:
        """Nobody in particular: a round is typed for everyone at once, or entered by each."""
        return []

    def view(self, s: State, player: str | None) -> State:
        """A round being entered: each player sees their own entry, nobody another's (the table
        sees who has entered, not what)."""
        entered = s.get("entered") or {}
        if not entered:
            return s
        out = dict(s)
        out["entered"] = {p: (v if p == player else None) for p, v in entered.items()}
        return out

    def summary(self, s: State) -> dict:
        out = self.totals_summary(s)
        for player in out["players"]:
            name = player["name"]
            player["rounds"] = [r[name] for r in s["rounds"]]
        return out

    def totals_summary(self, s: State) -> dict:
        """The summary without each player's points round by round: what the line after a
        round says, without walking every round of a long sheet (issue 30)."""
        out = {
            "players": [
                {"name": p, "score": None if s.get("no_points") else s["totals"][p]}
                for p in s["players_order"]
            ],
            "round": len(s["rounds"]),
            "finished": s["finished"],
            "winners": list(s["winners"]),
            "lowest_wins": s["lowest_wins"],
            "target": s["target"],
            "scorekeeper": s.get("scorekeeper"),
            "entered": self._entering(s),  # who has entered their points for the round being entered
        }
        # issue 23: only what a sheet uses, so the keys of a plain sheet stay as they were
        if s.get("teams"):
            out["teams"] = [list(t) for t in s["teams"]]
            out["team_scores"] = list(self.side_totals(s).values())
        if s.get("coop"):
            out["coop"] = True
            out["won"] = s.get("won")
        if s.get("no_points"):
            out["no_points"] = True
        if s.get("tie_break"):
            out["tie_rule"] = s["tie_break"]
        if s.get("tie_settled"):
            out["tie_break"] = s["tie_settled"]
        if s["target"] is not None and not s.get("coop") and not s.get("no_points"):
            out["target_rule"] = s.get("target_rule") or ("passes" if s["lowest_wins"] else "reaches")
        tied = self.tied_at_target(s)
        if tied:
            out["tied"] = tied  # the target was reached on a tie: `finish --winner NAME` settles it
            out["target_reached_by"] = self.past_target(s)  # who reached it (not always the tied)
            out["waits_for_tie"] = bool(s.get("waits_for_tie"))  # no round is taken meanwhile
        return out

    def describe(self, event: dict) -> str:
        if event.get("type") == "add":
            parts = ", ".join(f"{p} {'-' if pts < 0 else '+'}{number(abs(pts))}" if isinstance(pts, (int, float))
                              else f"{p} {pts}" for p, pts in (event.get("scores") or {}).items())
            return _("round scored: {scores}").format(scores=parts)
        if event.get("type") == "score":
            return _("{name} entered their points").format(name=event.get("player"))
        if event.get("type") == "finish":
            if "won" in event:
                return _("game finished: won together") if event["won"] else _("game finished: lost together")
            if event.get("winners"):
                return _("game finished: won by {names}").format(names=", ".join(map(str, event["winners"])))
            return _("game finished")
        return super().describe(event)

    def played_winners(self, scores: dict, options: dict) -> list[str] | None:
        """A play logged from its final scores: the best total wins, all of them on a tie,
        unless the title has a tie-breaker (then `--winner` says who won it)."""
        top = best(scores, bool(options.get("lowest_wins")))
        if len(top) > 1 and options.get("tie_break"):
            return None
        return top
