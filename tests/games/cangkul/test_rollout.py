"""The search bots' rollout policy (``games/cangkul/rollout.py``) and the search bots' setup."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from folkdeck import load
from folkdeck.agents.search import SearchAgent
from folkdeck.engine.registry import get_spec
from folkdeck.games.cangkul import CangkulGame
from folkdeck.games.cangkul.rollout import playout
from folkdeck.games.cangkul.state import CangkulState


class NoNoise(random.Random):
    """An RNG whose ``random()`` never falls under the rollout's noise share."""

    def random(self) -> float:
        return 0.999


def deal(name: str, hands: list[str], stock: list[str] | None = None, **options: Any) -> CangkulState:
    state = load(name, players=len(hands), **options).new_state(hands=hands, stock=stock or [],
                                                                 setup={"leader": 0})
    assert isinstance(state, CangkulState)
    return state


def test_a_leader_leads_low_from_its_longest_suit() -> None:
    state = deal("cangkul", ["AS 9H 5H 7H 2C", "3H 4H", "6H 8H 2S"])
    assert str(state.legal_actions()[0]) == "AS"  # the listing starts with the spades
    playout(state, NoNoise(1))
    assert str(state.history[0]).split("; ")[0] == "0: 5H"  # the lowest of the three hearts


def test_a_follower_plays_low_unless_last_and_able_to_win_cheaply() -> None:
    state = deal("cangkul", ["9H 2S 3S", "3H KH AH 4S", "5H QH 5S"])
    state.apply(state.parse_action("9H"))
    playout(state, NoNoise(1))
    moves = [str(e).split("; ")[0] for e in state.history]
    assert moves[1] == "1: 3H"    # not last: the lowest heart
    assert moves[2] == "2: QH"    # last: the cheapest heart above 9H


@pytest.mark.parametrize(("name", "rules"), [
    ("cangkul", {}), ("cangkul", {"joker": True, "cangkul_drop_out": True}),
    ("cangkul", {"players": 3, "cangkul_drop_out": True, "lead_after_pass": "first_passer"}),
    ("burro_es", {"players": 6}), ("burro_pt", {"stock_knock_prob": 0.1})])
def test_rollouts_end_every_deal_and_repeat_from_their_seed(name: str, rules: dict[str, Any]) -> None:
    game = cast(CangkulGame, load(name, **rules))
    for seed in range(40):
        a, b = game.new_state(seed=seed), game.new_state(seed=seed)
        playout(a, random.Random(seed))
        playout(b, random.Random(seed))
        assert a.is_over() and a.result() == b.result()
        assert [str(e) for e in a.history] == [str(e) for e in b.history]


def test_search_bots_use_the_rollout_policy() -> None:
    for name in ("cangkul", "burro_es", "burro_pt"):
        bot = get_spec(name).bots["search"]()
        assert isinstance(bot, SearchAgent)
        assert bot.rollout is playout and bot.fallback.name == "heuristic"


def test_search_bot_plays_a_legal_action_within_its_budget() -> None:
    game = load("burro_pt")
    bot = get_spec("burro_pt").bots["search:fast"]()
    assert isinstance(bot, SearchAgent)
    bot.bind(game)
    state = game.new_state(seed=2)
    rng = random.Random(5)
    for _ in range(12):
        if state.is_over():
            break
        seat = state.current_seat
        assert seat is not None
        legal = state.legal_actions()
        action = bot.act(state.observe(seat), legal, rng)
        assert action in legal
        state.apply(action)
