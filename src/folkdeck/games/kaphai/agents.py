"""Kap Hai bots that use the game's own knowledge."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from folkdeck.games.kaphai.actions import PUTUH, Pass
from folkdeck.games.kaphai.rules import Combo, Kind


def _is_bomb(c: Combo) -> bool:
    return c.kind is Kind.KARE or c.is_tong_farson or c.is_pae_kare


class GreedyAgent:
    """Plays its lowest legal combination and keeps its bombs for 2s.

    Leading, it sheds the combination with the lowest top card (more cards first
    on a tie). Following, it plays the lowest non-bomb that beats the table, uses a
    kare, tong-farson or pae-kare only on a 2 (or when the bomb empties its hand),
    never throws 2-2-2, and always declares putuh.
    """

    name = "greedy"

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        if PUTUH in legal_actions:
            return PUTUH
        plays = [a for a in legal_actions if isinstance(a, Combo) and not a.is_throwable]
        passes = [a for a in legal_actions if isinstance(a, Pass)]
        if not passes:  # leading
            pool = [c for c in plays if not _is_bomb(c)] or plays or list(legal_actions)
            return min(pool, key=lambda c: (c.key >> 2, -c.size, c.key) if isinstance(c, Combo) else (99,))
        hand_size = len(observation.hand) if getattr(observation, "hand", None) else 99
        normal = [c for c in plays if not _is_bomb(c)]
        if normal:
            return min(normal, key=lambda c: c.key)
        top = getattr(observation, "top", None) or ""
        top_is_two = top.startswith("2") and all(t.startswith("2") for t in top.split())
        bombs = [c for c in plays if _is_bomb(c)]
        if bombs and (top_is_two or any(c.size == hand_size for c in bombs)):
            return min(bombs, key=lambda c: (c.kind, c.key))
        return passes[0]


__all__ = ["GreedyAgent"]
