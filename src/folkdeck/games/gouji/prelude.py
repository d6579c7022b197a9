"""The Gou Ji windows before play and the tribute: :class:`Prelude`.

The 3s start (docs/rules/gouji.md §2.4: seats that drew two same-suit 3s may ``declare``
to lead), the revolution (革命, §2.5: hands without 2s and jokers may call it; teammates
``object``; the caller may ``withdraw``), the Da La naming the first drawer (§2.3), and the
tribute (进贡, §2.6) decided by the previous deal's places. Play then begins
(:meth:`GouJiFlow.start_play <folkdeck.games.gouji.play.GouJiFlow.start_play>`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, final

from folkdeck.cards import Card
from folkdeck.engine.values import Action, Result
from folkdeck.games.gouji.actions import (
    DECLARE,
    INSIST,
    NO,
    OBJECT,
    REVOLUTION,
    WITHDRAW,
    Draw,
    Foul,
    Return,
    Word,
)
from folkdeck.games.gouji.dealing import SEATS, team, tribute_pairs
from folkdeck.games.gouji.events import (
    Liberation,
    Redeal,
    ThreesShown,
    TributeGiven,
    TributeReturned,
    TributeSkipped,
)
from folkdeck.games.gouji.rules import RJ, highest, revolution_hand

if TYPE_CHECKING:
    from folkdeck.engine.facts import Fact
    from folkdeck.games.gouji.deal import GouJiDeal
    from folkdeck.games.gouji.play import GouJiFlow

WINDOW_WORDS: Final[dict[str, tuple[Word, Word]]] = {
    "start": (DECLARE, NO), "revolution": (REVOLUTION, NO), "objection": (OBJECT, NO),
    "withdraw": (WITHDRAW, INSIST)}
"""The windows before play that are answered by a word, and their answers (yes, no)."""


def may_revolt(d: GouJiDeal, s: int) -> bool:
    """Whether seat ``s`` may call revolution: :func:`~folkdeck.games.gouji.rules.revolution_hand`."""
    return revolution_hand(d.counts[s])


@final
class Prelude:
    """The windows before play and the tribute, for the deal it is given."""

    __slots__ = ("flow",)

    def __init__(self, flow: GouJiFlow) -> None:
        self.flow = flow

    def answer(self, d: GouJiDeal, s: int, action: Action, notes: list[Fact]) -> None:
        """Perform a (verified) answer of seat ``s`` in the open window."""
        phase = d.phase
        if phase == "drawer":
            assert isinstance(action, Draw)
            self.flow.modern.deal_named(d, action)
            self.begin_revolution(d, notes)
            return
        d.queue.pop(0)
        if isinstance(action, Foul):  # a false revolution (strict_penalty)
            self.flow.modern.foul(d, s, action.claim, notes)
            if not self.flow.check_end(d, notes) and not d.queue:
                self.begin_tribute(d, notes)
        elif phase == "start":
            self._start(d, s, action, notes)
        elif phase == "revolution":
            if action == REVOLUTION:
                d.declarer = s
                d.objected = False
                d.rev_rest = d.queue
                d.queue = [t for t in ((s + 2) % SEATS, (s + 4) % SEATS) if d.left[t]]
                d.phase = "objection"
                if not d.queue:
                    self._revolution(d, notes)
            elif not d.queue:
                self.begin_tribute(d, notes)
        elif phase == "objection":
            if action == OBJECT:
                d.objected = True
            if not d.queue:
                if d.objected:
                    d.phase = "withdraw"
                    d.queue = [d.declarer]
                else:
                    self._revolution(d, notes)
        elif action == INSIST:
            self._revolution(d, notes)
        else:
            d.phase = "revolution"
            d.queue = d.rev_rest
            if not d.queue:
                self.begin_tribute(d, notes)

    def _start(self, d: GouJiDeal, s: int, action: Action, notes: list[Fact]) -> None:
        """The 3s start: a declaring seat shows its two 3s of one suit and leads."""
        if action == DECLARE:
            threes = [c for c in d.start_hands[s] if c.rank.value == "3"]
            pair = next(c for c in threes if sum(x.suit == c.suit for x in threes) >= 2)
            notes.append(ThreesShown(seat=s, suit=str(pair)[-1]))
            if d.start_all:
                d.declared.append(s)  # every seat is asked: the first claim leads
            else:
                d.leader = s
                d.queue = []
        if not d.queue:
            if d.declared:
                d.leader = min(d.declared, key=d.claims.index)
            self.begin_revolution(d, notes)

    def begin_revolution(self, d: GouJiDeal, notes: list[Fact]) -> None:
        """Open the revolution window (full hands only), or go on to the tribute."""
        d.phase = "revolution"
        d.queue = []
        opts = self.flow.opts
        if opts.revolution_allowed and all(n == 36 for n in d.left):
            order = [(d.leader + k) % SEATS for k in range(SEATS)]
            everyone = opts.strict_penalty or opts.ask_all_seats
            d.queue = [s for s in order if everyone or may_revolt(d, s)]
        if not d.queue:
            self.begin_tribute(d, notes)

    @staticmethod
    def _revolution(d: GouJiDeal, notes: list[Fact]) -> None:
        notes.append(Redeal(seat=d.declarer))
        d.phase = "over"
        d.queue = []
        d.result = Result((None,) * SEATS, (0.0,) * SEATS, "revolution", {"declarer": d.declarer})

    # --- tribute ---------------------------------------------------------------------
    def begin_tribute(self, d: GouJiDeal, notes: list[Fact]) -> None:
        """Give the tribute owed (or skip it); the receivers then return cards, or play begins."""
        setup = d.setup
        flow = self.flow
        pairs: list[tuple[int, int, int]] = []
        if setup.places is not None and (not setup.revolution_redeal
                                         or self.flow.opts.tribute_after_revolution):
            owed = [(g, r, n, "jin_gong") for g, r, n in tribute_pairs(setup.places, self.flow.opts)]
            owed += [(g, r, n, "dian_gong") for g, r, n in self.flow.modern.dian_gong_pairs(d)]
            for giver, receiver, n, kind in owed:
                if not (d.left[giver] and d.left[receiver]):
                    continue
                if team(giver) == team(receiver) and self.flow.opts.tribute_between_teammates == "skip":
                    notes.append(TributeSkipped(seat=giver, receiver=receiver))
                    d.tribute.append(notes[-1])
                    continue
                if self.flow.opts.liberation and d.counts[giver][RJ] == 4:
                    notes.append(Liberation(seat=giver, receiver=receiver))
                    d.tribute.append(notes[-1])
                    continue
                given: list[Card] = []
                for r in highest(d.counts[giver], n):
                    moved = flow.take(d, giver, r, 1)
                    flow.put(d, receiver, moved, r)
                    given += moved
                notes.append(TributeGiven(seat=giver, receiver=receiver, count=n, kind=kind,
                                          cards=tuple(given)))
                d.tribute.append(notes[-1])
                pairs.append((giver, receiver, n))
        d.pairs = pairs
        if pairs:
            d.phase = "tribute"
        else:
            self.flow.start_play(d, notes)

    def give_back(self, d: GouJiDeal, s: int, action: Return, notes: list[Fact]) -> None:
        """A receiver returns cards to its giver; after the last, play begins."""
        giver, _, n = d.pairs.pop(0)
        flow = self.flow
        back: list[Card] = []
        named = list(action.cards or ())
        for r in action.ranks:
            moved = flow.take(d, s, r, 1, tuple(named))
            if moved[0] in named:
                named.remove(moved[0])
            flow.put(d, giver, moved, r)
            back += moved
        notes.append(TributeReturned(seat=s, receiver=giver, count=n, cards=tuple(back)))
        d.tribute.append(notes[-1])
        if not d.pairs:
            self.flow.start_play(d, notes)


__all__ = ["WINDOW_WORDS", "Prelude", "may_revolt"]
