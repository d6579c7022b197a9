"""A Kap Hai match: deals in a row, the winner leading the next (seed §Ⅲ①※, §Ⅴ①).

The first deal and the deal after a putuh are 3-games; otherwise the previous deal's
1st place leads. Points follow ``placement_points`` (a putuh deal: the declarer
takes 1st-place points, everyone else 2nd-place points, notes §1.5).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from folkdeck.engine.protocol import State

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

    def next_deal(self) -> Any:
        setup = {"three_game": self._three_game, "leader": self._leader}
        return self._game.new_state(rng=self._rng, setup=setup)

    def finish_deal(self, state: State) -> list[str]:
        result = state.result()
        if result is None:
            raise ValueError("finish_deal needs a finished deal")
        self._played += 1
        self.placings.append(result.placings)
        for s, r in enumerate(result.returns):
            self.points[s] += r
        if result.reason == "putuh":
            self._three_game = True
            lines = [f"Putuh! seat {', '.join(map(str, result.details['winners']))} wins the deal; "
                     "the next deal is a 3-game"]
        else:
            self._three_game = False
            self._leader = result.placings.index(1)
            lines = [f"Seat {self._leader} came 1st and leads the next deal"]
        order = sorted(range(len(result.placings)),
                       key=lambda s: (result.placings[s] is None, result.placings[s] or 0))
        lines.append("Places: " + ", ".join(
            f"seat {s}: {result.placings[s] if result.placings[s] is not None else '-'}" for s in order))
        return lines

    def is_over(self) -> bool:
        return self._played >= self._deals

    def standings(self) -> list[str]:
        rows = sorted(range(len(self.points)), key=lambda s: -self.points[s])
        return [f"Deals played: {self._played} of {self._deals}"] + [
            f"seat {s}: {self.points[s]:g} points" for s in rows]
