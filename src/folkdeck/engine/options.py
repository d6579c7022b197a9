"""Rules options: frozen dataclasses read from mappings and ``key=value`` text.

A game's options class is a ``@dataclass(frozen=True, kw_only=True)`` whose fields
are bools, ints, floats, strs (a ``Literal`` of choices) or tuples of ints/strs.
:func:`options_from_mapping` checks names and types and names the bad key.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import types
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final, Literal, TypeVar, get_args, get_origin

from folkdeck.engine.errors import InvalidConfigError
from folkdeck.json_types import JSONObject

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T", bound="DataclassInstance")


@functools.cache
def _type_hints(cls: type[DataclassInstance]) -> dict[str, object]:
    """The class's resolved annotations, worked out once per class: ``get_type_hints``
    evaluates every annotation's text again at each call (about 0.9 ms for a game's
    options, twice per ``folkdeck.load``, so twice per table a server makes)."""
    return typing.get_type_hints(cls)


def option_fields(cls: type[DataclassInstance]) -> dict[str, tuple[object, object]]:
    """``{name: (type, default)}`` for every option of an options class."""
    hints = _type_hints(cls)
    out: dict[str, tuple[object, object]] = {}
    for f in dataclasses.fields(cls):
        default: object
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = None
        out[f.name] = (hints[f.name], default)
    return out


def _coerce(name: str, tp: object, value: object) -> object:
    """``value`` (a JSON value or ``key=value`` text) as an option of type ``tp``: by the
    type's origin (``Literal``, a union with ``None``, ``tuple``), else by the type itself."""
    origin = get_origin(tp)
    if origin is not None:
        generic = _GENERIC_COERCERS.get(origin)
        if generic is not None:
            return generic(name, tp, value)
    else:
        scalar = _SCALAR_COERCERS.get(tp)
        if scalar is not None:
            return scalar(name, value)
    raise TypeError(f"unsupported option type {tp!r} for {name}")  # a bug in an options class


def _coerce_choice(name: str, tp: object, value: object) -> object:
    choices = get_args(tp)
    if value not in choices:
        raise InvalidConfigError("option_choice", option=name, value=repr(value),
                                 choices=", ".join(map(str, choices)))
    return value


def _coerce_optional(name: str, tp: object, value: object) -> object:
    if value is None:
        return None
    args = [a for a in get_args(tp) if a is not type(None)]
    return _coerce(name, args[0], value)


def _coerce_tuple(name: str, tp: object, value: object) -> object:
    item = get_args(tp)[0]
    if isinstance(value, str):
        value = [v for v in value.replace(" ", "").split(",") if v]
    if not isinstance(value, (list, tuple)):
        raise InvalidConfigError("option_list", option=name, value=repr(value))
    return tuple(_coerce(name, item, v) for v in value)


_TRUE_WORDS: Final = ("true", "yes", "on", "1")
_FALSE_WORDS: Final = ("false", "no", "off", "0")


def _coerce_bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in _TRUE_WORDS + _FALSE_WORDS:
        return value.lower() in _TRUE_WORDS
    raise InvalidConfigError("option_bool", option=name, value=repr(value))


def _coerce_int(name: str, value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return _check_int(name, value)
    if isinstance(value, str) and len(value) <= 40:
        try:
            return _check_int(name, int(value))
        except ValueError:
            pass
    raise InvalidConfigError("option_int", option=name, value=repr(value)[:60])


def _coerce_float(name: str, value: object) -> float:
    number = math.nan
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value) if abs(value) < 1e300 else math.inf
    elif isinstance(value, str) and len(value) <= 40:
        try:
            number = float(value)
        except ValueError:
            pass
    if not math.isfinite(number):
        raise InvalidConfigError("option_number", option=name, value=repr(value)[:60])
    return number


def _coerce_text(name: str, value: object) -> str:
    if isinstance(value, str):
        return value
    raise InvalidConfigError("option_text", option=name, value=repr(value)[:60])


_GENERIC_COERCERS: Final[dict[object, Callable[[str, object, object], object]]] = {
    Literal: _coerce_choice,
    types.UnionType: _coerce_optional,
    typing.Union: _coerce_optional,
    tuple: _coerce_tuple,
}
"""The coercers of the generic option types, by ``get_origin`` of the type (they take it)."""
_SCALAR_COERCERS: Final[dict[object, Callable[[str, object], object]]] = {
    bool: _coerce_bool,
    int: _coerce_int,
    float: _coerce_float,
    str: _coerce_text,
}
"""The coercers of the plain option types, by the type."""


def _check_int(name: str, value: int) -> int:
    if abs(value) > _INT_LIMIT:
        raise InvalidConfigError("option_int_range", option=name, limit=_INT_LIMIT)
    return value


_INT_LIMIT: Final = 10**9
"""No option counts past a billion; a larger number is a mistake or an attack."""


def record_defaults(cls: type[DataclassInstance]) -> dict[str, object]:
    """Options whose value, when a record does not name them, is not the class default.

    A rule added after records were written (a new window that asks every seat) defaults
    to the new behaviour for new games, but a record written before it must replay as it
    was played: such a field carries ``metadata={"record_default": <old value>}``, a
    record that omits it gets the old value, and new records always name it.
    """
    return {f.name: f.metadata["record_default"] for f in dataclasses.fields(cls)
            if "record_default" in f.metadata}


def options_from_mapping(cls: type[T], values: Mapping[str, object]) -> T:
    """Build ``cls`` from a mapping (JSON values or ``key=value`` strings).

    :raises InvalidConfigError: for an unknown key or a value of the wrong type.
    """
    fields = option_fields(cls)
    kwargs: dict[str, object] = {}
    for key, value in values.items():
        if key not in fields:
            raise InvalidConfigError("unknown_option", option=key, options=", ".join(sorted(fields)))
        kwargs[key] = _coerce(key, fields[key][0], value)
    return cls(**kwargs)


def parse_assignments(items: list[str] | tuple[str, ...]) -> dict[str, str]:
    """``["players=3", "low_police_void=true"]`` → a dict of strings.

    :raises InvalidConfigError: for an item without ``=``.
    """
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidConfigError("not_key_value", option=item)
        out[key.strip()] = value.strip()
    return out


def options_to_dict(options: DataclassInstance) -> JSONObject:
    """Every option as a JSON-ready value (tuples become lists)."""
    out: JSONObject = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def describe_options(cls: type[DataclassInstance]) -> list[tuple[str, str, str]]:
    """``(name, default, choices)`` rows for help texts."""
    rows = []
    for name, (tp, default) in option_fields(cls).items():
        if get_origin(tp) is Literal:
            choices = " | ".join(map(str, get_args(tp)))
        elif tp is bool:
            choices = "true | false"
        else:
            choices = getattr(tp, "__name__", str(tp))
        shown = ",".join(map(str, default)) if isinstance(default, tuple) else str(default)
        rows.append((name, shown, choices))
    return rows
