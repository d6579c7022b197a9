"""The State contract is stated once: the protocol and the base class name the same members.

:class:`~folkdeck.engine.protocol.State` is the contract for code taking any state;
:class:`~folkdeck.engine.state_base.StateBase` is the same contract as the games' base
class, with the defaults of its optional hooks. Every registered game's state inherits
the base and satisfies the protocol.
"""

from __future__ import annotations

import pytest

import folkdeck
from folkdeck.engine.protocol import State
from folkdeck.engine.state_base import StateBase


def _members(cls: type) -> set[str]:
    return {name for klass in cls.__mro__ if klass not in (object,) and klass.__module__.startswith("folkdeck")
            for name in vars(klass) if not name.startswith("_")}


def test_protocol_and_base_name_the_same_members() -> None:
    # What the base leaves to each game (game, deal_info, all_cards, hidden_cards) it does
    # not declare; everything it declares is a member of the protocol, and the protocol's
    # other members are exactly those left to the game.
    # The base also holds the state's data (``deal``, a slot), which the protocol leaves open.
    left_to_game = {"game", "deal_info", "all_cards", "hidden_cards"}
    base = _members(StateBase) - {"deal"}
    assert base | left_to_game == _members(State)
    assert not base & left_to_game


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
