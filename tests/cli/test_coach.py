"""The terminal's coach: ``t`` asks for a hint on the person's turn, ``w`` reviews their
decisions in the last finished deal, in the browser's words (the catalog's ``ui.hint.*`` and
``ui.review.*``) and in the page's language."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from folkdeck.agents import advice, make_agent
from folkdeck.cli import coach
from folkdeck.cli.render import TerminalRenderer, plain
from folkdeck.engine.record import Record
from folkdeck.engine.registry import get_spec, load
from folkdeck.sim.runner import play_deal

from .conftest import UNRENDERED, Play, english_words, no_ansi

ENOUGH = "1\n" * 3000


@pytest.fixture(autouse=True)
def quick_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints and reviews search a few worlds only (the words, not the strength, are tested)."""
    hint, weigh = advice.advise, advice.review

    def advise(*args: Any, **kwargs: Any) -> advice.Advice:
        return hint(*args, **{**kwargs, "rollouts": 12})

    def review(*args: Any, **kwargs: Any) -> list[advice.Verdict]:
        return weigh(*args, **{**kwargs, "rollouts": 8, "time_limit": 0.05})
    monkeypatch.setattr(coach, "advise", advise)
    monkeypatch.setattr(coach, "review", review)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_t_gives_a_hint_naming_one_of_the_choices(scripted: Play, lang: str) -> None:
    status, out, _ = scripted("kaphai", "--seed", "3", "--deals", "1", "--lang", lang, "--plain",
                              script="t\n" + ENOUGH)
    assert status == 0
    out = no_ansi(out)
    head = "A search bot would play " if lang == "en" else "探索ボットなら"
    hint = next(line for line in out.splitlines() if head in line)
    assert not UNRENDERED.findall(hint)
    if lang == "ja":
        assert not english_words(hint), hint
    else:  # the action is named as the list of choices names it
        named = re.search(r"would play (.+?): over", hint)
        assert named is not None and named.group(1) in out.split(hint)[0], hint


def test_w_before_any_deal_ended_says_there_is_nothing_to_review(scripted: Play) -> None:
    status, out, _ = scripted("kaphai", "--seed", "3", "--deals", "1", "--plain", script="w\n" + ENOUGH)
    assert status == 0 and "No deal of yours has ended yet" in " ".join(out.split())


def test_w_after_a_deal_reviews_every_decision_of_it(scripted: Play) -> None:
    status, out, _ = scripted("kaphai", "--seed", "3", "--deals", "2", "--plain", script="1\n" * 25 + "w\n" + ENOUGH)  # deal 1 takes 18 replies, deal 2 21
    assert status == 0
    out = no_ansi(out)
    assert "Your decisions in deal 1" in out
    summary = re.search(r"(\d+) of your (\d+) decisions? looks? costly", out)
    assert summary is not None
    steps = re.findall(r"^(?:Costly: )?Step \d+: ", out, re.MULTILINE)
    assert len(steps) == int(summary.group(2)) > 0
    assert len([s for s in steps if s.startswith("Costly")]) == int(summary.group(1))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_review_lines_of_a_finished_deal_are_catalog_text(lang: str) -> None:
    game = load("cangkul")
    state = game.new_state(seed=5)
    spec = get_spec("cangkul")
    play_deal(state, [make_agent(spec, "heuristic", game=game) for _ in range(game.num_players)], random.Random(5))
    r = TerminalRenderer.for_game(lang, spec, 0)
    lines = coach.review_lines(Record.from_state(state), 0, 1, spec, r, random.Random(1))
    assert len(lines) >= 3 and not any(UNRENDERED.findall(line) for line in lines)
    if lang == "ja":
        assert not [line for line in lines if english_words(plain(line))], lines


def test_signed_values() -> None:
    assert [coach.signed(v) for v in (1, -0.333, 0.0, None)] == ["+1.00", "-0.33", "0.00", "0.00"]
