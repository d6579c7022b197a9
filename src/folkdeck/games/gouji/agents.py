"""Gou Ji bots that use the game's own knowledge."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from folkdeck.games.gouji.actions import (
    DECLARE,
    INSIST,
    NO,
    OPEN,
    PASS,
    REVOLUTION,
    XIAN,
    Burn,
    Return,
)
from folkdeck.games.gouji.rules import BJ, RANK_OF, RJ, THRESHOLDS, TWO, Play, is_gouji


def _cost(p: Play) -> tuple[int, int, int]:
    """Prefer few wild cards, then low rank."""
    return (p.w2 + 3 * (p.wbj + p.wrj), p.rank, -p.natural)


class GreedyAgent:
    """Sheds low natural sets first and respects its team.

    Leading: the lowest rank, all natural copies, no wilds if it can. Following: the
    cheapest set that beats (fewest wilds, then lowest rank) — but it passes when a
    teammate's play stands and passing is allowed. Windows: declares 3s, calls
    revolution, never objects, insists, burns when it can, returns its lowest cards,
    agrees to 先让让, and asks for it when offered.
    """

    name = "greedy"

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        legal = list(legal_actions)
        for word in (DECLARE, REVOLUTION, INSIST):
            if word in legal:
                return word
        burns = [a for a in legal if isinstance(a, Burn)]
        if burns:
            return min(burns, key=lambda b: _cost(b.play))
        if NO in legal:
            return NO
        returns = [a for a in legal if isinstance(a, Return)]
        if returns:
            return returns[0]
        plays = [a for a in legal if isinstance(a, Play)]
        if PASS not in legal:  # leading
            naturals = [p for p in plays if not (p.w2 or p.wbj or p.wrj)]
            pool = naturals or plays
            if pool:
                return min(pool, key=lambda p: (p.rank, -p.natural))
            return next(a for a in legal if a != OPEN)
        seat = getattr(observation, "seat", None)
        top_seat = getattr(observation, "top_seat", None)
        teammate_winning = (seat is not None and top_seat is not None and top_seat != seat
                            and (top_seat - seat) % 2 == 0)
        if getattr(observation, "xian_request", None) is not None or teammate_winning or not plays:
            return PASS
        return min(plays, key=_cost)

    def interrupt(self, observation: Any, legal_actions: Sequence[Any],
                  rng: random.Random) -> Any:
        return XIAN if XIAN in legal_actions else None


def _counts(hand: Sequence[Any]) -> list[int]:
    counts = [0] * 15
    for c in hand:
        counts[RANK_OF[c]] += 1
    return counts


class HeuristicAgent:
    """Team play from seed 001 (``docs/bots.md``):

    - never beats a teammate's standing play when it may pass (nor a seat that asked
      先让让); beats an opponent's play with the cheapest set (fewest wilds, lowest rank);
      ``save_wilds``: keeps its 2s and jokers while the hand is long and the table low;
    - leads its whole hand when it can, else its lowest natural rank whole;
      ``pressure``: with its opposite (对门) at 10 cards or fewer, leads a natural gouji set
      (10×5, J×4, Q×3, K×2, A×2, a 2) to force the duel; ``endgame``: with three ranks
      or fewer left it leads its best set first;
    - tribute returns: the lowest cards that break no pair or set (useless singles);
    - burns whenever it can (a burn leaves one set: it is about to go out), cheapest burn;
    - declares its 3s, calls revolution, never objects, insists; asks for 先让让 when
      offered.
    """

    name = "heuristic"
    save_wilds = False
    pressure = False
    endgame = False
    """The three tactics below are switches, off by default: against the greedy bot each
    one measured worse or no better (``docs/bots.md``)."""

    def __init__(self, thresholds: dict[int, int] | None = None) -> None:
        self.thresholds = dict(THRESHOLDS if thresholds is None else thresholds)

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        legal = list(legal_actions)
        for word in (DECLARE, REVOLUTION, INSIST):
            if word in legal:
                return word
        burns = [a for a in legal if isinstance(a, Burn)]
        if burns:
            return min(burns, key=lambda b: _cost(b.play))
        if NO in legal:
            return NO
        hand = getattr(observation, "hand", None) or ()
        counts = _counts(hand)
        returns = [a for a in legal if isinstance(a, Return)]
        if returns:
            return min(returns, key=lambda a: (sum(counts[r] - a.ranks.count(r) > 0 for r in set(a.ranks)),
                                               sum(r in (TWO, BJ, RJ) for r in a.ranks), sorted(a.ranks,
                                               reverse=True)))
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return PASS if PASS in legal else legal[0]
        if PASS not in legal:
            return self._lead(observation, plays, counts)
        seat = getattr(observation, "seat", None)
        top_seat = getattr(observation, "top_seat", None)
        mate = seat is not None and top_seat is not None and top_seat != seat \
            and (top_seat - seat) % 2 == 0
        if mate or getattr(observation, "xian_request", None) is not None:
            return PASS
        best = min(plays, key=_cost)
        wild = best.w2 + best.wbj + best.wrj or best.rank >= TWO
        top = getattr(observation, "top", None) or ""
        duel = getattr(observation, "mode", "normal") != "normal"
        if self.save_wilds and wild and not duel and len(hand) > 15 and best.size < len(hand) \
                and top.split()[0] in ("3", "4", "5", "6", "7", "8", "9"):
            return PASS
        return best

    def _lead(self, observation: Any, plays: list[Play], counts: list[int]) -> Play:
        seat = getattr(observation, "seat", None)
        left = getattr(observation, "counts", None)
        naturals = [p for p in plays if not (p.w2 or p.wbj or p.wrj)]
        pool = naturals or plays
        units = sum(1 for c in counts if c)
        whole = [p for p in pool if p.size == sum(counts)]
        if whole:
            return whole[0]
        opposite = left[(seat + 3) % 6] if seat is not None and left is not None else 0
        if opposite and (opposite is None or opposite > 10 or units <= 4):
            opposite = 0  # pressure only on a short opposite, or to finish
        if opposite:
            gouji = [p for p in naturals if p.natural == counts[p.rank] and p.rank < BJ
                     and is_gouji(p, self.thresholds)]
            if self.pressure and gouji and units > 2:
                return min(gouji, key=lambda p: (p.rank, -p.natural))
        full = [p for p in pool if p.natural == counts[p.rank]] or pool
        if self.endgame and units <= 3:
            return max(full, key=lambda p: (p.rank, p.size))
        return min(full, key=lambda p: (p.rank, -p.natural))

    def interrupt(self, observation: Any, legal_actions: Sequence[Any],
                  rng: random.Random) -> Any:
        return XIAN if XIAN in legal_actions else None


__all__ = ["GreedyAgent", "HeuristicAgent"]
