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
from typing import Any, Final, NoReturn, Self

from folkdeck.cards import Card
from folkdeck.engine.errors import (
    IllegalActionError,
    WrongPhaseError,
    not_an_action,
    not_held,
    not_your_turn,
)
from folkdeck.engine.facts import Fact
from folkdeck.engine.state_base import StateBase
from folkdeck.engine.values import Action, DealInfo, Event, new_event
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
from folkdeck.games.cangkul.deal import JOKER_CLASS, CangkulDeal, deal_from_view
from folkdeck.games.cangkul.events import (
    describe_action,
)
from folkdeck.games.cangkul.messages import why_no_dig, why_not_card
from folkdeck.games.cangkul.observation import CangkulPhase, CangkulView
from folkdeck.games.cangkul.options import JokerPlay
from folkdeck.games.cangkul.play import CangkulFlow
from folkdeck.games.cangkul.rules import (
    FOLLOW,
    JOKER_BIT,
    NO_SUIT,
    PLAY_ON,
    STRIDE,
    CangkulGameLike,
    Deck,
    Ruleset,
    cards_of,
    choices,
    split_stock,
)
from folkdeck.games.cangkul.seen import view_of

__all__ = ["JOKER_CLASS", "CangkulState"]

_DRAW_ONLY: Final = (DRAW,)
_DRAW_BOTH: Final = (DRAW_LEFT, DRAW_RIGHT)
_DRAW_LEFT_ONLY: Final = (DRAW_LEFT,)
_DRAW_RIGHT_ONLY: Final = (DRAW_RIGHT,)
_PASS_ONLY: Final = (PASS,)
"""The digging choices, made once (:meth:`CangkulState.legal_actions` is on the hot path)."""
_PASSES: Final = -1
_DRAWS: Final = -2
"""What the check in :meth:`CangkulState.apply` finds for a legal pass, or a draw from the one
pile; a draw from pile ``p`` of two is ``_DRAWS - 1 - p``, a card its index."""


class CangkulState(StateBase[CangkulAction, CangkulView, CangkulDeal]):
    """A deal of Cangkul, Spanish Burro or Portuguese Burro; make it with
    :meth:`CangkulGame.new_state`, or a world agreeing with a seat's view with
    :meth:`from_view`. What play changes is in :attr:`deal` (:class:`~folkdeck.games.
    cangkul.deal.CangkulDeal`); the transitions are its :class:`~folkdeck.games.cangkul.play.
    CangkulFlow`, shared by its clones with the game, the rules and the deck."""

    __slots__ = ("_game", "_rules", "_jp", "_deck", "_by_id", "_flow")
    _shared = ("_game", "_rules", "_jp", "_deck", "_by_id", "_flow")
    """All it holds beside its deal: a clone shares them."""
    _game: CangkulGameLike
    _rules: Ruleset
    _jp: JokerPlay
    _deck: Deck
    _by_id: dict[int, int]
    _flow: CangkulFlow

    def __init__(self, game: CangkulGameLike, hands: list[int], stock: list[int], *, leader: int,
                 setup: dict[str, Any], knock_seed: int | None, unused: int | None = None) -> None:
        rules = game.rules
        if unused is None:
            in_play = sum(hands)
            for c in stock:
                in_play |= 1 << c
            unused = game.deck.full & ~in_play
        n = len(hands)
        self._table(game, n)
        self.deal = CangkulDeal(
            hands=list(hands), known=[0] * n, start_hands=tuple(hands), start_stock=tuple(stock),
            piles=[p[::-1] for p in split_stock(stock, rules.piles)],  # the top is last
            setup=dict(setup), unused=unused, dead=0,
            rng=random.Random(knock_seed) if rules.knock_prob > 0 else None,
            phase="play", turn=leader, trick_leader=leader, plays=[], suit=NO_SUIT, acted=0, passers=[],
            out=[s for s in range(n) if not hands[s]], history=[], void=[0] * n, collected=[], result=None,
            stall=0, win=0)

    @classmethod
    def from_view(cls, game: CangkulGameLike, view: CangkulView, *, hands: Sequence[Sequence[Card]],
                  piles: Sequence[Sequence[Card]], knock_seed: int | None = None) -> Self:
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
        state = cls.__new__(cls)
        state._table(game, view.num_players)
        rng = random.Random(knock_seed) if game.rules.knock_prob > 0 else None
        state.deal = deal_from_view(game.deck, view, hands, piles, rng)
        return state

    def _table(self, game: CangkulGameLike, n: int) -> None:
        """What the state holds besides its deal: the rules' and the deck's, never changed."""
        rules = game.rules
        self._game = game
        self._rules = rules
        self._jp = rules.joker_play
        self._deck = game.deck
        self._by_id = game.deck.by_id
        self._n = n
        self._flow = CangkulFlow(game, n)
        self._cache = None

    # --- the protocol's read side ------------------------------------------------
    @property
    def game(self) -> CangkulGameLike:
        return self._game

    @property
    def to_act(self) -> tuple[int, ...]:
        deal = self.deal
        return (deal.turn,) if deal.phase == "play" else ()

    @property
    def current_seat(self) -> int | None:
        deal = self.deal
        return deal.turn if deal.phase == "play" else None

    @property
    def led_suit(self) -> int:
        """The led suit (0-3 for S C D H), or -1 before the trick's first suited card."""
        return self.deal.suit

    @property
    def trick_leader(self) -> int:
        return self.deal.trick_leader

    @property
    def stall(self) -> int:
        """Finished tricks in a row, with the stock empty, that the passers took (no card left
        play, nobody went out): the count ``stall_limit`` ends the deal at."""
        return max(self.deal.stall, 0)

    def stock_sizes(self) -> tuple[int, ...]:
        """Cards left in each stock pile (one pile, or left and right)."""
        return tuple(len(p) for p in self.deal.piles)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds (the engine's view: not for agents)."""
        return cards_of(self.deal.hands[seat], self._deck)

    # --- legal actions -------------------------------------------------------------
    def _draws(self) -> tuple[CangkulAction, ...]:
        piles = self.deal.piles
        if len(piles) == 1:
            return _DRAW_ONLY if piles[0] else ()
        left, right = piles
        if left:
            return _DRAW_BOTH if right else _DRAW_LEFT_ONLY
        return _DRAW_RIGHT_ONLY if right else ()

    def legal_actions(self, seat: int | None = None) -> tuple[CangkulAction, ...]:
        """The cards that may be played (suits S C D H, weakest first, then the joker),
        then ``draw`` (``draw left``, ``draw right``), or ``pass`` when the stock is empty."""
        deal = self.deal
        s = deal.turn
        if deal.phase != "play" or (seat is not None and seat != s):
            return ()
        hand, suit = deal.hands[s], deal.suit
        if suit == NO_SUIT:  # a lead (or the card after a joker lead): any held card
            return cards_of(hand, self._deck)
        if not hand & JOKER_BIT:
            # The common case, a follower without the joker: what :func:`choices` gives,
            # straight from the deck's per-suit cache (the held cards that follow, else dig).
            follow = hand & FOLLOW[suit]
            if not follow:
                piles = deal.piles
                if len(piles) == 1:
                    return _DRAW_ONLY if piles[0] else _PASS_ONLY
                return self._draws() or _PASS_ONLY
            got = self._deck.suit_cards[suit][follow >> (STRIDE * suit)]
            return got if got is not None else cards_of(follow, self._deck)
        allowed, dig = choices(hand, suit, self._jp)
        cards: tuple[CangkulAction, ...] = cards_of(allowed, self._deck)
        if dig:
            return cards + (self._draws() or _PASS_ONLY)
        return cards

    def _check_uncommon(self, action: Action, s: int, i: int | None, hand: int, suit: int) -> int:
        """:meth:`apply`'s check past its cheap common cases: any card, draw or pass of seat ``s``
        on turn (``i``: the card's index if it is this deck's own object)."""
        allowed, dig = choices(hand, suit, self._jp)
        if i is None and isinstance(action, Card):
            i = self._deck.index.get(action)
            if i is None:
                raise IllegalActionError("cangkul.not_in_pack", seat=s, action=str(action),
                                         pack=self._rules.pack, game=self._game.spec.name)
        if i is not None:
            if allowed >> i & 1:
                return i
            self._refuse_card(s, action, i, hand, dig)
        if isinstance(action, Draw):
            piles = self.deal.piles
            pile = action.pile
            if dig and (pile is None) == (len(piles) == 1) and piles[pile or 0]:
                return _DRAWS if pile is None else _DRAWS - 1 - pile  # the pile, one or named, has cards
            self._refuse_draw(s, action, hand, dig)
        if isinstance(action, Pass):
            self._check_pass(s, hand, dig)
            return _PASSES
        raise not_an_action("cangkul", s, action)

    def _refuse_card(self, s: int, action: Action, i: int, hand: int, dig: bool) -> NoReturn:
        """Why seat ``s`` may not play card ``i`` (:meth:`_check_uncommon` found it may not)."""
        if not hand >> i & 1:
            raise not_held("cangkul", s, action, str(action))
        reason, params = why_not_card(self._deck, self.deal.suit, self._jp, s, i, hand, dig)
        raise IllegalActionError(reason, action=str(action), game=self._game.spec.name, **params)

    def _check_pass(self, s: int, hand: int, dig: bool) -> None:
        """A pass is legal only for a seat that must dig (no card to follow) with the stock empty."""
        deal = self.deal
        if not dig:
            reason, params = why_no_dig(self._deck, deal.suit, bool(deal.plays), s, hand, passing=True)
            raise IllegalActionError(reason, action="pass", game=self._game.spec.name, **params)
        if any(deal.piles):
            raise IllegalActionError("cangkul.no_pass_with_stock", seat=s, action="pass")

    def _refuse_draw(self, s: int, action: Draw, hand: int, dig: bool) -> NoReturn:
        """Why seat ``s`` may not draw as ``action`` says (:meth:`_check_uncommon` found it may not)."""
        deal = self.deal
        piles = deal.piles
        pile = action.pile
        if not dig:
            reason, params = why_no_dig(self._deck, deal.suit, bool(deal.plays), s, hand)
            raise IllegalActionError(reason, action=str(action), game=self._game.spec.name, **params)
        if not any(piles):
            raise IllegalActionError("cangkul.stock_empty", seat=s, action=str(action))
        if pile is None:
            raise IllegalActionError("cangkul.say_pile", seat=s, action=str(action))
        if len(piles) == 1:
            raise IllegalActionError("cangkul.one_pile", seat=s, action=str(action))
        raise IllegalActionError("cangkul.pile_empty", seat=s, action=str(action), pile=pile)

    def parse_action(self, text: str, seat: int | None = None) -> CangkulAction:
        """Read ``text`` (a card, ``draw``, ``draw left|right``, ``pass``); legality is
        checked by :meth:`apply`. With two piles, a bare ``draw`` means the only pile
        left when the other is empty."""
        action = parse_action(text)
        piles = self.deal.piles
        if action is DRAW and len(piles) == 2:
            left, right = piles
            if left and not right:
                return DRAW_LEFT
            if right and not left:
                return DRAW_RIGHT
        return action

    # --- transitions ---------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn).

        The one statement of who may do what (:meth:`verify` tries it on a copy): the
        cheap common cases here, the rest in :meth:`_check_uncommon`.
        """
        deal = self.deal
        if deal.phase == "over":
            raise WrongPhaseError("deal_over", phase="over", action=str(action))
        s = deal.turn
        if seat is not None and seat != s:
            raise not_your_turn("cangkul", self._seat(seat), (s,), action)
        hand, suit = deal.hands[s], deal.suit
        # This deck's own card objects are found by identity (a Card hashes in Python).
        i = self._by_id.get(id(action))
        # The common cases are checked here (a call less per action): a held card that
        # follows (any card on a lead), and a draw from a pile with cards by a seat with
        # nothing to play on the led suit (what choices() allows); the rest in _check_uncommon.
        facts: list[Fact] = []
        pile: int | None
        if i is not None and (hand & FOLLOW[suit]) >> i & 1:
            done = i
        elif (isinstance(action, Draw) and not hand & PLAY_ON[suit]
              and ((pile := action.pile) is None) == (len(deal.piles) == 1) and deal.piles[pile or 0]):
            done = _DRAWS if pile is None else _DRAWS - 1 - pile
        else:
            done = self._check_uncommon(action, s, i, hand, suit)
        if done >= 0:
            self._flow.play(deal, s, done, facts)
            event: Event = new_event((s, action, tuple(facts) if facts else ()))
        elif done <= _DRAWS:
            drew = self._flow.draw(deal, s, None if done == _DRAWS else _DRAWS - 1 - done, facts)
            event = new_event((s, action, drew if drew is not None else tuple(facts)))
        else:
            self._flow.pass_turn(deal, s, facts)
            self._flow.advance(deal, s, facts)
            event = new_event((s, action, tuple(facts)))
        deal.history.append(event)
        return event

    # --- views, copies, records ----------------------------------------------------
    @property
    def voids(self) -> tuple[int, ...]:
        """Per seat, the classes of cards (suits 0-3, the joker :data:`JOKER_CLASS`) that its
        unseen cards (those it did not take publicly) cannot hold, from public moves only:
        digging or passing on a led suit shows none of it (and, under
        ``joker_play="must_when_void"``, no joker); a draw it keeps (an unseen card of
        another suit) leaves only that suit's void; a knock clears them."""
        return tuple(self.deal.void)

    def observe(self, seat: int | None) -> CangkulView:
        """The view of ``seat`` (``None``: a spectator): never another seat's hidden cards."""
        core = self._view_core(seat, self.to_act, describe_action)
        return view_of(core, self._game.spec.name, self._rules, self._deck, self.deal, seat)

    def deal_info(self) -> DealInfo:
        deck, deal = self._deck, self.deal
        return {"setup": dict(deal.setup),
                "hands": [[str(c) for c in cards_of(h, deck)] for h in deal.start_hands],
                "stock": [str(deck.cards[c]) for c in deal.start_stock]}

    def all_cards(self) -> dict[str, tuple[Card, ...]]:
        deck, deal = self._deck, self.deal
        places = {f"hand {s}": cards_of(h, deck) for s, h in enumerate(deal.hands)}
        for p, pile in enumerate(deal.piles):
            places[f"stock {p}"] = tuple(deck.cards[c] for c in reversed(pile))  # type: ignore[misc]
        places["trick"] = tuple(deck.cards[c] for _, c in deal.plays)  # type: ignore[misc]
        places["dead"] = cards_of(deal.dead, deck)
        places["unused"] = cards_of(deal.unused, deck)
        return places

    def hidden_cards(self, seat: int | None) -> tuple[Card, ...]:
        """Others' hands except the cards they took publicly, the stock, and the cards
        of the pack a study position leaves out."""
        deal = self.deal
        hidden = deal.unused
        for s, h in enumerate(deal.hands):
            if s != seat:
                hidden |= h & ~deal.known[s]
        for pile in deal.piles:
            for c in pile:
                hidden |= 1 << c
        return cards_of(hidden, self._deck)

    def __repr__(self) -> str:
        deal = self.deal
        return (f"<CangkulState {self._rules.title} {deal.phase} turn={deal.turn} "
                f"suit={deal.suit} counts={[h.bit_count() for h in deal.hands]} "
                f"stock={self.stock_sizes()}>")
