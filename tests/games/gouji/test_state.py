"""Gou Ji deal flow: tricks, gouji duels, burning, 先让让, tribute, revolution, the end."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import cast

import pytest

from folkdeck import load
from folkdeck.engine.errors import IllegalActionError, NotYourTurnError, WrongPhaseError
from folkdeck.games.gouji import GouJiGame
from folkdeck.games.gouji.actions import NO, PASS, XIAN, Draw
from folkdeck.games.gouji.deal import GouJiDeal
from folkdeck.games.gouji.events import (
    Answers,
    BurnWindow,
    GoujiCalled,
    NextGouJiDeal,
    Opened,
    ThreesShown,
    XianAnswered,
)
from folkdeck.games.gouji.state import GouJiState
from folkdeck.sim.runner import random_playout

from .conftest import full_load, has, make, run


def legal(state: GouJiState, seat: int | None = None) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


# --- tricks -------------------------------------------------------------------------
def test_pass_locks_a_seat_out_of_the_trick() -> None:
    # docs/rules/gouji.md §3.3: 一度パスをしたら、そのプレイが続いている間はパスをし続けなくてはなりません
    s = make(["5S 9S 3S", "6S 3C 4C", "7S 3D 4D", "8S 3H 4H", "4S 5D 6D", "5C 6C 7C"])
    run(s, "0: 5", "1: pass", "2: 7", "3: 8", "4: pass", "5: pass", "0: 9")
    assert s.to_act == (2,)   # seat 1 passed: skipped
    run(s, "2: pass", "3: pass")
    assert s.to_act == (0,) and s.observe(None).top is None   # seat 0 wins and leads


def test_same_size_and_higher_rank_to_beat() -> None:
    # docs/rules/gouji.md §3.2: 同じ枚数で今までに出ているものより強いランク
    s = make(["5S 5H 9S", "5C 5D 6S 6H 6C", "3S", "3C", "3D", "3H"])
    run(s, "0: 5 5")
    for bad in ("5 5", "6 6 6", "6"):
        with pytest.raises(IllegalActionError):
            s.apply(s.parse_action(bad), 1)
    assert "6 6" in legal(s)
    with pytest.raises(IllegalActionError, match="does not hold"):
        s.apply(s.parse_action("7 7"), 1)


def test_leader_may_not_pass_and_others_wait() -> None:
    s = make(["5S 9S", "6S", "7S", "8S", "4S", "3S"])
    with pytest.raises(IllegalActionError, match="may not pass"):
        s.apply(PASS)
    with pytest.raises(NotYourTurnError):
        s.apply(s.parse_action("6"), 1)


def test_lead_passes_to_next_seat_with_cards_after_an_out_player() -> None:
    # seed: 最後にプレイしたプレイヤーの手札がなくなっていた場合には、その右隣 (docs/rules/gouji.md §11.9)
    s = make(["5S", "3S 3C", "4S 9S", "3D 7S", "3H 8S", "4D 9D"])
    run(s, "0: 5", "1: pass", "2: pass", "3: pass", "4: pass", "5: pass")
    assert s.to_act == (1,) and s.observe(None).out == (0,)


# --- gouji ---------------------------------------------------------------------------
def test_gouji_duel_opposite_answers_after_passing(duel_hands: list[str]) -> None:
    # docs/rules/gouji.md §4.2: opp(X) answers next, even if it passed; others skipped
    s = make(duel_hands)
    run(s, "0: 9", "1: pass", "2: 10", "3: pass")
    events = run(s, "4: 2")
    assert has(events[0], GoujiCalled(seat=4, opposite=1)) and has(events[0], Answers(seat=1, gouji_seat=4))
    assert s.to_act == (1,) and "BJ" in legal(s)
    run(s, "1: BJ")
    assert s.to_act == (4,)            # rule 2: only the two duellists play
    run(s, "4: pass")                   # docs/rules/gouji.md §11.3: the trick ends, the standing play wins
    assert s.to_act == (1,) and s.observe(None).top is None


def test_gouji_duel_resume(duel_hands: list[str]) -> None:
    # docs/rules/gouji.md §11.3 gouji_duel_end=resume: players who have not passed continue in order
    s = make(duel_hands, gouji_duel_end="resume")
    run(s, "0: 9", "1: pass", "2: 10", "3: pass", "4: 2", "1: BJ", "4: pass")
    assert s.to_act == (5,)
    run(s, "5: pass")
    assert s.to_act == (0,)
    run(s, "0: pass", "2: pass")
    assert s.to_act == (1,) and s.observe(None).top is None


def test_no_gouji_when_the_opposite_is_out() -> None:
    # docs/rules/gouji.md §4.1: 自分の対面が既に上がっている場合は、ゴウジーにはなりません
    s = make(["3S", "5C 6C", "5S 6S", "4S KS KH", "5D 6D", "3C 3D"])
    run(s, "0: 3", "1: pass", "2: pass", "3: 4", "4: pass", "5: pass")
    assert s.to_act == (3,) and s.observe(None).top is None
    ev = run(s, "3: K K")[0]             # seat 0, seat 3's opposite, is out
    assert not any(f.type == "gouji.gouji" for f in ev.facts) and s.to_act == (4,)
    s = make(["3S 3H", "5C 6C", "5S 6S", "4S KS KH 9S", "5D 6D", "3C 3D"])
    run(s, "0: 3", "1: pass", "2: pass", "3: 4", "4: pass", "5: pass", "0: pass")
    ev = run(s, "3: K K")[0]
    assert has(ev, Answers(seat=0, gouji_seat=3)) and s.to_act == (0,)


def test_going_out_with_the_gouji_play() -> None:
    # docs/rules/gouji.md §4.3: ゴウジーを始めたときに手札がなくなった場合も、残ったプレイヤーがプレイかパス
    hands = ["KS KH", "4S 5C 6C", "4C 5D 6D", "AS AH 7S", "4H 5S 6S", "4D 5H 6H"]
    s = make(hands)
    ev = run(s, "0: K K")[0]
    assert has(ev, Answers(seat=3, gouji_seat=0, last=True))
    run(s, "3: A A")                     # plays: cleared, seat 3 leads
    assert s.to_act == (3,) and s.observe(None).top is None
    s = make(hands)
    run(s, "0: K K", "3: pass")          # passes: the seat after the out player leads
    assert s.to_act == (1,) and s.observe(None).top is None


# --- burning -------------------------------------------------------------------------
BURN_HANDS = ["KS KH 3S 4S 5S", "AS AH 7S 7H", "3C 4C 5C 8S", "2C 2D 3D 4D",
              "3H 4H 5H 9S", "AC AD 2S 9H"]


def test_burning_window_order_and_decline() -> None:
    # docs/rules/gouji.md §11.6: offered to X+1 first, then X+5, before the opposite answers
    s = make(BURN_HANDS)
    ev = run(s, "0: K K")[0]
    assert has(ev, BurnWindow(seats=(1, 5)))
    assert s.to_act == (1,) and legal(s) == ["burn A A", "no"]
    run(s, "1: no")
    assert s.to_act == (5,) and legal(s) == ["burn A A", "no"]
    run(s, "5: no")
    assert s.to_act == (3,) and s.observe(None).mode == "duel"
    with pytest.raises(WrongPhaseError):
        make(BURN_HANDS).apply(NO, 0)


def test_burning_then_all_pass_burner_leads() -> None:
    # docs/rules/gouji.md §5: このプレイのあとは…今までパスをしていないプレイヤーなら誰でも; 全員がパスをしたら上がれる
    s = make(BURN_HANDS)
    run(s, "0: K K", "1: burn A A")
    assert s.to_act == (2,) and s.observe(None).mode == "after_burn"
    run(s, "2: pass", "3: pass", "4: pass", "5: pass", "0: pass")
    assert s.to_act == (1,) and s.observe(None).top is None
    run(s, "1: 7 7")
    assert s.observe(None).out == (1,)


def test_playing_on_a_burn_starts_a_gouji() -> None:
    # docs/rules/gouji.md §5: someone plays on the burn → that player starts a gouji, their opposite answers
    s = make(BURN_HANDS)
    run(s, "0: K K", "1: burn A A", "2: pass")
    ev = run(s, "3: 2 2")[0]
    assert s.to_act == (0,) and has(ev, Answers(seat=0, gouji_seat=3))


def test_burning_option_off() -> None:
    s = make(BURN_HANDS, burning=False)
    run(s, "0: K K")
    assert s.to_act == (3,)


def test_false_burn_refused() -> None:
    s = make(BURN_HANDS)
    run(s, "0: K K")
    with pytest.raises(WrongPhaseError, match="cannot burn"):
        s.apply(s.parse_action("burn 7 7"), 1)


# --- xian rang rang -----------------------------------------------------------------
def test_xian_rang_rang() -> None:
    # docs/rules/gouji.md §6: 自分がプレイして、次の2人がパスをして対面がプレイした場合 … シエンランラン
    s = make(["5S 9S 9H", "3S 4S", "3C 4C", "8S 3D", "JS 4D", "3H 4H"])
    run(s, "0: 5", "1: pass", "2: pass", "3: 8")
    assert s.to_act == (4, 0) and legal(s, 0) == ["xian"]
    ev = run(s, "0: xian")[0]
    assert ev.facts == () and s.to_act == (4,)
    assert s.observe(4).xian_request == 0
    ev = run(s, "4: pass")[0]             # the teammate agrees
    assert has(ev, XianAnswered(seat=4, requester=0, answer="agreed"))
    assert s.to_act == (5,)
    s = make(["5S 9S 9H", "3S 4S", "3C 4C", "8S 3D", "JS 4D", "3H 4H"], xian_rang_rang=False)
    run(s, "0: 5", "1: pass", "2: pass", "3: 8")
    assert s.to_act == (4,) and XIAN not in s.legal_actions(0)


# --- first player, revolution, tribute --------------------------------------------
def test_three_start_declaration() -> None:
    # docs/rules/gouji.md §2.4: 3のランクの同じスートのカードが2枚手札に揃ったら宣言 … 最初にプレイ
    s = make(["4S 3C 3C", "3H 3H 5S", "4S 4C", "5D 5C", "6S 6H", "7S 7C"],
             setup={"first_drawer": 0})
    assert s.phase == "start" and s.to_act == (1,)
    run(s, "1: no")
    assert s.to_act == (0,)
    ev = run(s, "0: declare")[0]
    assert s.phase == "play" and s.to_act == (0,) and has(ev, ThreesShown(seat=0, suit="C"))
    s = make(["4S 3C 3C", "3H 3H 5S", "4S 4C", "5D 5C", "6S 6H", "7S 7C"],
             setup={"first_drawer": 2})
    run(s, "1: no", "0: no")
    assert s.to_act == (2,)               # nobody declared: the first drawer leads


def _full_hands(seed: int) -> list[list[str]]:
    state = load("gouji").new_state(seed=seed)
    return state.deal_info()["hands"]


def _revolution_hands() -> list[list[str]]:
    hands = _full_hands(3)
    # move every 2 and joker out of seat 0 into seat 1, taking seat 1's plain cards
    wild = [c for c in hands[0] if c[0] == "2" or c in ("BJ", "RJ")]
    plain = [c for c in hands[1] if not (c[0] == "2" or c in ("BJ", "RJ"))][:len(wild)]
    hands[0] = [c for c in hands[0] if c not in wild] + plain
    for c in plain:
        hands[1].remove(c)
    hands[1] += wild
    if any(not (c[0] == "2" or c in ("BJ", "RJ")) for c in hands[0]) and len(hands[0]) == 36:
        return hands
    raise AssertionError("could not build a revolution hand")


def _setup_play(state: GouJiState) -> None:
    while state.phase == "start":
        state.apply(NO)


def test_revolution_objection_and_withdraw() -> None:
    # docs/rules/gouji.md §2.5: 革命 … 同じチームの他のプレイヤーが説得 … 撤回してもしなくてもかまいません
    hands = _revolution_hands()
    s = full_load().new_state(hands=hands, setup={"first_drawer": 0, "leader": 0})
    eligible = [t for t in range(6) if not any(c[0] == "2" or c in ("BJ", "RJ") for c in hands[t])]
    assert s.phase == "revolution" and s.to_act == (eligible[0],) and eligible[0] == 0
    run(s, "0: revolution")
    assert s.phase == "objection" and s.to_act == (2,)
    run(s, "2: object", "4: no")
    assert s.phase == "withdraw" and s.to_act == (0,)
    run(s, "0: withdraw")
    assert s.phase in ("revolution", "play")
    s = full_load().new_state(hands=hands, setup={"first_drawer": 0, "leader": 0})
    run(s, "0: revolution", "2: no", "4: no")
    assert s.is_over() and s.result() is not None and s.result().reason == "revolution"
    s = full_load(revolution_allowed=False).new_state(hands=hands, setup={"leader": 0})
    assert s.phase == "play"


def test_tribute_normal_deal() -> None:
    # docs/rules/gouji.md §2.6: 6位は1位に最も強い2枚 … 1位は自由に2枚; 5位は2位に1枚
    hands = _full_hands(5)
    places = [1, 2, 3, 4, 5, 6]       # seat 5 Da La (team 1) → seat 0 Tou Ke (team 0)
    s = full_load().new_state(hands=hands, setup={"places": places})
    before5, before0 = s.hand_counts(5), s.hand_counts(0)
    assert s.phase == "tribute" and s.to_act == (0,)
    top2 = sorted(r for r in range(15) for _ in range(before5[r]))[-2:]
    after0 = s.hand_counts(0)
    assert sum(after0) == 38 and all(after0[r] >= before0[r] for r in top2)
    # the receiver (seat 0) and the giver see the cards given; the others only the count
    assert [f.cards for f in s.observe(0).status] == [f.cards for f in s.observe(5).status]
    assert s.observe(0).status[0].cards is not None and s.observe(2).status[0].cards is None
    assert len(s.observe(5).gave[0][1]) == 2 and s.observe(0).gave == ()
    run(s, "0: " + str(s.legal_actions()[0]))
    assert s.to_act == (1,) and sum(s.hand_counts(0)) == 36 and sum(s.hand_counts(5)) == 36
    run(s, "1: " + str(s.legal_actions()[0]))
    assert s.phase == "play" and s.to_act == (5,)    # docs/rules/gouji.md §2.4: Da La plays first
    assert s.observe(3).history[0].action == "return"   # the cards given back stay hidden
    assert s.observe(3).history[0].act.ranks is None
    assert s.observe(0).history[0].action.startswith("return ")   # the returner sees them


def test_tribute_between_teammates_skipped_and_liberation() -> None:
    hands = _full_hands(6)
    # seat 4 (team 0) Da La, seat 0 (team 0) Tou Ke: teammates → skipped (docs/rules/gouji.md §11.5)
    s = full_load().new_state(hands=hands, setup={"places": [1, 3, 2, 4, 6, 5]})
    assert s.phase == "tribute" and s.to_act == (2,)     # only 5th (seat 5) → 2nd (seat 2)
    s = full_load(tribute_between_teammates="perform").new_state(
        hands=hands, setup={"places": [1, 3, 2, 4, 6, 5]})
    assert s.to_act == (0,)
    # liberation: four red jokers refuse (docs/rules/gouji.md §2.6, 解放)
    rj = [c for h in hands for c in h if c == "RJ"]
    assert len(rj) == 4
    hands2 = [[c for c in h if c != "RJ"] for h in hands]
    hands2[5] = hands2[5][:32] + rj
    s = full_load().new_state(hands=hands2, setup={"places": [1, 2, 3, 4, 5, 6]})
    assert s.to_act == (1,)                               # 6th's pair is skipped


def test_sweep_exchange() -> None:
    # docs/rules/gouji.md §2.6: 上位3位まで同じチームだった場合は対面のプレイヤーどうしが交換
    s = full_load().new_state(hands=_full_hands(7), setup={"places": [1, 4, 2, 5, 3, 6],
                                                               "first_drawer": 0})
    _setup_play(s)
    assert s.phase == "tribute" and s.to_act == (0,)
    for _ in range(3):
        run(s, f"{s.to_act[0]}: " + str(s.legal_actions()[0]))
    assert s.phase in ("revolution", "play") and all(sum(s.hand_counts(t)) == 36 for t in range(6))


# --- the end, scores, table talk ---------------------------------------------------
def test_end_of_deal_places_and_team_scores() -> None:
    # docs/rules/gouji.md §3.4, §8: 1人を除いて全員の手札がなくなったらプレイ終了; team scores +4 +2 0 0 -2 -4
    s = make(["3S", "4S", "5S", "6S", "7S", "8S 9S"])
    run(s, "0: 3", "1: 4", "2: 5", "3: 6", "4: 7")
    r = s.result()
    assert r is not None and r.placings == (1, 2, 3, 4, 5, 6)
    assert r.returns == (2.0, -2.0, 2.0, -2.0, 2.0, -2.0)   # (4 + 0 - 2) v (2 + 0 - 4)
    assert r.details["order"] == [0, 1, 2, 3, 4, 5] and s.to_act == ()
    assert r.details["place_points"] == [4, 2, 0, 0, -2, -4]  # what each place earns, by seat
    s = make(["3S", "4S", "5S", "6S", "7S", "8S 9S"], score_table=(2, 1, 0, 0, -1, -2))
    run(s, "0: 3", "1: 4", "2: 5", "3: 6", "4: 7")
    assert s.result().returns[0] == 1.0  # type: ignore[union-attr]


SWEEP = ["3S", "4S 4H", "5S", "6S 6H", "7S", "8S 8H"]


def test_end_when_team_out_and_sweep_double() -> None:
    # docs/rules/gouji.md §9.4 end_when_team_out (modern), sweep_double (men 闷)
    s = make(SWEEP, end_when_team_out=True)
    run(s, "0: 3", "1: 4", "2: 5", "3: 6", "4: 7")
    r = s.result()
    assert r is not None and r.placings == (1, 4, 2, 5, 3, 6) and r.details["sweep"]
    assert r.returns[:2] == (6.0, -6.0)
    s = make(SWEEP, end_when_team_out=True, sweep_double=True)
    run(s, "0: 3", "1: 4", "2: 5", "3: 6", "4: 7")
    assert s.result().returns[:2] == (12.0, -12.0)  # type: ignore[union-attr]
    # the place points are doubled with the team's, and a team's add up to its score
    points = s.result().details["place_points"]  # type: ignore[union-attr]
    assert points == [8, 0, 4, -4, 0, -8] and sum(points[0::2]) == 12 and sum(points[1::2]) == -12
    s = make(SWEEP)
    run(s, "0: 3", "1: 4", "2: 5", "3: 6", "4: 7")
    assert not s.is_over() and s.to_act == (5,)


def test_views_counts_open_and_shared_hands() -> None:
    s = make(["3S 4S", "5S 6S", "7S 8S", "9S 10S", "JS QS", "KS AS"] , public_counts="never")
    assert s.observe(0).counts[1] is None and s.observe(0).counts[0] == 2
    assert s.observe(0).shown[2] and s.observe(0).shown[1] is None   # teammate at ≤ 10 cards
    assert s.hidden_cards(0) and all(str(c)[0] not in "7J" for c in s.hidden_cards(0))
    s = make(["3S 4S", "5S 6S", "7S 8S", "9S 10S", "JS QS", "KS AS"], share_hand_le10=False)
    assert s.observe(0).shown == (None,) * 6 and s.observe(0).counts[1] == 2
    run(s, "0: open")
    assert s.observe(1).shown[0] and s.observe(None).shown[0] and s.observe(None).laid_open == (0,)
    with pytest.raises(IllegalActionError, match="already open"):
        s.apply(s.parse_action("open"), 0)


def test_clone_is_independent() -> None:
    s = load("gouji").new_state(seed=11)
    twin = s.clone()
    random_playout(twin, random.Random(1))
    assert twin.is_over() and not s.is_over() and s.history == ()


def _containers(value: object) -> list[object]:
    """``value`` and the lists nested in it (a deal's piles are lists of lists of lists)."""
    if not isinstance(value, list):
        return []
    return [value] + [inner for item in value for inner in _containers(item)]


@pytest.mark.parametrize("preset", ["standard", "modern", "resume"])
def test_clone_shares_no_container_with_the_original(preset: str) -> None:
    """A state's data is one ``GouJiDeal`` whose ``copy`` copies every container field
    (the compiled build has no ``__dict__`` to copy): a clone shares no list with the
    original, the state holds nothing else that changes, and a clone taken at any point
    plays on exactly as the original does."""
    fixed = {"deal", "_game", "_flow", "_prelude", "_cache", "_handed"}
    game = cast(GouJiGame, load("gouji", preset))
    for seed in range(6):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            if hasattr(state, "__dict__"):  # the pure build (a compiled class has fixed attributes)
                assert set(vars(state)) <= fixed, set(vars(state)) - fixed
            if rng.random() < 0.05:
                twin = state.clone()
                for name in (f.name for f in fields(GouJiDeal)):
                    mine = {id(c) for c in _containers(getattr(state.deal, name))}
                    assert not mine & {id(c) for c in _containers(getattr(twin.deal, name))}, name
                a, b = random.Random(seed), random.Random(seed)
                random_playout(twin, a)
                random_playout(copy := state.clone(), b)
                assert twin.history == copy.history and twin.result() == copy.result()
            seat = state.to_act[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)


@pytest.mark.parametrize("preset", ["standard", "modern", "resume"])
def test_random_playouts_end_and_conserve(preset: str) -> None:
    game = load("gouji", preset)
    for seed in range(15):
        state = game.new_state(seed=seed)
        total = sorted(str(c) for cs in state.all_cards().values() for c in cs)
        random_playout(state, random.Random(seed))
        assert sorted(str(c) for cs in state.all_cards().values() for c in cs) == total
        r = state.result()
        assert r is not None
        if r.reason == "out":
            assert sorted(p for p in r.placings if p is not None) == [1, 2, 3, 4, 5, 6]
            assert r.returns[0] == -r.returns[1]   # the score tables are symmetric


def test_match_carries_places_and_tribute() -> None:
    # docs/rules/gouji.md §2.3, §2.4, §2.6: 2回目以降 … 前回6位が最初にカードを取る/最初にプレイ; tribute every later deal
    game = cast(GouJiGame, load("gouji"))
    match = game.new_match(deals=3, rng=random.Random(2))
    rng = random.Random(3)
    previous: tuple[int | None, ...] | None = None
    while not match.is_over():
        state = match.next_deal()
        if previous is not None and state.setup.places is not None:
            assert state.setup.places == previous
            if not state.setup.special:
                da_la = previous.index(6)
                assert state.setup.first_drawer == da_la and state.leader == da_la
                # docs/rules/gouji.md §2.3: 6位 … あるいは他の誰でも指名: the Da La names the drawer, itself first
                assert state.phase == "drawer" and state.to_act == (da_la,)
                assert state.legal_actions()[0] == Draw(da_la)
                state.apply(state.legal_actions()[0])
                assert any(str(e.action).startswith("return") for e in state.history) or \
                    state.phase in ("tribute", "revolution")
        random_playout(state, rng)
        match.finish_deal(state)
        result = state.result()
        assert result is not None
        if result.reason == "out":
            previous = result.placings
    assert len(match.placings) == 3 and match.points[0] == -match.points[1]
    standings = match.standings()
    assert standings.deals_played == 3 and standings.scores[0] == -standings.scores[1]


def test_match_target_score_and_revolution_redeal() -> None:
    match = cast(GouJiGame, load("gouji", target_score=1)).new_match(deals=50, rng=random.Random(4))
    rng = random.Random(5)
    while not match.is_over():
        state = match.next_deal()
        random_playout(state, rng)
        match.finish_deal(state)
    assert len(match.placings) < 50 and max(match.points) >= 1
    # a revolution makes the next deal special, kai pai moves on, places are kept
    game = cast(GouJiGame, load("gouji"))
    m = game.new_match(deals=3, rng=random.Random(6))
    st = game.new_state(hands=_revolution_hands(), setup={"kai_pai": 4, "first_drawer": 0,
                                                            "leader": 0})
    run(st, "0: revolution", "2: no", "4: no")
    facts = m.finish_deal(st)
    assert facts == (NextGouJiDeal(kind="revolution", seat=5),)
    assert m.setup() == {"special": True, "kai_pai": 5, "revolution_redeal": True}


def test_team_reorder() -> None:
    # docs/rules/gouji.md §7.4: 2人以上が上がって残りが4人以下 … 味方チームのプレイの順番を交換 (team_reorder)
    hands = ["3S", "5S 6S", "5C 6C", "4S", "5D 6D 7D", "5H 6H"]
    s = make(hands, team_reorder=True)
    run(s, "0: 3", "1: pass", "2: pass", "3: 4", "4: pass", "5: pass")
    assert s.to_act == (2,) and legal(s) == ["order 4 2", "no"]
    run(s, "2: order 4 2")
    assert s.to_act == (1,) and legal(s) == ["order 5 1", "no"]
    run(s, "1: no")
    assert s.to_act == (4,)
    run(s, "4: 5")
    assert s.to_act == (2,)        # seat 2 now plays in seat 4's old place, after seat 4
    s = make(hands)                # off by default: no window, seat 5 follows seat 4
    run(s, "0: 3", "1: pass", "2: pass", "3: 4", "4: pass", "5: pass", "4: 5")
    assert s.to_act == (5,)


def test_modern_kai_dian_and_bie_san() -> None:
    # docs/rules/gouji.md §9.1 (modern): 开点 when the opposite passes your gouji; no 4s before opening
    hands = ["4S 4H KS KH 3S", "3C 5C", "3D 5D", "3H 5H", "6S 7S", "6C 7C"]
    s = make(hands, modern_kai_dian=True)
    assert "4" not in legal(s) and "K K" in legal(s)
    with pytest.raises(IllegalActionError, match="before opening"):
        s.apply(s.parse_action("4"))
    ev = run(s, "0: K K", "3: pass")[1]
    assert has(ev, Opened(seat=0)) and s.observe(None).opened == (0,)
    assert s.to_act == (0,) and "4 4" in legal(s)
    assert "4" in legal(make(hands))                     # off by default
    # 憋三: 3s only as the whole last play, without jokers
    s = make(["3S 3H 9S", "3C 5C", "3D 5D", "3H 5H", "6S 7S", "6C 7C"], modern_bie_san=True)
    assert not any(a.startswith("3") for a in legal(s))
    s = make(["3S 3H", "3C 5C", "3D 5D", "4H 5H", "6S 7S", "6C 7C"], modern_bie_san=True)
    assert "3 3" in legal(s) and "3" not in legal(s)
    # a leader barred from every set (3s not whole, 4s before opening) may lead any set
    s = make(["3S 3H 4S", "3C 5C", "3D 5D", "4H 5H", "6S 7S", "6C 7C"], modern_bie_san=True,
             modern_kai_dian=True)
    assert legal(s)[:3] == ["3", "3 3", "4"]
    run(s, "0: 4")
