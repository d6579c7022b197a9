"""``folkdeck play`` for every game: a match played through the catalog in English and Japanese."""

from __future__ import annotations

import re

import pytest

from folkdeck.cli.errors import CliError
from folkdeck.cli.play import _chosen
from folkdeck.engine.registry import load

from .conftest import GAMES, UNRENDERED, Play, english_words

ENOUGH = "1\n" * 3000  # always the first choice, far more replies than a deal needs


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", GAMES)
def test_a_played_match_is_all_catalog_text(scripted: Play, game: str, lang: str) -> None:
    status, out, _ = scripted(game, "--seed", "3", "--deals", "1", "--bot", "random", "--lang", lang,
                           script="h\nv\n?\n" + ENOUGH)
    assert status == 0
    assert ("Match over" if lang == "en" else "マッチ終了") in out, out[-2000:]
    assert not UNRENDERED.findall(out), sorted(set(UNRENDERED.findall(out)))
    if lang == "ja":
        words = {w for line in out.splitlines() for w in english_words(line)}
        assert not words, (words, [line for line in out.splitlines() if english_words(line)][:20])
    else:
        assert "Your options:" in out and "Deals played" in out
        assert not re.search(r"\b1 (points|cards|chips|penalties)\b", out)


@pytest.mark.parametrize("game", GAMES)
def test_a_spectator_sees_the_match_to_its_end(scripted: Play, game: str) -> None:
    status, out, _ = scripted(game, "--watch", "--seed", "1", "--deals", "1", "--bot", "random", "--lang", "en")
    assert status == 0 and "Match over" in out and "Your options" not in out
    assert not UNRENDERED.findall(out)


@pytest.mark.parametrize("game", GAMES)
def test_a_choice_out_of_range_is_refused_naming_the_range(scripted: Play, game: str) -> None:
    """Not a card-notation error: a whole number always picks from the list."""
    for lang, refusal in (("en", r"Refused: there is no play 999999: type a number from 1 to (\d+)"),
                          ("ja", r"受け付けられません：999999番の手はありません：1〜(\d+)の番号")):
        status, out, _ = scripted(game, "--seed", "5", "--deals", "1", "--bot", "random", "--lang", lang,
                               script="999999\nq\n")
        assert status == 0
        found = re.search(refusal, out)
        assert found, out[-1500:]
        options = [line for line in out[:found.start()].splitlines() if re.search(r"(?<!\d)1\) ", line)][-1]
        listed = [int(n) for n in re.findall(r"(?<!\d)(\d+)\) ", options)]
        assert int(found.group(1)) == listed[-1]  # the last number listed is the count


def test_the_count_in_the_refusal_is_the_number_of_legal_actions() -> None:
    state = load("kaphai", players=4).new_state(seed=3)
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    with pytest.raises(CliError) as caught:
        _chosen("99", legal, state, seat)
    assert caught.value.params == {"choice": 99, "count": len(legal)}
    assert caught.value.render("en") == (
        f"there is no play 99: type a number from 1 to {len(legal)}, or the action itself")
    assert _chosen(str(len(legal)), legal, state, seat) == legal[-1]


def test_superscript_digits_are_not_choice_numbers() -> None:
    state = load("kaphai", players=4).new_state(seed=3)
    seat = state.to_act[0]
    with pytest.raises(Exception) as caught:  # noqa: PT011 - the game's notation error, whatever it is
        _chosen("²", state.legal_actions(seat), state, seat)
    assert not isinstance(caught.value, CliError)


@pytest.mark.parametrize("game", GAMES)
def test_typed_garbage_is_refused_in_the_chosen_language(scripted: Play, game: str) -> None:
    status, out, _ = scripted(game, "--seed", "2", "--deals", "1", "--bot", "random", "--lang", "ja",
                           script="zz zz\nq\n")
    assert status == 0 and "受け付けられません：" in out and "さようなら" in out
    refusal = next(line for line in out.splitlines() if "受け付けられません" in line)
    assert not english_words(refusal.replace("zz", "").replace("Z", "")), refusal  # what was typed aside


def test_quitting_is_polite_and_bad_options_are_coded(scripted: Play) -> None:
    status, out, _ = scripted("kaphai", "--seed", "1", "--lang", "en", script="q\n")
    assert status == 0 and "Goodbye." in out
    status, _, err = scripted("kaphai", "--seat", "7", "--lang", "ja")
    assert status == 2 and "--seat 7：席は0〜3です" in err
    status, _, err = scripted("kaphai", "--rules", "no_such=1", "--lang", "en")
    assert status == 2 and "unknown option 'no_such'" in err
