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
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from folkdeck.engine.errors import InvalidDealError, WrongPhaseError
from folkdeck.engine.facts import Fact, MatchEnded, NextDeal, ScoreChanged
from folkdeck.engine.protocol import Standings, State
from folkdeck.games.kaphai.events import NextThreeGame
from folkdeck.games.kaphai.state import KapHaiState

if TYPE_CHECKING:
    from folkdeck.games.kaphai.game import KapHaiGame


class KapHaiMatch:
    """Several Kap Hai deals with the lead and the 3-game carried over."""

    def __init__(self, game: KapHaiGame, *, deals: int, rng: random.Random) -> None:
        self._game = game
        self._deals = deals
        self._rng = rng
        self._played = 0
        self._three_game = True
        self._leader = 0
        self.points = [0.0] * game.num_players
        self.placings: list[tuple[int | None, ...]] = []

    @property
    def game(self) -> KapHaiGame:
        return self._game

    def next_deal(self, *, deal: Mapping[str, Any] | None = None) -> KapHaiState:
        """The next deal: a 3-game (the first, or after a putuh) or led by the last 1st place.

        ``deal``: a record's ``setup`` and cards (``hands``, ``deck`` or ``seed``). Its
        ``three_game`` must be the match's, and so must ``leader`` outside a 3-game (in a
        3-game the 3♠ decides the lead, so the record's value is taken as it is).

        :raises InvalidDealError: ``setup_mismatch`` naming ``setup.<key>``, or a bad deal.
        """
        setup: dict[str, Any] = {"three_game": self._three_game, "leader": self._leader}
        if deal is None:
            return self._game.new_state(rng=self._rng, setup=setup)
        stated = deal.get("setup") or {}
        if not isinstance(stated, Mapping):
            raise InvalidDealError("not_object", field="setup")
        for key in ("three_game",) if self._three_game else ("three_game", "leader"):
            if key in stated and stated[key] != setup[key]:
                raise InvalidDealError("setup_mismatch", field=f"setup.{key}", key=key,
                                       expected=setup[key], found=stated[key])
        setup = {**setup, **stated}
        return self._game.new_state(setup=setup, seed=deal.get("seed"), deck=deal.get("deck"),
                                    hands=deal.get("hands"), stock=deal.get("stock"))

    def finish_deal(self, state: State) -> tuple[Fact, ...]:
        """Score a finished deal: every seat's points, then who starts the next deal (the
        1st place leads; after a putuh, a 3-game), and the match's end after the last.

        :raises WrongPhaseError: for a deal that is not over.
        """
        result = state.result()
        if result is None:
            raise WrongPhaseError("kaphai.deal_not_over", phase=str(state.phase))
        self._played += 1
        self.placings.append(result.placings)
        facts: list[Fact] = []
        for s, r in enumerate(result.returns):
            self.points[s] += r
            facts.append(ScoreChanged(seat=s, delta=r, total=self.points[s]))
        if result.reason == "putuh":
            self._three_game = True
            facts.append(NextThreeGame())
        else:
            self._three_game = False
            self._leader = result.placings.index(1)
            facts.append(NextDeal(leader=self._leader))
        if self.is_over():
            best = max(self.points)
            facts.append(MatchEnded(reason="deals", winners=tuple(
                s for s, p in enumerate(self.points) if p == best)))
        return tuple(facts)

    def report(self) -> tuple[Fact, ...]:
        """Nothing happens between Kap Hai deals but the deal itself."""
        return ()

    def is_over(self) -> bool:
        return self._played >= self._deals

    def standings(self) -> Standings:
        """Points so far; ``carry``: whether the next deal is a 3-game, and its leader."""
        return Standings(deals_played=self._played, deals_limit=self._deals, over=self.is_over(),
                         unit="points", scores=tuple(self.points),
                         carry={"three_game": self._three_game, "leader": self._leader})


__all__ = ["KapHaiMatch"]
