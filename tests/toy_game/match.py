"""A toy match: deals in a row, the last deal's winner leading the next.

:class:`~folkdeck.engine.match_base.MatchBase` does the rest (dealing, counting,
scoring the tricks as points, the end and its winners); the game says only what carries
over.
"""

from __future__ import annotations

from folkdeck.engine.facts import Fact, NextDeal
from folkdeck.engine.match_base import CarryOver, DealSetup
from folkdeck.engine.protocol import Result, State


class ToyCarry(CarryOver):
    """What passes from deal to deal: who leads."""

    def __init__(self) -> None:
        self.leader = 0

    def next_setup(self) -> DealSetup:
        given = {"leader": self.leader}
        return DealSetup(given=given, checked=given)

    def after_deal(self, state: State, result: Result, *, last: bool) -> list[Fact]:
        self.leader = result.placings.index(1)
        return [NextDeal(leader=self.leader)]
