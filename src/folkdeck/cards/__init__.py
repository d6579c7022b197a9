"""Cards, packs and the one card notation.

>>> from folkdeck.cards import parse_cards, format_cards
>>> format_cards(parse_cards("th 3s"))
'10H 3S'
"""

from folkdeck.cards.card import Card, CuccoRank, Rank, Suit
from folkdeck.cards.notation import (
    CardsLike,
    as_cards,
    format_cards,
    parse_card,
    parse_cards,
    pretty_card,
)
from folkdeck.cards.packs import (
    CUCCO_40,
    FRENCH_52,
    FRENCH_54,
    GOUJI_216,
    NIFTY_44,
    PACKS,
    PORTUGUESE_40,
    SPANISH_48,
    Pack,
)

__all__ = [
    "CUCCO_40", "FRENCH_52", "FRENCH_54", "GOUJI_216", "NIFTY_44", "PACKS", "PORTUGUESE_40", "SPANISH_48",
    "Card", "CardsLike", "CuccoRank", "Pack", "Rank", "Suit", "as_cards", "format_cards",
    "parse_card", "parse_cards", "pretty_card",
]
