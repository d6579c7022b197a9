"""Determinizations agree with the seat's observation and never use the hidden cards."""

from __future__ import annotations

import random
from typing import cast

import pytest

from folkdeck import load
from folkdeck.games.kaphai.determinize import DETERMINIZER, is_searchable
from folkdeck.games.kaphai.game import KapHaiGame
from folkdeck.games.kaphai.state import KapHaiState
from folkdeck.sim.runner import random_playout


def _positions(game: KapHaiGame, seeds: range, steps: int) -> list[KapHaiState]:
    out = []
    for seed in seeds:
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if state.is_over():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            out.append(state.clone())
    return out


@pytest.mark.parametrize(("preset", "players"), [(None, 4), ("local", 4), (None, 3), (None, 2)])
def test_kaphai_determinization_agrees_with_the_observation(preset: str | None, players: int) -> None:
    game = cast(KapHaiGame, load("kaphai", preset, players=players))
    rng = random.Random(7)
    for real in _positions(game, range(6), 40):
        if real.is_over():
            continue
        seat = real.current_seat
        assert seat is not None
        seen = real.observe(seat)
        assert is_searchable(seen)
        world = DETERMINIZER.determinize(game, seen, rng)
        # Same own hand, same public information, same counts: the seat's view is equal.
        assert world.observe(seat).to_dict() == seen.to_dict()
        assert [str(a) for a in world.legal_actions(seat)] == [str(a) for a in real.legal_actions(seat)]
        # Every card is somewhere exactly once.
        cards = [c for place in world.all_cards().values() for c in place]
        assert len(cards) == len(set(cards)) == 52
        random_playout(world.clone(), rng)  # the world plays on to an end


def test_kaphai_determinization_never_depends_on_the_hidden_cards() -> None:
    game = cast(KapHaiGame, load("kaphai"))
    hands = game.new_state(seed=1).deal_info()["hands"]
    a = game.new_state(hands=hands, setup={"three_game": False})
    b = game.new_state(hands=[hands[0], hands[2], hands[1], hands[3]], setup={"three_game": False})
    assert a.phase == b.phase == "play" and a.all_cards() != b.all_cards()
    assert a.observe(0).to_dict() == b.observe(0).to_dict()
    wa = DETERMINIZER.determinize(game, a.observe(0), random.Random(3))
    wb = DETERMINIZER.determinize(game, b.observe(0), random.Random(3))
    assert wa.all_cards() == wb.all_cards()
    # ...and the hidden cards really are redealt: some world differs from the truth.
    worlds = [DETERMINIZER.determinize(game, a.observe(0), random.Random(s)).all_cards()["hand 1"] for s in range(5)]
    assert any(w != a.all_cards()["hand 1"] for w in worlds)


def test_determinize_refuses_a_spectator_view() -> None:
    game = cast(KapHaiGame, load("kaphai"))
    state = game.new_state(seed=1)
    from folkdeck.engine.errors import WrongPhaseError

    with pytest.raises(WrongPhaseError):
        DETERMINIZER.determinize(game, state.observe(None), random.Random(1))


def test_kaphai_world_keeps_the_deal_leader_after_a_declined_putuh() -> None:
    # Found by the view-secrets work: a putuh window's "pass" comes before the first lead,
    # and the world took that passer for the deal's leader.
    game = cast(KapHaiGame, load("kaphai", putuh_optional=True))
    checked = 0
    for seed in range(400):
        real = game.new_state(seed=seed)
        if real.phase != "putuh":
            continue
        rng = random.Random(seed)
        while real.phase == "putuh":
            seat = real.to_act[0]
            real.apply(real.parse_action("pass", seat), seat)
        if real.is_over():
            continue
        legal = real.legal_actions()
        real.apply(legal[rng.randrange(len(legal))])
        if real.is_over():
            continue
        world = DETERMINIZER.determinize(game, real.observe(real.current_seat), rng)
        assert world.deal_info()["setup"] == real.deal_info()["setup"]
        checked += 1
    assert checked > 0
