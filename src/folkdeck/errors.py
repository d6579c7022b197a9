"""One hierarchy of errors for every game, each with a code, a reason and parameters.

Every error carries a ``code`` (its class: ``illegal_action``, ``not_your_turn``...), a
``reason`` (a stable key of the message catalogs, ``error.<reason>``: ``kaphai.no_beat``)
and named ``params``. Its English message is rendered from the catalog when asked for
(``str(error)``, :attr:`CardGameError.message`); a server answers with
:meth:`CardGameError.to_dict` and a browser renders ``reason``/``params`` in the
player's language, as python-chess's errors name the input and the reason.

>>> err = IllegalActionError("not_your_turn", seat=2, current=1)
>>> err.to_dict()["reason"], err.params["seat"]
('not_your_turn', 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from folkdeck.json_types import JSONObject, JSONValue

if TYPE_CHECKING:
    from typing import Unpack

    from folkdeck.i18n import RendererOptions


QUOTE_CHARS: Final = 80
"""How much of a name from the input (a key, a field's path, a card token, an action line)
a refusal quotes, in characters: a record's 1,000-character key is not repeated whole."""
QUOTE_VALUE_CHARS: Final = 200
"""How much of a value (``expected``, ``found``: JSON text, already shortened by most callers)."""
QUOTED: Final[Mapping[str, int]] = {
    **dict.fromkeys(("field", "key", "option", "token", "game", "line", "action", "value", "bot",
                     "preset", "where", "type"), QUOTE_CHARS),
    "expected": QUOTE_VALUE_CHARS, "found": QUOTE_VALUE_CHARS,
}
"""The parameters that quote the input, and how much of it each quotes: a longer string is
cut, ``…`` marking the cut (a value already cut to the length, with its ``…``, is kept)."""


class CardGameError(Exception):
    """Base class of every error folkdeck raises on purpose.

    ``reason`` is a catalog key (``error.<reason>``); ``params`` fill its placeholders
    and are JSON values (cards in notation). ``game`` selects the game's terms.
    """

    code = "error"

    def __init__(self, reason: str, /, **params: object) -> None:
        self.reason = reason
        # typed loosely: callers pass them on as keyword arguments (``**{**exc.params, "field": ...}``)
        self.params: Mapping[str, Any] = {k: _clipped(_plain(v), QUOTED[k]) if k in QUOTED else _plain(v)
                                          for k, v in params.items()}
        super().__init__(reason)

    @property
    def details(self) -> Mapping[str, object]:
        """The parameters (the name older callers know)."""
        return self.params

    @property
    def message(self) -> str:
        """The English message, rendered from the catalog."""
        return self.render("en")

    def render(self, lang: str = "en", **renderer: Unpack[RendererOptions]) -> str:
        """The message in ``lang`` (``renderer``: :class:`folkdeck.i18n.Renderer` options)."""
        from folkdeck.i18n import Renderer

        game = str(self.params.get("game", "") or self.reason.partition(".")[0])
        return Renderer(lang, game=game, **renderer).error(self)

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> JSONObject:
        """JSON-ready: ``{"error": code, "reason": ..., "params": {...}, "message": English}``
        plus the parameters at the top level (as earlier versions sent them)."""
        out: JSONObject = {"error": self.code, "reason": self.reason, "params": dict(self.params),
                               "message": self.message}
        for key, value in self.params.items():
            out.setdefault(key, value)
        return out


def _plain(value: object) -> JSONValue:
    """A parameter as a JSON value: cards and actions as their notation."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return str(value)


def _clipped(value: JSONValue, limit: int) -> JSONValue:
    """A quoted parameter cut to ``limit`` characters (each string of a list too).

    >>> _clipped("k" * 1000, 8), _clipped(["ab", "abcdefghijk"], 8), _clipped("abcdefgh…", 8)
    ('kkkkkkkk…', ['ab', 'abcdefgh…'], 'abcdefgh…')
    """
    if isinstance(value, str) and len(value) > limit + 1:
        return value[:limit] + "…"
    if isinstance(value, list):
        return [_clipped(v, limit) for v in value]
    return value


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

    def __init__(self, reason: str, /, *, field: str, **params: object) -> None:
        super().__init__(reason, field=field, **params)
        self.field: str = self.params["field"]  # as quoted: a long path is cut

    def render(self, lang: str = "en", **renderer: Unpack[RendererOptions]) -> str:
        """``<field>: <message>``, the field first as every record tool prints it."""
        return f"{self.field}: {super().render(lang, **renderer)}"


class UnknownGameError(CardGameError, KeyError):
    """A game name or alias the registry does not know."""

    code = "unknown_game"

    def __str__(self) -> str:  # KeyError would quote the message
        return self.message


# The classes' public home is ``folkdeck.engine.errors`` (their documented import path and
# the name tracebacks and doctests show); they live here only so that the card notation,
# below the engine, can raise them.
for _cls in (CardGameError, InvalidNotationError, IllegalActionError, NotYourTurnError, WrongPhaseError,
             AmbiguousActionError, InvalidConfigError, InvalidDealError, MalformedRecordError,
             UnknownGameError):
    _cls.__module__ = "folkdeck.engine.errors"
del _cls
