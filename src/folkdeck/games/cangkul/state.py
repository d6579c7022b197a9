"""One deal of Cangkul or Burro as an explicit state machine (docs/rules/cangkul.md).

Phases: ``play`` (tricks) and ``over``. A trick: the leader plays any card; each
seat after it (seat + 1 order, skipping seats that are out) follows suit if it can;
a seat that cannot draws (``draw``) one card at a time until it draws the led suit,
which is played at once. A seat that cannot follow when the stock is empty passes:
**automatically**, told by a ``cangkul.cannot_follow`` fact on the event that brought
the turn to it. With the joker in hand it may choose between the joker and an explicit
``pass``. Every event carries typed facts (:mod:`folkdeck.games.cangkul.events`); a
drawn card kept in the hand is private to the drawer (``drew``).

A short Cangkul deal from a study position (seat 0 leads; the stock is ``2C 5H``),
its facts rendered in English for a spectator:

>>> from folkdeck import load
>>> from folkdeck.i18n import Renderer
>>> en = Renderer("en", game="cangkul")
>>> state = load("cangkul", players=3).new_state(
...     hands=["9H 3S 5S", "KH 4C 6D 10S", "7D 8D"], stock=["2C", "5H"], setup={"leader": 0})
>>> [str(a) for a in state.legal_actions()]
['3S', '5S', '9H']
>>> def play(text):
...     event = state.apply(state.parse_action(text))
...     print("; ".join([event.line] + [en.fact(f) for f in event.facts]))
>>> play("9H"); play("KH")
0: 9H
1: KH
>>> [str(a) for a in state.legal_actions()]          # seat 2 has no hearts: dig
['draw']
>>> play("draw")                                      # 2C goes to the hand, unseen
2: draw; Seat 2 draws a card
>>> state.history[-1].facts                           # ...but the fact holds it for seat 2
(Drew(seat=2, card=Card.parse('2C'), pile=None),)
>>> play("draw")
2: draw; Seat 2 draws 5H and plays it; Seat 1 wins the trick and leads
>>> play("4C")
1: 4C
>>> state.apply(state.parse_action("7D"))
Traceback (most recent call last):
...
folkdeck.engine.errors.IllegalActionError: seat 2 holds 2C: follow the led suit clubs (not 7D)
>>> play("2C")                                        # seat 0: no clubs, the stock is empty
2: 2C; Seat 0 cannot follow clubs and the stock is empty: passes; Seat 0 takes 2C 4C; Seat 1 wins the trick and leads
>>> play("6D"); play("8D")
1: 6D
2: 8D; Seat 0 cannot follow diamonds and the stock is empty: passes; Seat 0 takes 6D 8D; Seat 2 wins the trick and leads
>>> play("7D")
2: 7D; Seat 2 goes out in 1st place; The deal is over (a hand emptied)
>>> state.result().placings, state.result().returns
((None, None, 1), (0.0, 0.0, 1.0))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Self

from folkdeck.cards import Card, Suit
from folkdeck.engine.errors import (
    IllegalActionError,
    InvalidDealError,
    WrongPhaseError,
    not_an_action,
    not_held,
    not_your_turn,
)
from folkdeck.engine.facts import CardsTaken, DealEnded, Drew, Fact, Played, TrickWon, WentOut
from folkdeck.engine.protocol import Event, Result
from folkdeck.engine.state_base import StateBase
from folkdeck.engine.view import HistoryCache, TablePlay
from folkdeck.games.cangkul.actions import (
    DRAW,
    DRAW_LEFT,
    DRAW_RIGHT,
    PASS,
    CangkulAction,
    Draw,
    Pass,
    parse_action,
)
from folkdeck.games.cangkul.events import (
    SUIT_TERMS,
    CannotFollow,
    Dig,
    DrewAndPlayed,
    FewestCards,
    JokerLead,
    Knocked,
    KnownCards,
    LastHolder,
    MostCards,
    Stalemate,
    StallCount,
    Void,
    describe_action,
)
from folkdeck.games.cangkul.messages import why_no_dig, why_not_card
from folkdeck.games.cangkul.observation import CangkulPhase, CangkulView
from folkdeck.games.cangkul.rules import (
    JOKER,
    JOKER_BIT,
    NO_SUIT,
    STRIDE,
    SUIT_BITS,
    SUIT_MASKS,
    cards_of,
    choices,
    share_out,
    split_stock,
    trick_winner,
)
from folkdeck.games.cangkul.scoring import last_holder_result, out_result, stalemate

if TYPE_CHECKING:
    from folkdeck.engine.view import ViewEvent
    from folkdeck.games.cangkul.game import CangkulGame

_SUITS: Final = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
JOKER_CLASS: Final = 4
"""The void class of the joker (suits are 0-3): see :attr:`CangkulState.voids`."""

# The hot path (``folkdeck bench``, search bots) makes an event and its facts on every
# action, so the constant parts are built once here: the digging choices, the most
# common facts, and the event itself without the named tuple's Python-level __new__.
_DRAW_ONLY: Final = (DRAW,)
_DRAW_BOTH: Final = (DRAW_LEFT, DRAW_RIGHT)
_DRAW_LEFT_ONLY: Final = (DRAW_LEFT,)
_DRAW_RIGHT_ONLY: Final = (DRAW_RIGHT,)
_PASS_ONLY: Final = (PASS,)
_SEATS: Final = 16  # options allow 8 seats; the trick's best play keeps a seat in 4 bits
_TRICK_WON: Final = tuple(tuple(TrickWon(seat=w, leader=x) for x in range(_SEATS)) for w in range(_SEATS))
"""``_TRICK_WON[winner][leader]``; the deal's last facts likewise, by seat (and place)."""
_WENT_OUT: Final = tuple(tuple(WentOut(seat=s, place=p) for p in range(_SEATS + 1)) for s in range(_SEATS))
_LAST_HOLDER: Final = tuple(LastHolder(seat=s) for s in range(_SEATS))
_WON_BY_GOING_OUT: Final = tuple(DealEnded(reason="out", winners=(s,)) for s in range(_SEATS))
_LOST_AS_LAST_HOLDER: Final = tuple(DealEnded(reason="last_holder", losers=(s,)) for s in range(_SEATS))
_CANNOT_FOLLOW: Final = tuple(tuple(CannotFollow(seat=s, suit=SUIT_TERMS[u]) for u in range(4)) for s in range(_SEATS))
_PLAY_ON: Final = tuple(m | JOKER_BIT for m in SUIT_MASKS)
"""Per led suit, the cards that let a seat play on (follow, or the joker) without digging."""
_NEXTS: Final = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(17))
"""``_NEXTS[n][s]``: the seat after ``s`` at an ``n``-seat table."""
# ``_new_event(_EVENT, (seat, action, facts))`` == ``Event(seat, action, facts)``, without the
# named tuple's Python-level ``__new__`` (made on every action). Compiled, the ``Final`` alias
# is read from a C static, where the imported ``Event`` is looked up in the module's dict.
_new_event: Final = tuple.__new__
_EVENT: Final = Event


_SLOTS: Final = ("_game", "_rules", "_deck", "_n", "_hands", "_known", "_piles", "_start_hands", "_start_stock",
          "_setup", "_unused", "_dead", "_rng", "_phase", "_turn", "_trick_leader", "_plays", "_suit",
          "_acted", "_passers", "_out", "_history", "_cache", "_void", "_jbit", "_collected", "_result",
          "_jp", "_by_id", "_stall", "_win", "_nexts")
"""Every attribute of a state, which :meth:`CangkulState.clone` copies one by one (a class
compiled by mypyc, README "Fast build", has no ``__slots__`` to read)."""


class CangkulState(StateBase[CangkulAction, CangkulView]):
    """A deal of Cangkul, Spanish Burro or Portuguese Burro; make it with
    :meth:`CangkulGame.new_state`, or a world agreeing with a seat's view with
    :meth:`from_view`."""

    __slots__ = _SLOTS

    def __init__(self, game: CangkulGame, hands: list[int], stock: list[int], *, leader: int,
                 setup: dict[str, Any], knock_seed: int | None, unused: int | None = None) -> None:
        rules = game.rules
        self._game = game
        self._rules = rules
        self._jp = rules.joker_play
        self._deck = game.deck
        self._by_id = game.deck.by_id
        self._n = n = len(hands)
        self._nexts = _NEXTS[n]
        self._hands = list(hands)
        self._known = [0] * self._n
        self._start_hands = tuple(hands)
        self._start_stock = tuple(stock)
        self._piles = [p[::-1] for p in split_stock(stock, rules.piles)]  # the top is last
        self._setup = dict(setup)
        if unused is None:
            in_play = sum(hands)
            for c in stock:
                in_play |= 1 << c
            unused = game.deck.full & ~in_play
        self._unused = unused
        self._dead = 0
        self._rng = random.Random(knock_seed) if rules.knock_prob > 0 else None
        self._phase = "play"
        self._turn = leader
        self._trick_leader = leader
        self._plays: list[tuple[int, int]] = []
        self._suit = NO_SUIT
        self._acted = 0
        self._passers: list[int] = []
        self._out = [s for s in range(self._n) if not hands[s]]
        self._history: list[Event] = []
        self._cache: HistoryCache | None = None  # made by the first observe(): playouts never need it
        self._void = [0] * self._n
        # Digging shows no joker only where a void seat must play it (``must_when_void``).
        self._jbit = 1 << JOKER_CLASS if rules.joker_play == "must_when_void" else 0
        self._collected: list[tuple[int, int]] = []
        self._result: Result | None = None
        self._stall = 0
        self._win = 0
        """The trick's winning play so far as ``card index << 4 | seat``."""

    @classmethod
    def from_view(cls, game: CangkulGame, view: CangkulView, *, hands: Sequence[Sequence[Card]],
                  piles: Sequence[Sequence[Card]], knock_seed: int | None = None) -> CangkulState:
        """A state that ``view``'s seat cannot tell from the real one: everything public is
        the view's (the trick, the passers, the order out, the known and dead cards, the
        voids, the stall count, the history as the seat saw it), and the cards it cannot
        see are where ``hands`` (every seat's whole hand) and ``piles`` (each stock pile,
        top first) put them; the pack's other cards are out of the deal. ``knock_seed``
        seeds the knocking chance (Portuguese ``stock_knock_prob``).

        :raises WrongPhaseError: for a view of a finished deal.
        :raises InvalidDealError: when the cards do not fit the view (``hands``, ``stock``).
        """
        if view.phase != CangkulPhase.PLAY or view.current_seat is None:
            raise WrongPhaseError("deal_over", phase=str(view.phase))
        deck = game.deck
        index = deck.index
        n = view.num_players
        if len(hands) != n or len(piles) != len(view.stock):
            raise InvalidDealError("cangkul.hand_count", field="hands", given=len(hands), players=n)
        masks = []
        for s, cards in enumerate(hands):
            m = 0
            for c in cards:
                m |= 1 << index[c]
            if m.bit_count() != view.counts[s]:
                raise InvalidDealError("cangkul.view_mismatch", field=f"hands[{s}]", seat=s)
            masks.append(m)
        stacks = []
        for p, cards in enumerate(piles):
            if len(cards) != view.stock[p]:
                raise InvalidDealError("cangkul.view_mismatch", field="stock", seat=p)
            stacks.append([index[c] for c in reversed(cards)])  # the top is last
        plays = [(t.seat, index[t.cards[0]]) for t in view.table]
        dead = 0
        for c in view.dead:
            dead |= 1 << index[c]
        in_play = dead
        for m in masks:
            in_play |= m
        for stack in stacks:
            for i in stack:
                in_play |= 1 << i
        for _, i in plays:
            in_play |= 1 << i

        state: CangkulState = cls.__new__(cls)
        rules = game.rules
        state._game = game
        state._rules = rules
        state._jp = rules.joker_play
        state._deck = deck
        state._by_id = deck.by_id
        state._n = n
        state._nexts = _NEXTS[n]
        state._hands = masks
        state._known = [_mask(k, index) for k in view.known]
        state._start_hands = tuple(masks)
        state._start_stock = tuple(i for stack in stacks for i in reversed(stack))
        state._piles = stacks
        state._setup = {"leader": view.trick_leader}
        state._unused = deck.full & ~in_play
        state._dead = dead
        state._rng = random.Random(knock_seed) if rules.knock_prob > 0 else None
        state._phase = "play"
        state._turn = view.current_seat
        state._trick_leader = view.trick_leader
        state._plays = plays
        state._suit = _SUITS.index(view.led_suit) if view.led_suit is not None else NO_SUIT
        acted = 0
        for s, _ in plays:
            acted |= 1 << s
        for s in view.passed:
            acted |= 1 << s
        state._acted = acted
        state._passers = list(view.passed)
        state._out = list(view.out)
        state._history = [_event_of(e) for e in view.history]
        state._cache = None
        state._void = [_void_mask(suits, joker) for suits, joker in zip(view.voids, view.joker_void, strict=True)]
        state._jbit = 1 << JOKER_CLASS if rules.joker_play == "must_when_void" else 0
        state._collected = [(s, _mask(cards, index)) for s, cards in view.collected]
        state._result = None
        # The state's counter is -1 while a trick in which a player went out is in progress.
        state._stall = -1 if view.stall_reset else view.stall
        state._win = 0
        if plays:  # the trick's best play so far, as the state keeps it
            best = trick_winner(plays)
            state._win = next(c for t, c in plays if t == best) << 4 | best
        return state

    # --- the protocol's read side ------------------------------------------------
    @property
    def game(self) -> CangkulGame:
        return self._game

    @property
    def to_act(self) -> tuple[int, ...]:
        return (self._turn,) if self._phase == "play" else ()

    @property
    def current_seat(self) -> int | None:
        return self._turn if self._phase == "play" else None

    @property
    def led_suit(self) -> int:
        """The led suit (0-3 for S C D H), or -1 before the trick's first suited card."""
        return self._suit

    @property
    def trick_leader(self) -> int:
        return self._trick_leader

    @property
    def stall(self) -> int:
        """Finished tricks in a row, with the stock empty, that the passers took (no card left
        play, nobody went out): the count ``stall_limit`` ends the deal at."""
        return max(self._stall, 0)

    def stock_sizes(self) -> tuple[int, ...]:
        """Cards left in each stock pile (one pile, or left and right)."""
        return tuple(len(p) for p in self._piles)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds (the engine's view: not for agents)."""
        return cards_of(self._hands[seat], self._deck)

    # --- legal actions -------------------------------------------------------------
    def _draws(self) -> tuple[CangkulAction, ...]:
        piles = self._piles
        if len(piles) == 1:
            return _DRAW_ONLY if piles[0] else ()
        left, right = piles
        if left:
            return _DRAW_BOTH if right else _DRAW_LEFT_ONLY
        return _DRAW_RIGHT_ONLY if right else ()

    def legal_actions(self, seat: int | None = None) -> tuple[CangkulAction, ...]:
        """The cards that may be played (suits S C D H, weakest first, then the joker),
        then ``draw`` (``draw left``, ``draw right``), or ``pass`` when the stock is empty."""
        s = self._turn
        if self._phase != "play" or (seat is not None and seat != s):
            return ()
        hand, suit = self._hands[s], self._suit
        if suit == NO_SUIT:  # a lead (or the card after a joker lead): any held card
            return cards_of(hand, self._deck)
        if not hand & JOKER_BIT:
            # The common case, a follower without the joker: what :func:`choices` gives,
            # straight from the deck's per-suit cache (the held cards of the led suit,
            # else dig).
            follow = hand >> (STRIDE * suit) & SUIT_BITS
            if not follow:
                piles = self._piles
                if len(piles) == 1:
                    return _DRAW_ONLY if piles[0] else _PASS_ONLY
                return self._draws() or _PASS_ONLY
            got = self._deck.suit_cards[suit][follow]
            return got if got is not None else cards_of(hand & SUIT_MASKS[suit], self._deck)
        allowed, dig = choices(hand, suit, self._jp)
        cards: tuple[CangkulAction, ...] = cards_of(allowed, self._deck)
        if dig:
            return cards + (self._draws() or _PASS_ONLY)
        return cards

    def verify(self, action: CangkulAction, seat: int | None = None) -> None:
        """Raise the reason an action is illegal now; return ``None`` if it is legal.

        :raises WrongPhaseError: the deal is over.
        :raises NotYourTurnError: another seat is on turn.
        :raises IllegalActionError: the rules refuse it (the reason says why).
        """
        if self._phase == "over":
            raise WrongPhaseError("deal_over", phase="over", action=str(action))
        s = self._seat(seat)
        game = self._game.spec.name
        if s != self._turn:
            raise not_your_turn("cangkul", s, (self._turn,), action)
        hand = self._hands[s]
        allowed, dig = choices(hand, self._suit, self._jp)
        if isinstance(action, Card):
            i = self._deck.index.get(action)
            if i is None:
                raise IllegalActionError("cangkul.not_in_pack", seat=s, action=str(action),
                                         pack=self._rules.pack, game=game)
            if not hand >> i & 1:
                raise not_held("cangkul", s, action, str(action))
            if not allowed >> i & 1:
                reason, params = why_not_card(self._deck, self._suit, self._jp, s, i, hand, dig)
                raise IllegalActionError(reason, action=str(action), game=game, **params)
            return
        if isinstance(action, Draw):
            if not dig:
                reason, params = why_no_dig(self._deck, self._suit, bool(self._plays), s, hand)
                raise IllegalActionError(reason, action=str(action), game=game, **params)
            piles = self._piles
            if not any(piles):
                raise IllegalActionError("cangkul.stock_empty", seat=s, action=str(action))
            if action.pile is None and len(piles) == 2:
                raise IllegalActionError("cangkul.say_pile", seat=s, action=str(action))
            if action.pile is not None and len(piles) == 1:
                raise IllegalActionError("cangkul.one_pile", seat=s, action=str(action))
            if action.pile is not None and not piles[action.pile]:
                raise IllegalActionError("cangkul.pile_empty", seat=s, action=str(action), pile=action.pile)
            return
        if isinstance(action, Pass):
            if not dig:
                reason, params = why_no_dig(self._deck, self._suit, bool(self._plays), s, hand, passing=True)
                raise IllegalActionError(reason, action="pass", game=game, **params)
            if any(self._piles):
                raise IllegalActionError("cangkul.no_pass_with_stock", seat=s, action="pass")
            return
        raise not_an_action("cangkul", s, action)

    def parse_action(self, text: str, seat: int | None = None) -> CangkulAction:
        """Read ``text`` (a card, ``draw``, ``draw left|right``, ``pass``); legality is
        checked by :meth:`apply`. With two piles, a bare ``draw`` means the only pile
        left when the other is empty."""
        action = parse_action(text)
        if action is DRAW and len(self._piles) == 2:
            left, right = self._piles
            if left and not right:
                return DRAW_LEFT
            if right and not left:
                return DRAW_RIGHT
        return action

    # --- transitions ---------------------------------------------------------------
    def apply(self, action: CangkulAction, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn)."""
        s = self._turn
        facts: list[Fact] = []
        if (seat is None or seat == s) and self._phase == "play":
            # The fast paths, for the seat on turn: the checks of :meth:`verify` for the
            # actions :meth:`legal_actions` hands out; anything else goes the long way.
            hand, suit = self._hands[s], self._suit
            i = self._by_id.get(id(action))  # one of this deck's own card objects
            if i is not None:
                # A held card is legal on a lead or in the led suit; other cards (off
                # suit, the joker) need the full rule.
                if hand >> i & 1 and (suit == NO_SUIT or i // STRIDE == suit
                                      or choices(hand, suit, self._jp)[0] >> i & 1):
                    self._play(s, i, facts)
                    event: Event = _new_event(_EVENT, (s, action, tuple(facts) if facts else ()))
                    self._history.append(event)
                    return event
            elif action.__class__ is Draw:
                piles = self._piles
                pile = action.pile
                # Void in the led suit without the joker: dig; else :func:`choices` decides.
                if (pile is None) == (len(piles) == 1) and piles[pile or 0] and (
                        suit != NO_SUIT and not hand & _PLAY_ON[suit] or choices(hand, suit, self._jp)[1]):
                    drew = self._draw(s, pile, facts)
                    event = _new_event(_EVENT, (s, action, drew if drew is not None else tuple(facts)))
                    self._history.append(event)
                    return event
        s = self._seat(seat)
        self.verify(action, s)
        if isinstance(action, Card):
            self._play(s, self._deck.index[action], facts)
        elif isinstance(action, Draw):
            facts.extend(self._draw(s, action.pile, facts) or ())
        else:
            self._pass(s, facts)
            self._advance(s, facts)
        event = Event(s, action, tuple(facts))
        self._history.append(event)
        return event

    def _play(self, s: int, i: int, facts: list[Fact]) -> None:
        bit = 1 << i
        hands, known, plays = self._hands, self._known, self._plays
        hands[s] = hands[s] ^ bit
        if known[s]:
            known[s] = known[s] & ~bit
        key = i << 4 | s  # the trick's best card so far, with its seat (seats < 16)
        if plays:
            suit = self._suit
            if suit == NO_SUIT and i != JOKER:
                suit = self._suit = i // STRIDE
            # The highest card of the led suit, or the joker (:func:`trick_winner`).
            if key > self._win and (i // STRIDE == suit or i == JOKER):
                self._win = key
        else:
            self._win = key
            if i != JOKER:
                self._suit = i // STRIDE
        plays.append((s, i))
        acted = self._acted = self._acted | 1 << s
        if hands[s]:
            # The common case, settled without calling :meth:`_advance`: the next seat has
            # not acted, holds cards, and can play or dig (no automatic pass).
            suit = self._suit
            nxt = self._nexts[s]
            hand = hands[nxt]
            if hand and not acted >> nxt & 1 and (suit == NO_SUIT or hand & _PLAY_ON[suit]
                                                   or any(self._piles)):
                self._turn = nxt
                return
        else:
            if not self._rules.drop_out:
                facts.append(_WENT_OUT[s][1])
                facts.append(_WON_BY_GOING_OUT[s])
                self._finish(winner=s)
                return
            self._out.append(s)
            self._stall = -1  # going out is progress: this trick's end counts from 0 again
            facts.append(_WENT_OUT[s][len(self._out)])
            if self._n - len(self._out) <= 1:
                loser = next(t for t in range(self._n) if self._hands[t])
                self._out.append(loser)
                facts.append(_LAST_HOLDER[loser])
                facts.append(_LOST_AS_LAST_HOLDER[loser])
                self._finish(winner=None)
                return
        self._advance(s, facts)

    def _draw(self, s: int, pile: int | None, facts: list[Fact]) -> tuple[Fact, ...] | None:
        """Draw for seat ``s``; return the event's facts when they are one ``drew`` alone
        (the common case: a tuple made once), else ``None`` with the facts put in ``facts``."""
        rng = self._rng
        suit = self._suit
        if rng is not None and rng.random() < self._rules.knock_prob:
            taken = 0
            for p in self._piles:
                for c in p:
                    taken |= 1 << c
                p.clear()
            self._hands[s] = self._hands[s] | taken
            self._void[s] = 0  # unseen cards of every kind joined the hand
            facts.append(Knocked(seat=s, count=taken.bit_count(), cards=cards_of(taken, self._deck)))
        else:
            piles = self._piles
            i = piles[pile or 0].pop()
            self._hands[s] = self._hands[s] | 1 << i
            # The draw's fact, made once per seat, card, pile and outcome for this deck
            # (:func:`draw_fact_slot`, written out: this is the hot path).
            known = self._deck.draw_facts
            if i // STRIDE == suit:
                self._void[s] = self._void[s] | 1 << suit | self._jbit
                slot = (s << 7 | i) << 2
                shown = known[slot]
                if shown is None:
                    shown = known[slot] = DrewAndPlayed(seat=s, card=self._deck.cards[i])  # type: ignore[arg-type]
                facts.append(shown)
                self._play(s, i, facts)
                return None
            # One unseen card, not of the led suit, joined the hand: only that void survives.
            self._void[s] = 1 << suit
            slot = (s << 7 | i) << 2 | (1 if pile is None else pile + 2)
            drew: tuple[Fact, ...] | None = known[slot]
            if drew is None:
                drew = known[slot] = (Drew(seat=s, card=self._deck.cards[i], pile=pile),)
            if piles[0] or len(piles) > 1 and piles[1]:
                return drew
            facts.extend(drew)
        allowed, dig = choices(self._hands[s], suit, self._jp)
        if dig and not allowed and not any(self._piles):
            self._pass(s, facts, auto=True)
            self._advance(s, facts)
        return None

    def _pass(self, s: int, facts: list[Fact], auto: bool = False) -> None:
        suit = self._suit
        self._acted |= 1 << s
        self._passers.append(s)
        self._void[s] = self._void[s] | 1 << suit | self._jbit
        if auto:
            facts.append(_CANNOT_FOLLOW[s][suit])

    def _advance(self, s: int, facts: list[Fact]) -> None:
        """Give the turn to the next seat of the trick (passing for it when it must), or
        end the trick."""
        n, hands, suit = self._n, self._hands, self._suit
        # With the led suit set and the stock empty, a seat holding neither that suit nor
        # the joker must pass: :func:`choices` gives it nothing to play and it cannot dig.
        blocked = SUIT_MASKS[suit] | JOKER_BIT if suit != NO_SUIT and not any(self._piles) else 0
        seat = s
        for _ in range(n):
            seat = seat + 1 if seat + 1 < n else 0
            if self._acted >> seat & 1:
                break
            hand = hands[seat]
            if not hand:
                continue
            if blocked and not hand & blocked:
                self._pass(seat, facts, auto=True)
                continue
            self._turn = seat
            return
        self._end_trick(facts)

    def _end_trick(self, facts: list[Fact]) -> None:
        plays, passers, rules = self._plays, self._passers, self._rules
        winner = self._win & 15
        self._collected = []
        if passers and rules.passers_collect:
            for p, cards in zip(passers, share_out([c for _, c in plays], passers), strict=True):
                m = sum(1 << c for c in cards)
                if m:
                    self._hands[p] = self._hands[p] | m
                    self._known[p] = self._known[p] | m
                    self._collected.append((p, m))
                    facts.append(CardsTaken(seat=p, cards=cards_of(m, self._deck)))
        else:
            dead = self._dead
            for _, c in plays:
                dead |= 1 << c
            self._dead = dead
        leader = passers[0] if passers and self._rules.lead_after_pass == "first_passer" else winner
        if not self._hands[leader]:
            leader = self._lead_after_out(winner)
        facts.append(_TRICK_WON[winner][leader])
        self._plays = []
        self._passers = []
        self._acted = 0
        self._suit = NO_SUIT
        self._turn = self._trick_leader = leader
        if passers and rules.passers_collect and not any(self._piles):
            self._stall += 1  # no card left play (a -1 from a player going out makes it 0)
            if self._stall >= rules.stall_limit > 0:
                self._stalemate(facts)
        else:
            self._stall = 0

    def _lead_after_out(self, winner: int) -> int:
        """Notes §4.1: the winner has gone out; ``next_active`` or ``highest_remaining``."""
        if self._rules.lead_after_out == "highest_remaining":
            remaining = [(s, c) for s, c in self._plays if self._hands[s]]
            if remaining:
                return max(remaining, key=lambda sc: sc[1] if sc[1] == JOKER or sc[1] // STRIDE == self._suit
                           else -1)[0]
        seat = winner
        for _ in range(self._n):
            seat = (seat + 1) % self._n
            if self._hands[seat]:
                return seat
        return winner

    def _stalemate(self, facts: list[Fact]) -> None:
        """End a deal that stopped moving (``stall_limit``; :func:`.scoring.stalemate`)."""
        left = [h.bit_count() for h in self._hands]
        result = self._result = stalemate(self._rules, left, self._out, self._stall)
        facts.append(Stalemate(tricks=self._stall))
        if "winners" in result.details:
            winners = tuple(result.details["winners"])
            facts.append(FewestCards(seats=winners, cards=left[winners[0]]))
            facts.append(DealEnded(reason="stalemate", winners=winners))
        else:
            losers = tuple(result.details["losers"])
            facts.append(MostCards(seats=losers, cards=left[losers[0]]))
            facts.append(DealEnded(reason="stalemate", losers=losers))
        self._phase = "over"

    def _finish(self, *, winner: int | None) -> None:
        """Score the deal: ``winner`` emptied the hand (Cangkul), or ``None`` when the drop-out
        order is complete and its last seat lost (Cangkul variation 1, the Burros)."""
        left = [h.bit_count() for h in self._hands]
        self._result = (out_result(self._rules, left, winner) if winner is not None
                        else last_holder_result(self._rules, left, self._out))
        self._phase = "over"

    # --- views, copies, records ----------------------------------------------------
    @property
    def voids(self) -> tuple[int, ...]:
        """Per seat, the classes of cards (suits 0-3, the joker :data:`JOKER_CLASS`) that its
        unseen cards (those it did not take publicly) cannot hold, from public moves only:
        digging or passing on a led suit shows none of it (and, under
        ``joker_play="must_when_void"``, no joker); a draw it keeps (an unseen card of
        another suit) leaves only that suit's void; a knock clears them."""
        return tuple(self._void)

    def observe(self, seat: int | None) -> CangkulView:
        """The view of ``seat`` (``None``: a spectator): never another seat's hidden cards."""
        deck = self._deck
        over = self._phase == "over"
        turn = None if over else self._turn
        legal = (tuple(str(a) for a in self.legal_actions(seat))
                 if seat is not None and seat == turn else ())
        cards = deck.cards
        table = tuple(TablePlay(seat=s, cards=(cards[c],)) for s, c in self._plays)  # type: ignore[arg-type]
        top = None
        if self._plays:
            best = self._win & 15
            top = next(t for t in reversed(table) if t.seat == best)
        known = tuple(cards_of(m, deck) for m in self._known)
        voids = tuple(tuple(_SUITS[u] for u in range(4) if v >> u & 1) for v in self._void)
        status: list[Fact] = []
        if not over:
            if self._plays and self._suit == NO_SUIT:
                status.append(JokerLead(seat=self._plays[0][0]))
            for s in range(self._n):
                if known[s]:
                    status.append(KnownCards(seat=s, cards=known[s]))
                if s != seat:
                    status.extend(Void(seat=s, suit=SUIT_TERMS[_SUITS.index(u)]) for u in voids[s])
            if self._stall > 0 and self._rules.stall_limit:
                status.append(StallCount(tricks=self._stall, limit=self._rules.stall_limit))
        return CangkulView(
            game=self._game.spec.name, seat=seat, num_players=self._n,
            phase=CangkulPhase.OVER if over else CangkulPhase.PLAY,
            hand=cards_of(self._hands[seat], deck) if seat is not None else None,
            counts=tuple(h.bit_count() for h in self._hands),
            to_act=() if turn is None else (turn,), current_seat=turn, legal_actions=legal,
            table=table, top=top, passed=tuple(self._passers),
            out=tuple(self._out) if self._rules.drop_out else (), stock=self.stock_sizes(),
            status=tuple(status), history=self._history_cache().view(self._history, seat),
            result=self._result.to_dict() if self._result is not None else None,
            direction=self._rules.direction, pack=self._rules.pack, ace_high=self._rules.ace_high,
            led_suit=_SUITS[self._suit] if self._suit != NO_SUIT else None,
            trick_leader=self._trick_leader,
            collected=tuple((s, cards_of(m, deck)) for s, m in self._collected),
            known=known, voids=voids, joker_void=tuple(bool(v >> JOKER_CLASS & 1) for v in self._void),
            dead=cards_of(self._dead, deck), stall=max(self._stall, 0),
            stall_limit=self._rules.stall_limit, stall_reset=self._stall < 0)

    def _history_cache(self) -> HistoryCache:
        cache = self._cache
        if cache is None:
            cache = self._cache = HistoryCache(describe_action)
        return cache

    def clone(self) -> Self:
        new = type(self).__new__(type(self))
        for name in _SLOTS:
            setattr(new, name, getattr(self, name))
        new._hands = list(self._hands)
        new._known = list(self._known)
        new._piles = [list(p) for p in self._piles]
        new._plays = list(self._plays)
        new._passers = list(self._passers)
        new._out = list(self._out)
        new._history = list(self._history)
        new._cache = self._cache.copy() if self._cache is not None else None
        new._void = list(self._void)
        new._collected = list(self._collected)
        if self._rng is not None:
            new._rng = random.Random()
            new._rng.setstate(self._rng.getstate())
        return new

    def deal_info(self) -> dict[str, Any]:
        deck = self._deck
        return {"setup": dict(self._setup),
                "hands": [[str(c) for c in cards_of(h, deck)] for h in self._start_hands],
                "stock": [str(deck.cards[c]) for c in self._start_stock]}

    def all_cards(self) -> dict[str, tuple[Any, ...]]:
        deck = self._deck
        places = {f"hand {s}": cards_of(h, deck) for s, h in enumerate(self._hands)}
        for p, pile in enumerate(self._piles):
            places[f"stock {p}"] = tuple(deck.cards[c] for c in reversed(pile))  # type: ignore[misc]
        places["trick"] = tuple(deck.cards[c] for _, c in self._plays)  # type: ignore[misc]
        places["dead"] = cards_of(self._dead, deck)
        places["unused"] = cards_of(self._unused, deck)
        return places

    def hidden_cards(self, seat: int | None) -> tuple[Any, ...]:
        """Others' hands except the cards they took publicly, the stock, and the cards
        of the pack a study position leaves out."""
        hidden = self._unused
        for s, h in enumerate(self._hands):
            if s != seat:
                hidden |= h & ~self._known[s]
        for pile in self._piles:
            for c in pile:
                hidden |= 1 << c
        return cards_of(hidden, self._deck)

    def __repr__(self) -> str:
        return (f"<CangkulState {self._rules.title} {self._phase} turn={self._turn} "
                f"suit={self._suit} counts={[h.bit_count() for h in self._hands]} "
                f"stock={self.stock_sizes()}>")


def _mask(cards: Sequence[Card], index: dict[Card, int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << index[c]
    return m


def _void_mask(suits: Sequence[Suit], joker: bool) -> int:
    m = 1 << JOKER_CLASS if joker else 0
    for u in suits:
        m |= 1 << _SUITS.index(u)
    return m


def _event_of(seen: ViewEvent) -> Event:
    """An event of a world, from the view's: the action from its fact, the facts as seen."""
    act = seen.act
    action: CangkulAction
    if isinstance(act, Played):
        action = act.cards[0]
    elif isinstance(act, Dig):
        action = DRAW if act.pile is None else (DRAW_LEFT, DRAW_RIGHT)[act.pile]
    else:
        action = PASS
    return Event(seen.seat, action, seen.facts)
