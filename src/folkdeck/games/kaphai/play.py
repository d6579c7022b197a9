"""The transitions of a Kap Hai deal: what a play, a pass and a putuh answer do
(docs/rules/kaphai.md §3, §4), as :class:`KapHaiFlow`, a part that
:class:`~folkdeck.games.kaphai.state.KapHaiState` holds: the rules of one table, which
change the deal they are given and hold nothing of a deal themselves.

Each method performs an action that :meth:`KapHaiState.apply
<folkdeck.games.kaphai.state.KapHaiState.apply>` found legal; none checks it again.
"""

from __future__ import annotations

from typing import Final

from folkdeck.engine.facts import DealEnded, Fact, Leads, Revealed, TrickWon, WentOut
from folkdeck.engine.protocol import Result
from folkdeck.games.kaphai.deal import KapHaiDeal
from folkdeck.games.kaphai.events import PutuhDeclared, PutuhWon, Thrown
from folkdeck.games.kaphai.observation import KapHaiPhase
from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import PUTUH_PATTERNS, Combo, can_throw, cards_of, notation

_PLAY: Final = KapHaiPhase.PLAY
_OVER: Final = KapHaiPhase.OVER
# The facts of tricks and places, made once per value (facts are immutable): made anew and
# kept in the history, they are work for the garbage collector in every deal (folkdeck bench).
_TRICK_WON: Final[dict[tuple[int, int], TrickWon]] = {}
_WENT_OUT: Final[dict[tuple[int, int], WentOut]] = {}


class KapHaiFlow:
    """The transitions of a deal at a table of ``n`` seats under ``rules``; shared by a
    state and its clones."""

    __slots__ = ("_rules", "_n")

    def __init__(self, rules: KapHaiOptions, n: int) -> None:
        self._rules = rules
        self._n = n

    def play(self, deal: KapHaiDeal, s: int, combo: Combo, facts: list[Fact]) -> None:
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
                self.finish_play(deal)
                facts.append(DealEnded(reason="out", winners=(deal.out[0],), losers=(deal.out[-1],)))
                return
        self.advance(deal, s, facts)

    def advance(self, deal: KapHaiDeal, s: int, facts: list[Fact]) -> None:
        """Give the turn to the next seat still in the trick, or end the trick."""
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
        leader = winner if deal.hands[winner] else self._lead_after_out(deal, winner)
        won = _TRICK_WON.get((winner, leader))
        if won is None:
            won = _TRICK_WON[winner, leader] = TrickWon(seat=winner, leader=leader)
        facts.append(won)
        deal.top = None
        deal.top_seat = -1
        deal.passed = 0
        deal.trick = []
        deal.turn = leader

    def _lead_after_out(self, deal: KapHaiDeal, winner: int) -> int:
        if self._rules.lead_after_out == "left_of_out":
            seat = winner
            for _ in range(self._n):
                seat = (seat - 1) % self._n
                if deal.hands[seat]:
                    return seat
        return self.next_active(deal, winner)

    def next_active(self, deal: KapHaiDeal, seat: int) -> int:
        hands = deal.hands
        for _ in range(self._n):
            seat = (seat + 1) % self._n
            if hands[seat]:
                return seat
        return seat

    def finish_play(self, deal: KapHaiDeal) -> None:
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

    def answer_putuh(self, deal: KapHaiDeal, s: int, declares: bool, facts: list[Fact]) -> None:
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
            self.finish_putuh(deal, window.declared, window.eligible)
            facts.extend(self.putuh_end(deal))
        else:
            deal.phase = _PLAY
            deal.putuh = None
            facts.append(Leads(seat=deal.turn))

    def finish_putuh(self, deal: KapHaiDeal, declarers: list[int], patterns: dict[int, tuple[int, int]]) -> None:
        """docs/rules/kaphai.md §4.2: the best pattern is 1st; no other places (or joint 1st)."""
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

    def putuh_end(self, deal: KapHaiDeal) -> tuple[Fact, ...]:
        """What a putuh deal ended with: each declarer's pattern and hand, the winners."""
        assert deal.result is not None
        details = deal.result.details
        facts: list[Fact] = []
        for key, pattern in details["putuh"].items():
            seat = int(key)
            facts.append(PutuhDeclared(seat=seat, pattern=pattern))
            facts.append(Revealed(seat=seat, cards=cards_of(deal.hands[seat])))
        winners = tuple(details["winners"])
        return (*facts, PutuhWon(winners=winners), DealEnded(reason="putuh", winners=winners))
