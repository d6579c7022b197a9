"""Adding a game is documented by doing it: a toy game built as ``CONTRIBUTING.md``
("Adding a game") says, held to everything a registered game is held to.

The toy (``tests/toy_game/``: "high card", each seat plays a card and the highest wins
the trick; no public source, it is made up to exercise the engine) is made with the
small trick-game kit kept beside it (:mod:`tests.toy_game.kit`): it states its options, pack and
trick rule, declares a :class:`~folkdeck.engine.protocol.GameSpec` with the kit's hooks, and
is registered (with its catalog entries) only for the length of a test. Then the
conformance suite of :mod:`folkdeck.engine.conformance` plays it exactly as
``tests/test_conformance.py`` plays the real games, its records replay (one deal, a
match, ``folkdeck replay``), the kit's determinizer samples its hidden cards, its text
renders in both languages, and the checks other suites run for every registered game
(the server's deltas, the hints, the terminal, the RL adapters...) pass for it. Broken variants of it show the suite refusing a game
that loses cards, leaks a hidden card, tells something only a hidden card could tell, or
has no message for a refusal.
"""

from __future__ import annotations

import importlib
import io
import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

import folkdeck
from folkdeck.engine import registry
from folkdeck.engine.conformance import check_deal, fingerprint
from folkdeck.engine.errors import InvalidConfigError, InvalidDealError, UnknownGameError
from folkdeck.engine.facts import MatchEnded, NextDeal, Revealed
from folkdeck.engine.match_record import MatchRecorder
from folkdeck.engine.match_record import dumps as match_dumps
from folkdeck.engine.match_record import loads as match_loads
from folkdeck.engine.playout import random_playout
from folkdeck.engine.record import dumps, loads
from folkdeck.i18n import catalog
from folkdeck.sim.runner import play_deal, record_of
from tests.toy_game import MESSAGES, PACK, SPEC, STRENGTH, ToyOptions
from tests.toy_game.kit import TrickGame, TrickState, TrickView
from tests.toy_game.kit.worlds import DETERMINIZER


def install(mp: pytest.MonkeyPatch) -> None:
    """Register the toy game (and add its catalog entries) until ``mp`` is undone: the
    registry's tables are replaced by copies for the time, so the real ones never hold it."""
    mp.setattr(registry, "_SPECS", dict(registry._SPECS))
    mp.setattr(registry, "_ALIASES", dict(registry._ALIASES))
    registry.register(SPEC)
    for lang, entries in MESSAGES.items():
        loaded = cast(dict[str, Any], catalog(lang))
        for key, message in entries.items():
            mp.setitem(loaded, key, message)


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    install(monkeypatch)
    yield


CASES = [*((None, n) for n in sorted({SPEC.min_players, SPEC.default_players, SPEC.max_players})),
         *((preset, SPEC.default_players) for preset in SPEC.presets)]


# --- registered for one test only --------------------------------------------------------

def test_the_toy_is_registered_for_one_test_and_gone_after() -> None:
    """While installed, ``folkdeck.games()`` lists the toy and ``folkdeck.load`` makes it (by
    name or alias, with options); afterwards the registry and the catalogs are as before."""
    before = folkdeck.games()
    assert "toy" not in before
    with pytest.MonkeyPatch.context() as mp:
        install(mp)
        assert folkdeck.games() == (*before, "toy")
        game = folkdeck.load("toy-high-card", players=3)
        assert isinstance(game, TrickGame) and game.num_players == 3
        assert catalog("ja")["term.toy.title"] == "トイ・ハイカード"
    assert folkdeck.games() == before
    with pytest.raises(UnknownGameError):
        folkdeck.get_spec("toy")
    assert not any(key.startswith(("term.toy.", "error.toy.")) for key in catalog("en"))


# --- the conformance suite, as tests/test_conformance.py runs it -------------------------

@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p or 'default'}-{n}p" for p, n in CASES])
def test_random_toy_deals_keep_every_invariant(preset: str | None, players: int) -> None:
    game = folkdeck.load("toy", preset, players=players)
    for seed in range(12):
        check_deal(game, seed)


@pytest.mark.usefixtures("toy")
def test_same_seed_same_toy_deal() -> None:
    game = folkdeck.load("toy")
    a = check_deal(game, 99, views_every=1000, twins_every=1000)
    b = check_deal(game, 99, views_every=1000, twins_every=1000)
    assert [e.line for e in a.history] == [e.line for e in b.history]
    assert fingerprint(a) == fingerprint(b)


@pytest.mark.usefixtures("toy")
def test_bad_toy_options_and_deals_are_refused_with_codes() -> None:
    with pytest.raises(InvalidConfigError, match="unknown option 'no_such_rule'"):
        folkdeck.load("toy", no_such_rule=True)
    with pytest.raises(InvalidConfigError) as players:
        folkdeck.load("toy", players=5)
    assert players.value.reason == "toy.players"
    game = folkdeck.load("toy")
    # The kit's refusals (deal.*), worded once in the engine's catalogs.
    refusals: list[tuple[dict[str, Any], str, str]] = [({"hands": ["9S KH AS"]}, "deal.hands_count", "hands"),
                ({"hands": ["9S KH AS", "9S QD JH"]}, "too_many_copies", "hands"),
                ({"hands": ["9S KH AS", "2C QD JH"]}, "not_in_pack", "hands[1]"),
                ({"hands": ["9S KH", "10C QD JH"]}, "deal.hand_cards", "hands[0]"),
                ({"deck": [*PACK.cards[1:], PACK.cards[2]]}, "deal.whole_pack", "deck"),
                ({"seed": 1, "setup": {"leader": 2}}, "deal.setup_seat", "setup.leader"),
                ({"seed": 1, "setup": {"dealer": 0}}, "deal.setup_key", "setup.dealer"),
                ({"seed": 1, "stock": ["9S"]}, "deal.no_stock", "stock"),
                ({"seed": 1, "deck": ["9S"]}, "one_deal_source", "seed/deck")]
    for deal, reason, field in refusals:
        with pytest.raises(InvalidDealError) as refused:
            game.new_state(**deal)
        assert (refused.value.reason, refused.value.params["field"]) == (reason, field), deal
        assert f"error.{reason}" in catalog("en") and f"error.{reason}" in catalog("ja"), reason


# --- what the engine gives the game: records, matches, bots, the kit, the catalogs -------

@pytest.mark.usefixtures("toy")
def test_a_toy_deal_played_by_its_bots_replays_from_its_record(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The bots of the spec play a deal; its ``folkdeck-record/1`` replays to the same
    position, in the library and through ``folkdeck replay``."""
    from folkdeck.cli.main import main

    game = folkdeck.load("toy", players=3, hand_size=5)
    bots = [SPEC.bots[name]() for name in ("random", "first", "random")]
    state = play_deal(game.new_state(seed=5, setup={"leader": 1}), bots, random.Random(5))
    record = record_of(state)
    assert record.rules == {"players": 3, "hand_size": 5} and record.setup == {"leader": 1}
    again = loads(dumps(record)).replay()
    assert fingerprint(again) == fingerprint(state)
    path = tmp_path / "toy.json"
    path.write_text(dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    result = state.result()
    assert result is not None and printed["result"] == result.to_dict() and printed["game"] == "toy"


@pytest.mark.usefixtures("toy")
def test_a_toy_match_adds_up_its_deals_and_replays_from_its_match_record() -> None:
    """The kit's match is MatchBase with nothing carried over: every deal is led by the
    setup's default leader, the tricks add up as points, the match ends after its deals
    with its winners, and the ``folkdeck-match/1`` record replays to the same standings."""
    game = folkdeck.load("toy")
    match = game.new_match(deals=4, rng=random.Random(8))
    recorder = MatchRecorder(game, deals=4)
    leaders = []
    while not match.is_over():
        state = match.next_deal()
        leaders.append(state.to_act[0])
        recorder.start_deal(state, match.report())
        random_playout(state, random.Random(len(leaders)))
        facts = match.finish_deal(state)
        recorder.finish_deal(state, facts)
        assert not any(isinstance(f, NextDeal) for f in facts)
    assert leaders == [0, 0, 0, 0]
    standings = match.standings()
    assert standings.over and sum(standings.scores) == 4 * 3  # every trick scores a point
    best = max(standings.scores)
    assert facts[-1] == MatchEnded(reason="deals", winners=tuple(s for s, v in enumerate(standings.scores) if v == best))
    replayed = match_loads(match_dumps(recorder.record(standings))).replay()
    assert replayed.standings == standings
    assert game.new_match().standings().deals_limit == 3  # the spec's match_end.default_deals


@pytest.mark.usefixtures("toy")
def test_the_kit_deals_the_toy_cards_a_seat_cannot_see_and_nothing_else() -> None:
    """Worlds sampled from a seat's view look the same to it, keep its hand and every card
    played, hold the whole pack, and do deal the other hands afresh."""
    game = folkdeck.load("toy", players=3, hand_size=4)
    assert isinstance(game, TrickGame)
    real = game.new_state(seed=11)
    for _ in range(4):  # a trick, and the next trick's lead
        real.apply(real.legal_actions()[0])
    seat = real.current_seat
    assert seat is not None
    view = real.observe(seat)
    sample = DETERMINIZER.worlds(game, view)
    determinizer = game.spec.determinizer
    assert determinizer is DETERMINIZER and determinizer.is_searchable(view)
    others = set()
    for i in range(30):
        world = sample(random.Random(i))
        assert world.observe(seat).to_dict() == view.to_dict()
        assert Counter(c for cards in world.all_cards().values() for c in cards) == Counter(PACK.cards)
        assert world.deal.trick == real.deal.trick and world.deal.won == real.deal.won
        others.add(tuple(sorted(world.deal.hands[(seat + 1) % 3], key=STRENGTH.__getitem__)))
    assert len(others) > 10, "the other hands are not dealt afresh"
    assert not determinizer.is_searchable(real.observe(None))


@pytest.mark.usefixtures("toy")
def test_everything_the_toy_says_renders_in_both_languages() -> None:
    """The check of ``tests/test_i18n_complete.py`` over the toy's deals, matches and
    refusals: every message found in both catalogs, no English word in the Japanese."""
    from tests.test_i18n_complete import _CARDS, _NAMES, _UNRENDERED, _WORD, _texts

    problems = []
    for lang, what, text in _texts("toy", None):
        if not text or _UNRENDERED.search(text):
            problems.append(f"{lang} {what}: {text!r}")
        elif lang == "ja" and [w for w in _WORD.findall(text) if w not in _CARDS and w not in _NAMES]:
            problems.append(f"ja {what}: English in {text!r}")
    assert not problems, problems


@pytest.mark.usefixtures("toy")
def test_the_toy_names_what_a_table_and_a_lobby_show_in_both_languages() -> None:
    """The checks of ``tests/test_web_static.py``: every phase, result reason and action
    word a table shows, every lobby option, the title and the Japanese summary."""
    from folkdeck.engine.options import describe_options
    from tests.test_web_static import _named, _vocabulary

    seen = set(_vocabulary("toy"))
    assert {what for what, _ in seen} >= {"phase", "reason"}
    options = {n for n, _, _ in describe_options(ToyOptions)} - {"players"}
    for lang in ("en", "ja"):
        assert [key for what, key in seen if not _named(lang, "toy", what, key)] == [], lang
        assert [n for n in options if f"term.toy.option.{n}" not in catalog(lang)] == [], lang
        assert {"term.toy.title", "term.toy.summary"} <= set(catalog(lang))


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_toy_match_is_played_in_the_terminal_all_in_catalog_text(
        lang: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``folkdeck play toy`` against a bot, as ``tests/cli/test_play.py`` plays every game:
    the match ends, no message key is left unrendered, the Japanese screen has no English."""
    from folkdeck.cli.main import main
    from tests.cli.conftest import UNRENDERED, english_words, no_ansi

    monkeypatch.setattr("sys.stdin", io.StringIO("h\nv\n?\n" + "1\n" * 300))
    status = main(["play", "toy", "--seed", "3", "--deals", "1", "--bot", "random", "--lang", lang])
    out = no_ansi(capsys.readouterr().out)
    assert status == 0 and ("Match over" if lang == "en" else "マッチ終了") in out, out[-2000:]
    assert not UNRENDERED.findall(out)
    if lang == "ja":
        assert not {w for line in out.splitlines() for w in english_words(line)}


PER_GAME_CHECKS = [
    ("tests.engine.test_state_contract", "test_every_game_state_inherits_the_base_and_satisfies_the_protocol"),
    ("tests.engine.test_deal_data", "test_clone_shares_no_container_of_the_deal"),
    ("tests.engine.test_deal_data", "test_deal_copy_copies_every_field"),
    ("tests.engine.test_match_base", "test_every_new_state_checks_its_deal_source"),
    ("tests.engine.test_determinize_kit", "test_every_game_declares_a_typed_determinizer"),
    ("tests.engine.test_determinize_kit", "test_a_sampler_reads_the_view_once_and_deals_like_determinize"),
    ("tests.engine.test_spec", "test_a_spec_is_its_static_description_plus_its_hooks"),
    ("tests.engine.test_shared_reasons", "test_shared_reasons_carry_exactly_the_shared_params"),
    ("tests.server.test_delta", "test_the_view_rebuilt_from_deltas_is_the_whole_view"),
    ("tests.agents.test_advice", "test_advice_is_a_legal_action_with_its_values_in_the_bots_order"),
]
"""The tests that other modules run for every registered game (parametrized by
``folkdeck.games()`` when collected, so they never see the toy), run here for the toy."""


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize(("module", "check"), PER_GAME_CHECKS, ids=[c for _, c in PER_GAME_CHECKS])
def test_the_per_game_checks_of_the_other_suites_pass_for_the_toy(module: str, check: str) -> None:
    """The state contract, the deal data's copies, the deal sources, the typed determinizer,
    the spec's split, the shared refusals' parameters, the server's view deltas and the
    browser's hints (the ``pimc`` bot)."""
    getattr(importlib.import_module(module), check)("toy")


RL_CHECKS = [("tests.rl.test_gymnasium", "test_check_env"),
             ("tests.rl.test_gymnasium", "test_episode_against_the_default_bots"),
             ("tests.rl.test_pettingzoo", "test_api_test"), ("tests.rl.test_pettingzoo", "test_seed_test"),
             ("tests.rl.test_openspiel", "test_python_game_invariants"),
             ("tests.rl.test_openspiel", "test_resampled_worlds_keep_the_information_state")]


@pytest.mark.rl
@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize(("module", "check"), RL_CHECKS, ids=[c for _, c in RL_CHECKS])
def test_the_rl_adapters_take_the_toy(module: str, check: str) -> None:
    """Gymnasium's and PettingZoo's own checkers and OpenSpiel's invariants (the ``rl`` extra)."""
    for needed in ("numpy", "gymnasium", "pettingzoo", "pyspiel"):
        pytest.importorskip(needed)
    # The adapters register the games there are when first imported, perhaps before the toy
    # was: register it now (both calls skip what is registered already).
    from folkdeck.rl import register_envs
    from folkdeck.rl.openspiel import register_games

    register_envs()
    register_games()
    getattr(importlib.import_module(module), check)("toy")


# --- the suite can fail: broken toys -------------------------------------------------------

class VanishingToyState(TrickState):
    """Forgets the finished tricks when it counts the cards."""

    __slots__ = ()

    def all_cards(self) -> dict[str, tuple[Any, ...]]:
        places = super().all_cards()
        del places["won"]
        return places


class LeakyToyState(TrickState):
    """Shows every seat the next seat's hand, as a status fact."""

    __slots__ = ()

    def observe(self, seat: int | None) -> TrickView:
        view = super().observe(seat)
        if seat is None or self.is_over():
            return view
        nxt = (seat + 1) % self.num_players
        return TrickView(**{**{k: getattr(view, k) for k in view.__dataclass_fields__},
                            "status": (Revealed(seat=nxt, cards=tuple(self.deal.hands[nxt])),)})


class TellingToyState(TrickState):
    """Names no hidden card but tells (as the setup's ``leader``) which seat holds the
    highest card in any hand: something only the hidden cards decide."""

    __slots__ = ()

    def observe(self, seat: int | None) -> TrickView:
        view = super().observe(seat)
        held = [(STRENGTH[c], s) for s, hand in enumerate(self.deal.hands) for c in hand]
        if not held:
            return view
        return TrickView(**{**{k: getattr(view, k) for k in view.__dataclass_fields__},
                            "setup": {"leader": max(held)[1]}})


def _broken(state_type: type[TrickState]) -> TrickGame:
    class Broken(TrickGame):
        pass

    Broken.state_type = state_type
    made = SPEC.hooks.make(ToyOptions(players=3))
    assert isinstance(made, TrickGame)
    return Broken(SPEC, made.options, made.rules)


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize(("state_type", "complaint"), [
    (VanishingToyState, "cards not conserved"),
    (LeakyToyState, "shows hidden cards"),
    (TellingToyState, "looks different to it"),
], ids=["cards-vanish", "view-leaks-a-hand", "view-tells-a-hidden-fact"])
def test_the_suite_refuses_a_broken_toy(state_type: type[TrickState], complaint: str) -> None:
    game = _broken(state_type)
    with pytest.raises(AssertionError, match=complaint):
        for seed in range(12):
            check_deal(game, seed)


def test_the_suite_refuses_a_toy_whose_refusals_have_no_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy's refusals are the engine's shared ones: with ``error.not_your_turn`` taken
    out of the catalog, the suite finds a refusal it cannot word."""
    install(monkeypatch)
    monkeypatch.delitem(cast(dict[str, Any], catalog("en")), "error.not_your_turn")
    game = folkdeck.load("toy")
    with pytest.raises(AssertionError, match="has no message key"):
        for seed in range(12):
            check_deal(game, seed)
