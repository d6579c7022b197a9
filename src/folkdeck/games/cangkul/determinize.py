"""Cangkul and Burro determinization (the three games share this module).

Built from the seat's view and the game's rules only (never the real state), like
Kap Hai's (``docs/bots.md``), through :meth:`CangkulState.from_view`, which copies
everything public: the trick, the passers, the led suit, the order out, the known and
dead cards, the voids, the stall count and the history, the hand sizes and the stock
sizes. The cards placed for sure:

- the seat's own hand;
- the cards a passer collected publicly and still holds (``known``): in that hand;
- the cards on the table (the trick) and out of play (``dead``).

Every other card is hidden: in another hand (beyond its known cards), in the stock (its
one or two piles, in an unknown order), or (in a study position) out of the deal.
**Voids** (the view's ``voids`` and ``joker_void``): a seat that drew or passed on a led
suit held none of it then, and it still holds none of it *among its hidden cards* until
it next takes a card unseen (a draw on another suit that it keeps, or a knock). The
hidden cards are dealt at random under those voids, the most constrained seat first (a
few reshuffles if a greedy deal paints itself into a corner), the rest to the stock: the
kit's constrained deal (:func:`folkdeck.engine.determinize.deal`, the voids as barred
classes).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from folkdeck.cards import Card
from folkdeck.engine.determinize import Determinization, deal, to_mask, unseen_bits
from folkdeck.engine.errors import WrongPhaseError
from folkdeck.engine.view import View
from folkdeck.games.cangkul.game import CangkulGame
from folkdeck.games.cangkul.observation import CangkulPhase, CangkulView
from folkdeck.games.cangkul.rules import JOKER, STRIDE, Deck, cards_of, mask
from folkdeck.games.cangkul.state import JOKER_CLASS, CangkulState

_SUITS: Final = "SCDH"


def _class(i: int) -> int:
    """A card index's class: its suit (0-3), or the joker's (4)."""
    return JOKER_CLASS if i == JOKER else i // STRIDE


def voids(view: CangkulView, deck: Deck | None = None, joker_shown: bool = True) -> list[int]:
    """Per seat, a bitmask of card classes (suits 0-3, the joker 4) absent from its
    *hidden* cards now (its publicly taken cards aside), from the view's ``voids`` and
    (``joker_shown``) ``joker_void``. ``deck`` is not needed (kept for callers)."""
    out = []
    for suits, joker in zip(view.voids, view.joker_void, strict=True):
        m = 1 << JOKER_CLASS if joker and joker_shown else 0
        for u in suits:
            m |= 1 << _SUITS.index(u.value)
        out.append(m)
    return out


def worlds(game: CangkulGame, view: CangkulView) -> Callable[[random.Random], CangkulState]:
    """The worlds of ``view``: the placed cards, the pool and the voids read once, each
    call dealing the hidden cards under the voids (see the module).

    :raises WrongPhaseError: for a spectator's view or a deal that is over.
    """
    seat = view.seat
    if not is_searchable(view) or seat is None or view.hand is None:
        raise WrongPhaseError("deal_over", phase=str(view.phase))
    deck = game.deck
    n = view.num_players
    own = mask(view.hand, deck)
    known = [mask(k, deck) if k else 0 for k in view.known]
    known[seat] = 0
    fixed = own | mask(view.dead, deck)
    for play in view.table:
        fixed |= mask(play.cards, deck)
    for k in known:
        fixed |= k
    pool = unseen_bits(deck.full, fixed)
    need = {s: (view.counts[s] or 0) - known[s].bit_count() for s in range(n) if s != seat}
    if len(pool) - sum(need.values()) - sum(view.stock) < 0:
        raise AssertionError("Cangkul determinization: card count")  # pragma: no cover
    void = voids(view)
    barred = {s: void[s] for s in need}
    knocks = game.rules.knock_prob > 0
    cards = deck.cards

    def world(rng: random.Random) -> CangkulState:
        dealt = deal(pool, need, rng, barred=barred, kind=_class)
        hands = [own if s == seat else to_mask(dealt.hands[s]) | known[s] for s in range(n)]
        rest = dealt.rest
        piles: list[list[Card]] = []
        at = 0
        for size in view.stock:
            # The pile top first; the order is random already (the old worlds' order kept).
            piles.append([c for i in reversed(rest[at:at + size]) if (c := cards[i]) is not None])
            at += size
        knock_seed = rng.getrandbits(32) if knocks else None
        return CangkulState.from_view(game, view, hands=[cards_of(h, deck) for h in hands],
                                      piles=piles, knock_seed=knock_seed)

    return world


def is_searchable(view: View) -> bool:
    """True when :meth:`DETERMINIZER.determinize` applies (a seat's view during play)."""
    return isinstance(view, CangkulView) and view.phase == CangkulPhase.PLAY and view.seat is not None


DETERMINIZER: Final = Determinization(CangkulGame, CangkulView, is_searchable, worlds)
"""The three games' determinizer (``GameSpec.determinizer``)."""

__all__ = ["DETERMINIZER", "is_searchable", "voids", "worlds"]
