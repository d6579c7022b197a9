"""English and Japanese: every UI key and every game term exists in both languages.

``web/terms.js`` holds the UI text (``TEXT``) and each game's terms (``TERMS``) as strict JSON,
read here without a browser. The games' own vocabulary (phases, shape names, action words,
result reasons, Gou Ji's modes) is collected by playing seeded deals with the engine, so a
new word in an engine fails this test until both languages name it. The Japanese terms are
the seeds' (000 Kap Hai, 001 Gou Ji, 002 Cambio/Cucco, 003 Cangkul and the Burros).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import folkdeck
from folkdeck.agents import make_agent

WEB = Path(folkdeck.__file__).parent / "web"


def _consts() -> dict[str, Any]:
    text = (WEB / "terms.js").read_text(encoding="utf-8")
    found = dict(re.findall(r"export const (\w+) = (\{.*?\});\n", text, flags=re.S))
    return {name: json.loads(body) for name, body in found.items()}


CONSTS = _consts()
TEXT, TERMS = CONSTS["TEXT"], CONSTS["TERMS"]


def test_ui_text_has_the_same_keys_in_both_languages() -> None:
    assert set(TEXT["en"]) == set(TEXT["ja"])
    assert all(TEXT["ja"][k].strip() for k in TEXT["ja"]), "an empty Japanese text"


def test_every_key_used_by_the_pages_exists_in_both_languages() -> None:
    used: set[str] = set()
    for path in WEB.glob("*.js"):
        used |= set(re.findall(r"\bt\(\"(\w+)\"[,)]", path.read_text(encoding="utf-8")))
    for path in WEB.glob("*.html"):
        used |= set(re.findall(r'data-t="(\w+)"', path.read_text(encoding="utf-8")))
    assert len(used) > 40
    for lang in ("en", "ja"):
        assert not used - set(TEXT[lang]), f"{lang}: missing {sorted(used - set(TEXT[lang]))}"


def test_every_refusal_code_has_a_heading() -> None:
    """The table heads a refusal by its code (``t("err_" + code)``): the engine's action errors
    and the WebSocket's own codes (``server/api/ws.py``)."""
    from folkdeck.engine import errors

    codes = {cls.code for cls in vars(errors).values() if isinstance(cls, type)
             and issubclass(cls, errors.CardGameError) and cls.code not in ("error",)
             and (issubclass(cls, (errors.IllegalActionError, errors.InvalidNotationError))
                  or cls.__name__ == "AmbiguousActionError")}
    codes |= {"bad_message", "too_large", "spectator", "bad_token"}
    assert {"not_your_turn", "illegal_action", "wrong_phase"} <= codes
    for lang in ("en", "ja"):
        assert not {f"err_{c}" for c in codes} - set(TEXT[lang]), lang


def test_game_terms_have_the_same_keys_in_both_languages() -> None:
    assert set(TERMS["en"]) == set(TERMS["ja"]) == set(folkdeck.games())
    for game in folkdeck.games():
        en, ja = TERMS["en"][game], TERMS["ja"][game]
        assert set(en) == set(ja), game
        for group in en:
            if isinstance(en[group], dict):
                assert set(en[group]) == set(ja[group]), (game, group)


def _word(action: str) -> str | None:
    """The word of a non-card action (``pass``, ``burn 9 9`` -> ``burn``); None for cards."""
    head = action.split()[0]
    return head if head.isalpha() and head.islower() else action if action in ("draw left", "draw right") else None


OPTIONS = {"kaphai": [{}, {"putuh_optional": True}], "gouji": [{}], "cambio": [{}],
           "cangkul": [{}], "burro_es": [{}], "burro_pt": [{}]}


def _vocabulary(game: str) -> Iterator[tuple[str, str]]:
    """(group, key) for every term the engine showed in a few seeded deals."""
    for options in OPTIONS[game]:
        for seed in range(4 if game != "gouji" else 2):
            g = folkdeck.load(game, **options)
            rng = random.Random(seed)
            match = g.new_match(deals=2, rng=random.Random(seed))
            for _ in range(2):
                state = match.next_deal()
                agents = [make_agent(g.spec, "random") for _ in range(state.num_players)]
                while not state.is_over():
                    obs = state.observe(None).to_dict()
                    yield "phases", obs["phase"]
                    if obs.get("top_name"):
                        yield "shapes", obs["top_name"]
                    if obs.get("mode"):
                        yield "modes", obs["mode"]
                    for seat in state.to_act:
                        for a in state.legal_actions(seat):
                            word = _word(str(a))
                            if word:
                                yield "actions", word
                    seat = state.to_act[0]
                    state.apply(agents[seat].act(state.observe(seat), state.legal_actions(seat), rng), seat)
                result = state.result()
                yield "phases", state.observe(None).to_dict()["phase"]
                if result is not None:
                    yield "reasons", result.reason
                match.finish_deal(state)
                if match.is_over():
                    break


@pytest.mark.parametrize("game", list(folkdeck.games()))
def test_every_engine_term_is_named_in_both_languages(game: str) -> None:
    seen = set(_vocabulary(game))
    assert {g for g, _ in seen} >= {"phases", "actions", "reasons"}
    for lang in ("en", "ja"):
        terms = TERMS[lang][game]
        missing = sorted((g, k) for g, k in seen if k not in terms[g])
        assert not missing, f"{game} ({lang}) has no term for {missing}"
    ja = TERMS["ja"][game]
    untranslated = sorted((g, k) for g, k in seen if ja[g][k] and re.fullmatch(r"[\x00-\x7f]+", ja[g][k]))
    assert not untranslated, f"{game}: Japanese terms still in English: {untranslated}"


def test_kap_hai_shapes_use_the_seed_katakana() -> None:
    """Seed 000 §Ⅳ: カーレー, ポリッヒ, アオップ, ポルー, パエカーレー, トングファーソン; §Ⅴ プトゥッフ."""
    ja = TERMS["ja"]["kaphai"]
    assert [ja["shapes"][k] for k in ("kare", "police", "aop", "polu", "pae-kare", "tong-farson")] == [
        "カーレー", "ポリッヒ", "アオップ", "ポルー", "パエカーレー", "トングファーソン"]
    assert "プトゥッフ" in ja["actions"]["putuh"] and "タウ" in ja["actions"]["pass"]
    assert "(カーレー)" in TERMS["en"]["kaphai"]["shapes"]["kare"]  # English keeps the native term


def test_cucco_and_gouji_terms_follow_the_seeds() -> None:
    """Seed 002: 梟 … 道化 and the call 「クク」; seed 001: 革命, 先让让 (シエンランラン), シャオパイ."""
    cambio = TERMS["ja"]["cambio"]
    assert cambio["cards"]["OWL"] == "梟" and cambio["cards"]["FOOL"] == "道化"
    assert "クク" in cambio["actions"]["cucco"]
    gouji = TERMS["ja"]["gouji"]["actions"]
    assert "先让让" in gouji["xian"] and "シャオパイ" in gouji["burn"] and "革命" in gouji["revolution"]


@pytest.mark.parametrize("game", list(folkdeck.games()))
def test_every_lobby_option_has_a_japanese_label(game: str) -> None:
    from folkdeck.engine.options import describe_options

    names = {n for n, _, _ in describe_options(folkdeck.get_spec(game).options_type)} - {"players"}
    assert names == set(TERMS["ja"][game]["options"]) == set(TERMS["en"][game]["options"])
    assert all(not re.fullmatch(r"[\x00-\x7f]+", v) for v in TERMS["ja"][game]["options"].values())
    assert not re.fullmatch(r"[\x00-\x7f]*", TERMS["ja"][game]["summary"])  # the lobby's one-line summary
