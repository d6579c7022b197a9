"""Gou Ji bots that use the game's own knowledge."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from folkdeck.games.gouji.actions import (
    DECLARE,
    INSIST,
    NO,
    OPEN,
    PASS,
    REVOLUTION,
    XIAN,
    Burn,
    GouJiAction,
    Return,
)
from folkdeck.games.gouji.options import GouJiOptions
from folkdeck.games.gouji.policy import DEFAULT, Tactics, choose, view_of
from folkdeck.games.gouji.rules import BJ, RANK_OF, RJ, THRESHOLDS, TWO, Play

if TYPE_CHECKING:
    from folkdeck.cards import Card
    from folkdeck.engine.protocol import Game
    from folkdeck.games.gouji.observation import GouJiView


def _cost(p: Play) -> tuple[int, int, int]:
    """Prefer few wild cards, then low rank."""
    return (p.w2 + 3 * (p.wbj + p.wrj), p.rank, -p.natural)


def _window_answer(legal: Sequence[GouJiAction]) -> GouJiAction | None:
    """Both bots' answer in a window: declare 3s, call revolution, insist, burn (the
    cheapest), decline (``no``); None when none of these is legal."""
    others = [a for a in legal if not isinstance(a, Play)]  # a lead may list thousands of sets
    for word in (DECLARE, REVOLUTION, INSIST):
        if word in others:
            return word
    burns = [a for a in others if isinstance(a, Burn)]
    if burns:
        return min(burns, key=lambda b: _cost(b.play))
    if NO in others:
        return NO
    return None


def _greedy_lead(legal: Sequence[GouJiAction], plays: Sequence[Play]) -> GouJiAction:
    """The lowest rank, all natural copies, without wilds if it can."""
    naturals = [p for p in plays if not (p.w2 or p.wbj or p.wrj)]
    pool = naturals or plays
    if pool:
        return min(pool, key=lambda p: (p.rank, -p.natural))
    return next(a for a in legal if a != OPEN)


def _greedy_follow(observation: GouJiView, plays: Sequence[Play]) -> GouJiAction:
    """The cheapest set that beats, or a pass over a teammate's set or a xian request."""
    seat = observation.seat
    top = observation.top
    top_seat = top.seat if top is not None else None
    teammate_winning = (seat is not None and top_seat is not None and top_seat != seat
                        and (top_seat - seat) % 2 == 0)
    if observation.xian_request is not None or teammate_winning or not plays:
        return PASS
    return min(plays, key=_cost)


class GreedyAgent:
    """Sheds low natural sets first and respects its team.

    Leading: the lowest rank, all natural copies, no wilds if it can. Following: the
    cheapest set that beats (fewest wilds, then lowest rank) — but it passes when a
    teammate's play stands and passing is allowed. Windows: declares 3s, calls
    revolution, never objects, insists, burns when it can, returns its lowest cards,
    agrees to 先让让, and asks for it when offered.
    """

    name = "greedy"

    def act(self, observation: GouJiView, legal_actions: Sequence[GouJiAction],
            rng: random.Random) -> GouJiAction:
        legal = list(legal_actions)
        window = _window_answer(legal)
        if window is not None:
            return window
        returns = [a for a in legal if isinstance(a, Return)]
        if returns:
            return returns[0]
        plays = [a for a in legal if isinstance(a, Play)]
        if PASS not in legal:
            return _greedy_lead(legal, plays)
        return _greedy_follow(observation, plays)

    def interrupt(self, observation: GouJiView, legal_actions: Sequence[GouJiAction],
                  rng: random.Random) -> GouJiAction | None:
        return XIAN if XIAN in legal_actions else None


def _counts(hand: Sequence[Card]) -> list[int]:
    counts = [0] * 15
    for c in hand:
        counts[RANK_OF[c]] += 1
    return counts


class HeuristicAgent:
    """Team play from the rules (docs/rules/gouji.md), on rank counts (:mod:`folkdeck.games.gouji.policy` lists
    the tactics: team, finish, help, block, weakness, economy).

    Windows: tribute returns give the lowest cards that break no pair or set (useless
    singles); burns whenever it can (a burn leaves one set: it is about to go out),
    cheapest burn; declares its 3s, calls revolution, never objects, insists; asks for
    先让让 when offered.

    It plays by the table's ``bj_wild_rule`` and gouji thresholds once :meth:`bind` tells it
    them (the default rules until then; ``thresholds`` given here are kept).
    """

    name = "heuristic"

    def __init__(self, thresholds: dict[int, int] | None = None,
                 tactics: Tactics = DEFAULT) -> None:
        self.thresholds = dict(THRESHOLDS if thresholds is None else thresholds)
        self._own_thresholds = thresholds is not None
        self.tactics = tactics
        self.bj_rule = "count"

    def bind(self, game: Game) -> None:
        """Tell the bot the rules of the deals it plays (they are public)."""
        options = game.options
        if isinstance(options, GouJiOptions):
            self.bj_rule = options.bj_wild_rule
            if not self._own_thresholds:
                self.thresholds = options.thresholds()

    def act(self, observation: GouJiView, legal_actions: Sequence[GouJiAction],
            rng: random.Random) -> GouJiAction:
        legal = list(legal_actions)
        window = _window_answer(legal)
        if window is not None:
            return window
        returns = [a for a in legal if isinstance(a, Return)]
        if returns:
            counts = _counts(observation.hand or ())
            return min(returns, key=lambda a: (sum(counts[r] - a.ranks.count(r) > 0 for r in set(a.ranks)),
                                               sum(r in (TWO, BJ, RJ) for r in a.ranks), sorted(a.ranks,
                                               reverse=True)))
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return PASS if PASS in legal else legal[0]
        choice = choose(view_of(observation, self.thresholds, self.bj_rule), plays, PASS in legal,
                        self.tactics)
        return PASS if choice is None else choice

    def interrupt(self, observation: GouJiView, legal_actions: Sequence[GouJiAction],
                  rng: random.Random) -> GouJiAction | None:
        return XIAN if XIAN in legal_actions else None


__all__ = ["GreedyAgent", "HeuristicAgent"]
