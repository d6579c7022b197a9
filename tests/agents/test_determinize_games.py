"""Cambio, Cangkul/Burro and Gou Ji determinizations: they agree with the seat's
observation, conserve the pack and never use the hidden cards (as Kap Hai's do)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest

from folkdeck import get_spec, load
from folkdeck.agents import make_agent
from folkdeck.agents.search import SearchAgent, determinizer_for
from folkdeck.games.cangkul import CangkulGame
from folkdeck.games.cangkul.determinize import voids
from folkdeck.games.cangkul.rules import mask, suit_of
from folkdeck.sim.runner import random_playout


def _positions(game: Any, seeds: range, steps: int, every: int = 1) -> Iterator[tuple[Any, int]]:
    """Positions of random deals, with each seat that may act there."""
    for seed in seeds:
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        for step in range(steps):
            if state.is_over():
                break
            if step % every == 0:
                for seat in state.to_act:
                    yield state, seat
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)


def _pack(state: Any) -> Counter[str]:
    return Counter(str(c) for place in state.all_cards().values() for c in place)


def _check(game: Any, real: Any, seat: int, rng: random.Random, play_on: bool) -> None:
    determinizer = determinizer_for(game.spec.name)
    assert determinizer is not None
    seen = real.observe(seat)
    if not determinizer.is_searchable(seen):
        return
    world = determinizer.worlds(game, seen)(rng)
    assert world.observe(seat).to_dict() == seen.to_dict()
    assert [str(a) for a in world.legal_actions(seat)] == [str(a) for a in real.legal_actions(seat)]
    assert _pack(world) == _pack(real)
    if play_on:
        random_playout(world.clone(), rng)


CASES: list[tuple[str, str | None, dict[str, Any]]] = [
    ("cambio", None, {}), ("cambio", None, {"players": 9}), ("cambio", "closed_discards", {}),
    ("cambio", "owl_refuses", {}), ("cambio", "sudden", {"players": 6}),
    ("cambio", "nifty44", {"players": 5}),
    ("cangkul", None, {}), ("cangkul", "joker", {"joker_play": "must_when_void"}),
    ("cangkul", "drop_out", {"players": 5}), ("burro_es", None, {}), ("burro_pt", None, {}),
    ("burro_pt", "knock", {}), ("burro_pt", "one_pile", {}),
]


@pytest.mark.parametrize(("name", "preset", "rules"), CASES)
def test_determinization_agrees_with_the_observation(name: str, preset: str | None,
                                                      rules: dict[str, Any]) -> None:
    game = load(name, preset, **rules)
    rng = random.Random(7)
    for k, (real, seat) in enumerate(_positions(game, range(4), 60)):
        _check(game, real, seat, rng, play_on=k % 5 == 0)


@pytest.mark.parametrize("rules", [{}, {"public_counts": "always"}, {"public_counts": "never"},
                                   {"allow_open_hand": False, "share_hand_le10": False}])
def test_gouji_determinization_agrees_with_the_observation(rules: dict[str, Any]) -> None:
    game = load("gouji", **rules)
    rng = random.Random(7)
    for k, (real, seat) in enumerate(_positions(game, range(1), 400, every=7)):
        _check(game, real, seat, rng, play_on=k % 20 == 0)


def test_gouji_determinization_in_a_match_with_tribute() -> None:
    """Later match deals (tribute given and returned, the drawer phase) stay consistent,
    and the cards the seat gave in tribute are placed in the receiver's hand."""
    game = load("gouji")
    match = game.new_match(deals=2, rng=random.Random(1))
    rng = random.Random(2)
    checked = 0
    for _ in range(2):
        state = match.next_deal()
        k = 0
        while not state.is_over():
            seat = state.to_act[0]
            if k % 11 == 0:
                _check(game, state, seat, rng, play_on=False)
                checked += 1
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)
            k += 1
        match.finish_deal(state)
    assert checked > 10


def _same_view(make: Callable[[bool], Any], seat: int, drive: int = 0) -> None:
    """Two real states, different hidden cards, the same view: the same worlds."""
    a, b = make(False), make(True)
    for _ in range(drive):  # the same public actions on both
        if a.current_seat == seat:
            break
        s = a.to_act[0]
        act = a.legal_actions(s)[0]
        a.apply(act, s)
        b.apply(b.parse_action(str(act), s), s)
    assert a.all_cards() != b.all_cards()
    assert a.observe(seat).to_dict() == b.observe(seat).to_dict()
    determinizer = determinizer_for(a.game.spec.name)
    assert determinizer is not None
    wa = determinizer.worlds(a.game, a.observe(seat))(random.Random(3))
    wb = determinizer.worlds(b.game, b.observe(seat))(random.Random(3))
    assert {k: [str(c) for c in v] for k, v in wa.all_cards().items()} == \
        {k: [str(c) for c in v] for k, v in wb.all_cards().items()}
    # ...and the hidden cards really are dealt again: some world differs from the truth.
    sample = determinizer.worlds(a.game, a.observe(seat))
    worlds = [sample(random.Random(s)).all_cards() for s in range(5)]
    assert any(w != a.all_cards() for w in worlds)


def test_cambio_worlds_never_depend_on_the_hidden_cards() -> None:
    game = load("cambio", players=4)

    def make(swap: bool) -> Any:
        hands = [["3"], ["5"], ["HORSE"], ["7"]]
        if swap:
            hands[1], hands[3] = hands[3], hands[1]
        return game.new_state(hands=hands, stock=["OWL", "2", "MAN", "CAT", "9"],
                              setup={"dealer": 3})

    _same_view(make, 0)


def test_cangkul_worlds_never_depend_on_the_hidden_cards() -> None:
    game = load("cangkul", players=3)

    def make(swap: bool) -> Any:
        hands = ["9H 3S 5S", "KH 4C 6D", "7D 8D 2S"]
        if swap:
            hands[1], hands[2] = hands[2], hands[1]
        return game.new_state(hands=hands, stock=["2C", "5H", "QS", "JD"], setup={"leader": 0})

    _same_view(make, 0)


def test_gouji_worlds_never_depend_on_the_hidden_cards() -> None:
    game = load("gouji", revolution_allowed=False)  # straight into play: nobody is asked first
    hands = game.new_state(seed=4).deal_info()["hands"]

    def make(swap: bool) -> Any:
        h = list(hands)
        if swap:
            h[1], h[3] = h[3], h[1]
        return game.new_state(hands=h, setup={"leader": 0})

    _same_view(make, 0, drive=20)


def test_cangkul_voids_hold_in_the_real_hands() -> None:
    """Every void the sampler respects is true of the real hidden cards."""
    for name in ("cangkul", "burro_es", "burro_pt"):
        game = cast(CangkulGame, load(name))
        for real, seat in _positions(game, range(3), 200, every=3):
            v = voids(real.observe(seat), game.deck, False)
            for s in range(real.num_players):
                hidden = mask(real.hand(s), game.deck) & ~mask(real.observe(s).known[s], game.deck)
                for i in range(hidden.bit_length()):
                    if hidden >> i & 1:
                        assert not v[s] >> suit_of(i) & 1  # the joker is class 4


@pytest.mark.parametrize("name", ["cambio", "cangkul", "burro_es", "burro_pt", "gouji"])
def test_search_bots_are_registered(name: str) -> None:
    spec = get_spec(name)
    for bot in ("search", "search:fast", "search:strong", "pimc", "pimc:fast"):
        assert bot in spec.bots
    agent = make_agent(spec, "search:fast", game=load(name))
    assert isinstance(agent, SearchAgent) and agent._determinizer is not None


@pytest.mark.parametrize(("name", "algorithm"), [("cambio", "ismcts"), ("cambio", "pimc"),
                                                  ("cangkul", "ismcts"), ("burro_pt", "pimc")])
def test_search_plays_legal_reproducible_deals(name: str, algorithm: str) -> None:
    from folkdeck.sim.runner import play_deal

    spec = get_spec(name)
    game = load(name)

    def deal() -> list[str]:
        agents = [SearchAgent(spec, algorithm=algorithm, rollouts=6) for _ in range(game.num_players)]
        for a in agents:
            a.bind(game)
        state = play_deal(game.new_state(seed=5), agents, random.Random(9))
        return [e.line for e in state.history]

    assert deal() == deal()


def test_gouji_search_decides_legally_and_falls_back_in_windows() -> None:
    spec = get_spec("gouji")
    game = load("gouji")
    bot = make_agent(spec, "search:fast", game=game)
    assert isinstance(bot, SearchAgent)
    bot.rollouts = 4
    state = game.new_state(seed=2)
    rng = random.Random(1)
    searched = 0
    while not state.is_over() and searched < 3:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        seen = state.observe(seat)
        action = bot.act(seen, legal, rng)
        assert action in legal
        searched += bot._determinizer is not None and bot._determinizer.is_searchable(seen) and len(legal) > 1
        state.apply(action, seat)
