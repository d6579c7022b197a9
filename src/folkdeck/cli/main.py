"""The ``folkdeck`` command: games, rules, schema, play, replay, bench, arena, serve.

Errors go to stderr in the chosen language (``--lang``, default from the locale), rendered
from the message catalog; the exit status is 2 for input that cannot be read (a record, an
option, a card's notation, a file) and 1 for input the rules refuse (an illegal action, a
record that says otherwise than the rules).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import metadata

from folkdeck.cli.errors import CliError, exit_status, render_error
from folkdeck.cli.render import default_language
from folkdeck.cli.screen import PLAY_DELAY, WATCH_DELAY
from folkdeck.engine.errors import CardGameError
from folkdeck.i18n import LANGUAGES, Renderer


def version() -> str:
    """The installed package's version (``unknown`` when run from a bare source tree)."""
    try:
        return metadata.version("folkdeck")
    except metadata.PackageNotFoundError:
        return "unknown"


def _game_help(what: str) -> str:
    from folkdeck.engine.registry import games

    return f"{what}: one of {', '.join(games())} (see folkdeck games)"


def _bot_help() -> str:
    from folkdeck.engine.registry import games, get_spec

    defaults = ", ".join(f"{g} {get_spec(g).default_bot}" for g in games())
    return f"the bots' kind (default: the game's own: {defaults}; folkdeck games lists them all)"


REPLAY_EXIT_STATUS = (
    "Exit status: 0 with JSON on stdout; 1 when a well-formed record does not replay to what it says "
    "(an illegal action; a setup, fact, standing or return the rules do not give); 2 when the file "
    "cannot be read or the record is malformed (bad JSON, an unknown field, a value of the wrong type, "
    "a deal that does not exist). stderr names the field (docs/records.md).")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="folkdeck", description="Traditional card games: play, replay, benchmark.",
        epilog="Start with: folkdeck play kaphai (or folkdeck games to choose a game). "
               "Each command has --help.")
    parser.add_argument("--version", action="version", version=f"folkdeck {version()}")
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help="language of the messages (default: from LANG)")
    # Each command takes --lang too, after its name; SUPPRESS keeps the one given first.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS,
                        help="language of the messages (default: from LANG)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sub.add_parser("games", help="list the games and their options", parents=[common])

    rules = sub.add_parser("rules", help="show a game's rules for players", parents=[common])
    rules.add_argument("game", metavar="GAME", help=_game_help("the game"))

    schema = sub.add_parser("schema", help="print the JSON Schema of a game's view", parents=[common])
    schema.add_argument("game", metavar="GAME", help=_game_help("the game"))

    play = sub.add_parser("play", help="play a match in the terminal against bots", parents=[common],
                          epilog="On a terminal the table is redrawn in place; through a pipe it "
                                 "prints line by line. While watching: space pauses, Enter steps, "
                                 "+ and - change the pace, q quits.")
    play.add_argument("game", nargs="?", default="kaphai", metavar="GAME",
                      help=_game_help("the game (default kaphai)"))
    play.add_argument("--players", type=int, help="number of players (default: the game's)")
    play.add_argument("--seed", type=int, help="seed for the shuffles and the bots")
    play.add_argument("--rules", nargs="*", default=[], metavar="KEY=VALUE",
                      help="rule options, e.g. --rules low_police_void=true putuh_tie=shared_first")
    play.add_argument("--preset", help="a named preset of rule options")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--deals", type=int, help="deals in the match (default: the game's)")
    play.add_argument("--dealer", type=int, metavar="SEAT",
                      help="the first dealer, in a game whose first dealer is chosen freely (Cangkul, Burro)")
    play.add_argument("--bot", help=_bot_help())
    play.add_argument("--watch", action="store_true",
                      help="bots play every seat; you watch every hand, at a pace you set with keys")
    play.add_argument("--delay", type=float, metavar="SECONDS",
                      help=f"seconds per bot's move on a terminal (default {WATCH_DELAY:g} when "
                           f"watching, {PLAY_DELAY:g} when playing; 0 through a pipe)")
    play.add_argument("--plain", action="store_true",
                      help="print line by line even on a terminal (for screen readers and logs)")
    play.add_argument("--record", metavar="FILE",
                      help="write the match as a folkdeck-match/1 record (also when you quit)")

    replay = sub.add_parser("replay", parents=[common],
                            help="replay a record (a deal, a match, arena results) and print JSON",
                            epilog=REPLAY_EXIT_STATUS)
    replay.add_argument("file", help="a folkdeck-record/1 or folkdeck-match/1 JSON file, an arena "
                                     "results file, or - for standard input")
    replay.add_argument("--deal", type=int, metavar="N",
                        help="deal N (0-based) of a match record, or game N of arena results: "
                             "printed as a folkdeck-record/1, or replayed with --legal/--view")
    group = replay.add_mutually_exclusive_group()
    group.add_argument("--legal", action="store_true", help="print the legal actions now")
    group.add_argument("--view", type=int, metavar="SEAT", help="print that seat's view")

    bench = sub.add_parser("bench", help="random self-play speed on one core", parents=[common])
    bench.add_argument("games", nargs="*", metavar="GAME", help=_game_help("games to measure (default: all)"))
    bench.add_argument("--seconds", type=float, default=3.0, help="time per game (default 3)")
    bench.add_argument("--players", type=int, help="number of players (default: the game's)")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")

    from folkdeck.cli.arena import add_arena_parser

    add_arena_parser(sub)

    from folkdeck.cli.serve import add_parser as add_serve_parsers

    add_serve_parsers(sub)

    completion = sub.add_parser("completion", parents=[common],
                                help="print a shell completion script",
                                epilog="bash: eval \"$(folkdeck completion bash)\" in ~/.bashrc; "
                                       "zsh: the same with zsh in ~/.zshrc")
    completion.add_argument("shell", choices=("bash", "zsh"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:  # bare ``folkdeck``: what there is to do, not an error
        parser.print_help()
        return 0
    lang = getattr(args, "lang", None) or default_language()
    try:
        return _run(args, lang)
    except (CardGameError, CliError) as exc:
        print(f"folkdeck {args.command}: {render_error(exc, lang)}", file=sys.stderr)
        return exit_status(exc)
    except KeyboardInterrupt:
        print("\n" + Renderer(lang).message("cli.play.bye", sentence=True), file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader left (| head): nothing more to say, no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(args: argparse.Namespace, lang: str) -> int:
    if args.command == "games":
        from folkdeck.cli.info import list_games

        return list_games(lang)
    if args.command == "rules":
        from folkdeck.cli.info import show_rules

        return show_rules(args.game, lang)
    if args.command == "schema":
        from folkdeck.cli.info import show_schema

        return show_schema(args.game)
    if args.command == "play":
        from folkdeck.cli.play import play

        return play(args, lang)
    if args.command == "replay":
        from folkdeck.cli.replay import replay

        return replay(args.file, deal=args.deal, legal=args.legal, view=args.view)
    if args.command == "bench":
        from folkdeck.cli.bench import bench

        return bench(args.games, seconds=args.seconds, players=args.players, as_json=args.json)
    if args.command == "serve":
        from folkdeck.cli.serve import serve

        return serve(args)
    if args.command == "loadtest":
        from folkdeck.server.loadtest import run_loadtest

        return run_loadtest(args)
    if args.command == "arena":
        from folkdeck.cli.arena import arena

        return arena(args)
    if args.command == "completion":
        from folkdeck.cli.completion import completion_script

        print(completion_script(_parser(), args.shell))
    return 0


if __name__ == "__main__":
    sys.exit(main())
