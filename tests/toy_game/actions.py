"""The toy game's one action, ``Play``, and the context-free ``parse_action``.

>>> parse_action("as")
Play(card=Card.parse('AS'))
>>> str(parse_action("10H"))
'10H'
"""

from __future__ import annotations

from dataclasses import dataclass

from folkdeck.cards import Card, parse_card


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``; its ``str()`` is the record grammar (the card in notation)."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)


def parse_action(text: str) -> Play:
    """Read an action (a card in notation); legality is the state's business.

    :raises InvalidNotationError: for text that is not a card.
    """
    return Play(parse_card(text))


ToyAction = Play
"""The game's action union (one member here)."""
