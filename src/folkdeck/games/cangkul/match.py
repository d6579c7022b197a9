"""Several deals of Cangkul or Burro (seed 003 §ディール, §ゲーム; notes §4).

The deal passes to the next seat after each deal: "to the left" in clockwise Cangkul
and "to the right" in counter-clockwise Burro are both ``dealer + 1`` in seat order
(notes §0.3), and the dealer's next seat leads. The first dealer ("anyone") is the
last seat, so seat 0 leads the first deal.

- Cangkul: each deal's returns are added up (``score``); the match lasts ``deals``
  deals (default 5).
- Burro: the last holder takes a penalty point; the match ends when a player's
  penalties reach ``penalty_limit`` (or after ``deals`` deals, if given).

>>> from folkdeck import load
>>> from folkdeck.sim.runner import random_playout
>>> import random
>>> match = load("burro_es", players=3, penalty_limit=2).new_match(rng=random.Random(1))
>>> while not match.is_over():
...     deal = match.next_deal()
...     _ = random_playout(deal, random.Random(2))
...     _ = match.finish_deal(deal)
>>> max(match.penalties)
2
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from folkdeck.engine.protocol import State

if TYPE_CHECKING:
    from folkdeck.games.cangkul.game import CangkulGame

DEFAULT_DEALS = 5


class CangkulMatch:
    """Deals in a row with the dealer rotating and scores or penalties carried over."""

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

    def next_deal(self) -> Any:
        return self._game.new_state(rng=self._rng, setup={"dealer": self.dealer})

    def finish_deal(self, state: State) -> list[str]:
        result = state.result()
        if result is None:
            raise ValueError("finish_deal needs a finished deal")
        self._played += 1
        for s, r in enumerate(result.returns):
            self.scores[s] += r
        lines = []
        if self._penalty_limit is not None:
            loser = int(result.details["loser"])
            self.penalties[loser] += 1
            lines.append(f"Seat {loser} is the burro (donkey): penalty {self.penalties[loser]} "
                         f"of {self._penalty_limit}")
        elif result.reason == "stalemate":
            most = "winners" not in result.details
            seats = list(result.details["losers" if most else "winners"])
            who = ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))
            lines.append(f"Stalemate after {result.details['stall_tricks']} tricks without progress: "
                         f"{who} held the {'most' if most else 'fewest'} cards")
        elif "winner" in result.details:
            lines.append(f"Seat {result.details['winner']} emptied the hand and wins the deal")
        else:
            lines.append(f"Seat {result.details['loser']} was the last holding cards and loses")
        self.dealer = (self.dealer + 1) % self._n
        if not self.is_over():
            lines.append(f"Seat {self.dealer} deals next; seat {(self.dealer + 1) % self._n} leads")
        return lines

    def is_over(self) -> bool:
        if self._penalty_limit is not None and max(self.penalties) >= self._penalty_limit:
            return True
        return self._deals is not None and self._played >= self._deals

    def standings(self) -> list[str]:
        if self._penalty_limit is not None:
            head = [f"Deals played: {self._played}; the match ends at {self._penalty_limit} penalties"]
            rows = sorted(range(self._n), key=lambda s: self.penalties[s])
            lines = head + [f"seat {s}: {self.penalties[s]} penalties" for s in rows]
            if max(self.penalties) >= self._penalty_limit:
                lines.append(f"Seat {self.penalties.index(max(self.penalties))} loses the match")
            return lines
        rows = sorted(range(self._n), key=lambda s: -self.scores[s])
        return [f"Deals played: {self._played} of {self._deals}"] + [
            f"seat {s}: {self.scores[s]:g} points" for s in rows]
