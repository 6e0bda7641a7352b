"""The rules of Tricks (example): a trick-taking game's score pad, whose bids are secret.

Round N deals N cards to each player (the cards stay at the table: the companion never sees
them). Every player bids how many tricks they will take, secretly: each bid is typed on the
owner's private screen or tapped on their phone, and nobody else sees it until everyone has
bid. Then the bids are public, the round is played at the table, and each player's tricks are
recorded (`tricks Ann 1`). A player who took exactly what they bid scores the pack's
``exact_bonus`` plus ``per_trick`` per trick; a missed bid scores 0. After the pack's
``rounds`` the highest total wins.

The secret is kept in one place, :meth:`Tricks.view`: while the round's bids are coming in, a
viewer's state holds that viewer's own bid only (and who has bid, which everyone sees). Every
screen, page, `status --json`, the log and the line after a move are made from that view by the
companion (companion.contract.exit); the log's rule, when a bid is public, is the bid
parameter's ``private`` rule in moves.py.
"""

from __future__ import annotations

from companion.contract.api import Game, Setup, State, best
from companion.contract.errors import RuleError
from tricks_companion.text import N_, _, ngettext


class Tricks(Game):
    id = "tricks"
    title = N_("Tricks (example)")
    description = N_("A trick-taking game's pad: secret bids, public once everyone has bid (the third example).")
    min_players = 2
    max_players = 6
    moves = "tricks_companion.moves"
    views = "tricks_companion.views"
    pack_file = "tricks_companion:tricks.json"

    def initial(self, setup: Setup, data: dict) -> State:
        return {"players": list(setup.players), "round": 1,
                "rounds": self.need(data, self.id, "rounds", _("how many rounds a game has"), "3"),
                "bonus": self.need(data, self.id, "exact_bonus", _("the points for a bid made exactly"), "10"),
                "per_trick": self.need(data, self.id, "per_trick", _("the points per trick of a bid made"), "1"),
                "bids": {}, "taken": {}, "scores": {p: 0 for p in setup.players}, "history": [], "over": False}

    @staticmethod
    def bidding(s: State) -> bool:
        """The round's bids are still coming in (so they are secret)."""
        return not s["over"] and len(s["bids"]) < len(s["players"])

    def on_bid(self, s: State, event: dict, data: dict) -> None:
        player, bid = event["player"], event["bid"]
        if event.get("round") != s["round"]:
            raise RuleError(_("That bid is for round {bid_round}, but this is round {round}.").format(
                bid_round=event.get("round"), round=s["round"]))
        if player in s["bids"]:
            raise RuleError(_("{name} has bid already this round: `undo` takes a bid back.").format(name=player))
        if not isinstance(bid, int) or isinstance(bid, bool) or not 0 <= bid <= s["round"]:
            raise RuleError(_("A bid in round {round} is a whole number from 0 to {round}.").format(round=s["round"]))
        s["bids"][player] = bid

    def on_tricks(self, s: State, event: dict, data: dict) -> None:
        player, taken = event["player"], event["tricks"]
        if self.bidding(s):
            raise RuleError(_("The bids are not all in: tricks are recorded once everyone has bid."))
        if player in s["taken"]:
            raise RuleError(_("{name}'s tricks are in already: `undo` takes them back.").format(name=player))
        if not isinstance(taken, int) or isinstance(taken, bool) or not 0 <= taken <= s["round"]:
            raise RuleError(ngettext("Round {round} has {round} trick: give a number from 0 to {round}.",
                                     "Round {round} has {round} tricks: give a number from 0 to {round}.",
                                     s["round"]).format(round=s["round"]))
        s["taken"][player] = taken
        if len(s["taken"]) < len(s["players"]):
            return
        if sum(s["taken"].values()) != s["round"]:
            raise RuleError(_("The tricks add up to {sum}, but round {round} has {round}: check them (`undo` takes "
                              "one back).").format(sum=sum(s["taken"].values()), round=s["round"]))
        points = {p: (s["bonus"] + s["per_trick"] * s["taken"][p]) if s["taken"][p] == s["bids"][p] else 0
                  for p in s["players"]}
        for p, n in points.items():
            s["scores"][p] += n
        s["history"].append({"round": s["round"], "bids": dict(s["bids"]), "taken": dict(s["taken"]),
                             "points": points})
        s["bids"], s["taken"] = {}, {}
        if s["round"] == s["rounds"]:
            s["over"] = True
        else:
            s["round"] += 1

    def view(self, s: State, player: str | None) -> State:
        """While the round's bids are coming in, a viewer sees their own bid only; everyone sees
        who has bid (``bid_in``). Once all are in, every bid is public."""
        out = dict(s, bid_in=[p for p in s["players"] if p in s["bids"]])
        if self.bidding(s):
            out["bids"] = {p: b for p, b in s["bids"].items() if p == player}
        return out

    def turn(self, s: State) -> list[str]:
        if s["over"]:
            return []
        if self.bidding(s):
            return [p for p in s["players"] if p not in s["bids"]]
        return [p for p in s["players"] if p not in s["taken"]]

    def result(self, s: State) -> dict | None:
        return {"winners": best(s["scores"])} if s["over"] else None

    def summary(self, s: State) -> dict:
        """The `status --json` keys. Computed by the companion on a viewer's view, so a bid that
        viewer may not see is None here, whatever this function reads."""
        bid_in = s.get("bid_in", [p for p in s["players"] if p in s["bids"]])
        return {"players": [{"name": p, "score": s["scores"][p], "bid": s["bids"].get(p),
                             "tricks": s["taken"].get(p)} for p in s["players"]],
                "round": s["round"], "rounds": s["rounds"], "bid_in": bid_in,
                "bids_open": len(bid_in) == len(s["players"]) and not s["over"]}

    def describe(self, event: dict) -> str:
        """A bid in words: the companion leaves ``bid`` out of the event while it is secret to
        whoever reads the log, so the words say who bid, and the amount once it is public. (A
        ``describe(event, state)`` is given the reader's view of the state as well.)"""
        if event.get("type") == "bid":
            if "bid" in event:
                return _("{name} bid {bid} in round {round}").format(name=event["player"], bid=event["bid"],
                                                                     round=event.get("round"))
            return _("{name} has bid in round {round} (secret until everyone has bid)").format(
                name=event["player"], round=event.get("round"))
        if event.get("type") == "tricks":
            n = event["tricks"]
            return ngettext("{name} took {n} trick", "{name} took {n} tricks", n).format(name=event["player"], n=n)
        return super().describe(event)
