"""Kap Hai heuristic bot: the advice of docs/rules/kaphai.md §7, as table rows, and its strength."""

from __future__ import annotations

import random
from typing import cast

from folkdeck import get_spec, load
from folkdeck.agents import make_agent
from folkdeck.cards.notation import parse_cards
from folkdeck.games.kaphai.agents import HeuristicAgent, KapHaiReading, plan
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


def _read(hand: str, unseen: str, play: str = "") -> dict[str, float]:
    reading = KapHaiReading()
    numbers = reading.read(parse_cards(hand), parse_cards(unseen), parse_cards(play))
    return {name: round(x * 13) if name in _COUNTS else x for name, x in zip(reading.names, numbers, strict=True)}


_COUNTS = ("units_after", "unit_cost", "bosses_after", "loose_after")


def test_the_reading_counts_the_plan_left_and_the_bosses_no_unseen_card_beats() -> None:
    # docs/rules/kaphai.md §7 (『カップハイ完全攻略!』 Ⅵ: keep the combinations, count the cards):
    # after the 2, 9-9 is a boss (no higher pair can be formed from the unseen cards), the K is
    # not (an unseen A): one loose unit, so leading the boss then the K goes out
    read = _read("9S 9H KD 2S", "AS 3C 4D", "2S")
    assert read == {"units_after": 2, "unit_cost": 0, "bosses_after": 1, "loose_after": 1, "goes_out_safely": 1.0,
                    "play_is_boss": 1.0, "play_is_bomb": 0.0, "unseen_kare": 0.0}
    # with A-A unseen the pair is no boss: two loose units
    assert _read("9S 9H KD 2S", "AS AH 3C", "2S")["loose_after"] == 2
    assert _read("9S 9H KD 2S", "AS AH 3C", "2S")["goes_out_safely"] == 0.0


def test_the_reading_charges_a_play_that_breaks_a_combination() -> None:
    # a pass keeps the plan; a 9 from the pair adds a unit (Ⅵ⑤: break a set only when it costs nothing)
    assert _read("9S 9H KD", "AS 3C", "")["units_after"] == 2 and _read("9S 9H KD", "AS 3C", "")["unit_cost"] == 0
    assert _read("9S 9H KD", "AS 3C", "9S")["unit_cost"] == 1
    assert _read("9S 9H KD", "AS 3C", "9S 9H")["unit_cost"] == 0


def test_the_reading_marks_bombs_played_and_kares_unseen() -> None:
    assert _read("7S 7C 7D 7H 4S", "AS", "7S 7C 7D 7H")["play_is_bomb"] == 1.0
    assert _read("4S", "8S 8C 8D 8H", "4S")["unseen_kare"] == 1.0
    assert _read("4S", "8S 8C 8D", "4S")["unseen_kare"] == 0.0
