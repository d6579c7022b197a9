"""A folkdeck bot (the learned one) as a token policy in the RL adapters
(:mod:`folkdeck.rl.policy`): it plays whole deals in PettingZoo and OpenSpiel, choosing in
each decision the same action the bot chooses at a table (docs/rl.md "A learning example")."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import folkdeck  # noqa: E402
import folkdeck.rl.openspiel as fs  # noqa: E402
from folkdeck.agents import make_agent  # noqa: E402
from folkdeck.rl import aec_env  # noqa: E402
from folkdeck.rl.policy import BotPolicy  # noqa: E402
from folkdeck.sim.runner import play_deal  # noqa: E402

from .conftest import GAMES  # noqa: E402


@pytest.mark.parametrize("game", [g for g in GAMES if g != "gouji"])
def test_the_learned_policy_plays_a_pettingzoo_deal_as_the_bot_plays_it_at_a_table(game: str) -> None:
    env = aec_env(game)
    env.reset(seed=4)
    start = env.deal.state.clone()
    policy = BotPolicy(folkdeck.load(game), "learned", seed=2)
    for _ in env.agent_iter(max_iter=20_000):
        _, _, done, cut, _ = env.last()
        env.step(None if done or cut else policy.token(env.deal))
    assert env.deal.state.is_over()
    # the learned bot is deterministic (temperature 0): the same deal at a table plays the same
    table = play_deal(start, [make_agent(start.game.spec, "learned", game=start.game)] * start.num_players,
                      random.Random(0))
    assert [str(e.action) for e in env.deal.state.history] == [str(e.action) for e in table.history]


def test_the_learned_policy_is_an_openspiel_policy_to_the_end_of_a_deal() -> None:
    fs.register_games()
    game = pyspiel.load_game(fs.game_name("kaphai"))
    policy = BotPolicy(folkdeck.load("kaphai"), "learned", seed=0)
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        probabilities = policy.action_probabilities(state, state.current_player())
        (token, p), = probabilities.items()
        assert p == 1.0 and token in state.legal_actions()
        state.apply_action(token)
    assert len(state.returns()) == 4
