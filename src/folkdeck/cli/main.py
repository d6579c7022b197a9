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
import unicodedata
from collections.abc import Iterable, Sequence
from importlib import metadata
from typing import Any, TypeAlias

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


def _game_help(h: _Help, what: str) -> str:
    from folkdeck.engine.registry import games

    return h("game_of", what=h(what), games=", ".join(games()))


def _bot_help(h: _Help) -> str:
    from folkdeck.engine.registry import games, get_spec

    return h("bot", defaults=", ".join(f"{g} {get_spec(g).default_bot}" for g in games()))


class _Help:
    """The command line's help texts in one language (``cli.help.<key>``)."""

    def __init__(self, lang: str) -> None:
        self.renderer = Renderer(lang)

    def __call__(self, key: str, **params: object) -> str:
        return self.renderer.message(f"cli.help.{key}", params, sentence=False)

    def formatter(self) -> type[argparse.HelpFormatter]:
        """argparse's own words (usage, the sections, -h and --version) in this language."""
        h = self
        own = {"positional arguments": h("positionals"), "options": h("options"),
               "show this help message and exit": h("help"),
               "show program's version number and exit": h("version")}

        class Formatter(argparse.HelpFormatter):
            def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                          groups: Iterable[argparse._MutuallyExclusiveGroup], prefix: str | None = None) -> None:
                super().add_usage(usage, actions, groups, h("usage") if prefix is None else prefix)

            def start_section(self, heading: str | None) -> None:
                super().start_section(own.get(heading or "", heading))

            def _get_help_string(self, action: argparse.Action) -> str | None:
                return own.get(action.help or "", action.help)

            def _split_lines(self, text: str, width: int) -> list[str]:
                return [part for line in super()._split_lines(text, width) for part in _wrap_wide(line, width)]

            def _fill_text(self, text: str, width: int, indent: str) -> str:
                lines = super()._fill_text(text, width, indent).splitlines()
                return "\n".join(part for line in lines for part in _wrap_wide(line, width))

        return Formatter

    def parser_class(self) -> type[argparse.ArgumentParser]:
        """The commands' parsers, with this language's :meth:`formatter`."""
        formatter = self.formatter()

        class Parser(argparse.ArgumentParser):
            def __init__(self, **kwargs: Any) -> None:  # argparse's own keywords, passed on
                kwargs.setdefault("formatter_class", formatter)
                super().__init__(**kwargs)

        return Parser


def _wrap_wide(line: str, width: int) -> list[str]:
    """A help line that Japanese text (no spaces to break at) makes wider than ``width``
    columns, broken where it fits: between two wide characters, or at a space.

    >>> _wrap_wide("全席をボットが打ちます", 10)
    ['全席をボッ', 'トが打ちま', 'す']
    >>> _wrap_wide("ok", 10)
    ['ok']
    """
    out = []
    while True:
        used, cut = 0, len(line)
        for i, char in enumerate(line):
            used += 2 if unicodedata.east_asian_width(char) in "WF" else 1
            if used > width:
                cut = i
                break
        if cut == len(line) or cut == 0:
            break
        if line[cut - 1].isascii() and line[cut].isascii() and " " in line[:cut]:
            cut = line.rindex(" ", 0, cut) + 1  # not inside a Latin word
        out.append(line[:cut].rstrip())
        line = line[cut:].lstrip()
    return [*out, line]


def language_asked(argv: Sequence[str]) -> str | None:
    """The ``--lang`` of a command line, read before argparse (its help is in that language).

    >>> language_asked(["play", "--lang", "ja", "--help"]), language_asked(["--lang=ja"]), language_asked([])
    ('ja', 'ja', None)
    """
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg.partition("=")[2] \
            if arg.startswith("--lang=") else None
        if value in LANGUAGES:
            return value
    return None


_Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""The ``folkdeck`` command's subcommands (``add_parser`` adds one)."""


def _parser(lang: str = "en") -> argparse.ArgumentParser:
    h = _Help(lang)
    parser = argparse.ArgumentParser(prog="folkdeck", description=h("description"), epilog=h("epilog"),
                                     formatter_class=h.formatter())
    parser.add_argument("--version", action="version", version=f"folkdeck {version()}")
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=h("lang"))
    # Each command takes --lang too, after its name; SUPPRESS keeps the one given first.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=h("lang"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=h.parser_class())
    _add_info_commands(sub, h, common)
    _add_play_command(sub, h, common)
    _add_replay_command(sub, h, common)
    _add_bench_command(sub, h, common)

    from folkdeck.cli.arena import add_arena_parser

    add_arena_parser(sub, summary=h("arena"))

    from folkdeck.cli.train import add_train_parser

    add_train_parser(sub, summary=h("train"))

    from folkdeck.cli.serve import add_parser as add_serve_parsers

    add_serve_parsers(sub, serve_summary=h("serve"), loadtest_summary=h("loadtest"))

    completion = sub.add_parser("completion", parents=[common], help=h("completion"),
                                epilog=h("completion_epilog"))
    completion.add_argument("shell", choices=("bash", "zsh"))
    return parser


def _add_info_commands(sub: _Commands, h: _Help, common: argparse.ArgumentParser) -> None:
    """``games``, ``rules GAME`` and ``schema GAME``: what there is to play, and how."""
    sub.add_parser("games", help=h("games"), parents=[common])

    rules = sub.add_parser("rules", help=h("rules"), parents=[common])
    rules.add_argument("game", metavar="GAME", help=_game_help(h, "the_game"))

    schema = sub.add_parser("schema", help=h("schema"), parents=[common])
    schema.add_argument("game", metavar="GAME", help=_game_help(h, "the_game"))


def _add_play_command(sub: _Commands, h: _Help, common: argparse.ArgumentParser) -> None:
    play = sub.add_parser("play", help=h("play"), parents=[common], epilog=h("play_epilog"))
    play.add_argument("game", nargs="?", default="kaphai", metavar="GAME",
                      help=_game_help(h, "the_game_default"))
    play.add_argument("--players", type=int, help=h("players"))
    play.add_argument("--seed", type=int, help=h("seed"))
    play.add_argument("--rules", nargs="*", default=[], metavar="KEY=VALUE", help=h("rules_option"))
    play.add_argument("--preset", help=h("preset"))
    play.add_argument("--seat", type=int, default=0, help=h("seat"))
    play.add_argument("--deals", type=int, help=h("deals"))
    play.add_argument("--dealer", type=int, metavar="SEAT", help=h("dealer"))
    play.add_argument("--kai-pai", type=int, metavar="SEAT", help=h("kai_pai"))
    play.add_argument("--bot", help=_bot_help(h))
    play.add_argument("--watch", action="store_true", help=h("watch"))
    play.add_argument("--delay", type=float, metavar="SECONDS",
                      help=h("delay", watch=f"{WATCH_DELAY:g}", play=f"{PLAY_DELAY:g}"))
    play.add_argument("--plain", action="store_true", help=h("plain"))
    play.add_argument("--record", metavar="FILE", help=h("record"))


def _add_replay_command(sub: _Commands, h: _Help, common: argparse.ArgumentParser) -> None:
    replay = sub.add_parser("replay", parents=[common], help=h("replay"), epilog=h("replay_epilog"))
    replay.add_argument("file", help=h("file"))
    replay.add_argument("--deal", type=int, metavar="N", help=h("deal"))
    group = replay.add_mutually_exclusive_group()
    group.add_argument("--legal", action="store_true", help=h("legal"))
    group.add_argument("--view", type=int, metavar="SEAT", help=h("view"))


def _add_bench_command(sub: _Commands, h: _Help, common: argparse.ArgumentParser) -> None:
    bench = sub.add_parser("bench", help=h("bench"), parents=[common])
    bench.add_argument("games", nargs="*", metavar="GAME", help=_game_help(h, "bench_games"))
    bench.add_argument("--seconds", type=float, default=3.0, help=h("seconds"))
    bench.add_argument("--players", type=int, help=h("players"))
    bench.add_argument("--json", action="store_true", help=h("json"))


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
"""The variables that set NumPy's BLAS threads (OpenBLAS's, MKL's)."""


def single_threaded_blas() -> None:
    """One BLAS thread per process unless the environment says otherwise, set before NumPy
    loads (the learned bots' first use). Their networks multiply small matrices, and the
    command already runs a process per core where it can (the arena's and the trainer's
    jobs, the server's workers), so more threads only contend for the cores: on two idle
    cores, a Gou Ji lead of 5,524 sets took 31-32 ms of CPU with two threads against 18 ms
    with one, to save 2 ms of wall time."""
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    single_threaded_blas()
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = _parser(language_asked(arguments) or default_language())
    args = parser.parse_args(arguments)
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
    if args.command == "train":
        from folkdeck.cli.train import train

        return train(args)
    if args.command == "completion":
        from folkdeck.cli.completion import completion_script

        print(completion_script(_parser(), args.shell))
    return 0


if __name__ == "__main__":
    sys.exit(main())
