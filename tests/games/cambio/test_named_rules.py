"""Cambio's cucco and request answers, named in the rules module and called by the state,
the bots and the playouts (issue 36, item 3): who may call cucco (docs/rules/cambio.md
§4.3, §6.2), how a request is answered (§5) and who a received FOOL disqualifies (§5.1, §8).
The counting bot asks them under the table's options (``fool_rule``,
``owl_refuses_when_asked``), which binding it tells it."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.agents.search import SearchAgent
from folkdeck.games.cambio import CUCCO
from folkdeck.games.cambio.agents import CountingAgent, _passes_on, rollout
from folkdeck.games.cambio.observation import CambioView
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
    received_disqualifies,
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


@pytest.mark.parametrize(("k", "fool_rule", "expected", "source"), [
    (FOOL, "japanese", True, "§5.1: whoever has just received a FOOL is disqualified"),
    (FOOL, "italian", False, "§7 fool_rule=italian, §8: receiving a FOOL does not disqualify"),
    (MAN, "japanese", False, "§5.1: only the FOOL"),
    (OWL, "japanese", False, "§5.1: the OWL's receiver may call cucco"),
])
def test_received_disqualifies(k: int, fool_rule: Any, expected: bool, source: str) -> None:
    assert received_disqualifies(k, fool_rule) is expected, source


def test_the_playouts_pass_a_fool_on_by_the_fool_rule() -> None:
    """§5.1, §8: seat 0 passes its FOOL to seat 1, which the Japanese rule disqualifies (seat
    0 is left alone and cannot lose); under the Italian rule seat 1 changes the FOOL for the
    stock's 10, and seat 0's 5 is the lowest."""
    deal = ([0, 1], 0, {0: FOOL, 1: kind("5")}, {0: 0, 1: 1}, [kind("10")], 0, True)
    assert rollout(*_fresh(deal)) is False
    assert rollout(*_fresh(deal), fool_rule="italian") is True


def test_the_playouts_end_the_deal_at_a_refusing_owl() -> None:
    """§7 owl_refuses_when_asked: an OWL asked refuses and the deal ends (Q keeps its 3);
    by default it must exchange (§6.2) and seat 0 then holds the OWL."""
    deal = ([0, 1], 0, {0: kind("3"), 1: OWL}, {0: 0, 1: 1}, [kind("10")], 0, True)
    assert rollout(*_fresh(deal)) is False
    assert rollout(*_fresh(deal), owl_refuses=True) is True


def _fresh(deal: tuple[Any, ...]) -> tuple[Any, ...]:
    """A copy of a playout's arguments (it consumes its dicts and the stock)."""
    return tuple(dict(a) if isinstance(a, dict) else list(a) if isinstance(a, list) else a for a in deal)


@pytest.mark.parametrize("bot", ["counting", "search", "pimc:fast"])
def test_a_bound_counting_bot_knows_the_tables_fool_and_owl_rules(bot: str) -> None:
    """A counting bot (a search bot's fallback too) told the game plays by its options."""
    game = folkdeck.load("cambio", "italian_fool", owl_refuses_when_asked=True)
    agent = make_agent(game.spec, bot, game=game)
    if isinstance(agent, SearchAgent):
        agent = agent.fallback
    counting = agent
    assert isinstance(counting, CountingAgent)
    assert (counting.fool_rule, counting.owl_refuses) == ("italian", True)


def test_the_counting_bot_estimates_a_fool_by_the_tables_rule() -> None:
    """§5.1, §8: holding a FOOL, the bot's chances differ between a table where passing
    the FOOL on disqualifies the receiver and one (``italian_fool``) where it does not."""
    game = folkdeck.load("cambio", "italian_fool")
    view = _view_holding_a_fool(game)
    bound = make_agent(game.spec, "counting", game=game)
    assert isinstance(bound, CountingAgent)
    unbound = CountingAgent()
    assert bound.estimate(view, random.Random(0)) != unbound.estimate(view, random.Random(0))


def _view_holding_a_fool(game: Any) -> CambioView:
    """The view of the first seat to decide while holding a FOOL, in seeded deals."""
    for seed in range(200):
        state = cast(CambioState, game.new_state(seed=seed))
        seat = state.to_act[0]
        if state.kind_of(seat) == FOOL:
            return state.observe(seat)
    raise AssertionError("no seed deals a FOOL to the first seat to speak")
