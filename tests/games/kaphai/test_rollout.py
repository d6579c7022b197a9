"""The search bots' rollout policy (games/kaphai/rollout.py): people's habits (docs/rules/kaphai.md §7)."""

from __future__ import annotations

import random
from typing import cast

import folkdeck
from folkdeck.engine.conformance import fingerprint
from folkdeck.games.kaphai.game import KapHaiGame
from folkdeck.games.kaphai.rollout import choose, playout

from .conftest import deal, play


class _NoNoise(random.Random):
    """An RNG whose coin never asks for a random move."""

    def random(self) -> float:
        return 0.999


def test_a_leader_leads_its_lowest_card_in_its_largest_combination() -> None:
    # docs/rules/kaphai.md §7 (Ⅵ①): keep combinations, shed low cards: 4S belongs to 4-5-6, so the straight goes.
    state = deal(["4S 5H 6D 9C 9D KS", "3C 3D 7H 8H JC QC"])
    assert str(choose(state, _NoNoise())) == "4S 5H 6D"


def test_a_follower_plays_its_cheapest_answer() -> None:
    state = deal(["6S 9C", "7C 8D JH QS KS AS"], leader=0)
    play(state, "0: 6S")
    assert str(choose(state, _NoNoise())) == "7C"


def test_a_follower_keeps_its_2_for_later_unless_it_is_nearly_out() -> None:
    # The 2 is the only answer to the ace; with many cards left the follower passes.
    state = deal(["AS 4C", "2H 3C 5D 7H 9S JD"], leader=0)
    play(state, "0: AS")
    assert str(choose(state, _NoNoise())) == "pass"
    nearly_out = deal(["AS 4C", "2H 3C 5D"], leader=0)
    play(nearly_out, "0: AS")
    assert str(choose(nearly_out, _NoNoise())) == "2H"


def test_playouts_end_and_are_reproducible_from_the_seed() -> None:
    game = cast(KapHaiGame, folkdeck.load("kaphai"))
    for seed in range(30):
        a, b = game.new_state(seed=seed), game.new_state(seed=seed)
        playout(a, random.Random(seed))
        playout(b, random.Random(seed))
        assert a.is_over() and fingerprint(a) == fingerprint(b)
