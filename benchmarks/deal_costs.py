"""Where a random deal's time goes: dealing it (``new_state(seed=...)``) against playing it.

    python benchmarks/deal_costs.py --games cambio kaphai --rounds 5 --seconds 1
    .venv-fast/bin/python benchmarks/deal_costs.py --games cambio

For each game, per deal in CPU ns: ``deal`` makes a seeded state and drops it, ``whole``
also plays it out with random choices as ``folkdeck bench`` does (``random_playout``); the
play is the difference. The cases are interleaved round by round; the figures are medians
over rounds. Run it in both builds (README "Fast build") to see which part the compiler
speeds up: a seeded deal's shuffle is fixed by the record format (BLAKE2 bits in Cambio),
and making and freeing a state's lists and dicts is CPython's own work in either build.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable

import folkdeck
from folkdeck.engine.build import build
from folkdeck.engine.conformance import random_playout


def _per_deal(run: Callable[[int], None], seconds: float) -> float:
    """CPU ns per call of ``run(seed)`` over about ``seconds``."""
    start = time.process_time()
    until = start + seconds
    deals = 0
    while deals == 0 or time.process_time() < until:
        for seed in range(deals, deals + 200):
            run(seed)
        deals += 200
    return (time.process_time() - start) / deals * 1e9


def measure(name: str, rounds: int, seconds: float) -> dict[str, object]:
    game = folkdeck.load(name)
    rng = random.Random(12345)

    def deal(seed: int) -> None:
        game.new_state(seed=seed)

    def whole(seed: int) -> None:
        random_playout(game.new_state(seed=seed), rng)

    deals, wholes = [], []
    for _ in range(rounds):
        deals.append(_per_deal(deal, seconds))
        wholes.append(_per_deal(whole, seconds))
    d, w = statistics.median(deals), statistics.median(wholes)
    return {"game": name, "build": build(), "deal_ns": round(d), "whole_ns": round(w),
            "play_ns": round(w - d), "deal_share": round(d / w, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(folkdeck.games()))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    args = parser.parse_args(argv)
    for name in args.games:
        row = measure(name, args.rounds, args.seconds)
        if args.json:
            sys.stdout.write(json.dumps(row) + "\n")
        else:
            sys.stdout.write(f"{name:10s} {row['build']:6s} deal {row['deal_ns']:>9,} ns  "
                             f"whole {row['whole_ns']:>9,} ns  play {row['play_ns']:>9,} ns  "
                             f"deal share {row['deal_share']:.0%}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
