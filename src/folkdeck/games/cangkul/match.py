"""Several deals of Cangkul or Burro (docs/rules/cangkul.md §1.2, §4.3).

The deal passes to the next seat after each deal: "to the left" in clockwise Cangkul
and "to the right" in counter-clockwise Burro are both ``dealer + 1`` in seat order
(docs/rules/cangkul.md §1.2), and the dealer's next seat leads. The first dealer is chosen
freely (「最初のディーラーは任意に決めます」): ``new_match(first_dealer=k)``, or a match record's
first deal names it; left unchosen it is the last seat, so that seat 0 leads the first deal.

- Cangkul: each deal's returns are added up (points); the match lasts ``deals``
  deals (default 5).
- Burro: the last holder takes a penalty; the match ends when a player's penalties
  reach ``penalty_limit`` (or after ``deals`` deals, if given).

>>> from folkdeck import load
>>> from folkdeck.engine.conformance import random_playout
>>> import random
>>> match = load("burro_es", players=3, penalty_limit=2).new_match(rng=random.Random(1))
>>> while not match.is_over():
...     deal = match.next_deal()
...     _ = random_playout(deal, random.Random(2))
...     _ = match.finish_deal(deal)
>>> standings = match.standings()
>>> max(standings.scores), standings.unit, standings.higher_wins
(2.0, 'penalties', False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final, Protocol

from folkdeck.engine.facts import Fact, NextDeal
from folkdeck.engine.match_base import CarryOver, DealingGame, DealSetup, MatchBase
from folkdeck.engine.protocol import Result, State
from folkdeck.games.cangkul.events import MatchLost, Penalty, PointsScored
from folkdeck.games.cangkul.rules import Ruleset
from folkdeck.games.cangkul.state import CangkulState

DEFAULT_DEALS: Final = 5


class CangkulRules(DealingGame[CangkulState], Protocol):
    """What the match needs of the game: its deals and its ruleset (the penalty limit)."""

    @property
    def rules(self) -> Ruleset: ...


class CangkulCarry(CarryOver):
    """What passes from deal to deal: the dealer, and a Burro's penalties."""

    not_over_reason = "cangkul.deal_not_over"

    def __init__(self, players: int, penalty_limit: int | None, dealer: int | None) -> None:
        self.players = players
        self.penalty_limit = penalty_limit
        self.dealer = players - 1 if dealer is None else dealer
        self.choosing = dealer is None
        """Whether the first dealer is still to be chosen: a record's first deal names it."""
        self.penalties = [0] * players
        if penalty_limit is not None:
            self.unit = "penalties"
            self.higher_wins = False

    def next_setup(self) -> DealSetup:
        """A record's ``setup`` must name this dealer and no leader (the dealer's next seat
        leads); ``knock_seed``, a chance, is taken from it. The first deal's dealer is free
        unless the match was started with one (it is the last seat if the record names none)."""
        if self.choosing:
            return DealSetup(given={"dealer": self.dealer}, checked={"leader": None},
                             if_omitted={"leader": None})
        return DealSetup(given={"dealer": self.dealer}, checked={"dealer": self.dealer, "leader": None},
                         if_omitted={"dealer": None, "leader": None})

    def record_dealt(self, state: State, stated: Mapping[str, object]) -> None:
        """A record's first deal names the first dealer: the deal passes on from it."""
        if self.choosing:
            dealer = state.deal_info()["setup"]["dealer"]
            assert isinstance(dealer, int), "a Cangkul deal's setup names its dealer"
            self.dealer = dealer

    def carried(self) -> dict[str, object]:
        """The next deal's dealer and leader."""
        return {"dealer": self.dealer, "leader": (self.dealer + 1) % self.players}

    def score_facts(self, result: Result, totals: Sequence[float]) -> list[Fact]:
        """The burro's penalty (a Burro), or every seat's points that changed (Cangkul)."""
        if self.penalty_limit is None:
            return [PointsScored(seat=s, delta=r, total=totals[s]) for s, r in enumerate(result.returns) if r]
        losers = [int(result.details["loser"])] if "loser" in result.details else \
            [int(s) for s in result.details.get("losers", ())]
        facts: list[Fact] = []
        for loser in losers:
            self.penalties[loser] += 1
            facts.append(Penalty(seat=loser, total=self.penalties[loser], limit=self.penalty_limit))
        return facts

    def after_deal(self, state: State, result: Result, *, last: bool) -> list[Fact]:
        """The deal passes to the next seat, whose next seat leads."""
        self.choosing = False
        self.dealer = (self.dealer + 1) % self.players
        return [] if last else [NextDeal(dealer=self.dealer, leader=(self.dealer + 1) % self.players)]

    def own_end(self, totals: Sequence[float]) -> str | None:
        """A Burro ends when a player's penalties reach the limit."""
        limit = self.penalty_limit
        return "penalty_limit" if limit is not None and max(self.penalties) >= limit else None

    def end_facts(self) -> list[Fact]:
        """Every Burro player who reached the penalty limit lost."""
        limit = self.penalty_limit
        if limit is None:
            return []
        return [MatchLost(seat=s) for s in range(self.players) if self.penalties[s] >= limit]

    def scores(self, totals: Sequence[float]) -> tuple[float, ...]:
        """Points (Cangkul, higher wins) or penalties (a Burro, fewer win)."""
        if self.penalty_limit is None:
            return tuple(totals)
        return tuple(float(p) for p in self.penalties)


class CangkulMatch(MatchBase[CangkulState]):
    """Deals in a row with the dealer rotating and points or penalties carried over."""

    def __init__(self, game: CangkulRules, *, deals: int | None, rng: random.Random,
                 first_dealer: int | None = None) -> None:
        limit = game.rules.penalty_limit
        self._cangkul = CangkulCarry(game.num_players, limit, first_dealer)
        if deals is None and limit is None:
            deals = DEFAULT_DEALS
        super().__init__(game, self._cangkul, deals=deals, rng=rng)

    @property
    def dealer(self) -> int:
        """The next deal's dealer."""
        return self._cangkul.dealer

    @property
    def scores(self) -> list[float]:
        """Every seat's points (Cangkul)."""
        return self.totals

    @property
    def penalties(self) -> list[int]:
        """Every seat's penalties (a Burro)."""
        return self._cangkul.penalties


__all__ = ["DEFAULT_DEALS", "CangkulCarry", "CangkulMatch"]
