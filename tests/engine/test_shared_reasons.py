"""Every refusal with a shared reason carries exactly the shared parameters, in every game.

:data:`folkdeck.engine.errors.SHARED_REASONS`: ``<game>.not_your_turn`` (``seat``,
``to_act``, ``action``), ``<game>.not_held`` (``seat``, ``action``, ``cards``) and
``<game>.not_an_action`` (``seat``, ``action``), so that a client reads one vocabulary
whatever the game. The refusals are provoked from random positions: each seat tries every
action legal somewhere in the deal, and a word that is no action of any game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import folkdeck
from folkdeck.engine.errors import SHARED_REASONS, CardGameError, NotYourTurnError, not_held

_NO_CARDS_IN_ACTIONS = {"cambio"}
"""Games whose actions are words (change, keep, cucco): nothing can be not held."""


class _NoAction:
    """An object no game takes as an action."""

    def __str__(self) -> str:
        return "nonsense"


def _refusals(name: str, seeds: range) -> list[CardGameError]:
    caught: list[CardGameError] = []
    for seed in seeds:
        rng = random.Random(seed)
        state = folkdeck.load(name).new_state(seed=seed)
        tried: list[Any] = [_NoAction()]
        for _ in range(200):
            if state.is_over():
                break
            for seat in range(state.num_players):
                tried.extend(state.legal_actions(seat))
            for seat in range(state.num_players):
                for action in [*rng.sample(tried, min(len(tried), 8)), tried[0]]:
                    try:
                        state.verify(action, seat)
                    except CardGameError as err:
                        caught.append(err)
            state.apply(rng.choice(state.legal_actions()))
    return caught


@pytest.mark.parametrize("name", folkdeck.games())
def test_shared_reasons_carry_exactly_the_shared_params(name: str) -> None:
    refusals = _refusals(name, range(4))
    seen = set()
    for err in refusals:
        # The Burros' reasons are Cangkul's (cangkul.*); a kit game's are the engine's own
        # (not_your_turn, no prefix: tests/toy_game).
        reason = err.reason.rpartition(".")[2]
        if reason in SHARED_REASONS:
            seen.add(reason)
            assert tuple(err.params) == SHARED_REASONS[reason], (err.reason, dict(err.params))
            assert isinstance(err.params["seat"], int) and isinstance(err.params["action"], str)
            if reason == "not_your_turn":
                assert isinstance(err, NotYourTurnError) and err.params["to_act"]
                assert all(isinstance(s, int) for s in err.params["to_act"])
                assert err.params["seat"] not in err.params["to_act"]
            if reason == "not_held":
                assert err.params["cards"] and isinstance(err.params["cards"], str)
    expected = set(SHARED_REASONS) - ({"not_held"} if name in _NO_CARDS_IN_ACTIONS else set())
    assert seen == expected, f"{name}: never provoked {expected - seen}"


def test_a_seat_refused_reads_you() -> None:
    """The refused seat's own view renders the "you" form (never "you does not hold")."""
    err = not_held("kaphai", 1, "4C 4D", "4D")
    assert err.render("en", viewer=1) == "you do not hold 4D"
    assert err.render("en", viewer=0) == "seat 1 does not hold 4D"
    assert err.render("ja", viewer=1) == "あなたは4Dを持っていません"
