"""Hypothesis properties of Gou Ji move generation and deals."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from folkdeck import load
from folkdeck.games.gouji.moves import burn_plays, follow_plays, lead_plays
from folkdeck.games.gouji.rules import (
    BJ,
    RJ,
    TWO,
    beats,
    burn_remainder_ok,
    holds,
    play_from_counts,
)
from folkdeck.sim.runner import random_playout

hands = st.tuples(*([st.integers(0, 4)] * 12), st.integers(0, 6), st.integers(0, 2),
                  st.integers(0, 2)).map(list)
RULES = ("count", "any_joker", "coverage")


@settings(max_examples=150, deadline=None)
@given(hands)
def test_lead_plays_are_the_distinct_rank_multisets(hand: list[int]) -> None:
    plays = lead_plays(hand)
    assert len(plays) == len(set(plays))
    for p in plays:
        assert holds(hand, p)
        counts = [0] * 15
        for r, n in p.counts():
            counts[r] += n
        assert play_from_counts(counts) == p   # the text form reads back to the same set
    # every non-empty sub-multiset with at most one natural rank below 2 is listed
    expected = sum(hand[r] for r in range(TWO)) * (hand[TWO] + 1) * (hand[BJ] + 1) * (hand[RJ] + 1)
    expected += hand[TWO] * (hand[BJ] + 1) * (hand[RJ] + 1) + hand[BJ] * (hand[RJ] + 1) + hand[RJ]
    assert len(plays) == expected


@settings(max_examples=150, deadline=None)
@given(hands, hands, st.sampled_from(RULES), st.data())
def test_follow_plays_equal_the_filtered_leads(hand: list[int], other: list[int], rule: str,
                                               data: st.DataObject) -> None:
    tops = lead_plays(other)
    if not tops:
        return
    top = data.draw(st.sampled_from(tops))
    brute = [p for p in lead_plays(hand) if beats(p, top, rule)]
    assert sorted(follow_plays(hand, top, rule), key=repr) == sorted(brute, key=repr)
    burns = burn_plays(hand, top, rule)
    for p in brute:
        rest = list(hand)
        for r, n in p.counts():
            rest[r] -= n
        assert (p in burns) == burn_remainder_ok(rest)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["standard", "modern", "resume"]))
def test_random_deals_end_with_six_places(seed: int, preset: str) -> None:
    state = load("gouji", preset).new_state(seed=seed)
    random_playout(state, random.Random(seed))
    result = state.result()
    assert result is not None
    if result.reason == "out":
        assert sorted(p for p in result.placings if p is not None) == [1, 2, 3, 4, 5, 6]
