"""``folkdeck arena GAME --bots A,B,...``: bots play duplicate deals; a table with intervals."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from folkdeck.cli.errors import CliError
from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.options import parse_assignments
from folkdeck.engine.registry import get_spec
from folkdeck.sim.arena import ArenaConfig, ArenaSummary, plot_results, rotations, run_arena, write_results
from folkdeck.sim.backends import BACKENDS, default_jobs


def add_arena_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser],
                     summary: str = "bots play duplicate deals: win shares, intervals, ratings") -> None:
    """The ``arena`` command (``summary``: its line in ``folkdeck --help``, in the reader's language)."""
    from folkdeck.engine.registry import games

    p = sub.add_parser("arena", help=summary)
    p.add_argument("game", metavar="GAME", help=f"the game: one of {', '.join(games())}")
    p.add_argument("--bots", required=True,
                   help="one bot per seat, comma-separated, e.g. search,heuristic,heuristic,heuristic")
    p.add_argument("--deals", type=int, default=100,
                   help="duplicate deals (each played once per rotation; default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots (default 0)")
    p.add_argument("--first-deal", type=int, default=0, metavar="N",
                   help="number the deals from N: play a long arena in pieces (merge the JSON "
                        "files with folkdeck.sim.arena.merge_results)")
    p.add_argument("--jobs", type=int, default=None,
                   help="parallel workers (default: every CPU; 1 runs in this process)")
    p.add_argument("--backend", choices=BACKENDS, default="process",
                   help="process (a local pool, the default) or ray")
    p.add_argument("--address", help="a Ray cluster's address (default: start a local Ray)")
    p.add_argument("--preset", help="a named preset of rule options")
    p.add_argument("--rules", nargs="*", default=[], metavar="KEY=VALUE", help="rule options")
    p.add_argument("--out", help="results file: .json (everything, records included) or .csv")
    p.add_argument("--plot", help="a PNG plot of the win shares and mean returns")
    p.add_argument("--no-records", action="store_true", help="leave the records out of --out")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def arena(args: argparse.Namespace) -> int:
    spec = get_spec(args.game)
    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    rules = parse_assignments(args.rules)
    if args.address and args.backend != "ray":
        raise CliError("address_without_ray")
    if args.first_deal < 0:
        raise CliError("first_deal_negative", value=args.first_deal)
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        # Before the deals are played, not after: a long arena must not be lost to a plot.
        raise InvalidConfigError("needs_extra", option="plot", feature="plot", module="matplotlib",
                                 extra="arena")
    config = ArenaConfig(spec.name, bots, args.deals, args.seed, args.preset, tuple(sorted(rules.items())),
                         keep_records=not args.no_records, first_deal=args.first_deal)
    jobs = args.jobs if args.jobs is not None else default_jobs()
    console = Console(highlight=False, stderr=False, width=None if sys.stdout.isatty() else 160)
    started = time.perf_counter()
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, disable=args.quiet, transient=True) as bar:
        task = bar.add_task(f"{spec.title} arena", total=args.deals)
        summary = run_arena(config, jobs=jobs, backend=args.backend, address=args.address,
                            on_progress=lambda k: bar.advance(task, k))
    elapsed = time.perf_counter() - started
    console.print(table(summary, elapsed, jobs, args.backend))
    if args.out:
        console.print(f"results: {write_results(summary, args.out)}")
    if args.plot:
        console.print(f"plot: {plot_results(summary, args.plot)}")
    return 0


def table(summary: ArenaSummary, elapsed: float, jobs: int, backend: str) -> Table:
    c = summary.config
    t = Table(title=f"{c.game}: {c.deals} duplicate deals × {rotations(c.bots)} rotations, seed {c.seed} "
                    f"({summary.games_played} games, {elapsed:.1f} s, {backend}, jobs {jobs})",
              caption="± = 95% confidence interval over deals; rating = "
                      f"{summary.rating_system} mu − 3σ; decision = CPU time of a choice "
                      "among two or more actions")
    # A narrow terminal wraps cells, never cuts them to "…": a bot's name keeps its width
    # (search:strong), and a figure too long for its column folds onto the next line.
    names = max((len(b.name) for b in summary.bots), default=3)
    for col in ("bot", "seats", "win share", "mean placing", "mean return", "rating",
                "decision ms (mean/max)"):
        t.add_column(col, justify="left" if col == "bot" else "right", overflow="fold",
                     min_width=names if col == "bot" else None)
    for b in summary.bots:
        clock = b.decision_time
        t.add_row(b.name, str(b.seats_played), str(b.win_share), str(b.mean_placing), str(b.mean_return),
                  "-" if b.rating is None else f"{b.rating:.2f}",
                  f"{clock.mean * 1e3:.2f} / {clock.slowest * 1e3:.0f}" if clock else "-")
    return t
