"""Kap Hai against OpenSpiel's Dou Dizhu (C++), both stepped from Python, in one run.

    python benchmarks/openspiel_compare.py                  # 5 rounds of 2 s per case
    python benchmarks/openspiel_compare.py --rounds 9 --seconds 3 --json out.json
    python benchmarks/openspiel_compare.py --games kaphai gouji cambio

Both cases play whole deals with uniformly random legal choices in one Python process,
which is how a researcher drives either engine:

- ``openspiel-doudizhu``: ``pyspiel.load_game("dou_dizhu")``; chance nodes (the deal, the
  landlord cards) are sampled from ``chance_outcomes()``; at every player node
  ``legal_actions()`` then ``apply_action``. A decision is one player node.
- ``folkdeck:<game>``: ``game.new_state(seed=n)``, then ``legal_actions()`` and ``apply``
  (which verifies the action) until the deal is over. A decision is one ``apply``.

Dou Dizhu is the nearest game OpenSpiel ships to Kap Hai (a climbing game whose
combinations are listed at each turn; 3 players, 54 cards, bidding first). The cases are
interleaved round by round (A B A B ...) and timed in CPU seconds of this process
(``time.process_time``), so a busy machine lengthens the run but moves both sides alike;
the ratio of each round is reported, with the median and the range over rounds.

Needs ``open-spiel`` (the ``rl`` extra installs it: ``pip install -e '.[rl]'``). The
figures say which folkdeck build ran (``python`` or ``mypyc``), see README "Fast build".
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

Case = Callable[[float], tuple[int, int, float]]
"""Play deals for about the given CPU seconds; return (deals, decisions, CPU seconds)."""


def openspiel_doudizhu() -> Case:
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(7)

    def run(seconds: float) -> tuple[int, int, float]:
        deals = decisions = 0
        start = time.process_time()
        while deals == 0 or time.process_time() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    decisions += 1
            deals += 1
        return deals, decisions, time.process_time() - start

    return run


def folkdeck_game(name: str) -> Case:
    import folkdeck

    game = folkdeck.load(name)
    rng = random.Random(7)
    seed = 0

    def run(seconds: float) -> tuple[int, int, float]:
        nonlocal seed
        deals = decisions = 0
        start = time.process_time()
        while deals == 0 or time.process_time() - start < seconds:
            state = game.new_state(seed=seed)
            seed += 1
            while not state.is_over():
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                decisions += 1
            deals += 1
        return deals, decisions, time.process_time() - start

    return run


def compare(games: list[str], *, rounds: int, seconds: float) -> dict[str, Any]:
    from folkdeck.engine.build import build

    cases: dict[str, Case] = {"openspiel-doudizhu": openspiel_doudizhu()}
    for g in games:
        cases[f"folkdeck:{g}"] = folkdeck_game(g)
    for case in cases.values():  # warm up: imports, caches, first allocations
        case(min(0.2, seconds))
    per_round: list[dict[str, dict[str, float]]] = []
    for r in range(rounds):
        order = list(cases) if r % 2 == 0 else list(reversed(cases))
        rates: dict[str, dict[str, float]] = {}
        for key in order:
            deals, decisions, cpu = cases[key](seconds)
            rates[key] = {"deals_per_s": deals / cpu, "decisions_per_s": decisions / cpu}
        per_round.append(rates)
        print(f"round {r + 1}/{rounds}: " + ", ".join(
            f"{k} {v['deals_per_s']:,.0f} deals/s" for k, v in rates.items()), file=sys.stderr)
    summary: dict[str, Any] = {}
    for key in cases:
        entry: dict[str, Any] = {}
        for unit in ("deals_per_s", "decisions_per_s"):
            values = [rnd[key][unit] for rnd in per_round]
            entry[unit] = round(statistics.median(values), 1)
            if key != "openspiel-doudizhu":
                ratios = [rnd[key][unit] / rnd["openspiel-doudizhu"][unit] for rnd in per_round]
                entry[f"{unit}_x_openspiel"] = {"median": round(statistics.median(ratios), 3),
                                                "min": round(min(ratios), 3), "max": round(max(ratios), 3)}
        summary[key] = entry
    return {"folkdeck_build": build(), "python": sys.version.split()[0], "rounds": rounds,
            "seconds_per_case": seconds, "cases": summary}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", default=["kaphai"], help="folkdeck games (default: kaphai)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per case per round")
    parser.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    args = parser.parse_args(argv)
    try:
        result = compare(args.games, rounds=args.rounds, seconds=args.seconds)
    except ImportError as exc:
        print(f"openspiel_compare: {exc.name} is not installed: pip install -e '.[rl]'", file=sys.stderr)
        return 2
    print(f"folkdeck build: {result['folkdeck_build']}, Python {result['python']}, "
          f"{result['rounds']} rounds x {result['seconds_per_case']} CPU s per case (medians)")
    print(f"{'case':<24}{'deals/s':>12}{'decisions/s':>14}{'deals x OS':>22}{'decisions x OS':>22}")
    for key, entry in result["cases"].items():
        cells = [f"{entry['deals_per_s']:>12,.0f}", f"{entry['decisions_per_s']:>14,.0f}"]
        for unit in ("deals_per_s", "decisions_per_s"):
            r = entry.get(f"{unit}_x_openspiel")
            cells.append(f"{r['median']:>8.3f} ({r['min']:.3f}-{r['max']:.3f})" if r else f"{'1':>22}")
        print(f"{key:<24}" + "".join(cells))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
