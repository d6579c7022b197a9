"""How the toy game says what happened: its actions described as facts.

The shared vocabulary of :mod:`folkdeck.engine.facts` says all of a toy deal
(``played``, ``trick_won``, ``deal_ended``), so the game declares no fact type of its own;
a game that needs one declares it here with a ``toy.`` type code (and documents it in
``docs/events.md``).

>>> from folkdeck.cards import parse_card
>>> describe_action(1, Play(parse_card("KH"))).to_dict()
{'type': 'played', 'seat': 1, 'cards': ['KH'], 'combo': ''}
"""

from __future__ import annotations

from typing import Any

from folkdeck.engine.facts import Fact, Played
from tests.toy_game.actions import Play


def describe_action(seat: int, action: Any) -> Fact:
    """The action itself as a fact, for histories and text (``GameHooks.describe_action``)."""
    if not isinstance(action, Play):
        raise TypeError(f"not a toy action: {action!r}")
    return Played(seat=seat, cards=(action.card,))
