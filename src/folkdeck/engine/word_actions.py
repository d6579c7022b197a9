"""Actions that are one word and the same in every game that has them: :data:`PASS`.

What a pass does is each game's (its ``actions`` module says when it is allowed and its
state what it changes); the object, its record notation (``pass``) and how it pickles are
shared, so that one class is not written again per game.

>>> import copy, pickle
>>> str(PASS), repr(PASS), copy.copy(PASS) is PASS, pickle.loads(pickle.dumps(PASS)) is PASS
('pass', 'PASS', True, True)
"""

from __future__ import annotations

from typing import Final


class Pass:
    """The word ``pass``: a seat on turn declines to act. There is one, :data:`PASS`."""

    __slots__ = ()

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "PASS"

    def __reduce__(self) -> str:
        # Pickled as its name: unpickled and copied as the one PASS, which the rules may
        # compare by identity.
        return "PASS"


PASS: Final = Pass()

__all__ = ["PASS", "Pass"]
