"""modern_burning, modern_dian_gong, strict_penalty and the Da La naming the drawer.

Each test names the section of docs/rules/gouji.md it comes from.
"""

from __future__ import annotations

import pickle
import random
from typing import Any, cast

import pytest

from folkdeck import load
from folkdeck.engine.errors import IllegalActionError
from folkdeck.engine.record import Record
from folkdeck.games.gouji import GouJiGame
from folkdeck.games.gouji.actions import NO, PASS, REVOLUTION, XIAN, Burn, Draw, Foul, parse_action
from folkdeck.games.gouji.events import Offence, Opened, TributeGiven, WentOutAs
from folkdeck.games.gouji.rules import Play, parse_play
from folkdeck.sim.runner import random_playout

from .conftest import full_load, has, make, run
from .test_state import _full_hands, _revolution_hands

# seat 1 opens (its 2 is passed by seat 4), then seat 0's 2 is gouji and seat 1 may burn BJ
OPEN_THEN_BURN = ["2S 8S 8H 8D", "2H 3S BJ 5S 5H", "6S 6H 6D", "7S 7H 7D", "9S 9H 9D",
                  "10S 10H 10D"]
OPENING = ("1: 2", "4: pass")
TO_THE_GOUJI = ("1: 3", "2: pass", "3: pass", "4: pass", "5: pass", "0: 2")


def test_modern_burning_needs_kai_dian() -> None:
    # docs/rules/gouji.md §9.2: "burning is allowed only after kai dian (开点)"
    state = make(OPEN_THEN_BURN, {"leader": 1}, modern_burning=True)
    run(state, "1: 3", "2: pass", "3: pass", "4: pass", "5: pass", "0: 2")
    assert state.to_act == (3,)                      # seat 1 has not opened: no window
    state = make(OPEN_THEN_BURN, {"leader": 1}, modern_burning=True)
    events = run(state, *OPENING, *TO_THE_GOUJI)
    assert has(events[1], Opened(seat=1))
    assert state.to_act == (1,) and state.legal_actions() == (Burn(parse_play("BJ")), NO)
    plain = make(OPEN_THEN_BURN, {"leader": 1})      # docs/rules/gouji.md §5: burning needs no opening
    run(plain, "1: 3", "2: pass", "3: pass", "4: pass", "5: pass", "0: 2")
    assert plain.to_act == (1,)


def test_modern_burning_to_the_end() -> None:
    # docs/rules/gouji.md §9.2: "the burner must then burn to the end": one set left, and it leads it whole
    state = make(OPEN_THEN_BURN, {"leader": 1}, modern_burning=True)
    run(state, *OPENING, *TO_THE_GOUJI, "1: burn BJ", "0: pass")
    assert state.to_act == (1,)
    assert state.legal_actions() == (parse_play("5 5"), parse_action("open"))
    with pytest.raises(IllegalActionError, match="burn to the end"):
        state.apply(parse_play("5"))
    events = run(state, "1: 5 5")
    assert has(events[0], WentOutAs(seat=1, place=1, title="tou_ke"))


def test_modern_burning_refuses_the_joker_form() -> None:
    # docs/rules/gouji.md §9.2 joker form "going out is not guaranteed": not allowed when burning to the end
    hands = list(OPEN_THEN_BURN)
    hands[1] = "2H 3S BJ 5S 6C RJ RJ"                # after BJ: 5 6 RJ RJ, sets each with a joker
    seed_rule = make(hands, {"leader": 1})
    run(seed_rule, *OPENING, *TO_THE_GOUJI)
    assert Burn(parse_play("BJ")) in seed_rule.legal_actions()
    modern = make(hands, {"leader": 1}, modern_burning=True)
    run(modern, *OPENING, *TO_THE_GOUJI)
    assert modern.to_act == (3,)                     # no burn: the opposite answers


def test_strict_penalty_false_burn_makes_the_offender_da_la() -> None:
    # docs/rules/gouji.md §10: an infringement makes the offender Da La (strict_penalty)
    state = make(OPEN_THEN_BURN, {"leader": 1}, strict_penalty=True)
    run(state, "1: 2")                               # gouji: X+1 and X+5 are always asked
    assert state.to_act == (2,) and state.legal_actions() == (Foul("burn"), NO)
    run(state, "2: no", "0: no", "4: pass", "1: 3", "2: pass", "3: pass", "4: pass", "5: pass",
        "0: 2")
    assert state.to_act == (1,)                      # seat 1 may burn for real
    run(state, "1: no")
    assert state.to_act == (5,) and state.legal_actions() == (Foul("burn"), NO)
    event = run(state, "5: foul burn")[0]
    assert has(event, Offence(seat=5, claim="burn", place=6, title="da_la"))
    assert state.hand_counts(5) == (0,) * 15
    assert state.to_act == (3,)                      # the opposite answers as after a 'no'
    random_playout(state, random.Random(1))
    result = state.result()
    assert result is not None and result.placings[5] == 6
    assert result.details["offenders"] == [5]


def test_foul_actions_only_with_strict_penalty() -> None:
    # docs/rules/gouji.md §10, §11.12: illegal actions are simply rejected unless strict_penalty
    state = make(OPEN_THEN_BURN, {"leader": 1})
    run(state, *OPENING, *TO_THE_GOUJI, "1: no")
    assert state.to_act == (3,)
    with pytest.raises(IllegalActionError):
        state.apply(Foul("burn"), 5)
    hands = _revolution_hands()
    plain = full_load().new_state(hands=hands, setup={"first_drawer": 0, "leader": 0})
    assert plain.to_act == (0,) and plain.legal_actions() == (REVOLUTION, NO)
    run(plain, "0: no")
    assert plain.phase == "play"


def test_strict_penalty_false_revolution() -> None:
    # docs/rules/gouji.md §2.5: 手札の中にジョーカーも2も1枚もない場合 … 革命; a false call is an offence
    hands = _revolution_hands()
    state = full_load(strict_penalty=True).new_state(
        hands=hands, setup={"first_drawer": 0, "leader": 0})
    assert state.to_act == (0,) and state.legal_actions() == (REVOLUTION, NO)
    run(state, "0: no")
    assert state.to_act == (1,) and state.legal_actions() == (Foul("revolution"), NO)
    run(state, "1: foul revolution", "2: no", "3: no", "4: no", "5: no")
    assert state.phase == "play"
    cards = state.all_cards()
    assert len(cards["hand 1"]) == 0 and len(cards["played"]) == 36
    assert state.observe(0).counts[1] == 0


def test_strict_penalty_false_xian() -> None:
    # docs/rules/gouji.md §6, §10 xian rang rang: asked when i+1, i+2 did not both pass is a false claim
    hands = ["5S 5H 3S", "6S 3H", "7S 3D", "8S 3C", "9S 4S", "10S 4H"]
    state = make(hands, strict_penalty=True)
    run(state, "0: 5", "1: 6", "2: 7", "3: 8")
    assert state.to_act == (4, 0)                    # seat 0 played, but 1 and 2 did not pass
    assert state.legal_actions(0) == (Foul("xian"),)
    assert XIAN not in state.legal_actions(0)
    run(state, "0: foul xian")
    assert state.to_act == (4,)
    plain = make(hands)
    run(plain, "0: 5", "1: 6", "2: 7", "3: 8")
    assert plain.to_act == (4,)


def test_dian_gong_owed_and_paid() -> None:
    # docs/rules/gouji.md §9.3 点贡: "a tribute from players not yet opened when 1st goes out"
    hands = ["2S 3S", "4S 4H", "5S 5H", "6S", "7S 7H", "8S 8H"]
    state = make(hands, modern_dian_gong=True)
    run(state, "0: 2", "3: pass")                    # seat 0 opens (开点)
    run(state, "0: 3")                               # seat 0 goes out: Tou Ke
    random_playout(state, random.Random(2))
    result = state.result()
    assert result is not None and result.details["dian_gong"] == [1, 2, 3, 4, 5]
    full = _full_hands(7)
    places = [1, 2, 3, 4, 5, 6]                      # seat 0 Tou Ke
    nxt = full_load(modern_dian_gong=True).new_state(
        hands=full, setup={"places": places, "dian_gong": [1, 2, 3, 4, 5]})
    gives: list[tuple[object, ...]] = [(f.seat, f.receiver, f.count, f.kind) for f in nxt.observe(None).status
             if isinstance(f, TributeGiven)]
    # 进贡: 5→0 (2 cards), 4→1 (1); 点贡 from the opponents 1, 3, 5 (teammates 2, 4 skip)
    assert gives == [(5, 0, 2, "jin_gong"), (4, 1, 1, "jin_gong"), (1, 0, 1, "dian_gong"),
                     (3, 0, 1, "dian_gong"), (5, 0, 1, "dian_gong")]
    assert nxt.phase == "tribute" and nxt.to_act == (0,)
    other = full_load(modern_dian_gong=True, dian_gong_to="opposite").new_state(
        hands=full, setup={"places": places, "dian_gong": [1, 2]})
    gives = [(f.seat, f.receiver, f.count) for f in other.observe(None).status
             if isinstance(f, TributeGiven) and f.kind == "dian_gong"]
    assert gives == [(1, 4, 1), (2, 5, 1)]


def test_da_la_names_the_first_drawer() -> None:
    # docs/rules/gouji.md §2.3: 前回のプレイで6位 … が最初にカードを取る。あるいは … 他の誰でも指名して
    game = cast(GouJiGame, load("gouji"))
    places = [3, 1, 6, 2, 4, 5]                      # seat 2 was Da La
    state = game.new_state(seed=11, setup={"places": places})
    assert state.phase == "drawer" and state.to_act == (2,)
    assert state.legal_actions() == tuple(Draw(s) for s in (2, 3, 4, 5, 0, 1))
    assert state.observe(0).hand == () and len(state.all_cards()["pack"]) == 216
    assert state.observe(None).out == ()             # not dealt yet: nobody has gone out (issue 35)
    state.apply(parse_action("draw 4"))
    assert state.observe(None).out == ()
    named = game.new_state(seed=11, setup={"places": places, "first_drawer": 4})
    assert cast(dict[str, Any], state.deal_info()["setup"])["name_drawer"] is True
    assert [state.hand_counts(s) for s in range(6)] == [named.hand_counts(s) for s in range(6)]
    assert state.leader == 2                         # the Da La still leads (docs/rules/gouji.md §2.4)
    random_playout(state, random.Random(3))
    replayed = Record.from_state(state).replay()
    assert replayed.result() == state.result()


def test_plays_are_cheap_immutable_values() -> None:
    # issue 3 listing speed: plays are tuples underneath, but still values without an order
    p = parse_play("9 9 2")
    assert p == Play(6, 2, 1) and hash(p) == hash(Play(6, 2, 1))
    assert pickle.loads(pickle.dumps(p)) == p and p.size == 3 and p.jokers == 0
    with pytest.raises(TypeError):
        _ = p < parse_play("10 10 10")
    assert PASS != p
