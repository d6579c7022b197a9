"""Cangkul's and the Burros' refusals and option errors are coded: each renders in Japanese
with ``render("ja")`` and in English with ``render("en")`` (issue 36, item 6: engines raise
coded errors, and text is made only at the edge, from the message catalogs)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import cast

import pytest

import folkdeck
from folkdeck.engine.errors import CardGameError, InvalidConfigError, InvalidNotationError
from folkdeck.games.cangkul.game import CangkulGame
from folkdeck.games.cangkul.options import BurroEsOptions, BurroPtOptions, CangkulOptions
from folkdeck.games.cangkul.rules import deck_for, mask
from folkdeck.i18n import catalog

_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
GAMES = (("cangkul", None), ("cangkul", "joker"), ("burro_es", None), ("burro_pt", None))

OPTION_ERRORS: dict[str, Callable[[], object]] = {
    "cangkul players": lambda: CangkulOptions(players=6),
    "cangkul stall_limit": lambda: CangkulOptions(stall_limit=-1),
    "burro_es players": lambda: BurroEsOptions(players=2),
    "burro_es hand_size": lambda: BurroEsOptions(hand_size=0),
    "burro_es hand_size for the pack": lambda: BurroEsOptions(hand_size=20),
    "burro_es penalty_limit": lambda: BurroEsOptions(penalty_limit=0),
    "burro_pt players": lambda: BurroPtOptions(players=9),
    "burro_pt stock_knock_prob": lambda: BurroPtOptions(stock_knock_prob=1.5),
    "card not in the pack": lambda: mask("10S", deck_for("spanish48")),
    "card twice": lambda: mask("3S 3S", deck_for("french52")),
}


def _assert_coded(error: CardGameError) -> None:
    assert f"error.{error.reason}" in catalog("en"), error.reason
    assert f"error.{error.reason}" in catalog("ja"), error.reason
    en, ja = error.render("en"), error.render("ja")
    assert en and not _JAPANESE.search(en), en
    assert _JAPANESE.search(ja), f"{error.reason}: {ja}"
    assert en != ja


@pytest.mark.parametrize("what", OPTION_ERRORS)
def test_option_and_notation_errors_are_coded(what: str) -> None:
    with pytest.raises((InvalidConfigError, InvalidNotationError)) as info:
        OPTION_ERRORS[what]()
    _assert_coded(info.value)


def test_players_error_names_the_game() -> None:
    with pytest.raises(InvalidConfigError) as info:
        BurroPtOptions(players=9)
    assert info.value.render("en") == "option players=9: Portuguese Burro is for 3 to 8 players"
    assert info.value.render("ja") == "人数 9：ポルトガルのブッロは3〜8人で遊びます"


def _refusals(name: str, preset: str | None, deals: int) -> Iterator[CardGameError]:
    """Every refusal met by trying each card of the pack, ``draw`` and ``pass`` for every seat
    at every step of ``deals`` random deals."""
    game = folkdeck.load(name, preset)
    words = [str(c) for c in cast(CangkulGame, game).deck.cards if c is not None]
    words += ["draw", "draw left", "draw right", "pass"]
    rng = random.Random(name)
    for seed in range(deals):
        state = game.new_state(seed=seed)
        while not state.is_over():
            for seat in range(state.num_players):
                for word in words:
                    try:
                        state.verify(state.parse_action(word, seat), seat)
                    except CardGameError as exc:
                        yield exc
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("name", "preset"), GAMES)
def test_every_refusal_renders_in_both_languages(name: str, preset: str | None) -> None:
    seen: dict[str, CardGameError] = {}
    for error in _refusals(name, preset, 3):
        seen.setdefault(error.reason, error)
    assert {"cangkul.not_held", "cangkul.follow_suit", "cangkul.not_your_turn"} <= set(seen), sorted(seen)
    for error in seen.values():
        _assert_coded(error)
