"""The one check of the short texts people type: seat names (at creation, join and rename)
and chat lines. Below the table manager and the social features, which both use it."""

from __future__ import annotations

import unicodedata

from folkdeck.server.errors import ServerError

NAME_CHARS = 24
"""A seat's name: 1 to this many characters."""
CHAT_CHARS = 200
"""A chat message: 1 to this many characters."""


def clean_text(text: str, limit: int, reason: str, field: str) -> str:
    """``text`` without surrounding spaces, if it has 1 to ``limit`` characters and no
    control or invisible format characters (line breaks included: names and chat are one line).

    >>> clean_text("  Dara ", 24, "server.name_text", "name")
    'Dara'
    >>> clean_text("a\\u0007b", 24, "server.name_text", "name")
    Traceback (most recent call last):
    ...
    folkdeck.server.errors.ServerError: a name has 1 to 24 characters on one line
    """
    text = text.strip()
    if not 1 <= len(text) <= limit or any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") for ch in text):
        raise ServerError(400, "bad_text", reason, field=field, limit=limit)
    return text


def check_name(text: str, field: str = "name") -> str:
    """A seat's name as given at creation, at a join and at a rename (the one check of
    all three): 1 to :data:`NAME_CHARS` characters on one line, nothing invisible.

    >>> check_name(" Dara ")
    'Dara'
    >>> for bad in ("\\u202eevil", "\\u200b", "a\\x00b", "a\\nb", "\\U000e0041x"):
    ...     try:
    ...         check_name(bad, "seats[1].name")
    ...     except ServerError as exc:
    ...         print(exc.code, exc.params["field"])
    bad_text seats[1].name
    bad_text seats[1].name
    bad_text seats[1].name
    bad_text seats[1].name
    bad_text seats[1].name
    """
    return clean_text(text, NAME_CHARS, "server.name_text", field)


__all__ = ["CHAT_CHARS", "NAME_CHARS", "check_name", "clean_text"]
