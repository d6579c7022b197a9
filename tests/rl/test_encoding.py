"""The encodings (docs/rl.md): every legal action is reachable by the token masks and
nothing else is; out-of-turn rights are offered; observations are fixed-size and built
from the seat's view only (a world re-dealt from that view gives the same vector)."""

from __future__ import annotations

import random
import zlib
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import folkdeck  # noqa: E402
from folkdeck.engine.view import View  # noqa: E402
from folkdeck.games.cangkul.observation import CangkulView  # noqa: E402
from folkdeck.rl.encoding import END, HIGH, PHASE_BUCKETS, WAIT, Encoding  # noqa: E402
from folkdeck.rl.substeps import IllegalTokenError, TokenDeal, spelled_actions  # noqa: E402

from .conftest import GAMES, positions, presets  # noqa: E402


class _Recorder(TokenDeal):
    """A deal that records the action a token path completes instead of playing it."""

    __slots__ = ("completed",)

    def _play(self, action: Any) -> Any:
        self.completed = action
        return action


def reachable(deal: TokenDeal) -> list[str]:
    """Every action some masked token path completes (depth first), as record text."""
    out: list[str] = []
    wait = deal.enc.token_index[WAIT]

    def walk(chosen: list[int]) -> None:
        for token in _probe(deal, chosen).legal_tokens():
            if token == wait:
                continue
            probe = _probe(deal, chosen)
            if probe.choose(token) is not None:
                out.append(str(probe.completed))
            else:
                walk([*chosen, token])

    walk(list(deal.chosen))
    return out


def _probe(deal: TokenDeal, chosen: list[int]) -> _Recorder:
    probe = _Recorder(deal.enc, deal.state)  # the state is never changed: _play records
    probe.waited = set(deal.waited)
    probe.chosen = list(chosen)
    return probe


@pytest.mark.parametrize("game_name", GAMES)
def test_every_legal_action_is_reachable_and_nothing_else(game_name: str) -> None:
    game = folkdeck.load(game_name)
    checked = 0
    every = 25 if game_name == "gouji" else 3  # Gou Ji: up to a thousand plays a position
    for deal in positions(game, deals=2, seed=11, every=every):
        legal = sorted(str(a) for a in deal.legal_actions())
        got = reachable(deal)
        assert sorted(got) == legal, f"{game_name}: tokens reach {sorted(got)[:5]}, legal {legal[:5]}"
        assert len(got) == len(set(got)), "an action is reached by two token paths"
        checked += 1
    assert checked > 0


@pytest.mark.slow
@pytest.mark.parametrize("game_name,preset", [(g, p) for g in GAMES for p in presets(g)])
def test_reachability_in_every_preset(game_name: str, preset: str) -> None:
    game = folkdeck.load(game_name, preset)
    for deal in positions(game, deals=3, seed=5, every=2):
        assert sorted(reachable(deal)) == sorted(str(a) for a in deal.legal_actions())


@pytest.mark.parametrize("game_name", GAMES)
def test_spellings_are_unique_and_in_the_vocabulary(game_name: str) -> None:
    for preset in presets(game_name):
        game = folkdeck.load(game_name, preset)
        enc = Encoding.of(game)
        for deal in positions(game, deals=2, seed=3, every=5):
            for seat in deal.state.to_act:
                spelled_actions(enc, deal.state.legal_actions(seat))  # raises on a clash


def test_gouji_thousand_plays_take_a_few_tokens() -> None:
    """Gou Ji sets with wilds give up to about a thousand legal plays; each is a path of at
    most its number of ranks in tokens, and the mask never offers more than the vocabulary."""
    game = folkdeck.load("gouji")
    enc = Encoding.of(game)
    widest = 0
    for deal in positions(game, deals=3, seed=2, every=3):
        n = len(deal.legal_actions())
        widest = max(widest, n)
        assert int(deal.mask().sum()) <= enc.num_tokens
    assert widest > 50


@pytest.mark.parametrize("game_name", GAMES)
def test_illegal_tokens_are_refused_without_change(game_name: str) -> None:
    game = folkdeck.load(game_name)
    for deal in positions(game, deals=1, seed=4, every=4):
        allowed = set(deal.legal_tokens())
        before = (list(deal.chosen), set(deal.waited), len(deal.state.history))
        bad = next(t for t in range(deal.enc.num_tokens) if t not in allowed)
        with pytest.raises(IllegalTokenError):
            deal.choose(bad)
        assert (list(deal.chosen), set(deal.waited), len(deal.state.history)) == before
        assert list(np.flatnonzero(deal.mask())) == sorted(allowed)


def _poll_presets() -> list[tuple[str, str]]:
    return [(g, p) for g in GAMES for p in presets(g)]


@pytest.mark.parametrize("game_name,preset", _poll_presets())
def test_out_of_turn_rights_are_polled(game_name: str, preset: str) -> None:
    """Every seat of ``state.to_act`` beyond the first that has legal actions is offered
    them (with ``<wait>``) before the seat on turn chooses: cucco, burning, putuh."""
    game = folkdeck.load(game_name, preset)
    rng = random.Random(8)
    for d in range(3):
        deal = TokenDeal(Encoding.of(game), game.new_state(seed=d))
        while deal.chooser is not None:
            if deal.chosen:  # in the middle of spelling a play
                deal.choose(rng.choice(deal.legal_tokens()))
                continue
            state = deal.state
            expect = [s for s in state.to_act[1:] if s != state.to_act[0] and state.legal_actions(s)]
            offered = []
            wait = deal.enc.token_index[WAIT]
            while deal.polled:
                offered.append(deal.chooser)
                assert wait in deal.legal_tokens()
                deal.choose(wait)
            assert offered == expect
            assert deal.chooser == state.to_act[0] and wait not in deal.legal_tokens()
            deal.choose(rng.choice(deal.legal_tokens()))


@pytest.mark.parametrize("game_name", GAMES)
def test_observation_is_fixed_size_and_bounded(game_name: str) -> None:
    game = folkdeck.load(game_name)
    enc = Encoding.of(game)
    assert sum(s.size for s in enc.sections) == enc.size
    for deal in positions(game, deals=1, seed=6, every=3):
        for seat in range(game.num_players):
            view = deal.state.observe(seat)
            assert isinstance(view, View)
            obs = deal.observation(seat)
            assert obs.shape == (enc.size,) and obs.dtype == np.float32
            assert obs.min() >= -1.0 and obs.max() <= HIGH


@pytest.mark.parametrize("game_name", GAMES)
def test_a_world_redealt_from_the_view_gives_the_same_observation(game_name: str) -> None:
    """No hidden information: the game's determinizer deals the cards a seat cannot see
    anew; the observation (built from the view only) must not change."""
    game = folkdeck.load(game_name)
    determinizer = game.spec.determinizer
    assert determinizer is not None, f"{game_name} declares no GameSpec.determinizer"
    enc = Encoding.of(game)
    rng = random.Random(9)
    compared = 0
    for deal in positions(game, deals=2, seed=10, every=5):
        seat = deal.chooser
        view = deal.state.observe(seat)
        if not determinizer.is_searchable(view):
            continue
        world = determinizer.worlds(game, view)(rng)
        assert np.array_equal(enc.observe(world.observe(seat), deal.chosen, deal.polled),
                              enc.observe(view, deal.chosen, deal.polled))
        compared += 1
    assert compared > 0


@pytest.mark.parametrize("game_name", GAMES)
def test_phases_fall_in_distinct_buckets(game_name: str) -> None:
    phases = set()
    for preset in presets(game_name):
        for deal in positions(folkdeck.load(game_name, preset), deals=2, seed=1, every=2):
            phases.add(deal.state.observe(deal.chooser).phase)
    buckets = {zlib.crc32(p.encode()) % PHASE_BUCKETS for p in phases}
    assert len(buckets) == len(phases), f"{game_name}: phases {sorted(phases)} share a bucket"


def test_tokens_spell_kaphai_plays() -> None:
    """docs/rl.md's example: ``4C 4D`` is two tokens, ``<end>`` closes ``4C`` when a pair
    with it is also legal."""
    game = folkdeck.load("kaphai")
    state = game.new_state(hands=["4C 4D 9S", "4S 4H 5S 5H 3C 3D", "KS", "AS"],
                           setup={"three_game": False, "leader": 0})
    enc = Encoding.of(game)
    deal = TokenDeal(enc, state)
    words = [enc.tokens[t] for t in deal.legal_tokens()]
    assert words == ["4C", "4D", "9S"] or sorted(words) == sorted(["4C", "4D", "9S"])
    deal.choose(enc.token_index["4C"])
    assert sorted(enc.tokens[t] for t in deal.legal_tokens()) == sorted([END, "4D"])
    event = deal.choose(enc.token_index[END])
    assert event is not None and str(event.action) == "4C"


def test_cangkul_encodes_each_seats_known_cards_and_voids_by_relative_seat() -> None:
    """docs/rl.md "Observation": a per-seat set of cards or of suits (Cangkul's ``known``
    and ``voids``, which the search reads from the draws) is a block per seat, relative to
    the viewer, so that a learned bot sees who cannot follow which suit."""
    game = folkdeck.load("cangkul")
    enc = Encoding.of(game)
    voids, known = enc.section("view.voids"), enc.section("view.known")
    assert (voids.size, known.size) == (4 * 4, 4 * len(enc.kinds))
    rng = random.Random(1)
    state = game.new_state(seed=3)
    checked = 0
    while not state.is_over() and checked < 40:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        for seat in range(4):
            view = state.observe(seat)
            assert isinstance(view, CangkulView)
            obs = enc.observe(view)
            blocks = obs[voids.start:voids.start + voids.size].reshape(4, 4)
            cards = obs[known.start:known.start + known.size].reshape(4, -1)
            for other in range(4):
                rel = (other - seat) % 4
                suits = {m for m, on in zip(enc.extras_members("voids"), blocks[rel], strict=True) if on}
                assert suits == set(view.voids[other])
                assert cards[rel].sum() == pytest.approx(len(view.known[other]))
            checked += any(view.voids)
    assert checked > 0
