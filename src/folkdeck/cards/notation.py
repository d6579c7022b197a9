"""Card notation: parse and print cards in one place.

Tokens are ``<rank><suit>`` for suited cards (``3S``, ``10H``; ``T`` for 10, lower
case and the symbols ♠♣♦♥ are accepted on input), ``BJ``/``RJ`` for the jokers, and
for the Cucco pack the card's name or number (``FOOL``, ``0``…``10``, ``OWL``; the
values ``-4``…``15`` are accepted too, so ``11`` is ``HOUSE`` and ``12`` is ``CAT``).
The Nifty 44-card edition's extra number cards are written in Roman numerals as
printed, ``XI`` and ``XII`` (any case on input); they have no Arabic-number form,
since ``11`` and ``12`` already name ``HOUSE`` and ``CAT``. Cards are separated by
spaces or commas.

>>> parse_cards("3s, th ♥2 RJ")
(Card.parse('3S'), Card.parse('10H'), Card.parse('2H'), Card.parse('RJ'))
>>> format_cards(parse_cards("2H 3S 10C"))
'2H 3S 10C'
>>> format_cards(parse_cards("xi XII 11 12"))
'XI XII HOUSE CAT'
>>> parse_card("1S")
Traceback (most recent call last):
...
folkdeck.engine.errors.InvalidNotationError: unknown card '1S': bad rank '1' (ranks are 2-10 J Q K A, jokers BJ RJ)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Final

from folkdeck.cards.card import Card, CuccoRank, Rank, Suit
from folkdeck.errors import InvalidNotationError

CardsLike = str | Card | Iterable[Card]
"""Anything that names cards: notation text, one card, or an iterable of cards."""

_SUITS_IN: Final = {"S": Suit.SPADES, "C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS,
             "♠": Suit.SPADES, "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS,
             "♤": Suit.SPADES, "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS}
_RANKS_IN: Final = {r.value: r for r in Rank if not r.is_joker} | {"T": Rank.TEN}
_JOKERS_IN: Final = {"BJ": Rank.BLACK_JOKER, "RJ": Rank.RED_JOKER}
_CUCCO_IN: Final = {r.name: r for r in CuccoRank} | {
    str(r.value): r for r in CuccoRank if not r.is_nifty_extra}  # XI/XII: no number form
_SPLIT: Final = re.compile(r"[\s,]+")

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


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, keeping their order and repeats.

    >>> parse_cards("")
    ()

    :raises InvalidNotationError: naming the first bad token.
    """
    return tuple(parse_card(t) for t in _SPLIT.split(text.strip()) if t)


def as_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Normalise any :data:`CardsLike` to a tuple of cards.

    >>> as_cards("4C 4D") == as_cards([Card(Rank.FOUR, Suit.CLUBS), Card(Rank.FOUR, Suit.DIAMONDS)])
    True
    """
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, Card):
        return (cards,)
    out = tuple(cards)
    for card in out:
        if not isinstance(card, Card):
            raise InvalidNotationError("not_a_card", token=repr(card)[:40])
    return out


def format_cards(cards: Iterable[Card], key: Callable[[Card], Any] | None = None) -> str:
    """Cards in canonical notation, one space apart, sorted by ``key`` if given.

    >>> format_cards(parse_cards("2H 3S"), key=lambda c: str(c))
    '2H 3S'
    """
    seq = sorted(cards, key=key) if key is not None else list(cards)
    return " ".join(str(c) for c in seq)


def pretty_card(card: Card) -> str:
    """A card with its suit symbol (``10♥``), for people rather than records."""
    if card.suit is None:
        return str(card)
    return f"{card.rank.value if isinstance(card.rank, Rank) else card.rank}{card.suit.symbol}"
