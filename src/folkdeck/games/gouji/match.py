"""A Gou Ji match: deals in a row with tribute, kai pai and the start carried over.

After a deal, the next one takes its places (tribute, and 点贡 with
``modern_dian_gong``; the Da La names the first drawer — itself by default — and
leads), unless it was a sweep (top three one team: a special deal, the opposites
exchange) or a revolution (a special deal; tribute from the last completed places,
``tribute_after_revolution``). Special deals move kai pai to the next seat (docs/rules/gouji.md §2.2).
The match ends after ``deals`` completed deals or when a team reaches
``target_score`` (docs/rules/gouji.md §8, §11.10). A revolution's deal is no completed
deal: its cards are dealt again and the match goes on.

>>> import random
>>> from folkdeck import load
>>> from folkdeck.engine.conformance import random_playout
>>> match = load("gouji").new_match(deals=1, rng=random.Random(4))
>>> state = match.next_deal()
>>> _ = random_playout(state, random.Random(1))
>>> [f.type for f in match.finish_deal(state)]
['gouji.team_score', 'gouji.team_score', 'gouji.next_deal', 'match_ended']
>>> match.standings().deals_played, match.is_over()
(1, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from folkdeck.engine.errors import InvalidDealError, WrongPhaseError
from folkdeck.engine.facts import Fact, MatchEnded
from folkdeck.engine.protocol import Standings, State
from folkdeck.games.gouji.deal import SEATS, is_sweep
from folkdeck.games.gouji.events import DianGongOwed, NextGouJiDeal, TeamScore
from folkdeck.games.gouji.state import GouJiState

if TYPE_CHECKING:
    from folkdeck.games.gouji.game import GouJiGame

_DEFAULTS: Final[dict[str, Any]] = {"places": None, "revolution_redeal": False, "dian_gong": [],
                             "leader": None}
"""The match's setup keys a record must agree with, and their values when left out.
(``kai_pai`` and ``first_drawer`` of a special deal come from the cards turned: a
record's are taken as they are.)"""


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
        self.points = [0.0] * SEATS
        self.placings: list[tuple[int | None, ...]] = []

    @property
    def game(self) -> GouJiGame:
        return self._game

    def setup(self) -> dict[str, Any]:
        """The ``setup`` of the next deal (what the match carries)."""
        out: dict[str, Any] = {"special": self._special, "kai_pai": self._kai}
        if self._places is not None:
            out["places"] = list(self._places)
        if self._revolution:
            out["revolution_redeal"] = True
        if self._dian_gong:
            out["dian_gong"] = list(self._dian_gong)
        return out

    def next_deal(self, *, deal: Mapping[str, Any] | None = None) -> GouJiState:
        """The next deal, set up from the deals before (:meth:`setup`).

        ``deal``: a record's ``setup`` and cards (``hands``, ``deck`` or ``seed``). Its
        ``special``, ``places``, ``revolution_redeal``, ``dian_gong`` must be the match's,
        and it may fix no ``leader``; ``kai_pai``, ``first_drawer`` and ``name_drawer``
        are taken from the record.

        :raises InvalidDealError: ``setup_mismatch`` naming ``setup.<key>``, or a bad deal.
        """
        setup = self.setup()
        if deal is None:
            return self._game.new_state(rng=self._rng, setup=setup)
        stated = deal.get("setup") or {}
        if not isinstance(stated, Mapping):
            raise InvalidDealError("not_object", field="setup")
        derived = {**_DEFAULTS, **setup}
        for key in ("special", *_DEFAULTS):
            if key not in stated and key not in _DEFAULTS:
                continue
            found = stated.get(key, _DEFAULTS.get(key))
            if found != derived[key]:
                raise InvalidDealError("setup_mismatch", field=f"setup.{key}", key=key,
                                       expected=derived[key], found=found)
        return self._game.new_state(setup={**setup, **stated}, seed=deal.get("seed"),
                                    deck=deal.get("deck"), hands=deal.get("hands"),
                                    stock=deal.get("stock"))

    def finish_deal(self, state: State) -> tuple[Fact, ...]:
        """Account a finished deal: the team scores, who owes 点贡, how the next deal
        starts, and the match's end. A revolution only moves kai pai on: its cards
        are dealt again.

        :raises WrongPhaseError: for a deal that is not over.
        """
        result = state.result()
        if result is None:
            raise WrongPhaseError("gouji.deal_not_over", phase=str(state.phase))
        kai = state.deal_info()["setup"]["kai_pai"]
        facts: list[Fact] = []
        if result.reason == "revolution":
            self._revolution = True
            self._special = True
            self._kai = (kai + 1) % SEATS
            return (NextGouJiDeal(kind="revolution", seat=self._kai),)
        self._played += 1
        self._revolution = False
        self.placings.append(result.placings)
        places = [p or 0 for p in result.placings]
        for s, r in enumerate(result.returns):
            self.points[s] += r
        for k in (0, 1):
            facts.append(TeamScore(seats=tuple(range(k, SEATS, 2)), delta=result.returns[k],
                                   total=self.points[k]))
        self._places = places
        self._dian_gong = list(result.details.get("dian_gong", []))
        if self._dian_gong:
            facts.append(DianGongOwed(seats=tuple(self._dian_gong)))
        sweep = is_sweep(places)
        self._special = sweep
        self._kai = (kai + 1) % SEATS if sweep else kai
        facts.append(NextGouJiDeal(kind="sweep", seat=self._kai) if sweep else
                     NextGouJiDeal(kind="normal", seat=places.index(6)))
        if self.is_over():
            best = max(self.points)
            target = self._game.options.target_score
            facts.append(MatchEnded(
                reason="target_score" if target > 0 and best >= target else "deals",
                winners=tuple(s for s in range(SEATS) if self.points[s] == best)))
        return tuple(facts)

    def report(self) -> tuple[Fact, ...]:
        """Nothing happens between Gou Ji deals that is not in a deal or its accounting."""
        return ()

    def is_over(self) -> bool:
        target = self._game.options.target_score
        return self._played >= self._deals or (target > 0 and max(self.points) >= target)

    def standings(self) -> Standings:
        """Team points per seat; ``carry``: the next deal's setup (:meth:`setup`)."""
        return Standings(deals_played=self._played, deals_limit=self._deals, over=self.is_over(),
                         unit="points", scores=tuple(self.points), carry=self.setup())


__all__ = ["GouJiMatch"]
