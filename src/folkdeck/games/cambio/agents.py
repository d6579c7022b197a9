"""Cambio bots that count cards (seed 002, "カウンティング").

The counting bot works from its observation only: the open discards, the cards the
rules have shown (refusals), the cards it gave away and can follow, and its own
card. Every other card is *unseen*; the other players' unknown cards are modelled
as drawn from the unseen cards. From that it estimates the chance that its card is
the lowest at the showdown, if it keeps and if it changes, and takes the smaller.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from math import comb
from typing import Any

from folkdeck.games.cambio.actions import CHANGE, CUCCO, KEEP
from folkdeck.games.cambio.rules import (
    CAT,
    COPIES,
    FOOL,
    HORSE,
    HOUSE,
    KIND,
    MAN,
    NUM_KINDS,
    OWL,
    STOCK,
    kind,
)

OWL_RISK = 0.05
"""The owl holder calls cucco once a request may reach it with at least this chance."""


def p_lowest(v: int, fixed: Sequence[int], m: int, unseen: Counter[int]) -> float:
    """The chance that value ``v`` is the lowest (ties lose too) against the known
    values ``fixed`` and ``m`` others drawn from the ``unseen`` kinds.

    >>> p_lowest(0, [3], 0, Counter()), p_lowest(5, [3], 1, Counter({10: 2}))
    (1.0, 0.0)
    >>> round(p_lowest(0, [], 1, Counter({0: 1, 10: 1})), 2)   # FOOL (-4) or 6 against value 0
    0.5
    """
    if any(f < v for f in fixed):
        return 0.0
    if m <= 0:
        return 1.0 if fixed else 0.0
    total = sum(unseen.values())
    if total < m:
        return 0.0
    at_least = sum(c for k, c in unseen.items() if k - 4 >= v)
    return comb(at_least, m) / comb(total, m)


class CountingAgent:
    """Counts the open discards and seen cards; changes when that lowers its chance
    of holding the lowest card; calls cucco with the OWL before a request can reach it.
    """

    name = "counting"

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        if CHANGE not in legal_actions:
            return legal_actions[0]
        obs = observation
        if obs.card is None:
            return KEEP
        mine = KIND[obs.card]
        if mine == OWL:
            return KEEP  # safe once its own turn has passed; waiting costs nothing
        return CHANGE if self._p_change(obs, mine) < self._p_keep(obs, mine) - 1e-9 else KEEP

    def interrupt(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        if CUCCO not in legal_actions:
            return None
        return CUCCO if self._owl_risk(observation) >= OWL_RISK else None

    # --- counting ------------------------------------------------------------------
    @staticmethod
    def _order(obs: Any) -> list[int]:
        n = obs.num_players
        return [s % n for s in range(obs.dealer + 1, obs.dealer + n + 1) if s % n in obs.active]

    @classmethod
    def _target(cls, obs: Any, seat: int) -> int:
        order = cls._order(obs)
        i = order.index(seat)
        return order[i + 1] if i + 1 < len(order) else STOCK

    @staticmethod
    def _seen(obs: Any) -> tuple[dict[int, int], Counter[int]]:
        """Known kinds of other active seats, and the unseen kinds."""
        fixed: dict[int, int] = {}
        for s, c in (*obs.shown, *obs.known):
            if s in obs.active and s != obs.seat:
                fixed[s] = kind(c)
        unseen = Counter(dict.fromkeys(range(NUM_KINDS), COPIES))
        for c in obs.discards:
            unseen[KIND[c]] -= 1
        for k in fixed.values():
            unseen[k] -= 1
        if obs.card is not None:
            unseen[KIND[obs.card]] -= 1
        return fixed, +unseen

    def _p_keep(self, obs: Any, mine: int, drop: int = 0) -> float:
        fixed, unseen = self._seen(obs)
        others = [s for s in obs.active if s != obs.seat]
        m = sum(1 for s in others if s not in fixed) - drop
        return p_lowest(self._value(obs, mine), [k - 4 for k in fixed.values()], m, unseen)

    @staticmethod
    def _value(obs: Any, k: int) -> int:
        return 16 if k == FOOL and obs.card_from_stock else k - 4

    def _p_change(self, obs: Any, mine: int) -> float:
        fixed, unseen = self._seen(obs)
        target = self._target(obs, obs.seat)
        others = [s for s in obs.active if s != obs.seat]
        m = sum(1 for s in others if s not in fixed)
        own_dealt = obs.card_origin == obs.seat
        keep = self._p_keep(obs, mine)
        if target != STOCK and target in fixed:
            dist = Counter({fixed[target]: 1})
            m_after = m
        else:
            dist = unseen
            m_after = m - (1 if target != STOCK else 0)
        total = sum(c for k, c in dist.items() if k not in (HORSE, HOUSE))
        if total == 0:
            return keep
        risk = 0.0
        base = [k - 4 for s, k in fixed.items() if s != target]
        for t, c in dist.items():
            if t in (HORSE, HOUSE):
                continue  # passed on: treated like the other outcomes
            w = c / total
            if t == MAN:
                p = 1.0
            elif t == CAT:
                p = 1.0 if own_dealt else self._p_keep(obs, mine, drop=1)
            elif t == OWL:
                p = keep if target == STOCK else 0.0  # the stock's OWL ends the deal
            elif t == FOOL:
                p = 0.0 if target == STOCK else 1.0
            else:
                rest = unseen.copy()
                if dist is unseen:
                    rest[t] -= 1
                given = [] if target == STOCK else [mine - 4]
                p = p_lowest(t - 4, base + given, m_after, +rest)
            risk += w * p
        return risk

    def _owl_risk(self, obs: Any) -> float:
        """The chance that the request about to be made reaches this OWL."""
        turn = obs.current_seat
        if turn is None or turn == obs.seat:
            return 0.0
        order = self._order(obs)
        if order.index(turn) > order.index(obs.seat):
            return 0.0  # the seat on turn sits to our right: its request goes away from us
        fixed, unseen = self._seen(obs)
        total = sum(unseen.values()) or 1
        skip = (unseen[HORSE] + unseen[HOUSE]) / total
        risk = 0.6  # the chance that the seat on turn asks to change
        for s in order[order.index(turn) + 1:order.index(obs.seat)]:
            k = fixed.get(s)
            risk *= (1.0 if k in (HORSE, HOUSE) else 0.0) if k is not None else skip
        return risk


__all__ = ["CountingAgent", "p_lowest"]
