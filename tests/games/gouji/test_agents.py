"""Gou Ji bots: the greedy bot respects its team and beats random play."""

from __future__ import annotations

import random

from folkdeck import load
from folkdeck.agents import RandomAgent
from folkdeck.games.gouji import SPEC
from folkdeck.games.gouji.actions import PASS, XIAN
from folkdeck.games.gouji.agents import GreedyAgent
from folkdeck.sim.runner import play_deal

from .conftest import make, run


def _act(state: object, seat: int) -> str:
    agent = GreedyAgent()
    return str(agent.act(state.observe(seat), state.legal_actions(seat), random.Random(0)))  # type: ignore[attr-defined]


def test_greedy_does_not_beat_its_teammate() -> None:
    s = make(["5S 9S", "3S 4S", "6S 7S", "8S 3D", "JS 4D", "3H 4H"])
    run(s, "0: 5", "1: pass")
    assert _act(s, 2) == "pass"               # seat 0 (teammate) wins: pass although 6 beats 5
    s = make(["5S 9S", "6S 4S", "3C 7S", "8S 3D", "JS 4D", "3H 4H"])
    run(s, "0: 5")
    assert _act(s, 1) == "6"                  # an opponent wins: cheapest beating set


def test_greedy_leads_low_natural_sets_and_takes_windows() -> None:
    s = make(["5S 5H 9S 2C", "3S", "3C", "3D", "3H", "4S"])
    assert _act(s, 0) == "5 5"
    s = make(["5S 9S 9H", "3S 4S", "3C 4C", "8S 3D", "JS 4D", "3H 4H"])
    run(s, "0: 5", "1: pass", "2: pass", "3: 8")
    assert GreedyAgent().interrupt(s.observe(0), s.legal_actions(0), random.Random(0)) is XIAN
    run(s, "0: xian")
    assert GreedyAgent().act(s.observe(4), s.legal_actions(4), random.Random(0)) is PASS


def test_spec_bots() -> None:
    # the learned bot is the default since its third model beat a heuristic team (docs/bots.md)
    assert SPEC.default_bot == "learned" and set(SPEC.bots) >= {"random", "greedy", "heuristic", "learned"}


def test_greedy_team_beats_random_team() -> None:
    game = load("gouji")
    total = 0.0
    for seed in range(12):
        rng = random.Random(seed)
        agents = [GreedyAgent() if s % 2 == 0 else RandomAgent() for s in range(6)]
        state = play_deal(game.new_state(seed=seed), agents, rng)
        result = state.result()
        assert result is not None
        total += result.returns[0]
    assert total > 0
