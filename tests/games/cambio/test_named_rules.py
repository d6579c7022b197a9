"""Cambio's cucco and request answers, named in the rules module and called by the state,
the bots and the playouts (issue 36, item 3): who may call cucco (docs/rules/cambio.md
§4.3, §6.2) and how a request is answered (§5)."""

from __future__ import annotations

import random
from typing import cast

import pytest

import folkdeck
from folkdeck.games.cambio import CUCCO
from folkdeck.games.cambio.agents import _passes_on
from folkdeck.games.cambio.rules import (
    CAT,
    FOOL,
    HORSE,
    HOUSE,
    MAN,
    NUM_KINDS,
    OWL,
    XII,
    answer,
    answers,
    kind,
    may_call_cucco,
)
from folkdeck.games.cambio.state import CambioState


@pytest.mark.parametrize(("k", "active", "expected", "source"), [
    (OWL, True, True, "§4.3: a player holding an OWL may call cucco at any moment"),
    (OWL, False, False, "§5.3: a disqualified player is out of the deal"),
    (MAN, True, False, "§4.3: only the OWL calls"),
    (FOOL, True, False, "§4.3"),
    (kind("10"), True, False, "§4.3"),
])
def test_may_call_cucco(k: int, active: bool, expected: bool, source: str) -> None:
    assert may_call_cucco(k, active) is expected, source


@pytest.mark.parametrize("preset", [None, "owl_refuses", "nifty44"])
def test_the_state_offers_cucco_exactly_where_the_rule_allows(preset: str | None) -> None:
    """§4.3: in turn or out of turn, every active OWL holder and nobody else may call."""
    game = folkdeck.load("cambio", preset)
    offered = 0
    for seed in range(40):
        state = cast(CambioState, game.new_state(seed=seed))
        rng = random.Random(seed)
        while not state.is_over():
            active = state.active_flags
            for seat in range(state.num_players):
                may = may_call_cucco(state.kind_of(seat), active[seat])
                assert (CUCCO in state.legal_actions(seat)) is may, (seed, seat)
                offered += may
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert offered > 20


def test_answer_tables_are_the_rule() -> None:
    """§5: the tables the deal and the playouts read are :func:`answer`, kind by kind."""
    for stock in (False, True):
        for refuses in (False, True):
            table = answers(to_stock=stock, owl_refuses=refuses)
            assert len(table) == NUM_KINDS
            assert all(table[k] is answer(k, to_stock=stock, owl_refuses=refuses) for k in range(NUM_KINDS))


@pytest.mark.parametrize(("k", "expected", "source"), [
    (HORSE, True, "§5.1 HORSE: refused, the request passes on to the right"),
    (HOUSE, True, "§5.1 HOUSE: the same"),
    (MAN, False, "§5.1 MAN: refused, the requester is out"),
    (CAT, False, "§5.1 CAT"),
    (OWL, False, "§5.1, §6.2: asked, the OWL must exchange"),
    (XII, False, "§1.3: Nifty XII is a number"),
])
def test_the_playouts_pass_a_request_on_as_the_rules_do(k: int, expected: bool, source: str) -> None:
    assert _passes_on(k) is expected, source
