"""One deal of Cambio as an explicit state machine (docs/rules/cambio.md §4-§5).

Phases: ``exchange`` (each active player in turn from the dealer's right says
``change`` or ``keep``; the dealer, last, changes with the stock) and ``over``.

The owl's call: before every declaration, each *other* active player holding an
OWL may call ``cucco`` out of turn; those seats follow the player on turn in
:attr:`CambioState.to_act`. The player on turn may also call it if they hold an OWL.
Once a request has reached an OWL it is too late: it is exchanged (docs/rules/cambio.md §6.2).
An OWL is a hidden card, so a seat's view (:meth:`CambioState.observe`) lists only
the seat on turn and, if it holds an OWL itself, that seat (:meth:`view_to_act`).

What follows from an action is told as typed facts (:mod:`~folkdeck.games.cambio.events`).
A short deal (the dealer is seat 2, so seat 0 speaks first):

>>> from folkdeck import load
>>> from folkdeck.i18n import Renderer
>>> state = load("cambio", players=3).new_state(
...     hands=["3", "HORSE", "FOOL"], stock=["OWL", "7", "MAN"], setup={"dealer": 2})
>>> state.to_act, [str(a) for a in state.legal_actions()]
((0,), ['change', 'keep'])
>>> event = state.apply(state.parse_action("change"))
>>> [f.type for f in event.facts]
['cambio.passed_on', 'exchanged', 'disqualified', 'cambio.shows']
>>> en = Renderer("en", game="cambio")
>>> print("; ".join(en.fact(f) for f in event.facts))
Seat 1 holds a HORSE: seat 0's request passes on to seat 2; Seat 0 and seat 2 exchange cards; Seat 0 is disqualified (received the FOOL); Seat 0 shows and discards FOOL
>>> _ = state.apply(state.parse_action("keep"))
>>> event = state.apply(state.parse_action("change"))
>>> print("; ".join(en.fact(f) for f in event.facts))
The stock turns up an OWL: the stock calls cucco, the exchanges end; Showdown: seat 1 shows HORSE (13); Showdown: seat 2 shows 3 (3); Seat 2 holds the lowest card and loses; The deal is over (the stock's OWL calls cucco)
>>> state.result().details["losers"]
[0, 2]
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, Self

from folkdeck.engine.errors import (
    IllegalActionError,
    NotYourTurnError,
    WrongPhaseError,
    not_an_action,
    not_your_turn,
)
from folkdeck.engine.facts import DealEnded, Disqualified, Exchanged, Fact
from folkdeck.engine.protocol import Event, Result
from folkdeck.engine.state_base import StateBase
from folkdeck.engine.view import HistoryCache
from folkdeck.games.cambio.actions import CHANGE, CUCCO, KEEP, CambioAction, parse_action
from folkdeck.games.cambio.events import (
    CatCurse,
    LastPlayer,
    Lowest,
    PassedOn,
    Refused,
    RequestLapsed,
    Reshuffled,
    Showdown,
    Shows,
    StockCard,
    TookStock,
    TookStockFaceDown,
    describe_action,
)
from folkdeck.games.cambio.observation import CambioView, Phase, status_facts
from folkdeck.games.cambio.rules import (
    CARDS,
    FOOL,
    KIND,
    NAMES,
    NUM_KINDS,
    OWL,
    STOCK,
    Answer,
    answer,
    payment,
    showdown_losers,
    unfold,
)

if TYPE_CHECKING:
    from folkdeck.games.cambio.game import CambioGame

# ``_new_event(_EVENT, (seat, action, facts))`` == ``Event(seat, action, facts)``, without the
# named tuple's Python-level ``__new__`` (made on every action). Compiled, the ``Final`` alias
# is read from a C static, where the imported ``Event`` is looked up in the module's dict.
_new_event: Final = tuple.__new__
_EVENT: Final = Event

_TURN: Final = (CHANGE, KEEP)
_TURN_OWL: Final = (CHANGE, KEEP, CUCCO)
_OWL_ONLY: Final = (CUCCO,)
_UP: Final = -1
_DOWN: Final = 0
_ANSWERS: Final = {refuses: tuple(answer(k, to_stock=False, owl_refuses=refuses) for k in range(NUM_KINDS))
            for refuses in (False, True)}
_STOCK_ANSWERS: Final = tuple(answer(k, to_stock=True, owl_refuses=False) for k in range(NUM_KINDS))
_WORDS: Final = {a.value: a for a in CambioAction}



# The facts a deal makes on every step, made once per distinct value and shared (facts are
# immutable): a Cambio deal is a handful of actions, so building a fact each time would be a
# fifth of its cost (folkdeck bench). Keyed by card kinds (ints, hashed in C; a Card hashes in
# Python). Bounded: a 39-seat table has millions of combinations.
_shared: Final = lru_cache(maxsize=4096)
_exchanged: Final = _shared(lambda seat, other: Exchanged(seat=seat, other=other))
_passed_on: Final = _shared(lambda seat, kind, requester, to: PassedOn(seat=seat, card=CARDS[kind], requester=requester,
                                                                       to=to))
_refused: Final = _shared(lambda seat, kind, requester: Refused(seat=seat, card=CARDS[kind], requester=requester))
_stock_card: Final = _shared(lambda kind, requester: StockCard(card=CARDS[kind], requester=requester))
_showdown: Final = _shared(lambda seat, kind, value, from_stock: Showdown(seat=seat, card=CARDS[kind], value=value,
                                                                       from_stock=from_stock))
_lowest: Final = _shared(lambda seat: Lowest(seat=seat))
_EVERYONE: Final = tuple((True,) * n for n in range(64))
"""``in_deal`` of a deal where every seat holds a card, by the number of seats."""
_disqualified: Final = _shared(lambda seat, reason: Disqualified(seat=seat, reason=reason))
_shows: Final = _shared(lambda seat, kind: Shows(seat=seat, card=CARDS[kind]))
_deal_ended: Final = _shared(lambda reason, losers: DealEnded(reason=reason, losers=losers))

_SLOTS: Final = ("_game", "_rules", "_n", "_kind", "_origin", "_start", "_start_stock", "_in_deal", "_active",
          "_order", "_index", "_pos", "_turn", "_stock", "_discards", "_open", "_dq", "_declared",
          "_history", "_phase", "_result", "_known", "_shown", "_setup", "_rng", "_ended_by", "_bits",
          "_start_bits", "_losers", "_showdown", "_cache")
"""Every attribute of a state, which :meth:`CambioState.clone` copies one by one (a class
compiled by mypyc, README "Fast build", has no ``__slots__`` to read)."""


class CambioState(StateBase[CambioAction, CambioView]):
    """A Cambio deal. Build it with :meth:`CambioGame.new_state` (or, for a seat's
    possible world, :meth:`from_view`).

    Cards are kinds (``int`` 0-21, see :mod:`~folkdeck.games.cambio.rules`); the
    stock is a list with its top card last; every card not in a hand or the stock
    is in the discards.
    """

    __slots__ = _SLOTS

    def __init__(self, game: CambioGame, hands: list[int], stock: list[int], discards: list[int],
                 setup: dict[str, Any], bits: int | None = None) -> None:
        rules = game.options
        n = len(hands)
        self._game = game
        self._rules = rules
        self._n = n
        self._setup = setup
        self._kind = hands
        everyone = min(hands) >= 0  # the usual deal: every seat holds a card
        self._origin = list(range(n)) if everyone else [s if k >= 0 else STOCK for s, k in enumerate(hands)]
        self._start = tuple(hands)
        self._start_stock = tuple(stock)
        self._stock = stock
        self._bits = bits  # a lazily shuffled stock: see rules.unfold
        self._start_bits = bits
        self._discards = discards
        # Who sees each discard: a bitmask of seats; _UP (-1) is everyone, _DOWN (0) nobody.
        self._open = [_UP if rules.open_discards else _DOWN] * len(discards)
        in_deal = _EVERYONE[n] if everyone and n < len(_EVERYONE) else tuple([k >= 0 for k in hands])
        self._in_deal = in_deal
        self._order, self._index = game.seating(setup["dealer"], in_deal)
        self._active = list(in_deal)
        self._pos = 0
        self._turn = self._order[0]
        self._dq: dict[int, str] = {}
        self._declared: dict[int, CambioAction] = {}
        self._history: list[Event] = []
        self._cache: HistoryCache | None = None  # made by the first observe(): playouts never need it
        self._phase = "exchange"
        self._result: Result | None = None
        # What each viewer knows of others' cards (the cards it gave away): viewer -> {seat: kind}.
        self._known: dict[int, dict[int, int]] = {}
        self._shown = [False] * n
        self._rng: random.Random | None = None
        self._ended_by = ""
        self._losers: list[int] = []
        self._showdown: dict[int, int] = {}

    @classmethod
    def from_view(cls, game: CambioGame, view: CambioView, *, hands: Mapping[int, int],
                  stock: Sequence[int], face_down: Sequence[int], reshuffle_seed: int = 0) -> Self:
        """A deal that ``view``'s seat cannot tell from the real one, the hidden cards given.

        ``hands`` gives a kind (:mod:`~folkdeck.games.cambio.rules`) for every active
        seat whose card the view does not show (not the viewer, not ``view.shown``, not
        ``view.known``); ``stock`` the stock, top *last*; ``face_down`` the face-down
        discards; ``reshuffle_seed`` the order of a new stock if it runs out. Everything
        else comes from the view's typed fields and its history (the facts as the seat
        saw them). What the *other* seats know of cards they gave away is not rebuilt
        (the view does not tell it).

        :raises WrongPhaseError: for a spectator's view or a deal that is over.
        :raises InvalidDealError: when ``hands`` misses or adds a seat.
        """
        from folkdeck.engine.errors import InvalidDealError

        seat = view.seat
        if seat is None or view.phase != Phase.EXCHANGE:
            raise WrongPhaseError("cambio.not_searchable", phase=str(view.phase))
        n = view.num_players
        fixed: dict[int, int] = {}
        for s, card in (*view.shown, *view.known):
            fixed.setdefault(s, KIND[card])
        own = KIND[view.hand[0]] if view.hand else -1
        kinds = [-1] * n
        kinds[seat] = own
        active = set(view.active)
        need = {s for s in active if s != seat and s not in fixed}
        if set(hands) != need:
            raise InvalidDealError("cambio.hands_for_hidden", field="hands",
                                   seats=sorted(need), given=sorted(hands))
        for s, k in (*fixed.items(), *hands.items()):
            kinds[s] = k
        open_discards = [KIND[c] for c in view.discards]
        setup = {"dealer": view.dealer, "deal": view.deal, "game": view.game_number,
                 "chips": list(view.chips), "pot": view.pot, "reshuffle_seed": reshuffle_seed}
        state = cls(game, kinds, list(stock), open_discards + list(face_down), setup)
        in_deal = tuple(s in view.in_deal for s in range(n))
        start = [k if k >= 0 else 0 for k in kinds]  # others' dealt cards: unknown, never read
        for s in range(n):
            if not in_deal[s]:
                start[s] = -1
        if view.dealt_card is not None:
            start[seat] = KIND[view.dealt_card]
        state._start = tuple(start)
        state._origin = [STOCK if o is None else o for o in view.origins]
        state._in_deal = in_deal
        state._order, state._index = game.seating(view.dealer, in_deal)
        state._active = [s in active for s in range(n)]
        turn = view.current_seat if view.current_seat is not None else state._order[0]
        state._turn = turn
        state._pos = state._index[turn]
        state._open = [_UP] * len(open_discards) + [_DOWN] * len(face_down)
        state._dq = dict(view.disqualified)
        state._declared = {s: _WORDS[w] for s, w in view.declared}
        state._history = [Event(e.seat, _WORDS[getattr(e.act, "word", "")], e.facts)
                          for e in view.history]
        state._known = {seat: {s: KIND[c] for s, c in view.known}} if view.known else {}
        public = {s for s, _ in view.shown}
        state._shown = [s in public for s in range(n)]
        state._shown[seat] = view.card_shown
        return state

    # --- the protocol's read side ------------------------------------------------
    @property
    def game(self) -> CambioGame:
        return self._game

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seat on turn, then (in turn order) every other active OWL holder."""
        if self._phase != "exchange":
            return ()
        turn = self._turn
        kinds = self._kind
        if OWL not in kinds:
            return (turn,)
        order = self._order
        i = self._pos
        m = len(order)
        owls = [s for s in (order[(i + d) % m] for d in range(1, m))
                if kinds[s] == OWL and self._active[s]]
        return (turn, *owls)

    @property
    def current_seat(self) -> int | None:
        return self._turn if self._phase == "exchange" else None

    @property
    def dealer(self) -> int:
        return int(self._setup["dealer"])

    def card(self, seat: int) -> Any:
        """The card ``seat`` holds, or ``None`` (the engine's view: not for agents)."""
        k = self._kind[seat]
        return CARDS[k] if k >= 0 else None

    # --- read-only accessors for the game's own search (worlds are whole deals) --------
    def kind_of(self, seat: int) -> int:
        """The kind ``seat`` holds (``-1``: none). The engine's view: for searching a world
        the search dealt itself, never the real deal."""
        return self._kind[seat]

    def origin_of(self, seat: int) -> int:
        """The seat first dealt ``seat``'s card (:data:`~folkdeck.games.cambio.rules.STOCK`:
        the stock); public, as every exchange is announced."""
        return self._origin[seat]

    @property
    def seating_order(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The deal's turn order and each seat's place in it (-1: not in the deal)."""
        return self._order, self._index

    @property
    def active_flags(self) -> Sequence[bool]:
        """Whether each seat is still in the deal (read only)."""
        return self._active

    # --- legal actions -------------------------------------------------------------
    def _seat(self, seat: int | None) -> int:
        if seat is None:
            if self._phase != "exchange":
                raise WrongPhaseError("deal_over", phase=self._phase)
            return self._turn
        if not 0 <= seat < self._n:
            raise NotYourTurnError("no_such_seat", seat=seat, players=self._n)
        return seat

    def legal_actions(self, seat: int | None = None) -> tuple[CambioAction, ...]:
        """``change``, ``keep`` (and ``cucco`` with an OWL) for the seat on turn;
        ``cucco`` alone for another active OWL holder; nothing for anyone else."""
        if self._phase != "exchange":
            return ()
        s = self._turn if seat is None else self._seat(seat)
        owl = self._kind[s] == OWL and self._active[s]
        if s == self._turn:
            return _TURN_OWL if owl else _TURN
        return _OWL_ONLY if owl else ()

    def verify(self, action: CambioAction, seat: int | None = None) -> None:
        """Raise the reason an action is illegal now; return ``None`` if it is legal.

        :raises WrongPhaseError: the deal is over.
        :raises NotYourTurnError: the seat may not act now.
        :raises IllegalActionError: e.g. ``cucco`` without an OWL.
        """
        if self._phase != "exchange":
            raise WrongPhaseError("cambio.deal_over", phase=self._phase, action=str(action))
        s = self._seat(seat)
        if not isinstance(action, CambioAction):
            raise not_an_action("cambio", s, action)
        if not self._in_deal[s]:
            raise NotYourTurnError("cambio.seat_eliminated", seat=s, action=str(action))
        if not self._active[s]:
            raise NotYourTurnError("cambio.seat_disqualified", seat=s, action=str(action),
                                   why=self._dq[s])
        if action is CUCCO:
            if self._kind[s] != OWL:
                raise IllegalActionError("cambio.no_owl", seat=s, action="cucco")
            return
        if s != self._turn:
            if self._kind[s] == OWL:
                raise NotYourTurnError("cambio.not_your_turn_owl", seat=s, to_act=[self._turn], action=str(action))
            raise not_your_turn("cambio", s, (self._turn,), action)

    def parse_action(self, text: str, seat: int | None = None) -> CambioAction:
        """Read ``change``, ``keep`` or ``cucco``; legality is checked by :meth:`apply`."""
        return parse_action(text)

    # --- transitions ---------------------------------------------------------------
    def apply(self, action: CambioAction, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn)."""
        if seat is None and (action is CHANGE or action is KEEP) and self._phase == "exchange":
            s = self._turn  # the seat on turn is always active: nothing to verify
        else:
            s = self._seat(seat)
            self.verify(action, s)
        facts: list[Fact] = []
        if action is CUCCO:
            self._finish("cucco", facts)
        else:
            self._declared[s] = action
            if action is CHANGE:
                self._request(s, facts)
            if self._phase == "exchange":
                self._advance(facts)
        event = _new_event(_EVENT, (s, action, tuple(facts)))
        self._history.append(event)
        return event

    def _next_target(self, seat: int) -> int:
        """The next active seat to the right of ``seat`` in this deal, else the stock."""
        order = self._order
        active = self._active
        for i in range(self._index[seat] + 1, len(order)):
            if active[order[i]]:
                return order[i]
        return STOCK

    def _request(self, q: int, facts: list[Fact]) -> None:
        """Resolve seat ``q``'s exchange request, docs/rules/cambio.md §5."""
        target = self._next_target(q)
        answers = _ANSWERS[self._rules.owl_refuses_when_asked]
        while target != STOCK:
            k = self._kind[target]
            ans = answers[k]
            if ans is Answer.SWAP:
                self._swap(q, target, facts)
                return
            self._shown[target] = True
            if ans is Answer.SKIP:
                nxt = self._next_target(target)
                facts.append(_passed_on(target, k, q, None if nxt == STOCK else nxt))
                target = nxt
                continue
            facts.append(_refused(target, k, q))
            if ans is Answer.MAN:
                self._disqualify([q], "asked_man", facts)
            elif ans is Answer.CAT:
                self._cat(q, facts)
            else:  # an OWL refusing under owl_refuses_when_asked
                self._finish("cucco", facts)
            return
        self._ask_stock(q, facts)

    def _ask_stock(self, q: int, facts: list[Fact]) -> None:
        answers = _STOCK_ANSWERS
        outside = len(self._stock) + len(self._discards)
        skips = 0
        while True:
            if skips >= outside:
                # Only HORSEs and HOUSEs are left outside the hands (possible with 36+ players):
                # the request can never be answered, so it lapses (an engine choice).
                facts.append(RequestLapsed(seat=q))
                return
            k = self._draw(facts)
            ans = answers[k]
            if ans is Answer.SWAP:
                old = self._kind[q]
                seen = _UP if self._shown[q] else 1 << q  # a shown card stays public
                for v, known in self._known.items():
                    if q in known:
                        seen |= 1 << v  # v gave this card away and followed it
                self._discard(old, seen)
                self._kind[q] = k
                self._origin[q] = STOCK
                self._shown[q] = False
                self._forget(q)
                facts.append(TookStock(seat=q, card=CARDS[k], discarded=CARDS[old])
                             if self._rules.open_discards else TookStockFaceDown(seat=q, card=CARDS[k]))
                return
            self._discard(k, _UP)
            facts.append(_stock_card(k, q))
            if ans is Answer.SKIP:
                skips += 1
                continue
            if ans is Answer.CUCCO:
                self._finish("stock_owl", facts)
            elif ans is Answer.MAN:
                self._disqualify([q], "asked_stock_man", facts)
            else:
                self._cat(q, facts)
            return

    def _draw(self, facts: list[Fact]) -> int:
        if not self._stock:
            # docs/rules/cambio.md §6.9: the stock is used up; the discards become a new stock.
            if self._rng is None:
                self._rng = random.Random(int(self._setup.get("reshuffle_seed", 0)))
            cards = sorted(self._discards)
            self._rng.shuffle(cards)
            self._stock = cards
            self._bits = None
            self._discards = []
            self._open = []
            facts.append(Reshuffled(count=len(cards)))
        bits = self._bits
        stock = self._stock
        if bits is None:
            return stock.pop()
        self._bits, j = divmod(bits, len(stock))
        stock[j], stock[-1] = stock[-1], stock[j]
        return stock.pop()

    def _ordered_stock(self) -> list[int]:
        """The stock, top last, in its real order (unfolding a lazy stock)."""
        if self._bits is not None:
            self._stock = unfold(self._stock, self._bits)
            self._bits = None
        return self._stock

    def _discard(self, k: int, seen_by: int) -> None:
        """Discard ``k``, face up, or face down seen by the seats of the mask ``seen_by``."""
        self._discards.append(k)
        self._open.append(_UP if self._rules.open_discards else seen_by)

    def _swap(self, q: int, t: int, facts: list[Fact]) -> None:
        kinds, origin = self._kind, self._origin
        a, b = kinds[q], kinds[t]
        kinds[q], kinds[t] = b, a
        origin[q], origin[t] = origin[t], origin[q]
        self._shown[q], self._shown[t] = self._shown[t], self._shown[q]  # public cards stay public
        knowledge = self._known
        for known in knowledge.values():  # what others knew of the two cards moves with them
            kq = known.pop(q, None)
            kt = known.pop(t, None)
            if kq is not None:
                known[t] = kq
            if kt is not None:
                known[q] = kt
        if q in knowledge:
            knowledge[q][t] = a
        else:
            knowledge[q] = {t: a}
        if t in knowledge:
            knowledge[t][q] = b
        else:
            knowledge[t] = {q: b}
        facts.append(_exchanged(q, t))
        if self._rules.fool_rule == "japanese" and (a == FOOL or b == FOOL):
            out = [s for s, got in ((q, b), (t, a)) if got == FOOL]
            self._disqualify(out, "received_fool", facts)

    def _cat(self, q: int, facts: list[Fact]) -> None:
        owner = self._origin[q]
        if owner == STOCK:
            facts.append(CatCurse(seat=q, dealt_to=None, outcome="from_stock"))
        elif not self._active[owner]:
            facts.append(CatCurse(seat=q, dealt_to=owner, outcome="already_out"))
        else:
            facts.append(CatCurse(seat=q, dealt_to=owner, outcome="disqualified"))
            self._disqualify([owner], "cat_curse", facts)

    def _forget(self, seat: int) -> None:
        for known in self._known.values():
            known.pop(seat, None)

    def _disqualify(self, seats: list[int], reason: str, facts: list[Fact]) -> None:
        for s in seats:
            k = self._kind[s]
            self._active[s] = False
            self._dq[s] = reason
            self._discard(k, _UP)
            self._kind[s] = -1
            self._forget(s)
            facts.append(_disqualified(s, reason))
            facts.append(_shows(s, k))
        if self._rules.midgame_loss == "end_deal":
            self._finish("disqualification", facts)
        elif sum(self._active) <= 1:
            self._finish("one_player_left", facts)

    def _advance(self, facts: list[Fact]) -> None:
        order = self._order
        active = self._active
        for i in range(self._pos + 1, len(order)):
            if active[order[i]]:
                self._pos = i
                self._turn = order[i]
                return
        self._finish("showdown", facts)

    def _finish(self, how: str, facts: list[Fact]) -> None:
        """End the deal: the showdown among the remaining players (docs/rules/cambio.md §4.4)."""
        self._phase = "over"
        self._ended_by = how
        rules = self._rules
        kinds, origin, active = self._kind, self._origin, self._active
        remaining = [(s, kinds[s], origin[s]) for s in self._order if active[s]]
        losers = list(self._dq)
        showdown: dict[int, int] = {}
        if self._dq and rules.midgame_loss == "end_deal":
            pass  # the first disqualification is the deal's only loss
        elif len(remaining) >= 2:
            pack = self._game.pack
            values, top = pack.values, pack.stock_fool if rules.fool_rule == "japanese" else None
            for s, k, o in remaining:
                showdown[s] = k
                stock = o == STOCK
                facts.append(_showdown(s, k, top if stock and k == FOOL and top else values[k], stock))
            low = showdown_losers(remaining, rules.fool_rule, pack)
            losers += low
            for s in low:
                facts.append(_lowest(s))
        elif remaining:
            facts.append(LastPlayer(seat=remaining[0][0]))
        self._losers = losers
        self._showdown = showdown
        facts.append(_deal_ended(how, tuple(sorted(losers))))

    def result(self) -> Result | None:
        """Placings 1 (not a loser) or 2 (a loser), ``None`` for seats out of the deal;
        returns -1 per loser; ``reason`` (a term key): ``showdown``, ``cucco``,
        ``stock_owl``, ``disqualification`` (``midgame_loss=end_deal``) or
        ``one_player_left``; ``details``: ``losers``, ``disqualified`` (seat: reason key),
        ``showdown`` (seat: card), ``from_stock`` (seats whose showdown card came from the
        stock), ``deal``, ``loser_pays`` (chips, or ``"eliminated"``)."""
        if self._phase != "over":
            return None
        if self._result is None:
            losers = self._losers
            in_deal = self._in_deal
            n = self._n
            placings = tuple([(2 if s in losers else 1) if in_deal[s] else None for s in range(n)])
            returns = tuple([-1.0 if s in losers else 0.0 for s in range(n)])
            deal = self._setup["deal"]
            pay = payment(deal, self._rules.pay_schedule)
            details = {"losers": sorted(losers),
                       "disqualified": {str(s): r for s, r in self._dq.items()},
                       "showdown": {str(s): NAMES[k] for s, k in self._showdown.items()},
                       "from_stock": [s for s in self._showdown if self._origin[s] == STOCK],
                       "deal": deal, "loser_pays": pay if pay is not None else "eliminated"}
            self._result = Result(placings, returns, self._ended_by, details)
        return self._result

    # --- views, copies, records ----------------------------------------------------
    def view_to_act(self, seat: int | None) -> tuple[int, ...]:
        """``to_act`` as ``seat`` may see it (``None``: a spectator): the seat on turn,
        then ``seat`` itself if it holds an active OWL out of turn. Other OWL holders'
        right to call cucco is left out: it would show who holds an OWL."""
        acting = self.to_act
        if seat is not None and seat in acting[1:]:
            return (acting[0], seat)
        return acting[:1]

    def possible_callers(self) -> tuple[int, ...]:
        """The seats that, for all the public facts tell, may hold an OWL whose call still
        matters: the active seats after the seat on turn, in turn order, that a request
        could yet reach (docs/rules/cambio.md §4.3: once a request has reached an OWL it is
        too late), less those whose card is shown and no OWL. Only public facts decide it,
        never a hidden card, so the server may give each person among them the same moment
        to call before a bot on turn speaks, whatever they hold. Empty when an OWL asked
        calls by itself (``owl_refuses_when_asked``) and once the deal is over."""
        if self._phase != "exchange" or self._rules.owl_refuses_when_asked:
            return ()
        kinds = self._kind
        active = self._active
        shown = self._shown
        return tuple(s for s in self._order[self._pos + 1:]
                     if active[s] and (not shown[s] or kinds[s] == OWL))

    def observe(self, seat: int | None) -> CambioView:
        """The view of ``seat`` (``None``: a spectator): never another seat's card,
        except the ones the rules show (refusals, disqualifications, the showdown).
        Its ``to_act`` is :meth:`view_to_act`: no other seat's OWL shows through it."""
        acting = self.view_to_act(seat)
        legal = (tuple(str(a) for a in self.legal_actions(seat))
                 if seat is not None and seat in acting else ())
        n = self._n
        kinds = self._kind
        own = kinds[seat] if seat is not None else -1
        shown = tuple((s, CARDS[kinds[s]]) for s in range(n)
                      if self._shown[s] and kinds[s] >= 0 and s != seat)
        known = tuple(sorted((s, CARDS[k]) for s, k in self._known.get(seat, {}).items())) \
            if seat is not None else ()
        setup = self._setup
        deal = int(setup["deal"])
        chips = tuple(setup["chips"])
        pot = int(setup["pot"])
        pays = payment(deal, self._rules.pay_schedule)
        discards = tuple(CARDS[k] for k, up in zip(self._discards, self._open, strict=True) if up == _UP)
        origin = self._origin[seat] if seat is not None and own >= 0 else STOCK
        disqualified = tuple(self._dq.items())
        status = status_facts(
            seat=seat, own=own >= 0, origin=None if origin == STOCK else origin, dealer=self.dealer,
            game=int(setup["game"]), deal=deal, pays=pays, chips=chips, pot=pot, shown=shown,
            known=known, disqualified=disqualified, discards=discards,
            face_down=len(self._discards) - len(discards),
            may_call=self._phase == "exchange" and seat is not None and seat in acting[1:])
        result = self.result()
        return CambioView(
            game="cambio", seat=seat, num_players=n, phase=Phase(self._phase),
            hand=None if seat is None else ((CARDS[own],) if own >= 0 else ()),
            counts=tuple(1 if k >= 0 else 0 for k in kinds), to_act=acting,
            current_seat=acting[0] if acting else None, legal_actions=legal,
            out=tuple(self._dq), stock=(len(self._stock),), status=status,
            history=self._history_cache().view(self._history, seat),
            result=result.to_dict() if result is not None else None,
            pack=self._rules.pack, dealer=self.dealer, deal=deal, game_number=int(setup["game"]),
            chips=chips, pot=pot,
            card_from_stock=seat is not None and own >= 0 and origin == STOCK,
            card_origin=None if own < 0 or origin == STOCK else origin,
            card_shown=seat is not None and own >= 0 and self._shown[seat],
            dealt_card=CARDS[self._start[seat]] if seat is not None and self._start[seat] >= 0 else None,
            in_deal=tuple(s for s in range(n) if self._in_deal[s]),
            active=tuple(s for s in range(n) if self._active[s]),
            origins=tuple(None if o == STOCK or kinds[s] < 0 else o for s, o in enumerate(self._origin)),
            disqualified=disqualified,
            declared=tuple(sorted((s, str(a)) for s, a in self._declared.items())),
            discards=discards, discard_count=len(self._discards), shown=shown, known=known,
            loser_pays=pays)

    def _history_cache(self) -> HistoryCache:
        cache = self._cache
        if cache is None:
            cache = self._cache = HistoryCache(describe_action)
        return cache

    def clone(self) -> Self:
        new = type(self).__new__(type(self))
        for slot in _SLOTS:
            setattr(new, slot, getattr(self, slot))
        new._kind = list(self._kind)
        new._origin = list(self._origin)
        new._active = list(self._active)
        new._stock = list(self._stock)
        new._discards = list(self._discards)
        new._open = list(self._open)
        new._dq = dict(self._dq)
        new._declared = dict(self._declared)
        new._history = list(self._history)
        new._cache = self._cache.copy() if self._cache is not None else None
        new._known = {v: dict(k) for v, k in self._known.items()}
        new._shown = list(self._shown)
        if self._rng is not None:
            new._rng = random.Random()
            new._rng.setstate(self._rng.getstate())
        return new

    def deal_info(self) -> dict[str, Any]:
        start = self._start_stock if self._start_bits is None else unfold(self._start_stock,
                                                                          self._start_bits)
        setup = dict(self._setup)
        setup["chips"] = list(setup["chips"])
        setup["eliminated"] = [s for s in range(self._n) if not self._in_deal[s]]
        return {"setup": setup,
                "hands": [[NAMES[k]] if k >= 0 else [] for k in self._start],
                "stock": [NAMES[k] for k in reversed(start)]}

    def piles(self) -> tuple[list[int], list[int], list[int]]:
        """``(hands, stock, discards)`` as kinds (hand ``-1``: none; stock top last), for the match."""
        return list(self._kind), list(self._ordered_stock()), list(self._discards)

    def all_cards(self) -> dict[str, tuple[Any, ...]]:
        places: dict[str, tuple[Any, ...]] = {
            f"hand {s}": (CARDS[k],) if k >= 0 else () for s, k in enumerate(self._kind)}
        places["stock"] = tuple(CARDS[k] for k in reversed(self._ordered_stock()))
        places["discards"] = tuple(CARDS[k] for k in self._discards)
        return places

    def hidden_cards(self, seat: int | None) -> tuple[Any, ...]:
        """Others' unshown cards (not the ones ``seat`` gave away and can follow), the
        stock, and face-down discards; nothing of the hands once the deal is over."""
        hidden = [CARDS[k] for k in reversed(self._ordered_stock())]
        hidden += [CARDS[k] for k, up in zip(self._discards, self._open, strict=True)
                   if up != _UP and (seat is None or not up >> seat & 1)]
        if self._phase == "exchange":
            known = self._known.get(seat, {}) if seat is not None else {}
            hidden += [CARDS[k] for s, k in enumerate(self._kind)
                       if k >= 0 and s != seat and not self._shown[s] and s not in known]
        return tuple(hidden)

    def __repr__(self) -> str:
        hands = " ".join(NAMES[k] if k >= 0 else "-" for k in self._kind)
        return f"<CambioState {self._phase} to_act={self.to_act} hands=[{hands}] stock={len(self._stock)}>"
