"""The terminal's side of one match (:class:`TerminalTable`): where it prints, in which
language, for whom, and how a screen is drawn in place (the table, the latest events, the
person's choices and notes) or, through a pipe, printed line by line."""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from folkdeck.cli.render import TerminalRenderer, event_lines, styled, view_lines
from folkdeck.cli.screen import Pace
from folkdeck.engine.facts import Played, TrickWon
from folkdeck.engine.protocol import GameSpec, State
from folkdeck.engine.record import Record
from folkdeck.engine.view import TablePlay, View


@dataclass(slots=True)
class TerminalTable:
    """The terminal's side of one match: where it prints, in which language, for whom."""

    console: Console
    spec: GameSpec
    r: TerminalRenderer
    human: int | None
    teams: tuple[tuple[int, ...], ...]
    rng: random.Random = field(default_factory=random.Random)
    screen: bool = False
    """Redraw one screen in place (a terminal) instead of printing line by line."""
    pace: Pace | None = None
    header: list[str] = field(default_factory=list)
    shown: int = 0
    """Events of the current deal printed so far."""
    last_view: View | None = None
    """The view drawn last in this deal, and after how many events."""
    viewed_at: int = -1
    log: deque[str] = field(default_factory=lambda: deque(maxlen=400))
    """The latest lines of the match (a screen shows as many as fit)."""
    notes: list[str] = field(default_factory=list)
    """Lines for the person under the table until the next action (a refusal, help)."""
    trick: list[TablePlay] = field(default_factory=list)
    last_trick: tuple[TablePlay, ...] = ()
    trick_told: tuple[TablePlay, ...] = ()
    deal_title: str = ""
    finished: tuple[int, Record] | None = None
    """The last finished deal's number and record, for the person's review (``w``)."""

    # --- output ----------------------------------------------------------------------
    def say(self, text: str, style: str = "") -> None:
        """A line of the match's story: printed, or kept for the screen's log."""
        if self.screen:
            self.log.append(text)
        else:
            self.console.print(styled(text, style), soft_wrap=True)

    def note(self, text: str) -> None:
        """A line for the person now (a refusal, the help): under the table on a screen."""
        if self.screen:
            self.notes.append(text)
        else:
            self.console.print(styled(text), soft_wrap=True)

    def rule(self, text: str) -> None:
        if self.screen:
            self.log.append(f"── {text} ──")
        else:
            self.console.rule(styled(text))

    def new_deal(self, title: str) -> None:
        self.shown, self.last_view, self.viewed_at = 0, None, -1
        self.trick, self.last_trick, self.deal_title = [], (), title
        self.rule(title)

    # --- the table -------------------------------------------------------------------
    def table_lines(self, state: State, *, again: bool = False) -> list[str]:
        view = state.observe(self.human)
        hands = ([state.observe(s).hand for s in range(view.num_players)]
                 if self.human is None else None)
        since = None if again or self.screen else self.last_view
        lines = view_lines(view, self.r, teams=self.teams, since=since, hands=hands)
        if self.last_trick and (self.screen or self.last_trick is not self.trick_told):
            # The trick's last round (a shedding trick can run long): what won it and how.
            plays = self.last_trick[-view.num_players:]
            lines.insert(len(lines) - 1, self.r.cli("view.last_trick", {"plays": "  ".join(
                self.r.cli("view.table_play", {"seat": p.seat, "cards": p.cards}, sentence=False)
                for p in plays)}))
            self.trick_told = self.last_trick
        self.last_view, self.viewed_at = view, len(state.history)
        return lines

    def show_view(self, state: State, *, again: bool = False) -> None:
        """Line mode: print the table (``again``: in full, even if nothing happened since)."""
        if self.viewed_at == len(state.history) and not again:
            return
        for line in self.table_lines(state, again=again):
            self.console.print(styled(line), soft_wrap=True)

    def draw(self, state: State, choices: list[str] | None = None) -> None:
        """Screen mode: the whole table, redrawn in place, in the terminal's height: the
        latest events get the rows the rest leaves (rows as drawn, wrapped lines counted),
        and the banner shrinks to its first line when the table needs its rows."""
        console = self.console
        body = Panel(Group(*(styled(line) for line in self.table_lines(state))), title=styled(self.deal_title),
                     title_align="left", border_style="cyan")
        below = [styled(line) for line in [*(choices or []), *self.notes]]
        header = Panel(Group(*(styled(line) for line in self.header)), title="folkdeck")
        used = rows(console, body) + sum(rows(console, line) for line in below) + 1  # the cursor's row
        if used + rows(console, header) + 5 > console.height:
            header = Panel(styled(self.header[0]), title="folkdeck")
        room = console.height - used - rows(console, header) - 2  # the latest panel's borders
        console.clear()
        console.print(header)
        if room > 0:
            latest = last_rows(console, [styled(line) for line in self.log], room)
            console.print(Panel(Group(*latest), title=styled(self.r.cli("screen.latest")), title_align="left"))
        console.print(body)
        for line in below:
            console.print(line, soft_wrap=True)

    def show_new_events(self, state: State) -> bool:
        """Tell the events not told yet, as the human (or a spectator) may see them; keep
        the plays of the trick so that the last trick can be shown once it is won."""
        if len(state.history) <= self.shown:
            return False
        for event in state.observe(self.human).history:
            if event.index < self.shown:
                continue
            head, *facts = event_lines(event, self.r)
            self.say(head)
            for line in facts:
                self.say("  " + line)
            for fact in (event.act, *event.facts):
                if isinstance(fact, Played):
                    self.trick.append(TablePlay(seat=fact.seat, cards=fact.cards))
                elif isinstance(fact, TrickWon):
                    self.last_trick, self.trick = tuple(self.trick), []
        self.shown = len(state.history)
        return True


def rows(console: Console, renderable: RenderableType) -> int:
    """The rows ``renderable`` takes on ``console`` (its lines wrapped at the width)."""
    return len(console.render_lines(renderable, console.options, pad=False))


def last_rows(console: Console, lines: list[Text], room: int) -> list[Text]:
    """The latest ``lines`` that fit in ``room`` rows inside a panel, oldest first."""
    width = max(console.width - 4, 10)
    kept: list[Text] = []
    for line in reversed(lines):
        room -= max(len(line.wrap(console, width)), 1)
        if room < 0:
            break
        kept.append(line)
    return kept[::-1]


__all__ = ["TerminalTable", "last_rows", "rows"]
