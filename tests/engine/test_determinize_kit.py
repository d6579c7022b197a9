"""The determinization kit (folkdeck.engine.determinize): the unseen pool, the constrained
deal and the events of a view, and the games' determinizers built on it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import folkdeck
from folkdeck.engine.determinize import (
    Determinization,
    Determinizer,
    Pool,
    deal,
    events_of,
    to_mask,
    unseen_bits,
)
from folkdeck.engine.facts import Fact, Passed, Played
from folkdeck.engine.view import View, ViewEvent

GAMES = ("kaphai", "cambio", "cangkul", "burro_es", "burro_pt", "gouji")


def _kind(card: str) -> int:
    return int(card[:-1])


# --- the unseen pool ------------------------------------------------------------------------


def test_pool_groups_by_kind_in_pack_order() -> None:
    pool = Pool(["5S", "3S", "5H", "4S", "3H", "5S"], _kind)
    assert pool.cards() == ["3S", "3H", "4S", "5S", "5H", "5S"]
    assert len(pool) == 6 and pool.count(5) == 3 and pool.count(9) == 0


def test_pool_removes_the_first_copy_and_takes_by_kind_from_the_end() -> None:
    pool = Pool(["5S", "3S", "5H", "4S", "3H", "5S"], _kind)
    pool.remove(["5S"])
    assert pool.cards() == ["3S", "3H", "4S", "5H", "5S"]
    assert pool.take(3) == "3H" and pool.take(3) == "3S" and pool.take(3) is None
    assert pool.take(7) is None
    assert pool.cards() == ["4S", "5H", "5S"]


def test_pool_refuses_a_card_it_does_not_hold() -> None:
    pool = Pool(["3S", "4S"], _kind)
    with pytest.raises(ValueError):
        pool.remove(["3H"])
    with pytest.raises(ValueError):
        pool.remove(["9S"])
    pool.remove(["3S"])
    with pytest.raises(ValueError):
        pool.remove(["3S"])


def test_pool_copy_is_independent() -> None:
    pool = Pool(["3S", "3H", "4S"], _kind)
    copy = pool.copy()
    assert copy.take(3) == "3H"
    copy.remove(["4S"])
    assert pool.cards() == ["3S", "3H", "4S"] and copy.cards() == ["3S"]


def test_unseen_bits_and_to_mask() -> None:
    assert unseen_bits(0, 0) == []
    assert unseen_bits(0b1011_0110, 0b0000_0100) == [1, 4, 5, 7]
    full = (1 << 52) - 1
    seen = to_mask([0, 13, 51])
    left = unseen_bits(full, seen)
    assert len(left) == 49 and left == sorted(left) and to_mask(left) == full & ~seen


# --- the constrained deal -------------------------------------------------------------------


def test_an_unconstrained_deal_is_one_shuffle_dealt_in_slices() -> None:
    pool = list(range(20))
    counts = {2: 3, 0: 5, 1: 0}
    dealt = deal(pool, counts, random.Random(4))
    shuffled = list(pool)
    random.Random(4).shuffle(shuffled)
    assert dealt.hands == {2: shuffled[:3], 0: shuffled[3:8], 1: []}
    assert dealt.rest == shuffled[8:]
    assert pool == list(range(20))  # the pool itself is left as it was


def test_a_deal_is_reproducible_and_conserves_the_pool() -> None:
    pool = [c for c in range(10) for _ in range(3)]
    counts: dict[int | str, int] = {0: 4, 1: 7, "stock": 9}
    barred: dict[int | str, int] = {0: 1 << 2 | 1 << 3, 1: 1 << 0}
    a = deal(pool, counts, random.Random(1), barred=barred, kind=lambda c: c % 4)
    b = deal(pool, counts, random.Random(1), barred=barred, kind=lambda c: c % 4)
    assert a == b
    assert {k: len(v) for k, v in a.hands.items()} == counts
    assert Counter(c for h in a.hands.values() for c in h) + Counter(a.rest) == Counter(pool)


def test_barred_kinds_are_respected_whenever_they_can_be() -> None:
    rng = random.Random(2)
    pool = list(range(40))  # kind = card % 4, ten cards of each

    def kind(c: int) -> int:
        return c % 4

    for _ in range(50):
        dealt = deal(pool, {0: 10, 1: 10, 2: 10}, rng, barred={0: 0b0111, 1: 0b0001, 2: 0}, kind=kind)
        assert all(kind(c) == 3 for c in dealt.hands[0])  # the most barred seat is dealt first
        assert all(kind(c) != 0 for c in dealt.hands[1])
        assert len(dealt.rest) == 10


def test_constraints_that_cannot_be_met_are_dropped() -> None:
    dealt = deal(list(range(8)), {0: 3, 1: 2}, random.Random(3), barred={0: 1}, kind=lambda c: 0)
    assert sorted(len(h) for h in dealt.hands.values()) == [2, 3] and len(dealt.rest) == 3


def test_a_deal_needs_enough_cards_and_a_kind_for_its_bars() -> None:
    with pytest.raises(ValueError):
        deal([1, 2], {0: 3}, random.Random(1))
    with pytest.raises(ValueError):
        deal([1, 2], {0: 1}, random.Random(1), barred={0: 1})


# --- events from a view's history -----------------------------------------------------------


def test_events_of_reads_the_actions_back_from_the_act_facts() -> None:
    history = (ViewEvent(index=0, seat=1, action="pass", act=Passed(seat=1)),
               ViewEvent(index=1, seat=2, action="3S", act=Played(seat=2, cards=()), facts=()))

    def action_of(act: Fact) -> str:
        return "pass" if isinstance(act, Passed) else "play"

    events = events_of(history, action_of)
    assert [(e.seat, e.action, e.facts) for e in events] == [(1, "pass", ()), (2, "play", ())]
    with pytest.raises(ValueError):
        events_of((ViewEvent(index=0, seat=0, action="x", act=None),), action_of)


# --- the games' determinizers ---------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_a_typed_determinizer(name: str) -> None:
    spec = folkdeck.get_spec(name)
    determinizer = spec.determinizer
    assert isinstance(determinizer, Determinization)
    assert isinstance(determinizer, Determinizer)  # type: ignore[misc]  # runtime_checkable by a call
    assert spec.hooks.determinizer is not None and spec.hooks.determinizer.loaded
    assert not determinizer.is_searchable(View(game=name, seat=None, num_players=4, phase="play",
                                               hand=None, counts=(), to_act=(), current_seat=None))


@pytest.mark.parametrize("name", GAMES)
def test_a_sampler_reads_the_view_once_and_deals_like_determinize(name: str) -> None:
    """The worlds of one sampler depend on the rng alone: the same seed, the same world,
    whatever was sampled before (a sampler keeps nothing of a world it dealt)."""
    game = folkdeck.load(name)
    determinizer = game.spec.determinizer
    assert isinstance(determinizer, Determinization)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        if state.is_over() or checked >= 3:
            break
        seat = state.to_act[0]
        view = state.observe(seat)
        if determinizer.is_searchable(view):
            sample = determinizer.worlds(game, view)
            first = sample(random.Random(5)).all_cards()
            sample(random.Random(6))
            assert sample(random.Random(5)).all_cards() == first
            assert determinizer.determinize(game, view, random.Random(5)).all_cards() == first
            assert sample(random.Random(5)).observe(seat).to_dict() == view.to_dict()
            checked += 1
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)
    assert checked


def test_a_determinizer_refuses_another_games_state_or_view() -> None:
    kaphai, cambio = folkdeck.load("kaphai"), folkdeck.load("cambio")
    determinizer = kaphai.spec.determinizer
    assert determinizer is not None
    view = kaphai.new_state(seed=1).observe(0)
    with pytest.raises(TypeError):
        determinizer.worlds(cambio, view)
    with pytest.raises(TypeError):
        determinizer.worlds(kaphai, cambio.new_state(seed=1).observe(0))
