"""The views' encoder (issue 24: each part of a view encoded again only when it changed)
gives exactly ``View.to_dict()``, as JSON text, for every seat and the spectators after
every event of random deals of every registered game, new deals included; and the table's
facts that change only between deals, made once per deal, are the ones made afresh."""

from __future__ import annotations

import json
import random

import pytest

import folkdeck
from folkdeck.server.tables import Table
from folkdeck.server.views import ViewEncoder


@pytest.mark.parametrize("name", folkdeck.games())
def test_the_encoder_gives_each_view_as_to_dict_does(name: str) -> None:
    game = folkdeck.load(name)
    match = game.new_match(deals=3, rng=random.Random(11))
    rng = random.Random(11)
    viewers: list[int | None] = [None, *range(game.num_players)]
    encoders = {seat: ViewEncoder() for seat in viewers}
    checked = 0
    given: list[tuple[object, str]] = []  # every view given, with its JSON then
    for _ in range(2):  # two deals: the encoders carry over from one deal to the next
        state = match.next_deal()
        for _ in range(400):
            for seat, encoder in encoders.items():
                view = state.observe(seat)
                encoded = encoder.obs(view)
                given.append((encoded, json.dumps(encoded)))
                assert given[-1][1] == json.dumps(view.to_dict())
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
    # what the encoder keeps grows in place, but no view it gave ever changes afterwards
    # (a message's JSON is the base of the connection's next delta)
    assert all(json.dumps(encoded) == text for encoded, text in given)


@pytest.mark.parametrize("name", ["cambio", "kaphai"])
def test_the_match_facts_made_once_per_deal_are_the_ones_made_afresh(name: str) -> None:
    spec = folkdeck.get_spec(name)
    seats = [{"kind": "human", "bot": None, "name": f"P{i}", "token": None} for i in range(spec.default_players)]
    table = Table.new("t", {"game": name, "options": {"players": spec.default_players}, "deals": 3, "seed": 4,
                            "practice": True, "seats": seats, "watch": "-", "turn_seconds": 0,
                            "auto_bot": spec.default_bot})
    rng = random.Random(4)
    deals_seen = set()
    for _ in range(3000):
        kept = table.public()
        table._match_facts = None  # made afresh
        assert table.public() == kept
        deals_seen.add(table.deal)
        state = table.state
        if state.is_over():
            if not table.finish_deal_if_over() or not table.start_next_deal():
                break
            continue
        seat = state.to_act[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        table.finish_deal_if_over()
    assert len(deals_seen) > 1
