"""Gou Ji's structured boundary: typed facts, the typed view, coded refusals, the
catalogs, the determinizer's twin, whole-match records, and the windows that ask every
seat (``ask_all_seats``, ``docs/rules/gouji.md`` §11.23)."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any, cast

import jsonschema
import pytest

import folkdeck
from folkdeck.engine.conformance import check_hidden_twins, check_view_to_act, random_playout
from folkdeck.engine.errors import CardGameError, InvalidNotationError
from folkdeck.engine.facts import Fact, TrickWon, fact_from_dict, fact_types
from folkdeck.engine.match_record import MatchRecorder, RecordMismatchError, dumps, loads
from folkdeck.engine.view import json_schema
from folkdeck.games.gouji import SPEC, GouJiGame, events
from folkdeck.games.gouji.actions import NO, parse_action
from folkdeck.games.gouji.determinize import DETERMINIZER, is_searchable
from folkdeck.games.gouji.observation import GouJiView
from folkdeck.i18n import Renderer, catalog

from .conftest import run
from .test_state import _revolution_hands

PRESETS = ("standard", "modern", "resume", "advanced")


# --- facts -----------------------------------------------------------------------------

def _sample(cls: type[Fact]) -> Fact:
    """An instance of ``cls`` with a value of the right type in every field."""
    from folkdeck.cards import parse_cards

    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        hint = str(f.type)
        if "Card" in hint:
            values[f.name] = tuple(parse_cards("2S RJ"))
        elif hint.startswith("tuple[str"):
            values[f.name] = ("9", "9", "2")
        elif hint.startswith("tuple[int"):
            values[f.name] = (1, 5)
        elif hint == "int":
            values[f.name] = 3
        elif hint == "float":
            values[f.name] = -2.0
        elif hint == "bool":
            values[f.name] = True
        else:
            values[f.name] = {"kind": "jin_gong", "mode": "duel", "claim": "burn", "title": "da_la",
                              "answer": "agreed", "suit": "C"}.get(f.name, "normal")
    return cls(**values)


GOUJI_FACTS = [cls for code, cls in fact_types().items() if code.startswith("gouji.")]


def test_every_fact_type_round_trips_through_json() -> None:
    assert len(GOUJI_FACTS) >= 30
    for cls in GOUJI_FACTS:
        fact = _sample(cls)
        assert fact_from_dict(json.loads(json.dumps(fact.to_dict()))) == fact, cls


def test_tribute_cards_are_seen_by_the_two_seats_only() -> None:
    # docs/rules/gouji.md §2.6: 6位は1位に最も強い2枚を渡す (face down): only giver and receiver see them
    for cls in (events.TributeGiven, events.TributeReturned):
        fact = _sample(cls)
        assert isinstance(fact, cls)
        for viewer in range(6):
            seen = fact.censored(viewer)
            assert seen is not None
            assert (seen.cards is not None) == (viewer in (fact.seat, fact.receiver))  # type: ignore[attr-defined]
        assert fact.censored(None).cards is None  # type: ignore[union-attr]
    returned = events.CardsReturned(seat=1, count=2, ranks=("5", "7"))
    assert returned.censored(1) == returned and returned.censored(0).ranks is None  # type: ignore[union-attr]


def test_describe_action_reads_back() -> None:
    for text in ("9 9 2", "pass", "no", "declare", "revolution", "object", "withdraw", "insist",
                 "xian", "open", "burn K K", "return 5 7", "order 4 2", "draw 3", "foul burn"):
        action = parse_action(text)
        assert events.action_of(events.describe_action(2, action)) == action


# --- views -----------------------------------------------------------------------------

def _positions(preset: str, deals: int, every: int) -> Any:
    game = folkdeck.load("gouji", preset)
    for seed in range(deals):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        k = 0
        while not state.is_over():
            if k % every == 0:
                yield game, state
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            k += 1
        yield game, state


@pytest.mark.parametrize("preset", PRESETS)
def test_views_validate_against_the_schema(preset: str) -> None:
    schema = json_schema(GouJiView)
    validator = jsonschema.Draft202012Validator(schema)
    for _, state in _positions(preset, 2, 37):
        for seat in (None, *range(6)):
            view = state.observe(seat)
            assert isinstance(view, SPEC.view_type)
            validator.validate(json.loads(json.dumps(view.to_dict())))


@pytest.mark.parametrize("preset", PRESETS)
def test_a_world_from_the_view_looks_the_same_to_its_seat(preset: str) -> None:
    """The determinizer's twin (``GouJiState.from_view``): its view equals the real one."""
    rng = random.Random(7)
    twins = 0
    for game, state in _positions(preset, 3, 13):
        check_hidden_twins(game, state, rng)
        seat = state.current_seat
        if seat is not None and is_searchable(state.observe(seat)):
            world = DETERMINIZER.determinize(game, state.observe(seat), rng)
            assert world.observe(seat).to_dict() == state.observe(seat).to_dict()
            twins += 1
    assert twins > 10


# --- text at the edge --------------------------------------------------------------------

_CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9JQKA])[SCDH]?(?![A-Za-z0-9])|BJ|RJ")


def _check_text(text: str, lang: str) -> None:
    assert not any(k in text for k in ("fact.", "error.", "term.")), text
    if lang == "ja":
        assert not re.search(r"[A-Za-z]", _CARD.sub("", text)), text


def test_every_fact_term_and_refusal_renders_in_english_and_japanese() -> None:
    """≥ 200 random deals of every preset: every fact, status fact, phase, window, mode,
    result reason and match fact renders in both languages with no missing key."""
    seen: set[Fact] = set()
    terms: set[str] = set()
    for preset in PRESETS:
        game = cast(GouJiGame, folkdeck.load("gouji", preset))
        match = game.new_match(deals=200, rng=random.Random(preset))
        rng = random.Random(1)
        deals = 0
        while deals < 200:
            state = match.next_deal()
            k = 0
            while not state.is_over():
                if k % 50 == 0:
                    view = state.observe(state.to_act[0])
                    seen.update(view.status)
                    terms.update((view.phase, view.window, view.mode))
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                k += 1
            for event in state.history:
                seen.add(SPEC.describe_action(event.seat, event.action))
                seen.update(event.facts)
            seen.update(match.finish_deal(state))
            terms.add(state.result().reason)  # type: ignore[union-attr]
            deals += 1
    types = {f.type for f in seen}
    assert {"gouji.went_out", "gouji.burn_window", "gouji.tribute_given", "gouji.tribute_returned",
            "gouji.threes_shown", "gouji.offence", "gouji.false_claim", "gouji.turn_order",
            "gouji.redeal", "gouji.team_score", "gouji.next_deal"} <= types, types
    for lang in ("en", "ja"):
        for viewer in (None, 0, 3):
            r = Renderer(lang, game="gouji", viewer=viewer, notation=SPEC.card_notation)
            for fact in seen:
                _check_text(r.fact(fact), lang)
        r = Renderer(lang, game="gouji")
        for term in terms - {""}:
            assert f"term.gouji.{term}" in catalog(lang), term
            _check_text(r.term(term), lang)
        for name in SPEC.options_type.__dataclass_fields__:
            for key in (f"term.gouji.option.{name}", f"term.gouji.option.{name}.help"):
                assert key in catalog(lang), key
        for term in (*SPEC.windows, *events.PLACE_TITLES, "deals", "target_score"):
            _check_text(r.term(term), lang)


def test_refusals_are_coded_and_render() -> None:
    state = cast(GouJiGame, folkdeck.load("gouji", ask_all_seats=False)).new_state(
        hands=["KS KH 3S 4S 5S", "AS AH 7S 7H", "3C 4C 5C 8S", "2C 2D 3D 4D", "3H 4H 5H 9S",
               "AC AD 2S 9H"], setup={"leader": 0})
    attempts = [("pass", 0), ("7 7", 0), ("9", 1), ("K K", 3)]
    errors: list[CardGameError] = []
    for text, seat in attempts:
        with pytest.raises(CardGameError) as info:
            state.apply(state.parse_action(text), seat)
        errors.append(info.value)
    run(state, "0: K K")
    for text, seat in [("burn 7 7", 1), ("A A", 1), ("pass", 1)]:
        with pytest.raises(CardGameError) as info:
            state.apply(state.parse_action(text), seat)
        errors.append(info.value)
    for text in ("", "draw ²", "draw 9", "order 7", "foul x", "return", "burn", "9 10", "X", "pass 3"):
        with pytest.raises(InvalidNotationError) as notation:
            parse_action(text)
        errors.append(notation.value)
    assert str(errors[1]) == "seat 0 does not hold 7 7"
    for error in errors:
        assert error.reason.startswith("gouji.") or error.reason in catalog("en"), error.reason
        json.dumps(error.to_dict())
        for lang in ("en", "ja"):
            assert f"error.{error.reason}" in catalog(lang)
            _check_text(error.render(lang), "en")


def test_refusals_share_the_params_and_speak_to_the_seat_as_you() -> None:
    """The refusals' params are those of every game (``not_your_turn``: ``seat``, ``to_act``,
    ``action``; ``not_held``: ``seat``, ``action``, ``cards``), and a sentence about the
    viewer's own seat says "you" with its verb (docs/rules/gouji.md §3.3: a seat plays
    only the cards it holds; the leader may not pass)."""
    state = folkdeck.load("gouji").new_state(
        hands=["KS KH 3S 4S 5S", "AS AH 7S 7H", "3C 4C 5C 8S", "2C 2D 3D 4D", "3H 4H 5H 9S",
               "AC AD 2S 9H"], setup={"leader": 0})
    refusals: dict[str, CardGameError] = {}
    for text, seat in [("9", 1), ("7 7", 0), ("pass", 0), ("KC", 0)]:
        with pytest.raises(CardGameError) as info:
            state.verify(state.parse_action(text, seat), seat)
        refusals[info.value.reason] = info.value
    turn, held = refusals["gouji.not_your_turn"], refusals["gouji.not_held"]
    assert dict(turn.params) == {"seat": 1, "action": "9", "to_act": [0]}
    assert dict(held.params) == {"seat": 0, "action": "7 7", "cards": "7 7"}
    assert refusals["gouji.cards_not_held"].params["cards"] == "KC"
    assert turn.render("en", viewer=1) == "you may not act now: waiting for seat 0"
    assert turn.render("en", viewer=0) == "seat 1 may not act now: waiting for you"
    assert held.render("en", viewer=0) == "you do not hold 7 7"
    assert held.render("en", viewer=2) == "seat 0 does not hold 7 7"
    passing = refusals["gouji.leader_may_not_pass"]
    assert passing.render("en", viewer=0) == "you lead this trick and may not pass"
    assert passing.render("en") == "seat 0 leads this trick and may not pass"
    assert held.render("ja", viewer=0) == "あなたは7 7を持っていません"


def test_japanese_templates_have_no_english_words() -> None:
    """Card notation and the placeholders aside, the Japanese messages are Japanese."""
    ja = {k: v for k, v in catalog("ja").items() if ".gouji." in k or k.startswith("fact.gouji")}
    assert len(ja) > 150
    for key, message in ja.items():
        text = re.sub(r"\{\w+(?::\w+)?\}", "", json.dumps(message, ensure_ascii=False))
        text = re.sub(r'"(plural|person|same|select|one|other|you|yes|no|None|True|agreed|'
                      r'normal|sweep|revolution|duel|final|after_burn|any_joker|coverage|[a-z_ ]+)"',
                      "", text)
        assert not re.search(r"[A-Za-z]", _CARD.sub("", text)), (key, text)


@pytest.mark.parametrize("text", ["draw ²", "draw " + "9" * 5000, "order " + "1" * 5000, "draw ٣",
                                  "order ²", "return ²", "burn ²", "²", "9" * 5000, "\x00", "foul ²"])
def test_parse_action_gives_only_the_projects_errors(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        parse_action(text)


# --- windows that ask every seat ---------------------------------------------------------

def _burn_position(h1: str, h5: str, **options: Any) -> Any:
    """Seat 0 plays K K, a gouji (docs/rules/gouji.md §4.1); X+1 = seat 1 and X+5 = seat 5 may burn if
    their hands allow it (moved from tests/test_view_secrets.py)."""
    game = folkdeck.load("gouji", **options)
    state = game.new_state(hands=["KS KH 3S", h1, "4S", "5S 5H", "6S", h5], setup={"leader": 0})
    state.apply(state.parse_action("K K"))
    return state


def test_gouji_burn_window_history_tells_nothing() -> None:
    a, b = _burn_position("AS AH 7S", "8S 9S 10S"), _burn_position("8S 9S 10S", "AS AH 7S")
    for seat in (0, 2, 4, None):  # (seat 3 sees its teammates' short hands)
        assert a.observe(seat).to_dict() == b.observe(seat).to_dict()
    # both seats answer, one after the other; a seat that cannot burn may only say no
    assert a.to_act == b.to_act == (1,)
    assert [str(x) for x in a.legal_actions(1)] == ["burn A A", "no"]
    assert b.legal_actions(1) == (NO,)
    a.apply(NO, 1)
    b.apply(NO, 1)
    assert a.to_act == b.to_act == (5,)
    for seat in (0, 2, 4, None):
        assert a.observe(seat).to_dict() == b.observe(seat).to_dict()
    check_view_to_act(a)
    check_view_to_act(b)


def test_old_records_keep_the_old_windows() -> None:
    """Without ask_all_seats (a record that does not name it) only a seat that can burn is
    asked, as the record was played."""
    a = _burn_position("AS AH 7S", "8S 9S 10S", ask_all_seats=False)
    b = _burn_position("8S 9S 10S", "AS AH 7S", ask_all_seats=False)
    assert a.to_act == (1,) and b.to_act == (5,)
    for seat in (0, 2, 3, 4, None):
        assert a.observe(seat).to_act == ()


def test_start_and_revolution_windows_ask_every_seat() -> None:
    # docs/rules/gouji.md §2.4, §2.5: 3の同じスート2枚 … 宣言; 革命 (no 2, no joker): every seat is asked in turn,
    # so that the table cannot tell who drew the pair or holds the revolution hand
    hands = _revolution_hands()
    game = folkdeck.load("gouji")
    state = game.new_state(hands=hands, setup={"first_drawer": 0})
    asked = []
    while state.phase == "start":
        seat = state.to_act[0]
        asked.append(seat)
        assert state.observe((seat + 1) % 6).to_act == (seat,)
        state.apply(NO, seat)
    assert asked == [0, 1, 2, 3, 4, 5]
    revolution = []
    while state.phase == "revolution":
        seat = state.to_act[0]
        revolution.append(seat)
        assert NO in state.legal_actions(seat)
        state.apply(NO, seat)
    assert revolution == [0, 1, 2, 3, 4, 5] and state.phase == "play"


def test_the_earliest_pair_leads_when_every_seat_is_asked() -> None:
    # docs/rules/gouji.md §2.4, §11.23: the first player who completes two 3s of one suit while drawing leads
    hands = ["4S 3C 3C", "3H 3H 5S", "4S 4C", "5D 5C", "6S 6H", "7S 7C"]
    state = cast(GouJiGame, folkdeck.load("gouji")).new_state(hands=hands, setup={"first_drawer": 0})
    assert state.legal_actions(0) == (parse_action("declare"), NO)
    run(state, "0: declare", "1: declare", "2: no", "3: no", "4: no", "5: no")
    assert state.leader == 1            # seat 1 completed its pair at the second draw


# --- the match ---------------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESETS)
def test_match_record_round_trip(preset: str) -> None:
    game = folkdeck.load("gouji", preset)
    recorder = MatchRecorder(game, deals=3)
    match = game.new_match(deals=3, rng=random.Random(5))
    rng = random.Random(6)
    while not match.is_over():
        state = match.next_deal()
        recorder.start_deal(state, match.report())
        random_playout(state, rng)
        recorder.finish_deal(state, match.finish_deal(state))
    record = recorder.record(match.standings())
    replayed = loads(dumps(record)).replay()
    assert replayed.standings == match.standings()
    data = json.loads(dumps(record))
    data["deals"][1]["setup"]["places"] = [6, 5, 4, 3, 2, 1]
    with pytest.raises(RecordMismatchError) as bad:
        loads(json.dumps(data)).replay()
    assert bad.value.field == "deals[1].setup.places"
    data = json.loads(dumps(record))
    data["standings"]["carry"]["kai_pai"] = (data["standings"]["carry"]["kai_pai"] + 1) % 6
    with pytest.raises(RecordMismatchError) as wrong:
        loads(json.dumps(data)).replay()
    assert wrong.value.field == "standings.carry"


def test_a_revolution_is_no_finished_deal() -> None:
    """A one-deal match: the revolution's re-deal goes on, and the match ends after it."""
    game = cast(GouJiGame, folkdeck.load("gouji"))
    match = game.new_match(deals=1, rng=random.Random(3))
    state = match.next_deal(deal={"setup": {"special": True, "kai_pai": 0, "first_drawer": 0},
                                  "hands": _revolution_hands()})
    while state.phase == "start":
        state.apply(NO, state.to_act[0])
    run(state, "0: revolution", "2: no", "4: no")
    assert state.result() is not None and state.result().reason == "revolution"  # type: ignore[union-attr]
    assert [f.type for f in match.finish_deal(state)] == ["gouji.next_deal"]
    standings = match.standings()
    assert not match.is_over() and standings.deals_played == 0 and not standings.over
    assert standings.carry["revolution_redeal"] is True
    again = match.next_deal()
    assert again.setup.revolution_redeal and again.setup.special
    random_playout(again, random.Random(4))
    facts = match.finish_deal(again)
    if again.result().reason == "out":  # type: ignore[union-attr]
        assert match.is_over() and match.standings().deals_played == 1
        assert facts[-1].type == "match_ended"


def test_spec_declares_teams_match_end_and_the_determinizer() -> None:

    assert SPEC.teams(6) == ((0, 2, 4), (1, 3, 5))
    assert SPEC.match_end.deals == "count" and SPEC.match_end.default_deals == 6
    assert SPEC.determinizer is DETERMINIZER
    assert SPEC.view_type is GouJiView and SPEC.card_notation == "gouji"
    assert isinstance(SPEC.describe_action(0, parse_action("pass")), Fact)
    view = folkdeck.load("gouji").new_state(seed=1).observe(4).to_dict()
    assert view["opposite"] == 1 and "teams" not in view
    assert TrickWon(seat=1, leader=1).type == "trick_won"
