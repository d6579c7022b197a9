"""How often a search bot agrees with itself, and how often other bots agree with it.

    python benchmarks/search_agreement.py --game kaphai --deals 60
    python benchmarks/search_agreement.py --game cangkul --deals 40 --bots learned,heuristic
    python benchmarks/search_agreement.py --game kaphai --deals 100 --by-hand 9,5

The deals are played by the game's heuristic bot in every seat (deal ``d`` dealt from
``derive_seed(777, d)``, the bots' draws from ``random.Random(d)``); at the decisions with a
choice of one seat per deal (seat ``d % players``), ``--search`` is asked twice, with two
different RNG seeds, and every bot of ``--bots`` once. Printed: the decisions, the share
where the search's two answers are the same, and the share where each bot plays the
search's first answer; with ``--by-hand``, the same per group of decisions by the cards the
acting seat holds (``9,5``: 9 or more, 5 to 8, fewer than 5).

What it is for: a learned bot imitates its teacher, the search; the search's agreement with
itself bounds how often any imitator can agree with it, so the learned bot's agreement is
read against that bound rather than against 1 (docs/bots.md, "The teacher's consistency").
"""

from __future__ import annotations

import argparse
import random

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.engine.build import build
from folkdeck.sim.arena import derive_seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kaphai")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--search", default="search", help="the bot asked twice (default: search)")
    parser.add_argument("--bots", default="learned,heuristic", help="bots compared with the search's answer")
    parser.add_argument("--by-hand", default="", help="cards-held bounds of the groups, high to low (9,5)")
    args = parser.parse_args()
    bounds = [int(b) for b in args.by_hand.split(",")] if args.by_hand else []
    game = folkdeck.load(args.game)
    spec = game.spec
    search = make_agent(spec, args.search, game=game)
    players = make_agent(spec, "heuristic", game=game)
    others = {name: make_agent(spec, name, game=game) for name in args.bots.split(",")}
    groups: dict[str, list[int]] = {}  # group → [decisions, the search's repeats, each bot's agreements]
    for deal in range(args.deals):
        state = game.new_state(seed=derive_seed(777, deal))
        rng = random.Random(deal)
        while not state.is_over():
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.observe(seat)
            if len(legal) > 1 and seat == deal % game.num_players:
                first = str(search.act(view, legal, random.Random(rng.random())))
                second = str(search.act(view, legal, random.Random(rng.random())))
                row = [1, first == second, *(str(b.act(view, legal, random.Random(0))) == first for b in others.values())]
                for group in ["all", *([_group(len(view.hand or ()), bounds)] if bounds else [])]:
                    counts = groups.setdefault(group, [0] * len(row))
                    counts[:] = [c + r for c, r in zip(counts, row, strict=True)]
            state.apply(players.act(view, legal, rng), seat)
    print(f"{args.game} ({build()} build), {args.deals} deals:")
    for group, (n, same, *agree) in groups.items():
        shares = ", ".join(f"{name} {a / n:.3f}" for name, a in zip(others, agree, strict=True))
        print(f"  {group}: {n} decisions; {args.search} agrees with itself {same / n:.3f}; "
              f"with its first answer: {shares}")


def _group(cards: int, bounds: list[int]) -> str:
    """The name of the hand-size group of a decision (``bounds``: ``--by-hand``'s, high to low)."""
    for i, bound in enumerate(bounds):
        if cards >= bound:
            return f"{bound}+ cards" if i == 0 else f"{bound}-{bounds[i - 1] - 1} cards"
    return f"under {bounds[-1]} cards"


if __name__ == "__main__":
    main()
