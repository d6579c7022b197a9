"""The values the engine protocol passes around: the words of its signatures (:data:`Seat`,
:class:`Action`), what a transition gives (:class:`Event`), how a deal ends (:class:`Result`)
and where a match stands (:class:`Standings`).

They name no game object, so that every layer may import them: the views
(:mod:`folkdeck.engine.view`), the games' base classes and the protocol that ties a game, its
states and its declaration together (:mod:`folkdeck.engine.protocol`, which re-exports them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MethodType
from typing import Any, Final, NamedTuple, NotRequired, Protocol, TypeAlias, TypedDict, cast

from folkdeck.engine.facts import Fact
from folkdeck.engine.frozen import frozen_reduction
from folkdeck.json_types import JSONObject

Seat: TypeAlias = int
"""A seat number, 0-based, in turn order (``seat + 1`` plays next in every game)."""


class Action(Protocol):
    """A game's action: a frozen, hashable value whose ``str()`` is its record notation
    (``3S 3H``, ``pass``, ``draw left``).

    Each game has its own union of action classes (``KapHaiAction = Combo | Pass | Putuh``,
    ``CangkulAction = Card | Draw | Pass``, Cambio's enum); code that takes any game's action
    (the protocol's states, the bots, the runner, the server, the RL adapters) takes this, and
    a state refuses an action of another game as illegal
    (:class:`~folkdeck.engine.errors.IllegalActionError`). Hashable, so that a set of legal
    actions and a table keyed by action work for every game; equal by value, so that an action
    parsed from its notation is the legal action it names.

    >>> from folkdeck.cards import Card
    >>> from folkdeck.engine.word_actions import PASS
    >>> def notation(actions: tuple[Action, ...]) -> str:
    ...     return " / ".join(str(a) for a in actions)
    >>> notation((Card.parse("3S"), PASS))
    '3S / pass'
    """

    def __hash__(self) -> int: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __str__(self) -> str: ...


DescribeAction: TypeAlias = "Callable[[Seat, Action], Fact]"
"""The action itself as a fact (``played``, ``passed``...), for histories and text."""


class Event(NamedTuple):
    """A transition that happened: who did what, and what followed from it.

    ``facts`` are typed :class:`~folkdeck.engine.facts.Fact` values in the order the
    things happened (a trick won, a seat out, the deal over); the action itself is
    described by the game's ``GameSpec.describe_action``. Text is made from them only
    at the edge (:mod:`folkdeck.i18n`). Immutable (a named tuple: made on every action,
    so it must be cheap).
    """

    seat: Seat
    action: Action
    facts: tuple[Fact, ...] = ()

    @property
    def line(self) -> str:
        """The record line, ``"<seat>: <action>"``."""
        return f"{self.seat}: {self.action}"

    def to_dict(self) -> JSONObject:
        """JSON: the seat, the action in record grammar and the facts (all of them: use a
        view's history for what one seat may see)."""
        return {"seat": self.seat, "action": str(self.action), "facts": [f.to_dict() for f in self.facts]}

    def __str__(self) -> str:
        return self.line + "".join(f"; {f.type}" for f in self.facts)


new_event: Final = cast(Callable[[tuple[Seat, Action, tuple[Fact, ...]]], Event], MethodType(tuple.__new__, Event))
"""``new_event((seat, action, facts))`` is ``Event(seat, action, facts)`` made without the
named tuple's Python-level ``__new__``: a state's ``apply`` makes one on every action, and
this costs what a bare tuple costs. ``tuple.__new__`` bound to :class:`Event` as a method,
not a ``functools.partial``: a partial of it copies its arguments into a new tuple on every
call (about 300 machine instructions more per event in the pure-Python build).

>>> new_event((2, "pass", ())) == Event(2, "pass")
True
"""


class DealInfo(TypedDict):
    """How a deal began, as a record holds it (``State.deal_info()``; ``docs/records.md``):
    what the deal was set up from outside it (``setup``: who leads, the dealer, a first
    deal...), every seat's hand and, where the game has one, the stock, cards in notation.
    ``game.new_state(**info)`` deals it again."""

    setup: JSONObject
    hands: list[list[str]]
    stock: NotRequired[list[str]]


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a finished deal.

    ``placings[seat]`` is that seat's place (1 = first) or ``None`` for a seat the
    rules leave unplaced; ``returns[seat]`` is the seat's score for the deal.
    """

    placings: tuple[int | None, ...]
    returns: tuple[float, ...]
    reason: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> JSONObject:
        return {"placings": list(self.placings), "returns": list(self.returns),
                "reason": self.reason, **self.details}

    def __reduce__(self) -> tuple[type[Result], tuple[tuple[int | None, ...], tuple[float, ...], str, Mapping[str, Any]]]:
        # Pickled as its constructor call (why: folkdeck.engine.build, "Pickling"): a
        # tournament's worker processes send results back.
        return (Result, (self.placings, self.returns, self.reason, self.details))


@dataclass(frozen=True, slots=True, kw_only=True)
class Standings:
    """Where a match stands: typed, so that a match record can be checked.

    ``scores[seat]`` in the game's ``unit`` (a term key: ``points``, ``chips``,
    ``penalties``; ``higher_wins`` says which way is better); ``ranking`` lists the seats
    best first; ``carry`` holds what the next deal is set up from, as JSON values (the
    dealer, the leader, the pot, the game number...).
    """

    deals_played: int
    deals_limit: int | None
    over: bool
    unit: str
    scores: tuple[float, ...]
    higher_wins: bool = True
    eliminated: tuple[int, ...] = ()
    carry: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ranking(self) -> tuple[int, ...]:
        sign = -1 if self.higher_wins else 1
        return tuple(sorted(range(len(self.scores)),
                            key=lambda s: (s in self.eliminated, sign * self.scores[s], s)))

    def __reduce__(self) -> tuple[object, tuple[type, dict[str, object]]]:
        return frozen_reduction(self)  # its fields by name (why: folkdeck.engine.build, "Pickling")

    def to_dict(self) -> JSONObject:
        return {"deals_played": self.deals_played, "deals_limit": self.deals_limit,
                "over": self.over, "unit": self.unit, "scores": list(self.scores),
                "higher_wins": self.higher_wins, "eliminated": list(self.eliminated),
                "carry": dict(self.carry), "ranking": list(self.ranking)}


__all__ = ["Action", "DealInfo", "DescribeAction", "Event", "Result", "Seat", "Standings", "new_event"]
