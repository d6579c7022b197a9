"""Training the learned bots (``folkdeck train GAME``; the ``train`` extra: JAX, Optax).

:mod:`folkdeck.train.selfplay` plays and records deals (a search bot as the teacher, or
the learner against a pool) in the arena's workers; :mod:`folkdeck.train.network` is the
network in JAX with its loss and optimiser; :mod:`folkdeck.train.loop` runs the recipe's
stages with checkpoints, evaluations and a log. The models it writes are played by
:mod:`folkdeck.agents.learned` with NumPy alone. ``docs/bots.md`` has the recipe of each
shipped model and what it cost.
"""

from folkdeck.train.loop import Recipe, Run, ship, train
from folkdeck.train.selfplay import Chunk, Samples, play_chunk

__all__ = ["Chunk", "Recipe", "Run", "Samples", "play_chunk", "ship", "train"]
