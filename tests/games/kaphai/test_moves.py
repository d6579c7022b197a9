"""The lazy move table gives exactly what a table built in one go gives.

A follower's table makes only the shape on the table (docs/rules/kaphai.md §3.2: a play
answers a play of the same shape, bombs aside, §3.3); a leader's table filters the lists
an older table of the same seat made. Whatever order the lists are asked for in, and
however many cards were played in between, each list must equal the one built from
scratch for the hand now: same combinations, same order (the order of the legal actions,
which seeded bots and records rely on). The reference is the one-pass generator the
tables used to be built with, kept here with every combination classified from its cards
alone.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from folkdeck.games.kaphai.moves import MoveTable
from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import (
    RULES,
    TWO,
    Combo,
    Kind,
    classify,
)
from folkdeck.games.kaphai.shapes import hand_combos, hand_shapes, shape_combos, tong_farsons

OPTIONS = [RULES, KapHaiOptions(allow_double_triple=True, twos_in_pair_runs=True)]
SHAPES = [(Kind.SINGLE, 1), (Kind.PAIR, 2), (Kind.TRIPLE, 3), (Kind.KARE, 4), (Kind.POLU, 5),
          (Kind.DOUBLE_TRIPLE, 6), *((Kind.STRAIGHT, n) for n in range(3, 13)),
          *((Kind.PAIR_RUN, n) for n in range(4, 27, 2))]


def _generated(hand: int, rules: KapHaiOptions) -> list[Combo]:
    """Every combination of ``hand`` in the one-pass generation order the move tables keep
    (rank groups, then runs from each start rank), each classified from its cards alone:
    the reference the lazy, shape-by-shape generators must agree with."""
    def sets(k: int, r: int) -> list[int]:
        suits = [b for b in (1, 2, 4, 8) if hand >> (4 * r) & b]
        return [sum(c) << (4 * r) for c in combinations(suits, k)]

    masks = [m for k in range(1, 5) for r in range(13) for m in sets(k, r)]
    for start in range(11):  # straights: 3+ ranks in a row below the 2s
        partial, r = sets(1, start), start + 1
        while partial and r < TWO and sets(1, r):
            partial = [p | b for p in partial for b in sets(1, r)]
            if r - start >= 2:
                masks.extend(partial)
            r += 1
    last = TWO if rules.twos_in_pair_runs else TWO - 1
    for start in range(last):  # pair runs, polu, double triples
        partial, r = sets(2, start), start + 1
        while partial and r <= last and sets(2, r):
            partial = [p | q for p in partial for q in sets(2, r)]
            masks.extend(partial)
            r += 1
        for low_k, high_k in ((2, 3), (3, 2)) + (((3, 3),) if rules.allow_double_triple else ()):
            masks.extend(p | q for p in sets(low_k, start) for q in sets(high_k, start + 1))
    combos = [classify(m) for m in masks]
    assert all(c is not None for c in combos)
    return [c for c in combos if c is not None]


def _reference(hand: int, rules: KapHaiOptions) -> dict[tuple[int, int], list[Combo]]:
    """Every shape's list from :func:`_generated`, grouped and sorted by key (stable)."""
    groups: dict[tuple[int, int], list[Combo]] = {}
    for c in _generated(hand, rules):
        groups.setdefault((c.kind, c.size), []).append(c)
    return {shape: sorted(cs, key=lambda c: c.key) for shape, cs in sorted(groups.items())}


def _hand(rng: random.Random, size: int) -> int:
    return sum(1 << i for i in rng.sample(range(52), size))


@pytest.mark.parametrize("rules", OPTIONS)
def test_each_shape_alone_matches_the_whole_table(rules: KapHaiOptions) -> None:
    rng = random.Random(5)
    for _ in range(300):
        hand = _hand(rng, rng.choice([5, 9, 13, 18, 26]))
        ref = _reference(hand, rules)
        grouped = hand_shapes(hand, rules)
        generated = _generated(hand, rules)
        assert hand_combos(hand, rules) == [c for shape in sorted(ref) for c in generated
                                            if (c.kind, c.size) == shape]
        for shape in SHAPES:
            made = shape_combos(hand, Kind(shape[0]), shape[1], rules)
            in_order = [c for c in generated if (c.kind, c.size) == shape]
            assert made == grouped.get(shape, []) == in_order, shape
            assert [(c.mask, c.key, c.flush) for c in sorted(made, key=lambda c: c.key)] == \
                [(c.mask, c.key, c.flush) for c in ref.get(shape, [])], shape
        flush_fives = [c for c in ref.get((Kind.STRAIGHT, 5), []) if c.flush]
        assert tong_farsons(hand) == flush_fives


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), asks=st.lists(st.sampled_from(SHAPES + ["flat"] * 4), min_size=1, max_size=12),
       rules=st.sampled_from(OPTIONS))
def test_a_table_after_plays_equals_a_fresh_one(seed: int, asks: list[object], rules: KapHaiOptions) -> None:
    """Play cards away one group at a time, asking for lists in any order in between."""
    rng = random.Random(seed)
    hand = _hand(rng, 13)
    table = MoveTable.of(hand, rules)
    for ask in asks:
        fresh = _reference(table.hand, rules)
        if ask == "flat":
            assert list(table.flat()) == [c for cs in fresh.values() for c in cs]
        else:
            assert isinstance(ask, tuple)
            assert table.group(ask) == fresh.get(ask, [])
        for kind in (Kind.SINGLE, Kind.PAIR, Kind.KARE):
            fives = [c for c in fresh.get((Kind.STRAIGHT, 5), []) if c.flush]
            expected = {Kind.SINGLE: fresh.get((Kind.KARE, 4), []) + fives, Kind.KARE: fives,
                        Kind.PAIR: fresh.get((Kind.PAIR_RUN, 8), [])}[kind]
            assert table.bombs(kind) == expected
        held = [i for i in range(52) if table.hand >> i & 1]
        if len(held) <= 1:
            break
        played = sum(1 << i for i in rng.sample(held, rng.randint(1, min(4, len(held) - 1))))
        table = table.without(played)
