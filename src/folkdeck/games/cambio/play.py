"""The transitions of a Cambio deal: what a request, the stock's answer and a call do
(docs/rules/cambio.md §4-§6), as :class:`CambioFlow`, a part that
:class:`~folkdeck.games.cambio.state.CambioState` holds: the rules of one game, which
change the deal they are given and hold nothing of a deal themselves.

Each method performs an action that :meth:`CambioState.apply
<folkdeck.games.cambio.state.CambioState.apply>` found legal; none checks it again.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Final

from folkdeck.engine.facts import DealEnded, Disqualified, Exchanged, Fact
from folkdeck.games.cambio.deal import UP, CambioDeal
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
)
from folkdeck.games.cambio.rules import (
    CARDS,
    NUM_KINDS,
    STOCK,
    Answer,
    CambioGameLike,
    answer,
    received_disqualifies,
    showdown_losers,
    unfold,
    value,
)

_ANSWERS: Final = {refuses: tuple(answer(k, to_stock=False, owl_refuses=refuses) for k in range(NUM_KINDS))
            for refuses in (False, True)}
_STOCK_ANSWERS: Final = tuple(answer(k, to_stock=True, owl_refuses=False) for k in range(NUM_KINDS))
_RECEIVED_DISQUALIFIES: Final = {rule: tuple(received_disqualifies(k, rule) for k in range(NUM_KINDS))
                                 for rule in ("japanese", "italian")}
"""The rules' :func:`~folkdeck.games.cambio.rules.received_disqualifies` of every kind, by
``fool_rule``: a table, as the answers are, for every swap asks it."""
# The answers as constants: Python 3.11 reads an enum's member (``Answer.SWAP``) through the
# hook of the enum class's ``__getattr__``, some 900 machine instructions more than a global.
_SWAP: Final = Answer.SWAP
_MAN: Final = Answer.MAN
_SKIP: Final = Answer.SKIP
_CAT: Final = Answer.CAT
_CUCCO: Final = Answer.CUCCO

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
_disqualified: Final = _shared(lambda seat, reason: Disqualified(seat=seat, reason=reason))
_shows: Final = _shared(lambda seat, kind: Shows(seat=seat, card=CARDS[kind]))
_deal_ended: Final = _shared(lambda reason, losers: DealEnded(reason=reason, losers=losers))




class CambioFlow:
    """The transitions of a deal under ``game``'s rules; shared by a state and its clones."""

    __slots__ = ("_game", "_rules")

    def __init__(self, game: CambioGameLike) -> None:
        self._game = game
        self._rules = game.options

    def request(self, deal: CambioDeal, q: int, facts: list[Fact]) -> None:
        """Resolve seat ``q``'s exchange request, docs/rules/cambio.md §5."""
        target = deal.next_target(q)
        answers = _ANSWERS[self._rules.owl_refuses_when_asked]
        while target != STOCK:
            k = deal.kind[target]
            ans = answers[k]
            if ans is _SWAP:
                self._swap(deal, q, target, facts)
                return
            deal.shown[target] = True
            if ans is _SKIP:
                nxt = deal.next_target(target)
                facts.append(_passed_on(target, k, q, None if nxt == STOCK else nxt))
                target = nxt
                continue
            facts.append(_refused(target, k, q))
            if ans is _MAN:
                self._disqualify(deal, [q], "asked_man", facts)
            elif ans is _CAT:
                self._cat(deal, q, facts)
            else:  # an OWL refusing under owl_refuses_when_asked
                self.finish(deal, "cucco", facts)
            return
        self._ask_stock(deal, q, facts)

    def _ask_stock(self, deal: CambioDeal, q: int, facts: list[Fact]) -> None:
        answers = _STOCK_ANSWERS
        outside = len(deal.stock) + len(deal.discards)
        skips = 0
        while True:
            if skips >= outside:
                # Only HORSEs and HOUSEs are left outside the hands (possible with 36+ players):
                # the request can never be answered, so it lapses (an engine choice).
                facts.append(RequestLapsed(seat=q))
                return
            k = self._draw(deal, facts)
            ans = answers[k]
            if ans is _SWAP:
                old = deal.kind[q]
                seen = UP if deal.shown[q] else 1 << q  # a shown card stays public
                for v, known in deal.known.items():
                    if q in known:
                        seen |= 1 << v  # v gave this card away and followed it
                self._discard(deal, old, seen)
                deal.kind[q] = k
                deal.origin[q] = STOCK
                deal.shown[q] = False
                self._forget(deal, q)
                facts.append(TookStock(seat=q, card=CARDS[k], discarded=CARDS[old])
                             if self._rules.open_discards else TookStockFaceDown(seat=q, card=CARDS[k]))
                return
            self._discard(deal, k, UP)
            facts.append(_stock_card(k, q))
            if ans is _SKIP:
                skips += 1
                continue
            if ans is _CUCCO:
                self.finish(deal, "stock_owl", facts)
            elif ans is _MAN:
                self._disqualify(deal, [q], "asked_stock_man", facts)
            else:
                self._cat(deal, q, facts)
            return

    def _draw(self, deal: CambioDeal, facts: list[Fact]) -> int:
        if not deal.stock:
            # docs/rules/cambio.md §6.9: the stock is used up; the discards become a new stock.
            if deal.rng is None:
                deal.rng = random.Random(int(deal.setup.get("reshuffle_seed", 0)))
            cards = sorted(deal.discards)
            deal.rng.shuffle(cards)
            deal.stock = cards
            deal.bits = None
            deal.discards = []
            deal.open = []
            facts.append(Reshuffled(count=len(cards)))
        bits = deal.bits
        stock = deal.stock
        if bits is None:
            return stock.pop()
        deal.bits, j = divmod(bits, len(stock))
        stock[j], stock[-1] = stock[-1], stock[j]
        return stock.pop()

    def ordered_stock(self, deal: CambioDeal) -> list[int]:
        """The stock, top last, in its real order (unfolding a lazy stock)."""
        if deal.bits is not None:
            deal.stock = unfold(deal.stock, deal.bits)
            deal.bits = None
        return deal.stock

    def _discard(self, deal: CambioDeal, k: int, seen_by: int) -> None:
        """Discard ``k``, face up, or face down seen by the seats of the mask ``seen_by``."""
        deal.discards.append(k)
        deal.open.append(UP if self._rules.open_discards else seen_by)

    def _swap(self, deal: CambioDeal, q: int, t: int, facts: list[Fact]) -> None:
        kinds, origin = deal.kind, deal.origin
        a, b = kinds[q], kinds[t]
        kinds[q], kinds[t] = b, a
        origin[q], origin[t] = origin[t], origin[q]
        deal.shown[q], deal.shown[t] = deal.shown[t], deal.shown[q]  # public cards stay public
        knowledge = deal.known
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
        disqualifies = _RECEIVED_DISQUALIFIES[self._rules.fool_rule]
        if disqualifies[a] or disqualifies[b]:
            out = [s for s, got in ((q, b), (t, a)) if disqualifies[got]]
            self._disqualify(deal, out, "received_fool", facts)

    def _cat(self, deal: CambioDeal, q: int, facts: list[Fact]) -> None:
        owner = deal.origin[q]
        if owner == STOCK:
            facts.append(CatCurse(seat=q, dealt_to=None, outcome="from_stock"))
        elif not deal.active[owner]:
            facts.append(CatCurse(seat=q, dealt_to=owner, outcome="already_out"))
        else:
            facts.append(CatCurse(seat=q, dealt_to=owner, outcome="disqualified"))
            self._disqualify(deal, [owner], "cat_curse", facts)

    def _forget(self, deal: CambioDeal, seat: int) -> None:
        for known in deal.known.values():
            known.pop(seat, None)

    def _disqualify(self, deal: CambioDeal, seats: list[int], reason: str, facts: list[Fact]) -> None:
        for s in seats:
            k = deal.kind[s]
            deal.active[s] = False
            deal.dq[s] = reason
            self._discard(deal, k, UP)
            deal.kind[s] = -1
            self._forget(deal, s)
            facts.append(_disqualified(s, reason))
            facts.append(_shows(s, k))
        if self._rules.midgame_loss == "end_deal":
            self.finish(deal, "disqualification", facts)
        elif sum(deal.active) <= 1:
            self.finish(deal, "one_player_left", facts)

    def finish(self, deal: CambioDeal, how: str, facts: list[Fact]) -> None:
        """End the deal: the showdown among the remaining players (docs/rules/cambio.md §4.4)."""
        deal.phase = "over"
        deal.ended_by = how
        rules = self._rules
        kinds, origin, active = deal.kind, deal.origin, deal.active
        remaining = [(s, kinds[s], origin[s]) for s in deal.order if active[s]]
        losers = list(deal.dq)
        showdown: dict[int, int] = {}
        if deal.dq and rules.midgame_loss == "end_deal":
            pass  # the first disqualification is the deal's only loss
        elif len(remaining) >= 2:
            pack, fool_rule = self._game.pack, rules.fool_rule
            for s, k, o in remaining:
                showdown[s] = k
                facts.append(_showdown(s, k, value(k, o, fool_rule, pack), o == STOCK))
            low = showdown_losers(remaining, fool_rule, pack)
            losers += low
            for s in low:
                facts.append(_lowest(s))
        elif remaining:
            facts.append(LastPlayer(seat=remaining[0][0]))
        deal.losers = losers
        deal.showdown = showdown
        facts.append(_deal_ended(how, tuple(sorted(losers))))
