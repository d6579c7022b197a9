"""The error hierarchy, re-exported where the engine's layout puts it.

The classes live in :mod:`folkdeck.errors`, below every layer (the card notation raises
them too); this module keeps the engine's import path.
"""

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

__all__ = [
    "AmbiguousActionError", "CardGameError", "IllegalActionError", "InvalidConfigError",
    "InvalidDealError", "InvalidNotationError", "MalformedRecordError", "NotYourTurnError",
    "UnknownGameError", "WrongPhaseError",
]
