"""``folkdeck play GAME``: a match in the terminal, one human against bots (or only bots,
``--watch``).

Every game plays through the same loop, drawn from the game's typed view
(:mod:`folkdeck.cli.render`) and its events as the human may see them. On a terminal the
table is one screen redrawn in place: who you face, the seats, the table and the last
trick, the latest events, your hand and your choices; a watched match goes at a pace with
step keys (:mod:`folkdeck.cli.screen`) and shows every hand. Through a pipe the same
text comes line by line, in order. ``--record FILE`` writes the match as
``folkdeck-match/1`` (:mod:`folkdeck.engine.match_record`), even when the player quits.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import deque
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.panel import Panel
from rich.text import Text

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
from folkdeck.cli.screen import PLAY_DELAY, WATCH_DELAY, Keys, Pace, Quit, hold, is_screen, page
from folkdeck.engine.errors import CardGameError
from folkdeck.engine.facts import Played, TrickWon
from folkdeck.engine.gameinfo import Action
from folkdeck.engine.match_base import start_match
from folkdeck.engine.match_record import MatchRecorder, dumps
from folkdeck.engine.options import parse_assignments
from folkdeck.engine.protocol import Game, Match, State
from folkdeck.engine.registry import get_spec, load
from folkdeck.engine.spec import GameAgent, GameSpec
from folkdeck.engine.view import TablePlay, View
from folkdeck.sim.runner import offer_interrupts

MAX_LISTED = 40  # a Gou Ji lead can have thousands of legal plays: number only some
QUIT = ("q", "quit", "exit")


@dataclass(slots=True)
class _Table:
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
        used = _rows(console, body) + sum(_rows(console, line) for line in below) + 1  # the cursor's row
        if used + _rows(console, header) + 5 > console.height:
            header = Panel(styled(self.header[0]), title="folkdeck")
        room = console.height - used - _rows(console, header) - 2  # the latest panel's borders
        console.clear()
        console.print(header)
        if room > 0:
            latest = _last_rows(console, [styled(line) for line in self.log], room)
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


def _rows(console: Console, renderable: RenderableType) -> int:
    """The rows ``renderable`` takes on ``console`` (its lines wrapped at the width)."""
    return len(console.render_lines(renderable, console.options, pad=False))


def _last_rows(console: Console, lines: list[Text], room: int) -> list[Text]:
    """The latest ``lines`` that fit in ``room`` rows inside a panel, oldest first."""
    width = max(console.width - 4, 10)
    kept: list[Text] = []
    for line in reversed(lines):
        room -= max(len(line.wrap(console, width)), 1)
        if room < 0:
            break
        kept.append(line)
    return kept[::-1]


def play(args: argparse.Namespace, lang: str) -> int:
    spec = get_spec(args.game)
    options: dict[str, object] = dict(parse_assignments(args.rules))
    if args.players is not None:
        options["players"] = args.players
    game = load(spec.name, args.preset, **options)
    n = game.num_players
    record_path = _checked_arguments(args, n)
    human = None if args.watch else args.seat
    bot = args.bot or spec.default_bot
    rng = random.Random(args.seed)
    agents: list[GameAgent] = [make_agent(spec, bot, game=game) for _ in range(n)]
    r = TerminalRenderer.for_game(lang, spec, human)
    console = Console(highlight=False)
    screen = is_screen(console) and not args.plain
    table = _Table(console, spec, r, human, spec.teams(n), rng=rng, screen=screen)
    table.header = _header(table, bot, n)
    with ExitStack() as stack:
        table.pace = _pace(table, args, stack)
        if not screen:
            console.print(Panel(styled("\n".join(table.header)), title="folkdeck"))
        return _run_match(table, game, args, record_path, agents)
    return 0  # pragma: no cover - the with block returns


def _checked_arguments(args: argparse.Namespace, players: int) -> Path | None:
    """Refuse what ``play``'s arguments cannot mean at this table; the record's path, if any."""
    if not 0 <= args.seat < players:
        raise CliError("no_such_seat", seat=args.seat, last=players - 1)
    record_path = Path(args.record) if args.record else None
    if record_path is not None and not record_path.parent.is_dir():
        raise CliError("no_folder", path=str(record_path.parent))
    if args.deals is not None and args.deals < 1:
        raise CliError("deals_not_positive", value=args.deals)
    if args.delay is not None and args.delay < 0:
        raise CliError("negative_delay", value=args.delay)
    return record_path


def _header(table: _Table, bot: str, players: int) -> list[str]:
    """The banner: the game, who plays whom (or that bots play, watched) and the glossary."""
    r, spec, human = table.r, table.spec, table.human
    title = str(r.messages.get(f"term.{spec.name}.title", spec.title))
    if human is not None:
        header = [r.cli("play.welcome", {"title": title, "players": players, "seat": human}),
                  r.cli("play.facing", {"count": players - 1, "bot": r.bot(bot)}), r.cli("play.help")]
    else:
        header = [r.cli("play.welcome_watch", {"title": title, "players": players, "bot": r.bot(bot)})]
    return [*header, *_glossary(spec, r)]


def _pace(table: _Table, args: argparse.Namespace, stack: ExitStack) -> Pace | None:
    """How fast the bots go: a watched match at ``--delay`` (on a screen with step keys,
    held in ``stack`` and told in the banner); a played one on a screen, so that each bot
    play can be seen; none through a pipe."""
    if table.human is None:
        keys = Keys.of(sys.stdin) if table.screen else None
        if keys is not None:
            stack.enter_context(keys)
            table.header.append(table.r.cli("play.watch_keys"))
        delay = args.delay if args.delay is not None else (WATCH_DELAY if table.screen else 0.0)
        return Pace(delay=delay, keys=keys)
    if table.screen:
        return Pace(delay=args.delay if args.delay is not None else PLAY_DELAY)
    return None


def _glossary(spec: GameSpec, r: TerminalRenderer) -> list[str]:
    """What the pack's symbols and the game's own words (its out-of-turn rights...) mean,
    where the catalog says: a Spanish pack's 🪙 is oros, not a French suit."""
    lines = r.pack_legend()
    for word in (*spec.glossary, *spec.windows):
        key = f"term.{spec.name}.{word}.help"
        if r.has(key):
            lines.append(r.cli("play.glossary", {"word": word, "meaning": r.message(key, sentence=False)}))
    return lines


def _run_match(table: _Table, game: Game, args: argparse.Namespace, record_path: Path | None,
               agents: list[GameAgent]) -> int:
    r = table.r
    match = start_match(game, deals=args.deals, rng=table.rng,
                        chosen={"first_dealer": args.dealer, "first_kai_pai": args.kai_pai})
    recorder = MatchRecorder(game, deals=args.deals) if record_path is not None else None
    try:
        try:
            _play_match(table, match, recorder, agents)
        except (Quit, EOFError):
            table.screen = False
            table.say(r.cli("play.bye"))
        else:
            table.rule(r.cli("play.match_over"))
            for line in standings_lines(match.standings(), r, table.teams):
                table.say(line)
            if table.screen:
                table.console.clear()
                for line in list(table.log)[-(table.console.height - 2):]:
                    table.console.print(styled(line), soft_wrap=True)
    finally:  # a match left half-way (q, end of input, Ctrl-C) is recorded as far as it went
        if recorder is not None and record_path is not None:
            _write(record_path, dumps(recorder.record(match.standings())) + "\n")
            table.console.print(styled(r.cli("play.recorded", {"path": str(record_path)})))
    return 0


def _play_match(table: _Table, match: Match, recorder: MatchRecorder | None, agents: list[GameAgent]) -> None:
    r = table.r
    deal = 0
    while not match.is_over():
        deal += 1
        state = match.next_deal()
        before = match.report()
        if recorder is not None:
            recorder.start_deal(state, before)
        limit = match.standings().deals_limit
        table.new_deal(r.cli("play.deal_of" if limit is not None else "play.deal",
                             {"number": deal, "limit": limit}, sentence=True))
        for fact in before:
            table.say(r.fact(fact))
        _play_deal(table, state, agents)
        after = match.finish_deal(state)
        if recorder is not None:
            recorder.finish_deal(state, after)
        for fact in after:
            table.say(r.fact(fact))
        if not match.is_over():
            for line in standings_lines(match.standings(), r, table.teams):
                table.say(line)
        if table.screen:
            _deal_over(table, state)
        else:
            table.show_view(state)


def _deal_over(table: _Table, state: State) -> None:
    """A screen waits at the end of a deal until the person has seen it."""
    table.notes = [table.r.cli("play.deal_over_key")]
    table.draw(state)
    table.notes = []
    pace = table.pace
    if pace is not None and pace.keys is not None:
        pace.paused = True
        pace.wait()
        return
    text = table.console.input("").strip().lower()
    if text in QUIT:
        raise Quit


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError("cannot_write", path=str(path), detail=exc.strerror or type(exc).__name__) from exc


def _play_deal(table: _Table, state: State, agents: list[GameAgent]) -> None:
    human = table.human
    waived_at = -1  # history length at which the human let an out-of-turn chance go
    skip = frozenset({human}) if human is not None else frozenset()
    table.show_new_events(state)  # what the deal began with, if anything
    if table.screen:
        table.draw(state)
    else:
        table.show_view(state)  # a spectator sees every hand as the deal starts
    while not state.is_over():
        before = len(state.history)
        acting = state.to_act
        by_human = False
        if human is not None and human in acting and (acting[0] == human or waived_at != before):
            if not offer_interrupts(state, agents, table.rng, skip=skip):
                by_human = True
                if not _human_turn(table, state, human):
                    waived_at = before
        elif not offer_interrupts(state, agents, table.rng, skip=skip):
            seat = acting[0]
            action = agents[seat].act(state.observe(seat), state.legal_actions(seat), table.rng)
            state.apply(action, seat)
        told = table.show_new_events(state)
        if table.screen and told:
            table.draw(state)
            if table.pace is not None and not by_human:
                table.pace.wait()


def _options(table: _Table, seat: int, legal: tuple[Action, ...], window: str = "") -> list[str]:
    """The legal actions, numbered (only some when there are very many); ``window``: the
    window the seat's view says is open, which words some choices (see :func:`option_label`)."""
    describe = table.spec.describe_action
    if len(legal) > MAX_LISTED:
        numbered = [*enumerate(legal[:MAX_LISTED - 1], 1), (len(legal), legal[-1])]
    else:
        numbered = list(enumerate(legal, 1))
    labels = [table.r.cli("play.option", {"number": i, "label": option_label(
        describe(seat, a) if describe is not None else None, a, table.r, window)}, sentence=False)
        for i, a in numbered]
    lines = [table.r.cli("play.options", {"options": "  ".join(labels)})]
    if len(legal) > MAX_LISTED:
        lines.append(table.r.cli("play.more_options", {"count": len(legal) - MAX_LISTED}))
    return lines


def _choices(table: _Table, state: State, seat: int, legal: tuple[Action, ...]) -> list[str]:
    """The options and what the person is asked: to act, or whether to act out of turn."""
    lines = _options(table, seat, legal, str(getattr(state.observe(seat), "window", "") or ""))
    if state.to_act[0] != seat:  # the options name the right (a burn, a cucco...) themselves
        lines.append(table.r.cli("play.may_act", {"seat": state.to_act[0]}))
    return lines


def _human_turn(table: _Table, state: State, seat: int) -> bool:
    """Ask the human for an action; False if they let an out-of-turn chance go."""
    legal = state.legal_actions(seat)
    required = state.to_act[0] == seat
    if table.screen:
        table.draw(state, _choices(table, state, seat, legal))
    else:
        table.show_view(state)
        for line in _choices(table, state, seat, legal):
            table.say(line)
    while True:
        text = unmarked(table.console.input("[bold cyan]> [/]")).strip()
        table.notes = []
        if not text and not required:
            return False
        if text and _answer(table, state, seat, legal, text):
            return True
        if table.screen:
            table.draw(state, _choices(table, state, seat, legal))


def _answer(table: _Table, state: State, seat: int, legal: tuple[Action, ...], text: str) -> bool:
    """Do what a reply asks: leave, show the history, the rules, the table or the help, or
    take the action it names (True: taken; a refusal is noted for the person)."""
    command = text.lower()
    if command in QUIT:
        raise Quit
    if command in ("h", "history"):
        _show_history(table, state, seat)
    elif command in ("r", "rules"):
        _show_rules(table)
    elif command in ("v", "view"):
        if not table.screen:
            table.show_view(state, again=True)
            for line in _choices(table, state, seat, legal):
                table.say(line)
    elif command in ("?", "help"):
        table.note(table.r.cli("play.help"))
    else:
        return _try_action(table, state, seat, legal, text)
    return False


def _show_history(table: _Table, state: State, seat: int) -> None:
    """The deal's events as the seat saw them; on a screen held until Enter (the table is
    redrawn only after it is read)."""
    r = table.r
    lines = [line for event in state.observe(seat).history for line in event_lines(event, r)]
    if table.screen:
        hold(table.console, Group(*(styled(line) for line in lines or [r.cli("play.no_history")])),
             title=r.cli("play.history_title"), more=r.cli("play.history_more"),
             back=r.cli("play.history_back"))
    else:
        for line in lines or [r.cli("play.no_history")]:
            table.say(line)


def _show_rules(table: _Table) -> None:
    """The game's rules for players, paged on a screen."""
    rules = rules_text(table.spec.name, table.r.lang)
    if rules is None:
        table.note(table.r.cli("play.no_rules"))
    elif table.screen:
        page(table.console, Markdown(rules))
    else:
        table.console.print(Markdown(rules))


def _try_action(table: _Table, state: State, seat: int, legal: tuple[Action, ...], text: str) -> bool:
    """Apply the action a reply names (True), or note why it is refused (False)."""
    r = table.r
    try:
        state.apply(_chosen(text, legal, state, seat), seat)
        return True
    except CardGameError as exc:
        table.note(r.cli("play.refused", {"reason": r.error(exc)}))
    except CliError as exc:
        table.note(r.cli("play.refused", {"reason": r.cli(f"error.{exc.reason}", exc.params, sentence=False)}))
    return False


def _chosen(text: str, legal: tuple[Action, ...], state: State, seat: int) -> Action:
    """The action a reply names: a whole number picks from the list (any number from 1 to
    the count, listed or not); anything else is the action in the game's grammar."""
    if text.isascii() and text.isdigit():
        number = int(text)
        if not 1 <= number <= len(legal):
            raise CliError("no_such_choice", choice=number, count=len(legal))
        return legal[number - 1]
    return state.parse_action(text, seat)


__all__ = ["play"]
