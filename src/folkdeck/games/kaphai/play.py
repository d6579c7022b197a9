"""The transitions of a Kap Hai deal: what a play, a pass and a putuh answer do
(docs/rules/kaphai.md §3, §4), as :class:`KapHaiFlow`, the base of
:class:`~folkdeck.games.kaphai.state.KapHaiState`.

Each method performs an action that :meth:`KapHaiState.apply
<folkdeck.games.kaphai.state.KapHaiState.apply>` found legal; none checks it again.
"""

from __future__ import annotations

from typing import Final

from folkdeck.engine.facts import DealEnded, Fact, Leads, Revealed, TrickWon, WentOut
from folkdeck.engine.protocol import Result
from folkdeck.engine.state_base import StateBase
from folkdeck.games.kaphai.actions import KapHaiAction
from folkdeck.games.kaphai.deal import KapHaiDeal
from folkdeck.games.kaphai.events import PutuhDeclared, PutuhWon, Thrown
from folkdeck.games.kaphai.moves import MoveTable
from folkdeck.games.kaphai.observation import KapHaiPhase, KapHaiView
from folkdeck.games.kaphai.options import KapHaiGameLike, KapHaiOptions
from folkdeck.games.kaphai.rules import PUTUH_PATTERNS, Combo, can_throw, cards_of, notation

_PLAY: Final = KapHaiPhase.PLAY
_OVER: Final = KapHaiPhase.OVER
# The facts of tricks and places, made once per value (facts are immutable): made anew and
# kept in the history, they are work for the garbage collector in every deal (folkdeck bench).
_TRICK_WON: Final[dict[tuple[int, int], TrickWon]] = {}
_WENT_OUT: Final[dict[tuple[int, int], WentOut]] = {}


class KapHaiFlow(StateBase[KapHaiAction, KapHaiView, KapHaiDeal]):
    """The deal's data (:attr:`deal`, all that play changes), the rules it is played with
    and the caches of what never changes or is rebuilt from the deal (shared by clones),
    and the transitions."""

    __slots__ = ("_game", "_rules", "_tables", "_opening")
    _game: KapHaiGameLike
    _rules: KapHaiOptions
    _tables: list[MoveTable | None]
    """Per seat, the move table of its hand, or a table of a hand it has played from since
    (:meth:`KapHaiState._combos`): rebuilt from the deal's hands, replaced, never changed."""
    _opening: tuple[Fact, ...] | None
    """The 3-game's status facts, made when first viewed (from the dealt hands)."""

    def _table(self, game: KapHaiGameLike, n: int) -> None:
        """What the state keeps besides its deal."""
        self._game = game
        self._rules = game.options
        self._n = n
        self._tables = [None] * n
        self._cache = None
        self._opening = None

    def _play(self, s: int, combo: Combo, facts: list[Fact]) -> None:
        deal = self.deal
        m = combo.mask
        deal.hands[s] &= ~m
        deal.played |= m
        deal.lead_single = False
        top = deal.top
        if top is not None and can_throw(combo, top, self._rules):
            # docs/rules/kaphai.md §3.4: thrown 2-2-2 does not take the trick; the thrower counts as passed.
            deal.passed |= 1 << s
            deal.trick.append((s, combo, True))
            facts.append(Thrown(seat=s, cards=combo.cards, top=top.cards, top_seat=deal.top_seat))
        else:
            deal.top = combo
            deal.top_seat = s
            deal.trick.append((s, combo, False))
        if not deal.hands[s]:
            deal.out.append(s)
            out = _WENT_OUT.get((s, len(deal.out)))
            if out is None:
                out = _WENT_OUT[s, len(deal.out)] = WentOut(seat=s, place=len(deal.out))
            facts.append(out)
            if sum(1 for h in deal.hands if h) <= 1:
                self._finish_play()
                facts.append(DealEnded(reason="out", winners=(deal.out[0],), losers=(deal.out[-1],)))
                return
        self._advance(s, facts)

    def _advance(self, s: int, facts: list[Fact]) -> None:
        """Give the turn to the next seat still in the trick, or end the trick."""
        deal = self.deal
        n = self._n
        seat = s
        for _ in range(n):
            seat = (seat + 1) % n
            if seat == deal.top_seat:
                break
            if deal.hands[seat] and not deal.passed >> seat & 1:
                deal.turn = seat
                return
        winner = deal.top_seat
        leader = winner if deal.hands[winner] else self._lead_after_out(winner)
        won = _TRICK_WON.get((winner, leader))
        if won is None:
            won = _TRICK_WON[winner, leader] = TrickWon(seat=winner, leader=leader)
        facts.append(won)
        deal.top = None
        deal.top_seat = -1
        deal.passed = 0
        deal.trick = []
        deal.turn = leader

    def _lead_after_out(self, winner: int) -> int:
        if self._rules.lead_after_out == "left_of_out":
            seat = winner
            for _ in range(self._n):
                seat = (seat - 1) % self._n
                if self.deal.hands[seat]:
                    return seat
        return self._next_active(winner)

    def _next_active(self, seat: int) -> int:
        hands = self.deal.hands
        for _ in range(self._n):
            seat = (seat + 1) % self._n
            if hands[seat]:
                return seat
        return seat

    def _finish_play(self) -> None:
        deal = self.deal
        places: list[int | None] = [None] * self._n
        for place, s in enumerate(deal.out, 1):
            places[s] = place
        for s in range(self._n):
            if deal.hands[s]:
                places[s] = len(deal.out) + 1  # ビリ: the last player holding cards
                deal.out.append(s)
        points = self._rules.placement_points
        returns = tuple(float(points[p - 1]) if p is not None else 0.0 for p in places)
        deal.result = Result(tuple(places), returns, "out", {"order": list(deal.out)})
        deal.phase = _OVER

    def _answer_putuh(self, s: int, declares: bool, facts: list[Fact]) -> None:
        deal = self.deal
        window = deal.putuh
        assert window is not None
        window.answered.add(s)
        if declares:
            window.declared.append(s)
            facts.append(PutuhDeclared(seat=s, pattern=PUTUH_PATTERNS[window.eligible[s][0]]))
        asked = window.order if window.order is not None else window.eligible
        if len(window.answered) < len(asked):
            return
        if window.declared:
            self._finish_putuh(window.declared, window.eligible)
            facts.extend(self._putuh_end())
        else:
            deal.phase = _PLAY
            deal.putuh = None
            facts.append(Leads(seat=deal.turn))

    def _finish_putuh(self, declarers: list[int], patterns: dict[int, tuple[int, int]]) -> None:
        """docs/rules/kaphai.md §4.2: the best pattern is 1st; no other places (or joint 1st)."""
        deal = self.deal
        best = max(declarers, key=lambda s: patterns[s])
        winners = sorted(declarers) if self._rules.putuh_tie == "shared_first" else [best]
        places: list[int | None] = [1 if s in winners else None for s in range(self._n)]
        points = self._rules.placement_points
        returns = tuple(float(points[0] if p == 1 else points[1]) for p in places)
        # The declarers show their hands to the table (they are public from now on).
        details = {"putuh": {str(s): PUTUH_PATTERNS[patterns[s][0]] for s in declarers},
                   "winners": winners,
                   "shown": {str(s): notation(deal.hands[s]) for s in declarers}}
        deal.result = Result(tuple(places), returns, "putuh", details)
        deal.out = list(winners)
        deal.phase = _OVER

    def _putuh_end(self) -> tuple[Fact, ...]:
        """What a putuh deal ended with: each declarer's pattern and hand, the winners."""
        deal = self.deal
        assert deal.result is not None
        details = deal.result.details
        facts: list[Fact] = []
        for key, pattern in details["putuh"].items():
            seat = int(key)
            facts.append(PutuhDeclared(seat=seat, pattern=pattern))
            facts.append(Revealed(seat=seat, cards=cards_of(deal.hands[seat])))
        winners = tuple(details["winners"])
        return (*facts, PutuhWon(winners=winners), DealEnded(reason="putuh", winners=winners))
