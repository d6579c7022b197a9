"""Deep Monte-Carlo self-play (as in DouZero) for a folkdeck game, on CPU with PyTorch.

Not run in CI. Needs the ``rl`` extra and PyTorch (``pip install torch``)::

    python examples/train_dmc.py --game kaphai --minutes 20 --eval-deals 1000 --out dmc.pt

One network ``Q(observation, action)`` is shared by every seat. Each game decision scores
all legal actions (the observation is :class:`folkdeck.rl.Encoding`'s vector of the seat's
view; an action is the count vector of its cards plus its other words, from the same token
vocabulary) and plays the best, or a random one with probability ``epsilon``; when the deal
ends every decision of a seat is a training pair ``(obs, action) → that seat's return``
(Monte-Carlo targets, mean squared error). Evaluation is by duplicate deals: every deal is
played once with the learner in each seat and the same bots (``random`` or ``heuristic``)
in the others; the win share is the learner's share of first places.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

import folkdeck
from folkdeck.rl import Encoding
from folkdeck.sim.runner import play_deal


class QNet(nn.Module):
    def __init__(self, obs_size: int, act_size: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size + act_size, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden // 2), nn.ReLU(), nn.Linear(hidden // 2, 1))

    def forward(self, obs: torch.Tensor, act: torch.Tensor) -> torch.Tensor:
        return self.body(torch.cat([obs, act], dim=-1)).squeeze(-1)


class DmcAgent:
    """A folkdeck agent (``act(view, legal, rng)``) that plays the greedy action of the net."""

    name = "dmc"

    def __init__(self, enc: Encoding, net: QNet, epsilon: float = 0.0) -> None:
        self.enc, self.net, self.epsilon = enc, net, epsilon
        self.trace: list[tuple[int, np.ndarray, np.ndarray]] = []  # (seat, obs, action) when training

    def features(self, action: Any) -> np.ndarray:
        out = np.zeros(self.enc.num_tokens, np.float32)
        for token in self.enc.spell(action):
            out[token] += 1.0
        return out

    def act(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        obs = self.enc.observe(view)
        acts = np.stack([self.features(a) for a in legal])
        if self.epsilon and rng.random() < self.epsilon:
            i = rng.randrange(len(legal))
        else:
            with torch.no_grad():
                q = self.net(torch.from_numpy(np.repeat(obs[None], len(legal), 0)), torch.from_numpy(acts))
            i = int(torch.argmax(q))
        if self.epsilon:
            self.trace.append((view.seat, obs, acts[i]))
        return legal[i]


def train(game_name: str, minutes: float, seed: int) -> tuple[QNet, Encoding, dict[str, Any]]:
    game = folkdeck.load(game_name)
    enc = Encoding.of(game)
    torch.manual_seed(seed)
    net = QNet(enc.size, enc.num_tokens)
    opt = torch.optim.Adam(net.parameters(), lr=3e-4)
    agent = DmcAgent(enc, net, epsilon=0.1)
    rng = random.Random(seed)
    buffer: list[tuple[np.ndarray, np.ndarray, float]] = []
    deals = updates = 0
    start = time.time()
    while time.time() - start < minutes * 60:
        agent.trace = []
        state = play_deal(game.new_state(seed=rng.getrandbits(63)), [agent] * game.num_players, rng)
        result = state.result()
        assert result is not None
        buffer += [(o, a, float(result.returns[s])) for s, o, a in agent.trace]
        deals += 1
        if len(buffer) >= 2048:
            rng.shuffle(buffer)
            for i in range(0, len(buffer), 256):
                batch = buffer[i:i + 256]
                obs = torch.from_numpy(np.stack([b[0] for b in batch]))
                act = torch.from_numpy(np.stack([b[1] for b in batch]))
                target = torch.tensor([b[2] for b in batch])
                loss = nn.functional.mse_loss(net(obs, act), target)
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 40.0)
                opt.step()
                updates += 1
            buffer = []
    return net, enc, {"deals": deals, "updates": updates, "seconds": round(time.time() - start)}


def duplicate_win_share(game_name: str, net: QNet, enc: Encoding, opponent: str, deals: int,
                        seed: int) -> dict[str, float]:
    """The learner in each seat of every deal, ``opponent`` bots in the others."""
    game = folkdeck.load(game_name)
    n = game.num_players
    learner = DmcAgent(enc, net)
    wins = games = 0
    points = 0.0
    for d in range(deals):
        for seat in range(n):
            bots = [learner if s == seat else game.spec.bots[opponent]() for s in range(n)]
            state = play_deal(game.new_state(seed=seed + d), bots, random.Random(seed * 7 + d * n + seat))
            result = state.result()
            assert result is not None
            wins += result.placings[seat] == 1
            points += result.returns[seat]
            games += 1
    return {"win_share": wins / games, "mean_return": points / games, "games": games,
            "fair_share": 1 / n}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="kaphai")
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--eval-deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    net, enc, stats = train(args.game, args.minutes, args.seed)
    report: dict[str, Any] = {"game": args.game, "training": {**stats, "minutes": args.minutes,
                                                              "threads": args.threads}}
    for opponent in ("random", "heuristic"):
        report[opponent] = duplicate_win_share(args.game, net, enc, opponent, args.eval_deals, 10_000)
    print(json.dumps(report, indent=2))  # noqa: T201
    if args.out:
        torch.save({"state_dict": net.state_dict(), "report": report}, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
