"""The State contract is stated once, by the protocol; the base class implements it.

:class:`~folkdeck.engine.protocol.State` is the one contract of a state (its members are
documented there); :class:`~folkdeck.engine.state_base.StateBase` is what the games' states
inherit to implement it, and declares no public member of its own. Every registered game's
state satisfies the protocol: at run time here, and for mypy wherever the game is a
``Game`` (each game's ``GameHooks.make``), as actions are typed
(:class:`~folkdeck.engine.values.Action`, not ``Any``).
"""

from __future__ import annotations

import random

import pytest

import folkdeck
from folkdeck.engine.protocol import State
from folkdeck.engine.state_base import StateBase


def _members(cls: type) -> set[str]:
    return {name for klass in cls.__mro__ if klass not in (object,) and klass.__module__.startswith("folkdeck")
            for name in vars(klass) if not name.startswith("_")}


def test_the_base_adds_no_member_to_the_contract() -> None:
    # What the base leaves to each game (game, deal_info, all_cards, hidden_cards) it does
    # not declare; everything it declares is a member of the protocol, but for the slot
    # holding the state's data (``deal``), which the protocol leaves open.
    left_to_game = {"game", "deal_info", "all_cards", "hidden_cards"}
    base = _members(StateBase) - {"deal"}
    assert base <= _members(State)
    assert base | left_to_game == _members(State)


@pytest.mark.parametrize("name", folkdeck.games())
def test_every_game_state_inherits_the_base_and_satisfies_the_protocol(name: str) -> None:
    state = folkdeck.load(name).new_state(seed=1)
    assert isinstance(state, StateBase)
    assert isinstance(state, State)  # type: ignore[misc]  # runtime_checkable (by a call): every member is there
    assert isinstance(state.public_to_act(), tuple) and isinstance(state.possible_callers(), tuple)
    assert set(state.public_to_act()) <= set(state.to_act)


def test_default_hooks() -> None:
    """A game that declares neither hook waits publicly for the seat on turn alone and has
    no hidden callers (Cangkul: one seat acts at a time, nothing out of turn)."""
    state = folkdeck.load("cangkul").new_state(seed=3)
    assert state.public_to_act() == state.to_act[:1] == (state.current_seat,)
    assert state.possible_callers() == ()


@pytest.mark.parametrize("name", folkdeck.games())
def test_the_base_calls_no_hook_of_the_game(name: str) -> None:
    """What the base does by itself it makes from the data every state has or from the
    protocol's own members: a game overrides none of its private methods (there is no
    template to fill in) and only names, in ``_shared``, the parts a clone shares."""
    state = folkdeck.load(name).new_state(seed=1)
    assert isinstance(state, StateBase)
    cls = type(state)
    private = {n for n, v in vars(StateBase).items()
               if n.startswith("_") and not n.startswith("__") and callable(v)}
    overridden = {n for n in private for klass in cls.__mro__[:cls.__mro__.index(StateBase)] if n in vars(klass)}
    assert not overridden, f"{name} overrides the base's {sorted(overridden)}"
    assert cls._shared and all(hasattr(state, n) for n in cls._shared)


@pytest.mark.parametrize("name", folkdeck.games())
def test_a_view_of_a_finished_deal_carries_its_result(name: str) -> None:
    """The first thing asked of a finished deal may be a view: it shows the result that
    ``result()`` gives (a game may make its result when first asked, Cambio does)."""
    game = folkdeck.load(name)
    state = game.new_state(seed=4)
    rng = random.Random(4)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    first = state.clone().observe(0).result
    result = state.result()
    assert result is not None and first == result.to_dict()
