"""``folkdeck games`` on a terminal (issue 25): one player count said once, a title with
its parentheses once, and columns that line up from one game's table to the next."""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len
from rich.console import Console

from folkdeck.cli.info import list_games


def _shown(lang: str, width: int = 120) -> list[str]:
    console = Console(force_terminal=True, width=width, record=True, file=io.StringIO(), color_system=None)
    list_games(lang, console)
    return console.export_text().splitlines()


def _borders(line: str, mark: str) -> tuple[int, ...]:
    """Where ``mark`` stands in ``line``, in columns of the screen (a CJK character takes two)."""
    return tuple(cell_len(line[:i]) for i, ch in enumerate(line) if ch == mark)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_columns_line_up_across_the_games(lang: str) -> None:
    lines = _shown(lang)
    heads = [line for line in lines if line.startswith("┃")]
    assert len(heads) == 6  # one table a game
    assert len({_borders(line, "┃") for line in heads}) == 1, heads
    rows = [line for line in lines if line.startswith("│")]
    assert len({_borders(line, "│") for line in rows}) == 1


def test_a_game_for_one_number_of_players_says_it_once() -> None:
    lines = _shown("en")
    assert "  Players: 6" in lines and not any("6–6" in line for line in lines)
    assert "  人数：6人" in _shown("ja")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_title_in_parentheses_is_not_followed_by_more(lang: str) -> None:
    text = "\n".join(_shown(lang))
    assert not any(pair in text for pair in (") (", "）（", ")（"))
    assert ("gouji: Gou Ji — " if lang == "en" else "gouji：ゴウジー（够级） — ") in text
