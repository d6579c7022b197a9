"""The transitions of a Cangkul or Burro deal: what playing a card, drawing and passing do
(docs/rules/cangkul.md §2-§4), as :class:`CangkulFlow`, a part that
:class:`~folkdeck.games.cangkul.state.CangkulState` holds: the rules of one table, which
change the deal they are given and hold nothing of a deal themselves.

Each method performs an action that :meth:`CangkulState.apply
<folkdeck.games.cangkul.state.CangkulState.apply>` found legal; none checks it again.
"""

from __future__ import annotations

from typing import Final

from folkdeck.engine.facts import CardsTaken, DealEnded, Drew, Fact, TrickWon, WentOut
from folkdeck.games.cangkul.deal import JOKER_CLASS, CangkulDeal
from folkdeck.games.cangkul.events import (
    SUIT_TERMS,
    CannotFollow,
    DrewAndPlayed,
    FewestCards,
    Knocked,
    LastHolder,
    MostCards,
    Stalemate,
)
from folkdeck.games.cangkul.rules import (
    FOLLOW,
    LED_BY,
    NO_SUIT,
    PLAY_ON,
    CangkulGameLike,
    Deck,
    Ruleset,
    cards_of,
    share_out,
    takes_trick,
    trick_winner,
)
from folkdeck.games.cangkul.scoring import last_holder_result, out_result, stalemate

_SEATS: Final = 16  # options allow 8 seats; the trick's best play keeps a seat in 4 bits
_TRICK_WON: Final = tuple(tuple(TrickWon(seat=w, leader=x) for x in range(_SEATS)) for w in range(_SEATS))
"""``_TRICK_WON[winner][leader]``; the deal's last facts likewise, by seat (and place): made
once, as every trick makes them (``folkdeck bench``)."""
_WENT_OUT: Final = tuple(tuple(WentOut(seat=s, place=p) for p in range(_SEATS + 1)) for s in range(_SEATS))
_LAST_HOLDER: Final = tuple(LastHolder(seat=s) for s in range(_SEATS))
_WON_BY_GOING_OUT: Final = tuple(DealEnded(reason="out", winners=(s,)) for s in range(_SEATS))
_LOST_AS_LAST_HOLDER: Final = tuple(DealEnded(reason="last_holder", losers=(s,)) for s in range(_SEATS))
_CANNOT_FOLLOW: Final = tuple(tuple(CannotFollow(seat=s, suit=SUIT_TERMS[u]) for u in range(4)) for s in range(_SEATS))
_NEXTS: Final = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(17))
"""``_NEXTS[n][s]``: the seat after ``s`` at an ``n``-seat table."""


class CangkulFlow:
    """The transitions of a deal at a table of ``n`` seats under ``game``'s rules and deck;
    shared by a state and its clones."""

    __slots__ = ("_rules", "_deck", "_n", "_nexts", "_jbit")
    _rules: Ruleset
    _deck: Deck
    _n: int
    _nexts: tuple[int, ...]
    _jbit: int

    def __init__(self, game: CangkulGameLike, n: int) -> None:
        rules = game.rules
        self._rules = rules
        self._deck = game.deck
        self._n = n
        self._nexts = _NEXTS[n]
        # Digging shows no joker only where a void seat must play it (``must_when_void``).
        self._jbit = 1 << JOKER_CLASS if rules.joker_play == "must_when_void" else 0

    def play(self, deal: CangkulDeal, s: int, i: int, facts: list[Fact]) -> None:
        bit = 1 << i
        hands, known, plays = deal.hands, deal.known, deal.plays
        hands[s] = hands[s] ^ bit
        if known[s]:
            known[s] = known[s] & ~bit
        key = i << 4 | s  # the trick's best card so far, with its seat (seats < 16)
        if plays:
            suit = deal.suit
            if suit == NO_SUIT:
                suit = deal.suit = LED_BY[i]
            # The rule is asked only for a card above the best so far: a lower card never
            # takes the trick (:func:`takes_trick`), and this is the hot path.
            if key > deal.win and takes_trick(i, deal.win >> 4, suit):
                deal.win = key
        else:
            deal.win = key
            deal.suit = LED_BY[i]
        plays.append((s, i))
        acted = deal.acted = deal.acted | 1 << s
        if hands[s]:
            # The common case, settled without calling :meth:`advance`: the next seat has
            # not acted, holds cards, and can play or dig (no automatic pass).
            nxt = self._nexts[s]
            hand = hands[nxt]
            if hand and not acted >> nxt & 1 and (hand & PLAY_ON[deal.suit] or any(deal.piles)):
                deal.turn = nxt
                return
        elif self._went_out(deal, s, facts):
            return
        self.advance(deal, s, facts)

    def _went_out(self, deal: CangkulDeal, s: int, facts: list[Fact]) -> bool:
        """Seat ``s`` emptied its hand: score the deal if that ends it (and say so)."""
        if not self._rules.drop_out:
            facts.append(_WENT_OUT[s][1])
            facts.append(_WON_BY_GOING_OUT[s])
            self._finish(deal, winner=s)
            return True
        deal.out.append(s)
        deal.stall = -1  # going out is progress: this trick's end counts from 0 again
        facts.append(_WENT_OUT[s][len(deal.out)])
        if self._n - len(deal.out) > 1:
            return False
        loser = next(t for t in range(self._n) if deal.hands[t])
        deal.out.append(loser)
        facts.append(_LAST_HOLDER[loser])
        facts.append(_LOST_AS_LAST_HOLDER[loser])
        self._finish(deal, winner=None)
        return True

    def draw(self, deal: CangkulDeal, s: int, pile: int | None, facts: list[Fact]) -> tuple[Fact, ...] | None:
        """Draw for seat ``s``; return the event's facts when they are one ``drew`` alone
        (the common case: a tuple made once), else ``None`` with the facts put in ``facts``."""
        rng = deal.rng
        suit = deal.suit
        piles = deal.piles
        if rng is not None and rng.random() < self._rules.knock_prob:
            taken = 0
            for p in piles:
                for c in p:
                    taken |= 1 << c
                p.clear()
            deal.hands[s] = deal.hands[s] | taken
            deal.void[s] = 0  # unseen cards of every kind joined the hand
            facts.append(Knocked(seat=s, count=taken.bit_count(), cards=cards_of(taken, self._deck)))
        else:
            i = piles[pile or 0].pop()
            deal.hands[s] = deal.hands[s] | 1 << i
            # The draw's fact, made once per seat, card, pile and outcome for this deck
            # (:func:`draw_fact_slot`, written out: this is the hot path).
            known = self._deck.draw_facts
            if (FOLLOW[suit] >> i) & 1:  # a card that follows is played at once (§2.3)
                deal.void[s] = deal.void[s] | 1 << suit | self._jbit
                slot = (s << 7 | i) << 2
                shown = known[slot]
                if shown is None:
                    shown = known[slot] = DrewAndPlayed(seat=s, card=self._deck.cards[i])  # type: ignore[arg-type]
                facts.append(shown)
                self.play(deal, s, i, facts)
                return None
            # One unseen card, not of the led suit, joined the hand: only that void survives.
            deal.void[s] = 1 << suit
            slot = (s << 7 | i) << 2 | (1 if pile is None else pile + 2)
            drew: tuple[Fact, ...] | None = known[slot]
            if drew is None:
                drew = known[slot] = (Drew(seat=s, card=self._deck.cards[i], pile=pile),)
            if piles[0] or len(piles) > 1 and piles[1]:
                return drew
            facts.extend(drew)
        if not any(piles) and not deal.hands[s] & PLAY_ON[suit]:
            self.pass_turn(deal, s, facts, auto=True)
            self.advance(deal, s, facts)
        return None

    def pass_turn(self, deal: CangkulDeal, s: int, facts: list[Fact], auto: bool = False) -> None:
        suit = deal.suit
        deal.acted |= 1 << s
        deal.passers.append(s)
        deal.void[s] = deal.void[s] | 1 << suit | self._jbit
        if auto:
            facts.append(_CANNOT_FOLLOW[s][suit])

    def advance(self, deal: CangkulDeal, s: int, facts: list[Fact]) -> None:
        """Give the turn to the next seat of the trick (passing for it when it must), or
        end the trick."""
        n, hands, suit = self._n, deal.hands, deal.suit
        # With the stock empty, a seat holding nothing of ``PLAY_ON`` must pass: it has
        # nothing to play and cannot dig.
        blocked = PLAY_ON[suit] if not any(deal.piles) else 0
        seat = s
        for _ in range(n):
            seat = seat + 1 if seat + 1 < n else 0
            if deal.acted >> seat & 1:
                break
            hand = hands[seat]
            if not hand:
                continue
            if blocked and not hand & blocked:
                self.pass_turn(deal, seat, facts, auto=True)
                continue
            deal.turn = seat
            return
        self._end_trick(deal, facts)

    def _end_trick(self, deal: CangkulDeal, facts: list[Fact]) -> None:
        rules = self._rules
        plays, passers = deal.plays, deal.passers
        winner = deal.win & 15
        deal.collected = []
        if passers and rules.passers_collect:
            for p, cards in zip(passers, share_out([c for _, c in plays], passers), strict=True):
                m = sum(1 << c for c in cards)
                if m:
                    deal.hands[p] = deal.hands[p] | m
                    deal.known[p] = deal.known[p] | m
                    deal.collected.append((p, m))
                    facts.append(CardsTaken(seat=p, cards=cards_of(m, self._deck)))
        else:
            dead = deal.dead
            for _, c in plays:
                dead |= 1 << c
            deal.dead = dead
        leader = passers[0] if passers and rules.lead_after_pass == "first_passer" else winner
        if not deal.hands[leader]:
            leader = self._lead_after_out(deal, winner)
        facts.append(_TRICK_WON[winner][leader])
        deal.plays = []
        deal.passers = []
        deal.acted = 0
        deal.suit = NO_SUIT
        deal.turn = deal.trick_leader = leader
        if passers and rules.passers_collect and not any(deal.piles):
            deal.stall += 1  # no card left play (a -1 from a player going out makes it 0)
            if deal.stall >= rules.stall_limit > 0:
                self._stalemate(deal, facts)
        else:
            deal.stall = 0

    def _lead_after_out(self, deal: CangkulDeal, winner: int) -> int:
        """Notes §4.1: the winner has gone out; ``next_active`` or ``highest_remaining``."""
        if self._rules.lead_after_out == "highest_remaining":
            remaining = [(s, c) for s, c in deal.plays if deal.hands[s]]
            if remaining:
                return trick_winner(remaining, deal.suit)
        seat = winner
        for _ in range(self._n):
            seat = (seat + 1) % self._n
            if deal.hands[seat]:
                return seat
        return winner

    def _stalemate(self, deal: CangkulDeal, facts: list[Fact]) -> None:
        """End a deal that stopped moving (``stall_limit``; :func:`.scoring.stalemate`)."""
        left = [h.bit_count() for h in deal.hands]
        result = deal.result = stalemate(self._rules, left, deal.out, deal.stall)
        facts.append(Stalemate(tricks=deal.stall))
        if "winners" in result.details:
            winners = tuple(result.details["winners"])
            facts.append(FewestCards(seats=winners, cards=left[winners[0]]))
            facts.append(DealEnded(reason="stalemate", winners=winners))
        else:
            losers = tuple(result.details["losers"])
            facts.append(MostCards(seats=losers, cards=left[losers[0]]))
            facts.append(DealEnded(reason="stalemate", losers=losers))
        deal.phase = "over"

    def _finish(self, deal: CangkulDeal, *, winner: int | None) -> None:
        """Score the deal: ``winner`` emptied the hand (Cangkul), or ``None`` when the drop-out
        order is complete and its last seat lost (Cangkul variation 1, the Burros)."""
        left = [h.bit_count() for h in deal.hands]
        deal.result = (out_result(self._rules, left, winner) if winner is not None
                       else last_holder_result(self._rules, left, deal.out))
        deal.phase = "over"
