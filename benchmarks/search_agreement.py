"""How often a search bot agrees with itself, and how often other bots agree with it.

    python benchmarks/search_agreement.py --game kaphai --deals 60
    python benchmarks/search_agreement.py --game cangkul --deals 40 --bots learned,heuristic

The deals are played by the game's heuristic bot in every seat (deal ``d`` dealt from
``derive_seed(777, d)``, the bots' draws from ``random.Random(d)``); at the decisions with a
choice of one seat per deal (seat ``d % players``), ``--search`` is asked twice, with two
different RNG seeds, and every bot of ``--bots`` once. Printed: the decisions, the share
where the search's two answers are the same, and the share where each bot plays the
search's first answer.

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
    args = parser.parse_args()
    game = folkdeck.load(args.game)
    spec = game.spec
    search = make_agent(spec, args.search, game=game)
    players = make_agent(spec, "heuristic", game=game)
    others = {name: make_agent(spec, name, game=game) for name in args.bots.split(",")}
    decisions = same = 0
    agree = dict.fromkeys(others, 0)
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
                decisions += 1
                same += first == second
                for name, bot in others.items():
                    agree[name] += str(bot.act(view, legal, random.Random(0))) == first
            state.apply(players.act(view, legal, rng), seat)
    shares = ", ".join(f"{name} {agree[name] / decisions:.3f}" for name in others)
    print(f"{args.game} ({build()} build): {decisions} decisions; {args.search} agrees with itself "
          f"{same / decisions:.3f}; with its first answer: {shares}")


if __name__ == "__main__":
    main()
