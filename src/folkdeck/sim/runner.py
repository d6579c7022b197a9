"""Play deals with agents, through the engine protocol only.

Out-of-turn windows: ``state.to_act[0]`` is the seat whose decision the game waits
for; any further seats in ``to_act`` *may* act now (a putuh, the owl's call,
burning). Before each required decision the runner offers every such seat's agent
its chance through the agent's optional ``interrupt(observation, legal, rng)``
method, which returns an action or ``None`` (the default for agents without it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from folkdeck.engine.playout import random_playout
from folkdeck.engine.protocol import GameAgent, State
from folkdeck.engine.record import Record
from folkdeck.json_types import JSONValue


def offer_interrupts(state: State, agents: Sequence[GameAgent], rng: random.Random,
                     skip: frozenset[int] = frozenset()) -> bool:
    """Let out-of-turn seats act; True if one did (the state changed)."""
    for seat in state.to_act[1:]:
        if seat in skip:
            continue
        interrupt = getattr(agents[seat], "interrupt", None)
        if interrupt is None:
            continue
        legal = state.legal_actions(seat)
        if not legal:
            continue
        action = interrupt(state.observe(seat), legal, rng)
        if action is not None:
            state.apply(action, seat)
            return True
    return False


def step(state: State, agents: Sequence[GameAgent], rng: random.Random) -> None:
    """One decision: an interrupt if an agent takes one, else the required seat's act."""
    if offer_interrupts(state, agents, rng):
        return
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    state.apply(agents[seat].act(state.observe(seat), legal, rng), seat)


def play_deal(state: State, agents: Sequence[GameAgent], rng: random.Random,
              max_steps: int = 100_000) -> State:
    """Play ``state`` to its end with one agent per seat; returns the same state."""
    for _ in range(max_steps):
        if state.is_over():
            return state
        step(state, agents, rng)
    raise RuntimeError(f"deal not over after {max_steps} steps: {state!r}")


def record_of(state: State, **extra: JSONValue) -> Record:
    """The record of a played deal."""
    return Record.from_state(state, **extra)


__all__ = ["offer_interrupts", "play_deal", "random_playout", "record_of", "step"]
