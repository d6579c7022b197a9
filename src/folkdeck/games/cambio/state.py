"""One deal of Cambio as an explicit state machine (seed 002, rules-notes §3.2-§3.3).

Phases: ``exchange`` (each active player in turn from the dealer's right says
``change`` or ``keep``; the dealer, last, changes with the stock) and ``over``.

The owl's call: before every declaration, each *other* active player holding an
OWL may call ``cucco`` out of turn; those seats follow the player on turn in
:attr:`CambioState.to_act`. The player on turn may also call it if they hold an OWL.
Once a request has reached an OWL it is too late: it is exchanged (C2).
An OWL is a hidden card, so a seat's view (:meth:`CambioState.observe`) lists only
the seat on turn and, if it holds an OWL itself, that seat (:meth:`view_to_act`).

A short deal (the dealer is seat 2, so seat 0 speaks first):

>>> from folkdeck import load
>>> state = load("cambio", players=3).new_state(
...     hands=["3", "HORSE", "FOOL"], stock=["OWL", "7", "MAN"], setup={"dealer": 2})
>>> state.to_act, [str(a) for a in state.legal_actions()]
((0,), ['change', 'keep'])
>>> print(state.apply(state.parse_action("change")))
0: change; seat 1 holds a HORSE: seat 0's request passes on to seat 2; seat 0 exchanges cards with seat 2; seat 0 receives the FOOL in the exchange and is disqualified
>>> print(state.apply(state.parse_action("keep")))
1: keep
>>> print(state.apply(state.parse_action("change")))
2: change; the stock turns up an OWL: the stock calls cucco, the exchanges end; showdown: seat 1 HORSE, seat 2 3; seat 2 holds the lowest card and loses
>>> state.result().details["losers"]
[0, 2]
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Self

from folkdeck.engine.errors import IllegalActionError, NotYourTurnError, WrongPhaseError
from folkdeck.engine.protocol import Action, Event, Result
from folkdeck.engine.state_base import StateBase
from folkdeck.games.cambio.actions import CHANGE, CUCCO, KEEP, CambioAction, parse_action
from folkdeck.games.cambio.observation import CambioObservation
from folkdeck.games.cambio.rules import (
    CARDS,
    FOOL,
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

_TURN = (CHANGE, KEEP)
_TURN_OWL = (CHANGE, KEEP, CUCCO)
_OWL_ONLY = (CUCCO,)
_UP, _DOWN = -1, 0
_ANSWERS = {refuses: tuple(answer(k, to_stock=False, owl_refuses=refuses) for k in range(NUM_KINDS))
            for refuses in (False, True)}
_STOCK_ANSWERS = tuple(answer(k, to_stock=True, owl_refuses=False) for k in range(NUM_KINDS))


class CambioState(StateBase):
    """A Cambio deal. Build it with :meth:`CambioGame.new_state`.

    Cards are kinds (``int`` 0-21, see :mod:`~folkdeck.games.cambio.rules`); the
    stock is a list with its top card last; every card not in a hand or the stock
    is in the discards.
    """

    __slots__ = ("_game", "_rules", "_n", "_kind", "_origin", "_start", "_start_stock", "_in_deal",
                 "_active", "_order", "_index", "_pos", "_turn", "_stock", "_discards", "_open",
                 "_dq", "_declared", "_history", "_phase", "_result", "_known", "_shown", "_setup",
                 "_rng", "_ended_by", "_bits", "_start_bits", "_losers", "_showdown")

    def __init__(self, game: CambioGame, hands: list[int], stock: list[int], discards: list[int],
                 setup: dict[str, Any], bits: int | None = None) -> None:
        rules = game.options
        n = len(hands)
        self._game = game
        self._rules = rules
        self._n = n
        self._setup = setup
        self._kind = hands
        self._origin = [s if k >= 0 else STOCK for s, k in enumerate(hands)]
        self._start = tuple(hands)
        self._start_stock = tuple(stock)
        self._stock = stock
        self._bits = bits  # a lazily shuffled stock: see rules.unfold
        self._start_bits = bits
        self._discards = discards
        # Who sees each discard: a bitmask of seats; _UP (-1) is everyone, _DOWN (0) nobody.
        self._open = [_UP if rules.open_discards else _DOWN] * len(discards)
        in_deal = tuple([k >= 0 for k in hands])
        self._in_deal = in_deal
        self._order, self._index = game.seating(setup["dealer"], in_deal)
        self._active = list(in_deal)
        self._pos = 0
        self._turn = self._order[0]
        self._dq: dict[int, str] = {}
        self._declared: dict[int, Action] = {}
        self._history: list[Event] = []
        self._phase = "exchange"
        self._result: Result | None = None
        # What each viewer knows of others' cards (the cards it gave away): viewer -> {seat: kind}.
        self._known: dict[int, dict[int, int]] = {}
        self._shown = [False] * n
        self._rng: random.Random | None = None
        self._ended_by = ""
        self._losers: list[int] = []
        self._showdown: dict[str, str] = {}

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

    # --- legal actions -------------------------------------------------------------
    def _seat(self, seat: int | None) -> int:
        if seat is None:
            if self._phase != "exchange":
                raise WrongPhaseError("the deal is over: no seat may act", phase=self._phase)
            return self._turn
        if not 0 <= seat < self._n:
            raise NotYourTurnError(f"there is no seat {seat} in a {self._n}-player game", seat=seat)
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

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise the reason an action is illegal now; return ``None`` if it is legal.

        :raises WrongPhaseError: the deal is over.
        :raises NotYourTurnError: the seat may not act now.
        :raises IllegalActionError: e.g. ``cucco`` without an OWL.
        """
        if self._phase != "exchange":
            raise WrongPhaseError(f"the deal is over: {action} is not possible", phase=self._phase,
                                  action=str(action))
        s = self._seat(seat)
        if not isinstance(action, CambioAction):
            raise IllegalActionError(f"{action!r} is not a Cambio action (change, keep, cucco)",
                                     seat=s, action=str(action))
        if not self._in_deal[s]:
            raise NotYourTurnError(f"seat {s} is not in this deal (eliminated)", seat=s,
                                   action=str(action))
        if not self._active[s]:
            raise NotYourTurnError(f"seat {s} is disqualified in this deal ({self._dq[s]})", seat=s,
                                   action=str(action))
        if action is CUCCO:
            if self._kind[s] != OWL:
                raise IllegalActionError(
                    f"seat {s} cannot call cucco: only a player holding an OWL may call it",
                    seat=s, action="cucco", reason="no OWL")
            return
        if s != self._turn:
            hint = " (holding the OWL, it may call cucco)" if self._kind[s] == OWL else ""
            raise NotYourTurnError(
                f"seat {s} may not {action} now: it is seat {self._turn}'s turn to say change or "
                f"keep{hint}", seat=s, action=str(action))

    def parse_action(self, text: str, seat: int | None = None) -> CambioAction:
        """Read ``change``, ``keep`` or ``cucco``; legality is checked by :meth:`apply`."""
        return parse_action(text)

    # --- transitions ---------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn)."""
        if seat is None and (action is CHANGE or action is KEEP) and self._phase == "exchange":
            s = self._turn  # the seat on turn is always active: nothing to verify
        else:
            s = self._seat(seat)
            self.verify(action, s)
        notes: list[str] = []
        if action is CUCCO:
            notes.append(f"seat {s} calls cucco (クク) with the OWL: the exchanges end")
            self._finish("cucco", notes)
        else:
            self._declared[s] = action
            if action is CHANGE:
                self._request(s, notes)
            if self._phase == "exchange":
                self._advance(notes)
        event = Event(s, action, tuple(notes))
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

    def _request(self, q: int, notes: list[str]) -> None:
        """Resolve seat ``q``'s exchange request, notes §3.3."""
        target = self._next_target(q)
        answers = _ANSWERS[self._rules.owl_refuses_when_asked]
        while target != STOCK:
            k = self._kind[target]
            ans = answers[k]
            if ans is Answer.SWAP:
                self._swap(q, target, notes)
                return
            self._shown[target] = True
            if ans is Answer.SKIP:
                nxt = self._next_target(target)
                where = "the stock" if nxt == STOCK else f"seat {nxt}"
                notes.append(f"seat {target} holds a {NAMES[k]}: seat {q}'s request passes on to {where}")
                target = nxt
                continue
            if ans is Answer.MAN:
                notes.append(f"seat {target} holds a MAN and refuses (「人間です」): seat {q}, who asked, "
                             "is disqualified")
                self._disqualify([q], "asked a MAN", notes)
            elif ans is Answer.CAT:
                self._cat(q, f"seat {target} holds a CAT and refuses (「ニャー」)", notes)
            else:  # an OWL refusing under owl_refuses_when_asked
                notes.append(f"seat {target} holds the OWL and calls cucco: the exchanges end")
                self._finish("cucco", notes)
            return
        self._ask_stock(q, notes)

    def _ask_stock(self, q: int, notes: list[str]) -> None:
        answers = _STOCK_ANSWERS
        outside = len(self._stock) + len(self._discards)
        skips = 0
        while True:
            if skips >= outside:
                # Only HORSEs and HOUSEs are left outside the hands (possible with 36+ players):
                # the request can never be answered, so it lapses (an engine choice).
                notes.append(f"every card outside the hands passes the request on: seat {q}'s "
                             "request lapses")
                return
            k = self._draw(notes)
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
                shown = f" and discards {NAMES[old]} face up" if self._rules.open_discards else \
                    " and discards their card face down"
                notes.append(f"seat {q} takes the top card of the stock{shown}")
                return
            self._discard(k, _UP)
            if ans is Answer.SKIP:
                notes.append(f"the stock turns up a {NAMES[k]}: seat {q}'s request passes on to the "
                             "next stock card")
                skips += 1
                continue
            if ans is Answer.CUCCO:
                notes.append("the stock turns up an OWL: the stock calls cucco, the exchanges end")
                self._finish("stock owl", notes)
            elif ans is Answer.MAN:
                notes.append(f"the stock turns up a MAN and refuses: seat {q}, who asked, is disqualified")
                self._disqualify([q], "asked the stock's MAN", notes)
            else:
                self._cat(q, "the stock turns up a CAT and refuses", notes)
            return

    def _draw(self, notes: list[str]) -> int:
        if not self._stock:
            # C9: the stock is used up; the discards become a new stock.
            if self._rng is None:
                self._rng = random.Random(int(self._setup.get("reshuffle_seed", 0)))
            cards = sorted(self._discards)
            self._rng.shuffle(cards)
            self._stock = cards
            self._bits = None
            self._discards = []
            self._open = []
            notes.append("the stock is used up: the discards are shuffled into a new stock")
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

    def _swap(self, q: int, t: int, notes: list[str]) -> None:
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
        notes.append(f"seat {q} exchanges cards with seat {t}")
        if self._rules.fool_rule == "japanese" and (a == FOOL or b == FOOL):
            out = [s for s, got in ((q, b), (t, a)) if got == FOOL]
            for s in out:
                notes.append(f"seat {s} receives the FOOL in the exchange and is disqualified")
            self._disqualify(out, "received the FOOL", notes, announce=False)

    def _cat(self, q: int, said: str, notes: list[str]) -> None:
        owner = self._origin[q]
        if owner == STOCK:
            notes.append(f"{said}: seat {q}'s card came from the stock, so nobody is disqualified")
        elif not self._active[owner]:
            notes.append(f"{said}: seat {q}'s card was first dealt to seat {owner}, already out; "
                         "nobody more is disqualified")
        else:
            who = f"seat {q} itself" if owner == q else f"seat {owner}"
            notes.append(f"{said}: seat {q}'s card was first dealt to {who}, which is disqualified")
            self._disqualify([owner], f"the CAT's curse on the card seat {q} held", notes)

    def _forget(self, seat: int) -> None:
        for known in self._known.values():
            known.pop(seat, None)

    def _disqualify(self, seats: list[int], reason: str, notes: list[str], *,
                    announce: bool = True) -> None:
        for s in seats:
            k = self._kind[s]
            self._active[s] = False
            self._dq[s] = f"{reason}, showing {NAMES[k]}"
            self._discard(k, _UP)
            self._kind[s] = -1
            self._forget(s)
            if announce:
                notes.append(f"seat {s} shows and discards {NAMES[k]}")
        if self._rules.midgame_loss == "end_deal":
            self._finish("disqualification", notes)
        elif sum(self._active) <= 1:
            self._finish("one player left", notes)

    def _advance(self, notes: list[str]) -> None:
        order = self._order
        active = self._active
        for i in range(self._pos + 1, len(order)):
            if active[order[i]]:
                self._pos = i
                self._turn = order[i]
                return
        self._finish("showdown", notes)

    def _finish(self, how: str, notes: list[str]) -> None:
        """End the deal: the showdown among the remaining players (seed 002 ④, notes §3.2)."""
        self._phase = "over"
        self._ended_by = how
        rules = self._rules
        kinds, origin, active = self._kind, self._origin, self._active
        remaining = [(s, kinds[s], origin[s]) for s in self._order if active[s]]
        dq = self._dq
        losers = list(dq)
        showdown: dict[str, str] = {}
        if dq and rules.midgame_loss == "end_deal":
            pass  # the first disqualification is the deal's only loss
        elif len(remaining) >= 2:
            japanese = rules.fool_rule == "japanese"
            pack = self._game.pack
            for s, k, o in remaining:
                showdown[str(s)] = NAMES[k] if k or o != STOCK or not japanese else \
                    f"FOOL ({pack.stock_fool}, from the stock)"
            low = showdown_losers(remaining, rules.fool_rule, pack)
            losers += low
            notes.append("showdown: " + ", ".join([f"seat {s} {c}" for s, c in showdown.items()]))
            if len(low) == 1:
                notes.append(f"seat {low[0]} holds the lowest card and loses")
            else:
                notes.append(", ".join([f"seat {s}" for s in low]) + " hold the lowest card and lose")
        elif remaining:
            notes.append(f"seat {remaining[0][0]} is the only player left: no showdown")
        self._losers = losers
        self._showdown = showdown

    def result(self) -> Result | None:
        """Placings 1 (not a loser) or 2 (a loser), ``None`` for seats out of the deal;
        returns -1 per loser; ``details``: ``losers``, ``disqualified``, ``showdown``,
        ``ended_by``, ``deal``, ``loser_pays`` (chips, or ``"eliminated"``)."""
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
                       "showdown": dict(self._showdown), "ended_by": self._ended_by, "deal": deal,
                       "loser_pays": pay if pay is not None else "eliminated"}
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

    def public_to_act(self) -> tuple[int, ...]:
        """The seats of ``to_act`` every viewer may see: the seat on turn only."""
        return self.to_act[:1]

    def observe(self, seat: int | None) -> CambioObservation:
        """The view of ``seat`` (``None``: a spectator): never another seat's card,
        except the ones the rules show (refusals, disqualifications, the showdown).
        Its ``to_act`` is :meth:`view_to_act`: no other seat's OWL shows through it."""
        acting = self.view_to_act(seat)
        legal = (tuple(str(a) for a in self.legal_actions(seat))
                 if seat is not None and seat in acting else ())
        n = self._n
        own = self._kind[seat] if seat is not None else -1
        shown = tuple((s, NAMES[self._kind[s]]) for s in range(n)
                      if self._shown[s] and self._kind[s] >= 0 and s != seat)
        known = tuple(sorted((s, NAMES[k]) for s, k in self._known.get(seat, {}).items())) \
            if seat is not None else ()
        setup = self._setup
        return CambioObservation(
            seat=seat, num_players=n, phase=self._phase, dealer=self.dealer,
            deal=int(setup["deal"]), game_number=int(setup["game"]),
            chips=tuple(setup["chips"]), pot=int(setup["pot"]),
            pack=self._rules.pack, card=CARDS[own] if own >= 0 else None,
            card_from_stock=seat is not None and own >= 0 and self._origin[seat] == STOCK,
            card_origin=(self._origin[seat] if self._origin[seat] != STOCK else None)
            if seat is not None and own >= 0 else None,
            dealt_card=CARDS[self._start[seat]] if seat is not None and self._start[seat] >= 0 else None,
            in_deal=tuple(s for s in range(n) if self._in_deal[s]),
            active=tuple(s for s in range(n) if self._active[s]),
            disqualified=tuple((s, r) for s, r in self._dq.items()),
            declared=tuple(sorted((s, str(a)) for s, a in self._declared.items())),
            to_act=acting, current_seat=self.current_seat, stock_count=len(self._stock),
            discards=tuple(CARDS[k] for k, up in zip(self._discards, self._open, strict=True)
                           if up == _UP),
            discard_count=len(self._discards), shown=shown, known=known,
            loser_pays=payment(int(setup["deal"]), self._rules.pay_schedule),
            history=tuple(str(e) for e in self._history), legal_actions=legal,
            result=r.to_dict() if (r := self.result()) is not None else None)

    def clone(self) -> Self:
        new = object.__new__(type(self))
        for slot in self.__slots__:
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
