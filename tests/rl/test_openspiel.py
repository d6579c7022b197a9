"""The OpenSpiel adapter: every game registered, passing ``pyspiel.random_sim_test``, with
the invariants OpenSpiel's Python game tests check (chance probabilities, legal actions,
clones, history replay, observation and information-state tensors and strings), and
OpenSpiel's ISMCTS playing Kap Hai through OpenSpiel's ``evaluate_bots`` and as a
folkdeck agent."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import folkdeck  # noqa: E402
import folkdeck.rl.openspiel as fs  # noqa: E402

from .conftest import GAMES  # noqa: E402


def test_every_game_is_registered() -> None:
    names = pyspiel.registered_names()
    for game in GAMES:
        assert f"python_folkdeck_{game}" in names


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow) if g == "gouji" else g
                                  for g in GAMES])
def test_random_sim_test(game: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(f"python_folkdeck_{game}"), num_sims=1,
                            serialize=False, verbose=False)


def _play_randomly(state: Any, rng: random.Random) -> list[Any]:  # pyspiel.State
    seen = []
    while not state.is_terminal():
        seen.append(state.clone())
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            actions, probs = zip(*outcomes, strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            state.apply_action(rng.choice(legal))
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_python_game_invariants(game: str) -> None:
    spiel = pyspiel.load_game(f"python_folkdeck_{game}")
    enc = spiel.shared.enc
    rng = random.Random(2)
    state = spiel.new_initial_state()
    seen = _play_randomly(state, rng)
    assert len(state.history()) <= spiel.max_game_length()
    returns = state.returns()
    assert all(spiel.min_utility() <= r <= spiel.max_utility() for r in returns)
    # the history replays to the same state
    replay = spiel.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert str(replay) == str(state) and replay.returns() == returns
    for earlier in seen[enc.deck_size::17]:
        player = earlier.current_player()
        tensor = np.asarray(earlier.observation_tensor(player))
        assert tensor.shape == (enc.size,)
        assert np.array_equal(tensor, earlier.deal.observation(player))
        assert len(earlier.information_state_tensor(player)) == enc.size
        assert earlier.information_state_string(player) != earlier.information_state_string(
            (player + 1) % spiel.num_players())
        assert isinstance(earlier.observation_string(player), str)
        clone = earlier.clone()
        assert str(clone) == str(earlier) and clone.legal_actions() == earlier.legal_actions()


@pytest.mark.parametrize("game", GAMES)
def test_resampled_worlds_keep_the_information_state(game: str) -> None:
    spiel = pyspiel.load_game(f"python_folkdeck_{game}")
    rng = random.Random(7)
    state = spiel.new_initial_state()
    seen = _play_randomly(state, rng)
    determinizer = spiel.shared.game.spec.determinizer
    assert determinizer is not None
    is_searchable = determinizer.is_searchable
    checked = 0
    for earlier in seen[spiel.shared.enc.deck_size::23]:
        player = earlier.current_player()
        if not is_searchable(earlier.deal.state.observe(player)):
            continue
        world = earlier.resample(player, rng)
        assert world.information_state_string(player) == earlier.information_state_string(player)
        assert world.legal_actions() == earlier.legal_actions()
        checked += 1
    assert checked


def test_players_parameter() -> None:
    spiel = pyspiel.load_game("python_folkdeck_kaphai(players=3)")
    assert spiel.num_players() == 3


def test_ismcts_plays_kaphai_in_openspiel() -> None:
    """OpenSpiel's ISMCTS bot (its own search, worlds from the game's determinizer) against
    OpenSpiel's uniform random bot, through OpenSpiel's bot interface (``step``)."""
    from open_spiel.python.algorithms import ismcts, mcts

    spiel = pyspiel.load_game("python_folkdeck_kaphai(players=2)")
    rng = random.Random(1)
    np_rng = np.random.RandomState(1)
    bots = [ismcts.ISMCTSBot(spiel, mcts.RandomRolloutEvaluator(1, np_rng), 2.0, 10,
                             random_state=np_rng, allow_inconsistent_action_sets=True),
            pyspiel.make_uniform_random_bot(1, 3)]
    bots[0].set_resampler(lambda state, player: state.resample(player, rng))
    state = spiel.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sorted(state.returns()) in ([0.0, 3.0], [2.0, 3.0])


def test_ismcts_agent_plays_a_folkdeck_deal() -> None:
    from folkdeck.sim.runner import play_deal

    game = folkdeck.load("kaphai")
    bots = [fs.ismcts_bot("kaphai", simulations=8), *(game.spec.bots["random"]() for _ in range(3))]
    state = play_deal(game.new_state(seed=3), bots, random.Random(3))
    assert state.is_over()
