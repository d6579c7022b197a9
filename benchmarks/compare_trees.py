"""Random-play speed of two folkdeck source trees, interleaved in one run.

    git worktree add /tmp/before <commit>
    python benchmarks/compare_trees.py --old /tmp/before/src --new src --rounds 5
    python benchmarks/compare_trees.py --old /tmp/before/src --new src \\
        --new-option kaphai:ask_all_seats=false --new-option gouji:ask_all_seats=false

How a change to the engines is judged ("the bench figures do not drop"): each round runs,
for every game, one subprocess per tree (old, new; the order alternates by round) that
plays random deals through ``legal_actions`` + ``apply`` for ``--seconds`` of CPU time
and reports deals per CPU second, the best of ``--windows`` windows. The ratio new ÷ old
of each round is printed, then the median and range per game. Both trees are driven by
the same loop (no helper of either tree), so the figure is the engines' own.

``--instructions`` counts instead of timing: each tree plays the same deals (from seed 0, one random
generator) under Valgrind's cachegrind, and the figure is the instructions ``--deals`` deals
took after a tenth as many played first (so neither the imports nor the first use of
anything counts). A count does not move with the machine's load or its neighbours, so one round is
enough, the runs may go in parallel (``--jobs``), and new ÷ old speed is old ÷ new
instructions. It leaves out what a count cannot see (cache misses, the compiled build's
native code is counted like any other), so report it beside the timed ratios, not instead.

    python benchmarks/compare_trees.py --old /tmp/before/src --new src --instructions --jobs 2

``--new-option`` / ``--old-option`` pass a game option on one side only (``game:name=value``),
for an option that a newer tree added with a different default (e.g. ``ask_all_seats``,
whose old behaviour is ``false``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

PLAYOUTS = r"""
import json, random, sys, time
import folkdeck
name, options, seconds, windows = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
game = folkdeck.load(name, **options)
rng = random.Random(1)
best = 0.0
seed = 0
for _ in range(windows):
    start = time.process_time()
    deals = 0
    while deals == 0 or time.process_time() - start < seconds:
        state = game.new_state(seed=seed)
        seed += 1
        while not state.is_over():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        deals += 1
    best = max(best, deals / (time.process_time() - start))
print(json.dumps(best))
"""


FIXED_DEALS = r"""
import json, random, sys
import folkdeck
name, options, deals = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
game = folkdeck.load(name, **options)
rng = random.Random(1)
for seed in range(deals):
    state = game.new_state(seed=seed)
    while not state.is_over():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
"""

DEALS: dict[str, int] = {"kaphai": 150, "gouji": 30, "cambio": 3000, "cangkul": 400, "burro_es": 400,
                         "burro_pt": 400}
"""Deals counted per game by ``--instructions``: about a quarter of a second of play each."""


def parse_options(items: list[str]) -> dict[str, dict[str, object]]:
    """``["gouji:ask_all_seats=false"]`` → ``{"gouji": {"ask_all_seats": False}}``.

    >>> parse_options(["gouji:ask_all_seats=false", "cambio:players=5"])
    {'gouji': {'ask_all_seats': False}, 'cambio': {'players': 5}}
    """
    out: dict[str, dict[str, object]] = defaultdict(dict)
    for item in items:
        game, _, setting = item.partition(":")
        key, _, raw = setting.partition("=")
        if not (game and key and raw):
            raise SystemExit(f"compare_trees: {item!r} is not game:name=value")
        value: object = {"true": True, "false": False}.get(raw.lower(), raw)
        if isinstance(value, str) and value.lstrip("-").isdigit():
            value = int(value)
        out[game][key] = value
    return dict(out)


def rate(src: str, game: str, options: dict[str, object], seconds: float, windows: int) -> float:
    env = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
    done = subprocess.run([sys.executable, "-c", PLAYOUTS, game, json.dumps(options), str(seconds), str(windows)],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"compare_trees: {src} {game}: {done.stderr.strip().splitlines()[-1]}")
    return float(done.stdout)


def instructions(src: str, game: str, options: dict[str, object], deals: int) -> int:
    """Instructions (cachegrind's ``I refs``) that ``deals`` deals of ``game`` take in ``src``.

    They are the difference of two runs, one playing ``warm + deals`` deals and one only the
    first ``warm`` (a tenth): both load Python, the game and whatever the first deals import
    on first use, so only the later deals' own work is left. Python runs with
    ``PYTHONHASHSEED=0`` so that both runs of a tree hash alike.
    """
    def count(n: int) -> int:
        env = {**os.environ, "PYTHONPATH": os.path.abspath(src), "PYTHONHASHSEED": "0"}
        command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                   sys.executable, "-c", FIXED_DEALS, game, json.dumps(options), str(n)]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if done.returncode != 0 or found is None:
            raise SystemExit(f"compare_trees: {src} {game}: {done.stderr.strip().splitlines()[-1:]}")
        return int(found.group(1).replace(",", ""))

    warm = max(1, deals // 10)
    return count(warm + deals) - count(warm)


def count_instructions(args: argparse.Namespace, old_options: dict[str, dict[str, object]],
                       new_options: dict[str, dict[str, object]]) -> int:
    """``--instructions``: one count per game and tree, new ÷ old speed as old ÷ new counts."""
    if shutil.which("valgrind") is None:
        raise SystemExit("compare_trees: --instructions needs Valgrind (Debian's valgrind)")
    jobs = {(game, side): (src, options.get(game, {}), args.deals or DEALS.get(game, 200))
            for game in args.games
            for side, src, options in (("old", args.old, old_options), ("new", args.new, new_options))}
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = {(game, side): pool.submit(instructions, src, game, options, deals)
                   for (game, side), (src, options, deals) in jobs.items()}
        counts = {key: future.result() for key, future in futures.items()}
    rows = []
    print("new/old speed by instructions (old ÷ new instructions for the same deals)")
    for game in args.games:
        old, new, deals = counts[game, "old"], counts[game, "new"], jobs[game, "old"][2]
        rows.append({"game": game, "deals": deals, "old": old, "new": new})
        print(f"  {game:<9} {deals:>5} deals  old {old / deals:>13,.0f}  new {new / deals:>13,.0f} instructions/deal"
              f"  new/old {old / new:.3f}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"instructions": rows}, out, indent=2)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", required=True, help="the old tree's src/ directory")
    parser.add_argument("--new", default="src", help="the new tree's src/ directory (default: src)")
    parser.add_argument("--games", nargs="+", default=["kaphai", "gouji", "cambio", "cangkul", "burro_es", "burro_pt"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.6, help="CPU seconds per window")
    parser.add_argument("--windows", type=int, default=5, help="windows per measurement (the best counts)")
    parser.add_argument("--old-option", action="append", default=[], metavar="GAME:NAME=VALUE")
    parser.add_argument("--new-option", action="append", default=[], metavar="GAME:NAME=VALUE")
    parser.add_argument("--json", metavar="FILE", help="also write every measurement as JSON")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under Valgrind instead of timing (one round)")
    parser.add_argument("--deals", type=int, help="deals per game for --instructions (default: per game)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel runs for --instructions")
    args = parser.parse_args(argv)
    old_options, new_options = parse_options(args.old_option), parse_options(args.new_option)
    if args.instructions:
        return count_instructions(args, old_options, new_options)
    ratios: dict[str, list[float]] = defaultdict(list)
    rows = []
    for r in range(args.rounds):
        for game in args.games:
            sides = [("old", args.old, old_options), ("new", args.new, new_options)]
            measured = {}
            for side, src, options in (sides if r % 2 == 0 else sides[::-1]):
                measured[side] = rate(src, game, options.get(game, {}), args.seconds, args.windows)
            ratios[game].append(measured["new"] / measured["old"])
            rows.append({"round": r + 1, "game": game, **measured})
            print(f"round {r + 1} {game:<9} old {measured['old']:>9,.1f}  new {measured['new']:>9,.1f} deals/s"
                  f"  new/old {measured['new'] / measured['old']:.3f}", flush=True)
    print("new/old per game: median (min-max)")
    for game, values in ratios.items():
        print(f"  {game:<9} {statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"rows": rows, "ratios": ratios}, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
