"""Helpers for the Gou Ji tests: deals from short hands and record-style action lines."""

from __future__ import annotations

from typing import Any

import pytest

from folkdeck import load
from folkdeck.engine.facts import Fact
from folkdeck.engine.protocol import Event
from folkdeck.games.gouji.state import GouJiState


def make(hands: list[str], setup: dict[str, Any] | None = None, **options: Any) -> GouJiState:
    """A deal from short hands. The rule tests were written for windows that ask only the
    seats with the right (``ask_all_seats=False``, the reading of records made before the
    option), which keeps each test's lines short; the tests of ``ask_all_seats`` pass it."""
    options.setdefault("ask_all_seats", False)
    state = load("gouji", **options).new_state(hands=hands, setup=setup or {"leader": 0})
    assert isinstance(state, GouJiState)
    return state


def run(state: GouJiState, *lines: str) -> list[Event]:
    """Apply ``"<seat>: <action>"`` lines; return the events."""
    events = []
    for line in lines:
        seat, _, text = line.partition(":")
        events.append(state.apply(state.parse_action(text.strip()), int(seat)))
    return events


@pytest.fixture
def duel_hands() -> list[str]:
    """0 leads 9; 2 plays 10; 4 plays a 2 (gouji); 1 holds BJ; nobody can burn."""
    return ["9S 3S 4S 5S", "3C BJ 4C 5C", "10S 3D 4D 5D", "6S 7S 8S 3H", "2S 6H 7H 8H",
            "6C 7C 8C 4H"]


def full_load(**options: Any) -> Any:
    """The game with the old windows (see :func:`make`), for tests dealing full hands."""
    options.setdefault("ask_all_seats", False)
    return load("gouji", **options)


def has(event: Event, fact: Fact) -> bool:
    """Whether the event's facts include ``fact``."""
    return fact in event.facts
