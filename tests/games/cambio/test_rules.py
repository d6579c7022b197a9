"""Cambio rules, table-driven: each row names its section of docs/rules/cambio.md."""

from __future__ import annotations

from typing import Any

import pytest

from folkdeck import load
from folkdeck.cards import parse_card
from folkdeck.engine.facts import Disqualified, Exchanged, Fact
from folkdeck.engine.record import apply_line
from folkdeck.games.cambio.events import (
    CatCurse,
    LastPlayer,
    Lowest,
    PassedOn,
    Refused,
    Said,
    Showdown,
    Shows,
    StockCard,
    TookStock,
)
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


def facts(state: Any) -> list[Fact]:
    """Every fact of the deal: the actions described, then what followed from them."""
    spec = state.game.spec
    return [f for e in state.history for f in (spec.describe_action(e.seat, e.action), *e.facts)]


def c(token: str) -> Any:
    return parse_card(token)


# (id, hands, stock, dealer, actions, rules, losers, a fact expected in the history)
SCENARIOS = [
    # docs/rules/cambio.md §4.2, §4.4: change with the right neighbour; the lowest card loses
    ("swap", ["2", "7", "5"], ["3"], 2, ["0: change", "1: keep", "2: keep"], {}, [1],
     Exchanged(seat=0, other=1)),
    # docs/rules/cambio.md §5.1 人間 MAN: refuses, the requester is disqualified
    ("man", ["2", "MAN", "5"], ["3"], 2, ["0: change", "1: keep", "2: keep"], {}, [0, 2],
     Refused(seat=1, card=c("MAN"), requester=0)),
    # docs/rules/cambio.md §5.1 馬 HORSE: the request passes on to the right
    ("horse", ["2", "HORSE", "5"], ["3"], 2, ["0: change", "1: keep", "2: keep"], {}, [2],
     PassedOn(seat=1, card=c("HORSE"), requester=0, to=2)),
    # docs/rules/cambio.md §5.1 家 "馬と同様"; §6.4: the chain goes through the dealer to the stock
    ("house-chain-to-stock", ["2", "HOUSE", "HORSE"], ["7", "3"], 2,
     ["0: change", "1: keep", "2: keep"], {}, [0],
     PassedOn(seat=2, card=c("HORSE"), requester=0, to=None)),
    # docs/rules/cambio.md §5.1 猫 CAT: Q still holds the card it was dealt, so Q is out
    ("cat-self", ["2", "CAT", "5"], ["3"], 2, ["0: change", "1: keep", "2: keep"], {}, [0, 2],
     CatCurse(seat=0, dealt_to=0, outcome="disqualified")),
    # docs/rules/cambio.md §5.1 CAT: the player first dealt the requester's card is disqualified
    ("cat-owner", ["3", "8", "CAT", "5"], ["4"], 3,
     ["0: change", "1: change", "2: keep", "3: keep"], {}, [0, 1],
     CatCurse(seat=1, dealt_to=0, outcome="disqualified")),
    # docs/rules/cambio.md §5.1 道化: whoever receives the FOOL in an exchange is disqualified
    ("fool-received-by-target", ["FOOL", "5", "7"], ["3"], 2, ["0: change", "2: keep"], {}, [0, 1],
     Disqualified(seat=1, reason="received_fool")),
    # docs/rules/cambio.md §5.1: Q receiving the target's fool is disqualified too
    ("fool-received-by-requester", ["5", "FOOL", "7"], ["3"], 2, ["0: change", "1: keep", "2: keep"],
     {}, [0, 1], Disqualified(seat=0, reason="received_fool")),
    # docs/rules/cambio.md §5.3, §6.15 midgame_loss=continue: two FOOLs swapped, both out; one player left
    ("two-fools", ["FOOL", "FOOL", "7"], ["3"], 2, ["0: change"], {}, [0, 1],
     LastPlayer(seat=2)),
    # docs/rules/cambio.md §5.2 梟 "山札の梟は交換拒否": the stock's OWL ends the deal, the dealer keeps
    ("stock-owl", ["2", "5"], ["OWL", "3"], 1, ["0: keep", "1: change"], {}, [0],
     StockCard(card=c("OWL"), requester=1)),
    # docs/rules/cambio.md §5.2: the stock's MAN disqualifies the dealer
    ("stock-man", ["2", "5"], ["MAN"], 1, ["0: keep", "1: change"], {}, [1],
     Disqualified(seat=1, reason="asked_stock_man")),
    # docs/rules/cambio.md §5.2 stock CAT: the owner of the dealer's card (the dealer)
    ("stock-cat", ["2", "5"], ["CAT"], 1, ["0: keep", "1: change"], {}, [1],
     StockCard(card=c("CAT"), requester=1)),
    # docs/rules/cambio.md §5.2 "山札から引いた道化は梟よりも強い": a stock FOOL counts 16
    ("stock-horse-then-fool", ["2", "3"], ["HORSE", "FOOL"], 1, ["0: keep", "1: change"], {}, [0],
     Showdown(seat=1, card=c("FOOL"), value=16, from_stock=True)),
    # docs/rules/cambio.md §6.5: a FOOL from a chain reaching the stock counts 16, and does not disqualify
    ("chain-stock-fool", ["2", "HORSE", "HOUSE"], ["FOOL"], 2, ["0: change", "1: keep", "2: keep"],
     {}, [2], Showdown(seat=0, card=c("FOOL"), value=16, from_stock=True)),
    # docs/rules/cambio.md §4.3 梟 "ディール中いつでも「クク」": out of turn, before the first declaration
    ("cucco-out-of-turn", ["2", "5", "OWL"], ["3"], 2, ["2: cucco"], {}, [0],
     Said(seat=2, word="cucco")),
    # docs/rules/cambio.md §4.3: "A player who has just received an OWL may call at once"
    ("cucco-after-receiving", ["2", "OWL", "5"], ["3"], 2, ["0: change", "0: cucco"], {}, [1],
     Said(seat=0, word="cucco")),
    # docs/rules/cambio.md §6.2 option owl_refuses_when_asked: the OWL refuses and calls cucco
    ("owl-refuses", ["2", "OWL", "5"], ["3"], 2, ["0: change"], {"owl_refuses_when_asked": True}, [0],
     Refused(seat=1, card=c("OWL"), requester=0)),
    # docs/rules/cambio.md §6.1 option midgame_loss=end_deal: the first disqualification ends the deal
    ("end-deal", ["2", "MAN", "5"], ["3"], 2, ["0: change"], {"midgame_loss": "end_deal"}, [0],
     Shows(seat=0, card=c("2"))),
    # docs/rules/cambio.md §8 fool_rule=italian: one FOOL equals the lowest other card; no disqualification
    ("italian-fool", ["FOOL", "5", "7"], ["3"], 2, ["0: change", "1: keep", "2: keep"],
     {"fool_rule": "italian"}, [0, 1], Showdown(seat=1, card=c("FOOL"), value=-4)),
    # docs/rules/cambio.md §4.4 "最も弱いカードを持っていたプレイヤーたち": ties all lose
    ("tie", ["5", "5", "7"], ["3"], 2, ["0: keep", "1: keep", "2: keep"], {}, [0, 1],
     Lowest(seat=1)),
    # docs/rules/cambio.md §4.2, §5.2 "最後に親が山札と交換": the dealer discards its card face up and takes the top
    ("dealer-stock", ["2", "5"], ["9", "3"], 1, ["0: keep", "1: change"], {}, [0],
     TookStock(seat=1, card=c("9"), discarded=c("5"))),
    # docs/rules/cambio.md §3.5, §5.3: eliminated seats (no card) take no part; the chain skips them
    ("skip-eliminated", ["2", "", "HORSE", "6"], ["3"], 3, ["0: change", "2: keep", "3: keep"], {}, [3],
     PassedOn(seat=2, card=c("HORSE"), requester=0, to=3)),
]


@pytest.mark.parametrize(("hands", "stock", "dealer", "lines", "rules", "losers", "fact"),
                         [s[1:] for s in SCENARIOS], ids=[s[0] for s in SCENARIOS])
def test_exchange_scenarios(hands: list[str], stock: list[str], dealer: int, lines: list[str],
                            rules: dict[str, Any], losers: list[int], fact: Fact) -> None:
    state = play(hands, stock, dealer, lines, **rules)
    assert state.is_over(), state
    result = state.result()
    assert result is not None
    assert result.details["losers"] == losers
    assert fact in facts(state)


def test_chain_to_stock_moves_cards() -> None:
    # docs/rules/cambio.md §5.2: Q takes the stock card; Q's old card goes to the face-up discards.
    state = play(["2", "HOUSE", "HORSE"], ["7", "3"], 2, ["0: change"])
    assert str(state.card(0)) == "7"
    assert state.observe(1).discards[-1:] == (state.card(0).__class__.parse("2"),)
    assert state.observe(0).card_from_stock


def test_man_moves_no_card() -> None:
    # docs/rules/cambio.md §5.1 人間: "交換を拒否" — the MAN keeps its card.
    state = play(["2", "MAN", "5"], ["3"], 2, ["0: change"])
    assert str(state.card(1)) == "MAN" and state.card(0) is None


@pytest.mark.parametrize(("card", "to_stock", "expected"), [
    ("OWL", False, Answer.SWAP),     # docs/rules/cambio.md §5.1: a player's OWL must exchange
    ("OWL", True, Answer.CUCCO),     # docs/rules/cambio.md §5.2: 山札の梟は交換拒否
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
    # docs/rules/cambio.md §1.1 values at the showdown
    assert value(kind(card), origin, rule) == expected


def test_notation_accepts_values() -> None:
    # docs/rules/cambio.md §1.2: names and values both name the cards
    assert kind("-4") == kind("fool") == FOOL and kind("15") == OWL


def test_italian_two_fools_both_lowest() -> None:
    # docs/rules/cambio.md §7 fool_rule=italian: with two fools both are the lowest
    assert showdown_losers([(0, FOOL, 0), (1, FOOL, 1), (2, kind("0"), 2)], "italian") == (0, 1)


def test_seating_stock_fool_strongest() -> None:
    # docs/rules/cambio.md §3.2 席決め "山札から引いた道化は最強"
    assert seating_groups({0: OWL, 1: FOOL, 2: kind("MAN")})[0] == [1]


@pytest.mark.parametrize(("deal", "pay"), [(1, 1), (2, 2), (3, 3), (4, None), (7, None)])
def test_payment_ladder(deal: int, pay: int | None) -> None:
    # docs/rules/cambio.md §3.3: 1, 2, 3 chips, then elimination from deal 4
    assert payment(deal, (1, 2, 3)) == pay
