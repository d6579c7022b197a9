"""The input boundary for JSON from outside (record files, HTTP bodies, WebSocket frames).

:func:`decode` reads JSON text and refuses, with a coded error naming where, what
Python's :mod:`json` would take but the project must not: nesting deeper than
``max_depth`` (json recurses, so a deep document is a ``RecursionError`` waiting to
happen), integers longer than ``max_int_digits`` (Python refuses over 4,300 digits with
a plain ``ValueError``), ``NaN``/``Infinity``, lone surrogates (``"\\ud800"``: not text,
and no encoder can write them back) and more than ``max_bytes`` of text. A leading UTF-8
byte order mark is skipped.

>>> decode('\\ufeff{"seed": 1}')
{'seed': 1}
>>> decode('[[[1]]]', max_depth=2)
Traceback (most recent call last):
...
folkdeck.engine.jsonin.JSONInputError: JSON nested deeper than 2 levels
"""

from __future__ import annotations

import json
import math
import re
from typing import Final, NoReturn

from folkdeck.engine.errors import CardGameError
from folkdeck.json_types import JSONValue

MAX_DEPTH: Final = 64
MAX_INT_DIGITS: Final = 40
MAX_BYTES: Final = 4 * 1024 * 1024


class JSONInputError(CardGameError, ValueError):
    """JSON text the project does not read; ``field`` names the place when known."""

    code = "bad_json"


_STRING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')  # unrolled: a run of plain characters at a time
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")


def _depth_ok(text: str, limit: int) -> bool:
    """Whether no array/object nests deeper than ``limit`` (strings skipped), in one pass
    before :func:`json.loads` recurses. Text with no more brackets than the limit passes
    at once; otherwise the strings are cut out (in C, by a regular expression) and only
    the brackets left are walked."""
    if text.count("[") + text.count("{") <= limit:
        return True
    depth = 0
    for bracket in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > limit:
                return False
        else:
            depth -= 1
    return True


def _int(text: str, limit: int) -> int:
    digits = len(text.lstrip("-"))
    if digits > limit:
        raise JSONInputError("json_int_too_long", digits=digits, limit=limit)
    return int(text)


def _constant(name: str) -> NoReturn:
    raise JSONInputError("json_not_a_number", token=name)


def _float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise JSONInputError("json_not_a_number", token=text[:20])
    return value


def decode(text: str | bytes, *, max_depth: int = MAX_DEPTH, max_int_digits: int = MAX_INT_DIGITS,
           max_bytes: int = MAX_BYTES) -> JSONValue:
    """Decode JSON text (or UTF-8 bytes) within the limits above.

    :raises JSONInputError: ``json_too_large``, ``json_not_utf8``, ``json_too_deep``,
        ``json_int_too_long``, ``json_not_a_number``, ``json_surrogate`` or ``json_syntax``.
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > max_bytes:
            raise JSONInputError("json_too_large", size=len(text), limit=max_bytes)
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONInputError("json_not_utf8", position=exc.start) from exc
    if len(text) > max_bytes:
        raise JSONInputError("json_too_large", size=len(text), limit=max_bytes)
    text = text.removeprefix("\ufeff")
    if not _depth_ok(text, max_depth):
        raise JSONInputError("json_too_deep", limit=max_depth)
    # Integers are checked one by one only where a run of digits is too long for one: the
    # check is a Python call per integer, and a big record holds hundreds of thousands.
    long_digits = re.search(rf"\d{{{max_int_digits + 1}}}", text) is not None
    try:
        value = json.loads(text, parse_int=(lambda t: _int(t, max_int_digits)) if long_digits else None,
                           parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JSONInputError("json_syntax", line=exc.lineno, column=exc.colno, detail=exc.msg) from exc
    except RecursionError as exc:  # pragma: no cover - the depth check comes first
        raise JSONInputError("json_too_deep", limit=max_depth) from exc
    if _SURROGATE_ESCAPE.search(text) is not None or not _is_text(text):
        _check_text(value, "")  # only text that could hold a lone surrogate is walked
    decoded: JSONValue = value  # json.loads gives JSON values only
    return decoded


_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
"""Where a decoded string can get a surrogate from: its escape (text that encodes as UTF-8
has none of its own)."""


def _check_text(value: object, where: str) -> None:
    """Refuse lone surrogates in any string, key or value (iteratively: no recursion).
    The walk keeps no paths; only when a bad string is found is it walked again to name it."""
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not _is_text(item):
                _name_surrogate(value, where)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            for k, v in item.items():
                if not _is_text(k):
                    _name_surrogate(value, where)
                stack.append(v)


def _is_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _name_surrogate(value: object, where: str) -> None:
    stack: list[tuple[object, str]] = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            _text(item, path)
        elif isinstance(item, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))
        elif isinstance(item, dict):
            for k, v in item.items():
                _text(k, path or "(key)")
                stack.append((v, f"{path}.{k}" if path else k))


def _text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise JSONInputError("json_surrogate", field=where or "(json)") from exc


__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_INT_DIGITS", "JSONInputError", "decode"]


def json_kind(value: object) -> str:
    """The JSON kind of a decoded value, as a record's type errors name it: ``null``,
    ``boolean``, ``integer``, ``number``, ``string``, ``list``, ``object`` (a whole float
    such as ``2.0`` is an integer, as JSON compares it).

    >>> [json_kind(v) for v in (None, True, 3, 2.0, 1.5, "0", [], {})]
    ['null', 'boolean', 'integer', 'integer', 'number', 'string', 'list', 'object']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or isinstance(value, float) and value.is_integer():
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "list"
    return "object"


def shortened(value: object, limit: int = 80) -> str:
    """A value as JSON text, cut to about ``limit`` characters (``…`` marks the cut): what
    an error message quotes of a record, however big the record is. Only the first
    ``limit`` characters are ever encoded, so a huge value costs no more than a small one.

    >>> shortened("0"), shortened(list(range(100)), 20)
    ('"0"', '[0, 1, 2, 3, 4, 5, 6…')
    """
    pieces: list[str] = []
    size = 0
    for piece in json.JSONEncoder(ensure_ascii=False, default=str).iterencode(value):
        pieces.append(piece)
        size += len(piece)
        if size > limit:
            return "".join(pieces)[:limit] + "…"
    return "".join(pieces)
