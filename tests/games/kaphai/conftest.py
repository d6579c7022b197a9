"""Helpers for Kap Hai state tests: deals from notation, actions from text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import folkdeck
from folkdeck.games.kaphai.state import KapHaiState


def deal(hands: Sequence[str], *, leader: int = 0, three_game: bool = False,
         **rules: Any) -> KapHaiState:
    """A study position: explicit hands (seat 0 first), a normal deal by default."""
    game = folkdeck.load("kaphai", players=len(hands), **rules)
    state = game.new_state(hands=list(hands), setup={"three_game": three_game, "leader": leader})
    assert isinstance(state, KapHaiState)
    return state


def play(state: KapHaiState, *lines: str) -> None:
    """Apply record lines ``"<seat>: <action>"``."""
    for line in lines:
        seat, _, text = line.partition(":")
        state.apply(state.parse_action(text.strip(), int(seat)), int(seat))


@pytest.fixture
def kaphai() -> folkdeck.Game:
    return folkdeck.load("kaphai")
