"""Issue 25: on a narrow terminal (80 columns) and a common one (120) no cell of the
terminal's tables is cut to "…": a card, an option's name, a bot's name stay whole; cells
wrap, or the layout changes (``folkdeck games`` lists the options one under another when a
table would squeeze them). Every game, both languages."""

from __future__ import annotations

import dataclasses
import io
import random
import re

import pytest
from rich.console import Console

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.cli.arena import table as arena_table
from folkdeck.cli.bench import bench_table, run
from folkdeck.cli.info import list_games, option_rows
from folkdeck.cli.render import TerminalRenderer, plain
from folkdeck.cli.table import TerminalTable
from folkdeck.engine.protocol import Game, State
from folkdeck.sim.arena import ArenaConfig, run_arena
from folkdeck.sim.runner import offer_interrupts

from .conftest import GAMES

WIDTHS = (80, 120)


def _console(width: int) -> Console:
    return Console(force_terminal=True, width=width, height=40, record=True, file=io.StringIO(),
                   color_system=None, highlight=False)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_option_name_stays_whole_in_the_games_list(lang: str, width: int) -> None:
    console = _console(width)
    list_games(lang, console)
    text = console.export_text()
    r = TerminalRenderer(lang)
    authored = 0
    for game in GAMES:
        for row in option_rows(folkdeck.get_spec(game), r):
            assert re.search(rf"(^|[\s│]){re.escape(row[0])}($|[\s│])", text, re.M), (game, row[0])
            authored += sum(cell.count("…") for cell in row)
    assert text.count("…") <= authored  # an ellipsis the catalogs wrote, never one of a cut


@pytest.mark.parametrize("width", WIDTHS)
def test_the_arena_and_bench_tables_wrap_instead_of_cutting(width: int) -> None:
    summary = run_arena(ArenaConfig(game="kaphai", bots=("first", "random", "first", "random"), deals=1))
    long_names = ("search:strong", "openspiel-ismcts")
    summary = dataclasses.replace(summary, bots=tuple(
        dataclasses.replace(b, name=name) for b, name in zip(summary.bots, long_names, strict=False)))
    console = _console(width)
    console.print(arena_table(summary, 1.0, 1, "process"))
    console.print(bench_table(run(["kaphai"], seconds=0.02)))
    text = console.export_text()
    assert "…" not in text
    assert all(name in text for name in long_names)


def _mid_deal(game: str, seed: int) -> tuple[Game, State]:
    """A game of ``game`` and one of its deals some way in, played by the ``first`` bot."""
    loaded = folkdeck.load(game)
    state = loaded.new_match(rng=random.Random(seed)).next_deal()
    agents = [make_agent(loaded.spec, "first", game=loaded) for _ in range(loaded.num_players)]
    rng = random.Random(seed)
    for _ in range(12):
        if state.is_over():
            break
        if not offer_interrupts(state, agents, rng):
            seat = state.to_act[0]
            state.apply(agents[seat].act(state.observe(seat), state.legal_actions(seat), rng), seat)
    return loaded, state


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", GAMES)
def test_the_play_screen_shows_every_card_whole(game: str, lang: str, width: int) -> None:
    loaded, state = _mid_deal(game, 5)
    spec = loaded.spec
    console = _console(width)
    for human in (None, 0):  # watched (every hand) and played
        r = TerminalRenderer.for_game(lang, spec, human)
        table = TerminalTable(console, spec, r, human, spec.teams(loaded.num_players), screen=True)
        table.header = ["folkdeck " + r.bot("search:strong") + " " * 3 + str(spec.title) * 3, *r.pack_legend()]
        table.deal_title = r.cli("play.deal_of", {"number": 12, "limit": 20})
        table.show_new_events(state)
        lines = [plain(line) for line in table.table_lines(state)]
        table.draw(state)
        text = console.export_text()
        assert "…" not in text
        cards = {card for line in lines for card in line.split() if any(s in card for s in "♠♣♦♥🪙🍷⚔🪵")}
        words = set(text.split())
        assert cards <= words | {c.rstrip("、,·") for c in words}, cards - words
