"""Issue 25: a Japanese screen holds no English word a player reads, proper names and card
notation aside (see ``english_words``): not the Cucco pack's cards (道化, not FOOL), not
the bots' names, not an unexplained letter. Every game's screen as a terminal draws it,
watched and played, and a played match through a pipe."""

from __future__ import annotations

import time

import pytest

import folkdeck

from .conftest import GAMES, UNRENDERED, Play, english_words, no_ansi
from .test_newcomer import Terminal


def _flagged(text: str) -> dict[str, str]:
    """Each English word found, with a line it stands in."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        for word in english_words(line):
            found.setdefault(word, line.strip())
    return found


DEAL_OVER = "ディール終了：Enter"
"""The start of ``cli.play.deal_over_key``: a screen waits there for a key."""


@pytest.mark.parametrize("watch", [True, False], ids=["watched", "played"])
@pytest.mark.parametrize("game", GAMES)
def test_a_japanese_screen_has_no_english_word(game: str, watch: bool) -> None:
    args = ["--watch"] if watch else []
    deals = "1"
    term = Terminal("play", game, "--seed", "4", "--deals", deals, "--lang", "ja", "--delay", "0", *args,
                    rows=40, cols=120, echo=False)
    try:
        term.until("folkdeck")
        waits = 0
        end = time.monotonic() + 60
        while time.monotonic() < end and "マッチ終了" not in no_ansi(term.out):
            if watch:  # the screen waits at each deal's end: space lets the match go on
                if term.out.count(DEAL_OVER) > waits:
                    waits = term.out.count(DEAL_OVER)
                    term.send(" ")
            else:
                term.send("1\r")  # the first choice, or Enter at a deal's end
            term.read(0.1)
        term.send("q" if watch else "q\r")
        assert term.out.count("\x1b[2J") > 3  # screens drawn, not lines printed
    finally:
        term.proc.kill()
    shown = no_ansi(term.out)
    # To the match's end, or (a long Gou Ji deal on a loaded machine) many screens of it.
    assert "マッチ終了" in shown or term.out.count("\x1b[2J") > 50, shown[-1500:]
    assert not UNRENDERED.findall(shown)
    assert not _flagged(shown), _flagged(shown)


@pytest.mark.parametrize("game", GAMES)
def test_the_history_and_help_in_japanese_have_no_english_word(scripted: Play, game: str) -> None:
    bot = ["--bot", "pimc:fast"] if game == "cangkul" else []  # a bot's level is named too
    status, out, _ = scripted(game, "--seed", "7", "--deals", "1", "--lang", "ja", *bot,
                              script="h\n?\nv\n" + "1\n" * 3000)
    assert status == 0
    assert not _flagged(out), _flagged(out)


PRESETS = [(game, preset) for game in GAMES for preset in folkdeck.get_spec(game).presets]


@pytest.mark.parametrize(("game", "preset"), PRESETS, ids=[f"{g}-{p}" for g, p in PRESETS])
def test_every_preset_watched_in_japanese_has_no_english_word(scripted: Play, game: str, preset: str) -> None:
    """Every preset's own rules (a joker, a penalty, a two-pile stock, the modern Gou Ji...)
    bring their own events, phases and glossary: none may show in English."""
    status, out, _ = scripted(game, "--watch", "--preset", preset, "--seed", "3", "--deals", "2",
                              "--delay", "0", "--lang", "ja")
    assert status == 0
    assert "マッチ終了" in out
    assert not UNRENDERED.findall(out)
    assert not _flagged(out), _flagged(out)


@pytest.mark.parametrize("command", [[], ["play"], ["replay"], ["rules"], ["games"]], ids=str)
def test_help_in_japanese_has_no_english_sentence(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    """``folkdeck --lang ja play --help`` is read by a player too: argparse's own words
    (usage, the sections, -h) and the options' help come from the ja catalog."""
    from folkdeck.cli.main import main
    from folkdeck.i18n import catalog

    with pytest.raises(SystemExit):
        main(["--lang", "ja", *command, "--help"])
    text = capsys.readouterr().out
    assert "使い方: folkdeck" in text and "オプション:" in text
    english = [str(v) for k, v in catalog("en").items() if k.startswith("cli.help.") and " " in str(v)]
    english += ["usage:", "positional arguments", "options:", "show this help message"]
    assert not [e for e in english if e.split("{")[0].strip() and e.split("{")[0].strip() in text], text
