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
few reshuffles if a greedy deal paints itself into a corner), the rest to the stock.
"""

from __future__ import annotations

import random
from typing import Any, Final

from folkdeck.engine.errors import WrongPhaseError
from folkdeck.games.cangkul.game import CangkulGame
from folkdeck.games.cangkul.observation import CangkulPhase, CangkulView
from folkdeck.games.cangkul.rules import JOKER, STRIDE, Deck, cards_of, mask
from folkdeck.games.cangkul.state import JOKER_CLASS, CangkulState

_SUITS: Final = "SCDH"
_TRIES: Final = 64


def _class(i: int) -> int:
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


def determinize(game: CangkulGame, view: CangkulView, rng: random.Random) -> CangkulState:
    """A state agreeing with ``view`` whose hidden cards are dealt at random.

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
    pool = [i for i in range(deck.full.bit_length()) if deck.full >> i & 1 and not fixed >> i & 1]
    need = {s: (view.counts[s] or 0) - known[s].bit_count() for s in range(n) if s != seat}
    stock_total = sum(view.stock)
    if len(pool) - sum(need.values()) - stock_total < 0:
        raise AssertionError("Cangkul determinization: card count")  # pragma: no cover
    hands = _deal(pool, need, voids(view), rng)
    hands[seat] = own
    rest = hands.pop(-1)
    for s in range(n):
        hands[s] |= known[s]
    cards = deck.cards
    piles = []
    at = 0
    for size in view.stock:
        # The pile top first; the order is random already (the old worlds' order kept).
        piles.append([cards[i] for i in reversed(rest[at:at + size])])
        at += size
    knock_seed = rng.getrandbits(32) if game.rules.knock_prob > 0 else None
    return CangkulState.from_view(
        game, view, hands=[cards_of(hands[s], deck) for s in range(n)],
        piles=piles, knock_seed=knock_seed)


def _deal(pool: list[int], need: dict[int, int], void: list[int],
          rng: random.Random) -> dict[int, Any]:
    """``need[s]`` cards to each seat avoiding its void classes; key -1: the rest, shuffled."""
    order = sorted(need, key=lambda s: (-void[s].bit_count(), s))
    for _ in range(_TRIES):
        cards = list(pool)
        rng.shuffle(cards)
        hands: dict[int, Any] = {}
        ok = True
        for s in order:
            v = void[s]
            take: list[int] = []
            keep: list[int] = []
            for i in cards:
                if len(take) < need[s] and not v >> _class(i) & 1:
                    take.append(i)
                else:
                    keep.append(i)
            if len(take) < need[s]:
                ok = False
                break
            m = 0
            for i in take:
                m |= 1 << i
            hands[s] = m
            cards = keep
        if ok:
            hands[-1] = cards
            return hands
    # The voids could not be met (they always can for a real position): deal them unconstrained.
    cards = list(pool)
    rng.shuffle(cards)
    hands = {}
    for s in order:
        m = 0
        for i in cards[:need[s]]:
            m |= 1 << i
        hands[s] = m
        cards = cards[need[s]:]
    hands[-1] = cards
    return hands


def is_searchable(view: Any) -> bool:
    """True when :func:`determinize` applies (a seat's view during play)."""
    return bool(getattr(view, "phase", None) == CangkulPhase.PLAY and getattr(view, "seat", None) is not None)


__all__ = ["determinize", "is_searchable", "voids"]
