"""What a game declares about itself: a static description and typed hooks.

The split follows OpenSpiel's ``_GAME_TYPE``/``_GAME_INFO`` and its game class:

- :class:`GameInfo` is the static description, plain data that every lobby, terminal
  and arena may read without loading any of the game's code beyond its rules: the name,
  the seats, the options type and presets, the card notation, the teams, the windows,
  how a match ends, the glossary...
- :class:`GameHooks` is the game's code that the engine and the adapters call: ``make``
  (the game object from its options), ``describe_action`` and ``view_type`` (part of the
  rules, imported with them anyway), and the hooks that load much more than the rules,
  which are therefore loaded at first use: the ``bots`` (a :class:`LazyBots`) and the
  ``determinizer`` (a :class:`Lazy` of a
  :class:`~folkdeck.engine.determinize.Determinizer`), so that ``import folkdeck`` loads
  no bot and no search code.

:class:`GameSpec` is both: the static fields are its own (``spec.name``,
``spec.windows``...), the hooks are ``spec.hooks`` and read through properties
(``spec.bots``, ``spec.determinizer``, ``spec.describe_action``...).

>>> import folkdeck
>>> spec = folkdeck.get_spec("kaphai")
>>> spec.name, spec.windows, spec.hooks.determinizer is not None
('kaphai', ('putuh',), True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeAlias, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from folkdeck.engine.determinize import Determinizer
    from folkdeck.engine.facts import Fact
    from folkdeck.engine.protocol import Action, Game, Seat
    from folkdeck.engine.view import View

T = TypeVar("T")
ViewT_contra = TypeVar("ViewT_contra", bound="View", contravariant=True)


class Agent(Protocol[ViewT_contra]):
    """A bot: a seat's view and its legal actions in, one action out (a ``name`` too).

    ``Agent[GouJiView]`` reads Gou Ji's views only; ``Agent[View]`` (a random bot) reads
    any game's. Re-exported as :class:`folkdeck.agents.Agent`, where the bots live;
    declared here so that a game's bot table is typed without the engine importing any bot."""

    name: str

    def act(self, observation: ViewT_contra, legal_actions: Sequence[Action],
            rng: random.Random) -> Action:
        """Choose one of ``legal_actions`` (never empty)."""
        ...


runtime_checkable(Agent)  # a call, not a decorator: see folkdeck.engine.protocol (mypyc)

GameAgent: TypeAlias = "Agent[Any]"
"""A bot of some game, as the runner, the arena and the search hold it: its view type is
its game's, known to the game only (a table of bots is keyed by name)."""
BotFactory: TypeAlias = "Callable[[], GameAgent]"
"""Makes a new bot (a class of bots is one) for the game whose table lists it."""
DescribeAction: TypeAlias = "Callable[[Seat, Action], Fact]"
"""The action itself as a fact (``played``, ``passed``...), for histories and text."""


class Lazy(Generic[T]):
    """A hook's value, made by ``load`` at first use and kept.

    >>> hook = Lazy(lambda: print("loading") or 42)
    >>> hook.loaded
    False
    >>> hook.get()
    loading
    42
    >>> hook.get(), hook.loaded
    (42, True)
    """

    __slots__ = ("_load", "_value")

    def __init__(self, load: Callable[[], T]) -> None:
        self._load = load
        self._value: list[T] = []

    def get(self) -> T:
        """The value, loaded now if it was not yet."""
        if not self._value:
            self._value.append(self._load())
        return self._value[0]

    @property
    def loaded(self) -> bool:
        return bool(self._value)


class LazyBots(Mapping[str, BotFactory]):
    """A game's bot factories, built at first use so that ``import folkdeck`` loads no
    bot (search bots import much more than the rules).

    :meth:`add` offers more bots (an adapter's: ``import folkdeck.rl.openspiel`` adds
    ``openspiel-ismcts``) without loading the game's own."""

    __slots__ = ("_load", "_table", "_added")

    def __init__(self, load: Callable[[], Mapping[str, BotFactory]] | None = None) -> None:
        self._load = load
        self._table: dict[str, BotFactory] | None = None
        self._added: dict[str, BotFactory] = {}

    def _bots(self) -> dict[str, BotFactory]:
        table = self._table
        if table is None:
            table = dict(self._load()) if self._load is not None else {}
            for name, factory in self._added.items():
                table.setdefault(name, factory)
            self._table = table
        return table

    def add(self, factories: Mapping[str, BotFactory]) -> None:
        """Offer more bots under new names (a name the game has is kept as the game's)."""
        for name, factory in factories.items():
            self._added.setdefault(name, factory)
            if self._table is not None:
                self._table.setdefault(name, factory)

    def __getitem__(self, key: str) -> BotFactory:
        return self._bots()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._bots())

    def __len__(self) -> int:
        return len(self._bots())


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
    options_type: type[Any]
    """The game's frozen options dataclass (:mod:`folkdeck.engine.options`)."""
    presets: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    summary: str = ""
    rules_doc: str = ""
    default_bot: str = "greedy"
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
    def determinizer(self) -> Determinizer | None:
        """The game's determinizer (loaded now if it was not yet), or ``None``."""
        hook = self.hooks.determinizer
        return hook.get() if hook is not None else None


__all__ = ["Agent", "BotFactory", "DescribeAction", "GameAgent", "GameHooks", "GameInfo", "GameSpec", "Lazy",
           "LazyBots", "MatchEnd", "no_teams"]
