"""The terminal's own refusals and errors: coded like the engine's, rendered from ``cli.error.*``.

An engine error (:class:`~folkdeck.engine.errors.CardGameError`) has its catalog key in
``error.<reason>``; what only the terminal can get wrong (a file it cannot read, a choice
number out of range, options that do not go together) is a :class:`CliError` with its key
in ``cli.error.<reason>``. Both give the exit status the command returns.

>>> err = CliError("no_such_choice", choice=99, count=12)
>>> err.exit_status, err.render("en")
(2, 'there is no play 99: type a number from 1 to 12, or the action itself')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Unpack

from folkdeck.engine.errors import CardGameError, IllegalActionError, MalformedRecordError
from folkdeck.engine.match_record import RecordMismatchError
from folkdeck.i18n import Renderer, RendererOptions

MALFORMED = 2
"""Exit status for input that cannot be read: a record, an option, a card's notation."""
ILLEGAL = 1
"""Exit status for input that is read but the rules refuse: an illegal action, a mismatch."""


class CliError(Exception):
    """A refusal of the terminal itself: ``reason`` is the key ``cli.error.<reason>``."""

    def __init__(self, reason: str, /, *, exit_status: int = MALFORMED, **params: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params: Mapping[str, object] = params
        self.exit_status = exit_status

    def render(self, lang: str = "en", **renderer: Unpack[RendererOptions]) -> str:
        return Renderer(lang, **renderer).message(f"cli.error.{self.reason}", self.params, sentence=False)


def exit_status(error: CardGameError | CliError) -> int:
    """1 for what the rules refuse (an illegal action, a record that says otherwise than
    the rules), 2 for what cannot be read at all."""
    if isinstance(error, CliError):
        return error.exit_status
    if isinstance(error, IllegalActionError | RecordMismatchError):
        return ILLEGAL
    return MALFORMED


def render_error(error: CardGameError | CliError, lang: str) -> str:
    """The message of an error for stderr, in ``lang``; a record's errors name the field.

    >>> render_error(MalformedRecordError("not_object", field="rules"), "en")
    'malformed record: rules: must be a JSON object'
    >>> render_error(RecordMismatchError(field="standings.scores", expected=[3], found=[2]), "en")
    'standings.scores: the rules give [3], the record says [2]'
    """
    if isinstance(error, CliError):
        return error.render(lang)
    text = error.render(lang)
    renderer = Renderer(lang)
    if isinstance(error, MalformedRecordError):
        return renderer.message("cli.error.malformed", {"detail": text}, sentence=False)
    if isinstance(error, RecordMismatchError):
        return renderer.message("cli.error.mismatch", {"field": error.field, "detail": text},
                                sentence=False)
    return text


__all__ = ["ILLEGAL", "MALFORMED", "CliError", "exit_status", "render_error"]
