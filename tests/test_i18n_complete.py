"""Every event, status, refusal and error the engines produce renders in both languages.

Over ≥ 200 random deals of every game and preset: every event's action fact and facts,
every view's status facts and result reason, the match reports between deals, and the
refusals of illegal attempts (another seat's action, an action legal earlier, garbage
text) are rendered in English and Japanese. No message key may be missing, Japanese may
hold no English word (card notation and proper names aside), and English no plural slip
such as "1 points" or "1 cards". The catalogs' plural rules agree with Babel's CLDR data.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

import folkdeck
from folkdeck.cards import PACKS
from folkdeck.engine.errors import CardGameError
from folkdeck.engine.facts import Fact
from folkdeck.engine.registry import get_spec
from folkdeck.i18n import LANGUAGES, Renderer, catalog, display_card, notations, plural_category

DEALS = 200
GARBAGE = ("99", "0", "zz", "draw ²", "pass pass", "3X", "", "play", "10H 10H 10H 10H 10H")

# Card notation and display notation, Cucco names, and words that are names, not English.
_CARDS = {str(c) for pack in PACKS.values() for c in pack.cards}
_CARDS |= {display_card(c, n, symbols=s) for c in _CARDS for n in notations() for s in (False, True)}
_NAMES = {"Kap", "Hai", "Gou", "Ji", "Cambio", "Cangkul", "Burro", "Cucco", "JSON", "UTF", "BOM",
          "seed", "deck", "hands", "stock", "setup", "actions", "rules", "format", "key", "value",
          "true", "false", "S", "C", "D", "H", "BJ", "RJ", "J", "Q", "K", "A", "T", "V", "R", "E", "B",
          "O", "P", "folkdeck", "record", "match", "Da", "La", "Tou", "Ke", "Er", "San", "Si"}
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
_SLIP = re.compile(r"(?<![Ss]eat )\b1 (points|cards|chips|penalties|tricks|deals)\b")
_UNRENDERED = re.compile(r"\b(fact|error|term|ui|cli)\.[a-z_.]+")


def _cases() -> list[tuple[str, str | None]]:
    return [(name, preset) for name in folkdeck.games() for preset in (None, *get_spec(name).presets)]


def _texts(name: str, preset: str | None) -> Iterator[tuple[str, str, str]]:
    """(language, what, text) for everything rendered over the random deals of one case."""
    game = folkdeck.load(name, preset)
    spec = game.spec
    deals = DEALS // (10 if name == "gouji" else 1)
    rng = random.Random(f"{name}-{preset}")
    facts: dict[str, Fact] = {}
    errors: dict[str, CardGameError] = {}
    for _ in range(deals):
        match = game.new_match(rng=random.Random(rng.getrandbits(32)))
        state = match.next_deal()
        for f in match.report():
            facts.setdefault(f.to_dict().__repr__(), f)
        earlier = None
        steps = 0
        while not state.is_over() and steps < 3000:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if earlier is not None and rng.random() < 0.2:
                for attempt in earlier:
                    try:
                        state.apply(attempt, seat)
                    except CardGameError as exc:
                        errors.setdefault(exc.reason, exc)
                        break
                    else:  # legal after all: carry on from the changed state
                        break
                if state.is_over():
                    break
                seat = state.to_act[0]
                legal = state.legal_actions(seat)
            if rng.random() < 0.05:
                text = rng.choice(GARBAGE)
                try:
                    state.parse_action(text, seat)
                except CardGameError as exc:
                    errors.setdefault(exc.reason, exc)
            if len(state.to_act) > 1 or rng.random() < 0.05:
                other = (seat + 1) % state.num_players
                if other not in state.to_act:
                    try:
                        state.apply(legal[0], other)
                    except CardGameError as exc:
                        errors.setdefault(exc.reason, exc)
            earlier = legal
            state.apply(legal[rng.randrange(len(legal))], seat)
            steps += 1
        for event in state.history:
            if spec.describe_action is not None:
                act = spec.describe_action(event.seat, event.action)
                facts.setdefault(repr(act.to_dict()), act)
            for f in event.facts:
                facts.setdefault(repr(f.to_dict()), f)
        for seat in (None, *range(state.num_players)):
            view = state.observe(seat)
            for f in view.status:
                facts.setdefault(repr(f.to_dict()), f)
        if state.is_over():
            for f in match.finish_deal(state):
                facts.setdefault(repr(f.to_dict()), f)
    for lang in LANGUAGES:
        for viewer in (None, 0):
            r = Renderer(lang, game=spec.name, viewer=viewer, notation=spec.card_notation)
            for f in facts.values():
                yield lang, f"fact {f.type}", r.fact(f)
            for error in errors.values():
                text = error.render(lang)
                for value in error.params.values():  # what the player typed (or may type) is
                    for item in value if isinstance(value, list) else [value]:  # repeated, not ours
                        if isinstance(item, str) and item:
                            text = text.replace(item, " ")
                yield lang, f"error {error.reason}", text
        r = Renderer(lang, game=spec.name)
        for term in (*spec.windows, spec.match_end.reason):
            yield lang, f"term {term}", r.term(term)


@pytest.mark.parametrize(("name", "preset"), _cases(), ids=lambda v: str(v))
def test_everything_renders_in_both_languages(name: str, preset: str | None) -> None:
    problems = []
    for lang, what, text in _texts(name, preset):
        if not text or _UNRENDERED.search(text):
            problems.append(f"{lang} {what}: missing message: {text!r}")
        elif lang == "ja":
            words = [w for w in _WORD.findall(text) if w not in _CARDS and w not in _NAMES
                     and w.upper() not in _CARDS]
            if words:
                problems.append(f"ja {what}: English {words} in {text!r}")
        elif _SLIP.search(text):
            problems.append(f"en {what}: plural slip in {text!r}")
    assert not problems, "\n".join(sorted(set(problems))[:40])


def test_the_catalogs_have_the_same_keys() -> None:
    assert set(catalog("en")) == set(catalog("ja"))


def test_plural_rules_agree_with_cldr() -> None:
    babel = pytest.importorskip("babel")
    for lang in LANGUAGES:
        locale = babel.Locale.parse(lang)
        for n in (0, 1, 2, 3, 5, 11, 21, 100, 1.5):
            assert plural_category(lang, n) == locale.plural_form(n), (lang, n)
