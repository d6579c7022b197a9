"""End-to-end: a Gou Ji revolution at a one-deal table deals the cards again and the match
goes on. A player whose complete hand holds no 2 and no joker may call a revolution; the deal
is then dealt again and is no completed deal (docs/rules/gouji.md §2.5 and §8: a match of
``deals`` deals counts only the deals that ended with places), whether a person clicks the
offered button or a bot calls it.

Before the fix, the table counted the revolution's deal as its one deal: "Match over",
every seat at 0, "Deals played: 0 of 1".
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import folkdeck
from tests.e2e.conftest import ARTIFACTS, call, open_page, play_lines, seeded_table
from tests.e2e.test_out_of_turn import Among, _follow


def _revolution_seed(seat: int = 0, seeds: int = 200) -> tuple[int, list[tuple[int, str]], list[tuple[int, str]]]:
    """A seed whose first deal offers ``seat`` a revolution once every seat before it said
    ``no`` to the windows, those answers, and the teammates' answers (``no``: no objection)
    that let the revolution stand."""
    game = folkdeck.load("gouji")
    for seed in range(seeds):
        state = game.new_match(deals=1, rng=random.Random(seed)).next_deal()
        lines: list[tuple[int, str]] = []
        while state.to_act and len(lines) < 40:
            s = state.to_act[0]
            legal = {str(a): a for a in state.legal_actions(s)}
            if s == seat and "revolution" in legal:
                state.apply(legal["revolution"], s)
                after: list[tuple[int, str]] = []
                while not state.is_over() and state.to_act:
                    t = state.to_act[0]
                    state.apply({str(a): a for a in state.legal_actions(t)}["no"], t)
                    after.append((t, "no"))
                assert state.is_over() and state.result() is not None, "the revolution stood"
                return seed, lines, after
            if "no" not in legal:
                break
            state.apply(legal["no"], s)
            lines.append((s, "no"))
    raise AssertionError(f"no seed in 0..{seeds} offers seat {seat} a revolution")


@pytest.mark.parametrize(("caller", "lang"), [("button", "en"), ("button", "ja"), ("bot", "en")])
def test_a_revolution_deals_again_and_the_one_deal_match_goes_on(server: str, browser: Any, caller: str,
                                                                 lang: str) -> None:
    """The revolution called by the person's click on the offered button, or by a bot."""
    seed, lines, objections = _revolution_seed()
    if caller == "button":
        t = seeded_table(server, "gouji", seed=seed, players=6, deals=1)
        play_lines(server, t, lines)
        page = open_page(browser, server + t["seats"][0]["link"], lang)
    else:  # seat 0 a "first" bot: its first legal action, when it may, is the revolution
        t = seeded_table(server, "gouji", seed=seed, players=6, deals=1, kinds=["bot"] + ["human"] * 5)
        page = open_page(browser, server + t["seats"][1]["link"], lang)
    try:
        if caller == "button":
            button = page.locator("button[data-action='revolution']")
            button.wait_for()
            before = page.evaluate("document.body.dataset.progress")
            button.click()
            page.wait_for_function("b => document.body.dataset.progress !== b", arg=before)
        else:
            _follow(server, t, Among("gouji", 6, seed, {}, 1, (2, 3, 4, 5), [*lines, (0, "revolution")]))
        play_lines(server, t, objections)  # the caller's teammates do not object
        page.wait_for_selector("#results li")
        _, pub = call(server, "GET", f"/api/tables/{t['id']}")
        assert pub["match_over"] is False
        assert pub["deal"] == 2 and pub["match_deal"] == 1  # dealt again, still the match's first deal
        assert pub["standings"]["deals_played"] == 0
        assert pub["results"][0]["reason"] == "revolution" and pub["results"][0]["counted"] is False
        assert page.locator("#result-box").count() == 0 or "match" not in page.inner_text("#result-box").lower()
        header = page.inner_text("#deal")
        assert re.search(r"1\s*/\s*1", header), header
        assert not re.search(r"2\s*/\s*1", page.inner_text("body")), "a second deal of a one-deal match"
        catalog = json.loads((Path(folkdeck.__file__).parent / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        assert catalog["ui.match_over"] not in page.inner_text("body")
        if lang == "ja":
            assert "Revolution" not in page.inner_text("#results")
        page.wait_for_selector("#hand .card")  # the new deal's cards
        page.screenshot(path=str(ARTIFACTS / f"gouji-revolution-{caller}-{lang}.png"), full_page=True)
    finally:
        page.close()
