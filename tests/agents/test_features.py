"""The hand's shape a learned bot's network reads (``folkdeck.agents.features.HandShape``):
docs/bots.md "Learned bots" says what it counts; these check the counts on known hands, that
it depends on the seat's view only, and that a model using it plays and reloads the same."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.agents.encoding import Encoding
from folkdeck.agents.features import (
    SETS,
    SHAPE,
    SHAPE_READING,
    SHAPE_SUITS,
    SHAPE_SUITS_READING,
    ActionFeatures,
    FloatArray,
    HandShape,
)
from folkdeck.agents.learned import LearnedAgent, QNetwork, encoding_signature
from folkdeck.cards import parse_card
from folkdeck.engine.protocol import Action
from folkdeck.engine.registry import get_spec
from folkdeck.engine.view import View
from folkdeck.sim.runner import play_deal


def _view_with_hand(encoding: Encoding, hand: str) -> np.ndarray:
    """An observation vector holding only ``hand`` (the other sections empty)."""
    out = np.zeros((1, encoding.size), dtype=np.float32)
    start = next(s.start for s in encoding.sections if s.name == "hand")
    for card in hand.split():
        k = encoding.kind_index[parse_card(card)]
        out[0, start + k] += 1.0 / encoding.copies[k]
    return out


def _named(shape: HandShape, values: np.ndarray) -> dict[str, np.ndarray]:
    g = shape.groups
    names = ["left", *(f"at_least_{k}" for k in range(1, SETS + 1))]
    parts = {name: values[:, i * g:(i + 1) * g] for i, name in enumerate(names)}
    at = len(names) * g
    parts["sets"] = values[:, at:at + SETS]
    parts["played"] = values[:, at + SETS:at + SETS + g]
    parts["unseen"] = values[:, at + SETS + g:at + SETS + 2 * g]
    parts["cards_left"] = values[:, -1:]
    return parts


def test_a_pair_played_from_a_triple_leaves_a_single_and_counts_by_rank_not_suit() -> None:
    encoding = Encoding.of(folkdeck.load("kaphai"))
    shape = HandShape(encoding)
    features = ActionFeatures(encoding)
    view = _view_with_hand(encoding, "7S 7C 7D KH KS 4D")
    rows = features.matrix(["7S 7C", "7C 7D", "pass", "KH KS"])
    parts = _named(shape, shape.of(view, rows))
    # whichever two sevens are played, the shape is the same
    assert np.array_equal(parts["left"][0], parts["left"][1])
    # after 7 7: one 7, two Ks, one 4 → two singles and a pair
    assert parts["sets"][0].tolist() == pytest.approx([2 / 13, 1 / 13, 0, 0])
    # passing keeps the triple: a single, a pair and a triple
    assert parts["sets"][2].tolist() == pytest.approx([1 / 13, 1 / 13, 1 / 13, 0])
    assert parts["cards_left"][:, 0].tolist() == pytest.approx([4 / 52, 4 / 52, 6 / 52, 4 / 52])
    # the seat has seen its own six cards: of the 7s one copy is unseen, of the 4s three
    assert parts["unseen"][0].sum() == pytest.approx((52 - 6) / 4)


def test_gou_ji_groups_its_four_packs_by_rank_and_its_jokers_apart() -> None:
    encoding = Encoding.of(folkdeck.load("gouji"))
    shape = HandShape(encoding)
    assert shape.groups == 15  # 13 ranks, the black joker, the red joker
    view = _view_with_hand(encoding, "9S 9S 9H 9D BJ RJ RJ")
    parts = _named(shape, shape.of(view, ActionFeatures(encoding).matrix(["9S 9H", "RJ RJ"])))
    # 9S 9H played: 9S 9D, BJ, RJ RJ → a single, two pairs
    assert parts["sets"][0].tolist() == pytest.approx([1 / 15, 2 / 15, 0, 0])
    # RJ RJ played: four 9s (a set of four, whatever their packs) and a single BJ
    assert parts["sets"][1].tolist() == pytest.approx([1 / 15, 0, 0, 1 / 15])



def test_gou_ji_sets_written_by_rank_play_their_cards_in_the_shape() -> None:
    """Gou Ji writes a set by rank, ``9 9 2`` being three 9s (docs/rules/gouji.md §3.1,
    §11.8): its rank words are card words (``GameSpec.card_words``), so the shape's cards
    played and left are the set's, for every legal set of the first leads of a few deals.
    (The shapes of the Gou Ji models before these words counted only a set's jokers.)"""
    from folkdeck.games.gouji.policy import counts_of
    from folkdeck.games.gouji.rules import BJ, RANK_OF, RJ, TWO, Play

    game = folkdeck.load("gouji")
    encoding = Encoding.of(game)
    features, groups = ActionFeatures(encoding, features=SHAPE), HandShape(encoding).ranks
    rank_of_group = list(dict.fromkeys(RANK_OF[k] for k in encoding.kinds))  # groups in the kinds' order
    sets = 0
    for seed in range(3):
        state = game.new_state(seed=seed)
        seat = state.to_act[0]
        while not any(isinstance(a, Play) for a in state.legal_actions(seat)):
            state.apply(state.legal_actions(seat)[0], seat)
            seat = state.to_act[0]
        view = state.observe(seat)
        plays = [a for a in state.legal_actions(seat) if isinstance(a, Play)]
        left, played, _ = groups.counts(encoding.observe(view)[None, :], features.matrix(plays))
        hand = counts_of(view.hand or ())
        for play, got_played, got_left in zip(plays, played, left, strict=True):
            want = [0] * 15
            want[play.rank] += play.natural
            for rank, n in ((TWO, play.w2), (BJ, play.wbj), (RJ, play.wrj)):
                want[rank] += n
            assert got_played.tolist() == [want[r] for r in rank_of_group], str(play)
            assert got_left.tolist() == [hand[r] - want[r] for r in rank_of_group], str(play)
            sets += 1
    assert sets > 100


def test_a_gou_ji_model_that_read_no_card_words_does_not_fit() -> None:
    """A model keeps the card words its shape counted (``encoding_signature``): a Gou Ji
    model from before them, which read every set as playing its jokers only, is refused
    rather than fed inputs it never saw (its bot then plays its fallback)."""
    encoding = Encoding.of(folkdeck.load("gouji"))
    network = _shape_network(encoding)
    assert network.fits(encoding) and network.meta["encoding"]["card_words"]["9"] == "9S"
    del network.meta["encoding"]["card_words"]
    assert not network.fits(encoding)
    assert "card_words" not in encoding_signature(Encoding.of(folkdeck.load("kaphai")))  # its models fit as before

def _shape_network(encoding: Encoding, features: str = SHAPE, seed: int = 0) -> QNetwork:
    rng = np.random.default_rng(seed)
    size = ActionFeatures(encoding, features=features).size
    layers = ((rng.normal(size=(encoding.size, 8)).astype(np.float32), rng.normal(size=(size, 8)).astype(np.float32),
               rng.normal(size=(1, 8)).astype(np.float32)),
              (rng.normal(size=(8, 1)).astype(np.float32), rng.normal(size=(1, 1)).astype(np.float32)))
    return QNetwork(layers, {"format": "folkdeck-qnet/1", "layers": 2, "scale": 1.0, "features": features,
                             "encoding": encoding_signature(encoding)})


@pytest.mark.parametrize("name", ["kaphai", "cangkul", "gouji"])
def test_a_model_reading_the_shape_plays_legal_deals_and_reloads_the_same(name: str, tmp_path: Path) -> None:
    game = folkdeck.load(name)
    encoding = Encoding.of(game)
    network = _shape_network(encoding)
    assert network.features == SHAPE
    again = QNetwork.load(network.save(tmp_path / "m.npz"))
    spec = get_spec(name)
    bots = [LearnedAgent(spec, network), LearnedAgent(spec, again)]
    for bot in bots:
        bot.bind(game)
    state = game.new_state(seed=2)
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    first, second = (bot.scores(state.observe(seat), legal) for bot in bots)
    assert first is not None and second is not None and np.array_equal(first, second)
    seats = [LearnedAgent(spec, network) for _ in range(game.num_players)]
    for bot in seats:
        bot.bind(game)
    play_deal(state, seats, random.Random(2))  # the runner refuses an illegal action
    assert state.is_over()


def test_by_suit_the_shape_counts_what_each_suit_keeps_and_marks_the_voids() -> None:
    encoding = Encoding.of(folkdeck.load("cangkul"))
    shape = HandShape(encoding, suits=True)
    assert shape.suits is not None and shape.suits.groups == 4
    view = _view_with_hand(encoding, "2S 5S KH")
    suits = shape.of(view, ActionFeatures(encoding).matrix(["5S", "KH"]))[:, -4 * 4:]
    order = [str(getattr(k, "suit", "")) for k in encoding.kinds]
    spades, hearts = (list(dict.fromkeys(order)).index(str(parse_card(c).suit)) for c in ("2S", "KH"))
    left, void = suits[:, 0:4] * 13, suits[:, 4:8]
    assert left[0, spades] == pytest.approx(1) and left[0, hearts] == pytest.approx(1)
    assert void[1, hearts] == 1 and void[0, hearts] == 0  # playing the only heart leaves a void
    assert void[0].sum() == 2  # clubs and diamonds were void already
    assert ActionFeatures(encoding, features=SHAPE_SUITS).size == ActionFeatures(encoding).size + shape.size


def test_unknown_features_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown features"):
        ActionFeatures(Encoding.of(folkdeck.load("cangkul")), features="shape-9")


def test_the_action_rows_kept_in_one_table_are_the_rows_spelt_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ActionFeatures.matrix`` takes the rows it has met from one growing table; what it
    gives must not depend on what it met before, nor on the table starting again when full
    (``MAX_ROWS``, its bound on memory)."""
    from folkdeck.agents import features

    game = folkdeck.load("gouji")
    encoding = Encoding.of(game)
    state = game.new_state(hands=["3S 3H 3D 4S 4H 5S 5H 2S 2H BJ RJ", "6S", "6H", "7S", "7H", "8S"],
                           setup={"leader": 0})
    legal = state.legal_actions(0)
    assert len(legal) > 64  # more than the table's first size
    fresh = [ActionFeatures(encoding).matrix([a])[0] for a in legal]
    shared = ActionFeatures(encoding)
    shared.matrix(legal[::3])
    monkeypatch.setattr(features, "MAX_ROWS", len(legal) + 5)  # full within the next call
    rows = shared.matrix([*legal, legal[0]], legal[1])
    assert np.array_equal(rows[:-1, :-1], np.stack(fresh)[:, :-1]) and np.array_equal(rows[-1], rows[0])
    assert rows[:, -1].tolist() == [float(i == 1) for i in range(len(legal) + 1)]
    assert np.array_equal(shared.row(legal[2]), fresh[2])


def _readings_from_the_arrays(name: str, features: str, deals: int) -> Iterator[tuple[View, list[Action], FloatArray]]:
    """Every decision of ``deals`` deals of the game's heuristic bots, with each legal
    action's reading as the network's input holds it: from the observation's arrays."""
    game = folkdeck.load(name)
    encoding = Encoding.of(game)
    inputs = ActionFeatures(encoding, features=features)
    assert inputs.reading is not None
    bot = make_agent(get_spec(name), "heuristic")
    for seed in range(deals):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.is_over():
            seat = state.to_act[0]
            view, legal = state.observe(seat), list(state.legal_actions(seat))
            yield view, legal, inputs.inputs(encoding.observe(view)[None, :], inputs.matrix(legal))[:, -inputs.reading.size:]
            state.apply(bot.act(view, legal, rng), seat)


def test_the_games_reading_from_the_arrays_is_its_reading_of_the_view() -> None:
    """Kap Hai's reading (``KapHaiReading``: the plan's units and bosses) computed from the
    observation's arrays, as the training data hold them, is the reading of the typed view:
    the hand, and as unseen every card neither held, played nor put out in a 3-game."""
    from folkdeck.games.kaphai.agents import KapHaiReading
    from folkdeck.games.kaphai.observation import KapHaiView
    from folkdeck.games.kaphai.rules import FULL, cards_of, mask

    assert ActionFeatures(Encoding.of(folkdeck.load("kaphai")), features=SHAPE_READING).reading_names == KapHaiReading.names
    reading = KapHaiReading()
    rows = shed = 0
    for view, legal, got in _readings_from_the_arrays("kaphai", SHAPE_READING, 12):
        assert isinstance(view, KapHaiView) and view.hand is not None
        shed += bool(view.shed)
        hand = mask(view.hand)
        unseen = FULL & ~hand & ~mask(view.played) & ~mask(view.shed)
        for action, numbers in zip(legal, got, strict=True):
            want = reading.read(cards_of(hand), cards_of(unseen), cards_of(getattr(action, "mask", 0)))
            assert numbers.tolist() == pytest.approx(want), str(action)
            rows += 1
    assert rows > 1000 and shed  # a 3-game put its 3s out in some deal


def test_cangkuls_reading_from_the_arrays_is_its_reading_of_the_view() -> None:
    """Cangkul's reading (``CangkulReading``: the cards in play above each card) from the
    arrays, with the suits' shape, is the reading of the typed view: as unseen, every card
    of the pack neither held nor dead (a trick nobody took); the cards passers took are
    still in play."""
    from folkdeck.cards import Card
    from folkdeck.cards.packs import FRENCH_52
    from folkdeck.games.cangkul.agents import CangkulReading
    from folkdeck.games.cangkul.observation import CangkulView

    encoding = Encoding.of(folkdeck.load("cangkul"))
    features = ActionFeatures(encoding, features=SHAPE_SUITS_READING)
    assert features.reading_names == CangkulReading.names
    assert features.shape is not None and features.shape.size == HandShape(encoding, suits=True).size
    reading = CangkulReading()
    rows = dead = 0
    for view, legal, got in _readings_from_the_arrays("cangkul", SHAPE_SUITS_READING, 8):
        assert isinstance(view, CangkulView) and view.hand is not None
        dead += bool(view.dead)
        unseen = list(FRENCH_52.cards)
        for card in (*view.hand, *view.dead):
            unseen.remove(card)
        for action, numbers in zip(legal, got, strict=True):
            play = (action,) if isinstance(action, Card) else ()
            assert numbers.tolist() == pytest.approx(reading.read(view.hand, unseen, play)), str(action)
            rows += 1
    assert rows > 300 and dead  # some deal had a trick nobody took


def test_a_reading_is_refused_for_a_game_that_declares_none() -> None:
    with pytest.raises(ValueError, match="no card reading"):
        ActionFeatures(Encoding.of(folkdeck.load("burro_pt")), features=SHAPE_READING)


def test_a_model_trained_on_another_reading_does_not_fit() -> None:
    encoding = Encoding.of(folkdeck.load("kaphai"))
    network = _shape_network(encoding, SHAPE_READING)
    assert not network.fits(encoding)  # its metadata names no reading
    network.meta["reading"] = list(ActionFeatures(encoding, features=SHAPE_READING).reading_names)
    assert network.fits(encoding)
    network.meta["reading"] = [*network.meta["reading"][:-1], "something_else"]
    assert not network.fits(encoding)


def test_the_readings_kept_are_bounded_and_the_numbers_do_not_depend_on_them() -> None:
    """A playing bot keeps few readings (a server runs for days); a training run keeps a
    training set's. Past the bound the memory starts again and gives the same numbers."""
    from folkdeck.agents.features import KEPT_READINGS

    game = folkdeck.load("kaphai")
    encoding = Encoding.of(game)
    state = game.new_state(seed=1)
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    view = encoding.observe(state.observe(seat))[None, :]
    small = ActionFeatures(encoding, features=SHAPE_READING, readings_kept=3)
    assert len(legal) > 3 and ActionFeatures(encoding, features=SHAPE_READING).reading.kept == KEPT_READINGS  # type: ignore[union-attr]
    fresh = ActionFeatures(encoding, features=SHAPE_READING).inputs(view, small.matrix(legal))
    for _ in range(2):
        assert np.array_equal(small.inputs(view, small.matrix(legal)), fresh)
        assert small.reading is not None and len(small.reading._known) <= len(legal)
