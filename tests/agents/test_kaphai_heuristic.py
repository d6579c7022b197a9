"""Kap Hai heuristic bot: the advice of docs/rules/kaphai.md §7, as table rows, and its strength."""

from __future__ import annotations

import random
from typing import cast

from folkdeck import get_spec, load
from folkdeck.agents import make_agent
from folkdeck.games.kaphai.agents import HeuristicAgent, plan
from folkdeck.games.kaphai.game import KapHaiGame
from folkdeck.games.kaphai.rules import mask
from folkdeck.sim.arena import ArenaConfig, run_arena


def _choice(hands: list[str], moves: list[str], **setup: object) -> str:
    game = cast(KapHaiGame, load("kaphai"))
    state = game.new_state(hands=hands, setup={"three_game": False, **setup})
    for text in moves:
        state.apply(state.parse_action(text))
    seat = state.current_seat
    return str(HeuristicAgent().act(state.observe(seat), state.legal_actions(seat), random.Random(0)))


def test_plan_keeps_combinations() -> None:
    assert [str(c) for c in plan(mask("3S 4C 5D 6H 9S 9H 9D KD"))] == ["3S 4C 5D 6H", "9S 9D 9H", "KD"]


def test_follows_without_breaking_a_pair() -> None:
    # On a single 6, it answers with the lone 8, not with a card of its pair of 7s.
    assert _choice(["6S 10C", "7S 7H 8D QH QS", "JS", "KS"], ["6S"]) == "8D"


def test_holds_a_bomb_for_a_two() -> None:
    # The kare of 9s waits: on a single K it passes rather than bomb.
    assert _choice(["KS 4C 6D", "9S 9C 9D 9H 5S", "JS JC 7H", "QS QC 8H"], ["KS"]) == "pass"
    assert _choice(["2S 4C 6D", "9S 9C 9D 9H 5S", "JS JC 7H", "QS QC 8H"], ["2S"]) == "9S 9C 9D 9H"


def test_keeps_the_useless_low_card_for_last() -> None:
    # Leading with 4 (lone), 8 8, Q: the 4 waits for the end (docs/rules/kaphai.md §7).
    assert _choice(["4S 8S 8H QD", "JS", "KS", "AS"], []) == "8S 8H"


def test_heuristic_beats_greedy_in_the_arena() -> None:
    summary = run_arena(ArenaConfig("kaphai", ("heuristic", "greedy", "greedy", "greedy"), deals=40,
                                    seed=11, keep_records=False))
    heuristic, greedy = summary.bots
    assert heuristic.mean_return.low > greedy.mean_return.high
    assert get_spec("kaphai").bots["heuristic"] is HeuristicAgent
    assert make_agent(get_spec("kaphai"), "heuristic").name == "heuristic"
