"""Gymnasium single-agent envs: the learner in one seat, the project's bots in the others.

``gymnasium.make("folkdeck/KapHai-v0", seat=0, opponents="heuristic")`` after ``import
folkdeck.rl`` (ids: :func:`gym_id`; one per game, and ``folkdeck/<Game>-<Preset>-v0`` per
preset). An episode is one deal. A step is one token of the learner's decision
(:mod:`folkdeck.rl.substeps`); the bots' decisions, and its out-of-turn polls that a bot
answers, happen inside ``step``. The observation is the flat vector of
:mod:`folkdeck.rl.encoding`; the legal tokens are ``info["action_mask"]`` and
:meth:`FolkdeckGymEnv.action_masks` (the sb3-contrib convention). The reward, given when
the deal ends, is the learner's return. A token outside the mask ends the episode with
``illegal_reward`` and ``info["illegal"] = True`` (a learner that uses the mask never
meets it). A deal decided before the learner's first choice (a putuh hand shown at the
deal) is dealt again: ``info["skipped_deals"]`` counts them.

>>> import gymnasium, folkdeck.rl
>>> env = gymnasium.make("folkdeck/KapHai-v0", opponents="random")
>>> obs, info = env.reset(seed=2)
>>> obs.shape == env.observation_space.shape, int(info["action_mask"].sum()) > 0
(True, True)
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

import gymnasium  # type: ignore[import-not-found, unused-ignore]
import numpy as np  # type: ignore[import-not-found, unused-ignore]
import numpy.typing as npt  # type: ignore[import-not-found, unused-ignore]
from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.engine.protocol import GameAgent
from folkdeck.engine.registry import get_spec
from folkdeck.rl.encoding import HIGH, WAIT, Encoding
from folkdeck.rl.substeps import TokenDeal


class FolkdeckGymEnv(gymnasium.Env[npt.NDArray[np.float32], int]):  # type: ignore[misc, unused-ignore]
    """One seat of a folkdeck game against the project's bots."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: str, preset: str | None = None, *, seat: int = 0,
                 opponents: str | Sequence[str] = "heuristic", illegal_reward: float = -1.0,
                 render_mode: str | None = None, **options: object) -> None:
        self.game = folkdeck.load(game, preset, **options)
        self.spec_ = get_spec(game)
        self.enc = Encoding.of(self.game)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not a seat of a {n}-player game")
        self.seat = seat
        names = [opponents] * n if isinstance(opponents, str) else list(opponents)
        if len(names) == n - 1:
            names.insert(seat, "")
        if len(names) != n:
            raise ValueError(f"give one opponent name, or one per other seat ({n - 1})")
        # Bound to the game (make_agent): a search bot searches this game's rules, not the defaults.
        self.bots: list[GameAgent | None] = [None if s == seat else make_agent(self.spec_, names[s], game=self.game)
                                             for s in range(n)]
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = spaces.Box(low=-1.0, high=HIGH, shape=(self.enc.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.enc.num_tokens)  # type: ignore[assignment, unused-ignore]
        self._rng = random.Random()
        self.deal: TokenDeal | None = None

    # --- the bots' moves ---------------------------------------------------------------

    def _run_bots(self) -> None:
        """Let the bots choose until the learner must (or the deal ends)."""
        deal = self.deal
        assert deal is not None
        wait = self.enc.token_index[WAIT]
        while (seat := deal.chooser) is not None and seat != self.seat:
            bot = self.bots[seat]
            assert bot is not None
            view = deal.state.observe(seat)
            legal = deal.legal_actions()
            if deal.polled:
                interrupt = getattr(bot, "interrupt", None)
                action = interrupt(view, legal, self._rng) if interrupt is not None else None
                if action is None:
                    deal.choose(wait)
                    continue
            else:
                action = bot.act(view, legal, self._rng)
            deal.play(action)

    def _obs_info(self) -> tuple[npt.NDArray[np.float32], dict[str, object]]:
        assert self.deal is not None
        mask = self.deal.mask() if self.deal.chooser == self.seat else np.zeros(self.enc.num_tokens, np.int8)
        return self.deal.observation(self.seat), {"action_mask": mask}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal tokens (for sb3-contrib's MaskablePPO)."""
        assert self.deal is not None
        return self.deal.mask().astype(bool)

    def reset(self, *, seed: int | None = None, options: dict[str, object] | None = None
              ) -> tuple[npt.NDArray[np.float32], dict[str, object]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        skipped = 0
        while True:
            self.deal = TokenDeal(self.enc, self.game.new_state(seed=self._rng.getrandbits(63)))
            self._run_bots()
            if self.deal.chooser == self.seat:
                break
            skipped += 1  # decided before the learner's first choice (a putuh at the deal)
        obs, info = self._obs_info()
        return obs, {**info, "skipped_deals": skipped}

    def step(self, action: int) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, object]]:
        deal = self.deal
        assert deal is not None, "call reset() first"
        if deal.chooser != self.seat or int(action) not in deal.legal_tokens():
            obs, info = self._obs_info()
            return obs, self.illegal_reward, True, False, {**info, "illegal": True}
        deal.choose(int(action))
        self._run_bots()
        obs, info = self._obs_info()
        if deal.state.is_over():
            return obs, float(deal.returns()[self.seat]), True, False, info
        return obs, 0.0, False, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.deal is None:
            return None
        view = self.deal.state.observe(self.seat)
        return f"{self.spec_.name} seat {self.seat} phase {view.phase} hand {len(view.hand or ())}"


def _camel(text: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in re.split(r"[^0-9A-Za-z]+", text) if w)


def gym_id(game: str, preset: str | None = None) -> str:
    """The registered id: ``folkdeck/<Title>-v0`` (``KapHai``, ``GouJi``...), or
    ``folkdeck/<Title>-<Preset>-v0``.

    >>> gym_id("kaphai"), gym_id("gouji", "modern")
    ('folkdeck/KapHai-v0', 'folkdeck/GouJi-Modern-v0')
    """
    spec = get_spec(game)
    name = _camel(spec.title)
    return f"folkdeck/{name}-{_camel(preset)}-v0" if preset else f"folkdeck/{name}-v0"


def register_envs() -> None:
    """Register every game (and preset) with Gymnasium (idempotent)."""
    for name in folkdeck.games():
        spec = get_spec(name)
        for preset in (None, *spec.presets):
            env_id = gym_id(name, preset)
            if env_id in gymnasium.registry:
                continue
            kwargs: dict[str, str] = {"game": name}
            if preset:
                kwargs["preset"] = preset
            gymnasium.register(id=env_id, entry_point="folkdeck.rl.gym_env:FolkdeckGymEnv",
                               kwargs=kwargs, disable_env_checker=False)


__all__ = ["FolkdeckGymEnv", "gym_id", "register_envs"]
