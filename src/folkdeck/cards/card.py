"""The card values of every pack folkdeck plays with.

A :class:`Card` is a small immutable value: a rank and, for suited packs, a suit.
Duplicates (Gou Ji's four packs, the Cucco pack's two copies) are equal values:
hands in those games are multisets (tuples or counters), never sets.

Spanish and Portuguese cards reuse the French letters (the usual correspondence of
the Latin and French suits and court cards), so one notation serves every pack:

=========== ================= ===================== =====================
letter      French            Spanish               Portuguese
=========== ================= ===================== =====================
``S``       spades ♠          espadas (swords)      espadas (swords)
``C``       clubs ♣           bastos (batons)       paus (batons)
``D``       diamonds ♦        oros (coins)          ouros (coins)
``H``       hearts ♥          copas (cups)          copas (cups)
``J``       jack              sota                  valete
``Q``       queen             caballo               dama
``K``       king              rey                   rei
``A``       ace               as (1)                ás (1)
=========== ================= ===================== =====================
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Final

from folkdeck.errors import InvalidNotationError


class Suit(StrEnum):
    """The four suits; the value is the notation letter."""

    SPADES = "S"
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_SUIT_SYMBOLS: Final = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥"}


class Rank(StrEnum):
    """French-notation ranks (also used for the Spanish and Portuguese packs)."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"
    BLACK_JOKER = "BJ"
    RED_JOKER = "RJ"

    @property
    def is_joker(self) -> bool:
        return self in (Rank.BLACK_JOKER, Rank.RED_JOKER)


class CuccoRank(IntEnum):
    """The kinds of the Cucco (Cuccù) packs.

    The 20 kinds of the 40-card pack come first; their value is the card's number
    (``FOOL`` -4 … ``OWL`` 15). ``XI`` and ``XII`` are the extra number cards of the
    Nifty 44-card edition (docs/rules/cambio.md §1.3): the numbers 11 and 12 already belong to
    ``HOUSE`` and ``CAT``, so their values 111 and 112 are identifiers only, never
    card numbers. Games must compare Cucco cards by their pack's own order (e.g.
    :data:`folkdeck.cards.packs.NIFTY_44` lists the cards bottom to top), never by
    the raw enum value.
    """

    FOOL = -4
    LION = -3
    MASK = -2
    BUCKET = -1
    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    HOUSE = 11
    CAT = 12
    HORSE = 13
    MAN = 14
    OWL = 15
    XI = 111
    """The Nifty edition's number card XI (between 10 and ``HOUSE`` there)."""
    XII = 112
    """The Nifty edition's number card XII (between XI and ``HOUSE`` there)."""

    @property
    def notation(self) -> str:
        """``FOOL`` … ``BUCKET``, ``0`` … ``10``, ``HOUSE`` … ``OWL``, ``XI``, ``XII``."""
        return str(self.value) if 0 <= self.value <= 10 else self.name

    @property
    def is_nifty_extra(self) -> bool:
        """``XI`` or ``XII``: a card only of the Nifty 44-card edition."""
        return self.value > 100


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank and, except for jokers and Cucco cards, a suit.

    >>> Card(Rank.TEN, Suit.HEARTS)
    Card.parse('10H')
    >>> str(Card(Rank.RED_JOKER))
    'RJ'
    >>> str(Card(CuccoRank.OWL)), str(Card(CuccoRank.XII))
    ('OWL', 'XII')
    """

    rank: Rank | CuccoRank
    suit: Suit | None = None

    def __post_init__(self) -> None:
        needs_suit = isinstance(self.rank, Rank) and not self.rank.is_joker
        if needs_suit != (self.suit is not None):
            raise ValueError(f"card {self.rank!r} {'needs' if needs_suit else 'takes no'} suit")

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one card token; see :func:`parse_card`."""
        return parse_card(token)

    def __str__(self) -> str:
        rank = self.rank
        if isinstance(rank, CuccoRank):
            return rank.notation
        # A StrEnum member is a str equal to its value: joined as strs (a plain str comes out),
        # without the enum's ``value`` property, which was most of the time of printing a card.
        return rank + (self.suit if self.suit is not None else "")

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[Rank | CuccoRank, Suit | None]]:
        # Pickled as its constructor call, `Card(rank, suit)` (why: folkdeck.engine.build,
        # "Pickling"): the server's bot workers receive views full of cards.
        return (Card, (self.rank, self.suit))

    @property
    def is_joker(self) -> bool:
        return isinstance(self.rank, Rank) and self.rank.is_joker


# --- reading the notation (folkdeck.cards.notation has the rest: lists of cards, printing) ---
# Here, beside the class, so that Card.parse needs no import of a module that imports Card.

_SUITS_IN: Final = {"S": Suit.SPADES, "C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS,
             "♠": Suit.SPADES, "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS,
             "♤": Suit.SPADES, "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS}
_RANKS_IN: Final = {r.value: r for r in Rank if not r.is_joker} | {"T": Rank.TEN}
_JOKERS_IN: Final = {"BJ": Rank.BLACK_JOKER, "RJ": Rank.RED_JOKER}
_CUCCO_IN: Final = {r.name: r for r in CuccoRank} | {
    str(r.value): r for r in CuccoRank if not r.is_nifty_extra}  # XI/XII: no number form

# Every distinct card value, made once: parsing returns these shared instances.
_CACHE: Final[dict[str, Card]] = {}


def parse_card(token: str) -> Card:
    """Parse one card token.

    >>> parse_card("qd"), parse_card("♠10"), parse_card("owl"), parse_card("-4")
    (Card.parse('QD'), Card.parse('10S'), Card.parse('OWL'), Card.parse('FOOL'))

    :raises InvalidNotationError: naming the token and what is wrong with it.
    """
    key = token.strip().upper()
    card = _CACHE.get(key)
    if card is not None:
        return card
    card = _parse_uncached(token, key)
    _CACHE[key] = card
    return card


def _parse_uncached(token: str, key: str) -> Card:
    if not key:
        raise InvalidNotationError("empty_card", token=token)
    if key in _JOKERS_IN:
        return Card(_JOKERS_IN[key])
    if key in _CUCCO_IN:
        return Card(_CUCCO_IN[key])
    # A suit may stand first (♠10) or last (10S).
    if key[0] in _SUITS_IN and key[0] not in "SCDH":
        key = key[1:] + key[0]
    suit = _SUITS_IN.get(key[-1])
    if suit is None:
        raise InvalidNotationError("bad_suit", token=token, suit=key[-1])
    rank = _RANKS_IN.get(key[:-1])
    if rank is None:
        raise InvalidNotationError("bad_rank", token=token, rank=key[:-1])
    return Card(rank, suit)
