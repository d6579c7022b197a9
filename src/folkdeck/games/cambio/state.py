"""One deal of Cambio as an explicit state machine (docs/rules/cambio.md §4-§5).

Phases: ``exchange`` (each active player in turn from the dealer's right says
``change`` or ``keep``; the dealer, last, changes with the stock) and ``over``.

The owl's call: before every declaration, each *other* active player holding an
OWL may call ``cucco`` out of turn; those seats follow the player on turn in
:attr:`CambioState.to_act`. The player on turn may also call it if they hold an OWL.
Once a request has reached an OWL it is too late: it is exchanged (docs/rules/cambio.md §6.2).
An OWL is a hidden card, so a seat's view (:meth:`CambioState.observe`) lists only
the seat on turn and, if it holds an OWL itself, that seat (:meth:`_view_to_act`).

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

from collections.abc import Mapping, Sequence
from typing import Any, Final, Self, TypedDict

from folkdeck.cards import Card
from folkdeck.engine.errors import (
    IllegalActionError,
    InvalidDealError,
    NotYourTurnError,
    WrongPhaseError,
    not_an_action,
    not_your_turn,
)
from folkdeck.engine.facts import Fact
from folkdeck.engine.state_base import StateBase
from folkdeck.engine.values import Action, DealInfo, Event, Result, new_event
from folkdeck.games.cambio.actions import CHANGE, CUCCO, KEEP, CambioAction, parse_action
from folkdeck.games.cambio.deal import DOWN, UP, CambioDeal
from folkdeck.games.cambio.events import (
    describe_action,
)
from folkdeck.games.cambio.observation import CambioView, Phase, status_facts
from folkdeck.games.cambio.options import CambioOptions
from folkdeck.games.cambio.play import CambioFlow
from folkdeck.games.cambio.rules import (
    CARDS,
    KIND,
    NAMES,
    OWL,
    STOCK,
    CambioGameLike,
    may_call_cucco,
    payment,
    seating,
    unfold,
)

_TURN: Final = (CHANGE, KEEP)
_TURN_OWL: Final = (CHANGE, KEEP, CUCCO)
_OWL_ONLY: Final = (CUCCO,)
_WORDS: Final = {a.value: a for a in CambioAction}



_EVERYONE: Final = tuple((True,) * n for n in range(64))
"""``in_deal`` of a deal where every seat holds a card, by the number of seats."""


class OwnCard(TypedDict):
    """The fields of a Cambio view about the viewer's own card (:class:`CambioView`'s)."""

    hand: tuple[Card, ...] | None
    card_from_stock: bool
    card_origin: int | None
    card_shown: bool
    dealt_card: Card | None


class TableFields(TypedDict):
    """The fields of a Cambio view that every seat sees alike (:class:`CambioView`'s)."""

    in_deal: tuple[int, ...]
    active: tuple[int, ...]
    origins: tuple[int | None, ...]
    declared: tuple[tuple[int, str], ...]


class CambioState(StateBase[CambioAction, CambioView, CambioDeal]):
    """A Cambio deal. Build it with :meth:`CambioGame.new_state` (or, for a seat's
    possible world, :meth:`from_view`).

    Cards are kinds (``int`` 0-21, see :mod:`~folkdeck.games.cambio.rules`); the
    stock is a list with its top card last; every card not in a hand or the stock
    is in the discards. The transitions are its :class:`~folkdeck.games.cambio.play.CambioFlow`,
    shared by its clones with the game and the rules.
    """

    __slots__ = ("_game", "_rules", "_flow")
    _shared = ("_game", "_rules", "_flow")
    """All it holds beside its deal: a clone shares them."""
    _game: CambioGameLike
    _rules: CambioOptions
    _flow: CambioFlow

    def __init__(self, game: CambioGameLike, hands: list[int], stock: list[int], discards: list[int],
                 setup: dict[str, Any], bits: int | None = None) -> None:
        rules = game.options
        n = len(hands)
        self._game = game
        self._rules = rules
        self._flow = CambioFlow(game)
        self._n = n
        self._cache = None  # made by the first observe(): playouts never need it
        everyone = min(hands) >= 0  # the usual deal: every seat holds a card
        in_deal = _EVERYONE[n] if everyone and n < len(_EVERYONE) else tuple([k >= 0 for k in hands])
        order, index = seating(setup["dealer"], in_deal)
        # In the fields' order (positional: a Cambio deal is short, and keywords cost a tenth of making it).
        self.deal = CambioDeal(
            setup, hands, list(range(n)) if everyone else [s if k >= 0 else STOCK for s, k in enumerate(hands)],
            tuple(hands), tuple(stock), bits, in_deal, order, index, list(in_deal), 0, order[0], stock, bits,
            discards, [UP if rules.open_discards else DOWN] * len(discards), {}, {}, [], "exchange", {},
            [False] * n, None, "", [], {}, None)

    @classmethod
    def from_view(cls, game: CambioGameLike, view: CambioView, *, hands: Mapping[int, int],
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
        seat = view.seat
        if seat is None or view.phase != Phase.EXCHANGE:
            raise WrongPhaseError("cambio.not_searchable", phase=str(view.phase))
        kinds = hidden_kinds(view, seat, hands)
        open_discards = [KIND[c] for c in view.discards]
        setup = {"dealer": view.dealer, "deal": view.deal, "game": view.game_number,
                 "chips": list(view.chips), "pot": view.pot, "reshuffle_seed": reshuffle_seed}
        state = cls(game, kinds, list(stock), open_discards + list(face_down), setup)
        deal = state.deal
        deal.in_deal = tuple(s in view.in_deal for s in range(view.num_players))
        deal.start = dealt_kinds(view, seat, kinds, deal.in_deal)
        deal.origin = [STOCK if o is None else o for o in view.origins]
        deal.order, deal.index = seating(view.dealer, deal.in_deal)
        deal.active = [s in view.active for s in range(view.num_players)]
        deal.turn = view.current_seat if view.current_seat is not None else deal.order[0]
        deal.pos = deal.index[deal.turn]
        deal.open = [UP] * len(open_discards) + [DOWN] * len(face_down)
        deal.dq = dict(view.disqualified)
        deal.declared = {s: _WORDS[w] for s, w in view.declared}
        deal.history = [Event(e.seat, _WORDS[getattr(e.act, "word", "")], e.facts) for e in view.history]
        deal.known = {seat: {s: KIND[c] for s, c in view.known}} if view.known else {}
        public = {s for s, _ in view.shown}
        deal.shown = [s in public for s in range(view.num_players)]
        deal.shown[seat] = view.card_shown
        return state

    # --- the protocol's read side ------------------------------------------------
    @property
    def game(self) -> CambioGameLike:
        return self._game

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seat on turn, then (in turn order) every other active OWL holder."""
        deal = self.deal
        if deal.phase != "exchange":
            return ()
        turn = deal.turn
        kinds = deal.kind
        if OWL not in kinds:
            return (turn,)
        order = deal.order
        i = deal.pos
        m = len(order)
        owls = [s for s in (order[(i + d) % m] for d in range(1, m))
                if may_call_cucco(kinds[s], deal.active[s])]
        return (turn, *owls)

    @property
    def current_seat(self) -> int | None:
        deal = self.deal
        return deal.turn if deal.phase == "exchange" else None

    @property
    def dealer(self) -> int:
        return int(self.deal.setup["dealer"])

    def card(self, seat: int) -> Card | None:
        """The card ``seat`` holds, or ``None`` (the engine's view: not for agents)."""
        k = self.deal.kind[seat]
        return CARDS[k] if k >= 0 else None

    # --- read-only accessors for the game's own search (worlds are whole deals) --------
    def kind_of(self, seat: int) -> int:
        """The kind ``seat`` holds (``-1``: none). The engine's view: for searching a world
        the search dealt itself, never the real deal."""
        return self.deal.kind[seat]

    def origin_of(self, seat: int) -> int:
        """The seat first dealt ``seat``'s card (:data:`~folkdeck.games.cambio.rules.STOCK`:
        the stock); public, as every exchange is announced."""
        return self.deal.origin[seat]

    @property
    def seating_order(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The deal's turn order and each seat's place in it (-1: not in the deal)."""
        deal = self.deal
        return deal.order, deal.index

    @property
    def active_flags(self) -> Sequence[bool]:
        """Whether each seat is still in the deal (read only)."""
        return self.deal.active

    # --- legal actions -------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> tuple[CambioAction, ...]:
        """``change``, ``keep`` (and ``cucco`` with an OWL) for the seat on turn;
        ``cucco`` alone for another active OWL holder; nothing for anyone else."""
        deal = self.deal
        if deal.phase != "exchange":
            return ()
        s = deal.turn if seat is None else self._seat(seat)
        owl = may_call_cucco(deal.kind[s], deal.active[s])
        if s == deal.turn:
            return _TURN_OWL if owl else _TURN
        return _OWL_ONLY if owl else ()

    def _check_uncommon(self, action: Action, s: int) -> None:
        """:meth:`apply`'s check past its cheap common case (``change`` or ``keep`` by the
        seat on turn, which is always active): any action of seat ``s``, of which only a
        cucco by a seat that may call it passes."""
        deal = self.deal
        if not isinstance(action, CambioAction):
            raise not_an_action("cambio", s, action)
        if not deal.in_deal[s]:
            raise NotYourTurnError("cambio.seat_eliminated", seat=s, action=str(action))
        if not deal.active[s]:
            raise NotYourTurnError("cambio.seat_disqualified", seat=s, action=str(action), why=deal.dq[s])
        owl = may_call_cucco(deal.kind[s], deal.active[s])
        if action is CUCCO:
            if not owl:
                raise IllegalActionError("cambio.no_owl", seat=s, action="cucco")
            return
        if owl:
            raise NotYourTurnError("cambio.not_your_turn_owl", seat=s, to_act=[deal.turn], action=str(action))
        raise not_your_turn("cambio", s, (deal.turn,), action)

    def parse_action(self, text: str, seat: int | None = None) -> CambioAction:
        """Read ``change``, ``keep`` or ``cucco``; legality is checked by :meth:`apply`."""
        return parse_action(text)

    # --- transitions ---------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn).

        The one statement of who may do what (:meth:`verify` tries it on a copy): the
        common case here, the rest in :meth:`_check_uncommon`.
        """
        deal = self.deal
        if deal.phase != "exchange":
            raise WrongPhaseError("cambio.deal_over", phase=deal.phase, action=str(action))
        s = deal.turn if seat is None else self._seat(seat)
        facts: list[Fact] = []
        if (action is CHANGE or action is KEEP) and s == deal.turn:
            deal.declared[s] = action
            if action is CHANGE:
                self._flow.request(deal, s, facts)
            if deal.phase == "exchange" and not deal.advance():
                self._flow.finish(deal, "showdown", facts)  # every active seat has had its turn
        else:
            self._check_uncommon(action, s)  # refuses all but a cucco
            self._flow.finish(deal, "cucco", facts)
        event = new_event((s, action, tuple(facts)))
        deal.history.append(event)
        return event

    def result(self) -> Result | None:
        """Placings 1 (not a loser) or 2 (a loser), ``None`` for seats out of the deal;
        returns -1 per loser; ``reason`` (a term key): ``showdown``, ``cucco``,
        ``stock_owl``, ``disqualification`` (``midgame_loss=end_deal``) or
        ``one_player_left``; ``details``: ``losers``, ``disqualified`` (seat: reason key),
        ``showdown`` (seat: card), ``from_stock`` (seats whose showdown card came from the
        stock), ``deal``, ``loser_pays`` (chips, or ``"eliminated"``)."""
        deal = self.deal
        if deal.phase != "over":
            return None
        if deal.result is None:
            losers = deal.losers
            in_deal = deal.in_deal
            n = self._n
            placings = tuple([(2 if s in losers else 1) if in_deal[s] else None for s in range(n)])
            returns = tuple([-1.0 if s in losers else 0.0 for s in range(n)])
            number = deal.setup["deal"]
            pay = payment(number, self._rules.pay_schedule)
            details = {"losers": sorted(losers),
                       "disqualified": {str(s): r for s, r in deal.dq.items()},
                       "showdown": {str(s): NAMES[k] for s, k in deal.showdown.items()},
                       "from_stock": [s for s in deal.showdown if deal.origin[s] == STOCK],
                       "deal": number, "loser_pays": pay if pay is not None else "eliminated"}
            deal.result = Result(placings, returns, deal.ended_by, details)
        return deal.result

    # --- views, copies, records ----------------------------------------------------
    def _view_to_act(self, seat: int | None) -> tuple[int, ...]:
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
        deal = self.deal
        if deal.phase != "exchange" or self._rules.owl_refuses_when_asked:
            return ()
        kinds = deal.kind
        active = deal.active
        shown = deal.shown
        return tuple(s for s in deal.order[deal.pos + 1:]
                     if active[s] and (not shown[s] or may_call_cucco(kinds[s], True)))

    def observe(self, seat: int | None) -> CambioView:
        """The view of ``seat`` (``None``: a spectator): never another seat's card, except
        the ones the rules show (refusals, disqualifications, the showdown). Its ``to_act``
        is :meth:`_view_to_act`: no other seat's OWL shows through it."""
        core = self._view_core(seat, self._view_to_act(seat), describe_action)
        deal = self.deal
        kinds = deal.kind
        shown = tuple([(s, CARDS[kinds[s]]) for s in range(self._n)
                       if deal.shown[s] and kinds[s] >= 0 and s != seat])
        known = tuple(sorted((s, CARDS[k]) for s, k in deal.known.get(seat, {}).items())) \
            if seat is not None else ()
        setup = deal.setup
        number, chips, pot = int(setup["deal"]), tuple(setup["chips"]), int(setup["pot"])
        pays = payment(number, self._rules.pay_schedule)
        discards = tuple([CARDS[k] for k, up in zip(deal.discards, deal.open, strict=True) if up == UP])
        own = self._own_card(seat)
        status = status_facts(
            seat=seat, own=own["hand"] not in (None, ()), origin=own["card_origin"], dealer=self.dealer,
            game=int(setup["game"]), deal=number, pays=pays, chips=chips, pot=pot, shown=shown,
            known=known, disqualified=tuple(deal.dq.items()), discards=discards,
            face_down=len(deal.discards) - len(discards),
            may_call=deal.phase == "exchange" and seat is not None and seat in core["to_act"][1:])
        return CambioView(
            **core, game="cambio", phase=Phase(deal.phase),
            counts=tuple([1 if k >= 0 else 0 for k in kinds]),
            out=tuple(deal.dq), stock=(len(deal.stock),), status=status,
            pack=self._rules.pack, dealer=self.dealer, deal=number, game_number=int(setup["game"]),
            chips=chips, pot=pot, **own, **self._table_view(), disqualified=tuple(deal.dq.items()),
            discards=discards, discard_count=len(deal.discards), shown=shown, known=known, loser_pays=pays)

    def _own_card(self, seat: int | None) -> OwnCard:
        """The view fields of ``seat``'s own card: the card, where it came from, whether it
        is shown, and the card dealt to it."""
        deal = self.deal
        own = deal.kind[seat] if seat is not None else -1
        origin = deal.origin[seat] if seat is not None and own >= 0 else STOCK
        return {"hand": None if seat is None else ((CARDS[own],) if own >= 0 else ()),
                "card_from_stock": seat is not None and own >= 0 and origin == STOCK,
                "card_origin": None if own < 0 or origin == STOCK else origin,
                "card_shown": seat is not None and own >= 0 and deal.shown[seat],
                "dealt_card": CARDS[deal.start[seat]] if seat is not None and deal.start[seat] >= 0 else None}

    def _table_view(self) -> TableFields:
        """The view fields every seat sees alike: who is in the deal and still active, where
        each card was dealt (public: every exchange is announced), what each seat said."""
        deal = self.deal
        n = self._n
        return {"in_deal": tuple(s for s in range(n) if deal.in_deal[s]),
                "active": tuple(s for s in range(n) if deal.active[s]),
                "origins": tuple(None if o == STOCK or deal.kind[s] < 0 else o for s, o in enumerate(deal.origin)),
                "declared": tuple(sorted((s, str(a)) for s, a in deal.declared.items()))}

    def deal_info(self) -> DealInfo:
        deal = self.deal
        start = deal.start_stock if deal.start_bits is None else unfold(deal.start_stock,
                                                                          deal.start_bits)
        setup = dict(deal.setup)
        setup["chips"] = list(setup["chips"])
        setup["eliminated"] = [s for s in range(self._n) if not deal.in_deal[s]]
        return {"setup": setup,
                "hands": [[NAMES[k]] if k >= 0 else [] for k in deal.start],
                "stock": [NAMES[k] for k in reversed(start)]}

    def piles(self) -> tuple[list[int], list[int], list[int]]:
        """``(hands, stock, discards)`` as kinds (hand ``-1``: none; stock top last), for the match."""
        deal = self.deal
        return list(deal.kind), list(self._flow.ordered_stock(deal)), list(deal.discards)

    def all_cards(self) -> dict[str, tuple[Card, ...]]:
        deal = self.deal
        places: dict[str, tuple[Card, ...]] = {
            f"hand {s}": (CARDS[k],) if k >= 0 else () for s, k in enumerate(deal.kind)}
        places["stock"] = tuple(CARDS[k] for k in reversed(self._flow.ordered_stock(deal)))
        places["discards"] = tuple(CARDS[k] for k in deal.discards)
        return places

    def hidden_cards(self, seat: int | None) -> tuple[Card, ...]:
        """Others' unshown cards (not the ones ``seat`` gave away and can follow), the
        stock, and face-down discards; nothing of the hands once the deal is over."""
        deal = self.deal
        hidden = [CARDS[k] for k in reversed(self._flow.ordered_stock(deal))]
        hidden += [CARDS[k] for k, up in zip(deal.discards, deal.open, strict=True)
                   if up != UP and (seat is None or not up >> seat & 1)]
        if deal.phase == "exchange":
            known = deal.known.get(seat, {}) if seat is not None else {}
            hidden += [CARDS[k] for s, k in enumerate(deal.kind)
                       if k >= 0 and s != seat and not deal.shown[s] and s not in known]
        return tuple(hidden)

    def __repr__(self) -> str:
        deal = self.deal
        hands = " ".join(NAMES[k] if k >= 0 else "-" for k in deal.kind)
        return f"<CambioState {deal.phase} to_act={self.to_act} hands=[{hands}] stock={len(deal.stock)}>"


def hidden_kinds(view: CambioView, seat: int, hands: Mapping[int, int]) -> list[int]:
    """Every seat's kind in a world of ``view``: the viewer's, the public ones, ``hands``.

    :raises InvalidDealError: when ``hands`` misses or adds a hidden seat.
    """
    fixed: dict[int, int] = {}
    for s, card in (*view.shown, *view.known):
        fixed.setdefault(s, KIND[card])
    kinds = [-1] * view.num_players
    kinds[seat] = KIND[view.hand[0]] if view.hand else -1
    need = {s for s in view.active if s != seat and s not in fixed}
    if set(hands) != need:
        raise InvalidDealError("cambio.hands_for_hidden", field="hands", seats=sorted(need), given=sorted(hands))
    for s, k in (*fixed.items(), *hands.items()):
        kinds[s] = k
    return kinds


def dealt_kinds(view: CambioView, seat: int, kinds: list[int], in_deal: tuple[bool, ...]) -> tuple[int, ...]:
    """The dealt cards of a world: the viewer's as the view tells it; others' unknown, never read."""
    start = [(k if k >= 0 else 0) if in_deal[s] else -1 for s, k in enumerate(kinds)]
    if view.dealt_card is not None:
        start[seat] = KIND[view.dealt_card]
    return tuple(start)
