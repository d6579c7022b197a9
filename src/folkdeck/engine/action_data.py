"""A legal action as data, for a table that draws it (the browser): what kind of action it
is and which cards, ranks or seats it names, so that no client parses the record grammar.

The record notation (``str(action)``) stays the contract a client sends back; the data
only says how to show it. Each game declares how its actions read as data
(``GameHooks.action_data``, a function of its ``actions`` module); a game that declares
none gets :func:`word_action`, the action as one button named by its notation.

``kind`` is ``"play"`` for cards laid from the hand (picked as cards at the table), else
the action's word (``pass``, ``draw``, ``burn``...: a catalog term key ``action.<kind>``),
``detail`` a second word (Cangkul's ``draw left``: ``left``), ``cards`` card codes in the
record notation, ``ranks`` cards named by rank whatever their suit (Gou Ji's sets:
``9 9 2``), ``seats`` the seats it names (Gou Ji's ``order 4 2``).

>>> ActionData("play", cards=("3S", "3H")).to_dict("3S 3H")
{'action': '3S 3H', 'kind': 'play', 'cards': ['3S', '3H']}
>>> word_action("pass").to_dict("pass")
{'action': 'pass', 'kind': 'pass'}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from folkdeck.json_types import JSONObject

PLAY: Final = "play"
"""The kind of an action made of cards from the hand."""


@dataclass(frozen=True, slots=True)
class ActionData:
    """One legal action as a table draws it (see the module)."""

    kind: str
    cards: tuple[str, ...] = ()
    ranks: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()
    detail: str = ""

    def to_dict(self, action: str) -> JSONObject:
        """The JSON a view carries: the action's notation and its non-empty fields."""
        out: JSONObject = {"action": action, "kind": self.kind}
        if self.cards:
            out["cards"] = list(self.cards)
        if self.ranks:
            out["ranks"] = list(self.ranks)
        if self.seats:
            out["seats"] = list(self.seats)
        if self.detail:
            out["detail"] = self.detail
        return out


ActionDataOf: TypeAlias = Callable[[Any], ActionData]
"""A game's ``action_data``: one of its actions as data."""


def word_action(action: object) -> ActionData:
    """An action of a game that declares no data: a button whose kind is its notation."""
    return ActionData(str(action))


__all__ = ["PLAY", "ActionData", "ActionDataOf", "word_action"]
