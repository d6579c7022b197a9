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
from contextlib import ExitStack
from pathlib import Path

from rich.console import Console, Group
from rich.markdown import Markdown
from rich.panel import Panel

from folkdeck.agents import make_agent
from folkdeck.cli.coach import hint_lines, review_lines
from folkdeck.cli.errors import CliError
from folkdeck.cli.info import rules_text
from folkdeck.cli.render import (
    TerminalRenderer,
    event_lines,
    option_label,
    standings_lines,
    styled,
    unmarked,
)
from folkdeck.cli.screen import PLAY_DELAY, WATCH_DELAY, Keys, Pace, Quit, hold, is_screen, page
from folkdeck.cli.table import TerminalTable
from folkdeck.engine.errors import CardGameError
from folkdeck.engine.match_base import start_match
from folkdeck.engine.match_record import MatchRecorder, dumps
from folkdeck.engine.options import parse_assignments
from folkdeck.engine.protocol import Action, Game, GameAgent, GameSpec, Match, State
from folkdeck.engine.record import Record
from folkdeck.engine.registry import get_spec, load
from folkdeck.sim.runner import offer_interrupts

MAX_LISTED = 40  # a Gou Ji lead can have thousands of legal plays: number only some
QUIT = ("q", "quit", "exit")


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
    table = TerminalTable(console, spec, r, human, spec.teams(n), rng=rng, screen=screen)
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


def _header(table: TerminalTable, bot: str, players: int) -> list[str]:
    """The banner: the game, who plays whom (or that bots play, watched) and the glossary."""
    r, spec, human = table.r, table.spec, table.human
    title = str(r.messages.get(f"term.{spec.name}.title", spec.title))
    if human is not None:
        header = [r.cli("play.welcome", {"title": title, "players": players, "seat": human}),
                  r.cli("play.facing", {"count": players - 1, "bot": r.bot(bot)}), r.cli("play.help")]
    else:
        header = [r.cli("play.welcome_watch", {"title": title, "players": players, "bot": r.bot(bot)})]
    return [*header, *_glossary(spec, r)]


def _pace(table: TerminalTable, args: argparse.Namespace, stack: ExitStack) -> Pace | None:
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


def _run_match(table: TerminalTable, game: Game, args: argparse.Namespace, record_path: Path | None,
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


def _play_match(table: TerminalTable, match: Match, recorder: MatchRecorder | None, agents: list[GameAgent]) -> None:
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
        if table.human is not None:
            table.finished = (deal, Record.from_state(state))
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


def _deal_over(table: TerminalTable, state: State) -> None:
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
    if text in ("w", "review"):
        _review(table)


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError("cannot_write", path=str(path), detail=exc.strerror or type(exc).__name__) from exc


def _play_deal(table: TerminalTable, state: State, agents: list[GameAgent]) -> None:
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


def _options(table: TerminalTable, seat: int, legal: tuple[Action, ...], window: str = "") -> list[str]:
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


def _choices(table: TerminalTable, state: State, seat: int, legal: tuple[Action, ...]) -> list[str]:
    """The options and what the person is asked: to act, or whether to act out of turn."""
    lines = _options(table, seat, legal, str(getattr(state.observe(seat), "window", "") or ""))
    if state.to_act[0] != seat:  # the options name the right (a burn, a cucco...) themselves
        lines.append(table.r.cli("play.may_act", {"seat": state.to_act[0]}))
    return lines


def _human_turn(table: TerminalTable, state: State, seat: int) -> bool:
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


def _answer(table: TerminalTable, state: State, seat: int, legal: tuple[Action, ...], text: str) -> bool:
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
    elif command in ("t", "hint"):
        with table.console.status(table.r.message("ui.hint.thinking")):
            lines = hint_lines(state, seat, table.spec, table.r, random.Random(table.rng.random()))
        for line in lines:
            table.note(line)
    elif command in ("w", "review"):
        _review(table)
    else:
        return _try_action(table, state, seat, legal, text)
    return False


def _review(table: TerminalTable) -> None:
    """The review of the person's decisions in the last finished deal (seconds of search each)."""
    if table.finished is None or table.human is None:
        table.note(table.r.cli("play.no_review"))
        return
    deal, record = table.finished
    with table.console.status(table.r.message("ui.review.thinking")):
        lines = review_lines(record, table.human, deal, table.spec, table.r, random.Random(table.rng.random()))
    if table.screen:
        hold(table.console, Group(*(styled(line) for line in lines)), title=lines[0],
             more=table.r.cli("play.history_more"), back=table.r.cli("play.history_back"))
    else:
        for line in lines:
            table.say(line)


def _show_history(table: TerminalTable, state: State, seat: int) -> None:
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


def _show_rules(table: TerminalTable) -> None:
    """The game's rules for players, paged on a screen."""
    rules = rules_text(table.spec.name, table.r.lang)
    if rules is None:
        table.note(table.r.cli("play.no_rules"))
    elif table.screen:
        page(table.console, Markdown(rules))
    else:
        table.console.print(Markdown(rules))


def _try_action(table: TerminalTable, state: State, seat: int, legal: tuple[Action, ...], text: str) -> bool:
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
