"""The ``folkdeck`` command: games, rules, play, replay, bench, arena."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from folkdeck.engine.errors import CardGameError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="folkdeck", description="Traditional card games: play, replay, benchmark.")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("games", help="list the games and their options")

    rules = sub.add_parser("rules", help="show a game's rules for players")
    rules.add_argument("game")

    play = sub.add_parser("play", help="play a match in the terminal against bots")
    play.add_argument("game", nargs="?", default="kaphai")
    play.add_argument("--players", type=int, help="number of players (default: the game's)")
    play.add_argument("--seed", type=int, help="seed for the shuffles and the bots")
    play.add_argument("--rules", nargs="*", default=[], metavar="KEY=VALUE",
                      help="rule options, e.g. --rules low_police_void=true putuh_tie=shared_first")
    play.add_argument("--preset", help="a named preset of rule options")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--deals", type=int, help="deals in the match (default: the game's)")
    play.add_argument("--bot", help="the bots' kind (default: the game's strongest)")
    play.add_argument("--watch", action="store_true", help="bots play every seat; you watch")

    replay = sub.add_parser("replay", help="replay a game record and print the position as JSON")
    replay.add_argument("file", help="a folkdeck-record/1 JSON file, or - for standard input")
    group = replay.add_mutually_exclusive_group()
    group.add_argument("--legal", action="store_true", help="print the legal actions now")
    group.add_argument("--view", type=int, metavar="SEAT", help="print that seat's view")

    bench = sub.add_parser("bench", help="random self-play speed on one core")
    bench.add_argument("games", nargs="*", help="games to measure (default: all)")
    bench.add_argument("--seconds", type=float, default=3.0, help="time per game (default 3)")
    bench.add_argument("--players", type=int, help="number of players (default: the game's)")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")

    from folkdeck.cli.arena import add_arena_parser

    add_arena_parser(sub)

    from folkdeck.cli.serve import add_parser as add_serve_parsers

    add_serve_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "games":
            from folkdeck.cli.info import list_games

            return list_games()
        if args.command == "rules":
            from folkdeck.cli.info import show_rules

            return show_rules(args.game)
        if args.command == "play":
            from folkdeck.cli.play import play

            return play(args)
        if args.command == "replay":
            from folkdeck.cli.replay import replay

            return replay(args.file, legal=args.legal, view=args.view)
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
    except CardGameError as exc:
        print(f"folkdeck: {exc.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nbye", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
