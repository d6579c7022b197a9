"""The combinations a Kap Hai hand can form, shape by shape (docs/rules/kaphai.md §3.1):
what the move tables (:mod:`~folkdeck.games.kaphai.moves`) are built from.

A shape is ``(kind, size)``; the combinations of a shape are made once per mask and
shared (:func:`~folkdeck.games.kaphai.rules.classify`'s memo). Ranks are walked as bit
sets: bit ``4r`` of a rank set stands for rank ``r``.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import (
    _COMBOS,
    KIND_DOUBLE_TRIPLE,
    KIND_KARE,
    KIND_PAIR,
    KIND_PAIR_RUN,
    KIND_POLU,
    KIND_SINGLE,
    KIND_STRAIGHT,
    KIND_TRIPLE,
    SUIT_MASKS,
    TWO,
    Combo,
    Kind,
    top_index,
)

Shapes = dict[tuple[Kind, int], list[Combo]]
"""Combinations by shape ``(kind, size)``."""

# _SUBSETS[suits][k]: the k-card subsets of a 4-bit set of suits, as 4-bit masks.
_SUBSETS: Final[tuple[tuple[list[int], ...], ...]] = tuple(
    tuple([sum(c) for c in combinations([b for b in (1, 2, 4, 8) if pattern & b], k)] if k else []
          for k in range(5))
    for pattern in range(16))


def _straight(m: int, size: int) -> Combo:
    """The shared :class:`Combo` of a straight's mask (a police when its cards share a suit)."""
    top = top_index(m)
    return _combo(m, KIND_STRAIGHT, size, top, m & SUIT_MASKS[top & 3] == m)


def _combo(m: int, kind: Kind, size: int, key: int, flush: bool = False) -> Combo:
    """The shared :class:`Combo` of a mask whose shape the caller already knows."""
    combo = _COMBOS.get(m)
    if combo is None:
        combo = Combo(m, kind, size, key, flush)
        _COMBOS[m] = combo
    return combo


def hand_combos(hand: int, rules: KapHaiOptions) -> list[Combo]:
    """Every combination that can be formed from ``hand`` that the options allow, shape by
    shape (kind, then size), each shape in generation order (:func:`hand_shapes`).

    >>> from folkdeck.games.kaphai.rules import RULES, mask
    >>> [str(c) for c in hand_combos(mask("3S 3C 4D 5H"), RULES)]
    ['3S', '3C', '4D', '5H', '3S 3C', '3S 4D 5H', '3C 4D 5H']
    """
    groups = hand_shapes(hand, rules)
    return [c for shape in sorted(groups) for c in groups[shape]]


def hand_shapes(hand: int, rules: KapHaiOptions) -> Shapes:
    """:func:`hand_combos` grouped by shape ``(kind, size)``, each group in generation
    order (not yet sorted by key): a leader's move table, built without a second pass.

    >>> from folkdeck.games.kaphai.rules import RULES, mask
    >>> h = mask("3S 3C 4D 4H 5H 5S 5C 6S")
    >>> groups = hand_shapes(h, RULES)
    >>> all(cs == [c for c in hand_combos(h, RULES) if (c.kind, c.size) == shape]
    ...     for shape, cs in groups.items())
    True
    >>> sum(map(len, groups.values())) == len(hand_combos(h, RULES))
    True
    """
    if len(_COMBOS) > 1 << 20:  # bound the memo in very long simulations
        _COMBOS.clear()
    out: Shapes = {}
    sets = _rank_sets(hand)
    singles = shape_combos(hand, KIND_SINGLE, 1, rules)
    if singles:
        out[(KIND_SINGLE, 1)] = singles
    get = _COMBOS.get
    for k, kind in ((2, KIND_PAIR), (3, KIND_TRIPLE), (4, KIND_KARE)):
        group = []
        for r in range(13):
            for m in sets[k][r]:
                c = get(m)
                group.append(c if c is not None else
                             _combo(m, kind, k, -1 if k == 3 and r == TWO else top_index(m)))
        if group:
            out[(kind, k)] = group
    _add_straights(out, hand, sets[1])
    _add_rank_runs(out, sets, rules)
    return out


def _rank_sets(hand: int) -> list[list[list[int]]]:
    """``sets[k][r]``: the masks of ``k`` cards of rank ``r`` in ``hand`` (empty where the
    rank has fewer; ``sets[0]`` is empty)."""
    sets: list[list[list[int]]] = [[]]
    for k in range(1, 5):
        row: list[list[int]] = [_NO_SETS] * 13
        ranks = _ranks_holding(hand, k)
        while ranks:
            low = ranks & -ranks
            r = low.bit_length() >> 2
            row[r] = [x << (4 * r) for x in _SUBSETS[hand >> (4 * r) & 0xF][k]]
            ranks ^= low
        sets.append(row)
    return sets


def _add_straights(out: Shapes, hand: int, per_rank: list[list[int]]) -> None:
    """Straights: 3+ consecutive ranks below 2, any suits, from each start of such a run."""
    get = _COMBOS.get
    for start in _runs(_ranks_holding(hand, 1), 3, TWO - 2):
        partial = [p | b for p in per_rank[start] for b in per_rank[start + 1]]
        length = 2
        r = start + 2
        while r < TWO and per_rank[r]:
            partial = [p | b for p in partial for b in per_rank[r]]
            length += 1
            out.setdefault((KIND_STRAIGHT, length), []).extend(
                [get(p) or _straight(p, length) for p in partial])
            r += 1


def _add_rank_runs(out: Shapes, sets: list[list[list[int]]], rules: KapHaiOptions) -> None:
    """Pair runs, polu and double triples: pairs/triples on consecutive ranks."""
    last = TWO if rules.twos_in_pair_runs else TWO - 1
    for start in range(last):
        partial = sets[2][start]
        r = start + 1
        while partial and r <= last and sets[2][r]:
            partial = [p | q for p in partial for q in sets[2][r]]
            size = 2 * (r - start + 1)
            out.setdefault((KIND_PAIR_RUN, size), []).extend(
                _combo(p, KIND_PAIR_RUN, size, top_index(p)) for p in partial)
            r += 1
        nxt = start + 1
        for low_k, high_k in ((2, 3), (3, 2)):
            for p in sets[low_k][start]:
                for q in sets[high_k][nxt]:
                    out.setdefault((KIND_POLU, 5), []).append(_combo(p | q, KIND_POLU, 5, nxt))
        if rules.allow_double_triple:
            for p in sets[3][start]:
                for q in sets[3][nxt]:
                    out.setdefault((KIND_DOUBLE_TRIPLE, 6), []).append(_combo(p | q, KIND_DOUBLE_TRIPLE, 6, nxt))


_NO_SETS: Final[list[int]] = []  # shared, never appended to


def shape_combos(hand: int, kind: Kind, size: int, rules: KapHaiOptions) -> list[Combo]:
    """The combinations of one shape in ``hand``, in :func:`hand_shapes`' order: what a
    follower needs, without building every other shape (the lazy move table).

    >>> from folkdeck.games.kaphai.rules import RULES, mask
    >>> [str(c) for c in shape_combos(mask("3S 4D 4H 5S 7C"), Kind.STRAIGHT, 3, RULES)]
    ['3S 4D 5S', '3S 4H 5S']
    >>> h = mask("3S 3C 4D 4H 5H 5S 5C 6S")
    >>> all(shape_combos(h, kind, size, RULES) == [c for c in hand_combos(h, RULES)
    ...                                            if c.kind is kind and c.size == size]
    ...     for kind, size in ((Kind.PAIR, 2), (Kind.STRAIGHT, 4), (Kind.PAIR_RUN, 6), (Kind.POLU, 5)))
    True
    """
    out: list[Combo] = []
    if kind is KIND_SINGLE:  # the cards themselves, already in key order
        while hand:
            low = hand & -hand
            out.append(_SINGLES[low.bit_length() - 1])
            hand ^= low
        return out
    if kind <= KIND_KARE:
        return _same_rank(hand, kind, size)
    if kind is KIND_STRAIGHT:
        return _straights(hand, size)
    last = TWO if rules.twos_in_pair_runs else TWO - 1
    if kind is KIND_PAIR_RUN:
        pairs = size // 2
        for start in _runs(_ranks_holding(hand, 2), pairs, last - pairs + 2):
            partial = _sets(hand, 2, start)
            for r in range(start + 1, start + pairs):
                partial = [p | q for p in partial for q in _sets(hand, 2, r)]
            out.extend(_combo(p, KIND_PAIR_RUN, size, top_index(p)) for p in partial)
        return out
    if kind is KIND_POLU or kind is KIND_DOUBLE_TRIPLE and rules.allow_double_triple:
        counts = ((2, 3), (3, 2)) if kind is KIND_POLU else ((3, 3),)
        for start in range(last):
            nxt = start + 1
            for low_k, high_k in counts:
                for p in _sets(hand, low_k, start):
                    for q in _sets(hand, high_k, nxt):
                        out.append(_combo(p | q, kind, size, nxt))
    return out


def _sets(hand: int, k: int, r: int) -> list[int]:
    """The masks of ``k`` cards of rank ``r`` in ``hand``."""
    return [x << (4 * r) for x in _SUBSETS[hand >> (4 * r) & 0xF][k]]


def _same_rank(hand: int, kind: Kind, size: int) -> list[Combo]:
    """The pairs, triples or kares of ``hand`` (``size`` cards of one rank)."""
    out: list[Combo] = []
    get = _COMBOS.get
    # Bit 4r of ``ranks`` is set for each rank r holding at least ``size`` cards.
    ranks = _ranks_holding(hand, size)
    while ranks:
        low = ranks & -ranks
        r = low.bit_length() >> 2
        for x in _SUBSETS[hand >> (4 * r) & 0xF][size]:
            m = x << (4 * r)
            c = get(m)
            out.append(c if c is not None else
                       _combo(m, kind, size, -1 if size == 3 and r == TWO else top_index(m)))
        ranks ^= low
    return out


def _straights(hand: int, size: int) -> list[Combo]:
    """The straights of ``size`` cards: ranks start … start + size - 1 all held, below the 2s."""
    out: list[Combo] = []
    get = _COMBOS.get
    for start in _runs(_ranks_holding(hand, 1), size, TWO - size + 1):
        partial = _sets(hand, 1, start)
        for r in range(start + 1, start + size):
            partial = [p | b for p in partial for b in _sets(hand, 1, r)]
        for p in partial:
            c = get(p)
            if c is None:
                top = top_index(p)
                c = _combo(p, KIND_STRAIGHT, size, top, p & SUIT_MASKS[top & 3] == p)
            out.append(c)
    return out


_SINGLES: Final = tuple(_combo(1 << i, KIND_SINGLE, 1, i) for i in range(52))
"""Every single card as its :class:`Combo`."""
_RANK_LOW_BITS: Final = sum(1 << 4 * r for r in range(13))


def _ranks_holding(hand: int, k: int) -> int:
    """Bit ``4r`` set for each rank ``r`` of which ``hand`` holds at least ``k`` cards.

    >>> from folkdeck.games.kaphai.rules import mask
    >>> bin(_ranks_holding(mask("3S 3C 4D 5S 5C 5D"), 2))
    '0b100000001'
    """
    h1, h2, h3 = hand >> 1, hand >> 2, hand >> 3
    if k == 1:
        held = hand | h1 | h2 | h3
    elif k == 2:
        held = hand & (h1 | h2 | h3) | h1 & (h2 | h3) | h2 & h3
    elif k == 3:
        held = hand & h1 & (h2 | h3) | (hand | h1) & h2 & h3
    else:
        held = hand & h1 & h2 & h3
    return held & _RANK_LOW_BITS


def _runs(ranks: int, length: int, starts: int) -> list[int]:
    """The ranks below ``starts`` at which ``length`` ranks of ``ranks`` (bits ``4r``) run
    in a row, lowest first."""
    run = ranks & (1 << 4 * starts) - 1 if starts > 0 else 0
    for k in range(1, length):
        run &= ranks >> 4 * k
    out = []
    while run:
        low = run & -run
        out.append(low.bit_length() >> 2)
        run ^= low
    return out


_BELOW_TWO_STARTS: Final = (1 << 4 * (TWO - 4)) - 1
"""The cards a five-card straight may start from (its top below the 2s: ranks 3 … 10)."""


def tong_farsons(hand: int) -> list[Combo]:
    """The one-suit five-card straights in ``hand``, by key: the bombs on singles and kares.

    >>> from folkdeck.games.kaphai.rules import mask
    >>> [str(c) for c in tong_farsons(mask("9S 10S JS QS KS AS 2S"))]
    ['9S 10S JS QS KS', '10S JS QS KS AS']
    """
    # Bit i of ``starts`` is set when cards i, i+4, … i+16 (five ranks, one suit) are all held.
    starts = hand & hand >> 4 & hand >> 8 & hand >> 12 & hand >> 16 & _BELOW_TWO_STARTS
    out = []
    while starts:
        low = starts & -starts
        i = low.bit_length() - 1
        out.append(_combo(sum(1 << (i + 4 * k) for k in range(5)), KIND_STRAIGHT, 5, i + 16, True))
        starts ^= low
    return out
