"""End-to-end: the replay viewer lays out every seat without overlap (issue 25: at 1280×900
Gou Ji's seat 5 covered seat 4, and Kap Hai's seat 3 was a one-card-wide column over the
result), for 2 to 8 seats and a 39-seat Cambio record, on a desktop and on a phone, and
names the seats as the record names its players (a table's records keep them)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.engine.record import Record
from folkdeck.json_types import JSONValue

CASES = [("kaphai", 2), ("kaphai", 3), ("kaphai", 4), ("cangkul", 5), ("gouji", 6), ("burro_es", 7),
         ("burro_pt", 8), ("cambio", 39)]
SIZES = [(1280, 900), (390, 844)]


def _record(game: str, players: int, steps: int) -> dict[str, Any]:
    """A seeded deal of ``game`` played ``steps`` random moves in, with its players' names."""
    g = folkdeck.load(game, players=players)
    state = g.new_match(deals=1, rng=random.Random(players)).next_deal()
    rng = random.Random(1)
    agents = [make_agent(g.spec, "random") for _ in range(players)]
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_act[0]
        state.apply(agents[seat].act(state.observe(seat), state.legal_actions(seat), rng), seat)
    names: list[JSONValue] = [f"Player {chr(65 + i % 26)}{i // 26 or ''}" for i in range(players)]
    return Record.from_state(state, players=names).to_dict()


def _overlaps(boxes: list[dict[str, float]]) -> list[tuple[int, int]]:
    def meet(a: dict[str, float], b: dict[str, float]) -> bool:
        return (a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5
                and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5)
    return [(i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes)) if meet(boxes[i], boxes[j])]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_no_seat_covers_another_and_seats_have_names(server: str, browser: Any, tmp_path: Path,
                                                     game: str, players: int) -> None:
    path = tmp_path / f"{game}-{players}.json"
    record = _record(game, players, steps=6)
    path.write_text(json.dumps(record))
    for width, height in SIZES:
        page = browser.new_page(viewport={"width": width, "height": height})
        try:
            page.add_init_script("localStorage.setItem('folkdeck.lang', 'en')")
            page.goto(server + "/replay")
            page.set_input_files("#file", str(path))
            page.wait_for_selector("#ring .replay-seat")
            seats = page.locator("#ring .replay-seat")
            assert seats.count() == players
            boxes = page.eval_on_selector_all("#ring .replay-seat, #ring .replay-centre, .replay-controls, #outcome",
                                              "els => els.filter((e) => e.offsetParent).map((e) => e.getBoundingClientRect().toJSON())")
            assert not _overlaps(boxes), (width, _overlaps(boxes))
            for box in boxes[:players]:
                assert box["width"] >= 100, (width, box)  # never a one-card-wide column
            heads = page.eval_on_selector_all(  # each seat by its number (they sit round the oval)
                "#ring .replay-seat", "els => els.sort((a, b) => a.dataset.seat - b.dataset.seat)"
                ".map((e) => e.querySelector('.replay-seat-head strong').textContent)")
            assert heads == record["players"], heads
        finally:
            page.close()
