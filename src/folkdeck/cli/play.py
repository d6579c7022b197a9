"""``folkdeck play GAME``: a match in the terminal, one human against bots."""

from __future__ import annotations

import argparse
import random
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel

from folkdeck.agents import make_agent
from folkdeck.cli.info import rules_text
from folkdeck.cli.render import colour_cards
from folkdeck.engine.errors import CardGameError, InvalidConfigError
from folkdeck.engine.options import parse_assignments
from folkdeck.engine.protocol import Event, State
from folkdeck.engine.registry import get_spec, load
from folkdeck.sim.runner import offer_interrupts

HELP = ("Type a number from the list, or the action itself (cards like '4C 4D', 'pass'...).\n"
        "Commands: 'h' history of this deal, 'r' rules, 'v' show the table again, 'q' quit.")


MAX_LISTED = 40  # a Gou Ji lead can have thousands of legal plays: number only some


class _Quit(Exception):
    pass


def play(args: argparse.Namespace) -> int:
    spec = get_spec(args.game)
    options: dict[str, Any] = parse_assignments(args.rules)
    if args.players is not None:
        options["players"] = args.players
    game = load(spec.name, args.preset, **options)
    n = game.num_players
    if not 0 <= args.seat < n:
        raise InvalidConfigError(f"--seat {args.seat}: seats are 0 to {n - 1}", option="seat")
    human = None if args.watch else args.seat
    rng = random.Random(args.seed)
    agents = [make_agent(spec, args.bot, game=game) for _ in range(n)]
    console = Console(highlight=False)
    match = game.new_match(deals=args.deals, rng=rng)
    console.print(Panel(f"[bold]{spec.title}[/] — {n} players. You are "
                        + (f"seat {human}." if human is not None else "watching.")
                        + f"\n{HELP}", title="folkdeck"))
    deal = 0
    try:
        while not match.is_over():
            deal += 1
            state = match.next_deal()
            console.rule(f"Deal {deal}")
            _play_deal(console, state, agents, human, rng)
            result = state.result()
            if result is not None:
                for line in match.finish_deal(state):
                    console.print(colour_cards(line))
            for line in match.standings():
                console.print(colour_cards(line))
    except (_Quit, EOFError):
        console.print("Goodbye.")
        return 0
    console.rule("Match over")
    return 0


def _show_event(console: Console, event: Event, human: int | None) -> None:
    who = "you" if event.seat == human else f"seat {event.seat}"
    text = f"{who}: {event.action}" + "".join(f" — {n}" for n in event.notes)
    console.print(colour_cards(text))


def _play_deal(console: Console, state: State, agents: list[Any], human: int | None,
               rng: random.Random) -> None:
    shown = len(state.history)
    waived_at = -1  # history length at which the human let an out-of-turn chance go
    skip = frozenset({human}) if human is not None else frozenset()
    if human is not None:
        console.print(colour_cards(state.observe(human).to_text()))
    while not state.is_over():
        before = len(state.history)
        acting = state.to_act
        if human is not None and human in acting and (acting[0] == human or waived_at != before):
            if not offer_interrupts(state, agents, rng, skip=skip) and not _human_turn(
                    console, state, human):
                waived_at = before
        elif not offer_interrupts(state, agents, rng, skip=skip):
            seat = acting[0]
            action = agents[seat].act(state.observe(seat), state.legal_actions(seat), rng)
            state.apply(action, seat)
        for event in state.history[max(before, shown):]:
            _show_event(console, event, human)
        shown = len(state.history)
    if human is not None:
        console.print(colour_cards(state.observe(human).to_text()))


def _human_turn(console: Console, state: State, seat: int) -> bool:
    """Ask the human for an action; False if they let an out-of-turn chance go."""
    legal = state.legal_actions(seat)
    required = state.to_act[0] == seat
    console.print(colour_cards(state.observe(seat).to_text()))
    shown = legal if len(legal) <= MAX_LISTED else (*legal[:MAX_LISTED - 1], legal[-1])
    numbers = [*range(1, len(shown))] + [len(legal)] if len(legal) > MAX_LISTED else range(1, len(shown) + 1)
    console.print("[bold]Your options:[/] " + "  ".join(
        colour_cards(f"{i}) {a}") for i, a in zip(numbers, shown, strict=True)))
    if len(legal) > MAX_LISTED:
        console.print(f"(and {len(legal) - MAX_LISTED} more: type the play itself)")
    if not required:
        console.print("(you may act out of turn now; press Enter to let play go on)")
    while True:
        text = console.input("[bold cyan]> [/]").strip()
        if not text:
            if not required:
                return False
            continue
        if text in ("q", "quit", "exit"):
            raise _Quit
        if text in ("h", "history"):
            for event in state.history:
                console.print(colour_cards(str(event)))
            continue
        if text in ("r", "rules"):
            rules = rules_text(state.game.spec.name)
            console.print(Markdown(rules) if rules else "no rules document found")
            continue
        if text in ("v", "view"):
            console.print(colour_cards(state.observe(seat).to_text()))
            continue
        if text in ("?", "help"):
            console.print(HELP)
            continue
        try:
            action = legal[int(text) - 1] if text.isdigit() and 1 <= int(text) <= len(legal) \
                else state.parse_action(text, seat)
            state.apply(action, seat)
            return True
        except CardGameError as exc:
            console.print(f"[red]Refused:[/] {colour_cards(exc.message)}")
