"""The seats line's marks (issue 25, broken 5): a seat's place is the one the result gives,
a seat that still holds cards did not go out, and a disqualified seat is not first."""

from __future__ import annotations

import random
import re

import pytest

from folkdeck.cli.render import TerminalRenderer, plain, view_lines
from folkdeck.engine.facts import Disqualified
from folkdeck.engine.protocol import State
from folkdeck.engine.registry import get_spec, load
from folkdeck.i18n import ordinal


def _finished(game: str, seed: int) -> State:
    state = load(game).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_act[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


def _seat_marks(state: State, lang: str) -> dict[int, str]:
    """Each seat's marks in the seats line of a spectator's view (what is in brackets)."""
    view = state.observe(None)
    r = TerminalRenderer.for_game(lang, get_spec(view.game), None)
    seats_line = next(plain(line) for line in view_lines(view, r) if line.startswith(
        r.cli("view.seats", {"seats": ""}).rstrip()))
    seat_word = "seat" if lang == "en" else "席"
    found = dict(re.findall(rf"{seat_word} ?(\d+):? \d+\S* ?[(（]([^)）]*)[)）]", seats_line, re.IGNORECASE))
    return {int(seat): marks for seat, marks in found.items()}


# Deals found by their seeds: Gou Ji and Burro deals that end with a seat holding cards,
# a Cambio deal in which a seat is disqualified (docs/rules/cambio.md §6.1).
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("game", "seed"), [("gouji", 0), ("burro", 0), ("cambio", 2)])
def test_a_finished_deals_seats_show_the_results_places(game: str, seed: int, lang: str) -> None:
    state = _finished(game, seed)
    view = state.observe(None)
    assert view.result is not None
    placings = view.result["placings"]
    assert isinstance(placings, list)
    marks = _seat_marks(state, lang)
    holding = [s for s, count in enumerate(view.counts) if count]
    disqualified = {f.seat for f in view.status if isinstance(f, Disqualified)}
    assert holding or disqualified  # the seeds give the cases the issue names
    for seat, place in enumerate(placings):
        assert ordinal(lang, place) in marks[seat].split("、" if lang == "ja" else " · "), (seat, marks)
        assert "out" not in marks[seat] and "上がり" not in marks[seat], (seat, marks)
    for seat in disqualified:
        assert ("disqualified" if lang == "en" else "失格") in marks[seat]


def test_a_disqualified_seat_is_not_counted_among_those_out_during_the_deal() -> None:
    """During a Cambio deal a disqualified seat is in the view's ``out``: not "out, 1st"."""
    state = load("cambio").new_state(seed=2)
    rng = random.Random(2)
    while not state.is_over():
        view = state.observe(None)
        disqualified = {f.seat for f in view.status if isinstance(f, Disqualified)}
        if disqualified:
            marks = _seat_marks(state, "en")
            assert all(marks[s] == "disqualified" for s in disqualified), marks
            return
        seat = state.to_act[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    pytest.fail("no disqualification before the end of this deal")
