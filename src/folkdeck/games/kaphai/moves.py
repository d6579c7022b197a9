"""The move generator's table: a hand's combinations by shape, sorted for answering,
built lazily.

A follower needs only the shape on the table (and the bombs that cut it); only a
leader needs every combination. So a table makes one shape's list when it is first
asked for, and the full list only for a lead. When a hand plays, the state asks for
``table.without(cards)``: the new table filters the lists its parent had already made
(cheaper than building them again) and builds the others from the smaller hand.

Tables are never changed in ways a reader can see (their lists are memos of a fixed
hand), so clones of a state share them.
"""

from __future__ import annotations

from bisect import bisect_right
from operator import attrgetter
from typing import Final

from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import KIND_SINGLE, Combo, Kind, cuts, cutting_shapes
from folkdeck.games.kaphai.shapes import hand_shapes, shape_combos, tong_farsons

Shape = tuple[Kind, int]
"""``(kind, size)``: plays answer plays of the same shape (bombs aside)."""

_NONE: Final[list[Combo]] = []  # the shared empty list (never appended to)


class MoveTable:
    """The combinations of ``hand`` by shape, each list sorted by key (equal keys in
    generation order), made on first use and kept.

    >>> from folkdeck.games.kaphai.rules import RULES, mask
    >>> table = MoveTable.of(mask("3S 3C 4D 5H 6H 6S"), RULES)
    >>> [str(c) for c in table.above(SINGLE, 1)]   # above 3C (card index 1)
    ['4D', '5H', '6S', '6H']
    >>> smaller = table.without(mask("3C"))
    >>> [str(c) for c in smaller.group(SINGLE)], [str(c) for c in smaller.group(PAIR)]
    (['3S', '4D', '5H', '6S', '6H'], ['6S 6H'])
    >>> smaller.flat() == MoveTable.of(mask("3S 4D 5H 6H 6S"), RULES).flat()
    True
    """

    __slots__ = ("hand", "rules", "_groups", "_full", "_base", "_flat", "_keys", "_bombs")

    def __init__(self, hand: int, rules: KapHaiOptions, base: MoveTable | None = None) -> None:
        self.hand = hand
        self.rules = rules
        self._groups: dict[Shape, list[Combo]] = {}
        self._full: dict[Shape, list[Combo]] | None = None
        """Every shape present, in shape order: made for a lead."""
        self._base = base
        """A table of a larger hand whose lists this one filters (dropped once full)."""
        self._flat: tuple[Combo, ...] | None = None
        self._keys: dict[Shape, list[int]] = {}
        self._bombs: dict[int, list[Combo]] = {}

    @classmethod
    def of(cls, hand: int, rules: KapHaiOptions) -> MoveTable:
        return cls(hand, rules)

    def without(self, m: int) -> MoveTable:
        """The table of this hand less the cards ``m``."""
        base = self if self._full is not None or self._groups else self._base
        return MoveTable(self.hand & ~m, self.rules, base)

    def _nearest(self, flat: bool) -> MoveTable | None:
        """The nearest older table of this seat that made its flat list (``flat``) or its
        table of every shape: what a lead's list is filtered from."""
        base = self._base
        while base is not None and (base._flat if flat else base._full) is None:
            base = base._base
        return base

    def group(self, shape: Shape) -> list[Combo]:
        """The combinations of one shape, by key."""
        got = self._groups.get(shape)
        if got is not None:
            return got
        full = self._full
        if full is not None:
            got = full.get(shape, _NONE)
        else:
            # The nearest older table that made this list: filter out the cards played
            # since. Else build it from this hand.
            base = self._base
            while base is not None:
                made = base._full.get(shape, _NONE) if base._full is not None else base._groups.get(shape)
                if made is not None:
                    gone = base.hand & ~self.hand
                    got = [c for c in made if not c.mask & gone] if gone and made else made
                    break
                base = base._base
            else:
                got = shape_combos(self.hand, shape[0], shape[1], self.rules)
                if len(got) > 1 and shape[0] is not KIND_SINGLE:
                    got.sort(key=KEY)  # stable: equal keys keep the generation order
        self._groups[shape] = got
        return got

    def shapes(self) -> dict[Shape, list[Combo]]:
        """Every shape the hand forms, in shape order (kind, then size), each by key."""
        full = self._full
        if full is None:
            base = self._nearest(flat=False)
            if base is not None and base._full is not None:
                gone = base.hand & ~self.hand
                full = {}
                for shape, cs in base._full.items():
                    kept = [c for c in cs if not c.mask & gone]
                    if kept:
                        full[shape] = kept
            else:
                # hand_shapes already leaves out what the options forbid (see allowed()).
                made = hand_shapes(self.hand, self.rules)
                for shape, cs in made.items():
                    if len(cs) > 1 and shape[0] != KIND_SINGLE:
                        cs.sort(key=KEY)  # stable: equal keys keep the generation order
                full = dict(sorted(made.items()))
            self._full = full
            self._base = None  # nothing more to filter from: let the older tables go
        return full

    def flat(self) -> tuple[Combo, ...]:
        """Every combination, by shape then key: the leader's choices (the nearest older
        table's list less the cards played since, when there is one)."""
        flat = self._flat
        if flat is None:
            base = self._nearest(flat=True)
            if base is not None and base._flat is not None:
                gone = base.hand & ~self.hand
                flat = tuple([c for c in base._flat if not c.mask & gone])
            else:
                flat = tuple(c for cs in self.shapes().values() for c in cs)
            self._flat = flat
        return flat

    def above(self, shape: Shape, key: int) -> list[Combo]:
        """The combinations of ``shape`` with a key above ``key``."""
        cs = self.group(shape)
        if not cs:
            return cs
        keys = self._keys.get(shape)
        if keys is None:
            keys = self._keys[shape] = [c.key for c in cs]
        return cs[bisect_right(keys, key):]

    def bombs(self, kind: Kind) -> list[Combo]:
        """The plays that cut any play of ``kind``: the hand's plays of the rules'
        :func:`~folkdeck.games.kaphai.rules.cutting_shapes` that
        :func:`~folkdeck.games.kaphai.rules.cuts` accepts (docs/rules/kaphai.md §3.3), shape by shape."""
        found = self._bombs.get(kind)
        if found is None:
            found = self._bombs[kind] = []
            for shape in cutting_shapes(kind):
                # Of the 5-card straights only the one-suit ones can cut (tong-farsons):
                # unless every shape is made already, they are made alone, which is cheaper
                # than every 5-card straight of the hand.
                made = (tong_farsons(self.hand) if shape == FIVE_STRAIGHT and self._full is None
                        else self.group(shape))
                if made:  # most hands hold none: skip the comprehension (a call) for them
                    found += [c for c in made if cuts(c, kind)]
        return found


KARE: Final[Shape] = (Kind.KARE, 4)
FIVE_STRAIGHT: Final[Shape] = (Kind.STRAIGHT, 5)
PAE_KARE: Final[Shape] = (Kind.PAIR_RUN, 8)
PAIR: Final[Shape] = (Kind.PAIR, 2)
SINGLE: Final[Shape] = (Kind.SINGLE, 1)
TRIPLE: Final[Shape] = (Kind.TRIPLE, 3)
KEY: Final = attrgetter("key")


__all__ = ["FIVE_STRAIGHT", "KARE", "KEY", "PAE_KARE", "PAIR", "SINGLE", "TRIPLE", "MoveTable", "Shape"]
