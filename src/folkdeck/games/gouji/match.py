"""A Gou Ji match: deals in a row with tribute, kai pai and the start carried over.

After a deal, the next one takes its places (tribute, and 点贡 with
``modern_dian_gong``; the Da La names the first drawer — itself by default — and
leads), unless it was a sweep (top three one team: a special deal, the opposites
exchange) or a revolution (a special deal; tribute from the last completed places,
``tribute_after_revolution``). Special deals move kai pai to the next seat (seed).
The match ends after ``deals`` completed deals or when a team reaches
``target_score`` (notes §2.1 "Match end", G10).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from folkdeck.engine.protocol import State
from folkdeck.games.gouji.deal import is_sweep

if TYPE_CHECKING:
    from folkdeck.games.gouji.game import GouJiGame


class GouJiMatch:
    """Several Gou Ji deals; ``points`` are team totals replicated per seat."""

    def __init__(self, game: GouJiGame, *, deals: int, rng: random.Random) -> None:
        self._game = game
        self._deals = deals
        self._rng = rng
        self._played = 0
        self._places: list[int] | None = None
        self._kai = 0
        self._special = True
        self._revolution = False
        self._dian_gong: list[int] = []
        self.points = [0.0] * 6
        self.placings: list[tuple[int | None, ...]] = []

    @property
    def game(self) -> GouJiGame:
        return self._game

    def setup(self) -> dict[str, Any]:
        """The ``setup`` of the next deal."""
        out: dict[str, Any] = {"special": self._special, "kai_pai": self._kai}
        if self._places is not None:
            out["places"] = list(self._places)
        if self._revolution:
            out["revolution_redeal"] = True
        if self._dian_gong:
            out["dian_gong"] = list(self._dian_gong)
        return out

    def next_deal(self) -> Any:
        return self._game.new_state(rng=self._rng, setup=self.setup())

    def finish_deal(self, state: State) -> list[str]:
        result = state.result()
        if result is None:
            raise ValueError("finish_deal needs a finished deal")
        kai = state.deal_info()["setup"]["kai_pai"]
        if result.reason == "revolution":
            self._revolution = True
            self._special = True
            self._kai = (kai + 1) % 6
            return [f"Revolution by seat {result.details['declarer']}: the cards are dealt again; "
                    f"seat {self._kai} is kai pai"]
        self._played += 1
        self._revolution = False
        self.placings.append(result.placings)
        places = [p or 0 for p in result.placings]
        for s, r in enumerate(result.returns):
            self.points[s] += r
        self._places = places
        self._dian_gong = list(result.details.get("dian_gong", []))
        sweep = is_sweep(places)
        self._special = sweep
        self._kai = (kai + 1) % 6 if sweep else kai
        da_la = places.index(6)
        lines = ["Places: " + ", ".join(f"{p}: seat {places.index(p)}" for p in range(1, 7)),
                 f"Team 0-2-4: {result.returns[0]:+g}, team 1-3-5: {result.returns[1]:+g}"]
        lines.append("A sweep: the opposites exchange and the next deal is special" if sweep else
                     f"Seat {da_la} (Da La) names the first drawer and leads the next deal")
        return lines

    def is_over(self) -> bool:
        target = self._game.options.target_score
        return self._played >= self._deals or (target > 0 and max(self.points) >= target)

    def standings(self) -> list[str]:
        return [f"Deals played: {self._played} of {self._deals}",
                f"team 0-2-4: {self.points[0]:g} points", f"team 1-3-5: {self.points[1]:g} points"]
