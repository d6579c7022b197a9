"""The learned bots (``folkdeck.agents.learned``): shipped weights, NumPy inference, play.

docs/bots.md "Learned bots" states what these check: every game ships a model that loads,
a saved and loaded network gives the same scores, the bot plays only legal actions in every
preset at the table size its model was trained for, falls back to its heuristic elsewhere,
and is reproducible from its RNG.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.agents.encoding import Encoding
from folkdeck.agents.learned import (
    MODEL_DIR,
    ActionFeatures,
    HandOver,
    LearnedAgent,
    ModelMeta,
    QNetwork,
    choose,
    encoding_signature,
    shipped_model,
)
from folkdeck.agents.search import SearchAgent
from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.registry import get_spec
from folkdeck.sim.arena import ArenaConfig, run_arena
from folkdeck.sim.runner import play_deal

GAMES = folkdeck.games()


def _random_network(encoding: Encoding, seed: int = 0, hidden: tuple[int, ...] = (16, 8)) -> QNetwork:
    rng = np.random.default_rng(seed)
    actions = encoding.num_tokens + 2
    first = (rng.normal(size=(encoding.size, hidden[0])).astype(np.float32),
             rng.normal(size=(actions, hidden[0])).astype(np.float32),
             rng.normal(size=(1, hidden[0])).astype(np.float32))
    sizes = [*hidden, 1]
    rest = tuple((rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=(1, b)).astype(np.float32))
                 for a, b in zip(sizes[:-1], sizes[1:], strict=True))
    meta: ModelMeta = {"format": "folkdeck-qnet/1", "layers": 1 + len(rest), "scale": 2.0,
            "encoding": encoding_signature(encoding)}
    return QNetwork((first, *rest), meta)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_ships_a_model_that_loads_and_fits_its_default_table(name: str) -> None:
    spec = get_spec(name)
    assert "learned" in spec.bots
    network = shipped_model(name)
    assert network is not None and network.meta["game"] == name
    assert network.fits(Encoding.of(folkdeck.load(name)))
    assert shipped_model(name) is network  # read once per process


def test_the_shipped_models_are_a_few_megabytes_in_all() -> None:
    # the bound: "a few MB at most in all" (float16 weights: an ensemble of four is about 1 MB)
    sizes = [p.stat().st_size for p in MODEL_DIR.glob("*.npz")]
    assert len(sizes) == len(GAMES) and sum(sizes) < 5_000_000


def test_a_saved_and_loaded_network_gives_the_same_scores(tmp_path: Path) -> None:
    game = folkdeck.load("kaphai")
    encoding = Encoding.of(game)
    network = _random_network(encoding)
    again = QNetwork.load(network.save(tmp_path / "m.npz"))
    state = game.new_state(seed=3)
    seat = state.to_act[0]
    view = encoding.observe(state.observe(seat))
    actions = ActionFeatures(encoding).matrix(state.legal_actions(seat))
    assert np.array_equal(network.scores(view, actions), again.scores(view, actions))
    assert again.meta == network.meta


def test_a_network_saved_in_half_precision_is_half_the_size_and_scores_as_closely_as_documented(
        tmp_path: Path) -> None:
    # what ``folkdeck train --ship`` writes: float16 weights, read back as float32
    game = folkdeck.load("kaphai")
    encoding = Encoding.of(game)
    network = _random_network(encoding, hidden=(64, 32))
    full, half = network.save(tmp_path / "full.npz"), network.save(tmp_path / "half.npz", half=True)
    assert half.stat().st_size < 0.6 * full.stat().st_size
    again = QNetwork.load(half)
    assert all(a.dtype == np.float32 for layer in again.layers for a in layer) and again.meta == network.meta
    state = game.new_state(seed=3)
    seat = state.to_act[0]
    view = encoding.observe(state.observe(seat))
    actions = ActionFeatures(encoding).matrix(state.legal_actions(seat))
    exact, rounded = network.scores(view, actions), again.scores(view, actions)
    assert not np.array_equal(exact, rounded)  # the weights were rounded...
    assert np.allclose(exact, rounded, rtol=0, atol=2e-3 * float(np.ptp(exact)))  # ...by about a thousandth


def test_the_scores_are_the_documented_function_of_the_inputs() -> None:
    encoding = Encoding.of(folkdeck.load("cangkul"))
    network = _random_network(encoding, hidden=(4,))
    view = np.linspace(0, 1, encoding.size, dtype=np.float32)
    actions = np.eye(2, encoding.num_tokens + 2, dtype=np.float32)
    (w_view, w_action, b1), (w2, b2) = network.layers
    expected = (np.maximum(view @ w_view + actions @ w_action + b1, 0) @ w2 + b2)[:, 0] * 2.0
    assert np.allclose(network.scores(view, actions), expected, rtol=1e-5)


def test_a_file_that_is_no_model_is_refused_with_a_coded_error(tmp_path: Path) -> None:
    path = tmp_path / "not-a-model.npz"
    np.savez(path, x=np.zeros(3))
    with pytest.raises(InvalidConfigError) as info:
        make_agent(get_spec("kaphai"), f"learned={path}")
    assert info.value.reason == "bad_model_file"
    with pytest.raises(InvalidConfigError):
        make_agent(get_spec("kaphai"), f"learned={tmp_path / 'missing.npz'}")


def test_a_model_file_plays_as_learned_equals_path(tmp_path: Path) -> None:
    game = folkdeck.load("kaphai")
    path = str(_random_network(Encoding.of(game)).save(tmp_path / "m.npz"))
    agent = make_agent(game.spec, f"learned={path}", game=game)
    assert isinstance(agent, LearnedAgent) and agent.name == f"learned={path}"
    state = play_deal(game.new_state(seed=1), [agent] * 4, random.Random(1))
    assert state.is_over()


def test_a_model_file_searches_as_learned_plus_search_equals_path(tmp_path: Path) -> None:
    """``learned+search=PATH``: the game's ``learned+search`` with the file's network (the
    shipped model's file plays as ``learned+search``; a training run's teacher of its own
    checkpoint, docs/bots.md); a bad file, or a game without ``learned+search``, is refused
    with a coded error."""
    game = folkdeck.load("gouji")
    shipped = str(MODEL_DIR / "gouji.npz")
    state = game.new_state(seed=3)
    heuristic = make_agent(game.spec, "heuristic", game=game)
    while True:  # to a searched decision among several sets
        seat = state.to_act[0]
        seen, legal = state.observe(seat), state.legal_actions(seat)
        if len(legal) > 6 and game.spec.determinizer is not None and game.spec.determinizer.is_searchable(seen):
            break
        state.apply(heuristic.act(seen, legal, random.Random(0)) if len(legal) > 1 else legal[0], seat)
    rows = []
    for name in ("learned+search", f"learned+search={shipped}"):
        bot = make_agent(game.spec, name, game=game)
        assert isinstance(bot, SearchAgent) and bot.name == name
        bot.rollouts = 24
        rows.append(bot.action_values(seen, legal, random.Random(3)))
    assert rows[0] is not None and 1 <= len(rows[0]) <= 3 and rows[0] == rows[1]
    other = str(_random_network(Encoding.of(game)).save(tmp_path / "m.npz"))
    bot = make_agent(game.spec, f"learned+search={other}", game=game)
    assert isinstance(bot, SearchAgent) and bot.name == f"learned+search={other}"
    kaphai = f"learned+search={MODEL_DIR / 'kaphai.npz'}"
    assert isinstance(make_agent(get_spec("kaphai"), kaphai), HandOver)
    summary = run_arena(ArenaConfig("kaphai", (kaphai, "heuristic", "heuristic", "heuristic"), 1, seed=1,
                                    keep_records=False))  # the arena takes the name as make_agent does
    assert [b.name for b in summary.bots] == [kaphai, "heuristic"]
    bad = tmp_path / "not-a-model.npz"
    np.savez(bad, x=np.zeros(3))
    with pytest.raises(InvalidConfigError) as info:
        make_agent(game.spec, f"learned+search={bad}")
    assert info.value.reason == "bad_model_file" and str(info.value.params["bot"]).startswith("learned+search=")
    with pytest.raises(InvalidConfigError) as info:
        make_agent(get_spec("cambio"), f"learned+search={MODEL_DIR / 'cambio.npz'}")
    assert info.value.reason == "unknown_bot"


def _presets(name: str) -> list[str | None]:
    return [None, *get_spec(name).presets]


@pytest.mark.parametrize(("name", "preset"), [(g, p) for g in GAMES for p in _presets(g)])
def test_the_learned_bot_plays_legal_actions_to_the_end_of_every_preset(name: str, preset: str | None) -> None:
    game = folkdeck.load(name, preset)
    agents = [make_agent(game.spec, "learned", game=game) for _ in range(game.num_players)]
    state = game.new_state(seed=11)
    rng = random.Random(11)
    for _ in range(20_000):
        if state.is_over():
            break
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        action = agents[seat].act(state.observe(seat), legal, rng)
        assert action in legal
        state.apply(action, seat)
    assert state.is_over()


@pytest.mark.parametrize("name", GAMES)
def test_a_learned_bot_is_reproducible_from_its_rng(name: str) -> None:
    game = folkdeck.load(name)

    def history(seed: int) -> list[str]:
        agents = [make_agent(game.spec, "learned", game=game) for _ in range(game.num_players)]
        state = play_deal(game.new_state(seed=5), agents, random.Random(seed))
        return [str(e.action) for e in state.history]

    assert history(1) == history(1)


def test_at_a_table_its_model_was_not_trained_for_it_plays_its_fallback() -> None:
    game = folkdeck.load("kaphai", players=3)
    agent = make_agent(game.spec, "learned", game=game)
    fallback = make_agent(game.spec, "heuristic", game=game)
    assert isinstance(agent, LearnedAgent)
    state = game.new_state(seed=2)
    seat = state.to_act[0]
    view, legal = state.observe(seat), state.legal_actions(seat)
    assert agent.scores(view, legal) is None
    assert agent.act(view, legal, random.Random(0)) == fallback.act(view, legal, random.Random(0))


def test_temperature_zero_takes_the_first_best_and_above_zero_draws_from_the_rng() -> None:
    scores = np.array([0.0, 1.0, 1.0, -3.0], dtype=np.float32)
    assert choose(scores, 0.0, random.Random(5)) == 1
    draws = [choose(scores, 1.0, random.Random(s)) for s in range(200)]
    assert set(draws) <= {0, 1, 2, 3} and draws.count(1) + draws.count(2) > 120
    assert draws == [choose(scores, 1.0, random.Random(s)) for s in range(200)]
    with pytest.raises(ValueError):
        LearnedAgent(get_spec("kaphai"), lambda: None, temperature=-1.0)


def test_kaphais_learned_search_plays_the_network_then_hands_the_last_eight_cards_to_the_search() -> None:
    """docs/bots.md "The teacher's consistency": the network falls short of the search near
    the end of a Kap Hai deal, so ``learned+search`` plays the network's choice while the
    seat holds 9 cards or more and the search's (every action searched) below."""
    game = folkdeck.load("kaphai")
    spec = game.spec
    bot = make_agent(spec, "learned+search", game=game)
    assert isinstance(bot, HandOver) and bot.cards == 9 and bot.name == "learned+search"
    network, search = make_agent(spec, "learned", game=game), make_agent(spec, "search", game=game)
    assert isinstance(search, SearchAgent)
    search.rollouts = bot.search.rollouts = 40  # type: ignore[attr-defined]
    state = game.new_state(seed=3)
    heuristic = make_agent(spec, "heuristic", game=game)
    sides = set()
    rng = random.Random(3)
    while not state.is_over():
        seat = state.to_act[0]
        view, legal = state.observe(seat), state.legal_actions(seat)
        if len(legal) > 1:
            early = len(view.hand or ()) >= 9
            expected = (network if early else search).act(view, legal, random.Random(seat))
            assert bot.act(view, legal, random.Random(seat)) == expected
            sides.add(early)
        state.apply(heuristic.act(view, legal, rng), seat)
    assert sides == {True, False}


@pytest.mark.parametrize("name", [g for g in GAMES if g != "kaphai" and "learned+search" in get_spec(g).bots])
def test_elsewhere_learned_search_is_the_search_over_the_networks_best_three(name: str) -> None:
    bot = make_agent(get_spec(name), "learned+search", game=folkdeck.load(name))
    assert isinstance(bot, SearchAgent) and bot.name == "learned+search"
