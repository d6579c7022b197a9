"""Every game's bots against its heuristic bot, in one run: the learned bots' figures table.

For each game and each bot of ``--bots`` (those the game has), an arena of duplicate deals
(fresh seeds, every rotation): the bot in one seat and the game's heuristic bot (Cambio:
``counting``) in the others; Gou Ji: a team of the bot against a team of the heuristic
(seats alternate). Prints a Markdown table: the bot's mean return and win share with 95%
intervals, the heuristic seats' mean return, and the bot's mean and slowest decision (CPU
milliseconds, in the build that runs this script: ``folkdeck.engine.build.build()``).

    python benchmarks/bots_table.py --deals 40 --games kaphai cangkul --bots random,heuristic,search,learned
"""

from __future__ import annotations

import argparse
import json
import time

import folkdeck
from folkdeck.engine.build import build
from folkdeck.engine.registry import get_spec
from folkdeck.sim.arena import ArenaConfig, run_arena


def lineup(game: str, bot: str) -> tuple[str, ...]:
    spec = get_spec(game)
    other = "heuristic" if "heuristic" in spec.bots else spec.default_bot
    n = spec.default_players
    if spec.teams(n):  # a team of the bot against a team of the heuristic
        return tuple(bot if s % 2 == 0 else other for s in range(n))
    return (bot, *[other] * (n - 1))


def row(game: str, bot: str, deals: int, seed: int, jobs: int) -> dict[str, object]:
    bots = lineup(game, bot)
    started = time.perf_counter()
    summary = run_arena(ArenaConfig(game, bots, deals, seed=seed, keep_records=False), jobs=jobs)
    mine = next(b for b in summary.bots if b.name == bot)
    others = [b for b in summary.bots if b.name != bot]
    clock = mine.decision_time
    return {"game": game, "bot": bot, "deals": deals, "seed": seed, "games": summary.games_played,
            "mean_return": mine.mean_return.to_dict(), "win_share": mine.win_share.to_dict(),
            "heuristic_return": others[0].mean_return.to_dict() if others else None,
            "decision_ms": round(clock.mean * 1e3, 3) if clock else None,
            "slowest_ms": round(clock.slowest * 1e3, 1) if clock else None,
            "wall_s": round(time.perf_counter() - started, 1), "build": build()}


def _ci(figure: object) -> str:
    if not isinstance(figure, dict):
        return "-"
    return f"{figure['mean']:+.3f} [{figure['low']:+.3f}, {figure['high']:+.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=folkdeck.games())
    parser.add_argument("--bots", default="random,heuristic,search,learned,learned+search")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=20261206)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", help="also write the rows to this file (JSON lines)")
    args = parser.parse_args()
    print("| game | bot | deals | mean return (95%) | win share (95%) | heuristic seats' return | "
          f"decision ms mean / max ({build()}) |")
    print("|---|---|---:|---|---|---|---|")
    for game in args.games:
        spec = get_spec(game)
        for bot in args.bots.split(","):
            if bot == "heuristic" and "heuristic" not in spec.bots:
                bot = spec.default_bot
            if bot not in spec.bots and not bot.startswith("learned="):  # learned=PATH: a model file
                continue
            r = row(game, bot, args.deals, args.seed, args.jobs)
            print(f"| {game} | {bot} | {args.deals} | {_ci(r['mean_return'])} | {_ci(r['win_share'])} | "
                  f"{_ci(r['heuristic_return'])} | {r['decision_ms']} / {r['slowest_ms']} |", flush=True)
            if args.json:
                with open(args.json, "a") as f:
                    f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
