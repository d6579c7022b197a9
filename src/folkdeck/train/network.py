"""The network in JAX for training: the same function as the NumPy inference of
:class:`~folkdeck.agents.learned.QNetwork`, its weighted squared-error loss and Adam
(Optax). Imported only by the trainer: ``import folkdeck`` and the bots never load JAX.

Parameters are a tuple of layers: ``(W_view, W_action, b)`` then ``(W, b)`` per layer
(He-initialised from a seed). The targets are the samples' advantages
(:meth:`~folkdeck.train.selfplay.Samples.advantages`) divided by ``scale`` (the spread of
the returns in the first data), so every game trains on numbers near 1; the exported model
multiplies it back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

import jax  # type: ignore[import-not-found, unused-ignore]  # the train extra
import jax.numpy as jnp  # type: ignore[import-not-found, unused-ignore]
import numpy as np
import numpy.typing as npt
import optax  # type: ignore[import-untyped, import-not-found, unused-ignore]
from jax import Array  # type: ignore[import-not-found, unused-ignore]
from jax.typing import ArrayLike  # type: ignore[import-not-found, unused-ignore]

from folkdeck.agents.learned import FORMAT, ModelMeta, QNetwork
from folkdeck.train.selfplay import F32, Samples

Params = tuple[tuple[Array, ...], ...]
Inputs = Callable[[F32, F32], F32]
"""``(views, action rows) → the network's action inputs`` (:meth:`ActionFeatures.inputs
<folkdeck.agents.features.ActionFeatures.inputs>`): the data keep plain rows."""


Batch = tuple[F32, F32, npt.NDArray[np.floating], F32]
"""``(views, action inputs, targets, weights)``: one row per (decision, action) pair."""


def _plain(views: F32, rows: F32) -> F32:
    return rows


def init_params(view_size: int, action_size: int, hidden: Sequence[int], seed: int) -> Params:
    """He-initialised weights, zero biases."""
    key = jax.random.PRNGKey(seed)
    k_view, k_action, *keys = jax.random.split(key, len(hidden) + 2)
    first = hidden[0]
    scale = np.sqrt(2.0 / (view_size + action_size))
    layers: list[tuple[Array, ...]] = [(jax.random.normal(k_view, (view_size, first)) * scale,
                                        jax.random.normal(k_action, (action_size, first)) * scale,
                                        jnp.zeros(first))]
    sizes = [*hidden, 1]
    for k, (n_in, n_out) in zip(keys, zip(sizes[:-1], sizes[1:], strict=True), strict=True):
        layers.append((jax.random.normal(k, (n_in, n_out)) * np.sqrt(2.0 / n_in), jnp.zeros(n_out)))
    return tuple(layers)


def forward(params: Params, views: ArrayLike, actions: ArrayLike) -> Array:
    """Q per row of (view, action), in ``scale`` units (as ``QNetwork.scores`` computes it)."""
    w_view, w_action, b = params[0]
    h = jax.nn.relu(views @ w_view + actions @ w_action + b)
    for w, b in params[1:-1]:
        h = jax.nn.relu(h @ w + b)
    w, b = params[-1]
    return (h @ w + b)[:, 0]


def loss(params: Params, views: Array, actions: Array, target: Array, weight: Array) -> Array:
    """The weighted mean squared error."""
    error = forward(params, views, actions) - target
    return jnp.sum(weight * error * error) / jnp.maximum(jnp.sum(weight), 1e-6)


CHECKS: Final = 10
"""How many times :meth:`Trainer.fit` checks the network on held-out decisions."""


@dataclass(frozen=True, slots=True)
class Choices:
    """The network's choices at the teacher's decisions that have a choice (two valued
    actions or more): how often it chose an action the teacher valued best, and how much
    less, on average, the teacher valued its choice than its own best (in return units)."""

    decisions: int
    agreement: float
    regret: float

    @classmethod
    def of(cls, data: Samples, scores: npt.NDArray[np.floating]) -> Choices:
        """From the network's ``scores``, one per pair of ``data`` (its pairs in decision order).

        >>> data = Samples(np.zeros((3, 1), np.float16), np.zeros((6, 1), np.float16),
        ...                np.array([0, 0, 1, 1, 1, 2], np.int32), np.array([1, 0, 2, 5, 3, 9], np.float32),
        ...                np.ones(6, np.float32), np.zeros(6, bool), np.zeros(3, np.float32))
        >>> Choices.of(data, np.array([0.1, 0.2, 0.0, 0.9, 0.1, 0.0]))  # decision 2 has no choice
        Choices(decisions=2, agreement=0.5, regret=0.5)
        """
        valued = np.flatnonzero(data.weight == 1.0)  # a learner's return samples are not the teacher's
        decision, target, score = data.decision[valued], data.target[valued], scores[valued]
        if len(decision) and np.any(np.diff(decision) < 0):
            raise ValueError("the pairs are not in decision order")
        order = np.lexsort((-score, decision))  # per decision, the network's choice first
        starts = np.flatnonzero(np.r_[True, decision[order][1:] != decision[order][:-1]])
        sizes = np.diff(np.r_[starts, len(order)])
        best = np.maximum.reduceat(target[order], starts) if len(order) else np.zeros(0)
        chosen = target[order][starts]
        choice = sizes >= 2
        n = int(choice.sum())
        if n == 0:
            return cls(0, 0.0, 0.0)
        return cls(n, float(np.mean(chosen[choice] >= best[choice])), float(np.mean((best - chosen)[choice])))


@dataclass(frozen=True, slots=True)
class StoppedAt:
    """The check :meth:`Trainer.fit` kept: after how many minibatches, and its choices."""

    steps: int
    choices: Choices


@dataclass
class Trainer:
    """Parameters, the optimiser and its state; :meth:`fit` runs minibatch Adam."""

    params: Params
    learning_rate: float = 1e-3
    opt_state: optax.OptState | None = None
    inputs: Inputs = _plain

    def __post_init__(self) -> None:
        self._optimizer = optax.adam(self.learning_rate)
        if self.opt_state is None:
            self.opt_state = self._optimizer.init(self.params)
        optimizer = self._optimizer

        def step(params: Params, opt_state: optax.OptState, views: Array, actions: Array, target: Array,
                 weight: Array) -> tuple[Params, optax.OptState, Array]:
            value, grads = jax.value_and_grad(loss)(params, views, actions, target, weight)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, value

        self._step = jax.jit(step)
        self._loss = jax.jit(loss)
        self._forward = jax.jit(forward)
        self.checked: list[StoppedAt] = []
        """Every check of :meth:`fit` on held-out decisions, in order."""
        self.stopped: StoppedAt | None = None
        """The check whose parameters :meth:`fit` kept (with a ``holdout``)."""

    def fit(self, data: Samples, scale: float, steps: int, batch: int, rng: np.random.Generator,
            holdout: Samples | None = None, checks: int = CHECKS) -> float:
        """``steps`` minibatches of ``batch`` pairs; the mean loss over them.

        With ``holdout`` (teacher decisions kept out of ``data``), the network is checked on
        them ``checks`` times, evenly spaced, and the parameters that chose best there (the
        least :attr:`Choices.regret`) are kept, with their optimiser state: early stopping,
        since a network of this size learns the noise of a few thousand deals' values.
        :attr:`stopped` tells which check won."""
        if holdout is None:
            return self._steps(data, scale, steps, batch, rng)
        inputs = self._inputs(holdout)
        best: tuple[float, Params, optax.OptState] | None = None
        total, done = 0.0, 0
        for k in range(1, checks + 1):
            part = steps * k // checks - done
            total += self._steps(data, scale, part, batch, rng) * part
            done += part
            choices = self.choices(holdout, inputs)
            self.checked.append(StoppedAt(done, choices))
            if best is None or choices.regret < best[0]:
                best = (choices.regret, self.params, self.opt_state)
                self.stopped = self.checked[-1]
        assert best is not None
        self.params, self.opt_state = best[1], best[2]
        return total / max(1, steps)

    def _steps(self, data: Samples, scale: float, steps: int, batch: int, rng: np.random.Generator) -> float:
        total = 0.0
        for views, actions, target, weight in batches(data, scale, steps, batch, rng, self.inputs):
            self.params, self.opt_state, value = self._step(self.params, self.opt_state, views, actions,
                                                            target, weight)
            total += float(value)
        return total / max(1, steps)

    def _inputs(self, data: Samples) -> tuple[F32, F32]:
        views = data.views[data.decision].astype(np.float32)
        return views, self.inputs(views, data.actions.astype(np.float32))

    def choices(self, data: Samples, inputs: tuple[F32, F32] | None = None) -> Choices:
        """How the network's choices compare with the teacher's on ``data``'s decisions
        (``inputs``: the network's inputs for them, if already made)."""
        views, actions = inputs if inputs is not None else self._inputs(data)
        return Choices.of(data, np.asarray(self._forward(self.params, views, actions)))

    def evaluate(self, data: Samples, scale: float) -> float:
        """The loss on all of ``data`` (a fixed batch: the tests' check that training helps)."""
        views, actions, target, weight = arrays(data, scale, np.arange(data.num_pairs), self.inputs)
        return float(self._loss(self.params, views, actions, target, weight))

    def export(self, meta: ModelMeta) -> QNetwork:
        """The NumPy model of the current parameters."""
        layers = tuple(tuple(np.asarray(a, dtype=np.float32) for a in layer) for layer in self.params)
        layers = tuple((*layer[:-1], layer[-1].reshape(1, -1)) if i == 0 else
                       (layer[0], layer[1].reshape(1, -1)) for i, layer in enumerate(layers))
        return QNetwork(layers, {**meta, "format": FORMAT, "layers": len(layers)})

    def state_arrays(self) -> dict[str, np.ndarray]:
        """Parameters and optimiser state as named arrays (a resumable checkpoint)."""
        leaves = jax.tree_util.tree_leaves((self.params, self.opt_state))
        return {f"leaf{i}": np.asarray(x) for i, x in enumerate(leaves)}

    def load_state(self, arrays: dict[str, np.ndarray]) -> None:
        """Restore :meth:`state_arrays` (same shapes, as the same recipe makes them)."""
        current = (self.params, self.opt_state)
        structure = jax.tree_util.tree_structure(current)
        leaves = [jnp.asarray(arrays[f"leaf{i}"]) for i in range(len(jax.tree_util.tree_leaves(current)))]
        self.params, self.opt_state = jax.tree_util.tree_unflatten(structure, leaves)


def arrays(data: Samples, scale: float, rows: npt.NDArray[np.signedinteger], inputs: Inputs = _plain) -> Batch:
    """The float32 inputs, scaled advantages and weights of the pairs ``rows``."""
    views = data.views[data.decision[rows]].astype(np.float32)
    actions = inputs(views, data.actions[rows].astype(np.float32))
    target, weight = data.advantages()
    return views, actions, target[rows] / scale, weight[rows]


def batches(data: Samples, scale: float, steps: int, batch: int, rng: np.random.Generator,
            inputs: Inputs = _plain) -> Iterator[Batch]:
    """``steps`` minibatches of pairs drawn without replacement (reshuffled each epoch)."""
    views, actions = data.views, data.actions
    target, weight = data.advantages()
    kept = np.flatnonzero(weight > 0)
    order = rng.permutation(kept)
    at = 0
    for _ in range(steps):
        if at + batch > len(order):
            order, at = rng.permutation(kept), 0
        rows = order[at:at + batch]
        chosen = views[data.decision[rows]].astype(np.float32)
        yield chosen, inputs(chosen, actions[rows].astype(np.float32)), target[rows] / scale, weight[rows]
        at += batch


__all__ = ["CHECKS", "Batch", "Choices", "Inputs", "Params", "StoppedAt", "Trainer", "arrays", "batches", "forward", "init_params", "loss"]
