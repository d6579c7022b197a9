"""The views' encoder (issue 24: each part of a view encoded again only when it changed)
gives exactly ``View.to_dict()``, as JSON text, for every seat and the spectators after
every event of random deals of every registered game, new deals included."""

from __future__ import annotations

import json
import random

import pytest

import folkdeck
from folkdeck.server.views import ViewEncoder


@pytest.mark.parametrize("name", folkdeck.games())
def test_the_encoder_gives_each_view_as_to_dict_does(name: str) -> None:
    game = folkdeck.load(name)
    match = game.new_match(deals=3, rng=random.Random(11))
    rng = random.Random(11)
    viewers: list[int | None] = [None, *range(game.num_players)]
    encoders = {seat: ViewEncoder() for seat in viewers}
    checked = 0
    for _ in range(2):  # two deals: the encoders carry over from one deal to the next
        state = match.next_deal()
        for _ in range(400):
            for seat, encoder in encoders.items():
                view = state.observe(seat)
                assert json.dumps(encoder.obs(view)) == json.dumps(view.to_dict())
                checked += 1
            if state.is_over():
                break
            seat = rng.choice(state.to_act)
            legal = state.legal_actions(seat) or state.legal_actions(seat := state.to_act[0])
            state.apply(rng.choice(legal), seat)
        if not state.is_over() or match.is_over():
            break
        match.finish_deal(state)
    assert checked >= 5 * len(viewers)  # several events, every viewer
