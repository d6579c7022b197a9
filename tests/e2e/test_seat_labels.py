"""End-to-end: a seat's label says what the view's typed fields say (issue 25). At deal over
it is the seat's place in the result (``result.placings``, the place Results names), never
"out, 1st" for a Cambio seat the FOOL disqualified (placed 2nd) nor "out" for a seat still
holding cards; during the deal a disqualified seat is "disqualified", not "out, 1st"."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from folkdeck.engine.facts import fact_from_dict
from folkdeck.engine.protocol import State
from folkdeck.i18n import Renderer
from tests.e2e.conftest import call, open_page, play_lines, seeded_table
from tests.e2e.test_out_of_turn import _start


def _random_deal(game: str, players: int, seed: int) -> tuple[State, list[tuple[int, str]]]:
    """The server's deal for ``seed`` played to its end by random legal actions."""
    state = _start(game, players, {}, seed)
    rng = random.Random(seed)
    lines: list[tuple[int, str]] = []
    while not state.is_over():
        seat = state.to_act[0]
        action = rng.choice(list(state.legal_actions(seat)))
        state.apply(action, seat)
        lines.append((seat, str(action)))
    return state, lines


def _cambio_with_a_disqualification() -> tuple[int, list[tuple[int, str]], list[int | None], int]:
    """A seed whose random deal disqualifies a seat that the result places below first."""
    for seed in range(300):
        state, lines = _random_deal("cambio", 4, seed)
        view = state.observe(None)
        result = state.result()
        placings = list(result.placings) if result else []
        if view.out and placings[view.out[0]] != 1:
            return seed, lines, placings, view.out[0]
    raise AssertionError("no seed in 0..300 disqualifies a seat placed below first")


def _labels(page: Any) -> dict[int, str]:
    """Each seat's facts, and the place badge of a seat gone out (its place is shown once,
    there, not again among its facts)."""
    labels = {}
    for el in page.query_selector_all("#seats .seat"):
        facts = [el.query_selector(".meta").inner_text()]
        badge = el.query_selector(".place-badge")
        labels[int(el.get_attribute("data-seat"))] = " · ".join(facts + ([badge.inner_text()] if badge else []))
    return labels


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_disqualified_cambio_seat_is_labelled_by_its_place(server: str, browser: Any, lang: str) -> None:
    seed, lines, placings, dq = _cambio_with_a_disqualification()
    table = seeded_table(server, "cambio", seed, 4, deals=1)
    play_lines(server, table, lines)
    page = open_page(browser, server + table["seats"][0]["link"], lang)
    try:
        page.wait_for_selector("#result-box")
        R = Renderer(lang, game="cambio")
        labels = _labels(page)
        for seat, place in enumerate(placings):
            # its place, once (issue 35: a seat gone out showed it twice)
            assert place is not None and labels[seat].split(" · ").count(R.message("ui.seat_place", {"place": place})) == 1, (seat, labels)
        assert R.message("ui.out_place", {"place": 1}) not in labels[dq], labels
    finally:
        page.close()


def test_every_seat_at_a_deals_end_shows_its_result_place(server: str, browser: Any) -> None:
    """Gou Ji: the seats still holding cards at the end are placed by the result, not "out";
    the result gives each player their place with its own points and each team its score (the
    quick start's per-place points add up for the team: no team score beside a player as if
    their own),
    and once the match is over nothing says who starts the next deal."""
    state, lines = _random_deal("gouji", 6, 3)
    result = state.result()
    assert result is not None and None not in result.placings  # Gou Ji places every seat
    placings = [p for p in result.placings if p is not None]
    table = seeded_table(server, "gouji", 3, 6, deals=1)
    play_lines(server, table, lines)
    _, public = call(server, "GET", f"/api/tables/{table['id']}")
    assert public["match_over"]
    page = open_page(browser, server + table["seats"][0]["link"])
    try:
        page.wait_for_selector("#result-box")
        R = Renderer("en", game="gouji")
        labels = _labels(page)
        for seat, place in enumerate(placings):
            parts = labels[seat].split(" · ")
            assert R.message("ui.seat_place", {"place": place}) in parts and not any(p.startswith("out") for p in parts), (seat, labels)
        rows = page.inner_text("#result-box")
        # Beside each player the points of their place (+4 +2 0 0 -2 -4, docs/rules/gouji.md
        # §8), never the team's total as if their own.
        places_line = page.inner_text("#result-box .rows")  # the deal's rows (the match's winner first)
        own = [int(p) for p in re.findall(r"\(([+-]?\d+)\)", places_line)]
        assert own == [(4, 2, 0, 0, -2, -4)[p - 1] for p in placings], rows
        assert "Team scores: your team" in rows, rows
        next_deal = [f for r in public["results"] for f in r["facts"] if f["type"].endswith("next_deal")]
        assert next_deal, public["results"]  # the server sends the fact: the page leaves it out
        shown = page.inner_text("#results")
        assert all(R.fact(fact_from_dict(f)) not in shown for f in next_deal), shown
    finally:
        page.close()
