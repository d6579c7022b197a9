"""Kap Hai at the structured boundary: typed facts, typed views, coded refusals, catalogs.

Everything the engine hands out is data (docs/events.md, Kap Hai): the facts read back from
JSON, the views validate against their JSON Schema, and every fact, term and refusal met
over random deals of every preset renders in English and Japanese from the catalogs.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any, cast

import pytest

import folkdeck
from folkdeck.cards import PACKS, parse_cards
from folkdeck.engine.conformance import random_playout
from folkdeck.engine.errors import CardGameError
from folkdeck.engine.facts import Fact, fact_from_dict, fact_types
from folkdeck.engine.view import json_schema
from folkdeck.games.kaphai.actions import PASS, PUTUH
from folkdeck.games.kaphai.events import (
    NextThreeGame,
    PutuhCall,
    PutuhDeclared,
    PutuhWindow,
    PutuhWon,
    ThreeGame,
    ThreesPutOut,
    Thrown,
)
from folkdeck.games.kaphai.observation import KapHaiPhase, KapHaiView
from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import COMBO_TERMS, PUTUH_PATTERNS
from folkdeck.i18n import LANGUAGES, Renderer, catalog

from .conftest import deal, play

PRESETS = (None, *folkdeck.get_spec("kaphai").presets)
DEALS = 200

_CARDS = {str(c) for pack in PACKS.values() for c in pack.cards}
_NAMES = {"Kap", "Hai", "S", "C", "D", "H", "J", "Q", "K", "A", "B"}  # B: local rule B
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
_UNRENDERED = re.compile(r"\b(fact|error|term)\.[a-z_.]+")
_GARBAGE = ("99", "0", "zz", "draw ²", "pass pass", "3X", "", "play", "10H 10H 10H", "4S 9H",
            "3S" * 300, "1e999", "-1", "\x00", "putuh putuh", "ＡＳ")


def _every_fact_example() -> list[Fact]:
    cards = parse_cards("2C 2D 2H")
    return [ThreeGame(seat=1, card=parse_cards("3S")[0]), ThreeGame(seat=2, card=None, shed=False),
            ThreesPutOut(seat=0, cards=parse_cards("3C 3H")), Thrown(seat=1, cards=cards,
            top=parse_cards("5S 5C 5D"), top_seat=0), PutuhWindow(all_seats=True), PutuhCall(seat=3),
            PutuhDeclared(seat=3, pattern="far"), PutuhWon(winners=(1, 3)), NextThreeGame()]


def test_every_kaphai_fact_type_reads_back_from_json() -> None:
    examples = _every_fact_example()
    ours = {code for code in fact_types() if code.startswith("kaphai.")}
    assert {f.type for f in examples} == ours, "an example of each of the game's facts"
    for fact in examples:
        assert fact_from_dict(json.loads(json.dumps(fact.to_dict()))) == fact


def test_kaphai_facts_hide_nothing_so_every_seat_sees_one_history() -> None:
    """No Kap Hai fact is private: a play, a throw, a declaration are all public (the hands
    of the declarers are shown, docs/rules/kaphai.md §4.3, §5), so every viewer reads the same history."""
    for cls in {type(f) for f in _every_fact_example()}:
        assert not cls.private and not cls.secret, cls
    state = folkdeck.load("kaphai").new_state(seed=11)
    random_playout(state, random.Random(2))
    histories = {json.dumps([e.to_dict() for e in state.observe(s).history]) for s in (None, 0, 1, 2, 3)}
    assert len(histories) == 1


def _random_deals(preset: str | None, deals: int, seed: str) -> Iterator[Any]:
    """Random deals of a preset, played through a match (every 5th a new match)."""
    game = folkdeck.load("kaphai", preset)
    rng = random.Random(seed)
    match = None
    for _ in range(deals):
        if match is None or match.is_over():
            match = game.new_match(deals=5, rng=random.Random(rng.getrandbits(32)))
        state = match.next_deal()
        yield match, state, rng


@pytest.mark.parametrize("preset", PRESETS, ids=str)
def test_views_validate_against_the_json_schema(preset: str | None) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(json_schema(KapHaiView))
    for _match, state, rng in _random_deals(preset, 8, f"schema-{preset}"):
        step = 0
        while True:
            if step % 12 == 0 or state.is_over():  # (validation is slow: a sample of positions)
                for seat in (None, *range(state.num_players)):
                    data = json.loads(json.dumps(state.observe(seat).to_dict()))
                    errors = list(validator.iter_errors(data))
                    assert not errors, errors[0].message
            step += 1
            if state.is_over():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def _collect(preset: str | None) -> tuple[dict[str, Fact], dict[str, CardGameError], set[str]]:
    """Every fact, refusal and term met over random deals of ``preset``."""
    facts: dict[str, Fact] = {}
    errors: dict[str, CardGameError] = {}
    terms: set[str] = set()
    spec = folkdeck.get_spec("kaphai")
    assert spec.describe_action is not None
    for match, state, rng in _random_deals(preset, DEALS, f"i18n-{preset}"):
        earlier: tuple[Any, ...] = ()
        while not state.is_over():
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            attempts = [(seat, a) for a in earlier if a not in legal]
            attempts += [((seat + 1) % state.num_players, legal[0]), (seat, PUTUH),
                         (seat, PASS)]
            hand = state.hand(seat)
            attempts += [(seat, state.parse_action(str(c))) for c in rng.sample(hand, min(3, len(hand)))]
            for who, action in attempts if rng.random() < 0.3 else ():
                try:
                    state.verify(action, who)
                except CardGameError as exc:
                    errors.setdefault(f"{exc.reason} {exc.params.get('why')} {exc.params.get('shape')}", exc)
            if rng.random() < 0.05:
                try:
                    state.parse_action(rng.choice(_GARBAGE), seat)
                except CardGameError as exc:
                    errors.setdefault(exc.reason, exc)
            earlier = legal
            state.apply(legal[rng.randrange(len(legal))], seat)
            for s in (None, seat):
                view = state.observe(s)
                for f in view.status:
                    facts.setdefault(repr(f.to_dict()), f)
                if view.top_combo is not None:
                    terms.add(view.top_combo)
                terms.update(t.label for t in view.table if t.label)
                terms.add(view.phase)
        for event in state.history:
            for f in (spec.describe_action(event.seat, event.action), *event.facts):
                facts.setdefault(repr(f.to_dict()), f)
        for s in (None, 0):
            for f in state.observe(s).status:
                facts.setdefault(repr(f.to_dict()), f)
        result = state.result()
        assert result is not None
        terms.add(result.reason)
        for f in match.finish_deal(state):
            facts.setdefault(repr(f.to_dict()), f)
    return facts, errors, terms


def _problems(lang: str, what: str, text: str) -> list[str]:
    if not text or _UNRENDERED.search(text):
        return [f"{lang} {what}: missing message: {text!r}"]
    if lang == "ja":
        words = [w for w in _WORD.findall(text) if w not in _CARDS and w not in _NAMES]
        if words:
            return [f"ja {what}: English {words} in {text!r}"]
    elif re.search(r"\b1 (points|cards|seats)\b", text):
        return [f"en {what}: plural slip in {text!r}"]
    return []


@pytest.mark.slow  # the fast suite renders the same 200 deals in tests/test_i18n_complete.py
@pytest.mark.parametrize("preset", PRESETS, ids=str)
def test_everything_met_in_random_deals_renders_in_both_languages(preset: str | None) -> None:
    """≥ 200 random deals per preset: facts (events, status, match reports), refusals and
    terms render from the catalogs with no key missing and no English left in Japanese."""
    facts, errors, terms = _collect(preset)
    assert {"trick_won", "went_out", "deal_ended", "kaphai.three_game", "score_changed"} <= {
        f.type for f in facts.values()}
    assert {"kaphai.no_beat", "kaphai.not_your_turn", "kaphai.putuh_too_late" if preset == "declared_putuh"
            else "kaphai.putuh_automatic"} <= {e.reason for e in errors.values()}
    if preset == "declared_putuh":
        assert {"kaphai.putuh_window", "kaphai.putuh_call", "leads"} <= {f.type for f in facts.values()}
    problems = []
    for lang in LANGUAGES:
        for viewer in (None, 0):
            r = Renderer(lang, game="kaphai", viewer=viewer)
            for f in facts.values():
                problems += _problems(lang, f"fact {f.type}", r.fact(f))
            for exc in errors.values():
                text = exc.render(lang)
                for value in exc.params.values():  # what the player typed is echoed as it was
                    if isinstance(value, str) and value:
                        text = text.replace(value, "")
                problems += _problems(lang, f"error {exc.reason}", text)
        r = Renderer(lang, game="kaphai")
        for term in terms:
            problems += _problems(lang, f"term {term}", r.term(term))
    problems = [p for p in problems if "score_changed" not in p]  # the shared message (the lead's)
    assert not problems, "\n".join(sorted(set(problems))[:40])


def test_every_term_and_option_of_the_game_has_a_name_in_both_catalogs() -> None:
    spec = folkdeck.get_spec("kaphai")
    options = list(KapHaiOptions.__dataclass_fields__)
    keys = [f"term.kaphai.{t}" for t in (*COMBO_TERMS, *PUTUH_PATTERNS, *spec.windows, *KapHaiPhase,
                                          "out", "putuh", "thrown", spec.match_end.reason)]
    keys += [f"term.kaphai.option.{o}{h}" for o in options for h in ("", ".help")]
    for lang in LANGUAGES:
        missing = [k for k in keys if k not in catalog(lang)]
        assert not missing, (lang, missing)
        for k in keys:
            assert not _problems(lang, k, str(catalog(lang)[k])), (lang, k)


def test_every_putuh_pattern_and_combination_renders() -> None:
    for lang in LANGUAGES:
        r = Renderer(lang, game="kaphai", viewer=1)
        for pattern in PUTUH_PATTERNS:
            assert not _problems(lang, pattern, r.fact(PutuhDeclared(seat=1, pattern=pattern)))
        for fact in _every_fact_example():
            assert not _problems(lang, fact.type, r.fact(fact))
    en = Renderer("en", game="kaphai", viewer=2)
    assert en.fact(PutuhWon(winners=(2,))) == "Putuh! the deal goes to you"
    assert en.fact(ThreeGame(seat=2, card=parse_cards("3S")[0])) == \
        "A 3-game: you put out the 3S and lead with a single card"


@pytest.mark.parametrize("text", _GARBAGE)
def test_parse_action_raises_only_coded_errors(text: str) -> None:
    state = folkdeck.load("kaphai").new_state(seed=1)
    try:
        state.parse_action(text)
    except CardGameError as exc:
        assert f"error.{exc.reason}" in catalog("en") or exc.reason in catalog("en"), exc.reason
        json.dumps(dict(exc.params))


def test_refusals_are_coded_with_json_params() -> None:
    state = deal(["4C 4D 9S", "4S 4H 5S 5H 3C 3D", "KS", "AS"])
    play(state, "0: 4C 4D")
    with pytest.raises(CardGameError) as info:
        state.apply(state.parse_action("3C 3D"), 1)
    err = info.value
    assert err.reason == "kaphai.no_beat" and err.params["why"] == "pair"
    assert cast(dict[str, Any], err.to_dict()["params"])["action"] == "3C 3D"
    assert str(err) == ("3C 3D does not beat 4C 4D: a pair must have a higher rank, or the same "
                        "rank and a higher top suit")
    assert "3C 3D" in err.render("ja") and not _problems("ja", "no_beat", err.render("ja"))


# --- the view's status: the 3-game start (docs/rules/kaphai.md §2.1) ---------------------------

def test_the_three_game_start_is_in_every_view() -> None:
    state = deal(["4S 5S 3C", "3S 6C 7D 8H", "3D 3H 9S JC JD", "JS QC"], three_game=True)
    expected = (ThreesPutOut(seat=0, cards=parse_cards("3C")), ThreesPutOut(seat=1, cards=parse_cards("3S")),
                ThreesPutOut(seat=2, cards=parse_cards("3D 3H")), ThreeGame(seat=1, card=parse_cards("3S")[0]))
    for seat in (None, 0, 1, 2, 3):
        view = state.observe(seat)
        assert view.status == expected and view.three_game and view.lead_single
    assert Renderer("en", game="kaphai", viewer=0).fact(expected[-1]) == \
        "A 3-game: seat 1 put out the 3S and leads with a single card"
    play(state, "1: 6C")
    assert not state.observe(0).lead_single and state.observe(0).status == expected


def test_a_three_game_without_3s_names_no_hidden_card() -> None:
    """docs/rules/kaphai.md §8.12, §5: the holder of the lowest card leads; that card is not shown unless a 3."""
    state = deal(["9S 10S", "4C 7D", "5H 6S"], three_game=True)
    assert state.observe(0).status == (ThreeGame(seat=1, card=None),)
    low_three = deal(["9S 10S", "3C 7D", "5H 6S"], three_game=True)
    assert low_three.observe(0).status[-1] == ThreeGame(seat=1, card=parse_cards("3C")[0])


def test_a_throw_is_a_fact_and_the_table_labels_it() -> None:
    """docs/rules/kaphai.md §3.4 (figure 3): 2-2-2 thrown on a triple does not take the lead."""
    state = deal(["5S 5C 5D 9S", "2C 2D 2H 4S", "6S 6C 6D 7S", "JS"])
    play(state, "0: 5S 5C 5D")
    event = state.apply(state.parse_action("2C 2D 2H"), 1)
    assert event.facts == (Thrown(seat=1, cards=parse_cards("2C 2D 2H"), top=parse_cards("5S 5C 5D"),
                                  top_seat=0),)
    view = state.observe(3)
    assert [t.label for t in view.table] == ["", "thrown"] and view.top is not None and view.top.seat == 0
    assert view.top_combo == "triple" and 1 in view.passed
