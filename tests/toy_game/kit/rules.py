"""What a simple trick game is made of: its rules as plain data and functions
(:class:`TrickRules`), and the one record of a deal's data (:class:`TrickDeal`).

A game of this kind deals ``hand_size`` cards of one pack to each seat (the rest stay
face down); in turn, starting with the leader, each seat plays one card to the trick;
when every seat has played, the trick's winner takes it and leads the next; when the
hands are empty the deal is scored from the tricks won. The game gives the pieces that
make it itself, by composition: the pack, the order of its cards, who wins a trick,
which cards may be played (following suit...), the setup it takes, how tricks score,
what carries from deal to deal.

>>> from folkdeck.cards import FRENCH_52, parse_cards
>>> rules = TrickRules(pack=FRENCH_52, hand_size=5, strength=FRENCH_52.cards.index,
...                    winner=highest(FRENCH_52.cards.index))
>>> rules.winner([(0, parse_cards("KS")[0]), (1, parse_cards("AS")[0])])
1
>>> most_tricks([2, 0, 2])
Result(placings=(1, 3, 1), returns=(2.0, 0.0, 2.0), reason='most_tricks', details={})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol, TypeAlias, final

from folkdeck.cards import Card, Pack
from folkdeck.engine.match_base import CarryOver
from folkdeck.engine.protocol import Event, Game, Result
from folkdeck.engine.state_base import DealCore

TrickPlays: TypeAlias = Sequence[tuple[int, Card]]
"""A trick's plays so far, in order: ``(seat, card)``."""

LEADER: Final = "leader"
"""The setup key of the seat leading the first trick (the default setup)."""


def any_card(hand: Sequence[Card], trick: TrickPlays) -> Sequence[Card]:
    """Every card of the hand may be played (the default of :attr:`TrickRules.playable`)."""
    return hand


def highest(strength: Callable[[Card], int]) -> Callable[[TrickPlays], int]:
    """The trick rule "the strongest card wins", by ``strength``: the seat that played it."""

    def winner(trick: TrickPlays) -> int:
        return max(trick, key=lambda play: strength(play[1]))[0]

    return winner


def most_tricks(tricks: Sequence[int]) -> Result:
    """Each seat placed by the tricks it won (1 = most; equal counts share a place), each
    trick a point (the default of :attr:`TrickRules.score`)."""
    placings = tuple(1 + sum(1 for other in tricks if other > mine) for mine in tricks)
    return Result(placings=placings, returns=tuple(float(t) for t in tricks), reason="most_tricks")


def setup_leader(setup: Mapping[str, int]) -> int:
    """The first leader: the setup's ``leader`` (the default of :attr:`TrickRules.first`)."""
    return setup.get(LEADER, 0)


def _lead_setup() -> dict[str, int]:
    return {LEADER: 0}


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickRules:
    """A simple trick game's rules, as data and functions the game gives."""

    pack: Pack
    hand_size: int
    """Cards dealt to each seat; the rest of the pack stays face down."""
    strength: Callable[[Card], int]
    """Each card's place in the pack's order (hands and views list cards by it)."""
    winner: Callable[[TrickPlays], int]
    """The seat winning a trick (so far: a view's ``top``; once full, it takes it)."""
    playable: Callable[[Sequence[Card], TrickPlays], Sequence[Card]] = any_card
    """The cards of a hand that may go to the trick (a rule to follow suit goes here)."""
    setup: Mapping[str, int] = field(default_factory=_lead_setup)
    """The keys a deal's ``setup`` takes, each a seat, with their defaults."""
    first: Callable[[Mapping[str, int]], int] = setup_leader
    """The seat leading the first trick, from the setup."""
    score: Callable[[Sequence[int]], Result] = most_tricks
    """The deal's result from the tricks each seat won."""
    carry: Callable[[], CarryOver] = CarryOver
    """A new match's :class:`CarryOver` (default: nothing carries, the returns add up)."""


class TrickGameLike(Game, Protocol):
    """The game as a deal reads it: a :class:`~folkdeck.engine.protocol.Game` played by
    :class:`TrickRules` (:class:`~tests.toy_game.kit.game.TrickGame` is one). The state
    takes this, so that it need not import the game module, which makes it."""

    @property
    def rules(self) -> TrickRules: ...


@final
@dataclass(slots=True)
class TrickDeal(DealCore):
    """Everything of a trick deal that play changes, and how it began."""

    start: tuple[tuple[Card, ...], ...]
    """Each seat's dealt hand (the record's ``hands``)."""
    undealt: tuple[Card, ...]
    """The cards left face down."""
    setup: dict[str, int]
    """The deal's setup (the record's ``setup``), public."""
    hands: list[list[Card]]
    turn: int
    trick: list[tuple[int, Card]]
    """The current trick's plays, in order."""
    won: list[Card]
    """The cards of the finished tricks, in the order played."""
    tricks: list[int]
    """Tricks won by each seat."""
    phase: str
    history: list[Event]
    result: Result | None = None

    def copy(self) -> TrickDeal:
        """A copy sharing no container with this deal."""
        return TrickDeal(self.start, self.undealt, dict(self.setup), [list(h) for h in self.hands], self.turn,
                         list(self.trick), list(self.won), list(self.tricks), self.phase, list(self.history),
                         self.result)


def new_deal(hands: Sequence[Sequence[Card]], undealt: Sequence[Card], setup: Mapping[str, int],
             leader: int) -> TrickDeal:
    """A deal's data before the first card, ``leader`` to play."""
    return TrickDeal(start=tuple(tuple(h) for h in hands), undealt=tuple(undealt), setup=dict(setup),
                     hands=[list(h) for h in hands], turn=leader, trick=[], won=[], tricks=[0] * len(hands),
                     phase="play", history=[])


__all__ = ["LEADER", "TrickDeal", "TrickGameLike", "TrickPlays", "TrickRules", "any_card", "highest", "most_tricks", "new_deal",
           "setup_leader"]
