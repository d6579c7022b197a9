"""What a game declares about itself that names no game object: the words every signature
uses (:data:`Seat`, :data:`Action`), its static description (:class:`GameInfo`), its bots
(:class:`Agent`, a :class:`LazyBots` table) and the :class:`Lazy` hooks.

These sit below :mod:`folkdeck.engine.protocol`, whose ``Game`` and ``GameSpec`` refer to each
other and to them; :mod:`folkdeck.engine.spec` gathers a game's whole declaration (read
it there: this module is its lower half, split off so that the imports point one way).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeAlias, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from folkdeck.engine.facts import Fact
    from folkdeck.engine.view import View

Seat: TypeAlias = int
"""A seat number, 0-based, in turn order (``seat + 1`` plays next in every game)."""

Action: TypeAlias = Any
"""A game's action: a frozen, hashable value whose ``str()`` is the record grammar.

Typed ``Any`` at the protocol level so that each game's state can take its own
action types (parameters are contravariant: a narrower type would not match)."""


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


runtime_checkable(Agent)  # a call, not a decorator (why: folkdeck.engine.build, "Protocols")

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


__all__ = ["Action", "Agent", "BotFactory", "DescribeAction", "GameAgent", "GameInfo", "Lazy", "LazyBots",
           "MatchEnd", "Seat", "no_teams"]
