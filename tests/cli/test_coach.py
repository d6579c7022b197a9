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


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_next_choice_that_averaged_more_is_said_to_be_no_surer(lang: str) -> None:
    """A search bot's order is its rule's (ISMCTS by visits, Gou Ji's PIMC by its confidence
    rule: docs/bots.md, "Gou Ji's teacher values"), so the next action may have averaged more
    than the one it plays: the hint says that it did, and that it was not clearly better,
    rather than calling it worse; a review says a choice that averaged as much did as well."""
    spec = get_spec("gouji")
    r = TerminalRenderer.for_game(lang, spec, 0)
    lower = advice.Advice("3", "search", (advice.ActionValue("3", 0.5, 20), advice.ActionValue("4", 0.25, 20)))
    higher = advice.Advice("3", "search", (advice.ActionValue("3", 0.5, 20), advice.ActionValue("4", 0.75, 20)))
    plain_hint, unsure_hint = (coach.hint_text(a, r, str) for a in (lower, higher))
    assert plain_hint.endswith(r.message("ui.hint.next", {"action": "4", "value": "+0.25"}))
    assert unsure_hint.endswith(r.message("ui.hint.next_unsure", {"action": "4", "value": "+0.75"}))
    assert "+0.75" in unsure_hint and unsure_hint != plain_hint.replace("+0.25", "+0.75")
    worse = advice.Verdict(4, "4", "3", 0.5, 0.0, 0.5, True, "search")
    level = advice.Verdict(4, "4", "3", 0.5, 0.75, 0.0, False, "search")
    params = {"step": 5, "chosen": "4", "best": "3", "best_value": "+0.50"}
    assert coach.verdict_line(worse, r, str).endswith(
        r.message("ui.review.other", {**params, "value": "0.00", "cost": "+0.50"}))
    assert coach.verdict_line(level, r, str) == r.message("ui.review.as_good", {**params, "value": "+0.75", "cost": "0.00"})
    for line in (unsure_hint, coach.verdict_line(level, r, str)):
        assert not UNRENDERED.findall(line)
        if lang == "ja":
            assert not english_words(plain(line)), line
