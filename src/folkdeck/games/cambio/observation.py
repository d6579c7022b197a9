"""What one Cambio seat sees (or a spectator, ``seat=None``): :class:`CambioView`.

The core fields (:class:`~folkdeck.engine.view.View`) hold the seat's one card
(``hand``, a one-card tuple; empty once disqualified), every seat's card count, the
stock's size, the disqualified seats (``out``), the status facts and the history; the
Cambio fields below are typed for bots and determinizers (seats as ints, cards as
:class:`~folkdeck.cards.Card`, pairs as tuples).

>>> from folkdeck import load
>>> view = load("cambio").new_state(seed=7).observe(1)
>>> view.hand == (view.card,), view.phase, view.stock
(True, <Phase.EXCHANGE: 'exchange'>, (36,))
>>> [f.type for f in view.status]
['cambio.stake', 'cambio.dealer', 'cambio.chips']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from folkdeck.cards import Card
from folkdeck.engine.facts import Disqualified, Fact
from folkdeck.engine.view import View
from folkdeck.games.cambio.events import (
    CardFromStock,
    CardOrigin,
    Chips,
    Dealer,
    Discards,
    FaceDown,
    Holds,
    MayCallCucco,
    Pot,
    Stake,
    StakeElimination,
)
from folkdeck.games.cambio.rules import KIND, PACK_TABLES, PackTable


class Phase(StrEnum):
    """A Cambio deal's phases."""

    EXCHANGE = "exchange"
    """Each active seat in turn says change or keep (an OWL holder may call cucco)."""
    OVER = "over"


@dataclass(frozen=True, slots=True, kw_only=True)
class CambioView(View):
    """A seat's view: its own card (``hand``), the open discards, chips and pot, and what
    the rules have shown of others' cards (``shown``: refusals) or what the seat can follow
    itself (``known``: the cards it gave away in exchanges, and where they are)."""

    phase: Phase
    pack: str
    """The ``pack`` option: ``"40"`` or ``"nifty44"`` (docs/rules/cambio.md §1.3)."""
    dealer: int
    deal: int
    """The deal's number in the current game (1-based)."""
    game_number: int
    """The game's number in the session (1-based)."""
    chips: tuple[int, ...]
    """Each seat's chips before this deal is settled."""
    pot: int
    card_from_stock: bool
    """The seat's card was taken from the stock this deal (a FOOL then counts above the OWL)."""
    card_origin: int | None
    """The seat first dealt this seat's card (``None``: the stock, or no card); public,
    since every exchange is announced."""
    card_shown: bool
    """The rules have shown this seat's card to the table (a refusal)."""
    dealt_card: Card | None
    """The card this seat was dealt (the CAT blames the seat first dealt a card)."""
    in_deal: tuple[int, ...]
    """Seats dealt a card (the others are eliminated from the game)."""
    active: tuple[int, ...]
    """Seats still in the deal."""
    origins: tuple[int | None, ...]
    """For each seat, the seat its card was first dealt to (``None``: from the stock, or no
    card); public: every exchange and stock card is announced."""
    disqualified: tuple[tuple[int, str], ...]
    """``(seat, reason)`` in order; reasons are term keys (``asked_man``, ``asked_stock_man``,
    ``received_fool``, ``cat_curse``)."""
    declared: tuple[tuple[int, str], ...]
    """``(seat, word)``: what each seat said (``change`` or ``keep``), by seat."""
    discards: tuple[Card, ...]
    """The face-up discards (all of them under ``open_discards``)."""
    discard_count: int
    """Every discard, face down ones included."""
    shown: tuple[tuple[int, Card], ...]
    """``(seat, card)``: other seats' cards the rules have shown (refusals)."""
    known: tuple[tuple[int, Card], ...]
    """``(seat, card)``: the cards this seat gave away in exchanges and still follows."""
    loser_pays: int | None
    """Chips a loser of this deal pays, ``None``: losers are eliminated."""

    @property
    def card(self) -> Card | None:
        """The seat's one card (``hand[0]``), ``None`` without one."""
        return self.hand[0] if self.hand else None

    @property
    def pack_table(self) -> PackTable:
        """The pack's kinds and card order."""
        return PACK_TABLES[self.pack]

    def order_key(self, card: Card) -> int:
        """A sort key: the card's place in this pack's order, bottom first."""
        return self.pack_table.values[KIND[card]]

    def unseen(self) -> tuple[Card, ...]:
        """The cards this seat has not seen: the pack less the discards, its own card and the
        cards shown or known (the counting of docs/rules/cambio.md §3.6)."""
        left = Counter(self.pack_table.pack.cards)
        left.subtract(self.discards)
        if self.card is not None:
            left[self.card] -= 1
        for _, c in (*self.shown, *self.known):
            left[c] -= 1
        return tuple(c for c in sorted(left, key=self.order_key) for _ in range(max(left[c], 0)))


def status_facts(*, seat: int | None, own: bool, origin: int | None, dealer: int, game: int,
                 deal: int, pays: int | None, chips: tuple[int, ...], pot: int,
                 shown: tuple[tuple[int, Card], ...], known: tuple[tuple[int, Card], ...],
                 disqualified: tuple[tuple[int, str], ...], discards: tuple[Card, ...],
                 face_down: int, may_call: bool) -> tuple[Fact, ...]:
    """What a seat must know of the position now, as facts: the stake, the dealer, its
    chips and the pot, where its card came from (when not its own dealt card), the cards
    shown or followed, the disqualified seats, the discards and its right to call cucco."""
    out: list[Fact] = [Stake(game=game, deal=deal, pays=pays) if pays is not None
                       else StakeElimination(game=game, deal=deal), Dealer(seat=dealer)]
    out.append(Chips(seat=seat, chips=chips[seat], pot=pot) if seat is not None else Pot(pot=pot))
    if seat is not None and own and origin != seat:
        out.append(CardFromStock(seat=seat) if origin is None else CardOrigin(seat=seat, origin=origin))
    out.extend(Holds(seat=s, card=c, how="shown") for s, c in shown)
    out.extend(Holds(seat=s, card=c, how="followed") for s, c in known)
    out.extend(Disqualified(seat=s, reason=r) for s, r in disqualified)
    if discards:
        out.append(Discards(cards=discards))
    if face_down:
        out.append(FaceDown(count=face_down))
    if may_call and seat is not None:
        out.append(MayCallCucco(seat=seat))
    return tuple(out)


__all__ = ["CambioView", "Phase", "status_facts"]
