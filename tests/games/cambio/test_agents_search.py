"""Cambio's search bots: worlds weighted by what was said, the owl's call, reproducibility."""

from __future__ import annotations

import random
from collections import Counter
from typing import cast

import pytest

from folkdeck import load
from folkdeck.agents import RandomAgent
from folkdeck.agents.registry import make_agent
from folkdeck.agents.search import SearchAgent
from folkdeck.engine.protocol import GameAgent
from folkdeck.games.cambio import CHANGE, CUCCO, KEEP, SPEC, CambioGame
from folkdeck.games.cambio.agents import OWL_REACH, CountingAgent, rollout
from folkdeck.games.cambio.determinize import events_of
from folkdeck.games.cambio.rules import FOOL, NAMES, OWL, PACK_40, kind
from folkdeck.games.cambio.search import (
    LEVELS,
    CambioSearchAgent,
    OpponentModel,
    cards_when_spoken,
    likelihood,
    speeches,
)
from folkdeck.sim.runner import play_deal


def _deck(first: list[str]) -> list[str]:
    """The whole pack as a stock, ``first`` on top (so nothing is in the discards)."""
    rest = Counter(PACK_40.full)
    rest.subtract(kind(c) for c in first)
    return first + [NAMES[k] for k in sorted(rest.elements())]


def _bot(worlds: int, belief: bool = True) -> CambioSearchAgent:
    bot = CambioSearchAgent(SPEC, worlds=worlds, belief=belief, fallback=CountingAgent)
    bot.bind(load("cambio", players=4))
    return bot


def test_search_bots_are_the_cambio_search() -> None:
    game = cast(CambioGame, load("cambio", players=4))
    for name in ("search", "search:fast", "search:strong", "pimc", "pimc:fast", "pimc:strong"):
        bot = make_agent(SPEC, name, game=game)
        assert isinstance(bot, CambioSearchAgent) and isinstance(bot, SearchAgent)
        assert bot.name == name and bot.belief == name.startswith("search")
    assert LEVELS["fast"] < LEVELS["default"] < LEVELS["strong"]


def test_cards_when_spoken_undo_the_exchanges() -> None:
    # Seat 1 changes its 2 with seat 2's 9; seat 2 (now holding the 2) changes it with
    # seat 3's 7; seat 3 keeps the 2; the dealer (seat 0) takes the stock's top card.
    game = cast(CambioGame, load("cambio", players=4))
    state = game.new_state(deck=_deck(["2", "9", "7", "5", "8"]), setup={"dealer": 0})
    for action in (CHANGE, CHANGE, KEEP, CHANGE):
        state.apply(action)
    events = events_of(state.observe(1))   # the history as seat 1 saw it: typed facts
    spoken = [(s, str(a), NAMES[k]) for s, a, k in cards_when_spoken(state, events)]
    assert spoken == [(1, "change", "2"), (2, "change", "2"), (3, "keep", "2"),
                      (0, "change", "5")]
    obs = state.observe(1)
    # (active seats, place among them, still the card it was dealt)
    assert speeches(game, obs, events) == [(4, 0, True), (4, 1, False), (4, 2, False),
                                           (4, 3, True)]


def test_the_model_changes_low_cards_and_keeps_high_ones() -> None:
    model = OpponentModel()
    for pos in range(4):
        assert model.p_change("40", 4, pos, FOOL, True) > 0.9
        assert model.p_change("40", 4, pos, kind("10"), True) < 0.1
        assert model.p_change("40", 4, pos, OWL, True) < 0.1
    # a large table uses the analytic rule, with the same shape
    assert model.p_change("40", 12, 3, FOOL, True) > 0.9 > 0.1 > model.p_change("40", 12, 3,
                                                                                kind("5"), True)


def test_a_keep_makes_worlds_with_a_high_card_likelier() -> None:
    game = cast(CambioGame, load("cambio", players=4))
    model = OpponentModel()
    worlds = {}
    for card in ("1", "10"):
        state = game.new_state(deck=_deck([card, "9", "7", "5"]), setup={"dealer": 0})
        state.apply(KEEP)
        events = events_of(state.observe(2))
        worlds[card] = likelihood(state, events, 2, model, speeches(game, state.observe(2), events))
    assert worlds["10"] > 5 * worlds["1"]


def test_the_dealer_changes_after_three_keeps() -> None:
    # The others all kept, so they likely hold high cards: a 3 is then likely the
    # lowest, though against uniformly dealt cards it is not (the counting bot keeps).
    game = cast(CambioGame, load("cambio", players=4))
    state = game.new_state(deck=_deck(["9", "8", "10", "3"]), setup={"dealer": 0})
    for _ in range(3):
        state.apply(KEEP)
    obs, legal = state.observe(0), state.legal_actions(0)
    assert _bot(1500).act(obs, legal, random.Random(1)) is CHANGE
    assert _bot(1500, belief=False).act(obs, legal, random.Random(1)) is KEEP
    assert CountingAgent().act(obs, legal, random.Random(1)) is KEEP


def test_owl_called_as_soon_as_a_request_could_reach_it() -> None:
    # Seat 3 holds the OWL; seat 1 speaks first. An OWL holder that is never asked cannot
    # lose, so it calls while a seat to its left is on turn, and not once none is.
    game = cast(CambioGame, load("cambio", players=4))
    state = game.new_state(deck=_deck(["5", "6", "OWL", "2"]), setup={"dealer": 0})
    bot = _bot(10)
    assert bot.interrupt(state.observe(3), state.legal_actions(3), random.Random(0)) is CUCCO
    state = game.new_state(deck=_deck(["OWL", "6", "3", "2"]), setup={"dealer": 0})
    state.apply(KEEP)  # seat 1 (the OWL) keeps; seat 2 is on turn, to its right
    assert bot.interrupt(state.observe(1), state.legal_actions(1), random.Random(0)) is None


def test_counting_playouts_let_the_owl_call_before_its_left_neighbour() -> None:
    # docs/rules/cambio.md §9: the OWL holder calls cucco before its left neighbour says cambio. Seat 1's
    # 1 would otherwise be swapped for the OWL, leaving seat 0's 3 the lowest.
    cards = {0: kind("3"), 1: kind("1"), 2: OWL}
    origin = {0: 0, 1: 1, 2: 2}
    assert rollout([0, 1, 2], 0, dict(cards), dict(origin), [kind("10")], 0, False)
    assert not rollout([0, 1, 2], 0, dict(cards), dict(origin), [kind("10")], 0, False,
                       owl_reach=OWL_REACH)


@pytest.mark.parametrize(("players", "preset"), [(5, "standard"), (9, "standard"),
                                                  (4, "closed_discards"), (4, "sudden")])
def test_search_deals_are_reproducible_and_legal(players: int, preset: str) -> None:
    game = load("cambio", preset, players=players)

    def deal(seed: int) -> list[str]:
        agents = [CambioSearchAgent(SPEC, worlds=12, fallback=CountingAgent)
                  for _ in range(players)]
        for a in agents:
            a.bind(game)
        state = play_deal(game.new_state(seed=seed, setup={"dealer": seed % players}), agents,
                          random.Random(seed))
        return [e.line for e in state.history]

    for seed in range(4):
        assert deal(seed) == deal(seed)


def test_search_beats_random_players() -> None:
    game = cast(CambioGame, load("cambio", players=4))
    losses = Counter[int]()
    deals = 120
    for seed in range(deals):
        bot = CambioSearchAgent(SPEC, worlds=30, fallback=CountingAgent)
        bot.bind(game)
        agents: list[GameAgent] = [bot, RandomAgent(), RandomAgent(), RandomAgent()]
        state = play_deal(game.new_state(seed=seed, setup={"dealer": seed % 4}), agents,
                          random.Random(seed))
        result = state.result()
        assert result is not None
        losses.update(result.details["losers"])
    assert losses[0] / deals < (losses[1] + losses[2] + losses[3]) / 3 / deals - 0.1
