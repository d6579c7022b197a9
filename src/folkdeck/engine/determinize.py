"""The determinization kit: what every game's sampler of hidden cards does alike.

A search bot sees one seat's view. To search, it samples *worlds*: full states that
agree with everything the view shows, the cards the seat cannot see dealt again at
random (``docs/bots.md``). Every game's sampler (``games/<g>/determinize.py``) does the
same three things, which live here:

- **the unseen pool**: every card of the pack less what the viewer sees
  (:class:`Pool` for a pack of cards, :func:`unseen_bits` for a pack as a bitmask);
- **a constrained deal** of the pool: given counts to seats (and piles), each seat
  avoiding the kinds it is known not to hold, its void suits (:func:`deal`);
- **the events** of the deal, rebuilt from the view's history (:func:`events_of`).

A game's module then only states its constraints and how it builds a state from the
sampled hands (the state's ``from_view``), as a :class:`Determinization`: what it reads
of a view once (:meth:`Determinization.worlds`), and one world per call of the sampler
that returns. The worlds depend on the view and the ``rng`` only, never on the real
state, so two positions that look the same to the seat give the same worlds.

>>> import random
>>> pool = Pool(["3S", "3H", "4S", "4H", "5S"], kind=lambda c: int(c[0]))
>>> pool.remove(["4S"])
>>> pool.cards()
['3S', '3H', '4H', '5S']
>>> dealt = deal(pool.cards(), {0: 1, 1: 2}, random.Random(1), barred={1: 1 << 3}, kind=lambda c: int(c[0]))
>>> sorted(len(h) for h in dealt.hands.values()), len(dealt.rest)
([1, 2], 1)
>>> any(c.startswith("3") for c in dealt.hands[1])
False
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Final, Generic, TypeVar

from folkdeck.engine.protocol import Determinizer, Event

if TYPE_CHECKING:
    from folkdeck.engine.facts import Fact
    from folkdeck.engine.protocol import Game, State
    from folkdeck.engine.view import View, ViewEvent

T = TypeVar("T")
A = TypeVar("A")
K = TypeVar("K", bound=Hashable)
G = TypeVar("G", bound="Game")
V = TypeVar("V", bound="View")
S = TypeVar("S", bound="State")


class Determinization(Generic[G, V, S]):
    """A game's determinizer: its game and view types, when a view can be searched, and
    ``sampler(game, view)``, which reads the view once and returns the function dealing
    one world per ``rng``. It is the :class:`Determinizer` the game's spec declares; the
    game's own code calls :meth:`determinize` or ``sampler`` with its own types.

    (A plain class, not a generic dataclass: why in :mod:`folkdeck.engine.build`, "Classes".)"""

    __slots__ = ("game_type", "view_type", "searchable", "sampler")

    def __init__(self, game_type: type[G], view_type: type[V], searchable: Callable[[V], bool],
                 sampler: Callable[[G, V], Callable[[random.Random], S]]) -> None:
        self.game_type = game_type
        self.view_type = view_type
        self.searchable = searchable
        self.sampler = sampler

    def __repr__(self) -> str:
        return f"Determinization({self.game_type.__name__}, {self.view_type.__name__})"

    def is_searchable(self, view: View) -> bool:
        return isinstance(view, self.view_type) and self.searchable(view)

    def worlds(self, game: Game, view: View) -> Callable[[random.Random], S]:
        """:meth:`Determinizer.worlds` for this game's game and view types.

        :raises TypeError: for another game's game or view.
        """
        if not isinstance(game, self.game_type) or not isinstance(view, self.view_type):
            raise TypeError(f"a {self.game_type.__name__} and a {self.view_type.__name__} are needed, "
                            f"not {type(game).__name__} and {type(view).__name__}")
        return self.sampler(game, view)

    def determinize(self, game: G, view: V, rng: random.Random) -> S:
        """One world (a search samples many: read the view once with ``sampler``)."""
        return self.sampler(game, view)(rng)


# --- the unseen pool -------------------------------------------------------------------------


class Pool(Generic[T]):
    """The cards a seat has not seen: a pack, less the cards seen, grouped by kind.

    ``kind`` maps a card to a small int (its rank, its kind...): the groups are kept in
    the order of their kinds, each in the pack's order, and :meth:`cards` lists them so,
    which is the order a sampler shuffles. :meth:`remove` takes out the cards seen for
    sure (one copy each: the first in the pack's order); :meth:`take` takes a card known
    only by its kind (a card played earlier whose rank alone is public), the last of its
    group.

    >>> pool = Pool([5, 3, 5, 4, 3], kind=lambda k: k)
    >>> pool.remove([3]); pool.take(5), pool.take(6), pool.cards()
    (5, None, [3, 4, 5])
    """

    __slots__ = ("_kind", "_groups")

    def __init__(self, pack: Iterable[T], kind: Callable[[T], int]) -> None:
        groups: dict[int, list[T]] = {}
        for card in pack:
            groups.setdefault(kind(card), []).append(card)
        self._kind = kind
        self._groups = {k: groups[k] for k in sorted(groups)}

    def remove(self, cards: Iterable[T]) -> None:
        """Take out cards seen for sure.

        :raises ValueError: for a card the pool does not hold (a view that does not fit
            the pack).
        """
        groups = self._groups
        for card in cards:
            group = groups.get(self._kind(card))
            if group is None or card not in group:
                raise ValueError(f"{card} is not among the unseen cards")
            group.remove(card)

    def take(self, kind: int) -> T | None:
        """Take out a card known only by its kind: the last of its group, ``None`` if the
        pool has none of that kind."""
        group = self._groups.get(kind)
        return group.pop() if group else None

    def count(self, kind: int) -> int:
        """The unseen cards of a kind."""
        return len(self._groups.get(kind, ()))

    def cards(self) -> list[T]:
        """Every unseen card: by kind, each kind in the pack's order."""
        return [card for group in self._groups.values() for card in group]

    def copy(self) -> Pool[T]:
        """An independent copy (a world takes cards from its own)."""
        new = Pool((), self._kind)
        new._groups = {k: list(group) for k, group in self._groups.items()}
        return new

    def __len__(self) -> int:
        return sum(len(group) for group in self._groups.values())


def unseen_bits(full: int, seen: int) -> list[int]:
    """The unseen cards of a pack held as a bitmask (bit ``i``: card ``i``): the indices of
    ``full`` less ``seen``, lowest first.

    >>> unseen_bits(0b11111, 0b00101)
    [1, 3, 4]
    """
    left = full & ~seen
    out = []
    while left:
        low = left & -left
        out.append(low.bit_length() - 1)
        left ^= low
    return out


def to_mask(indices: Iterable[int]) -> int:
    """The bitmask of card indices (:func:`unseen_bits`'s inverse).

    >>> to_mask([1, 3, 4]) == 0b11010
    True
    """
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


# --- the constrained deal ----------------------------------------------------------------------


class Dealt(Generic[K, T]):
    """A deal of the pool: each seat's (or pile's) cards, and the cards left over."""

    __slots__ = ("hands", "rest")

    def __init__(self, hands: dict[K, list[T]], rest: list[T]) -> None:
        self.hands = hands
        self.rest = rest

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dealt) and self.hands == other.hands and self.rest == other.rest

    def __repr__(self) -> str:
        return f"Dealt(hands={self.hands!r}, rest={self.rest!r})"


TRIES: Final = 64
"""Shuffles :func:`deal` tries before it gives up the constraints (they can always be met
for a real position; a study position might not)."""


def deal(pool: Sequence[T], counts: Mapping[K, int], rng: random.Random, *,
         barred: Mapping[K, int] | None = None, kind: Callable[[T], int] | None = None,
         tries: int = TRIES) -> Dealt[K, T]:
    """Shuffle the pool and deal ``counts[k]`` of its cards to each ``k`` (a seat, or a
    pile the game names), the rest left over.

    The pool is shuffled once (``rng.shuffle`` of a copy), then each ``k`` takes, in
    ``counts``' order, the first cards it may hold: with ``barred[k]`` a bitmask of the
    kinds ``k`` is known not to hold (``kind(card)``: bit ``kind`` set means barred,
    Cangkul's void suits), the most barred first (the order of ``counts`` among equals).
    When a shuffle leaves some seat short, the deal is shuffled again, up to ``tries``
    times; then the constraints are dropped (one more shuffle, dealt as it comes). Without
    ``barred`` a deal is one shuffle, ``counts`` taking consecutive slices.

    :raises ValueError: when the pool is smaller than the counts.
    """
    need = sum(counts.values())
    if need > len(pool):
        raise ValueError(f"a deal of {need} cards from a pool of {len(pool)}")
    bars = {k: barred.get(k, 0) for k in counts} if barred else {}
    order = sorted(counts, key=lambda k: -bars.get(k, 0).bit_count())
    if not any(bars.values()):
        return _deal_as_it_comes(pool, counts, order, rng)
    if kind is None:
        raise ValueError("a deal with barred kinds needs the cards' kind")
    for _ in range(tries):
        cards = list(pool)
        rng.shuffle(cards)
        hands: dict[K, list[T]] = {}
        for k in order:
            n, bar = counts[k], bars[k]
            if not bar:
                hands[k], cards = cards[:n], cards[n:]
                continue
            take: list[T] = []
            keep: list[T] = []
            for card in cards:
                if len(take) < n and not bar >> kind(card) & 1:
                    take.append(card)
                else:
                    keep.append(card)
            if len(take) < n:
                break
            hands[k], cards = take, keep
        else:
            return Dealt({k: hands[k] for k in counts}, cards)
    return _deal_as_it_comes(pool, counts, order, rng)


def _deal_as_it_comes(pool: Sequence[T], counts: Mapping[K, int], order: Sequence[K],
                      rng: random.Random) -> Dealt[K, T]:
    cards = list(pool)
    rng.shuffle(cards)
    hands: dict[K, list[T]] = {}
    at = 0
    for k in order:
        hands[k] = cards[at:at + counts[k]]
        at += counts[k]
    return Dealt({k: hands[k] for k in counts}, cards[at:])


# --- events from a view's history -------------------------------------------------------------


def events_of(history: Iterable[ViewEvent], action_of: Callable[[Fact], A]) -> tuple[Event, ...]:
    """The events a world rebuilt from a view holds: each view event's seat, its action
    read back from its typed ``act`` fact by the game's ``action_of``, and its facts as
    the view shows them (censored for the viewer). No text is parsed.

    :raises ValueError: for an event whose action the view does not give (no ``act``).
    """
    out = []
    for seen in history:
        if seen.act is None:
            raise ValueError(f"event {seen.index} of the view has no action fact")
        out.append(Event(seen.seat, action_of(seen.act), seen.facts))
    return tuple(out)


__all__ = ["TRIES", "Dealt", "Determinization", "Determinizer", "Pool", "deal",
           "events_of", "to_mask", "unseen_bits"]
