"""Cambio's structured boundary: typed facts, coded refusals, the typed view, the world
built from a view, and whole-session match records (docs/events.md; docs/rules/cambio.md)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from folkdeck import load
from folkdeck.cards import parse_card
from folkdeck.engine.conformance import random_playout
from folkdeck.engine.errors import CardGameError, MalformedRecordError
from folkdeck.engine.facts import Fact, fact_from_dict
from folkdeck.engine.match_record import MatchRecorder, RecordMismatchError, dumps, loads
from folkdeck.engine.view import json_schema
from folkdeck.games.cambio import SPEC, CambioState, CambioView
from folkdeck.games.cambio.determinize import DETERMINIZER, is_searchable
from folkdeck.games.cambio.events import FACT_TYPES, TookStock, TookStockFaceDown
from folkdeck.games.cambio.options import PRESETS, CambioOptions
from folkdeck.games.cambio.rules import KIND, NAMES
from folkdeck.i18n import LANGUAGES, Renderer

C = parse_card

# One instance of every Cambio fact, each field filled (a card where the type has one).
_SAMPLE: dict[type, Any] = {int: 2, str: "showdown", bool: True}


def _sample(cls: type[Fact]) -> Fact:
    import dataclasses
    import typing

    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        text = str(hint)
        if "tuple" in text:
            values[f.name] = (C("OWL"), C("3")) if "Card" in text else (1, 2)
        elif "Card" in text:
            values[f.name] = C("HORSE")
        else:
            values[f.name] = _SAMPLE[next(t for t in (int, str, bool) if t.__name__ in text)]
    return cls(**values)


def test_every_fact_type_reads_back_from_json() -> None:
    for cls in FACT_TYPES:
        fact = _sample(cls)
        data = json.loads(json.dumps(fact.to_dict()))
        assert data["type"].startswith("cambio."), cls
        assert fact_from_dict(data) == fact, cls


def test_the_card_taken_from_the_stock_is_private() -> None:
    state: Any = load("cambio", players=2).new_state(hands=[["2"], ["5"]], stock=["9"], setup={"dealer": 1})
    state.apply(state.parse_action("keep"))
    event = state.apply(state.parse_action("change"))
    took = next(f for f in event.facts if isinstance(f, TookStock))
    assert took.card == C("9") and took.censored(1) == took
    assert took.censored(0) == TookStock(seat=1, card=None, discarded=C("5"))
    assert TookStockFaceDown(seat=1, card=C("9")).censored(None) == TookStockFaceDown(seat=1, card=None)
    mine = [f for e in state.observe(1).history for f in e.facts if isinstance(f, TookStock)]
    theirs = [f for e in state.observe(0).history for f in e.facts if isinstance(f, TookStock)]
    assert mine[0].card == C("9") and theirs[0].card is None
    # mid-deal (a chain through the dealer to the stock: docs/rules/cambio.md §6.4), no other view shows it
    state = load("cambio", players=3).new_state(hands=[["2"], ["HOUSE"], ["HORSE"]], stock=["7", "3"],
                                                setup={"dealer": 2})
    state.apply(state.parse_action("change"))
    assert not state.is_over() and str(state.card(0)) == "7"
    for viewer in (None, 1, 2):  # (the other 7 lies in the open discards)
        assert '"7"' not in json.dumps(state.observe(viewer).to_dict()["history"])
        assert state.observe(viewer).hand != (C("7"),)
    assert '"7"' in json.dumps(state.observe(0).to_dict()["history"])


def _deals(preset: str, count: int, seed: int = 0) -> Iterator[CambioState]:
    rng = random.Random(f"{preset}/{seed}")
    for i in range(count):
        players = rng.choice((2, 3, 4, 5, 8))
        game: Any = load("cambio", preset, players=players)
        yield game.new_state(seed=rng.getrandbits(32), setup={"dealer": i % players})


def test_views_validate_against_the_json_schema() -> None:
    schema = json_schema(CambioView)
    validator = jsonschema.Draft202012Validator(schema)
    assert SPEC.view_type is CambioView
    for preset in sorted(PRESETS):
        for state in _deals(preset, 8):
            rng = random.Random(1)
            while True:
                for seat in (None, *range(state.num_players)):
                    view = state.observe(seat)
                    data = json.loads(json.dumps(view.to_dict()))
                    validator.validate(data)
                    assert data["hand"] == (None if seat is None else [str(c) for c in view.hand or ()])
                if state.is_over():
                    break
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])


# --- everything renders in both languages ---------------------------------------------
_CARD_WORDS = set(NAMES)
_ASCII_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# Proper names and the option values a refusal repeats (Japanese uses the Cucco names).
_ALLOWED = {"XI", "XII", "nifty44", "reshuffle_seed", "setup", "shuffle"}


def _collect(preset: str, deals: int) -> tuple[dict[str, Fact], dict[str, CardGameError], set[str]]:
    facts: dict[str, Fact] = {}
    errors: dict[str, CardGameError] = {}
    terms: set[str] = {"exchange", "over", *SPEC.windows, SPEC.match_end.reason, SPEC.record_embargo}
    rng = random.Random(f"i18n/{preset}")
    for i in range(deals):
        game = load("cambio", preset, players=rng.choice((2, 3, 4, 6)), start_chips=rng.choice((2, 5)))
        match = game.new_match(deals=None if i % 3 else 6, rng=random.Random(i))
        while not match.is_over():
            state = match.next_deal()
            for f in match.report():
                facts.setdefault(repr(f), f)
            while not state.is_over():
                acting = state.to_act
                for attempt in ("keep", "cucco", "swap", "", "change keep"):
                    other = rng.randrange(state.num_players)
                    try:
                        state.apply(state.parse_action(attempt, other), other)
                    except CardGameError as exc:
                        errors.setdefault(exc.reason, exc)
                    if state.is_over():
                        break
                if state.is_over():
                    break
                acting = state.to_act
                seat = rng.choice(acting)
                legal = state.legal_actions(seat)
                state.apply(legal[rng.randrange(len(legal))], seat)
                for viewer in (None, *range(state.num_players)):
                    for f in state.observe(viewer).status:
                        facts.setdefault(repr(f), f)
            try:
                # a typed action (the compiled build checks the type first), refused: the deal is over
                state.apply(state.history[-1].action, 0)
            except CardGameError as exc:
                errors.setdefault(exc.reason, exc)
            result = state.result()
            assert result is not None
            terms.add(result.reason)
            terms.update(result.details["disqualified"].values())
            for e in state.history:
                assert SPEC.describe_action is not None
                for f in (SPEC.describe_action(e.seat, e.action), *e.facts):
                    facts.setdefault(repr(f), f)
            for f in match.finish_deal(state):
                facts.setdefault(repr(f), f)
    return facts, errors, terms




def _problems(lang: str, what: str, text: str, params: dict[str, Any]) -> list[str]:
    if not text or re.search(r"\b(fact|error|term)\.[a-z_.]+", text):
        return [f"{lang} {what}: missing message: {text!r}"]
    if lang == "en":
        slip = re.search(r"\b1 (chips|cards|discards|points)\b|\byou (pays|takes|holds|is|draws)\b", text,
                         re.IGNORECASE)
        return [f"en {what}: {text!r}"] if slip else []
    for value in params.values():  # a refusal repeats what it was given: not a word of ours
        if isinstance(value, str) and value and value not in _CARD_WORDS:
            text = text.replace(value, " ")
    words = [w for w in _ASCII_WORD.findall(text) if w not in _ALLOWED and w not in _CARD_WORDS]
    return [f"ja {what}: English {words} in {text!r}"] if words else []


@pytest.mark.slow  # the fast suite renders the same 200 deals in tests/test_i18n_complete.py
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_everything_renders_in_both_languages(preset: str) -> None:
    facts, errors, terms = _collect(preset, 200)
    problems: list[str] = []
    for lang in LANGUAGES:
        for viewer in (None, 0, 1):
            r = Renderer(lang, game="cambio", viewer=viewer, notation=SPEC.card_notation)
            for f in facts.values():
                problems += _problems(lang, f.type, r.fact(f), {})
        for exc in errors.values():
            problems += _problems(lang, exc.reason, exc.render(lang), dict(exc.params))
        r = Renderer(lang, game="cambio")
        for term in terms:
            key = f"term.cambio.{term}"
            assert key in r.messages, key
            problems += _problems(lang, key, r.term(term), {})
        # Japanese names the Cucco cards (term.cambio.<card>) as the browser does
        if lang == "ja":
            assert r.term("OWL") == "梟" and r.term("FOOL") == "道化"
    assert not problems, "\n".join(sorted(set(problems))[:30])
    kinds = {f.type for f in facts.values()}
    assert {"cambio.said", "cambio.showdown", "cambio.stake", "chips_paid", "deal_ended",
            "cambio.seating_draw", "cambio.first_dealer"} <= kinds


def test_option_and_setup_refusals_render() -> None:
    for rules, reason in (({"pack": "52"}, "cambio.bad_pack"), ({"players": 40}, "cambio.players_range"),
                          ({"start_chips": 0}, "cambio.at_least_one"),
                          ({"entry_fee": -1}, "cambio.not_negative"),
                          ({"entry_fee": 30}, "cambio.fee_above_chips"),
                          ({"pay_schedule": (1, -2)}, "cambio.pay_negative")):
        with pytest.raises(CardGameError) as err:
            CambioOptions(**rules)
        assert err.value.reason == reason
        for lang in LANGUAGES:
            assert not _problems(lang, reason, err.value.render(lang), dict(err.value.params))
    assert "2 to 39 players" in str(pytest.raises(CardGameError, load, "cambio", players=40).value)


@given(st.text(max_size=12))
@settings(max_examples=200, deadline=None)
def test_parse_action_raises_only_project_errors(text: str) -> None:
    state = load("cambio").new_state(seed=1)
    try:
        state.parse_action(text)
    except CardGameError as exc:
        assert exc.reason == "cambio.unknown_action"


# --- the world built from a view ----------------------------------------------------------
def test_from_view_with_the_real_cards_is_the_real_deal() -> None:
    for preset in sorted(PRESETS):
        for k, state in enumerate(_deals(preset, 20, seed=3)):
            rng = random.Random(k)
            for _ in range(rng.randrange(3)):
                if state.is_over():
                    break
                state.apply(state.legal_actions()[rng.randrange(2)])
            seat = state.current_seat
            if seat is None:
                continue
            view = state.observe(seat)
            if not is_searchable(view):
                continue
            fixed = {s for s, _ in (*view.shown, *view.known)}
            hands = {s: state.kind_of(s) for s in view.active if s != seat and s not in fixed}
            _, stock, discards = state.piles()
            face_down = discards[len(view.discards):] if len(discards) > len(view.discards) else []
            twin = CambioState.from_view(state.game, view, hands=hands, stock=stock,
                                         face_down=face_down,
                                         reshuffle_seed=_reshuffle_seed(state))
            assert twin.observe(seat).to_dict() == view.to_dict()
            while not state.is_over():
                action = state.legal_actions()[rng.randrange(len(state.legal_actions()))]
                assert state.apply(action).facts == twin.apply(action).facts
            assert twin.result() == state.result()


def test_determinized_worlds_look_the_same_to_the_seat() -> None:
    state: Any = load("cambio", "closed_discards", players=5).new_state(seed=4, setup={"dealer": 4})
    state.apply(state.parse_action("change"))
    state.apply(state.parse_action("change"))
    seat = state.current_seat
    assert seat is not None
    view = state.observe(seat)
    for i in range(20):
        world = DETERMINIZER.determinize(state.game, view, random.Random(i))
        assert world.observe(seat).to_dict() == view.to_dict()
        assert world.kind_of(seat) == KIND[view.card] if view.card is not None else True


# --- the session as a match record ----------------------------------------------------------
def _session(preset: str, players: int, seed: int, deals: int | None = None) -> Any:
    game = load("cambio", preset, players=players, start_chips=4)
    recorder = MatchRecorder(game, deals=deals)
    match = game.new_match(deals=deals, rng=random.Random(seed))
    k = 0
    while not match.is_over():
        state = match.next_deal()
        recorder.start_deal(state, match.report())
        random_playout(state, random.Random(k))
        k += 1
        recorder.finish_deal(state, match.finish_deal(state))
    return match, recorder.record(match.standings())


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_match_record_round_trips(preset: str) -> None:
    for players, seed in ((2, 1), (4, 2), (9, 3), (25, 4)):
        match, record = _session(preset, players, seed)
        replayed = loads(dumps(record)).replay()
        assert replayed.standings == match.standings()
        assert replayed.standings.over and replayed.standings.unit == "chips"
        data = json.loads(dumps(record))
        first = data["deals"][0]
        assert len(first["setup"]["shuffle"]) == len(match.game.pack.full)
        assert all("shuffle" not in d["setup"] for d in data["deals"][1:])
        assert any(f["type"] == "cambio.first_dealer" for f in first["before"])
        assert data["deals"][-1]["after"][-1]["type"] == "match_ended"


def test_a_deal_limit_ends_the_session() -> None:
    match, record = _session("standard", 3, 7, deals=3)
    assert match.standings().deals_played == 3 and match.is_over()
    assert loads(dumps(record)).replay().standings == match.standings()
    assert SPEC.match_end.deals == "limit" and SPEC.match_end.default_deals is None


@pytest.mark.parametrize(("path", "value", "field"), [
    (("deals", 1, "setup", "pot"), 99, "deals[1].setup.pot"),
    (("deals", 1, "setup", "chips", 0), 99, "deals[1].setup.chips"),
    (("deals", 1, "setup", "dealer"), None, "deals[1].setup.dealer"),
    (("deals", 1, "hands", 0), ["OWL"], "deals[1].hands"),
    (("deals", 2, "stock", 0), "LION", "deals[2].stock"),
    (("deals", 0, "before", 1, "card"), "OWL", "deals[0].before"),
    (("deals", 0, "after", 0, "amount"), 7, "deals[0].after"),
    (("standings", "carry", "pot"), 1000, "standings.carry"),
    (("standings", "scores", 0), 1000, "standings.scores"),
])
def test_a_tampered_record_is_refused_naming_the_field(path: tuple[Any, ...], value: Any,
                                                       field: str) -> None:
    match, record = _session("standard", 4, 2)
    data = json.loads(dumps(record))
    target = data
    for key in path[:-1]:
        target = target[key]
    if field.endswith(".dealer"):
        value = (target[path[-1]] + 1) % 4
    if target[path[-1]] == value:
        value = "LION" if value == "OWL" else "OWL"
    target[path[-1]] = value
    with pytest.raises((MalformedRecordError, RecordMismatchError)) as err:
        loads(json.dumps(data)).replay()
    assert err.value.params["field"].startswith(field), err.value.params


def test_a_first_deal_without_its_shuffle_is_refused() -> None:
    _, record = _session("standard", 3, 5)
    data = json.loads(dumps(record))
    del data["deals"][0]["setup"]["shuffle"]
    with pytest.raises(MalformedRecordError) as err:
        loads(json.dumps(data)).replay()
    assert err.value.params["field"] == "deals[0].setup.shuffle"


def test_spec_declares_what_others_need() -> None:

    assert SPEC.card_notation == "cucco" and SPEC.windows == ("cucco",)
    assert SPEC.record_embargo == "stock_carries_over"
    assert SPEC.determinizer is DETERMINIZER
    assert SPEC.describe_action is not None
    assert "counting" in SPEC.bots and SPEC.default_bot == "counting"


def _reshuffle_seed(state: CambioState) -> int:
    seed = state.deal_info()["setup"]["reshuffle_seed"]
    assert isinstance(seed, int)
    return seed
