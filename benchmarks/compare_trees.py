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

``--new-option`` / ``--old-option`` pass a game option on one side only (``game:name=value``),
for an option that a newer tree added with a different default (e.g. ``ask_all_seats``,
whose old behaviour is ``false``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict

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
    args = parser.parse_args(argv)
    old_options, new_options = parse_options(args.old_option), parse_options(args.new_option)
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
