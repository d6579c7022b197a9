"""Typed facts: what an event, a view or a match says, as data and never as prose.

A :class:`Fact` is a frozen dataclass with a stable ``type`` code (its class keyword)
and a JSON form (:meth:`Fact.to_dict`, :func:`fact_from_dict`). An
:class:`~folkdeck.engine.protocol.Event` carries the facts that followed from an
action; a view's ``status`` and a match's report are facts too. Text is made from a
fact only at the edge, by :mod:`folkdeck.i18n`, from the message keyed ``fact.<type>``.

The small shared vocabulary below serves every game where games share a concept (a
trick won, a seat out, a deal ended, chips paid...); a game declares its own facts in
``games/<name>/events.py`` with type codes prefixed by its name (``kaphai.putuh``).

>>> fact = TrickWon(seat=2, leader=2)
>>> fact.to_dict()
{'type': 'trick_won', 'seat': 2, 'leader': 2}
>>> fact_from_dict({'type': 'trick_won', 'seat': 2, 'leader': 2}) == fact
True

Hidden parts: a fact may name fields only its owner may see (``private`` fields,
owner in ``owner``, by default the field ``seat``). :meth:`Fact.censored` gives the
form another seat sees (those fields ``None``), or drops the fact when the class is
``secret`` (seen by its owner only):

>>> Drew(seat=1, card=None).censored(0) is not None
True
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from folkdeck.cards import Card, parse_card
from folkdeck.engine.errors import InvalidNotationError, MalformedRecordError
from folkdeck.engine.jsonin import json_kind, shortened
from folkdeck.json_types import JSONObject, JSONValue

_TYPES: dict[str, type[Fact]] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Fact:
    """Base class of every fact; subclasses give ``type=`` in the class statement."""

    type: ClassVar[str] = "fact"
    private: ClassVar[tuple[str, ...]] = ()
    """Fields only the owner may see (another seat sees ``None``)."""
    secret: ClassVar[bool] = False
    """Only the owner sees the fact at all."""
    owner: ClassVar[str] = "seat"
    """The field naming the seat that owns the private parts."""

    def __init_subclass__(cls, type: str = "") -> None:  # noqa: A002 - the JSON key
        # (no super() call: ``slots=True`` remakes the class, and object's takes nothing)
        if type:
            cls.type = type
        # ``@dataclass(slots=True)`` makes the class anew (without the keyword): register
        # whichever class carries the code in its own namespace, the final one last.
        code = cls.__dict__.get("type")
        if not code:
            return
        if code in _TYPES and _TYPES[code].__qualname__ != cls.__qualname__:
            raise ValueError(f"fact type {code!r} is taken by {_TYPES[code].__qualname__}")
        _TYPES[code] = cls

    def to_dict(self) -> JSONObject:
        """JSON-ready: ``{"type": code, **fields}``, cards in notation."""
        return typing.cast(JSONObject, to_json(self))  # by the rule of its type, made once

    def censored(self, viewer: int | None) -> Fact | None:
        """The fact as ``viewer`` sees it (``None``: a spectator); ``None`` if hidden."""
        if not self.private and not self.secret:
            return self
        owner = getattr(self, self.owner)
        if viewer is not None and viewer == owner:
            return self
        if self.secret:
            return None
        return dataclasses.replace(self, **dict.fromkeys(self.private))


def to_json(value: object) -> JSONValue:
    """A fact's or view's field value as JSON: cards as notation, enums as values, facts as
    ``{"type", ...}``, sequences as lists, mappings as objects, anything else by its
    ``to_dict``. The rule is chosen by the value's exact type, once per type (the server
    encodes every viewer's view after every event: :mod:`folkdeck.server.views`).

    >>> to_json((Card.parse("10H"), None, {"n": 1.5}, TrickWon(seat=1, leader=0)))
    ['10H', None, {'n': 1.5}, {'type': 'trick_won', 'seat': 1, 'leader': 0}]
    """
    kind = type(value)
    if kind is str or kind is int or value is None or kind is bool or kind is float:
        return typing.cast(JSONValue, value)
    if kind is tuple or kind is list:
        return [to_json(item) for item in typing.cast("tuple[object, ...] | list[object]", value)]
    rule = _RULES.get(kind)
    if rule is None:
        rule = _RULES[kind] = _rule_for(kind)
    return rule(value)


_Rule = Callable[[typing.Any], JSONValue]  # each takes the one type it was made for
_RULES: dict[type, _Rule] = {}


def _rule_for(kind: type) -> _Rule:
    """How :func:`to_json` encodes a value of ``kind`` (a subclass, say an IntEnum, by the
    first rule that its class passes, in this order)."""
    if issubclass(kind, bool | int | float | str) and not issubclass(kind, enum.Enum):
        return lambda value: value
    if issubclass(kind, Card):
        return str
    if issubclass(kind, enum.Enum):
        return lambda value: to_json(value.value)  # a term's value: a string
    if issubclass(kind, Fact):
        if kind.to_dict is not Fact.to_dict:
            return lambda fact: fact.to_dict()
        names = tuple(f.name for f in dataclasses.fields(kind))
        return lambda fact: _fact_json(fact, names)
    if issubclass(kind, tuple | list):
        return lambda value: [to_json(item) for item in value]
    if issubclass(kind, Mapping):
        return lambda value: {str(k): to_json(v) for k, v in value.items()}
    if callable(getattr(kind, "to_dict", None)):
        return lambda value: value.to_dict()
    return _no_json


def _fact_json(fact: Fact, names: tuple[str, ...]) -> JSONObject:
    out: JSONObject = {"type": fact.type}
    for name in names:
        out[name] = to_json(getattr(fact, name))
    return out


def _no_json(value: object) -> JSONValue:
    raise TypeError(f"no JSON form for {type(value).__name__}")


def fact_types() -> Mapping[str, type[Fact]]:
    """Every registered fact type by code (the games' once their modules are imported)."""
    return _TYPES


def fact_from_dict(data: Mapping[str, object]) -> Fact:
    """Read a fact's JSON form back (cards from notation, tuples from lists), checking
    every field's type: a record's facts come from outside.

    >>> fact_from_dict({"type": "drew", "seat": 1, "card": 7})
    Traceback (most recent call last):
    ...
    folkdeck.engine.errors.MalformedRecordError: card: must be a card in notation (such as "7H" or "OWL"), got the integer 7

    :raises MalformedRecordError: (a ``ValueError``) for an unknown type, a missing or
        unknown field, or a value of the wrong type; ``field`` names the place inside the
        fact (``card``, ``cards[2]``).
    """
    code = data.get("type")
    cls = _TYPES.get(code) if isinstance(code, str) else None
    if cls is None:
        raise MalformedRecordError("record.unknown_fact_type", field="type", found=shortened(code))
    values: dict[str, object] = {}
    for name, read, required in _fields_of(cls):
        if name in data:
            try:
                values[name] = read(data[name])
            except MalformedRecordError as exc:
                raise _moved(exc, name) from None
        elif required:
            raise MalformedRecordError("record.fact_field_missing", field=name, type=code)
    if len(values) + 1 != len(data):
        extra = sorted(str(k) for k in data if k != "type" and k not in values)
        raise MalformedRecordError("record.fact_field_unknown", field=extra[0], type=code)
    return cls(**values)


_Reader = Callable[[object], object]
"""Reads one field's JSON value, or raises a ``MalformedRecordError`` whose ``field`` is
the place inside the value (``""``: the value itself, ``"[2]"``, ``".seat"``)."""
_FIELDS: dict[type[Fact], tuple[tuple[str, _Reader, bool], ...]] = {}
_READERS: dict[object, _Reader] = {}


def _fields_of(cls: type[Fact]) -> tuple[tuple[str, _Reader, bool], ...]:
    """(name, reader, required) of each field of a fact class, made once per class
    (``typing.get_type_hints`` is slow, and a record may hold many facts)."""
    fields = _FIELDS.get(cls)
    if fields is None:
        hints = typing.get_type_hints(cls)
        fields = tuple((f.name, _reader(hints[f.name]), f.default is dataclasses.MISSING
                        and f.default_factory is dataclasses.MISSING) for f in dataclasses.fields(cls))
        _FIELDS[cls] = fields
    return fields


def from_json(value: object, hint: object) -> object:
    """The inverse of :func:`to_json` for a field of type ``hint``.

    :raises MalformedRecordError: for a value that is not of that type (``field``: the
        place inside the value, ``""`` for the value itself).
    """
    return _reader(hint)(value)


def _reader(hint: object) -> _Reader:
    reader = _READERS.get(hint)
    if reader is None:
        reader = _READERS[hint] = _make_reader(hint)
    return reader


def _make_reader(hint: object) -> _Reader:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _union_reader([_reader(a) for a in args if a is not type(None)], type(None) in args)
    if origin is tuple:
        items = [_reader(a) for a in args if a is not Ellipsis] or [_reader(object)]
        return _tuple_reader(items, len(args) == 2 and args[1] is Ellipsis or len(args) <= 1)
    kind = _KINDS.get(hint)
    if kind is not None:
        return _kind_reader(kind)
    if hint is Card:
        return _read_card
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _enum_reader(hint)
    if isinstance(hint, type) and issubclass(hint, Fact):
        return _read_fact
    return lambda value: value


def _union_reader(options: list[_Reader], optional: bool) -> _Reader:
    def read(value: object) -> object:
        if value is None and optional:
            return None
        for option in options[:-1]:
            try:
                return option(value)
            except MalformedRecordError:
                continue
        return options[-1](value)
    return read


def _tuple_reader(items: list[_Reader], repeated: bool) -> _Reader:
    def read(value: object) -> object:
        if not isinstance(value, list | tuple) or not repeated and len(value) != len(items):
            raise _wrong_type(value, "list")
        out = []
        for i, item in enumerate(value):
            try:
                out.append(items[0](item) if repeated else items[i](item))
            except MalformedRecordError as exc:
                raise _moved(exc, f"[{i}]") from None
        return tuple(out)
    return read


def _kind_reader(kind: str) -> _Reader:
    test = _KIND_TEST[kind]

    def read(value: object) -> object:
        if not test(value):
            raise _wrong_type(value, kind)
        if kind == "integer" and isinstance(value, int | float):
            return int(value)  # 2.0 is the integer 2 in JSON
        return value
    return read


def _read_card(value: object) -> Card:
    if not isinstance(value, str):
        raise _wrong_type(value, "card")
    try:
        return parse_card(value)
    except InvalidNotationError as exc:
        raise MalformedRecordError(exc.reason, field="", **exc.params) from None


def _enum_reader(hint: type[enum.Enum]) -> _Reader:
    def read(value: object) -> object:
        try:
            return hint(value)
        except ValueError:
            raise _wrong_type(value, "term") from None
    return read


def _read_fact(value: object) -> Fact:
    if not isinstance(value, Mapping):
        raise _wrong_type(value, "object")
    try:
        return fact_from_dict(value)
    except MalformedRecordError as exc:
        raise _moved(exc, ".") from None


_KINDS: dict[object, str] = {bool: "boolean", int: "integer", float: "number", str: "string"}
_KIND_TEST: dict[str, Callable[[object], bool]] = {
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool) or isinstance(v, float) and v.is_integer(),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
}


def _wrong_type(value: object, expected: str) -> MalformedRecordError:
    return MalformedRecordError("record.wrong_type", field="", expected=expected, found=json_kind(value),
                                value=shortened(value))


def _moved(exc: MalformedRecordError, prefix: str) -> MalformedRecordError:
    """The same error one level out: ``prefix`` (a field's name, ``[i]``, ``.``) before its place."""
    return MalformedRecordError(exc.reason, **{**exc.params, "field": prefix + exc.field})


# --- the shared vocabulary -------------------------------------------------------------
# Seats are 0-based; a place is 1-based (1 = first out / winner).


@dataclass(frozen=True, slots=True, kw_only=True)
class Played(Fact, type="played"):
    """``seat`` played ``cards`` (``combo``: the game's name for the combination, a term key)."""

    seat: int
    cards: tuple[Card, ...]
    combo: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Passed(Fact, type="passed"):
    """``seat`` passed (stays out of the trick, or declines what it was offered)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Drew(Fact, type="drew"):
    """``seat`` drew ``card`` from the stock (``pile``: which pile, when there are two).
    The card is private to the drawer."""

    private: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    card: Card | None
    pile: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickWon(Fact, type="trick_won"):
    """``seat`` won the trick; ``leader`` leads the next one (the winner, or the next
    seat when the winner has gone out)."""

    seat: int
    leader: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Leads(Fact, type="leads"):
    """``seat`` leads (a new trick or the deal)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WentOut(Fact, type="went_out"):
    """``seat`` played its last card and finished in ``place`` (1 = first)."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DealEnded(Fact, type="deal_ended"):
    """The deal is over; ``reason`` is the result's reason code (a term key)."""

    reason: str
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Exchanged(Fact, type="exchanged"):
    """``seat`` and ``other`` exchanged cards (``cards``: what moved, when public)."""

    seat: int
    other: int
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Disqualified(Fact, type="disqualified"):
    """``seat`` is out of the deal for ``reason`` (a term key)."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Revealed(Fact, type="revealed"):
    """``seat`` (or the stock, ``seat=None``) showed ``cards`` to the table."""

    seat: int | None
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsTaken(Fact, type="cards_taken"):
    """``seat`` took ``cards`` into its hand (from the table or the stock); ``count``
    when the cards themselves stay hidden (then ``cards`` is empty)."""

    seat: int
    cards: tuple[Card, ...] = ()
    count: int = 0


# --- between deals (a match's report) --------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreChanged(Fact, type="score_changed"):
    """``seat`` scored ``delta`` (points, or penalties where the game counts them), now
    ``total``; ``unit`` is a term key (``points``, ``chips``, ``penalties``)."""

    seat: int
    delta: float
    total: float
    unit: str = "points"


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipsPaid(Fact, type="chips_paid"):
    """``seat`` paid ``amount`` chips into the pot (now ``pot``)."""

    seat: int
    amount: int
    pot: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PotWon(Fact, type="pot_won"):
    """``seats`` shared (one seat: took) the pot of ``amount`` chips."""

    seats: tuple[int, ...]
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Eliminated(Fact, type="eliminated"):
    """``seat`` is out of the match (or of the game within it) for ``reason``."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NextDeal(Fact, type="next_deal"):
    """Who starts the next deal: ``dealer`` and/or ``leader`` (``None``: not this game's)."""

    dealer: int | None = None
    leader: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchEnded(Fact, type="match_ended"):
    """The match is over for ``reason`` (a term key); ``winners`` when it has some."""

    reason: str
    winners: tuple[int, ...] = ()


__all__ = [
    "CardsTaken", "ChipsPaid", "DealEnded", "Disqualified", "Drew", "Eliminated", "Exchanged",
    "Fact", "Leads", "MatchEnded", "NextDeal", "Passed", "Played", "PotWon", "Revealed",
    "ScoreChanged", "TrickWon", "WentOut", "fact_from_dict", "fact_types", "from_json", "to_json",
]
