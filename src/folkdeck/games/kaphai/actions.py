"""Kap Hai actions: a play (a :class:`~folkdeck.games.kaphai.rules.Combo`), ``pass``
(タウ: stay out of the rest of the trick, or decline a putuh; the engine's
:data:`~folkdeck.engine.word_actions.PASS`), and ``putuh`` (a declaration, only when
``putuh_optional`` is on).

The grammar of a record line after ``"<seat>: "``: cards in notation (any order,
printed ascending), ``pass`` or ``putuh``.

>>> parse_action("pass") is PASS, str(parse_action("4d 4c"))
(True, '4C 4D')
"""

from __future__ import annotations

from typing import Final

from folkdeck.engine.action_data import PLAY, ActionData
from folkdeck.engine.errors import IllegalActionError, InvalidNotationError
from folkdeck.engine.word_actions import PASS, Pass
from folkdeck.games.kaphai.rules import Combo, classify, mask, notation


class Putuh:
    """Declare putuh (プトゥッフ), the instant win on the deal."""

    __slots__ = ()

    def __str__(self) -> str:
        return "putuh"

    def __repr__(self) -> str:
        return "PUTUH"

    def __reduce__(self) -> str:
        return "PUTUH"  # unpickled as the one PUTUH, as PASS (engine/word_actions.py)


PUTUH: Final = Putuh()
KapHaiAction = Combo | Pass | Putuh


def parse_action(text: str) -> KapHaiAction:
    """Read an action without looking at the position.

    :raises InvalidNotationError: for an unknown word or card.
    :raises IllegalActionError: for cards that form no Kap Hai combination.

    >>> parse_action("4S 9H")
    Traceback (most recent call last):
    ...
    folkdeck.engine.errors.IllegalActionError: 4S 9H is not a Kap Hai combination (single, pair, triple, kare, straight, consecutive pairs, polu)
    """
    word = text.strip().lower()
    if word in ("pass", "p", "tau"):
        return PASS
    if word == "putuh":
        return PUTUH
    if len(text) > _MAX_TEXT:
        raise InvalidNotationError("kaphai.action_too_long", limit=_MAX_TEXT)
    m = mask(text)
    if not m:
        raise InvalidNotationError("kaphai.empty_action", token=text)
    combo = classify(m)
    if combo is None:
        raise IllegalActionError("kaphai.no_combination", action=notation(m))
    return combo


_MAX_TEXT: Final = 200
"""No Kap Hai action is longer (13 cards of 3 characters and their spaces are 52)."""


def action_data(action: KapHaiAction) -> ActionData:
    """An action as a table draws it: a combination is cards from the hand, ``pass`` and
    ``putuh`` are buttons (:mod:`folkdeck.engine.action_data`).

    >>> action_data(parse_action("4d 4c")), action_data(PUTUH).kind
    (ActionData(kind='play', cards=('4C', '4D'), ranks=(), seats=(), detail=''), 'putuh')
    """
    if isinstance(action, Combo):
        return ActionData(PLAY, cards=tuple(str(card) for card in action.cards))
    return ActionData(str(action))


__all__ = ["PASS", "PUTUH", "KapHaiAction", "Pass", "Putuh", "action_data", "parse_action"]
