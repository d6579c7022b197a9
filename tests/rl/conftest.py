"""Helpers of the RL adapters' tests. Each test module needs the ``rl`` extra (numpy,
PettingZoo, Gymnasium, OpenSpiel) and skips without it (``pytest.importorskip``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import folkdeck

GAMES = folkdeck.games()


def presets(game: str) -> list[str]:
    from folkdeck.engine.registry import get_spec

    return list(get_spec(game).presets)


def positions(game: Any, deals: int, seed: int = 0, every: int = 1) -> Iterator[Any]:
    """Decision points of random token-level deals: each a ``TokenDeal`` before a choice
    (the deal goes on from a clone, so the caller may keep or change what it gets)."""
    from folkdeck.rl.encoding import Encoding
    from folkdeck.rl.substeps import TokenDeal

    enc = Encoding.of(game)
    rng = random.Random(seed)
    for d in range(deals):
        deal = TokenDeal(enc, game.new_state(seed=seed * 1000 + d))
        step = 0
        while deal.chooser is not None:
            if step % every == 0:
                yield deal.clone()
            deal.choose(rng.choice(deal.legal_tokens()))
            step += 1
