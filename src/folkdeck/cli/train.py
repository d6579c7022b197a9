"""``folkdeck train GAME``: make a learned bot's model (:mod:`folkdeck.train`; the ``train``
extra). Prints a line per evaluation (strength against the heuristic bot over CPU minutes)
and the model's path; ``--ship`` copies it to the package's models."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from folkdeck.cli.errors import CliError
from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.options import parse_assignments
from folkdeck.engine.registry import get_spec
from folkdeck.sim.backends import BACKENDS, default_jobs

if TYPE_CHECKING:
    from folkdeck.train.loop import LogRow, Recipe


def add_train_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    """The ``train`` command (``summary``: its line in ``folkdeck --help``)."""
    from folkdeck.engine.registry import games

    p = sub.add_parser("train", help=summary, description=summary + ". Stages: teach (the search bot "
                       "plays and values every action), fit, improve (rounds of self-play against a "
                       "pool), each evaluated against the heuristic bot. Run again with the same --out "
                       "to resume.")
    p.add_argument("game", metavar="GAME", help=f"the game: one of {', '.join(games())}")
    p.add_argument("--out", help="the run's folder (default: train-GAME); the same folder resumes")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals, the bots and the network (default 0)")
    p.add_argument("--rules", nargs="*", default=[], metavar="KEY=VALUE",
                   help="rule options of the deals (the model plays at this table size and pack)")
    p.add_argument("--teacher", default="pimc:fast", help="the search bot whose values are learned "
                   "(a bot with action values: pimc, pimc:fast, search, learned+search=PATH...; default pimc:fast)")
    p.add_argument("--teach-deals", type=int, default=200, help="deals played by the teacher (default 200)")
    p.add_argument("--rounds", type=int, default=3, help="self-play rounds after the fit (default 3)")
    p.add_argument("--round-deals", type=int, default=200, help="deals per round (default 200)")
    p.add_argument("--fit-steps", type=int, default=3000, help="minibatches of the first fit (default 3000)")
    p.add_argument("--round-steps", type=int, default=1500, help="minibatches per round (default 1500)")
    p.add_argument("--pool", default="heuristic,self,previous",
                   help="the rounds' opponents, in turn: self (the learner in every seat), previous (its "
                        "last checkpoint), heuristic (the game's heuristic bot) or any bot of the game, such "
                        "as search (default heuristic,self,previous)")
    p.add_argument("--hidden", default="128,64", help="hidden layer sizes (default 128,64)")
    p.add_argument("--members", type=int, default=1,
                   help="an ensemble: train this many networks from the seeds SEED, SEED+1... and ship their mean, "
                        "one network as wide as all of them (default 1)")
    p.add_argument("--holdout", type=float, default=0.0,
                   help="keep this share of the teacher's deals (its last shards) out of the fit and keep the "
                        "network that chose best on them, checked ten times a fit: early stopping (default 0: "
                        "every deal trains, for every step)")
    p.add_argument("--return-weight", type=float, default=0.0,
                   help="weight of the deals' returns beside the teacher's values (deep Monte Carlo; default 0)")
    p.add_argument("--eval-deals", type=int, default=40, help="duplicate deals per evaluation (default 40)")
    p.add_argument("--margins", default="0,0.1,0.25,0.5",
                   help="the calibrate stage's margins over the heuristic's choice, in units of the returns' "
                        "spread (default 0,0.1,0.25,0.5)")
    p.add_argument("--features", choices=("shape", "shape+suits", "shape+reading", "shape+suits+reading", "plain"),
                   default="shape",
                   help="shape (the default): the network also reads the shape each action leaves the hand "
                        "in (its cards counted by rank); shape+suits: by rank and by suit (voids); "
                        "shape+reading, shape+suits+reading: either shape and the game's own reading of the "
                        "cards (a game that has one: Kap Hai's plays left to go out and its bosses, Cangkul's "
                        "cards in play above each card); plain: the action's cards only, as the first models")
    p.add_argument("--jobs", type=int, default=None, help="parallel workers (default: every CPU)")
    p.add_argument("--backend", choices=BACKENDS, default="process", help="process (the default) or ray")
    p.add_argument("--address", help="a Ray cluster's address (default: start a local Ray)")
    p.add_argument("--ship", action="store_true",
                   help="copy the final model to the package's models (a source checkout's "
                        "src/folkdeck/agents/models/GAME.npz): the game's bot `learned` plays it")
    p.add_argument("--plot", metavar="PNG", help="plot the strength over CPU minutes (needs matplotlib, the "
                   "arena extra)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _recipe(args: argparse.Namespace) -> Recipe:
    from folkdeck.train import Recipe

    spec = get_spec(args.game)
    try:
        hidden = tuple(int(h) for h in args.hidden.split(","))
    except ValueError:
        raise CliError("bad_hidden", value=args.hidden[:40]) from None
    try:
        margins = tuple(float(m) for m in args.margins.split(","))
    except ValueError:
        raise CliError("bad_margins", value=args.margins[:40]) from None
    counts = {"teach_deals": args.teach_deals, "round_deals": args.round_deals, "eval_deals": args.eval_deals,
              "fit_steps": args.fit_steps, "round_steps": args.round_steps, "members": args.members}
    if (min(counts.values()) < 1 or args.rounds < 0 or not hidden or min(hidden) < 1 or min(margins) < 0
            or args.return_weight < 0 or not 0 <= args.holdout < 1):
        raise CliError("train_counts")
    from folkdeck.agents.registry import MODEL_FILE_BOTS, make_agent

    if args.teacher not in spec.bots and not args.teacher.startswith(MODEL_FILE_BOTS):
        raise InvalidConfigError("unknown_bot", option="teacher", bot=args.teacher, game=spec.name,
                                 bots=", ".join(spec.bots))
    if args.teacher.startswith(MODEL_FILE_BOTS):
        make_agent(spec, args.teacher)  # its model file is read, and refused, before anything runs
    pool = tuple(k.strip() for k in args.pool.split(","))
    for kind in pool:
        if kind not in ("self", "previous", "heuristic") and kind not in spec.bots:
            raise InvalidConfigError("unknown_bot", option="pool", bot=kind[:40], game=spec.name,
                                     bots=", ".join(["self", "previous", *spec.bots]))
    rules = tuple(sorted(parse_assignments(args.rules).items()))
    from folkdeck.agents.features import FEATURES
    from folkdeck.engine.registry import games

    if args.features.endswith("+reading") and spec.hooks.card_reading is None:
        readers = [g for g in games() if get_spec(g).hooks.card_reading is not None]
        raise CliError("no_card_reading", game=spec.name, games=", ".join(readers))

    return Recipe(spec.name, rules, args.seed, hidden, args.teacher, rounds=args.rounds, margins=margins, pool=pool,
                  holdout=args.holdout,
                  return_weight=args.return_weight, features=FEATURES[args.features], **counts)


def train(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("jax") is None or importlib.util.find_spec("optax") is None:
        raise InvalidConfigError("needs_extra", option="train", feature="training", module="jax, optax",
                                 extra="train")
    from folkdeck.train import Run, ship
    from folkdeck.train import train as run_stages

    if args.address and args.backend != "ray":
        raise CliError("address_without_ray")
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        raise InvalidConfigError("needs_extra", option="plot", feature="plot", module="matplotlib", extra="arena")
    recipe = _recipe(args)
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    jobs = args.jobs if args.jobs is not None else default_jobs()
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, disable=args.quiet, transient=True) as bar:
        tasks: dict[str, TaskID] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(f"{recipe.game} {stage}", total=total)
            bar.update(tasks[stage], completed=done)

        try:
            run = Run(recipe, args.out or f"train-{recipe.game}", jobs=jobs, backend=args.backend,
                      address=args.address, progress=progress, log=lambda row: console.print(_line(row)))
        except ValueError as exc:
            raise CliError("train_recipe_differs", error=str(exc)) from None
        if recipe.holdout > 0 and run.pieces(recipe.teach_deals) < 2:
            raise CliError("holdout_too_few", pieces=run.pieces(recipe.teach_deals), deals=recipe.teach_deals,
                           per_piece=run.piece * recipe.chunk_deals)
        model = run_stages(run)
    console.print(f"model: {model}")
    if args.ship:
        console.print(f"shipped: {ship(model, recipe.game)}")
    if args.plot:
        from folkdeck.train.plot import plot_log

        console.print(f"plot: {plot_log(run.out / 'log.jsonl', args.plot, title=f'{recipe.game}: training')}")
    return 0


def _line(row: LogRow) -> str:
    """One evaluation as a line: stage, CPU minutes, loss, the learner's and the
    heuristic's mean return with 95% intervals."""
    parts = [f"{row['stage']:>9}", f"{row['cpu_minutes']:8.1f} CPU min", f"{row['decisions']} decisions"]
    if "margin" in row:
        parts.append(f"margin {row['margin']:g}")
    if "loss" in row:
        parts.append(f"loss {row['loss']:.4f}")
    if "holdout" in row:  # the checks each member kept: after how many minibatches, how well it chose
        held = row["holdout"]
        parts.append("held out: agreement " + "/".join(f"{h['agreement']:.3f}" for h in held)
                     + " regret " + "/".join(f"{h['regret']:.4f}" for h in held)
                     + " at " + "/".join(str(h["steps"]) for h in held) + " steps")
    for name, figures in row.get("eval", {}).items():
        m = figures["mean_return"]
        parts.append(f"{name} {m['mean']:+.3f} [{m['low']:+.3f}, {m['high']:+.3f}]")
    return "  ".join(parts)
