"""The search bots: legal, reproducible, bound to the rules, and stronger than random."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from folkdeck import get_spec, load
from folkdeck.agents import make_agent
from folkdeck.agents.search import LEVELS, SearchAgent
from folkdeck.engine.protocol import Game
from folkdeck.sim.runner import play_deal


@pytest.mark.parametrize("algorithm", ["ismcts", "pimc"])
def test_search_plays_legal_reproducible_deals(algorithm: str) -> None:
    spec = get_spec("kaphai")
    game = load("kaphai")

    def deal() -> list[str]:
        agents = [SearchAgent(spec, algorithm=algorithm, rollouts=8) for _ in range(4)]
        for a in agents:
            a.bind(game)
        state = play_deal(game.new_state(seed=5), agents, random.Random(9))
        return [e.line for e in state.history]

    first = deal()
    assert first == deal()
    assert load("kaphai").new_state(seed=5) is not None


def test_search_bots_are_registered_with_levels() -> None:
    spec = get_spec("kaphai")
    for name in ("search", "search:fast", "search:strong", "pimc", "heuristic"):
        assert name in spec.bots
    bot = make_agent(spec, "search:fast", game=load("kaphai", "local"))
    assert isinstance(bot, SearchAgent) and bot.rollouts == LEVELS["fast"].rollouts
    assert bot._game is not None and bot._game.options.low_police_void  # bound to the rules


def test_search_falls_back_outside_the_play_phase() -> None:
    game = load("kaphai", putuh_optional=True)
    spec = get_spec("kaphai")
    bot = make_agent(spec, "search:fast", game=game)
    state = game.new_state(hands=["3S 3C 3D 3H 4S 4C 4D 4H 5S 5C 5D 5H 6S",
                                  "7S 7C 7D 8S 9S 10S JS QS KS AS 2S 8C 9C",
                                  "10C JC QC KC AC 2C 7H 8H 9H 10H JH QH KH",
                                  "AH 2H 6C 6D 6H 8D 9D 10D JD QD KD AD 2D"],
                           setup={"three_game": False})
    assert state.phase == "putuh"
    seat = state.to_act[0]
    assert str(bot.act(state.observe(seat), state.legal_actions(seat), random.Random(1))) == "putuh"


def test_search_beats_random_players() -> None:
    """One seat searches (a small budget) against three random bots, over 8 games (two
    deals, the search bot in each seat): it averages well above the 1.5 points a random
    seat expects (it scores about 2.6; random-vs-random seats spread ±0.4 here)."""
    spec = get_spec("kaphai")
    game = load("kaphai")
    points = []
    for seed in range(2):
        for rotation in range(4):
            agents = [make_agent(spec, "random") for _ in range(4)]
            search = SearchAgent(spec, rollouts=16)
            search.bind(game)
            agents[rotation] = search
            state = play_deal(game.new_state(seed=seed), agents, random.Random(seed * 4 + rotation))
            result = state.result()
            assert result is not None
            points.append(result.returns[rotation])
    assert sum(points) / len(points) > 2.2


def test_search_opt_in_playout_evaluate_candidates_and_depth() -> None:
    """A game's opt-in settings: a playout that stops early, scored by ``evaluate``; root
    candidates; a tree depth. The defaults stay the plain full random rollout."""
    spec = get_spec("kaphai")
    game = load("kaphai")
    state = game.new_state(seed=3)
    seat = state.to_act[0]
    seen, legal = state.observe(seat), state.legal_actions(seat)
    calls: list[int] = []

    def stop_at_once(world: object, rng: random.Random) -> None:
        calls.append(1)

    def even(world: object) -> tuple[float, ...]:
        return (0.0,) * 4

    kept = legal[-1]
    for algorithm in ("ismcts", "pimc"):
        calls.clear()
        bot = SearchAgent(spec, algorithm=algorithm, rollouts=12, rollout=stop_at_once,
                          evaluate=even, candidates=lambda o, a: [a[-1]], tree_depth=1)
        bot.bind(game)
        assert bot.act(seen, legal, random.Random(1)) == kept   # the only candidate
        bot = SearchAgent(spec, algorithm=algorithm, rollouts=12, rollout=stop_at_once,
                          evaluate=even, candidates=lambda o, a: list(a[:2]), tree_depth=1)
        bot.bind(game)
        assert bot.act(seen, legal, random.Random(1)) in legal[:2]
        assert len(calls) >= 6
        unscored = SearchAgent(spec, algorithm=algorithm, rollouts=4, rollout=stop_at_once)
        unscored.bind(game)
        with pytest.raises(RuntimeError, match="no evaluation"):
            unscored.act(seen, legal, random.Random(1))
    with pytest.raises(ValueError, match="tree_depth"):
        SearchAgent(spec, tree_depth=0)
    with pytest.raises(ValueError, match="rollout policy"):
        SearchAgent(spec, rollout="greedy")
    from folkdeck.agents.search import search_bots

    plain = search_bots("kaphai", "heuristic")["search"]()   # no opt-in: the old search
    assert isinstance(plain, SearchAgent)
    assert plain._playout is None and plain._evaluate is None and plain._candidates is None
    assert plain.tree_depth is None and plain.rollouts == LEVELS["default"].rollouts


def _first_decision() -> tuple[Game, Any, list[Any]]:
    """Kap Hai's first decision of seed 3: the game, the view and the legal actions."""
    game = load("kaphai")
    state = game.new_state(seed=3)
    seat = state.to_act[0]
    return game, state.observe(seat), list(state.legal_actions(seat))


def _stay(world: object, rng: random.Random) -> None:
    """A playout that plays nothing: the evaluation reads the action just tried."""


def test_pimc_confidence_keeps_the_default_without_evidence() -> None:
    """``confidence``: PIMC leaves the first action only for one that is better on the
    same worlds by that many standard errors."""
    game, seen, legal = _first_decision()
    target = str(legal[2])

    def prefers_target(world: Any) -> tuple[float, ...]:
        return (1.0 if str(world.history[-1].action) == target else 0.0,) * 4

    def level(world: Any) -> tuple[float, ...]:
        return (0.0,) * 4

    for evaluate, expected in ((prefers_target, target), (level, str(legal[0]))):
        bot = SearchAgent(game.spec, algorithm="pimc", rollouts=4 * len(legal), rollout=_stay,
                          evaluate=evaluate, confidence=2.0)
        bot.bind(game)
        assert str(bot.act(seen, legal, random.Random(2))) == expected


def test_pimc_confidence_values_are_means_in_the_rules_order() -> None:
    """With the ``confidence`` rule, ``action_values`` lists first the action the rule plays
    and gives every action its mean return: one better on average, but not by the rule's
    margin, comes after the default at its higher mean (a hint shows averages) and the bot
    still plays the default; ``compared`` gives what the rule compares (the teacher's)."""
    game, seen, legal = _first_decision()
    target = str(legal[2])
    calls = [0]

    def noisy_target(world: Any) -> tuple[float, ...]:
        if str(world.history[-1].action) != target:
            return (0.0,) * 4
        calls[0] += 1
        return (1.0 if calls[0] % 2 else -0.5,) * 4  # mean +0.25, far from 2 standard errors

    bot = SearchAgent(game.spec, algorithm="pimc", rollouts=4 * len(legal), rollout=_stay,
                      evaluate=noisy_target, confidence=2.0)
    bot.bind(game)
    rows = bot.action_values(seen, legal, random.Random(2))
    assert rows is not None and str(rows[0][0]) == str(legal[0]) and rows[0][1] == 0.0
    values = {str(a): v for a, v, _ in rows}
    assert values[target] == 0.25 and all(n == 4 for _, _, n in rows)
    assert str(bot.act(seen, legal, random.Random(2))) == str(legal[0])
    compared = bot.action_values(seen, legal, random.Random(2), compared=True)  # what the rule compares
    assert compared is not None and [a for a, _, _ in compared] == [a for a, _, _ in rows]
    low = {str(a): v for a, v, _ in compared}[target]
    assert low == pytest.approx(0.25 - 2.0 * (0.5625 / 3) ** 0.5)  # the mean less two standard errors


@pytest.mark.parametrize(("algorithm", "confidence"), [("pimc", None), ("pimc", 1.5), ("ismcts", None)])
def test_action_values_also_weigh_an_action_the_root_candidates_leave_out(algorithm: str,
                                                                          confidence: float | None) -> None:
    """``also``: a review weighs the player's choice beside the search's root candidates
    (Gou Ji's search looks at six at most), and the candidates stay first and in the order
    the bot would play them."""
    game, seen, legal = _first_decision()
    outside = legal[3]

    def two(observation: Any, actions: Any) -> list[Any]:
        return list(actions)[:2]

    bot = SearchAgent(game.spec, algorithm=algorithm, rollouts=60, candidates=two, confidence=confidence)
    bot.bind(game)
    plain = bot.action_values(seen, legal, random.Random(2))
    assert plain is not None and {str(a) for a, _, _ in plain} <= {str(a) for a in legal[:2]}
    weighed = bot.action_values(seen, legal, random.Random(2), also=[outside, legal[0]])
    assert weighed is not None and str(outside) in {str(a) for a, _, _ in weighed}
    assert len(weighed) == len({str(a) for a, _, _ in weighed})  # a candidate given again is not weighed twice
    assert {str(a) for a, _, _ in weighed} <= {str(a) for a in legal[:2]} | {str(outside)}


def test_search_algorithm_opt_in_names_ismcts() -> None:
    from folkdeck.agents.search import search_bots

    plain = search_bots("kaphai", "heuristic")
    assert set(plain) == {"search", "search:fast", "search:strong", "pimc", "pimc:fast",
                          "pimc:strong"}
    bots = search_bots("kaphai", "heuristic", search_algorithm="pimc")
    assert {"ismcts", "ismcts:fast", "ismcts:strong"} <= set(bots)
    assert cast(SearchAgent, bots["search"]()).algorithm == "pimc"
    assert cast(SearchAgent, bots["ismcts"]()).algorithm == "ismcts"
    assert cast(SearchAgent, plain["search"]()).algorithm == "ismcts"
    with pytest.raises(ValueError, match="search algorithm"):
        search_bots("kaphai", search_algorithm="mcts")


def test_ismcts_values_lead_with_the_action_it_plays() -> None:
    """An ISMCTS bot's ``action_values`` are its root's children, the one it plays first
    (the most visited), each with its mean return and visits: a teacher of the learned
    bots (``folkdeck.train``) plays what the ``search`` bot plays, and learns its values."""
    spec = get_spec("kaphai")
    game = load("kaphai")
    state = game.new_state(seed=3)
    seat = state.to_act[0]
    view, legal = state.observe(seat), state.legal_actions(seat)
    assert len(legal) > 2
    bot = make_agent(spec, "search:fast", game=game)
    assert isinstance(bot, SearchAgent) and bot.algorithm == "ismcts"
    rows = bot.action_values(view, legal, random.Random(4))
    assert rows is not None
    assert rows[0][0] == bot.act(view, legal, random.Random(4))
    visits = [n for _, _, n in rows]
    assert visits == sorted(visits, reverse=True) and sum(visits) == bot.rollouts
    assert {str(a) for a, _, _ in rows} <= {str(a) for a in legal}
    assert all(0.0 <= v <= 3.0 for _, v, _ in rows)  # Kap Hai returns: places 3, 2, 1, 0
