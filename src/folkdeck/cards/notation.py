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
from typing import TYPE_CHECKING, Final

from folkdeck.cards.card import Card, Rank
from folkdeck.cards.card import parse_card as parse_card  # its documented home is here
from folkdeck.errors import InvalidNotationError

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

CardsLike = str | Card | Iterable[Card]
"""Anything that names cards: notation text, one card, or an iterable of cards."""

_SPLIT: Final = re.compile(r"[\s,]+")


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, keeping their order and repeats.

    >>> parse_cards("")
    ()

    :raises InvalidNotationError: naming the first bad token.
    """
    return tuple(parse_card(t) for t in _SPLIT.split(text.strip()) if t)


def as_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Normalise any :data:`CardsLike` to a tuple of cards.

    >>> from folkdeck.cards.card import Suit
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


def format_cards(cards: Iterable[Card], key: Callable[[Card], SupportsRichComparison] | None = None) -> str:
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
