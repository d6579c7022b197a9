"""The Gymnasium adapter passes ``gymnasium.utils.env_checker.check_env`` for every game;
ids are registered on ``import folkdeck.rl``."""

from __future__ import annotations

import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import folkdeck.rl  # noqa: E402
from folkdeck.rl import gym_id  # noqa: E402

from .conftest import GAMES, presets  # noqa: E402


@pytest.mark.parametrize("game", GAMES)
def test_check_env(game: str) -> None:
    env = gymnasium.make(gym_id(game), opponents="random")
    check_env(env.unwrapped, skip_render_check=True)


def test_ids_are_registered() -> None:
    ids = set(gymnasium.registry)
    assert "folkdeck/KapHai-v0" in ids and "folkdeck/GouJi-v0" in ids
    for game in GAMES:
        assert gym_id(game) in ids
        for preset in presets(game):
            assert gym_id(game, preset) in ids


@pytest.mark.parametrize("game", GAMES)
def test_episode_against_the_default_bots(game: str) -> None:
    """A masked random learner against the game's heuristic-or-default bots: the episode
    ends with the learner's return as the reward."""
    spec = folkdeck.get_spec(game)
    opponents = "heuristic" if "heuristic" in spec.bots else spec.default_bot
    env = gymnasium.make(gym_id(game), opponents=opponents, seat=1)
    obs, info = env.reset(seed=4)
    rng = __import__("random").Random(4)
    reward, done = 0.0, False
    while not done:
        legal = [i for i, m in enumerate(info["action_mask"]) if m]
        obs, reward, terminated, truncated, info = env.step(rng.choice(legal))
        assert "illegal" not in info
        done = terminated or truncated
    result = env.unwrapped.deal.state.result()
    assert result is not None and reward == result.returns[1]


def test_illegal_token_ends_the_episode() -> None:
    env = gymnasium.make("folkdeck/KapHai-v0", opponents="random", illegal_reward=-5.0)
    _, info = env.reset(seed=1)
    bad = next(i for i, m in enumerate(info["action_mask"]) if not m)
    _, reward, terminated, _, info = env.step(bad)
    assert terminated and reward == -5.0 and info["illegal"]


def test_presets_and_options_pass_through() -> None:
    env = gymnasium.make("folkdeck/KapHai-Local-v0", players=3, opponents=["greedy", "random"])
    env.reset(seed=0)
    assert env.unwrapped.game.num_players == 3
