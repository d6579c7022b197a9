"""Cangkul and Burro actions.

The grammar of a record line after ``"<seat>: "``:

- a card in notation (``7H``, ``QC``; the joker ``RJ``, or the word ``joker``): play it;
- ``draw``: draw the top card of the stock (a card of the led suit is played at once);
- ``draw left`` / ``draw right``: the same from one pile of the Portuguese stock;
- ``pass``: only for a player void in the led suit, with the stock empty, who could play
  the joker and chooses not to (the engine's :data:`~folkdeck.engine.word_actions.PASS`).
  Every other pass is automatic (an event note).

>>> parse_action("draw") is DRAW, str(parse_action("Draw  Left")), str(parse_action("joker"))
(True, 'draw left', 'RJ')
"""

from __future__ import annotations

from typing import Final

from folkdeck.cards import Card, parse_card
from folkdeck.engine.action_data import PLAY, ActionData
from folkdeck.engine.errors import InvalidNotationError
from folkdeck.engine.word_actions import PASS, Pass
from folkdeck.games.cangkul.rules import JOKER_CARD


class Draw:
    """Draw one card (dig, "cangkul"): from the stock, or from one pile (``left``/``right``)."""

    __slots__ = ("pile",)

    def __init__(self, pile: int | None) -> None:
        self.pile = pile
        """``None`` for a one-pile stock, else 0 (left) or 1 (right)."""

    def __str__(self) -> str:
        return "draw" if self.pile is None else ("draw left", "draw right")[self.pile]

    def __repr__(self) -> str:
        return ("DRAW", "DRAW_LEFT", "DRAW_RIGHT")[0 if self.pile is None else self.pile + 1]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Draw) and other.pile == self.pile

    def __hash__(self) -> int:
        return hash(("draw", self.pile))

    def __reduce__(self) -> tuple[type[Draw], tuple[int | None]]:
        # Pickled as its constructor call (why: folkdeck.engine.build, "Pickling"): bot
        # workers send actions back by pickle.
        return (Draw, (self.pile,))


DRAW: Final = Draw(None)
DRAW_LEFT: Final = Draw(0)
DRAW_RIGHT: Final = Draw(1)
CangkulAction = Card | Draw | Pass

_WORDS: Final[dict[str, CangkulAction]] = {
    "draw": DRAW, "dig": DRAW, "draw left": DRAW_LEFT, "draw right": DRAW_RIGHT,
    "pass": PASS, "joker": JOKER_CARD,
}


def parse_action(text: str) -> CangkulAction:
    """Read an action without looking at the position.

    >>> parse_action("10h")
    Card.parse('10H')
    >>> parse_action("draw up")
    Traceback (most recent call last):
    ...
    folkdeck.engine.errors.InvalidNotationError: unknown action 'draw up': give one card, 'draw', 'draw left', 'draw right' or 'pass'

    :raises InvalidNotationError: for an unknown word or card (reason
        ``cangkul.unknown_action``, ``cangkul.empty_action`` or a card notation reason).
    """
    if not isinstance(text, str):
        raise InvalidNotationError("cangkul.unknown_action", token=repr(text))
    word = " ".join(text.lower().split())
    action = _WORDS.get(word)
    if action is not None:
        return action
    if not word:
        raise InvalidNotationError("cangkul.empty_action", token=text)
    if " " in word or word.startswith("draw"):
        raise InvalidNotationError("cangkul.unknown_action", token=text)
    return parse_card(word)


def action_data(action: CangkulAction) -> ActionData:
    """An action as a table draws it: a card is played from the hand, a draw names its pile
    (``detail``), a pass is a button (:mod:`folkdeck.engine.action_data`).

    >>> action_data(parse_card("7H")).cards, action_data(DRAW_LEFT).to_dict("draw left")
    (('7H',), {'action': 'draw left', 'kind': 'draw', 'detail': 'left'})
    """
    if isinstance(action, Card):
        return ActionData(PLAY, cards=(str(action),))
    if isinstance(action, Draw):
        return ActionData("draw", detail="" if action.pile is None else ("left", "right")[action.pile])
    return ActionData(str(action))


__all__ = ["DRAW", "DRAW_LEFT", "DRAW_RIGHT", "PASS", "CangkulAction", "Draw", "Pass", "action_data", "parse_action"]
