"""Cambio sessions: entry fee, the 1-2-3 ladder, elimination, the pot, the stock."""

from __future__ import annotations

import random
from typing import Any, cast

from folkdeck import load
from folkdeck.engine.facts import Eliminated, Fact, NextDeal, PotWon
from folkdeck.games.cambio import KEEP, CambioGame, CambioMatch
from folkdeck.games.cambio.agents import CountingAgent
from folkdeck.games.cambio.events import DealReplayed, FirstDealer
from folkdeck.sim.runner import play_deal


def forced(match: CambioMatch, hands: list[str]) -> tuple[Fact, ...]:
    """Play the match's next deal with the given cards (everyone keeps)."""
    dealt = match.next_deal()
    setup = dealt.deal_info()["setup"]
    state = match.game.new_state(hands=[[h] if h else [] for h in hands], setup=setup)
    while not state.is_over():
        state.apply(KEEP)
    return match.finish_deal(state)


def new(players: int = 3, **rules: Any) -> CambioMatch:
    match = load("cambio", players=players, **rules).new_match(rng=random.Random(5))
    assert isinstance(match, CambioMatch)
    return match


def test_ladder_then_elimination_then_pot() -> None:
    # docs/rules/cambio.md §3.3, §3.4: fee 1; losers pay 1, 2, 3; from deal 4 eliminated; last survivor takes the pot
    match = new()
    forced(match, ["2", "7", "9"])
    assert match.chips == [23, 24, 24] and match.pot == 4
    forced(match, ["2", "7", "9"])
    assert match.chips == [21, 24, 24] and match.pot == 6
    forced(match, ["9", "1", "9"])
    assert match.chips == [21, 21, 24] and match.pot == 9
    forced(match, ["9", "1", "8"])
    assert match.eliminated == {1} and match.pot == 9
    facts = forced(match, ["3", "", "8"])
    assert PotWon(seats=(2,), amount=9) in facts
    assert match.chips == [21, 21, 33] and match.pot == 0 and not match.in_game


def test_cannot_pay_is_eliminated() -> None:
    # docs/rules/cambio.md §3.3 "チップを支払えなかった人…脱落"; §6.8: pays nothing
    match = new(start_chips=2)
    forced(match, ["9", "7", "2"])          # seat 2 pays 1: 0 left
    facts = forced(match, ["9", "7", "2"])  # owes 2
    assert match.eliminated == {2} and match.chips[2] == 0
    assert Eliminated(seat=2, reason="cannot_pay") in facts


def test_all_eliminated_replays() -> None:
    # docs/rules/cambio.md §6.6 default: nobody is eliminated; the deal is replayed
    match = new(players=2)
    for _ in range(3):
        forced(match, ["2", "7"])
    facts = forced(match, ["5", "5"])
    assert DealReplayed(deal=4) in facts and match.eliminated == set()
    assert match.next_deal().deal_info()["setup"]["deal"] == 4


def test_all_eliminated_split_pot() -> None:
    match = new(players=2, all_eliminated="split_pot")
    for _ in range(3):
        forced(match, ["2", "7"])
    pot = match.pot
    before = list(match.chips)
    forced(match, ["5", "5"])
    assert sum(match.chips) == sum(before) + pot and match.pot == 0 and not match.in_game


def test_dealer_moves_right_skipping_eliminated() -> None:
    # docs/rules/cambio.md §3.5 "親は右隣に移って"; eliminated players are skipped
    match = new(players=4)
    for _ in range(3):
        forced(match, ["9", "8", "9", "8"])   # seats 1 and 3 pay; the dealer moves right
    first = match.dealer
    loser = (first + 1) % 4
    hands = ["9", "8", "9", "8"]
    hands[loser] = "2"
    facts = forced(match, hands)             # deal 4: the loser is eliminated
    assert match.eliminated == {loser} and match.dealer == (first + 2) % 4
    assert NextDeal(dealer=(first + 2) % 4) in facts


def test_stock_persists_between_deals() -> None:
    # docs/rules/cambio.md §3.6 "山札は最初にシャッフルしたらもう二度とシャッフルせず"
    match = new(players=3)
    state = match.next_deal()
    play_deal(state, [CountingAgent() for _ in range(3)], random.Random(1))
    _, stock, _ = state.piles()
    match.finish_deal(state)
    nxt = match.next_deal()
    dealer = match.dealer
    order = [(dealer + d) % 3 for d in (1, 2, 3)]
    assert [nxt.piles()[0][s] for s in order] == list(reversed(stock))[:3]


def test_session_conserves_chips_until_bankrupt() -> None:
    # docs/rules/cambio.md §3.4 "誰かが破産したら終了"
    game = cast(CambioGame, load("cambio", players=4, start_chips=6))
    match = game.new_match(rng=random.Random(11))
    agents = [CountingAgent() for _ in range(4)]
    rng = random.Random(2)
    deals = 0
    while not match.is_over():
        state = match.next_deal()
        play_deal(state, agents, rng)
        match.finish_deal(state)
        deals += 1
        assert sum(match.chips) + match.pot == 24
        assert deals < 2000
    assert min(match.chips) < 1 and match.game_number >= 1
    standings = match.standings()
    assert standings.over and standings.unit == "chips" and standings.carry["game"] >= 1
    assert standings.scores == tuple(float(c) for c in match.chips)


def test_seating_draw_logged() -> None:
    match = new(players=3)
    match.next_deal()
    assert FirstDealer(seat=match.dealer) in match.report()
    assert match.report() == ()   # reported once


def test_deals_limit() -> None:
    match = load("cambio", players=3).new_match(deals=2, rng=random.Random(1))
    for _ in range(2):
        state = match.next_deal()
        play_deal(state, [CountingAgent() for _ in range(3)], random.Random(0))
        match.finish_deal(state)
    assert match.is_over()
