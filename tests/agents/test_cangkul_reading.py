"""The Cangkul family's reading of the cards (``CangkulReading``, a learned bot's inputs):
which cards still in play beat a card, by the rank order of docs/rules/cangkul.md."""

from __future__ import annotations

from folkdeck import get_spec
from folkdeck.cards.notation import parse_cards
from folkdeck.engine.bots import CardReading
from folkdeck.games.cangkul.agents import CangkulReading


def _read(reading: CardReading, hand: str, unseen: str, play: str) -> dict[str, int]:
    numbers = reading.read(parse_cards(hand), parse_cards(unseen), parse_cards(play))
    return {name: round(x * (4 if name == "suits_left" else 7)) for name, x in zip(reading.names, numbers, strict=True)}


def test_in_cangkul_the_ace_is_the_top_of_its_suit() -> None:
    # docs/rules/cangkul.md §7.1: A K Q J 10 ... 2, high to low
    reading = CangkulReading()
    assert _read(reading, "KS 4H", "AS 2S", "KS")["in_play_above"] == 1
    assert _read(reading, "AS 4H", "KS 2S", "AS")["in_play_above"] == 0


def test_only_the_led_suit_beats_a_card() -> None:
    # docs/rules/cangkul.md §2.5: the highest card of the led suit wins (no trumps, §7.1)
    reading = CangkulReading()
    got = _read(reading, "9S 3S 4H", "AH KD QC 10S", "9S")
    assert got["suit_in_play"] == 1 and got["in_play_above"] == 1  # 10S; the higher hearts, clubs, diamonds do not
    assert got["suit_left"] == 1 and got["below_left"] == 1 and got["suits_left"] == 2
    assert got["tops_left"] == 0  # 3S is below 10S, 4H below AH


def test_a_draw_reads_as_the_hand_it_leaves() -> None:
    reading = CangkulReading()
    got = _read(reading, "AS 3H", "KS 5H", "")
    assert got == {"suit_in_play": 0, "in_play_above": 0, "suit_left": 0, "below_left": 0, "suits_left": 2,
                   "tops_left": 1}  # AS


def test_in_spanish_burro_the_as_is_the_lowest_card() -> None:
    # docs/rules/cangkul.md §4.1: Rey > Caballo > Sota > 9 ... 2 > As
    hook = get_spec("burro_es").hooks.card_reading
    assert hook is not None
    reading = hook.get()
    assert _read(reading, "2S 4C", "AS 3S", "2S")["in_play_above"] == 1  # the 3 only
    assert _read(reading, "KS 4C", "AS QS", "KS")["in_play_above"] == 0


def test_portuguese_burro_has_no_reading_for_its_order_is_an_option() -> None:
    # docs/rules/cangkul.md §5.1: `pt_ace_high` puts the Ás above the Rei
    assert get_spec("burro_pt").hooks.card_reading is None
