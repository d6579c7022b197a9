"""How long a search bot thinks per decision, and a fingerprint of how it played.

    python benchmarks/search_timing.py --deals 300                 # Kap Hai, `search` vs `greedy`
    python benchmarks/search_timing.py --game gouji --bot pimc --deals 50

Seat 0 plays ``--bot``, the other seats ``--others``, over seeded deals (deal ``d`` is dealt
from seed ``5000 + d`` and the bots draw from ``random.Random(d)``). Printed: the median,
90th percentile and worst CPU time of seat 0's decisions (those with a choice), seat 0's
total return, and a hash of every action played.

Two builds or two trees that print the same hash played the same moves on the same
deals, so a speed-up that keeps the hash loses no strength: that is the duplicate-deal
check of a faster search (run it with ``PYTHONPATH=<other tree>/src`` for the old tree,
or in ``.venv-fast`` for the compiled build).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import time
from typing import Any

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.engine.build import build


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kaphai")
    parser.add_argument("--bot", default="search")
    parser.add_argument("--others", default="greedy")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    args = parser.parse_args()
    spec = folkdeck.get_spec(args.game)
    options: dict[str, Any] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = {"true": True, "false": False}.get(value, int(value) if value.isdigit() else value)
    game = folkdeck.load(args.game, **options)
    digest = hashlib.sha256()
    times: list[float] = []
    total = 0.0
    for d in range(args.deals):
        bot, others = make_agent(spec, args.bot, game=game), make_agent(spec, args.others, game=game)
        rng = random.Random(d)
        state = game.new_state(seed=5000 + d)
        while not state.is_over():
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.observe(seat)
            start = time.process_time()
            action = (bot if seat == 0 else others).act(view, legal, rng)
            if seat == 0 and len(legal) > 1:
                times.append(time.process_time() - start)
            digest.update(f"{seat}:{action};".encode())
            state.apply(action, seat)
        result = state.result()
        assert result is not None
        total += result.returns[0]
    times.sort()
    print(f"{args.game} {args.bot} (seat 0) vs {args.others}, {args.deals} deals, build {build()}: "
          f"{len(times)} decisions, median {1e3 * statistics.median(times):.0f} ms, "
          f"p90 {1e3 * times[int(0.9 * len(times))]:.0f} ms, worst {1e3 * times[-1]:.0f} ms; "
          f"seat 0 returned {total:g}; moves {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
