"""PettingZoo AEC environments for every folkdeck game (``folkdeck.rl.aec_env``).

Agents are ``player_0`` … ``player_<n-1>`` (seat numbers). One ``step`` is one token
of :mod:`folkdeck.rl.substeps`: the chooser keeps ``agent_selection`` while it spells a
combination, and seats with an out-of-turn right are polled (``<wait>`` declines). The
observation is a dict ``{"observation": float32 vector, "action_mask": int8 vector}``
(the PettingZoo classic convention); rewards are the deal's returns, given when it ends.
``max_cycles`` truncates every agent after that many steps of the env.

>>> from folkdeck.rl import aec_env
>>> env = aec_env("kaphai")
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["action_mask"].dtype.name, env.agent_selection
('int8', 'player_2')
"""

from __future__ import annotations

import random
from typing import TypedDict

import numpy as np  # type: ignore[import-not-found, unused-ignore]
import numpy.typing as npt  # type: ignore[import-not-found, unused-ignore]
from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped, import-not-found, unused-ignore]

import folkdeck
from folkdeck.engine.protocol import Game
from folkdeck.engine.registry import get_spec
from folkdeck.rl.encoding import HIGH, Encoding
from folkdeck.rl.substeps import TokenDeal


def make_game(game: str, preset: str | None = None, **options: object) -> Game:
    """The configured game (``folkdeck.load`` with a preset and options)."""
    return folkdeck.load(game, preset, **options)


def observation_space(enc: Encoding) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(low=-1.0, high=HIGH, shape=(enc.size,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(enc.num_tokens,), dtype=np.int8),
    })


class TokenObservation(TypedDict):
    """What an agent observes: the encoded view, and the tokens it may choose now (all zero
    when another agent chooses)."""

    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]


class FolkdeckAECEnv(AECEnv[str, TokenObservation, int]):  # type: ignore[misc]
    """One deal of a folkdeck game per episode, for ``num_players`` agents."""

    metadata = {"render_modes": ["ansi"], "name": "folkdeck_v0", "is_parallelizable": False}

    def __init__(self, game: str, preset: str | None = None, *, render_mode: str | None = None,
                 max_cycles: int | None = None, **options: object) -> None:
        super().__init__()
        self.game = make_game(game, preset, **options)
        self.enc = Encoding.of(self.game)
        spec = get_spec(game)
        self.metadata = {**self.metadata, "name": f"folkdeck_{spec.name}_v0"}
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self.agents = list(self.possible_agents)
        obs_space = observation_space(self.enc)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self.enc.num_tokens) for a in self.possible_agents}
        self._rng = random.Random()
        self.deal: TokenDeal | None = None
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space[object]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[object]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> TokenObservation:
        assert self.deal is not None
        seat = self._seat(agent)
        mask = self.deal.mask() if self.deal.chooser == seat else np.zeros(self.enc.num_tokens, np.int8)
        return {"observation": self.deal.observation(seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.deal = TokenDeal(self.enc, self.game.new_state(seed=self._rng.getrandbits(63)))
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        if self.deal.state.is_over():  # decided at the deal (a putuh hand): nothing to choose
            self._finish()
        self._select()

    def _select(self) -> None:
        assert self.deal is not None
        seat = self.deal.chooser
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.deal is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.deal.choose(int(action))
        self._steps += 1
        if self.deal.state.is_over():
            self._finish()
        elif self.max_cycles is not None and self._steps >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()
        self._deads_step_first()

    def _finish(self) -> None:
        assert self.deal is not None
        returns = self.deal.returns()
        for a in self.agents:
            self.rewards[a] = float(returns[self._seat(a)])
            self.terminations[a] = True

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.deal is None:
            return None
        seat = self.deal.chooser
        view = self.deal.state.observe(seat)
        chosen = " ".join(self.enc.word(t) for t in self.deal.chosen)
        return f"{self.game.spec.name} seat {seat} phase {view.phase} chosen [{chosen}]"

    def close(self) -> None:
        self.deal = None


def aec_env(game: str, preset: str | None = None, *, render_mode: str | None = None, max_cycles: int | None = None,
            **options: object) -> AECEnv[str, TokenObservation, int]:
    """A PettingZoo AEC env of ``game`` (a name or alias; ``preset`` and the game's options,
    plus ``render_mode`` and ``max_cycles``), wrapped as PettingZoo's classic envs are
    (an illegal token is an error, the order of calls is enforced)."""
    env: AECEnv[str, TokenObservation, int] = FolkdeckAECEnv(game, preset, render_mode=render_mode,
                                                              max_cycles=max_cycles, **options)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    env = wrappers.OrderEnforcingWrapper(env)
    return env


def parallel_env(game: str, preset: str | None = None, *, render_mode: str | None = None,
                 max_cycles: int | None = None, **options: object) -> ParallelEnv[str, TokenObservation, int | None]:
    """The AEC env as a PettingZoo ``ParallelEnv`` (``turn_based_aec_to_parallel``: every
    step takes the chooser's token; the others' are ignored, their masks are all zero)."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # type: ignore[import-untyped, import-not-found, unused-ignore]

    return turn_based_aec_to_parallel(aec_env(game, preset, render_mode=render_mode, max_cycles=max_cycles,
                                              **options))


__all__ = ["FolkdeckAECEnv", "TokenObservation", "aec_env", "observation_space", "parallel_env"]
