"""Kap Hai determinization: a full state consistent with what one seat has seen.

The search bots (:mod:`folkdeck.agents.search`) see only observations, so the sampler
is built from the observation and the game (its rules are public), never from the real
state. Everything public is copied as it is: the table, who passed, who is out, the
history, the 3s put out, the others' card counts. The only hidden cards in Kap Hai are
the other hands (and the undealt piles with 2-3 players); every card not in the seat's
hand, not played and not put out is dealt again at random, each other seat receiving
exactly as many as it holds and the undealt piles the rest. A pass reveals nothing in
Kap Hai (passing is always allowed), so the uniform deal is the consistent one.

The state is rebuilt directly (not by replaying the deal), so sampling costs one
shuffle and a few copies: about 30 µs.

>>> import random
>>> from folkdeck import load
>>> game = load("kaphai")
>>> real = game.new_state(seed=3)
>>> _ = real.apply(real.legal_actions()[0])
>>> seat = real.current_seat
>>> world = determinize(game, real.observe(seat), random.Random(1))
>>> world.observe(seat).to_dict() == real.observe(seat).to_dict()
True
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from folkdeck.cards import parse_cards
from folkdeck.engine.errors import WrongPhaseError
from folkdeck.engine.protocol import Event
from folkdeck.games.kaphai.actions import PASS, Pass, parse_action
from folkdeck.games.kaphai.game import KapHaiGame
from folkdeck.games.kaphai.observation import KapHaiObservation
from folkdeck.games.kaphai.rules import FULL, INDEX, Combo, classify
from folkdeck.games.kaphai.state import KapHaiState, _Table


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << INDEX[c]
    return m


def _text_mask(text: str) -> int:
    return _mask(parse_cards(text)) if text else 0


def parse_event(line: str) -> Event:
    """An event back from its public line (``"2: 5S 5H; seat 2 wins the trick"``)."""
    head, _, rest = line.partition(": ")
    parts = rest.split("; ")
    return Event(int(head), parse_action(parts[0]), tuple(parts[1:]))


def determinize(game: KapHaiGame, observation: KapHaiObservation, rng: random.Random) -> KapHaiState:
    """A state agreeing with ``observation`` whose hidden cards are dealt at random.

    :raises WrongPhaseError: outside the play phase (the putuh window is decided on the
        seat's own hand, with nothing to search).
    """
    seat = observation.seat
    if seat is None or observation.hand is None:
        raise WrongPhaseError("determinize needs a seat's observation", phase=observation.phase)
    if observation.phase != "play":
        raise WrongPhaseError(f"nothing to determinize in phase {observation.phase}",
                              phase=observation.phase)
    n = observation.num_players
    seen = _seen(game, observation)
    events, played_by, played, shed, own = seen.events, seen.played_by, seen.played, seen.shed, seen.own
    unknown = FULL & ~(own | played | shed)
    pool = [i for i in range(52) if unknown >> i & 1]
    rng.shuffle(pool)
    hands = [0] * n
    at = 0
    for s in range(n):
        if s == seat:
            hands[s] = own
            continue
        for i in pool[at:at + observation.counts[s]]:
            hands[s] |= 1 << i
        at += observation.counts[s]
    undealt = 0
    for i in pool[at:]:
        undealt |= 1 << i

    state: KapHaiState = object.__new__(KapHaiState)
    st: Any = state  # the private slots are filled here, in the game's own package
    st._game = game
    st._rules = game.options
    st._n = n
    st._hands = hands
    st._start = tuple(h | p for h, p in zip(hands, played_by, strict=True))
    st._undealt = undealt
    st._shed = shed
    st._three_game = observation.three_game
    # The deal's leader made its first play: the putuh window's answers come before it.
    st._leader = next((e.seat for e in events if isinstance(e.action, Combo)),
                      observation.current_seat or 0)
    st._lead_single = observation.three_game and not played
    st._phase = "play"
    st._turn = observation.current_seat
    st._top = seen.top
    st._top_seat = observation.top_seat if observation.top_seat is not None else -1
    passed = 0
    for s in observation.passed:
        passed |= 1 << s
    st._passed = passed
    st._out = list(observation.out_order)
    st._played = played
    st._trick = list(seen.trick)
    st._history = list(events)
    st._history_text = list(observation.history)
    st._putuh = None
    st._result = None
    st._tables = [None] * n
    st._tables[seat] = seen.own_table
    return state


class _Seen(NamedTuple):
    """What a seat's observation says, parsed once for all the worlds sampled from it."""

    events: tuple[Event, ...]
    played_by: tuple[int, ...]
    played: int
    shed: int
    own: int
    top: Combo | None
    trick: tuple[tuple[int, Any, bool], ...]
    own_table: Any


_last_seen: list[tuple[KapHaiObservation, KapHaiGame, _Seen]] = []
"""A one-entry memo: a search samples hundreds of worlds from the same observation."""


def _seen(game: KapHaiGame, observation: KapHaiObservation) -> _Seen:
    if _last_seen and _last_seen[0][0] is observation and _last_seen[0][1] is game:
        return _last_seen[0][2]
    events = tuple(parse_event(line) for line in observation.history)
    played_by = [0] * observation.num_players
    for e in events:
        if isinstance(e.action, Combo):
            played_by[e.seat] |= e.action.mask
    played = 0
    for m in played_by:
        played |= m
    trick = []
    for item in observation.trick:
        head, _, rest = item.partition(": ")
        thrown = rest.endswith(" (thrown)")
        action = parse_action(rest.removesuffix(" (thrown)"))
        trick.append((int(head), PASS if isinstance(action, Pass) else action, thrown))
    own = _mask(observation.hand or ())
    # The seat's hand is the same in every world: its move table (immutable, shared by
    # clones) is built once.
    own_table = (own, _Table.of(own, game.options))
    seen = _Seen(events, tuple(played_by), played, _text_mask(observation.shed), own,
                 classify(_text_mask(observation.top)) if observation.top else None, tuple(trick),
                 own_table)
    _last_seen[:] = [(observation, game, seen)]
    return seen


def is_searchable(observation: Any) -> bool:
    """True when :func:`determinize` applies (a seat's view in the play phase)."""
    return bool(getattr(observation, "phase", None) == "play" and observation.seat is not None)


__all__ = ["determinize", "is_searchable", "parse_event"]
