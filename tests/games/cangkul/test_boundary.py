"""Cangkul and the Burros at the structured boundary: typed facts and views, coded
refusals, the catalogs, the ``from_view`` twin, the match protocol and its records
(docs/events.md, Cangkul and Burro; docs/rules/cangkul.md)."""

from __future__ import annotations

import json
import random
import re
from typing import Any, cast

import pytest

from folkdeck import load
from folkdeck.cards import PACKS, parse_card, parse_cards
from folkdeck.engine.errors import CardGameError, InvalidDealError
from folkdeck.engine.facts import Drew, Fact, fact_from_dict, fact_types
from folkdeck.engine.match_record import MatchRecorder, RecordMismatchError, dumps, loads
from folkdeck.engine.registry import get_spec
from folkdeck.engine.view import json_schema
from folkdeck.games.cangkul import CangkulGame, events
from folkdeck.games.cangkul.determinize import DETERMINIZER, is_searchable
from folkdeck.games.cangkul.observation import CangkulView
from folkdeck.games.cangkul.state import CangkulState
from folkdeck.i18n import Renderer, display_card, notations
from folkdeck.sim.runner import random_playout

from .conftest import deal, run

GAMES = ("cangkul", "burro_es", "burro_pt")
CASES = [(name, preset) for name in GAMES for preset in (None, *get_spec(name).presets)]
H = parse_cards

SAMPLES: list[Fact] = [
    events.Dig(seat=1), events.Dig(seat=0, pile=1), events.DrewAndPlayed(seat=2, card=parse_card("5H")),
    events.Knocked(seat=1, count=2, cards=H("7C AS")), events.CannotFollow(seat=3, suit="hearts"),
    events.LastHolder(seat=2), events.Stalemate(tricks=100), events.FewestCards(seats=(0, 1), cards=2),
    events.MostCards(seats=(2,), cards=3), events.JokerLead(seat=0), events.KnownCards(seat=1, cards=H("9C QC")),
    events.Void(seat=2, suit="spades"), events.StallCount(tricks=3, limit=40),
    events.PointsScored(seat=0, delta=1.0, total=3.0), events.Penalty(seat=2, total=2, limit=5),
    events.MatchLost(seat=2),
]


def test_every_game_fact_round_trips_through_json() -> None:
    ours = {code for code in fact_types() if code.startswith("cangkul.")}
    assert {f.type for f in SAMPLES} == ours
    for fact in SAMPLES:
        data = json.loads(json.dumps(fact.to_dict()))
        assert fact_from_dict(data) == fact


def test_drawn_and_knocked_cards_are_private_to_the_drawer() -> None:
    state = deal("cangkul", ["9H 3S", "KH 4C", "7D 8D"], ["2C", "3D", "5H"])
    run(state, "0: 9H", "1: KH")
    (event,) = run(state, "2: draw")
    assert event.facts == (Drew(seat=2, card=parse_card("2C")),)
    assert event.facts[0].censored(2) == event.facts[0]
    assert event.facts[0].censored(0) == Drew(seat=2, card=None)
    assert state.observe(2).history[-1].facts[0] == Drew(seat=2, card=parse_card("2C"))
    assert state.observe(1).history[-1].facts[0] == Drew(seat=2, card=None)
    assert state.observe(None).history[-1].facts[0] == Drew(seat=2, card=None)
    knock = events.Knocked(seat=1, count=2, cards=H("7C AS"))
    assert knock.censored(1) == knock and knock.censored(0) == events.Knocked(seat=1, count=2)


@pytest.mark.parametrize(("name", "preset"), CASES, ids=str)
def test_views_validate_against_the_schema(name: str, preset: str | None) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    game = load(name, preset)
    assert game.spec.view_type is CangkulView
    schema = json_schema(CangkulView)
    validator = jsonschema.Draft202012Validator(schema)
    rng = random.Random(name)
    for seed in range(3):
        state = game.new_state(seed=seed)
        step = 0
        while True:
            if step % 7 == 0 or state.is_over():
                for seat in (None, *range(state.num_players)):
                    validator.validate(json.loads(json.dumps(state.observe(seat).to_dict())))
            if state.is_over():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            step += 1


# --- the catalogs ------------------------------------------------------------------------
_CARDS = {str(c) for pack in PACKS.values() for c in pack.cards}
_CARDS |= {display_card(c, n, symbols=s) for c in _CARDS for n in notations() for s in (False, True)}
_NAMES = {"Cangkul", "Burro", "S", "C", "D", "H", "RJ", "J", "Q", "K", "A", "V", "R", "E", "B", "O", "P",
          "deck", "setup", "seed"}
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
_UNRENDERED = re.compile(r"\b(fact|error|term)\.[a-z_.]+")
_SLIP = re.compile(r"\b1 (points|cards|penalties|tricks)\b")


def _collect(name: str, preset: str | None, deals: int) -> tuple[list[Fact], list[CardGameError]]:
    """Every fact (events, actions, views' status, match reports) and refusal met over
    ``deals`` random deals, played in matches."""
    game = load(name, preset)
    spec = game.spec
    assert spec.describe_action is not None
    rng = random.Random(f"{name}/{preset}")
    facts: dict[str, Fact] = {}
    errors: dict[str, CardGameError] = {}
    match = game.new_match(rng=random.Random(1))
    for k in range(deals):
        if match.is_over():
            match = game.new_match(rng=random.Random(k))
        state = match.next_deal()
        earlier: tuple[Any, ...] = ()
        step = 0
        while not state.is_over():
            seat = state.current_seat
            assert seat is not None
            legal = state.legal_actions()
            if step % 9 == 0:
                for attempt in (*earlier[:2], legal[0]):
                    for who in (seat, (seat + 1) % state.num_players):
                        if not state.is_legal(attempt, who):
                            try:
                                state.apply(attempt, who)
                            except CardGameError as exc:
                                errors.setdefault(exc.reason, exc)
                for seen in (None, seat):
                    for f in state.observe(seen).status:
                        facts.setdefault(repr(f), f)
            earlier = legal
            state.apply(legal[rng.randrange(len(legal))])
            step += 1
        for event in state.history:
            for f in (spec.describe_action(event.seat, event.action), *event.facts):
                facts.setdefault(repr(f), f)
        for f in match.finish_deal(state):
            facts.setdefault(repr(f), f)
    for text in ("", "draw up", "99", "zz", "draw ²", "pass pass", "3X"):
        try:
            state.parse_action(text)
        except CardGameError as exc:
            errors.setdefault(exc.reason, exc)
    return list(facts.values()), list(errors.values())


@pytest.mark.slow  # the fast suite renders the same 200 deals in tests/test_i18n_complete.py
@pytest.mark.parametrize(("name", "preset"), CASES, ids=str)
def test_everything_renders_in_both_languages(name: str, preset: str | None) -> None:
    """≥ 200 random deals per preset: no missing key, no English in Japanese, no plural slip."""
    facts, errors = _collect(name, preset, 200)
    spec = get_spec(name)
    problems = []
    for lang in ("en", "ja"):
        for viewer in (None, 0):
            r = Renderer(lang, game=name, viewer=viewer, notation=spec.card_notation)
            texts = [r.fact(f.censored(viewer) or f) for f in facts]
            texts += [e.render(lang, notation=spec.card_notation) for e in errors]
            texts += [r.term(t) for t in (spec.match_end.reason, "out", "last_holder", "stalemate", "play", "over")]
            for text in texts:
                if not text or _UNRENDERED.search(text):
                    problems.append(f"{lang}: missing message {text!r}")
                elif lang == "ja":
                    words = [w for w in _WORD.findall(text) if w not in _CARDS and w not in _NAMES]
                    if words:
                        problems.append(f"ja: English {words} in {text!r}")
                elif _SLIP.search(text):
                    problems.append(f"en: plural slip in {text!r}")
    assert not problems, "\n".join(sorted(set(problems))[:30])
    codes = {f.type for f in facts}
    assert {"played", "cangkul.dig", "trick_won", "deal_ended"} <= codes


def test_cards_show_in_the_packs_own_notation() -> None:
    """Spanish Burro's caballo and rey show as 11 and 12, Portuguese as D and R, with the
    suit named (bastos, ouros: issue 25, a Spanish "12C" read as a club); never the French
    codes QC or KD."""
    es = Renderer("en", game="burro_es", notation=get_spec("burro_es").card_notation)
    pt = Renderer("en", game="burro_pt", notation=get_spec("burro_pt").card_notation)
    assert es.fact(events.DrewAndPlayed(seat=1, card=parse_card("KC"))) == "Seat 1 draws 12 of bastos and plays it"
    assert pt.fact(events.KnownCards(seat=2, cards=H("KD QS"))) == \
        "Seat 2 holds R of ouros · D of espadas, taken as a passer"
    assert get_spec("cangkul").card_notation == "french"
    state = deal("burro_es", ["KH 2S", "3C 4C", "5H 6C"], ["7C", "2D"])
    run(state, "0: KH")
    with pytest.raises(CardGameError) as caught:
        state.apply(state.parse_action("5H"), 2)
    assert caught.value.render("en", notation="spanish") == "seat 2 may not act now: waiting for seat 1"
    run(state, "1: draw")
    with pytest.raises(CardGameError) as caught:
        state.apply(state.parse_action("3C"))
    assert caught.value.render("en", notation="spanish") == \
        "seat 1 holds no copas: 3 of bastos cannot be played; draw"
    assert caught.value.render("ja", notation="spanish") == \
        "席1はコパス（聖杯）を持っていません：バストス（棍棒）の3は出せないので、山札から引いてください"


# --- refusals and bad input --------------------------------------------------------------
@pytest.mark.parametrize(("kwargs", "field"), [
    ({"setup": {"leader": None}}, "setup.leader"),           # issue 12: a null leader crashed
    ({"setup": {"dealer": None}}, "setup.dealer"),
    ({"setup": {"dealer": 10 ** 4000}}, "setup.dealer"),
    ({"setup": {"dealer": "1"}}, "setup.dealer"),
    ({"setup": {"leader": 1.0}}, "setup.leader"),
    ({"setup": {"dealer": True}}, "setup.dealer"),
    ({"setup": ["dealer", 1]}, "setup"),
    ({"setup": {"knock_seed": 2 ** 80}}, "setup.knock_seed"),
    ({"setup": {"knock_seed": "x"}}, "setup.knock_seed"),
    ({"hands": 7}, "hands"),
    ({"hands": "2H 3H 4H"}, "hands"),
    ({"hands": [["2H"], ["3H"], 5]}, "hands[2]"),
    ({"hands": [["2H"], ["3H"], [None]]}, "hands[2][0]"),
    ({"hands": [["2H"], ["3H"], ["4" * 5000 + "H"]]}, "hands[2][0]"),
    ({"hands": [["2H"], ["3H"], ["4H"]], "stock": 3}, "stock"),
    ({"deck": {"a": 1}}, "deck"),
    ({"seed": "abc"}, "seed"),
    ({"seed": 1.5}, "seed"),
])
def test_bad_setups_and_deals_are_refused_naming_the_field(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidDealError) as caught:
        load("burro_pt", players=3).new_state(**({"seed": 1} | kwargs if "hands" not in kwargs
                                                 and "deck" not in kwargs and "seed" not in kwargs else kwargs))
    assert caught.value.params["field"] == field
    assert "error." not in caught.value.render("en") and "error." not in caught.value.render("ja")


@pytest.mark.parametrize("text", ["", "draw up", "draw ²", "²", "9" * 5000, "1" * 5000 + "H", "\ud800",
                                  "pass pass", "joker joker", "\x00", "draw\x00left"])
def test_parse_action_raises_only_the_projects_errors(text: str) -> None:
    state = load("burro_pt").new_state(seed=1)
    with pytest.raises(CardGameError):
        state.parse_action(text)


# --- the twin ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_from_view_with_the_real_cards_is_the_real_deal(name: str) -> None:
    """A state built from a seat's view and the true hidden cards goes on exactly as the
    real one: same views, same events, same result."""
    game = cast(CangkulGame, load(name, "knock" if name == "burro_pt" else ("joker" if name == "cangkul" else None)))
    rng = random.Random(4)
    for seed in range(6):
        state = game.new_state(seed=seed)
        for _ in range(rng.randrange(1, 30)):
            if state.is_over():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if state.is_over():
            continue
        seat = state.current_seat
        assert seat is not None
        view = state.observe(seat)
        places = state.all_cards()
        piles = [places[f"stock {p}"] for p in range(len(view.stock))]
        twin = CangkulState.from_view(game, view, hands=[state.hand(s) for s in range(state.num_players)],
                                      piles=piles, knock_seed=None)
        assert twin.observe(seat).to_dict() == view.to_dict()
        assert twin.all_cards() == places
        if game.rules.knock_prob:
            continue  # the knocking chance is the real deal's own
        moves = random.Random(seed)
        while not state.is_over():
            legal = state.legal_actions()
            assert twin.legal_actions() == legal
            action = legal[moves.randrange(len(legal))]
            assert twin.apply(action) == state.apply(action)
        assert twin.result() == state.result()


def test_determinize_needs_a_seat_in_play() -> None:
    game = cast(CangkulGame, load("cangkul"))
    state = game.new_state(seed=2)
    assert not is_searchable(state.observe(None)) and is_searchable(state.observe(0))
    with pytest.raises(CardGameError):
        DETERMINIZER.determinize(game, state.observe(None), random.Random(1))


# --- matches and their records -----------------------------------------------------------
def _recorded_match(name: str, preset: str | None, seed: int, deals: int | None = None) -> Any:
    game = load(name, preset, **({"penalty_limit": 2} if name != "cangkul" else {}))
    recorder = MatchRecorder(game, deals=deals)
    match = game.new_match(deals=deals, rng=random.Random(seed))
    while not match.is_over():
        state = match.next_deal()
        recorder.start_deal(state, match.report())
        random_playout(state, random.Random(seed))
        recorder.finish_deal(state, match.finish_deal(state))
    return match, recorder.record(match.standings())


@pytest.mark.parametrize(("name", "preset"), CASES, ids=str)
def test_match_records_round_trip(name: str, preset: str | None) -> None:
    match, record = _recorded_match(name, preset, 3)
    replayed = loads(dumps(record)).replay()
    assert replayed.standings == match.standings()
    assert replayed.standings.over
    last = record.deals[-1].after
    assert last is not None and last[-1].type == "match_ended"


def test_burro_matches_end_at_the_penalty_limit() -> None:
    """Seed ゲーム: the match ends when a player's penalties reach the limit; the spec says so."""
    spec = get_spec("burro_es")
    assert spec.match_end.deals == "limit" and spec.match_end.reason == "penalty_limit"
    assert get_spec("cangkul").match_end.deals == "count"
    match, record = _recorded_match("burro_es", None, 5)
    standings = match.standings()
    assert standings.unit == "penalties" and not standings.higher_wins and standings.deals_limit is None
    assert max(standings.scores) == 2 and standings.deals_played == len(record.deals) > 1
    after = record.deals[0].after
    assert after is not None and isinstance(after[0], events.Penalty)
    assert after[-1].to_dict() == {"type": "next_deal", "dealer": 0, "leader": 1}
    lost = [f for f in record.deals[-1].after or () if isinstance(f, events.MatchLost)]
    assert [f.seat for f in lost] == [s for s in range(4) if standings.scores[s] == 2]


def test_tampered_match_records_are_refused_naming_the_field() -> None:
    _, record = _recorded_match("cangkul", None, 3, deals=3)
    data = json.loads(dumps(record))
    data["deals"][1]["setup"]["dealer"] = 2
    with pytest.raises(RecordMismatchError) as caught:
        loads(json.dumps(data)).replay()
    assert caught.value.field == "deals[1].setup.dealer" and caught.value.reason == "setup_mismatch"
    data = json.loads(dumps(record))
    data["deals"][0]["setup"] = {"leader": 0}
    with pytest.raises(RecordMismatchError) as caught:
        loads(json.dumps(data)).replay()
    assert caught.value.field.startswith("deals[0].setup.")
    data = json.loads(dumps(record))
    data["standings"]["carry"]["dealer"] = 0
    with pytest.raises(RecordMismatchError) as mismatch:
        loads(json.dumps(data)).replay()
    assert mismatch.value.field == "standings.carry"
    data = json.loads(dumps(record))
    data["deals"][0]["after"][-1]["leader"] = 3
    with pytest.raises(RecordMismatchError) as mismatch:
        loads(json.dumps(data)).replay()
    assert mismatch.value.field == "deals[0].after[1]"  # the first fact that differs
