"""Gou Ji heuristic bot: one constructed position per tactic (``games/gouji/policy.py``).

Each row shows the tactic's choice and, where it differs, what the tactic switched off
would do (the greedy habit), so that a row fails if its tactic stops working.
"""

from __future__ import annotations

import dataclasses
import random
from typing import cast

from folkdeck import get_spec, load
from folkdeck.agents import make_agent
from folkdeck.games.gouji import GouJiGame
from folkdeck.games.gouji.agents import HeuristicAgent
from folkdeck.games.gouji.moves import follow_plays as _follow_plays
from folkdeck.games.gouji.moves import lead_plays
from folkdeck.games.gouji.policy import DEFAULT, SeatKnowledge, Tactics, choose, unbeatable, units
from folkdeck.games.gouji.rules import NRANKS, parse_counts, parse_play
from folkdeck.sim.runner import play_deal

OFF = Tactics(finish=False, help=False, block=0, economy=False, keep_wilds=0)


def _view(hand: str, *, top: str | None = None, top_seat: int = -1, mode: str = "normal",
          left: dict[int, int] | None = None, shown: dict[int, str] | None = None,
          played: str = "", xian: bool = False) -> SeatKnowledge:
    counts: list[int | None] = [None] * 6
    for s, n in (left or {}).items():
        counts[s] = n
    mine = parse_counts(hand)
    counts[0] = sum(mine)
    return SeatKnowledge(seat=0, hand=mine, top=parse_play(top) if top else None, top_seat=top_seat,
                mode=mode, left=counts, shown={s: parse_counts(h) for s, h in (shown or {}).items()},
                played=tuple(parse_counts(played)), xian=xian)


def _choose(view: SeatKnowledge, tactics: Tactics = DEFAULT) -> str:
    if view.top is None:
        plays, may_pass = lead_plays(view.hand), False
    else:
        plays, may_pass = _follow_plays(view.hand, view.top, "count"), True
    choice = choose(view, plays, may_pass, tactics)
    return "pass" if choice is None else str(choice)


def test_team_never_beats_a_teammate() -> None:
    # Seed 001: teammates (seats 0, 2, 4) work together; seat 2's 8 stands.
    view = _view("9 10 J", top="8", top_seat=2)
    assert _choose(view) == "pass"
    assert _choose(dataclasses.replace(view, top_seat=1)) == "9"   # an opponent's 8 is beaten


def test_team_lets_a_teammate_go_first_on_xian() -> None:
    # 先让让 (docs/rules/gouji.md §6): a teammate asked this seat to pass.
    assert _choose(_view("9 10 J", top="8", top_seat=3, xian=True)) == "pass"


def test_finish_leads_the_whole_hand() -> None:
    assert _choose(_view("7 7 2 BJ")) == "7 7 2 BJ"


def test_finish_leads_the_unbeatable_set_before_the_last_one() -> None:
    # Every A, 2 and joker has been played: K K cannot be beaten, so it leads K K and
    # keeps the lead for its last set (the 3), rather than leading the 3 first.
    played = " ".join(["A"] * 16 + ["2"] * 16 + ["BJ"] * 4 + ["RJ"] * 4)
    view = _view("3 K K", played=played)
    assert unbeatable(view, parse_play("K K")) and not unbeatable(view, parse_play("3"))
    assert _choose(view) == "K K"
    assert _choose(view, OFF) == "3"


def test_help_leads_what_a_teammate_needs_to_go_out() -> None:
    # Seat 2 shows its last set, 9 9 (teammates see hands of 10 or fewer): lead a low
    # pair it can beat, not the lone 4.
    view = _view("4 6 6 8 8 8 K", shown={2: "9 9"}, left={2: 2})
    assert _choose(view) == "6 6"
    assert _choose(view, OFF) == "4"


def test_block_leads_no_single_to_an_opponent_with_one_card() -> None:
    view = _view("4 7 7 9 9 9", left={3: 1})
    assert _choose(view) == "7 7"
    assert _choose(view, OFF) == "4"


def test_weakness_leads_the_lowest_rank_whole_without_wilds() -> None:
    assert _choose(_view("5 5 9 Q Q 2 BJ")) == "5 5"


def test_economy_follows_with_a_whole_rank_rather_than_split_a_pair() -> None:
    view = _view("7 7 8 J J J", top="6", top_seat=1)
    assert _choose(view) == "8"
    assert _choose(view, OFF) == "7"


def test_economy_keeps_wilds_and_high_cards_off_a_low_table() -> None:
    long_hand = " ".join(["3"] * 10 + ["4"] * 9)
    assert _choose(_view(long_hand + " 2", top="5", top_seat=1)) == "pass"
    assert _choose(_view(long_hand + " A", top="5", top_seat=1)) == "pass"
    assert _choose(_view(long_hand + " 6 6", top="5", top_seat=1)) == "pass"   # no split
    assert _choose(_view(long_hand + " 6", top="5", top_seat=1)) == "6"
    # A short hand, a high table, a duel, or an opponent close to out: it beats.
    assert _choose(_view("3 3 4 2", top="5", top_seat=1)) == "2"
    assert _choose(_view(long_hand + " 2", top="10", top_seat=1)) == "2"
    assert _choose(_view(long_hand + " 2", top="5", top_seat=3, mode="duel")) == "2"
    assert _choose(_view(long_hand + " 2", top="5", top_seat=1, left={1: 6})) == "2"
    assert _choose(_view(long_hand + " 2", top="5", top_seat=1), OFF) == "2"


def test_units_count_the_plays_a_hand_needs() -> None:
    assert units(parse_counts("5 5 9 2 BJ")) == 2
    assert units(parse_counts("2 2 BJ")) == 1
    assert units([0] * NRANKS) == 0


def test_the_agent_plays_from_its_observation() -> None:
    # A real deal: seat 2 leads 9 9, seat 3 (an opponent) beats it with 10 10; seat 4
    # answers with its whole J J rather than split its Q Q Q; then seat 2 passes with
    # K K in hand, since its teammate's J J stands.
    game = cast(GouJiGame, load("gouji"))
    state = game.new_state(hands=["5S 6S 7S", "3S 3H", "9S 9H KS KH 4S", "10S 10H 8S",
                                  "JS JH QS QH QD 3D", "4H 4D 5D"], setup={"leader": 2})
    agent = HeuristicAgent()
    rng = random.Random(0)
    for text in ["9 9", "10 10"]:
        state.apply(state.parse_action(text))
    assert state.current_seat == 4
    assert str(agent.act(state.observe(4), state.legal_actions(4), rng)) == "J J"
    state.apply(state.parse_action("J J"))
    for seat in (5, 0, 1, 2):
        assert state.current_seat == seat
        legal = state.legal_actions(seat)
        assert (parse_play("K K") in legal) == (seat == 2)
        assert str(agent.act(state.observe(seat), legal, rng)) == "pass"
        state.apply(state.parse_action("pass"))


def test_heuristic_is_registered() -> None:
    spec = get_spec("gouji")
    assert spec.bots["heuristic"] is HeuristicAgent
    assert isinstance(make_agent(spec, "heuristic"), HeuristicAgent)


def test_heuristic_beats_greedy_over_duplicate_deals() -> None:
    """Eight duplicate deals, each played with the heuristic on either team: it takes more
    points than the greedy bot in total (measured: +2.2 ± 0.24 a deal over 300 deals)."""
    spec = get_spec("gouji")
    game = load("gouji")
    total = 0.0
    for seed in range(8):
        for side in (0, 1):
            agents = [make_agent(spec, "heuristic" if s % 2 == side else "greedy", game=game)
                      for s in range(6)]
            state = play_deal(game.new_state(seed=seed), agents, random.Random(seed))
            result = state.result()
            assert result is not None
            total += result.returns[side]
    assert total > 0
