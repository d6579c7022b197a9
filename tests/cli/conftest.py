"""Helpers of the terminal's tests: a scripted player, and what a Japanese screen may hold."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest

import folkdeck
from folkdeck.cards import PACKS
from folkdeck.cli.main import main
from folkdeck.i18n import catalog, display_card, notations

GAMES = folkdeck.games()

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
UNRENDERED = re.compile(r"\b(fact|error|term|ui|cli)\.[a-z_.]+")
"""A catalog key left as it is: the message is missing."""

# What may stand in Japanese text in Latin letters: card notation as shown (but not a card
# the game names in the catalog: the Cucco pack's FOOL is 道化), proper names, the game's
# titles, the terminal's command letters (h t w r v q) and ranks named alone (A が最強).
_JA = catalog("ja")
_CARDS = {str(c) for pack in PACKS.values() for c in pack.cards}
_NAMED = {c for c in _CARDS if any(f"term.{game}.{c}" in _JA for game in GAMES)}
_CARDS = {display_card(c, n, symbols=s) for c in _CARDS - _NAMED for n in notations() for s in (False, True)}
_NAMES = {"Kap", "Hai", "Gou", "Ji", "Cambio", "Cangkul", "Burro", "Cucco", "JSON", "folkdeck", "Enter",
          "Da", "La", "Tou", "Ke", "Er", "San", "Si", "h", "r", "v", "q", "t", "w", "BJ", "RJ", "J", "Q", "K", "A",
          # suit and rank letters of the notation named alone (the suits are S C D H)
          "S", "C", "D", "H", "T", "V", "R", "E", "B", "O", "P"}
_LETTER_NOTE = re.compile(r"[(（][A-Z][)）]")
"""A letter in brackets after a name, as in "the four 2s (E)": a reference to the rules
document's list that nothing on the screen explains."""
_TOKEN = re.compile(r"[0-9A-Za-z♠♣♦♥']+")
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")


def english_words(text: str) -> list[str]:
    """Latin words of ``text`` that are neither card notation nor a name (see above)."""
    return [*_LETTER_NOTE.findall(text), *(word for token in _TOKEN.findall(text) if token not in _CARDS
                                            for word in _WORD.findall(token) if word not in _NAMES)]


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
