"""Cambio actions: ``change`` (カンビオ), ``keep`` (ノンカンビオ) and ``cucco`` (クク).

The grammar of a record line after ``"<seat>: "`` is one of those three words; the
Italian and Japanese words are accepted on input (``cambio``, ``non cambio``,
``カンビオ``, ``ノンカンビオ``, ``クク``, ``kuku``).

>>> parse_action("Cambio") is CHANGE, str(parse_action("ノンカンビオ")), str(parse_action("kuku"))
(True, 'keep', 'cucco')
>>> parse_action("swap")
Traceback (most recent call last):
...
folkdeck.engine.errors.InvalidNotationError: unknown Cambio action 'swap' (actions are change, keep, cucco)
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from folkdeck.engine.action_data import ActionData
from folkdeck.engine.errors import InvalidNotationError


class CambioAction(Enum):
    """The three things a Cambio player says; the value is the record word."""

    CHANGE = "change"
    """カンビオ: ask the right neighbour (the stock, for the dealer) to exchange cards."""
    KEEP = "keep"
    """ノンカンビオ: keep one's card."""
    CUCCO = "cucco"
    """クク: an OWL holder ends the exchanges at once (out of turn too)."""

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return self.name


CHANGE: Final = CambioAction.CHANGE
KEEP: Final = CambioAction.KEEP
CUCCO: Final = CambioAction.CUCCO

_WORDS: Final = {
    "change": CHANGE, "cambio": CHANGE, "c": CHANGE, "カンビオ": CHANGE, "交換": CHANGE,
    "keep": KEEP, "k": KEEP, "noncambio": KEEP, "non cambio": KEEP, "non-cambio": KEEP,
    "ノンカンビオ": KEEP, "stay": KEEP,
    "cucco": CUCCO, "cuccu": CUCCO, "cucù": CUCCO, "kuku": CUCCO, "クク": CUCCO,
}


def parse_action(text: str) -> CambioAction:
    """Read an action word without looking at the position.

    :raises InvalidNotationError: for an unknown word.
    """
    word = " ".join(text.strip().lower().split())
    action = _WORDS.get(word)
    if action is None:
        raise InvalidNotationError("cambio.unknown_action", token=text.strip())
    return action


def action_data(action: CambioAction) -> ActionData:
    """An action as a table draws it: each is a button of its word
    (:mod:`folkdeck.engine.action_data`).

    >>> action_data(CUCCO).to_dict(str(CUCCO))
    {'action': 'cucco', 'kind': 'cucco'}
    """
    return ActionData(action.value)
