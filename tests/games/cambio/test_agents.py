"""The counting bot: sound decisions in clear positions, and better than random."""

from __future__ import annotations

import random
from collections import Counter
from typing import cast

from hypothesis import given, settings
from hypothesis import strategies as st

from folkdeck import load
from folkdeck.agents import RandomAgent
from folkdeck.engine.protocol import GameAgent
from folkdeck.games.cambio import CHANGE, CUCCO, KEEP, CambioGame, CambioState
from folkdeck.games.cambio.agents import CountingAgent, p_lowest
from folkdeck.sim.runner import play_deal


def _state(hands: list[str], stock: list[str], dealer: int) -> CambioState:
    return cast(CambioGame, load("cambio", players=len(hands))).new_state(hands=[[h] for h in hands], stock=stock,
                                                        setup={"dealer": dealer})


def test_changes_a_fool_and_keeps_a_high_card() -> None:
    bot = CountingAgent()
    state = _state(["FOOL", "5", "7"], ["3", "9"], 2)
    assert bot.act(state.observe(0), state.legal_actions(0), random.Random(0)) is CHANGE
    state = _state(["10", "5", "7"], ["3", "9"], 2)
    assert bot.act(state.observe(0), state.legal_actions(0), random.Random(0)) is KEEP


def test_owl_called_before_left_neighbour_speaks() -> None:
    # docs/rules/cambio.md §9 "自分の左隣のプレイヤーが「カンビオ」と言う前に自分が「クク」と宣言する"
    bot = CountingAgent()
    state = _state(["2", "5", "OWL", "9"], ["3"], 3)
    assert bot.interrupt(state.observe(2), state.legal_actions(2), random.Random(0)) is None
    state.apply(KEEP)  # seat 0; now seat 1, the OWL's left neighbour, is on turn
    assert bot.interrupt(state.observe(2), state.legal_actions(2), random.Random(0)) is CUCCO


@given(st.integers(-4, 16), st.lists(st.integers(-4, 15), max_size=3),
       st.lists(st.integers(0, 19), max_size=12), st.integers(0, 4))
@settings(max_examples=200, deadline=None)
def test_p_lowest_is_a_probability(v: int, fixed: list[int], unseen: list[int], m: int) -> None:
    p = p_lowest(v, fixed, m, Counter(unseen))
    assert 0.0 <= p <= 1.0


def test_counting_beats_random() -> None:
    game = load("cambio", players=4)
    losses = Counter[int]()
    deals = 600
    for seed in range(deals):
        agents: list[GameAgent] = [CountingAgent(), RandomAgent(), RandomAgent(), RandomAgent()]
        state = play_deal(game.new_state(seed=seed, setup={"dealer": seed % 4}), agents,
                          random.Random(seed))
        result = state.result()
        assert result is not None
        losses.update(result.details["losers"])
    random_rate = (losses[1] + losses[2] + losses[3]) / 3 / deals
    assert losses[0] / deals < random_rate - 0.1
