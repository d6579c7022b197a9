"""Several deals of Cangkul or Burro (docs/rules/cangkul.md §1.2, §4.3).

The deal passes to the next seat after each deal: "to the left" in clockwise Cangkul
and "to the right" in counter-clockwise Burro are both ``dealer + 1`` in seat order
(docs/rules/cangkul.md §1.2), and the dealer's next seat leads. The first dealer ("anyone") is the
last seat, so seat 0 leads the first deal.

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
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from folkdeck.engine.errors import InvalidDealError, WrongPhaseError
from folkdeck.engine.facts import Fact, MatchEnded, NextDeal
from folkdeck.engine.protocol import Standings, State
from folkdeck.games.cangkul.events import MatchLost, Penalty, PointsScored
from folkdeck.games.cangkul.state import CangkulState

if TYPE_CHECKING:
    from folkdeck.games.cangkul.game import CangkulGame

DEFAULT_DEALS: Final = 5


class CangkulMatch:
    """Deals in a row with the dealer rotating and points or penalties carried over."""

    def __init__(self, game: CangkulGame, *, deals: int | None, rng: random.Random) -> None:
        self._game = game
        self._n = game.num_players
        self._penalty_limit = game.rules.penalty_limit
        self._deals = deals if deals is not None else (None if self._penalty_limit else DEFAULT_DEALS)
        self._rng = rng
        self._played = 0
        self.dealer = self._n - 1
        self.scores = [0.0] * self._n
        self.penalties = [0] * self._n

    @property
    def game(self) -> CangkulGame:
        return self._game

    def next_deal(self, *, deal: Mapping[str, Any] | None = None) -> CangkulState:
        """The next deal, dealt by :attr:`dealer` (its next seat leads). ``deal``: a record's
        ``setup``/``seed``/``deck``/``hands``/``stock``; its ``setup`` must name this dealer
        (``knock_seed``, a chance, is taken from it).

        :raises InvalidDealError: ``setup_mismatch`` naming ``setup.<key>``, or a bad deal.
        """
        setup: dict[str, Any] = {"dealer": self.dealer}
        if deal is None:
            return self._game.new_state(rng=self._rng, setup=setup)
        stated = deal.get("setup") or {}
        if not isinstance(stated, Mapping):
            raise InvalidDealError("not_object", field="setup")
        for key in ("dealer", "leader"):
            found = stated.get(key)
            expected = setup.get(key)
            if found != expected or isinstance(found, bool):
                raise InvalidDealError("setup_mismatch", field=f"setup.{key}", key=key,
                                       expected=expected, found=_plain(found))
        setup.update((k, v) for k, v in stated.items() if k not in ("dealer", "leader"))
        sources = {k: deal[k] for k in ("seed", "deck", "hands", "stock") if deal.get(k) is not None}
        if not sources:
            return self._game.new_state(rng=self._rng, setup=setup)
        return self._game.new_state(setup=setup, **sources)

    def finish_deal(self, state: State) -> tuple[Fact, ...]:
        """Add the deal's points (Cangkul) or the burro's penalty; pass the deal on."""
        result = state.result()
        if result is None:
            raise WrongPhaseError("cangkul.deal_not_over", phase=state.phase)
        self._played += 1
        facts: list[Fact] = []
        for s, r in enumerate(result.returns):
            self.scores[s] += r
        if self._penalty_limit is not None:
            losers = [int(result.details["loser"])] if "loser" in result.details else \
                [int(s) for s in result.details.get("losers", ())]
            for loser in losers:
                self.penalties[loser] += 1
                facts.append(Penalty(seat=loser, total=self.penalties[loser], limit=self._penalty_limit))
        else:
            facts.extend(PointsScored(seat=s, delta=r, total=self.scores[s])
                         for s, r in enumerate(result.returns) if r)
        self.dealer = (self.dealer + 1) % self._n
        if not self.is_over():
            facts.append(NextDeal(dealer=self.dealer, leader=(self.dealer + 1) % self._n))
            return tuple(facts)
        standings = self.standings()
        if self._penalty_limit is not None:
            facts.extend(MatchLost(seat=s) for s in range(self._n) if self.penalties[s] >= self._penalty_limit)
        best = standings.scores[standings.ranking[0]]
        winners = tuple(s for s in range(self._n) if standings.scores[s] == best)
        reason = "penalty_limit" if self._limit_reached() else "deals"
        facts.append(MatchEnded(reason=reason, winners=winners))
        return tuple(facts)

    def report(self) -> tuple[Fact, ...]:
        """Nothing happens between deals but the dealer's turn (told by ``finish_deal``)."""
        return ()

    def _limit_reached(self) -> bool:
        return self._penalty_limit is not None and max(self.penalties) >= self._penalty_limit

    def is_over(self) -> bool:
        if self._limit_reached():
            return True
        return self._deals is not None and self._played >= self._deals

    def standings(self) -> Standings:
        """Points (Cangkul, higher wins) or penalties (a Burro, fewer win); ``carry``: the
        next deal's dealer and leader."""
        carry = {"dealer": self.dealer, "leader": (self.dealer + 1) % self._n}
        if self._penalty_limit is not None:
            return Standings(deals_played=self._played, deals_limit=self._deals, over=self.is_over(),
                             unit="penalties", scores=tuple(float(p) for p in self.penalties),
                             higher_wins=False, carry=carry)
        return Standings(deals_played=self._played, deals_limit=self._deals, over=self.is_over(),
                         unit="points", scores=tuple(self.scores), carry=carry)


def _plain(value: Any) -> Any:
    return value if value is None or isinstance(value, bool | int | float | str) else str(value)


__all__ = ["DEFAULT_DEALS", "CangkulMatch"]
