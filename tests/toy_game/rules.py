"""The toy game's rules as pure functions: its pack and which card wins a trick.

The toy game ("high card") is played with the 24 cards 9 to A of a French pack. Each
seat is dealt ``hand_size`` cards; the rest stay face down. The leader plays any card,
then each seat in turn plays any card; the highest card wins the trick (by rank, then
by suit: S < C < D < H) and its winner leads the next one. When the hands are empty,
the seats are placed by the tricks they won.

>>> from folkdeck.cards import parse_cards
>>> trick_winner([(0, parse_cards("KS")[0]), (1, parse_cards("KH")[0]), (2, parse_cards("9D")[0])])
1
>>> placings((2, 0, 2))
(1, 3, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from folkdeck.cards import FRENCH_52, Card, Pack, Rank

_RANKS: Final = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
PACK: Final = Pack("toy 24", tuple(c for c in FRENCH_52.cards if c.rank in _RANKS))
"""The 24 cards, weakest first (FRENCH_52 lists them by rank, then suit)."""
STRENGTH: Final = {card: i for i, card in enumerate(PACK.cards)}


def trick_winner(trick: Sequence[tuple[int, Card]]) -> int:
    """The seat whose card is the highest of a finished trick."""
    return max(trick, key=lambda play: STRENGTH[play[1]])[0]


def placings(tricks: Sequence[int]) -> tuple[int, ...]:
    """Each seat's place by tricks won (1 = most; equal counts share a place)."""
    return tuple(1 + sum(1 for other in tricks if other > mine) for mine in tricks)
