"""The types of JSON values, for the signatures that take or give them.

``JSONValue`` is any value :func:`json.loads` gives (and :func:`json.dumps` takes back):
``null``, a boolean, a number, a string, a list or an object, nested freely.
A signature whose input comes from outside (a record, a request) takes ``object`` and
checks it; one that gives JSON built by folkdeck gives a ``JSONValue`` (or a ``TypedDict``
where the shape is fixed).

>>> value: JSONValue = {"seat": 1, "cards": ["AS", "KS"], "over": False}
>>> isinstance(value, dict)
True
"""

from __future__ import annotations

from typing import TypeAlias

JSONScalar: TypeAlias = "None | bool | int | float | str"
"""A JSON value that holds no other: ``null``, a boolean, a number or a string."""
JSONValue: TypeAlias = "JSONScalar | list[JSONValue] | dict[str, JSONValue]"
"""A JSON value of every kind: a scalar, or a list or object of JSON values."""
JSONObject: TypeAlias = "dict[str, JSONValue]"
"""A JSON object (what a ``to_dict`` gives)."""

__all__ = ["JSONObject", "JSONScalar", "JSONValue"]
