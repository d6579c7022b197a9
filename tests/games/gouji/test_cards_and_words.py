"""What a newcomer sees and types: the hand in reading order, typed suits honoured or
refused, the cards a history names, and the game's words explained in both catalogs
(``docs/rules/gouji.md`` §1.3, §11.24; the issue "hand sorted by rank only, plays
listed as ranks only, ``QC QC QH`` silently took Q♣ Q♥ Q♠, gouji/xian/burning not
explained")."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from folkdeck import load
from folkdeck.cards import parse_cards
from folkdeck.engine.errors import IllegalActionError
from folkdeck.engine.facts import Played, fact_from_dict
from folkdeck.engine.record import Record, dumps, loads
from folkdeck.games.gouji import SPEC
from folkdeck.games.gouji.actions import parse_action
from folkdeck.games.gouji.events import (
    Burned,
    BurnWindow,
    GoujiCalled,
    GouJiPlayed,
    TrickMode,
    action_of,
    describe_action,
)
from folkdeck.games.gouji.rules import Play
from folkdeck.games.gouji.state import GouJiState
from folkdeck.i18n import Renderer, catalog

from .conftest import make, run

BURN_HANDS = ["9S 9H 3C", "10S", "3S", "KS KH 6C", "AS AH 5S", "5H"]
"""Seat 3's K K is a gouji (docs/rules/gouji.md §4.1: two Ks); seat 4, beside it, may
burn with A A, its rest 5 being one set (§5)."""


def _text(cards: object) -> list[str]:
    return [str(c) for c in cards]  # type: ignore[attr-defined]


# --- 1. the hand in reading order (docs/rules/gouji.md §1.3) ---------------------------------

def test_hand_is_by_rank_then_spades_clubs_diamonds_hearts() -> None:
    state = make(["9D 9S 9D 9S", "RJ 2H BJ 10C JS 3H 2S 10S", "4S", "4C", "4D", "4H"])
    assert _text(state.observe(0).hand or ()) == ["9S", "9S", "9D", "9D"]
    # 10 below J (the game's ranks, not the text's), 2s above A, then the black, the red joker
    assert _text(state.observe(1).hand or ()) == ["3H", "10S", "10C", "JS", "2S", "2H", "BJ", "RJ"]


def test_shown_hands_use_the_same_order() -> None:
    # docs/rules/gouji.md §7.3: a teammate's hand of 10 or fewer is shown
    state = make(["4S", "5S", "KH KS 3D 3C", "6S", "7S", "8S"])
    shown = state.observe(0).shown[2]
    assert shown is not None and _text(shown) == ["3C", "3D", "KS", "KH"]


# --- 2. typed suits: honoured or refused, never replaced ---------------------------------------

def test_a_suited_card_the_seat_lacks_is_refused() -> None:
    state = make(["3C 3S 4H", "5S", "5C", "5D", "5H", "6S"])
    with pytest.raises(IllegalActionError) as caught:
        state.parse_action("3C 3C", 0)
    assert caught.value.reason == "gouji.cards_not_held"
    assert caught.value.params["cards"] == "3C"  # the notation of the cards not held
    for lang in ("en", "ja"):
        text = caught.value.render(lang)
        assert "{" not in text and "3C" in text.replace("♣", "C")
    assert str(state.parse_action("3 3", 0)) == "3 3"  # ranks alone are the record grammar


def test_the_issue_queens_are_refused_when_one_club_is_held() -> None:
    state = make(["QC QH QS QD", "5S", "5C", "5D", "5H", "6S"])
    with pytest.raises(IllegalActionError) as caught:
        state.parse_action("QC QC QH")
    assert caught.value.params["cards"] == "QC"
    assert state.hand_counts(0)[9] == 4  # nothing was taken


def test_named_queens_are_the_ones_played() -> None:
    state = make(["QS QD QC QH QD QC", "5S", "5C", "5D", "5H", "6S"])
    action = state.parse_action("QC qc QH")
    assert action == parse_action("Q Q Q") and hash(action) == hash(parse_action("Q Q Q"))
    assert str(action) == "Q Q Q"
    event = state.apply(action)
    assert event.line == "0: Q Q Q"  # the record stays rank-only
    assert _text(state.observe(0).hand or ()) == ["QS", "QD", "QD"]
    top = state.observe(1).top
    assert top is not None and _text(top.cards) == ["QC", "QC", "QH"]


def test_named_and_unnamed_cards_mix() -> None:
    state = make(["9S 9H 9D 2C 2H", "10S", "3S", "4S", "5S", "6S"])
    state.apply(state.parse_action("9H 9 2H"))
    hand = _text(state.observe(0).hand or ())
    assert "9H" not in hand and "2H" not in hand and hand.count("2C") == 1 and len(hand) == 2


def test_named_cards_in_a_burn_and_a_tribute_return() -> None:
    # docs/rules/gouji.md §5 burning; §2.6 the receiver gives back cards of its choice
    state = make(["9S 9H 3C", "10S", "3S", "KS KH 6C", "AS AH AD AS", "5H"])
    run(state, "0: 9 9", "1: pass", "2: pass", "3: K K")
    with pytest.raises(IllegalActionError):
        state.parse_action("burn AC AH", 4)
    event = state.apply(state.parse_action("burn AD AH", 4), 4)
    assert event.line == "4: burn A A"
    assert _text(state.observe(4).hand or ()) == ["AS", "AS"]
    tribute = load("gouji", ask_all_seats=False).new_state(
        hands=["5C 5H 5S 7S", "3C 3D", "3D", "3H", "4C 8S", "9S 9H KC"],
        setup={"places": [1, 2, 3, 4, 5, 6]})
    assert tribute.phase == "tribute" and tribute.to_act == (0,)
    with pytest.raises(IllegalActionError):
        tribute.parse_action("return 5D 7S")
    back = tribute.apply(tribute.parse_action("return 5H 7S"))
    assert back.line == "0: return 5 7"
    assert "5H" not in _text(tribute.observe(0).hand or ())
    assert _text(back.facts[0].cards) == ["5H", "7S"]  # type: ignore[attr-defined]


def test_naming_the_cards_a_set_took_takes_the_same_copies() -> None:
    """An event's set names every card it took; applied again (a pickled state replays its
    events so, folkdeck/engine/pickling.py) it takes the same copies, as a set typed by
    ranks takes its pile's last: the piles keep their order, and so the cards a later set
    by ranks takes."""
    hands = ["6S 6D 6S 6H 7S", "10S", "3S", "3C", "3D", "3H"]
    played, again = make(hands), make(hands)
    event = played.apply(played.parse_action("6 6"))
    assert isinstance(event.action, Play) and _text(event.action.cards) == ["6S", "6H"]  # the pile's last two
    again.apply(event.action)
    assert again.deal.piles == played.deal.piles


def test_a_game_with_typed_suits_replays_from_its_rank_only_record() -> None:
    state = make(["9S 9D 9C 9H 4S", "10S 10C 5S", "3S", "3C", "3D", "3H"])
    run(state, "0: 9H 9C", "1: 10S 10C", "2: pass", "3: pass", "4: pass", "5: pass", "0: pass")
    assert _text(state.observe(0).hand or ()) == ["4S", "9S", "9D"]
    again = loads(dumps(Record.from_state(state))).replay()
    assert [e.line for e in again.history] == [e.line for e in state.history]
    assert isinstance(again, GouJiState) and again.hand_counts(0) == state.hand_counts(0)


# --- 3. the history names the cards played ------------------------------------------------------

def test_the_played_fact_carries_the_cards_on_the_table() -> None:
    state = make(["3C 3S 3S 3D 3H 4C", "5S", "6S", "7S", "8S", "9S"])
    legal = state.legal_actions(0)[0]
    event = state.apply(state.parse_action("3 3 3 3 3"))
    act = describe_action(event.seat, event.action)
    top = state.observe(0).top
    assert isinstance(act, Played) and top is not None and act.cards == top.cards
    assert _text(act.cards) == ["3S", "3S", "3C", "3D", "3H"]
    assert fact_from_dict(act.to_dict()) == act
    assert action_of(act) == event.action and getattr(action_of(act), "cards", None) == act.cards
    seen = state.observe(2).history[-1].act
    assert seen == act
    assert seen is not None
    line = Renderer("en", game="gouji", viewer=2, symbols=True).fact(seen)
    assert line == "Seat 0 plays 3♠ 3♠ 3♣ 3♦ 3♥"
    # a set that was not played (a legal action) has no cards to name
    assert isinstance(legal, Play) and isinstance(describe_action(0, legal), GouJiPlayed)


def test_a_burn_names_its_cards() -> None:
    state = make(BURN_HANDS)
    run(state, "0: 9 9", "1: pass", "2: pass", "3: K K")
    event = state.apply(state.parse_action("burn A A", 4), 4)
    act = describe_action(4, event.action)
    assert isinstance(act, Burned) and _text(act.cards or ()) == ["AS", "AH"] and act.ranks == ("A", "A")
    assert Renderer("en", game="gouji", symbols=True).fact(act) == "Seat 4 burns with A♠ A♥"


@pytest.mark.parametrize("seed", [3, 11])
def test_every_card_that_left_a_hand_is_named_by_the_history(seed: int) -> None:
    state = load("gouji").new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)
    named: Counter[str] = Counter()
    for view_event in state.observe(None).history:
        act = view_event.act
        if isinstance(act, Played) or (isinstance(act, Burned) and act.cards is not None):
            named.update(_text(act.cards or ()))
    assert named == Counter(_text(state.all_cards()["played"]))


# --- 4. the words explained --------------------------------------------------------------------

HELP_TERMS = ("term.gouji.title", "term.gouji.summary", "term.gouji.gouji.help",
              "term.gouji.burn.help", "term.gouji.xian.help")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_words_have_explanations(lang: str) -> None:
    messages = catalog(lang)
    for key in (*HELP_TERMS, *(f"term.gouji.{w}.help" for w in SPEC.windows)):
        assert isinstance(messages.get(key), str) and messages[key], key
        if key.endswith((".help", ".summary")):
            assert len(str(messages[key])) > 40, key
    if lang == "ja":
        assert not re.search(r"[A-Za-z]{3,}", str(messages["term.gouji.burn.help"]))


def test_the_status_says_who_may_answer_and_who_is_asked_to_burn() -> None:
    state = make(BURN_HANDS, ask_all_seats=True)
    run(state, "0: 9 9", "1: pass", "2: pass", "3: K K")
    status = state.observe(1).status
    assert GoujiCalled(seat=3, opposite=0) in status and BurnWindow(seats=(4, 2)) in status
    en = Renderer("en", game="gouji", viewer=0)
    assert en.fact(GoujiCalled(seat=3, opposite=0)) == (
        "The set of seat 3 is a gouji: only you, its opposite, may answer it (or pass)")
    run(state, "4: no", "2: no")
    duel = state.observe(5).status  # the opposite answers: still a gouji on the table
    assert GoujiCalled(seat=3, opposite=0) in duel and TrickMode(mode="duel", seat=3) in duel


def test_the_status_hides_who_may_burn_without_ask_all_seats() -> None:
    # docs/rules/gouji.md §11.23: asked only with the right, the question would tell
    state = make(BURN_HANDS)
    run(state, "0: 9 9", "1: pass", "2: pass", "3: K K")
    status = state.observe(1).status
    assert GoujiCalled(seat=3, opposite=0) in status
    assert not any(isinstance(f, BurnWindow) for f in status)


def test_after_a_burn_the_status_names_the_burner() -> None:
    state = make(BURN_HANDS)
    run(state, "0: 9 9", "1: pass", "2: pass", "3: K K", "4: burn A A")
    assert TrickMode(mode="after_burn", seat=4) in state.observe(0).status
    assert Renderer("en", game="gouji", viewer=0).fact(TrickMode(mode="after_burn", seat=4)).startswith(
        "Seat 4 burned")


def test_option_labels_of_typed_cards() -> None:
    # a parsed set that names some cards is still labelled by its ranks (not all are known)
    state = make(["QS QD QC", "5S", "5C", "5D", "5H", "6S"])
    partial = state.parse_action("QC Q")
    assert isinstance(describe_action(0, partial), GouJiPlayed)
    assert parse_cards("QC") == partial.cards  # type: ignore[union-attr]
