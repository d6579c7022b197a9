"""Every figure of 『カップハイ完全攻略!』 (図1-図9) as a test; figure 7 as corrected in
docs/rules/kaphai.md §3.3.

Seats: A, B, C, D are seats 0, 1, 2, 3 in turn order (docs/rules/kaphai.md §1.3: counter-clockwise,
each player answers "the person on the left").
"""

from __future__ import annotations

import pytest

from folkdeck.engine.errors import IllegalActionError, NotYourTurnError

from .conftest import deal, play


def test_figure_1_a_pass_locks_you_out_of_the_trick() -> None:
    """図1 (docs/rules/kaphai.md §2.3): A 5S, B pass, C pass, D 8C, A 9H: only D may cut A's 9H."""
    state = deal(["5S 9H 3C", "10S JS 3D", "QS KS 4C", "8C AS 4D"])
    play(state, "0: 5S", "1: pass", "2: pass", "3: 8C", "0: 9H")
    assert state.to_act == (3,), "B and C passed, so only D is still in the trick"
    with pytest.raises(NotYourTurnError):
        state.apply(state.parse_action("10S"), 1)
    play(state, "3: AS")
    assert state.to_act == (0,)
    play(state, "0: pass")
    assert state.to_act == (3,) and state.top is None, "everyone passed: D leads anything"


def test_figure_2_same_rank_pair_with_a_higher_top_suit() -> None:
    """図2 (docs/rules/kaphai.md §3.2): on 4C 4D, B may play a pair of 5 or more, or 4S 4H."""
    state = deal(["4C 4D 9S", "4S 4H 5S 5H 3C", "KS", "AS"])
    play(state, "0: 4C 4D")
    assert [str(a) for a in state.legal_actions()] == ["4S 4H", "5S 5H", "pass"]


def test_figure_3_thrown_twos_do_not_take_the_trick() -> None:
    """図3 (docs/rules/kaphai.md §3.4): A 3S 3C 3D; B throws 2C 2D 2H; C 7S 7C 7D tops it and B may not answer."""
    state = deal(["3S 3C 3D 9S", "2C 2D 2H 8S 8C 8D 4S", "7S 7C 7D 5S", "JS QS"])
    play(state, "0: 3S 3C 3D", "1: 2C 2D 2H")
    assert str(state.top) == "3S 3C 3D" and state.top_seat == 0, "the twos were only thrown"
    play(state, "2: 7S 7C 7D", "3: pass", "0: pass")
    assert state.to_act == (2,), "B counts as passed: C wins the trick"


def test_figure_3_if_everyone_passes_the_first_triple_wins() -> None:
    """図3 (docs/rules/kaphai.md §3.4): if C and D pass after the throw, A leads the next trick."""
    state = deal(["3S 3C 3D 9S", "2C 2D 2H 8S 8C 8D 4S", "7S 7C 7D 5S", "JS QS"])
    play(state, "0: 3S 3C 3D", "1: 2C 2D 2H", "2: pass", "3: pass")
    assert state.to_act == (0,) and state.top is None


def test_figure_4_straights_compare_the_top_card() -> None:
    """図4 (docs/rules/kaphai.md §3.2): on 10H JC QS only 10-J-Q topped by QC, QD or QH beats it."""
    state = deal(["10H JC QS 3S", "9S 10S JD 10C JH QD 10D JS QH KS", "3C", "3D"])
    play(state, "0: 10H JC QS")
    plays = [str(a).split() for a in state.legal_actions() if str(a) != "pass"]
    assert sorted({p[-1] for p in plays if p[-1].startswith("Q")}) == ["QD", "QH"]
    assert not [p for p in plays if p[-1].startswith("J")], "9-10-J never beats 10-J-Q"
    assert all(len(p) == 3 for p in plays), "a 4-card straight never answers 3 cards"
    with pytest.raises(IllegalActionError, match="does not beat"):
        play(state, "1: 9S 10S JD")


def test_figure_5_a_kare_cuts_a_two() -> None:
    """図5 (docs/rules/kaphai.md §3.3): A AH, B 2S, C 6S 6C 6D 6H, D 8S 8C 8D 8H cuts C."""
    state = deal(["AH 3S", "2S 3C", "6S 6C 6D 6H 4S", "8S 8C 8D 8H 4C"])
    play(state, "0: AH", "1: 2S", "2: 6S 6C 6D 6H", "3: 8S 8C 8D 8H")
    assert str(state.top) == "8S 8C 8D 8H" and state.top_seat == 3


def test_figure_6_either_polu_cuts_a_polu() -> None:
    """図6 (docs/rules/kaphai.md §3.2): on 5S 5H 6S 6D 6H both 7C 7S 8C 8S 8D and 7S 7C 7H 8S 8D may be played."""
    for answer in ("7S 7C 8S 8C 8D", "7S 7C 7H 8S 8D"):
        state = deal(["5S 5H 6S 6D 6H 3S", answer + " 4S", "3C", "3D"])
        play(state, "0: 5S 5H 6S 6D 6H", f"1: {answer}")
        assert state.top_seat == 1


def test_figure_7_pae_kare_cuts_a_pair_of_twos_corrected() -> None:
    """図7 (D's cards corrected as in docs/rules/kaphai.md §3.3): A AC AH, B 2S 2C, C pae-kare, D a higher one."""
    state = deal(["AC AH 3S", "2S 2C 3C", "6S 6C 7D 7H 8C 8H 9S 9C 4S",
                  "7S 7C 8S 8D 9D 9H 10S 10D 4C"])
    play(state, "0: AC AH", "1: 2S 2C", "2: 6S 6C 7D 7H 8C 8H 9S 9C",
         "3: 7S 7C 8S 8D 9D 9H 10S 10D")
    assert state.top_seat == 3


def test_figure_8_tong_farson_cuts_a_kare() -> None:
    """図8 (docs/rules/kaphai.md §3.3): A 2H, B kare of 8s, C 10C-AC tong-farson, D the higher 10D-AD."""
    state = deal(["2H 3S", "8S 8C 8D 8H 3C", "10C JC QC KC AC 3D", "10D JD QD KD AD 3H"])
    play(state, "0: 2H", "1: 8S 8C 8D 8H", "2: 10C JC QC KC AC", "3: 10D JD QD KD AD")
    assert state.top_seat == 3 and state.top is not None and state.top.is_tong_farson


def test_figure_9_the_higher_putuh_wins() -> None:
    """図9 (docs/rules/kaphai.md §4.2): A holds three triples (B), B holds one of each rank (D): B is 1st."""
    a = "3S 3C 3D 5S 5C 5H 6C 6D 6H 7S 10D QH AS"
    b = "3H 4H 5D 6S 7C 8S 9D 10S JH QS KD AH 2H"
    rest = ["4S 4C 4D 7D 7H 8C 8D 8H 9S 9C 9H 10C JS", "JC JD QC QD KS KC KH AC AD 2S 2C 2D 10H"]
    state = deal([a, b, *rest])
    result = state.result()
    assert state.is_over() and result is not None
    assert result.reason == "putuh"
    assert result.placings == (None, 1, None, None), "only the declarer is placed"
