"""A view's ``to_act`` shows no right to act that comes from another seat's hidden cards.

``state.to_act`` lists every seat that may act now (the engine, the sim runner and the
server use it); ``state.observe(seat)`` lists the seat the game publicly waits for, the
seats whose right is public by the rules, and the viewer itself. Each test builds two
positions that differ only in hidden cards and checks that a seat that cannot see them
gets the same view from both.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, cast

import pytest

import folkdeck
from folkdeck.engine.conformance import check_view_to_act
from folkdeck.games.cambio import CambioGame
from folkdeck.games.cambio.determinize import DETERMINIZER
from folkdeck.games.cambio.events import MayCallCucco
from folkdeck.games.cambio.rules import OWL
from folkdeck.games.cambio.search import CambioSearchAgent
from folkdeck.games.kaphai.events import PutuhWindow
from folkdeck.i18n import Renderer


def _views(state: Any, seat: int | None) -> dict[str, Any]:
    view: dict[str, Any] = state.observe(seat).to_dict()
    return view


# --- Cambio: the owl's call (docs/rules/cambio.md §4.3: a player holding the OWL may call cucco out of
# turn; docs/rules/cambio.md §6.17) --------------------------------------------------------------------

def _cambio(hands: list[str]) -> Any:
    game = folkdeck.load("cambio", players=4)
    return game.new_state(hands=hands, stock=["3", "HORSE", "MAN", "5", "6"], setup={"dealer": 3})


def _cambio_pair() -> tuple[Any, Any]:
    """The OWL with seat 1, or with seat 2 (who hold a 7 otherwise); seat 0 is on turn."""
    return _cambio(["5", "OWL", "7", "9"]), _cambio(["5", "7", "OWL", "9"])


def test_cambio_view_names_no_other_owl_holder() -> None:
    a, b = _cambio_pair()
    assert a.to_act == (0, 1) and b.to_act == (0, 2), "the engine still offers the call"
    for seat in (0, 3, None):
        assert _views(a, seat) == _views(b, seat), f"seat {seat} learns where the OWL is"
        assert _views(a, seat)["to_act"] == [0]
    owl = a.observe(1)
    assert owl.to_act == (0, 1) and owl.legal_actions == ("cucco",), "the holder sees its own right"
    assert MayCallCucco(seat=1) in owl.status, "the holder's view says it may call cucco"
    assert not any(isinstance(f, MayCallCucco) for f in a.observe(2).status)
    assert a.observe(2).to_act == (0,) and a.observe(2).legal_actions == ()
    check_view_to_act(a)
    check_view_to_act(b)


def test_cambio_views_stay_alike_after_keeps() -> None:
    a, b = _cambio_pair()
    for state in (a, b):
        state.apply(state.parse_action("keep"))  # seat 0 keeps: seat 1 is on turn
    assert a.to_act == (1,) and b.to_act == (1, 2)
    for seat in (0, 3, None):
        assert _views(a, seat) == _views(b, seat)
    assert b.observe(1).to_act == (1,), "the seat on turn does not see seat 2's OWL"
    check_view_to_act(b)


def test_cambio_determinizer_places_owls_like_any_unseen_card() -> None:
    """Seat 3's worlds: the same from both positions, and the OWL in either hand (or the
    stock), since nothing seat 3 sees tells where it is."""
    game = cast(CambioGame, folkdeck.load("cambio", players=4))
    a, b = _cambio_pair()
    where: Counter[str] = Counter()
    for i in range(200):
        wa = DETERMINIZER.determinize(game, a.observe(3), random.Random(i))
        wb = DETERMINIZER.determinize(game, b.observe(3), random.Random(i))
        assert wa.piles() == wb.piles()
        assert wa.observe(3).to_dict() == a.observe(3).to_dict()
        hands = wa.piles()[0]
        where["seat 1" if hands[1] == OWL else "seat 2" if hands[2] == OWL
              else "seat 0" if hands[0] == OWL else "elsewhere"] += 1
    assert where["seat 1"] > 10 and where["seat 2"] > 10 and where["seat 0"] > 10, where


def test_cambio_search_decides_alike_on_alike_views() -> None:
    """The search reads only the view: the same choice from both positions and seed."""
    spec = folkdeck.get_spec("cambio")
    a, b = _cambio_pair()
    for state in (a, b):
        state.apply(state.parse_action("keep"))
        state.apply(state.parse_action("keep"))  # seat 2 is on turn in both
    assert a.to_act[0] == b.to_act[0] == 2
    bot = CambioSearchAgent(spec, worlds=40)
    for state in (a, b):
        state.apply(state.parse_action("keep"))  # seat 2 keeps: seat 3 (the dealer) is on turn
    assert _views(a, 3) == _views(b, 3)
    choice_a = bot.evaluate(a.observe(3), a.legal_actions(3), random.Random(7))
    choice_b = bot.evaluate(b.observe(3), b.legal_actions(3), random.Random(7))
    assert choice_a == choice_b


# --- Kap Hai: the putuh window (docs/rules/kaphai.md §4.4, option putuh_optional) ---------------------

_KAPHAI = ["3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC QS",
           "2S 2C 2D 2H 3S 4S 5S 6S 7S 8S 9S 10S JS",   # putuh E: the four 2s
           "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD KS",
           "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH AS"]


def _kaphai(hands: list[str]) -> Any:
    # The window that asks only the holders (records before ask_all_seats): its views must
    # still name nobody. (With ask_all_seats every seat is asked: tests/games/kaphai.)
    game = folkdeck.load("kaphai", putuh_optional=True, ask_all_seats=False)
    return game.new_state(hands=hands, setup={"three_game": False, "leader": 0})


def test_kaphai_putuh_window_names_no_declarer() -> None:
    a = _kaphai(_KAPHAI)
    b = _kaphai([_KAPHAI[0], _KAPHAI[2], _KAPHAI[1], _KAPHAI[3]])  # the putuh with seat 2
    assert a.phase == b.phase == "putuh" and a.to_act == (1,) and b.to_act == (2,)
    for seat in (0, 3, None):
        view = _views(a, seat)
        assert view == _views(b, seat), f"seat {seat} learns who holds the putuh"
        assert view["to_act"] == [] and view["current_seat"] is None
    own = a.observe(1)
    assert own.to_act == (1,) and own.current_seat == 1 and own.legal_actions == ("putuh", "pass")
    assert a.observe(2).to_act == () and a.observe(2).legal_actions == ()
    assert own.status == a.observe(0).status == (PutuhWindow(all_seats=False),)
    assert Renderer("en", game="kaphai", viewer=0).fact(a.observe(0).status[0]) == \
        "Putuh window: waiting for any putuh declaration"
    check_view_to_act(a)
    check_view_to_act(b)


def test_kaphai_play_phase_views_show_the_seat_on_turn() -> None:
    state = _kaphai(_KAPHAI)
    state.apply(state.parse_action("pass", 1), 1)
    assert state.phase == "play" and state.to_act == (0,)
    for seat in (0, 1, 2, 3, None):
        assert state.observe(seat).to_act == (0,) and state.observe(seat).current_seat == 0
    check_view_to_act(state)


# --- Gou Ji: burning (烧牌, docs/rules/gouji.md §5, §11.6) ------------------------------------

def _gouji(h1: str, h5: str, **options: Any) -> Any:
    """Seat 0 plays K K, a gouji (docs/rules/gouji.md §4.1: 2 or more Kings); X+1 = seat 1 and X+5 =
    seat 5 may burn if they hold a set that beats it and can go out with the rest."""
    game = folkdeck.load("gouji", **options)
    state = game.new_state(hands=["KS KH 3S", h1, "4S", "5S 5H", "6S", h5], setup={"leader": 0})
    state.apply(state.parse_action("K K"))
    return state


def test_gouji_burn_window_names_no_burner_in_views() -> None:
    """Under the old window (``ask_all_seats=false``, the rule of records written before it)
    only the entitled seat is asked; still no other view names it."""
    a = _gouji("AS AH 7S", "8S 9S 10S", ask_all_seats=False)
    b = _gouji("8S 9S 10S", "AS AH 7S", ask_all_seats=False)
    assert a.to_act == (1,) and b.to_act == (5,)
    for seat in (0, 2, 3, 4, None):
        va, vb = a.observe(seat), b.observe(seat)
        assert va.to_act == vb.to_act == () and va.current_seat is vb.current_seat is None
    own = a.observe(1)
    assert own.to_act == (1,) and own.current_seat == 1 and "no" in own.legal_actions
    check_view_to_act(a)
    check_view_to_act(b)


def test_gouji_strict_penalty_burn_window_is_public() -> None:
    """With strict_penalty both X+1 and X+5 are asked whatever they hold: public."""
    state = _gouji("8S 9S 10S", "7S 7H 7D", strict_penalty=True)
    assert state.to_act == (1,)
    for seat in (0, 2, 5, None):
        assert state.observe(seat).to_act == (1,)
    check_view_to_act(state)


def test_gouji_xian_offer_is_public() -> None:
    """先让让 (docs/rules/gouji.md §6): i played, i+1 and i+2 passed, i+3 played; the trick shows that
    i may ask, so every view lists i after the seat on turn."""
    game = folkdeck.load("gouji")
    state = game.new_state(hands=["5S 8S 8H", "4S", "4H", "6S 9S", "3S 3H", "3D 3C"],
                           setup={"leader": 0})
    for text in ["5", "pass", "pass", "6"]:
        state.apply(state.parse_action(text))
    assert len(state.to_act) == 2, state.to_act
    for seat in (*range(6), None):
        assert state.observe(seat).to_act == state.to_act
    check_view_to_act(state)


# --- the conformance checks can fail ---------------------------------------------------------

def test_conformance_checks_catch_a_view_that_names_owl_holders(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the old view (every OWL holder in ``to_act``) both checks fail on seat 3's view."""
    from folkdeck.engine.conformance import check_hidden_twins
    from folkdeck.games.cambio.state import CambioState

    a, _ = _cambio_pair()
    monkeypatch.setattr(CambioState, "_view_to_act", lambda self, seat: self.to_act)
    with pytest.raises(AssertionError, match="only \\[0\\] are public"):
        check_view_to_act(a)
    game = folkdeck.load("cambio", players=4)
    failures = 0
    for seed in range(10):
        try:
            check_hidden_twins(game, a, random.Random(seed))
        except AssertionError as exc:
            assert "cannot see looks different" in str(exc)
            failures += 1
    assert failures >= 5, "a world without the OWL at seat 1 shows seat 3 another to_act"


def test_search_weighs_owls_by_the_public_silence() -> None:
    """Nobody has called cucco (public): under the model an OWL holder within reach after
    the seat on turn would have (docs/rules/cambio.md §4.3: the owl may call out of turn), so such worlds
    weigh ``noise``; an OWL farther on, or none, weighs 1."""
    from folkdeck.games.cambio.search import OpponentModel, owl_silence

    model = OpponentModel()
    weights = {}
    for where, hands in {1: ["5", "OWL", "7", "9"], 2: ["5", "7", "OWL", "9"],
                         3: ["5", "7", "9", "OWL"], None: ["5", "7", "9", "8"]}.items():
        weights[where] = owl_silence(_cambio(hands), 0, model)
    assert weights == {1: model.noise, 2: model.noise, 3: 1.0, None: 1.0}
    assert owl_silence(_cambio(["5", "OWL", "7", "9"]), 2, model) == 1.0, "seat 2 is not on turn"
