"""Env steps per second of folkdeck's RL adapters, against RLCard's Dou Dizhu ``env.run``
measured in the same run (same machine, same moment).

    python benchmarks/rl_throughput.py                 # every game, 3 s per measurement
    python benchmarks/rl_throughput.py --seconds 10 --games kaphai gouji --json out.json

What is counted (uniformly random legal choices everywhere, one process, no vectorising):

- ``pettingzoo``: AEC ``env.last()`` (observation vector and mask) + ``env.step`` per token;
- ``gymnasium``: ``env.step`` per learner token (the three other seats are ``random``
  bots, whose moves run inside ``step``);
- ``openspiel``: ``legal_actions`` + ``observation_tensor`` + ``apply_action`` per
  player node (chance nodes of the deal are applied but not counted);
- ``rlcard-doudizhu``: ``env.run`` with RLCard's random agents; a step is one player's
  action (RLCard builds every observation on the way).

Steps are tokens for folkdeck (a Kap Hai pair is one or two tokens, see docs/rl.md), so the
table also gives game actions per second. RLCard is not part of the ``rl`` extra:
``pip install rlcard`` to include it (the row is skipped without it).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any, cast


def _timed(run_once: Callable[[], tuple[int, int]], seconds: float) -> tuple[float, float, int]:
    """Run episodes until ``seconds`` pass: (steps/s, actions/s, episodes)."""
    steps = actions = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s, a = run_once()
        steps += s
        actions += a
        episodes += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, actions / elapsed, episodes


def pettingzoo_run(game: str, seed: int) -> Callable[[], tuple[int, int]]:
    from folkdeck.rl import aec_env

    env = aec_env(game)
    rng = random.Random(seed)

    def once() -> tuple[int, int]:
        env.reset(seed=rng.getrandbits(32))
        steps = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps, len(cast(Any, env.unwrapped).deal.state.history)  # the adapter's own env

    return once


def gymnasium_run(game: str, seed: int) -> Callable[[], tuple[int, int]]:
    import gymnasium

    from folkdeck.rl import gym_id

    env = gymnasium.make(gym_id(game), opponents="random")
    rng = random.Random(seed)

    def once() -> tuple[int, int]:
        _, info = env.reset(seed=rng.getrandbits(32))
        steps, done = 0, False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            if not len(legal):
                break
            _, _, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
            done = terminated or truncated
            steps += 1
        return steps, len(cast(Any, env.unwrapped).deal.state.history)  # the adapter's own env

    return once


def openspiel_run(game: str, seed: int) -> Callable[[], tuple[int, int]]:
    import pyspiel

    import folkdeck.rl.openspiel  # noqa: F401  (registers the games)

    spiel = pyspiel.load_game(f"python_folkdeck_{game}")
    rng = random.Random(seed)

    def once() -> tuple[int, int]:
        state = spiel.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            player = state.current_player()
            legal = state.legal_actions()
            state.observation_tensor(player)
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return steps, len(state.deal.state.history)

    return once


def rlcard_run(seed: int) -> Callable[[], tuple[int, int]] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("doudizhu", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def once() -> tuple[int, int]:
        trajectories, _ = env.run(is_training=False)
        steps = sum(len(t) // 2 for t in trajectories)  # [state, action, ..., state] per player
        return steps, steps

    return once


def main(argv: list[str] | None = None) -> int:
    import folkdeck

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=list(folkdeck.games()))
    parser.add_argument("--adapters", nargs="*", default=["pettingzoo", "gymnasium", "openspiel"])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", default="")
    args = parser.parse_args(argv)

    makers: dict[str, Callable[[str, int], Callable[[], tuple[int, int]]]] = {
        "pettingzoo": pettingzoo_run, "gymnasium": gymnasium_run, "openspiel": openspiel_run}
    rows: list[dict[str, Any]] = []
    baseline = rlcard_run(args.seed)
    if baseline is not None:
        sps, aps, eps = _timed(baseline, args.seconds)
        rows.append({"env": "rlcard-doudizhu", "adapter": "rlcard env.run", "steps_per_s": sps,
                     "actions_per_s": aps, "episodes": eps})
    for game in args.games:
        for adapter in args.adapters:
            sps, aps, eps = _timed(makers[adapter](game, args.seed), args.seconds)
            rows.append({"env": game, "adapter": adapter, "steps_per_s": sps, "actions_per_s": aps,
                         "episodes": eps})
    ref = rows[0]["steps_per_s"] if baseline is not None else None
    print("| env | adapter | steps/s | game actions/s | episodes | × RLCard Dou Dizhu |")  # noqa: T201
    print("|---|---|---:|---:|---:|---:|")  # noqa: T201
    for row in rows:
        ratio = f"{row['steps_per_s'] / ref:.2f}" if ref else "-"
        print(f"| {row['env']} | {row['adapter']} | {row['steps_per_s']:,.0f} | "  # noqa: T201
              f"{row['actions_per_s']:,.0f} | {row['episodes']} | {ratio} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"seconds": args.seconds, "rows": rows}, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
