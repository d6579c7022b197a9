"""Cambio rules, table-driven: each row names the seed passage or the rules-notes §."""

from __future__ import annotations

from typing import Any

import pytest

from folkdeck import load
from folkdeck.engine.record import apply_line
from folkdeck.games.cambio.rules import (
    FOOL,
    OWL,
    STOCK,
    Answer,
    answer,
    kind,
    payment,
    seating_groups,
    showdown_losers,
    value,
)


def play(hands: list[str], stock: list[str], dealer: int, lines: list[str], **rules: Any) -> Any:
    game = load("cambio", players=len(hands), **rules)
    state = game.new_state(hands=[[h] if h else [] for h in hands], stock=stock,
                           setup={"dealer": dealer})
    for i, line in enumerate(lines):
        apply_line(state, i, line)
    return state


def notes(state: Any) -> str:
    return " | ".join("; ".join(e.notes) for e in state.history)


# (id, hands, stock, dealer, actions, rules, losers, text expected in the notes)
SCENARIOS = [
    # seed 002 遊び方: change with the right neighbour; the lowest card loses
    ("swap", ["2", "7", "5"], ["3"], 2, ["0: change", "1: keep", "2: keep"], {}, [1],
     "seat 0 exchanges cards with seat 1"),
    # seed 002 人間 / notes §3.3 MAN: refuses, the requester is disqualified
    ("man", ["2", "MAN", "5"], ["3"], 2, ["0: change", "1: keep", "2: keep"], {}, [0, 2],
     "seat 1 holds a MAN and refuses"),
    # seed 002 馬 / notes §3.3 HORSE: the request passes on to the right
    ("horse", ["2", "HORSE", "5"], ["3"], 2, ["0: change", "1: keep", "2: keep"], {}, [2],
     "seat 1 holds a HORSE: seat 0's request passes on to seat 2"),
    # seed 002 家 "馬と同様"; notes C4: the chain goes through the dealer to the stock
    ("house-chain-to-stock", ["2", "HOUSE", "HORSE"], ["7", "3"], 2,
     ["0: change", "1: keep", "2: keep"], {}, [0],
     "seat 2 holds a HORSE: seat 0's request passes on to the stock"),
    # seed 002 猫 / notes §3.3 CAT: Q still holds the card it was dealt, so Q is out
    ("cat-self", ["2", "CAT", "5"], ["3"], 2, ["0: change", "1: keep", "2: keep"], {}, [0, 2],
     "seat 0's card was first dealt to seat 0 itself, which is disqualified"),
    # notes §3.3 CAT: the player first dealt the requester's card is disqualified
    ("cat-owner", ["3", "8", "CAT", "5"], ["4"], 3,
     ["0: change", "1: change", "2: keep", "3: keep"], {}, [0, 1],
     "seat 1's card was first dealt to seat 0, which is disqualified"),
    # seed 002 道化: whoever receives the FOOL in an exchange is disqualified
    ("fool-received-by-target", ["FOOL", "5", "7"], ["3"], 2, ["0: change", "2: keep"], {}, [0, 1],
     "seat 1 receives the FOOL in the exchange and is disqualified"),
    # notes §3.3: "This includes Q receiving T's fool"
    ("fool-received-by-requester", ["5", "FOOL", "7"], ["3"], 2, ["0: change", "1: keep", "2: keep"],
     {}, [0, 1], "seat 0 receives the FOOL in the exchange and is disqualified"),
    # notes §3.2 midgame_loss=continue: two FOOLs swapped, both out; one player left
    ("two-fools", ["FOOL", "FOOL", "7"], ["3"], 2, ["0: change"], {}, [0, 1],
     "seat 2 is the only player left: no showdown"),
    # seed 002 梟 "山札の梟は交換拒否": the stock's OWL ends the deal, the dealer keeps
    ("stock-owl", ["2", "5"], ["OWL", "3"], 1, ["0: keep", "1: change"], {}, [0],
     "the stock turns up an OWL: the stock calls cucco"),
    # seed 002 インストラクションその2: the stock's MAN disqualifies the dealer
    ("stock-man", ["2", "5"], ["MAN"], 1, ["0: keep", "1: change"], {}, [1],
     "the stock turns up a MAN and refuses: seat 1, who asked, is disqualified"),
    # seed 002 / notes §3.3 stock CAT: the owner of the dealer's card (the dealer)
    ("stock-cat", ["2", "5"], ["CAT"], 1, ["0: keep", "1: change"], {}, [1],
     "the stock turns up a CAT and refuses"),
    # seed 002 "山札から引いた道化は梟よりも強い": a stock FOOL counts 16
    ("stock-horse-then-fool", ["2", "3"], ["HORSE", "FOOL"], 1, ["0: keep", "1: change"], {}, [0],
     "seat 1 FOOL (16, from the stock)"),
    # notes C5: a FOOL from a chain reaching the stock counts 16, and does not disqualify
    ("chain-stock-fool", ["2", "HORSE", "HOUSE"], ["FOOL"], 2, ["0: change", "1: keep", "2: keep"],
     {}, [2], "seat 0 FOOL (16, from the stock)"),
    # seed 002 梟 "ディール中いつでも「クク」": out of turn, before the first declaration
    ("cucco-out-of-turn", ["2", "5", "OWL"], ["3"], 2, ["2: cucco"], {}, [0],
     "seat 2 calls cucco"),
    # notes §3.2 ③ "A player who has just received an owl may call at once"
    ("cucco-after-receiving", ["2", "OWL", "5"], ["3"], 2, ["0: change", "0: cucco"], {}, [1],
     "seat 0 calls cucco"),
    # notes C2 option owl_refuses_when_asked: the OWL refuses and calls cucco
    ("owl-refuses", ["2", "OWL", "5"], ["3"], 2, ["0: change"], {"owl_refuses_when_asked": True}, [0],
     "seat 1 holds the OWL and calls cucco"),
    # notes C1 option midgame_loss=end_deal: the first disqualification ends the deal
    ("end-deal", ["2", "MAN", "5"], ["3"], 2, ["0: change"], {"midgame_loss": "end_deal"}, [0],
     "seat 0 shows and discards 2"),
    # notes §3.4 fool_rule=italian: one FOOL equals the lowest other card; no disqualification
    ("italian-fool", ["FOOL", "5", "7"], ["3"], 2, ["0: change", "1: keep", "2: keep"],
     {"fool_rule": "italian"}, [0, 1], "showdown: seat 0 5, seat 1 FOOL, seat 2 7"),
    # seed 002 "最も弱いカードを持っていたプレイヤーたち": ties all lose
    ("tie", ["5", "5", "7"], ["3"], 2, ["0: keep", "1: keep", "2: keep"], {}, [0, 1],
     "seat 0, seat 1 hold the lowest card and lose"),
    # seed 002 "最後に親が山札と交換": the dealer discards its card face up and takes the top
    ("dealer-stock", ["2", "5"], ["9", "3"], 1, ["0: keep", "1: change"], {}, [0],
     "seat 1 takes the top card of the stock and discards 5 face up"),
    # notes §3.2: eliminated seats (no card) take no part; the chain skips them
    ("skip-eliminated", ["2", "", "HORSE", "6"], ["3"], 3, ["0: change", "2: keep", "3: keep"], {}, [3],
     "seat 2 holds a HORSE: seat 0's request passes on to seat 3"),
]


@pytest.mark.parametrize(("hands", "stock", "dealer", "lines", "rules", "losers", "text"),
                         [s[1:] for s in SCENARIOS], ids=[s[0] for s in SCENARIOS])
def test_exchange_scenarios(hands: list[str], stock: list[str], dealer: int, lines: list[str],
                            rules: dict[str, Any], losers: list[int], text: str) -> None:
    state = play(hands, stock, dealer, lines, **rules)
    assert state.is_over(), state
    result = state.result()
    assert result is not None
    assert result.details["losers"] == losers
    assert text in notes(state)


def test_chain_to_stock_moves_cards() -> None:
    # notes §3.3: Q takes the stock card; Q's old card goes to the face-up discards.
    state = play(["2", "HOUSE", "HORSE"], ["7", "3"], 2, ["0: change"])
    assert str(state.card(0)) == "7"
    assert state.observe(1).discards[-1:] == (state.card(0).__class__.parse("2"),)
    assert state.observe(0).card_from_stock


def test_man_moves_no_card() -> None:
    # seed 002 人間: "交換を拒否" — the MAN keeps its card.
    state = play(["2", "MAN", "5"], ["3"], 2, ["0: change"])
    assert str(state.card(1)) == "MAN" and state.card(0) is None


@pytest.mark.parametrize(("card", "to_stock", "expected"), [
    ("OWL", False, Answer.SWAP),     # notes §3.3: a player's OWL must exchange
    ("OWL", True, Answer.CUCCO),     # seed: 山札の梟は交換拒否
    ("MAN", False, Answer.MAN), ("MAN", True, Answer.MAN),
    ("HORSE", False, Answer.SKIP), ("HOUSE", True, Answer.SKIP),
    ("CAT", False, Answer.CAT), ("CAT", True, Answer.CAT),
    ("FOOL", False, Answer.SWAP), ("LION", False, Answer.SWAP), ("10", True, Answer.SWAP),
])
def test_answers(card: str, to_stock: bool, expected: Answer) -> None:
    assert answer(kind(card), to_stock=to_stock, owl_refuses=False) is expected


@pytest.mark.parametrize(("card", "origin", "rule", "expected"), [
    ("FOOL", 0, "japanese", -4), ("FOOL", STOCK, "japanese", 16), ("FOOL", STOCK, "italian", -4),
    ("LION", 0, "japanese", -3), ("MASK", 0, "japanese", -2), ("BUCKET", 0, "japanese", -1),
    ("0", 0, "japanese", 0), ("10", 0, "japanese", 10), ("HOUSE", 0, "japanese", 11),
    ("CAT", 0, "japanese", 12), ("HORSE", 0, "japanese", 13), ("MAN", 0, "japanese", 14),
    ("OWL", STOCK, "japanese", 15),
])
def test_values(card: str, origin: int, rule: Any, expected: int) -> None:
    # notes §3.3 "Values at the showdown"
    assert value(kind(card), origin, rule) == expected


def test_notation_accepts_values() -> None:
    # notes §0.2 / issue: names and values both name the cards
    assert kind("-4") == kind("fool") == FOOL and kind("15") == OWL


def test_italian_two_fools_both_lowest() -> None:
    # notes §3.4 [gap/recalled]: with two fools both are the lowest
    assert showdown_losers([(0, FOOL, 0), (1, FOOL, 1), (2, kind("0"), 2)], "italian") == (0, 1)


def test_seating_stock_fool_strongest() -> None:
    # seed 002 席決め "山札から引いた道化は最強"
    assert seating_groups({0: OWL, 1: FOOL, 2: kind("MAN")})[0] == [1]


@pytest.mark.parametrize(("deal", "pay"), [(1, 1), (2, 2), (3, 3), (4, None), (7, None)])
def test_payment_ladder(deal: int, pay: int | None) -> None:
    # seed 002 インストラクション: 1, 2, 3 chips, then elimination from deal 4
    assert payment(deal, (1, 2, 3)) == pay
