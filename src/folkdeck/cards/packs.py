"""The packs the games use, and their native names.

>>> len(FRENCH_52.cards), len(FRENCH_54.cards), len(GOUJI_216.cards)
(52, 54, 216)
>>> len(SPANISH_48.cards), len(PORTUGUESE_40.cards), len(CUCCO_40.cards), len(NIFTY_44.cards)
(48, 40, 40, 44)
>>> " ".join(str(c) for c in NIFTY_44.kinds[13:])
'9 10 XI XII HOUSE CAT HORSE MAN OWL'
>>> SPANISH_48.card_name(Card.parse("QD"))
'caballo de oros'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Final

from folkdeck.cards.card import Card, CuccoRank, Rank, Suit
from folkdeck.errors import InvalidNotationError

_FRENCH_RANKS: Final = (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT,
                 Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
_SUITS: Final = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)


@dataclass(frozen=True, slots=True)
class Pack:
    """A named pack: its cards (with repeats for multi-pack games) and native names."""

    name: str
    cards: tuple[Card, ...]
    rank_names: dict[str, str] = field(default_factory=dict, compare=False)
    suit_names: dict[Suit, str] = field(default_factory=dict, compare=False)

    @property
    def counts(self) -> Counter[Card]:
        """How many copies of each card the pack holds."""
        return Counter(self.cards)

    @property
    def kinds(self) -> tuple[Card, ...]:
        """The distinct cards, in pack order."""
        return tuple(dict.fromkeys(self.cards))

    def check(self, cards: tuple[Card, ...], what: str = "cards") -> None:
        """Raise unless ``cards`` is a sub-multiset of this pack.

        :raises InvalidNotationError: for a card not in the pack, or too many copies.
        """
        have = self.counts
        for card, n in Counter(cards).items():
            if card not in have:
                raise InvalidNotationError("not_in_pack", token=str(card), pack=self.name, where=what)
            if n > have[card]:
                raise InvalidNotationError("too_many_copies", token=str(card), pack=self.name, where=what,
                                           count=n, copies=have[card])

    def card_name(self, card: Card) -> str:
        """The card's name in the pack's own language, e.g. ``'caballo de oros'``."""
        if card.suit is None or not self.rank_names:
            return str(card)
        return f"{self.rank_names[str(card.rank.value)]} {self.suit_names[card.suit]}"


def _suited(ranks: tuple[Rank, ...]) -> tuple[Card, ...]:
    return tuple(Card(r, s) for r in ranks for s in _SUITS)


FRENCH_52: Final = Pack("French 52", _suited(_FRENCH_RANKS))
FRENCH_54: Final = Pack("French 54", FRENCH_52.cards + (Card(Rank.BLACK_JOKER), Card(Rank.RED_JOKER)))
GOUJI_216: Final = Pack("four French packs with jokers", FRENCH_54.cards * 4)
SPANISH_48: Final = Pack(
    "Spanish 48",
    _suited(tuple(r for r in _FRENCH_RANKS if r is not Rank.TEN)),
    rank_names={"A": "as", "2": "dos", "3": "tres", "4": "cuatro", "5": "cinco", "6": "seis",
                "7": "siete", "8": "ocho", "9": "nueve", "J": "sota", "Q": "caballo", "K": "rey"},
    suit_names={Suit.SPADES: "de espadas", Suit.CLUBS: "de bastos", Suit.DIAMONDS: "de oros",
                Suit.HEARTS: "de copas"},
)
PORTUGUESE_40: Final = Pack(
    "Portuguese 40",
    _suited(tuple(r for r in _FRENCH_RANKS if r not in (Rank.EIGHT, Rank.NINE, Rank.TEN))),
    rank_names={"A": "ás", "2": "duque", "3": "terno", "4": "quadra", "5": "quina", "6": "sena",
                "7": "sete", "J": "valete", "Q": "dama", "K": "rei"},
    suit_names={Suit.SPADES: "de espadas", Suit.CLUBS: "de paus", Suit.DIAMONDS: "de ouros",
                Suit.HEARTS: "de copas"},
)
_CUCCO_20: Final = tuple(r for r in CuccoRank if not r.is_nifty_extra)
CUCCO_40: Final = Pack("Cucco 40", tuple(Card(r) for r in _CUCCO_20) * 2)
"""The Cucco pack: 20 kinds, two of each, in order from FOOL (-4) to OWL (15)."""
NIFTY_44: Final = Pack("Cucco Nifty 44", tuple(
    Card(r) for r in (*_CUCCO_20[:15], CuccoRank.XI, CuccoRank.XII, *_CUCCO_20[15:])) * 2)
"""The Nifty edition (docs/rules/cambio.md §1.3): 22 kinds, two of each, bottom to top FOOL, LION,
MASK, BUCKET, 0 … 10, XI, XII, then the five pictures HOUSE, CAT, HORSE, MAN, OWL."""

PACKS: Final = {p.name: p for p in (FRENCH_52, FRENCH_54, GOUJI_216, SPANISH_48, PORTUGUESE_40, CUCCO_40,
                             NIFTY_44)}


def require_pack_card(card: Card, pack: Pack) -> Card:
    """Return ``card`` if the pack has it, else raise :class:`InvalidNotationError`."""
    if card not in pack.counts:
        raise InvalidNotationError("not_in_pack", token=str(card), pack=pack.name, where="cards")
    return card
