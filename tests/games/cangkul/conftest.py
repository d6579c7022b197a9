"""Helpers for Cangkul/Burro state tests: deals from notation, actions from record lines."""

from __future__ import annotations

from typing import Any

from folkdeck import load
from folkdeck.engine.protocol import Event
from folkdeck.games.cangkul.state import CangkulState
from folkdeck.i18n import Renderer


def deal(name: str, hands: list[str], stock: list[str] | None = None, leader: int = 0,
         **options: Any) -> CangkulState:
    game = load(name, players=len(hands), **options)
    state = game.new_state(hands=hands, stock=stock or [], setup={"leader": leader})
    assert isinstance(state, CangkulState)
    return state


def run(state: CangkulState, *lines: str) -> list[Event]:
    events = []
    for line in lines:
        seat, _, text = line.partition(":")
        events.append(state.apply(state.parse_action(text.strip(), int(seat)), int(seat)))
    return events


def hands(state: CangkulState) -> list[str]:
    return [" ".join(str(c) for c in state.hand(s)) for s in range(state.num_players)]


def notes(state: CangkulState, event: Event, viewer: int | None = None) -> tuple[str, ...]:
    """The event's facts as ``viewer`` reads them in English (a spectator by default),
    each starting lower case as the old event notes did."""
    spec = state.game.spec
    english = Renderer("en", game=spec.name, viewer=viewer, notation="french")
    out = []
    for fact in event.facts:
        seen = fact.censored(viewer)
        if seen is not None:
            text = english.fact(seen)
            out.append(text[0].lower() + text[1:])
    return tuple(out)
