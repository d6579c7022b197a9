"""Terminal rendering: card notation coloured, with suit symbols, via Rich markup."""

from __future__ import annotations

import re

from rich.markup import escape

_CARD = re.compile(r"(?<![\w-])(10|[2-9JQKA])([SCDH])(?!\w)|(?<!\w)(BJ|RJ)(?!\w)")
_SYMBOL = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def _card(match: re.Match[str]) -> str:
    if match.group(3):
        joker = match.group(3)
        return f"[bold {'red' if joker == 'RJ' else 'bright_white'}]{joker}[/]"
    rank, suit = match.group(1), match.group(2)
    colour = "red" if suit in "DH" else "bright_white"
    return f"[bold {colour}]{rank}{_SYMBOL[suit]}[/]"


def colour_cards(text: str) -> str:
    """Rich markup for text holding card notation: ``10H`` becomes a red ``10♥``.

    >>> colour_cards("4C 10H")
    '[bold bright_white]4♣[/] [bold red]10♥[/]'
    """
    return _CARD.sub(_card, escape(text))
