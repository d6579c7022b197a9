"""One deal of Cangkul or Burro as an explicit state machine (seed 003, notes §4).

Phases: ``play`` (tricks) and ``over``. A trick: the leader plays any card; each
seat after it (seat + 1 order, skipping seats that are out) follows suit if it can;
a seat that cannot draws (``draw``) one card at a time until it draws the led suit,
which is played at once. A seat that cannot follow when the stock is empty passes:
**automatically**, recorded as a note on the event that brought the turn to it
("seat 3 cannot follow hearts and the stock is empty: passes"). With the joker in
hand it may choose between the joker and an explicit ``pass``.

A short Cangkul deal from a study position (seat 0 leads; the stock is ``2C 5H``):

>>> from folkdeck import load
>>> state = load("cangkul", players=3).new_state(
...     hands=["9H 3S 5S", "KH 4C 6D 10S", "7D 8D"], stock=["2C", "5H"], setup={"leader": 0})
>>> [str(a) for a in state.legal_actions()]
['3S', '5S', '9H']
>>> print(state.apply(state.parse_action("9H")))
0: 9H
>>> print(state.apply(state.parse_action("KH")))
1: KH
>>> [str(a) for a in state.legal_actions()]          # seat 2 has no hearts: dig
['draw']
>>> print(state.apply(state.parse_action("draw")))    # 2C goes to the hand, unseen
2: draw
>>> print(state.apply(state.parse_action("draw")))
2: draw; seat 2 draws 5H and plays it; seat 1 wins the trick and leads
>>> print(state.apply(state.parse_action("4C")))
1: 4C
>>> state.apply(state.parse_action("7D"))
Traceback (most recent call last):
...
folkdeck.engine.errors.IllegalActionError: seat 2 holds 2C: follow the led suit clubs (not 7D)
>>> print(state.apply(state.parse_action("2C")))     # seat 0: no clubs, the stock is empty
2: 2C; seat 0 cannot follow clubs and the stock is empty: passes; seat 0 takes 2C 4C; seat 1 wins the trick and leads
>>> print(state.apply(state.parse_action("6D")))
1: 6D
>>> print(state.apply(state.parse_action("8D")))
2: 8D; seat 0 cannot follow diamonds and the stock is empty: passes; seat 0 takes 6D 8D; seat 2 wins the trick and leads
>>> print(state.apply(state.parse_action("7D")))
2: 7D; seat 2 has played the last card and wins the deal
>>> state.result().placings, state.result().returns
((None, None, 1), (0.0, 0.0, 1.0))
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Self

from folkdeck.cards import Card
from folkdeck.engine.errors import IllegalActionError, NotYourTurnError, WrongPhaseError
from folkdeck.engine.protocol import Action, Event, Result
from folkdeck.engine.state_base import StateBase
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
from folkdeck.games.cangkul.messages import why_no_dig, why_not_card
from folkdeck.games.cangkul.observation import CangkulObservation
from folkdeck.games.cangkul.rules import (
    JOKER,
    JOKER_BIT,
    NO_SUIT,
    STRIDE,
    SUIT_MASKS,
    cards_of,
    choices,
    notation,
    share_out,
    split_stock,
)
from folkdeck.games.cangkul.scoring import last_holder_result, out_result, stalemate

if TYPE_CHECKING:
    from folkdeck.games.cangkul.game import CangkulGame

LogEntry = tuple[int, str, int]
"""A public fact ``(seat, verb, arg)``: ``lead``/``play`` a card index, ``draw``/``pass``
on a suit, ``take`` a card mask, ``knock`` a card count, ``out`` (arg 0)."""

# The hot path (``folkdeck bench``, search bots) makes an event and its notes on every
# action, so the constant parts are built once here: the digging choices, the most
# common note, and the event itself without the named tuple's Python-level __new__.
_DRAW_ONLY, _DRAW_BOTH = (DRAW,), (DRAW_LEFT, DRAW_RIGHT)
_DRAW_LEFT_ONLY, _DRAW_RIGHT_ONLY, _PASS_ONLY = (DRAW_LEFT,), (DRAW_RIGHT,), (PASS,)
_WINS_AND_LEADS = tuple(f"seat {s} wins the trick and leads" for s in range(16))  # options allow 8
_PLAY_ON = tuple(m | JOKER_BIT for m in SUIT_MASKS)
"""Per led suit, the cards that let a seat play on (follow, or the joker) without digging."""
_NEXTS = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(17))
"""``_NEXTS[n][s]``: the seat after ``s`` at an ``n``-seat table."""
_new_event = tuple.__new__  # ``_new_event(Event, (seat, action, notes))`` == ``Event(seat, action, notes)``


class CangkulState(StateBase):
    """A deal of Cangkul, Spanish Burro or Portuguese Burro; make it with
    :meth:`CangkulGame.new_state`."""

    __slots__ = ("_game", "_rules", "_deck", "_n", "_hands", "_known", "_piles", "_start_hands",
                 "_start_stock", "_setup", "_unused", "_dead", "_rng", "_phase", "_turn",
                 "_trick_leader", "_plays", "_suit", "_acted", "_passers", "_out", "_history",
                 "_log", "_collected", "_result", "_jp", "_by_id", "_stall", "_win", "_nexts")

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
        self._log: list[LogEntry] = []
        self._collected: list[tuple[int, int]] = []
        self._result: Result | None = None
        self._stall = 0
        self._win = 0
        """The trick's winning play so far as ``card index << 4 | seat``."""

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
    def _seat(self, seat: int | None) -> int:
        if seat is None:
            if self._phase == "over":
                raise WrongPhaseError("the deal is over: no seat may act", phase="over")
            return self._turn
        if not 0 <= seat < self._n:
            raise NotYourTurnError(f"there is no seat {seat} in a {self._n}-player game", seat=seat)
        return seat

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
        if suit != NO_SUIT and not hand & JOKER_BIT:
            # The common case, a follower without the joker: what :func:`choices` gives,
            # straight from the deck's per-suit cache (the held cards of the led suit,
            # else dig).
            follow = hand >> (STRIDE * suit) & 0xFFFF
            if not follow:
                piles = self._piles
                if len(piles) == 1:
                    return _DRAW_ONLY if piles[0] else _PASS_ONLY
                return self._draws() or _PASS_ONLY
            got = self._deck.suit_cards[suit].get(follow)
            return got if got is not None else cards_of(hand & SUIT_MASKS[suit], self._deck)
        allowed, dig = choices(hand, suit, self._jp)
        cards: tuple[CangkulAction, ...] = cards_of(allowed, self._deck)
        if dig:
            return cards + (self._draws() or _PASS_ONLY)
        return cards

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise the reason an action is illegal now; return ``None`` if it is legal.

        :raises WrongPhaseError: the deal is over.
        :raises NotYourTurnError: another seat is on turn.
        :raises IllegalActionError: the rules refuse it (the message says why).
        """
        if self._phase == "over":
            raise WrongPhaseError(f"the deal is over: {action} is not possible", phase="over",
                                  action=str(action))
        s = self._seat(seat)
        if s != self._turn:
            raise NotYourTurnError(f"seat {s} may not act now: waiting for seat {self._turn}",
                                   seat=s, action=str(action))
        hand = self._hands[s]
        allowed, dig = choices(hand, self._suit, self._jp)
        if isinstance(action, Card):
            i = self._deck.index.get(action)
            if i is None:
                raise IllegalActionError(f"{action} is not a card of the {self._deck.pack.name} pack",
                                         seat=s, action=str(action), reason="not in the pack")
            if not hand >> i & 1:
                raise IllegalActionError(f"seat {s} does not hold {action}", seat=s,
                                         action=str(action), reason="card not in hand")
            if not allowed >> i & 1:
                why = why_not_card(self._deck, self._suit, self._jp, s, i, hand, dig)
                raise IllegalActionError(why, seat=s, action=str(action), reason=why)
            return
        if isinstance(action, Draw):
            if not dig:
                why = why_no_dig(self._deck, self._suit, bool(self._plays), s, hand)
                raise IllegalActionError(why, seat=s, action=str(action), reason=why)
            piles = self._piles
            if not any(piles):
                why = f"the stock is empty: seat {s} cannot draw"
                raise IllegalActionError(why, seat=s, action=str(action), reason=why)
            if action.pile is None and len(piles) == 2:
                why = "the stock stands in two piles: say 'draw left' or 'draw right'"
                raise IllegalActionError(why, seat=s, action=str(action), reason=why)
            if action.pile is not None and len(piles) == 1:
                why = "the stock is one pile: say 'draw'"
                raise IllegalActionError(why, seat=s, action=str(action), reason=why)
            if action.pile is not None and not piles[action.pile]:
                why = f"the {('left', 'right')[action.pile]} pile is empty: draw from the other pile"
                raise IllegalActionError(why, seat=s, action=str(action), reason=why)
            return
        if isinstance(action, Pass):
            if not dig:
                why = why_no_dig(self._deck, self._suit, bool(self._plays), s, hand).replace("instead of drawing", "instead of passing")
                raise IllegalActionError(why, seat=s, action="pass", reason=why)
            if any(self._piles):
                why = f"seat {s} may not pass while the stock holds cards: draw"
                raise IllegalActionError(why, seat=s, action="pass", reason=why)
            return
        raise IllegalActionError(f"{action!r} is not a {self._rules.title} action", seat=s,
                                 action=str(action))

    def _suit_name(self, suit: int) -> str:
        return self._deck.suit_name(suit)

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
    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn)."""
        s = self._turn
        notes: list[str] = []
        if (seat is None or seat == s) and self._phase == "play":
            # The fast paths, for the seat on turn: the checks of :meth:`verify` for the
            # actions :meth:`legal_actions` hands out; anything else goes the long way.
            hand, suit = self._hands[s], self._suit
            i = self._by_id.get(id(action))  # one of this deck's own card objects
            if i is not None:
                # A held card is legal on a lead or in the led suit; other cards (off
                # suit, the joker) need the full rule.
                if hand >> i & 1 and (suit == NO_SUIT or i >> 4 == suit
                                      or choices(hand, suit, self._jp)[0] >> i & 1):
                    self._play(s, i, notes)
                    event: Event = _new_event(Event, (s, action, tuple(notes) if notes else ()))
                    self._history.append(event)
                    return event
            elif action.__class__ is Draw:
                piles = self._piles
                pile = action.pile
                # Void in the led suit without the joker: dig; else :func:`choices` decides.
                if (pile is None) == (len(piles) == 1) and piles[pile or 0] and (
                        suit != NO_SUIT and not hand & _PLAY_ON[suit] or choices(hand, suit, self._jp)[1]):
                    self._draw(s, pile or 0, notes)
                    event = _new_event(Event, (s, action, tuple(notes) if notes else ()))
                    self._history.append(event)
                    return event
        s = self._seat(seat)
        self.verify(action, s)
        if isinstance(action, Card):
            self._play(s, self._deck.index[action], notes)
        elif isinstance(action, Draw):
            self._draw(s, action.pile or 0, notes)
        else:
            self._pass(s, notes)
            self._advance(s, notes)
        event = Event(s, action, tuple(notes))
        self._history.append(event)
        return event

    def _play(self, s: int, i: int, notes: list[str]) -> None:
        bit = 1 << i
        hands, known, plays = self._hands, self._known, self._plays
        hands[s] ^= bit
        if known[s]:
            known[s] &= ~bit
        key = i << 4 | s  # the trick's best card so far, with its seat (seats < 16)
        if plays:
            self._log.append((s, "play", i))
            suit = self._suit
            if suit == NO_SUIT and i != JOKER:
                suit = self._suit = i >> 4
            # The highest card of the led suit, or the joker (:func:`trick_winner`).
            if key > self._win and (i >> 4 == suit or i == JOKER):
                self._win = key
        else:
            self._log.append((s, "lead", i))
            self._win = key
            if i != JOKER:
                self._suit = i >> 4
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
                notes.append(f"seat {s} has played the last card and wins the deal")
                self._finish(winner=s)
                return
            self._out.append(s)
            self._log.append((s, "out", 0))
            self._stall = -1  # going out is progress: this trick's end counts from 0 again
            notes.append(f"seat {s} is out")
            if self._n - len(self._out) <= 1:
                loser = next(t for t in range(self._n) if self._hands[t])
                self._out.append(loser)
                notes.append(f"seat {loser} is the last holding cards and loses the deal")
                self._finish(winner=None)
                return
        self._advance(s, notes)

    def _draw(self, s: int, pile: int, notes: list[str]) -> None:
        rng = self._rng
        if rng is not None and rng.random() < self._rules.knock_prob:
            taken = 0
            for p in self._piles:
                for c in p:
                    taken |= 1 << c
                p.clear()
            self._hands[s] |= taken
            self._log.append((s, "knock", taken.bit_count()))
            k = taken.bit_count()
            notes.append(f"seat {s} knocks the stock over and takes all {k} card{'' if k == 1 else 's'}")
        else:
            i = self._piles[pile].pop()
            self._hands[s] |= 1 << i
            self._log.append((s, "draw", self._suit))
            if i >> 4 == self._suit:
                notes.append(f"seat {s} draws {self._deck.names[i]} and plays it")
                self._play(s, i, notes)
                return
            if any(self._piles):
                return
        allowed, dig = choices(self._hands[s], self._suit, self._jp)
        if dig and not allowed and not any(self._piles):
            self._pass(s, notes, auto=True)
            self._advance(s, notes)

    def _pass(self, s: int, notes: list[str], auto: bool = False) -> None:
        self._acted |= 1 << s
        self._passers.append(s)
        self._log.append((s, "pass", self._suit))
        if auto:
            notes.append(f"seat {s} cannot follow {self._deck.suit_words[self._suit]} and the stock is "
                         "empty: passes")

    def _advance(self, s: int, notes: list[str]) -> None:
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
                self._pass(seat, notes, auto=True)
                continue
            self._turn = seat
            return
        self._end_trick(notes)

    def _end_trick(self, notes: list[str]) -> None:
        plays, passers, rules = self._plays, self._passers, self._rules
        winner = self._win & 15
        self._collected = []
        if passers and rules.passers_collect:
            for p, cards in zip(passers, share_out([c for _, c in plays], passers), strict=True):
                m = sum(1 << c for c in cards)
                if m:
                    self._hands[p] |= m
                    self._known[p] |= m
                    self._collected.append((p, m))
                    self._log.append((p, "take", m))
                    notes.append(f"seat {p} takes {notation(m, self._deck)}")
        else:
            dead = self._dead
            for _, c in plays:
                dead |= 1 << c
            self._dead = dead
        leader = passers[0] if passers and self._rules.lead_after_pass == "first_passer" else winner
        if not self._hands[leader]:
            leader = self._lead_after_out(winner)
        if leader == winner:
            notes.append(_WINS_AND_LEADS[winner])
        else:
            notes.append(f"seat {winner} wins the trick; seat {leader} leads")
        self._plays = []
        self._passers = []
        self._acted = 0
        self._suit = NO_SUIT
        self._turn = self._trick_leader = leader
        if passers and rules.passers_collect and not any(self._piles):
            self._stall += 1  # no card left play (a -1 from a player going out makes it 0)
            if self._stall >= rules.stall_limit > 0:
                self._stalemate(notes)
        else:
            self._stall = 0

    def _lead_after_out(self, winner: int) -> int:
        """Notes §4.1: the winner has gone out; ``next_active`` or ``highest_remaining``."""
        if self._rules.lead_after_out == "highest_remaining":
            remaining = [(s, c) for s, c in self._plays if self._hands[s]]
            if remaining:
                return max(remaining, key=lambda sc: sc[1] if sc[1] == JOKER or sc[1] >> 4 == self._suit
                           else -1)[0]
        seat = winner
        for _ in range(self._n):
            seat = (seat + 1) % self._n
            if self._hands[seat]:
                return seat
        return winner

    def _stalemate(self, notes: list[str]) -> None:
        """End a deal that stopped moving (``stall_limit``; :func:`.scoring.stalemate`)."""
        left = [h.bit_count() for h in self._hands]
        self._result = stalemate(self._rules, left, self._out, self._stall, notes)
        self._phase = "over"

    def _finish(self, *, winner: int | None) -> None:
        """Score the deal: ``winner`` emptied the hand (Cangkul), or ``None`` when the drop-out
        order is complete and its last seat lost (Cangkul variation 1, the Burros)."""
        left = [h.bit_count() for h in self._hands]
        self._result = (out_result(self._rules, left, winner) if winner is not None
                        else last_holder_result(self._rules, left, self._out))
        self._phase = "over"

    # --- views, copies, records ----------------------------------------------------
    def observe(self, seat: int | None) -> CangkulObservation:
        """The view of ``seat`` (``None``: a spectator): never another seat's hidden cards."""
        deck = self._deck
        legal = (tuple(str(a) for a in self.legal_actions(seat))
                 if seat is not None and seat == self.current_seat else ())
        log = tuple((s, verb, self._log_arg(verb, arg)) for s, verb, arg in self._log)
        return CangkulObservation(
            title=self._rules.title, seat=seat, num_players=self._n, phase=self._phase,
            direction=self._rules.direction,
            hand=cards_of(self._hands[seat], deck) if seat is not None else None,
            counts=tuple(h.bit_count() for h in self._hands), stock=self.stock_sizes(),
            led_suit=self._suit_name(self._suit) if self._suit != NO_SUIT else None,
            led_suit_letter="SCDH"[self._suit] if self._suit != NO_SUIT else None,
            trick_leader=self._trick_leader,
            trick=tuple((s, str(deck.cards[c])) for s, c in self._plays),
            passers=tuple(self._passers),
            collected=tuple((s, notation(m, deck)) for s, m in self._collected),
            known=tuple(notation(m, deck) for m in self._known),
            out=tuple(self._out) if self._rules.drop_out else (),
            dead=self._dead.bit_count(), current_seat=self.current_seat,
            log=log, history=tuple(str(e) for e in self._history), legal_actions=legal,
            card_names=tuple((str(c), deck.pack.card_name(c)) for c in
                             (deck.cards[i] for _, i in self._plays) if c is not None),
            result=self._result.to_dict() if self._result is not None else None,
            stall=max(self._stall, 0), stall_limit=self._rules.stall_limit)

    def _log_arg(self, verb: str, arg: int) -> str:
        if verb in ("lead", "play"):
            return str(self._deck.cards[arg])
        if verb in ("draw", "pass"):
            return "SCDH"[arg]
        if verb == "take":
            return notation(arg, self._deck)
        return str(arg)

    def clone(self) -> Self:
        new = object.__new__(type(self))
        for name in self.__slots__:
            setattr(new, name, getattr(self, name))
        new._hands = list(self._hands)
        new._known = list(self._known)
        new._piles = [list(p) for p in self._piles]
        new._plays = list(self._plays)
        new._passers = list(self._passers)
        new._out = list(self._out)
        new._history = list(self._history)
        new._log = list(self._log)
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
