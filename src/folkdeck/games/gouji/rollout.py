"""Gou Ji's search settings: a cheap rollout policy, a position evaluation, root candidates.

A random rollout of a 216-card deal is long (about 300 actions) and says little, so
the Gou Ji search bots (``search_bots("gouji", ...)`` in the game's ``__init__``):

- play their rollouts with the heuristic's own policy (:mod:`~folkdeck.games.gouji.policy`,
  read straight from the sampled world, without building observations) and stop them
  after ``PLIES`` actions (:func:`playout`);
- score the position reached with :func:`evaluate`: the seats already out keep their
  places, the others are placed in the order of :func:`need`, and the places are
  scored with the rules' ``score_table``;
- search only a few root actions (:func:`candidates`: the heuristic's choice first);
- use PIMC as a policy improvement (``CONFIDENCE``): the heuristic's choice stands
  unless another candidate beats it on the same sampled worlds by 1.5 standard
  errors. Measured on 6 duplicate deals (both team sides) against the heuristic with
  60 rollouts a decision and a first, hand-set evaluation, plain PIMC (best mean)
  lost 2.8 ± 1.4 points a deal and ISMCTS (depth 1, UCB over the candidates) 4.2 ±
  1.3: with ±6-point outcomes, 10-20 rollouts per action pick noise. So ``search`` is this PIMC for Gou Ji (``pimc``
  too); ISMCTS stays available as ``ismcts`` (``:fast``, ``:strong``).

``LEVELS`` is Gou Ji's level table: one rollout with its determinization costs about
1.5 ms of CPU, so the default (300) answers in about 0.45 s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from folkdeck.agents.search import Level
from folkdeck.games.gouji.actions import NO, PASS, Burn, GouJiAction
from folkdeck.games.gouji.policy import DEFAULT, SeatKnowledge, choose, units, view_of, view_of_state
from folkdeck.games.gouji.rules import BJ, RJ, TWO, Play

if TYPE_CHECKING:
    from folkdeck.games.gouji.observation import GouJiView
    from folkdeck.games.gouji.state import GouJiState

PLIES: Final = 40
"""Actions a rollout plays before the position is evaluated."""
LEVELS: Final = {"fast": Level(rollouts=100), "default": Level(rollouts=300),
          "strong": Level(rollouts=1200)}
"""Gou Ji's level table: rollouts per decision (about 1.5 ms each with determinization)."""
CONFIDENCE: Final = 1.5
"""PIMC leaves the heuristic's choice only for an action better by this many standard
errors on the same worlds (``SearchAgent(confidence=...)``)."""


def playout(state: GouJiState, rng: random.Random, plies: int = PLIES) -> None:
    """Advance ``state`` by up to ``plies`` actions of the heuristic policy (every seat)."""
    for _ in range(plies):
        if state.is_over():
            return
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            state.apply(legal[0], seat)
            continue
        last = legal[-1]
        if last is NO:  # a burn window: burn when it can (it is about to go out)
            burns = [a for a in legal if isinstance(a, Burn)]
            state.apply(burns[0] if burns else NO, seat)
            continue
        plays = [a for a in legal if isinstance(a, Play)]
        may_pass = last is PASS or legal[-2] is PASS
        if not plays:
            state.apply(PASS if may_pass else legal[0], seat)
            continue
        choice = choose(view_of_state(state, seat), plays, may_pass, DEFAULT)
        state.apply(PASS if choice is None else choice, seat)


def need(hand: Sequence[int]) -> float:
    """An estimate of how late a hand goes out: its sets, less its control cards (2s,
    jokers, aces and kings win leads back) and big sets. The weights were fitted by least
    squares on the final places of 250 heuristic self-play deals (positions every 25
    actions, features centred per position; correlation 0.45 with the place, against
    0.24 for the number of sets alone)."""
    big = 0
    for r in range(TWO):
        big += hand[r] >= 3
    return (units(hand) - 0.56 * hand[TWO] - 0.6 * hand[BJ] - 0.88 * hand[RJ]
            - 0.39 * hand[11] - 0.3 * hand[10] - 0.2 * big - 0.07 * sum(hand))


def evaluate(state: GouJiState) -> tuple[float, ...]:
    """Every seat's return at the position: the finished result, else the places the
    seats still holding cards would take if they went out in order of :func:`need`."""
    result = state.result()
    if result is not None:
        return tuple(result.returns)
    d = state.deal
    left = d.left
    order = list(d.out)
    holding = [s for s in range(6) if left[s]]
    holding.sort(key=lambda s: (need(d.counts[s]), left[s], s))
    order += holding
    table = state.game.options.score_table
    team = [0.0, 0.0]
    for place, s in enumerate(order):
        team[s % 2] += table[place]
    return tuple(team[s % 2] for s in range(6))


def candidates(observation: GouJiView, legal: Sequence[GouJiAction], limit: int = 6) -> list[GouJiAction]:
    """The root actions worth searching: the heuristic's choice, then pass, then per
    represented rank the cheapest set (fewest wild cards), lowest ranks first."""
    view: SeatKnowledge = view_of(observation)
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return list(legal)
    may_pass = PASS in legal
    first = choose(view, plays, may_pass, DEFAULT)
    out: list[GouJiAction] = [PASS if first is None else first]
    if may_pass and PASS not in out:
        out.append(PASS)
    hand = view.hand
    best: dict[int, Play] = {}
    for p in plays:
        key = (p.w2 + 3 * (p.wbj + p.wrj), int(p.natural != hand[p.rank]) if p.rank < TWO else 0)
        q = best.get(p.rank)
        if q is None or key < (q.w2 + 3 * (q.wbj + q.wrj),
                               int(q.natural != hand[q.rank]) if q.rank < TWO else 0):
            best[p.rank] = p
    for r in sorted(best):
        if len(out) >= limit:
            break
        if best[r] not in out:
            out.append(best[r])
    return out
