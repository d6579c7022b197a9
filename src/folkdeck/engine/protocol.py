"""The engine protocol: what every game, state, observation and match provides.

Games need no base class; they satisfy these :class:`typing.Protocol` classes.
The split follows OpenSpiel: a :class:`Game` holds frozen rules options and makes
states; a :class:`State` is one deal's position, owned and mutated only by its
own methods; :meth:`State.observe` is the one door through which information
leaves the engine for a seat.

Actions carry no seat: the seat comes with the call (``state.apply(action, seat)``),
defaulting to the seat whose turn it is. Out-of-turn windows (a putuh declaration,
burning, the owl's call) are seats listed in :attr:`State.to_act` besides the
player on turn.

``to_act`` in a view: ``state.to_act`` is the engine's list (the engine, the sim
runner and the server offer out-of-turn actions from it), but a right to act may
come from a hidden card (the Cambio OWL, a putuh hand, a hand that can burn), so an
observation's ``to_act`` lists only the seats whose right is public by the rules,
plus the viewer itself when it is in ``state.to_act``, in ``state.to_act``'s order;
a spectator's lists only the public ones. A state declares the public seats with
:meth:`State.public_to_act` (``to_act[:1]`` by default, the seat the game waits for); a
view's ``current_seat`` is its own ``to_act[0]``, ``None`` when that is empty (e.g. Kap
Hai's putuh window seen by a seat that may not declare). The conformance suite checks
this (:func:`folkdeck.engine.conformance.check_view_to_act`). A game whose out-of-turn
right comes from a hidden card and cannot wait for a turn (the Cambio OWL's call before
a request reaches it) lists in :meth:`State.possible_callers` the seats that may hold such
a right for all the public facts tell (none by default); the server gives each person
among them the same moment before a bot acts.

The games' states inherit :class:`~folkdeck.engine.state_base.StateBase`, this protocol
as a generic base class with the defaults; the protocol is for code that takes any state
(a game written outside folkdeck needs no base class), and ``tests/engine/
test_state_contract.py`` keeps the two to the same members.

A game's declaration, :class:`GameSpec` (its static :class:`~folkdeck.engine.gameinfo.GameInfo`
and its :class:`GameHooks`, the :class:`Determinizer` among them), is declared here too: a
``Game`` names its ``GameSpec``, whose hooks make ``Game`` objects and deal ``State`` worlds,
so the types that refer to one another share a module and the imports point one way
(``gameinfo`` <- ``protocol`` <- ``spec``, ``determinize``). Read them in
:mod:`folkdeck.engine.spec`, where a game imports them from.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol, Self, TypeAlias, cast, runtime_checkable

from folkdeck.cards import Card
from folkdeck.engine.action_data import ActionDataOf, word_action
from folkdeck.engine.facts import Fact
from folkdeck.engine.gameinfo import Action, DescribeAction, GameInfo, Lazy, LazyBots, Seat
from folkdeck.engine.pickling import frozen_reduction
from folkdeck.json_types import JSONObject

if TYPE_CHECKING:
    from folkdeck.engine.view import View

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


new_event: Final = cast(Callable[[tuple[Seat, Action, tuple[Fact, ...]]], Event], partial(tuple.__new__, Event))
"""``new_event((seat, action, facts))`` is ``Event(seat, action, facts)`` made without the
named tuple's Python-level ``__new__``: a state's ``apply`` makes one on every action, and
this costs what a bare tuple costs.

>>> new_event((2, "pass", ())) == Event(2, "pass")
True
"""


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


Observation: TypeAlias = "View"
"""What one seat (or a spectator) may know of a state: a :class:`~folkdeck.engine.view.View`."""


class State(Protocol):
    """One deal in progress."""

    @property
    def game(self) -> Game: ...

    @property
    def num_players(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def to_act(self) -> tuple[Seat, ...]:
        """Seats that may act now, the seat on turn first; empty when the deal is over.
        The engine's list, not for agents: a view lists only its public part."""
        ...

    @property
    def current_seat(self) -> Seat | None:
        """The seat on turn (the default seat of the methods below), ``None`` when over."""
        ...

    @property
    def history(self) -> tuple[Event, ...]: ...

    def legal_actions(self, seat: Seat | None = None) -> tuple[Action, ...]:
        """Every legal action of ``seat`` in a deterministic, documented order."""
        ...

    def is_legal(self, action: Action, seat: Seat | None = None) -> bool: ...

    def verify(self, action: Action, seat: Seat | None = None) -> None:
        """Raise :class:`~folkdeck.engine.errors.IllegalActionError` (or a subclass) with
        the reason if the action is not legal now; return ``None`` otherwise."""
        ...

    def apply(self, action: Action, seat: Seat | None = None) -> Event:
        """Verify, then perform the action; the event is appended to :attr:`history`."""
        ...

    def parse_action(self, text: str, seat: Seat | None = None) -> Action:
        """Read an action of the game's grammar for ``seat`` in this position."""
        ...

    def observe(self, seat: Seat | None) -> View:
        """The view of ``seat``; ``None`` gives the public (spectator) view. Its
        ``to_act`` shows no seat whose right to act is not public, the viewer aside
        (see the module docstring)."""
        ...

    def is_over(self) -> bool: ...

    def result(self) -> Result | None: ...

    def clone(self) -> Self: ...

    def deal_info(self) -> dict[str, Any]:
        """How this deal began, as record fields: ``setup``, ``hands`` and (where the
        game has one) ``stock``, cards in notation."""
        ...

    def all_cards(self) -> Mapping[str, Sequence[Card]]:
        """Every card of the deal by place (``"hand 0"``, ``"played"``...), for the
        conservation checks; hidden places included. Not for agents."""
        ...

    def hidden_cards(self, seat: Seat | None) -> Sequence[Card]:
        """The cards ``seat`` must not see (others' hands, the stock...)."""
        ...

    def public_to_act(self) -> tuple[Seat, ...]:
        """The seats of ``to_act`` whose right to act every viewer may see (the base's
        default: ``to_act[:1]``)."""
        ...

    def possible_callers(self) -> tuple[Seat, ...]:
        """The seats that, for all the public facts tell, may hold a hidden out-of-turn
        right that cannot wait for a turn (the base's default: none)."""
        ...

    @classmethod
    def from_view(cls, game: Any, view: Any, /, *args: Any, **world: Any) -> Self:
        """A deal that ``view``'s seat cannot tell from the real one, the cards it hides
        placed as ``world`` says (each game names them: ``hands``, ``stock``...)."""
        ...


class Game(Protocol):
    """Rules options, frozen, plus the factory of states."""

    @property
    def spec(self) -> GameSpec: ...

    @property
    def options(self) -> Any: ...

    @property
    def num_players(self) -> int: ...

    def new_state(
        self,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        deck: Sequence[Any] | None = None,
        hands: Sequence[Any] | None = None,
        stock: Sequence[Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> State:
        """A new deal: shuffled from ``seed``/``rng``, dealt from ``deck`` (top first),
        or set up from explicit ``hands`` (and ``stock``). ``setup`` carries what the
        deal needs from outside it (who leads, a first deal...)."""
        ...

    def new_match(self, *, deals: int | None = None, rng: random.Random | None = None,
                  first_dealer: int | None = None) -> Match:
        """A match of ``deals`` deals (``None``: the game's own end); ``first_dealer``: the
        seat that deals first, where the players choose it (a game whose rules fix the
        start refuses one: ``first_dealer_not_free``)."""
        ...


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

    def __reduce__(self) -> tuple[Any, tuple[type, dict[str, Any]]]:
        return frozen_reduction(self)  # its fields by name (why: folkdeck.engine.build, "Pickling")

    def to_dict(self) -> JSONObject:
        return {"deals_played": self.deals_played, "deals_limit": self.deals_limit,
                "over": self.over, "unit": self.unit, "scores": list(self.scores),
                "higher_wins": self.higher_wins, "eliminated": list(self.eliminated),
                "carry": dict(self.carry), "ranking": list(self.ranking)}


class Match(Protocol):
    """Several deals with what carries over between them (leader, chips, tribute...).

    A match deals from its own RNG, or from given cards: ``next_deal(deal=...)`` takes a
    record's deal fields (``hands``/``stock``/``deck``/``seed`` and ``setup``) and checks
    that the record's ``setup`` is the one the match derives (raising
    :class:`~folkdeck.engine.errors.InvalidDealError` naming ``setup.<key>`` if not),
    which is how ``folkdeck-match/1`` records replay (:mod:`folkdeck.engine.match_record`).
    """

    @property
    def game(self) -> Game: ...

    def next_deal(self, *, deal: Mapping[str, Any] | None = None) -> State:
        """The next deal, set up from what the earlier ones left."""
        ...

    def finish_deal(self, state: State) -> tuple[Fact, ...]:
        """Account a finished deal; returns what changed as facts (chips paid, a seat
        eliminated, who deals next...)."""
        ...

    def report(self) -> tuple[Fact, ...]:
        """Facts the match produced since the last call that belong to no deal yet (a
        Cambio seating draw, a reshuffle before the next deal)."""
        ...

    def is_over(self) -> bool: ...

    def standings(self) -> Standings:
        """The match so far."""
        ...


# --- what a game declares: its hooks refer to its game, its game to them -------------------------


class Determinizer(Protocol):
    """What a game's ``GameSpec.determinizer`` hook gives (a
    :class:`~folkdeck.engine.determinize.Determinization`, the kit's)."""

    def is_searchable(self, view: View) -> bool:
        """True when :meth:`worlds` applies to ``view`` (a seat's view in a phase the
        sampler knows)."""
        ...

    def worlds(self, game: Game, view: View) -> Callable[[random.Random], State]:
        """The sampler of the worlds ``view``'s seat cannot tell from the real position:
        the view is read once, each call deals one world from the ``rng`` it is given.

        :raises WrongPhaseError: for a view the sampler does not take (a spectator's...).
        """
        ...


def _no_bots() -> LazyBots:
    return LazyBots()


@dataclass(frozen=True, slots=True, kw_only=True)
class GameHooks:
    """A game's code that the engine, the bots and the adapters call (see
    :mod:`folkdeck.engine.spec`)."""

    make: Callable[[Any], Game]
    """The game object from its options (an instance of ``GameInfo.options_type``)."""
    describe_action: DescribeAction
    """The action itself as a fact (``played``, ``passed``...), for histories and text."""
    view_type: type[View]
    """The game's :class:`~folkdeck.engine.view.View` subclass (its JSON Schema)."""
    bots: LazyBots = field(default_factory=_no_bots)
    """Bot factories by name, loaded at first use."""
    determinizer: Lazy[Determinizer] | None = None
    """Deals the cards a seat cannot see at random, for the search bots and the
    conformance suite's hidden twins; loaded at first use. ``None``: not searchable."""
    action_data: ActionDataOf = word_action
    """A legal action as data for a table to draw (its kind and cards,
    :mod:`folkdeck.engine.action_data`); by default a button named by its notation."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSpec(GameInfo):
    """A game's static description (:class:`GameInfo`, its own fields) and its code
    (:class:`GameHooks`, ``hooks``), registered by ``games/<name>/__init__.py``."""

    hooks: GameHooks

    @property
    def make(self) -> Callable[[Any], Game]:
        return self.hooks.make

    @property
    def bots(self) -> LazyBots:
        """Bot factories by name (loaded at first use)."""
        return self.hooks.bots

    @property
    def describe_action(self) -> DescribeAction:
        return self.hooks.describe_action

    @property
    def view_type(self) -> type[View]:
        return self.hooks.view_type

    @property
    def action_data(self) -> ActionDataOf:
        return self.hooks.action_data

    @property
    def determinizer(self) -> Determinizer | None:
        """The game's determinizer (loaded now if it was not yet), or ``None``."""
        hook = self.hooks.determinizer
        return hook.get() if hook is not None else None


# Made runtime-checkable by a call after the class, not a decorator (why: folkdeck.engine.build,
# "Protocols").
runtime_checkable(State)
runtime_checkable(Game)
runtime_checkable(Match)
runtime_checkable(Determinizer)

__all__ = ["Action", "Determinizer", "Event", "Game", "GameHooks", "GameSpec", "Match", "Observation", "Result",
           "Seat", "Standings", "State", "new_event"]
