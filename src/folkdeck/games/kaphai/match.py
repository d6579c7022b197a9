"""A Kap Hai match: deals in a row, the winner leading the next (docs/rules/kaphai.md §2.2, §2.1, §5).

The first deal and the deal after a putuh are 3-games; otherwise the previous deal's
1st place leads. Points follow ``placement_points`` (a putuh deal: the declarer
takes 1st-place points, everyone else 2nd-place points, docs/rules/kaphai.md §8.14).

>>> import random
>>> from folkdeck import load
>>> from folkdeck.engine.conformance import random_playout
>>> match = load("kaphai").new_match(deals=2, rng=random.Random(4))
>>> state = match.next_deal()
>>> _ = random_playout(state, random.Random(1))
>>> [f.type for f in match.finish_deal(state)][-1]
'next_deal'
>>> match.standings().carry["three_game"]
False
"""

from __future__ import annotations

import random

from folkdeck.engine.facts import Fact, NextDeal
from folkdeck.engine.match_base import CarryOver, DealingGame, DealSetup, MatchBase
from folkdeck.engine.protocol import Result, State
from folkdeck.games.kaphai.events import NextThreeGame
from folkdeck.games.kaphai.state import KapHaiState


class KapHaiCarry(CarryOver):
    """What passes from one Kap Hai deal to the next: a 3-game, or the 1st place's lead."""

    not_over_reason = "kaphai.deal_not_over"

    def __init__(self) -> None:
        self.three_game = True
        self.leader = 0

    def next_setup(self) -> DealSetup:
        """A record's ``three_game`` must be the match's, and so must its ``leader`` outside
        a 3-game (in a 3-game the 3♠ decides the lead: the record's value is taken)."""
        given: dict[str, object] = {"three_game": self.three_game, "leader": self.leader}
        checked = {"three_game": True} if self.three_game else given
        return DealSetup(given=given, checked=checked)

    def after_deal(self, state: State, result: Result, *, last: bool) -> list[Fact]:
        """The 1st place leads the next deal; after a putuh, a 3-game."""
        if result.reason == "putuh":
            self.three_game = True
            return [NextThreeGame()]
        self.three_game = False
        self.leader = result.placings.index(1)
        return [NextDeal(leader=self.leader)]


class KapHaiMatch(MatchBase[KapHaiState]):
    """Several Kap Hai deals with the lead and the 3-game carried over."""

    def __init__(self, game: DealingGame[KapHaiState], *, deals: int, rng: random.Random) -> None:
        super().__init__(game, KapHaiCarry(), deals=deals, rng=rng)
        self.placings: list[tuple[int | None, ...]] = []

    @property
    def points(self) -> list[float]:
        """Every seat's points so far."""
        return self.totals

    def finish_deal(self, state: State) -> tuple[Fact, ...]:
        """Score a finished deal: every seat's points, then who starts the next deal (the
        1st place leads; after a putuh, a 3-game), and the match's end after the last.

        :raises WrongPhaseError: for a deal that is not over.
        """
        facts = super().finish_deal(state)
        result = state.result()
        assert result is not None  # the base refused an unfinished deal
        self.placings.append(result.placings)
        return facts


__all__ = ["KapHaiCarry", "KapHaiMatch"]
