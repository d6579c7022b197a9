"""Property tests over every registered game: Hypothesis picks the seed and every choice.

Invariants (the foundation issue): cards are conserved, every listed action applies,
actions from elsewhere that are not listed are refused without a change, games end,
and nobody's view names a card hidden from them. The slow variant (``-m slow``; CI runs it
on the compiled build, ``make test-fast-build``) explores thousands of games.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import folkdeck
from folkdeck.engine.conformance import check_views, fingerprint
from folkdeck.engine.errors import IllegalActionError

GAMES = [g for g in folkdeck.games() if g != "gouji"]  # Gou Ji deals are long: own test below


def _play(name: str, players: int, seed: int, choices: list[int], max_steps: int) -> None:
    spec = folkdeck.get_spec(name)
    players = spec.min_players + players % (spec.max_players - spec.min_players + 1)
    state = folkdeck.load(name, players=players).new_state(seed=seed)
    total = Counter(str(c) for cards in state.all_cards().values() for c in cards)
    foreign = None
    checked = 0
    for step in range(max_steps):
        if state.is_over():
            break
        acting = state.to_act
        seat = acting[choices[step % len(choices)] % len(acting)] if choices else acting[0]
        legal = state.legal_actions(seat)
        if seat != acting[0] and not legal:
            seat, legal = acting[0], state.legal_actions(acting[0])
        if foreign is not None and foreign not in legal and not state.is_legal(foreign, seat):
            before = fingerprint(state)
            with pytest.raises(IllegalActionError):
                state.apply(foreign, seat)
            assert fingerprint(state) == before
        pick = legal[(choices[step % len(choices)] if choices else 0) % len(legal)]
        foreign = pick
        state.apply(pick, seat)
        assert Counter(str(c) for cards in state.all_cards().values() for c in cards) == total
        if step % 7 == 0:
            checked = check_views(state, total, since=checked)
    else:
        return  # a long game: the invariants held for max_steps steps
    assert state.result() is not None


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(0, 10), seed=st.integers(0, 2**32 - 1),
       choices=st.lists(st.integers(0, 1000), max_size=60))
def test_invariants_hold_in_any_game(name: str, players: int, seed: int, choices: list[int]) -> None:
    _play(name, players, seed, choices, max_steps=3000)


@pytest.mark.slow
@pytest.mark.parametrize("name", folkdeck.games())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(0, 10), seed=st.integers(0, 2**32 - 1),
       choices=st.lists(st.integers(0, 1000), max_size=80))
def test_invariants_hold_in_thousands_of_games(name: str, players: int, seed: int,
                                               choices: list[int]) -> None:
    _play(name, players, seed, choices, max_steps=3000)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.integers(0, 1000), min_size=1, max_size=40))
def test_invariants_hold_in_gou_ji(seed: int, choices: list[int]) -> None:
    _play("gouji", 0, seed, choices, max_steps=3000)
