"""Everything a user or a worker process pickles comes back equal and plays on identically
(folkdeck/engine/pickling.py), in both builds: ``make test-fast-build`` runs this file on the
compiled one.

Hypothesis picks the game, the preset, the table size, the seed and every choice: at a
random position the game, the state, a clone of it, every seat's view, every legal
action, every event and the result are pickled; the state that comes back has the same
history, views and legal actions, and the two play on to the same end. Matches are
pickled between deals and play on to the same standings; an arena's task runs in worker
processes as it runs here.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import folkdeck
from folkdeck.engine.protocol import State
from folkdeck.engine.registry import get_spec
from folkdeck.sim.arena import ArenaConfig, _Task, run_arena
from tests.toy_game.kit import EXAMPLE_SPEC

GAMES = folkdeck.games()


def _again(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value))


def _game(name: str, preset_pick: int, players_pick: int) -> Any:
    spec = get_spec(name)
    presets = (None, *spec.presets)
    players = spec.min_players + players_pick % (spec.max_players - spec.min_players + 1)
    return folkdeck.load(name, presets[preset_pick % len(presets)], players=players)


def _step(state: State, choice: int) -> None:
    """One action chosen by ``choice``: any seat that may act (out of turn too), any action."""
    acting = state.to_act
    seat = acting[choice % len(acting)]
    legal = state.legal_actions(seat)
    if not legal:
        seat, legal = acting[0], state.legal_actions(acting[0])
    state.apply(legal[choice // len(acting) % len(legal)], seat)


def _same_position(a: State, b: State) -> None:
    assert b.history == a.history and b.deal_info() == a.deal_info()
    assert b.to_act == a.to_act and b.result() == a.result()
    for seat in (None, *range(a.num_players)):
        assert b.observe(seat) == a.observe(seat)
    for seat in a.to_act:
        assert [str(x) for x in b.legal_actions(seat)] == [str(x) for x in a.legal_actions(seat)]


def _pickles_and_plays_on(name: str, preset_pick: int, players_pick: int, seed: int, steps: int,
                          choices: list[int]) -> None:
    game = _game(name, preset_pick, players_pick)
    again = _again(game)
    assert type(again) is type(game) and again.options == game.options and again.spec is game.spec
    state = game.new_state(seed=seed)
    for step in range(steps):
        if state.is_over():
            break
        _step(state, choices[step % len(choices)])
    for seat in (None, *range(state.num_players)):
        assert _again(state.observe(seat)) == state.observe(seat)
    for event in state.history:
        assert _again(event) == event
    for seat in state.to_act:
        for action in state.legal_actions(seat):
            assert _again(action) == action and str(_again(action)) == str(action)
    loaded, clone = _again(state), _again(state.clone())
    _same_position(state, loaded)
    _same_position(state, clone)
    for step in range(5000):  # on to the end, the same choices on both
        if state.is_over():
            break
        choice = choices[(steps + step) % len(choices)]
        _step(state, choice)
        _step(loaded, choice)
    assert state.is_over()
    _same_position(state, loaded)
    assert _again(state.result()) == state.result()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.integers(0, 20), players=st.integers(0, 10), seed=st.integers(0, 2**32 - 1),
       steps=st.integers(0, 120), choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=40))
def test_a_state_at_any_position_pickles_and_plays_on_identically(
        name: str, preset: int, players: int, seed: int, steps: int, choices: list[int]) -> None:
    _pickles_and_plays_on(name, preset, players, seed, steps, choices)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.integers(0, 20), players=st.integers(0, 10), seed=st.integers(0, 2**32 - 1),
       steps=st.integers(0, 400), choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=80))
def test_states_at_many_positions_pickle_and_play_on_identically(
        name: str, preset: int, players: int, seed: int, steps: int, choices: list[int]) -> None:
    _pickles_and_plays_on(name, preset, players, seed, steps, choices)


def _play_deal(match: Any, choices: list[int], offset: int) -> tuple[Any, ...]:
    state = match.next_deal()
    for step in range(5000):
        if state.is_over():
            break
        _step(state, choices[(offset + step) % len(choices)])
    return (state.history, match.finish_deal(state), match.report())


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.integers(0, 20), players=st.integers(0, 10), seed=st.integers(0, 2**32 - 1),
       choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=40))
def test_a_match_between_deals_pickles_and_plays_on_identically(
        name: str, preset: int, players: int, seed: int, choices: list[int]) -> None:
    match = _game(name, preset, players).new_match(deals=3, rng=random.Random(seed))
    _play_deal(match, choices, 0)
    loaded = _again(match)
    assert loaded.standings() == match.standings() and _again(match.standings()) == match.standings()
    for deal in range(1, 3):
        if match.is_over():
            break
        assert _play_deal(loaded, choices, deal) == _play_deal(match, choices, deal)
        assert loaded.standings() == match.standings()
    assert loaded.is_over() == match.is_over()


def test_a_world_sampled_from_a_view_is_refused_when_loaded() -> None:
    """A search's world did not begin as a deal: it does not replay (pickling.replayed_state)."""
    game = folkdeck.load("cangkul")
    state = game.new_state(seed=2)
    for _ in range(12):
        _step(state, 7)
    view = state.observe(state.to_act[0])
    determinizer = game.spec.determinizer
    assert determinizer is not None
    world = determinizer.worlds(game, view)(random.Random(1))
    with pytest.raises(pickle.UnpicklingError, match="a world sampled from a view does not pickle"):
        _again(world)


def test_a_spec_outside_the_registry_is_refused_when_dumped() -> None:
    with pytest.raises(pickle.PicklingError, match="'example' is not registered"):
        pickle.dumps(EXAMPLE_SPEC)


def test_an_arena_task_pickles_and_the_arena_plays_alike_in_worker_processes() -> None:
    """The arena sends its task to its worker processes by pickle (sim/arena.py ``_Task``)."""
    config = ArenaConfig("cangkul", ("heuristic", "random", "random"), deals=4, seed=3, preset="joker")
    task = _again(_Task(config))

    def untimed(games: list[Any]) -> list[Any]:
        return [{k: v for k, v in g.items() if k != "timing"} for g in games]  # timing is measured

    assert task.config == config and untimed(task((0,))) == untimed(_Task(config)((0,)))
    alone = run_arena(config, jobs=1).to_dict(timing=False)
    assert run_arena(config, jobs=2, chunk=1).to_dict(timing=False) == alone
