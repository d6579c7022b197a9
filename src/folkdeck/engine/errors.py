"""The error hierarchy, re-exported where the engine's layout puts it, and the refusals
that every game shares.

The classes live in :mod:`folkdeck.errors`, below every layer (the card notation raises
them too); this module keeps the engine's import path.

A shared refusal keeps its game's reason key (``kaphai.not_your_turn``, so that each
game's catalog entry may word it in the game's terms) but carries the same parameters in
every game, :data:`SHARED_REASONS`: make it with :func:`not_your_turn`, :func:`not_held`
or :func:`not_an_action`. A game with nothing of its own to say in them (the toy game of
``tests/toy_game``) passes ``""`` as its name: the reason is then the engine's own
(``not_your_turn``), worded once in the catalogs (``error.not_your_turn``).

>>> err = not_your_turn("cangkul", 2, (1,), "7D")
>>> err.reason, dict(err.params)
('cangkul.not_your_turn', {'seat': 2, 'to_act': [1], 'action': '7D'})
>>> err.render("en", viewer=2)
'you may not act now: waiting for seat 1'
>>> not_held("", 1, "4D", "4D").render("en", viewer=0)
'seat 1 does not hold 4D'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from folkdeck.errors import (
    AmbiguousActionError,
    CardGameError,
    IllegalActionError,
    InvalidConfigError,
    InvalidDealError,
    InvalidNotationError,
    MalformedRecordError,
    NotYourTurnError,
    UnknownGameError,
    WrongPhaseError,
)

SHARED_REASONS: Final[Mapping[str, tuple[str, ...]]] = {
    "not_your_turn": ("seat", "to_act", "action"),
    "not_held": ("seat", "action", "cards"),
    "not_an_action": ("seat", "action"),
}
"""The refusals every game words alike, by the reason's name after the game's prefix,
with the parameters each carries: ``seat`` the refused seat, ``to_act`` the seats the
game waits for (those every viewer may see), ``action`` the action in notation, ``cards``
the cards of it that the seat does not hold, in notation."""


def _reason(game: str, name: str) -> str:
    """``<game>.<name>``, or the engine's own ``<name>`` for ``game`` ``""``."""
    return f"{game}.{name}" if game else name


def not_your_turn(game: str, seat: int, to_act: Sequence[int], action: object) -> NotYourTurnError:
    """``<game>.not_your_turn``: ``seat`` may not act now; the game waits for ``to_act``."""
    return NotYourTurnError(_reason(game, "not_your_turn"), seat=seat, to_act=list(to_act), action=str(action))


def not_held(game: str, seat: int, action: object, cards: str) -> IllegalActionError:
    """``<game>.not_held``: ``seat`` does not hold ``cards`` (notation), named by ``action``."""
    return IllegalActionError(_reason(game, "not_held"), seat=seat, action=str(action), cards=cards)


def not_an_action(game: str, seat: int, action: object) -> IllegalActionError:
    """``<game>.not_an_action``: ``action`` is no action of the game."""
    return IllegalActionError(_reason(game, "not_an_action"), seat=seat, action=str(action))


__all__ = [
    "SHARED_REASONS", "AmbiguousActionError", "CardGameError", "IllegalActionError", "InvalidConfigError",
    "InvalidDealError", "InvalidNotationError", "MalformedRecordError", "NotYourTurnError",
    "UnknownGameError", "WrongPhaseError", "not_an_action", "not_held", "not_your_turn",
]
