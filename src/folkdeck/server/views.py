"""A seat's view as JSON, each part encoded again only when it changed.

``View.to_dict()`` encodes every field of the view (the deal's whole history included),
and a table sends each connection its view after every event: encoding the same values
again and again was most of the server's work per action, and comparing them again in
:func:`folkdeck.server.delta.diff` much of the rest. A :class:`ViewEncoder` (one per
viewer of a table) keeps the last value of each field with its JSON: a field whose value
is the same object, or an equal one of the same type, gets the JSON it had (the same
object, which the delta's comparison then passes at once); the history is kept event by
event the same way (an event the viewer sees whole is the same object in every view of
the deal; one censored for the viewer is made anew and compared). Cached JSON is shared
between messages: it is never changed in place (:func:`folkdeck.server.delta.apply`
makes new objects).

>>> import folkdeck
>>> state = folkdeck.load(folkdeck.games()[0]).new_state(seed=3)
>>> for _ in range(3):
...     _ = state.apply(state.legal_actions(state.to_act[0])[0], state.to_act[0])
>>> encoder = ViewEncoder()
>>> first = encoder.obs(state.observe(None))
>>> first == state.observe(None).to_dict()
True
>>> encoder.obs(state.observe(None))["history"][0] is first["history"][0]  # encoded once
True
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias, cast

from folkdeck.cards.card import Card
from folkdeck.engine.action_data import ActionDataOf
from folkdeck.engine.facts import Fact, to_json
from folkdeck.engine.view import View, ViewEvent
from folkdeck.json_types import JSONObject, JSONScalar, JSONValue

HISTORY = "history"
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(view_type: type) -> tuple[str, ...]:
    names = _FIELDS.get(view_type)
    if names is None:
        names = _FIELDS[view_type] = tuple(f.name for f in dataclasses.fields(view_type))
    return names


class ViewEncoder:
    """The JSON form of one viewer's views, each field's kept from call to call.

    What it keeps lives until the viewer's next view, so it is kept in few objects (two
    dicts and two lists, changed in place; none of their entries a pair of its own): each
    object that outlives a move is traversed once more by the garbage collector
    (:mod:`folkdeck.server.collector`).
    """

    __slots__ = ("_values", "_json", "_events", "_encoded", "_legal")

    def __init__(self) -> None:
        self._values: dict[str, object] = {}
        self._json: dict[str, JSONValue] = {}
        self._events: list[ViewEvent] = []
        self._encoded: list[JSONValue] = []
        self._legal: tuple[tuple[object, ...], list[JSONValue]] = ((), [])

    def legal(self, actions: Sequence[object], data: ActionDataOf) -> list[JSONValue]:
        """The viewer's legal actions as data (:mod:`folkdeck.engine.action_data`): each
        its notation, kind and cards, as the game's ``action_data`` says; the same actions
        as last time get the same JSON (a Gou Ji lead has thousands).

        >>> from folkdeck.engine.action_data import word_action
        >>> encoder = ViewEncoder()
        >>> encoder.legal(["pass"], word_action)
        [{'action': 'pass', 'kind': 'pass'}]
        >>> encoder.legal(("pass",), word_action) is encoder.legal(("pass",), word_action)
        True
        """
        key = tuple(actions)
        if key != self._legal[0] or not key:
            self._legal = (key, [data(a).to_dict(str(a)) for a in key])
        return self._legal[1]

    def obs(self, view: View) -> JSONObject:
        """The same as ``view.to_dict()``."""
        if type(view).to_dict is not View.to_dict:  # a view with its own JSON form: as it says
            return view.to_dict()
        values, json = self._values, self._json
        out: JSONObject = {}
        for name in _fields(type(view)):
            value = getattr(view, name)
            kind = type(value)
            if kind is str or kind is int or value is None or kind is bool or kind is float:
                out[name] = cast(JSONScalar, value)  # its own JSON (the exact types encode() passes)
                continue
            if name in values and _same(values[name], value):
                out[name] = json[name]
                continue
            encoded = self._history(value) if name == HISTORY else encode(value)
            values[name] = value
            json[name] = out[name] = encoded
        return out

    def _history(self, events: tuple[ViewEvent, ...]) -> list[JSONValue]:
        known, encoded = self._events, self._encoded
        same = 0
        while same < len(known) and same < len(events) and _same(known[same], events[same]):
            same += 1
        del known[same:], encoded[same:]  # a new deal, or an event seen otherwise now
        for event in events[same:]:
            known.append(event)
            encoded.append(encode(event))
        return encoded[:]  # the message's own list: the kept one grows with the deal


def encode(value: object) -> JSONValue:
    """The same as :func:`folkdeck.engine.facts.to_json`, by the value's type looked up once.

    >>> from folkdeck.engine.view import ViewEvent
    >>> encode((Card.parse("10H"), None, {"n": 1.5}))
    ['10H', None, {'n': 1.5}]
    >>> encode(ViewEvent(index=0, seat=1, action="pass", act=None))
    {'index': 0, 'seat': 1, 'action': 'pass', 'act': None, 'facts': []}
    """
    kind = type(value)
    # by the exact type, not isinstance (a subclass, say an IntEnum, is encoded by its own rule)
    if kind is str or kind is int or value is None or kind is bool or kind is float:
        return cast(JSONScalar, value)
    if kind is tuple or kind is list:
        return [encode(item) for item in cast("tuple[object, ...] | list[object]", value)]
    encoder = _ENCODERS.get(kind)
    if encoder is None:
        encoder = _ENCODERS[kind] = _encoder_for(kind)
    return encoder(value)


Encoder: TypeAlias = Callable[[Any], JSONValue]  # each takes the one type it was made for
_ENCODERS: dict[type, Encoder] = {}


def _encoder_for(kind: type) -> Encoder:
    """How ``to_json`` encodes a value of ``kind`` (its checks, in its order)."""
    if issubclass(kind, bool | int | float | str) and not issubclass(kind, enum.Enum):
        return lambda value: value
    if issubclass(kind, Card):
        return _card
    if issubclass(kind, enum.Enum):
        return lambda value: value.value
    if issubclass(kind, Fact) and kind.to_dict is Fact.to_dict:
        names = _fields(kind)
        return lambda fact: _fact(fact, names)
    if issubclass(kind, ViewEvent) and kind.to_dict is ViewEvent.to_dict:
        return lambda e: {"index": e.index, "seat": e.seat, "action": e.action,
                          "act": encode(e.act) if e.act is not None else None,
                          "facts": [encode(f) for f in e.facts]}
    if issubclass(kind, tuple | list):
        return lambda value: [encode(item) for item in value]
    if issubclass(kind, Mapping):
        return lambda value: {str(k): encode(v) for k, v in value.items()}
    return to_json  # anything else (a to_dict of its own, or its refusal) as to_json does


_CARDS: dict[int, tuple[Card, str]] = {}
CARDS_KEPT = 20_000
"""Cards whose notation is kept (by identity: a deal's cards are the same objects in every
view of it; the entry holds the card, so its id stays its own)."""


def _card(card: Card) -> str:
    hit = _CARDS.get(id(card))
    if hit is None or hit[0] is not card:
        if len(_CARDS) >= CARDS_KEPT:
            _CARDS.clear()
        hit = _CARDS[id(card)] = (card, str(card))
    return hit[1]


def _fact(fact: Fact, names: tuple[str, ...]) -> JSONObject:
    out: JSONObject = {"type": fact.type}
    for name in names:
        out[name] = encode(getattr(fact, name))
    return out


def _same(old: object, new: object) -> bool:
    """Whether ``new`` has ``old``'s JSON: the same object, or an equal one of its type."""
    return old is new or (type(old) is type(new) and old == new)


__all__ = ["ViewEncoder", "encode"]
