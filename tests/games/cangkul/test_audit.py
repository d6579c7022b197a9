"""Rules audit against docs/rules/cangkul.md, one scenario per passage.

Each test names the passage it checks; together with ``test_state.py`` they cover the
direction, the leader, digging, passing and the passers' share, the moment a hand
empties, the joker, the two piles, the knock, the penalty limit and the dealer's turn.
"""

from __future__ import annotations

import random
from typing import cast

import pytest

from folkdeck import load
from folkdeck.games.cangkul import CangkulGame
from folkdeck.games.cangkul.state import CangkulState
from folkdeck.sim.runner import random_playout

from .conftest import deal, hands, notes, run


@pytest.mark.parametrize(("name", "direction"), [("cangkul", "clockwise"), ("burro_es", "counter-clockwise"),
                                                 ("burro_pt", "counter-clockwise")])
def test_play_goes_to_seat_plus_one_in_every_direction(name: str, direction: str) -> None:
    """docs/rules/cangkul.md §1.2: カンクル「時計回りに1人ずつ」, ブッロ「反時計回りです」; seat + 1 is next
    in the table's own direction, and the dealer's next seat leads."""
    state = load(name, players=5).new_state(seed=3, setup={"dealer": 2})
    assert isinstance(state, CangkulState)
    assert state.current_seat == 3 and state.observe(None).direction == direction
    seats: list[int] = []
    while len(seats) < 5:
        seat = state.current_seat
        assert seat is not None
        if not seats or seats[-1] != seat:
            seats.append(seat)
        state.apply(state.legal_actions()[0])
    assert seats == [3, 4, 0, 1, 2]


def test_passers_take_in_play_order_and_round_again() -> None:
    """docs/rules/cangkul.md §2.5: 「パスを最初にしたプレイヤーから順に1枚ずつ…最初プレイされたカードから…余るときには、
    パスを最初にしたプレイヤーから、また取っていきます」: three played cards, two passers: the
    first passer takes the first and the third card, the second passer the second."""
    state = deal("cangkul", ["9C 5S", "2H 2S", "JC 3S", "3H 4S", "QC KC"], joker=False)
    run(state, "0: 9C")                      # seat 1 passes
    (event,) = run(state, "2: JC")           # seat 3 passes, seat 4 to play
    assert notes(state, event) == ("seat 3 cannot follow clubs and the stock is empty: passes",)
    (event,) = run(state, "4: QC")           # trick over: played 9C JC QC, passers 1, 3
    assert notes(state, event)[:2] == ("seat 1 takes 9C QC", "seat 3 takes JC")
    assert notes(state, event)[-1] == "seat 4 wins the trick and leads"


def test_drop_out_a_follower_emptying_the_hand_leaves_and_the_trick_goes_on() -> None:
    """Seed variation 1: 「手札がなくなったら、そのプレイヤーはプレイから抜ける」: the trick is
    finished by the others and the out player's card counts (here it wins)."""
    state = deal("cangkul", ["5H 2S", "AH", "6H 3C", "7H 4C"], cangkul_drop_out=True)
    (event,) = run(state, "0: 5H", "1: AH")[1:]
    assert notes(state, event) == ("seat 1 goes out in 1st place",) and state.current_seat == 2
    (event,) = run(state, "2: 6H", "3: 7H")[1:]
    assert notes(state, event)[-1] == "seat 1 wins the trick; seat 2 leads"  # next active after the winner
    assert len(state.observe(None).dead) == 4


def test_normal_game_a_follower_emptying_the_hand_stops_the_trick() -> None:
    """Seed 「誰かの手札がなくなったら、トリックの途中でも、プレイは終了します」."""
    state = deal("cangkul", ["5H 2S", "AH", "6H 3C", "7H 4C"])
    (event,) = run(state, "0: 5H", "1: AH")[1:]
    assert notes(state, event) == ("seat 1 goes out in 1st place", "the deal is over (a hand emptied)")
    assert state.is_over() and hands(state)[2] == "3C 6H"


def test_a_drawn_led_suit_card_is_played_even_when_not_the_best() -> None:
    """Seed 「ドローしたカードがリードされたスートと同じであった時には、そのカードをプレイします」:
    the drawn card is played at once, whatever its rank; the drawer has no choice."""
    state = deal("cangkul", ["KH 2S", "3C 4C", "5D 6D"], ["2H", "AH"])
    (event,) = run(state, "0: KH", "1: draw")[1:]
    assert notes(state, event)[0] == "seat 1 draws 2H and plays it"
    assert state.current_seat == 2 and state.stock_sizes() == (1,)


def test_a_joker_drawn_while_digging_must_be_played_under_must_when_void() -> None:
    """Seed variation 2 「使わなければならない」 (joker_play=must_when_void): a void player who draws
    the joker holds it and must play it rather than dig on."""
    state = deal("cangkul", ["KH 2S", "3C 4C", "5H 6D"], ["RJ", "2H"], joker=True,
                 joker_play="must_when_void")
    run(state, "0: KH", "1: draw")
    assert [str(a) for a in state.legal_actions()] == ["RJ"]
    (event,) = run(state, "1: RJ", "2: 5H")[1:]
    assert notes(state, event)[-1] == "seat 1 wins the trick and leads"


def test_knocked_cards_without_the_led_suit_mean_a_pass() -> None:
    """Seed ポルトガル 「倒してしまったときは、全部を取らなければなりません」: the knocker takes the
    whole stock; with no led-suit card among it and the stock gone, the knocker passes
    (Burro passers take nothing)."""
    state = deal("burro_pt", ["KH 2S", "3C 4C", "5H 6C"], ["7C", "AS", "2D", "3D"], stock_knock_prob=1.0)
    (event,) = run(state, "0: KH", "1: draw right")[1:]
    assert notes(state, event)[:2] == ("seat 1 knocks the stock over and takes all 4 cards",
                               "seat 1 cannot follow copas and the stock is empty: passes")
    assert hands(state)[1] == "AS 3C 4C 7C 2D 3D" and state.current_seat == 2


@pytest.mark.parametrize("name", ["burro_es", "burro_pt"])
def test_burro_match_dealer_passes_on_and_the_limit_ends_it(name: str) -> None:
    """Seed 「次回からは反時計回りに交替します」 and 「罰点の累計が決められた数に達したら、
    ゲームが終了」: the dealer moves to seat + 1, and the match stops at penalty_limit."""
    match = cast(CangkulGame, load(name, players=4, penalty_limit=2)).new_match(rng=random.Random(4))
    dealers = []
    while not match.is_over():
        state = match.next_deal()
        dealer = state.deal_info()["setup"]["dealer"]
        assert isinstance(dealer, int)
        dealers.append(dealer)
        assert state.current_seat == (dealers[-1] + 1) % 4
        random_playout(state, random.Random(len(dealers)))
        match.finish_deal(state)
    assert dealers == [(3 + k) % 4 for k in range(len(dealers))]
    assert max(match.penalties) == 2 and sorted(match.penalties)[-2] < 2
    assert match.standings().scores == tuple(float(p) for p in match.penalties)
