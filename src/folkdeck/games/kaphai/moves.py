"""The move generator's table: a hand's combinations by shape, sorted for answering.

The state keeps one table per seat and replaces it (never mutates it) when the hand
plays, so clones share the tables.
"""

from __future__ import annotations

from bisect import bisect_right
from operator import attrgetter

from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import Combo, Kind, hand_combos

Shape = tuple[int, int]
"""``(kind, size)``: plays answer plays of the same shape (bombs aside)."""


class MoveTable:
    """A hand's combinations by shape, each list sorted by key: the move generator's
    precomputed table. Replaced (never mutated) when the hand plays, so clones share it;
    the key lists and bomb lists are derived on first use and kept."""

    __slots__ = ("shapes", "_flat", "_keys", "_bombs")

    def __init__(self, shapes: dict[Shape, list[Combo]]) -> None:
        self.shapes = shapes
        self._flat: tuple[Combo, ...] | None = None
        self._keys: dict[Shape, list[int]] = {}
        self._bombs: dict[int, list[Combo]] = {}

    @classmethod
    def of(cls, hand: int, rules: KapHaiOptions) -> MoveTable:
        # hand_combos already leaves out what the options forbid (see allowed()).
        groups: dict[Shape, list[Combo]] = {}
        for c in hand_combos(hand, rules):
            shape = (c.kind, c.size)
            group = groups.get(shape)
            if group is None:
                groups[shape] = [c]
            else:
                group.append(c)
        for cs in groups.values():
            cs.sort(key=KEY)  # stable: equal keys keep the generation order
        return cls(dict(sorted(groups.items())))

    def without(self, m: int) -> MoveTable:
        shapes = {}
        for shape, cs in self.shapes.items():
            kept = [c for c in cs if not c.mask & m]
            if kept:
                shapes[shape] = kept
        return MoveTable(shapes)

    def flat(self) -> tuple[Combo, ...]:
        """Every combination, by shape then key: the leader's choices."""
        if self._flat is None:
            self._flat = tuple(c for cs in self.shapes.values() for c in cs)
        return self._flat

    def above(self, shape: Shape, key: int) -> list[Combo]:
        """The combinations of ``shape`` with a key above ``key``."""
        cs = self.shapes.get(shape)
        if not cs:
            return []
        keys = self._keys.get(shape)
        if keys is None:
            keys = self._keys[shape] = [c.key for c in cs]
        return cs[bisect_right(keys, key):]

    def bombs(self, kind: int) -> list[Combo]:
        """The plays that cut any play of ``kind`` (docs/rules/kaphai.md §3.3): kares and tong-farsons
        cut singles, tong-farsons cut kares, pae-kare cuts pairs."""
        found = self._bombs.get(kind)
        if found is None:
            shapes = self.shapes
            tong = [c for c in shapes.get(FIVE_STRAIGHT, ()) if c.flush]
            found = self._bombs[kind] = (
                [*shapes.get(KARE, ()), *tong] if kind == Kind.SINGLE else
                tong if kind == Kind.KARE else
                list(shapes.get(PAE_KARE, ())) if kind == Kind.PAIR else [])
        return found


KARE: Shape = (Kind.KARE, 4)
FIVE_STRAIGHT: Shape = (Kind.STRAIGHT, 5)
PAE_KARE: Shape = (Kind.PAIR_RUN, 8)
SINGLE: Shape = (Kind.SINGLE, 1)
TRIPLE: Shape = (Kind.TRIPLE, 3)
KEY = attrgetter("key")


__all__ = ["FIVE_STRAIGHT", "KARE", "KEY", "PAE_KARE", "SINGLE", "TRIPLE", "MoveTable", "Shape"]
