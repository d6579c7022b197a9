"""Typed views: what one seat may know of a deal, in one shape every game shares.

:class:`View` holds the core every consumer reads without knowing the game (the
browser, the terminal, the bots, the RL encoders); a game's view subclasses it with its
own typed fields (``KapHaiView(View)``: ``three_game``, ``shed``...). The JSON form
(:meth:`View.to_dict`) is flat: the core fields, then the game's. Its JSON Schema
comes from the dataclass fields (:func:`json_schema`; ``folkdeck schema GAME``).

>>> from folkdeck.cards import parse_cards
>>> view = View(game="demo", seat=0, num_players=2, phase="play", hand=parse_cards("3S 4H"),
...             counts=(2, 5), to_act=(0,), current_seat=0, legal_actions=("3S", "pass"))
>>> view.to_dict()["hand"], view.to_dict()["counts"]
(['3S', '4H'], [2, 5])
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from folkdeck.cards import Card
from folkdeck.engine.facts import Fact, to_json
from folkdeck.json_types import JSONObject

if TYPE_CHECKING:
    from folkdeck.engine.values import DescribeAction, Event


@dataclass(frozen=True, slots=True, kw_only=True)
class TablePlay:
    """One play lying on the table in the current trick: ``seat`` played ``cards``;
    ``label`` is a term key (``thrown``, ``drawn``...) or empty."""

    seat: int
    cards: tuple[Card, ...]
    label: str = ""

    def to_dict(self) -> JSONObject:
        return {"seat": self.seat, "cards": [str(c) for c in self.cards], "label": self.label}


@dataclass(frozen=True, slots=True, kw_only=True)
class ViewEvent:
    """One event of the deal as the viewer may see it: the record line's seat and action
    text, and the facts that followed (censored for the viewer). ``index`` is the
    event's 0-based place in the deal's history."""

    index: int
    seat: int
    action: str
    act: Fact | None
    """The action itself as a fact (``played``, ``passed``, a game's own), for rendering."""
    facts: tuple[Fact, ...] = ()

    def to_dict(self) -> JSONObject:
        return {"index": self.index, "seat": self.seat, "action": self.action,
                "act": self.act.to_dict() if self.act is not None else None,
                "facts": [f.to_dict() for f in self.facts]}


@dataclass(frozen=True, slots=True, kw_only=True)
class View:
    """The core of every game's view (a spectator's has ``seat=None`` and ``hand=None``).

    ``to_act`` lists only the seats whose right to act is public, plus the viewer when it
    may act (see :mod:`folkdeck.engine.protocol`); ``legal_actions`` are the viewer's, in
    record grammar, empty when it may not act. ``status`` says, as facts, what a player
    needs to know of the position besides the table (a 3-game start, a gouji, chips at
    stake...); ``history`` is the deal so far as this seat may see it.
    """

    game: str
    seat: int | None
    num_players: int
    phase: str
    hand: tuple[Card, ...] | None
    counts: tuple[int | None, ...]
    """Cards held by each seat (``None``: the rules keep it hidden)."""
    to_act: tuple[int, ...]
    current_seat: int | None
    legal_actions: tuple[str, ...] = ()
    table: tuple[TablePlay, ...] = ()
    """The plays of the current trick, in order."""
    top: TablePlay | None = None
    """The play to beat, if any."""
    passed: tuple[int, ...] = ()
    """Seats out of the current trick (passed)."""
    out: tuple[int, ...] = ()
    """Seats that have finished, in order."""
    stock: tuple[int, ...] = ()
    """Cards in each stock pile (empty: no stock)."""
    status: tuple[Fact, ...] = ()
    history: tuple[ViewEvent, ...] = ()
    result: Mapping[str, object] | None = None

    def to_dict(self) -> JSONObject:
        """The JSON form: every field, cards in notation, facts as ``{"type", ...}``."""
        return {f.name: to_json(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def to_json(self) -> JSONObject:
        return self.to_dict()


class ViewCore(TypedDict):
    """The core fields of a view that every game fills alike, made once by
    :meth:`StateBase._view_core <folkdeck.engine.state_base.StateBase._view_core>`; the game adds
    the rest (``game``, ``phase``, ``hand``, ``counts``, the table, ``status``, its own)."""

    seat: int | None
    num_players: int
    to_act: tuple[int, ...]
    current_seat: int | None
    legal_actions: tuple[str, ...]
    history: tuple[ViewEvent, ...]
    result: Mapping[str, object] | None


class HistoryCache:
    """A deal's history as views show it, built once per event and shared by every view.

    ``events`` is the state's event list (read, never changed); ``describe`` the game's
    ``GameSpec.describe_action``. An event whose facts are all public is built once for
    every viewer; one with private or secret facts is censored per viewer. A state keeps
    one cache and hands a copy to its clones (:meth:`copy`), as building views must not
    cost the hot path anything.
    """

    __slots__ = ("_describe", "_public", "_private")

    def __init__(self, describe: DescribeAction | None) -> None:
        self._describe = describe
        self._public: list[ViewEvent] = []
        self._private: list[bool] = []

    def copy(self) -> HistoryCache:
        new = HistoryCache(self._describe)
        new._public = list(self._public)
        new._private = list(self._private)
        return new

    def view(self, events: Sequence[Event], viewer: int | None, *,
             last: int | None = None) -> tuple[ViewEvent, ...]:
        """The history of ``events`` for ``viewer`` (``last``: only the last ones)."""
        public = self._public
        for index in range(len(public), len(events)):
            seat, action, facts = events[index]
            act = self._describe(seat, action) if self._describe is not None else None
            hidden = (act is not None and bool(act.private or act.secret)) or any(
                f.private or f.secret for f in facts)
            seen = tuple(c for f in facts if (c := f.censored(None)) is not None)
            public.append(ViewEvent(index=index, seat=seat, action=str(action),
                                    act=act.censored(None) if act is not None else None, facts=seen))
            self._private.append(hidden)
        start = 0 if last is None else max(0, len(events) - last)
        out = []
        for index in range(start, len(events)):
            if self._private[index] and viewer is not None:
                seat, action, facts = events[index]
                act = self._describe(seat, action) if self._describe is not None else None
                out.append(ViewEvent(index=index, seat=seat, action=str(action),
                                     act=act.censored(viewer) if act is not None else None,
                                     facts=tuple(c for f in facts if (c := f.censored(viewer)) is not None)))
            else:
                out.append(public[index])
        return tuple(out)


# --- JSON Schema -------------------------------------------------------------------------

_FACT: dict[str, object] = {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}}}


def json_schema(view_type: type[View], *, title: str = "") -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of a view class's :meth:`View.to_dict`.

    >>> schema = json_schema(View)
    >>> schema["properties"]["hand"]["anyOf"][0]["type"]
    'array'
    """
    hints = typing.get_type_hints(view_type)
    props = {f.name: _schema(hints[f.name]) for f in dataclasses.fields(view_type)}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": title or view_type.__name__, "type": "object", "properties": props,
            "required": sorted(props), "additionalProperties": False}


_PLAIN: dict[object, dict[str, object]] = {
    type(None): {"type": "null"}, Card: {"type": "string", "description": "a card in notation"},
    bool: {"type": "boolean"}, int: {"type": "integer"}, float: {"type": "number"},
    str: {"type": "string"}, object: {}}
"""The schema of each plain (not generic) type a view's field may have."""


def _schema(hint: object) -> dict[str, object]:
    origin = typing.get_origin(hint)
    if origin is not None or hint is dict:
        return _generic_schema(hint, origin, typing.get_args(hint))
    plain = _PLAIN.get(hint)
    if plain is not None:
        return dict(plain)
    return _class_schema(hint)


def _generic_schema(hint: object, origin: object, args: tuple[object, ...]) -> dict[str, object]:
    """A union, a tuple, a mapping or a literal."""
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_schema(a) for a in args]}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema(args[0])}
        return {"type": "array", "prefixItems": [_schema(a) for a in args],
                "minItems": len(args), "maxItems": len(args)}
    if origin in (Mapping, dict) or hint is dict:
        return {"type": "object"} if not args else {
            "type": "object", "additionalProperties": _schema(args[1])}
    if origin is typing.Literal:
        return {"enum": list(args)}
    raise TypeError(f"no JSON Schema for {hint!r}")


def _class_schema(hint: object) -> dict[str, object]:
    """An enum, a fact or a dataclass (a table play, a history event...)."""
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return {"enum": [m.value for m in hint]}
    if isinstance(hint, type) and issubclass(hint, Fact):
        return _FACT
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        sub = typing.get_type_hints(hint)
        props = {f.name: _schema(sub[f.name]) for f in dataclasses.fields(hint)}
        if hint is ViewEvent:
            props["act"] = {"anyOf": [_FACT, {"type": "null"}]}
            props["facts"] = {"type": "array", "items": _FACT}
        return {"type": "object", "properties": props, "required": sorted(props)}
    raise TypeError(f"no JSON Schema for {hint!r}")


__all__ = ["HistoryCache", "TablePlay", "View", "ViewCore", "ViewEvent", "json_schema"]
