"""The terminal's screen (issue 25): what a person asks to read stays on the screen until
they have read it."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

from folkdeck.cli import screen

from .conftest import no_ansi
from .test_newcomer import Terminal

CLEAR = "\x1b[2J"


def test_the_history_stays_on_the_screen_until_enter() -> None:
    """Issue 25, broken 7: ``h`` printed the history and the table was redrawn over it."""
    term = Terminal("play", "kaphai", "--seed", "1", "--deals", "1", "--delay", "0", rows=40, cols=120)
    try:
        term.until(r"Your options:")
        term.send("1\r")
        term.until(r"Your options:[\s\S]*Your options:")
        term.send("h\r")
        term.until(r"back to the table", 10)
        term.read(1.5)  # time for a redraw that would hide it
        last_screen = term.out.rsplit(CLEAR, 1)[-1]
        assert "The deal so far" in last_screen and "You play" in last_screen, last_screen[-2000:]
        assert "Your options:" not in last_screen  # the table is not drawn over the history
        term.send("\r")
        term.read(1.5)
        assert "Your options:" in term.out.rsplit(CLEAR, 1)[-1]  # Enter: back to the table
        term.send("q\r")
        assert term.close() == 0
    finally:
        term.proc.kill()


def test_a_long_text_is_held_a_screenful_at_a_time() -> None:
    answers = iter(["", "", ""])
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=60, height=12, color_system=None)
    console.input = lambda prompt="", **_: (console.print(prompt), next(answers))[1]  # type: ignore[method-assign,func-returns-value]
    screen.hold(console, Text("\n".join(f"line {n}" for n in range(20))), title="history",
                more="more", back="back")
    shown = out.getvalue()
    assert "history (1/3)" in shown and "history (3/3)" in shown
    assert all(f"line {n} " in shown for n in range(20))
    assert shown.count("more") == 2 and shown.rstrip().endswith("back")


def test_q_leaves_a_held_text_early() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=60, height=12, color_system=None)
    console.input = lambda prompt="", **_: "q"  # type: ignore[method-assign]
    screen.hold(console, Text("\n".join(f"line {n}" for n in range(20))), title="history",
                more="more", back="back")
    assert "line 0 " in out.getvalue() and "line 19" not in out.getvalue()


def test_a_watched_gou_ji_frame_fits_a_120_by_40_terminal() -> None:
    """Issue 25: six hands of 30-odd cards made a 48-line frame, taller than the screen,
    so that every redraw scrolled. The latest events get only the rows the table leaves."""
    term = Terminal("play", "gouji", "--watch", "--seed", "1", "--deals", "1", "--delay", "0.05",
                    rows=40, cols=120)
    try:
        term.until(r"Seat 5 \(\d+ cards\)")
        term.read(4)
        frames = term.out.split(CLEAR)[1:-1]
        assert len(frames) > 5
        heights = [len(no_ansi(frame).rstrip("\n").split("\n")) for frame in frames]
        assert max(heights) <= 40, heights
        assert all("Seat 5 (" in no_ansi(frame) for frame in frames)  # the table is whole
        term.send("q")
        assert term.close() == 0
    finally:
        term.proc.kill()
