"""folkdeck for reinforcement-learning and game-theory research (the ``rl`` extra).

- :func:`aec_env` — a PettingZoo AEC env of any game (:mod:`folkdeck.rl.pettingzoo_env`);
  :func:`parallel_env` its turn-based Parallel form.
- ``gymnasium.make("folkdeck/KapHai-v0", opponents="heuristic")`` — the learner in one
  seat, the project's bots in the others (:mod:`folkdeck.rl.gym_env`); registered when
  this package is imported.
- ``import folkdeck.rl.openspiel`` registers ``python_folkdeck_<game>`` with OpenSpiel.

The encodings (observation vector, action tokens and masks) are shared by all three
(:mod:`folkdeck.rl.encoding`, :mod:`folkdeck.rl.substeps`); ``docs/rl.md`` documents them.
"""

try:
    from folkdeck.rl.encoding import Encoding
    from folkdeck.rl.gym_env import FolkdeckGymEnv, gym_id, register_envs
    from folkdeck.rl.pettingzoo_env import FolkdeckAECEnv, aec_env, parallel_env
    from folkdeck.rl.substeps import TokenDeal
except ModuleNotFoundError as missing:  # the rl extra is not installed: say which and how
    raise ImportError(f"folkdeck.rl needs {missing.name}, from the rl extra: pip install 'folkdeck[rl]' "
                      "(in a clone of folkdeck's source: pip install -e '.[rl]')",
                      name=missing.name) from missing

register_envs()

__all__ = ["Encoding", "FolkdeckAECEnv", "FolkdeckGymEnv", "TokenDeal", "aec_env", "gym_id",
           "parallel_env", "register_envs"]
