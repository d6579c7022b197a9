"""The engine protocol: what every game declares, and what its game, states and matches do.

Games need no base class; they satisfy these :class:`typing.Protocol` classes.
The split follows OpenSpiel: a :class:`Game` holds frozen rules options and makes
states; a :class:`State` is one deal's position, owned and mutated only by its
own methods; :meth:`State.observe` is the one door through which information
leaves the engine for a seat.

:class:`State` is the one contract of a state: code that takes any state takes it, and its
members are documented here only. The games' states implement it by inheriting
:class:`~folkdeck.engine.state_base.StateBase`, which holds what every game's state does
alike (the read side, views, clones, the defaults of the optional members); mypy checks each
game's state against this protocol wherever its game is a :class:`Game` (a ``GameHooks.make``),
and ``tests/engine/test_state_contract.py`` checks that the base adds no member of its own.

Actions carry no seat: the seat comes with the call (``state.apply(action, seat)``),
defaulting to the seat whose turn it is. An action is typed
:class:`~folkdeck.engine.values.Action` (hashable, its ``str()`` the record notation): a
state takes any game's action and refuses one that is not its game's as illegal. Out-of-turn
windows (a putuh declaration, burning, the owl's call) are seats listed in
:attr:`State.to_act` besides the player on turn.

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

A game's declaration is here too, whole: :class:`GameSpec` is its static description
(:class:`GameInfo`, plain data every lobby, terminal and arena may read: the name, the seats,
the options type and presets, the card notation, the teams, the windows, how a match ends...)
and its code (:class:`GameHooks`: ``make``, ``describe_action``, ``view_type``, and what is
loaded at first use, the ``bots`` and the :class:`Determinizer`), after OpenSpiel's
``_GAME_TYPE``/``_GAME_INFO`` and its game class. A ``Game`` names its ``GameSpec``, whose
hooks make ``Game`` objects and deal ``State`` worlds, so they share this module. The values
they pass (:data:`Seat`, :class:`Action`, :class:`Event`, :class:`Result`, :class:`Standings`)
are declared below it in :mod:`folkdeck.engine.values`, the bots' types in
:mod:`folkdeck.engine.bots`; both are re-exported here.

>>> import folkdeck
>>> spec = folkdeck.get_spec("kaphai")
>>> spec.name, spec.windows, spec.hooks.determinizer is not None
('kaphai', ('putuh',), True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self, TypeAlias, runtime_checkable

from folkdeck.cards import Card
from folkdeck.engine.action_data import ActionDataOf, word_action
from folkdeck.engine.bots import Agent, BotFactory, CardReading, GameAgent, Lazy, LazyBots
from folkdeck.engine.facts import Fact
from folkdeck.engine.values import Action, DealInfo, DescribeAction, Event, Result, Seat, Standings, new_event

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from folkdeck.engine.view import View

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

    def deal_info(self) -> DealInfo:
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
        deck: Sequence[object] | None = None,
        hands: Sequence[Sequence[object]] | None = None,
        stock: Sequence[object] | None = None,
        setup: Mapping[str, object] | None = None,
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

    def next_deal(self, *, deal: Mapping[str, object] | None = None) -> State:
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


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchEnd:
    """How a game's match ends, for lobbies and the terminal.

    ``deals``: ``"count"`` the match is a number of deals (``default_deals``);
    ``"limit"`` the game ends by its own rule (``reason``, a term key) and a number of
    deals is only an optional cap; ``"none"`` only the game's own rule ends it.
    """

    deals: Literal["count", "limit", "none"] = "count"
    default_deals: int | None = 5
    reason: str = "deals"


def no_teams(players: int) -> tuple[tuple[int, ...], ...]:
    """Every seat for itself."""
    return ()


@dataclass(frozen=True, slots=True, kw_only=True)
class GameInfo:
    """A game's static description (OpenSpiel's ``_GAME_TYPE``/``_GAME_INFO``):
    everything the server, the browser, the terminal and the arena need to know of it
    as data, so that no code outside ``games/<name>/`` asks which game it is."""

    name: str
    title: str
    aliases: tuple[str, ...] = ()
    min_players: int
    max_players: int
    default_players: int
    options_type: type[DataclassInstance]
    """The game's frozen options dataclass (:mod:`folkdeck.engine.options`)."""
    presets: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    summary: str = ""
    rules_doc: str = ""
    default_bot: str = "greedy"
    hint_bot: str = "pimc"
    """The search bot whose choice and values make the hints and reviews
    (:mod:`folkdeck.agents.advice`): the game's strongest that answers within a second
    (``docs/bots.md`` has the measurements)."""
    record_embargo: str = ""
    """Why a finished deal's record must wait for the end of its match, if it must: a
    game that carries hidden cards from deal to deal (Cambio's stock) would reveal them.
    Empty: each deal is shuffled afresh, so its record may be published once it ends.
    (A term key: the browser and terminal say why in the player's language.)"""
    card_notation: str = "french"
    """How cards are shown to people (:func:`folkdeck.i18n.display_card`): ``french``,
    ``spanish`` (11 for the caballo), ``portuguese`` (R for the rei), ``cucco``, ``gouji``."""
    teams: Callable[[int], tuple[tuple[int, ...], ...]] = no_teams
    """The teams for a number of players (empty: every seat for itself)."""
    windows: tuple[str, ...] = ()
    """Out-of-turn rights the game has (term keys: ``putuh``, ``burn``, ``cucco``...):
    a seat may act while another is on turn; the UI offers them as buttons."""
    match_end: MatchEnd = field(default_factory=MatchEnd)
    glossary: tuple[str, ...] = ()
    """The game's own words a newcomer needs explained on screen (term keys with a
    ``term.<game>.<word>.help`` message: Gou Ji's ``gouji``); the windows are explained too."""
    action_words: tuple[str, ...] = ()
    """Every word of the action grammar that is not a card (``pass``, ``draw``, ``burn``,
    Gou Ji's rank words...): the RL adapters fix their token vocabulary from it."""
    card_words: tuple[str, ...] = ()
    """The words of ``action_words`` that each stand for one card of the rank they name (Gou
    Ji writes its sets by rank: ``9 9 2``): the learned bots count them as cards the action
    plays, as they count a card's own notation (Gou Ji's re-order digits are the same words,
    so ``order 4 2`` reads as a 4 and a 2: a re-order is of the ``advanced`` preset)."""


def _no_bots() -> LazyBots:
    return LazyBots()


@dataclass(frozen=True, slots=True, kw_only=True)
class GameHooks:
    """A game's code that the engine, the bots and the adapters call (see the module)."""

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
    card_reading: Lazy[CardReading] | None = None
    """What the game's heuristic reads from the cards, as a learned bot's inputs (a model
    whose ``features`` name it); loaded at first use. ``None``: the game has none."""


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

__all__ = ["Action", "Agent", "BotFactory", "DealInfo", "DescribeAction", "Determinizer", "Event", "Game", "GameAgent",
           "GameHooks", "GameInfo", "GameSpec", "Lazy", "LazyBots", "Match", "MatchEnd", "Observation", "Result",
           "Seat", "Standings", "State", "new_event", "no_teams"]
