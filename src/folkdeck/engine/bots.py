"""A game's bots as the engine types them, without importing any: the :class:`Agent`
protocol, the factories of a game's bot table (:class:`LazyBots`) and :class:`Lazy`, a
hook made at first use (the bots, a game's determinizer: ``GameHooks`` in
:mod:`folkdeck.engine.protocol`), so that ``import folkdeck`` loads no bot and no search code;
and :class:`CardReading`, what a game's own knowledge reads from the cards for a learned bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar, runtime_checkable

from folkdeck.engine.values import Action

if TYPE_CHECKING:
    from folkdeck.cards import Card
    from folkdeck.engine.view import View

T = TypeVar("T")
ViewT_contra = TypeVar("ViewT_contra", bound="View", contravariant=True)
ActionT = TypeVar("ActionT", bound=Action)


class Agent(Protocol[ViewT_contra, ActionT]):
    """A bot: a seat's view and its legal actions in, one of them out (a ``name`` too).

    ``Agent[GouJiView, GouJiAction]`` plays Gou Ji only; ``Agent[View, Action]`` (a random
    bot) plays any game. Re-exported as :class:`folkdeck.agents.Agent`, where the bots live;
    declared here so that a game's bot table is typed without the engine importing any bot."""

    name: str

    def act(self, observation: ViewT_contra, legal_actions: Sequence[ActionT],
            rng: random.Random) -> ActionT:
        """Choose one of ``legal_actions`` (never empty)."""
        ...


runtime_checkable(Agent)  # a call after the class (why: folkdeck.engine.build, "Protocols")

GameAgent: TypeAlias = "Agent[Any, Any]"
"""A bot of some game, as the runner, the arena and the search hold it: its view and action
types are its game's, known to the game only (a table of bots is keyed by name); it is
given the views and the legal actions of its game's states, and what it chooses goes back
to ``State.apply``, which takes any :class:`~folkdeck.engine.values.Action`."""
BotFactory: TypeAlias = "Callable[[], GameAgent]"
"""Makes a new bot (a class of bots is one) for the game whose table lists it."""


def offer_interrupt(agent: GameAgent, observation: View, legal: Sequence[Action],
                    rng: random.Random) -> Action | None:
    """What ``agent`` does with an out-of-turn right (its ``interrupt``), ``None`` (it lets
    play go on) for a bot without one: the answer of a bot that leaves its offers to another."""
    handler = getattr(agent, "interrupt", None)
    if handler is None:
        return None
    action: Action | None = handler(observation, legal, rng)
    return action


class CardReading(Protocol):
    """What a game's heuristic knows how to read from the cards, as numbers: the inputs a
    learned bot's network takes from the game (``GameHooks.card_reading``;
    :class:`~folkdeck.agents.features.ReadingColumns`) where a network would learn them
    poorly from the cards alone (Kap Hai's: the plays a hand needs to go out, and which of
    them no unseen cards can beat).

    Its arguments are card multisets, each in any order, so that the training data (arrays
    of card counts) and a live view give it the same numbers.
    """

    @property
    def names(self) -> tuple[str, ...]:
        """One name per number :meth:`read` returns (a model keeps them: a model trained on
        another reading does not fit)."""
        ...

    @property
    def out_of_play(self) -> tuple[str, ...]:
        """The fields of the game's view whose cards are out of play for good (Kap Hai's
        ``played`` and ``shed``): what :meth:`read`'s ``unseen`` excludes besides the hand.
        Empty: the cards the view's history shows played."""
        ...

    def read(self, hand: Sequence[Card], unseen: Sequence[Card], play: Sequence[Card]) -> Sequence[float]:
        """The numbers for playing ``play`` (no cards: a pass or a word) from ``hand``, the
        cards the seat has not seen being ``unseen`` (in the other hands, or undealt)."""
        ...


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


__all__ = ["Agent", "BotFactory", "CardReading", "GameAgent", "Lazy", "LazyBots", "offer_interrupt"]
