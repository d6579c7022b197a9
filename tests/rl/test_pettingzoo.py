"""The PettingZoo adapter passes PettingZoo's own checks (``api_test``, ``seed_test``,
``parallel_api_test``) for every game, and ``max_cycles`` truncates as PettingZoo's
``max_cycles_test`` expects of an env that has the option."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402

from folkdeck.rl import aec_env, parallel_env  # noqa: E402

from .conftest import GAMES, presets  # noqa: E402


@pytest.mark.parametrize("game", GAMES)
def test_api_test(game: str) -> None:
    api_test(aec_env(game), num_cycles=60, verbose_progress=False)


@pytest.mark.parametrize("game", GAMES)
def test_seed_test(game: str) -> None:
    seed_test(lambda: aec_env(game), num_cycles=60)


@pytest.mark.slow
@pytest.mark.parametrize("game,preset", [(g, p) for g in GAMES for p in presets(g)])
def test_every_preset_long(game: str, preset: str) -> None:
    api_test(aec_env(game, preset), num_cycles=2000, verbose_progress=False)
    seed_test(lambda: aec_env(game, preset), num_cycles=500)


def test_parallel_api_test() -> None:
    parallel_api_test(parallel_env("kaphai"), num_cycles=200)


def test_other_player_counts() -> None:
    env = aec_env("kaphai", players=3)
    api_test(env, num_cycles=60, verbose_progress=False)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


@pytest.mark.parametrize("game", ["kaphai", "gouji"])
def test_max_cycles_truncates_every_agent(game: str) -> None:
    max_cycles = 4
    env = aec_env(game, max_cycles=max_cycles)
    env.reset(seed=3)
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(env.action_space(agent).sample(obs["action_mask"])))
        steps += 1
    assert steps == max_cycles
    assert env.agents == []


def test_a_whole_deal_pays_the_returns() -> None:
    env = aec_env("kaphai")
    env.reset(seed=5)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        env.step(None if terminated or truncated else int(env.action_space(agent).sample(obs["action_mask"])))
    result = env.unwrapped.deal.state.result()
    assert result is not None
    assert [total[a] for a in env.possible_agents] == list(result.returns)
