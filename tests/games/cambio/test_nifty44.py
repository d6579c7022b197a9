"""The Nifty 44-card edition, ``pack=nifty44`` (docs/rules/cambio.md §1.3).

Notes §3.1: "The Nifty edition had 44 cards (22 kinds: number cards XI and XII added, so the
pictures are numbered 18-22)". Read as: bottom to top FOOL, LION, MASK, BUCKET, 0 … 10, XI,
XII, HOUSE, CAT, HORSE, MAN, OWL, two of each; XI and XII are number cards (they exchange
like numbers), every other card keeps its power, and a stock FOOL still counts above the OWL.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, cast

import pytest

from folkdeck import load
from folkdeck.cards import CUCCO_40, NIFTY_44, PACKS, Card, CuccoRank, format_cards, parse_cards
from folkdeck.engine.errors import InvalidDealError, InvalidNotationError
from folkdeck.engine.facts import Exchanged
from folkdeck.engine.record import Record, dumps, loads
from folkdeck.games.cambio import CambioGame
from folkdeck.games.cambio.agents import CountingAgent, p_lowest
from folkdeck.games.cambio.options import PRESETS
from folkdeck.games.cambio.rules import (
    CAT,
    FOOL,
    HORSE,
    HOUSE,
    MAN,
    OWL,
    PACK_40,
    PACK_NIFTY44,
    STOCK,
    XI,
    XII,
    Answer,
    answer,
    kind,
    seating_groups,
    showdown_losers,
    value,
)
from folkdeck.sim.runner import random_playout

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "records"
TEN = kind("10")


def nifty(hands: list[str], stock: list[str] | None = None, **setup: Any) -> Any:
    game = load("cambio", pack="nifty44", players=len(hands))
    return game.new_state(hands=[[h] if h else [] for h in hands], stock=stock, setup=setup)


# --- notation (docs/rules/cambio.md §1.3: "number cards XI and XII") ---------------------------------
@pytest.mark.parametrize(("text", "canonical"), [
    ("XI", "XI"), ("xi", "XI"), ("XII", "XII"), ("xii", "XII"),
    ("11", "HOUSE"), ("12", "CAT"), ("house", "HOUSE"), ("10", "10"), ("15", "OWL"),
])
def test_notation_new_cards_and_old_numbers(text: str, canonical: str) -> None:
    # 11 and 12 keep meaning HOUSE and CAT; the Nifty cards are written in Roman numerals
    assert format_cards(parse_cards(text)) == canonical


@pytest.mark.parametrize("bad", ["111", "112", "XIII", "XIV"])
def test_notation_rejects_enum_values_and_other_numerals(bad: str) -> None:
    with pytest.raises(InvalidNotationError):
        parse_cards(bad)


def test_existing_canonical_output_unchanged() -> None:
    assert format_cards(CUCCO_40.kinds) == (
        "FOOL LION MASK BUCKET 0 1 2 3 4 5 6 7 8 9 10 HOUSE CAT HORSE MAN OWL")
    assert Card(CuccoRank.XI) not in CUCCO_40.counts and len(CUCCO_40.cards) == 40


def test_nifty_pack_order_and_size() -> None:
    # docs/rules/cambio.md §1.3: 22 kinds, the pictures numbered 18-22 (kinds 18-22 from the bottom)
    assert len(NIFTY_44.cards) == 44 and set(NIFTY_44.counts.values()) == {2}
    kinds = [str(c) for c in NIFTY_44.kinds]
    assert len(kinds) == 22 and kinds[15:17] == ["XI", "XII"]
    assert kinds[17:] == ["HOUSE", "CAT", "HORSE", "MAN", "OWL"]
    assert PACKS["Cucco Nifty 44"] is NIFTY_44


# --- rules ------------------------------------------------------------------------------
def test_values_xi_xii_between_ten_and_house() -> None:
    v = PACK_NIFTY44.values
    assert v[TEN] < v[XI] < v[XII] < v[HOUSE] < v[CAT] < v[HORSE] < v[MAN] < v[OWL]
    assert value(FOOL, STOCK, pack=PACK_NIFTY44) > v[OWL]   # the stock FOOL still tops the OWL
    assert value(FOOL, 0, pack=PACK_NIFTY44) == -4
    # the 40-card values are unchanged (docs/rules/cambio.md §1.1)
    assert [PACK_40.values[k] for k in (FOOL, TEN, HOUSE, OWL)] == [-4, 10, 11, 15]
    assert value(FOOL, STOCK) == 16


@pytest.mark.parametrize("k", [XI, XII])
def test_xi_xii_exchange_like_numbers(k: int) -> None:
    for to_stock in (False, True):
        for refuses in (False, True):
            assert answer(k, to_stock=to_stock, owl_refuses=refuses) is Answer.SWAP


@pytest.mark.parametrize(("hands", "losers"), [
    ([TEN, XI], (0,)),
    ([XI, XII], (0,)),
    ([XII, HOUSE], (0,)),
    ([XII, XII], (0, 1)),
    ([XI, CAT], (0,)),
])
def test_showdown_by_the_nifty_order(hands: list[int], losers: tuple[int, ...]) -> None:
    entries = [(s, k, s) for s, k in enumerate(hands)]
    assert showdown_losers(entries, pack=PACK_NIFTY44) == losers


def test_italian_fool_with_nifty() -> None:
    entries = [(0, FOOL, 0), (1, XI, 1), (2, XII, 2)]
    assert showdown_losers(entries, "italian", PACK_NIFTY44) == (0, 1)


def test_seating_draw_uses_the_pack_order() -> None:
    # docs/rules/cambio.md §3.2 seating: the strongest draws first; a stock FOOL is the strongest
    assert seating_groups({0: XII, 1: HOUSE, 2: XI, 3: FOOL}, PACK_NIFTY44) == [[3], [1], [0], [2]]


# --- the deal ---------------------------------------------------------------------------
def test_xi_must_exchange_when_asked_and_xii_loses_to_house() -> None:
    # seat 1's request passes the HOUSE and reaches seat 3's XI, which must exchange
    state = nifty(["5", "XII", "HOUSE", "XI"], ["7", "OWL"], dealer=0)
    event = state.apply(state.parse_action("change"))
    assert Exchanged(seat=1, other=3) in event.facts
    assert str(state.card(1)) == "XI" and str(state.card(3)) == "XII"
    for word in ("keep", "keep", "keep"):
        state.apply(state.parse_action(word))
    result = state.result()
    assert result is not None and result.details["losers"] == [0]   # 5 < XI < XII < HOUSE


def test_dealer_takes_xi_from_the_stock() -> None:
    state = nifty(["HOUSE", "10", "XII"], ["XI"], dealer=0)
    for word in ("keep", "keep", "change"):
        state.apply(state.parse_action(word))
    result = state.result()
    assert str(state.card(0)) == "XI"
    assert result is not None and result.details["losers"] == [1]   # 10 < XI < XII < HOUSE


def test_stock_fool_counts_above_the_owl() -> None:
    state = nifty(["OWL", "8"], ["FOOL"], dealer=0)
    state.apply(state.parse_action("keep"))
    state.apply(state.parse_action("change"))
    result = state.result()
    assert result is not None and result.details["losers"] == [1]
    assert result.details["showdown"]["0"] == "FOOL" and result.details["from_stock"] == [0]
    shown = [f for e in state.history for f in e.facts if f.type == "cambio.showdown"]
    assert [(f.seat, f.value, f.from_stock) for f in shown] == [(1, 8, False), (0, 18, True)]


def test_forty_card_game_refuses_nifty_cards() -> None:
    game = load("cambio", players=2)
    with pytest.raises(InvalidDealError) as err:
        game.new_state(hands=[["XI"], ["3"]])
    assert err.value.details["field"] == "hands[0]"
    with pytest.raises(InvalidDealError):
        game.new_state(deck="XII 3 4")


def test_seeded_deals_use_all_44_cards() -> None:
    seen: Counter[str] = Counter()
    for players in (2, 4, 43):
        game = cast(CambioGame, load("cambio", preset="nifty44", players=players))
        for seed in range(20):
            state = game.new_state(seed=seed)
            cards = [c for place in state.all_cards().values() for c in place]
            assert Counter(cards) == NIFTY_44.counts
            seen.update(str(state.card(s)) for s in range(players))
            random_playout(state, random.Random(seed))
            assert state.result() is not None
    assert seen["XI"] and seen["XII"]


def test_deck_and_hands_deals_leave_the_rest_in_the_discards() -> None:
    state = cast(CambioGame, load("cambio", pack="nifty44", players=3)).new_state(deck="XI XII 3 OWL")
    assert [str(state.card(s)) for s in (1, 2, 0)] == ["XI", "XII", "3"]
    assert len(state.all_cards()["discards"]) == 40


def test_match_keeps_the_44_cards() -> None:
    match = cast(CambioGame, load("cambio", pack="nifty44", players=5, start_chips=4)).new_match(
        rng=random.Random(3))
    deals = 0
    while not match.is_over() and deals < 60:
        state = match.next_deal()
        cards = [c for place in state.all_cards().values() for c in place]
        assert Counter(cards) == NIFTY_44.counts
        random_playout(state, random.Random(deals))
        match.finish_deal(state)
        deals += 1
    assert sum(match.chips) + match.pot == 5 * 4


# --- the counting bot -------------------------------------------------------------------
def test_observation_counts_the_nifty_pack() -> None:
    state = cast(CambioGame, load("cambio", pack="nifty44", players=4)).new_state(seed=1)
    obs = state.observe(0)
    assert obs.pack == "nifty44" and obs.to_dict()["pack"] == "nifty44"
    assert len(obs.unseen()) == 43   # 44 less its own card
    assert len(obs.pack_table.full) == 44
    assert load("cambio").new_state(seed=1).observe(0).to_dict()["pack"] == "40"


def test_p_lowest_with_nifty_values() -> None:
    unseen = Counter({XI: 1})
    # a 10 against one unseen XI: lowest for sure; an XII is not
    assert p_lowest(10, [], 1, unseen, PACK_NIFTY44.values) == 1.0
    assert p_lowest(PACK_NIFTY44.values[XII], [], 1, unseen, PACK_NIFTY44.values) == 0.0


def test_counting_bot_keeps_xii_with_four_players_facing_the_stock() -> None:
    # the dealer with an XII (above every number) keeps rather than draw from the stock
    state = nifty(["XII", "MASK", "BUCKET", "LION"], ["0", "1"], dealer=0)
    for word in ("keep", "keep", "keep"):
        state.apply(state.parse_action(word))
    obs = state.observe(0)
    bot = CountingAgent(samples=50)
    assert bot.act(obs, state.legal_actions(), random.Random(0)).value == "keep"


def test_counting_bot_plays_nifty_deals() -> None:
    game = cast(CambioGame, load("cambio", pack="nifty44", players=5))
    bot = CountingAgent(samples=20)
    rng = random.Random(5)
    for seed in range(15):
        state = game.new_state(seed=seed)
        while not state.is_over():
            seat = state.to_act[0]
            state.apply(bot.act(state.observe(seat), state.legal_actions(seat), rng), seat)
        assert state.result() is not None


# --- records, presets, CLI ----------------------------------------------------------------
def test_nifty_example_record() -> None:
    state = loads((EXAMPLES / "cambio-nifty44.json").read_text()).replay()
    result = state.result()
    assert result is not None and result.details["losers"] == [1]
    assert result.details["showdown"] == {"1": "XI", "2": "HOUSE", "3": "XII", "0": "FOOL"}
    assert result.details["from_stock"] == [0]
    again = loads(dumps(Record.from_state(state))).replay()
    assert again.deal_info() == state.deal_info() and again.result() == state.result()
    assert json.loads(dumps(Record.from_state(state)))["rules"]["pack"] == "nifty44"


def test_preset_registered() -> None:
    assert PRESETS["nifty44"] == {"pack": "nifty44"}


def test_cli_replay_nifty_record() -> None:
    out = subprocess.run([sys.executable, "-m", "folkdeck", "replay",
                          str(EXAMPLES / "cambio-nifty44.json")],
                         capture_output=True, text=True, timeout=120, check=True)
    assert '"losers": [1]' in out.stdout
