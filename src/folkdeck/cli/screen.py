"""The terminal as a screen: single keys, the pace of a watched match, and a pager.

``folkdeck play`` draws a whole table that is redrawn in place when both ends are a
terminal; through a pipe it prints line by line (see :mod:`folkdeck.cli.play`). This
module holds what only a terminal has: keys read one at a time without Enter
(:class:`Keys`), the pace of ``--watch`` with its step keys (:class:`Pace`), and long
text shown through a pager (:func:`page`) or held on the screen until a key
(:func:`hold`).

>>> pace = Pace(delay=0.0)
>>> pace.wait()  # no keys, no delay: returns at once
>>> pace.faster().delay, Pace(delay=1.0).slower().delay
(0.0, 1.5)
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.segment import Segment, Segments

WATCH_DELAY = 1.0
"""Seconds per event of a watched match on a terminal (``--delay``; keys change it)."""
PLAY_DELAY = 0.4
"""Seconds per bot's event while a person plays on a terminal: enough to see it happen."""
QUIT_KEYS = frozenset("qQ")
STEP_KEYS = frozenset("\r\nnN")
PAUSE_KEYS = frozenset(" pP")


class Quit(Exception):
    """The person asked to leave (``q``)."""


class Keys:
    """Single keys from a terminal (cbreak mode while in use); ``None`` from a pipe."""

    def __init__(self, stream: IO[str]) -> None:
        self.fd = stream.fileno()
        self._saved: list[int | list[bytes | int]] | None = None
        """The terminal's modes before cbreak (``termios.tcgetattr``), to be restored."""

    @classmethod
    def of(cls, stream: IO[str]) -> Keys | None:
        """Keys for ``stream`` if it is a terminal this system can read key by key."""
        try:
            import termios  # noqa: F401 - POSIX only

            return cls(stream) if stream.isatty() else None
        except (ImportError, AttributeError, OSError, ValueError):
            return None

    def __enter__(self) -> Keys:
        import termios
        import tty

        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc: object) -> None:
        self.restore()

    def restore(self) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def read(self, timeout: float | None) -> str | None:
        """One key, or ``None`` when ``timeout`` seconds pass first (``None``: wait)."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        data = os.read(self.fd, 16).decode(errors="replace")
        return data[:1] if data else "q"  # end of input: leave


@dataclass(slots=True)
class Pace:
    """How fast a watched match goes: ``delay`` seconds an event, or one step a key.

    Keys (a terminal only): space pauses and goes on, Enter (or ``n``) shows the next
    event and pauses, ``+`` and ``-`` change the speed, ``q`` quits.
    """

    delay: float
    keys: Keys | None = None
    paused: bool = False

    def faster(self) -> Pace:
        self.delay = round(self.delay / 1.5, 3)
        return self

    def slower(self) -> Pace:
        self.delay = round(max(self.delay, 0.1) * 1.5, 3)
        return self

    def wait(self) -> None:
        """Wait before the next event: the delay, or until a key says go on.

        :raises Quit: on ``q``.
        """
        if self.keys is None:
            if self.delay > 0:
                time.sleep(self.delay)
            return
        deadline = time.monotonic() + self.delay
        while True:
            left = None if self.paused else deadline - time.monotonic()
            if left is not None and left <= 0:
                return
            key = self.keys.read(left)
            if key is None:
                continue
            if key in QUIT_KEYS:
                raise Quit
            if key in STEP_KEYS:
                self.paused = True
                return
            if key in PAUSE_KEYS:
                self.paused = not self.paused
                if not self.paused:
                    return
            elif key == "+":
                self.faster()
                deadline = time.monotonic() + self.delay
            elif key == "-":
                self.slower()
                deadline = time.monotonic() + self.delay


def is_screen(console: Console, stdin: IO[str] | None = None) -> bool:
    """Whether to draw a screen: output and input are both a terminal (not a pipe, not
    a test's captured output, not ``TERM=dumb``)."""
    stream = sys.stdin if stdin is None else stdin
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError):
        interactive = False
    return console.is_terminal and not console.is_dumb_terminal and interactive


def page(console: Console, renderable: RenderableType) -> None:
    """Long text (a game's rules, a deal's history) through ``less`` on a terminal, so
    that it can be read from its start; printed as it is elsewhere."""
    if not console.is_terminal:
        console.print(renderable)
        return
    with console.capture() as captured:
        console.print(renderable)
    text = captured.get()
    pager = os.environ.get("PAGER", "")
    command = pager.split() if pager else (["less", "-R", "-F", "-X"] if shutil.which("less") else [])
    if not command:
        console.print(renderable)
        return
    env = {**os.environ, "LESS": os.environ.get("LESS", "") + " -R"}
    try:
        subprocess.run(command, input=text, text=True, env=env, check=False)
    except OSError:
        console.print(renderable)


def hold(console: Console, renderable: RenderableType, *, title: str, more: str, back: str) -> None:
    """Text shown in a panel over the table until the person presses Enter, a screenful at
    a time (``more`` asks for the next one, ``back`` ends; ``q`` leaves early): the table
    is redrawn only afterwards, so nothing draws over the text while it is read."""
    width = max(console.width - 4, 20)  # the panel's borders and padding
    rows = console.render_lines(renderable, console.options.update_width(width), pad=False)
    size = max(console.height - 4, 3)  # the panel's two borders, the prompt and its line
    pages = [rows[start:start + size] for start in range(0, len(rows), size)] or [[]]
    for number, chunk in enumerate(pages, 1):
        body = Segments([segment for i, line in enumerate(chunk)
                         for segment in (*line, *([Segment.line()] if i < len(chunk) - 1 else []))])
        heading = f"{title} ({number}/{len(pages)})" if len(pages) > 1 else title
        console.clear()
        console.print(Panel(Group(body), title=heading, title_align="left"))
        reply = console.input(more if number < len(pages) else back)
        if reply.strip().lower() in QUIT_KEYS:
            return


@contextmanager
def keys_released(keys: Keys | None) -> Iterator[None]:
    """The terminal back in line mode for a while (a pager, a line of input)."""
    if keys is None or keys._saved is None:
        yield
        return
    keys.restore()
    try:
        yield
    finally:
        keys.__enter__()


__all__ = ["PLAY_DELAY", "WATCH_DELAY", "Keys", "Pace", "Quit", "hold", "is_screen", "keys_released",
           "page"]
