"""Helpers of the terminal's tests: a scripted player, and what a Japanese screen may hold."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest

import folkdeck
from folkdeck.cards import PACKS
from folkdeck.cli.main import main
from folkdeck.i18n import display_card, notations

GAMES = folkdeck.games()

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
UNRENDERED = re.compile(r"\b(fact|error|term|ui|cli)\.[a-z_.]+")
"""A catalog key left as it is: the message is missing."""

# What may stand in Japanese text in Latin letters: card notation as shown, proper names,
# the game's titles, the terminal's command letters (h r v q) and the record words that
# are the input grammar itself.
_CARDS = {str(c) for pack in PACKS.values() for c in pack.cards}
_CARDS |= {display_card(c, n, symbols=s) for c in _CARDS for n in notations() for s in (False, True)}
_NAMES = {"Kap", "Hai", "Gou", "Ji", "Cambio", "Cangkul", "Burro", "Cucco", "JSON", "folkdeck", "Enter",
          "Da", "La", "Tou", "Ke", "Er", "San", "Si", "h", "r", "v", "q",
          "S", "C", "D", "H", "BJ", "RJ", "J", "Q", "K", "A", "T", "V", "R", "E", "B", "O", "P"}
# Bot names are what --bot takes (the input grammar, like card notation): a screen names
# the bots a person faces by them.
_NAMES |= {part for game in GAMES for bot in folkdeck.get_spec(game).bots for part in bot.split(":")}
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")


def english_words(text: str) -> list[str]:
    """Latin words of ``text`` that are neither card notation nor a name (see above)."""
    return [w for w in _WORD.findall(text)
            if w not in _CARDS and w not in _NAMES and w.upper() not in _CARDS]


def no_ansi(text: str) -> str:
    return _ANSI.sub("", text)


Play = Callable[..., tuple[int, str, str]]


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Play:
    """Run ``folkdeck play ARGS`` in this process with ``script`` as the player's input;
    the exit status and what was printed on stdout and stderr."""

    def run(*args: str, script: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(script))
        status = main(["play", *args])
        captured = capsys.readouterr()
        return status, no_ansi(captured.out), captured.err

    return run
