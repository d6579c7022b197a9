"""The browser's text, read without a browser: its own messages (``ui.*`` in
the ``ui.*`` keys of ``i18n/<lang>.json``) and what it needs of the games' catalogs.

The pages render every sentence from the message catalogs (``web/i18n.js`` mirrors
``folkdeck.i18n``): no game name in the web code, no phrase table, every ``ui`` key the
pages use in both languages, and every term a table shows (phases, results, the words of
the actions it offers, option names) named by the game's catalog in both languages. The
games' vocabulary is collected by playing seeded deals with the engine.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.i18n import catalog

WEB = Path(folkdeck.__file__).parent / "web"
GAMES = list(folkdeck.games())


def _ui(lang: str) -> dict[str, Any]:
    """The browser's own messages: the ``ui.*`` keys of the language's catalog."""
    return {k: v for k, v in catalog(lang).items() if k.startswith("ui.")}


def _code(path: Path) -> str:
    """A script without its comments (a comment may say which game a rule came from)."""
    text = path.read_text(encoding="utf-8")
    return re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)


def test_no_game_name_in_the_web_code() -> None:
    """What differs between games comes from the spec and the catalogs, never from a name."""
    pattern = re.compile(r"kaphai|gouji|cambio|cangkul|burro", re.IGNORECASE)
    for path in sorted(WEB.glob("*.js")) + sorted(WEB.glob("*.html")):
        found = pattern.findall(path.read_text(encoding="utf-8"))
        assert not found, f"{path.name} names a game: {sorted(set(found))}"


def test_no_phrase_table_nor_term_table_left() -> None:
    assert not (WEB / "terms.js").exists()
    for path in WEB.glob("*.js"):
        code = _code(path)
        assert "PHRASES" not in code and "TERMS" not in code, path.name
        # a regex over a sentence would be text parsed back: the only regexes left read
        # notation (cards, placeholders) or Markdown
        assert "prose(" not in code, path.name


def test_web_messages_have_the_same_keys_in_both_languages() -> None:
    en, ja = _ui("en"), _ui("ja")
    assert set(en) == set(ja)
    assert all(k.startswith("ui.") for k in en)
    assert all(ja[k] for k in ja), "an empty Japanese message"


def _strings(message: Any) -> Iterator[str]:
    if isinstance(message, dict):
        for key, value in message.items():
            if key not in ("plural", "person", "same", "select"):
                yield from _strings(value)
    else:
        yield str(message)


def test_japanese_web_messages_have_no_english_word() -> None:
    allowed = {"folkdeck", "English"}  # the product's name; the language switch names its language
    for key, message in _ui("ja").items():
        for text in _strings(message):
            words = set(re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[^}]*\}", "", text))) - allowed
            assert not words, f"{key}: {words} in {text!r}"


def test_english_counts_take_plural_forms() -> None:
    """A count next to a noun is a plural object in English ("1 card", "2 cards")."""
    counted = re.compile(r"\{(\w+)(:num)?\} (cards?|points?|chips?|penalt(y|ies)|seconds?)\b")
    for key, message in _ui("en").items():
        if isinstance(message, str):
            assert not counted.search(message), f"{key}: {message!r} needs a plural form"


def _used_keys() -> set[str]:
    used: set[str] = set()
    for path in WEB.glob("*.js"):
        code = _code(path)
        used |= {f"ui.{k}" for k in re.findall(r"\b(?:R\.ui|t)\(\"([\w.]+)\"", code)}
        used |= set(re.findall(r"\"(ui\.[\w.]+)\"", code))
    for path in WEB.glob("*.html"):
        used |= {f"ui.{k}" for k in re.findall(r'data-t="(\w+)"', path.read_text(encoding="utf-8"))}
    return used


def test_every_key_used_by_the_pages_exists_in_both_languages() -> None:
    used = _used_keys()
    assert len(used) > 50
    for lang in ("en", "ja"):
        assert not used - set(_ui(lang)), f"{lang}: missing {sorted(used - set(_ui(lang)))}"


def test_refusal_headings_name_only_what_the_reason_does_not_say() -> None:
    """The table heads a refusal by its code (``ui.error.<code>``) only for the engine's
    action errors; a code whose reason says it all ("this link opens no seat") has no
    heading, so the text is not said twice."""
    from folkdeck import errors

    codes = {cls.code for cls in vars(errors).values() if isinstance(cls, type)
             and issubclass(cls, errors.CardGameError)
             and issubclass(cls, (errors.IllegalActionError, errors.InvalidNotationError, errors.AmbiguousActionError))}
    assert {"not_your_turn", "illegal_action", "wrong_phase", "invalid_notation"} <= codes
    for lang in ("en", "ja"):
        ui = _ui(lang)
        assert not {f"ui.error.{c}" for c in codes} - set(ui), lang
        assert "ui.error.bad_token" not in ui and "ui.error.spectator" not in ui


# --- what the table needs of the games' catalogs -------------------------------------------

OPTIONS: dict[str, list[dict[str, Any]]] = {"kaphai": [{}, {"putuh_optional": True}]}
CARD = re.compile(r"^((10|[2-9JQKA])[SHDC]?|BJ|RJ)$")


def _vocabulary(game: str) -> Iterator[tuple[str, str]]:
    """(what, term key) for every term a table shows in a few seeded deals: phases, the
    result's reasons, table labels, and the words of the non-card actions it offers."""
    for options in OPTIONS.get(game, [{}]):
        for seed in range(3 if game != "gouji" else 1):
            g = folkdeck.load(game, **options)
            rng = random.Random(seed)
            state = g.new_match(deals=1, rng=random.Random(seed)).next_deal()
            agents = [make_agent(g.spec, "random") for _ in range(state.num_players)]
            while True:
                view = state.observe(None)
                yield "phase", str(view.to_dict()["phase"])
                for play in view.table:
                    if play.label:
                        yield "label", play.label
                if state.is_over():
                    break
                for seat in state.to_act:
                    for action in state.legal_actions(seat):
                        for word in str(action).split():
                            if not CARD.match(word) and not word.isdigit():
                                yield "action", word
                seat = state.to_act[0]
                state.apply(agents[seat].act(state.observe(seat), state.legal_actions(seat), rng), seat)
            result = state.result()
            if result is not None:
                yield "reason", result.reason


def _named(lang: str, game: str, what: str, key: str) -> bool:
    messages = catalog(lang)
    if what == "action" and (f"term.{game}.action.{key}" in messages or f"ui.action.{key}" in messages):
        return True  # a button's label (the table's actionLabel)
    return f"term.{game}.{key}" in messages or f"term.{key}" in messages


@pytest.mark.parametrize("game", GAMES)
def test_every_term_a_table_shows_is_named_in_both_languages(game: str) -> None:
    """Phases, results, table labels, and every word of the actions a table offers as
    buttons (``GameSpec.action_words`` and the words seen in play)."""
    words = {w for w in folkdeck.get_spec(game).action_words if not CARD.match(w) and not w.isdigit()}
    seen = set(_vocabulary(game)) | {("action", w) for w in words}
    assert {what for what, _ in seen} >= {"phase", "reason"}
    for lang in ("en", "ja"):
        missing = sorted((what, key) for what, key in seen if not _named(lang, game, what, key))
        assert not missing, f"{game} ({lang}): the catalog names no term for {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_lobby_option_is_named_in_both_languages(game: str) -> None:
    from folkdeck.engine.options import describe_options

    names = {n for n, _, _ in describe_options(folkdeck.get_spec(game).options_type)} - {"players"}
    for lang in ("en", "ja"):
        messages = catalog(lang)
        missing = sorted(n for n in names if f"term.{game}.option.{n}" not in messages)
        assert not missing, f"{game} ({lang}): no option name for {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_the_lobby_names_each_game_in_japanese(game: str) -> None:
    """The lobby's game list and one-line summary read ``term.<game>.title`` / ``.summary``."""
    messages = catalog("ja")
    assert f"term.{game}.title" in messages, f"{game}: no Japanese title"
    assert not re.fullmatch(r"[\x00-\x7f]*", str(messages.get(f"term.{game}.summary", ""))), \
        f"{game}: no Japanese summary"


ROOT = Path(__file__).resolve().parents[1]


def _quick_start(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    start = re.search(r"^## (?:Quick start|クイックスタート)\n", text, flags=re.M)
    assert start, path
    return text[start.end():text.index("\n## ", start.end())]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_quick_starts_tell_a_browser_player_what_to_press(lang: str) -> None:
    """The browser's rules panel shows the quick start: it says how to start in the browser
    (the lobby's button and the rules button by their names), not only in a terminal."""
    ui = _ui(lang)
    folder = ROOT / "docs" / "rules" / ("ja" if lang == "ja" else "")
    for path in sorted(folder.glob("*.md")):
        quick = re.sub(r"\s*\n\s*", "", _quick_start(path)) if lang == "ja" else " ".join(_quick_start(path).split())
        assert ui["ui.create_table"] in quick and ui["ui.rules"] in quick, path


def test_the_japanese_cambio_quick_start_names_the_calls_as_the_buttons_do() -> None:
    quick = _quick_start(ROOT / "docs" / "rules" / "ja" / "cambio.md")
    ja = catalog("ja")
    for call in ("change", "keep", "cucco"):
        assert f"`{call}`" not in quick and str(ja[f"term.cambio.{call}"]) in quick, call
