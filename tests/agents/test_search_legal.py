"""Every search bot plays only legal actions, in every preset of every game (the issue:
``pimc:fast`` raised ``IllegalActionError: 4C does not beat 4H`` in a Kap Hai preset).

The cause: a search bot samples its worlds under the rules it was bound to
(``make_agent(spec, name, game=game)``), and an unbound one under the default rules. The
Gymnasium environment made its opponents unbound, so in a preset whose rules allow more
(Kap Hai's ``local``: a low single beaten by the same rank in any suit) PIMC tried an
action of the deal that its default-rule worlds refuse. The environment now binds its
bots, and a search bot whose worlds refuse an action the deal allows says so
(``search_rules_differ``) instead of searching another game.

Hypothesis picks the position (the seed, the number of steps and every choice of a random
walk, out-of-turn actions among them); each search bot at its fast level, bound to the
deal's game, decides there, and its action must be legal. The slow variant walks every
preset of every game many times.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.protocol import State
from folkdeck.engine.registry import get_spec

SEARCH_FAMILIES = ("search", "pimc", "ismcts")
CASES = [(name, preset) for name in folkdeck.games() for preset in (None, *get_spec(name).presets)]


def fast_search_bots(name: str) -> list[str]:
    """The game's search bots at their fast level (``search:fast``, ``pimc:fast``...)."""
    return [b for b in get_spec(name).bots if b.endswith(":fast") and b.split(":")[0] in SEARCH_FAMILIES]


def _position(game: Any, seed: int, steps: int, choices: list[int]) -> State:
    """A random walk of up to ``steps`` actions (any seat that may act, any of its actions),
    stopped before the deal's end: a position where a bot has to decide."""
    state: State = game.new_state(seed=seed)
    walked = []
    for step in range(steps):
        if state.is_over():  # over as dealt (a Kap Hai putuh shown at once)
            break
        choice = choices[step % len(choices)]
        acting = state.to_act
        seat = acting[choice % len(acting)]
        legal = state.legal_actions(seat) or state.legal_actions(seat := acting[0])
        walked.append((legal[choice // len(acting) % len(legal)], seat))
        state.apply(*walked[-1])
        if state.is_over():  # one step back
            state = game.new_state(seed=seed)
            for action, seat in walked[:-1]:
                state.apply(action, seat)
            break
    return state


def _every_search_bot_plays_legally(name: str, preset: str | None, seed: int, steps: int,
                                    choices: list[int]) -> None:
    game = folkdeck.load(name, preset)
    state = _position(game, seed, steps, choices)
    assume(not state.is_over())
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    view = state.observe(seat)
    for bot in fast_search_bots(name):
        action = make_agent(game.spec, bot, game=game).act(view, legal, random.Random(seed))
        assert action in legal and state.is_legal(action, seat), (name, preset, bot, seed, steps, str(action))


@pytest.mark.parametrize("name", folkdeck.games())
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.integers(0, 20), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 400),
       choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=30))
def test_search_bots_play_legal_actions(name: str, preset: int, seed: int, steps: int, choices: list[int]) -> None:
    presets = (None, *get_spec(name).presets)
    _every_search_bot_plays_legally(name, presets[preset % len(presets)], seed, steps, choices)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "preset"), CASES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 400),
       choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=60))
def test_search_bots_play_legal_actions_in_every_preset(name: str, preset: str | None, seed: int, steps: int,
                                                        choices: list[int]) -> None:
    _every_search_bot_plays_legally(name, preset, seed, steps, choices)


def _local_low_single() -> tuple[Any, State]:
    """Kap Hai's ``local`` preset: seat 1 may beat seat 0's 5♣ with the 5♠ (local rule A-2),
    which the default rules refuse."""
    game = folkdeck.load("kaphai", "local")
    state = game.new_state(hands=["5C 9D KH", "5S 8D QH", "7S", "AS"], setup={"three_game": False, "leader": 0})
    state.apply(state.parse_action("5C"))
    return game, state


def test_the_issue_position_is_searched_under_the_deals_rules() -> None:
    game, state = _local_low_single()
    legal = state.legal_actions(1)
    assert "5S" in [str(a) for a in legal]
    for bot in fast_search_bots("kaphai"):
        action = make_agent(game.spec, bot, game=game).act(state.observe(1), legal, random.Random(1))
        assert action in legal


def test_an_unbound_search_bot_says_its_rules_are_not_the_deals() -> None:
    """Unbound, a search bot samples the default rules' worlds: where they refuse an action
    the deal allows, it says so (a clear one-line error) instead of raising the world's
    refusal (``5S does not beat 5C``) or ranking the actions of another game."""
    game, state = _local_low_single()
    legal = state.legal_actions(1)
    for bot in fast_search_bots("kaphai"):
        with pytest.raises(InvalidConfigError) as caught:
            make_agent(game.spec, bot).act(state.observe(1), legal, random.Random(1))
        assert caught.value.reason == "search_rules_differ"
        assert caught.value.params["action"] == "5S" and caught.value.params["bot"] == bot
        assert "make_agent(spec, name, game=game)" in str(caught.value)


@pytest.mark.rl
def test_the_gymnasium_opponents_are_bound_to_the_envs_game() -> None:
    pytest.importorskip("gymnasium")
    from folkdeck.rl.gym_env import FolkdeckGymEnv

    env = FolkdeckGymEnv("kaphai", "local", opponents="pimc:fast")
    _, state = _local_low_single()
    bot = env.bots[1]
    assert bot is not None
    legal = state.legal_actions(1)
    assert bot.act(state.observe(1), legal, random.Random(1)) in legal
