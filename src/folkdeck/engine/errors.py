"""One hierarchy of errors for every game, each with structured fields.

Every error carries a ``code`` (a stable machine name) and a ``details`` mapping so
that a server can answer with JSON without parsing the message; the message itself
names the input and the reason, as python-chess does (``illegal san: ...``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class CardGameError(Exception):
    """Base class of every error folkdeck raises on purpose."""

    code = "error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details: Mapping[str, Any] = details

    def to_dict(self) -> dict[str, Any]:
        """The error as a JSON-ready object: ``{"error": code, "message": ..., **details}``."""
        out: dict[str, Any] = {"error": self.code, "message": self.message}
        for key, value in self.details.items():
            out[key] = value if isinstance(value, (int, float, str, bool, type(None))) else str(value)
        return out


class InvalidNotationError(CardGameError, ValueError):
    """Text that is not a card, a list of cards or an action of the game's grammar."""

    code = "invalid_notation"


class IllegalActionError(CardGameError, ValueError):
    """A well-formed action that the rules do not allow now."""

    code = "illegal_action"


class NotYourTurnError(IllegalActionError):
    """An action by a seat that may not act now."""

    code = "not_your_turn"


class WrongPhaseError(IllegalActionError):
    """An action of a kind the current phase does not take (or the deal is over)."""

    code = "wrong_phase"


class AmbiguousActionError(CardGameError, ValueError):
    """Text that names more than one legal action."""

    code = "ambiguous_action"


class InvalidConfigError(CardGameError, ValueError):
    """Unknown option, bad option value, or a bad number of players."""

    code = "invalid_config"


class InvalidDealError(CardGameError, ValueError):
    """Hands, deck or stock that the rules cannot deal from (duplicates, wrong sizes...)."""

    code = "invalid_deal"


class MalformedRecordError(CardGameError, ValueError):
    """A game record that cannot be read: bad JSON, unknown field, bad value.

    ``field`` names the offending field (``"hands[1][3]"``, ``"rules.players"``).
    """

    code = "malformed_record"

    def __init__(self, message: str, *, field: str, **details: Any) -> None:
        super().__init__(f"{field}: {message}", field=field, **details)
        self.field = field


class UnknownGameError(CardGameError, KeyError):
    """A game name or alias the registry does not know."""

    code = "unknown_game"

    def __str__(self) -> str:  # KeyError would quote the message
        return self.message
