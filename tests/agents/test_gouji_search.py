"""Gou Ji search bots: the rollout policy, the evaluation, the root candidates, and
reproducibility from a seed (``games/gouji/rollout.py``)."""

from __future__ import annotations

import random
from typing import cast

from folkdeck import get_spec, load
from folkdeck.agents import make_agent
from folkdeck.agents.search import SearchAgent
from folkdeck.games.gouji import GouJiGame
from folkdeck.games.gouji.determinize import DETERMINIZER, is_searchable
from folkdeck.games.gouji.rollout import CONFIDENCE, LEVELS, PLIES, candidates, evaluate, need, playout
from folkdeck.games.gouji.rules import parse_counts
from folkdeck.games.gouji.state import GouJiState


def _position(seed: int, steps: int) -> GouJiState:
    """A real deal after ``steps`` heuristic decisions, at a searchable turn."""
    game = cast(GouJiGame, load("gouji"))
    spec = get_spec("gouji")
    state = game.new_state(seed=seed)
    bot = make_agent(spec, "heuristic", game=game)
    rng = random.Random(seed)
    done = 0
    while True:
        seat = state.to_act[0]
        seen = state.observe(seat)
        if done >= steps and is_searchable(seen) and len(state.legal_actions(seat)) > 2:
            return state
        state.apply(bot.act(seen, state.legal_actions(seat), rng), seat)
        done += 1


def test_playout_plays_legal_heuristic_moves_and_stops() -> None:
    state = _position(1, 20)
    world = state.clone()
    before = len(world.history)
    playout(world, random.Random(0))
    assert len(world.history) - before == PLIES or world.is_over()
    playout(world, random.Random(0), plies=100_000)
    assert world.is_over()
    result = world.result()
    assert result is not None and evaluate(world) == tuple(result.returns)


def test_evaluate_ranks_the_seats_by_the_plays_they_need() -> None:
    # Fewer sets go out earlier; 2s and jokers win leads back.
    assert need(parse_counts("3 3 4 5")) > need(parse_counts("3 3 4"))
    assert need(parse_counts("3 4 2 2")) < need(parse_counts("3 4"))
    game = cast(GouJiGame, load("gouji"))
    state = game.new_state(hands=["3S", "4S 5S 6S 7S", "8S 9S", "10S JS QS KS AS", "3H 4H",
                                  "5H 6H 7H"], setup={"leader": 0})
    returns = evaluate(state)
    # Seat 0 (one set) first, then seats 2 and 4 (two sets), seat 5, seat 1, seat 3 last:
    # team 0 holds places 1-3: +4 +2 0 = 6; team 1: 0 - 2 - 4 = -6.
    assert returns == (6.0, -6.0, 6.0, -6.0, 6.0, -6.0)


def test_candidates_are_legal_and_start_with_the_heuristic_choice() -> None:
    state = _position(2, 30)
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    seen = state.observe(seat)
    found = candidates(seen, legal)
    assert found and all(a in legal for a in found) and len(found) == len(set(map(str, found)))
    heuristic = make_agent(get_spec("gouji"), "heuristic")
    assert found[0] == heuristic.act(seen, legal, random.Random(0))


def test_search_is_reproducible_from_its_seed() -> None:
    spec = get_spec("gouji")
    game = load("gouji")
    state = _position(3, 25)
    seat = state.to_act[0]
    seen, legal = state.observe(seat), state.legal_actions(seat)
    for name in ("search", "pimc", "ismcts"):
        bot = make_agent(spec, name, game=game)
        assert isinstance(bot, SearchAgent) and bot.tree_depth == 1
        assert bot.rollouts == LEVELS["default"].rollouts
        assert bot.algorithm == ("ismcts" if name == "ismcts" else "pimc")
        assert bot.confidence == CONFIDENCE
        bot.rollouts = 24
        picks = {str(bot.act(seen, legal, random.Random(7))) for _ in range(2)}
        assert len(picks) == 1 and next(iter(picks)) in {str(a) for a in legal}


def test_determinized_worlds_play_out_and_evaluate() -> None:
    game = cast(GouJiGame, load("gouji"))
    state = _position(4, 40)
    seat = state.to_act[0]
    rng = random.Random(5)
    for _ in range(5):
        world = DETERMINIZER.determinize(game, state.observe(seat), rng)
        playout(world, rng)
        returns = evaluate(world)
        assert len(returns) == 6 and sum(returns) == 0


def test_the_confidence_rules_values_lead_with_the_action_it_plays() -> None:
    """A PIMC bot with the confidence rule lists its candidates in the rule's order, each at
    its mean return: the first is what the bot plays, so a teacher of the learned bots
    (``folkdeck.train``) plays as ``search`` does, not as plain PIMC's best mean, and a hint
    shows averages (``test_search.py::test_pimc_confidence_values_are_means_in_the_rules_order``);
    ``compared``, the teacher's targets, values each by what the rule compares."""
    spec = get_spec("gouji")
    game = load("gouji")
    for seed, steps in ((3, 25), (4, 10), (5, 40)):
        state = _position(seed, steps)
        seat = state.to_act[0]
        seen, legal = state.observe(seat), state.legal_actions(seat)
        bot = make_agent(spec, "search:fast", game=game)
        assert isinstance(bot, SearchAgent) and bot.confidence == CONFIDENCE
        rows = bot.action_values(seen, legal, random.Random(seed))
        assert rows is not None
        assert str(rows[0][0]) == str(bot.act(seen, legal, random.Random(seed)))
        default = candidates(seen, legal)[0]
        assert str(default) in {str(a) for a, _, _ in rows}
        assert {str(a) for a, _, _ in rows} == {str(a) for a in candidates(seen, legal)}
        compared = bot.action_values(seen, legal, random.Random(seed), compared=True)  # the teacher's
        assert compared is not None and [a for a, _, _ in compared] == [a for a, _, _ in rows]
        assert [v for _, v, _ in compared] == sorted((v for _, v, _ in compared), reverse=True)
        means = {str(a): v for a, v, _ in rows}
        assert {str(a): v for a, v, _ in compared}[str(default)] == means[str(default)]
        assert all(v <= means[str(a)] for a, v, _ in compared)  # a low end is below its mean
