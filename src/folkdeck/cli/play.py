"""``folkdeck play GAME``: a match in the terminal, one human against bots.

Every game plays through the same loop: the human's view is drawn from the game's typed
view (:mod:`folkdeck.cli.render`), each event is printed as it happens, in order, as the
human may see it, what the match reports before and after each deal is printed from its
facts, and the match's standings close it. ``--record FILE`` writes the match as
``folkdeck-match/1`` (:mod:`folkdeck.engine.match_record`), even when the player quits.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel

from folkdeck.agents import make_agent
from folkdeck.cli.errors import CliError
from folkdeck.cli.info import rules_text
from folkdeck.cli.render import (
    TerminalRenderer,
    event_lines,
    option_label,
    standings_lines,
    styled,
    unmarked,
    view_lines,
)
from folkdeck.engine.errors import CardGameError
from folkdeck.engine.match_record import MatchRecorder, dumps
from folkdeck.engine.options import parse_assignments
from folkdeck.engine.protocol import GameSpec, Match, State
from folkdeck.engine.registry import get_spec, load
from folkdeck.engine.view import View
from folkdeck.sim.runner import offer_interrupts

MAX_LISTED = 40  # a Gou Ji lead can have thousands of legal plays: number only some
QUIT = ("q", "quit", "exit")


class _Quit(Exception):
    pass


@dataclass(slots=True)
class _Table:
    """The terminal's side of one match: where it prints, in which language, for whom."""

    console: Console
    spec: GameSpec
    r: TerminalRenderer
    human: int | None
    teams: tuple[tuple[int, ...], ...]
    shown: int = 0
    """Events of the current deal printed so far."""
    rng: random.Random = field(default_factory=random.Random)
    last_view: View | None = None
    """The view drawn last in this deal, and after how many events."""
    viewed_at: int = -1

    def say(self, text: str, style: str = "") -> None:
        self.console.print(styled(text, style), soft_wrap=True)

    def new_deal(self) -> None:
        self.shown, self.last_view, self.viewed_at = 0, None, -1

    def show_view(self, state: State, *, again: bool = False) -> None:
        """Draw the table (``again``: in full, even if nothing happened since)."""
        if self.viewed_at == len(state.history) and not again:
            return
        view = state.observe(self.human)
        for line in view_lines(view, self.r, teams=self.teams, since=None if again else self.last_view):
            self.say(line)
        self.last_view, self.viewed_at = view, len(state.history)

    def show_new_events(self, state: State) -> None:
        """Print the events not printed yet, as the human (or a spectator) may see them."""
        if len(state.history) <= self.shown:
            return
        for event in state.observe(self.human).history:
            if event.index >= self.shown:
                head, *facts = event_lines(event, self.r)
                self.say(head)
                for line in facts:
                    self.say("  " + line)
        self.shown = len(state.history)


def play(args: argparse.Namespace, lang: str) -> int:
    spec = get_spec(args.game)
    options: dict[str, Any] = parse_assignments(args.rules)
    if args.players is not None:
        options["players"] = args.players
    game = load(spec.name, args.preset, **options)
    n = game.num_players
    if not 0 <= args.seat < n:
        raise CliError("no_such_seat", seat=args.seat, last=n - 1)
    record_path = Path(args.record) if args.record else None
    if record_path is not None and not record_path.parent.is_dir():
        raise CliError("no_folder", path=str(record_path.parent))
    human = None if args.watch else args.seat
    rng = random.Random(args.seed)
    agents = [make_agent(spec, args.bot, game=game) for _ in range(n)]
    r = TerminalRenderer.for_game(lang, spec, human)
    table = _Table(Console(highlight=False), spec, r, human, spec.teams(n), rng=rng)
    title = str(r.messages.get(f"term.{spec.name}.title", spec.title))
    welcome = r.cli("play.welcome" if human is not None else "play.welcome_watch",
                    {"title": title, "players": n, "seat": human})
    table.console.print(Panel(styled(welcome + "\n" + r.cli("play.help")), title="folkdeck"))
    match = game.new_match(deals=args.deals, rng=rng)
    recorder = MatchRecorder(game, deals=args.deals) if record_path is not None else None
    try:
        try:
            _play_match(table, match, recorder, agents)
        except (_Quit, EOFError):
            table.say(r.cli("play.bye"))
        else:
            table.console.rule(styled(r.cli("play.match_over")))
            for line in standings_lines(match.standings(), r, table.teams):
                table.say(line)
    finally:  # a match left half-way (q, end of input, Ctrl-C) is recorded as far as it went
        if recorder is not None and record_path is not None:
            _write(record_path, dumps(recorder.record(match.standings())) + "\n")
            table.say(r.cli("play.recorded", {"path": str(record_path)}))
    return 0


def _play_match(table: _Table, match: Match, recorder: MatchRecorder | None, agents: list[Any]) -> None:
    r = table.r
    deal = 0
    while not match.is_over():
        deal += 1
        state = match.next_deal()
        before = match.report()
        if recorder is not None:
            recorder.start_deal(state, before)
        table.console.rule(styled(r.cli("play.deal", {"number": deal})))
        for fact in before:
            table.say(r.fact(fact))
        _play_deal(table, state, agents)
        table.show_view(state)
        after = match.finish_deal(state)
        if recorder is not None:
            recorder.finish_deal(state, after)
        for fact in after:
            table.say(r.fact(fact))
        if not match.is_over():
            for line in standings_lines(match.standings(), r, table.teams):
                table.say(line)


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError("cannot_write", path=str(path), detail=exc.strerror or type(exc).__name__) from exc


def _play_deal(table: _Table, state: State, agents: list[Any]) -> None:
    table.new_deal()
    human = table.human
    waived_at = -1  # history length at which the human let an out-of-turn chance go
    skip = frozenset({human}) if human is not None else frozenset()
    table.show_new_events(state)  # what the deal began with, if anything
    if human is not None:
        table.show_view(state)
    while not state.is_over():
        before = len(state.history)
        acting = state.to_act
        if human is not None and human in acting and (acting[0] == human or waived_at != before):
            if not offer_interrupts(state, agents, table.rng, skip=skip) and not _human_turn(
                    table, state, human):
                waived_at = before
        elif not offer_interrupts(state, agents, table.rng, skip=skip):
            seat = acting[0]
            action = agents[seat].act(state.observe(seat), state.legal_actions(seat), table.rng)
            state.apply(action, seat)
        table.show_new_events(state)


def _options(table: _Table, seat: int, legal: tuple[Any, ...]) -> None:
    """The legal actions, numbered (only some when there are very many)."""
    describe = table.spec.describe_action
    if len(legal) > MAX_LISTED:
        numbered = [*enumerate(legal[:MAX_LISTED - 1], 1), (len(legal), legal[-1])]
    else:
        numbered = list(enumerate(legal, 1))
    labels = [table.r.cli("play.option", {"number": i, "label": option_label(
        describe(seat, a) if describe is not None else None, a, table.r)}, sentence=False)
        for i, a in numbered]
    table.say(table.r.cli("play.options", {"options": "  ".join(labels)}))
    if len(legal) > MAX_LISTED:
        table.say(table.r.cli("play.more_options", {"count": len(legal) - MAX_LISTED}))


def _human_turn(table: _Table, state: State, seat: int) -> bool:
    """Ask the human for an action; False if they let an out-of-turn chance go."""
    r = table.r
    legal = state.legal_actions(seat)
    required = state.to_act[0] == seat
    table.show_view(state)
    _options(table, seat, legal)
    if not required:
        table.say(r.cli("play.may_wait"))
    while True:
        text = unmarked(table.console.input("[bold cyan]> [/]")).strip()
        if not text:
            if not required:
                return False
            continue
        command = text.lower()
        if command in QUIT:
            raise _Quit
        if command in ("h", "history"):
            history = state.observe(seat).history
            for event in history:
                for line in event_lines(event, r):
                    table.say(line)
            if not history:
                table.say(r.cli("play.no_history"))
            continue
        if command in ("r", "rules"):
            rules = rules_text(table.spec.name)
            table.console.print(Markdown(rules) if rules else r.cli("play.no_rules"))
            continue
        if command in ("v", "view"):
            table.show_view(state, again=True)
            _options(table, seat, legal)
            continue
        if command in ("?", "help"):
            table.say(r.cli("play.help"))
            continue
        try:
            state.apply(_chosen(text, legal, state, seat), seat)
            return True
        except CardGameError as exc:
            table.say(r.cli("play.refused", {"reason": r.error(exc)}))
        except CliError as exc:
            table.say(r.cli("play.refused", {"reason": r.cli(f"error.{exc.reason}", exc.params,
                                                                 sentence=False)}))


def _chosen(text: str, legal: tuple[Any, ...], state: State, seat: int) -> Any:
    """The action a reply names: a whole number picks from the list (any number from 1 to
    the count, listed or not); anything else is the action in the game's grammar."""
    if text.isascii() and text.isdigit():
        number = int(text)
        if not 1 <= number <= len(legal):
            raise CliError("no_such_choice", choice=number, count=len(legal))
        return legal[number - 1]
    return state.parse_action(text, seat)
