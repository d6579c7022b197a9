"""Random playouts: a deal played to its end by uniformly random legal actions.

The fast loop behind ``folkdeck bench``, the arena's random seats and the tests' random
deals; it calls the public protocol only.

>>> import random
>>> from folkdeck import load
>>> state = load("kaphai").new_state(seed=1)
>>> random_playout(state, random.Random(1)) > 0 and state.is_over()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from folkdeck.cards.shuffling import below
from folkdeck.engine.protocol import State
from folkdeck.engine.state_base import DealCore, StateBase
from folkdeck.engine.values import Action
from folkdeck.engine.view import View

S = TypeVar("S", bound=State)


def random_playout(state: State, rng: random.Random, max_steps: int = 100_000) -> int:
    """Uniformly random legal actions for the required seat until the end; the step count.

    Each choice is ``rng.randrange(len(legal))``, drawn exactly as :class:`random.Random`
    draws it (:func:`~folkdeck.cards.shuffling.below`: same bits, same result), so a
    seeded playout is the same in every build.

    :raises RuntimeError: when the deal is not over after ``max_steps`` actions.
    """
    # `randrange` is three Python frames per choice, `below` one call with the same result.
    # Only `random.Random` itself draws this way; a subclass keeps its own `randrange`.
    if type(rng) is random.Random and isinstance(state, StateBase):
        return _playout(state, rng.getrandbits, max_steps)
    is_over, legal_actions, apply = state.is_over, state.legal_actions, state.apply
    randrange = rng.randrange
    steps = 0
    while not is_over():
        legal = legal_actions()
        apply(legal[randrange(len(legal))])
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"deal not over after {max_steps} steps: {state!r}")
    return steps


def _playout(state: StateBase[Action, View, DealCore], getrandbits: Callable[[int], int], max_steps: int) -> int:
    """:func:`random_playout` for the games' own states and :class:`random.Random`: the
    state typed as :class:`~folkdeck.engine.state_base.StateBase`, its methods called on it
    rather than held as bound methods (why: :mod:`folkdeck.engine.build`, "Calls")."""
    steps = 0
    while not state.is_over():
        legal = state.legal_actions()
        state.apply(legal[below(getrandbits, len(legal))])
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"deal not over after {max_steps} steps: {state!r}")
    return steps


def policy_playout(state: S, choose: Callable[[S, random.Random], Action], rng: random.Random,
                   max_steps: int = 20_000) -> int:
    """``choose(state, rng)``'s action for the required seat until the end (a game's rollout
    policy, in its ``rollout.py``); the step count.

    :raises RuntimeError: when the deal is not over after ``max_steps`` actions.
    """
    steps = 0
    while not state.is_over():
        state.apply(choose(state, rng))
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"rollout not over after {max_steps} steps: {state!r}")
    return steps


__all__ = ["policy_playout", "random_playout"]
